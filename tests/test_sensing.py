"""klampt.model.sensing with camera and laser sensors given as duck-typed
objects (the settings and measurement layout of SimRobotSensor): image
formats, back-projection / projection round trips, intrinsics and viewport
round trips, visibility, occlusion and laser scans. Also the GLViewport
helper and klampt.Viewport."""
import math

import numpy as np
import pytest

import klampt
from klampt.math import se3, so3, vectorops
from klampt.model import sensing
from klampt._viewport import GLViewport
from klampt.model.create import primitives

from conftest import assert_close


class FakeSensor:
    """The SimRobotSensor interface over a dict of settings and a list of
    measurements; the link transform is given explicitly."""

    def __init__(self, type, settings, measurements=(), link_transform=None):
        self._type = type
        self.settings = {k: str(v) for k, v in settings.items()}
        self.measurements = list(measurements)
        self.T = se3.identity()
        self.link_transform = link_transform or se3.identity()
        self.link = None

    def type(self):
        return self._type

    def getSetting(self, name):
        return self.settings[name]

    def setSetting(self, name, value):
        self.settings[name] = str(value)

    def getMeasurements(self):
        return list(self.measurements)

    def getTransform(self):
        return self.T

    def getTransformWorld(self):
        return se3.mul(self.link_transform, self.T)

    def setTransform(self, R, t):
        self.T = (list(R), list(t))

    def setLink(self, link):
        self.link = link


def make_camera(w=8, h=6, xfov=1.0, rgb=True, depth=True, zmin=0.1, zmax=10.0, rgb_image=None, depth_image=None):
    yfov = 2 * math.atan(math.tan(xfov / 2) * h / w)
    measurements = []
    if rgb:
        measurements += list(np.asarray(rgb_image, dtype=float).ravel())
    if depth:
        measurements += list(np.asarray(depth_image, dtype=float).ravel())
    return FakeSensor('CameraSensor', dict(xres=w, yres=h, xfov=xfov, yfov=yfov, zmin=zmin, zmax=zmax,
                                           rgb=int(rgb), depth=int(depth), link=0), measurements)


def test_camera_to_images_formats():
    rng = np.random.default_rng(0)
    r, g, b = (rng.integers(0, 256, size=(6, 8)) for _ in range(3))
    packed = (r << 16) | (g << 8) | b
    depth = rng.uniform(1, 5, size=(6, 8))
    cam = make_camera(rgb_image=packed, depth_image=depth)
    rgb, d = sensing.camera_to_images(cam)
    assert rgb.shape == (6, 8, 3) and rgb.dtype == np.uint8
    assert (rgb[:, :, 0] == r).all() and (rgb[:, :, 1] == g).all() and (rgb[:, :, 2] == b).all()
    assert_close(d, depth)
    packed_out, _ = sensing.camera_to_images(cam, color_format='rgb')
    assert (packed_out == packed).all()
    bgr, _ = sensing.camera_to_images(cam, color_format='bgr')
    assert (bgr == ((b << 16) | (g << 8) | r)).all()
    only_depth = make_camera(rgb=False, depth_image=depth)
    assert_close(sensing.camera_to_images(only_depth), depth)
    with pytest.raises(ValueError):
        sensing.camera_to_images(FakeSensor('LaserRangeSensor', {}))


def test_image_to_points_back_projection():
    w, h, xfov = 8, 6, 1.2
    depth = np.full((h, w), 2.0)
    depth[0, 0] = 0.0
    pts = sensing.image_to_points(depth, None, xfov)
    assert pts.shape == (w * h - 1, 3)
    f = 0.5 * w / math.tan(0.5 * xfov)
    expected = [[(i - w / 2) / f * 2.0, (j - h / 2) / f * 2.0, 2.0] for j in range(h) for i in range(w)][1:]
    assert_close(pts, expected, atol=1e-12)
    allpts = sensing.image_to_points(depth, None, xfov, all_points=True)
    assert allpts.shape == (w * h, 3) and (allpts[0] == 0).all()
    # vertical field of view: fy from yfov
    yfov = 0.8
    fy = 0.5 * h / math.tan(0.5 * yfov)
    pts = sensing.image_to_points(depth, None, xfov, yfov=yfov, all_points=True)
    assert_close(pts[w * 3 + 5], [(5 - w / 2) / f * 2, (3 - h / 2) / fy * 2, 2], atol=1e-12)
    # scale and range
    pts = sensing.image_to_points(depth * 1000, None, xfov, depth_scale=0.001, depth_range=(0.5, 1.5))
    assert len(pts) == 0
    pts = sensing.image_to_points(depth * 1000, None, xfov, depth_scale=0.001, depth_range=(0.5, 2.5))
    assert len(pts) == w * h - 1 and np.allclose(pts[:, 2], 2.0)


