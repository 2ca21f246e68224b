"""Every option of the klampt COMPAS FAB backend is honoured with PyBullet's or MoveIt's meaning, or rejected."""
import math
import time

import pytest

pytest.importorskip("compas_fab")

from compas.geometry import Frame  # noqa: E402
from compas_fab.backends import (  # noqa: E402
    CollisionCheckError,
    InverseKinematicsError,
    MPInterpolationInCollisionError,
    MPMaxJumpError,
    MPNoIKSolutionError,
    MPNoPlanFoundError,
    MPStartStateInCollisionError,
    MPTargetInCollisionError,
)
from compas_fab.robots import (  # noqa: E402
    ConfigurationTarget,
    FrameTarget,
    FrameWaypoints,
    JointConstraint,
    PointAxisWaypoints,
    TargetMode,
)

from .fab_cells import MOVED_BASE, dense_recheck, frame_angle, frame_error, point_state, state_at  # noqa: E402

START = [0, -1.2, 1.5, -1.9, -1.57, 0]
GOAL = [1.2, -1.4, 1.2, -1.4, -1.57, 0.4]


def tool_frame(planner, cell, state, values):
    return planner.forward_kinematics(state_at(cell, state, values), TargetMode.TOOL)


# -- 1. plan_motion reports MPNoPlanFoundError ----------------------------------------------------


def test_plan_motion_without_a_path_in_max_iterations_is_no_plan_found_not_a_timeout(planner, cone):
    cell, state = cone
    start = state_at(cell, state, START)
    # the same posture one turn of the shoulder away lies beyond the floor: no path exists
    far = state_at(cell, state, [START[0], START[1] + 2 * math.pi] + START[2:])
    planner.check_collision(far)
    t0 = time.time()
    with pytest.raises(MPNoPlanFoundError, match="max_iterations"):
        planner.plan_motion(ConfigurationTarget(far.robot_configuration), start,
                            options={"max_iterations": 100, "allowed_planning_time": 5, "seed": 0})
    assert time.time() - t0 < 4


def test_unknown_options_are_rejected_by_name(planner, cone):
    cell, state = cone
    start = state_at(cell, state, START)
    goal = state_at(cell, state, GOAL)
    with pytest.raises(ValueError, match="'planning_time'"):
        planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start, options={"planning_time": 1})
    with pytest.raises(ValueError, match="'trajectory_constraints'"):
        planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start, options={"trajectory_constraints": []})
    target = FrameTarget(tool_frame(planner, cell, state, GOAL), TargetMode.TOOL)
    with pytest.raises(ValueError, match="'num_rotation_steps'"):
        planner.inverse_kinematics(target, start, options={"num_rotation_steps": 4})
    with pytest.raises(ValueError, match="'margins'"):
        planner.check_collision(start, {"margins": 0.1})
    waypoints = FrameWaypoints([tool_frame(planner, cell, state, START)], TargetMode.TOOL)
    with pytest.raises(ValueError, match="'link'"):
        planner.plan_cartesian_motion(waypoints, start, options={"link": "tool0"})
    with pytest.raises(ValueError, match="planner_id"):
        planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start, options={"planner_id": "CHOMP"})
    with pytest.raises(ValueError, match="disagree"):
        planner.plan_cartesian_motion(waypoints, start, options={"max_step": 0.02, "max_step_distance": 0.01})


def test_kinematics_and_cell_setters_reject_every_public_option_by_name(planner, cone):
    # neither COMPAS FAB's interfaces nor its PyBullet backend give these features an option
    cell, state = cone
    start = state_at(cell, state, START)
    with pytest.raises(ValueError, match="'base_link'"):
        planner.forward_kinematics(start, TargetMode.TOOL, options={"base_link": "base_link"})
    with pytest.raises(ValueError, match="'link'"):
        planner.forward_kinematics_to_link(start, "tool0", options={"link": "wrist_1_link"})
    with pytest.raises(ValueError, match="'verbose'"):
        planner.set_robot_cell_state(start, options={"verbose": True})
    with pytest.raises(ValueError, match="'verbose'"):
        planner.set_robot_cell(cell, start, options={"verbose": True})
    assert planner.client.robot_cell is cell  # the rejected call left the loaded cell alone
    # an empty dict is no option at all; the backend's own switches (leading underscore) still pass
    planner.set_robot_cell(cell, start, options={})
    goal = state_at(cell, state, GOAL)
    planner.set_robot_cell_state(goal, options={})
    at_goal = planner.forward_kinematics(goal, TargetMode.TOOL, options={})
    posed = planner.forward_kinematics(start, TargetMode.TOOL, options={"_skip_set_robot_cell_state": True})
    assert frame_error(posed, at_goal)[0] < 1e-12


