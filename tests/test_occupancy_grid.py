"""OccupancyGrid: the API of Klamp't 0.10.1, its conversions, files and
queries against brute force over its cells (each occupied cell a solid box)."""
import pickle

import numpy as np
import pytest

import klampt
from klampt.math import so3

from geometry_oracles import point_triangle_distances


def grid(values=None):
    occ = klampt.OccupancyGrid()
    occ.resize(4, 3, 2)
    occ.setBmin([-0.4, -0.3, 0.0])
    occ.setBmax([0.4, 0.3, 0.4])
    if values is None:
        values = np.zeros((4, 3, 2))
        values[0, 0, 0] = values[1, 0, 0] = values[3, 2, 1] = values[2, 1, 0] = 1.0
        values[2, 2, 0] = 0.4  # below the threshold
    occ.setValues(values)
    return occ


def cell_boxes(occ):
    lo, hi = np.array(occ.bmin), np.array(occ.bmax)
    v = np.array(occ.values)
    size = (hi - lo) / np.array(v.shape)
    idx = np.argwhere(v > occ.occupancyThreshold)
    return lo + idx * size, lo + (idx + 1) * size


def box_distance(p, lo, hi):
    """Distance from p to the union of boxes (0 inside)."""
    gap = np.maximum(np.maximum(lo - p, p - hi), 0)
    return np.linalg.norm(gap, axis=1).min()


def test_api():
    occ = grid()
    assert occ.values.shape == (4, 3, 2) and occ.get(3, 2, 1) == 1.0
    occ.set(0, 1, 1, 0.7)
    assert occ.values[0, 1, 1] == 0.7
    assert occ.getOccupancyThreshold() == 0.5 and occ.occupancyThreshold == 0.5
    occ.setOccupancyThreshold(0.3)
    assert occ.occupancyThreshold == 0.3
    assert occ.getBmin() == [-0.4, -0.3, 0.0] and occ.bmax == [0.4, 0.3, 0.4]
    assert occ.getBounds() == ([-0.4, -0.3, 0.0], [0.4, 0.3, 0.4])
    occ.bounds = ([0, 0, 0], [1, 1, 1])
    assert occ.bmin == [0, 0, 0]
    # Corners are set one at a time; their order is checked when the grid is used.
    occ.setBmin([2, 0, 0])
    with pytest.raises(ValueError, match="bmin <= bmax"):
        klampt.Geometry3D(occ)
    occ.setBmax([3, 1, 1])
    assert klampt.Geometry3D(occ).getBB()[0] == [2, 0, 0]
    occ.bounds = ([0, 0, 0], [1, 1, 1])
    with pytest.raises(ValueError):
        occ.setBounds(([2, 0, 0], [1, 1, 1]))
    with pytest.raises(IndexError):
        occ.get(4, 0, 0)
    occ.scale(2.0)
    occ.shift(-1.0)
    assert occ.get(3, 2, 1) == 1.0
    copy = occ.copy()
    copy.set(0.0)
    assert occ.get(3, 2, 1) == 1.0 and klampt.OccupancyGrid(occ).get(3, 2, 1) == 1.0
    assert occ.isStandalone and isinstance(occ.dataPtr, int)
    occ.resize(2, 2, 2)
    assert occ.values.shape == (2, 2, 2) and occ.values.sum() == 0


