"""Queries on ConvexHull and VolumeGrid geometries against closed forms, the
volume grid layout of Klamp't 0.9.2, contact clustering, getBB, mesh-mesh
traversals against an independent path (GJK on the hulls), and properties
shared by every query (symmetry, collides <=> distance <= 0, rays on surfaces)."""
import itertools
import math

import numpy as np
import pytest

import klampt
from klampt import ConvexHull, GeometricPrimitive, Geometry3D
from klampt.math import so3, se3
from conftest import aabb_geometry as aabb, assert_close, kinova_link_mesh, sphere_geometry as sphere

IDENTITY = ([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0])


def box_sdf(p, lo, hi):
    """Exact signed distance to the box [lo, hi]."""
    p, lo, hi = (np.asarray(x, dtype=float) for x in (p, lo, hi))
    c, h = (lo + hi) / 2, (hi - lo) / 2
    q = np.abs(p - c) - h
    return float(np.linalg.norm(np.maximum(q, 0)) + min(q.max(), 0.0))


def cube_hull(half=0.5):
    pts = np.array(list(itertools.product([-half, half], repeat=3)), dtype=float)
    h = ConvexHull()
    h.setPoints(pts)
    return Geometry3D(h)


def point(p):
    g = GeometricPrimitive()
    g.setPoint(p)
    return Geometry3D(g)


def random_transform(rng, spread=0.0):
    R = so3.from_moment(list(rng.normal(size=3)))
    return R, list(rng.uniform(-spread, spread, size=3))


def local_point(T, p):
    return se3.apply(se3.inv(T), p)


# ------------------------------------------------------------- ConvexHull


def test_hull_distance_point_is_the_signed_box_distance():
    rng = np.random.RandomState(1)
    g = cube_hull()
    for _ in range(20):
        T = random_transform(rng, 1.0)
        g.setCurrentTransform(*T)
        for _ in range(10):
            p = list(T[1] + rng.uniform(-1.2, 1.2, size=3))
            r = g.distance_point(p)
            expected = box_sdf(local_point(T, p), [-0.5] * 3, [0.5] * 3)
            assert r.d == pytest.approx(expected, abs=1e-7)
            # The closest point lies on the surface and |cp - p| = |d|.
            assert box_sdf(local_point(T, r.cp1), [-0.5] * 3, [0.5] * 3) == pytest.approx(0, abs=1e-7)
            assert np.linalg.norm(np.subtract(r.cp1, p)) == pytest.approx(abs(expected), abs=1e-7)


def test_hull_against_sphere_and_point():
    rng = np.random.RandomState(2)
    g = cube_hull()
    for _ in range(60):
        c = list(rng.uniform(-1.5, 1.5, size=3))
        r = rng.uniform(0.05, 0.4)
        sdf = box_sdf(c, [-0.5] * 3, [0.5] * 3)
        s = sphere(c, r)
        if abs(sdf - r) < 1e-6:
            continue
        assert g.collides(s) == (sdf <= r)
        assert s.collides(g) == (sdf <= r)
        assert g.distance(s).d == pytest.approx(sdf - r, abs=1e-6)
        assert g.withinDistance(s, 0.1) == (sdf - r <= 0.1)
        assert g.collides(point(c)) == (sdf <= 0)
        # A point inside the hull is at distance 0 (documented: only spheres,
        # grids and hull pairs have signed distances); distance_point is signed.
        assert g.distance(point(c)).d == pytest.approx(max(sdf, 0.0), abs=1e-6)
        assert g.distance_point(c).d == pytest.approx(sdf, abs=1e-6)


def _distance_to_hull_of(pts, c):
    """Distance from c to the convex hull of at most 4 flat points: the
    least over every subset of 1 to 3 points whose affine projection of c
    has nonnegative barycentric weights (any point of a flat hull lies in a
    triangle of its points)."""
    best = math.inf
    for k in (1, 2, 3):
        for subset in itertools.combinations(range(len(pts)), k):
            P = pts[list(subset)]
            A = (P[1:] - P[0]).T
            if k > 1:
                lam, *_ = np.linalg.lstsq(A, c - P[0], rcond=None)
                w = np.concatenate([[1 - lam.sum()], lam])
                if (w < -1e-12).any() or np.linalg.matrix_rank(A) < k - 1:
                    continue
                q = P[0] + A @ lam
            else:
                q = P[0]
            best = min(best, float(np.linalg.norm(c - q)))
    return best


