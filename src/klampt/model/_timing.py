"""Time-scaling of untimed paths and commanding of controllers, on plain
lists and curves: the numerics behind
:func:`~klampt.model.trajectory.path_to_trajectory` and the controller calls
behind ``execute_path`` and ``execute_trajectory``, which live in
:mod:`klampt.model.trajectory` beside the trajectory classes they build and
read.

With ``timing='limited'`` the path is time-scaled on a fine grid of its
geometric parameter s by the forward/backward pass of time-optimal path
parameterization: the speed ds/dt is capped so that every coordinate's
velocity ``p'(s) ds/dt`` stays within vmax, and the path acceleration is
chosen so that the conservative bound ``|p'(s)| |d2s/dt2| + |p''(s)|
(ds/dt)^2`` stays within amax.
"""
import bisect
import math

from ..math import vectorops

# Curves come in as any object with eval/deriv: klampt.model.trajectory imports
# this module, so it must not import trajectory back (even inside a function).

_PROFILES = ('auto', 'trapezoidal', 'constant', 'triangular', 'parabolic', 'cosine', 'minimum-jerk', 'optimal')
# fraction of the limits used by the time-optimal pass, leaving room for the
# variation of p' and p'' between grid points
_SAFETY = 0.98
_GRID_PER_SEGMENT = 40


def _profile(name, u):
    """Normalized position s(u) in [0,1] of a velocity profile, u in [0,1]."""
    if name == 'constant':
        return u
    if name == 'triangular':
        return 2 * u * u if u < 0.5 else 1 - 2 * (1 - u) ** 2
    if name == 'trapezoidal':
        vp = 4.0 / 3.0  # ramp 1/4, cruise 1/2, ramp 1/4
        a = vp / 0.25
        if u < 0.25:
            return 0.5 * a * u * u
        if u < 0.75:
            return 0.5 * a * 0.0625 + vp * (u - 0.25)
        return 1 - 0.5 * a * (1 - u) ** 2
    if name == 'parabolic':
        return u * u * (3 - 2 * u)
    if name == 'cosine':
        return 0.5 * (1 - math.cos(math.pi * u))
    if name == 'minimum-jerk':
        return u ** 3 * (10 - 15 * u + 6 * u * u)
    raise ValueError("Unknown velocity profile %r" % (name,))


def _profile_duration(name, L):
    if name == 'constant':
        return L
    if name == 'minimum-jerk':
        return L ** (1.0 / 3.0)
    return math.sqrt(L)


class _Section(object):
    """A stop-to-stop piece of the geometric path, parameterized by s in
    [0, L]: eval(s), d1(s) = dp/ds and d2(s) = d2p/ds2, and its knots.
    curve is any object with eval(s) and deriv(s), and eval_accel(s) if
    hermite (a trajectory whose times are the knots)."""

    def __init__(self, curve, knots, hermite):
        self.curve = curve
        self.knots = knots
        self.hermite = hermite
        self.L = knots[-1]

    def eval(self, s):
        return self.curve.eval(s)

    def d1(self, s):
        return list(self.curve.deriv(s))

    def d2(self, s):
        """d2p/ds2, or at a knot (where a spline's second derivative jumps)
        the larger magnitude of the two sides, coordinate by coordinate."""
        if not self.hermite:
            return [0.0] * len(self.d1(s))
        i = bisect.bisect_left(self.knots, s)
        if 0 < i < len(self.knots) - 1 and abs(self.knots[i] - s) <= 1e-12 * max(1.0, self.L):
            h = 1e-9 * max(1.0, self.L)
            left = self.curve.eval_accel(s - h)
            right = self.curve.eval_accel(s + h)
            return [max(abs(a), abs(b)) for a, b in zip(left, right)]
        return self.curve.eval_accel(s)

    def grid(self):
        s = [0.0]
        for a, b in zip(self.knots[:-1], self.knots[1:]):
            for k in range(1, _GRID_PER_SEGMENT + 1):
                s.append(a + (b - a) * k / _GRID_PER_SEGMENT)
        return s


