"""check_collision of the klampt COMPAS FAB backend: the five stages, their options, and the geometry."""
import math
import re

import pytest

pytest.importorskip("compas_fab")

from compas.geometry import Frame, Transformation  # noqa: E402
from compas_fab.backends import CollisionCheckError, PyBulletClient, PyBulletPlanner  # noqa: E402
from compas_fab.robots import RigidBody, RobotCell, ToolLibrary, ToolState  # noqa: E402
from compas_robots import Configuration, ToolModel  # noqa: E402
from compas_robots.model import Link  # noqa: E402

from .fab_cells import library_cell, random_state, use  # noqa: E402
from .mesh_oracle import geometries_intersect  # noqa: E402

_PYBULLET = {}


@pytest.fixture(scope="module")
def pybullet_planner():
    with PyBulletClient(connection_type="direct") as client:
        yield PyBulletPlanner(client)


def use_pybullet(pybullet_planner, cell):
    if pybullet_planner.client.robot_cell is not cell:
        pybullet_planner.set_robot_cell(cell)
    return pybullet_planner


def report(planner, state, options=None):
    """The set of ``(stage, name_a, name_b)`` of every colliding pair (full report); empty when free."""
    try:
        planner.check_collision(state, dict(options or {}, full_report=True))
    except CollisionCheckError as e:
        pairs = set()
        for line in e.message.splitlines():
            m = re.match(r"(CC\.\d) between (?:attached )?(?:robot link|tool|rigid body) '([^']+)' and (?:robot link|tool|rigid body) '([^']+)'", line)
            assert m, line
            pairs.add(m.groups())
        return pairs
    return set()


def collides(planner, state):
    try:
        planner.check_collision(state)
    except CollisionCheckError:
        return True
    return False


def with_joints(cell, state, values):
    s = state.copy()
    names = cell.get_configurable_joint_names()
    for n, v in zip(names, values):
        s.robot_configuration[n] = v
    return s


C1_CASES = [
    ([0, -1.57, 0, 0, 0, 0], set()),
    ([0, 1.0, 0, 0, 0, 0], {("CC.3", "upper_arm_link", "floor")}),
    ([0, 0.5, 2.5, 0, 0, 0], {("CC.3", "upper_arm_link", "floor"), ("CC.4", "beam", "floor")}),
    ([0, -1.57, 2.8, 0, 0, 0], {("CC.1", "upper_arm_link", "wrist_2_link"), ("CC.1", "upper_arm_link", "wrist_3_link")}),
]


@pytest.mark.parametrize("values,expected", C1_CASES)
def test_fixed_configurations_report_the_pybullet_pairs(planner, pybullet_planner, values, expected):
    cell, state = library_cell("ur10e_gripper_one_beam")
    use(planner, cell)
    s = with_joints(cell, state, values)
    assert report(planner, s) == expected
    use_pybullet(pybullet_planner, cell)
    assert report(pybullet_planner, s) == expected


@pytest.mark.parametrize("values,expected", C1_CASES)
def test_every_checked_pair_agrees_with_an_exact_mesh_oracle(planner, values, expected):
    cell, state = library_cell("ur10e_gripper_one_beam")
    use(planner, cell)
    s = with_joints(cell, state, values)
    planner.set_robot_cell_state(s)
    pairs = planner._collision_geometry_pairs(s)
    assert len(pairs) > 25
    hits = set()
    for a, b, ka, kb in pairs:
        klampt_says = a.collides(b)
        assert klampt_says == geometries_intersect(a, b), (ka, kb)
        if klampt_says:
            hits.add((ka[1], kb[1]))
    assert hits == {(a, b) for _, a, b in expected}


@pytest.mark.parametrize("name", ["ur5_cone_tool", "ur10e_gripper_one_beam", "abb_irb4600_40_255_printing_tool",
                                  "abb_irb4600_40_255_gripper_one_beam"])
def test_klampt_collision_implies_pybullet_collision(planner, pybullet_planner, name):
    cell, state = library_cell(name)
    use(planner, cell)
    use_pybullet(pybullet_planner, cell)
    agree = klampt_only = 0
    n = 60
    for k in range(n):
        s = random_state(cell, state, rng_seed=500 + k)
        a, b = collides(planner, s), collides(pybullet_planner, s)
        agree += a == b
        klampt_only += a and not b
    assert klampt_only == 0
    assert agree >= 0.8 * n


def test_touch_links_suppress_tool_and_body_pairs(planner):
    cell, state = library_cell("ur5_cone_tool")
    use(planner, cell)
    s = with_joints(cell, state, [0, -1.57, 0, -1.57, 0, 0])
    assert report(planner, s) == set()
    s.tool_states["cone"].touch_links = []
    assert ("CC.2", "wrist_3_link", "cone") in report(planner, s)
    s = with_joints(cell, state, [0, -1.57, 0, -1.57, 0, 0])
    s.rigid_body_states["floor"].touch_links = []
    assert report(planner, s) == {("CC.3", "base_link_inertia", "floor")}


