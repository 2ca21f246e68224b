"""Queries between a heightmap and every geometry type against brute force
over the heightmap's samples: its surface is the two triangles of each grid
cell through the documented vertex positions (computed here in numpy), and the
space below an elevation map is solid."""
import numpy as np
import pytest

import klampt
from klampt.math import se3, so3

from conftest import sphere_geometry
from geometry_oracles import point_triangle_distances, segment_segment_distances

W, H = 12, 10
POSE_T = np.array([0.3, -0.2, 0.1])


def terrain():
    hm = klampt.Heightmap()
    hm.resize(W, H)
    hm.setSize(2.2, 1.8)
    i, j = np.meshgrid(np.arange(W), np.arange(H), indexing="ij")
    hm.heights[:] = 0.2 * np.sin(0.6 * i) + 0.1 * np.cos(0.9 * j)
    g = klampt.Geometry3D(hm)
    g.setCurrentTransform(so3.rotation([0, 0, 1], 0.3), list(POSE_T))
    return g


def surface(g):
    """World vertices (W*H x 3) and triangles of the terrain, from the
    documented vertex formula (not the library's conversion)."""
    hm = g.getHeightmap()
    vp = hm.viewport
    i, j = np.meshgrid(np.arange(vp.w), np.arange(vp.h), indexing="ij")
    local = np.stack([(i + 0.5 - vp.cx) / vp.fx, (vp.h - 1 - j + 0.5 - vp.cy) / vp.fy,
                      np.array(hm.heights, dtype=float)], axis=-1).reshape(-1, 3)
    R, t = g.getCurrentTransform()
    V = local @ np.array(R).reshape(3, 3) + np.array(t)  # column-major R: local @ R^T... transposed twice
    idx = np.arange(vp.w * vp.h).reshape(vp.w, vp.h)
    a, b, c, d = idx[:-1, :-1].ravel(), idx[:-1, 1:].ravel(), idx[1:, :-1].ravel(), idx[1:, 1:].ravel()
    T = np.concatenate([np.stack([a, b, c], 1), np.stack([b, d, c], 1)])
    return V, T


def on_footprint_border(g, p):
    """Whether the world point lies over the border of the map's footprint
    (where the walls of the solid below it stand), in the map's frame."""
    V, _ = surface(g)
    R, t = g.getCurrentTransform()
    Rm = np.array(so3.ndarray(R))
    local_v = (V - np.array(t)) @ Rm
    lo, hi = local_v[:, :2].min(axis=0), local_v[:, :2].max(axis=0)
    local_p = (np.asarray(p, dtype=float) - np.array(t)) @ Rm
    return bool(np.isclose(local_p[:2], lo, atol=1e-9).any() or np.isclose(local_p[:2], hi, atol=1e-9).any())


def surface_height(g, xy):
    """Height of the surface above world point xy and whether xy is over it
    (the vertical through xy meets a triangle)."""
    V, T = surface(g)
    A, B, C = V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]
    # Barycentric coordinates in the x-y projection.
    v0, v1, v2 = (B - A)[:, :2], (C - A)[:, :2], np.asarray(xy)[None, :2] - A[:, :2]
    den = v0[:, 0] * v1[:, 1] - v1[:, 0] * v0[:, 1]
    s = (v2[:, 0] * v1[:, 1] - v1[:, 0] * v2[:, 1]) / den
    t = (v0[:, 0] * v2[:, 1] - v2[:, 0] * v0[:, 1]) / den
    inside = (s >= -1e-12) & (t >= -1e-12) & (s + t <= 1 + 1e-12)
    if not inside.any():
        return None
    k = np.argmax(inside)
    return A[k, 2] + s[k] * (B[k, 2] - A[k, 2]) + t[k] * (C[k, 2] - A[k, 2])


def surface_distance(g, P):
    V, T = surface(g)
    return point_triangle_distances(np.atleast_2d(P), V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]).min(axis=1)


def mesh_arrays(geom):
    m = geom.getTriangleMesh()
    R, t = geom.getCurrentTransform()
    return np.array(m.getVertices()) @ np.array(R).reshape(3, 3) + np.array(t), np.array(m.getIndices())


def edges(V, T):
    E = np.unique(np.sort(np.concatenate([T[:, [0, 1]], T[:, [1, 2]], T[:, [2, 0]]]), axis=1), axis=0)
    return V[E[:, 0]], V[E[:, 1]]


