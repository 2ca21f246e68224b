"""Point cloud queries against brute force over every point: distance,
withinDistance, collides and contacts of clouds of balls (points with and
without a radius property, with and without collision margins) against a
real link mesh (every point to every triangle), a box, a convex hull, another
cloud (every pair of balls) and a volume grid (every point's own distance to
it), on random poses from overlapping to well apart."""
import numpy as np
import pytest
from scipy.spatial import ConvexHull, cKDTree

import klampt
from klampt.math import so3

from conftest import kinova_link_mesh
from geometry_oracles import point_triangle_distances

POSES = 16


def placed(geom, R, t):
    geom.setCurrentTransform(R, list(t))
    return np.array(R).reshape(3, 3).T, np.asarray(t, dtype=float)


def ball_cloud(rng, n, scale, radius):
    """n points in a flattened blob of size `scale`, with random radii up to
    `radius` (none if 0); returns the geometry, the local points and radii."""
    P = rng.normal(size=(n, 3)) * np.array([scale, 0.6 * scale, 0.2 * scale])
    pc = klampt.PointCloud()
    pc.setPoints(P)
    r = np.zeros(n)
    if radius > 0:
        r = rng.uniform(0, radius, n)
        pc.addProperty("radius", r)
    return klampt.Geometry3D(pc), P, r


def random_poses(rng, reach):
    """Rotations and translations from overlapping (near 0) to apart (reach)."""
    for k in range(POSES):
        R = so3.from_rotation_vector(list(rng.uniform(-3, 3, 3)))
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        yield R, direction * reach * k / (POSES - 1)


def check(cloud, other, values, margins, clamp=True):
    """The cloud's queries against `other` agree with `values`, every ball's
    distance (centre distance minus radius) computed by brute force."""
    truth = max(values.min(), 0.0) if clamp else values.min()
    res = cloud.distance(other)
    assert res.d == pytest.approx(truth - margins, abs=1e-9)
    assert res.hasClosestPoints
    # The reported closest point on the cloud is on the reported ball.
    for tol in (0.0, 0.003, 0.02):
        if abs(truth - tol - margins) > 1e-9:
            assert cloud.withinDistance(other, tol) == (truth <= tol + margins)
            assert other.withinDistance(cloud, tol) == (truth <= tol + margins)
    if abs(truth - margins) > 1e-9:
        assert cloud.collides(other) == (truth <= margins)
    pad = 0.01
    near = set(np.nonzero(values <= pad + margins + 1e-9)[0])
    sure = set(np.nonzero(values <= pad + margins - 1e-9)[0])
    got = set(cloud.contacts(other, pad, 0.0).elems1)
    assert sure <= got <= near


@pytest.mark.parametrize("radius,margins", [(0.0, (0.0, 0.0)), (0.004, (0.0, 0.0)), (0.0, (0.01, 0.005)),
                                            (0.003, (0.006, 0.0))])
def test_cloud_to_link_mesh_matches_every_point_and_triangle(radius, margins):
    mesh = kinova_link_mesh()
    m = mesh.getTriangleMesh()
    V, T = np.array(m.getVertices(), dtype=float), np.array(m.getIndices())
    A, B, C = V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]
    rng = np.random.default_rng(11)
    cloud, P, r = ball_cloud(rng, 200, 0.03, radius)
    cloud.setCollisionMargin(margins[0])
    mesh.setCollisionMargin(margins[1])
    for R, t in random_poses(rng, 0.25):
        Rm, tv = placed(cloud, R, t)
        W = P @ Rm.T + tv
        values = point_triangle_distances(W, A, B, C).min(axis=1) - r
        check(cloud, mesh, values, sum(margins))


def box_distances(W, lo, hi):
    """Distance from each point to the solid box [lo, hi] (0 inside)."""
    return np.linalg.norm(np.maximum(np.maximum(lo - W, W - hi), 0), axis=1)


@pytest.mark.parametrize("radius", [0.0, 0.01])
def test_cloud_to_box_matches_every_point(radius):
    box = klampt.GeometricPrimitive()
    lo, hi = np.array([-0.05, -0.02, -0.03]), np.array([0.04, 0.06, 0.01])
    box.setAABB(list(lo), list(hi))
    other = klampt.Geometry3D(box)
    rng = np.random.default_rng(12)
    cloud, P, r = ball_cloud(rng, 600, 0.04, radius)
    for R, t in random_poses(rng, 0.3):
        Rm, tv = placed(cloud, R, t)
        check(cloud, other, box_distances(P @ Rm.T + tv, lo, hi) - r, 0.0)


