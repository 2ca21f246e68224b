"""Klamp't 0.10's members of the geometry classes: copy / set / dataPtr /
isStandalone on every data type, TriangleMesh's building and normal
methods, PointCloud's points, property names and colors, GeometricPrimitive's
getType / getProperties / setProperties, ImplicitSurface (0.10's name of
VolumeGrid) with its bounds, values, scale and truncation distance,
Geometry3D's ImplicitSurface synonyms, and Appearance's getters. Values are
checked against Klamp't 0.10.1's answers (tests/data/names_0_10_reference.json,
recorded by make_names_0_10_reference.py), geometric identities and
round trips through the setters."""
import json
import math
import os

import numpy as np
import pytest

import klampt
from conftest import TEST_DATA, assert_close

with open(os.path.join(TEST_DATA, "names_0_10_reference.json")) as _f:
    REF = json.load(_f)


def _triangle_mesh():
    m = klampt.TriangleMesh()
    ref = REF["mesh"]
    m.setVertices(np.array(ref["vertices"]).reshape(-1, 3))
    m.setIndices(np.array(ref["indices"], dtype=np.int32).reshape(-1, 3))
    return m


def _filled(cls):
    """A non-empty object of each data class."""
    if cls is klampt.TriangleMesh:
        return _triangle_mesh()
    if cls is klampt.PointCloud:
        pc = klampt.PointCloud()
        pc.setPoints(np.array([[0, 0, 0], [1, 2, 3.0]]))
        pc.addProperty("w", [0.5, 0.25])
        return pc
    if cls is klampt.GeometricPrimitive:
        p = klampt.GeometricPrimitive()
        p.setSphere([1, 2, 3], 0.5)
        return p
    if cls is klampt.ConvexHull:
        h = klampt.ConvexHull()
        h.setPoints(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]]))
        return h
    g = klampt.VolumeGrid()
    g.setBounds([0, 0, 0], [1, 1, 1])
    g.setValues(np.arange(8, dtype=float).reshape(2, 2, 2))
    return g


def _content(obj):
    """The data of a data object, as comparable Python values."""
    if isinstance(obj, klampt.TriangleMesh):
        return obj.getVertices().tolist(), obj.getIndices().tolist()
    if isinstance(obj, klampt.PointCloud):
        return obj.getPoints().tolist(), obj.getAllProperties().tolist(), obj.propertyNames
    if isinstance(obj, klampt.GeometricPrimitive):
        return obj.saveString()
    if isinstance(obj, klampt.ConvexHull):
        return obj.getPoints().tolist()
    return obj.getValues().tolist(), obj.bbox, obj.getTruncationDistance()


def _edit(obj, k):
    """Changes obj's data, differently for each k > 0."""
    if isinstance(obj, klampt.GeometricPrimitive):
        obj.setSphere([0, 0, 0], 2.0 * k)
    elif isinstance(obj, klampt.VolumeGrid):
        obj.set(0, 0, 0, -5.0 * k)
    else:
        obj.translate([k, k, k])


DATA_CLASSES = [klampt.TriangleMesh, klampt.PointCloud, klampt.GeometricPrimitive, klampt.ConvexHull,
                klampt.VolumeGrid]


# ---------------------------------------------------- copy / set / pointers

@pytest.mark.parametrize("cls", DATA_CLASSES, ids=lambda c: c.__name__)
def test_copy_is_independent_and_set_copies(cls):
    a = _filled(cls)
    b = a.copy()
    assert type(b) is cls and _content(b) == _content(a) and b.dataPtr != a.dataPtr
    _edit(b, 1)
    assert _content(b) != _content(a)
    assert _content(a) == _content(_filled(cls))  # the original is untouched
    c = cls()
    c.set(b)
    assert _content(c) == _content(b)
    _edit(c, 2)
    assert _content(c) != _content(b)
    c.set(c)  # onto itself: unchanged
    assert _content(c) == _content(c.copy())


