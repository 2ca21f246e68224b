"""plan_cartesian_motion and plan_motion of the klampt COMPAS FAB backend."""
import math
import random

import pytest

pytest.importorskip("compas_fab")

import compas  # noqa: E402
from compas.geometry import Frame  # noqa: E402
from compas_fab.backends import (  # noqa: E402
    CollisionCheckError,
    MPInterpolationInCollisionError,
    MPNoIKSolutionError,
    MPNoPlanFoundError,
    MPSearchTimeOutError,
    MPStartStateInCollisionError,
    MPTargetInCollisionError,
)
from compas_fab.robots import (  # noqa: E402
    ConfigurationTarget,
    FrameTarget,
    FrameWaypoints,
    JointTrajectory,
    PointAxisWaypoints,
    TargetMode,
)

from geometry_oracles import distance_to_segment  # noqa: E402

from .fab_cells import dense_recheck, frame_angle, library_cell, point_state, state_at, use  # noqa: E402

START = [0, -1.2, 1.5, -1.9, -1.57, 0]


def cone_cell():
    return library_cell("ur5_cone_tool")


def test_cartesian_frames_move_along_the_segments(planner):
    cell, state = cone_cell()
    use(planner, cell)
    start = state_at(cell, state, START)
    f0 = planner.forward_kinematics(start, TargetMode.ROBOT)
    w1 = Frame(f0.point + [0, 0.1, -0.1], f0.xaxis, f0.yaxis)
    w2 = Frame(f0.point + [0.1, 0.1, -0.1], f0.xaxis, f0.yaxis)
    trajectory = planner.plan_cartesian_motion(FrameWaypoints([w1, w2], TargetMode.ROBOT), start)
    assert isinstance(trajectory, JointTrajectory) and trajectory.fraction == 1.0
    assert 20 <= len(trajectory.points) <= 40
    assert trajectory.points[0].joint_values == [start.robot_configuration[n] for n in trajectory.joint_names]
    segments = [(list(f0.point), list(w1.point)), (list(w1.point), list(w2.point))]
    previous = None
    for point in trajectory.points:
        frame = planner.forward_kinematics(point_state(start, point), TargetMode.ROBOT)
        assert min(distance_to_segment(list(frame.point), a, b) for a, b in segments) < 1e-4
        assert frame_angle(frame, f0) < 1e-4
        if previous is not None:
            assert max(abs(a - b) for a, b in zip(point.joint_values, previous)) <= math.pi / 2
        previous = point.joint_values
    end = planner.forward_kinematics(point_state(start, trajectory.points[-1]), TargetMode.ROBOT)
    assert math.dist(list(end.point), list(w2.point)) < 1e-5
    # consecutive points are close: the path is continuous in joint space
    steps = [max(abs(a - b) for a, b in zip(p.joint_values, q.joint_values))
             for p, q in zip(trajectory.points, trajectory.points[1:])]
    assert max(steps) < 0.2


def test_cartesian_tool_frames_and_point_axes(planner):
    cell, state = cone_cell()
    use(planner, cell)
    start = state_at(cell, state, START)
    t0 = planner.forward_kinematics(start, TargetMode.TOOL)
    goal = Frame(t0.point + [0.05, -0.05, -0.05], t0.xaxis, t0.yaxis)
    trajectory = planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start)
    for point in trajectory.points:
        frame = planner.forward_kinematics(point_state(start, point), TargetMode.TOOL)
        assert distance_to_segment(list(frame.point), list(t0.point), list(goal.point)) < 1e-4
        assert frame_angle(frame, t0) < 1e-4
    target_point = list(t0.point + [0.05, 0.05, 0])
    axis = list(t0.zaxis)
    trajectory = planner.plan_cartesian_motion(PointAxisWaypoints([(target_point, axis)], TargetMode.TOOL), start)
    assert len(trajectory.points) >= 6
    for point in trajectory.points:
        frame = planner.forward_kinematics(point_state(start, point), TargetMode.TOOL)
        assert distance_to_segment(list(frame.point), list(t0.point), target_point) < 1e-4
        assert math.acos(max(-1.0, min(1.0, frame.zaxis.dot(axis)))) < 1e-4