def test_cloud_to_convex_hull_matches_every_point():
    rng = np.random.default_rng(13)
    H = rng.normal(size=(30, 3)) * 0.05
    hull = ConvexHull(H)
    geom = klampt.ConvexHull()
    geom.setPoints(H)
    other = klampt.Geometry3D(geom)
    X, Y, Z = (H[hull.simplices[:, k]] for k in range(3))
    cloud, P, r = ball_cloud(rng, 500, 0.04, 0.005)
    for R, t in random_poses(rng, 0.3):
        Rm, tv = placed(cloud, R, t)
        W = P @ Rm.T + tv
        inside = (W @ hull.equations[:, :3].T + hull.equations[:, 3] <= 0).all(axis=1)
        d = np.where(inside, 0.0, point_triangle_distances(W, X, Y, Z).min(axis=1))
        check(cloud, other, d - r, 0.0)


def cloud_pair(rng, sizes, radii):
    """Two ball clouds (ball_cloud) of the given sizes and largest radii, the
    second placed at a fixed pose: (a, Pa, ra) and (b, Wb, rb), Wb the
    second's centres in the world."""
    a, Pa, ra = ball_cloud(rng, sizes[0], 0.05, radii[0])
    b, Pb, rb = ball_cloud(rng, sizes[1], 0.04, radii[1])
    b.setCurrentTransform(so3.from_rotation_vector([0.3, -0.2, 1.0]), [0.01, 0.02, 0.0])
    R_b, t_b = b.getCurrentTransform()
    return (a, Pa, ra), (b, Pb @ np.array(R_b).reshape(3, 3) + np.array(t_b), rb)


def test_cloud_to_cloud_matches_every_pair_of_balls():
    rng = np.random.default_rng(14)
    (a, Pa, ra), (b, Wb, rb) = cloud_pair(rng, (300, 500), (0.004, 0.0))
    for R, t in random_poses(rng, 0.3):
        Rm, tv = placed(a, R, t)
        Wa = Pa @ Rm.T + tv
        pair = np.linalg.norm(Wa[:, None, :] - Wb[None, :, :], axis=-1) - rb[None, :]
        check(a, b, pair.min(axis=1) - ra, 0.0)


def test_cloud_to_cloud_contacts_pair_each_ball_with_its_nearest():
    # Every ball of the first cloud within the padding of the second, once,
    # with the second's ball nearest to it (centre distance less radius), the
    # depth from that distance (clouds have no inside: overlap counts as 0)
    # and the contact points on the two padded balls' surfaces.
    rng = np.random.default_rng(16)
    (a, Pa, ra), (b, Wb, rb) = cloud_pair(rng, (400, 600), (0.004, 0.003))
    pad = 0.006
    checked = 0
    for R, t in random_poses(rng, 0.15):
        Rm, tv = placed(a, R, t)
        Wa = Pa @ Rm.T + tv
        centre = np.linalg.norm(Wa[:, None, :] - Wb[None, :, :], axis=-1) - rb[None, :]
        ab, ba = a.contacts(b, pad / 2, pad / 2), b.contacts(a, pad / 2, pad / 2)
        # each ball's least distance to the other cloud's balls, a's then b's
        for res, value in ((ab, (centre - ra[:, None]).min(axis=1)), (ba, (centre - ra[:, None]).min(axis=0))):
            e1 = np.array(res.elems1, dtype=int)
            assert set(np.nonzero(value <= pad - 1e-9)[0]) <= set(e1) <= set(np.nonzero(value <= pad + 1e-9)[0])
            assert len(set(e1)) == len(e1)
        ia, ib = np.array(ab.elems1, dtype=int), np.array(ab.elems2, dtype=int)
        np.testing.assert_allclose(centre[ia, ib], centre[ia].min(axis=1), atol=1e-12)
        dist = np.maximum(centre[ia, ib] - ra[ia], 0.0)
        np.testing.assert_allclose(ab.depths, pad - dist, atol=1e-12)
        p1, p2 = np.array(ab.points1).reshape(-1, 3), np.array(ab.points2).reshape(-1, 3)
        # on the padded balls' surfaces
        np.testing.assert_allclose(np.linalg.norm(p1 - Wa[ia], axis=1), ra[ia] + pad / 2, atol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(p2 - Wb[ib], axis=1), rb[ib] + pad / 2, atol=1e-12)
        checked += len(ia)
    assert checked > 500