@pytest.mark.parametrize("cls", DATA_CLASSES, ids=lambda c: c.__name__)
def test_standalone_and_data_pointer(cls):
    a = _filled(cls)
    assert a.isStandalone is True
    assert isinstance(a.dataPtr, int) and a.dataPtr == a.dataPtr != 0
    g = klampt.Geometry3D(a)
    getter = {"GeometricPrimitive": "getGeometricPrimitive", "VolumeGrid": "getVolumeGrid"}.get(
        cls.__name__, "get" + cls.__name__)
    fetched = getattr(g, getter)()
    assert fetched.isStandalone is True and fetched.dataPtr != a.dataPtr
    with pytest.raises(TypeError):
        a.set(klampt.Geometry3D())


# ------------------------------------------------------------ TriangleMesh

def test_add_vertex_and_triangle_build_a_mesh():
    m = klampt.TriangleMesh()
    for p in [(0, 0, 0), [1, 0, 0], np.array([0, 1, 0.0])]:
        m.addVertex(p)
    m.addTriangleIndices([0, 1, 2])
    m.addTriangleIndices(np.array([2, 1, 0]))
    assert m.getVertices().tolist() == [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    assert m.getIndices().tolist() == [[0, 1, 2], [2, 1, 0]]
    view = m.getVertices()
    m.addVertex([5, 5, 5])
    assert view.shape == (3, 3) and m.getVertices().shape == (4, 3)  # an old view keeps the old data
    with pytest.raises(ValueError):
        m.addVertex([1, 2])
    with pytest.raises(ValueError):
        m.addVertex([1, 2, float("nan")])
    with pytest.raises(ValueError):
        m.addTriangleIndices([0, -1, 2])
    with pytest.raises(ValueError):
        m.addTriangleIndices([0, 1])
    with pytest.raises(TypeError):
        m.addTriangleIndices([0.5, 1, 2])


def test_triangle_and_normals_match_the_reference():
    m = _triangle_mesh()
    ref = REF["mesh"]
    tri = m.triangle(2)
    assert isinstance(tri, tuple) and len(tri) == 3
    assert_close([list(v) for v in tri], ref["triangle2"], atol=0)
    assert_close([list(v) for v in m.triangle(-1)], [list(v) for v in m.triangle(3)], atol=0)
    with pytest.raises(IndexError):
        m.triangle(4)
    assert_close(m.triangleNoormals(), np.array(ref["triangleNormals"]).reshape(-1, 3), atol=1e-12)
    assert_close(m.triangleNormals(), m.triangleNoormals(), atol=0)
    assert_close(m.vertexNormals(), np.array(ref["vertexNormalsArea"]).reshape(-1, 3), atol=1e-12)
    assert_close(m.vertexNormals(area_weighted=False), np.array(ref["vertexNormalsSimple"]).reshape(-1, 3),
                 atol=1e-12)


def test_normals_are_unit_outward_on_a_closed_box():
    g = klampt.Geometry3D()
    prim = klampt.GeometricPrimitive()
    prim.setAABB([-1, -2, -3], [1, 2, 3])
    g.setGeometricPrimitive(prim)
    mesh = g.convert("TriangleMesh").getTriangleMesh()
    verts, tris = mesh.getVertices(), mesh.getIndices()
    n = mesh.triangleNormals()
    assert_close(np.linalg.norm(n, axis=1), np.ones(len(tris)), atol=1e-12)
    centroids = verts[tris].mean(axis=1)
    assert (np.einsum("ij,ij->i", n, centroids) > 0).all()  # outward: away from the centre
    vn = mesh.vertexNormals()
    assert (np.einsum("ij,ij->i", vn, verts) > 0).all()
    # Degenerate triangles and unused vertices give zero normals, not NaN.
    d = klampt.TriangleMesh()
    d.setVertices(np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0], [9, 9, 9.0]]))
    d.setIndices(np.array([[0, 1, 2]], dtype=np.int32))
    assert d.triangleNormals().tolist() == [[0, 0, 0]]
    assert d.vertexNormals().tolist() == [[0, 0, 0]] * 4
    bad = klampt.TriangleMesh()
    bad.setVertices(np.zeros((2, 3)))
    bad.setIndices(np.array([[0, 1, 5]], dtype=np.int32))
    with pytest.raises(IndexError):
        bad.triangleNormals()
    with pytest.raises(IndexError):
        bad.triangle(0)


# -------------------------------------------------------------- PointCloud

