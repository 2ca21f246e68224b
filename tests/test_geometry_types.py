"""Geometry data: the five geometry classes, Geometry3D's data API, conversions
and Appearance, checked against the reference's golden values (geometry.json),
closed forms and brute force."""
import gc
import logging
import math
import os

import numpy as np
import pytest

import klampt
from klampt import Appearance, ConvexHull, GeometricPrimitive, Geometry3D, PointCloud, TriangleMesh, VolumeGrid
from klampt.math import so3
from conftest import PROJECT_DATA, SHARED_DATA, assert_close, assert_transform, load_golden, sphere_geometry

IDENTITY = ([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0])


# ----------------------------------------------------------------- helpers

def golden_geometries():
    return load_golden("geometry.json")["geometries"]


def build(entry):
    """Builds a golden geometry the way the reference built it."""
    g = Geometry3D()
    if entry["kind"] == "primitive":
        p = GeometricPrimitive()
        getattr(p, entry["call"])(*entry["args"])
        g.setGeometricPrimitive(p)
    elif entry["kind"] == "mesh":
        assert g.loadFile(os.path.join(SHARED_DATA, entry["file"]))
    else:
        src = Geometry3D()
        assert src.loadFile(os.path.join(SHARED_DATA, entry["convertedFrom"]))
        g = src.convert("PointCloud", entry["convertParam"])
    return g


def mesh_volume_area(mesh):
    V = mesh.getVertices()
    F = mesh.getIndices()
    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    volume = np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0
    area = 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1).sum()
    return volume, area


def box_contains(outer, inner, tol=1e-9):
    return all(outer[0][k] <= inner[0][k] + tol and outer[1][k] >= inner[1][k] - tol for k in range(3))


def cube_mesh_geometry():
    g = Geometry3D()
    assert g.loadFile(os.path.join(PROJECT_DATA, "meshes", "box_unit.off"))
    return g


def point_triangle_distance(p, a, b, c):
    """Brute force: minimum over a fine barycentric sampling refined by the
    three edges and the plane projection (exact for the cases used here)."""
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n)
    q = p - np.dot(p - a, n) * n
    # Inside test of the projection.
    def same_side(p1, p2, x, y):
        return np.dot(np.cross(y - x, p1 - x), np.cross(y - x, p2 - x)) >= 0
    if same_side(q, a, b, c) and same_side(q, b, a, c) and same_side(q, c, a, b):
        return abs(np.dot(p - a, n))
    def seg(x, y):
        t = np.clip(np.dot(p - x, y - x) / np.dot(y - x, y - x), 0, 1)
        return np.linalg.norm(p - (x + t * (y - x)))
    return min(seg(a, b), seg(b, c), seg(c, a))


# ------------------------------------------------------ golden comparisons

@pytest.fixture(scope="module")
def geoms():
    return golden_geometries()


GOLDEN_NAMES = ["point", "sphere", "segment", "triangle", "aabb", "box", "mesh_cube", "mesh_cylinder", "pointcloud_cube"]


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_geometry_info(geoms, name):
    entry = geoms[name]
    g = build(entry)
    assert g.type() == entry["type"]
    assert g.getCollisionMargin() == entry["collisionMargin"]
    assert_transform(g.getCurrentTransform(), entry["currentTransform"])
    # The reference stores primitives through a 6-digit text round trip, so
    # the Box's values are compared at that precision.
    tol = 2e-6 if name == "box" else 1e-9
    if "primitiveType" in entry:
        p = g.getGeometricPrimitive()
        assert p.type == entry["primitiveType"]
        assert_close(p.properties, entry["primitiveProperties"], atol=tol, what=name)
    if "numTriangles" in entry:
        m = g.getTriangleMesh()
        assert m.getIndices().shape == (entry["numTriangles"], 3)
        assert m.getVertices().shape == (entry["numVertices"], 3)
    if "numPoints" in entry:
        assert g.getPointCloud().numPoints() == entry["numPoints"]
    assert_close(g.getBBTight(), entry["bbTightLocal"], atol=tol, what=name + " bbTightLocal")
    assert box_contains(g.getBB(), g.getBBTight())
    g.setCurrentTransform(*entry["rotatedTransform"])
    # The reference's rotated box of the cylinder is 1.4e-8 wider on each side
    # than the exact box of its vertices; the others agree to 1e-9.
    assert_close(g.getBBTight(), entry["bbTightRotated"], atol=max(tol, 3e-8), what=name + " bbTightRotated")
    assert box_contains(g.getBB(), g.getBBTight())
    assert box_contains(entry["bbTightRotated"], g.getBBTight(), tol=max(tol, 2e-9))


def test_golden_point_cloud_conversion_matches_reference(geoms):
    """Mesh -> point cloud at dispersion 0.25 gives the reference's points,
    in the reference's order, with the same normals."""
    entry = geoms["pointcloud_cube"]
    pc = build(entry).getPointCloud()
    assert pc.propertyNames == entry["propertyNames"]
    assert_close(pc.getPoints(), entry["points"], atol=1e-9)
    assert_close(pc.getAllProperties(), entry["properties"], atol=1e-9)