def test_cloud_to_volume_grid_matches_every_point():
    """A grid's distance at a point is its interpolated value: the cloud's
    answer is the least over its balls of each one's point query."""
    p = klampt.GeometricPrimitive()
    p.setSphere([0, 0, 0], 0.05)
    grid = klampt.Geometry3D(p).convert("VolumeGrid", 0.01)
    rng = np.random.default_rng(15)
    cloud, P, r = ball_cloud(rng, 300, 0.04, 0.003)
    for R, t in random_poses(rng, 0.3):
        Rm, tv = placed(cloud, R, t)
        W = P @ Rm.T + tv
        values = np.array([grid.distance_point(list(w)).d for w in W]) - r
        # Grids measure penetration: their distances are signed.
        res = cloud.distance(grid)
        assert res.d == pytest.approx(values.min(), abs=1e-9)
        for tol in (0.0, 0.01):
            if abs(values.min() - tol) > 1e-9:
                assert cloud.withinDistance(grid, tol) == (values.min() <= tol)


def _near_min_tolerances(truth):
    """Tolerances just below and just above the least ball distance."""
    return [t for t in (truth - 2e-4, truth + 2e-4) if t >= 0]


def test_large_clouds_answer_within_by_whole_nodes_too():
    """Past a few thousand balls a within-distance test of a mesh or a grid
    bounds whole nodes of the cloud: its yes and no still match every ball."""
    mesh = kinova_link_mesh()
    m = mesh.getTriangleMesh()
    V, T = np.array(m.getVertices(), dtype=float), np.array(m.getIndices())
    A, B, C = V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]
    grid = mesh.convert("VolumeGrid", 0.004)

    # Each point against every triangle that can be nearest: a triangle
    # within d of the point has its centre within d + its size, d being at
    # most the distance to the nearest vertex.
    centres = (A + B + C) / 3
    size = np.max([np.linalg.norm(X - centres, axis=1) for X in (A, B, C)], axis=0)
    small = np.nonzero(size <= 0.005)[0]
    large = np.nonzero(size > 0.005)[0]
    vertex_tree, centre_tree = cKDTree(V), cKDTree(centres[small])

    def to_mesh(W):
        upper = vertex_tree.query(W)[0]
        near = centre_tree.query_ball_point(W, upper + 0.005)
        out = np.empty(len(W))
        # Points in runs of 32 (neighbours: they come from neighbouring
        # triangles), each run against the union of its candidates.
        for i in range(0, len(W), 32):
            tris = np.unique(np.concatenate([small[n] for n in near[i:i + 32]] + [large])).astype(int)
            out[i:i + 32] = point_triangle_distances(W[i:i + 32], A[tris], B[tris], C[tris]).min(axis=1)
        return out

    def to_grid(W):
        return np.array([grid.distance_point(list(w)).d for w in W])

    # Triangle centres 2 to 6 mm off their faces, both ways, kept where at
    # least 1 mm from the other's surface: thousands of balls in its box, none on it.
    N = np.cross(B - A, C - A)
    N /= np.maximum(np.linalg.norm(N, axis=1), 1e-12)[:, None]
    candidates = np.concatenate([(A + B + C) / 3 + off * N for off in (-0.006, -0.003, 0.003, 0.006)])
    rng = np.random.default_rng(21)
    for other, measure in ((mesh, to_mesh), (grid, to_grid)):
        d0 = measure(candidates)
        P, d0 = candidates[d0 >= 0.001], d0[d0 >= 0.001]
        assert len(P) > 2 * 2048
        pc = klampt.PointCloud()
        pc.setPoints(P)
        cloud = klampt.Geometry3D(pc)
        for k in range(2):
            R = so3.from_rotation_vector(list(rng.uniform(-0.002, 0.002, 3)) if k else [0, 0, 0])
            Rm, tv = placed(cloud, R, rng.uniform(-2e-4, 2e-4, 3) if k else [0, 0, 0])
            W = P @ Rm.T + tv
            # A ball moved by at most `moved` changed its distance by at most
            # twice that (a mesh distance changes no faster than the point
            # moves, a grid's interpolated value under sqrt(3) times), so only
            # the balls then within 4 * moved of the least can be least now.
            moved = np.linalg.norm(W - P, axis=1).max()
            near = d0 <= d0.min() + 4 * moved + 1e-12
            truth = measure(W[near]).min()
            assert cloud.distance(other).d == pytest.approx(truth, abs=1e-9)
            for tol in (truth - 2e-4, truth + 2e-4):
                assert cloud.withinDistance(other, tol) == (truth <= tol)
                assert other.withinDistance(cloud, tol) == (truth <= tol)
