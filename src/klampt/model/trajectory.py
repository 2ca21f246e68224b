"""Timed trajectories: piecewise linear, robot-interpolated, geodesic (SO3,
SE3) and Hermite/Bezier curves, plus conversion of untimed paths into timed
trajectories (:func:`path_to_trajectory`) and sending them to controllers
(:func:`execute_path`, :func:`execute_trajectory`).

A trajectory is a list of ``times`` and a list of ``milestones`` (states);
segment i spans [times[i], times[i+1]].  Each class only changes how states
are interpolated (:meth:`Trajectory.interpolate_state`) and differentiated
(:meth:`Trajectory.difference_state`), and how a state maps to a
configuration (:meth:`Trajectory.waypoint`).

End behaviours: ``'halt'`` holds the first/last milestone outside the time
range (derivative zero); ``'loop'`` wraps the time into the range.

Angular velocities of SO3/SE3 trajectories are world-frame vectors, and the
9-D derivatives of rotations are their cross-product matrices (see
:mod:`klampt.math.geodesic`).
"""
from ..robotsim import RobotModel, RobotModelLink  # noqa: F401  (Klamp't's module has them)
import bisect
import math
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

from ..math import vectorops, so3, se3, spline
from ..math.geodesic import GeodesicSpace, CartesianSpace, MultiGeodesicSpace, SO3Space, SE3Space
from .._checks import check_finite, check_not_nan
from .._robotsim import motionplanning as _motionplanning  # the time-scaling functions klampt.plan.motionplanning re-exports
from . import _timing
from .subrobot import SubRobotModel

#: A distance between two configurations: metric(a, b) -> float.
MetricType = Callable[[Sequence[float], Sequence[float]], float]

_END_BEHAVIORS = ('halt', 'loop')


