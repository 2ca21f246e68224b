"""Autodiff trajectory functions.

 ===================  ==========  ===========================================
 Function             Derivative  Value
 ===================  ==========  ===========================================
 hermite              1, 2        hermite(x1,v1,x2,v2,u) -> R^n
 GeodesicInterpolate  1           ginterp[geodesic](a,b,u) -> R^n
 GeodesicDistance     1           gdist[geodesic](a,b) -> R
 TrajectoryEval       1           eval[traj,endBehavior](t) -> R^n
 Trajectory           1           traj[n or robot,endBehavior](ts,xs,t)
 ===================  ==========  ===========================================

Derivatives on non-Euclidean geodesic spaces and in the milestones of robot
trajectories use finite differences.
"""

import numpy as np

from .ad import ADFunctionInterface, ADFunctionCall, ADTerminal, function, _scalar  # noqa: F401 (exported)
from ...model import trajectory
from .. import so3, spline  # noqa: F401 (exported)
from ..geodesic import GeodesicSpace, CartesianSpace
from ...robotsim import RobotModel


def _hermite_coeffs(u, order=0):
    """The coefficients of (x1, v1, x2, v2) in the Hermite curve, or of its
    derivative of the given order in u."""
    table = [
        lambda u: (2 * u ** 3 - 3 * u ** 2 + 1, u ** 3 - 2 * u ** 2 + u, -2 * u ** 3 + 3 * u ** 2, u ** 3 - u ** 2),
        lambda u: (6 * u ** 2 - 6 * u, 3 * u ** 2 - 4 * u + 1, -6 * u ** 2 + 6 * u, 3 * u ** 2 - 2 * u),
        lambda u: (12 * u - 6, 6 * u - 4, -12 * u + 6, 6 * u - 2),
        lambda u: (12.0, 6.0, -12.0, 6.0),
    ]
    return table[order](u) if order < len(table) else (0.0, 0.0, 0.0, 0.0)


def _hermite(x1, v1, x2, v2, u):
    n = len(x1)
    if not (len(v1) == len(x2) == len(v2) == n):
        raise ValueError("hermite needs x1, v1, x2, v2 of the same size")
    c = _hermite_coeffs(u)
    return c[0] * x1 + c[1] * v1 + c[2] * x2 + c[3] * v2


def _hermite_u_deriv(x1, v1, x2, v2, u, order=1):
    c = _hermite_coeffs(u, order)
    return c[0] * x1 + c[1] * v1 + c[2] * x2 + c[3] * v2


def _hermite_derivative(arg, x1, v1, x2, v2, u):
    if arg == 4:
        return _hermite_u_deriv(x1, v1, x2, v2, u).reshape((-1, 1))
    return _hermite_coeffs(u)[arg] * np.eye(len(x1))


def _hermite_gen_derivative(args, x1, v1, x2, v2, u):
    if len(args) == 1:
        return _hermite_derivative(args[0], x1, v1, x2, v2, u)
    n = len(x1)
    nu = sum(1 for a in args if a == 4)
    others = [a for a in args if a != 4]
    if len(others) > 1:
        return 0
    if not others:
        return _hermite_u_deriv(x1, v1, x2, v2, u, len(args)).reshape((n,) + (1,) * len(args))
    block = _hermite_coeffs(u, nu)[others[0]] * np.eye(n)
    shape = [n] + [n if a != 4 else 1 for a in args]
    return block.reshape(shape)


hermite = function(_hermite, 'trajectory.hermite', [-1, -1, -1, -1, 1], -1, ['x1', 'v1', 'x2', 'v2', 'u'],
                   derivative=_hermite_derivative, gen_derivative=_hermite_gen_derivative)
"""Autodiff :func:`klampt.math.spline.hermite_eval`: the Hermite curve with
endpoints x1, x2 and velocities v1, v2 at the parameter u in [0, 1]."""


def _euclidean(geodesic):
    return isinstance(geodesic, CartesianSpace)


