"""Klampt-examples' testing/geometry/heightmaptest.py and geometrytest.py
(Klamp't 0.10), as assertions: a heightmap built from a height image (its
size taken from the image), coloured by height and by a segmentation
property, a depth image turned into a perspective map with colours and a
pose; and the example's matrix of every 0.10 geometry type against every
other, apart and overlapping. The example's image files are not in the
shared data: synthetic images of the same kinds stand in."""
import numpy as np
import pytest

from klampt import Geometry3D, Heightmap
from klampt.math import se3, so3
from klampt.model.create import box, sphere
from klampt.vis.colorize import colorize


def test_orthographic_heightmap_from_an_image():
    img = (np.outer(np.linspace(0, 1, 30), np.linspace(0, 1, 40)) * 255).astype(np.uint8)
    hm = Heightmap()
    zmax = 0.5
    hm.setHeightImage(img, zmax / 255.0)
    # The image gives the size: 40 samples across, 30 down.
    assert hm.getHeights().shape == (40, 30) and (hm.viewport.w, hm.viewport.h) == (40, 30)
    np.testing.assert_allclose(hm.getHeightImage(), img * zmax / 255.0, rtol=1e-6)
    hm.setSize(2.0, 2.0 * img.shape[0] / img.shape[1])
    lo, hi = Geometry3D(hm).getBB()
    assert (hi[0] - lo[0], hi[1] - lo[1]) == pytest.approx((2.0, 1.5))
    assert (lo[2], hi[2]) == pytest.approx((0.0, zmax))
    # Coloured by height: the 'cool' colormap runs from cyan (low) to magenta (high).
    colorize(hm, value='height', colormap='cool')
    colors = np.asarray(hm.getColorImage())
    assert colors.shape[:2] == (30, 40)
    low, high = colors[0, 0, :3].astype(int), colors[-1, -1, :3].astype(int)
    assert low[1] > 200 and low[0] < 60 and high[0] > 200 and high[1] < 60
    # Segmentation: two halves, two colours, one on each side.
    seg = np.zeros(hm.heights.shape)
    seg[:, : seg.shape[1] // 2] = 1
    hm.addProperty('segment', seg)
    colorize(hm, 'segment', 'random')
    colors = np.asarray(hm.getColorImage())[:, :, :3]
    top, bottom = {tuple(c) for c in colors[:15].reshape(-1, 3)}, {tuple(c) for c in colors[15:].reshape(-1, 3)}
    assert len(top) == 1 and len(bottom) == 1 and top != bottom
    with pytest.raises(ValueError, match="colormap"):
        colorize(hm, 'height', 'no-such-map')


def test_depth_map_with_colours_and_a_pose():
    rng = np.random.default_rng(0)
    depth = rng.uniform(1000, 60000, (24, 32)).astype(np.uint16)
    hm = Heightmap()
    hm.setHeightImage(depth, 4.0 / 65535.0)
    assert not hm.isPerspective()
    rgb = rng.integers(0, 256, (24, 32, 3), dtype=np.uint8)
    hm.setColorImage(rgb)
    hm.setFOV(1.0166577814521098, 0.7916406885147462)
    assert hm.isPerspective()
    pose = se3.mul((so3.rotation([1, 0, 0], -np.pi / 2), [0, 0, 0]), (so3.rotation([0, 0, 1], 0.3), [0.1, 0.2, 1.0]))
    geom = Geometry3D()
    geom.setHeightmap(hm)
    geom.setCurrentTransform(*pose)
    # Every sample's point, placed by the pose, lies in the world box.
    pts = geom.convert('PointCloud').getPointCloud().points
    R, t = np.array(so3.ndarray(pose[0])), np.array(pose[1])
    world = pts @ R.T + t
    lo, hi = geom.getBB()
    assert len(pts) == 24 * 32
    assert (world >= np.array(lo) - 1e-6).all() and (world <= np.array(hi) + 1e-6).all()
    # Depths are the image's: a point's distance along the view axis.
    np.testing.assert_allclose(np.sort(pts[:, 2]), np.sort(depth.ravel() * 4.0 / 65535.0), rtol=1e-5)
    np.testing.assert_array_equal(np.asarray(hm.getColorImage())[:, :, :3], rgb)


GEOMETRY_TYPES = ['GeometricPrimitive', 'TriangleMesh', 'PointCloud', 'ImplicitSurface', 'OccupancyGrid',
                  'ConvexHull', 'Heightmap']


def example_shapes():
    """The example's box (1.1 x 0.5 x 1) and sphere (radius 0.4) in each type,
    with its conversion resolutions."""
    a = box(1.1, 0.5, 1.0, center=(0, 0, 0), type='GeometricPrimitive')
    b = sphere(0.4, center=(0, 0, 0), type='GeometricPrimitive')
    size = 1.1
    params = {'PointCloud': size * 0.02, 'ImplicitSurface': size * 0.04, 'OccupancyGrid': size * 0.04,
              'Heightmap': size * 0.01}
    params_b = {'PointCloud': size * 0.01, 'ImplicitSurface': size * 0.01, 'OccupancyGrid': size * 0.01,
                'Heightmap': size * 0.005}
    shapes_a = {t: a if t == 'GeometricPrimitive' else a.convert(t, params.get(t, 0)) for t in GEOMETRY_TYPES}
    shapes_b = {t: b if t == 'GeometricPrimitive' else b.convert(t, params_b.get(t, 0)) for t in GEOMETRY_TYPES}
    return shapes_a, shapes_b


@pytest.mark.parametrize("type_a", GEOMETRY_TYPES)
def test_every_type_against_every_type(type_a):
    shapes_a, shapes_b = example_shapes()
    a = shapes_a[type_a]
    # (0.9.2's type name of the implicit surface stays, see docs/differences.md)
    assert a.type() == {'ImplicitSurface': 'VolumeGrid'}.get(type_a, type_a)
    hollow = {'TriangleMesh', 'PointCloud'}  # surfaces and bare points: no inside
    for type_b, b in shapes_b.items():
        # Overlapping: the sphere's centre 0.2 inside the box's +x face.
        b.setCurrentTransform(so3.identity(), [0.35, 0, 0])
        touching = not ({type_a, type_b} <= hollow and 'PointCloud' in (type_a, type_b))
        assert a.collides(b) == touching, (type_a, type_b)
        assert a.withinDistance(b, 0.02), (type_a, type_b)
        assert len(a.contacts(b, 0.01, 0.01).depths) > 0, (type_a, type_b)
        # Apart: a 0.3 gap between the box's +x face and the sphere.
        b.setCurrentTransform(so3.identity(), [0.55 + 0.4 + 0.3, 0, 0])
        assert not a.collides(b), (type_a, type_b)
        assert a.withinDistance(b, 0.4) and not a.withinDistance(b, 0.2), (type_a, type_b)
        d = a.distance(b).d
        assert d == pytest.approx(0.3, abs=0.06), (type_a, type_b, d)
    # Rays along -x and -z from outside hit the box's +x and top faces (a
    # heightmap's side is the wall of the solid below it). Point clouds need a radius.
    if type_a == 'PointCloud':
        return
    hit, pt = a.rayCast([3, 0.01, 0.01], [-1, 0, 0])
    assert hit and pt[0] == pytest.approx(0.55, abs=0.05), (type_a, pt)
    hit, pt = a.rayCast([0.01, 0.01, 3], [0, 0, -1])
    assert hit and pt[2] == pytest.approx(0.5, abs=0.05), (type_a, pt)