def _flat_hull(points):
    h = ConvexHull()
    h.setPoints(np.array(points, dtype=float))
    return Geometry3D(h)


@pytest.mark.parametrize('points', [
    [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],   # a square: flat
    [[0, 0, 0], [1, 0, 0], [1, 1, 0]],              # three points
    [[0, 0, 0], [0.5, 0, 0], [1, 0, 0]],            # a segment
    [[0.3, 0.2, 0]],                                # one point
], ids=['square', 'triangle', 'segment', 'point'])
def test_flat_hulls_answer_as_their_polygon(points):
    """A hull of points that do not span 3D (Qhull refuses them; the
    collision structure used to crash the process) answers every query as
    the flat convex set, brute force over its points being the truth."""
    g = _flat_hull(points)
    rng = np.random.RandomState(5)
    pts = np.array(points, dtype=float)
    for _ in range(20):
        c = rng.uniform(-0.5, 1.5, size=3)
        c[2] = rng.uniform(0.05, 0.6) * rng.choice([-1, 1])
        r = 0.04
        truth = _distance_to_hull_of(pts, c) - r
        s = sphere(list(c), r)
        assert g.distance(s).d == pytest.approx(truth, abs=1e-6)
        assert g.collides(s) == (truth <= 0)
        assert g.withinDistance(s, 0.1) == (truth <= 0.1)
    above = sphere([float(pts[0][0]), float(pts[0][1]), 0.03], 0.05)
    assert g.collides(above) and above.collides(g)


def test_hulls_of_huge_coordinates_are_refused():
    # Past 1e75 Qhull's determinants overflow (and its warning crashed the
    # process): a clear error instead, a hull at 1e75 still answering.
    cube = np.array(list(itertools.product([0.0, 1.0], repeat=3)))
    for scale in (1e76, 1e200):
        with pytest.raises(ValueError, match="within 1e75"):
            _flat_hull(cube * scale).collides(_flat_hull(cube * scale))
    for scale in (1e75, 1.0):
        a, b = _flat_hull(cube * scale), _flat_hull(cube * scale)
        b.setCurrentTransform(so3.identity(), [2 * scale, 0, 0])
        assert not a.collides(b)
        assert a.distance(b).d == pytest.approx(scale, rel=1e-9)


def test_hull_hull_distance_is_signed():
    a, b = cube_hull(), cube_hull()
    for gap in [0.3, 0.01, -0.01, -0.2]:
        b.setCurrentTransform(IDENTITY[0], [1.0 + gap, 0.1, -0.2])
        d = a.distance(b)
        assert d.d == pytest.approx(gap, abs=1e-7)
        assert a.collides(b) == (gap <= 0)
        assert b.distance(a).d == pytest.approx(gap, abs=1e-7)
        if gap > 0:
            assert d.cp1[0] == pytest.approx(0.5) and d.cp2[0] == pytest.approx(0.5 + gap)


def test_hull_ray_cast_hits_the_faces():
    rng = np.random.RandomState(3)
    g = cube_hull()
    T = random_transform(rng, 0.5)
    g.setCurrentTransform(*T)
    for _ in range(40):
        y, z = rng.uniform(-0.7, 0.7, size=2)
        s = se3.apply(T, [-3.0, y, z])
        d = so3.apply(T[0], [1.0, 0, 0])
        hit, pt = g.rayCast(s, d)
        inside = abs(y) < 0.5 and abs(z) < 0.5
        if abs(abs(y) - 0.5) < 1e-6 or abs(abs(z) - 0.5) < 1e-6:
            continue
        assert hit == inside
        if hit:
            assert_close(local_point(T, pt), [-0.5, y, z], atol=1e-9)
            assert g.rayCast_ext(s, d)[0] == 0