def test_point_cloud_points_and_property_names():
    pc = _filled(klampt.PointCloud)
    assert pc.points.shape == (2, 3) and pc.points.tolist() == pc.getPoints().tolist()
    pc.points[1, 0] = 7.0  # a view
    assert pc.getPoint(1)[0] == 7.0
    pc.points = np.array([[1, 1, 1], [2, 2, 2.0]])
    assert pc.getPoints().tolist() == [[1, 1, 1], [2, 2, 2]]
    pc.addProperty("v", [3.0, 4.0])
    assert pc.getPropertyNames() == ["w", "v"] == pc.propertyNames
    assert pc.propertyIndex("v") == 1 and pc.propertyIndex("nope") == -1
    assert pc.getPropertyName(0) == "w"
    pc.setPropertyName(0, "weight")
    assert pc.getPropertyNames() == ["weight", "v"] and pc.getProperty(0, "weight") == 0.5
    with pytest.raises(IndexError):
        pc.getPropertyName(2)
    with pytest.raises(IndexError):
        pc.setPropertyName(-1, "x")


def test_point_cloud_properties_serve_both_releases():
    pc = _filled(klampt.PointCloud)
    pc.addProperty("v", [3.0, 4.0])
    # 0.9: a flat view, point by point.
    assert pc.properties.tolist() == [0.5, 3.0, 0.25, 4.0]
    pc.properties = [1, 2, 3, 4]
    assert pc.getAllProperties().tolist() == [[1, 2], [3, 4]]
    # 0.10: getProperties() is the n x k view, and an n x k array can be assigned.
    view = pc.getProperties()
    assert view.shape == (2, 2) and view.tolist() == [[1, 2], [3, 4]]
    view[0, 1] = 9.0
    assert pc.getProperty(0, 1) == 9.0
    pc.properties = np.array([[5, 6], [7, 8.0]])
    assert pc.getAllProperties().tolist() == [[5, 6], [7, 8]]
    assert pc.getProperties(1).tolist() == [6, 8] and pc.getProperties("w").tolist() == [5, 7]
    with pytest.raises(ValueError):
        pc.properties = np.zeros((2, 3))


def test_point_cloud_colors_match_the_reference():
    ref = REF["pointCloud"]
    pc = klampt.PointCloud()
    pc.setPoints(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]]))
    assert pc.getColors() is None
    pc.setColors(np.array([[1.0, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 0.0, 1.0]]), ("r", "g", "b"))
    assert pc.getPropertyNames() == ref["propertyNames"]
    assert pc.propertyIndex("rgb") == ref["rgbIndex"]
    assert [int(x) for x in pc.getColors("rgb")] == ref["rgb"]
    # Klamp't 0.10 rounds channels to bytes (0.5 -> 128/255).
    assert_close([list(c) for c in pc.getColors(("r", "g", "b"))], ref["channels"], atol=0.5 / 255)
    assert_close(pc.getProperties(), np.array(ref["properties"]).reshape(3, 3), atol=0.5 / 255)
    pc2 = klampt.PointCloud()
    pc2.setPoints(np.zeros((2, 3)))
    pc2.setColors([0xff0000, 0x00ff00], "rgb", "rgb")
    assert pc2.getPropertyNames() == ["rgb"] and [int(x) for x in pc2.getColors()] == [0xff0000, 0x00ff00]


# ------------------------------------------------------- GeometricPrimitive

def test_primitive_get_type_and_properties_match_the_reference():
    ref = REF["primitive"]
    p = klampt.GeometricPrimitive()
    assert p.getType() == ref["empty"]
    cases = [("setPoint", ([1, 2, 3],)), ("setSphere", ([1, 2, 3], 0.5)), ("setSegment", ([0, 0, 0], [1, 1, 1])),
             ("setTriangle", ([0, 0, 0], [1, 0, 0], [0, 1, 0])), ("setAABB", ([0, 0, 0], [1, 2, 3])),
             ("setBox", ([0, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 2, 3]))]
    for name, args in cases:
        getattr(p, name)(*args)
        assert p.getType() == ref[name]["type"], name
        assert p.getType() == p.type.lower()  # the 0.9 property keeps its spelling
        props = p.getProperties()
        assert isinstance(props, np.ndarray)
        assert_close(props, ref[name]["properties"], atol=0, what=name)