def _limits(values, n, what):
    if isinstance(values, (int, float)):
        if values <= 0 or values != values:
            raise ValueError("%s must be positive" % what)
        return float(values)
    values = [float(v) for v in values]
    if len(values) != n:
        raise ValueError("%s has %d entries, the path has dimension %d" % (what, len(values), n))
    # zero is allowed for coordinates the path does not move (e.g. welded links)
    if any(not v >= 0 for v in values):
        raise ValueError("%s entries must be nonnegative" % what)
    return values


def _speed_cap(d1, d2, vmax, amax):
    """Largest (ds/dt)^2 allowed by the velocity limits and by the
    curvature part of the acceleration limits."""
    cap = float('inf')
    if isinstance(vmax, float):
        n1 = vectorops.norm(d1)
        if n1 > 0:
            cap = min(cap, (vmax / n1) ** 2)
    else:
        for a, v in zip(d1, vmax):
            if a != 0:
                cap = min(cap, (v / abs(a)) ** 2)
    if isinstance(amax, float):
        n2 = vectorops.norm(d2)
        if n2 > 0:
            cap = min(cap, amax / n2)
    else:
        for b, a in zip(d2, amax):
            if b != 0:
                cap = min(cap, a / abs(b))
    return cap


def _reachable(x, ds, derivs, amax):
    """Largest (ds/dt)^2 x' reachable from x over a step ds with constant
    path acceleration such that the acceleration bound holds at x' for the
    path derivatives (d1, d2) of both ends of the step: solves
    x' = x + 2 ds (lim - |b| x') / |a| for each binding coordinate."""
    best = float('inf')
    for d1, d2 in derivs:
        if isinstance(amax, float):
            pairs = [(vectorops.norm(d1), vectorops.norm(d2), amax)]
        else:
            pairs = [(abs(a), abs(b), lim) for a, b, lim in zip(d1, d2, amax)]
        for a, b, lim in pairs:
            if a > 0:
                best = min(best, (x + 2 * ds * lim / a) / (1 + 2 * ds * b / a))
    return best


def _time_optimal(section, vmax, amax):
    """Returns (s grid, times) of the time-optimal scaling of a section that
    starts and ends at rest."""
    s = section.grid()
    d1 = [section.d1(si) for si in s]
    d2 = [section.d2(si) for si in s]
    n = len(s)
    cap = [_speed_cap(a, b, vmax, amax) for a, b in zip(d1, d2)]
    x = [0.0] * n
    for k in range(n - 1):
        ds = s[k + 1] - s[k]
        x[k + 1] = min(cap[k + 1], _reachable(x[k], ds, ((d1[k], d2[k]), (d1[k + 1], d2[k + 1])), amax))
    x[-1] = 0.0
    for k in range(n - 2, -1, -1):
        ds = s[k + 1] - s[k]
        x[k] = min(x[k], _reachable(x[k + 1], ds, ((d1[k], d2[k]), (d1[k + 1], d2[k + 1])), amax))
    x[0] = 0.0
    times = [0.0]
    for k in range(n - 1):
        v = math.sqrt(x[k]) + math.sqrt(x[k + 1])
        if v <= 0:
            raise RuntimeError("Time scaling failed: zero speed inside the path (are the limits positive?)")
        times.append(times[-1] + 2 * (s[k + 1] - s[k]) / v)
    return s, times, x


def _resample_time_optimal(grid, times, x, t):
    """Path parameter at time t of the piecewise constant-acceleration
    scaling (grid, times, speeds^2)."""
    k = min(max(bisect.bisect_right(times, t) - 1, 0), len(times) - 2)
    tau = t - times[k]
    h = times[k + 1] - times[k]
    v0 = math.sqrt(x[k])
    v1 = math.sqrt(x[k + 1])
    sdd = (v1 - v0) / h if h > 0 else 0.0
    return min(grid[k + 1], grid[k] + v0 * tau + 0.5 * sdd * tau * tau)


