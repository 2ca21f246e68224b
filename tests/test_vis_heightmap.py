"""Heightmaps and occupancy grids in klampt.vis: drawn through their meshes,
a heightmap with its own colours, an occupancy grid as its occupied cells.
Checked on offscreen renders (pixels of a known colour where the shape is)."""
import numpy as np

import klampt
from klampt import vis
from conftest import require_offscreen


def split_color_map():
    """A 40 x 40 elevation map over 2 x 2 m, red on its -x half and blue on its +x half."""
    hm = klampt.Heightmap()
    hm.resize(40, 40)
    hm.setSize(2.0, 2.0)
    i, j = np.meshgrid(np.arange(40), np.arange(40), indexing="ij")
    hm.heights[:] = 0.05 * np.sin(i / 5.0) * np.cos(j / 6.0)
    image = np.zeros((40, 40, 3), dtype=np.uint8)
    image[:, :20] = [230, 20, 20]
    image[:, 20:] = [20, 20, 230]
    hm.setColorImage_b(image)
    return hm


def render(items):
    vis.init("offscreen")
    vis.createWindow("heightmap")  # a fresh scene: windows outlive vis.kill()
    try:
        for name, geom, color in items:
            vis.add(name, geom)
            if color is not None:
                vis.setColor(name, *color)
        vp = vis.getViewport()
        vp.w, vp.h = 320, 240
        vis.setViewport(vp)
        vis.autoFitCamera()
        return np.asarray(vis.screenshot())
    finally:
        vis.clear()
        vis.kill()


def is_red(img):
    """Lit red: red well above the other two channels (shading darkens it)."""
    r, g, b = (img[:, :, k].astype(int) for k in range(3))
    return (r > 60) & (r > 2 * g) & (r > 2 * b)


def is_blue(img):
    r, g, b = (img[:, :, k].astype(int) for k in range(3))
    return (b > 60) & (b > 2 * r) & (b > 2 * g)


def test_a_coloured_heightmap_shows_its_colours_where_they_are():
    require_offscreen()
    img = render([("terrain", klampt.Geometry3D(split_color_map()), None)])
    red, blue = is_red(img), is_blue(img)
    # Both halves are seen, large, and the red half lies left of the blue one
    # (the default camera looks along +y with +x to the right).
    assert red.mean() > 0.05 and blue.mean() > 0.05, (red.mean(), blue.mean())
    cols = np.arange(img.shape[1])
    assert (cols * red.sum(axis=0)).sum() / red.sum() < (cols * blue.sum(axis=0)).sum() / blue.sum()


def test_uncoloured_heightmaps_and_occupancy_grids_take_the_item_colour():
    require_offscreen()
    hm = split_color_map()
    hm.clearColors()
    ball = klampt.GeometricPrimitive()
    ball.setSphere([0, 0, 0], 0.4)
    occ = klampt.Geometry3D(ball).convert("OccupancyGrid", 0.1)
    occ.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [1.6, 0, 0.4])
    img = render([("terrain", klampt.Geometry3D(hm), (0.1, 0.8, 0.1)),
                  ("cells", occ, (0.9, 0.1, 0.1))])
    green = (img[:, :, 1] > 120) & (img[:, :, 0] < 80) & (img[:, :, 2] < 80)
    red = is_red(img)
    assert green.mean() > 0.05 and red.mean() > 0.01, (green.mean(), red.mean())
    # The grid stands to the right of the map.
    cols = np.arange(img.shape[1])
    assert (cols * red.sum(axis=0)).sum() / red.sum() > (cols * green.sum(axis=0)).sum() / green.sum()


def test_the_web_viewer_shows_a_heightmaps_colours(tmp_path):
    from klampt.vis._scene import VisualizationScene
    from klampt.vis._web.page import page
    from klampt.vis._web.serialize import SceneSerializer
    from klampt.vis.glviewport import GLViewport
    from test_vis_web import _browser_screenshot
    scene = VisualizationScene()
    view = GLViewport()
    # Looking down at the map from above its -y side (x to the right).
    view.camera.rot = [0.0, 0.7, 0.0]
    scene.setViewport(view)
    scene.add("terrain", klampt.Geometry3D(split_color_map()), hide_label=True)
    img = _browser_screenshot(tmp_path, page(SceneSerializer(scene).build(), width=640, height=480))
    red, blue = is_red(img), is_blue(img)
    assert red.mean() > 0.02 and blue.mean() > 0.02, (red.mean(), blue.mean())
    cols = np.arange(img.shape[1])
    assert (cols * red.sum(axis=0)).sum() / red.sum() < (cols * blue.sum(axis=0)).sum() / blue.sum()