def test_primitive_set_properties_is_validated():
    p = _filled(klampt.GeometricPrimitive)
    p.setProperties(np.array([0, 0, 1, 2.0]))
    assert p.saveString().split() == ["Sphere", "0", "0", "1", "2"]
    p.setProperties([4, 5, 6, 0.25])
    assert p.properties == [4, 5, 6, 0.25]
    props = p.getProperties()
    props[0] = 100  # a copy
    assert p.properties[0] == 4
    with pytest.raises(ValueError):
        p.setProperties([1, 2])
    with pytest.raises(ValueError):
        p.setProperties([0, 0, 0, float("inf")])
    assert p.properties == [4, 5, 6, 0.25]  # unchanged by a refused value


# ---------------------------------------------------------- ImplicitSurface

def test_implicit_surface_is_volume_grid():
    assert klampt.ImplicitSurface is klampt.VolumeGrid
    g = klampt.Geometry3D(_filled(klampt.VolumeGrid))
    s = g.getImplicitSurface()
    assert isinstance(s, klampt.ImplicitSurface) and s.getValues().tolist() == g.getVolumeGrid().getValues().tolist()
    s.set(0, 0, 0, 42.0)
    g2 = klampt.Geometry3D()
    g2.setImplicitSurface(s)
    assert g2.type() == "VolumeGrid" and g2.getVolumeGrid().get(0, 0, 0) == 42.0
    mesh = klampt.Geometry3D(_triangle_mesh())
    for name in ("ImplicitSurface", "VolumeGrid"):
        assert mesh.convert(name, 0.25).type() == "VolumeGrid"
    with pytest.raises(ValueError):
        klampt.Geometry3D(_triangle_mesh()).getImplicitSurface()


def test_implicit_surface_members_match_the_reference():
    ref = REF["implicitSurface"]
    g = klampt.ImplicitSurface()
    assert str(g.getTruncationDistance()) == ref["defaultTruncation"]
    g.resize(2, 3, 4)
    g.set(1.5)
    g.scale(2.0)
    g.shift(-1.0)
    assert g.get(1, 2, 3) == ref["scaledShifted"]
    g.bmin = [-1, -2, -3]
    g.bmax = [1, 2, 3]
    assert g.getBounds() == ref["bounds"] == g.bounds == g.bbox
    g.setBounds([0, 0, 0, 2, 4, 6])
    assert g.getBmin() == ref["bmin"] == g.bmin and g.getBmax() == ref["bmax"] == g.bmax
    g.setBounds([-1, -1, -1], [1, 1, 1])  # 0.9's form
    assert g.bounds == [-1, -1, -1, 1, 1, 1]
    g.bounds = [0, 0, 0, 3, 3, 3]
    assert g.bbox == [0, 0, 0, 3, 3, 3]
    g.setBmax([4, 5, 6])
    g.setBmin([1, 1, 1])
    assert g.bbox == [1, 1, 1, 4, 5, 6]
    with pytest.raises(ValueError):
        g.bmin = [5, 0, 0]  # above bmax
    with pytest.raises(ValueError):
        g.setBounds([0, 0, 0, 1, 1])


def test_implicit_surface_values_scale_and_truncation():
    g = klampt.ImplicitSurface()
    vals = np.arange(24, dtype=float).reshape(2, 3, 4)
    g.values = vals
    assert g.values.shape == (2, 3, 4) and g.values.tolist() == vals.tolist() and g.dims == [2, 3, 4]
    g.values[1, 2, 3] = -1.0  # a view
    assert g.get(1, 2, 3) == -1.0
    g.scale(-0.5)
    assert g.get(1, 0, 0) == -6.0 and g.get(1, 2, 3) == 0.5
    with pytest.raises(ValueError):
        g.scale(float("nan"))
    assert math.isinf(g.getTruncationDistance())
    g.setTruncationDistance(0.3)
    assert g.getTruncationDistance() == 0.3
    assert g.copy().getTruncationDistance() == 0.3
    h = klampt.ImplicitSurface()
    h.set(g)
    assert h.getTruncationDistance() == 0.3
    geom = klampt.Geometry3D(g)
    assert geom.getImplicitSurface().getTruncationDistance() == 0.3  # travels with the grid
    for bad in (-0.1, float("nan")):
        with pytest.raises(ValueError):
            g.setTruncationDistance(bad)
    g.setTruncationDistance(float("inf"))
    assert math.isinf(g.getTruncationDistance())


