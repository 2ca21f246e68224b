"""klampt.model.geometry: plane fitting on exact planes, rigid alignment
recovering known transforms, normals of known meshes and clouds, color
packing closed forms, merging and surface sampling."""
import math

import numpy as np
import pytest

import klampt
from klampt.math import so3, se3
from klampt.model import geometry
from klampt.model.create import primitives

from conftest import assert_close


def plane_points(normal, offset, n, seed=0, noise=0.0):
    rng = np.random.default_rng(seed)
    normal = np.asarray(normal, float) / np.linalg.norm(normal)
    u = np.cross(normal, [1, 0, 0] if abs(normal[0]) < 0.9 else [0, 1, 0])
    u /= np.linalg.norm(u)
    v = np.cross(normal, u)
    ab = rng.uniform(-2, 2, size=(n, 2))
    pts = -offset * normal + ab[:, :1] * u + ab[:, 1:] * v
    return pts + noise * rng.normal(size=pts.shape) * normal


def same_plane(p, q, tol=1e-9):
    p, q = np.asarray(p), np.asarray(q)
    return np.allclose(p, q, atol=tol) or np.allclose(p, -q, atol=tol)


def test_fit_plane_exact():
    normal = np.array([1.0, -2.0, 0.5]) / np.linalg.norm([1.0, -2.0, 0.5])
    pts = plane_points(normal, 0.7, 30)
    assert same_plane(geometry.fit_plane(pts), list(normal) + [0.7])
    c, n = geometry.fit_plane_centroid(pts.tolist())
    assert_close(c, pts.mean(axis=0), atol=1e-12)
    assert same_plane(n, normal)
    a, b, cc, d = geometry.fit_plane3(np.array([0, 0, 1.0]), np.array([1, 0, 1.0]), np.array([0, 1, 1.0]))
    assert_close([a, b, cc, d], [0, 0, 1, -1], atol=1e-12)
    with pytest.raises(ValueError):
        geometry.fit_plane3(np.zeros(3), np.ones(3), 2 * np.ones(3))
    with pytest.raises(ValueError):
        geometry.fit_plane([[0, 0, 0], [1, 1, 1]])
    with pytest.raises(ValueError):
        geometry.fit_plane([[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]])


def test_plane_fitter_online_equals_batch():
    pts = plane_points([0.3, 0.2, 1.0], -0.4, 40, seed=2, noise=0.01)
    batch = geometry.PlaneFitter(pts)
    online = geometry.PlaneFitter()
    for p in pts[:25]:
        online.add_point(p)
    rest = geometry.PlaneFitter(pts[25:])
    merged = online.merge(rest)
    assert merged.count == 40
    assert_close(merged.centroid, batch.centroid, atol=1e-12)
    assert_close(merged.cov, batch.cov, atol=1e-12)
    assert same_plane(merged.plane_equation(), batch.plane_equation(), tol=1e-9)
    # sse is the sum of squared distances to the fitted plane
    dists = [batch.distance(p) for p in pts]
    assert batch.sse == pytest.approx(sum(d * d for d in dists), rel=1e-9)
    assert batch.goodness_of_fit() == pytest.approx(math.sqrt(batch.sse * 40 / 37))
    online.merge(rest, inplace=True)
    assert online.count == 40


def test_align_points_recovers_rigid_transform():
    rng = np.random.default_rng(5)
    a = rng.normal(size=(25, 3))
    T = (so3.from_rpy([0.4, -1.2, 2.5]), [0.3, -2.0, 1.5])
    b = np.array([se3.apply(T, p) for p in a.tolist()])
    R, t = geometry.align_points(a, b)
    assert_close(R, T[0], atol=1e-10)
    assert_close(t, T[1], atol=1e-10)
    R = geometry.align_points_rotation(a, np.array([so3.apply(T[0], p) for p in a.tolist()]))
    assert_close(R, T[0], atol=1e-10)
    # point clouds are accepted
    pa, pb = klampt.PointCloud(), klampt.PointCloud()
    pa.setPoints(a)
    pb.setPoints(b)
    R, t = geometry.align_points(pa, pb)
    assert_close(t, T[1], atol=1e-10)