def triangles_distance(Va, Ta, Vb, Tb):
    """Distance between two disjoint triangle sets: vertex-triangle and edge-edge minima."""
    best = min(point_triangle_distances(Va, Vb[Tb[:, 0]], Vb[Tb[:, 1]], Vb[Tb[:, 2]]).min(),
               point_triangle_distances(Vb, Va[Ta[:, 0]], Va[Ta[:, 1]], Va[Ta[:, 2]]).min())
    (a0, a1), (b0, b1) = edges(Va, Ta), edges(Vb, Tb)
    return min(best, segment_segment_distances(a0, a1, b0, b1).min())


def buried(g, P):
    """Whether each world point lies below the surface, over its footprint."""
    out = []
    for p in np.atleast_2d(P):
        h = surface_height(g, p)
        out.append(h is not None and p[2] <= h)
    return np.array(out)


def sample_points(g, n, rng, above):
    """Points over the footprint, `above` in [lo, hi] above (negative: below) the surface."""
    V, _ = surface(g)
    lo, hi = V.min(axis=0), V.max(axis=0)
    pts = []
    while len(pts) < n:
        p = rng.uniform(lo + 0.1, hi - 0.1)
        h = surface_height(g, p)
        if h is None:
            continue
        p[2] = h + rng.uniform(*above)
        pts.append(p)
    return np.array(pts)


def test_spheres_and_points_against_the_samples():
    g = terrain()
    rng = np.random.default_rng(1)
    for c in sample_points(g, 30, rng, (0.02, 0.5)):
        r = 0.1
        d = surface_distance(g, c)[0]
        s = sphere_geometry(c, r)
        res = g.distance(s)
        assert res.d == pytest.approx(d - r, abs=1e-7)
        assert np.linalg.norm(np.array(res.cp1) - c) == pytest.approx(d, abs=1e-7)
        assert g.collides(s) == (d <= r)
        assert g.withinDistance(s, 0.05) == (d - r <= 0.05)
        assert g.distance_point(list(c)).d == pytest.approx(d, abs=1e-7)
        point = klampt.GeometricPrimitive()
        point.setPoint(list(c))
        assert g.distance(klampt.Geometry3D(point)).d == pytest.approx(d, abs=1e-7)
    for c in sample_points(g, 10, rng, (-0.5, -0.2)):
        # Deep under the surface: inside the solid.
        assert g.collides(sphere_geometry(c, 0.05)) and sphere_geometry(c, 0.05).collides(g)
        assert g.distance(sphere_geometry(c, 0.05)).d < 0


def test_rays_hit_the_first_triangle():
    g = terrain()
    V, T = surface(g)
    rng = np.random.default_rng(2)
    for p in sample_points(g, 20, rng, (0.0, 0.0)):
        hit, pt = g.rayCast([p[0], p[1], 3.0], [0, 0, -1])
        assert hit and np.allclose(pt, [p[0], p[1], surface_height(g, p)], atol=1e-9)
    A, B, C = V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]
    hits = 0
    for _ in range(40):
        s = rng.uniform([-1.5, -1.5, 0.5], [1.5, 1.5, 1.0])
        d = rng.normal(size=3)
        d[2] = -abs(d[2]) - 0.2
        d /= np.linalg.norm(d)
        # Möller-Trumbore over every triangle.
        e1, e2 = B - A, C - A
        pv = np.cross(d, e2)
        det = np.einsum("ij,ij->i", e1, pv)
        q = s - A
        u = np.einsum("ij,ij->i", q, pv) / det
        qv = np.cross(q, e1)
        v = (qv @ d) / det
        t = np.einsum("ij,ij->i", e2, qv) / det
        ok = (u >= 0) & (v >= 0) & (u + v <= 1) & (t >= 0)
        hit, pt = g.rayCast(list(s), list(d))
        # A ray may leave the footprint first and hit the wall of the solid
        # below the surface there.
        on_wall = hit and on_footprint_border(g, pt)
        if ok.any():
            hits += 1
            first = s + t[ok].min() * d
            assert hit and (np.allclose(pt, first, atol=1e-9) or (on_wall and np.dot(np.subtract(pt, s), d) <
                                                                   t[ok].min()))
        else:
            assert not hit or on_wall
    assert hits > 10
    assert not g.rayCast([5, 5, 1], [0, 0, -1])[0]


