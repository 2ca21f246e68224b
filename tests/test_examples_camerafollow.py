"""Klampt-examples' demos/vis/camerafollow.py without its window: the
viewport edited through ``controller`` (Klamp't 0.10) or ``camera``
(0.9.2), then the camera following a looped SE3 circle trajectory, an
orientation trajectory, the robot's camera sensor and the robot's last link,
one menu entry at a time, checked on rendered frames."""
import math
import os

import numpy as np
import pytest

from conftest import SHARED_DATA, require_shared_data

from klampt import Simulator, WorldModel, vis
from klampt.math import se3, so3, vectorops
from klampt.model import sensing
from klampt.model.trajectory import SE3HermiteTrajectory, SE3Trajectory, SO3Trajectory


@pytest.fixture
def scene():
    require_shared_data()
    w = WorldModel()
    assert w.loadFile(os.path.join(SHARED_DATA, 'simulation_test_worlds', 'sensortest.xml'))
    sim = Simulator(w)
    cam = sim.controller(0).sensor("rgbd_camera")
    vis.init('offscreen')
    vis.createWindow('examples_camerafollow')  # a fresh scene: windows outlive vis.kill()
    vis.add("world", w)
    vis.add("cam", cam)
    yield w, cam
    vis.kill()


def frame(image=False):
    img = vis.screenshot()
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 1
    return (vis.getViewport(), img) if image else vis.getViewport()


def sphere_direction(img, f):
    """The angles (right, down) of the orange sphere's centre from the
    optical axis of a centred camera with focal length f."""
    px = img.astype(int)
    orange = (px[:, :, 0] > 120) & (px[:, :, 1] > 70) & (px[:, :, 1] < 190) & (px[:, :, 2] < 90) & \
        (px[:, :, 0] - px[:, :, 2] > 80)
    # the floor is orange-brown too: keep the rows that are mostly sky
    sky = np.abs(px - px[0, 0]).sum(axis=2) < 10
    orange &= (sky.mean(axis=1) > 0.5)[:, None]
    rows, cols = np.nonzero(orange)
    assert len(rows) > 30
    return (math.atan((cols.mean() + 0.5 - img.shape[1] / 2) / f),
            math.atan((rows.mean() + 0.5 - img.shape[0] / 2) / f))


def test_viewport_edit_and_trajectory_following(scene):
    w, cam = scene
    vp = vis.getViewport()
    assert vp.controller is vp.camera
    pitch = vp.camera.rot[1]
    vp.controller.rot[1] -= 0.5
    vis.setViewport(vp)
    assert vis.getViewport().camera.rot[1] == pytest.approx(pitch - 0.5)
    default = vis.getViewport().get_transform()
    npts = 50
    circle = [se3.mul((so3.rotation([0, 0, 1], math.radians(360 * i / npts)), [0, 0, 0]), default)
              for i in range(npts + 1)]
    circle_traj = SE3Trajectory([i * 20 / npts for i in range(npts + 1)], circle)
    circle_traj.milestones[-1] = circle_traj.milestones[0]
    smooth = SE3HermiteTrajectory()
    smooth.makeSpline(circle_traj, loop=True)
    vis.add("Camera smooth traj", smooth.discretize(0.1))
    vis.followCamera(circle_traj, True, True)
    for t in (0.0, 4.8, 27.6):  # milestones; 27.6 loops back to 7.6
        vis.animationTime(t)
        view = frame()
        expected = se3.mul((so3.rotation([0, 0, 1], math.radians(360 * (t % 20) / 20)), [0, 0, 0]), default)
        assert se3.distance(view.get_transform(), expected) < 1e-6
    # an orientation trajectory turns the camera in place
    vis.followCamera(SO3Trajectory([0, 1], [default[0], so3.mul(so3.rotation([0, 0, 1], 0.4), default[0])]))
    vis.animationTime(0.5)
    view = frame()
    assert so3.distance(view.get_transform()[0], so3.mul(so3.rotation([0, 0, 1], 0.2), default[0])) < 1e-6
    vis.followCamera(None)


def test_following_the_robot_camera_and_a_link(scene):
    w, cam = scene
    robot = w.robot(0)
    link = robot.link(robot.numLinks() - 1)
    q = robot.getConfig()
    q[3] = -1.6  # the camera on the wrist then sees the floor and the sphere
    robot.setConfig(q)
    vis.followCamera(cam)
    view, img = frame(image=True)
    assert se3.distance(view.get_transform(), cam.getTransformWorld()) < 1e-9
    # the frame shows what the camera sees: the sphere in the same direction
    cam.kinematicSimulate(w, 0.01)
    rgb, _ = sensing.camera_to_images(cam)
    fx_cam = rgb.shape[1] / (2 * math.tan(float(cam.getSetting('xfov')) / 2))
    assert sphere_direction(img, view.fx) == pytest.approx(sphere_direction(rgb, fx_cam), abs=0.01)
    # link, translate, center: the orbit target is the link's centre and moves with it
    vis.followCamera(("world", robot.getName(), link.getName()), True, False, True)
    before = frame()
    R0 = before.get_transform()[0]
    q[1] += 0.5
    robot.setConfig(q)
    after = frame()
    assert vectorops.distance(after.camera.tgt, link.getTransform()[1]) < 0.05
    assert so3.distance(after.get_transform()[0], R0) < 1e-9
    # link, full pose: the camera turns with the link
    vis.followCamera(("world", robot.getName(), link.getName()), True, True, True)
    frame()
    Rl0 = link.getTransform()[0]
    Rc0 = vis.getViewport().get_transform()[0]
    q[0] += 0.3
    robot.setConfig(q)
    Rc1 = frame().get_transform()[0]
    turn = so3.mul(link.getTransform()[0], so3.inv(Rl0))
    assert so3.distance(Rc1, so3.mul(turn, Rc0)) < 1e-6
    # stop following: the camera stays
    vis.followCamera(None)
    stay = vis.getViewport().get_transform()
    q[0] += 0.3
    robot.setConfig(q)
    assert se3.distance(frame().get_transform(), stay) < 1e-12