def _profile_inverse(profile, y):
    """u in [0, 1] with _profile(profile, u) = y (profiles are monotone)."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if _profile(profile, mid) < y:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _profile_limited_duration(section, profile, vmax, amax):
    """Shortest duration for which the profile keeps the limits, checked at
    finely sampled instants (u = t/T in [0, 1], s = L f(u))."""
    need = 0.0
    L = section.L
    h = 1e-5
    nsamples = _GRID_PER_SEGMENT * 4 * (len(section.knots) - 1)
    samples = [(k / float(nsamples), None) for k in range(nsamples + 1)]
    # the instants the path passes its knots, where a spline's curvature jumps
    samples += [(_profile_inverse(profile, knot / L), knot) for knot in section.knots[1:-1]]
    for u, knot in samples:
        si = L * _profile(profile, u) if knot is None else knot
        # ds/du and d2s/du2 of the profile by finite differences
        ua, ub = max(0.0, u - h), min(1.0, u + h)
        sdot = L * (_profile(profile, ub) - _profile(profile, ua)) / (ub - ua)
        um = min(max(u, h), 1 - h)
        sdd = L * (_profile(profile, um + h) - 2 * _profile(profile, um) + _profile(profile, um - h)) / (h * h)
        d1 = section.d1(si)
        d2 = section.d2(si)
        vel = [a * sdot for a in d1]
        acc = [abs(a * sdd) + abs(b) * sdot * sdot for a, b in zip(d1, d2)]
        if isinstance(vmax, float):
            need = max(need, vectorops.norm(vel) / vmax)
        else:
            need = max(need, max(abs(v) / lim if lim > 0 else (math.inf if v != 0 else 0.0) for v, lim in zip(vel, vmax)))
        if isinstance(amax, float):
            need = max(need, math.sqrt(vectorops.norm(acc) / amax))
        else:
            need = max(need, math.sqrt(max(a / lim if lim > 0 else (math.inf if a != 0 else 0.0) for a, lim in zip(acc, amax))))
    if not need < math.inf:
        raise RuntimeError("Time scaling failed: the path moves a coordinate whose limit is zero")
    return need / _SAFETY


def _section_schedule(section, profile, vmax, amax, speed, dt):
    """Times a section that starts and ends at rest.

    With limits (vmax and amax, as returned by _limits, or both None for no
    limits) and profile 'auto', 'constant', 'trapezoidal' or 'optimal', the
    scaling is time-optimal; otherwise the profile keeps its shape and lasts
    the shortest duration within the limits, or its nominal duration
    without limits.

    Returns:
        (T, ts, ss): the duration T, the sample times min(k dt, T) for k =
        0 .. ceil(T/dt), and the path parameter s at each sample time but
        the last (which is the end of the section).
    """
    limited = vmax is not None
    if limited and profile in ('auto', 'constant', 'trapezoidal', 'optimal'):
        vmax_s = vmax * _SAFETY if isinstance(vmax, float) else [v * _SAFETY for v in vmax]
        amax_s = amax * _SAFETY if isinstance(amax, float) else [a * _SAFETY for a in amax]
        grid, gtimes, x = _time_optimal(section, vmax_s, amax_s)
        T0 = gtimes[-1]
        param = lambda t: _resample_time_optimal(grid, gtimes, x, t)
    else:
        if limited:
            T0 = _profile_limited_duration(section, profile, vmax, amax)
        else:
            T0 = _profile_duration(profile, section.L)
        param = lambda t: section.L * _profile(profile, min(max(t / T0, 0.0), 1.0))
    T = T0 / speed
    nsteps = max(1, int(math.ceil(T / dt - 1e-9)))
    ts = [min(k * dt, T) for k in range(nsteps + 1)]
    return T, ts, [param(t * speed) for t in ts[:-1]]


def _segment_distances(milestones, timing, path_times, robot):
    """The base length of each segment between milestones.  path_times are
    the times of the path if it is a trajectory, else None."""
    segs = list(zip(milestones[:-1], milestones[1:]))
    if callable(timing):
        return [float(timing(a, b)) for a, b in segs]
    if isinstance(timing, (list, tuple)):
        if len(timing) != len(segs):
            raise ValueError("timing list must have one entry per segment (%d)" % len(segs))
        return [float(d) for d in timing]
    if timing == 'uniform':
        return [1.0] * len(segs)
    if timing == 'path':
        if path_times is None:
            raise ValueError("timing='path' requires a Trajectory")
        return [b - a for a, b in zip(path_times[:-1], path_times[1:])]
    base = timing[5:] if timing.startswith('sqrt-') else timing
    if base in ('L2', 'limited'):
        d = [vectorops.distance(a, b) for a, b in segs]
    elif base == 'Linf':
        d = [vectorops.norm_Linf(vectorops.sub(a, b)) for a, b in segs]
    elif base == 'robot':
        if robot is None:
            raise ValueError("timing='robot' requires a RobotTrajectory")
        d = [robot.distance(a, b) for a, b in segs]
    else:
        raise ValueError("Invalid timing %r" % (timing,))
    if timing.startswith('sqrt-'):
        d = [math.sqrt(v) for v in d]
    return d


def _stop_indices(milestones, stoptol, corners):
    """Milestone indices where the trajectory stops: the ends, plus interior
    milestones whose turning angle exceeds stoptol (every one if stoptol is
    0), plus, if corners is True, every milestone where the direction
    changes."""
    n = len(milestones)
    stops = [0]
    for i in range(1, n - 1):
        a = vectorops.sub(milestones[i], milestones[i - 1])
        b = vectorops.sub(milestones[i + 1], milestones[i])
        turn = vectorops.angle(a, b) if vectorops.norm(a) > 0 and vectorops.norm(b) > 0 else 0.0
        if (stoptol is not None and (stoptol == 0 or turn > stoptol)) or (corners and turn > 1e-9):
            stops.append(i)
    stops.append(n - 1)
    return stops


def _full_config(controller, activeDofs):
    """Returns (indices, base configuration) for commands on activeDofs."""
    if activeDofs is None:
        return None, None
    robot = controller.model()
    indices = [robot.link(d).index if isinstance(d, str) else int(d) for d in activeDofs]
    return indices, list(controller.getCommandedConfig())


def _expand(q, indices, base):
    if indices is None:
        return list(q)
    if len(q) != len(indices):
        raise ValueError("Milestone has %d entries, activeDofs has %d" % (len(q), len(indices)))
    res = list(base)
    for i, v in zip(indices, q):
        res[i] = v
    return res


def _is_robot_interface(controller):
    return hasattr(controller, 'setPiecewiseLinear') and not hasattr(controller, 'addLinear')


def _command_milestones(controller, path, ramp, activeDofs):
    """Sends the milestones of path to a SimRobotController, stopping at
    each: in straight lines (addMilestoneLinear), or with time-optimal moves
    (addMilestone) if ramp."""
    indices, base = _full_config(controller, activeDofs)
    qs = [_expand(q, indices, base) for q in path]
    if not ramp:
        controller.setMilestone(qs[0])
        for q in qs[1:]:
            controller.addMilestoneLinear(q)
    else:
        zero = [0.0] * len(qs[0])
        controller.setMilestone(qs[0], zero)
        for q in qs[1:]:
            controller.addMilestone(q, zero)


def _command_timed(controller, times, qs, vs, activeDofs):
    """Sends configurations qs reached at times (relative to now), with
    velocities vs (cubic segments) or None (linear segments), to a
    SimRobotController or a RobotInterfaceBase."""
    if _is_robot_interface(controller):
        if activeDofs is not None:
            controller = controller.partInterface(activeDofs) if hasattr(controller, 'partInterface') else controller
        if vs is None:
            controller.setPiecewiseLinear(times, qs, True)
        else:
            controller.setPiecewiseCubic(times, qs, vs, True)
        return
    indices, base = _full_config(controller, activeDofs)
    zero_base = [0.0] * len(base) if base is not None else None
    prev = 0.0
    for k, (t, q) in enumerate(zip(times, qs)):
        duration = max(t - prev, 0.0) if k > 0 else max(t, 0.0)
        prev = t
        qf = _expand(q, indices, base)
        if vs is None:
            (controller.setLinear if k == 0 else controller.addLinear)(qf, duration)
        else:
            vf = _expand(vs[k], indices, zero_base)
            (controller.setCubic if k == 0 else controller.addCubic)(qf, vf, duration)