class GeodesicInterpolate(ADFunctionInterface):
    """``geodesic.interpolate(a, b, u)`` for a
    :class:`~klampt.math.geodesic.GeodesicSpace`, as a function of (a, b, u)."""

    def __init__(self, geodesic):
        if not isinstance(geodesic, GeodesicSpace):
            raise ValueError("Expected a GeodesicSpace, got %r" % (geodesic,))
        self.geodesic = geodesic

    def __str__(self):
        return "trajectory.GeodesicInterpolate[%s]" % (self.geodesic.__class__.__name__,)

    def argname(self, arg):
        return ['a', 'b', 'u'][arg]

    def n_args(self):
        return 3

    def n_in(self, arg):
        return self.geodesic.extrinsicDimension() if arg <= 1 else 1

    def n_out(self):
        return self.geodesic.extrinsicDimension()

    def eval(self, a, b, u):
        return np.array(self.geodesic.interpolate(np.asarray(a).tolist(), np.asarray(b).tolist(), float(u)))

    def derivative(self, arg, a, b, u):
        if not _euclidean(self.geodesic) and self.geodesic.intrinsicDimension() != self.geodesic.extrinsicDimension():
            raise NotImplementedError()
        u = float(u)
        if arg == 0:
            if not _euclidean(self.geodesic):
                raise NotImplementedError()
            return (1.0 - u) * np.eye(len(a))
        if arg == 1:
            if not _euclidean(self.geodesic):
                raise NotImplementedError()
            return u * np.eye(len(a))
        # a geodesic has constant speed: restart it at x(u)
        x = self.eval(a, b, u).tolist()
        if u <= 0.5:
            d = np.array(self.geodesic.difference(np.asarray(b).tolist(), x)) / (1.0 - u)
        else:
            d = -np.array(self.geodesic.difference(np.asarray(a).tolist(), x)) / u
        return d.reshape((-1, 1))


class GeodesicDistance(ADFunctionInterface):
    """``geodesic.distance(a, b)`` as a function of (a, b)."""

    def __init__(self, geodesic):
        if not isinstance(geodesic, GeodesicSpace):
            raise ValueError("Expected a GeodesicSpace, got %r" % (geodesic,))
        self.geodesic = geodesic

    def __str__(self):
        return "trajectory.GeodesicDistance[%s]" % (self.geodesic.__class__.__name__,)

    def argname(self, arg):
        return ['a', 'b'][arg]

    def n_args(self):
        return 2

    def n_in(self, arg):
        return self.geodesic.extrinsicDimension()

    def n_out(self):
        return 1

    def eval(self, a, b):
        return float(self.geodesic.distance(np.asarray(a).tolist(), np.asarray(b).tolist()))

    def derivative(self, arg, a, b):
        if self.geodesic.intrinsicDimension() != self.geodesic.extrinsicDimension():
            raise NotImplementedError()
        d = self.eval(a, b)
        if d == 0:
            raise NotImplementedError()
        a, b = np.asarray(a).tolist(), np.asarray(b).tolist()
        diff = self.geodesic.difference(a, b) if arg == 0 else self.geodesic.difference(b, a)
        return (np.array(diff) / d)[np.newaxis, :]


def _rotation_parts(traj):
    """Slices of a trajectory's flattened value that hold rotations whose
    deriv() entries are angular velocity matrices [w]."""
    if isinstance(traj, (trajectory.SE3Trajectory, trajectory.SE3HermiteTrajectory,
                         trajectory.SO3Trajectory, trajectory.SO3HermiteTrajectory)):
        return [slice(0, 9)]
    return []


def _flatten(x):
    if isinstance(x, tuple) and len(x) == 2:
        return list(x[0]) + list(x[1])
    return list(x)


class TrajectoryEval(ADFunctionInterface):
    """``traj.eval(t, endBehavior)`` of a fixed trajectory as a function of
    the time t (flattened to one vector for SE(3) trajectories).

    Args:
        traj (Trajectory): any :mod:`klampt.model.trajectory` trajectory.
        endBehavior (str): 'halt' or 'loop' outside the time range.
    """

    def __init__(self, traj, endBehavior='halt'):
        if not isinstance(traj, trajectory.Trajectory) or len(traj.milestones) == 0:
            raise ValueError("TrajectoryEval needs a trajectory with milestones")
        self.traj = traj
        self.endBehavior = endBehavior

    def __str__(self):
        if self.endBehavior == 'halt':
            return "trajectory.TrajectoryEval[%s,%d segments,%f,%f]" % (
                self.traj.__class__.__name__, len(self.traj.times) - 1, self.traj.startTime(), self.traj.endTime())
        return "trajectory.TrajectoryEval[%s,%d segments,%s]" % (
            self.traj.__class__.__name__, len(self.traj.times) - 1, self.endBehavior)

    def n_args(self):
        return 1

    def n_in(self, arg):
        return 1

    def n_out(self):
        return len(_flatten(self.traj.waypoint(self.traj.milestones[0])))

    def eval(self, t):
        return np.array(_flatten(self.traj.eval(float(t), self.endBehavior)))

    def derivative(self, arg, t):
        d = np.array(_flatten(self.traj.deriv(float(t), self.endBehavior)))
        if _rotation_parts(self.traj):
            x = self.eval(t)
            for s in _rotation_parts(self.traj):
                d[s] = so3.mul(d[s].tolist(), x[s].tolist())  # d/dt R = [w] R
        return d.reshape((-1, 1))