def test_srdf_disabled_pairs_are_never_reported(planner):
    cell, state = library_cell("ur10e_gripper_one_beam")
    use(planner, cell)
    disabled = cell.robot_semantics.unordered_disabled_collisions
    assert disabled
    seen_cc1 = 0
    for k in range(40):
        for stage, a, b in report(planner, random_state(cell, state, rng_seed=k)):
            if stage == "CC.1":
                seen_cc1 += 1
                assert {a, b} not in disabled
    assert seen_cc1 > 0


def test_hidden_objects_and_touch_bodies_are_skipped(planner):
    cell, state = library_cell("ur10e_gripper_one_beam")
    use(planner, cell)
    s = with_joints(cell, state, [0, 0.5, 2.5, 0, 0, 0])
    s.rigid_body_states["beam"].touch_bodies = ["floor"]
    assert report(planner, s) == {("CC.3", "upper_arm_link", "floor")}
    s = with_joints(cell, state, [0, 0.5, 2.5, 0, 0, 0])
    s.rigid_body_states["floor"].touch_bodies = ["beam"]
    assert report(planner, s) == {("CC.3", "upper_arm_link", "floor")}
    s.rigid_body_states["floor"].is_hidden = True
    assert report(planner, s) == set()
    # the beam rests in the gripper: the pair is never checked, the geometry does touch
    s = with_joints(cell, state, [0, -1.57, 0, 0, 0, 0])
    planner.set_robot_cell_state(s)
    keys = {(ka, kb) for _, _, ka, kb in planner._collision_geometry_pairs(s)}
    assert (("tool", "gripper"), ("body", "beam")) not in keys
    assert (("tool", "gripper"), ("body", "floor")) in keys


def test_hidden_tool_is_skipped(planner):
    cell, state = library_cell("ur5_cone_tool")
    use(planner, cell)
    s = with_joints(cell, state, [0, -1.57, 0, -1.57, 0, 0])
    s.tool_states["cone"].touch_links = []
    assert report(planner, s)
    s.tool_states["cone"].is_hidden = True
    assert report(planner, s) == set()


def test_abb_gripper_cell_default_state_and_touch_links(planner):
    cell, state = library_cell("abb_irb4600_40_255_gripper_one_beam")
    use(planner, cell)
    assert report(planner, state) == {("CC.3", "base_link", "floor")}
    s = state.copy()
    s.rigid_body_states["floor"].touch_links = ["base_link"]
    assert report(planner, s) == set()
    s.tool_states["gripper"].touch_links = ["link_6"]
    assert report(planner, s) == set()


def test_first_hit_and_full_report(planner):
    cell, state = library_cell("ur10e_gripper_one_beam")
    use(planner, cell)
    s = with_joints(cell, state, [0, 0.5, 2.5, 0, 0, 0])
    with pytest.raises(CollisionCheckError) as first:
        planner.check_collision(s)
    assert len(first.value.collision_pairs) == 1 and len(first.value.message.splitlines()) == 1
    with pytest.raises(CollisionCheckError) as full:
        planner.check_collision(s, {"full_report": True})
    pairs = full.value.collision_pairs
    assert len(pairs) == 2
    link, floor = pairs[0]
    assert isinstance(link, Link) and link.name == "upper_arm_link" and isinstance(floor, RigidBody)
    beam, floor2 = pairs[1]
    assert beam is cell.rigid_body_models["beam"] and floor2 is cell.rigid_body_models["floor"]
    for line in full.value.message.splitlines():
        assert re.match(r"CC\.[1-5] between .* - COLLISION$", line)
    # skipping the stages that hit leaves the state free
    planner.check_collision(s, {"_skip_cc3": True, "_skip_cc4": True})


def test_tool_pairs_are_tool_models(planner):
    cell, state = library_cell("ur5_cone_tool")
    use(planner, cell)
    s = with_joints(cell, state, [0, -1.57, 0, -1.57, 0, 0])
    s.tool_states["cone"].touch_links = []
    with pytest.raises(CollisionCheckError) as e:
        planner.check_collision(s)
    link, tool = e.value.collision_pairs[0]
    assert isinstance(link, Link) and isinstance(tool, ToolModel) and tool is cell.tool_models["cone"]


def test_margin_reports_near_pairs(planner):
    cell, state = library_cell("ur10e_gripper_one_beam")
    use(planner, cell)
    s = with_joints(cell, state, [0, -1.57, 0, 0, 0, 0])
    planner.check_collision(s)
    with pytest.raises(CollisionCheckError):
        planner.check_collision(s, {"margin": 10.0})


def test_rfl_default_state_is_free_with_meshes(planner):
    cell, state = library_cell("rfl")
    use(planner, cell)
    assert report(planner, state) == set()


