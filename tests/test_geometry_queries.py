"""Geometry3D proximity queries against the reference's values in
golden/geometry.json, and against independent computations where the
reference is wrong (its README lists those cases).

The independent distance between two convex sets given by their vertices is
min |sum(l_i a_i) - sum(m_j b_j)| over the two simplices of weights, solved
as a small QP; every standalone geometry of geometry.json is convex (point,
segment, triangle, boxes, the cube and cylinder meshes) or a sphere (a centre
and a radius), or a point cloud (a union of points).
"""
import math
import os

import numpy as np
import pytest

import klampt
from klampt.math import so3
from conftest import SHARED_DATA, aabb_geometry, load_golden
from geometry_oracles import hull_distance

GOLDEN = load_golden("geometry.json") if os.path.isdir(SHARED_DATA) else {"pairs": [], "rays": [], "geometries": {}}
TOL = 1e-6


def build(name):
    e = GOLDEN["geometries"][name]
    if e["kind"] == "primitive":
        p = klampt.GeometricPrimitive()
        getattr(p, e["call"])(*e["args"])
        return klampt.Geometry3D(p)
    if e["kind"] == "mesh":
        g = klampt.Geometry3D()
        assert g.loadFile(os.path.join(SHARED_DATA, e["file"]))
        return g
    pc = klampt.PointCloud()
    pc.setPoints(np.array(e["points"]))
    return klampt.Geometry3D(pc)


def placed(pair):
    a, b = build(pair["a"]), build(pair["b"])
    a.setCurrentTransform(*pair["transformA"])
    b.setCurrentTransform(*pair["transformB"])
    a.setCollisionMargin(pair["collisionMarginA"])
    b.setCollisionMargin(pair["collisionMarginB"])
    return a, b


# ---------------------------------------------------------------- independent model

def local_vertices(name):
    """Vertices whose convex hull is the shape (local frame), or None for a sphere."""
    e = GOLDEN["geometries"][name]
    if e["kind"] == "mesh":
        return np.array(build(name).getTriangleMesh().getVertices(), dtype=float)
    if e["kind"] == "pointcloud":
        return np.array(e["points"], dtype=float)
    args = e["args"]
    if e["call"] in ("setPoint",):
        return np.array([args[0]], dtype=float)
    if e["call"] == "setSegment":
        return np.array(args, dtype=float)
    if e["call"] == "setTriangle":
        return np.array(args, dtype=float)
    if e["call"] == "setAABB":
        lo, hi = args
        return np.array([[(lo, hi)[i >> k & 1][k] for k in range(3)] for i in range(8)], dtype=float)
    if e["call"] == "setBox":
        ori, R, dims = args
        Rm = np.array(R).reshape(3, 3).T
        return np.array([np.array(ori) + Rm @ [dims[k] * (i >> k & 1) for k in range(3)] for i in range(8)])
    return None  # sphere


def world(points, T):
    R = np.array(T[0]).reshape(3, 3).T
    return points @ R.T + np.array(T[1])


def sphere_of(name, T):
    c, r = GOLDEN["geometries"][name]["args"]
    return world(np.array([c], dtype=float), T), r


def independent_distance(pair):
    """Distance before margins: the hull distance (or minus the radius for a
    sphere); None where it is not the distance of the pair (overlapping
    shapes, point clouds, whose golden values are checked directly)."""
    kinds = [GOLDEN["geometries"][n]["kind"] for n in (pair["a"], pair["b"])]
    if "pointcloud" in kinds:
        return None
    parts, radius = [], 0.0
    for name, T in ((pair["a"], pair["transformA"]), (pair["b"], pair["transformB"])):
        V = local_vertices(name)
        if V is None:
            c, r = sphere_of(name, T)
            parts.append(c)
            radius += r
        else:
            parts.append(world(V, T))
    d = hull_distance(*parts)
    if d <= 1e-7:
        return None
    return d - radius


# ---------------------------------------------------------------- golden pairs