def test_hull_ray_cast_on_a_link_hull_enters_through_its_facet_planes():
    """A hull of a real link (hundreds of faces, searched through a tree of
    its triangles) against the entry point of each ray into the
    intersection of the half-spaces of scipy's facets."""
    from scipy.spatial import ConvexHull as Hull

    hull = kinova_link_mesh().convert("ConvexHull")
    pts = np.array(hull.getConvexHull().getPoints())
    planes = Hull(pts).equations  # n . x + o <= 0 inside
    rng = np.random.RandomState(5)
    T = random_transform(rng, 0.3)
    hull.setCurrentTransform(*T)
    centre = pts.mean(axis=0)
    hits = 0
    for _ in range(200):
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        s = centre - 0.5 * d + rng.uniform(-0.06, 0.06, size=3)
        rate, height = planes[:, :3] @ d, planes[:, :3] @ s + planes[:, 3]
        t_enter = max([-h / r for r, h in zip(rate, height) if r < 0], default=-np.inf)
        t_exit = min([-h / r for r, h in zip(rate, height) if r > 0], default=np.inf)
        expected = t_enter <= t_exit and t_enter > 0
        if abs(t_exit - t_enter) < 1e-6:
            continue  # grazing an edge or corner
        hit, pt = hull.rayCast(se3.apply(T, list(s)), so3.apply(T[0], list(d)))
        assert hit == expected
        if hit:
            hits += 1
            assert_close(local_point(T, pt), s + t_enter * d, atol=1e-9)
    assert 50 < hits < 190


def test_hull_distance_point_is_signed_against_facets_on_a_link_hull():
    """Points in and around a real link's hull: outside, the distance to the
    nearest facet triangle; inside, minus the distance to the nearest facet
    plane (scipy's hull)."""
    from scipy.spatial import ConvexHull as Hull
    from geometry_oracles import point_triangle_distances

    hull = kinova_link_mesh().convert("ConvexHull")
    pts = np.array(hull.getConvexHull().getPoints())
    h = Hull(pts)
    X, Y, Z = (pts[h.simplices[:, k]] for k in range(3))
    rng = np.random.RandomState(6)
    T = random_transform(rng, 0.3)
    hull.setCurrentTransform(*T)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    P = rng.uniform(lo - 0.03, hi + 0.03, size=(400, 3))
    height = P @ h.equations[:, :3].T + h.equations[:, 3]  # <= 0 inside every facet
    inside = (height <= 0).all(axis=1)
    truth = np.where(inside, height.max(axis=1), point_triangle_distances(P, X, Y, Z).min(axis=1))
    assert 50 < inside.sum() < 350
    for p, d in zip(P, truth):
        r = hull.distance_point(se3.apply(T, list(p)))
        assert r.d == pytest.approx(d, abs=1e-9)
        # The closest point is on the surface, |d| from p.
        assert np.linalg.norm(np.subtract(local_point(T, r.cp1), p)) == pytest.approx(abs(d), abs=1e-9)
        assert hull.contains_point(se3.apply(T, list(p))) == (d <= 0)


def test_hull_support_is_a_corner():
    g = cube_hull()
    rng = np.random.RandomState(4)
    T = random_transform(rng, 1.0)
    g.setCurrentTransform(*T)
    for _ in range(20):
        d = rng.normal(size=3)
        local_d = so3.apply(so3.inv(T[0]), list(d))
        expected = se3.apply(T, list(0.5 * np.sign(local_d)))
        assert_close(g.support(list(d)), expected, atol=1e-9)
    g.setCollisionMargin(0.1)
    d = np.array([0.3, -0.2, 0.9])
    plain = np.array(se3.apply(T, list(0.5 * np.sign(so3.apply(so3.inv(T[0]), list(d))))))
    assert_close(g.support(list(d)), plain + 0.1 * d / np.linalg.norm(d), atol=1e-9)


