"""klampt.plan.motionplanning's time-scaling functions against the
reference's values (tests/data/plan_time_scaling_reference.json, made by
make_plan_time_scaling_reference.py), and against the physics of the moves
they describe: bounds respected, endpoints met, knots consistent with
constant accelerations between them."""
import json
import os
import warnings

import numpy as np
import pytest

from conftest import assert_close
from klampt.model.trajectory import HermiteTrajectory
from klampt.plan import motionplanning as mp

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "plan_time_scaling_reference.json")) as f:
    REFERENCE = json.load(f)


def decode(x):
    if isinstance(x, list):
        return [decode(v) for v in x]
    if x in ('inf', '-inf'):
        return float(x)
    return x


def reference_cases(fn):
    return [c for c in REFERENCE["cases"] if c["fn"] == fn]


def segments_consistent(ts, xs, vs, tol=1e-9):
    """Between knots, constant acceleration: x1 - x0 = (v0 + v1) / 2 * dt."""
    for k in range(len(ts) - 1):
        dt = ts[k + 1] - ts[k]
        assert dt >= -tol
        if dt > 0:
            assert xs[k + 1] - xs[k] == pytest.approx(0.5 * (vs[k] + vs[k + 1]) * dt, abs=tol)


@pytest.mark.parametrize("case", reference_cases("interpolate_1d_min_time"), ids=str)
def test_1d_min_time_matches_reference(case):
    args = decode(case["args"])
    if "raises" in case:
        with pytest.raises(RuntimeError, match=case["message"]):
            mp.interpolate_1d_min_time(*args)
        return
    ts, xs, vs = mp.interpolate_1d_min_time(*args)
    assert_close(ts, case["result"][0], atol=1e-9, what="times")
    assert_close(xs, case["result"][1], atol=1e-9, what="positions")
    assert_close(vs, case["result"][2], atol=1e-9, what="velocities")
    segments_consistent(ts, xs, vs)


def drop_zero_phases(ts, xs, vs):
    """The reference pads min-accel knot lists with zero-length phases."""
    out = ([], [], [])
    for t, x, v in zip(ts, xs, vs):
        if out[0] and t == out[0][-1] and x == out[1][-1]:
            out[2][-1] = v
            continue
        out[0].append(t)
        out[1].append(x)
        out[2].append(v)
    return out


@pytest.mark.parametrize("case", reference_cases("interpolate_1d_min_accel"), ids=str)
def test_1d_min_accel_matches_reference(case):
    args = decode(case["args"])
    if "raises" in case:
        with pytest.raises(RuntimeError, match=case["message"]):
            mp.interpolate_1d_min_accel(*args)
        return
    ts, xs, vs = mp.interpolate_1d_min_accel(*args)
    if not case["result"][0]:
        assert ts == [] and xs == [] and vs == []
        return
    rt, rx, _ = drop_zero_phases(*case["result"])
    # The reference's padded velocities are garbage before its first real
    # phase; times and positions of the real phases agree.
    assert_close(ts, rt, atol=1e-9, what="times")
    assert_close(xs, rx, atol=1e-9, what="positions")
    assert ts[-1] == pytest.approx(args[4])
    assert vs[0] == args[1] and vs[-1] == pytest.approx(args[3])
    segments_consistent(ts, xs, vs)


@pytest.mark.parametrize("case", reference_cases("interpolate_nd_min_time"), ids=str)
def test_nd_min_time_matches_reference(case):
    args = decode(case["args"])
    if "raises" in case:
        with pytest.raises(RuntimeError, match=case["message"]):
            mp.interpolate_nd_min_time(*args)
        return
    res = mp.interpolate_nd_min_time(*args)
    for got, want, what in zip(res, case["result"], ("times", "positions", "velocities")):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_close(g, w, atol=1e-9, what=what)
    for ts, xs, vs in zip(*res):
        segments_consistent(ts, xs, vs)


