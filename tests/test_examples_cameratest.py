"""Klampt-examples' testing/sim/cameratest.py without its window: the shared
sensortest world's camera moved off the robot (link -1), simulated, and
every conversion the script makes (points in the sensor frame and in the
world, from the images by hand, numpy and mesh forms), in Klamp't 0.10's
call forms and 0.9.2's, checked against the world's geometry. (The script's
Heightmap form needs the Heightmap type and is not covered here.)"""
import math
import os

import numpy as np
import pytest

from conftest import SHARED_DATA, require_shared_data

from klampt import Geometry3D, Simulator, TriangleMesh, WorldModel
from klampt.math import se3, so3
from klampt.model import sensing


@pytest.fixture(scope='module')
def setup():
    require_shared_data()
    world = WorldModel()
    assert world.readFile(os.path.join(SHARED_DATA, 'simulation_test_worlds', 'sensortest.xml'))
    sim = Simulator(world)
    sensor = sim.controller(0).sensor("rgbd_camera")
    T = (so3.mul(so3.rotation([1, 0, 0], math.radians(-10)), [1, 0, 0, 0, 0, -1, 0, 1, 0]), [0, -2.0, 0.5])
    sensing.set_sensor_xform(sensor, T, link=-1)
    sim.simulate(0.01)
    sim.updateWorld()
    return world, sim, sensor, T


def world_distance(world, p):
    geoms = [world.terrain(i).geometry() for i in range(world.numTerrains())]
    geoms += [world.rigidObject(i).geometry() for i in range(world.numRigidObjects())]
    robot = world.robot(0)
    geoms += [robot.link(i).geometry() for i in range(robot.numLinks()) if not robot.link(i).geometry().empty()]
    return min(g.distance_point(p).d for g in geoms)


def test_points_lie_on_the_world(setup):
    world, sim, sensor, T = setup
    w, h = int(sensor.getSetting('xres')), int(sensor.getSetting('yres'))
    assert se3.distance(sensor.getTransformWorld(), T) < 1e-9
    pc = sensing.camera_to_points(sensor, points_format='Geometry3D', all_points=True, color_format='rgb')
    cloud = pc.getPointCloud()
    assert cloud.numPoints() == w * h and cloud.getSetting('width') == str(w)
    pc.setCurrentTransform(*sensor.getTransformWorld())
    local = np.asarray(cloud.getPoints())
    valid = np.abs(local).sum(axis=1) > 0
    assert 0.2 < valid.mean() < 1.0  # the floor fills the lower part, the sky has no points
    world_pts = [se3.apply(T, p) for p in local[valid][::97]]
    # within the depth resolution of the geometry
    assert max(world_distance(world, p) for p in world_pts) < 0.03
    # the robot in front of the camera is among what it sees, above the floor
    robot = world.robot(0)
    links = [robot.link(i).geometry() for i in range(robot.numLinks()) if not robot.link(i).geometry().empty()]
    on_robot = [p for p in world_pts if p[2] > 0.05 and min(g.distance_point(p).d for g in links) < 0.03]
    assert len(on_robot) >= 3


