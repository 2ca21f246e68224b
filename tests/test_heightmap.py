"""Heightmap: the API of Klamp't 0.10.1 (viewport, heights, images, colours,
properties), vertex positions, meshes, bounds and height images against values
recorded from 0.10.1 (data/make_heightmap_reference.py), and conversions from
and to the other geometry types against their definitions."""
import json
import os
import pickle

import numpy as np
import pytest

import klampt
from heightmap_maps import ortho_map, perspective_map

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "heightmap_reference.json")) as _f:
    REF = json.load(_f)


def posed_map():
    hm = ortho_map()
    vp = hm.viewport
    vp.setPose([0, 1, 0, -1, 0, 0, 0, 0, 1], [1.0, 2.0, 0.5])
    hm.viewport = vp
    return hm


def vertex(vp, i, j, d):
    """The documented vertex of sample (i, j), in the heightmap frame."""
    u = (i + 0.5 - vp.cx) / vp.fx
    if vp.perspective:
        return np.array([d * u, d * (j + 0.5 - vp.cy) / vp.fy, d])
    return np.array([u, (vp.h - 1 - j + 0.5 - vp.cy) / vp.fy, d])


@pytest.mark.parametrize("name,make", [("ortho", ortho_map), ("perspective", perspective_map), ("ortho_posed", posed_map)])
def test_vertices_meshes_and_bounds_match_the_reference(name, make):
    ref = REF[name]
    hm = make()
    vp = hm.viewport
    for key, value in ref["viewport"].items():
        assert getattr(vp, key) == pytest.approx(value, rel=1e-6), key
    np.testing.assert_allclose(hm.heights, ref["heights"], rtol=1e-7)
    g = klampt.Geometry3D(hm)
    assert g.type() == "Heightmap"
    mesh = g.convert("TriangleMesh").getTriangleMesh()
    np.testing.assert_array_equal(mesh.getIndices(), ref["mesh_indices"])
    if name == "ortho_posed":
        # The reference's conversions rotate by the pose's transpose and drop
        # its z offset (its own getPose disagrees); the formula test covers it.
        return
    np.testing.assert_allclose(mesh.getVertices()[1:], ref["mesh_vertices"][1:], atol=1e-6)
    # The reference's first converted point and vertex are uninitialized memory: the rest.
    points = g.convert("PointCloud").getPointCloud().points
    np.testing.assert_allclose(points[1:], ref["points"][1:], atol=1e-6)
    if not vp.perspective:
        # The reference's perspective box is the view frustum's, not the points'.
        np.testing.assert_allclose(g.getBB(), ref["bb"], atol=1e-6)
    np.testing.assert_allclose(hm.getHeightImage(), ref["height_image"], rtol=1e-7)
    for suffix in ("b", "s"):
        image, scale = getattr(hm, "getHeightImage_" + suffix)()
        np.testing.assert_array_equal(image, ref["height_image_" + suffix][0])
        assert scale == pytest.approx(ref["height_image_" + suffix][1])


@pytest.mark.parametrize("make", [ortho_map, perspective_map, posed_map])
def test_mesh_vertices_follow_the_documented_formula(make):
    hm = make()
    vp = hm.viewport
    R, t = vp.getPose()
    R = np.array(R).reshape(3, 3).T
    expected = [R @ vertex(vp, i, j, hm.heights[i, j]) + t for i in range(vp.w) for j in range(vp.h)]
    mesh = klampt.Geometry3D(hm).convert("TriangleMesh").getTriangleMesh()
    np.testing.assert_allclose(mesh.getVertices(), expected, atol=1e-6)
    # Two triangles per cell, facing the free side: up for an elevation map,
    # towards the camera (-z in the frame) for a depth map.
    V, T = np.array(mesh.getVertices()), np.array(mesh.getIndices())
    assert len(T) == 2 * (vp.w - 1) * (vp.h - 1)
    normals = np.cross(V[T[:, 1]] - V[T[:, 0]], V[T[:, 2]] - V[T[:, 0]]) @ R
    assert (np.sign(normals[:, 2]) == (-1 if vp.perspective else 1)).all()


