"""klampt.io.numpy_convert on geometry types (round trips, world
coordinates from a placed Geometry3D, auto-detection), and the optional
trimesh / open3d converters (a clear ImportError without the package; a
round trip through trimesh when it is installed)."""
import subprocess
import sys

import numpy as np
import pytest

import klampt
from klampt.io import numpy_convert
from klampt.math import se3, so3
from klampt.model.create import primitives

from conftest import assert_close


def test_triangle_mesh_round_trip_and_world_coordinates():
    g = primitives.box(1, 2, 3)
    mesh = g.getTriangleMesh()
    verts, tris = numpy_convert.to_numpy(mesh)
    assert verts.shape == (8, 3) and tris.shape == (12, 3) and tris.dtype == np.int32
    back = numpy_convert.from_numpy((verts, tris), 'TriangleMesh')
    assert_close(back.getVertices(), verts)
    assert (np.asarray(back.getIndices()) == tris).all()
    auto = numpy_convert.from_numpy((verts, tris))
    assert isinstance(auto, klampt.TriangleMesh)
    T = (so3.rotation([0, 0, 1], 0.7), [1, 2, 3])
    g.setCurrentTransform(*T)
    world_verts, _ = numpy_convert.to_numpy(g, 'TriangleMesh')
    assert_close(world_verts, [se3.apply(T, v) for v in verts.tolist()], atol=1e-12)


def test_point_cloud_round_trip_with_properties():
    pc = klampt.PointCloud()
    rng = np.random.default_rng(0)
    pts = rng.normal(size=(10, 3))
    pc.setPoints(pts)
    assert_close(numpy_convert.to_numpy(pc), pts)
    pc.addProperty('rgb', np.arange(10.0))
    pc.addProperty('c', np.ones(10))
    arr = numpy_convert.to_numpy(pc)
    assert arr.shape == (10, 5)
    back = numpy_convert.from_numpy(arr, 'PointCloud', template=pc)
    assert list(back.propertyNames) == ['rgb', 'c']
    assert_close(back.getAllProperties(), arr[:, 3:])
    unnamed = numpy_convert.from_numpy(arr, 'PointCloud')
    assert unnamed.numProperties() == 2 and unnamed.numPoints() == 10
    with pytest.raises(ValueError):
        numpy_convert.from_numpy(arr[:, :4], 'PointCloud', template=pc)
    g = klampt.Geometry3D(pc)
    T = (so3.rotation([1, 0, 0], 0.3), [0, 0, 1])
    g.setCurrentTransform(*T)
    world = numpy_convert.to_numpy(g, 'PointCloud')
    assert_close(world[:, :3], [se3.apply(T, p) for p in pts.tolist()], atol=1e-12)
    assert_close(world[:, 3:], arr[:, 3:])


def test_volume_grid_hull_and_primitive():
    grid = klampt.VolumeGrid()
    grid.setBounds([0, 0, 0], [1, 2, 3])
    values = np.arange(24.0).reshape(2, 3, 4)
    grid.setValues(values)
    bmin, bmax, vals = numpy_convert.to_numpy(grid)
    assert_close(bmin, [0, 0, 0])
    assert_close(bmax, [1, 2, 3])
    assert_close(vals, values)
    back = numpy_convert.from_numpy((bmin, bmax, vals))
    assert isinstance(back, klampt.VolumeGrid)
    assert list(back.dims) == [2, 3, 4] and list(back.bbox) == [0, 0, 0, 1, 2, 3]
    assert_close(back.getValues(), values)

    hull = klampt.ConvexHull()
    hull.setPoints(np.eye(3))
    arr = numpy_convert.to_numpy(hull)
    assert_close(arr, np.eye(3))
    assert_close(numpy_convert.from_numpy(arr, 'ConvexHull').getPoints(), np.eye(3))

    prim = klampt.GeometricPrimitive()
    prim.setSphere([1, 2, 3], 0.5)
    name, props = numpy_convert.to_numpy(prim)
    assert name == 'Sphere' and list(props) == [1, 2, 3, 0.5]
    back = numpy_convert.from_numpy((name, props))
    assert back.type == 'Sphere' and list(back.properties) == [1, 2, 3, 0.5]


