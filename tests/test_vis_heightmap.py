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
    return (img[:, :, 0] > 120) & (img[:, :, 1] < 70) & (img[:, :, 2] < 70)


def is_blue(img):
    return (img[:, :, 2] > 120) & (img[:, :, 0] < 70) & (img[:, :, 1] < 70)


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
