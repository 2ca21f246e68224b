"""Forward and inverse kinematics of the klampt COMPAS FAB backend on COMPAS FAB's library cells."""
import math
import random
import time

import pytest

pytest.importorskip("compas_fab")

from compas.geometry import Frame  # noqa: E402
from compas_fab.backends import (  # noqa: E402
    CollisionCheckError,
    InverseKinematicsError,
    PlanningGroupNotExistsError,
    TargetModeMismatchError,
)
from compas_fab.robots import FrameTarget, PointAxisTarget, TargetMode  # noqa: E402
from compas_robots import Configuration  # noqa: E402

from .fab_cells import MOVED_BASE, frame_angle, frame_error, library_cell, random_state, use  # noqa: E402

IK_ROBOTS = ["ur5", "ur10e", "abb_irb4600_40_255", "abb_irb120_3_58", "panda", "rfl"]
MODES = [TargetMode.ROBOT, TargetMode.TOOL, TargetMode.WORKPIECE]


def beam_cell():
    """ur10e_gripper_one_beam with the beam shifted 0.1 m along x on the gripper (so that OCF != TCF)."""
    cell, state = library_cell("ur10e_gripper_one_beam")
    state.rigid_body_states["beam"].attachment_frame = Frame([0.1, 0, 0], [1, 0, 0], [0, 1, 0])
    return cell, state


def assert_frames_close(f1, f2, tol_pos, tol_ori):
    assert math.dist(list(f1.point), list(f2.point)) <= tol_pos
    assert frame_angle(f1, f2) <= tol_ori


# -- forward kinematics -------------------------------------------------------

@pytest.mark.parametrize("cell_name,modes", [
    ("ur10e_gripper_one_beam", MODES),
    ("ur5_cone_tool", MODES[:2]),
    ("abb_irb4600_40_255_printing_tool", MODES[:2]),
])
@pytest.mark.parametrize("base", [None, MOVED_BASE])
def test_fk_target_modes_equal_robot_cell_reference(planner, cell_name, modes, base):
    if cell_name == "ur10e_gripper_one_beam":
        cell, state = beam_cell()
    else:
        cell, state = library_cell(cell_name)
    use(planner, cell)
    if base is not None:
        state.robot_base_frame = base
    for k in range(5):
        s = random_state(cell, state, rng_seed=k)
        for mode in modes:
            got = planner.forward_kinematics(s, mode)
            expected = cell.forward_kinematics_target_frame(s, mode)
            p, a = frame_error(got, expected)
            assert p < 1e-9 and a < 1e-9, (mode, p, a)


def test_fk_native_scale_returns_millimeters(planner):
    cell, state = library_cell("ur5", load_geometry=False)
    use(planner, cell)
    s = random_state(cell, state, rng_seed=3)
    meters = planner.forward_kinematics(s, TargetMode.ROBOT)
    mm = planner.forward_kinematics(s, TargetMode.ROBOT, native_scale=0.001)
    assert math.dist([1000 * x for x in meters.point], list(mm.point)) < 1e-9
    assert frame_error(Frame([0, 0, 0], meters.xaxis, meters.yaxis), Frame([0, 0, 0], mm.xaxis, mm.yaxis))[1] < 1e-12
    link_mm = planner.forward_kinematics_to_link(s, "tool0", native_scale=0.001)
    assert math.dist(list(link_mm.point), list(mm.point)) < 1e-9


@pytest.mark.parametrize("name,point,xaxis,yaxis,tol", [
    ("ur5", [0.81725, 0.19145, -0.005491], [-1, 0, 0], [0, 0, 1], 1e-6),
    ("ur10e", [1.18425, 0.2907, 0.0608], [-1, 0, 0], [0, 0, 1], 1e-4),  # upstream rounds z (0.06085)
    ("abb_irb4600_40_255", [1.58, 0, 1.765], [0, 0, -1], [0, 1, 0], 1e-6),
    ("panda", [0.256, 0, 0.643], [0, 0.707, -0.707], [0, -0.707, -0.707], 1e-3),
])
def test_fk_zero_configuration_known_frames(planner, name, point, xaxis, yaxis, tol):
    cell, state = library_cell(name, load_geometry=False)
    use(planner, cell)
    state.robot_configuration = cell.zero_full_configuration()
    frame = planner.forward_kinematics(state, TargetMode.ROBOT)
    assert math.dist(list(frame.point), point) < tol
    ee = cell.get_end_effector_link_name(cell.main_group_name)
    p, a = frame_error(frame, cell.robot_model.forward_kinematics(state.robot_configuration, ee))
    assert p < 1e-9 and a < 1e-9
    assert max(abs(a - b) for a, b in zip(list(frame.xaxis) + list(frame.yaxis), xaxis + yaxis)) < 1e-3


