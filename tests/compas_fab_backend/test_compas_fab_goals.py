"""plan_motion's goals and spaces: ConstraintSetTarget, PointAxisTarget, carried bodies, other groups, prismatic joints."""
import math
import random

import pytest

pytest.importorskip("compas_fab")

from compas.datastructures import Mesh  # noqa: E402
from compas.geometry import Box, Frame, Sphere  # noqa: E402
from compas_fab.backends import CollisionCheckError, MPNoIKSolutionError, MPTargetInCollisionError  # noqa: E402
from compas_fab.robots import (  # noqa: E402
    BoundingVolume,
    ConfigurationTarget,
    ConstraintSetTarget,
    JointConstraint,
    OrientationConstraint,
    PointAxisTarget,
    PositionConstraint,
    RigidBody,
    RigidBodyState,
    TargetMode,
)

from .fab_cells import dense_recheck, library_cell, point_state, state_at, use  # noqa: E402

START = [0, -1.2, 1.5, -1.9, -1.57, 0]


def post_cell():
    """ur5_cone_tool with a 0.23 m post on the floor in the cone's way, but not the arm's, when the shoulder pans
    from -0.8 to 0.8 rad at START: ``(cell, state)``."""
    cell, state = library_cell("ur5_cone_tool")
    cell = cell.copy()
    cell.rigid_body_models["post"] = RigidBody.from_mesh(Mesh.from_shape(Box(0.12, 0.12, 0.23, Frame([0.64, 0, 0.115], [1, 0, 0], [0, 1, 0]))))
    state.rigid_body_states["post"] = RigidBodyState(Frame.worldXY())
    return cell, state


def native_space(planner, state):
    """The group C-space plan_motion builds at ``state``, set up."""
    client = planner.client
    planner.set_robot_cell_state(state)
    dofs = [client.joint_dof[n] for n in client.robot_cell.get_configurable_joint_names()]
    space = planner._group_space(state, dofs, client.robot.getConfig(), None, 0.01, True)
    space.setup()
    return space


def collides(planner, state):
    """The first collision message of check_collision at ``state``, or None."""
    try:
        planner.check_collision(state)
        return None
    except CollisionCheckError as e:
        return e.message


def test_plan_motion_runs_on_the_native_robot_cspace(planner):
    cell, state = post_cell()
    use(planner, cell)
    space = native_space(planner, state_at(cell, state, START))
    try:
        assert space.cspace.isNative()
        # every test is native: the carried cone is a link of the planning robot, no Python test is run
        client = planner.client
        assert space.planning_robot.numLinks() == client.robot.numLinks() + len(client.tool_parts["cone"])
        assert not [n for n in space.cspace.feasibilityQueryOrder() if n not in (
            "joint limits", "setconfig", "calcbb", "self collision") and not n.startswith("obj collision")]
        # native feasibility is check_collision's answer: on random configurations, and across the post,
        # which only the cone hits
        rng = random.Random(0)
        configurations = [[rng.uniform(-math.pi, math.pi) for _ in START] for _ in range(200)]
        configurations += [[-0.8 + 0.02 * k] + START[1:] for k in range(81)]
        outcomes = set()
        for x in configurations:
            message = collides(planner, state_at(cell, state, x))
            outcomes.add(message.split(" - ")[0] if message and "'cone'" in message else message is None)
            assert space.feasible(x) == (message is None), (x, message)
        assert True in outcomes and False in outcomes
        assert "CC.5 between tool 'cone' and rigid body 'post' (body_id '0')" in outcomes
    finally:
        space.close()
    # the cone touches its flange link: allowed as its touch link, a collision without it
    untouched = state_at(cell, state, START)
    untouched.tool_states["cone"].touch_links = []
    assert "'wrist_3_link' and tool 'cone'" in collides(planner, untouched)
    space = native_space(planner, untouched)
    try:
        assert not space.feasible(START)
    finally:
        space.close()