def test_align_points_never_returns_a_reflection():
    # planar points mirrored: the best proper rotation, det = +1
    a = np.array([[1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0.0], [0.5, 0.5, 0]])
    b = a * [1, 1, -1]
    R = np.array(so3.ndarray(geometry.align_points_rotation(a, b)))
    assert np.linalg.det(R) == pytest.approx(1.0)
    assert_close(R @ a.T, b.T, atol=1e-10)


def test_triangle_and_vertex_normals_of_a_box():
    g = primitives.box(2, 2, 2)
    normals = geometry.triangle_normals(g)
    mesh = g.getTriangleMesh()
    verts, tris = mesh.getVertices(), mesh.getIndices()
    assert normals.shape == (len(tris), 3)
    for n, t in zip(normals, tris):
        centre = verts[t].mean(axis=0)
        axis = np.argmax(np.abs(centre))
        expected = np.zeros(3)
        expected[axis] = np.sign(centre[axis])
        assert_close(n, expected, atol=1e-12)
    vn = geometry.vertex_normals(mesh)
    # each corner's normal points outward into its octant
    assert vn.shape == (len(verts), 3)
    assert np.all(np.sum(vn * verts, axis=1) > 0)
    assert_close(np.linalg.norm(vn, axis=1), np.ones(len(verts)), atol=1e-12)


def test_vertex_normals_of_a_sphere_are_radial():
    g = primitives.sphere(1.0)
    mesh = g.getTriangleMesh()
    verts = mesh.getVertices()
    for weighted in (True, False):
        vn = geometry.vertex_normals(g, area_weighted=weighted)
        cosines = np.sum(vn * verts / np.linalg.norm(verts, axis=1)[:, None], axis=1)
        assert cosines.min() > 0.98


def test_point_cloud_normals_of_a_plane():
    pts = plane_points([0, 0, 1], -1.0, 400, seed=3)
    pc = klampt.PointCloud()
    pc.setPoints(pts)
    normals = geometry.point_cloud_normals(pc, estimation_viewpoint=[0, 0, 10], add=True)
    nonzero = np.linalg.norm(normals, axis=1) > 0
    assert nonzero.mean() > 0.95
    assert_close(normals[nonzero], np.tile([0, 0, 1.0], (nonzero.sum(), 1)), atol=1e-9)
    assert list(pc.propertyNames) == ['normal_x', 'normal_y', 'normal_z']
    # stored normals are returned as they are
    assert_close(geometry.point_cloud_normals(pc), normals)
    pc2 = klampt.PointCloud()
    pc2.setPoints(pts)
    below = geometry.point_cloud_normals(klampt.Geometry3D(pc2), estimation_knn=8, estimation_viewpoint=[0, 0, -10])
    assert_close(below, np.tile([0, 0, -1.0], (len(pts), 1)), atol=1e-9)


