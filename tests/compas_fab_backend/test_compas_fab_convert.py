"""Conversions of COMPAS FAB robot models, frames and configurations to klampt (klampt.io.compas_fab)."""
import math
import random
import subprocess
import sys

import pytest

pytest.importorskip("compas_fab")

from compas.geometry import Frame, Point, Transformation  # noqa: E402
from compas_fab.backends import BackendFeatureNotSupportedError  # noqa: E402
from compas_fab.robots import RobotCell, RobotCellState, RobotSemantics, TargetMode  # noqa: E402
from compas_robots import Configuration, RobotModel  # noqa: E402
from compas_robots.model import Joint  # noqa: E402

from klampt import WorldModel  # noqa: E402
from klampt.io import compas_fab as convert  # noqa: E402
from klampt.math import se3  # noqa: E402

from .fab_cells import MOVED_BASE, frame_error, library_cell, moved, use  # noqa: E402

FK_ROBOTS = ["ur5", "ur10e", "abb_irb4600_40_255", "abb_irb120_3_58", "panda", "rfl"]


def test_import_klampt_does_not_import_compas():
    code = "import sys, klampt, klampt.math, klampt.io, klampt.plan; print(any(m.startswith('compas') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"


@pytest.mark.parametrize("module", ["klampt.io.compas_fab", "klampt.compas_fab"])
def test_without_compas_fab_the_import_error_says_what_to_install(module):
    code = ("import sys; sys.modules['compas_fab'] = None\n"
            "try:\n    import %s\nexcept ImportError as e:\n    print(e)\n" % module)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert 'pip install "klampt[compas_fab]"' in out


def test_frame_round_trip_and_orthonormalization():
    random.seed(4)
    for _ in range(20):
        f = Frame([random.uniform(-1, 1) for _ in range(3)], [random.uniform(-1, 1) for _ in range(3)],
                  [random.uniform(-1, 1) for _ in range(3)])
        R, t = convert.frame_to_se3(f)
        back = convert.se3_to_frame((R, t))
        p, a = frame_error(f, back)
        assert p < 1e-12 and a < 1e-12
        # R is a rotation, column-major: its first column is the frame's x axis
        assert abs(sum(x * x for x in R[0:3]) - 1) < 1e-12
        assert abs(sum(x * y for x, y in zip(R[0:3], R[3:6]))) < 1e-12
    assert convert.frame_to_se3(None) == se3.identity()


def _random_full_configuration(cell, rng):
    cfg = cell.zero_full_configuration()
    for name in cfg.joint_names:
        joint = cell.robot_model.get_joint_by_name(name)
        cfg[name] = rng.uniform(joint.limit.lower, joint.limit.upper) if joint.limit else rng.uniform(-3, 3)
    return cfg


@pytest.mark.parametrize("name", FK_ROBOTS)
def test_fk_of_every_link_equals_compas_robots(planner, name):
    cell, state = library_cell(name, load_geometry=False)
    use(planner, cell)
    rng = random.Random(11)
    worst_p = worst_a = 0.0
    links = [link.name for link in cell.robot_model.iter_links()]
    for k in range(12):
        state.robot_configuration = _random_full_configuration(cell, rng)
        base = MOVED_BASE if k % 2 else Frame.worldXY()
        state.robot_base_frame = base
        for link in links:
            expected = moved(cell.robot_model.forward_kinematics(state.robot_configuration, link), base)
            p, a = frame_error(planner.forward_kinematics_to_link(state, link), expected)
            worst_p, worst_a = max(worst_p, p), max(worst_a, a)
    assert worst_p < 1e-9 and worst_a < 1e-9


def test_panda_mimic_finger_follows_its_source(planner):
    cell, state = library_cell("panda", load_geometry=False)
    use(planner, cell)
    rng = random.Random(5)
    for _ in range(10):
        state.robot_configuration["panda_finger_joint1"] = rng.uniform(0, 0.04)
        left = planner.forward_kinematics_to_link(state, "panda_leftfinger")
        right = planner.forward_kinematics_to_link(state, "panda_rightfinger")
        for link, frame in (("panda_leftfinger", left), ("panda_rightfinger", right)):
            expected = cell.robot_model.forward_kinematics(state.robot_configuration, link)
            p, a = frame_error(frame, expected)
            assert p < 1e-9 and a < 1e-9
        # the fingers open symmetrically: their distance is twice the finger joint
        d = math.dist(list(left.point), list(right.point))
        assert abs(d - 2 * state.robot_configuration["panda_finger_joint1"]) < 1e-9


_CUSTOM_URDF = """<?xml version="1.0"?>
<robot name="custom">
  <link name="world"/><link name="l1"/><link name="l2"/><link name="l3"/><link name="l4"/>%s
  <joint name="j_cont" type="continuous"><parent link="world"/><child link="l1"/>
    <origin xyz="0 0 0.3" rpy="0 0 0"/><axis xyz="0 0 1"/></joint>
  <joint name="j_tilt" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.1 0 0.2" rpy="0 0 0"/><axis xyz="0.36 0.48 0.8"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="j_pris" type="prismatic"><parent link="l2"/><child link="l3"/>
    <origin xyz="0 0.2 0" rpy="0 0 1.5707963267948966"/><axis xyz="0.6 0.8 0"/><limit lower="-0.5" upper="0.5" effort="1" velocity="1"/></joint>
  <joint name="j_fix" type="fixed"><parent link="l3"/><child link="l4"/>
    <origin xyz="0.05 0.02 0.1" rpy="0.3 -0.7 1.1"/></joint>%s
</robot>"""