def test_missing_samples_drop_their_points_and_triangles():
    hm = ortho_map()
    hm.set(2, 1, float("nan"))
    g = klampt.Geometry3D(hm)
    assert len(g.convert("PointCloud").getPointCloud().points) == 19
    # The sample is a corner of 6 triangles (interior vertex of the grid); the
    # reference keeps every triangle whose three samples are valid.
    assert len(g.convert("TriangleMesh").getTriangleMesh().getIndices()) == 2 * 4 * 3 - 6
    depth = perspective_map()
    depth.set(0, 0, 0.0)  # 0 is missing in a depth map
    points = klampt.Geometry3D(depth).convert("PointCloud").getPointCloud().points
    assert len(points) == 11 and np.isfinite(points).all()


def test_sizing_and_projections():
    hm = klampt.Heightmap()
    vp = hm.viewport
    assert (vp.w, vp.h, vp.perspective, vp.fx, vp.cx) == (1, 1, False, 1.0, 0.5)
    assert hm.heights.shape == (0, 0) and hm.heights.dtype == np.float32
    with pytest.raises(ValueError):
        hm.setSize(1.0, 1.0)  # needs at least 2 x 2 samples
    hm.resize(4, 3)
    assert hm.heights.shape == (4, 3) and (hm.viewport.w, hm.viewport.h) == (4, 3)
    hm.setSize(3.0, 0)  # square cells
    vp = hm.viewport
    assert hm.isOrthographic() and not hm.isPerspective()
    assert (vp.fx, vp.fy, vp.cx, vp.cy) == (1.0, 1.0, 2.0, 1.5)
    hm.setFOV(np.pi / 2)
    vp = hm.viewport
    assert hm.isPerspective() and vp.fx == pytest.approx(1.5) and vp.fy == pytest.approx(1.5)
    hm.setIntrinsics(2.0, 3.0)
    vp = hm.viewport
    assert vp.perspective and (vp.fx, vp.fy, vp.cx, vp.cy) == (2.0, 3.0, 2.0, 1.5)
    hm.resize(8, 6)  # the intrinsics scale with the size, as the reference's
    vp = hm.viewport
    assert (vp.fx, vp.fy, vp.cx, vp.cy) == (4.0, 6.0, 4.0, 3.0)
    vp.w = 5
    hm.viewport = vp  # a new size resizes the arrays
    assert hm.heights.shape == (5, 6)
    with pytest.raises(ValueError):
        hm.setFOV(4.0)


def test_heights_views_and_images():
    hm = ortho_map()
    view = hm.heights
    view[1, 2] = 7.0
    assert hm.get(1, 2) == 7.0 and hm.getHeights()[1, 2] == 7.0
    hm.set(0, 3, -1.5)
    assert view[0, 3] == -1.5
    img = np.arange(20, dtype=np.uint16).reshape(4, 5)
    hm.setHeightImage(img, 0.5)
    np.testing.assert_allclose(hm.heights, img.T * 0.5)
    np.testing.assert_allclose(hm.getHeightImage(), img * 0.5)
    hm.setHeights(np.ones((5, 4)))
    assert (hm.heights == 1).all()
    hm.scale(3.0)
    hm.shift(-1.0)
    assert (hm.heights == 2).all()
    with pytest.raises(ValueError):
        hm.setHeights(np.ones((4, 5)))
    # As 0.10.1: a height image of another size resizes the map to it.
    hm.setHeightImage(np.full((5, 4), 2.0))
    assert (hm.viewport.w, hm.viewport.h) == (4, 5) and (hm.heights == 2.0).all()
    with pytest.raises(ValueError):
        hm.setHeightImage(np.ones(3))
    with pytest.raises(IndexError):
        hm.get(5, 0)
    del hm
    assert view.shape == (5, 4)  # a view keeps its heightmap alive
    float(view.sum())


