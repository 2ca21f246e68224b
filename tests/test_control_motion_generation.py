"""klampt.control.motion_generation: streamed targets become motions that
respect their velocity (and acceleration) bounds and arrive when the
time-optimal profile says (T15).  Expectations are kinematic: a straight
line at the velocity bound, bang-bang profiles, finite differences of the
positions returned by update()."""
import pytest

from klampt.control.motion_generation import AccelerationBoundedMotionGeneration, VelocityBoundedMotionGeneration

DT = 0.01


def stream(gen, seconds, dt=DT):
    """update(dt) for the given time: the list of (x, v)."""
    return [gen.update(dt) for _ in range(int(round(seconds / dt)))]


def test_velocity_bounded_moves_in_a_line_at_the_bound():
    g = VelocityBoundedMotionGeneration([0, 0], [1, 1])
    g.setTarget([1, 1])
    assert g.remainingTime() == pytest.approx(1.0)
    x, v = g.update(0.1)
    assert x == pytest.approx([0.1, 0.1]) and v == pytest.approx([1, 1])
    # mid-motion prediction (the reference raises TypeError here)
    x, v = g.predict(0.4)
    assert x == pytest.approx([0.5, 0.5]) and v == pytest.approx([1, 1])
    states = stream(g, 0.9)
    assert states[-1][0] == pytest.approx([1, 1]) and g.remainingTime() == pytest.approx(0, abs=1e-9)
    assert g.update(DT) == ([1.0, 1.0], [0.0, 0.0])


def test_velocity_bounded_axes_arrive_together():
    g = VelocityBoundedMotionGeneration([0, 0], [1, 2])
    g.setTarget([0.5, 3.0])
    # axis 1 is the slow one: 3 / 2 = 1.5 s
    assert g.remainingTime() == pytest.approx(1.5)
    x, v = g.update(0.75)
    assert x == pytest.approx([0.25, 1.5]) and v == pytest.approx([0.5 / 1.5, 2.0])
    traj = g.trajectory()
    assert traj.endTime() == pytest.approx(0.75) and traj.milestones[-1] == [0.5, 3.0]


def test_velocity_bounded_zero_length_segment_and_velocity_command():
    g = VelocityBoundedMotionGeneration([1, 2], [1, 1])
    g.setTarget([1, 2])
    assert g.update(DT) == ([1.0, 2.0], [0.0, 0.0])
    g.setVelocity([3.0, -0.5], duration=1.0)
    x, v = g.update(0.5)
    # clipped to vmax on axis 0
    assert v == pytest.approx([1.0, -0.5]) and x == pytest.approx([1.5, 1.75])
    g.brake()
    assert g.update(0.5)[0] == pytest.approx([1.5, 1.75])
    with pytest.raises(ValueError):
        g.setTarget([1, 2, 3])


def test_acceleration_bounded_target_arrives_at_the_optimal_time():
    g = AccelerationBoundedMotionGeneration([0, 0], vmax=[1, 1], amax=[1, 1])
    g.setTarget([1, 0.5])
    # axis 0 is bang-bang with peak velocity 1: 2 s; axis 1 is stretched to 2 s
    assert g.remainingTime() == pytest.approx(2.0, abs=1e-9)
    assert g.times[0] == pytest.approx([0, 1, 2])
    states = stream(g, 2.0)
    prev_v = [0.0, 0.0]
    for x, v in states:
        assert all(abs(vi) <= 1 + 1e-9 for vi in v)
        assert all(abs(a - b) <= 1 * DT + 1e-9 for a, b in zip(v, prev_v))
        prev_v = v
    assert states[-1][0] == pytest.approx([1.0, 0.5], abs=1e-9)
    assert g.remainingTime() == pytest.approx(0, abs=1e-9)
    # positions and velocities agree (finite differences)
    for (x0, _), (x1, v1), in zip(states[:-1], states[1:]):
        for a, b, vb in zip(x0, x1, v1):
            assert (b - a) / DT == pytest.approx(vb, abs=2 * DT)


def test_acceleration_bounded_velocity_ramps_cruises_and_stops():
    g = AccelerationBoundedMotionGeneration([0, 0], vmax=[1, 1], amax=[1, 2])
    g.setVelocity([0.5, 0.5], 1.0)
    # ramp in 0.5 s (axis 0 is the slower to accelerate), cruise 1 s, ramp down 0.5 s
    assert g.remainingTime() == pytest.approx(2.0)
    states = stream(g, 2.1)
    vs = [v for _, v in states]
    assert vs[100] == pytest.approx([0.5, 0.5])
    assert vs[-1] == pytest.approx([0, 0], abs=1e-9)
    prev = [0.0, 0.0]
    for v in vs:
        assert abs(v[0] - prev[0]) <= 1.0 * DT + 1e-9 and abs(v[1] - prev[1]) <= 2.0 * DT + 1e-9
        prev = v
    # distance: 0.5 * (0.5 + 1.0 + 0.5) * ... = area under the velocity trapezoid
    assert states[-1][0] == pytest.approx([0.75, 0.75], abs=1e-6)


def test_acceleration_bounded_brake_stops_within_v_over_a():
    g = AccelerationBoundedMotionGeneration([0], vmax=[2], amax=[1])
    g.setTarget([10])
    stream(g, 1.0)
    x, v = g.x, g.v
    assert v[0] == pytest.approx(1.0, abs=1e-6)
    g.brake()
    assert g.remainingTime() == pytest.approx(v[0] / 1.0, abs=1e-6)
    states = stream(g, 1.5)
    assert states[-1][1] == [0.0]
    # constant deceleration: v^2 / (2 a)
    assert states[-1][0][0] - x[0] == pytest.approx(v[0] ** 2 / 2, abs=1e-6)


def test_acceleration_bounded_needs_amax_and_reports_infeasible_targets():
    with pytest.raises(ValueError, match="amax"):
        AccelerationBoundedMotionGeneration([0, 0], vmax=[1, 1])
    g = AccelerationBoundedMotionGeneration([0], xmin=[-1], xmax=[1], vmax=[1], amax=[1])
    with pytest.raises(ValueError):
        g.setTarget([2])
    traj = g.trajectory()
    assert traj.eval(0) == [0.0]