class Trajectory(object):
    """A piecewise linear trajectory.

    Args:
        times (list of float, optional): nondecreasing knot times; defaults to
            0, 1, 2, ... if only milestones are given.
        milestones (list of lists, optional): the states at the knots.
    """

    def __init__(self, times: Optional[List[float]] = None, milestones: Optional[List[Sequence[float]]] = None):
        if milestones is None:
            milestones = []
        if times is None:
            times = list(range(len(milestones)))
        self.times = [float(t) for t in times]
        self.milestones = [list(m) for m in milestones]
        if len(self.times) != len(self.milestones):
            raise ValueError("Times and milestones have different lengths (%d vs %d)" % (len(self.times), len(self.milestones)))

    def load(self, fn: str) -> None:
        """Reads from a whitespace-separated file, one milestone a line:
        ``t n x1 ... xn``."""
        times = []
        milestones = []
        with open(fn, 'r') as f:
            for lineno, line in enumerate(f, 1):
                items = line.split()
                if not items:
                    continue
                try:
                    t = float(items[0])
                    n = int(items[1])
                    x = [float(v) for v in items[2:]]
                except (ValueError, IndexError):
                    raise IOError("%s, line %d: expected 't n x1 ... xn'" % (fn, lineno))
                if len(x) != n:
                    raise IOError("%s, line %d: expected %d values, got %d" % (fn, lineno, n, len(x)))
                times.append(t)
                milestones.append(x)
        self.times = times
        self.milestones = milestones

    def save(self, fn: str) -> None:
        """Writes to a file in the format of :meth:`load`."""
        with open(fn, 'w') as f:
            for t, x in zip(self.times, self.milestones):
                f.write('%r\t%d %s\n' % (float(t), len(x), ' '.join(repr(float(v)) for v in x)))

    def startTime(self) -> float:
        """The first knot time (0 if empty)."""
        return self.times[0] if self.times else 0.0

    def endTime(self) -> float:
        """The last knot time (0 if empty)."""
        return self.times[-1] if self.times else 0.0

    def duration(self) -> float:
        """The time span endTime() - startTime() (s); 0 if empty."""
        return self.endTime() - self.startTime()

    def checkValid(self) -> None:
        """Raises ValueError if the times and milestones are inconsistent."""
        if len(self.times) != len(self.milestones):
            raise ValueError("Times and milestones have different lengths")
        for i in range(len(self.times) - 1):
            if self.times[i + 1] < self.times[i]:
                raise ValueError("Timing is not sorted at index %d" % i)
        n = len(self.milestones[0]) if self.milestones else 0
        for i, m in enumerate(self.milestones):
            if len(m) != n:
                raise ValueError("Milestone %d has size %d, expected %d" % (i, len(m), n))

    def getSegment(self, t: float, endBehavior: str = 'halt') -> Tuple[int, float]:
        """Returns (index, u) such that t lies in segment index at parameter
        u in [0,1).  Returns (-1, 0) before the start and (len(times)-1, 0)
        at or after the end."""
        if endBehavior not in _END_BEHAVIORS:
            raise ValueError("Invalid endBehavior %r, must be 'halt' or 'loop'" % (endBehavior,))
        if not self.times:
            raise ValueError("Empty trajectory")
        check_not_nan(t, "t")
        if len(self.times) == 1:
            return (-1, 0.0) if t < self.times[0] else (0, 0.0)
        if endBehavior == 'loop' and (t < self.times[0] or t > self.times[-1]):
            d = self.duration()
            if d > 0:
                t = self.times[0] + math.fmod(t - self.times[0], d)
                if t < self.times[0]:
                    t += d
        if t < self.times[0]:
            return (-1, 0.0)
        if t >= self.times[-1]:
            return (len(self.times) - 1, 0.0)
        i = bisect.bisect_right(self.times, t) - 1
        dt = self.times[i + 1] - self.times[i]
        u = 0.0 if dt <= 0 else (t - self.times[i]) / dt
        return (i, u)

    def eval(self, t: float, endBehavior: str = 'halt') -> Sequence[float]:
        """The configuration at time t."""
        return self.waypoint(self.eval_state(t, endBehavior))

    def deriv(self, t: float, endBehavior: str = 'halt') -> Sequence[float]:
        """The derivative of the configuration at time t (zero outside the
        time range with endBehavior 'halt')."""
        return self.deriv_state(t, endBehavior)

    def waypoint(self, state: Sequence[float]) -> Sequence[float]:
        """The configuration of a state (the state itself here)."""
        return state

    def eval_state(self, t: float, endBehavior: str = 'halt') -> Sequence[float]:
        """The state at time t."""
        i, u = self.getSegment(t, endBehavior)
        if i < 0:
            return list(self.milestones[0])
        if i >= len(self.milestones) - 1:
            return list(self.milestones[-1])
        return self.interpolate_state(self.milestones[i], self.milestones[i + 1], u, self.times[i + 1] - self.times[i])

    def deriv_state(self, t: float, endBehavior: str = 'halt') -> Sequence[float]:
        """The time derivative of the state at time t."""
        i, u = self.getSegment(t, endBehavior)
        if i < 0:
            return [0.0] * len(self.milestones[0])
        if i >= len(self.milestones) - 1:
            return [0.0] * len(self.milestones[-1])
        return self.difference_state(self.milestones[i + 1], self.milestones[i], u, self.times[i + 1] - self.times[i])

    def interpolate_state(self, a: Sequence[float], b: Sequence[float], u: float, dt: float) -> Sequence[float]:
        """Interpolates from state a (u=0) to b (u=1) over a segment of
        duration dt."""
        return vectorops.interpolate(a, b, u)

    def difference_state(self, a: Sequence[float], b: Sequence[float], u: float, dt: float) -> Sequence[float]:
        """The time derivative at parameter u of the segment that goes from b
        to a in duration dt."""
        if dt <= 0:
            return [0.0] * len(a)
        return vectorops.mul(vectorops.sub(a, b), 1.0 / dt)

    def concat(self, suffix: 'Trajectory', relative: bool = False, jumpPolicy: str = 'strict') -> 'Trajectory':
        """Returns a new trajectory with suffix appended.

        Args:
            suffix (Trajectory): the trajectory to append.
            relative (bool): if True, the suffix's times are shifted by
                self.endTime().
            jumpPolicy (str): when the suffix starts exactly at self's end
                time: 'strict' requires equal milestones there (else
                ValueError), 'blend' drops self's last milestone, 'jump'
                keeps both (a discontinuity).
        """
        if jumpPolicy not in ('strict', 'blend', 'jump'):
            raise ValueError("Invalid jumpPolicy %r" % (jumpPolicy,))
        if not suffix.times:
            return self.constructor()(self.times, self.milestones)
        offset = self.endTime() if relative else 0.0
        stimes = [t + offset for t in suffix.times]
        smilestones = [list(m) for m in suffix.milestones]
        if not self.times:
            return self.constructor()(stimes, smilestones)
        times = list(self.times)
        milestones = [list(m) for m in self.milestones]
        if stimes[0] < times[-1]:
            raise ValueError("Invalid concatenation, suffix startTime precedes endTime")
        if stimes[0] == times[-1]:
            if jumpPolicy == 'strict':
                if len(smilestones[0]) != len(milestones[-1]) or vectorops.distance(smilestones[0], milestones[-1]) > 1e-8:
                    raise ValueError("Concatenation would cause a jump in configuration")
                stimes, smilestones = stimes[1:], smilestones[1:]
            elif jumpPolicy == 'blend':
                times.pop()
                milestones.pop()
        return self.constructor()(times + stimes, milestones + smilestones)

    def insert(self, time: float) -> int:
        """Inserts a knot at the given time (keeping the curve unchanged) and
        returns its index; if a knot already exists there, returns its index.
        An empty trajectory gets the milestone []."""
        if not self.times:
            self.times = [time]
            self.milestones = [[]]
            return 0
        k = bisect.bisect_left(self.times, time)
        if k < len(self.times) and self.times[k] == time:
            return k
        x = self.eval_state(time)
        self.times.insert(k, time)
        self.milestones.insert(k, x)
        return k

    def split(self, time: float) -> Tuple['Trajectory', 'Trajectory']:
        """Returns (prefix, suffix) with prefix.endTime() == time,
        suffix.startTime() == time and prefix.milestones[-1] ==
        suffix.milestones[0]."""
        if not self.times:
            raise ValueError("Empty trajectory")
        k = bisect.bisect_left(self.times, time)
        x = list(self.milestones[k]) if k < len(self.times) and self.times[k] == time else self.eval_state(time)
        ptimes = self.times[:k] + [time]
        pmilestones = [list(m) for m in self.milestones[:k]] + [x]
        if k < len(self.times) and self.times[k] == time:
            stimes = self.times[k:]
            smilestones = [list(m) for m in self.milestones[k:]]
        else:
            stimes = [time] + self.times[k:]
            smilestones = [list(x)] + [list(m) for m in self.milestones[k:]]
        c = self.constructor()
        return c(ptimes, pmilestones), c(stimes, smilestones)

    def before(self, time: float) -> 'Trajectory':
        """The part of the trajectory up to the given time."""
        return self.split(time)[0]

    def after(self, time: float) -> 'Trajectory':
        """The part of the trajectory from the given time on."""
        return self.split(time)[1]

    def splice(self, suffix: 'Trajectory', time: List[float] = None, relative: bool = False, jumpPolicy: str = 'strict') -> 'Trajectory':
        """Returns self up to a time followed by suffix.

        Args:
            suffix (Trajectory): the trajectory to splice in.
            time (float, optional): the splice time; default: the suffix's
                start time (shifted if relative).
            relative (bool): if True, the suffix's times are shifted by time
                (or by self.endTime() if time is None).
            jumpPolicy (str): as in :meth:`concat`.
        """
        if relative:
            offset = self.endTime() if time is None else time
            suffix = suffix.constructor()([t + offset for t in suffix.times], suffix.milestones)
        if time is None:
            time = suffix.startTime()
        return self.before(time).concat(suffix, False, jumpPolicy)

    def constructor(self) -> Callable[[List, List], 'Trajectory']:
        """A function f(times, milestones) that builds a trajectory of the
        same kind as self."""
        return Trajectory

    def _map_milestones(self, configs, config, velocity):
        """The trajectory of the same kind with milestones
        configs(self.milestones).  SubRobotModel.tofull/fromfull map
        trajectories through this method (config and velocity map one
        vector, for HermiteTrajectory) instead of importing this module,
        which imports theirs."""
        return self.constructor()(self.times, configs(self.milestones))

    def length(self, metric: Optional[Callable[[Sequence[float], Sequence[float]], float]] = None) -> float:
        """The sum of the distances between successive milestones, by metric
        (Euclidean by default)."""
        if metric is None:
            metric = vectorops.distance
        return sum(metric(a, b) for a, b in zip(self.milestones[:-1], self.milestones[1:]))

    def _sample_times(self, dt):
        if dt <= 0:
            raise ValueError("dt must be positive")
        if not self.times:
            return []
        t0, t1 = self.startTime(), self.endTime()
        n = int(math.floor((t1 - t0) / dt + 1e-7))
        times = [t0 + i * dt for i in range(n + 1)]
        if t1 - times[-1] > 1e-7 * max(1.0, dt):
            times.append(t1)
        else:
            times[-1] = t1
        return times

    def discretize_state(self, dt: float) -> 'Trajectory':
        """Returns a trajectory of the same kind sampled every dt (plus the
        end time)."""
        times = self._sample_times(dt)
        return self.constructor()(times, [self.eval_state(t) for t in times])

    def discretize(self, dt: float) -> 'Trajectory':
        """Returns a trajectory in configuration space sampled every dt
        (plus the end time)."""
        return self.discretize_state(dt)

    def remesh(self, newtimes: Iterable[float], tol: float = 1e-6) -> Tuple['Trajectory', List[int]]:
        """Returns (path, newtimeidx): path has knots at newtimes and at the
        existing knot times, except that existing interior knots that path
        would follow within tol without them are dropped;
        ``path.times[newtimeidx[i]] == newtimes[i]``.  New times within tol
        of an existing knot use that knot.  End behaviour 'halt'."""
        newtimes = list(newtimes)
        res = self.constructor()(list(self.times), [list(m) for m in self.milestones])
        isnew = [False] * len(res.times)
        for t in newtimes:
            k = bisect.bisect_left(res.times, t - tol)
            if k < len(res.times) and abs(res.times[k] - t) <= tol:
                isnew[k] = True
                continue
            x = self.eval_state(t)
            res.times.insert(k, t)
            res.milestones.insert(k, x)
            isnew.insert(k, True)
        # drop old interior knots that the neighbours reproduce within tol
        i = 1
        while i + 1 < len(res.times):
            if not isnew[i]:
                t0, t1, t2 = res.times[i - 1], res.times[i], res.times[i + 1]
                if t2 > t0 and t0 < t1 < t2:
                    x = res.interpolate_state(res.milestones[i - 1], res.milestones[i + 1], (t1 - t0) / (t2 - t0), t2 - t0)
                    if len(x) == len(res.milestones[i]) and vectorops.distance(x, res.milestones[i]) <= tol:
                        del res.times[i]
                        del res.milestones[i]
                        del isnew[i]
                        continue
            i += 1
        idx = []
        for t in newtimes:
            k = bisect.bisect_left(res.times, t - tol)
            idx.append(k)
        return res, idx

    def extractDofs(self, dofs: List[int]) -> 'Trajectory':
        """A trajectory over only the given state indices."""
        return self.constructor()(self.times, [[m[i] for i in dofs] for m in self.milestones])

    def stackDofs(self, trajs: List['Trajectory'], strict: bool = True) -> None:
        """Replaces self with the trajectory whose state concatenates the
        states of trajs, at the union of their knot times ('halt' end
        behaviour).  If strict, all trajectories must be of the class of
        self."""
        if strict:
            for tr in trajs:
                if tr.__class__ is not self.__class__:
                    raise ValueError("Cannot stack a %s onto a %s with strict=True" % (tr.__class__.__name__, self.__class__.__name__))
        times = sorted(set(t for tr in trajs for t in tr.times))
        milestones = []
        for t in times:
            x = []
            for tr in trajs:
                x += list(tr.eval_state(t))
            milestones.append(x)
        self.times = times
        self.milestones = milestones


