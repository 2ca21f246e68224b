"""klampt.model.create: primitives (geometry, bounds, inertia of uniform
solids), moving-base robots (base transform round trip, mounted links) and
planar robots (forward kinematics of the chain), object arrangements."""
import math
import os
import random

import klampt
from klampt.math import so3, se3, vectorops
from klampt.model import collide
from klampt.model.create import bbox, box, moving_base_robot, pile, planar_robot, sphere

from conftest import SHARED_DATA, assert_close, require_shared_data


def test_box_geometry_types_and_bounds():
    g = box(1, 2, 3)
    assert g.type() == 'TriangleMesh'
    assert_close(g.getBBTight(), [[-0.5, -1, -1.5], [0.5, 1, 1.5]], atol=1e-12)
    g = box(1, 2, 3, center=[1, 1, 1], type='GeometricPrimitive')
    assert g.type() == 'GeometricPrimitive'
    assert_close(g.getBBTight(), [[0.5, 0, -0.5], [1.5, 2, 2.5]], atol=1e-12)
    R = so3.rotation([0, 0, 1], math.pi / 2)
    g = box(1, 2, 3, R=R, t=[1, 0, 0])
    assert_close(g.getBBTight(), [[0, -0.5, -1.5], [2, 0.5, 1.5]], atol=1e-9)
    g = bbox([0, 1, 2], [1, 3, 6])
    assert_close(g.getBBTight(), [[0, 1, 2], [1, 3, 6]], atol=1e-12)


def test_sphere_geometry():
    g = sphere(0.5, center=[1, 2, 3], type='GeometricPrimitive')
    assert g.type() == 'GeometricPrimitive'
    assert_close(g.getBBTight(), [[0.5, 1.5, 2.5], [1.5, 2.5, 3.5]], atol=1e-12)
    mesh = sphere(0.5, center=[1, 2, 3])
    assert mesh.type() == 'TriangleMesh'
    verts = mesh.getTriangleMesh().getVertices()
    radii = [vectorops.distance(v, [1, 2, 3]) for v in verts]
    assert max(radii) <= 0.5 + 1e-9 and min(radii) >= 0.45


def test_bodies_in_world_with_uniform_inertia():
    world = klampt.WorldModel()
    b = box(1, 2, 3, world=world, mass=6.0, name='crate', R=so3.identity(), t=[0, 0, 5])
    assert isinstance(b, klampt.RigidObjectModel) and b.getName() == 'crate'
    m = b.getMass()
    assert m.mass == 6.0
    # solid box: I = m/12 (b^2 + c^2) on each axis
    assert_close(m.inertia, [6 / 12 * (4 + 9), 0, 0, 0, 6 / 12 * (1 + 9), 0, 0, 0, 6 / 12 * (1 + 4)], atol=1e-12)
    assert_close(b.getTransform()[1], [0, 0, 5])
    s = sphere(0.5, world=world, mass=2.0)
    assert s.getName() == 'sphere'
    assert_close(s.getMass().inertia, [0.2, 0, 0, 0, 0.2, 0, 0, 0, 0.2], atol=1e-12)
    t = bbox([-1, -1, -0.1], [1, 1, 0], world=world, t=[0, 0, 1], R=so3.identity())
    assert isinstance(t, klampt.TerrainModel) and t.getName() == 'box'
    assert_close(t.geometry().getBBTight(), [[-1, -1, 0.9], [1, 1, 1]], atol=1e-12)
    assert world.numRigidObjects() == 2 and world.numTerrains() == 1