def test_unknown_group_raises_for_fk_and_ik(planner):
    cell, state = library_cell("ur5", load_geometry=False)
    use(planner, cell)
    target = FrameTarget(Frame([0.22, 0.11, 0.6], [0.11, 1, 0], [0.11, 0, -1]), TargetMode.ROBOT)
    with pytest.raises(PlanningGroupNotExistsError):
        planner.inverse_kinematics(target, state, group="non_existent_group")
    with pytest.raises(PlanningGroupNotExistsError):
        planner.forward_kinematics(state, TargetMode.ROBOT, group="non_existent_group")


def test_target_modes_need_their_tool_and_workpiece(planner):
    cell, state = beam_cell()
    use(planner, cell)
    target_frame = Frame([0.5, 0.5, 0.5], [1, 0, 0], [0, 1, 0])
    options = {"check_collision": False}
    state.rigid_body_states["beam"].attached_to_tool = None
    state.rigid_body_states["beam"].frame = Frame.worldXY()
    with pytest.raises(TargetModeMismatchError):
        planner.inverse_kinematics(FrameTarget(target_frame, TargetMode.WORKPIECE), state, options=options)
    with pytest.raises(TargetModeMismatchError):
        planner.forward_kinematics(state, TargetMode.WORKPIECE)
    for mode in (TargetMode.TOOL, TargetMode.ROBOT):
        assert isinstance(planner.inverse_kinematics(FrameTarget(target_frame, mode), state, options=options), Configuration)
        planner.forward_kinematics(state, mode)
    state.tool_states["gripper"].attached_to_group = None
    state.tool_states["gripper"].frame = Frame.worldXY()
    for mode in (TargetMode.TOOL, TargetMode.WORKPIECE):
        with pytest.raises(TargetModeMismatchError):
            planner.inverse_kinematics(FrameTarget(target_frame, mode), state, options=options)
        with pytest.raises(TargetModeMismatchError):
            planner.forward_kinematics(state, mode)
    assert isinstance(planner.inverse_kinematics(FrameTarget(target_frame, TargetMode.ROBOT), state, options=options), Configuration)


def test_set_robot_cell_repeatedly_across_cells(planner):
    cone, cone_state = library_cell("ur5_cone_tool")
    abb, abb_state = library_cell("abb_irb4600_40_255_gripper_one_beam")
    for cell, state in [(cone, cone_state), (abb, abb_state), (cone, cone_state)]:
        planner.set_robot_cell(cell, state)
        assert planner.client.robot_cell is cell
        s = random_state(cell, state, rng_seed=1)
        p, a = frame_error(planner.forward_kinematics(s, TargetMode.TOOL), cell.forward_kinematics_target_frame(s, TargetMode.TOOL))
        assert p < 1e-9 and a < 1e-9


# -- inverse kinematics -----------------------------------------------------------

@pytest.mark.parametrize("name", IK_ROBOTS)
def test_ik_solves_reachable_targets(planner, name):
    cell, state = library_cell(name, load_geometry=False)
    use(planner, cell)
    solved = 0
    for k in range(50):
        goal = random_state(cell, state, rng_seed=1000 + k)
        frame = planner.forward_kinematics(goal, TargetMode.ROBOT)
        target = FrameTarget(frame, TargetMode.ROBOT, tolerance_position=1e-5, tolerance_orientation=1e-4)
        try:
            cfg = planner.inverse_kinematics(target, state, options={"check_collision": False})
        except InverseKinematicsError:
            continue
        result = state.copy()
        result.robot_configuration = result.robot_configuration.merged(cfg)
        assert_frames_close(planner.forward_kinematics(result, TargetMode.ROBOT), frame, 1e-5, 1e-4)
        solved += 1
    assert solved >= 49