# --------------------------------------------------------------- Appearance

def test_appearance_getters_match_the_reference():
    ref = REF["appearance"]
    a = klampt.Appearance()
    assert [a.getTexture1D_format(), a.getTexture2D_format()] == ref["noTexture"]
    assert a.isTexgenWorld() == ref["defaultTexgenWorld"]
    assert_close(a.getColors(klampt.Appearance.FACES).reshape(-1), ref["facesNone"], atol=1e-7)
    assert_close(a.getColors(klampt.Appearance.VERTICES).reshape(-1), ref["verticesNone"], atol=1e-7)
    for getter in ("getTexture1D_channels", "getTexture2D_channels", "getTexcoords1D", "getTexcoords2D"):
        with pytest.raises(RuntimeError):
            getattr(a, getter)()
    assert a.getTexgenMatrix().shape == (0, 4)
    tex = np.arange(2 * 2 * 3, dtype=np.uint8).reshape(2, 2, 3)
    a.setTexture2D_channels("rgb8", tex)
    got = a.getTexture2D_channels()
    assert a.getTexture2D_format() == ref["tex2D"]["format"] and got.dtype == np.uint8
    assert got.reshape(-1).tolist() == ref["tex2D"]["data"]
    assert got.tolist() == tex.tolist()  # h x w x channels, as given
    assert a.getTexture1D_format() == ""  # two rows: not a 1D texture
    a.setTexture2D_channels("rgb8", tex, False)
    assert a.getTexture2D_channels().reshape(-1).tolist() == ref["tex2DBottomUp"]
    a.setTexcoords2D(np.array([[0.1, 0.2], [0.3, 0.4]]))
    assert_close(a.getTexcoords2D().reshape(-1), ref["texcoords2D"], atol=0)
    with pytest.raises(RuntimeError):
        a.getTexcoords1D()
    a.setTexture1D_channels("rgba8", np.arange(8, dtype=np.uint8).reshape(2, 4))
    assert a.getTexture1D_format() == ref["tex1D"]["format"]
    assert a.getTexture1D_channels().reshape(-1).tolist() == ref["tex1D"]["data"]
    assert a.getTexture1D_channels().shape == (2, 4)
    a.setTexcoords1D(np.array([0.1, 0.2, 0.3]))
    assert_close(a.getTexcoords1D(), ref["texcoords1D"], atol=0)
    a.setTexgen(np.array([[1, 0, 0, 0.5], [0, 1, 0, 0]]), True)
    assert_close(a.getTexgenMatrix().reshape(-1), ref["texgen"]["matrix"], atol=0)
    assert a.isTexgenWorld() == ref["texgen"]["world"]
    a.setColors(klampt.Appearance.FACES, np.array([[1, 0, 0, 1], [0, 1, 0, 0.5]], dtype=np.float32))
    colors = a.getColors(klampt.Appearance.FACES)
    assert colors.dtype == np.float32
    assert_close(colors.reshape(-1), ref["faceColors"], atol=0)
    with pytest.raises(ValueError):
        a.getColors(klampt.Appearance.EDGES)


def test_appearance_getters_return_copies_of_element_data():
    w = klampt.WorldModel()
    o = w.makeRigidObject("o")
    app = o.appearance()
    app.setTexture2D_channels("l8", np.full((3, 2, 1), 9, dtype=np.uint8))
    tex = app.getTexture2D_channels()
    assert tex.shape == (3, 2, 1)
    tex[:] = 0
    assert o.appearance().getTexture2D_channels().max() == 9
    app.setTexture2D_channels("", None)
    assert o.appearance().getTexture2D_format() == ""
    app.setTexgen(np.array([[0, 0, 1, 0]]), False)
    assert o.appearance().getTexgenMatrix().tolist() == [[0, 0, 1, 0]] and not o.appearance().isTexgenWorld()