def test_manual_conversion_and_world_forms_agree(setup):
    world, sim, sensor, T = setup
    local = sensing.camera_to_points(sensor, points_format='numpy', all_points=True)
    rgb, depth = sensing.camera_to_images(sensor)
    rgb[:, :, 0] = 0  # the script's "weird coloration"
    manual = sensing.image_to_points(depth, rgb, xfov=float(sensor.getSetting('xfov')),
                                     yfov=float(sensor.getSetting('yfov')), points_format='Geometry3D',
                                     all_points=True)
    mpts = np.asarray(manual.getPointCloud().getPoints())
    valid = np.abs(local[:, :3]).sum(axis=1) > 0
    assert np.abs(mpts[valid] - local[valid, :3]).max() < 1e-5  # yfov is square pixels to 7 digits
    assert np.all(np.asarray(manual.getPointCloud().getProperties('r')) == 0)
    # Klamp't 0.10's intrinsics dict gives the same points
    fx = 0.5 * depth.shape[1] / math.tan(0.5 * float(sensor.getSetting('xfov')))
    fy = 0.5 * depth.shape[0] / math.tan(0.5 * float(sensor.getSetting('yfov')))
    by_intrinsics = sensing.image_to_points(depth, None, {'fx': fx, 'fy': fy, 'cx': depth.shape[1] / 2,
                                                          'cy': depth.shape[0] / 2}, all_points=True)
    assert np.abs(by_intrinsics[valid] - local[valid, :3]).max() < 1e-5
    shifted = sensing.image_to_points(depth, None, intrinsics={'fx': fx, 'fy': fy, 'cx': depth.shape[1] / 2 + 10,
                                                               'cy': depth.shape[0] / 2}, all_points=True)
    assert np.abs(shifted[valid, 0] - (by_intrinsics[valid, 0] - 10 / fx * local[valid, 2])).max() < 1e-9
    # world forms: 0.10 (no robot) and 0.9.2 (robot) calls, numpy and Geometry3D, agree with T * local
    expected = np.array([se3.apply(T, p) for p in local[valid, :3]])
    new = sensing.camera_to_points_world(sensor, 'numpy', 'rgb')
    old = sensing.camera_to_points_world(sensor, world.robot(0), 'numpy', 'rgb')
    assert new.shape == old.shape == (valid.sum(), 4)
    assert np.abs(new[:, :3] - expected).max() < 1e-9 and np.array_equal(new, old)
    g = sensing.camera_to_points_world(sensor, points_format='Geometry3D', color_format='rgb')
    gp = np.asarray(g.getPointCloud().getPoints())
    Tg = g.getCurrentTransform()
    assert np.abs(np.array([se3.apply(Tg, p) for p in gp]) - expected).max() < 1e-9
    mesh, app = sensing.camera_to_points(sensor, points_format='TriangleMesh', all_points=True)
    assert isinstance(mesh, TriangleMesh) and len(np.asarray(mesh.getVertices()).reshape(-1, 3)) == len(local)
    app.setSilhouette(0.0)
    Geometry3D(mesh)


def test_projection_and_rays_in_both_call_forms(setup):
    world, sim, sensor, T = setup
    w = int(sensor.getSetting('xres'))
    local = sensing.camera_to_points(sensor, points_format='numpy', all_points=True)
    robot = world.robot(0)
    for k in (w * 100 + 20, w * 120 + 200, w * 50 + 128):
        if not np.abs(local[k]).sum():
            continue
        p = se3.apply(T, local[k, :3])
        new, old = sensing.camera_project(sensor, p), sensing.camera_project(sensor, robot, p)
        assert new == pytest.approx(old)
        assert new[:2] == pytest.approx((k % w, k // w), abs=1e-6)
        s, d = sensing.camera_ray(sensor, k % w, k // w)
        assert (s, d) == sensing.camera_ray(sensor, robot, k % w, k // w)
        along = np.dot(np.subtract(p, s), d)
        assert np.linalg.norm(np.subtract(p, np.add(s, np.multiply(d, along)))) < 1e-9
    vp = sensing.camera_to_viewport(sensor)
    assert se3.distance(vp.get_transform(), T) < 1e-9
    assert se3.distance(sensing.camera_to_viewport(sensor, 'sensor').get_transform(), se3.identity()) < 1e-9
    ahead = se3.apply(T, [0, 0, 2.0])
    assert sensing.visible(sensor, ahead) and sensing.visible(sensor, ahead, True, robot)
    # beyond zmax a point is visible only when depth is not required (0.10's default)
    far = se3.apply(T, [0, 0, float(sensor.getSetting('zmax')) + 1])
    assert not sensing.visible(sensor, far) and sensing.visible(sensor, far, True, False)