def test_hull_contacts_with_sphere():
    g = cube_hull()
    s = sphere([0.0, 0.0, 0.8], 0.25)  # 0.05 above the top face
    assert g.contacts(s, 0.0, 0.0).depths == []
    res = g.contacts(s, 0.03, 0.04)
    assert len(res.depths) == 1
    assert res.depths[0] == pytest.approx(0.07 - 0.05, abs=1e-7)
    assert_close(res.normals[0], [0, 0, 1], atol=1e-7)
    assert_close(res.points1[0], [0, 0, 0.53], atol=1e-7)  # on the padded hull
    assert_close(res.points2[0], [0, 0, 0.51], atol=1e-7)  # on the padded sphere


# ------------------------------------------------------------- VolumeGrid layout (Klamp't 0.9.2)

# bbox and dims of the reference's grids, measured with Klamp't 0.9.2:
# Geometry3D(shape).convert("VolumeGrid", resolution).getVolumeGrid().
REFERENCE_GRIDS = [
    ("sphere", ([0, 0, 0], 0.5), 0.1, [-0.65, -0.65, -0.65, 0.65, 0.65, 0.65], [13, 13, 13]),
    ("sphere", ([0.1, 0.2, 0.3], 0.5), 0.07, [-0.53, -0.43, -0.33, 0.73, 0.83, 0.93], [18, 18, 18]),
    ("aabb", ([-0.5, -0.52, 0.1], [0.5, 0.53, 0.14]), 0.1, [-0.65, -0.695, -0.08, 0.65, 0.705, 0.32], [13, 14, 4]),
    ("aabb", ([0, 0, 0], [1, 2, 3]), 0.3, [-0.55, -0.5, -0.45, 1.55, 2.5, 3.45], [7, 10, 13]),
]


def reference_shape(kind, args):
    return sphere(*args) if kind == "sphere" else aabb(*args)


def exact_sdf(kind, args, p):
    if kind == "sphere":
        return float(np.linalg.norm(np.subtract(p, args[0])) - args[1])
    return box_sdf(p, *args)


# Boxes also through their meshes (a sphere's mesh is not the sphere).
GRID_CASES = [case + (False,) for case in REFERENCE_GRIDS] + [case + (True,) for case in REFERENCE_GRIDS
                                                              if case[0] == "aabb"]


