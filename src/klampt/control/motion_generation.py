"""Online motion generators for streamed targets:
:class:`VelocityBoundedMotionGeneration` (piecewise linear, velocity
bounds) and :class:`AccelerationBoundedMotionGeneration` (time-optimal
ramps within velocity and acceleration bounds, like Reflexxes).  Call
``update(dt)`` each control cycle and send the returned position.
"""
import bisect

from ..math import spline, vectorops
from ..model.trajectory import HermiteTrajectory, Trajectory
from ..plan import motionplanning


def _vector(v, n, what):
    v = [float(x) for x in v]
    if len(v) != n:
        raise ValueError("%s must have %d entries, got %d" % (what, n, len(v)))
    return v


class VelocityBoundedMotionGeneration:
    """Moves toward targets in straight lines, all axes arriving together,
    each within its velocity bound.

    Args:
        x0 (list of float): the start position.
        vmax (list of float): the velocity bounds (> 0).
    """

    def __init__(self, x0, vmax):
        if len(x0) != len(vmax):
            raise ValueError("vmax must have %d entries, got %d" % (len(x0), len(vmax)))
        if any(not v > 0 for v in vmax):
            raise ValueError("vmax entries must be > 0")
        self.vmax = [float(v) for v in vmax]
        self.reset(x0)

    def reset(self, x0):
        """Restarts at rest at x0."""
        self.x = _vector(x0, len(self.vmax), 'x0')
        self.v = [0.0] * len(self.x)
        self.times = [0.0]
        self.milestones = [list(self.x)]
        self.trajTime = 0.0
        self.curTime = 0.0

    def remainingTime(self):
        """Seconds until the queued motion ends (0 when done)."""
        return max(0.0, self.times[-1] - self.trajTime)

    duration = remainingTime

    def target(self):
        """Where the queued motion ends."""
        return list(self.milestones[-1])

    def update(self, dt, xtarget=None):
        """Advances dt seconds (after setting xtarget, if given); returns
        the new (x, v)."""
        if not dt > 0:
            raise ValueError("dt must be > 0")
        if xtarget is not None:
            self.setTarget(xtarget)
        self.curTime += dt
        self.trajTime += dt
        self.x, self.v = self.predict(0)
        return list(self.x), list(self.v)

    def _trim(self, append):
        """Restarts the queue at the current state (keeping the future
        segments when appending)."""
        times, milestones = [0.0], [list(self.x)]
        if append:
            for t, m in zip(self.times, self.milestones):
                if t > self.trajTime:
                    times.append(t - self.trajTime)
                    milestones.append(m)
        self.times, self.milestones, self.trajTime = times, milestones, 0.0

    def setTarget(self, xtarget, append=False):
        """Moves to xtarget (after the queued motion when appending)."""
        xtarget = _vector(xtarget, len(self.x), 'xtarget')
        self._trim(append)
        last = self.milestones[-1]
        dt = max([abs(b - a) / v for a, b, v in zip(last, xtarget, self.vmax)] + [0.0])
        self.times.append(self.times[-1] + dt)
        self.milestones.append(xtarget)

    def setVelocity(self, vtarget, duration=1, append=False):
        """Moves at vtarget (clipped to the bounds) for duration seconds,
        then stops."""
        vtarget = _vector(vtarget, len(self.x), 'vtarget')
        if duration < 0:
            raise ValueError("duration must be >= 0")
        vtarget = [max(-m, min(m, v)) for v, m in zip(vtarget, self.vmax)]
        self._trim(append)
        self.times.append(self.times[-1] + duration)
        self.milestones.append(vectorops.madd(self.milestones[-1], vtarget, duration))

    def brake(self):
        """Stops at once (accelerations are unbounded)."""
        self._trim(False)

    def predict(self, t):
        """The (x, v) t >= 0 seconds from now if nothing changes.

        Works mid-motion (the reference raises TypeError there)."""
        t = t + self.trajTime
        ts = self.times
        if t >= ts[-1]:
            return list(self.milestones[-1]), [0.0] * len(self.x)
        if t < ts[0]:
            return list(self.x), list(self.v)
        j = bisect.bisect_right(ts, t) - 1
        h = ts[j + 1] - ts[j]
        a, b = self.milestones[j], self.milestones[j + 1]
        if h <= 0:
            return list(b), [0.0] * len(self.x)
        u = (t - ts[j]) / h
        return vectorops.interpolate(a, b, u), vectorops.mul(vectorops.sub(b, a), 1.0 / h)

    def trajectory(self):
        """The queued motion from now, as a Trajectory."""
        times, milestones = [0.0], [list(self.x)]
        for t, m in zip(self.times, self.milestones):
            if t > self.trajTime:
                times.append(t - self.trajTime)
                milestones.append(list(m))
        return Trajectory(times, milestones)