def test_image_to_points_colors_and_formats():
    w, h = 4, 3
    depth = np.ones((h, w))
    channels = np.arange(w * h * 3, dtype=np.uint8).reshape(h, w, 3)
    pts = sensing.image_to_points(depth, channels, 1.0)
    assert pts.shape == (12, 6)
    assert_close(pts[:, 3:], channels.reshape(-1, 3) / 255.0)
    packed = np.arange(w * h).reshape(h, w) * 1000
    pts = sensing.image_to_points(depth, packed, 1.0)
    assert pts.shape == (12, 4) and (pts[:, 3] == packed.ravel()).all()
    pc = sensing.image_to_points(depth, channels, 1.0, points_format='PointCloud', all_points=True)
    assert isinstance(pc, klampt.PointCloud) and pc.numPoints() == 12
    assert list(pc.propertyNames) == ['r', 'g', 'b']
    assert pc.getSetting('width') == '4' and pc.getSetting('height') == '3'
    g = sensing.image_to_points(depth, packed, 1.0, points_format='Geometry3D')
    assert g.type() == 'PointCloud' and list(g.getPointCloud().propertyNames) == ['rgb']
    mesh = sensing.image_to_points(depth, None, 1.0, points_format='TriangleMesh', all_points=True)
    assert len(mesh.getIndices()) == 2 * (w - 1) * (h - 1)
    # every grid triangle has a consistent winding (normals along -z here)
    normals = np.cross(*(mesh.getVertices()[mesh.getIndices()[:, k]] - mesh.getVertices()[mesh.getIndices()[:, 0]]
                         for k in (1, 2)))
    assert (normals[:, 2] > 0).all() or (normals[:, 2] < 0).all()
    mesh, app = sensing.image_to_points(depth, channels, 1.0, points_format='TriangleMesh', all_points=True)
    assert isinstance(app, klampt.Appearance)
    with pytest.raises(ValueError):
        sensing.image_to_points(depth, np.zeros((2, 2, 3)), 1.0)


def placed_camera(w=64, h=48, xfov=1.1, T=None):
    cam = make_camera(w, h, xfov, rgb=False, depth_image=np.ones((h, w)))
    cam.link_transform = (so3.from_rpy([0.3, -0.2, 1.0]), [0.5, -1.0, 2.0])
    cam.T = T or (so3.from_rpy([0.1, 0.4, -0.3]), [0.0, 0.1, 0.2])
    return cam


def test_projection_and_back_projection_agree():
    cam = placed_camera()
    w, h = 64, 48
    rng = np.random.default_rng(3)
    depth = rng.uniform(0.5, 5.0, size=(h, w))
    cam.measurements = list(depth.ravel())
    world = sensing.camera_to_points_world(cam, robot=object())
    assert world.shape == (w * h, 3)
    Tw = cam.getTransformWorld()
    for k in rng.choice(w * h, 25, replace=False):
        i, j = k % w, k // w
        x, y, z = sensing.camera_project(cam, object(), world[k])
        assert (x, y) == pytest.approx((i, j), abs=1e-8)
        assert z == pytest.approx(depth[j, i], abs=1e-9)
        # the ray through the pixel passes through the point
        s, d = sensing.camera_ray(cam, object(), i, j)
        assert_close(s, Tw[1], atol=1e-12)
        along = vectorops.dot(vectorops.sub(world[k], s), d)
        assert_close(vectorops.madd(s, d, along), world[k], atol=1e-9)
    # local points are the world points seen from the sensor frame
    local = sensing.camera_to_points(cam)
    assert_close(local @ np.array(so3.ndarray(Tw[0])).T + Tw[1], world, atol=1e-9)
    # pixels at zmax are dropped
    depth[0, :] = 10.0
    cam.measurements = list(depth.ravel())
    assert len(sensing.camera_to_points(cam)) == w * h - w
    assert len(sensing.camera_to_points(cam, all_points=True)) == w * h
    assert sensing.camera_project(cam, object(), se3.apply(Tw, [0, 0, -1])) is None
    assert sensing.camera_project(cam, object(), se3.apply(Tw, [0, 0, 20])) is None