PAIRS = GOLDEN["pairs"]


def pair_id(p):
    return "%s-%s-%s" % (p["a"], p["b"], p["placement"])


def ok(value):
    return not (isinstance(value, dict) and "error" in value)


def golden_trusted(pair, expected):
    """The golden distance is right when it agrees with the independent value
    (or, for point clouds, where no independent value is computed here)."""
    g = pair["distance"]
    if not ok(g) or not g["hasClosestPoints"]:
        return False
    if expected is None:
        return True
    return abs(g["d"] + pair["collisionMarginA"] + pair["collisionMarginB"] - expected) < 1e-6


def is_sphere(name):
    return GOLDEN["geometries"][name].get("call") == "setSphere"


@pytest.mark.parametrize("pair", PAIRS, ids=[pair_id(p) for p in PAIRS])
def test_pair_distance(pair):
    a, b = placed(pair)
    margins = pair["collisionMarginA"] + pair["collisionMarginB"]
    res = a.distance(b)
    expected = independent_distance(pair)
    sphere_point = {pair["a"], pair["b"]} == {"sphere", "point"} and pair["a"] == "sphere"
    if golden_trusted(pair, expected) and not sphere_point:
        g = pair["distance"]
        assert res.d == pytest.approx(g["d"], abs=TOL)
        assert res.hasClosestPoints
        if res.d + margins > 1e-6 and (g["hasGradients"] or margins == 0):
            # Closest points are unique for separated convex pairs. With a
            # margin they lie on the grown surfaces (the reference leaves
            # them on the bare surfaces of meshes and point clouds).
            np.testing.assert_allclose(res.cp1, g["cp1"], atol=1e-5)
            np.testing.assert_allclose(res.cp2, g["cp2"], atol=1e-5)
            if g["hasGradients"] and res.hasGradients:
                np.testing.assert_allclose(res.grad1, g["grad1"], atol=1e-5)
    elif expected is not None:
        # The reference is wrong here (segments, "not implemented" pairs,
        # AABB/Box/Triangle first): the Euclidean distance instead.
        assert res.d == pytest.approx(expected - margins, abs=TOL)
    elif sphere_point:
        # Deliberate difference: sphere->point is signed like point->sphere.
        c, r = sphere_of("sphere", pair["transformA"])
        p = world(np.array([[0.0, 0, 0]]), pair["transformB"])
        assert res.d == pytest.approx(np.linalg.norm(p - c) - r - margins, abs=TOL)
    else:
        # Overlapping shapes where the reference has no answer: unsigned
        # pairs give 0 minus the margins.
        assert not (is_sphere(pair["a"]) or is_sphere(pair["b"]))
        assert res.d == pytest.approx(-margins, abs=TOL)
    if res.hasClosestPoints:
        # Closest points realise the distance (before margins).
        if res.d > 1e-9:
            assert np.linalg.norm(np.subtract(res.cp1, res.cp2)) == pytest.approx(res.d, abs=1e-6)
    assert a.distance_simple(b) == pytest.approx(res.d, abs=1e-12)
    # Symmetry.
    assert b.distance(a).d == pytest.approx(res.d, abs=1e-6)


@pytest.mark.parametrize("pair", PAIRS, ids=[pair_id(p) for p in PAIRS])
def test_pair_collides_and_within(pair):
    a, b = placed(pair)
    d = a.distance(b).d
    col = a.collides(b)
    # collides <=> distance <= 0 (margins included); withinDistance likewise.
    assert col == (d <= 1e-9)
    tol = pair["withinDistance"]["tol"] if ok(pair["withinDistance"]) else 0.05
    assert a.withinDistance(b, tol) == (d <= tol + 1e-9)
    g = pair["collides"]
    if ok(g) and golden_trusted(pair, independent_distance(pair)) and abs(d) > 1e-6:
        # Where the reference's own distance is right, its collides agrees
        # with ours, except for its point/triangle and mesh/point-cloud
        # collision tests, which disagree with its own distances.
        inconsistent = (g != (pair["distance"]["d"] <= 0))
        if not inconsistent:
            assert col == g