def box_mesh(center, R, dims):
    p = klampt.GeometricPrimitive()
    p.setBox([0, 0, 0], so3.identity(), list(dims))
    m = klampt.Geometry3D(p).convert("TriangleMesh")
    m.setCurrentTransform(R, list(np.array(center) - np.array(so3.apply(R, list(np.array(dims) / 2)))))
    return m


def test_meshes_hulls_groups_and_clouds():
    g = terrain()
    V, T = surface(g)
    rng = np.random.default_rng(3)
    for c in sample_points(g, 12, rng, (0.15, 0.6)):
        R = so3.from_rotation_vector(list(rng.uniform(-2, 2, 3)))
        m = box_mesh(c, R, (0.12, 0.08, 0.1))
        Vm, Tm = mesh_arrays(m)
        expected = triangles_distance(V, T, Vm, Tm)
        crossing = buried(g, Vm)
        if crossing.any():
            assert g.collides(m)
            continue
        assert g.distance(m).d == pytest.approx(expected, abs=1e-7)
        assert g.collides(m) == (expected <= 0)
        assert m.distance(g).d == pytest.approx(expected, abs=1e-7)
        hull = klampt.Geometry3D(m.convert("ConvexHull"))
        hull.setCurrentTransform(*m.getCurrentTransform())
        assert g.distance(hull).d == pytest.approx(expected, abs=1e-6)
        group = klampt.Geometry3D()
        group.setGroup()
        member = m.convert("ConvexHull")
        member.setCurrentTransform(*se3.identity())  # placed by the group's transform alone
        group.setElement(0, member)
        far = sphere_geometry(c + [0, 0, 2.0], 0.1)
        group.setElement(1, far)
        group.setCurrentTransform(*m.getCurrentTransform())
        assert g.distance(group).d == pytest.approx(expected, abs=1e-6)
    pts = np.concatenate([sample_points(g, 40, rng, (0.05, 0.3))])
    pc = klampt.PointCloud()
    pc.setPoints(pts)
    cloud = klampt.Geometry3D(pc)
    assert g.distance(cloud).d == pytest.approx(surface_distance(g, pts).min(), abs=1e-7)
    assert not g.collides(cloud)
    pc.setPoints(np.concatenate([pts, sample_points(g, 1, rng, (-0.1, -0.05))]))
    assert g.collides(klampt.Geometry3D(pc))


def test_two_heightmaps_and_an_occupancy_grid():
    g = terrain()
    V, T = surface(g)
    # A second heightmap upside down above the first.
    top = klampt.Heightmap()
    top.resize(6, 5)
    top.setSize(1.0, 0.8)
    i, j = np.meshgrid(np.arange(6), np.arange(5), indexing="ij")
    top.heights[:] = 0.05 * i - 0.03 * j
    other = klampt.Geometry3D(top)
    for z in (0.6, 0.45, 0.35):
        other.setCurrentTransform(so3.rotation([1, 0, 0], np.pi), [0.2, 0.1, z])
        Vo, To = mesh_arrays(other.convert("TriangleMesh"))
        expected = triangles_distance(V, T, Vo, To)
        assert g.distance(other).d == pytest.approx(expected, abs=1e-7)
        assert g.collides(other) == (expected <= 1e-12)
    occ = klampt.OccupancyGrid()
    occ.resize(3, 2, 2)
    occ.setBmin([-0.3, -0.2, 0.35])
    occ.setBmax([0.3, 0.2, 0.75])
    occ.values[1, 0, 0] = 1.0
    occ.values[2, 1, 1] = 1.0
    og = klampt.Geometry3D(occ)
    boxes = og.convert("TriangleMesh")
    Vb, Tb = mesh_arrays(boxes)
    assert len(Tb) == 2 * 12
    expected = triangles_distance(V, T, Vb, Tb)
    assert g.distance(og).d == pytest.approx(expected, abs=1e-7)
    assert g.collides(og) == (expected <= 0)
    og.setCurrentTransform(so3.identity(), [0, 0, -0.7])  # cells under the surface
    assert g.collides(og)