UPSTREAM_IK_FRAMES = {
    "ur5": (Frame([0.4, 0.1, 0.3], [-1, 0, 0], [0, 0, 1]),
            [(0, 0, 0), (-0.01, -0.01, -0.01), (0, 0.01, 0), (0, 0, 0.01), (0.1, 0.1, 0.2), (-0.1, -0.1, 0)]),
    "ur10e": (Frame([0.4, 0.1, 0.3], [-1, 0, 0], [0, 0, 1]),
              [(0, 0, 0), (-0.01, -0.01, -0.01), (0, 0.01, 0), (0, 0, 0.01), (0.1, 0.1, 0.2), (-0.1, -0.1, 0)]),
    "abb_irb4600_40_255": (Frame([1.0, 0.3, 1.3], [-1, 0, 0], [0, 0, 1]),
                           [(0, 0, 0), (-0.1, -0.1, -0.1), (0, 0.1, 0), (0, 0, 0.1), (0.1, 0.1, 0.2), (-0.3, -0.1, -0.3)]),
    "panda": (Frame([0.2, 0, 0.6], [0, 1, 0], [0, 0, -1]),
              [(0, 0, 0), (-0.1, -0.1, -0.1), (0, 0.1, 0), (0, 0, 0.1), (0.1, 0.1, -0.2), (-0.05, -0.05, -0.03)]),
}


@pytest.mark.parametrize("name", sorted(UPSTREAM_IK_FRAMES))
def test_ik_fk_agreement_on_upstream_frames(planner, name):
    cell, state = library_cell(name, load_geometry=False)
    use(planner, cell)
    center, offsets = UPSTREAM_IK_FRAMES[name]
    for offset in offsets:
        frame = center.translated(offset)
        target = FrameTarget(frame, TargetMode.ROBOT, tolerance_position=1e-5, tolerance_orientation=1e-2)
        cfg = next(planner.iter_inverse_kinematics(target, state, options={"return_full_configuration": True}))
        result = state.copy()
        result.robot_configuration = cfg
        assert_frames_close(planner.forward_kinematics(result, TargetMode.ROBOT), frame, 1e-5, 1e-2)


def test_ik_out_of_reach_fails_fast(planner):
    cell, state = library_cell("ur5", load_geometry=False)
    use(planner, cell)
    for point in ([2.4, 0.1, 0.3], [0.4, 1.5, 0.3]):
        t0 = time.time()
        with pytest.raises(InverseKinematicsError):
            planner.inverse_kinematics(FrameTarget(Frame(point, [-1, 0, 0], [0, 0, 1]), TargetMode.ROBOT), state)
        assert time.time() - t0 < 2.0


def test_ik_return_full_configuration(planner):
    cell, state = library_cell("panda", load_geometry=False)
    use(planner, cell)
    target = FrameTarget(Frame([0.2, 0, 0.6], [0, 1, 0], [0, 0, -1]), TargetMode.ROBOT)
    cfg = planner.inverse_kinematics(target, state)
    assert len(cfg.joint_names) == 7 and "panda_finger_joint1" not in cfg.joint_names
    cfg = planner.inverse_kinematics(target, state, options={"return_full_configuration": True})
    assert len(cfg.joint_names) == 8 and "panda_finger_joint1" in cfg.joint_names


