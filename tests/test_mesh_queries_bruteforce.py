"""Mesh queries against brute force over every triangle: mesh-mesh distance
at close range with a new relative orientation on every call (no reusable
warm start), mesh-box and mesh-sphere distance at many poses, collision and
contacts of single triangles, the first hit of rays on a real
link mesh, and mesh-mesh contacts (every triangle pair within the padding)."""
import concurrent.futures
import os

import numpy as np
import pytest

import klampt
from klampt.math import so3

from conftest import SHARED_DATA, kinova_link_mesh, require_shared_data
from geometry_oracles import hull_distance, hulls_overlap, point_triangle_distances, segment_segment_distances


def mesh_arrays(geom):
    """World-frame vertices (n x 3) and triangle indices (m x 3)."""
    m = geom.getTriangleMesh()
    V = np.array(m.getVertices(), dtype=float)
    R, t = geom.getCurrentTransform()
    Rm = np.array(R).reshape(3, 3).T  # column-major
    return V @ Rm.T + np.array(t), np.array(m.getIndices())


def brute_mesh_distance(ga, gb):
    """Exact distance between two disjoint triangle meshes: the minimum of the
    vertex-triangle and edge-edge distances."""
    Va, Ta = mesh_arrays(ga)
    Vb, Tb = mesh_arrays(gb)
    best = min(point_triangle_distances(Va, Vb[Tb[:, 0]], Vb[Tb[:, 1]], Vb[Tb[:, 2]]).min(),
               point_triangle_distances(Vb, Va[Ta[:, 0]], Va[Ta[:, 1]], Va[Ta[:, 2]]).min())

    (a0, a1), (b0, b1) = mesh_edges(Va, Ta), mesh_edges(Vb, Tb)
    return min(best, segment_segment_distances(a0, a1, b0, b1).min())


def mesh_edges(V, T):
    """Start and end points of every edge of the triangles T over V."""
    E = np.unique(np.sort(np.concatenate([T[:, [0, 1]], T[:, [1, 2]], T[:, [2, 0]]]), axis=1), axis=0)
    return V[E[:, 0]], V[E[:, 1]]


def primitive_mesh(kind, *args, resolution=0):
    p = klampt.GeometricPrimitive()
    getattr(p, "set" + kind)(*args)
    return klampt.Geometry3D(p).convert("TriangleMesh", resolution)


def test_close_range_distance_with_a_new_orientation_every_call():
    a = primitive_mesh("Sphere", [0, 0, 0], 0.1, resolution=0.03)
    b = primitive_mesh("Box", [-0.05, -0.08, -0.02], [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.1, 0.16, 0.04])
    rng = np.random.default_rng(3)
    for gap in np.linspace(0.001, 0.05, 25):
        R = so3.from_rotation_vector(list(rng.uniform(-3, 3, 3)))
        # The box's furthest point from its centre is 0.098 away: centre it
        # so that its surface lies near the sphere's, in a random direction.
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        b.setCurrentTransform(R, list(direction * (0.1 + 0.098 + gap)))
        res = a.distance(b)
        expected = brute_mesh_distance(a, b)
        assert res.d == pytest.approx(expected, abs=1e-9)
        assert np.linalg.norm(np.array(res.cp1) - np.array(res.cp2)) == pytest.approx(expected, abs=1e-9)


