"""An independent exact test of triangle-mesh intersection (numpy, brute force with box culling).

Two closed or open triangle surfaces intersect iff an edge of one crosses a
triangle of the other (touching and coplanar overlaps aside, which random
poses do not produce). Used as the oracle of the collision tests.
"""
import numpy as np


def world_triangles(geometry):
    """The triangles (n x 3 x 3) of a klampt triangle-mesh geometry, in world coordinates."""
    tm = geometry.getTriangleMesh()
    V = np.asarray(tm.getVertices(), dtype=float)
    F = np.asarray(tm.getIndices(), dtype=int)
    R, t = geometry.getCurrentTransform()
    Rm = np.array(R, dtype=float).reshape(3, 3).T  # column-major
    return (V @ Rm.T + np.asarray(t))[F]


def _segments_hit_triangles(P0, P1, A, B, C, eps=1e-12):
    """Per row: does segment P0-P1 cross triangle ABC (Moller-Trumbore restricted to the segment)."""
    d = P1 - P0
    e1, e2 = B - A, C - A
    h = np.cross(d, e2)
    a = np.einsum("ij,ij->i", e1, h)
    ok = np.abs(a) > eps
    f = np.where(ok, 1.0 / np.where(ok, a, 1.0), 0.0)
    s = P0 - A
    u = f * np.einsum("ij,ij->i", s, h)
    q = np.cross(s, e1)
    v = f * np.einsum("ij,ij->i", d, q)
    t = f * np.einsum("ij,ij->i", e2, q)
    return ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t >= 0) & (t <= 1)


def triangles_intersect(T1, T2, chunk=200000):
    """Whether two triangle soups (n x 3 x 3, m x 3 x 3) intersect."""
    lo1, hi1 = T1.min(axis=1), T1.max(axis=1)
    lo2, hi2 = T2.min(axis=1), T2.max(axis=1)
    if np.any(lo1.min(axis=0) > hi2.max(axis=0)) or np.any(lo2.min(axis=0) > hi1.max(axis=0)):
        return False
    # candidate pairs whose boxes overlap
    for start in range(0, len(T1), max(1, chunk // max(1, len(T2)))):
        stop = min(len(T1), start + max(1, chunk // max(1, len(T2))))
        overlap = np.all((lo1[start:stop, None, :] <= hi2[None, :, :]) & (lo2[None, :, :] <= hi1[start:stop, None, :]), axis=2)
        i, j = np.nonzero(overlap)
        if len(i) == 0:
            continue
        i = i + start
        for X, Y in ((T1[i], T2[j]), (T2[j], T1[i])):
            for k in range(3):
                if np.any(_segments_hit_triangles(X[:, k], X[:, (k + 1) % 3], Y[:, 0], Y[:, 1], Y[:, 2])):
                    return True
    return False


def geometries_intersect(g1, g2):
    """The oracle's answer for two klampt triangle-mesh geometries at their current transforms."""
    return triangles_intersect(world_triangles(g1), world_triangles(g2))
