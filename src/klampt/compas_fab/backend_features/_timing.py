"""Timing of joint trajectories from the robot's velocity and acceleration limits.

Time-optimal along the path under per-joint velocity and acceleration
limits, starting and ending at rest: a spline through the points is scaled
by :mod:`klampt.model.trajectory`'s time-optimal pass (``path_to_trajectory``
with ``timing='limited'``); a path that stops at every point is a sequence of
straight rest-to-rest motions, whose optimum (bang-coast-bang) is closed form.
"""

import math
from typing import List, Sequence

import numpy as np
from compas_fab.robots import Duration, JointTrajectoryPoint

from ...model import _timing
from ...model.trajectory import HermiteTrajectory, Trajectory

__all__ = ["joint_limits", "time_path", "time_trajectory", "duration", "TIMING_OPTIONS"]

#: The options of the timing, with MoveIt's meaning: factors in (0, 1] on the limits.
TIMING_OPTIONS = ("max_velocity_scaling_factor", "max_acceleration_scaling_factor")

#: Limits used for joints whose model gives none (rad/s or m/s, rad/s^2 or m/s^2).
DEFAULT_VELOCITY = 1.0
DEFAULT_ACCELERATION = 10.0

#: Time resolution of the scaling (s).
_DT = 2e-3
#: Most points a timed spline runs through (the others are timed where they lie along it).
SPLINE_KNOTS = 6


def _factor(options: dict, name: str) -> float:
    value = options.get(name, 1.0)
    if not 0 < value <= 1:
        raise ValueError("the option {!r} must be in (0, 1]; got {!r}".format(name, value))
    return float(value)


def joint_limits(robot, dofs: Sequence[int], options: dict):
    """Per-DOF velocity and acceleration limits of ``robot`` (defaults where the model has none), scaled by the options."""
    vs = _factor(options, "max_velocity_scaling_factor")
    acc = _factor(options, "max_acceleration_scaling_factor")
    v_all, a_all = robot.getVelocityLimits(), robot.getAccelerationLimits()
    vmax = [(v_all[d] if 0 < v_all[d] < math.inf else DEFAULT_VELOCITY) * vs for d in dofs]
    amax = [(a_all[d] if 0 < a_all[d] < math.inf else DEFAULT_ACCELERATION) * acc for d in dofs]
    return vmax, amax


def _schedule(milestones: List[List[float]], vmax, amax):
    """``(knots, section, (t, s, ds/dt, d2s/dt2))``: the time-optimal rest-to-rest schedule of the spline through
    ``milestones`` (a straight segment for two), sampled every ``_DT``."""
    knots = [0.0]
    for a, b in zip(milestones, milestones[1:]):
        knots.append(knots[-1] + math.dist(a, b))
    if len(milestones) > 2:
        curve = HermiteTrajectory()
        curve.makeSpline(Trajectory(knots, milestones))
        section = _timing._Section(curve, knots, True)
    else:
        section = _timing._Section(Trajectory(knots, milestones), knots, False)
    T, ts, ss = _timing._section_schedule(section, "auto", vmax, amax, 1.0, _DT)
    ts = np.asarray(ts, dtype=float)
    ss = np.append(np.asarray(ss, dtype=float), knots[-1])
    sdot = np.gradient(ss, ts) if len(ts) > 2 else np.zeros(len(ts))
    sddot = np.gradient(sdot, ts) if len(ts) > 2 else np.zeros(len(ts))
    sdot[0] = sdot[-1] = 0.0
    if len(ts) > 3:
        # one-sided differences halve the acceleration at the rests
        sddot[0], sddot[-1] = sddot[1], sddot[-2]
    ts[-1] = T
    return knots, section, (ts, ss, sdot, sddot)


def _derivatives(section, s: float, sdot: float, sddot: float, at_end: bool):
    """Joint velocities and accelerations at path parameter s (one-sided at a segment end)."""
    if section.hermite:
        d1, d2 = section.d1(s), section.curve.eval_accel(s)
    else:
        knots = section.knots
        i = min(max(np.searchsorted(knots, s, side="left" if at_end else "right") - 1, 0), len(knots) - 2)
        a, b = section.curve.milestones[i], section.curve.milestones[i + 1]
        d1 = [(y - x) / (knots[i + 1] - knots[i]) for x, y in zip(a, b)]
        d2 = [0.0] * len(d1)
    return [float(v * sdot) for v in d1], [float(a * sdot ** 2 + v * sddot) for v, a in zip(d1, d2)]