class RobotTrajectory(Trajectory):
    """A trajectory of robot configurations, interpolated with the robot's
    own rules (``robot.interpolate``), e.g. angles of spin joints wrap.

    Args:
        robot (RobotModel or SubRobotModel): the robot.
        times, milestones: as in :class:`Trajectory`.
    """

    def __init__(self, robot, times: Optional[List[float]] = None, milestones: Optional[List[Sequence[float]]] = None):
        Trajectory.__init__(self, times, milestones)
        self.robot = robot

    def interpolate_state(self, a, b, u, dt):
        return [float(v) for v in self.robot.interpolate(a, b, u)]

    def difference_state(self, a, b, u, dt):
        if dt <= 0:
            return [0.0] * len(a)
        return vectorops.mul([float(v) for v in self.robot.interpolateDeriv(b, a)], 1.0 / dt)

    def constructor(self):
        return lambda times, milestones: RobotTrajectory(self.robot, times, milestones)

    def getLinkTrajectory(self, link, discretization: Optional[List[float]] = None) -> 'SE3Trajectory':
        """The SE3Trajectory of a link's frame (given by index, name or
        RobotModelLink) at the milestones, or sampled every discretization
        seconds if given.  The robot's configuration is restored."""
        if discretization is not None:
            return self.discretize(discretization).getLinkTrajectory(link)
        if isinstance(link, (int, str)):
            link = self.robot.link(link)
        qsave = self.robot.getConfig()
        transforms = []
        try:
            for q in self.milestones:
                self.robot.setConfig(q)
                transforms.append(link.getTransform())
        finally:
            self.robot.setConfig(qsave)
        return SE3Trajectory(self.times, transforms)

    def length(self, metric=None):
        """Length with the robot's distance by default."""
        if metric is None:
            metric = self.robot.distance
        return Trajectory.length(self, metric)

    def checkValid(self):
        Trajectory.checkValid(self)
        n = self.robot.numLinks()
        for i, m in enumerate(self.milestones):
            if len(m) != n:
                raise ValueError("Milestone %d has size %d, the robot has %d links" % (i, len(m), n))

    def extractDofs(self, dofs: List) -> 'RobotTrajectory':
        """A RobotTrajectory over the SubRobotModel of the given links
        (indices or names)."""
        sub = SubRobotModel(self.robot, dofs)
        return RobotTrajectory(sub, self.times, [[m[i] for i in sub._links] for m in self.milestones])

    def stackDofs(self, trajs):
        """Stacks trajectories whose sizes add up to the robot's number of
        links; the result is checked against self.robot."""
        Trajectory.stackDofs(self, trajs, strict=False)
        self.checkValid()


class GeodesicTrajectory(Trajectory):
    """A trajectory interpolated along the geodesics of a
    :class:`~klampt.math.geodesic.GeodesicSpace`; the derivative is in the
    space's tangent representation."""

    def __init__(self, geodesic: GeodesicSpace, times: Optional[List[float]] = None, milestones: Optional[List[Sequence[float]]] = None):
        self.geodesic = geodesic
        Trajectory.__init__(self, times, milestones)

    def interpolate_state(self, a, b, u, dt):
        return self.geodesic.interpolate(a, b, u)

    def difference_state(self, a, b, u, dt):
        if dt <= 0:
            return [0.0] * len(self.geodesic.difference(a, b))
        x = self.geodesic.interpolate(b, a, u)
        # tangent at the current point towards a, rescaled to the full segment
        if u >= 1.0 - 1e-12:
            return vectorops.mul(self.geodesic.difference(a, b), 1.0 / dt)
        return vectorops.mul(self.geodesic.difference(a, x), 1.0 / (dt * (1.0 - u)))

    def constructor(self):
        return lambda times, milestones: GeodesicTrajectory(self.geodesic, times, milestones)

    def length(self, metric=None):
        """Length with the geodesic distance by default."""
        if metric is None:
            metric = self.geodesic.distance
        return Trajectory.length(self, metric)

    def checkValid(self):
        Trajectory.checkValid(self)
        n = self.geodesic.extrinsicDimension()
        for i, m in enumerate(self.milestones):
            if len(m) != n:
                raise ValueError("Milestone %d has size %d, the geodesic space has %d" % (i, len(m), n))

    def extractDofs(self, dofs):
        """A plain (linearly interpolated) Trajectory of the given element
        indices."""
        return Trajectory(self.times, [[m[i] for i in dofs] for m in self.milestones])

    def stackDofs(self, trajs, strict=True):
        """Stacks trajectories; the geodesic becomes the product of theirs
        (Cartesian for plain trajectories)."""
        Trajectory.stackDofs(self, trajs, strict=False)
        comps = []
        for tr in trajs:
            if hasattr(tr, 'geodesic'):
                comps.append(tr.geodesic)
            else:
                comps.append(CartesianSpace(len(tr.milestones[0]) if tr.milestones else 0))
        self.geodesic = MultiGeodesicSpace(*comps)


class SO3Trajectory(GeodesicTrajectory):
    """A trajectory of 3D rotations (9-element column-major lists)."""

    def __init__(self, times: Optional[List[float]] = None, milestones: Optional[List[Sequence[float]]] = None):
        GeodesicTrajectory.__init__(self, SO3Space(), times, milestones)

    def deriv_angvel(self, t: float, endBehavior: str = 'halt') -> Sequence[float]:
        """The world-frame angular velocity at time t."""
        return so3.deskew(self.deriv(t, endBehavior))

    def preTransform(self, R: Sequence[float]) -> None:
        """Left-multiplies every milestone by R."""
        self.milestones = [so3.mul(R, m) for m in self.milestones]

    def postTransform(self, R: Sequence[float]) -> None:
        """Right-multiplies every milestone by R."""
        self.milestones = [so3.mul(m, R) for m in self.milestones]

    def getPointTrajectory(self, localPt: Sequence[float]) -> Trajectory:
        """The trajectory of a point fixed in the rotating frame (sampled at
        the milestones)."""
        return Trajectory(self.times, [so3.apply(m, localPt) for m in self.milestones])

    def checkValid(self):
        GeodesicTrajectory.checkValid(self)
        for i, m in enumerate(self.milestones):
            if not so3.is_rotation(m, 1e-5):
                raise ValueError("Milestone %d is not a rotation matrix" % i)

    def constructor(self):
        return SO3Trajectory