class Trajectory(ADFunctionInterface):
    """Piecewise linear interpolation ``traj(ts, xs, t)`` through the
    milestones stacked in xs (one after another) at the times ts.  t may be
    a scalar or an array of times, in which case the values are stacked.

    Args:
        n_or_robot (int or RobotModel): the milestone size, or a robot whose
            configurations are interpolated with ``robot.interpolate``.
        endBehavior (str): 'halt' or 'loop' outside the time range.
    """

    def __init__(self, n_or_robot, endBehavior='halt'):
        if isinstance(n_or_robot, RobotModel):
            self.robot = n_or_robot
            self.n = self.robot.numLinks()
        else:
            self.robot = None
            self.n = int(n_or_robot)
        self.endBehavior = endBehavior

    def __str__(self):
        if self.robot is None:
            return "trajectory.Trajectory[%d]" % (self.n,)
        return "trajectory.Trajectory[%s]" % (self.robot.getName(),)

    def argname(self, arg):
        return ['ts', 'xs', 't'][arg]

    def n_args(self):
        return 3

    def n_in(self, arg):
        return -1

    def n_out(self):
        return -1

    def _traj(self, ts, xs):
        ts = np.atleast_1d(np.asarray(ts, dtype=float))
        xs = np.asarray(xs, dtype=float)
        if xs.shape != (len(ts) * self.n,):
            raise ValueError("xs must stack %d milestones of size %d" % (len(ts), self.n))
        milestones = xs.reshape((len(ts), self.n)).tolist()
        if self.robot is None:
            return trajectory.Trajectory(ts.tolist(), milestones)
        return trajectory.RobotTrajectory(self.robot, ts.tolist(), milestones)

    def eval(self, ts, xs, t):
        traj = self._traj(ts, xs)
        if _scalar(t):
            return np.array(traj.eval(float(t), self.endBehavior))
        return np.hstack([traj.eval(float(v), self.endBehavior) for v in t])

    def derivative(self, arg, ts, xs, t):
        traj = self._traj(ts, xs)
        times = [float(t)] if _scalar(t) else [float(v) for v in t]
        if arg == 2:
            res = np.zeros((len(times) * self.n, len(times)))
            for k, v in enumerate(times):
                res[k * self.n:(k + 1) * self.n, k] = traj.deriv(v, self.endBehavior)
            return res
        if self.robot is not None:
            raise NotImplementedError()
        ts = np.atleast_1d(np.asarray(ts, dtype=float))
        xs = np.asarray(xs, dtype=float)
        res = np.zeros((len(times) * self.n, len(ts) if arg == 0 else len(xs)))
        for k, v in enumerate(times):
            i, u = traj.getSegment(v, self.endBehavior)
            rows = slice(k * self.n, (k + 1) * self.n)
            if i < 0:
                if arg == 1:
                    res[rows, 0:self.n] = np.eye(self.n)
                continue
            if i + 1 >= len(ts):
                if arg == 1:
                    res[rows, (len(ts) - 1) * self.n:] = np.eye(self.n)
                continue
            if arg == 1:
                res[rows, i * self.n:(i + 1) * self.n] = (1 - u) * np.eye(self.n)
                res[rows, (i + 1) * self.n:(i + 2) * self.n] = u * np.eye(self.n)
            elif ts[i + 1] > ts[i]:
                # u = (t - ta) / (tb - ta): du/dta = (u - 1)/(tb - ta), du/dtb = -u/(tb - ta)
                slope = (xs[(i + 1) * self.n:(i + 2) * self.n] - xs[i * self.n:(i + 1) * self.n])
                span = ts[i + 1] - ts[i]
                res[rows, i] = slope * (u - 1) / span
                res[rows, i + 1] = -slope * u / span
        return res