# -- 2. iter_inverse_kinematics re-poses the world before each candidate ---------------------------


def test_ik_generator_solves_at_its_own_state_after_other_planner_calls(planner, cone):
    cell, state = cone
    start = state_at(cell, state, START)
    target_frame = tool_frame(planner, cell, state, GOAL)
    solutions = planner.iter_inverse_kinematics(FrameTarget(target_frame, TargetMode.TOOL), start,
                                                options={"max_results": 4})
    found = [next(solutions)]
    # another query on another state (robot base moved, robot elsewhere) between two draws
    moved = state_at(cell, state, [0, -1.0, 0.5, 0, 0, 0])
    moved.robot_base_frame = MOVED_BASE
    planner.forward_kinematics(moved, TargetMode.TOOL)
    planner.check_collision(moved)
    found += list(solutions)
    assert len(found) >= 2
    for configuration in found:
        s = start.copy()
        s.robot_configuration = s.robot_configuration.merged(configuration)
        reached = planner.forward_kinematics(s, TargetMode.TOOL)
        assert math.dist(list(reached.point), list(target_frame.point)) < 1e-5
        assert frame_angle(reached, target_frame) < 1e-4
        planner.check_collision(s)


# -- 3. point-axis Cartesian planning: depth-first, with the right errors ---------------------------


def _down_point_axis_start(planner, cell, state):
    start = state_at(cell, state, START)
    t0 = planner.forward_kinematics(start, TargetMode.TOOL)
    return start, t0


def test_point_axis_step_whose_every_solution_collides_is_an_interpolation_collision(planner, cone):
    cell, state = cone
    start, t0 = _down_point_axis_start(planner, cell, state)
    # straight down into the floor: the IK solutions exist, all collide with the floor
    below = [t0.point[0], t0.point[1], -0.05]
    axis = list(t0.zaxis)
    with pytest.raises(MPInterpolationInCollisionError) as e:
        planner.plan_cartesian_motion(PointAxisWaypoints([(below, axis)], TargetMode.TOOL), start,
                                      options={"max_step_distance": 0.05})
    assert "floor" in e.value.message
    assert len(e.value.partial_trajectory.points) >= 1
    # asked for, the pre-planning check finds no spin of the cone (lying on its side) that clears the floor
    on_floor = [t0.point[0], t0.point[1], 0.0]
    with pytest.raises(MPTargetInCollisionError, match="floor"):
        planner.plan_cartesian_motion(PointAxisWaypoints([(on_floor, axis)], TargetMode.TOOL), start,
                                      options={"skip_preplanning_collision_check": False})
    above = [t0.point[0], t0.point[1], t0.point[2] - 0.05]
    planner.plan_cartesian_motion(PointAxisWaypoints([(above, axis)], TargetMode.TOOL), start,
                                  options={"skip_preplanning_collision_check": False})


def test_point_axis_dead_end_is_no_plan_found_with_the_longest_partial_trajectory(planner, cone):
    cell, state = cone
    start, t0 = _down_point_axis_start(planner, cell, state)
    goal = [t0.point[0] + 0.05, t0.point[1], t0.point[2]]
    with pytest.raises(MPNoPlanFoundError) as e:
        planner.plan_cartesian_motion(PointAxisWaypoints([(goal, list(t0.zaxis))], TargetMode.TOOL), start,
                                      options={"max_jump_revolute": 1e-6, "max_results_per_step": 3})
    assert e.value.partial_trajectory.points[0].joint_values == START


def test_zero_jump_limits_disable_the_jump_check(planner, cone):
    cell, state = cone
    start, t0 = _down_point_axis_start(planner, cell, state)
    goal = Frame(t0.point + [0.05, 0.05, 0], t0.xaxis, t0.yaxis)
    trajectory = planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start,
                                               options={"max_jump_revolute": 0, "max_jump_prismatic": 0})
    end = planner.forward_kinematics(point_state(start, trajectory.points[-1]), TargetMode.TOOL)
    assert math.dist(list(end.point), list(goal.point)) < 1e-5