@pytest.mark.parametrize("fn", ["interpolate_nd_min_time_linear", "brake_1d", "brake_nd", "combine_nd_cubic"])
def test_other_functions_match_reference(fn):
    for case in reference_cases(fn):
        res = getattr(mp, fn)(*decode(case["args"]))
        for got, want in zip(res, case["result"]):
            assert_close(got, want, atol=1e-9, what=fn)


def test_nd_min_accel_is_the_1d_one_per_dof():
    # The reference segfaults here; each DOF is its own least-acceleration move.
    x0, v0, x1, v1, T = [0, 0], [0, 0], [1, 2], [0, 0], 3.0
    ts, xs, vs = mp.interpolate_nd_min_accel(x0, v0, x1, v1, T, [-10, -10], [10, 10], [1, 1])
    for i in range(2):
        t1, x1d, v1d = mp.interpolate_1d_min_accel(x0[i], v0[i], x1[i], v1[i], T, -10, 10, 1)
        assert ts[i] == t1 and xs[i] == x1d and vs[i] == v1d
        assert ts[i][-1] == pytest.approx(T)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        alias = mp.interpolateNDMinAccel(x0, v0, x1, v1, T, [-10, -10], [10, 10], [1, 1])
    assert alias == (ts, xs, vs)
    assert any(issubclass(x.category, DeprecationWarning) for x in w)


def test_camel_case_aliases_warn_and_forward():
    for old, new, args in [("interpolate1DMinTime", "interpolate_1d_min_time", (0, 0, 1, 0, -10, 10, 1, 1)),
                           ("interpolateNDMinTimeLinear", "interpolate_nd_min_time_linear", ([0], [1], [1], [1]))]:
        with pytest.warns(DeprecationWarning):
            assert getattr(mp, old)(*args) == getattr(mp, new)(*args)


def test_infinite_acceleration_moves_at_constant_velocity():
    ts, xs, vs = mp.interpolate_1d_min_time(0, 0, 2, 0, -10, 10, 1, float('inf'))
    assert ts == [0, 0, 2, 2] and xs == [0, 0, 2, 2] and vs == [0, 1, 1, 0]
    # n-D: the unbounded DOF sets a least duration the others keep to.
    ts, xs, vs = mp.interpolate_nd_min_time([0, 0], [0, 0], [3, 1], [0, 0], [-10, -10], [10, 10], [1, 1],
                                            [float('inf'), 1])
    assert ts[0][-1] == pytest.approx(3) and ts[1][-1] == pytest.approx(3)
    assert xs[1][-1] == pytest.approx(1) and max(abs(v) for v in vs[1]) <= 1 + 1e-12


def test_bad_input_raises():
    with pytest.raises(ValueError):
        mp.interpolate_nd_min_time([0, 0], [0, 0], [1, 2], [0, 0], [-10, -10], [10, 10], [1, 1], [1])
    with pytest.raises(ValueError):
        mp.interpolate_1d_min_time(0, 0, 1, 0, -10, 10, 1, 0)
    with pytest.raises(ValueError):
        mp.interpolate_1d_min_time(float('nan'), 0, 1, 0, -10, 10, 1, 1)
    with pytest.raises(ValueError):
        mp.interpolate_1d_min_time(0, 3, 1, 0, -10, 10, 1, 1)
    with pytest.raises(ValueError):
        mp.brake_1d(0, 1, 0)
    with pytest.raises(ValueError):
        mp.combine_nd_cubic([[0, 1]], [[0, 1], [0]], [[0, 0]])
    with pytest.raises(ValueError):
        mp.interpolate_1d_min_accel(0, 0, 2, 0, -1.0, -10, 10, 1)


