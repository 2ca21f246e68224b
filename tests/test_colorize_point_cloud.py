"""klampt.vis.colorize on point clouds converted from a robot link's mesh
(Klampt-examples' Recipes: ``colorize(pc, 'z')``, and 'p'): the cloud gets
a packed 'rgb' property following the feature, and renders in those
colours."""
import os

import numpy as np
import pytest

from conftest import REPO

from klampt import Geometry3D, WorldModel
from klampt.vis import colorize

VIRIDIS_ENDS = (0x440154, 0xfde725)


def decode(pc):
    rgb = np.asarray(pc.getProperties('rgb')).astype(np.int64)
    return np.stack([(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255], axis=1)


@pytest.fixture(scope='module')
def world():
    w = WorldModel()
    assert w.readFile(os.path.join(REPO, 'data', 'worlds', 'arm_table.xml'))
    return w


def link_cloud(world):
    return world.robot(0).link(3).geometry().convert('PointCloud', 0.02)


def test_position_colors_of_a_link_cloud(world):
    g = link_cloud(world)
    colorize.colorize(g, 'p')
    pc = g.getPointCloud()
    assert 'rgb' in pc.propertyNames
    pts = np.asarray(pc.getPoints())
    lo, extent = pts.min(axis=0), (pts.max(axis=0) - pts.min(axis=0)).max()
    # red, green, blue grow with x, y, z on one scale (the largest extent)
    assert np.abs(decode(pc) - 255 * (pts - lo) / extent).max() <= 0.51
    # a plain PointCloud is colored in place too
    bare = link_cloud(world).getPointCloud()
    colorize.colorize(bare, 'p')
    assert np.array_equal(decode(bare), decode(pc))


def test_normal_and_colormap_colors(world):
    g = link_cloud(world)
    pc = g.getPointCloud()
    normals = np.stack([np.asarray(pc.getProperties(k)) for k in ('normal_x', 'normal_y', 'normal_z')], axis=1)
    colorize.colorize(g, 'n')
    assert np.abs(decode(g.getPointCloud()) - 255 * (normals + 1) / 2).max() <= 0.51
    colorize.colorize(g, 'z')
    z = np.asarray(g.getPointCloud().getPoints())[:, 2]
    packed = np.asarray(g.getPointCloud().getProperties('rgb')).astype(np.int64)
    assert (packed[np.argmin(z)], packed[np.argmax(z)]) == VIRIDIS_ENDS
    # 'nx' names the cloud's normal_x property: its lowest value is viridis' start
    colorize.colorize(g, 'nx')
    packed = np.asarray(g.getPointCloud().getProperties('rgb')).astype(np.int64)
    assert packed[np.argmin(normals[:, 0])] == VIRIDIS_ENDS[0]
    with pytest.raises(ValueError):
        colorize.colorize(g, [0.5, 0.2])


def test_colored_cloud_renders_in_its_colors(world, tmp_path):
    from klampt import vis
    g = Geometry3D(link_cloud(world))
    g.setCurrentTransform(*world.robot(0).link(3).getTransform())
    colorize.colorize(g, 'p')
    expected = decode(g.getPointCloud())
    vis.init('offscreen')
    vis.createWindow('colorize_point_cloud')  # a fresh scene: windows outlive vis.kill()
    try:
        vis.add('cloud', g)
        vis.autoFitCamera()
        img = vis.screenshot()
    finally:
        vis.kill()
    from PIL import Image
    Image.fromarray(img).save(str(tmp_path / 'cloud.png'))
    background = img[0, 0].astype(int)
    drawn = img.reshape(-1, 3)[np.abs(img.reshape(-1, 3).astype(int) - background).sum(axis=1) > 30]
    assert len(drawn) > 2000
    # the drawn points carry the cloud's colours (a spread of them, not one)
    dist = np.abs(drawn[::7, None, :].astype(int) - expected[None, ::5, :]).sum(axis=2).min(axis=1)
    assert np.median(dist) < 40
    assert drawn.std(axis=0).max() > 20