def test_ik_moves_only_the_group_joints(planner):
    cell, state = library_cell("panda", load_geometry=False)
    cell = cell.copy()
    groups = cell.robot_semantics.groups
    arm_links = ["panda_link%d" % i for i in range(9)] + ["panda_hand", "panda_hand_tcp"]
    groups["locked_j1"] = {"links": arm_links[1:], "joints": ["panda_joint%d" % i for i in range(2, 8)] + ["panda_hand_joint", "panda_hand_tcp_joint"]}
    groups["locked_j7"] = {"links": arm_links[:7], "joints": ["panda_joint%d" % i for i in range(1, 7)]}
    groups["locked_j7_further"] = {"links": arm_links, "joints": ["panda_joint%d" % i for i in range(1, 7)]}
    state = state.copy()
    planner.set_robot_cell(cell)
    start = cell.zero_full_configuration()
    start["panda_joint1"] = 0.123
    start["panda_joint7"] = 0.123
    state.robot_configuration = start
    target = FrameTarget(Frame([0.22, 0.11, 0.6], [0.11, 1, 0], [0.11, 0, -1]), TargetMode.ROBOT)
    options = {"return_full_configuration": True}
    planner.inverse_kinematics(target, state, options=options)
    for group in ["locked_j1", "locked_j7", "locked_j7_further"]:
        group_joints = set(cell.get_configurable_joint_names(group))
        try:
            cfg = planner.inverse_kinematics(target, state, group, options=options)
        except InverseKinematicsError:
            continue
        for name in cfg.joint_names:
            if name not in group_joints:
                assert cfg[name] == start[name], (group, name)
    cfg = planner.inverse_kinematics(target, state, "locked_j7", options=options)
    assert cfg["panda_joint7"] == 0.123
    # locked_j7's end effector is panda_link6: the target holds for that link
    result = state.copy()
    result.robot_configuration = cfg
    assert_frames_close(planner.forward_kinematics(result, TargetMode.ROBOT, group="locked_j7"), target.target_frame, 1e-3, 1e-3)


def test_ik_respects_tolerances(planner):
    cell, state = beam_cell()
    use(planner, cell)
    frame = Frame([0.5, 0.5, 0.5], [1, 0, 0], [0, 1, 0])
    for tol in (1e-3, 1e-4, 1e-6):
        cfg = planner.inverse_kinematics(FrameTarget(frame, TargetMode.ROBOT, tolerance_position=tol, tolerance_orientation=tol),
                                         state, options={"check_collision": False})
        result = state.copy()
        result.robot_configuration = cfg
        assert_frames_close(planner.forward_kinematics(result, TargetMode.ROBOT), frame, tol, tol)


def test_ik_in_the_three_target_modes(planner):
    cell, state = beam_cell()
    use(planner, cell)
    frame = Frame([0.5, 0.5, 0.5], [1, 0, 0], [0, 1, 0])
    results = []
    for mode in MODES:
        target = FrameTarget(frame, mode, tolerance_position=1e-5, tolerance_orientation=1e-4)
        cfg = planner.inverse_kinematics(target, state, options={"check_collision": False})
        result = state.copy()
        result.robot_configuration = cfg
        assert_frames_close(planner.forward_kinematics(result, mode), frame, 1e-5, 1e-4)
        results.append(cfg)
    for a, b in [(0, 1), (1, 2), (2, 0)]:
        assert not results[a].close_to(results[b])


def test_iter_ik_yields_distinct_solutions_and_inverse_kinematics_walks_them(planner):
    cell, state = beam_cell()
    use(planner, cell)
    target = FrameTarget(Frame([0.5, 0.5, 0.5], [1, 0, 0], [0, 1, 0]), TargetMode.ROBOT, tolerance_position=1e-3, tolerance_orientation=1e-3)
    options = {"check_collision": True}
    solutions = []
    for cfg in planner.iter_inverse_kinematics(target, state, options=options):
        solutions.append(cfg.joint_values)
        if len(solutions) == 4:
            break
    assert len(solutions) == 4
    for i in range(4):
        for j in range(i):
            assert max(abs(a - b) for a, b in zip(solutions[i], solutions[j])) > 1e-3
    first = planner.inverse_kinematics(target, state, options=options)
    second = planner.inverse_kinematics(target, state, options=options)
    assert max(abs(a - b) for a, b in zip(first.joint_values, second.joint_values)) > 1e-3
    # the same query with the same seed gives the same solutions in the same order
    assert max(abs(a - b) for a, b in zip(first.joint_values, solutions[0])) < 1e-12
    assert max(abs(a - b) for a, b in zip(second.joint_values, solutions[1])) < 1e-12
    other_seed = next(planner.iter_inverse_kinematics(target, state, options=dict(options, seed=7, max_results=3)))
    assert isinstance(other_seed, Configuration)