def test_frame_jump_subdivides_then_raises_max_jump(planner, cone, capsys):
    cell, state = cone
    start, t0 = _down_point_axis_start(planner, cell, state)
    goal = Frame(t0.point + [0.1, 0, 0], t0.xaxis, t0.yaxis)
    # a limit between what a 1 cm step needs and what the finest step needs: subdivisions, then success
    coarse = planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start)
    steps = [max(abs(a - b) for a, b in zip(p.joint_values, q.joint_values))
             for p, q in zip(coarse.points, coarse.points[1:])]
    limit = max(steps) / 3
    fine = planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start,
                                         options={"max_jump_revolute": limit, "verbose": True})
    assert "subdivided" in capsys.readouterr().out
    assert len(fine.points) > len(coarse.points)
    assert all(max(abs(a - b) for a, b in zip(p.joint_values, q.joint_values)) <= limit
               for p, q in zip(fine.points, fine.points[1:]))
    with pytest.raises(MPMaxJumpError) as e:
        planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start,
                                      options={"max_jump_revolute": 1e-7, "min_step_distance": 1e-3})
    assert "Cannot subdivide further" in e.value.message
    assert len(e.value.partial_trajectory.points) == 1


def test_moveit_cartesian_synonyms(planner, cone):
    cell, state = cone
    start, t0 = _down_point_axis_start(planner, cell, state)
    goal = Frame(t0.point + [0.1, 0, 0], t0.xaxis, t0.yaxis)
    fine = planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start)
    coarse = planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start, options={"max_step": 0.025})
    assert len(fine.points) == 11 and len(coarse.points) == 5
    # into the floor: avoid_collisions=False lets it through
    below = Frame([t0.point[0], t0.point[1], -0.05], t0.xaxis, t0.yaxis)
    with pytest.raises((MPInterpolationInCollisionError, MPTargetInCollisionError)):
        planner.plan_cartesian_motion(FrameWaypoints([below], TargetMode.TOOL), start)
    through = planner.plan_cartesian_motion(FrameWaypoints([below], TargetMode.TOOL), start,
                                            options={"avoid_collisions": False})
    with pytest.raises(CollisionCheckError):
        planner.check_collision(point_state(start, through.points[-1]))
    with pytest.raises(MPMaxJumpError):
        planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start,
                                      options={"jump_threshold": 1e-7, "min_step_distance": 1e-3})


def test_cartesian_path_constraints_and_start_sampling(planner, cone):
    cell, state = cone
    start, t0 = _down_point_axis_start(planner, cell, state)
    goal = Frame(t0.point + [0.1, 0.1, 0], t0.xaxis, t0.yaxis)
    # the base joint must turn to reach the goal: holding it within 0.01 rad of the start cannot work
    hold = [JointConstraint("shoulder_pan_joint", START[0], 0.01, 0.01)]
    with pytest.raises(MPNoIKSolutionError):
        planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start, options={"path_constraints": hold})
    loose = [JointConstraint("shoulder_pan_joint", START[0], 1.0, 1.0)]
    trajectory = planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start,
                                               options={"path_constraints": loose})
    assert all(abs(p.joint_values[0] - START[0]) <= 1.0 for p in trajectory.points)
    with pytest.raises(ValueError, match="sample_start_configuration"):
        planner.plan_cartesian_motion(FrameWaypoints([goal], TargetMode.TOOL), start,
                                      options={"sample_start_configuration": True})
    # sampled start: the start configuration only seeds it; the first point is on the start point-axis
    target = [t0.point[0] + 0.05, t0.point[1], t0.point[2]]
    sampled = planner.plan_cartesian_motion(PointAxisWaypoints([(target, list(t0.zaxis))], TargetMode.TOOL), start,
                                            options={"sample_start_configuration": True})
    first = planner.forward_kinematics(point_state(start, sampled.points[0]), TargetMode.TOOL)
    assert math.dist(list(first.point), list(t0.point)) < 1e-5
    assert [sampled.start_state.robot_configuration[n] for n in sampled.joint_names] == sampled.points[0].joint_values


# -- 4. ConfigurationTarget tolerances ---------------------------------------------------------------