@pytest.mark.parametrize("name", ["ur10e_gripper_one_beam", "abb_irb4600_40_255_printing_tool"])
def test_native_feasibility_is_check_collision_with_carried_tools_and_workpieces(planner, name):
    """A gripper carrying a beam (a workpiece attached to the tool), and a printing tool: the native space agrees
    with check_collision on random configurations, those where a carried item collides among them."""
    cell, state = library_cell(name)
    use(planner, cell)
    client = planner.client
    space = native_space(planner, state)
    carried = sum(len(client.tool_parts[t]) for t, ts in state.tool_states.items() if ts.attached_to_group)
    carried += sum(len(client.rigid_body_objects[b]) for b, bs in state.rigid_body_states.items()
                   if bs.attached_to_tool or bs.attached_to_link)
    try:
        assert space.planning_robot.numLinks() == client.robot.numLinks() + carried
        rng = random.Random(1)
        stages = set()
        for _ in range(200):
            x = [rng.uniform(max(lo, -math.pi), min(hi, math.pi)) for lo, hi in space.bound]
            message = collides(planner, state_at(cell, state, x))
            stages.add(message.split(" between")[0] if message else None)
            assert space.feasible(x) == (message is None), (x, message)
        assert {None, "CC.2"} <= stages
    finally:
        space.close()


def test_plan_motion_routes_a_carried_tool_around_what_only_the_tool_would_hit(planner):
    cell, state = post_cell()
    use(planner, cell)
    a, b = state_at(cell, state, [-0.8] + START[1:]), state_at(cell, state, [0.8] + START[1:])
    hidden = state.copy()
    hidden.tool_states["cone"].is_hidden = True
    sweep = [[-0.8 + 0.01 * k] + START[1:] for k in range(161)]
    # the straight joint path: free for the arm alone, the cone hits the post
    assert all(collides(planner, state_at(cell, hidden, x)) is None for x in sweep)
    hits = [collides(planner, state_at(cell, state, x)) for x in sweep]
    assert any(h and "tool 'cone' and rigid body 'post'" in h for h in hits)
    trajectory = planner.plan_motion(ConfigurationTarget(b.robot_configuration), a, options={"seed": 7})
    assert trajectory.points[0].joint_values == [-0.8] + START[1:]
    assert trajectory.points[-1].joint_values == [0.8] + START[1:]
    # it leaves the straight path (in a joint other than the pan) and is free all along
    assert max(abs(v - s) for p in trajectory.points for v, s in zip(p.joint_values[1:], START[1:])) > 0.02
    dense_recheck(planner, a, trajectory)
    # with the cone hidden, the straight path is the plan
    straight = planner.plan_motion(ConfigurationTarget(b.robot_configuration), state_at(cell, hidden, [-0.8] + START[1:]),
                                   options={"time_step": 0})
    assert [p.joint_values for p in straight.points] == [[-0.8] + START[1:], [0.8] + START[1:]]


def test_constraint_set_target_reaches_its_region(planner, cone):
    cell, state = cone
    start = state_at(cell, state, START)
    link = cell.get_end_effector_link_name(cell.main_group_name)
    centre = [0.3, 0.3, 0.4]
    down = Frame(centre, [0, 1, 0], [1, 0, 0])  # the flange's z axis pointing down
    constraints = [
        PositionConstraint.from_sphere(link, Sphere(0.01, point=centre)),
        OrientationConstraint.from_frame(down, [0.05, 0.05, 2 * math.pi], link),  # any turn about z
        JointConstraint("shoulder_pan_joint", 0.8, 0.5, 0.5),
    ]
    trajectory = planner.plan_motion(ConstraintSetTarget(constraints), start, options={"seed": 1})
    end = point_state(start, trajectory.points[-1])
    flange = planner.forward_kinematics_to_link(end, link)
    assert math.dist(list(flange.point), centre) <= 0.01
    assert math.acos(max(-1, min(1, flange.zaxis.dot([0, 0, -1])))) <= 0.05 * math.sqrt(2) + 1e-6
    assert 0.3 <= trajectory.points[-1].joint_values[0] <= 1.3
    dense_recheck(planner, start, trajectory)
    # a box region; a region out of reach; a region in the floor
    box = PositionConstraint.from_box(link, Box(0.05, 0.05, 0.05, Frame([0.4, -0.2, 0.3], [1, 0, 0], [0, 1, 0])))
    trajectory = planner.plan_motion(ConstraintSetTarget([box]), start, options={"seed": 2})
    p = planner.forward_kinematics_to_link(point_state(start, trajectory.points[-1]), link).point
    assert all(abs(a - b) <= 0.025 + 1e-9 for a, b in zip(p, [0.4, -0.2, 0.3]))
    with pytest.raises(MPNoIKSolutionError):
        planner.plan_motion(ConstraintSetTarget([PositionConstraint.from_sphere(link, Sphere(0.01, point=[3, 0, 0]))]), start)
    with pytest.raises(MPTargetInCollisionError):
        planner.plan_motion(ConstraintSetTarget([PositionConstraint.from_sphere(link, Sphere(0.01, point=[0.4, 0, -0.2]))]), start)
    mesh_volume = PositionConstraint(link, BoundingVolume.from_mesh(Mesh.from_shape(Box(0.1, 0.1, 0.1))))
    with pytest.raises(Exception, match="box and sphere"):
        planner.plan_motion(ConstraintSetTarget([mesh_volume]), start)