def test_golden_point_cloud_rebuilt_from_points(geoms):
    entry = geoms["pointcloud_cube"]
    pc = PointCloud()
    pc.setPoints(np.array(entry["points"]))
    for j, name in enumerate(entry["propertyNames"]):
        pc.addProperty(name, np.array(entry["properties"])[:, j])
    g = Geometry3D(pc)
    assert g.type() == "PointCloud" and g.numElements() == entry["numPoints"]
    assert_close(g.getBBTight(), entry["bbTightLocal"])
    g.setCurrentTransform(*entry["rotatedTransform"])
    assert_close(g.getBBTight(), entry["bbTightRotated"], atol=2e-9)


# -------------------------------------------------------- GeometricPrimitive

PRIMITIVE_CASES = [
    ("setPoint", ([1, 2, 3],), "Point", [1, 2, 3]),
    ("setSphere", ([0, 1, 0], 0.25), "Sphere", [0, 1, 0, 0.25]),
    ("setSegment", ([0, 0, 0], [1, 1, 1]), "Segment", [0, 0, 0, 1, 1, 1]),
    ("setTriangle", ([0, 0, 0], [1, 0, 0], [0, 1, 0]), "Triangle", [0, 0, 0, 1, 0, 0, 0, 1, 0]),
    ("setPolygon", ([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0],), "Polygon", [4, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]),
    ("setAABB", ([-1, -2, -3], [1, 2, 3]), "AABB", [-1, -2, -3, 1, 2, 3]),
    ("setBox", ([0, 0, 0], so3.rotation([0, 0, 1], 0.3), [1, 2, 3]), "Box",
     [0, 0, 0] + so3.rotation([0, 0, 1], 0.3) + [1, 2, 3]),
]


@pytest.mark.parametrize("call,args,ptype,props", PRIMITIVE_CASES)
def test_primitive_setters_and_string_round_trip(call, args, ptype, props):
    p = GeometricPrimitive()
    getattr(p, call)(*args)
    assert p.type == ptype and p.isValid()
    assert_close(p.properties, props, atol=1e-15)
    q = GeometricPrimitive()
    assert q.loadString(p.saveString())
    assert q.type == ptype
    assert q.properties == p.properties  # exact: shortest round-trip formatting


def test_primitive_bad_input():
    p = GeometricPrimitive()
    with pytest.raises(ValueError):
        p.setSphere([0, 0, 0], -1)
    with pytest.raises(ValueError):
        p.setPoint([0, float("nan"), 0])
    with pytest.raises(ValueError):
        p.setAABB([1, 0, 0], [0, 1, 1])
    with pytest.raises(ValueError):
        p.setPolygon([0, 0, 0, 1, 1])
    with pytest.raises(ValueError, match="at least 3 points"):
        p.setPolygon([0, 0, 0, 1, 1, 1])
    with pytest.raises(ValueError):
        p.setBox([0, 0, 0], [2, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1])
    assert not p.loadString("Sphere 0 0 0")
    assert not p.loadString("Blob 1 2 3")
    assert not p.loadString("Point 1 x 3")
    p.type = "Sphere"
    p.properties = [0, 0, 0]
    assert not p.isValid()
    with pytest.raises(ValueError):
        Geometry3D(p)


def test_box_covers_origin_plus_rotated_dims():
    R = so3.rotation([1, 2, 3], 0.7)
    p = GeometricPrimitive()
    p.setBox([0.1, 0.2, 0.3], R, [1, 2, 0.5])
    corners = [so3.apply(R, [a, b, c]) for a in (0, 1) for b in (0, 2) for c in (0, 0.5)]
    corners = np.array(corners) + [0.1, 0.2, 0.3]
    assert_close(Geometry3D(p).getBBTight(), [corners.min(axis=0), corners.max(axis=0)], atol=1e-12)


# ------------------------------------------------------------ TriangleMesh

def test_mesh_views_write_through():
    m = TriangleMesh()
    m.setVertices(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=float))
    m.setIndices(np.array([[0, 1, 2]]))
    V = m.getVertices()
    I = m.getIndices()
    assert I.dtype == np.int32
    V[1, 0] = 5.0
    assert m.getVertices()[1, 0] == 5.0
    assert m.vertices[3] == 5.0
    m.vertices[4] = 2.0
    assert V[1, 1] == 2.0
    g = Geometry3D(m)
    assert_close(g.getBBTight(), [[0, 0, 0], [5, 2, 0]])
    m.translate([1, 1, 1])
    assert_close(V[0], [1, 1, 1])
    m.transform(so3.rotation([0, 0, 1], math.pi / 2), [0, 0, 0])
    assert_close(V[0], [-1, 1, 1], atol=1e-12)


def test_mesh_view_outlives_geometry():
    g = cube_mesh_geometry()
    m = g.getTriangleMesh()
    V = m.getVertices()
    I = m.getIndices()
    expected = V.copy()
    del g, m
    gc.collect()
    junk = [np.ones(len(expected) * 3) for _ in range(100)]  # reuse freed memory if any
    assert_close(V, expected)
    V[0, 0] = 42.0
    assert V[0, 0] == 42.0 and I.max() < len(V)
    del junk


def test_mesh_resize_keeps_old_views_valid():
    m = TriangleMesh()
    m.setVertices(np.zeros((3, 3)))
    old = m.getVertices()
    m.setVertices(np.ones((1000, 3)))
    gc.collect()
    assert_close(old, np.zeros((3, 3)))
    assert m.getVertices().shape == (1000, 3)