def test_camera_to_points_colored_point_cloud():
    w, h = 5, 4
    packed = np.full((h, w), (10 << 16) | (20 << 8) | 30)
    cam = make_camera(w, h, rgb_image=packed, depth_image=np.full((h, w), 3.0))
    pc = sensing.camera_to_points(cam, points_format='PointCloud')
    assert pc.numPoints() == 20 and list(pc.propertyNames) == ['r', 'g', 'b']
    assert_close(pc.getProperties(0), np.full(20, 10 / 255.0))
    pts = sensing.camera_to_points(cam, color_format='rgb')
    assert pts.shape == (20, 4) and (pts[:, 3] == packed.ravel()).all()
    pts = sensing.camera_to_points(cam, color_format=None)
    assert pts.shape == (20, 3)


def test_viewport_round_trip():
    cam = placed_camera()
    view = sensing.camera_to_viewport(cam, object())
    assert (view.w, view.h) == (64, 48)
    assert view.fov == pytest.approx(math.degrees(1.1))
    assert view.clippingplanes == (0.1, 10.0)
    R, t = view.get_transform()
    Tw = cam.getTransformWorld()
    assert_close(R, Tw[0], atol=1e-9)
    assert_close(t, Tw[1], atol=1e-9)
    other = make_camera(10, 10, 0.3, rgb=False, depth_image=np.ones((10, 10)))
    other.link_transform = cam.link_transform

    class Robot:
        def link(self, i):
            class L:
                def getTransform(_):
                    return cam.link_transform
            return L()

    sensing.viewport_to_camera(view, other, Robot())
    assert other.getSetting('xres') == '64' and other.getSetting('yres') == '48'
    assert float(other.getSetting('xfov')) == pytest.approx(1.1)
    assert float(other.getSetting('yfov')) == pytest.approx(2 * math.atan(math.tan(0.55) * 48 / 64))
    assert_close(other.T[0], cam.T[0], atol=1e-9)
    assert_close(other.T[1], cam.T[1], atol=1e-9)


def test_intrinsics_round_trip(tmp_path):
    cam = make_camera(640, 480, 1.0, rgb=False, depth_image=np.ones((480, 640)))
    K, dist = sensing.camera_to_intrinsics(cam)
    fx = 320 / math.tan(0.5)
    assert_close(K, [[fx, 0, 320], [0, K[1, 1], 240], [0, 0, 1]])
    assert K[1, 1] == pytest.approx(240 / math.tan(float(cam.getSetting('yfov')) / 2))
    assert_close(dist, np.zeros(5))
    data = sensing.camera_to_intrinsics(cam, 'json', fn=str(tmp_path / 'k.json'))
    assert data['cx'] == 320 and data['cy'] == 240
    other = make_camera(10, 10, 0.3, rgb=False, depth_image=np.ones((10, 10)))
    sensing.intrinsics_to_camera(str(tmp_path / 'k.json'), other, 'json')
    assert other.getSetting('xres') == '640' and float(other.getSetting('xfov')) == pytest.approx(1.0)
    sensing.camera_to_intrinsics(cam, 'numpy', fn=str(tmp_path / 'k.npy'))
    other = make_camera(10, 10, 0.3, rgb=False, depth_image=np.ones((10, 10)))
    sensing.intrinsics_to_camera(str(tmp_path / 'k.npy'), other, 'numpy')
    assert float(other.getSetting('yfov')) == pytest.approx(float(cam.getSetting('yfov')))
    other = make_camera(10, 10, 0.3, rgb=False, depth_image=np.ones((10, 10)))
    sensing.intrinsics_to_camera((K, dist), other)
    assert other.getSetting('yres') == '480'
    for fn in ('k.yml', 'k.xml'):
        sensing.camera_to_intrinsics(cam, 'opencv', fn=str(tmp_path / fn))
        assert '640' in (tmp_path / fn).read_text()


def front_view():
    view = GLViewport()
    view.w, view.h = 200, 100
    view.fov = 60.0
    view.clippingplanes = (0.1, 20.0)
    view.set_transform((so3.identity(), [0, 0, 0]))  # looking along +z, y down
    return view