def test_plan_motion_to_a_point_axis_target(planner, cone):
    cell, state = cone
    start = state_at(cell, state, START)
    point, axis = [0.35, -0.25, 0.2], [0, 0, -1]
    trajectory = planner.plan_motion(PointAxisTarget(point, axis, TargetMode.TOOL), start, options={"seed": 3})
    tool = planner.forward_kinematics(point_state(start, trajectory.points[-1]), TargetMode.TOOL)
    assert math.dist(list(tool.point), point) < 1e-5
    assert tool.zaxis.dot(axis) > 1 - 1e-8
    dense_recheck(planner, start, trajectory)


def test_a_body_carried_by_a_link_moves_with_it(planner):
    cell, state = library_cell("ur5_cone_tool")
    cell = cell.copy()
    cell.rigid_body_models["bar"] = RigidBody.from_mesh(Mesh.from_shape(Box(0.04, 0.04, 0.5)))
    state = cell.default_cell_state()
    state.set_tool_attached_to_group("cone", cell.main_group_name, Frame([0, 0, 0], [0, 0, 1], [1, 0, 0]), ["wrist_3_link"])
    state.rigid_body_states["floor"].touch_links = ["base_link_inertia"]
    # a 0.5 m bar sticking out of the first wrist link, held by it
    state.rigid_body_states["bar"] = RigidBodyState(Frame.worldXY(), attached_to_link="wrist_1_link",
                                                    touch_links=["wrist_1_link"],
                                                    attachment_frame=Frame([-0.3, 0, 0], [0, 0, 1], [0, 1, 0]))
    use(planner, cell)
    start = state_at(cell, state, START)
    planner.check_collision(start)
    goal = state_at(cell, state, [1.2, -1.4, 1.2, -1.4, -1.57, 0.4])
    planner.check_collision(goal)
    trajectory = planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start, options={"seed": 4})
    dense_recheck(planner, start, trajectory)
    # the bar, not the arm, would hit the floor here: the plan knows
    low = state_at(cell, state, [0, -0.39, -2.35, -1.39, -0.31, -0.02])
    with pytest.raises(CollisionCheckError, match="bar"):
        planner.check_collision(low)
    with pytest.raises(MPTargetInCollisionError, match="bar"):
        planner.plan_motion(ConfigurationTarget(low.robot_configuration, [0.0] * 6, [0.0] * 6), start)
    # natively too: the bar is a link of the planning robot, touching its wrist link but not the floor
    space = native_space(planner, start)
    try:
        assert space.feasible(START)
        assert not space.feasible([0, -0.39, -2.35, -1.39, -0.31, -0.02])
    finally:
        space.close()


def test_other_groups_and_prismatic_joints(planner):
    cell, state = library_cell("panda")
    use(planner, cell)
    group = "panda_arm"  # not the main group: its end effector is panda_link8
    names = cell.get_configurable_joint_names(group)
    goal = state.copy()
    for n, v in zip(names, [0.5, -0.5, 0.3, -2.0, 0.2, 1.8, 0.5]):
        goal.robot_configuration[n] = v
    trajectory = planner.plan_motion(ConfigurationTarget(goal.robot_configuration), state, group=group, options={"seed": 5})
    assert trajectory.joint_names == names
    dense_recheck(planner, state, trajectory)
    cell, state = library_cell("rfl")
    use(planner, cell)
    group = "robot11_eaYZ"  # two prismatic gantry axes, then the arm
    names = cell.get_configurable_joint_names(group)
    goal = state.copy()
    for n, t in zip(names, cell.get_configurable_joint_types(group)):
        goal.robot_configuration[n] += -0.3 if t == 2 else 0.5
    trajectory = planner.plan_motion(ConfigurationTarget(goal.robot_configuration), state, group=group, options={"seed": 6})
    assert trajectory.points[-1].joint_values == [goal.robot_configuration[n] for n in names]
    dense_recheck(planner, state, trajectory, resolution=0.01)
    robot = planner.client.robot
    vmax = [robot.getVelocityLimits()[planner.client.joint_dof[n]] for n in names]
    assert all(abs(v) <= vm * 1.001 for p in trajectory.points for v, vm in zip(p.velocities, vmax))