def test_get_triangle_mesh_is_a_copy():
    g = cube_mesh_geometry()
    m = g.getTriangleMesh()
    m.getVertices()[:] *= 2
    assert_close(g.getBBTight(), [[-0.5] * 3, [0.5] * 3])
    g.setTriangleMesh(m)
    assert_close(g.getBBTight(), [[-1] * 3, [1] * 3])


def test_mesh_bad_input():
    m = TriangleMesh()
    with pytest.raises(ValueError):
        m.setVertices(np.zeros((3, 2)))
    with pytest.raises(ValueError):
        m.setVertices(np.array([[0, 0, float("nan")]]))
    with pytest.raises(ValueError):
        m.setIndices(np.array([[0, -1, 2]]))
    with pytest.raises(TypeError):
        m.setIndices(np.array([[0.5, 1, 2]]))
    m.setVertices(np.zeros((3, 3)))
    m.setIndices(np.array([[0, 1, 3]]))
    with pytest.raises(ValueError):
        Geometry3D(m)
    g = sphere_geometry()
    with pytest.raises(ValueError):
        g.getTriangleMesh()


# --------------------------------------------------------------- PointCloud

def test_point_cloud_properties_and_points():
    pc = PointCloud()
    pc.propertyNames = ["rgb"]
    assert pc.addPoint([0, 0, 0]) == 0
    assert pc.addPoint([1, 2, 3]) == 1
    assert pc.numPoints() == 2 and pc.numProperties() == 1
    assert pc.getProperty(1, 0) == 0.0
    pc.setProperty(1, "rgb", 0xff0000)
    assert pc.getProperty(1, "rgb") == 0xff0000
    pc.addProperty("radius", [0.1, 0.2])
    assert pc.getAllProperties().shape == (2, 2)
    assert_close(pc.getProperties("radius"), [0.1, 0.2])
    assert_close(pc.getProperties(1), [0.1, 0.2])
    pc.setProperties(1, [0.3, 0.4])
    assert_close(pc.getAllProperties()[:, 1], [0.3, 0.4])
    A = pc.getAllProperties()
    A[0, 1] = 9.0
    assert pc.getProperty(0, "radius") == 9.0
    assert pc.getPoint(1) == [1, 2, 3]
    pc.setPoint(0, [4, 5, 6])
    assert_close(pc.getPoints(), [[4, 5, 6], [1, 2, 3]])
    assert_close(pc.vertices, [4, 5, 6, 1, 2, 3])
    assert_close(pc.properties, [0, 9.0, 0xff0000, 0.4])
    pc.setSetting("id", "7")
    assert pc.getSetting("id") == "7" and pc.settings["id"] == "7"
    with pytest.raises(KeyError):
        pc.getProperty(0, "normal_x")
    with pytest.raises(IndexError):
        pc.getPoint(2)
    with pytest.raises(ValueError):
        pc.addProperty("bad", [1, 2, 3])
    with pytest.raises(ValueError):
        pc.setPointsAndProperties(np.zeros((2, 4)))
    pc.setPointsAndProperties(np.arange(10.0).reshape(2, 5))
    assert_close(pc.getPoints(), [[0, 1, 2], [5, 6, 7]])
    assert_close(pc.getAllProperties(), [[3, 4], [8, 9]])


def test_point_cloud_join_and_transform():
    a = PointCloud()
    a.setPoints(np.array([[0, 0, 0.0]]))
    a.addProperty("normal_x", [1.0])
    a.addProperty("normal_y", [0.0])
    a.addProperty("normal_z", [0.0])
    b = PointCloud()
    b.setPoints(np.array([[1, 1, 1.0]]))
    with pytest.raises(ValueError):
        a.join(b)
    for n in ("normal_x", "normal_y", "normal_z"):
        b.addProperty(n, [0.0])
    a.join(b)
    assert a.numPoints() == 2
    a.transform(so3.rotation([0, 0, 1], math.pi / 2), [0, 0, 1])
    assert_close(a.getPoints(), [[0, 0, 1], [-1, 1, 2]], atol=1e-12)
    assert_close(a.getAllProperties()[0], [0, 1, 0], atol=1e-12)  # the normal is rotated


def test_depth_image_back_projection():
    fx, fy, cx, cy = 100.0, 120.0, 2.0, 1.5
    h, w = 4, 5
    depth = np.arange(1, h * w + 1, dtype=np.uint16).reshape(h, w)
    depth[0, 0] = 0  # no reading
    pc = PointCloud()
    pc.setDepthImage([fx, fy, cx, cy], depth, 0.01)
    assert pc.numPoints() == h * w
    assert pc.getSetting("width") == "5" and pc.getSetting("height") == "4"
    P = pc.getPoints()
    for v in range(h):
        for u in range(w):
            d = depth[v, u] * 0.01
            expected = [(u - cx) * d / fx, (v - cy) * d / fy, d] if d > 0 else [0, 0, 0]
            assert_close(P[v * w + u], expected, atol=1e-12)
    for dtype in (np.float32, np.float64):
        other = PointCloud()
        other.setDepthImage_d([fx, fy, cx, cy], depth.astype(dtype), 0.01)
        assert_close(other.getPoints(), P, atol=1e-7)