def test_configuration_target_tolerances(planner, cone):
    cell, state = cone
    start = state_at(cell, state, START)
    names = cell.get_configurable_joint_names()
    goal = state_at(cell, state, GOAL)
    with pytest.raises(ValueError, match="tolerance_above"):
        planner.plan_motion(ConfigurationTarget(goal.robot_configuration, [0.1, 0.1], [0.1] * 6), start)
    with pytest.raises(ValueError, match="tolerance_below"):
        planner.plan_motion(ConfigurationTarget(goal.robot_configuration, [0.1] * 6, [0.1] * 7), start)
    # the last wrist is limited to [-2 pi, 2 pi]: 5 mrad beyond is within MoveIt's default tolerance (0.01) ...
    beyond = state_at(cell, state, GOAL[:5] + [2 * math.pi + 0.005])
    trajectory = planner.plan_motion(ConfigurationTarget(beyond.robot_configuration), start, options={"seed": 1})
    assert trajectory.points[-1].joint_values[5] == pytest.approx(2 * math.pi)
    # ... but not within a tolerance of 0, which is exact
    with pytest.raises(ValueError, match="outside its limits"):
        planner.plan_motion(ConfigurationTarget(beyond.robot_configuration, [0.0] * 6, [0.0] * 6), start)
    # a goal in the floor with room in its tolerance: the plan ends at a free configuration of the region
    into_floor = state_at(cell, state, [0, -0.85, 1.5, -1.9, -1.57, 0])  # the cone's tip in the floor
    with pytest.raises(CollisionCheckError):
        planner.check_collision(into_floor)
    with pytest.raises(MPTargetInCollisionError):
        planner.plan_motion(ConfigurationTarget(into_floor.robot_configuration, [0.0] * 6, [0.0] * 6), start)
    tol = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    below = [0.0, 0.6, 0.0, 0.0, 0.0, 0.0]  # the shoulder may stay up to 0.6 rad higher
    trajectory = planner.plan_motion(ConfigurationTarget(into_floor.robot_configuration, tol, below), start,
                                     options={"seed": 2})
    end = trajectory.points[-1].joint_values
    assert -0.85 - 0.6 <= end[1] < -0.85 and end[0] == 0 and end[2:] == [1.5, -1.9, -1.57, 0]
    planner.check_collision(point_state(start, trajectory.points[-1], names))


# -- 5. options with PyBullet's and MoveIt's meaning ---------------------------------------------------


def test_ik_options(planner, cone):
    cell, state = cone
    start = state_at(cell, state, START)
    frame = tool_frame(planner, cell, state, GOAL)
    # semi-constrained: the position only
    tilted = Frame(frame.point, [1, 0, 0], [0, 1, 0])
    solutions = list(planner.iter_inverse_kinematics(FrameTarget(tilted, TargetMode.TOOL), start,
                                                     options={"semi-constrained": True, "max_results": 6}))
    assert solutions
    angles = []
    for cfg in solutions:
        reached = planner.forward_kinematics(point_state(start, cfg, cfg.joint_names), TargetMode.TOOL)
        assert math.dist(list(reached.point), list(frame.point)) < 1e-5
        angles.append(frame_angle(reached, tilted))
    assert max(angles) > 0.1
    # constraints: every solution has the elbow up (positive), some without it do not
    free = list(planner.iter_inverse_kinematics(FrameTarget(frame, TargetMode.TOOL), start, options={"max_results": 8}))
    assert min(c["elbow_joint"] for c in free) < 0 < max(c["elbow_joint"] for c in free)
    up = list(planner.iter_inverse_kinematics(FrameTarget(frame, TargetMode.TOOL), start, options={
        "max_results": 8, "constraints": [JointConstraint("elbow_joint", 1.5, 1.6, 1.5)]}))
    assert up and all(c["elbow_joint"] >= 0 for c in up)
    # allow_collision (MoveIt's legacy key): a colliding solution is returned instead of raising
    colliding = state_at(cell, state, [0, 0.5, 0.5, 0, 0, 0])
    into = planner.forward_kinematics(colliding, TargetMode.TOOL)
    with pytest.raises(CollisionCheckError):
        planner.inverse_kinematics(FrameTarget(into, TargetMode.TOOL), colliding, options={"max_results": 1})
    cfg = planner.inverse_kinematics(FrameTarget(into, TargetMode.TOOL), colliding,
                                     options={"max_results": 1, "allow_collision": True})
    with pytest.raises(CollisionCheckError):
        planner.check_collision(point_state(colliding, cfg, cfg.joint_names))
    # timeout and attempts bound an unreachable search
    far = FrameTarget(Frame([5, 0, 1], [1, 0, 0], [0, 1, 0]), TargetMode.TOOL)
    t0 = time.time()
    with pytest.raises(InverseKinematicsError) as e:
        planner.inverse_kinematics(far, start, options={"timeout": 0.05, "max_restarts": 10 ** 6})
    assert time.time() - t0 < 2 and "timeout" in e.value.message
    with pytest.raises(InverseKinematicsError) as e:
        planner.inverse_kinematics(far, start, options={"attempts": 3})
    assert "after 3 attempts" in e.value.message