def test_first_ray_hits_on_a_link_mesh_match_every_triangle():
    require_shared_data()
    w = klampt.WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", "kinova_gen3_7dof.urdf"))
    robot = w.robot(0)
    sizes = [(len(robot.link(i).geometry().getTriangleMesh().getIndices()), i) for i in range(robot.numLinks())
             if robot.link(i).geometry().type() == "TriangleMesh"]
    g = robot.link(max(sizes)[1]).geometry()
    V, T = mesh_arrays(g)
    A, B, C = V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]
    lo, hi = V.min(axis=0), V.max(axis=0)
    rng = np.random.default_rng(5)
    hits = 0
    for _ in range(40):
        target = rng.uniform(lo, hi)
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        s = target - d * 2 * np.linalg.norm(hi - lo)
        hit, point = g.rayCast(list(s), list(d))
        # Moeller-Trumbore over every triangle.
        e1, e2 = B - A, C - A
        pvec = np.cross(d, e2)
        det = np.einsum("ij,ij->i", e1, pvec)
        ok = np.abs(det) > 1e-14
        inv = np.where(ok, 1 / np.where(ok, det, 1), 0)
        tvec = s - A
        u = np.einsum("ij,ij->i", tvec, pvec) * inv
        qvec = np.cross(tvec, e1)
        v = (qvec @ d) * inv
        t = np.einsum("ij,ij->i", e2, qvec) * inv
        valid = ok & (u >= -1e-12) & (v >= -1e-12) & (u + v <= 1 + 1e-12) & (t >= 0)
        assert hit == bool(valid.any())
        if hit:
            hits += 1
            assert np.linalg.norm(np.array(point) - s) == pytest.approx(t[valid].min(), abs=1e-9)
    assert hits >= 10


def brute_triangle_pair_distances(ga, gb):
    """Distance between every triangle of a and every triangle of b (disjoint
    triangles): the minimum of their vertex-triangle and edge-edge distances."""
    Va, Ta = mesh_arrays(ga)
    Vb, Tb = mesh_arrays(gb)
    to_b = point_triangle_distances(Va, Vb[Tb[:, 0]], Vb[Tb[:, 1]], Vb[Tb[:, 2]])  # vertex of a x triangle of b
    to_a = point_triangle_distances(Vb, Va[Ta[:, 0]], Va[Ta[:, 1]], Va[Ta[:, 2]])
    d = np.minimum(to_b[Ta].min(axis=1), to_a[Tb].min(axis=1).T)
    ea = [(Va[Ta[:, k]], Va[Ta[:, (k + 1) % 3]]) for k in range(3)]
    eb = [(Vb[Tb[:, k]], Vb[Tb[:, (k + 1) % 3]]) for k in range(3)]
    for a0, a1 in ea:
        for b0, b1 in eb:
            d = np.minimum(d, segment_segment_distances(a0, a1, b0, b1))
    return d


def triangle_geometry(P):
    m = klampt.TriangleMesh()
    m.setVertices(np.asarray(P, dtype=float))
    m.setIndices(np.array([[0, 1, 2]], dtype=np.int32))
    return klampt.Geometry3D(m)


def test_single_triangles_collide_exactly_when_they_share_a_point():
    # Every mesh-mesh collision ends in triangle pairs: generic ones, coplanar
    # ones (only in-plane axes separate them) and, one pair in nine, a
    # triangle of no area (a segment). The truth is a linear program over
    # the convex weights of both triangles.
    rng = np.random.default_rng(5)
    outcomes, ambiguous = [], 0
    for k in range(900):
        P = rng.uniform(-1, 1, (3, 3))
        Q = rng.uniform(-1, 1, (3, 3)) * 0.8 + rng.uniform(-1, 1, 3) * 1.5
        if k % 3 == 1:
            P[:, 2] = Q[:, 2] = 0.0
        if k % 9 == 2:
            Q[2] = Q[1]
        # Pairs whose answer changes when both triangles shrink or grow by
        # 1e-5 about their centroids touch within the program's tolerance.
        expected = {hulls_overlap(*(c + f * (T - c) for T, c in ((P, P.mean(0)), (Q, Q.mean(0)))))
                    for f in (1 - 1e-5, 1 + 1e-5)}
        if len(expected) > 1:
            ambiguous += 1
            continue
        expected = expected.pop()
        ga, gb = triangle_geometry(P), triangle_geometry(Q)
        assert ga.collides(gb) == expected, (P, Q)
        assert gb.collides(ga) == expected, (P, Q)
        outcomes.append((expected, k % 3 == 1))
    assert ambiguous < 20
    # Both answers occur, for coplanar pairs and for the others.
    assert set(outcomes) == {(True, True), (True, False), (False, True), (False, False)}