def test_rgbd_images_pack_colors():
    depth = np.ones((2, 3))
    color = np.zeros((2, 3, 3), dtype=np.uint8)
    color[0, 1] = [255, 128, 1]
    pc = PointCloud()
    pc.setRGBDImages([1, 1, 0, 0], color, depth)
    assert pc.propertyNames == ["rgb"]
    assert pc.getProperty(1, "rgb") == 0xff8001
    packed = np.zeros((2, 3), dtype=np.uint32)
    packed[1, 2] = 0x123456
    pc.setRGBDImages_i_d([1, 1, 0, 0], packed, depth, 1.0)
    assert pc.getProperty(5, "rgb") == 0x123456
    fcolor = np.zeros((2, 3, 3))
    fcolor[0, 0] = [1.0, 0.0, 0.5]
    pc.setRGBDImages([1, 1, 0, 0], fcolor, depth)
    assert pc.getProperty(0, "rgb") == 0xff0080
    with pytest.raises(ValueError):
        pc.setRGBDImages([1, 1, 0, 0], np.zeros((3, 3, 3), dtype=np.uint8), depth)
    with pytest.raises(ValueError):
        pc.setDepthImage([0, 1, 0, 0], depth)


def test_structured_cloud_to_mesh():
    depth = np.ones((3, 4))
    pc = PointCloud()
    pc.setDepthImage([1, 1, 1.5, 1], depth)
    m = Geometry3D(pc).convert("TriangleMesh").getTriangleMesh()
    assert m.getIndices().shape == (2 * 2 * 3, 3)
    # A fronto-parallel plane: every normal faces the camera (-z).
    V, F = m.getVertices(), m.getIndices()
    n = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
    assert (n[:, 2] < 0).all()
    depth[1, 1] = 5.0
    pc.setDepthImage([1, 1, 1.5, 1], depth)
    split = Geometry3D(pc).convert("TriangleMesh", 0.5).getTriangleMesh()
    assert split.getIndices().shape[0] == 12 - 6  # the six triangles at the jump are dropped


# ------------------------------------------------ ConvexHull and VolumeGrid

def test_convex_hull_class():
    h = ConvexHull()
    h.setPoints(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=float))
    h.addPoint([0, 0, 1])
    assert h.numPoints() == 4 and h.getPoint(3) == [0, 0, 1]
    P = h.getPoints()
    P[3, 2] = 2.0
    assert h.points[11] == 2.0
    h.translate([1, 0, 0])
    g = Geometry3D(h)
    assert g.type() == "ConvexHull"
    assert_close(g.getBBTight(), [[1, 0, 0], [2, 1, 2]])
    volume, _ = mesh_volume_area(g.convert("TriangleMesh").getTriangleMesh())
    assert volume == pytest.approx(2.0 / 6.0)


def test_volume_grid_class():
    vg = VolumeGrid()
    vg.setBounds([0, 0, 0], [1, 2, 3])
    vg.resize(2, 3, 4)
    assert vg.dims == [2, 3, 4] and vg.bbox == [0, 0, 0, 1, 2, 3]
    vg.set(1.5)
    vg.set(1, 2, 3, -1.0)
    assert vg.get(1, 2, 3) == -1.0 and vg.get(0, 0, 0) == 1.5
    vg.shift(1.0)
    V = vg.getValues()
    assert V.shape == (2, 3, 4) and V[1, 2, 3] == 0.0
    V[0, 1, 2] = 7.0
    assert vg.get(0, 1, 2) == 7.0  # flat index (0*3 + 1)*4 + 2
    vals = np.random.RandomState(0).rand(3, 2, 2)
    vg.setValues(vals)
    assert vg.dims == [3, 2, 2]
    assert_close(vg.values, vals)
    with pytest.raises(IndexError):
        vg.get(3, 0, 0)
    with pytest.raises(ValueError):
        vg.setBounds([1, 0, 0], [0, 1, 1])
    g = Geometry3D(vg)
    assert g.type() == "VolumeGrid" and g.numElements() == 12
    assert_close(g.getVolumeGrid().getValues(), vals)


# ---------------------------------------------------------- Geometry3D data

def test_geometry3d_copy_set_free():
    a = sphere_geometry()
    a.setCurrentTransform(so3.rotation([0, 1, 0], 0.4), [1, 2, 3])
    a.setCollisionMargin(0.1)
    b = a.copy()
    c = Geometry3D(a)
    for other in (b, c, a.clone()):
        assert other.isStandalone()
        assert other.getCollisionMargin() == 0.1
        assert_transform(other.getCurrentTransform(), a.getCurrentTransform())
    b.translate([1, 0, 0])  # copy-on-write: a is unchanged
    assert_close(a.getGeometricPrimitive().properties, [0, 0, 0, 0.5])
    assert_close(b.getGeometricPrimitive().properties, [1, 0, 0, 0.5])
    d = Geometry3D()
    assert d.empty() and d.type() == ""
    d.set(b)
    assert d.type() == "GeometricPrimitive"
    d.free()
    assert d.empty() and d.isStandalone()
    with pytest.raises(ValueError):
        d.getBB()


