"""Exact geometry computed by brute force in numpy, the independent truth the
query tests compare with: distances from points to triangles and segments,
between segments, and between the convex hulls of two point sets."""
import itertools
import math

import numpy as np
from scipy.optimize import linprog
from scipy.spatial import ConvexHull, QhullError


def point_triangle_distances(P, A, B, C):
    """Distance from every point of P (p x 3) to every triangle (t x 3 each): p x t."""
    P = P[:, None, :]
    AB, AC, AP = B - A, C - A, P - A
    n = np.cross(AB, AC)
    nn = np.einsum("ij,ij->i", n, n)
    # Inside the prism of the triangle: the plane distance.
    d_plane = np.einsum("pti,ti->pt", AP, n) / np.sqrt(nn)
    proj = P - d_plane[..., None] * (n / np.sqrt(nn)[:, None])
    v0, v1, v2 = AB, AC, proj - A
    d00 = np.einsum("ti,ti->t", v0, v0)
    d01 = np.einsum("ti,ti->t", v0, v1)
    d11 = np.einsum("ti,ti->t", v1, v1)
    d20 = np.einsum("pti,ti->pt", v2, v0)
    d21 = np.einsum("pti,ti->pt", v2, v1)
    den = d00 * d11 - d01 * d01
    v = (d11 * d20 - d01 * d21) / den
    w = (d00 * d21 - d01 * d20) / den
    inside = (v >= 0) & (w >= 0) & (v + w <= 1)
    best = np.where(inside, np.abs(d_plane), np.inf)
    for S, E in ((A, B), (B, C), (C, A)):
        best = np.minimum(best, point_segment_distances(P, S, E))
    return best


def distance_to_segment(p, a, b):
    """Distance from the point p to the segment a-b (sequences of floats), in
    plain Python: the one-point form of point_segment_distances."""
    ab = [y - x for x, y in zip(a, b)]
    t = sum((pi - ai) * d for pi, ai, d in zip(p, a, ab)) / sum(d * d for d in ab)
    t = max(0.0, min(1.0, t))
    return math.dist(p, [ai + t * d for ai, d in zip(a, ab)])


def point_segment_distances(P, S, E):
    """Distance from every point of P (p x 1 x 3) to every segment S-E (s x 3 each): p x s."""
    D = E - S
    t = np.clip(np.einsum("pti,ti->pt", P - S, D) / np.einsum("ti,ti->t", D, D), 0, 1)
    return np.linalg.norm(P - (S + t[..., None] * D), axis=-1)


def segment_segment_distances(P0, P1, Q0, Q1):
    """Distance between every segment P (a x 3 ends) and every segment Q (b x 3 ends): a x b."""
    d1 = (P1 - P0)[:, None, :]
    d2 = (Q1 - Q0)[None, :, :]
    r = P0[:, None, :] - Q0[None, :, :]
    a = np.einsum("abi,abi->ab", d1 * np.ones_like(r), d1 * np.ones_like(r))
    e = np.einsum("abi,abi->ab", d2 * np.ones_like(r), d2 * np.ones_like(r))
    f = np.einsum("abi,abi->ab", d2 * np.ones_like(r), r)
    c = np.einsum("abi,abi->ab", d1 * np.ones_like(r), r)
    b = np.einsum("abi,abi->ab", d1 * np.ones_like(r), d2 * np.ones_like(r))
    den = a * e - b * b
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(den > 1e-15, np.clip((b * f - c * e) / den, 0, 1), 0.0)
        t = (b * s + f) / e
        t = np.clip(t, 0, 1)
        s = np.clip((b * t - c) / a, 0, 1)
    return np.linalg.norm(r + s[..., None] * d1 - t[..., None] * d2, axis=-1)


def hulls_overlap(A, B):
    """Whether conv(A) and conv(B) share a point: a feasibility LP over the
    convex weights of both (rows are points)."""
    na, nb = len(A), len(B)
    eq = np.zeros((A.shape[1] + 2, na + nb))
    eq[:-2, :na], eq[:-2, na:] = A.T, -B.T
    eq[-2, :na] = eq[-1, na:] = 1
    rhs = np.r_[np.zeros(A.shape[1]), 1, 1]
    return linprog(np.zeros(na + nb), A_eq=eq, b_eq=rhs, bounds=(0, None), method="highs").status == 0


def hull_features(P):
    """Vertices, edges (pairs of points) and triangles (triples) of vertices of
    conv(P) that cover its surface: the hull's facets when P spans 3-D, else
    every pair and triple of its points (all of them lie in the hull)."""
    try:
        hull = ConvexHull(P)
        tri = hull.simplices
        seg = np.unique(np.sort(np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]]), axis=1), axis=0)
        return P[hull.vertices], seg, tri
    except QhullError:  # flat or fewer than 4 points
        idx = range(len(P))
        seg = np.array(list(itertools.combinations(idx, 2)), dtype=int).reshape(-1, 2)
        tri = np.array(list(itertools.combinations(idx, 3)), dtype=int).reshape(-1, 3)
        return P, seg, tri


def hull_distance(A, B):
    """Distance between conv(A) and conv(B) (rows are points). Apart, their
    closest points lie on a vertex of one and a surface triangle of the
    other, or on two edges, so the least of those distances is the hulls'."""
    if hulls_overlap(A, B):
        return 0.0
    (va, sa, ta), (vb, sb, tb) = hull_features(A), hull_features(B)
    best = np.linalg.norm(va[:, None, :] - vb[None, :, :], axis=-1).min()
    for V, (P, seg, tri) in ((va, (B, sb, tb)), (vb, (A, sa, ta))):
        if len(seg):
            best = min(best, point_segment_distances(V[:, None, :], P[seg[:, 0]], P[seg[:, 1]]).min())
        X, Y, Z = P[tri[:, 0]], P[tri[:, 1]], P[tri[:, 2]]
        proper = np.linalg.norm(np.cross(Y - X, Z - X), axis=1) > 1e-12  # degenerate ones are segments
        if proper.any():
            best = min(best, point_triangle_distances(V, X[proper], Y[proper], Z[proper]).min())
    if len(sa) and len(sb):
        best = min(best, segment_segment_distances(A[sa[:, 0]], A[sa[:, 1]], B[sb[:, 0]], B[sb[:, 1]]).min())
    return float(best)