class SE3Trajectory(GeodesicTrajectory):
    """A trajectory of rigid transforms.  Milestones are 12-element lists
    R + t; the constructor also accepts (R, t) pairs."""

    def __init__(self, times: Optional[List[float]] = None, milestones=None):
        if milestones is not None:
            milestones = [self.from_se3(m) if len(m) == 2 else list(m) for m in milestones]
        GeodesicTrajectory.__init__(self, SE3Space(), times, milestones)

    def to_se3(self, state: Sequence[float]) -> Tuple[Sequence[float], Sequence[float]]:
        """Converts a 12-element milestone R + t to an se3 transform.

        Returns:
            tuple: (R, t), R a 9-element column-major rotation, t a 3-element
            translation.
        """
        return (list(state[:9]), list(state[9:]))

    def waypoint(self, state):
        return self.to_se3(state)

    def from_se3(self, T) -> Sequence[float]:
        """Converts an se3 transform (R, t) to a 12-element milestone R + t."""
        return list(T[0]) + list(T[1])

    def eval(self, t: float, endBehavior: str = 'halt'):
        """The transform (R, t) at time t."""
        return self.to_se3(self.eval_state(t, endBehavior))

    def deriv(self, t: float, endBehavior: str = 'halt'):
        """The derivative ([w] (9 elements), dt/dt) at time t, w the
        world-frame angular velocity."""
        return self.to_se3(self.deriv_state(t, endBehavior))

    def deriv_screw(self, t: float, endBehavior: str = 'halt'):
        """The derivative as a 6-element list (angular velocity, velocity)."""
        dR, dt = self.deriv(t, endBehavior)
        return so3.deskew(dR) + list(dt)

    def preTransform(self, T) -> None:
        """Left-multiplies every milestone by the transform T."""
        self.milestones = [self.from_se3(se3.mul(T, self.to_se3(m))) for m in self.milestones]

    def postTransform(self, T) -> None:
        """Right-multiplies every milestone by the transform T."""
        self.milestones = [self.from_se3(se3.mul(self.to_se3(m), T)) for m in self.milestones]

    def getRotationTrajectory(self) -> SO3Trajectory:
        """The trajectory of the rotation part alone, with the same times."""
        return SO3Trajectory(self.times, [m[:9] for m in self.milestones])

    def getPositionTrajectory(self, localPt: Optional[Sequence[float]] = None) -> Trajectory:
        """The trajectory of the origin, or of localPt in the moving frame
        (sampled at the milestones)."""
        if localPt is None:
            return Trajectory(self.times, [m[9:] for m in self.milestones])
        return Trajectory(self.times, [se3.apply(self.to_se3(m), localPt) for m in self.milestones])

    def checkValid(self):
        GeodesicTrajectory.checkValid(self)
        for i, m in enumerate(self.milestones):
            if not so3.is_rotation(m[:9], 1e-5):
                raise ValueError("Milestone %d does not have a rotation matrix" % i)

    def extractDofs(self, dofs: List[int]) -> Trajectory:
        return GeodesicTrajectory.extractDofs(self, dofs)

    def constructor(self):
        return SE3Trajectory