def test_geometry3d_transforms():
    g = cube_mesh_geometry()
    g.translate([1, 2, 3])
    assert_close(g.getBBTight(), [[0.5, 1.5, 2.5], [1.5, 2.5, 3.5]])
    g.scale(2)
    assert_close(g.getBBTight(), [[1, 3, 5], [3, 5, 7]])
    g.scale(1, 0.5, 1)
    assert_close(g.getBBTight(), [[1, 1.5, 5], [3, 2.5, 7]])
    g.rotate(so3.rotation([0, 0, 1], math.pi / 2))
    assert_close(g.getBBTight(), [[-2.5, 1, 5], [-1.5, 3, 7]], atol=1e-12)
    g.transform(so3.identity(), [0, 0, -5])
    assert_close(g.getBBTight(), [[-2.5, 1, 0], [-1.5, 3, 2]], atol=1e-12)
    with pytest.raises(ValueError):
        g.translate([0, float("nan"), 0])
    with pytest.raises(ValueError):
        g.setCollisionMargin(-1)
    with pytest.raises(ValueError):
        g.setCurrentTransform(so3.identity(), [float("inf"), 0, 0])


def test_geometry3d_file_round_trips(tmp_path):
    cases = []
    mesh = cube_mesh_geometry()
    mesh.translate([0.25, 0, 0])
    cases += [(mesh, "m.off"), (mesh, "m.obj"), (mesh, "m.stl")]
    cases.append((sphere_geometry((1, 2, 3), 0.3), "s.geom"))
    pc = mesh.convert("PointCloud", 0.3)
    cases.append((pc, "p.pcd"))
    group = Geometry3D()
    group.setGroup()
    group.setElement(0, sphere_geometry())
    group.setElement(1, mesh)
    cases.append((group, "g.geom"))
    for g, name in cases:
        fn = str(tmp_path / name)
        assert g.saveFile(fn), name
        h = Geometry3D()
        assert h.loadFile(fn), name
        assert h.type() == g.type(), name
        assert h.numElements() == g.numElements(), name
        assert_close(h.getBBTight(), g.getBBTight(), atol=1e-6, what=name)
    assert not Geometry3D().loadFile(str(tmp_path / "missing.off"))


def test_group_elements():
    g = Geometry3D()
    g.setGroup()
    assert g.type() == "Group" and g.numElements() == 0
    g.setElement(0, sphere_geometry((0, 0, 0), 0.5))
    g.setElement(1, sphere_geometry((2, 0, 0), 0.5))
    assert g.numElements() == 2
    assert_close(g.getBBTight(), [[-0.5, -0.5, -0.5], [2.5, 0.5, 0.5]])
    e = g.getElement(1)
    assert e.type() == "GeometricPrimitive"
    assert_close(e.getGeometricPrimitive().properties, [2, 0, 0, 0.5])
    e.translate([1, 0, 0])  # a copy: the group is unchanged
    assert_close(g.getBBTight()[1], [2.5, 0.5, 0.5])
    g.setElement(0, e)
    assert_close(g.getBBTight(), [[1.5, -0.5, -0.5], [3.5, 0.5, 0.5]])
    with pytest.raises(IndexError):
        g.getElement(2)
    with pytest.raises(IndexError):
        g.setElement(5, e)
    with pytest.raises(ValueError):
        sphere_geometry().getElement(0)


def test_mesh_and_cloud_elements():
    g = cube_mesh_geometry()
    n = g.numElements()
    assert n == 12
    tri = g.getElement(3).getGeometricPrimitive()
    m = g.getTriangleMesh()
    V, F = m.getVertices(), m.getIndices()
    assert tri.type == "Triangle"
    assert_close(tri.properties, V[F[3]].ravel())
    moved = GeometricPrimitive()
    moved.setTriangle(*(V[F[3]] * 2).tolist())
    g.setElement(3, Geometry3D(moved))
    assert_close(g.getTriangleMesh().getVertices()[F[3]], V[F[3]] * 2)
    pc = g.convert("PointCloud")
    assert pc.getElement(0).getGeometricPrimitive().type == "Point"
    with pytest.raises(ValueError):
        g.setElement(0, sphere_geometry())
    with pytest.raises(ValueError, match="needs a Group, TriangleMesh or PointCloud, not an empty geometry"):
        Geometry3D().setElement(0, sphere_geometry())
    with pytest.raises(ValueError, match="not GeometricPrimitive"):
        sphere_geometry().setElement(0, sphere_geometry())


def test_set_convex_hull_group():
    a = sphere_geometry(radius=0.5)
    b = sphere_geometry(radius=0.5)
    b.setCurrentTransform(so3.identity(), [2, 0, 0])
    h = Geometry3D()
    h.setConvexHullGroup(a, b)
    assert h.type() == "ConvexHull"
    lo, hi = h.getBBTight()
    assert lo[0] == pytest.approx(-0.5, abs=1e-9) and hi[0] == pytest.approx(2.5, abs=1e-9)


# -------------------------------------------------------------- conversions

def test_sphere_to_mesh_volume_and_area():
    r = 0.7
    m = sphere_geometry((1, 0, 0), r).convert("TriangleMesh", 0.02).getTriangleMesh()
    volume, area = mesh_volume_area(m)
    assert volume == pytest.approx(4 / 3 * math.pi * r ** 3, rel=2e-3)
    assert area == pytest.approx(4 * math.pi * r ** 2, rel=2e-3)
    assert volume < 4 / 3 * math.pi * r ** 3  # inscribed polyhedron
    assert np.allclose(np.linalg.norm(m.getVertices() - [1, 0, 0], axis=1), r)


