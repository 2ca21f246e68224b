"""Every shared and project file loads (except the malformed sphere.rob, which
the reference refuses too); format details the golden files don't cover."""
import glob
import logging
import os
import random
import warnings

import numpy as np
import pytest

import klampt
from conftest import PROJECT_DATA, SHARED_DATA, assert_close, require_shared_data

BROKEN = {"sphere.rob"}  # malformed on purpose
# Worlds that reference a broken or missing file.
BROKEN_WORLDS = {"sphere_slope.xml"}


def shared(pattern):
    if not os.path.isdir(SHARED_DATA):
        return ["<missing>"]
    return sorted(glob.glob(os.path.join(SHARED_DATA, pattern)))


@pytest.mark.parametrize("path", shared("robots/*.rob") + shared("robots/*.urdf"), ids=os.path.basename)
def test_every_shared_robot_loads(path):
    require_shared_data()
    world = klampt.WorldModel()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ok = world.readFile(path)
    if os.path.basename(path) in BROKEN:
        assert not ok
        return
    assert ok, path
    robot = world.robot(0)
    n = robot.numLinks()
    assert n > 0 and len(robot.getConfig()) == n
    robot.randomizeConfig()
    for i in range(n):
        R, t = robot.link(i).getTransform()
        assert np.isfinite(R).all() and np.isfinite(t).all()


@pytest.mark.parametrize("path", shared("*.xml") + shared("simulation_test_worlds/*.xml"), ids=os.path.basename)
def test_every_shared_world_loads(path):
    require_shared_data()
    world = klampt.WorldModel()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ok = world.readFile(path)
    assert ok == (os.path.basename(path) not in BROKEN_WORLDS), path
    if ok:
        assert world.numIDs() == world.numTerrains() + world.numRigidObjects() + sum(
            1 + world.robot(i).numLinks() for i in range(world.numRobots()))


def test_sphere_rob_failure_names_the_file(caplog):
    require_shared_data()
    path = os.path.join(SHARED_DATA, "robots", "sphere.rob")
    with caplog.at_level(logging.ERROR, logger="klampt"):
        assert not klampt.WorldModel().readFile(path)
    assert "sphere.rob" in caplog.text


def test_missing_files():
    world = klampt.WorldModel()
    assert not world.readFile("/no/such/world.xml")
    assert world.loadElement("/no/such/robot.rob") == -1
    assert not klampt.RobotModel().loadFile("/no/such/robot.urdf")
    with pytest.raises(IOError, match="world.xml"):
        klampt.WorldModel("/no/such/world.xml")


@pytest.mark.parametrize("path", sorted(p for p in glob.glob(os.path.join(PROJECT_DATA, "robots", "*"))
                                         if p.endswith((".rob", ".urdf"))), ids=os.path.basename)
def test_project_robots_load_without_warnings(path):
    world = klampt.WorldModel()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert world.readFile(path), path
    assert world.robot(0).numLinks() > 0


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(PROJECT_DATA, "worlds", "*.xml"))), ids=os.path.basename)
def test_project_worlds_load(path):
    world = klampt.WorldModel()
    assert world.readFile(path), path
    assert world.numRobots() >= 1 and world.numTerrains() >= 1


def test_arm6_rob_and_urdf_describe_the_same_arm():
    wr, wu = klampt.WorldModel(), klampt.WorldModel()
    assert wr.readFile(os.path.join(PROJECT_DATA, "robots", "arm6.rob"))
    assert wu.readFile(os.path.join(PROJECT_DATA, "robots", "arm6.urdf"))
    a, b = wr.robot(0), wu.robot(0)
    assert a.numLinks() == b.numLinks() and a.numDrivers() == b.numDrivers()
    assert_close(a.getJointLimits(), b.getJointLimits())
    assert_close(a.getVelocityLimits(), b.getVelocityLimits())
    rng = random.Random(0)
    for _ in range(10):
        q = [rng.uniform(lo, hi) for lo, hi in zip(*a.getJointLimits())]
        a.setConfig(q)
        b.setConfig(q)
        for i in range(a.numLinks()):
            assert_close(a.link(i).getTransform()[1], b.link(i).getTransform()[1], atol=1e-12)
            assert_close(a.link(i).getTransform()[0], b.link(i).getTransform()[0], atol=1e-12)