@pytest.mark.parametrize("pair", PAIRS, ids=[pair_id(p) for p in PAIRS])
def test_pair_contacts(pair):
    a, b = placed(pair)
    pad = 0.01
    total = 2 * pad + pair["collisionMarginA"] + pair["collisionMarginB"]
    res = a.contacts(b, pad, pad)
    d = a.distance(b).d  # after margins
    n = len(res.depths)
    assert len(res.points1) == len(res.points2) == len(res.normals) == len(res.elems1) == len(res.elems2) == n
    # Contacts exist exactly when the padded shapes are within each other.
    assert (n > 0) == (d <= 2 * pad + 1e-9)
    if n:
        assert min(res.depths) >= 0
        # The deepest contact is the padding minus the distance.
        assert max(res.depths) == pytest.approx(2 * pad - d, abs=1e-6)
        for nrm in res.normals:
            assert np.linalg.norm(nrm) == pytest.approx(1.0, abs=1e-9) or np.linalg.norm(nrm) == 0
    g = pair["contacts"]
    if ok(g) and g["count"] > 0 and golden_trusted(pair, independent_distance(pair)) and d > 1e-6:
        # Separated pairs only: for overlapping ones the reference's deepest
        # contact is not the padding minus its own distance (point clouds).
        assert n > 0
        assert max(res.depths) == pytest.approx(g["maxDepth"], abs=1e-6)
    assert total > 0


def test_max_contacts_keeps_deepest():
    pair = next(p for p in PAIRS if p["a"] == "mesh_cylinder" and p["b"] == "mesh_cylinder"
                and p["placement"] == "penetrating")
    a, b = placed(pair)
    full = a.contacts(b, 0.01, 0.01)
    assert len(full.depths) > 4
    few = a.contacts(b, 0.01, 0.01, 4)
    assert len(few.depths) == 4
    assert max(few.depths) == pytest.approx(max(full.depths))


# ---------------------------------------------------------------- rays and points

RAYS = GOLDEN["rays"]


@pytest.mark.parametrize("entry", RAYS, ids=[r["geometry"] for r in RAYS])
def test_ray_casts(entry):
    g = build(entry["geometry"])
    g.setCurrentTransform(*entry["transform"])
    for ray in entry["rayCasts"]:
        hit, pt = g.rayCast(ray["s"], ray["d"])
        assert hit == ray["rayCast"]["hit"], ray["name"]
        elem, pt2 = g.rayCast_ext(ray["s"], ray["d"])
        assert (elem >= 0) == hit
        if hit:
            np.testing.assert_allclose(pt, ray["rayCast"]["pt"], atol=1e-6)
            np.testing.assert_allclose(pt2, ray["rayCast_ext"]["pt"], atol=1e-6)
            # The hit point lies on the surface.
            assert abs(g.distance_point(pt).d) < 1e-6 or g.type() == "PointCloud"
            if entry["geometry"] != "mesh_cube":  # the cube's hit lies on an edge shared by two triangles
                assert elem == ray["rayCast_ext"]["elem"]


@pytest.mark.parametrize("entry", RAYS, ids=[r["geometry"] for r in RAYS])
def test_distance_point(entry):
    name = entry["geometry"]
    g = build(name)
    g.setCurrentTransform(*entry["transform"])
    for q in entry["distancePoint"]:
        res = g.distance_point(q["point"])
        gold = q["result"]
        p = np.array(q["point"])
        if name == "segment":
            # The reference's segment distance is wrong: closed form instead.
            a, b = world(np.array(GOLDEN["geometries"]["segment"]["args"]), entry["transform"])
            u = np.clip(np.dot(p - a, b - a) / np.dot(b - a, b - a), 0, 1)
            assert res.d == pytest.approx(np.linalg.norm(a + u * (b - a) - p), abs=1e-9)
        elif name == "sphere" and gold["d"] == 0.0:
            # Deliberate difference: signed inside a sphere, as documented.
            c, r = sphere_of("sphere", entry["transform"])
            assert res.d == pytest.approx(np.linalg.norm(p - c) - r, abs=1e-9)
        else:
            assert res.d == pytest.approx(gold["d"], abs=1e-6)
            np.testing.assert_allclose(res.cp1, gold["cp1"], atol=1e-6)
        np.testing.assert_allclose(res.cp2, p, atol=1e-12)