def test_box_primitive_to_mesh_volume():
    p = GeometricPrimitive()
    p.setBox([1, 0, 0], so3.rotation([1, 1, 0], 0.5), [1, 2, 3])
    volume, area = mesh_volume_area(Geometry3D(p).convert("TriangleMesh").getTriangleMesh())
    assert volume == pytest.approx(6.0) and area == pytest.approx(22.0)


def test_mesh_to_volume_grid_matches_brute_force():
    g = Geometry3D()
    assert g.loadFile(os.path.join(PROJECT_DATA, "meshes", "cylinder_unit.off"))
    vg = g.convert("VolumeGrid", 0.1).getVolumeGrid()
    m = g.getTriangleMesh()
    V, F = m.getVertices(), m.getIndices()
    lo, hi = np.array(vg.bbox[:3]), np.array(vg.bbox[3:])
    dims = np.array(vg.dims)
    cell = (hi - lo) / dims
    assert_close(cell, [0.1] * 3)
    values = vg.getValues()
    rng = np.random.RandomState(3)
    for _ in range(40):
        idx = rng.randint(0, dims)
        p = lo + (idx + 0.5) * cell
        d = min(point_triangle_distance(p, *V[f]) for f in F)
        # Inside the (closed, convex) cylinder mesh: all face planes below.
        n = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
        inside = (np.einsum("ij,ij->i", p - V[F[:, 0]], n) < 0).all()
        assert values[tuple(idx)] == pytest.approx(-d if inside else d, abs=1e-9)


def test_cube_volume_grid_sign_and_distance():
    vg = cube_mesh_geometry().convert("VolumeGrid", 0.05).getVolumeGrid()
    lo, dims = np.array(vg.bbox[:3]), np.array(vg.dims)
    cell = (np.array(vg.bbox[3:]) - lo) / dims
    ii = np.stack(np.meshgrid(*[np.arange(n) for n in dims], indexing="ij"), axis=-1)
    P = lo + (ii + 0.5) * cell
    q = np.abs(P) - 0.5  # exact signed distance to the unit cube
    sdf = np.linalg.norm(np.maximum(q, 0), axis=-1) + np.minimum(q.max(axis=-1), 0)
    assert_close(vg.getValues(), sdf, atol=1e-9)


def test_marching_cubes_of_sphere_sdf():
    r = 0.4
    vg = sphere_geometry(radius=r).convert("VolumeGrid", 0.04)
    grid = vg.getVolumeGrid()
    assert grid.getValues().min() < 0 < grid.getValues().max()
    m = vg.convert("TriangleMesh").getTriangleMesh()
    radii = np.linalg.norm(m.getVertices(), axis=1)
    assert np.abs(radii - r).max() < 0.01
    volume, area = mesh_volume_area(m)
    assert volume == pytest.approx(4 / 3 * math.pi * r ** 3, rel=0.03)  # positive: faces point outward
    assert area == pytest.approx(4 * math.pi * r ** 2, rel=0.05)
    # Another level set is a concentric sphere.
    outer = vg.convert("TriangleMesh", 0.1).getTriangleMesh()
    assert np.abs(np.linalg.norm(outer.getVertices(), axis=1) - (r + 0.1)).max() < 0.01
    pts = vg.convert("PointCloud").getPointCloud().getPoints()
    assert np.abs(np.linalg.norm(pts, axis=1) - r).max() < 0.01


def test_convex_hull_of_cube_point_cloud():
    pc = cube_mesh_geometry().convert("PointCloud", 0.1)
    hull = pc.convert("ConvexHull")
    assert hull.type() == "ConvexHull"
    assert hull.getConvexHull().numPoints() == 8  # only the corners are hull vertices
    volume, area = mesh_volume_area(hull.convert("TriangleMesh").getTriangleMesh())
    assert volume == pytest.approx(1.0) and area == pytest.approx(6.0)
    mesh_hull = cube_mesh_geometry().convert("ConvexHull")
    assert_close(mesh_hull.getBBTight(), [[-0.5] * 3, [0.5] * 3])


def test_conversion_bounding_boxes_within_resolution():
    g = Geometry3D()
    assert g.loadFile(os.path.join(PROJECT_DATA, "meshes", "sphere_unit.off"))
    lo, hi = np.array(g.getBBTight())
    for res in (0.05, 0.2):
        pc = g.convert("PointCloud", res)
        hull = pc.convert("ConvexHull")
        for h in (pc, hull):
            hlo, hhi = np.array(h.getBBTight())
            assert (np.abs(hlo - lo) <= res).all() and (np.abs(hhi - hi) <= res).all()


def test_conversion_errors():
    g = sphere_geometry()
    with pytest.raises(ValueError):
        g.convert("Blob")
    with pytest.raises(ValueError):
        Geometry3D().convert("TriangleMesh")
    p = GeometricPrimitive()
    p.setPoint([0, 0, 0])
    with pytest.raises(ValueError):
        Geometry3D(p).convert("TriangleMesh")
    pc = PointCloud()
    pc.setPoints(np.zeros((5, 3)))
    with pytest.raises(RuntimeError):
        Geometry3D(pc).convert("ConvexHull")  # degenerate: Qhull fails
    with pytest.raises(ValueError):
        Geometry3D(pc).convert("TriangleMesh")  # not structured
    with pytest.raises(ValueError):
        cube_mesh_geometry().convert("VolumeGrid", 1e-5)  # too many cells


