"""Klampt-examples' demos/vis/colormap.py without its window: a sphere mesh
and its point cloud colored by every value, colormap, feature and lighting
the demo's menu offers, checked against the geometry, and the colored pair
rendered. (The demo's last action writes a 'segment' column through
PointCloud.properties[:, i], Klamp't 0.10's numpy view, which this package's
PointCloud does not give; the per-face segment colors are tested.)"""
import math

import numpy as np
import pytest

from klampt import Appearance
from klampt.math import so3
from klampt.model.create import sphere
from klampt.vis import colorize
from conftest import require_offscreen

VIRIDIS = (np.array([0x44, 0x01, 0x54]) / 255.0, np.array([0xfd, 0xe7, 0x25]) / 255.0)


def make_geometry():
    """The demo's sphere mesh, and its point cloud beside it."""
    a = sphere(0.4, center=(0, 0, 0), resolution=0.05, type='TriangleMesh')
    bb = a.getBBTight()
    a_pc = a.convert("PointCloud")
    a_pc.setCurrentTransform(so3.identity(), [1.25 * (bb[1][0] - bb[0][0]), 0, 0])
    return a, a_pc


@pytest.fixture(scope='module')
def geometry():
    return make_geometry()


def face_colors(app, n):
    return np.array([app.getElementColor(Appearance.FACES, i) for i in range(n)])


def mesh_arrays(a):
    m = a.getTriangleMesh()
    return np.asarray(m.getVertices()).reshape(-1, 3), np.asarray(m.getIndices()).reshape(-1, 3)


@pytest.mark.parametrize('value', ['position', 'x', 'y', 'z', 'normal', 'nx', 'ny', 'nz'])
@pytest.mark.parametrize('cmap', ['viridis', 'plasma', 'random'])
def test_every_menu_entry_colors_mesh_and_cloud(geometry, value, cmap):
    a, a_pc = geometry
    verts, tris = mesh_arrays(a)
    for feature in ('faces', 'vertices'):
        for lighting in (None, [0, 0, -1]):
            app = colorize.colorize(a, value, cmap, feature, lighting=lighting)
            assert isinstance(app, Appearance)
            colorize.colorize(a_pc, value, cmap, lighting=lighting)
    pc = a_pc.getPointCloud()
    assert 'rgb' in pc.propertyNames and len(pc.getProperties('rgb')) == len(pc.getPoints())
    app = colorize.colorize(a, value, cmap, 'faces')
    colors = face_colors(app, len(tris))
    assert colors.shape == (len(tris), 4) and np.all((colors >= 0) & (colors <= 1))
    # faces with the same value get the same color, different values (mostly) differ
    assert len(np.unique(np.round(colors, 4), axis=0)) > 10


def test_z_colors_rise_through_viridis_and_lighting_shades(geometry):
    a, _ = geometry
    verts, tris = mesh_arrays(a)
    z = verts[tris].mean(axis=1)[:, 2]
    colors = face_colors(colorize.colorize(a, 'z', 'viridis', 'faces'), len(tris))[:, :3]
    assert np.abs(colors[np.argmin(z)] - VIRIDIS[0]).max() < 0.05
    assert np.abs(colors[np.argmax(z)] - VIRIDIS[1]).max() < 0.05
    # viridis' green channel grows with the value
    assert np.corrcoef(z, colors[:, 1])[0, 1] > 0.95
    # light from above ([0, 0, -1] points down): faces looking down are darker
    lit = face_colors(colorize.colorize(a, 'z', 'viridis', 'faces', lighting=[0, 0, -1]), len(tris))[:, :3]
    normals = np.cross(verts[tris[:, 1]] - verts[tris[:, 0]], verts[tris[:, 2]] - verts[tris[:, 0]])
    nz = normals[:, 2] / np.linalg.norm(normals, axis=1)
    up, down = nz > 0.9, nz < -0.9
    assert (lit[up].sum(axis=1) / colors[up].sum(axis=1)).mean() > 0.9
    assert (lit[down].sum(axis=1) / colors[down].sum(axis=1)).mean() < 0.3


def test_segment_colors(geometry):
    # the demo's integer segmentation of the faces by height, with the random colormap
    a, _ = geometry
    verts, tris = mesh_arrays(a)
    segments = [int(math.floor(verts[t, 2].min() * 7)) for t in tris]
    colors = face_colors(colorize.colorize(a, segments, 'random', feature='faces'), len(tris))
    by_segment = {}
    for s, c in zip(segments, map(tuple, np.round(colors, 6))):
        by_segment.setdefault(s, set()).add(c)
    assert all(len(v) == 1 for v in by_segment.values())
    assert len({next(iter(v)) for v in by_segment.values()}) == len(by_segment)


def test_colored_mesh_and_cloud_render(geometry):
    from klampt import vis
    require_offscreen()
    a, a_pc = geometry
    app = colorize.colorize(a, 'z', 'viridis', 'faces')
    colorize.colorize(a_pc, 'z', 'viridis')
    vis.init('offscreen')
    vis.createWindow('examples_colormap')  # a fresh scene: windows outlive vis.kill()
    try:
        vis.add("A", a, appearance=app)
        vis.add("B", a_pc)
        vis.autoFitCamera()
        img = vis.screenshot().astype(int)
    finally:
        vis.kill()
    mesh, cloud = img[:, :img.shape[1] // 2], img[:, img.shape[1] // 2:]
    # the unlit cloud shows viridis' ends: purple at the bottom, yellow at the top
    rows = {}
    for k, end in enumerate(VIRIDIS):
        near = np.abs(cloud - end * 255).sum(axis=2) < 60
        assert near.sum() > 15, end
        rows[k] = np.nonzero(near)[0].mean()
    assert rows[0] > rows[1] + 50
    # the lit mesh: yellow on top, greener upward
    assert (np.abs(mesh - VIRIDIS[1] * 255).sum(axis=2) < 60).sum() > 15
    background = mesh[0, 0]
    drawn = np.abs(mesh - background).sum(axis=2) > 40
    ys = np.nonzero(drawn.any(axis=1))[0]
    third = (ys.max() - ys.min()) // 3
    top = mesh[ys.min():ys.min() + third][drawn[ys.min():ys.min() + third]]
    bottom = mesh[ys.max() - third:ys.max()][drawn[ys.max() - third:ys.max()]]
    assert top[:, 1].mean() > bottom[:, 1].mean() + 60