def test_geometry_conversions():
    occ = grid()
    g = klampt.Geometry3D(occ)
    assert g.type() == "OccupancyGrid"
    np.testing.assert_allclose(g.getBB(), ([-0.4, -0.3, 0.0], [0.4, 0.3, 0.4]), atol=1e-12)
    lo, hi = cell_boxes(occ)
    pts = g.convert("PointCloud").getPointCloud().points
    np.testing.assert_allclose(np.sort(pts, axis=0), np.sort((lo + hi) / 2, axis=0))
    mesh = g.convert("TriangleMesh").getTriangleMesh()
    V, T = np.array(mesh.getVertices()), np.array(mesh.getIndices())
    # Cells (0,0,0) and (1,0,0) share a face: 4 isolated cubes' worth of faces minus two.
    assert len(T) == 2 * (6 * 4 - 2)
    # The boundary mesh is closed and faces outwards: its signed volume is the cells'.
    volume = np.einsum("ij,ij->i", V[T[:, 0]], np.cross(V[T[:, 1]], V[T[:, 2]])).sum() / 6
    assert volume == pytest.approx(np.prod(hi - lo, axis=1).sum())
    sdf = g.convert("ImplicitSurface").getVolumeGrid()
    values = np.array(sdf.getValues())
    assert (values[np.array(occ.values) > 0.5] <= 0).all() and (values[np.array(occ.values) <= 0.5] > 0).all()
    back = klampt.Geometry3D(sdf).convert("OccupancyGrid").getOccupancyGrid()
    np.testing.assert_array_equal(np.array(back.values) > 0.5, np.array(occ.values) > 0.5)
    hull = g.convert("ConvexHull")
    assert hull.getBB()[0] == pytest.approx(lo.min(axis=0).tolist())


def test_shapes_rasterize_to_the_cells_they_overlap():
    box = klampt.GeometricPrimitive()
    box.setAABB([0, 0, 0], [1.0, 0.5, 0.25])
    occ = klampt.Geometry3D(box).convert("OccupancyGrid", 0.125).getOccupancyGrid()
    assert np.array(occ.values).shape == (8, 4, 2) and (np.array(occ.values) == 1).all()
    sphere = klampt.GeometricPrimitive()
    sphere.setSphere([0, 0, 0], 1.0)
    mesh = klampt.Geometry3D(sphere).convert("TriangleMesh", 0.05)
    occ = mesh.convert("OccupancyGrid", 0.2).getOccupancyGrid()
    lo, hi = cell_boxes(occ)
    centres = (lo + hi) / 2
    # Every cell whose centre is inside the sphere is occupied (closed mesh),
    # and every occupied cell reaches the sphere.
    v = np.array(occ.values)
    all_idx = np.argwhere(np.ones(v.shape, dtype=bool))
    size = (np.array(occ.bmax) - np.array(occ.bmin)) / np.array(v.shape)
    all_centres = np.array(occ.bmin) + (all_idx + 0.5) * size
    inside = np.linalg.norm(all_centres, axis=1) < 0.95
    assert v[tuple(all_idx[inside].T)].min() == 1
    near = np.linalg.norm(np.clip(0, lo, hi), axis=1) <= 1.0 + 1e-9
    assert near.all() and len(centres) > 0
    rng = np.random.default_rng(1)
    pts = rng.uniform(-1, 1, size=(200, 3))
    pc = klampt.PointCloud()
    pc.setPoints(pts)
    occ = klampt.Geometry3D(pc).convert("OccupancyGrid", 0.25).getOccupancyGrid()
    lo, hi = cell_boxes(occ)
    for p in pts:
        assert ((p >= lo - 1e-12) & (p <= hi + 1e-12)).all(axis=1).any()