# --------------------------------------------------------------- slice / roi

def test_slice_mesh_and_cloud():
    g = cube_mesh_geometry()
    g.setCurrentTransform(so3.identity(), [0, 0, 1])
    s = g.slice(so3.identity(), [0, 0, 1.1], 0)
    assert s.type() == "Group" and s.numElements() == 8  # two triangles per side face
    assert_transform(s.getCurrentTransform(), (so3.identity(), [0, 0, 1.1]))
    for i in range(s.numElements()):
        seg = s.getElement(i).getGeometricPrimitive()
        assert seg.type == "Segment"
        pts = np.array(seg.properties).reshape(2, 3)
        assert_close(pts[:, 2], [0, 0], atol=1e-12)
        assert (np.abs(pts[:, :2]).max(axis=1) == pytest.approx(0.5))
    pc = g.convert("PointCloud", 0.1)
    sl = pc.slice(so3.identity(), [0, 0, 1], 0.01)
    P = sl.getPointCloud().getPoints()
    assert len(P) > 0 and np.abs(P[:, 2]).max() <= 0.01
    with pytest.raises(ValueError):
        pc.slice(so3.identity(), [0, 0, 1], 0)


def test_roi_mesh_and_cloud():
    g = cube_mesh_geometry()
    g.setCurrentTransform(so3.identity(), [1, 0, 0])
    pc = g.convert("PointCloud", 0.1)
    n = pc.getPointCloud().numPoints()
    inside = pc.roi("within", [0.4, -1, -1], [1.0, 1, 1]).getPointCloud()
    outside = pc.roi("~within", [0.4, -1, -1], [1.0, 1, 1]).getPointCloud()
    assert inside.numPoints() + outside.numPoints() == n
    world_x = inside.getPoints()[:, 0] + 1
    assert (world_x >= 0.4).all() and (world_x <= 1.0).all()
    touching = g.roi("touching", [1.4, -1, -1], [2, 1, 1]).getTriangleMesh()
    within = g.roi("within", [1.4, -1, -1], [2, 1, 1]).getTriangleMesh()
    assert within.getIndices().shape[0] == 2  # only the +x face lies in the box
    assert touching.getIndices().shape[0] == 2 + 8  # and the side faces touch it
    with pytest.raises(ValueError):
        g.roi("near", [0, 0, 0], [1, 1, 1])


# ----------------------------------------- element geometries and appearances

def test_element_geometry_references_world():
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))
    robot = world.robot(0)
    link = robot.link(robot.numLinks() - 1)
    geom = link.geometry()
    assert not geom.isStandalone()
    assert geom.world == world.index
    assert geom.id == link.getID()
    local = geom.copy()
    local.setCurrentTransform(*IDENTITY)
    lb = np.array(local.getBBTight())
    geom.translate([0.1, 0, 0])
    moved = link.geometry().copy()
    moved.setCurrentTransform(*IDENTITY)
    assert_close(moved.getBBTight(), lb + [[0.1, 0, 0], [0.1, 0, 0]])
    # The link's transform still places the edited geometry.
    q = robot.getConfig()
    q[1] += 0.5
    robot.setConfig(q)
    assert_transform(link.geometry().getCurrentTransform(), link.getTransform())
    # The handle keeps the world alive.
    del world, robot, link
    gc.collect()
    assert_close(np.array(geom.getBBTight()).shape, (2, 3))


def test_element_geometry_set_and_free():
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))
    obj_geom = world.rigidObject(0).geometry()
    pose = obj_geom.getCurrentTransform()
    obj_geom.set(sphere_geometry(radius=0.1))
    assert obj_geom.type() == "GeometricPrimitive"
    assert_transform(obj_geom.getCurrentTransform(), pose)  # an element keeps its pose
    again = world.rigidObject(0).geometry()
    assert again.type() == "GeometricPrimitive"
    obj_geom.free()
    assert obj_geom.isStandalone() and obj_geom.empty()
    assert not again.empty()


def test_element_geometry_after_world_copy_is_independent():
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))
    copy = world.copy()
    g1 = world.robot(0).link(1).geometry()
    g2 = copy.robot(0).link(1).geometry()
    bb = np.array(g2.getBBTight())
    g1.scale(2.0)
    assert_close(g2.getBBTight(), bb)  # shared shape data is copied on write