class HermiteTrajectory(Trajectory):
    """A cubic Hermite spline.  Each state is a configuration x followed by
    its velocity v (2n elements).

    Possible constructor forms: HermiteTrajectory(), HermiteTrajectory(times,
    milestones) with 2n-element states, HermiteTrajectory(times, milestones,
    dmilestones) with separate positions and velocities.
    """

    def __init__(self, times: Optional[List[float]] = None, milestones: Optional[List[Sequence[float]]] = None, dmilestones: Optional[List[Sequence[float]]] = None):
        if dmilestones is not None:
            if milestones is None or len(milestones) != len(dmilestones):
                raise ValueError("milestones and dmilestones must have the same length")
            milestones = [list(x) + list(v) for x, v in zip(milestones, dmilestones)]
        Trajectory.__init__(self, times, milestones)

    def makeSpline(self, waypointTrajectory: Trajectory, preventOvershoot: bool = True, loop: bool = False) -> None:
        """Makes a C1 spline through the milestones of a timed trajectory.
        Interior velocities are central differences; end velocities make the
        end segments quadratic (or wrap around if loop).  With
        preventOvershoot, a coordinate's velocity is zero at milestones where
        that coordinate has a local extremum."""
        times = list(waypointTrajectory.times)
        xs = [list(m) for m in waypointTrajectory.milestones]
        n = len(xs)
        if n == 0:
            self.times, self.milestones = [], []
            return
        if n == 1:
            self.times = times
            self.milestones = [xs[0] + [0.0] * len(xs[0])]
            return
        vs = [None] * n
        for i in range(1, n - 1):
            dt = times[i + 1] - times[i - 1]
            vs[i] = vectorops.mul(vectorops.sub(xs[i + 1], xs[i - 1]), 1.0 / dt) if dt > 0 else [0.0] * len(xs[i])
            if preventOvershoot:
                for j in range(len(vs[i])):
                    if (xs[i][j] - xs[i - 1][j]) * (xs[i + 1][j] - xs[i][j]) <= 0:
                        vs[i][j] = 0.0
        if loop:
            span = (times[-1] - times[-2]) + (times[1] - times[0])
            v = vectorops.mul(vectorops.sub(xs[1], xs[-2]), 1.0 / span)
            vs[0] = v
            vs[-1] = list(v)
        else:
            def end_velocity(xa, xb, dt, vother):
                if dt <= 0:
                    return [0.0] * len(xa)
                if vother is None:
                    return vectorops.mul(vectorops.sub(xb, xa), 1.0 / dt)
                return vectorops.sub(vectorops.mul(vectorops.sub(xb, xa), 2.0 / dt), vother)
            vs[0] = end_velocity(xs[0], xs[1], times[1] - times[0], vs[1] if n > 2 else None)
            vs[-1] = end_velocity(xs[-2], xs[-1], times[-1] - times[-2], vs[-2] if n > 2 else None)
        self.times = times
        self.milestones = [x + v for x, v in zip(xs, vs)]

    def makeBezier(self, times: List[float], controlPoints: List[Sequence[float]]) -> None:
        """Makes a piecewise cubic Bezier curve: segment i spans [times[i],
        times[i+1]] with control points controlPoints[3i:3i+4].  Where the
        tangents of neighbouring segments differ, the knot is duplicated."""
        nseg = len(times) - 1
        if nseg < 1 or len(controlPoints) != 3 * nseg + 1:
            raise ValueError("Need len(controlPoints) == 3*(len(times)-1)+1")
        self.times = []
        self.milestones = []
        for i in range(nseg):
            dt = times[i + 1] - times[i]
            if dt <= 0:
                raise ValueError("Times must be increasing")
            x1, v1, x2, v2 = spline.bezier_to_hermite(*controlPoints[3 * i:3 * i + 4])
            v1 = vectorops.mul(v1, 1.0 / dt)
            v2 = vectorops.mul(v2, 1.0 / dt)
            if self.milestones and vectorops.distance(self.milestones[-1][len(x1):], v1) <= 1e-8:
                self.milestones.pop()
                self.times.pop()
            self.times += [times[i], times[i + 1]]
            self.milestones += [list(x1) + v1, list(x2) + v2]

    def makeMinTimeSpline(self, milestones: List[Sequence[float]], velocities: Optional[List[Sequence[float]]] = None, xmin=None, xmax=None, vmax=None, amax=None) -> None:
        """Makes the fastest spline through the milestones with per-coordinate
        velocity bounds vmax and acceleration bounds amax, within [xmin, xmax]
        if given.

        Without velocities the spline stops at each milestone and moves along
        the straight lines between them (the form planners' paths need);
        with velocities (one per milestone) each leg is the time-optimal
        move between the given states, its coordinates arriving together.
        Built on :func:`klampt.plan.motionplanning.interpolate_nd_min_time_linear`
        and :func:`~klampt.plan.motionplanning.interpolate_nd_min_time`.

        Raises:
            ValueError: for missing bounds or mismatched sizes, a milestone
                that is not finite, or a leg that cannot stay within the
                limits.
        """
        if vmax is None and amax is None:
            raise ValueError("Either vmax or amax must be provided")
        if amax is None:
            raise ValueError("makeMinTimeSpline needs amax")
        if len(milestones) == 0 or len(milestones[0]) == 0:
            raise ValueError("Milestones need to be provided and at least 1-d")
        n = len(milestones[0])
        for i, m in enumerate(milestones):
            if len(m) != n:
                raise ValueError("Invalid size of milestone")
            check_finite(m, "milestones[%d]" % i)
        if velocities is not None:
            if len(velocities) != len(milestones):
                raise ValueError("Velocities need to have the same size as milestones")
            for v in velocities:
                if len(v) != n:
                    raise ValueError("Invalid size of velocity milestone")
        inf = float('inf')
        bounds = []
        for name, value, default in (("lower bound", xmin, -inf), ("upper bound", xmax, inf),
                                     ("velocity bound", vmax, inf), ("acceleration bound", amax, None)):
            if value is None:
                value = [default] * n
            elif len(value) != n:
                raise ValueError("Invalid size of " + name)
            bounds.append(list(value))
        xmin, xmax, vmax, amax = bounds
        for m in milestones:
            if any(m[j] < xmin[j] or m[j] > xmax[j] for j in range(n)):
                raise ValueError("Milestone outside [xmin, xmax]")
        times = [0.0]
        points = [list(milestones[0])]
        vels = [list(velocities[0]) if velocities is not None else [0.0] * n]
        for i in range(len(milestones) - 1):
            if velocities is None:
                ts, xs, vs = _motionplanning.interpolate_nd_min_time_linear(milestones[i], milestones[i + 1], vmax, amax)
            else:
                ts, xs, vs = _motionplanning.interpolate_nd_min_time(milestones[i], velocities[i], milestones[i + 1],
                                                                    velocities[i + 1], xmin, xmax, vmax, amax)
                if len(ts) == 0:
                    raise ValueError("Leg %d cannot be made within the position limits" % i)
                ts, xs, vs = _motionplanning.combine_nd_cubic(ts, xs, vs)
            t0 = times[-1]
            times += [t0 + t for t in ts[1:]]
            points += [list(x) for x in xs[1:]]
            vels += [list(v) for v in vs[1:]]
        self.times = times
        self.milestones = [p + v for p, v in zip(points, vels)]

    def _split_state(self, s):
        n = len(s) // 2
        return s[:n], s[n:]

    def waypoint(self, state):
        return list(state[:len(state) // 2])

    def eval_state(self, t, endBehavior='halt'):
        i, u = self.getSegment(t, endBehavior)
        if i < 0:
            x, _ = self._split_state(self.milestones[0])
            return list(x) + [0.0] * len(x)
        if i >= len(self.milestones) - 1:
            x, _ = self._split_state(self.milestones[-1])
            return list(x) + [0.0] * len(x)
        return self.interpolate_state(self.milestones[i], self.milestones[i + 1], u, self.times[i + 1] - self.times[i])

    def eval(self, t, endBehavior='halt'):
        return self.waypoint(self.eval_state(t, endBehavior))

    def deriv(self, t, endBehavior='halt'):
        """The velocity at time t."""
        s = self.eval_state(t, endBehavior)
        return list(s[len(s) // 2:])

    def eval_accel(self, t, endBehavior='halt') -> Sequence[float]:
        """The acceleration at time t."""
        d = self.deriv_state(t, endBehavior)
        return list(d[len(d) // 2:])

    def interpolate_state(self, a, b, u, dt):
        x1, v1 = self._split_state(a)
        x2, v2 = self._split_state(b)
        if dt <= 0:
            return list(a)
        v1s = vectorops.mul(v1, dt)
        v2s = vectorops.mul(v2, dt)
        x = spline.hermite_eval(x1, v1s, x2, v2s, u)
        dx = spline.hermite_deriv(x1, v1s, x2, v2s, u)
        return x + vectorops.mul(dx, 1.0 / dt)

    def difference_state(self, a, b, u, dt):
        """(velocity, acceleration) at parameter u of the segment from b to a."""
        x1, v1 = self._split_state(b)
        x2, v2 = self._split_state(a)
        if dt <= 0:
            return [0.0] * len(a)
        v1s = vectorops.mul(v1, dt)
        v2s = vectorops.mul(v2, dt)
        dx = spline.hermite_deriv(x1, v1s, x2, v2s, u)
        ddx = spline.hermite_deriv(x1, v1s, x2, v2s, u, 2)
        return vectorops.mul(dx, 1.0 / dt) + vectorops.mul(ddx, 1.0 / dt ** 2)

    def discretize(self, dt):
        """A piecewise linear Trajectory of positions sampled every dt."""
        times = self._sample_times(dt)
        return Trajectory(times, [self.eval(t) for t in times])

    def length(self) -> float:
        """The arc length of the curve (Gauss-Legendre quadrature)."""
        total = 0.0
        # 5-point Gauss-Legendre rule on 8 sub-intervals of each segment
        nodes = [0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640, 0.9061798459386640]
        weights = [0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891, 0.2369268850561891]
        for i in range(len(self.times) - 1):
            t0, t1 = self.times[i], self.times[i + 1]
            if t1 <= t0:
                continue
            a, b = self.milestones[i], self.milestones[i + 1]
            for k in range(8):
                u0, u1 = k / 8.0, (k + 1) / 8.0
                h = 0.5 * (u1 - u0)
                for xn, w in zip(nodes, weights):
                    s = self.interpolate_state(a, b, u0 + h * (xn + 1.0), t1 - t0)
                    total += w * h * (t1 - t0) * vectorops.norm(s[len(s) // 2:])
        return total

    def checkValid(self):
        Trajectory.checkValid(self)
        for i, m in enumerate(self.milestones):
            if len(m) % 2 != 0:
                raise ValueError("Milestone %d has odd length, expected position + velocity" % i)

    def _map_milestones(self, configs, config, velocity):
        """The Hermite curve whose milestones are config(x) + velocity(v) for
        each milestone x + v."""
        milestones = []
        for m in self.milestones:
            half = len(m) // 2
            milestones.append(config(m[:half]) + velocity(m[half:]))
        return HermiteTrajectory(self.times, milestones)

    def extractDofs(self, dofs) -> 'HermiteTrajectory':
        """The Hermite curve of the given coordinates."""
        milestones = []
        for m in self.milestones:
            x, v = self._split_state(m)
            milestones.append([x[i] for i in dofs] + [v[i] for i in dofs])
        return HermiteTrajectory(self.times, milestones)

    def stackDofs(self, trajs, strict=True) -> None:
        """Stacks Hermite curves (or piecewise linear trajectories, whose
        derivatives become the velocities) at the union of their times."""
        if strict:
            for tr in trajs:
                if not isinstance(tr, HermiteTrajectory):
                    raise ValueError("Cannot stack a %s onto a HermiteTrajectory with strict=True" % tr.__class__.__name__)
        times = sorted(set(t for tr in trajs for t in tr.times))
        milestones = []
        for t in times:
            xs, vs = [], []
            for tr in trajs:
                xs += list(tr.eval(t))
                vs += list(tr.deriv(t))
            milestones.append(xs + vs)
        self.times = times
        self.milestones = milestones

    def constructor(self):
        return HermiteTrajectory


class GeodesicHermiteTrajectory(Trajectory):
    """A Hermite curve on a GeodesicSpace, evaluated by de Casteljau's
    algorithm with geodesic interpolation.

    States are an element x followed by its outgoing Lie derivative (time
    derivative in the space's tangent representation).  The control points
    of segment i are x_i, integrate(x_i, v_i dt/3), integrate(x_{i+1},
    -v_{i+1} dt/3), x_{i+1}.

    Constructor forms: (geodesic), (geodesic, times, milestones) with
    concatenated states, or (geodesic, times, milestones,
    outgoingLieDerivatives).
    """

    def __init__(self, geodesic: GeodesicSpace, times=None, milestones=None, outgoingLieDerivatives=None):
        self.geodesic = geodesic
        if outgoingLieDerivatives is not None:
            if milestones is None or len(milestones) != len(outgoingLieDerivatives):
                raise ValueError("milestones and outgoingLieDerivatives must have the same length")
            milestones = [list(x) + list(v) for x, v in zip(milestones, outgoingLieDerivatives)]
        Trajectory.__init__(self, times, milestones)

    def _split_state(self, s):
        n = self.geodesic.extrinsicDimension()
        return s[:n], s[n:]

    def makeSpline(self, waypointTrajectory: Trajectory, loop: bool = False) -> None:
        """Makes a smooth curve through the milestones of a timed trajectory:
        the Lie derivative at a milestone averages the rates towards its
        neighbours (one-sided at the ends, wrapped if loop)."""
        times = list(waypointTrajectory.times)
        xs = [list(m) for m in waypointTrajectory.milestones]
        n = len(xs)
        g = self.geodesic
        if n < 2:
            self.times = times
            self.milestones = [x + [0.0] * len(g.difference(x, x)) for x in xs]
            return
        def rate(a, b, dt):
            return vectorops.mul(g.difference(b, a), 1.0 / dt) if dt > 0 else [0.0] * len(g.difference(a, a))
        vs = []
        for i in range(n):
            if 0 < i < n - 1:
                fwd = rate(xs[i], xs[i + 1], times[i + 1] - times[i])
                bwd = vectorops.mul(rate(xs[i], xs[i - 1], times[i] - times[i - 1]), -1.0)
                vs.append(vectorops.mul(vectorops.add(fwd, bwd), 0.5))
            elif loop:
                fwd = rate(xs[0], xs[1], times[1] - times[0])
                bwd = vectorops.mul(rate(xs[-1], xs[-2], times[-1] - times[-2]), -1.0)
                vs.append(vectorops.mul(vectorops.add(fwd, bwd), 0.5))
            elif i == 0:
                vs.append(rate(xs[0], xs[1], times[1] - times[0]))
            else:
                vs.append(vectorops.mul(rate(xs[-1], xs[-2], times[-1] - times[-2]), -1.0))
        self.times = times
        self.milestones = [x + v for x, v in zip(xs, vs)]

    def makeBezier(self, times: Sequence[float], controlPoints: List[Sequence[float]]) -> None:
        """Makes a piecewise Bezier curve on the geodesic space; segment i has
        control points controlPoints[3i:3i+4].  Knots whose tangents differ
        are duplicated."""
        nseg = len(times) - 1
        if nseg < 1 or len(controlPoints) != 3 * nseg + 1:
            raise ValueError("Need len(controlPoints) == 3*(len(times)-1)+1")
        g = self.geodesic
        self.times = []
        self.milestones = []
        for i in range(nseg):
            dt = times[i + 1] - times[i]
            if dt <= 0:
                raise ValueError("Times must be increasing")
            c0, c1, c2, c3 = [list(c) for c in controlPoints[3 * i:3 * i + 4]]
            v0 = vectorops.mul(g.difference(c1, c0), 3.0 / dt)
            v1 = vectorops.mul(g.difference(c2, c3), -3.0 / dt)
            if self.milestones and vectorops.distance(self._split_state(self.milestones[-1])[1], v0) <= 1e-8:
                self.milestones.pop()
                self.times.pop()
            self.times += [times[i], times[i + 1]]
            self.milestones += [c0 + v0, c3 + v1]

    def waypoint(self, state):
        return list(self._split_state(state)[0])

    def _casteljau(self, a, b, u, dt):
        g = self.geodesic
        x0, v0 = self._split_state(a)
        x3, v3 = self._split_state(b)
        x1 = g.integrate(x0, vectorops.mul(v0, dt / 3.0))
        x2 = g.integrate(x3, vectorops.mul(v3, -dt / 3.0))
        p01 = g.interpolate(x0, x1, u)
        p12 = g.interpolate(x1, x2, u)
        p23 = g.interpolate(x2, x3, u)
        q0 = g.interpolate(p01, p12, u)
        q1 = g.interpolate(p12, p23, u)
        return q0, q1

    def _point(self, a, b, u, dt):
        q0, q1 = self._casteljau(a, b, u, dt)
        return self.geodesic.interpolate(q0, q1, u)

    def interpolate_state(self, a, b, u, dt):
        if dt <= 0:
            return list(a)
        x = self._point(a, b, u, dt)
        # at the knots the Lie derivatives are the given ones; elsewhere a
        # central difference along the curve
        if u <= 0.0:
            return list(x) + list(self._split_state(a)[1])
        if u >= 1.0:
            return list(x) + list(self._split_state(b)[1])
        h = 1e-6
        ua, ub = max(0.0, u - h), min(1.0, u + h)
        xa, xb = self._point(a, b, ua, dt), self._point(a, b, ub, dt)
        return list(x) + vectorops.mul(self.geodesic.difference(xb, xa), 1.0 / ((ub - ua) * dt))

    def difference_state(self, a, b, u, dt):
        """(Lie derivative, its rate) at parameter u of the segment from b to
        a; the rate is a central finite difference."""
        if dt <= 0:
            return [0.0] * len(a)
        h = 1e-5
        ua, ub = max(0.0, u - h), min(1.0, u + h)
        va = self._split_state(self.interpolate_state(b, a, ua, dt))[1]
        vb = self._split_state(self.interpolate_state(b, a, ub, dt))[1]
        v = self._split_state(self.interpolate_state(b, a, u, dt))[1]
        return list(v) + vectorops.mul(vectorops.sub(vb, va), 1.0 / ((ub - ua) * dt))

    def eval_state(self, t, endBehavior='halt'):
        i, u = self.getSegment(t, endBehavior)
        if i < 0 or i >= len(self.milestones) - 1:
            x, v = self._split_state(self.milestones[0 if i < 0 else -1])
            return list(x) + [0.0] * len(v)
        return self.interpolate_state(self.milestones[i], self.milestones[i + 1], u, self.times[i + 1] - self.times[i])

    def eval(self, t, endBehavior='halt'):
        return self.waypoint(self.eval_state(t, endBehavior))

    def deriv(self, t, endBehavior='halt'):
        """The Lie derivative at time t."""
        return list(self._split_state(self.eval_state(t, endBehavior))[1])

    def length(self) -> float:
        """Arc length, approximated by 64 geodesic chords a segment."""
        total = 0.0
        for i in range(len(self.times) - 1):
            dt = self.times[i + 1] - self.times[i]
            prev = self.waypoint(self.milestones[i])
            for k in range(1, 65):
                x = self.waypoint(self.interpolate_state(self.milestones[i], self.milestones[i + 1], k / 64.0, dt))
                total += self.geodesic.distance(prev, x)
                prev = x
        return total

    def discretize(self, dt):
        """A GeodesicTrajectory of the elements sampled every dt."""
        times = self._sample_times(dt)
        return GeodesicTrajectory(self.geodesic, times, [self.eval(t) for t in times])

    def checkValid(self):
        Trajectory.checkValid(self)
        n = self.geodesic.extrinsicDimension()
        for i, m in enumerate(self.milestones):
            if len(m) < n:
                raise ValueError("Milestone %d is shorter than the space's dimension %d" % (i, n))

    def extractDofs(self, dofs):
        """Only supported for Cartesian spaces: the HermiteTrajectory of the
        given coordinates."""
        if not isinstance(self.geodesic, CartesianSpace):
            raise ValueError("extractDofs is only defined for Cartesian spaces")
        return HermiteTrajectory(self.times, self.milestones).extractDofs(dofs)

    def stackDofs(self, trajs, strict=True):
        """Stacks geodesic Hermite curves: the space becomes the product of
        their spaces."""
        for tr in trajs:
            if not isinstance(tr, GeodesicHermiteTrajectory):
                raise ValueError("Can only stack GeodesicHermiteTrajectory objects")
        times = sorted(set(t for tr in trajs for t in tr.times))
        milestones = []
        for t in times:
            xs, vs = [], []
            for tr in trajs:
                x, v = tr._split_state(tr.eval_state(t))
                xs += list(x)
                vs += list(v)
            milestones.append(xs + vs)
        self.geodesic = MultiGeodesicSpace(*[tr.geodesic for tr in trajs])
        self.times = times
        self.milestones = milestones

    def constructor(self):
        return lambda times, milestones: GeodesicHermiteTrajectory(self.geodesic, times, milestones)


class SO3HermiteTrajectory(GeodesicHermiteTrajectory):
    """A Hermite curve of rotations.  States are 18 elements: the rotation
    and the cross-product matrix of its world-frame angular velocity."""

    def __init__(self, times=None, milestones=None, outgoingLieDerivatives=None):
        GeodesicHermiteTrajectory.__init__(self, SO3Space(), times, milestones, outgoingLieDerivatives)

    def preTransform(self, R: Sequence[float]) -> None:
        """Left-multiplies the curve by R (angular velocities rotate)."""
        self.milestones = [so3.mul(R, m[:9]) + so3.cross_product(so3.apply(R, so3.deskew(m[9:]))) for m in self.milestones]

    def deriv_angvel(self, t: float, endBehavior: str = 'halt') -> Sequence[float]:
        """The world-frame angular velocity at time t."""
        return so3.deskew(self.deriv(t, endBehavior))

    def postTransform(self, R: Sequence[float]) -> None:
        """Right-multiplies the curve by R (world angular velocities are
        unchanged)."""
        self.milestones = [so3.mul(m[:9], R) + list(m[9:]) for m in self.milestones]

    def discretize(self, dt):
        """An SO3Trajectory sampled every dt."""
        times = self._sample_times(dt)
        return SO3Trajectory(times, [self.eval(t) for t in times])

    def constructor(self):
        return SO3HermiteTrajectory


class SE3HermiteTrajectory(GeodesicHermiteTrajectory):
    """A Hermite curve of rigid transforms.  States are 24 elements: R + t
    and the Lie derivative ([w] (9), velocity (3)).  The constructor accepts
    (R, t) pairs as milestones."""

    def __init__(self, times=None, milestones=None, outgoingLieDerivatives=None):
        if milestones is not None:
            milestones = [list(m[0]) + list(m[1]) if len(m) == 2 else list(m) for m in milestones]
        GeodesicHermiteTrajectory.__init__(self, SE3Space(), times, milestones, outgoingLieDerivatives)

    def to_se3(self, state):
        """The transform (R, t) of a state (its first 12 elements; the
        derivative part is ignored)."""
        return (list(state[:9]), list(state[9:12]))

    def from_se3(self, T):
        """Converts a transform (R, t) to the 12-element list R + t: the
        position part of a state, without the derivative."""
        return list(T[0]) + list(T[1])

    def waypoint(self, state):
        return self.to_se3(state)

    def eval(self, t: float, endBehavior: str = 'halt'):
        """The transform (R, t) at time t."""
        return self.to_se3(self.eval_state(t, endBehavior))

    def deriv(self, t: float, endBehavior: str = 'halt'):
        """The derivative ([w] (9 elements), velocity) at time t."""
        d = GeodesicHermiteTrajectory.deriv(self, t, endBehavior)
        return (d[:9], d[9:12])

    def deriv_screw(self, t: float, endBehavior: str = 'halt') -> Sequence[float]:
        """The derivative as (angular velocity, velocity), 6 elements."""
        dR, dt = self.deriv(t, endBehavior)
        return so3.deskew(dR) + list(dt)

    def preTransform(self, T) -> None:
        """Left-multiplies the curve by T."""
        R = T[0]
        res = []
        for m in self.milestones:
            x = self.from_se3(se3.mul(T, self.to_se3(m)))
            w = so3.apply(R, so3.deskew(m[12:21]))
            res.append(x + so3.cross_product(w) + list(so3.apply(R, m[21:24])))
        self.milestones = res

    def postTransform(self, T) -> None:
        """Right-multiplies the curve by T."""
        res = []
        for m in self.milestones:
            Rm = m[:9]
            x = self.from_se3(se3.mul(self.to_se3(m), T))
            w = so3.deskew(m[12:21])
            v = vectorops.add(m[21:24], vectorops.cross(w, so3.apply(Rm, T[1])))
            res.append(x + list(m[12:21]) + v)
        self.milestones = res

    def discretize(self, dt):
        """An SE3Trajectory sampled every dt."""
        times = self._sample_times(dt)
        return SE3Trajectory(times, [self.eval(t) for t in times])

    def constructor(self):
        return SE3HermiteTrajectory


def _is_euclidean(path):
    """Whether a path (a list or trajectory) lies in a Euclidean space, where
    it can be smoothed by a spline."""
    if isinstance(path, GeodesicTrajectory):
        return False
    if isinstance(path, RobotTrajectory):
        robot = path.robot
        return all(robot.getJointType(i) in ('normal', 'weld') for i in range(robot.numLinks()))
    return True


def path_to_trajectory(path, velocities='auto', timing='limited', smoothing='spline', stoptol=None,
                       vmax='auto', amax='auto', speed=1.0, dt=0.01, startvel=0.0, endvel=0.0, verbose=0):
    """Converts an untimed path (a list of milestones, or a Trajectory whose
    milestones are used) into a timed trajectory sampled every dt.

    Args:
        path: list of milestones (finite), Trajectory or RobotTrajectory.
        velocities (str): velocity profile of each stop-to-stop section:
            'auto', 'trapezoidal', 'constant', 'triangular', 'parabolic',
            'cosine', 'minimum-jerk', or 'optimal'.  With timing='limited',
            'auto', 'constant', 'trapezoidal' and 'optimal' give the
            time-optimal scaling under the limits; the other profiles keep
            their shape and get the shortest duration within the limits.
            Otherwise 'auto' is 'trapezoidal' and a section of length L
            lasts L ('constant'), L^(1/3) ('minimum-jerk') or sqrt(L).
        timing: the base length of each segment: 'limited' (L2 distance,
            then time scaling within vmax/amax), 'uniform', 'path' (the
            trajectory's own times), 'L2', 'Linf', 'robot', 'sqrt-L2',
            'sqrt-Linf', 'sqrt-robot', a list of lengths, or a function
            f(a,b).
        smoothing (str or None): 'spline' smooths the path through the
            milestones (Euclidean paths only); None keeps it piecewise
            linear (with timing='limited' it then stops at every corner).
        stoptol (float, optional): the trajectory also stops at milestones
            where the path turns by more than stoptol radians (every one if
            0).
        vmax, amax: velocity/acceleration limits: 'auto' (the robot's
            limits for a RobotTrajectory, else 1 and 4), a number (limit on
            the Euclidean norm) or a list (per coordinate).
        speed (float or 'limited'): times are divided by speed; 'limited'
            applies the limits with speed 1.
        dt (float): the output resolution.
        startvel, endvel: only 0 is supported (the path starts and ends at
            rest).
        verbose (int): prints the durations if > 0.

    Returns:
        Trajectory: of the class of path (Trajectory for a list), sampled
        every dt, passing through the stop milestones.
    """
    if velocities not in _timing._PROFILES:
        raise ValueError("Invalid velocities %r" % (velocities,))
    if startvel != 0 or endvel != 0:
        raise ValueError("Nonzero startvel/endvel are not supported")
    if dt <= 0:
        raise ValueError("dt must be positive")
    if speed == 'limited':
        timing, speed = 'limited', 1.0
    if not speed > 0:
        raise ValueError("speed must be positive")
    robot = path.robot if isinstance(path, RobotTrajectory) else None
    if isinstance(path, Trajectory):
        if isinstance(path, HermiteTrajectory):
            milestones = [list(path.waypoint(m)) for m in path.milestones]
            make = Trajectory
        else:
            milestones = [list(m) for m in path.milestones]
            make = path.constructor()
    else:
        milestones = [list(m) for m in path]
        make = Trajectory
    for i, m in enumerate(milestones):
        check_finite(m, "path[%d]" % i)
    if not milestones:
        raise ValueError("Empty path")
    if len(milestones) == 1:
        return make([0.0], [milestones[0]])
    path_times = path.times if isinstance(path, Trajectory) else None
    dist = _timing._segment_distances(milestones, timing, path_times, robot)
    # zero-length segments carry no motion: merge their milestones
    keep = [0] + [i + 1 for i, d in enumerate(dist) if d > 0]
    if len(keep) == 1:
        return make([0.0], [milestones[0]])
    dist = [sum(dist[keep[k]:keep[k + 1]]) for k in range(len(keep) - 1)]
    milestones = [milestones[i] for i in keep]
    euclidean = _is_euclidean(path)
    if smoothing == 'spline' and not euclidean:
        raise ValueError("smoothing='spline' is only supported for Euclidean paths; use smoothing=None")
    if smoothing not in ('spline', None, 'linear'):
        raise ValueError("Invalid smoothing %r" % (smoothing,))
    limited = timing == 'limited'
    stops = _timing._stop_indices(milestones, stoptol, limited and smoothing != 'spline')
    n = len(milestones[0])
    if limited:
        if vmax == 'auto':
            vmax = [float(v) for v in robot.getVelocityLimits()] if robot is not None else 1.0
        if amax == 'auto':
            amax = [float(a) for a in robot.getAccelerationLimits()] if robot is not None else 4.0
        vmax = _timing._limits(vmax, n, 'vmax')
        amax = _timing._limits(amax, n, 'amax')
    else:
        vmax = amax = None
    profile = 'trapezoidal' if velocities == 'auto' and not limited else velocities
    if velocities == 'optimal' and not limited:
        raise ValueError("velocities='optimal' requires timing='limited'")
    times = []
    outms = []
    tstart = 0.0
    for a, b in zip(stops[:-1], stops[1:]):
        knots = [0.0]
        for d in dist[a:b]:
            knots.append(knots[-1] + d)
        sec_ms = milestones[a:b + 1]
        if smoothing == 'spline':
            curve = HermiteTrajectory()
            curve.makeSpline(Trajectory(knots, sec_ms))
            section = _timing._Section(curve, knots, True)
        else:
            section = _timing._Section(make(knots, sec_ms), knots, False)
        T, ts, ss = _timing._section_schedule(section, profile, vmax, amax, speed, dt)
        # sections share their end/start sample; the end is the stop milestone itself
        for k in range(0 if not times else 1, len(ts)):
            times.append(tstart + ts[k])
            outms.append(list(section.eval(ss[k])) if k < len(ss) else list(sec_ms[-1]))
        tstart += T
        if verbose > 0:
            print("path_to_trajectory: section %d-%d, length %g, duration %g" % (a, b, section.L, T))
    return make(times, outms)


def execute_path(path, controller, speed=1.0, smoothing=None, activeDofs=None):
    """Sends an untimed path to a controller (SimRobotController, or a
    RobotInterfaceBase with setPiecewiseLinear/setPiecewiseCubic).

    Args:
        path (list of configs): the milestones.
        controller: the controller.
        speed (float): execution speed multiplier (ignored by None and
            'ramp', which use the controller's own limits).
        smoothing (str or None): None: stop at each milestone, moving in
            straight lines (``addMilestoneLinear``; for a RobotInterfaceBase,
            a time-optimal piecewise linear trajectory within the default
            limits of :func:`path_to_trajectory`); 'linear': constant
            velocity, one second per segment; 'cubic': stop at each
            milestone with cubic segments of one second; 'spline': smooth
            spline through the milestones, one second per segment; 'ramp':
            stop at each milestone with time-optimal moves
            (``addMilestone``).
        activeDofs (list, optional): indices or names of the links the path
            moves; the others keep their commanded values.
    """
    if smoothing not in (None, 'linear', 'cubic', 'spline', 'ramp'):
        raise ValueError("Invalid smoothing %r" % (smoothing,))
    if not speed > 0:
        raise ValueError("speed must be positive")
    if len(path) == 0:
        return
    if smoothing in (None, 'ramp'):
        if _timing._is_robot_interface(controller):
            traj = path_to_trajectory(path, timing='limited', smoothing=None, stoptol=0)
            return execute_trajectory(traj, controller, activeDofs=activeDofs)
        _timing._command_milestones(controller, path, smoothing == 'ramp', activeDofs)
        return
    traj = Trajectory(list(range(len(path))), path)
    if smoothing == 'linear':
        return execute_trajectory(traj, controller, speed=speed, activeDofs=activeDofs)
    if smoothing == 'cubic':
        return execute_trajectory(traj, controller, speed=speed, smoothing='pause', activeDofs=activeDofs)
    return execute_trajectory(traj, controller, speed=speed, smoothing='spline', activeDofs=activeDofs)


def execute_trajectory(trajectory, controller, speed=1.0, smoothing=None, activeDofs=None):
    """Sends a timed trajectory to a controller (SimRobotController, or a
    RobotInterfaceBase with setPiecewiseLinear/setPiecewiseCubic).

    The first milestone is commanded to be reached at trajectory.times[0]
    (relative to now), the others at their times, all divided by speed.

    Args:
        trajectory (Trajectory): a Trajectory, RobotTrajectory or
            HermiteTrajectory.
        controller: the controller.
        speed (float): time scaling (2 is twice as fast).
        smoothing (str or None): for piecewise linear trajectories: None
            (linear segments), 'spline' (cubic segments with interpolated
            tangents) or 'pause' (cubic segments, stopping at each
            milestone).
        activeDofs (list, optional): indices or names of the links the
            trajectory moves; the others keep their commanded values.
    """
    if smoothing not in (None, 'spline', 'pause'):
        raise ValueError("Invalid smoothing %r" % (smoothing,))
    if not speed > 0:
        raise ValueError("speed must be positive")
    if isinstance(trajectory, GeodesicTrajectory) or not isinstance(trajectory, Trajectory) or hasattr(trajectory, 'geodesic'):
        raise ValueError("Can only execute Trajectory, RobotTrajectory or HermiteTrajectory objects")
    if not trajectory.times:
        return
    if isinstance(trajectory, HermiteTrajectory):
        hermite = trajectory
        if smoothing is not None:
            raise ValueError("smoothing is only valid for piecewise linear trajectories")
    elif smoothing == 'spline':
        hermite = HermiteTrajectory()
        hermite.makeSpline(trajectory)
    elif smoothing == 'pause':
        zero = [0.0] * len(trajectory.milestones[0])
        hermite = HermiteTrajectory(trajectory.times, trajectory.milestones, [zero] * len(trajectory.milestones))
    else:
        hermite = None
    if hermite is None:
        times = [t / speed for t in trajectory.times]
        qs = [list(m) for m in trajectory.milestones]
        vs = None
    else:
        times = [t / speed for t in hermite.times]
        qs = [hermite.waypoint(m) for m in hermite.milestones]
        vs = [vectorops.mul(m[len(m) // 2:], speed) for m in hermite.milestones]
    _timing._command_timed(controller, times, qs, vs, activeDofs)