def test_unsupported_pairs_raise_value_error():
    grid_pair = klampt.Geometry3D()
    assert grid_pair.loadFile(os.path.join(SHARED_DATA, "objects/centeredcube.off"))
    empty = klampt.Geometry3D()
    with pytest.raises(ValueError):
        grid_pair.distance(empty)
    with pytest.raises(ValueError):
        grid_pair.rayCast([0, 0, 0], [0, 0, 0])
    with pytest.raises(ValueError):
        grid_pair.distance_point([float("nan"), 0, 0])


def test_margin_subtracts_from_every_distance():
    a, b = build("mesh_cube"), build("sphere")
    b.setCurrentTransform(so3.identity(), [1.5, 0.2, 0.1])
    d0 = a.distance(b).d
    a.setCollisionMargin(0.25)
    b.setCollisionMargin(0.125)
    assert a.distance(b).d == pytest.approx(d0 - 0.375, abs=1e-12)
    assert a.distance_point([3, 0, 0]).d == pytest.approx(2.5 - 0.25, abs=1e-9)


def test_distance_ext_upper_bound():
    a, b = build("mesh_cube"), build("mesh_cylinder")
    b.setCurrentTransform(so3.identity(), [5, 0, 0])
    s = klampt.DistanceQuerySettings()
    s.upperBound = 1.0
    res = a.distance_ext(b, s)
    assert res.d >= 1.0
    s.upperBound = math.inf
    assert a.distance_ext(b, s).d == pytest.approx(a.distance(b).d)


def test_copies_share_collision_structures_and_edits_reset_them():
    a = build("mesh_cube")
    b = build("mesh_cube")
    b.setCurrentTransform(so3.identity(), [1.2, 0, 0])
    assert a.distance(b).d == pytest.approx(0.2, abs=1e-9)
    c = a.copy()
    c.translate([0.1, 0, 0])  # edits c's data only
    assert c.distance(b).d == pytest.approx(0.1, abs=1e-9)
    assert a.distance(b).d == pytest.approx(0.2, abs=1e-9)


def test_support():
    a = build("mesh_cube")
    a.setCurrentTransform(so3.rotation([0, 0, 1], 0.3), [1, 2, 3])
    d = [0.3, -0.2, 0.9]
    verts = world(local_vertices("mesh_cube"), a.getCurrentTransform())
    np.testing.assert_allclose(np.dot(a.support(d), d), max(verts @ d), atol=1e-12)
    s = build("sphere")
    np.testing.assert_allclose(s.support([0, 0, 2]), [0, 0, 0.5], atol=1e-12)


# ---------------------------------------------------------------- robots

ROBOT_FILES = ["tx90l.rob", "ur5.rob", "planar3R.rob", "athlete.rob", "baxter.rob", "atlas.rob",
               "kinova_gen3_7dof.urdf", "robotiq_85.rob"]


@pytest.mark.parametrize("fname", ROBOT_FILES)
def test_self_collision_golden(fname):
    gold = load_golden(fname + ".json")
    w = klampt.WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, gold["file"]))
    robot = w.robot(0)
    for cfg in gold["configs"]:
        robot.setConfig(cfg["q"])
        pairs = []
        for i, j in gold["selfCollisionEnabledPairs"]:
            gi, gj = robot.link(i).geometry(), robot.link(j).geometry()
            if gi.empty() or gj.empty():
                continue
            if gi.collides(gj):
                pairs.append([i, j])
        assert pairs == cfg["selfCollidingPairs"], cfg["label"]
        assert robot.selfCollides() == cfg["selfCollides"], cfg["label"]