def test_visible_points_spheres_boxes():
    view = front_view()
    assert sensing.visible(view, [0, 0, 5])
    assert not sensing.visible(view, [0, 0, -5])
    assert not sensing.visible(view, [0, 0, 30])
    half_width = math.tan(math.radians(30))  # at depth 1
    assert sensing.visible(view, [0.9 * half_width * 5, 0, 5])
    assert not sensing.visible(view, [1.1 * half_width * 5, 0, 5])
    assert sensing.visible(view, ([0, 0, 5], 0.5))
    assert not sensing.visible(view, ([half_width * 5, 0, 5], 0.5))
    assert sensing.visible(view, ([half_width * 5, 0, 5], 0.5), full=False)
    assert not sensing.visible(view, ([0, 0, -5], 1.0), full=False)
    assert sensing.visible(view, ([0, 0, 0.5], 1.0), full=False)
    assert sensing.visible(view, ([-0.5, -0.2, 4], [0.5, 0.2, 5]))
    assert not sensing.visible(view, ([-5, -0.2, 4], [5, 0.2, 5]))
    assert sensing.visible(view, ([-5, -0.2, 4], [5, 0.2, 5]), full=False)
    assert not sensing.visible(view, ([10, 10, 4], [11, 11, 5]), full=False)
    g = primitives.box(0.2, 0.2, 0.2, R=so3.identity(), t=[0, 0, 3])
    assert sensing.visible(view, g)
    world = klampt.WorldModel()
    obj = primitives.box(0.2, 0.2, 0.2, world=world, mass=1.0)
    obj.setTransform(so3.identity(), [0, 0, -3])
    assert not sensing.visible(view, obj)


def test_occlusion_and_visible_fraction():
    wall = primitives.box(2, 2, 0.1, R=so3.identity(), t=[0, 0, 2])
    # (segments cross the wall away from its triangles' shared edges)
    assert sensing.occluded([0, 0, 0], [0.3, 0.1, 5], [wall])
    assert not sensing.occluded([0, 0, 0], [0.3, 0.1, 1.5], [wall])
    assert not sensing.occluded([0, 0, 0], [3, 0.1, 5], [wall])
    assert not sensing.occluded([0, 0, 0], [0.3, 0.1, 5], [])
    world = klampt.WorldModel()
    t = world.makeTerrain('wall')
    t.geometry().set(wall)
    assert sensing.occluded([0, 0, 0], [0.3, 0.1, 5], world)

    np.random.seed(0)
    view = front_view()
    target = primitives.sphere(0.3, type='GeometricPrimitive', R=so3.identity(), t=[0, 0, 5])
    assert sensing.visible_fraction(view, target, 50) == 1.0
    assert sensing.visible_fraction(view, target, 50, occluders=[wall]) == 0.0
    half = primitives.box(2, 2, 0.1, R=so3.identity(), t=[1.0, 0, 2])
    frac = sensing.visible_fraction(view, target, 400, occluders=[half])
    assert 0.3 < frac < 0.7
    # samples face the camera
    pts = sensing.sample_visible_surface([0, 0, 0], target, 40)
    assert len(pts) == 40 and all(p[2] < 5 for p in pts)


def test_laser_to_points():
    ranges = [1.0, 2.0, 3.0, 2.0, 1.0]
    laser = FakeSensor('LaserRangeSensor', dict(xSweepMagnitude=math.pi / 4, ySweepMagnitude=0, xSweepType=2,
                                                 ySweepType=1, link=0), ranges)
    laser.T = (so3.identity(), [0, 0, 1])
    pc = sensing.laser_to_points(laser)
    pts = pc.getPoints()
    assert pts.shape == (5, 3)
    # the sawtooth sweep (type 2) goes linearly from -45 to +45 degrees about the sensor y axis
    angles = np.linspace(-math.pi / 4, math.pi / 4, 5)
    expected = np.column_stack([np.sin(angles) * ranges, np.zeros(5), np.cos(angles) * ranges + 1])
    assert_close(pts, expected, atol=1e-12)
    laser.link_transform = (so3.rotation([0, 0, 1], math.pi / 2), [1, 0, 0])
    world_pts = sensing.laser_to_points(laser, robot=object(), scan=[2.0] * 5).getPoints()
    assert_close(np.linalg.norm(world_pts - [1, 0, 1], axis=1), np.full(5, 2.0), atol=1e-12)


def test_sensor_xform_helpers():
    cam = placed_camera()
    assert sensing.get_sensor_xform(cam) == cam.T
    assert_close(sensing.get_sensor_xform(cam, object())[1], cam.getTransformWorld()[1])
    T = (so3.rotation([1, 0, 0], 0.3), [1, 2, 3])
    sensing.set_sensor_xform(cam, T, link=4)
    assert_close(cam.T[0], T[0])
    assert cam.link == 4


