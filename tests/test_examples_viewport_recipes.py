"""Klampt-examples' Recipes notebook's camera recipes, headless: setting the
view through Klamp't 0.10's GLViewport calls (resize, setFOV, controller,
save_file / load_file), and showing a calibrated camera's picture behind the
world (intrinsics fx, fy, cx, cy, an extrinsics matrix, a background image),
checked on renders."""
import math
import os

import numpy as np
import pytest

from conftest import REPO

from klampt import WorldModel, vis
from klampt.math import se3, so3

WORLD_FILE = os.path.join(REPO, 'data', 'worlds', 'arm_table.xml')


@pytest.fixture
def world():
    w = WorldModel()
    assert w.loadFile(WORLD_FILE)
    vis.init('offscreen')
    vis.createWindow('examples_viewport_recipes')  # a fresh scene: windows outlive vis.kill()
    yield w
    vis.kill()


def test_set_the_view_and_save_it(world, tmp_path):
    vis.add("world", world)
    vp = vis.getViewport()
    vp.resize(1024, 768)
    vp.setFOV(math.radians(90))
    vp.controller.tgt = [0, 0, 0.5]
    vp.controller.dist = 2.0
    vp.controller.rot[0] = 0
    vp.controller.rot[1] = -math.pi / 4
    vp.controller.rot[2] = math.radians(10)
    vis.setViewport(vp)
    img = vis.screenshot()
    assert img.shape == (768, 1024, 3)
    shown = vis.getViewport()
    assert shown.getFOV() == pytest.approx(math.pi / 2) and shown.fov == pytest.approx(90)
    # the orbit target is at the picture's centre, 2 m ahead
    assert shown.project([0, 0, 0.5]) == pytest.approx((512, 384, 2.0))
    # looking 45 degrees down
    forward = so3.apply(shown.get_transform()[0], [0, 0, 1])
    assert math.degrees(math.asin(-forward[2])) == pytest.approx(45)
    shown.save_file(str(tmp_path / 'saved_viewport.txt'))
    other = vis.getViewport()
    other.controller.dist = 7.0
    other.load_file(str(tmp_path / 'saved_viewport.txt'))
    assert se3.distance(other.get_transform(), shown.get_transform()) < 1e-9
    assert other.getFOV() == pytest.approx(math.pi / 2)


def test_calibrated_camera_over_its_image(world):
    h, w = 240, 320
    intrinsics = {'fx': 280.0, 'fy': 280.0, 'cx': 150.0, 'cy': 110.0}
    # the camera 2.5 m in front of the table looking back at it (z forward, y down)
    R = so3.from_matrix([[-1, 0, 0], [0, 0, -1], [0, -1, 0]])
    T = (so3.mul(so3.rotation([1, 0, 0], 0.0), R), [0.7, 2.5, 1.0])
    extrinsics = np.array(se3.ndarray(T))
    image = np.zeros((h, w, 3), dtype=np.uint8)
    image[:, :, 0] = np.arange(w)[None, :] * 255 // w   # a gradient "photo"
    image[:, :, 2] = np.arange(h)[:, None] * 255 // h
    vp = vis.getViewport()
    vp.w = w
    vp.h = h
    vp.fx = intrinsics['fx']
    vp.fy = intrinsics['fy']
    vp.cx = intrinsics['cx']
    vp.cy = intrinsics['cy']
    vp.set_transform(se3.from_ndarray(extrinsics))
    vis.setViewport(vp)
    vis.scene().setBackgroundImage(image)
    vis.add('world', world)
    vis.setColor(('world', world.rigidObject(0).getName()), 0, 1, 0)
    img = vis.screenshot().astype(int)
    assert img.shape == (h, w, 3)
    # the photo shows where nothing is drawn: the top corners are sky
    for r, c in ((2, 2), (2, w - 3)):
        assert np.abs(img[r, c] - image[r, c]).sum() < 12
    # the green object is drawn where the calibrated camera projects its centre
    green = (img[:, :, 1] > 150) & (img[:, :, 0] < 90) & (img[:, :, 2] < 90)
    rows, cols = np.nonzero(green)
    assert len(rows) > 20
    center = world.rigidObject(0).getTransform()[1]
    bb = world.rigidObject(0).geometry().getBBTight()
    u, v, _ = vp.project([(a + b) / 2 for a, b in zip(*bb)], clip=False)
    assert abs(cols.mean() + 0.5 - u) < 4 and abs(rows.mean() + 0.5 - v) < 4
    assert center is not None