def test_point_cloud_normals_of_a_sphere_point_outward():
    rng = np.random.default_rng(1)
    d = rng.normal(size=(800, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    pc = klampt.PointCloud()
    pc.setPoints(d * 2.0 + [1, 1, 1])
    normals = geometry.point_cloud_normals(pc, estimation_radius=0.5, add=False)
    assert pc.numProperties() == 0
    ok = np.linalg.norm(normals, axis=1) > 0
    assert np.min(np.sum(normals[ok] * d[ok], axis=1)) > 0.9


def test_point_cloud_colors_formats():
    pc = klampt.PointCloud()
    pc.setPoints(np.zeros((3, 3)))
    assert geometry.point_cloud_colors(pc) is None
    rgb = np.array([[1.0, 0.0, 0.0], [0.0, 0.5, 1.0], [0.2, 0.4, 0.6]])
    geometry.point_cloud_set_colors(pc, rgb, ('r', 'g', 'b'), pc_property='rgb')
    words = [int(round(r * 255)) << 16 | int(round(g * 255)) << 8 | int(round(b * 255)) for r, g, b in rgb]
    assert list(pc.propertyNames) == ['rgb']
    assert [int(w) for w in geometry.point_cloud_colors(pc, 'rgb')] == words
    bgr = [int(round(b * 255)) << 16 | int(round(g * 255)) << 8 | int(round(r * 255)) for r, g, b in rgb]
    assert [int(w) for w in geometry.point_cloud_colors(pc, 'bgr')] == bgr
    assert_close(geometry.point_cloud_colors(pc, ('r', 'g', 'b')), np.rint(rgb * 255) / 255)
    r, g, b = geometry.point_cloud_colors(pc, 'channels')
    assert_close(g, np.rint(rgb[:, 1] * 255) / 255)
    assert [int(w) for w in geometry.point_cloud_colors(pc, 'rgba')] == [(w << 8) | 0xff for w in words]
    assert_close(geometry.point_cloud_colors(pc, 'opacity'), [1, 1, 1])

    pc2 = klampt.PointCloud()
    pc2.setPoints(np.zeros((3, 3)))
    rgba = np.column_stack([rgb, [0.2, 0.6, 1.0]])
    geometry.point_cloud_set_colors(pc2, rgba, ('r', 'g', 'b', 'a'))
    assert list(pc2.propertyNames) == ['r', 'g', 'b', 'a']
    assert_close(geometry.point_cloud_colors(pc2, ('r', 'g', 'b', 'a')), rgba)
    argb = geometry.point_cloud_colors(pc2, 'argb')
    assert int(argb[2]) == (255 << 24) | (51 << 16) | (102 << 8) | 153
    abgr = geometry.point_cloud_colors(pc2, 'abgr')
    assert int(abgr[2]) == (255 << 24) | (153 << 16) | (102 << 8) | 51

    pc3 = klampt.PointCloud()
    pc3.setPoints(np.zeros((3, 3)))
    geometry.point_cloud_set_colors(pc3, argb, 'argb')
    assert list(pc3.propertyNames) == ['rgba']
    assert [int(v) for v in geometry.point_cloud_colors(pc3, 'argb')] == [int(v) for v in argb]
    assert_close(geometry.point_cloud_colors(pc3, 'opacity'), np.rint(rgba[:, 3] * 255) / 255)
    with pytest.raises(ValueError):
        geometry.point_cloud_set_colors(pc3, [1, 2], 'rgb')


def test_merge_meshes_and_clouds():
    a = primitives.box(1, 1, 1)
    b = primitives.box(1, 1, 1)
    b.setCurrentTransform(so3.identity(), [3, 0, 0])
    merged = geometry.merge(a, b)
    assert merged.type() == 'TriangleMesh'
    ma, mm = a.getTriangleMesh(), merged.getTriangleMesh()
    assert len(mm.getVertices()) == 2 * len(ma.getVertices())
    assert len(mm.getIndices()) == 2 * len(ma.getIndices())
    assert_close(merged.getBBTight(), [[-0.5, -0.5, -0.5], [3.5, 0.5, 0.5]], atol=1e-12)
    assert geometry.merge(a) is a
    prim = primitives.sphere(0.5, center=[0, 0, 5], type='GeometricPrimitive')
    merged = geometry.merge(a, prim)
    assert merged.type() == 'TriangleMesh'
    assert merged.getBBTight()[1][2] == pytest.approx(5.5, abs=1e-9)

    world = klampt.WorldModel()
    obj = primitives.box(1, 1, 1, world=world, mass=1.0)
    obj.setTransform(so3.identity(), [0, 0, 2])
    assert_close(geometry.merge(obj, a).getBBTight(), [[-0.5, -0.5, -0.5], [0.5, 0.5, 2.5]], atol=1e-12)

    c1, c2 = klampt.PointCloud(), klampt.PointCloud()
    c1.setPoints(np.array([[0, 0, 0], [1, 0, 0.0]]))
    c2.setPoints(np.array([[0, 1, 0.0]]))
    c1.addProperty('c', [1, 2])
    c2.addProperty('c', [3])
    g2 = klampt.Geometry3D(c2)
    g2.setCurrentTransform(so3.identity(), [0, 0, 1])
    merged = geometry.merge(c1, g2)
    pc = merged.getPointCloud()
    assert_close(pc.getPoints(), [[0, 0, 0], [1, 0, 0], [0, 1, 1]])
    assert_close(pc.getProperties(0), [1, 2, 3])
    with pytest.raises(ValueError):
        geometry.merge(c1, a)


def test_sample_surface_points_lie_on_the_surface():
    np.random.seed(0)
    g = primitives.box(2, 4, 6)
    samples = geometry.sample_surface(g, 500, want_elements=True, want_normals=True)
    assert samples.shape == (500, 7)
    pts, elems, normals = samples[:, :3], samples[:, 3].astype(int), samples[:, 4:]
    half = np.array([1, 2, 3])
    assert np.all(np.abs(pts) <= half + 1e-9)
    assert np.all(np.max(np.abs(pts) / half, axis=1) > 1 - 1e-9)
    tn = geometry.triangle_normals(g)
    assert_close(normals, tn[elems], atol=1e-12)
    # uniform by area: the faces of area 4*6, 2*6 and 2*4 get samples in proportion
    face_axis = np.argmax(np.abs(pts) / half, axis=1)
    fractions = np.bincount(face_axis, minlength=3) / 500.0
    assert_close(fractions, np.array([24, 12, 8]) / 44.0, atol=0.07)
    g.setCurrentTransform(so3.rotation([0, 0, 1], math.pi / 2), [10, 0, 0])
    world_pts = geometry.sample_surface(g, 50, local=False)
    local = (world_pts - [10, 0, 0]) @ np.array(so3.ndarray(so3.rotation([0, 0, 1], math.pi / 2)))
    assert np.all(np.abs(local) <= half + 1e-9)

    s = primitives.sphere(0.5, center=[1, 2, 3], type='GeometricPrimitive')
    pts = geometry.sample_surface(s, 100, want_normals=True)
    assert_close(np.linalg.norm(pts[:, :3] - [1, 2, 3], axis=1), np.full(100, 0.5), atol=1e-12)
    assert_close(pts[:, 3:], (pts[:, :3] - [1, 2, 3]) / 0.5, atol=1e-12)
    with pytest.raises(ValueError):
        geometry.sample_surface(s)

    verts = geometry.sample_surface(primitives.box(1, 1, 1))
    assert verts.shape == (8, 3)
    pc = klampt.PointCloud()
    pc.setPoints(np.eye(3))
    out = geometry.sample_surface(klampt.Geometry3D(pc), want_elements=True)
    assert_close(out, np.column_stack([np.eye(3), [0, 1, 2]]))


def test_point_cloud_simplify():
    rng = np.random.default_rng(0)
    pc = klampt.PointCloud()
    pc.setPoints(rng.uniform(0, 1, size=(2000, 3)))
    simple = geometry.point_cloud_simplify(pc, 0.25)
    assert isinstance(simple, klampt.PointCloud)
    assert 0 < simple.numPoints() <= 64
    # each output point is the mean of the input points of one grid cell
    pts = pc.getPoints()
    cells = {tuple(c) for c in np.floor(pts / 0.25).astype(int)}
    assert simple.numPoints() == len(cells) == 64
    out = simple.getPoints()
    cell = np.floor(out[0] / 0.25)
    members = pts[np.all(np.floor(pts / 0.25) == cell, axis=1)]
    assert_close(out[0], members.mean(axis=0), atol=1e-12)
    pc.addProperty('c', np.arange(2000.0))
    g = geometry.point_cloud_simplify(klampt.Geometry3D(pc), 0.25)
    assert g.type() == 'PointCloud' and g.getPointCloud().propertyNames == ['c']
    prop = g.getPointCloud().getProperties(0)
    cell = np.floor(g.getPointCloud().getPoints()[3] / 0.25)
    assert prop[3] == pytest.approx(np.arange(2000.0)[np.all(np.floor(pts / 0.25) == cell, axis=1)].mean())
    with pytest.raises(ValueError):
        geometry.point_cloud_simplify(pc, 0)