def test_colors_and_properties():
    hm = ortho_map()
    assert not hm.hasColors() and hm.getColor(0, 0) == pytest.approx([1, 1, 1, 1])
    hm.setColor(0.5)
    assert hm.hasColors() and hm.colorImage.shape == (4, 5, 3) and hm.colorImage.dtype == np.uint8
    assert hm.getColor(2, 1) == pytest.approx([128 / 255] * 3 + [1])
    rgb = np.zeros((4, 5, 3), dtype=np.uint8) + np.array([10, 20, 30], dtype=np.uint8)
    hm.setColorImage(rgb)
    # Packed as the reference: 0xAARRGGBB, alpha 0 without an alpha channel.
    assert hm.getColorImage_i()[0, 0] == 0x000A141E
    np.testing.assert_allclose(hm.getColorImage_d()[0, 0], [10 / 255, 20 / 255, 30 / 255])
    hm.setColor(1, 2, [1, 0, 0, 1])  # (i, j) is column i, image row j
    assert list(hm.colorImage[2, 1]) == [255, 0, 0]
    hm.setColorImage_i(np.full((4, 5), 0x80FF0000, dtype=np.uint32))
    assert hm.colorImage.shape == (4, 5, 4) and list(hm.colorImage[0, 0]) == [255, 0, 0, 128]
    pc = klampt.Geometry3D(hm).convert("PointCloud").getPointCloud()
    assert list(pc.getPropertyNames()) == ["r", "g", "b", "a"]
    np.testing.assert_allclose(pc.getProperties("a"), 128 / 255)
    hm.clearColors()
    assert not hm.hasColors()
    with pytest.raises(ValueError):
        hm.setColorImage(np.zeros((5, 4, 3)))

    assert hm.addProperty("temperature") == 0
    assert hm.addProperty("label", np.full((5, 4), 2.0)) == 1
    assert hm.numProperties() == 2 and hm.propertyIndex("label") == 1 and hm.propertyIndex("x") == -1
    hm.setProperty(3, 1, np.array([5.0, 6.0]))
    assert hm.getProperty(3, 1).tolist() == [5.0, 6.0]
    assert hm.getProperties(0)[3, 1] == 5.0
    hm.setPropertyImage(0, np.arange(20).reshape(4, 5))
    assert hm.getProperties(0)[3, 1] == 8  # image row 1, column 3
    with pytest.raises(IndexError):
        hm.getProperties(2)


def test_copies_geometry_round_trip_and_pickling():
    hm = ortho_map()
    hm.setColor(0.25)
    copy = hm.copy()
    copy.heights[0, 0] = 9
    assert hm.get(0, 0) != 9 and klampt.Heightmap(hm).get(0, 0) == hm.get(0, 0)
    other = klampt.Heightmap()
    other.set(hm)
    np.testing.assert_array_equal(other.heights, hm.heights)
    assert hm.isStandalone and isinstance(hm.dataPtr, int)
    g = klampt.Geometry3D()
    g.setHeightmap(hm)
    back = g.getHeightmap()
    np.testing.assert_array_equal(back.heights, hm.heights)
    np.testing.assert_array_equal(back.colorImage, hm.colorImage)
    with pytest.raises(ValueError):
        klampt.Geometry3D(klampt.TriangleMesh()).getHeightmap()
    g.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0.5, 0, 0])
    restored = pickle.loads(pickle.dumps(g))
    assert restored.type() == "Heightmap"
    np.testing.assert_array_equal(restored.getHeightmap().heights, hm.heights)
    np.testing.assert_allclose(restored.getBB(), g.getBB())


def test_transforms_move_the_pose_and_scales_keep_a_heightmap():
    g = klampt.Geometry3D(ortho_map())
    before = np.array(g.convert("PointCloud").getPointCloud().points)
    g.transform([0, 1, 0, -1, 0, 0, 0, 0, 1], [1, 2, 3])
    R = np.array([0, 1, 0, -1, 0, 0, 0, 0, 1.0]).reshape(3, 3).T
    np.testing.assert_allclose(g.convert("PointCloud").getPointCloud().points, before @ R.T + [1, 2, 3], atol=1e-9)
    s = klampt.Geometry3D(ortho_map())
    s.scale(2.0, 3.0, 0.5)
    np.testing.assert_allclose(s.convert("PointCloud").getPointCloud().points, before * [2, 3, 0.5], atol=1e-6)
    d = klampt.Geometry3D(perspective_map())
    points = np.array(d.convert("PointCloud").getPointCloud().points)
    d.scale(2.0, 0.5, 3.0)
    np.testing.assert_allclose(d.convert("PointCloud").getPointCloud().points, points * [2, 0.5, 3], atol=1e-6)