def test_enable_geometry_loading_false_skips_geometry():
    world = klampt.WorldModel()
    world.enableGeometryLoading(False)
    assert world.readFile(os.path.join(PROJECT_DATA, "robots", "arm6.rob"))
    robot = world.robot(0)
    assert all(robot.link(i).geometry().empty() for i in range(robot.numLinks()))
    # Kinematics and masses are unaffected.
    ref = klampt.WorldModel()
    ref.readFile(os.path.join(PROJECT_DATA, "robots", "arm6.rob"))
    assert robot.link(3).getMass().mass == ref.robot(0).link(3).getMass().mass


URDF_TWO_COLLISIONS = """<?xml version="1.0"?>
<robot name="twobox">
  <link name="world"/>
  <link name="body">
    <inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 0.5"/><geometry><box size="1 1 1"/></geometry></collision>
    <collision><origin xyz="0 0 2"/><geometry><sphere radius="0.5"/></geometry></collision>
    <collision><geometry><mesh filename="missing_mesh.stl"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="world"/><child link="body"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
</robot>
"""


def test_urdf_keeps_every_collision_element_and_warns_about_skipped_ones(tmp_path):
    path = tmp_path / "twobox.urdf"
    path.write_text(URDF_TWO_COLLISIONS)
    world = klampt.WorldModel()
    with pytest.warns(RuntimeWarning, match="missing_mesh.stl"):
        assert world.readFile(str(path))
    geom = world.robot(0).link(0).geometry()
    assert geom.type() == "Group"
    lo, hi = geom.getBBTight()
    # The box spans z in [0, 1] and the sphere z in [1.5, 2.5]: both are kept.
    assert lo[2] == pytest.approx(0.0, abs=1e-9) and hi[2] == pytest.approx(2.5, abs=1e-3)


def test_shared_primitive_and_tri_files(shared_data):
    g = klampt.Geometry3D()
    assert g.loadFile(os.path.join(shared_data, "objects", "cube.geom"))
    assert g.type() == "GeometricPrimitive"
    assert_close(g.getBBTight(), [[0, 0, 0], [1, 1, 1]])
    assert g.loadFile(os.path.join(shared_data, "objects", "sphere.geom"))
    assert_close(g.getBBTight(), [[-1, -1, -1], [1, 1, 1]])
    assert g.loadFile(os.path.join(shared_data, "objects", "urdf_primitives", "box_ori_center.tri"))
    assert g.type() == "TriangleMesh"
    assert_close(g.getBBTight(), [[-0.5, -0.5, -0.5], [0.5, 0.5, 0.5]])


def test_mass_estimate_of_a_unit_cube_shell(shared_data):
    g = klampt.Geometry3D()
    assert g.loadFile(os.path.join(shared_data, "objects", "cube.off"))
    lo, hi = g.getBBTight()
    side = hi[0] - lo[0]
    m = klampt.Mass()
    m.estimate(g, 3.0, 1.0)
    assert m.mass == 3.0
    assert_close(m.com, [(a + b) / 2 for a, b in zip(lo, hi)], atol=1e-12)
    # A thin cubic shell of side s: I = 5/18 m s^2 about each axis.
    assert_close(np.diag(np.reshape(m.inertia, (3, 3))), [5.0 / 18 * 3.0 * side ** 2] * 3, rtol=1e-9)
    m.estimate(g, 3.0, 0.0)
    # A solid cube: I = 1/6 m s^2.
    assert_close(np.diag(np.reshape(m.inertia, (3, 3))), [3.0 * side ** 2 / 6] * 3, rtol=1e-9)