def test_random_moves_respect_bounds():
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = 3
        vmax = rng.uniform(0.5, 2, n)
        amax = rng.uniform(0.5, 3, n)
        x0, x1 = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
        v0, v1 = rng.uniform(-1, 1, n) * vmax, rng.uniform(-1, 1, n) * vmax
        res = mp.interpolate_nd_min_time(x0, v0, x1, v1, [-5] * n, [5] * n, vmax, amax)
        end = {round(ts[-1], 9) for ts in res[0]}
        assert len(end) == 1, "DOFs must arrive together"
        for i, (ts, xs, vs) in enumerate(zip(*res)):
            assert xs[0] == pytest.approx(x0[i]) and xs[-1] == pytest.approx(x1[i], abs=1e-9)
            assert vs[0] == pytest.approx(v0[i]) and vs[-1] == pytest.approx(v1[i], abs=1e-9)
            assert max(abs(v) for v in vs) <= vmax[i] * (1 + 1e-9)
            for k in range(len(ts) - 1):
                dt = ts[k + 1] - ts[k]
                if dt > 1e-12:
                    assert abs(vs[k + 1] - vs[k]) / dt <= amax[i] * (1 + 1e-6)
            segments_consistent(ts, xs, vs)


@pytest.mark.parametrize("k", range(len(REFERENCE["splines"])))
def test_make_min_time_spline_matches_reference(k):
    s = REFERENCE["splines"][k]
    H = HermiteTrajectory()
    H.makeMinTimeSpline(s["milestones"], velocities=s["velocities"], vmax=s["vmax"], amax=s["amax"])
    # (The reference keeps zero-length phases as repeated knots, so the knot
    # lists differ; the durations and the motion are compared.)
    assert H.endTime() == pytest.approx(s["times"][-1], abs=1e-9)
    vmax, amax = s["vmax"], s["amax"]
    if s["velocities"] is None:
        for t, x, v in s["samples"]:
            assert_close(H.eval(t), x, atol=1e-9, what="eval")
            assert_close(H.deriv(t), v, atol=1e-9, what="deriv")
        return
    # With velocities, a DOF slowed down to arrive with the others may take
    # another profile than the reference's: it passes through every milestone
    # state, at the reference's times, within the bounds.
    for i, (m, vel) in enumerate(zip(s["milestones"], s["velocities"])):
        hits = [j for j, x in enumerate(H.milestones) if all(abs(a - b) < 1e-9 for a, b in zip(x[:3], m))]
        assert hits, "milestone %d is not a knot" % i
        assert_close(H.milestones[hits[0]][3:], vel, atol=1e-9, what="milestone velocity")
        assert any(abs(H.times[hits[0]] - t) < 1e-9 for t in s["times"])
    for t in np.linspace(0, H.endTime(), 400):
        assert all(abs(d) <= b * (1 + 1e-9) for d, b in zip(H.deriv(t), vmax))
        assert all(abs(a) <= b * (1 + 1e-6) for a, b in zip(H.eval_accel(t), amax))


def test_zero_bounds_on_dofs_that_do_not_move():
    # Fixed joints have zero velocity and acceleration limits; as in the
    # reference, they only matter for a DOF that moves.
    ts, xs, vs = mp.interpolate_nd_min_time_linear([0, 0], [1, 0], [1, 0], [1, 0])
    assert ts == [0.0, 1.0, 2.0] and xs[1] == [0.5, 0.0]
    res = mp.interpolate_nd_min_time([0, 0], [0, 0], [1, 0], [0, 0], [-5, -5], [5, 5], [1, 0], [1, 0])
    assert res[0] == [[0.0, 1.0, 2.0], [0.0, 2.0]] and res[1][1] == [0.0, 0.0]
    assert mp.interpolate_1d_min_time(2, 0, 2, 0, -5, 5, 0, 0) == ([0.0], [2.0], [0.0])
    with pytest.raises(ValueError):
        mp.interpolate_nd_min_time_linear([0, 0], [1, 1], [1, 1], [1, 0])
    H = HermiteTrajectory()
    H.makeMinTimeSpline([[0, 0], [0, 1], [0, 2]], vmax=[0, 1], amax=[0, 1])
    assert H.endTime() == pytest.approx(4.0)