def test_geometry3d_round_trips():
    T = (so3.rotation([0, 1, 0], 0.4), [0.5, 0, -1])
    g = primitives.box(1, 1, 1)
    g.setCurrentTransform(*T)
    H, (verts, tris) = numpy_convert.to_numpy(g)
    assert_close(H, se3.homogeneous(T))
    back = numpy_convert.from_numpy((H, (verts, tris)))
    assert back.type() == 'TriangleMesh'
    assert_close(back.getCurrentTransform()[1], T[1])
    assert_close(back.getBBTight(), g.getBBTight(), atol=1e-12)

    pc = klampt.PointCloud()
    pc.setPoints(np.eye(3))
    pc.addProperty('c', [1, 2, 3])
    gp = klampt.Geometry3D(pc)
    data = numpy_convert.to_numpy(gp)
    back = numpy_convert.from_numpy(data, 'Geometry3D', template=gp)
    assert back.type() == 'PointCloud' and list(back.getPointCloud().propertyNames) == ['c']

    group = klampt.Geometry3D()
    group.setGroup()
    group.setElement(0, g)
    group.setElement(1, gp)
    H, elements = numpy_convert.to_numpy(group)
    assert len(elements) == 2
    back = numpy_convert.from_numpy((H, elements))
    assert back.type() == 'Group' and back.numElements() == 2
    assert back.getElement(0).type() == 'TriangleMesh' and back.getElement(1).type() == 'PointCloud'
    assert_close(back.getBBTight(), group.getBBTight(), atol=1e-12)


def test_non_geometry_types_still_work():
    assert_close(numpy_convert.to_numpy(se3.identity()), np.eye(4))
    assert numpy_convert.from_numpy(np.zeros(3)) == [0, 0, 0]
    with pytest.raises(ValueError):
        numpy_convert.to_numpy(klampt.PointCloud(), 'TriangleMesh')


@pytest.mark.parametrize("module, package", [("trimesh_convert", "trimesh"), ("open3d_convert", "open3d")])
def test_optional_converters_raise_clear_import_error(module, package):
    code = ("import sys; sys.modules[%r] = None\n"
            "try:\n    import klampt.io.%s\nexcept ImportError as e:\n    print('ERR', e)\n") % (package, module)
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=None).stdout
    assert out.startswith('ERR') and package in out and 'pip install ' + package in out


def test_trimesh_round_trip():
    trimesh = pytest.importorskip("trimesh")
    from klampt.io import trimesh_convert
    g = primitives.box(1, 2, 3)
    app = klampt.Appearance()
    app.setColor(1, 0, 0, 1)
    tm = trimesh_convert.to_trimesh(g, app)
    assert isinstance(tm, trimesh.Trimesh)
    assert tm.volume == pytest.approx(6.0)
    assert tuple(tm.visual.face_colors[0]) == (255, 0, 0, 255)
    mesh, app2 = trimesh_convert.from_trimesh(tm)
    assert_close(mesh.getVertices(), g.getTriangleMesh().getVertices())
    world = klampt.WorldModel()
    obj = primitives.box(1, 1, 1, world=world, mass=1.0)
    obj.setTransform(so3.identity(), [0, 0, 2])
    scene = trimesh_convert.to_trimesh(world)
    assert len(scene.geometry) == 1
    assert_close(scene.bounds, [[-0.5, -0.5, 1.5], [0.5, 0.5, 2.5]], atol=1e-12)
    back = trimesh_convert.from_trimesh(scene)
    assert back.numRigidObjects() == 1
    assert_close(back.rigidObject(0).geometry().getBBTight(), [[-0.5, -0.5, 1.5], [0.5, 0.5, 2.5]], atol=1e-12)