def test_projection_map_texture_runs():
    app = klampt.Appearance()
    sensing.projection_map_texture(front_view(), app)


def test_glviewport_file_round_trip(tmp_path):
    view = front_view()
    view.set_transform((so3.from_rpy([0.2, 0.3, 0.4]), [1, 2, 3]))
    view.camera.dist = 2.5
    view.save_file(str(tmp_path / 'v.txt'))
    other = GLViewport()
    other.w, other.h = view.w, view.h
    other.load_file(str(tmp_path / 'v.txt'))
    assert other.fov == pytest.approx(view.fov)
    assert other.clippingplanes == pytest.approx(view.clippingplanes)
    for a, b in zip(other.get_transform(), view.get_transform()):
        assert_close(a, b, atol=1e-9)
    with pytest.raises(RuntimeError):
        view.drawGL()
    vp = view.to_viewport()
    assert isinstance(vp, klampt.Viewport)
    R, t = vp.getRigidTransform()
    assert_close(t, view.get_transform('openGL')[1])
    # scale is the focal length in units of the view width
    assert vp.scale == pytest.approx(1 / (2 * math.tan(math.radians(view.fov) / 2)))


def _sim_sensor_robot():
    """A world with a floor at z = 0 and a robot far away to carry sensors
    (skips if this build has no SimRobotSensor yet)."""
    if not hasattr(klampt, 'SimRobotSensor'):
        pytest.skip("this build has no SimRobotSensor")
    from conftest import SHARED_DATA, require_shared_data
    import os
    require_shared_data()
    world = klampt.WorldModel()
    floor = world.makeTerrain('floor')
    floor.geometry().set(primitives.box(20, 20, 0.1, center=[0, 0, -0.05]))
    robot = world.loadRobot(os.path.join(SHARED_DATA, 'robots', 'tx90l.rob'))
    robot.link(0).setParentTransform(so3.identity(), [0, 0, -50])
    robot.setConfig([0] * robot.numLinks())
    return world, robot


def test_real_camera_points_lie_on_the_floor_and_project_back():
    world, robot = _sim_sensor_robot()
    cam = robot.addSensor('cam', 'CameraSensor')
    for key, value in [('link', '-1'), ('xres', '16'), ('yres', '12'), ('xfov', '1.0'), ('zmax', '10')]:
        cam.setSetting(key, value)
    # looking down at the floor from 2 m, tilted about the camera's x axis
    R = so3.mul([1, 0, 0, 0, -1, 0, 0, 0, -1], so3.rotation([1, 0, 0], 0.3))
    cam.setTransform(R, [0.5, 0.2, 2.0])
    cam.kinematicSimulate(world, 0.01)
    pts = sensing.camera_to_points_world(cam, robot)
    assert pts.shape == (16 * 12, 6)
    assert_close(pts[:, 2], np.zeros(len(pts)), atol=1e-6)
    for k in (0, 7, 100, 191):
        x, y, z = sensing.camera_project(cam, robot, pts[k, :3])
        assert (x, y) == pytest.approx((k % 16, k // 16), abs=1e-6)
    rgb, depth = sensing.camera_to_images(cam)
    assert rgb.shape == (12, 16, 3) and depth.shape == (12, 16)


def test_real_laser_points_lie_on_the_walls():
    world, robot = _sim_sensor_robot()
    room = world.makeTerrain('room')
    room.geometry().set(primitives.box(2, 4, 3, center=[0, 0, 5]))
    laser = robot.addSensor('laser', 'LaserRangeSensor')
    for key, value in [('link', '-1'), ('measurementCount', '61'), ('depthMinimum', '0.05'), ('depthMaximum', '10'),
                       ('xSweepMagnitude', '1.2')]:
        laser.setSetting(key, value)
    laser.setTransform(so3.rotation([0, 0, 1], 0.4), [0, 0, 5])
    laser.kinematicSimulate(world, 0.01)
    pts = sensing.laser_to_points(laser, robot).getPoints()
    assert pts.shape == (61, 3)
    # every hit lies on a face of the room [-1, 1] x [-2, 2] x [3.5, 6.5]
    on_face = (np.isclose(np.abs(pts[:, 0]), 1, atol=1e-6) | np.isclose(np.abs(pts[:, 1]), 2, atol=1e-6)
               | np.isclose(pts[:, 2], 3.5, atol=1e-6) | np.isclose(pts[:, 2], 6.5, atol=1e-6))
    assert on_face.all()