def test_mesh_to_heightmap_rasterizes_the_top_surface():
    ref = REF["mesh_to_heightmap"]
    box = klampt.GeometricPrimitive()
    box.setAABB([0, 0, 0], [1, 2, 0.5])
    g = klampt.Geometry3D(box).convert("TriangleMesh").convert("Heightmap", 0.25)
    hm = g.getHeightmap()
    vp = hm.viewport
    for key in ("w", "h", "fx", "fy", "cx", "cy"):
        assert getattr(vp, key) == pytest.approx(ref["viewport"][key]), key
    np.testing.assert_allclose(vp.getPose()[1], ref["viewport"]["pose"][1])
    # Inside the box's footprint every sample is the top; the reference drops
    # some boundary samples (0 there), which are on the box's edges here.
    np.testing.assert_allclose(np.array(hm.heights)[1:, :-1], np.array(ref["heights"])[1:, :-1])
    assert (hm.heights == 0.5).all()
    np.testing.assert_allclose(g.getBB(), [[0, 0, 0.5], [1, 2, 0.5]], atol=1e-9)


def test_clouds_and_primitives_rasterize_to_their_highest_points():
    rng = np.random.default_rng(4)
    pts = rng.uniform([0, 0, 0], [1, 1, 0.3], size=(400, 3))
    pc = klampt.PointCloud()
    pc.setPoints(pts)
    hm = klampt.Geometry3D(pc).convert("Heightmap", 0.1).getHeightmap()
    vp = hm.viewport
    x0, y0 = pts[:, 0].min(), pts[:, 1].min()
    x1, y1 = pts[:, 0].max(), pts[:, 1].max()
    assert (vp.w, vp.h) == (round((x1 - x0) / 0.1) + 1, round((y1 - y0) / 0.1) + 1)
    # Each sample: the highest point whose nearest sample it is.
    R, t = vp.getPose()
    expected = np.full((vp.w, vp.h), np.nan)
    for p in pts:
        q = p - np.array(t)
        i = int(round(q[0] * vp.fx + vp.cx - 0.5))
        j = int(round(vp.h - 1 + 0.5 - vp.cy - q[1] * vp.fy))
        if np.isnan(expected[i, j]) or p[2] > expected[i, j]:
            expected[i, j] = p[2]
    np.testing.assert_allclose(hm.heights, expected, rtol=1e-6)
    sphere = klampt.GeometricPrimitive()
    sphere.setSphere([0, 0, 0], 1.0)
    top = klampt.Geometry3D(sphere).convert("TriangleMesh", 0.05).convert("Heightmap", 0.2).getHeightmap()
    assert np.nanmax(top.heights) == pytest.approx(1.0, abs=0.01)
    centre = top.heights[top.viewport.w // 2, top.viewport.h // 2]
    assert centre == pytest.approx(1.0, abs=0.01)


def test_heightmap_conversions_to_every_type():
    g = klampt.Geometry3D(ortho_map())
    mesh = g.convert("TriangleMesh").getTriangleMesh()
    hull = g.convert("ConvexHull")
    assert hull.type() == "ConvexHull"
    np.testing.assert_allclose(hull.getBB(), g.getBB(), atol=1e-9)
    grid = g.convert("ImplicitSurface", 0.1).getVolumeGrid()
    values = np.array(grid.getValues())
    lo, hi = np.array(grid.bbox[:3]), np.array(grid.bbox[3:])
    dims = np.array(grid.dims)
    cell = (hi - lo) / dims
    # Signed distance to the surface: below it negative.
    from geometry_oracles import point_triangle_distances
    V, T = np.array(mesh.getVertices()), np.array(mesh.getIndices())
    idx = np.argwhere(np.ones(dims, dtype=bool))
    centres = lo + (idx + 0.5) * cell
    dist = point_triangle_distances(centres, V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]).min(axis=1)
    np.testing.assert_allclose(np.abs(values.ravel()), dist, atol=1e-9)
    occ = g.convert("OccupancyGrid", 0.1)
    assert occ.type() == "OccupancyGrid"
    assert occ.getOccupancyGrid().values.max() == 1.0
    with pytest.raises(ValueError):
        g.convert("Group")


def test_a_default_heightmap_is_an_empty_geometry():
    hm = klampt.Heightmap()
    assert (hm.viewport.w, hm.viewport.h) == (1, 1) and hm.heights.shape == (0, 0)
    g = klampt.Geometry3D(hm)
    assert g.type() == "Heightmap"
    assert len(g.convert("PointCloud").getPointCloud().points) == 0
    assert len(g.convert("TriangleMesh").getTriangleMesh().getIndices()) == 0