def test_cartesian_errors(planner):
    cell, state = library_cell("ur10e_gripper_one_beam")
    use(planner, cell)
    start = state_at(cell, state, [0, -1.57, 1.2, -1.2, -1.57, 0])
    planner.check_collision(start)
    f0 = planner.forward_kinematics(start, TargetMode.ROBOT)
    below = Frame([f0.point[0], f0.point[1], -0.3], f0.xaxis, f0.yaxis)
    with pytest.raises((MPInterpolationInCollisionError, MPTargetInCollisionError)) as e:
        planner.plan_cartesian_motion(FrameWaypoints([below], TargetMode.ROBOT), start)
    partial = getattr(e.value, "partial_trajectory", None)
    assert partial is None or len(partial.points) >= 1
    far = Frame([5, 0, 1], f0.xaxis, f0.yaxis)
    with pytest.raises(MPNoIKSolutionError) as e:
        planner.plan_cartesian_motion(FrameWaypoints([far], TargetMode.ROBOT), start, options={"skip_preplanning_collision_check": True})
    assert e.value.partial_trajectory.points[0].joint_values == [start.robot_configuration[n] for n in e.value.partial_trajectory.joint_names]
    colliding = state_at(cell, state, [0, 0.5, 2.5, 0, 0, 0])
    with pytest.raises(MPStartStateInCollisionError):
        planner.plan_cartesian_motion(FrameWaypoints([f0], TargetMode.ROBOT), colliding)


def free_states(planner, cell, state, count, seed):
    """``count`` collision-free states with each joint drawn in [-pi, pi].

    UR joints range over [-2 pi, 2 pi]: a posture and its copy 2 pi away are
    separated by colliding ones (the arm would sweep through the floor), so
    draws over the whole range would often ask for a path between
    disconnected components of the bounded joint space.
    """
    rng = random.Random(seed)
    names = cell.get_configurable_joint_names()
    result = []
    while len(result) < count:
        s = state_at(cell, state, [rng.uniform(-math.pi, math.pi) for _ in names])
        try:
            planner.check_collision(s)
        except CollisionCheckError:
            continue
        result.append(s)
    return result


def test_plan_motion_between_random_free_states(planner):
    cell, state = cone_cell()
    use(planner, cell)
    states = free_states(planner, cell, state, 12, seed=1)
    solved = 0
    for k in range(6):
        start, goal = states[2 * k], states[2 * k + 1]
        try:
            trajectory = planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start,
                                             options={"allowed_planning_time": 10, "seed": k})
        except (MPSearchTimeOutError, MPNoPlanFoundError):
            continue
        solved += 1
        names = trajectory.joint_names
        assert trajectory.points[0].joint_values == [start.robot_configuration[n] for n in names]
        assert trajectory.points[-1].joint_values == [goal.robot_configuration[n] for n in names]
        dense_recheck(planner, start, trajectory)
    assert solved >= 5


def test_plan_motion_to_a_frame_target(planner):
    cell, state = cone_cell()
    use(planner, cell)
    start, goal = free_states(planner, cell, state, 2, seed=7)
    frame = planner.forward_kinematics(goal, TargetMode.TOOL)
    target = FrameTarget(frame, TargetMode.TOOL, tolerance_position=1e-5, tolerance_orientation=1e-4)
    trajectory = planner.plan_motion(target, start, options={"seed": 3})
    end = planner.forward_kinematics(point_state(start, trajectory.points[-1]), TargetMode.TOOL)
    assert math.dist(list(end.point), list(frame.point)) < 1e-5 and frame_angle(end, frame) < 1e-4
    dense_recheck(planner, start, trajectory)
    # the trajectory round-trips through COMPAS JSON
    back = compas.json_loads(compas.json_dumps(trajectory))
    assert back.joint_names == trajectory.joint_names
    assert [p.joint_values for p in back.points] == [p.joint_values for p in trajectory.points]


def test_plan_motion_errors(planner):
    cell, state = cone_cell()
    use(planner, cell)
    free, other = free_states(planner, cell, state, 2, seed=11)
    colliding = state_at(cell, state, [0, 1.0, 0, 0, 0, 0])
    with pytest.raises(CollisionCheckError):
        planner.check_collision(colliding)
    with pytest.raises(MPStartStateInCollisionError):
        planner.plan_motion(ConfigurationTarget(free.robot_configuration), colliding)
    with pytest.raises(MPTargetInCollisionError):
        planner.plan_motion(ConfigurationTarget(colliding.robot_configuration), free)
    outside = state_at(cell, state, [0, -1.57, 4.0, 0, 0, 0])  # the elbow is limited to [-pi, pi]
    with pytest.raises(ValueError):
        planner.plan_motion(ConfigurationTarget(outside.robot_configuration), free)
    # the same posture two turns of the shoulder away lies beyond the floor: no path in 10 ms
    values = list(free.robot_configuration.joint_values)
    values[1] += 2 * math.pi if values[1] < 0 else -2 * math.pi
    far = state_at(cell, state, values)
    planner.check_collision(far)
    with pytest.raises((MPSearchTimeOutError, MPNoPlanFoundError)):
        planner.plan_motion(ConfigurationTarget(far.robot_configuration), free, options={"allowed_planning_time": 0.01})