@pytest.mark.parametrize("kind,args,res,bbox,dims,via_mesh", GRID_CASES)
def test_grid_layout_and_values_match_the_reference(kind, args, res, bbox, dims, via_mesh):
    src = reference_shape(kind, args)
    if via_mesh:
        src = src.convert("TriangleMesh")
    vg = src.convert("VolumeGrid", res).getVolumeGrid()
    assert_close(vg.bbox, bbox, atol=1e-9)
    assert list(vg.dims) == dims
    # Values sit at cell centres and are the exact signed distance there.
    lo, hi = np.array(vg.bbox[:3]), np.array(vg.bbox[3:])
    cell = (hi - lo) / np.array(dims)
    values = vg.getValues()
    for idx in itertools.product(*[range(0, n, max(1, n // 4)) for n in dims]):
        c = lo + (np.array(idx) + 0.5) * cell
        assert values[idx] == pytest.approx(exact_sdf(kind, args, c), abs=1e-9)


def sphere_grid(r=0.5, res=0.1):
    return sphere([0, 0, 0], r).convert("VolumeGrid", res)


def test_grid_distance_point_matches_the_reference():
    # Values of Klamp't 0.9.2 on the same grid (cell centres on the lattice).
    g = sphere_grid()
    for p, d in [([0, 0, 0], -0.5), ([0.3, 0, 0], -0.2), ([0.5, 0, 0], 0.0), ([0.0, -0.4, 0.0], -0.1)]:
        assert g.distance_point(p).d == pytest.approx(d, abs=1e-9)


def test_grid_distance_point_within_interpolation_error():
    rng = np.random.RandomState(5)
    res = 0.05
    g = sphere_grid(0.5, res)
    for _ in range(50):
        p = list(rng.uniform(-0.55, 0.55, size=3))  # inside the grid's box
        exact = np.linalg.norm(p) - 0.5
        if np.linalg.norm(p) < 2 * res:
            continue  # the cone tip at the centre is not smooth
        r = g.distance_point(p)
        assert r.d == pytest.approx(exact, abs=0.2 * res)
        if abs(exact) < 0.1:
            # Near the surface, cp1 is the surface point the gradient leads to.
            assert np.linalg.norm(r.cp1) == pytest.approx(0.5, abs=0.2 * res)


def test_grid_collides_and_distance_with_spheres():
    res = 0.05
    g = sphere_grid(0.5, res)
    rng = np.random.RandomState(6)
    for _ in range(40):
        c = list(rng.uniform(-0.55, 0.55, size=3))  # inside the grid's box
        r = rng.uniform(0.02, 0.1)
        gap = np.linalg.norm(c) - 0.5 - r
        if abs(gap) < 0.2 * res or np.linalg.norm(c) < 2 * res:
            continue
        s = sphere(c, r)
        assert g.collides(s) == (gap <= 0)
        assert s.collides(g) == (gap <= 0)
        assert g.distance(s).d == pytest.approx(gap, abs=0.2 * res)
        assert s.distance(g).d == pytest.approx(gap, abs=0.2 * res)
        assert g.withinDistance(s, 0.05) == (gap <= 0.05)


def test_grid_ray_cast_hits_the_zero_level_set():
    g = sphere_grid(0.5, 0.05)
    rng = np.random.RandomState(7)
    for _ in range(20):
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        s = list(-3 * d + rng.uniform(-0.2, 0.2, size=3))
        hit, pt = g.rayCast(s, list(d))
        # Closed form: the ray meets the sphere of radius 0.5.
        b = np.dot(s, d)
        disc = b * b - (np.dot(s, s) - 0.25)
        assert hit == (disc > 0)
        t = -b - math.sqrt(disc)
        assert_close(pt, np.array(s) + t * d, atol=0.01)
        assert abs(g.distance_point(pt).d) < 1e-3  # on the zero level set of the field
    assert g.rayCast([-3, 2, 0], [1, 0, 0])[0] is False


def test_grid_contacts_with_sphere():
    g = sphere_grid(0.5, 0.05)
    s = sphere([0.0, 0.0, 0.55], 0.1)  # centre 0.05 outside: 0.05 of overlap
    res = g.contacts(s, 0.0, 0.0)
    assert len(res.depths) == 1
    assert res.depths[0] == pytest.approx(0.05, abs=0.01)
    assert_close(res.normals[0], [0, 0, 1], atol=0.05)
    res = g.contacts(sphere([0.0, 0.0, 0.7], 0.1), 0.02, 0.03)  # gap 0.1 > padding 0.05
    assert res.depths == []


def test_grid_translate_moves_queries():
    g = sphere_grid(0.5, 0.1)
    g.setCurrentTransform(IDENTITY[0], [1.0, 2.0, 3.0])
    assert g.distance_point([1.3, 2.0, 3.0]).d == pytest.approx(-0.2, abs=1e-9)
    assert g.collides(point([1.0, 2.4, 3.0]))
    assert not g.collides(point([1.0, 2.7, 3.0]))


# ------------------------------------------------------------- contact clustering


def clustered_cloud(centers, per=12, spread=0.004, seed=8):
    rng = np.random.RandomState(seed)
    pts = np.concatenate([np.array(c) + rng.uniform(-spread, spread, size=(per, 3)) for c in centers])
    pc = klampt.PointCloud()
    pc.setPoints(pts)
    return Geometry3D(pc), pts


def test_max_contacts_clusters_keep_the_deepest_of_each_group():
    # Four tight groups of points over a table top at z = 0, at different heights.
    centers = [[0.2, 0.2, 0.01], [0.8, 0.2, 0.02], [0.2, 0.8, 0.015], [0.8, 0.8, 0.03]]
    cloud, pts = clustered_cloud(centers)
    table = aabb([0, 0, -0.1], [1, 1, 0])
    full = cloud.contacts(table, 0.05, 0.0)
    assert len(full.depths) == len(pts)
    few = cloud.contacts(table, 0.05, 0.0, 4)
    assert len(few.depths) == 4
    # One contact per group, the deepest (lowest point) of that group.
    groups = sorted(int(np.argmin([np.linalg.norm(np.subtract(p[:2], c[:2])) for c in centers]))
                    for p in few.points1)
    assert groups == [0, 1, 2, 3]
    depth_of_point = dict(zip(full.elems1, full.depths))
    assert sorted(depth_of_point) == list(range(len(pts)))
    for depth, e in zip(few.depths, few.elems1):
        assert depth == pytest.approx(0.05 - pts[e][2])
        group = range(12 * (e // 12), 12 * (e // 12 + 1))
        assert depth == pytest.approx(max(depth_of_point[i] for i in group))
    assert max(few.depths) == pytest.approx(max(full.depths))
    again = cloud.contacts(table, 0.05, 0.0, 4)
    assert again.elems1 == few.elems1 and again.depths == few.depths  # deterministic
    assert len(cloud.contacts(table, 0.05, 0.0, 2).depths) == 2
    assert len(cloud.contacts(table, 0.05, 0.0, 1000).depths) == len(pts)


# ------------------------------------------------------------- getBB


def test_bounding_boxes_include_the_margin_as_the_reference_does():
    g = sphere([0.1, 0.2, 0.3], 0.5)
    g.setCollisionMargin(0.1)
    # Klamp't 0.9.2 returns this box from both getBB and getBBTight.
    assert_close(g.getBBTight(), [[-0.5, -0.4, -0.3], [0.7, 0.8, 0.9]], atol=1e-12)
    assert_close(g.getBB(), [[-0.5, -0.4, -0.3], [0.7, 0.8, 0.9]], atol=1e-12)


def contains(outer, inner, tol=1e-12):
    return all(o <= i + tol for o, i in zip(outer[0], inner[0])) and all(o >= i - tol for o, i in zip(outer[1], inner[1]))


def sample_geometries():
    mesh = aabb([0, 0, 0], [1, 2, 3]).convert("TriangleMesh")
    group = Geometry3D()
    group.setGroup()
    group.setElement(0, mesh)
    group.setElement(1, sphere([3, 0, 0], 0.5))
    return [sphere([0.1, 0.2, 0.3], 0.5), aabb([0, 0, 0], [1, 2, 3]), mesh, mesh.convert("PointCloud", 0.2),
            cube_hull(), sphere_grid(0.5, 0.1), group]


@pytest.mark.parametrize("index", range(7))
def test_getbb_contains_the_tight_box(index):
    g = sample_geometries()[index]
    rng = np.random.RandomState(9 + index)
    for margin in [0.0, 0.05]:
        g.setCollisionMargin(margin)
        for _ in range(5):
            T = (IDENTITY[0], list(rng.uniform(-1, 1, size=3))) if g.type() == "VolumeGrid" else random_transform(rng, 1)
            g.setCurrentTransform(*T)
            assert contains(g.getBB(), g.getBBTight())
    g.setCollisionMargin(0.0)
    g.setCurrentTransform(*IDENTITY)
    assert_close(g.getBB(), g.getBBTight(), atol=1e-12)  # unrotated: the same box


def test_mesh_to_cloud_to_hull_keeps_the_box_within_the_resolution():
    rng = np.random.RandomState(10)
    for res in [0.05, 0.2]:
        mesh = sphere([0.1, -0.2, 0.3], 0.7).convert("TriangleMesh", 0.05)
        mesh.setCurrentTransform(*random_transform(rng))
        hull = mesh.convert("PointCloud", res).convert("ConvexHull")
        lo, hi = np.array(mesh.getBBTight())
        hlo, hhi = np.array(hull.getBBTight())
        assert np.all(hlo >= lo - 1e-9) and np.all(hhi <= hi + 1e-9)
        assert np.all(hlo <= lo + res) and np.all(hhi >= hi - res)


# ------------------------------------------------------------- mesh-mesh traversals and properties


def box_mesh_and_hull(half):
    box = aabb([-half[0], -half[1], -half[2]], list(half))
    return box.convert("TriangleMesh"), box.convert("ConvexHull")


def test_mesh_mesh_distance_and_collides_agree_with_hull_gjk():
    rng = np.random.RandomState(11)
    ma, ha = box_mesh_and_hull([0.5, 0.3, 0.2])
    mb, hb = box_mesh_and_hull([0.2, 0.4, 0.1])
    checked = 0
    for _ in range(60):
        Ta, Tb = random_transform(rng, 0.1), random_transform(rng, 1.0)
        for g, T in ((ma, Ta), (ha, Ta), (mb, Tb), (hb, Tb)):
            g.setCurrentTransform(*T)
        d_hull = ha.distance(hb).d
        if d_hull <= 1e-6:
            # Overlapping hulls: the surfaces meet unless one box holds the other (not with these sizes).
            assert ma.collides(mb) and mb.collides(ma)
            assert ma.distance(mb).d == pytest.approx(0, abs=1e-9)
            continue
        checked += 1
        r = ma.distance(mb)
        assert r.d == pytest.approx(d_hull, abs=1e-7)
        assert mb.distance(ma).d == pytest.approx(d_hull, abs=1e-7)
        assert np.linalg.norm(np.subtract(r.cp1, r.cp2)) == pytest.approx(d_hull, abs=1e-7)
        assert not ma.collides(mb)
        assert ma.withinDistance(mb, d_hull * 1.01) and not ma.withinDistance(mb, d_hull * 0.99)
        ma.setCollisionMargin(d_hull * 0.6)
        mb.setCollisionMargin(d_hull * 0.6)
        assert ma.collides(mb) and ma.distance(mb).d == pytest.approx(-0.2 * d_hull, abs=1e-7)
        ma.setCollisionMargin(0)
        mb.setCollisionMargin(0)
    assert checked > 20


@pytest.mark.parametrize("kind", ["mesh", "hull", "grid", "cloud"])
def test_distance_symmetric_and_collides_iff_nonpositive(kind):
    base = sphere([0, 0, 0], 0.5)
    g = {"mesh": base.convert("TriangleMesh", 0.1), "hull": base.convert("ConvexHull", 0.1),
         "grid": sphere_grid(0.5, 0.05), "cloud": base.convert("TriangleMesh", 0.1).convert("PointCloud", 0.05)}[kind]
    others = [sphere([0, 0, 0], 0.1), point([0, 0, 0])]
    if kind != "grid":  # grids answer distances to spheres, points and clouds only
        others += [aabb([-0.1, -0.1, -0.1], [0.1, 0.1, 0.1]), cube_hull(0.15)]
    rng = np.random.RandomState(12)
    for other in others:
        for _ in range(15):
            T = (IDENTITY[0], list(rng.uniform(-1, 1, size=3)))
            other.setCurrentTransform(*T)
            for margin in [0.0, 0.03]:
                g.setCollisionMargin(margin)
                d1, d2 = g.distance(other).d, other.distance(g).d
                assert d1 == pytest.approx(d2, abs=1e-6)
                if abs(d1) > 1e-6:
                    assert g.collides(other) == (d1 <= 0) == other.collides(g)
            g.setCollisionMargin(0.0)


@pytest.mark.parametrize("kind", ["mesh", "hull", "grid"])
def test_ray_hits_lie_on_the_surface(kind):
    base = aabb([-0.4, -0.3, -0.2], [0.4, 0.3, 0.2])
    g = {"mesh": base.convert("TriangleMesh"), "hull": base.convert("ConvexHull"),
         "grid": base.convert("VolumeGrid", 0.02)}[kind]
    rng = np.random.RandomState(13)
    hits = 0
    for _ in range(30):
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        s = list(-2 * d + rng.uniform(-0.2, 0.2, size=3))
        hit, pt = g.rayCast(s, list(d))
        if not hit:
            continue
        hits += 1
        tol = 2e-3 if kind == "grid" else 1e-9
        assert abs(box_sdf(pt, [-0.4, -0.3, -0.2], [0.4, 0.3, 0.2])) < tol
        # The hit is on the ray, ahead of the source.
        v = np.subtract(pt, s)
        assert np.dot(v, d) > 0 and np.linalg.norm(np.cross(v, d)) < 1e-9
    assert hits > 10