def test_set_robot_cell_state_rejects_bodies_on_missing_or_hidden_tools(planner):
    cell, state = library_cell("ur10e_gripper_one_beam")
    use(planner, cell)
    s = state.copy()
    s.tool_states["gripper"].is_hidden = True
    with pytest.raises(ValueError):
        planner.set_robot_cell_state(s)
    s = state.copy()
    s.rigid_body_states["beam"].attached_to_tool = "no_such_tool"
    with pytest.raises(ValueError):
        planner.set_robot_cell_state(s)
    s = state.copy()
    s.rigid_body_states["extra"] = s.rigid_body_states["beam"]
    with pytest.raises(ValueError):
        planner.set_robot_cell_state(s)


def test_attached_objects_follow_the_robot(planner):
    cell, state = library_cell("ur10e_gripper_one_beam")
    use(planner, cell)
    s = random_state(cell, state, rng_seed=8)
    planner.set_robot_cell_state(s)
    reference = cell.compute_attach_objects_frames(s)
    beam = planner.client.rigid_body_objects["beam"][0]
    R, t = beam.getTransform()
    expected = reference.rigid_body_states["beam"].frame
    assert max(abs(a - b) for a, b in zip(t, expected.point)) < 1e-9
    assert max(abs(a - b) for a, b in zip(R[0:3], expected.xaxis)) < 1e-9
    gripper = planner.client.tool_parts["gripper"][0].obj
    R, t = gripper.getTransform()
    expected = reference.tool_states["gripper"].frame
    assert max(abs(a - b) for a, b in zip(t, expected.point)) < 1e-9


def test_broad_phase_keeps_every_colliding_self_pair(planner):
    # rfl has hundreds of CC.1 pairs, so check_collision prunes them by bounding spheres first
    cell, state = library_cell("rfl")
    use(planner, cell)
    client = planner.client
    assert len(client.self_collision_pairs) > 100
    links = client.link_geometry
    hits = 0
    for k in range(15):
        s = random_state(cell, state, rng_seed=900 + k)
        planner.set_robot_cell_state(s)
        all_hits = [(a, b) for a, b in client.self_collision_pairs if links[a].collides(links[b])]
        near = set(client._near_self_collision_pairs())
        assert set(all_hits) <= near
        reported = {(a, b) for stage, a, b in report(planner, s, {"_skip_set_robot_cell_state": True}) if stage == "CC.1"}
        assert reported == set(all_hits)
        hits += len(all_hits)
    assert hits > 0


def test_kinematic_tool_links_follow_the_tool_configuration(planner):
    ur5, ur5_state = library_cell("ur5", load_geometry=False)
    tool = ToolLibrary.kinematic_gripper()
    cell = RobotCell(ur5.robot_model, ur5.robot_semantics, tool_models={"kg": tool})
    state = ur5_state.copy()
    attachment = Frame([0, 0, 0.02], [0, 0, 1], [1, 0, 0])
    state.tool_states = {"kg": ToolState(None, attached_to_group=cell.main_group_name, attachment_frame=attachment,
                                         configuration=Configuration([0.01, 0.02], [2, 2], ["left_finger_joint", "right_finger_joint"]))}
    planner.set_robot_cell(cell, state)
    s = random_state(cell, state, rng_seed=4)
    planner.set_robot_cell_state(s)
    ee = cell.robot_model.forward_kinematics(s.robot_configuration, cell.get_end_effector_link_name(cell.main_group_name))
    T_base = Transformation.from_frame(ee) * Transformation.from_frame(attachment)
    parts = planner.client.tool_parts["kg"]
    assert {p.link_name for p in parts} == {"body", "left_finger", "right_finger"}
    for part in parts:
        local = tool.forward_kinematics(s.tool_states["kg"].configuration, part.link_name)
        expected = Frame.from_transformation(T_base * Transformation.from_frame(local))
        R, t = part.obj.getTransform()
        assert max(abs(a - b) for a, b in zip(list(t) + list(R[0:3]) + list(R[3:6]),
                                              list(expected.point) + list(expected.xaxis) + list(expected.yaxis))) < 1e-9
    # the fingers open: their distance grows with the configuration
    s.tool_states["kg"].configuration = Configuration([0.025, 0.025], [2, 2], ["left_finger_joint", "right_finger_joint"])
    planner.set_robot_cell_state(s)
    opened = [p.obj.getTransform()[1] for p in parts if p.link_name != "body"]
    s.tool_states["kg"].configuration = Configuration([0.0, 0.0], [2, 2], ["left_finger_joint", "right_finger_joint"])
    planner.set_robot_cell_state(s)
    closed = [p.obj.getTransform()[1] for p in parts if p.link_name != "body"]
    assert abs(math.dist(*opened) - math.dist(*closed) - 0.05) < 1e-9