class AccelerationBoundedMotionGeneration:
    """Time-optimal motions within position, velocity and acceleration
    bounds, all axes arriving together (each axis a sequence of parabolic
    ramps stored as cubic Hermite knots).

    Args:
        x0 (list of float): the start position.
        xmin, xmax (list of float, optional): position bounds.
        vmax (list of float, optional): velocity bounds.
        amax (list of float): acceleration bounds (required).
    """

    def __init__(self, x0, xmin=None, xmax=None, vmax=None, amax=None):
        if amax is None:
            raise ValueError("AccelerationBoundedMotionGeneration needs amax")
        n = len(x0)
        inf = float('inf')
        self.amax = _vector(amax, n, 'amax')
        self.vmax = _vector(vmax, n, 'vmax') if vmax is not None else [inf] * n
        self.xmin = _vector(xmin, n, 'xmin') if xmin is not None else [-inf] * n
        self.xmax = _vector(xmax, n, 'xmax') if xmax is not None else [inf] * n
        if any(not a > 0 for a in self.amax) or any(not v > 0 for v in self.vmax):
            raise ValueError("vmax and amax entries must be > 0")
        self.reset(x0)

    def reset(self, x0):
        """Restarts at rest at x0."""
        self.x = _vector(x0, len(self.amax), 'x0')
        self.v = [0.0] * len(self.x)
        self.times = [[0.0] for _ in self.x]
        self.milestones = [[x] for x in self.x]
        self.dmilestones = [[0.0] for _ in self.x]
        self.trajTime = 0.0
        self.curTime = 0.0

    def remainingTime(self):
        """Seconds until the queued motion ends (0 when done)."""
        return max(0.0, max(t[-1] for t in self.times) - self.trajTime)

    duration = remainingTime

    def target(self):
        """Where the queued motion ends."""
        return [m[-1] for m in self.milestones]

    def update(self, dt, xtarget=None, vtarget=None):
        """Advances dt seconds (after setting the target, if given);
        returns the new (x, v)."""
        if not dt > 0:
            raise ValueError("dt must be > 0")
        if xtarget is not None:
            self.setTarget(xtarget, vtarget)
        self.trajTime += dt
        self.curTime += dt
        self.x, self.v = self.predict(0)
        return list(self.x), list(self.v)

    def _trim(self, append):
        n = len(self.x)
        times = [[0.0] for _ in range(n)]
        ms = [[x] for x in self.x]
        vs = [[v] for v in self.v]
        if append:
            for i in range(n):
                for t, m, v in zip(self.times[i], self.milestones[i], self.dmilestones[i]):
                    if t > self.trajTime:
                        times[i].append(t - self.trajTime)
                        ms[i].append(m)
                        vs[i].append(v)
        self.times, self.milestones, self.dmilestones, self.trajTime = times, ms, vs, 0.0

    def _end(self):
        """(time, position, velocity) at the end of each axis's queue."""
        return [(t[-1], m[-1], v[-1]) for t, m, v in zip(self.times, self.milestones, self.dmilestones)]

    def _append(self, i, t, x, v):
        self.times[i].append(t)
        self.milestones[i].append(x)
        self.dmilestones[i].append(v)

    def setTarget(self, xtarget, vtarget=None, append=False):
        """Moves to xtarget, arriving with vtarget (zero by default).
        Raises ValueError if no motion within the bounds exists."""
        n = len(self.x)
        xtarget = _vector(xtarget, n, 'xtarget')
        vtarget = [0.0] * n if vtarget is None else _vector(vtarget, n, 'vtarget')
        self._trim(append)
        end = self._end()
        t0 = max(e[0] for e in end)
        x0 = [e[1] for e in end]
        v0 = [e[2] for e in end]
        try:
            ts, xs, vs = motionplanning.interpolate_nd_min_time(x0, v0, xtarget, vtarget, self.xmin, self.xmax,
                                                                   self.vmax, self.amax)
        except RuntimeError as e:
            raise ValueError("No motion from %s to %s within the bounds: %s" % (x0, xtarget, e)) from e
        if any(len(t) == 0 for t in ts):
            raise ValueError("No motion from %s (velocity %s) to %s within the bounds" % (x0, v0, xtarget))
        for i in range(n):
            if end[i][0] < t0:
                self._append(i, t0, end[i][1], end[i][2])
            for t, x, v in zip(ts[i][1:], xs[i][1:], vs[i][1:]):
                self._append(i, t0 + t, x, max(-self.vmax[i], min(self.vmax[i], v)))

    def _rampTo(self, vtarget):
        """Appends a common-time constant-acceleration change of every
        axis's velocity to vtarget."""
        end = self._end()
        t0 = max(e[0] for e in end)
        T = max([abs(vt - e[2]) / a for vt, e, a in zip(vtarget, end, self.amax)] + [0.0])
        for i, (te, xe, ve) in enumerate(end):
            if te < t0:
                xe = xe + ve * (t0 - te)
                self._append(i, t0, xe, ve)
            if T > 0:
                self._append(i, t0 + T, xe + 0.5 * (ve + vtarget[i]) * T, vtarget[i])

    def setVelocity(self, vtarget, duration=1, append=False):
        """Ramps every axis to vtarget (clipped to vmax) within the
        acceleration bounds, cruises for duration seconds, ramps to rest.

        Each axis ramps from its own velocity (the reference raises
        IndexError)."""
        n = len(self.x)
        vtarget = _vector(vtarget, n, 'vtarget')
        if duration < 0:
            raise ValueError("duration must be >= 0")
        vtarget = [max(-m, min(m, v)) for v, m in zip(vtarget, self.vmax)]
        self._trim(append)
        self._rampTo(vtarget)
        for i, (te, xe, ve) in enumerate(self._end()):
            self._append(i, te + duration, xe + ve * duration, ve)
        self._rampTo([0.0] * n)

    def brake(self):
        """Stops as fast as the acceleration bounds allow."""
        self._trim(False)
        ts, xs, vs = motionplanning.brake_nd(self.x, self.v, self.xmin, self.xmax, self.amax)
        for i in range(len(self.x)):
            for t, x, v in zip(ts[i][1:], xs[i][1:], vs[i][1:]):
                self._append(i, t, x, v)

    def predict(self, t):
        """The (x, v) t >= 0 seconds from now if nothing changes."""
        t = t + self.trajTime
        x, v = [], []
        for i in range(len(self.times)):
            ts, ms, ds = self.times[i], self.milestones[i], self.dmilestones[i]
            if t >= ts[-1]:
                x.append(ms[-1])
                v.append(ds[-1])
                continue
            j = max(0, bisect.bisect_right(ts, t) - 1)
            h = ts[j + 1] - ts[j]
            u = (t - ts[j]) / h
            x.append(spline.hermite_eval([ms[j]], [ds[j] * h], [ms[j + 1]], [ds[j + 1] * h], u)[0])
            vi = spline.hermite_deriv([ms[j]], [ds[j] * h], [ms[j + 1]], [ds[j + 1] * h], u)[0] / h
            v.append(max(-self.vmax[i], min(self.vmax[i], vi)))
        return x, v

    def trajectory(self):
        """The queued motion from now, as a HermiteTrajectory."""
        times, ms, vs = motionplanning.combine_nd_cubic(self.times, self.milestones, self.dmilestones)
        traj = HermiteTrajectory(times, ms, vs)
        if self.trajTime <= 0 or self.trajTime >= times[-1]:
            if self.trajTime >= times[-1]:
                return HermiteTrajectory([0.0], [self.target()], [[0.0] * len(self.x)])
            return traj
        _, suffix = traj.split(self.trajTime)
        suffix.times = [t - self.trajTime for t in suffix.times]
        return suffix