def test_contacts_with_a_sphere_pressed_into_the_surface():
    g = terrain()
    rng = np.random.default_rng(4)
    for c in sample_points(g, 8, rng, (0.02, 0.08)):
        r = 0.1
        d = surface_distance(g, c)[0]
        res = g.contacts(sphere_geometry(c, r), 0.0, 0.0)
        assert len(res.depths) > 0
        assert max(res.depths) == pytest.approx(r - d, abs=1e-6)
        for p1, n in zip(res.points1, res.normals):
            assert surface_distance(g, np.array(p1))[0] < 1e-9 or on_footprint_border(g, p1)
            assert np.linalg.norm(n) == pytest.approx(1.0)
    far = sphere_geometry([0, 0, 2.0], 0.1)
    assert len(g.contacts(far, 0.0, 0.0).depths) == 0


def test_volume_grids_collide_through_their_level_set():
    g = terrain()
    rng = np.random.default_rng(5)
    c = sample_points(g, 1, rng, (0.4, 0.4))[0]
    sdf = sphere_geometry(c, 0.15).convert("ImplicitSurface", 0.02)
    assert not g.collides(sdf)
    sdf.setCurrentTransform(so3.identity(), [0, 0, -0.4])
    assert g.collides(sdf)


def test_points_under_the_surface_collide_exactly_where_the_mesh_says():
    """A point collides with an elevation map iff it lies at or below the
    map's mesh triangle above or below it: brute force over the triangles."""
    hm = klampt.Heightmap()
    hm.resize(6, 5)
    hm.setSize(1.0, 0.8)
    rng = np.random.default_rng(11)
    hm.heights[:] = rng.uniform(0.0, 0.4, size=(6, 5))
    g = klampt.Geometry3D(hm)
    mesh = g.convert("TriangleMesh").getTriangleMesh()
    V, T = mesh.getVertices(), mesh.getIndices()

    def surface_z(x, y):
        for a, b, c in T:
            A, B, C = V[a], V[b], V[c]
            m = np.array([[B[0] - A[0], C[0] - A[0]], [B[1] - A[1], C[1] - A[1]]])
            u, v = np.linalg.solve(m, [x - A[0], y - A[1]])
            if u >= -1e-12 and v >= -1e-12 and u + v <= 1 + 1e-12:
                return A[2] + u * (B[2] - A[2]) + v * (C[2] - A[2])
        return None

    checked = 0
    for _ in range(300):
        x, y = rng.uniform(-0.5, 0.5), rng.uniform(-0.4, 0.4)
        z0 = surface_z(x, y)
        z = z0 + rng.uniform(-0.02, 0.02)
        p = klampt.GeometricPrimitive()
        p.setPoint([x, y, z])
        assert g.collides(klampt.Geometry3D(p)) == (z <= z0), (x, y, z, z0)
        checked += 1
    assert checked == 300


def test_ray_elements_are_the_mesh_triangles():
    """Ray casts walk the grid cells; the triangle they report is the one the
    mesh conversion's ray cast reports, for rays from above, oblique rays and
    rays from below, with and without a missing sample."""
    for missing in (False, True):
        g = terrain()
        if missing:
            hm = g.getHeightmap()
            hm.set(3, 4, float("nan"))
            T = g.getCurrentTransform()
            g.setHeightmap(hm)
            g.setCurrentTransform(*T)
        mesh = g.convert("TriangleMesh")
        mesh.setCurrentTransform(*g.getCurrentTransform())
        rng = np.random.default_rng(8)
        surface_triangles = len(mesh.getTriangleMesh().getIndices())  # the walls' are numbered after these
        agree = 0
        for k in range(60):
            s = rng.uniform([-1.0, -0.8, 1.0], [1.0, 0.8, 1.5]) if k % 3 else rng.uniform([-1.0, -0.8, -1.5],
                                                                                              [1.0, 0.8, -1.0])
            d = rng.normal(size=3) * [0.3, 0.3, 0.0] + [0, 0, -1 if k % 3 else 1]
            e, pt = g.rayCast_ext(list(s), list(d))
            em, ptm = mesh.rayCast_ext(list(s), list(d))
            if em >= 0 and e < surface_triangles:
                assert (e, np.round(pt, 9).tolist()) == (em, np.round(ptm, 9).tolist())
                agree += 1
        assert agree > 30
