"""Camera output as a Heightmap (Klamp't 0.10's points_format='Heightmap') and
the camera's 0.10 intrinsics settings fx, fy, cx, cy: against the reference's
recording (data/make_camera_heightmap_reference.py) and against the point
cloud the same depth image back-projects to."""
import json
import math
import os

import numpy as np
import pytest

import klampt
from klampt.model import sensing
from conftest import load_shared_world

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "camera_heightmap_reference.json")) as _f:
    REF = json.load(_f)


def posed_camera():
    """sensortest.xml's camera as the recording placed it, with a fresh image."""
    world = load_shared_world("simulation_test_worlds/sensortest.xml")
    sim = klampt.Simulator(world)
    cam = sim.controller(0).sensor("rgbd_camera")
    yfov = 2 * math.atan(math.tan(0.5 * REF["xfov"]) * REF["yres"] / REF["xres"])
    for key, value in [("link", "-1"), ("Tsensor", REF["pose"]), ("xres", str(REF["xres"])),
                       ("yres", str(REF["yres"])), ("xfov", str(REF["xfov"])), ("yfov", repr(yfov)),
                       ("zresolution", "0"), ("zvarianceLinear", "0"), ("zvarianceConstant", "0")]:
        cam.setSetting(key, value)
    sim.simulate(0.01)
    return cam


def test_intrinsics_settings_are_views_of_the_fields_of_view():
    cam = posed_camera()
    for key, value in REF["settings"].items():
        assert float(cam.getSetting(key)) == pytest.approx(value, rel=1e-5), key
    # Setting the focal length sets the field of view it is a view of.
    cam.setSetting("fx", "32")
    # (settings are text with 6 significant digits)
    assert float(cam.getSetting("xfov")) == pytest.approx(2 * math.atan(32 / 32.0), rel=1e-5)
    assert float(cam.getSetting("fx")) == pytest.approx(32.0, rel=1e-5)
    # Principal points off the image centre are refused, not ignored; the centre is accepted.
    cam.setSetting("cx", "32")
    cam.setSetting("cx", "31.5")  # the (w - 1) / 2 convention for the centre
    with pytest.raises(RuntimeError, match="centre"):
        cam.setSetting("cx", "10")
    with pytest.raises(RuntimeError, match="positive"):
        cam.setSetting("fy", "-3")
    # The views are not listed, so a saved sensor holds each quantity once.
    assert not {"fx", "fy", "cx", "cy"} & set(cam.settings())


def test_camera_heightmap_matches_the_reference():
    hm = sensing.camera_to_points(posed_camera(), "Heightmap")
    vp = hm.viewport
    for key, value in REF["viewport"].items():
        assert getattr(vp, key) == pytest.approx(value, rel=1e-6), key
    ours = np.asarray(hm.getHeightImage(), dtype=float)
    ref = np.asarray(REF["height_image"])
    assert ours.shape == ref.shape
    # The robot (nearer than the floor at 3 m) covers the same pixels but at
    # silhouette edges, where a rasterizer and a ray caster may differ by one pixel.
    robot_ours, robot_ref = ours < 2.95, ref < 2.95
    assert robot_ref.sum() > 20
    assert abs(int(robot_ours.sum()) - int(robot_ref.sum())) <= 0.25 * robot_ref.sum()
    close = np.abs(ours - ref) < 0.01
    assert close.mean() > 0.97
    assert hm.hasColors() == REF["has_colors"]
    bb = klampt.Geometry3D(hm).getBB()
    np.testing.assert_allclose(bb[0], REF["bb"][0], atol=0.05)
    np.testing.assert_allclose(bb[1], REF["bb"][1], atol=0.05)


def heightmap_pixel_points(depth, fx, fy, cx, cy):
    """The points a perspective heightmap defines for a depth image: pixel
    (i, j) at its centre, ((i + 0.5 - cx) / fx, (j + 0.5 - cy) / fy) times the
    depth, in the heightmap's (i, j) order; pixels without depth left out."""
    h, w = depth.shape
    pts = [[(i + 0.5 - cx) / fx * depth[j, i], (j + 0.5 - cy) / fy * depth[j, i], depth[j, i]]
           for i in range(w) for j in range(h) if depth[j, i] > 0]
    return np.array(pts)


def test_heightmap_points_are_the_depth_image_pixels():
    cam = posed_camera()
    hm = sensing.camera_to_points(cam, "Heightmap")
    _, depth = sensing.camera_to_images(cam)
    vp = hm.viewport
    from_hm = klampt.Geometry3D(hm).convert("PointCloud").getPointCloud().points
    np.testing.assert_allclose(from_hm, heightmap_pixel_points(np.asarray(depth), vp.fx, vp.fy, vp.cx, vp.cy),
                               atol=1e-5)
    # Colours ride along: the heightmap's colours are the camera's image.
    rgb, _ = sensing.camera_to_images(cam)
    np.testing.assert_array_equal(np.asarray(hm.getColorImage())[:, :, :3], rgb)


def test_image_to_points_heightmap_with_intrinsics_and_fields_of_view():
    depth = np.full((6, 8), 2.0)
    depth[2:4, 3:5] = 1.0
    depth[0, 0] = 0.0
    by_fov = sensing.image_to_points(depth, None, xfov=1.0, points_format="Heightmap")
    assert by_fov.viewport.fx == pytest.approx(4.0 / math.tan(0.5))
    intr = {"fx": 5.0, "fy": 6.0, "cx": 4.0, "cy": 3.0}
    hm = sensing.image_to_points(depth, None, intrinsics=intr, points_format="Heightmap")
    vp = hm.viewport
    assert (vp.fx, vp.fy, vp.cx, vp.cy, vp.w, vp.h) == (5.0, 6.0, 4.0, 3.0, 8, 6)
    np.testing.assert_allclose(hm.getHeightImage(), depth)
    pts = klampt.Geometry3D(hm).convert("PointCloud").getPointCloud().points
    np.testing.assert_allclose(pts, heightmap_pixel_points(depth, 5.0, 6.0, 4.0, 3.0), atol=1e-6)
    # Depths outside depth_range are missing samples (0 in a depth map).
    ranged = sensing.image_to_points(depth, None, intrinsics=intr, depth_range=(1.5, 3.0), points_format="Heightmap")
    assert (np.asarray(ranged.getHeightImage()) == np.where((depth > 1.5) & (depth < 3.0), depth, 0.0)).all()