def test_ik_below_the_floor_collides(planner):
    cell, state = beam_cell()
    use(planner, cell)
    target = FrameTarget(Frame([0.5, 0.5, -0.2], [1, 0, 0], [0, 1, 0]), TargetMode.ROBOT)
    with pytest.raises(CollisionCheckError):
        next(planner.iter_inverse_kinematics(target, state, options={"check_collision": True, "max_results": 1}))
    with pytest.raises(InverseKinematicsError):
        next(planner.iter_inverse_kinematics(target, state, options={"check_collision": True, "max_results": 10}))
    cfg = next(planner.iter_inverse_kinematics(target, state, options={"check_collision": False, "max_results": 10}))
    assert isinstance(cfg, Configuration)


@pytest.mark.parametrize("mode", [TargetMode.ROBOT, TargetMode.TOOL, TargetMode.WORKPIECE])
def test_point_axis_targets_solve_exactly(planner, mode):
    cell, state = beam_cell()
    use(planner, cell)
    target = PointAxisTarget([0.5, 0.5, 1.0], [1, 0, 0], mode)
    generator = planner.iter_inverse_kinematics(target, state, options={"check_collision": True})
    first, second = next(generator), next(generator)
    assert not first.close_to(second)
    for cfg in (first, second):
        result = state.copy()
        result.robot_configuration = result.robot_configuration.merged(cfg)
        frame = planner.forward_kinematics(result, mode)
        assert math.dist(list(frame.point), [0.5, 0.5, 1.0]) < 1e-5
        assert math.acos(max(-1.0, min(1.0, frame.zaxis.dot([1, 0, 0])))) < 1e-4
    again = planner.inverse_kinematics(target, state, options={"check_collision": True})
    assert again.close_to(first)
    assert not planner.inverse_kinematics(target, state, options={"check_collision": True}).close_to(first)
    with pytest.raises(InverseKinematicsError):
        planner.inverse_kinematics(PointAxisTarget([10, 10, 10], [1, 0, 0], mode), state)


def test_ik_native_scale_targets_in_millimeters(planner):
    cell, state = library_cell("ur5", load_geometry=False)
    use(planner, cell)
    goal = random_state(cell, state, rng_seed=21)
    frame = planner.forward_kinematics(goal, TargetMode.ROBOT)
    mm = Frame([1000 * x for x in frame.point], frame.xaxis, frame.yaxis)
    cfg = planner.inverse_kinematics(FrameTarget(mm, TargetMode.ROBOT, native_scale=0.001, tolerance_position=1e-2), state,
                                     options={"check_collision": False})
    result = state.copy()
    result.robot_configuration = cfg
    assert math.dist(list(planner.forward_kinematics(result, TargetMode.ROBOT).point), list(frame.point)) < 1e-5


def test_ik_with_a_moved_base(planner):
    cell, state = library_cell("ur10e", load_geometry=False)
    use(planner, cell)
    state.robot_base_frame = MOVED_BASE
    for k in range(10):
        goal = random_state(cell, state, rng_seed=300 + k)
        frame = cell.forward_kinematics_target_frame(goal, TargetMode.ROBOT)
        cfg = planner.inverse_kinematics(FrameTarget(frame, TargetMode.ROBOT, tolerance_position=1e-6, tolerance_orientation=1e-6),
                                         state, options={"check_collision": False})
        result = state.copy()
        result.robot_configuration = cfg
        assert_frames_close(cell.forward_kinematics_target_frame(result, TargetMode.ROBOT), frame, 1e-6, 1e-6)


def test_ik_seed_is_reproducible(planner):
    cell, state = library_cell("ur5", load_geometry=False)
    use(planner, cell)
    goal = random_state(cell, state, rng_seed=5)
    target = FrameTarget(planner.forward_kinematics(goal, TargetMode.ROBOT), TargetMode.ROBOT)
    runs = []
    for _ in range(2):
        random.seed(99)  # the global generator must not matter
        gen = planner.iter_inverse_kinematics(target, state, options={"check_collision": False, "seed": 42})
        runs.append([next(gen).joint_values for _ in range(3)])
        random.random()
    assert runs[0] == runs[1]