def separated_triangle_pairs(seed, count):
    """Pairs (P, Q) of separated triangles in every arrangement the triangle
    tests tell apart: generic, one facing the other's face, nearly parallel,
    nearly coplanar side by side and long slivers (overlapping draws are
    left out)."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        P = rng.uniform(-1, 1, (3, 3))
        Q = rng.uniform(-1, 1, (3, 3)) * 0.8 + rng.uniform(-1, 1, 3) * 2.5
        if k % 5 == 1:  # Q lies above P's face
            Q = P.mean(0) + 0.3 * rng.uniform(-1, 1, (3, 3))
            Q[:, 2] = P[:, 2].max() + rng.uniform(0.01, 0.5, 3)
        if k % 5 == 2:  # nearly parallel planes
            Q = P[[1, 2, 0]] * 0.7 + rng.uniform(-0.5, 0.5, 3)
            Q += 0.2 * np.cross(P[1] - P[0], P[2] - P[0]) + 1e-9 * rng.normal(size=(3, 3))
        if k % 5 == 3:  # nearly coplanar, side by side
            P[:, 2] = 0.0
            Q[:, 2] = 1e-7 * rng.normal(size=3)
        if k % 5 == 4:  # a sliver
            P[2] = P[1] + 1e-4 * rng.normal(size=3)
        if not hulls_overlap(P, Q):
            yield P, Q


def test_single_triangle_distances_match_every_vertex_and_edge():
    # Both closest points must lie on their triangles at the distance apart.
    checked = 0
    for P, Q in separated_triangle_pairs(17, 600):
        ga, gb = triangle_geometry(P), triangle_geometry(Q)
        expected = brute_triangle_pair_distances(ga, gb)[0, 0]
        res = ga.distance(gb)
        assert res.d == pytest.approx(expected, abs=1e-9), (P, Q)
        cp1, cp2 = np.array(res.cp1), np.array(res.cp2)
        assert np.linalg.norm(cp1 - cp2) == pytest.approx(expected, abs=1e-9)
        assert point_triangle_distances(cp1[None], *P[:, None, :])[0, 0] == pytest.approx(0, abs=1e-9)
        assert point_triangle_distances(cp2[None], *Q[:, None, :])[0, 0] == pytest.approx(0, abs=1e-9)
        checked += 1
    assert checked > 400


def test_single_triangle_contacts_exist_exactly_within_the_padding():
    # A contact's triangle pair is rejected early by bounds on its distance
    # (the boxes of the triangles, their gap along the line through the
    # centroids, their planes); paddings a millionth short of the distance
    # must give no contact and a millionth past it one, at that depth.
    checked = 0
    for P, Q in separated_triangle_pairs(23, 400):
        ga, gb = triangle_geometry(P), triangle_geometry(Q)
        d = brute_triangle_pair_distances(ga, gb)[0, 0]
        short = ga.contacts(gb, 0.5 * d * (1 - 1e-6), 0.5 * d * (1 - 1e-6))
        past = ga.contacts(gb, 0.5 * d * (1 + 1e-6), 0.5 * d * (1 + 1e-6))
        assert len(short.depths) == 0, (P, Q, d)
        assert len(past.depths) == 1, (P, Q, d)
        assert past.depths[0] == pytest.approx(d * 1e-6, abs=1e-9)
        checked += 1
    assert checked > 300


def test_link_mesh_distance_along_a_smooth_motion():
    # Coherent queries (each starts from the previous closest pair) on two
    # real link meshes turning and moving apart, against every
    # vertex-triangle and edge-edge pair.
    require_shared_data()
    w = klampt.WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", "ur5.rob"))
    robot = w.robot(0)
    a = robot.link(0).geometry().clone()
    b = robot.link(6).geometry().clone()
    a.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0])
    (alo, ahi), (blo, bhi) = a.getBBTight(), b.getBBTight()
    # Apart by more than their bounding spheres: the oracle needs disjoint meshes.
    reach = 0.5 * (np.linalg.norm(np.subtract(ahi, alo)) + np.linalg.norm(np.subtract(bhi, blo)))
    ca, cb = (np.add(alo, ahi) / 2), (np.add(blo, bhi) / 2)
    for step in range(8):
        R = so3.rotation([0.3, 1, 0.2], 0.15 * step)
        t = ca + [reach * (1.01 + 0.02 * step), 0.01 * step, 0] - np.array(so3.apply(R, list(cb)))
        b.setCurrentTransform(R, list(t))
        expected = brute_mesh_distance(a, b)
        assert a.distance(b).d == pytest.approx(expected, abs=1e-9)
        assert b.distance(a).d == pytest.approx(expected, abs=1e-9)


def test_mesh_contacts_are_every_triangle_pair_within_the_padding():
    a = primitive_mesh("Sphere", [0, 0, 0], 0.1, resolution=0.03)
    boxes = [primitive_mesh("Box", [-0.05, -0.08, -0.02], [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.1, 0.16, 0.04]),
             primitive_mesh("Sphere", [0, 0, 0], 0.05, resolution=0.02)]
    rng = np.random.default_rng(11)
    pad1, pad2 = 0.004, 0.006
    checked = 0
    for b, reach in zip(boxes * 6, [0.098, 0.05] * 6):
        R = so3.from_rotation_vector(list(rng.uniform(-3, 3, 3)))
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        b.setCurrentTransform(R, list(direction * (0.1 + reach + rng.uniform(0.0, 0.008))))
        d = brute_triangle_pair_distances(a, b)
        if d.min() <= 1e-6:
            continue  # intersecting: not the separated case this checks
        near = {(i, j): d[i, j] for i, j in zip(*np.nonzero(d <= pad1 + pad2))}
        res = a.contacts(b, pad1, pad2, 0)
        got = {(i, j): depth for i, j, depth in zip(res.elems1, res.elems2, res.depths)}
        # Pairs within a hair of the padding may fall either way.
        ambiguous = {k for k, v in near.items() if abs(v - pad1 - pad2) < 1e-9}
        assert set(got) - ambiguous == set(near) - ambiguous
        for k, depth in got.items():
            assert depth == pytest.approx(pad1 + pad2 - d[k], abs=1e-9)
        for p1, p2, n, k in zip(res.points1, res.points2, res.normals, zip(res.elems1, res.elems2)):
            # The points lie on the padded surfaces along the unit normal from a to b.
            n = np.array(n)
            gap = (np.array(p2) + pad2 * n) - (np.array(p1) - pad1 * n)
            assert np.linalg.norm(n) == pytest.approx(1.0)
            assert gap == pytest.approx(d[k] * n, abs=1e-9)
        checked += len(got)
    assert checked > 50


def test_many_mesh_contacts_split_over_the_cores_are_every_pair_within_the_padding():
    # Two nested sphere meshes 1 cm apart with paddings summing to 1.6 cm:
    # over ten thousand triangle pairs within the padding, which are tested
    # in blocks on every core and joined in order. Every such pair must be
    # there with its depth, the answer the same call after call and from
    # several Python threads at once, and on one core as on all of them.
    a = primitive_mesh("Sphere", [0, 0, 0], 0.1, resolution=0.025)
    b = primitive_mesh("Sphere", [0, 0, 0], 0.11, resolution=0.025)
    pad = 0.008
    rng = np.random.default_rng(13)
    for trial in range(2):
        b.setCurrentTransform(so3.from_rotation_vector(list(rng.uniform(-3, 3, 3))), list(rng.uniform(-1e-3, 1e-3, 3)))
        d = brute_triangle_pair_distances(a, b)
        assert d.min() > 0.005  # nested, never touching
        near = {(i, j): d[i, j] for i, j in zip(*np.nonzero(d <= 2 * pad))}
        assert len(near) > 10000
        res = a.contacts(b, pad, pad, 0)
        got = {(i, j): depth for i, j, depth in zip(res.elems1, res.elems2, res.depths)}
        assert len(got) == len(res.depths)  # no pair twice
        ambiguous = {k for k, v in near.items() if abs(v - 2 * pad) < 1e-9}
        assert set(got) - ambiguous == set(near) - ambiguous
        for k, depth in got.items():
            assert depth == pytest.approx(2 * pad - d[k], abs=1e-9)
        def answer(r):
            return (list(r.elems1), list(r.elems2), list(r.depths), list(map(list, r.points1)),
                    list(map(list, r.points2)), list(map(list, r.normals)))

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            again = list(pool.map(lambda _: a.contacts(b, pad, pad, 0), range(8)))
        for r in again:
            assert answer(r) == answer(res)
        # On one core (the work is split by the cores this thread may use):
        # the same contacts in the same order.
        cores = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(cores)})
        try:
            alone = a.contacts(b, pad, pad, 0)
        finally:
            os.sched_setaffinity(0, cores)
        assert answer(alone) == answer(res)


def test_mesh_box_contacts_are_every_triangle_within_the_padding():
    # A box primitive through and beside a sphere mesh's surface, both
    # argument orders: a contact for each triangle within the padding, with
    # its distance to the box (0 where they overlap: a mesh has no inside),
    # and closest points on the triangle and on the box.
    a = primitive_mesh("Sphere", [0, 0, 0], 0.1, resolution=0.03)
    V, T = mesh_arrays(a)
    half = np.array([0.03, 0.05, 0.02])
    box = klampt.GeometricPrimitive()
    box.setBox(list(-half), so3.identity(), list(2 * half))
    box = klampt.Geometry3D(box)
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
    rng = np.random.default_rng(12)
    pad1, pad2 = 0.004, 0.006
    pad = pad1 + pad2
    counts = {"overlap": 0, "apart": 0}
    for trial in range(10):
        Rk = so3.from_rotation_vector(list(rng.uniform(-3, 3, 3)))
        R = np.array(so3.matrix(Rk))
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        center = direction * (0.1 + rng.uniform(-0.02, 0.06))
        box.setCurrentTransform(Rk, list(center))
        corners = center + (signs * half) @ R.T
        reach = np.linalg.norm(half) + pad + 0.05
        truth = {}
        for t, tri in enumerate(T):
            P = V[tri]
            if np.linalg.norm(P - center, axis=1).min() <= reach:
                d = hull_distance(P, corners)
                if d <= pad + 1e-9:
                    truth[t] = d
        ambiguous = {t for t, d in truth.items() if abs(d - pad) < 1e-9}
        for res, swap in ((a.contacts(box, pad1, pad2, 0), False), (box.contacts(a, pad2, pad1, 0), True)):
            elems = res.elems2 if swap else res.elems1
            assert set(elems) - ambiguous == set(truth) - ambiguous
            for p1, p2, n, depth, t in zip(res.points1, res.points2, res.normals, res.depths, elems):
                p1, p2, n = np.array(p1), np.array(p2), np.array(n)
                if swap:  # make it mesh to box
                    p1, p2, n = p2, p1, -n
                assert depth == pytest.approx(pad - truth[t], abs=1e-9)
                assert np.linalg.norm(n) == pytest.approx(1.0)
                # The points, back on the unpadded surfaces, lie on the triangle and the box.
                onTriangle, onBox = p1 - pad1 * n, p2 + pad2 * n
                assert hull_distance(V[T[t]], onTriangle[None, :]) < 1e-9, (swap, truth[t])
                assert hull_distance(corners, onBox[None, :]) < 1e-9
                if truth[t] > 0:
                    assert onBox - onTriangle == pytest.approx(truth[t] * n, abs=1e-9)
                counts["overlap" if truth[t] == 0 else "apart"] += 1
    assert min(counts.values()) > 50, counts


def test_many_mesh_box_contacts_split_over_the_cores_equal_those_on_one_core():
    # A box over a patch of a fine sphere mesh: thousands of triangles near
    # it, tested in blocks on every core and joined in order. The same
    # contacts, point for point and in order, as on one core, where the test
    # above checks them against every triangle.
    a = primitive_mesh("Sphere", [0, 0, 0], 0.1, resolution=0.004)
    half = np.array([0.07, 0.08, 0.05])
    box = klampt.GeometricPrimitive()
    box.setBox(list(-half), so3.identity(), list(2 * half))
    box = klampt.Geometry3D(box)
    box.setCurrentTransform(so3.from_rotation_vector([0.3, 0.2, 0.1]), [0.1, 0, 0])

    def answers():
        return [(list(r.elems1), list(r.elems2), list(r.depths), list(map(list, r.points1)),
                 list(map(list, r.points2)), list(map(list, r.normals)))
                for r in (a.contacts(box, 0.004, 0.006, 0), box.contacts(a, 0.006, 0.004, 0))]

    everywhere = answers()
    assert min(len(x[0]) for x in everywhere) > 4096
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})
    try:
        alone = answers()
    finally:
        os.sched_setaffinity(0, cores)
    assert alone == everywhere


def test_mesh_contacts_of_sunken_triangles_push_them_apart():
    ground = primitive_mesh("AABB", [-1, -1, -0.5], [1, 1, 0])
    block = primitive_mesh("Box", [-0.05, -0.05, -0.05], [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.1, 0.1, 0.1])
    # Sunk 2 mm into the ground: the block's side faces cross the ground's top.
    block.setCurrentTransform(so3.rotation([0, 0, 1], 0.4), [0.1, 0.2, 0.048])
    res = ground.contacts(block, 0.001, 0.001, 0)
    assert len(res.depths) > 0
    crossing = [k for k, depth in enumerate(res.depths) if depth == pytest.approx(0.002)]
    assert crossing, "the crossing triangles report the whole padding as depth"
    for k in crossing:
        # From the ground into the block, at a point on the ground's top face.
        assert res.normals[k] == pytest.approx([0, 0, 1], abs=1e-9)
        assert res.points1[k][2] == pytest.approx(0.001, abs=1e-9)


def brute_mesh_box_distance(V, T, center, R, half):
    """Exact distance between a triangle mesh (world vertices V, triangles T)
    and a disjoint box (centre, axes as the columns of R, half sizes): the
    least of the mesh vertex-box, box corner-triangle and edge-edge distances."""
    local = (V - center) @ R
    best = np.linalg.norm(np.maximum(np.abs(local) - half, 0), axis=1).min()
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
    corners = center + (signs * half) @ R.T
    best = min(best, point_triangle_distances(corners, V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]).min())
    pairs = [(i, j) for i in range(8) for j in range(i + 1, 8) if np.sum(signs[i] != signs[j]) == 1]
    b0, b1 = corners[[i for i, _ in pairs]], corners[[j for _, j in pairs]]
    m0, m1 = mesh_edges(V, T)
    return min(best, segment_segment_distances(m0, m1, b0, b1).min())


def random_rotation(rng):
    return so3.rotation(list(rng.normal(size=3)), rng.uniform(0, 2 * np.pi))


@pytest.mark.parametrize("gap", [0.3, 0.02, 1e-3])
def test_link_mesh_to_box_and_sphere_distance_matches_every_triangle(gap):
    # The shape sits beyond the mesh along a random direction u: past the
    # plane through the mesh's farthest vertex along u by `gap` (so they are
    # disjoint and at least `gap` apart), its nearest point shifted sideways
    # from that vertex by up to twice the gap (at no shift the distance is
    # the gap itself).
    require_shared_data()
    w = klampt.WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", "tx90l.rob"))
    robot = w.robot(0)
    sizes = [(len(robot.link(i).geometry().getTriangleMesh().getIndices()), i) for i in range(robot.numLinks())
             if robot.link(i).geometry().type() == "TriangleMesh"]
    mesh = robot.link(max(sizes)[1]).geometry().clone()
    mesh.setCurrentTransform(so3.rotation([1, 2, 3], 0.7), [0.1, -0.2, 0.3])
    V, T = mesh_arrays(mesh)
    A, B, C = V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]
    rng = np.random.default_rng(int(gap * 1e4))
    half = np.array([0.04, 0.07, 0.02])
    box = klampt.GeometricPrimitive()
    box.setBox(list(-half), so3.identity(), list(2 * half))
    box = klampt.Geometry3D(box)
    radius = 0.05
    sphere = klampt.GeometricPrimitive()
    sphere.setSphere([0, 0, 0], radius)
    sphere = klampt.Geometry3D(sphere)
    for trial in range(6):
        u = rng.normal(size=3)
        u /= np.linalg.norm(u)
        side = np.cross(u, rng.normal(size=3))
        side *= rng.uniform(0, 2 * gap) / np.linalg.norm(side) if trial else 0
        top = V[np.argmax(V @ u)]
        Rk = random_rotation(rng)
        R = np.array(so3.matrix(Rk))
        signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
        low = (signs * half) @ R.T
        low = low[np.argmin(low @ u)]  # the box's lowest corner along u, from its centre
        center = top + gap * u + side - low
        box.setCurrentTransform(Rk, list(center))
        expected = brute_mesh_box_distance(V, T, center, R, half)
        assert expected == pytest.approx(gap, abs=1e-12) if trial == 0 else expected >= gap - 1e-12
        assert mesh.distance(box).d == pytest.approx(expected, abs=1e-9)
        assert box.distance(mesh).d == pytest.approx(expected, abs=1e-9)
        center = top + (gap + radius) * u + side
        sphere.setCurrentTransform(so3.identity(), list(center))
        expected = point_triangle_distances(center[None, :], A, B, C).min() - radius
        assert mesh.distance(sphere).d == pytest.approx(expected, abs=1e-9)
        assert sphere.distance(mesh).d == pytest.approx(expected, abs=1e-9)
        if trial == 0:
            assert expected == pytest.approx(gap, abs=1e-12)
    # A box around a mesh vertex overlaps the mesh.
    box.setCurrentTransform(so3.identity(), list(V[len(V) // 2]))
    assert mesh.distance(box).d == 0
    assert box.distance(mesh).d == 0


def test_link_mesh_against_overlapping_hulls_and_boxes_collides_as_its_triangles_do():
    # collides and withinDistance of a mesh and a convex shape stop at the
    # first triangle within reach (without measuring an overlap's depth):
    # the answer must be whether some triangle's hull overlaps, or comes within
    # the tolerance of, the shape's hull, on poses through the mesh's surface.
    mesh = kinova_link_mesh()
    V, T = mesh_arrays(mesh)
    rng = np.random.default_rng(31)
    tol = 0.01
    answers = set()
    for trial in range(24):
        pts = rng.normal(size=(12, 3)) * rng.uniform(0.005, 0.02, size=3)
        if trial % 3 == 0:
            shape = klampt.GeometricPrimitive()
            half = rng.uniform(0.003, 0.015, size=3)
            shape.setBox(list(-half), so3.identity(), list(2 * half))
            pts = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * half
            shape = klampt.Geometry3D(shape)
        else:
            h = klampt.ConvexHull()
            h.setPoints(pts)
            shape = klampt.Geometry3D(h)
        # centred up to 5 cm from a vertex of the mesh, in a random direction
        Rk = random_rotation(rng)
        away = rng.normal(size=3)
        t = V[rng.integers(len(V))] + away * rng.uniform(0, 0.05) / np.linalg.norm(away)
        shape.setCurrentTransform(Rk, list(t))
        W = pts @ np.array(so3.matrix(Rk)).T + t
        lo, hi = W.min(0) - tol, W.max(0) + tol
        tris = [k for k in range(len(T)) if np.all(V[T[k]].max(0) >= lo) and np.all(V[T[k]].min(0) <= hi)]
        overlap = any(hulls_overlap(V[T[k]], W) for k in tris)
        gap = 0.0 if overlap else min([hull_distance(V[T[k]], W) for k in tris], default=np.inf)
        for _ in range(2):  # the second time, the pair's last triangle is tried first
            assert mesh.collides(shape) == overlap and shape.collides(mesh) == overlap, (trial, gap)
            if abs(gap - tol) > 1e-9:
                assert mesh.withinDistance(shape, tol) == (gap <= tol), (trial, gap)
        answers.add((overlap, gap <= tol))
    assert answers == {(True, True), (False, True), (False, False)}, answers
