"""plan_motion and plan_cartesian_motion return timed trajectories within the robot's limits."""
import math

import pytest

pytest.importorskip("compas_fab")

from compas.geometry import Frame  # noqa: E402
from compas_fab.robots import ConfigurationTarget, FrameWaypoints, TargetMode  # noqa: E402

from klampt.model.trajectory import path_to_trajectory  # noqa: E402

from .fab_cells import state_at  # noqa: E402

START = [0, -1.2, 1.5, -1.9, -1.57, 0]
GOAL = [1.2, -1.4, 1.2, -1.4, -1.57, 0.4]


def rest_to_rest_time(delta, vmax, amax):
    """The least time of a straight joint motion from rest to rest: s in [0, 1] with |s'| <= V, |s''| <= A."""
    V = min(v / abs(d) for d, v in zip(delta, vmax) if d)
    A = min(a / abs(d) for d, a in zip(delta, amax) if d)
    if V * V / A >= 1:  # never reaches V: accelerate half way, brake half way
        return 2 * math.sqrt(1 / A)
    return 1 / V + V / A


def seconds(point):
    return point.time_from_start.seconds


def limits(planner, names):
    robot = planner.client.robot
    dofs = [planner.client.joint_dof[n] for n in names]
    return [robot.getVelocityLimits()[d] for d in dofs], [robot.getAccelerationLimits()[d] for d in dofs]


def test_a_straight_plan_takes_the_least_rest_to_rest_time(planner, cone):
    cell, state = cone
    start, goal = state_at(cell, state, START), state_at(cell, state, GOAL)
    trajectory = planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start, options={"time_step": 0})
    assert [p.joint_values for p in trajectory.points] == [START, GOAL]  # free straight line
    vmax, amax = limits(planner, trajectory.joint_names)
    assert vmax == [math.pi] * 6  # the URDF's limits
    best = rest_to_rest_time([b - a for a, b in zip(START, GOAL)], vmax, amax)
    assert best - 1e-6 <= seconds(trajectory.points[-1]) <= 1.05 * best
    # the time-optimal pass of path_to_trajectory agrees
    timed = path_to_trajectory([START, GOAL], timing="limited", smoothing=None, vmax=vmax, amax=amax)
    assert seconds(trajectory.points[-1]) == pytest.approx(timed.times[-1], rel=0.05)
    assert trajectory.points[0].velocities == [0.0] * 6 and trajectory.points[-1].velocities == [0.0] * 6
    # MoveIt's scaling factors
    slow = planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start,
                               options={"time_step": 0, "max_velocity_scaling_factor": 0.25,
                                        "max_acceleration_scaling_factor": 0.5})
    best_slow = rest_to_rest_time([b - a for a, b in zip(START, GOAL)], [v * 0.25 for v in vmax], [a * 0.5 for a in amax])
    assert best_slow - 1e-6 <= seconds(slow.points[-1]) <= 1.05 * best_slow
    with pytest.raises(ValueError, match="max_velocity_scaling_factor"):
        planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start, options={"max_velocity_scaling_factor": 0})


def test_plan_motion_samples_stay_on_the_path_within_the_limits(planner, cone):
    cell, state = cone
    start, goal = state_at(cell, state, START), state_at(cell, state, GOAL)
    trajectory = planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start, options={"time_step": 0.05})
    vmax, amax = limits(planner, trajectory.joint_names)
    times = [seconds(p) for p in trajectory.points]
    assert len(times) > 10 and all(b - a <= 0.05 + 1e-9 for a, b in zip(times, times[1:]))
    assert all(b > a for a, b in zip(times, times[1:]))
    delta = [b - a for a, b in zip(START, GOAL)]
    for p in trajectory.points:
        # on the straight segment, moving along it
        u = (p.joint_values[0] - START[0]) / delta[0]
        assert all(abs(q - (a + u * d)) < 1e-9 for q, a, d in zip(p.joint_values, START, delta))
        assert all(abs(v) <= vm * 1.001 for v, vm in zip(p.velocities, vmax))
        assert all(abs(a) <= am * 1.02 for a, am in zip(p.accelerations, amax))
    # the velocities are the positions' rate of change
    for p, q, r in zip(trajectory.points, trajectory.points[1:], trajectory.points[2:]):
        slope = [(c - a) / (seconds(r) - seconds(p)) for a, c in zip(p.joint_values, r.joint_values)]
        assert max(abs(s - v) for s, v in zip(slope, q.velocities)) < 0.05 * max(vmax)


def test_cartesian_trajectories_are_timed_through_their_points(planner, cone):
    cell, state = cone
    start = state_at(cell, state, START)
    t0 = planner.forward_kinematics(start, TargetMode.TOOL)
    waypoints = FrameWaypoints([Frame(t0.point + [0.1, 0.1, -0.1], t0.xaxis, t0.yaxis)], TargetMode.TOOL)
    trajectory = planner.plan_cartesian_motion(waypoints, start)
    vmax, amax = limits(planner, trajectory.joint_names)
    times = [seconds(p) for p in trajectory.points]
    assert times[0] == 0 and all(b > a for a, b in zip(times, times[1:]))
    assert trajectory.points[0].velocities == [0.0] * 6 and trajectory.points[-1].velocities == [0.0] * 6
    for p in trajectory.points:
        assert all(abs(v) <= vm * 1.001 for v, vm in zip(p.velocities, vmax))
    # the velocities integrate to the motion between points (the trapezoid rule, exact at constant acceleration)
    for p, q in zip(trajectory.points, trajectory.points[1:]):
        dt = seconds(q) - seconds(p)
        moved = [b - a for a, b in zip(p.joint_values, q.joint_values)]
        integrated = [(u + w) / 2 * dt for u, w in zip(p.velocities, q.velocities)]
        assert max(abs(m - i) for m, i in zip(moved, integrated)) < 0.15 * max(map(abs, moved)) + 1e-5
    # not slower than needed: some joint nears its velocity limit or the motion is acceleration bound
    peak = max(abs(v) / vm for p in trajectory.points for v, vm in zip(p.velocities, vmax))
    path = sum(math.dist(p.joint_values, q.joint_values) for p, q in zip(trajectory.points, trajectory.points[1:]))
    assert peak > 0.9 or times[-1] < 2.2 * math.sqrt(path / min(amax))