def test_moving_base_robot_round_trip():
    require_shared_data()
    world = klampt.WorldModel()
    robot = moving_base_robot.make(os.path.join(SHARED_DATA, 'robots', 'pr2gripper.rob'), world)
    assert robot.getName() == 'moving-base[pr2gripper]'
    assert [robot.link(i).getName() for i in range(6)] == ['tx', 'ty', 'tz', 'rz', 'ry', 'rx']
    gripper = klampt.WorldModel()
    gripper.loadElement(os.path.join(SHARED_DATA, 'robots', 'pr2gripper.rob'))
    assert robot.numLinks() == 6 + gripper.robot(0).numLinks()
    rng = random.Random(1)
    for _ in range(5):
        R = so3.from_rpy([rng.uniform(-1, 1) for _ in range(3)])
        t = [rng.uniform(-1, 1) for _ in range(3)]
        moving_base_robot.set_xform(robot, R, t)
        Rb, tb = moving_base_robot.get_xform(robot)
        assert_close(Rb, R, atol=1e-9)
        assert_close(tb, t, atol=1e-12)
        # the mounted gripper's root follows the base
        assert_close(robot.link(6).getTransform()[1], se3.apply((Rb, tb), gripper.robot(0).link(0).getTransform()[1]),
                     atol=1e-9)
    total_mass = sum(robot.link(i).getMass().mass for i in range(robot.numLinks()))
    assert_close(robot.getTorqueLimits()[:3], [5 * 9.8 * total_mass] * 3, rtol=1e-12)


def test_planar_robot_kinematics():
    world = klampt.WorldModel()
    robot = planar_robot.make(4, world, link_length=0.5)
    assert robot.getName() == 'Planar 4R' and robot.numLinks() == 4
    q = [0.3, -0.5, 1.1, 0.2]
    robot.setConfig(q)
    # rotations about y: x_{k+1} = x_k + L (cos a, 0, -sin a), a = q_0 + ... + q_k
    x, angle = [0.0, 0.0, 0.0], 0.0
    for i in range(4):
        assert_close(robot.link(i).getTransform()[1], x, atol=1e-12)
        angle += q[i]
        x = [x[0] + 0.5 * math.cos(angle), 0.0, x[2] - 0.5 * math.sin(angle)]
    assert_close(robot.link(3).getWorldPosition([0.5, 0, 0]), x, atol=1e-12)
    lo, hi = robot.getJointLimits()
    assert_close(lo, [0] * 4)
    assert_close(hi, [6.28319] * 4)
    assert all(robot.link(i).getMass().mass == 1 for i in range(4))
    robot.setConfig([0] * 4)
    assert_close(robot.link(0).geometry().getBBTight(), [[0, -0.025, -0.025], [0.5, 0.025, 0.025]], atol=1e-12)


def test_object_arrangement_is_collision_free():
    random.seed(0)
    world = klampt.WorldModel()
    floor = bbox([-0.5, -0.5, -0.1], [0.5, 0.5, 0.0], world=world, name='tray')
    objects = [box(0.1, 0.15, 0.05, world=world, mass=1.0, name='b%d' % i) for i in range(6)]
    assert pile.make_object_arrangement(world, floor, objects) is world
    geoms = [o.geometry() for o in objects]
    assert list(collide.self_collision_iter(geoms)) == []
    for o in objects:
        bmin, bmax = o.geometry().getBBTight()
        assert bmin[0] >= -0.49 - 1e-9 and bmax[0] <= 0.49 + 1e-9
        assert bmin[1] >= -0.49 - 1e-9 and bmax[1] <= 0.49 + 1e-9
        assert bmin[2] > -0.1 and bmin[2] < 0.0


def test_arrangement_failure_without_room():
    random.seed(1)
    world = klampt.WorldModel()
    floor = bbox([-0.1, -0.1, -0.1], [0.1, 0.1, 0.0], world=world, name='tray')
    objects = [box(0.12, 0.12, 0.05, world=world, mass=1.0, name='b%d' % i) for i in range(3)]
    assert pile.make_object_arrangement(world, floor, objects, max_iterations=20) is None
    kept = pile.make_object_arrangement(world, floor, objects, max_iterations=20, remove_failures=True)
    assert kept is world and 1 <= world.numRigidObjects() < 3