def test_queries_against_the_cells():
    occ = grid()
    g = klampt.Geometry3D(occ)
    g.setCurrentTransform(so3.identity(), [0.1, 0.2, 0.3])
    lo, hi = cell_boxes(occ)
    lo, hi = lo + [0.1, 0.2, 0.3], hi + [0.1, 0.2, 0.3]
    rng = np.random.default_rng(2)
    for _ in range(40):
        c = rng.uniform([-0.6, -0.4, 0.0], [0.8, 0.8, 0.9])
        r = 0.05
        s = klampt.GeometricPrimitive()
        s.setSphere(list(c), r)
        sg = klampt.Geometry3D(s)
        d = box_distance(c, lo, hi)
        assert g.collides(sg) == (d <= r)
        if d > 0:
            assert g.distance(sg).d == pytest.approx(d - r, abs=1e-7)
            assert g.distance_point(list(c)).d == pytest.approx(d, abs=1e-7)
    for _ in range(20):
        s = np.array([rng.uniform(-0.5, 0.7), rng.uniform(-0.3, 0.7), 2.0])
        hit, pt = g.rayCast(list(s), [0, 0, -1])
        over = (s[0] >= lo[:, 0]) & (s[0] <= hi[:, 0]) & (s[1] >= lo[:, 1]) & (s[1] <= hi[:, 1])
        assert hit == over.any()
        if hit:
            assert pt[2] == pytest.approx(hi[over, 2].max())
    mesh = klampt.Geometry3D(occ).convert("TriangleMesh")
    other = klampt.GeometricPrimitive()
    other.setAABB([0.35, 0.35, 0.65], [0.5, 0.5, 0.8])
    og = klampt.Geometry3D(other)
    Vm = np.array(mesh.getTriangleMesh().getVertices()) + [0.1, 0.2, 0.3]
    corners = np.array([[x, y, z] for x in (0.35, 0.5) for y in (0.35, 0.5) for z in (0.65, 0.8)])
    expected = min(box_distance(p, lo, hi) for p in corners)
    expected = min(expected, point_triangle_distances(Vm, *[np.array(t) for t in _box_triangles(corners)]).min())
    assert g.distance(og).d == pytest.approx(expected, abs=1e-7)
    res = g.contacts(klampt.Geometry3D(other), 0.3, 0.0)
    assert len(res.depths) > 0 and max(res.depths) == pytest.approx(0.3 - expected, abs=1e-6)


def _box_triangles(corners):
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    p = klampt.GeometricPrimitive()
    p.setAABB(list(lo), list(hi))
    m = klampt.Geometry3D(p).convert("TriangleMesh").getTriangleMesh()
    V, T = np.array(m.getVertices()), np.array(m.getIndices())
    return V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]


def test_files_and_pickling(tmp_path):
    occ = grid()
    g = klampt.Geometry3D(occ)
    for ext in ("occ", "geom"):
        path = str(tmp_path / ("grid." + ext))
        assert g.saveFile(path)
        back = klampt.Geometry3D()
        assert back.loadFile(path)
        assert back.type() == "OccupancyGrid"
        np.testing.assert_array_equal(back.getOccupancyGrid().values, occ.values)
        np.testing.assert_allclose(back.getBB(), g.getBB())
    restored = pickle.loads(pickle.dumps(g))
    np.testing.assert_array_equal(restored.getOccupancyGrid().values, occ.values)


def test_api_conversions_and_rays_match_the_reference():
    """The grid above, against values recorded from Klamp't 0.10.1
    (data/make_occupancy_reference.py)."""
    import json
    import os
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "occupancy_reference.json")) as f:
        ref = json.load(f)
    occ = grid()
    g = klampt.Geometry3D(occ)
    np.testing.assert_allclose(g.getBB(), ref["bb"], atol=1e-12)
    np.testing.assert_array_equal(occ.getValues(), ref["values"])
    assert occ.getOccupancyThreshold() == ref["threshold"]
    # The reference's first converted point is uninitialized memory: the rest, in cell order.
    cloud = np.asarray(g.convert("PointCloud").getPointCloud().getPoints())
    assert len(cloud) == len(ref["cloud"])
    np.testing.assert_allclose(cloud[1:], ref["cloud"][1:], atol=1e-9)
    V = np.asarray(g.convert("TriangleMesh").getTriangleMesh().getVertices())
    np.testing.assert_allclose([V.min(axis=0), V.max(axis=0)], ref["mesh_bb"], atol=1e-9)
    hit, pt = g.rayCast([0.3, 0.25, 2.0], [0, 0, -1])
    assert hit == ref["ray"][0]
    np.testing.assert_allclose(pt, ref["ray"][1], atol=1e-9)