def test_plan_motion_options(planner, cone):
    cell, state = cone
    start = state_at(cell, state, START)
    # the straight joint path between these two solutions of one tool frame folds the arm onto itself
    low = state_at(cell, state, [0, -0.95, 1.5, -1.9, -1.57, 0])
    flipped = state_at(cell, state, [3.463, -2.695, -0.661, 1.575, 4.642, -2.828])
    planner.check_collision(low)
    planner.check_collision(flipped)
    unchecked = planner.plan_motion(ConfigurationTarget(flipped.robot_configuration), low, options={"check_collision": False})
    names = unchecked.joint_names
    assert unchecked.points[0].joint_values == [low.robot_configuration[n] for n in names]
    assert unchecked.points[-1].joint_values == [flipped.robot_configuration[n] for n in names]
    with pytest.raises(CollisionCheckError):
        dense_recheck(planner, low, unchecked)
    target = ConfigurationTarget(state_at(cell, state, GOAL).robot_configuration)
    for planner_id in ("PRM", "SBL", "RRT"):
        trajectory = planner.plan_motion(target, start, options={"planner_id": planner_id, "seed": 3})
        dense_recheck(planner, start, trajectory, resolution=0.02)
    best = planner.plan_motion(target, start, options={"num_planning_attempts": 3, "seed": 4})
    dense_recheck(planner, start, best, resolution=0.02)
    # path constraints: the start must satisfy them, and every configuration of the path does
    keep = [JointConstraint("wrist_2_joint", -1.57, 0.2, 0.2)]
    with pytest.raises(MPStartStateInCollisionError, match="path constraints"):
        planner.plan_motion(target, state_at(cell, state, START[:4] + [-1.0, 0]), options={"path_constraints": keep})
    constrained = planner.plan_motion(target, start, options={"path_constraints": keep, "seed": 5})
    assert all(abs(p.joint_values[4] + 1.57) <= 0.2 + 1e-9 for p in constrained.points)
    with pytest.raises(MPTargetInCollisionError, match="path constraints"):
        planner.plan_motion(ConfigurationTarget(state_at(cell, state, GOAL[:4] + [-1.0, 0.4]).robot_configuration),
                            start, options={"path_constraints": keep})


# -- 8. collision stages can be skipped and reported ---------------------------------------------------


def test_check_collision_stage_switches_and_verbose(planner, cone, capsys):
    cell, state = cone
    start = state_at(cell, state, START)
    planner.check_collision(start, {"verbose": True})
    out = capsys.readouterr().out
    assert "CC.1 between robot link 'shoulder_link' and robot link 'forearm_link' - PASS" in out
    assert "CC.2 between robot link 'wrist_3_link' and tool 'cone' - SKIPPED (ALLOWED TOUCH LINK)" in out
    assert "CC.3 between robot link 'base_link_inertia' and rigid body 'floor' - SKIPPED (ALLOWED TOUCH LINK)" in out
    assert "CC.5 between tool 'cone' and rigid body 'floor' (body_id '0') - PASS" in out
    planner.check_collision(start, {"verbose": True, "_skip_cc1": True, "_skip_cc2": True, "_skip_cc5": True})
    out = capsys.readouterr().out
    assert "CC.3" in out and not any(tag in out for tag in ("CC.1", "CC.2", "CC.5"))
    # the cone's tip in the floor (CC.5 only) and the arm folded onto itself (CC.1)
    tip_in_floor = state_at(cell, state, [0, -0.85, 1.5, -1.9, -1.57, 0])
    with pytest.raises(CollisionCheckError, match="CC.5"):
        planner.check_collision(tip_in_floor)
    planner.check_collision(tip_in_floor, {"_skip_cc5": True})
    folded = state_at(cell, state, [2.944, -2.433, -0.337, 1.054, 3.71, -2.404])
    with pytest.raises(CollisionCheckError, match="CC.1"):
        planner.check_collision(folded)
    with pytest.raises(CollisionCheckError, match="CC.2 between robot link 'forearm_link' and tool 'cone'"):
        planner.check_collision(folded, {"_skip_cc1": True})
    planner.check_collision(folded, {"_skip_cc1": True, "_skip_cc2": True})