def _custom_model(extra_joint_type=None):
    """A model with root 'world', a continuous joint, a tilted revolute axis, an off-axis prismatic joint on a
    rotated origin and a fixed joint with an rpy origin (compas_robots parses the URDF text)."""
    link, joint = "", ""
    if extra_joint_type is not None:
        link = '<link name="l5"/>'
        joint = '<joint name="j_extra" type="%s"><parent link="l4"/><child link="l5"/></joint>' % extra_joint_type
    return RobotModel.from_urdf_string(_CUSTOM_URDF % (link, joint))


def test_custom_model_with_continuous_tilted_prismatic_and_rpy_joints():
    model = _custom_model()
    world = WorldModel()
    robot, mapping = convert.load_robot_model(world, model)
    assert robot.numLinks() == 5
    assert set(mapping.joint_dof) == {"j_cont", "j_tilt", "j_pris"}
    base = MOVED_BASE
    robot.link(mapping.link_index["world"]).setParentTransform(*convert.frame_to_se3(base))
    rng = random.Random(2)
    for _ in range(20):
        cfg = Configuration([rng.uniform(-6, 6), rng.uniform(-2, 2), rng.uniform(-0.5, 0.5)],
                            [Joint.CONTINUOUS, Joint.REVOLUTE, Joint.PRISMATIC], ["j_cont", "j_tilt", "j_pris"])
        robot.setConfig(convert.configuration_to_config(cfg, mapping, robot.getConfig()))
        for link in ["world", "l1", "l2", "l3", "l4"]:
            expected = moved(model.forward_kinematics(cfg, link), base)
            got = convert.se3_to_frame(robot.link(mapping.link_index[link]).getTransform())
            p, a = frame_error(got, expected)
            assert p < 1e-9 and a < 1e-9


@pytest.mark.parametrize("joint_type", ["floating", "planar"])
def test_floating_and_planar_joints_are_not_supported(joint_type):
    with pytest.raises(BackendFeatureNotSupportedError):
        convert.load_robot_model(WorldModel(), _custom_model(joint_type))


def test_configuration_by_name_rejects_unknown_joints():
    model = _custom_model()
    robot, mapping = convert.load_robot_model(WorldModel(), model)
    cfg = Configuration([0.1], [Joint.REVOLUTE], ["no_such_joint"])
    with pytest.raises(ValueError):
        convert.configuration_to_config(cfg, mapping, robot.getConfig())
    # order does not matter, names do
    a = Configuration([0.1, 0.2], [Joint.REVOLUTE, Joint.PRISMATIC], ["j_tilt", "j_pris"])
    b = Configuration([0.2, 0.1], [Joint.PRISMATIC, Joint.REVOLUTE], ["j_pris", "j_tilt"])
    q0 = robot.getConfig()
    assert convert.configuration_to_config(a, mapping, q0) == convert.configuration_to_config(b, mapping, q0)


def test_link_collision_mesh_of_box_primitives_with_origins():
    # panda's fingers are four box primitives each, every one moved by its element origin
    cell, _ = library_cell("panda", load_geometry=False)
    link = cell.robot_model.get_link_by_name("panda_leftfinger")
    tm = convert.link_collision_mesh(link)
    V = tm.getVertices()
    assert len(link.collision) == 4 and V.shape == (32, 3) and len(tm.getIndices()) == 48
    expected = []
    for element in link.collision:
        box = element.geometry.shape
        T = Transformation.from_frame(element.origin)
        for sx in (-1, 1):
            for sy in (-1, 1):
                for sz in (-1, 1):
                    corner = [sx * box.xsize / 2, sy * box.ysize / 2, sz * box.zsize / 2]
                    expected.append(list(Point(*corner).transformed(T)))
    for v in V:
        assert min(math.dist(v, e) for e in expected) < 1e-12
    assert convert.link_collision_mesh(cell.robot_model.get_link_by_name("panda_hand_tcp")) is None


def test_cell_without_semantics_gives_link_fk(planner):
    model = _custom_model()
    semantics = RobotSemantics(groups={"arm": {"links": ["world", "l1", "l2", "l3", "l4"],
                                               "joints": ["j_cont", "j_tilt", "j_pris", "j_fix"]}},
                               main_group_name="arm")
    cell = RobotCell(model, semantics)
    state = RobotCellState.from_robot_cell(cell)
    planner.set_robot_cell(cell, state)
    state.robot_configuration = Configuration([0.4, -0.3, 0.2], [Joint.CONTINUOUS, Joint.REVOLUTE, Joint.PRISMATIC],
                                              ["j_cont", "j_tilt", "j_pris"])
    frame = planner.forward_kinematics(state, TargetMode.ROBOT)
    expected = cell.forward_kinematics_target_frame(state, TargetMode.ROBOT)
    p, a = frame_error(frame, expected)
    assert p < 1e-9 and a < 1e-9


def test_transformation_to_se3_matches_frame_to_se3():
    f = Frame([0.3, -0.2, 0.9], [0, 0, 1], [1, 0, 0])
    assert convert.transformation_to_se3(Transformation.from_frame(f)) == convert.frame_to_se3(f)