def test_rays_through_shared_triangle_edges_hit():
    # Rays aimed exactly at the diagonals and edges shared by a box mesh's
    # triangles (and at its vertices) must hit the face, not slip between.
    prim = klampt.GeometricPrimitive()
    prim.setAABB([-1, -1, 1.95], [1, 1, 2.05])
    g = klampt.Geometry3D(prim).convert("TriangleMesh")
    for x in np.linspace(-1, 1, 9):
        for y in np.linspace(-1, 1, 9):
            hit, pt = g.rayCast([x, y, 0], [0, 0, 1])
            assert hit, (x, y)
            assert np.allclose(pt, [x, y, 1.95], atol=1e-12), (x, y, pt)
            hit, pt = g.rayCast([x, y, 3], [0, 0, -1])
            assert hit and abs(pt[2] - 2.05) < 1e-12, (x, y)


def _box(dims, R=None, t=(0, 0, 0)):
    prim = klampt.GeometricPrimitive()
    prim.setBox([-0.5 * d for d in dims], so3.identity(), list(dims))
    g = klampt.Geometry3D(prim)
    g.setCurrentTransform(R or so3.identity(), list(t))
    return g


def test_box_resting_on_box_gets_a_contact_per_corner():
    ground = _box([10, 10, 1], t=[0, 0, -0.5])
    block = _box([0.1, 0.2, 0.1], R=so3.rotation([0, 0, 1], 0.3), t=[0.2, 0.1, 0.0505])
    r = ground.contacts(block, 0.001, 0.001, 0)
    assert len(r.depths) == 4
    # the block's four bottom corners, 0.5 mm above the ground: depth = paddings - gap
    assert np.allclose(r.depths, 0.002 - 0.0005)
    assert np.allclose(r.normals, [[0, 0, 1]] * 4)
    corners = sorted(tuple(np.round(p[:2], 9)) for p in r.points2)
    R = np.array(so3.matrix(so3.rotation([0, 0, 1], 0.3)))
    expect = sorted(tuple(np.round((R @ [sx * 0.05, sy * 0.1, 0])[:2] + [0.2, 0.1], 9)) for sx in (-1, 1) for sy in (-1, 1))
    assert np.allclose(corners, expect)
    # tipped onto an edge: two contacts; lifted clear: none
    tipped = _box([0.1, 0.1, 0.1], R=so3.rotation([1, 0, 0], math.pi / 4), t=[0, 0, 0.05 * math.sqrt(2) + 0.0005])
    assert len(ground.contacts(tipped, 0.001, 0.001, 0).depths) == 2
    lifted = _box([0.1, 0.1, 0.1], t=[0, 0, 0.06])
    assert len(ground.contacts(lifted, 0.001, 0.001, 0).depths) == 0
    assert not ground.collides(lifted)


@pytest.mark.parametrize("lo", [[0.625, 0.125, 0.0], [0.625, 0.25, 0.0], [0.0, 0.0, 0.0], [0.3, 0.2, 0.125]])
def test_box_inside_a_box_touching_its_faces_collides_in_both_orders(lo):
    """A box inside another, flush with one or more of its faces, penetrates
    it: collides and withinDistance say so whichever geometry asks."""
    big = aabb_geometry([0, 0, 0], [1, 0.5, 0.25])
    small = aabb_geometry(lo, [lo[0] + 0.125, lo[1] + 0.125, lo[2] + 0.125])
    for a, b in ((small, big), (big, small)):
        assert a.collides(b)
        assert a.withinDistance(b, 0.0)
        assert a.distance(b).d <= 0.0
    hull = small.convert("ConvexHull")
    assert hull.collides(big) and big.collides(hull)
