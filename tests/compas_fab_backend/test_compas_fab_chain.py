"""plan_action_chain: whole pick-and-place chains, planned end to end, with backtracking over IK choices."""
import math

import pytest

pytest.importorskip("compas_fab")

import compas  # noqa: E402
from compas_fab.backends import MPNoPlanFoundError  # noqa: E402
from compas_fab.robots import ActionChain, FrameTarget, JointConstraint, TargetMode  # noqa: E402

from klampt.compas_fab import Motion, StateChange, attach_workpiece, release_workpiece  # noqa: E402
from klampt.compas_fab.backend_features.klampt_plan_cartesian_motion import depth_first_search  # noqa: E402

from .fab_cells import cone_pick_cell, dense_recheck, down_frame, panda_pick_cell, point_state, use  # noqa: E402

LIFT = 0.1


def pick_and_place(mode, pick, place, z, grasp):
    """The eight steps of a pick-and-place at height ``z`` (tool or hand frame) with the given grasp step."""
    def at(xy, dz=0.0):
        return FrameTarget(down_frame(xy[0], xy[1], z + dz), mode)
    return [
        Motion("approach", at(pick, LIFT)),
        Motion("contact", at(pick), "linear"),
        grasp,
        Motion("retract", at(pick, LIFT), "linear"),
        Motion("transfer", at(place, LIFT)),
        Motion("place", at(place, 0.001), "linear"),
        release_workpiece("release", "block"),
        Motion("retreat", at(place, LIFT), "linear"),
    ]


def check_chain(planner, chain, names, block_at):
    """Threading, timing, dense collision re-check and where the block ends up."""
    assert isinstance(chain, ActionChain) and [a.name for a in chain.actions] == names
    previous = chain.start_state
    for action in chain.actions:
        assert action.start_state == previous
        if action.is_trajectory:
            assert action.duration > 0
            assert action.trajectory.points[0].joint_values == [
                action.start_state.robot_configuration[n] for n in action.trajectory.joint_names]
            dense_recheck(planner, action.start_state, action.trajectory)
            assert action.post_state == point_state(action.start_state, action.trajectory.points[-1])
        previous = action.post_state
    assert chain.duration > 0
    end = chain.end_state.rigid_body_states["block"]
    assert end.attached_to_tool is None and end.attached_to_link is None
    assert math.dist(list(end.frame.point), block_at) < 1e-4
    # it round-trips through COMPAS JSON
    back = compas.json_loads(compas.json_dumps(chain))
    assert [a.name for a in back.actions] == names and back.duration == pytest.approx(chain.duration)


def test_cone_pick_and_place(planner):
    cell, state, pick, top = cone_pick_cell()
    use(planner, cell)
    planner.check_collision(state)
    place = (0.2, 0.5)
    steps = pick_and_place(TargetMode.TOOL, pick, place, top, attach_workpiece("grasp", "block", tool_id="cone"))
    chain = planner.plan_action_chain(state, steps)
    grasped = chain.action_by_name("grasp").post_state.rigid_body_states["block"]
    assert grasped.attached_to_tool == "cone"
    # while carried, the block is re-checked against the floor (CC.4) along the transfer
    assert chain.action_by_name("transfer").start_state.rigid_body_states["block"].attached_to_tool == "cone"
    block = state.rigid_body_states["block"].frame.point
    check_chain(planner, chain, [s.name for s in steps], [place[0], place[1], block[2] + 0.001])


def test_panda_pick_and_place(planner):
    cell, state, pick, centre = panda_pick_cell()
    use(planner, cell)
    planner.check_collision(state)
    place = (0.45, 0.25)
    steps = pick_and_place(TargetMode.ROBOT, pick, place, centre, attach_workpiece("grasp", "block", link_name="panda_hand_tcp"))
    chain = planner.plan_action_chain(state, steps)
    assert chain.action_by_name("retract").start_state.rigid_body_states["block"].attached_to_link == "panda_hand_tcp"
    check_chain(planner, chain, [s.name for s in steps], [place[0], place[1], centre + 0.001])


def test_the_chain_backtracks_to_another_approach_posture(planner):
    cell, state, pick, top = cone_pick_cell()
    use(planner, cell)
    approach = FrameTarget(down_frame(pick[0], pick[1], top + LIFT), TargetMode.TOOL)
    # the contact must keep the elbow down, which the nearest approach posture does not have
    elbow_down = {"path_constraints": [JointConstraint("elbow_joint", -1.6, 1.5, 1.5)]}
    names = cell.get_configurable_joint_names()
    start = [state.robot_configuration[n] for n in names]
    solutions = list(planner.iter_inverse_kinematics(approach, state, options={"max_results": 8}))
    nearest = min(solutions, key=lambda c: math.dist([c[n] for n in names], start))
    assert nearest["elbow_joint"] > 0
    steps = [
        Motion("approach", approach),
        Motion("contact", FrameTarget(down_frame(pick[0], pick[1], top), TargetMode.TOOL), "linear", options=elbow_down),
    ]
    chain = planner.plan_action_chain(state, steps)
    reached = chain.action_by_name("approach").post_state.robot_configuration["elbow_joint"]
    assert -3.1 <= reached <= -0.1
    assert all(-3.1 <= p.joint_values[2] <= -0.1 for p in chain.action_by_name("contact").trajectory.points)
    # an impossible constraint: no choice helps, and the error names the step
    never = {"path_constraints": [JointConstraint("elbow_joint", 3.0, 0.0, 0.0)]}
    steps[1] = Motion("contact", steps[1].target, "linear", options=never)
    with pytest.raises(MPNoPlanFoundError) as e:
        planner.plan_action_chain(state, steps)
    assert "'contact'" in e.value.message


def test_bad_steps():
    with pytest.raises(ValueError, match="motion"):
        Motion("m", None, "spline")
    with pytest.raises(ValueError, match="linear"):
        Motion("m", None, "linear")
    with pytest.raises(ValueError, match="exactly one"):
        attach_workpiece("grasp", "block")


def test_planner_rejects_duplicate_names_and_other_objects(planner):
    cell, state, pick, top = cone_pick_cell()
    use(planner, cell)
    step = StateChange("same", lambda s, p: s.copy())
    with pytest.raises(ValueError, match="unique"):
        planner.plan_action_chain(state, [step, step])
    with pytest.raises(ValueError, match="neither"):
        planner.plan_action_chain(state, ["approach"])


def test_depth_first_search_backtracks_past_a_dead_end():
    # step 1 offers a then b; only b leads to a step 2 choice within 1 of it; greedy a would be stuck
    options = {0: [0], 1: [5, 2], 2: [3]}

    def candidates(k, prev):
        return iter(options[k])

    path, longest = depth_first_search(3, candidates, lambda prev, c: abs(c - prev) <= 3)
    assert path == [0, 2, 3]
    path, longest = depth_first_search(3, candidates, lambda prev, c: abs(c - prev) <= 1)
    assert path is None and len(longest) == 1