def test_appearance_data():
    a = Appearance()
    assert a.isStandalone() and a.getDraw()
    a.setColor(1, 0, 0)
    assert a.getColor() == [1.0, 0.0, 0.0, 1.0]
    a.setColor(Appearance.EDGES, 0, 1, 0, 0.5)
    assert a.getColor(Appearance.EDGES) == [0.0, 1.0, 0.0, 0.5]
    assert a.getColor(Appearance.FACES) == [1.0, 0.0, 0.0, 1.0]
    a.setColor(Appearance.ALL, 0, 0, 1, 1)
    assert a.getColor(Appearance.VERTICES) == [0.0, 0.0, 1.0, 1.0]
    a.setDraw(Appearance.EDGES, True)
    assert a.getDraw(Appearance.EDGES) and a.getDraw(Appearance.FACES)
    a.setDraw(False)
    assert not a.getDraw()
    a.setTintColor([0.5, 0.5, 0.5, 1], 0.25)
    assert a.getTintColor() == [0.5, 0.5, 0.5, 1.0] and a.getTintStrength() == 0.25
    a.setShininess(20, 0.1)
    assert a.getShininess() == 20.0
    assert a.getColor(Appearance.SPECULAR) == pytest.approx([0.1, 0.1, 0.1, 1.0])
    a.setElementColor(Appearance.FACES, 3, 0.2, 0.3, 0.4)
    assert a.getElementColor(Appearance.FACES, 3) == pytest.approx([0.2, 0.3, 0.4, 1.0])
    assert a.getElementColor(Appearance.FACES, 1) == a.getColor(Appearance.FACES)
    a.setColors(Appearance.VERTICES, np.array([[1, 0, 0], [0, 1, 0]], dtype=np.float32))
    assert a.getElementColor(Appearance.VERTICES, 1) == [0.0, 1.0, 0.0, 1.0]
    a.setTexture2D("rgb8", np.zeros((4, 8, 3), dtype=np.uint8))
    a.setTexture1D("rgba8", np.zeros(16, dtype=np.uint32))
    a.setTexture2D_b("l8", np.zeros((2, 2), dtype=np.uint8), False)
    a.setTexture1D("", None)
    a.setTexcoords2D(np.zeros((8, 2)))
    a.setTexcoords1D(np.zeros(8))
    a.setTexgen(np.eye(4)[:2], True)
    a.setTexWrap(False)
    a.setPointSize(5)
    a.setCreaseAngle(0.5)
    a.setSilhouette(0.01, 1, 1, 1)
    a.refresh()
    b = a.clone()
    b.setColor(0, 0, 0)
    assert a.getColor() == [0.0, 0.0, 1.0, 1.0]
    c = Appearance(a)
    assert c.getTintStrength() == 0.25


def test_appearance_bad_input():
    a = Appearance()
    with pytest.raises(ValueError):
        a.setColor(9, 0, 0, 0, 1)
    with pytest.raises(ValueError):
        a.setColors(Appearance.EDGES, np.zeros((2, 3), dtype=np.float32))
    with pytest.raises(ValueError):
        a.setColors(Appearance.FACES, np.zeros((2, 5), dtype=np.float32))
    with pytest.raises(ValueError):
        a.setTexture2D("rgb8", np.zeros((4, 8, 4), dtype=np.uint8))
    with pytest.raises(ValueError):
        a.setTexture2D("xyz8", np.zeros((4, 8, 3), dtype=np.uint8))
    with pytest.raises(ValueError):
        a.setTexcoords(np.zeros((3, 3)))
    with pytest.raises(ValueError):
        a.setTexgen(np.zeros((5, 4)))
    with pytest.raises(IndexError):
        a.setElementColor(Appearance.FACES, -1, 0, 0, 0)
    with pytest.raises(ValueError):
        a.setColor(float("nan"), 0, 0)
    with pytest.raises(RuntimeError, match="OpenGL"):
        a.drawGL(sphere_geometry())
    with pytest.raises(RuntimeError, match="OpenGL"):
        a.drawWorldGL(sphere_geometry())


def test_element_appearance_is_shared():
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))
    link = world.robot(0).link(2)
    app = link.appearance()
    assert not app.isStandalone() and app.id == link.getID()
    app.setColor(0.1, 0.2, 0.3, 0.4)
    assert link.appearance().getColor() == pytest.approx((0.1, 0.2, 0.3, 0.4))
    standalone = app.clone()
    standalone.setColor(1, 1, 1)
    assert link.appearance().getColor() == pytest.approx((0.1, 0.2, 0.3, 0.4))
    link.appearance().set(standalone)
    assert app.getColor() == [1.0, 1.0, 1.0, 1.0]


def test_text_mesh_numbers_and_whitespace(tmp_path, caplog):
    # Tokens are separated by the C locale's whitespace (tabs, CR LF, form
    # feeds too), '#' comments run to the end of the line, and counts and
    # indices are decimal integers with an optional sign: anything else is
    # refused naming the file, the line and what it read.
    good = "OFF\r\n# a tetrahedron\r\n+4\t4 0\n0 0 0\n1 0 0\f\n0 1 0\n0 0 1 # apex\n3 0 2 1\n3 0 1 3\n3 0 3 +2\n3 1 2 3\n"
    path = tmp_path / "good.off"
    path.write_bytes(good.encode())
    g = Geometry3D()
    assert g.loadFile(str(path))
    m = g.getTriangleMesh()
    np.testing.assert_array_equal(np.array(m.getIndices()).reshape(-1, 3)[2], [0, 3, 2])
    np.testing.assert_array_equal(np.array(m.getVertices()), [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    for count in ("+-4", "4.0", "0x4", "99999999999999999999", "+"):
        path = tmp_path / "bad.off"
        path.write_text(good.replace("+4\t4 0", count + " 4 0"))
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="klampt"):
            assert not Geometry3D().loadFile(str(path))
        said = caplog.text
        assert '%s:3: expected integer vertex count, got "%s"' % (path, count) in said, said