def time_path(values: List[List[float]], vmax, amax, stop_at_every_point: bool, time_step: float = 0.0):
    """Times a joint path: ``(times, positions, velocities, accelerations)`` lists.

    With ``stop_at_every_point`` each straight segment is its own rest-to-rest
    motion (the path stays exactly on the segments, as collision-checked),
    ``time_step`` > 0 adds evenly spaced samples inside each segment, at most
    ``time_step`` apart, and
    repeated points are merged. Otherwise one spline through all the points
    is timed, resting only at both ends, and every point given is returned
    (a repeated point at the same time).
    """
    values = [list(map(float, v)) for v in values]
    index = [0]  # the kept point each given point maps to
    kept = [values[0]]
    for v in values[1:]:
        if math.dist(v, kept[-1]) > 0:
            kept.append(v)
        index.append(len(kept) - 1)
    zero = [0.0] * len(values[0])
    if len(kept) == 1:
        return [0.0] * len(values), values, [zero] * len(values), [zero] * len(values)
    if not stop_at_every_point:
        # the spline runs through at most SPLINE_KNOTS of the points (the time-optimal pass costs per knot);
        # every point is timed at its arc length along the path
        step = max(1, math.ceil((len(kept) - 1) / (SPLINE_KNOTS - 1)))
        chosen = list(range(0, len(kept) - 1, step)) + [len(kept) - 1]
        knots, section, (ts, ss, sd, sdd) = _schedule([kept[i] for i in chosen], vmax, amax)
        arc = np.concatenate([[0.0], np.cumsum([math.dist(a, b) for a, b in zip(kept, kept[1:])])])
        s_kept = np.interp(arc, arc[chosen], knots)
        t_kept = np.interp(s_kept, ss, ts)
        t_kept[-1] = ts[-1]
        derivs = [_derivatives(section, float(sk), float(np.interp(t, ts, sd)), float(np.interp(t, ts, sdd)), False)
                  for sk, t in zip(s_kept, t_kept)]
        derivs[0] = (zero, derivs[0][1])
        derivs[-1] = (zero, derivs[-1][1])
        return ([float(t_kept[i]) for i in index], [values[n] for n in range(len(values))],
                [derivs[i][0] for i in index], [derivs[i][1] for i in index])
    times, positions, velocities, accelerations = [0.0], [kept[0]], [zero], [zero]
    t0 = 0.0
    for a, b in zip(kept, kept[1:]):
        delta = [y - x for x, y in zip(a, b)]
        profile = _RestToRest(delta, vmax, amax)
        accelerations[-1] = [profile.A * d for d in delta]  # leaving the stop
        n = int(math.ceil(profile.T / time_step - 1e-9)) if time_step > 0 else 1
        for i in range(1, n):
            t = profile.T * i / n
            s_, sd, sdd = profile(t)
            times.append(t0 + t)
            positions.append([x + s_ * d for x, d in zip(a, delta)])
            velocities.append([sd * d for d in delta])
            accelerations.append([sdd * d for d in delta])
        t0 += profile.T
        times.append(t0)
        positions.append(b)
        velocities.append(zero)
        accelerations.append([-profile.A * d for d in delta])  # arriving
    return times, positions, velocities, accelerations


class _RestToRest:
    """The time-optimal motion along a straight joint segment from rest to rest: the path parameter s in [0, 1]
    with |ds/dt| <= V and |d2s/dt2| <= A, V and A the tightest joint's limits over its share of the segment
    (the bang-coast-bang profile the time-optimal pass of ``path_to_trajectory`` converges to, in closed form)."""

    def __init__(self, delta, vmax, amax):
        self.V = min(v / abs(d) for d, v in zip(delta, vmax) if d)
        self.A = min(a / abs(d) for d, a in zip(delta, amax) if d)
        if self.V * self.V / self.A >= 1:  # the cruise speed is never reached
            self.ramp = math.sqrt(1 / self.A)
            self.T = 2 * self.ramp
            self.V = self.A * self.ramp
        else:
            self.ramp = self.V / self.A
            self.T = 1 / self.V + self.ramp

    def __call__(self, t: float):
        """``(s, ds/dt, d2s/dt2)`` at time t."""
        A, V, ramp, T = self.A, self.V, self.ramp, self.T
        if t < ramp:
            return 0.5 * A * t * t, A * t, A
        if t <= T - ramp:
            return 0.5 * A * ramp * ramp + V * (t - ramp), V, 0.0
        r = T - t
        return 1 - 0.5 * A * r * r, A * r, -A


def duration(seconds: float) -> Duration:
    """A compas ``Duration`` of ``seconds``."""
    secs = int(math.floor(seconds))
    return Duration(secs, int(round((seconds - secs) * 1e9)))


def time_trajectory(client, trajectory, options: dict, stop_at_every_point: bool, time_step: float = 0.0) -> None:
    """Replaces ``trajectory``'s points by timed ones: ``time_from_start``, velocities and accelerations
    within the limits of ``client``'s robot scaled by the options (see :func:`time_path`)."""
    names = trajectory.joint_names
    vmax, amax = joint_limits(client.robot, [client.joint_dof[n] for n in names], options)
    times, positions, velocities, accelerations = time_path(
        [p.joint_values for p in trajectory.points], vmax, amax, stop_at_every_point, time_step)
    joint_types = trajectory.points[0].joint_types
    trajectory.points = [
        JointTrajectoryPoint(joint_values=list(q), joint_types=joint_types, velocities=list(v), accelerations=list(a),
                             time_from_start=duration(t), joint_names=names)
        for t, q, v, a in zip(times, positions, velocities, accelerations)]
