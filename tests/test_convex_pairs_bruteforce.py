"""collides and withinDistance of convex pairs (boxes by their separating-axis
test, boxes and hulls by GJK without a penetration search) against the exact
distance between the convex hulls of their vertices, on random poses that
straddle contact and the tolerance; the penetration of intersecting boxes
against that of their Minkowski difference; and the distance of pairs asked
again as they move against the exact one and that of shapes never asked."""
import concurrent.futures
import itertools

import numpy as np
import pytest
from scipy.spatial import ConvexHull as Hull

from klampt import ConvexHull, GeometricPrimitive, Geometry3D
from klampt.math import so3
from geometry_oracles import hull_distance

TOL = 0.05
CORNERS = np.array(list(itertools.product([0.0, 1.0], repeat=3)))


def random_box(rng, aabb):
    """A Box (or AABB) primitive of random size and orientation, with its
    eight vertices in world coordinates."""
    dims = rng.uniform(0.05, 0.6, size=3)
    lo = rng.uniform(-0.3, 0.3, size=3)
    g = GeometricPrimitive()
    if aabb:
        g.setAABB(list(lo), list(lo + dims))
        return Geometry3D(g), lo + CORNERS * dims
    R = so3.from_moment(list(rng.normal(size=3)))
    g.setBox(list(lo), R, list(dims))
    return Geometry3D(g), lo + (CORNERS * dims) @ np.array(so3.matrix(R)).T


def random_hull(rng):
    """A convex hull of 4 to 40 random points, with those points."""
    pts = rng.normal(size=(rng.randint(4, 41), 3)) * rng.uniform(0.05, 0.3, size=3)
    h = ConvexHull()
    h.setPoints(pts)
    return Geometry3D(h), pts


def place(g, pts, rng, reach):
    """Gives g a random pose within reach of the origin: the world points."""
    R = so3.from_moment(list(rng.normal(size=3)))
    t = rng.uniform(-reach, reach, size=3)
    g.setCurrentTransform(R, list(t))
    return pts @ np.array(so3.matrix(R)).T + t


@pytest.mark.parametrize("kinds", [("box", "box"), ("aabb", "box"), ("aabb", "aabb"), ("box", "hull"),
                                   ("hull", "hull")])
def test_convex_pairs_agree_with_the_hull_distance(kinds):
    rng = np.random.RandomState(sum(map(ord, "".join(kinds))))
    makers = {"box": lambda: random_box(rng, False), "aabb": lambda: random_box(rng, True),
              "hull": lambda: random_hull(rng)}
    counts = {"overlap": 0, "within": 0, "apart": 0}
    for _ in range(300):
        (a, pa), (b, pb) = makers[kinds[0]](), makers[kinds[1]]()
        if kinds[0] != "aabb":
            pa = place(a, pa, rng, 0.1)
        pb = place(b, pb, rng, 0.4) if kinds[1] != "aabb" else pb + 0.0
        truth = hull_distance(pa, pb)
        if 0 < truth < 1e-6 or abs(truth - TOL) < 1e-6:
            continue  # too near a threshold to call either way
        counts["overlap" if truth == 0 else "within" if truth <= TOL else "apart"] += 1
        assert a.collides(b) == (truth == 0) and b.collides(a) == (truth == 0), truth
        assert a.withinDistance(b, TOL) == (truth <= TOL) and b.withinDistance(a, TOL) == (truth <= TOL), truth
        if truth > 0:
            r = a.distance(b)
            assert r.d == pytest.approx(truth, abs=1e-6)
            # the closest points lie on their shapes, d apart
            cp1, cp2 = np.array(r.cp1), np.array(r.cp2)
            assert np.linalg.norm(cp1 - cp2) == pytest.approx(truth, abs=1e-6)
            assert hull_distance(pa, cp1[None, :]) < 1e-6 and hull_distance(pb, cp2[None, :]) < 1e-6
    # the poses test every answer, not one
    assert min(counts.values()) >= 10, counts


def test_pairs_queried_again_as_they_move_agree_with_the_hull_distance():
    # An overlap GJK finds is kept (per thread) and answers the same two shapes
    # again while its points still show them overlapping: moving through
    # contact and apart, alternating between pairs, and with a shape rebuilt
    # in between, every answer must still be the exact one, and the distance
    # the one a copy of the shapes (never asked before) gets: no answer
    # depends on the queries before it.
    rng = np.random.RandomState(21)
    checked = overlapping = 0
    for trial in range(40):
        shapes = [random_hull(rng), random_hull(rng) if trial % 2 else random_box(rng, False), random_hull(rng)]
        local = [pts for _, pts in shapes]
        for (g, pts), reach in zip(shapes, (0.05, 0.1, 0.1)):
            place(g, pts, rng, reach)
        step = rng.normal(size=3)
        step *= 0.015 / np.linalg.norm(step)
        for s in range(20):
            moving = shapes[1][0]
            R, t = moving.getCurrentTransform()
            moving.setCurrentTransform(R, list(np.add(t, step)))
            if s == 10:  # the same points in a new shape: a new owner of the kept overlap
                h = ConvexHull()
                h.setPoints(local[2])
                R2, t2 = shapes[2][0].getCurrentTransform()
                shapes[2] = (Geometry3D(h), local[2])
                shapes[2][0].setCurrentTransform(R2, t2)
            world = [pts @ np.array(so3.matrix(g.getCurrentTransform()[0])).T + g.getCurrentTransform()[1]
                     for (g, _), pts in zip(shapes, local)]
            for i, j in ((0, 1), (0, 2), (2, 1)):
                truth = hull_distance(world[i], world[j])
                # overlapping: the depth of the origin in the Minkowski difference, below 0
                if truth == 0:
                    truth = -penetration_depth(world[i], world[j])
                a, b = shapes[i][0], shapes[j][0]
                if abs(truth) > 1e-9:
                    assert a.collides(b) == (truth < 0), (trial, s, i, j, truth)
                    assert a.collides(b) == (truth < 0), (trial, s, i, j, truth)  # now from what was kept
                    overlapping += truth < 0
                if abs(truth - TOL) > 1e-9:
                    assert a.withinDistance(b, TOL) == (truth <= TOL), (trial, s, i, j, truth)
                signed = truth if shapes[j][0].type() == "ConvexHull" else max(truth, 0.0)
                r, fresh = a.distance(b), a.copy().distance(b.copy())
                assert r.d == pytest.approx(signed, abs=1e-8), (trial, s, i, j, truth)
                assert (r.d, r.cp1, r.cp2) == (fresh.d, fresh.cp1, fresh.cp2), (trial, s, i, j, truth)
                checked += 1
    assert checked == 40 * 20 * 3 and 300 < overlapping < 2000, overlapping


def large_hull(rng):
    """A hull of 40 to 150 vertices (its support points are found by climbing
    from vertex to vertex, not by trying each): points on an ellipsoid, or a
    prism of 20 to 60 sides, whose parallel edges and faces make many
    vertices equally far along the directions GJK and EPA try."""
    if rng.rand() < 0.5:
        u = rng.normal(size=(rng.randint(40, 151), 3))
        pts = u / np.linalg.norm(u, axis=1)[:, None] * rng.uniform(0.05, 0.3, size=3)
    else:
        n = rng.randint(20, 61)
        a = np.linspace(0, 2 * np.pi, n, endpoint=False)
        r, h = rng.uniform(0.05, 0.2), rng.uniform(0.05, 0.3)
        pts = np.concatenate([np.stack([r * np.cos(a), r * np.sin(a), np.full(n, z)], 1) for z in (-h, h)])
    hull = ConvexHull()
    hull.setPoints(pts)
    return Geometry3D(hull), pts


def test_large_hulls_agree_with_the_hull_distance_and_depth():
    # Apart, overlapping and within the tolerance, prisms often upright
    # (their edges parallel, many vertices tied along the axes): the signed
    # distance is the exact distance or the least penetration, the points lie
    # on the hulls that far apart, and collides and withinDistance agree.
    rng = np.random.RandomState(37)
    counts = {"overlap": 0, "within": 0, "apart": 0}
    for trial in range(150):
        (a, pa), (b, pb) = large_hull(rng), large_hull(rng)
        upright = trial % 3 == 0
        for g, reach in ((a, 0.05), (b, 0.35)):
            R = so3.identity() if upright else so3.from_moment(list(rng.normal(size=3)))
            g.setCurrentTransform(R, list(rng.uniform(-reach, reach, size=3)))
        pa, pb = (pts @ np.array(so3.matrix(g.getCurrentTransform()[0])).T + g.getCurrentTransform()[1]
                  for g, pts in ((a, pa), (b, pb)))
        truth = hull_distance(pa, pb)
        if truth == 0:
            truth = -penetration_depth(pa, pb)
        if abs(truth) < 1e-6 or abs(truth - TOL) < 1e-6:
            continue  # too near a threshold to call either way
        counts["overlap" if truth < 0 else "within" if truth <= TOL else "apart"] += 1
        assert a.collides(b) == (truth < 0) and a.withinDistance(b, TOL) == (truth <= TOL), (trial, truth)
        for r, (p, q) in ((a.distance(b), (pa, pb)), (b.distance(a), (pb, pa))):
            assert r.d == pytest.approx(truth, abs=1e-8), (trial, truth)
            cp1, cp2 = np.array(r.cp1), np.array(r.cp2)
            assert np.linalg.norm(cp1 - cp2) == pytest.approx(abs(truth), abs=1e-8), (trial, truth)
            for point, pts in ((cp1, p), (cp2, q)):  # on the hull: inside every facet plane, on one
                signed = Hull(pts).equations @ np.r_[point, 1]
                assert signed.max() < 1e-8 and np.abs(signed).min() < 1e-8, (trial, truth)
    assert min(counts.values()) >= 20, counts


def test_large_hulls_asked_from_many_threads_answer_as_from_one():
    # Each thread climbs with its own marks and grows its own polytope: the
    # depths and distances asked from four threads at once, in different
    # orders, are those asked from one.
    rng = np.random.RandomState(41)
    pairs = []
    for _ in range(40):
        (a, _), (b, _) = large_hull(rng), large_hull(rng)
        a.setCurrentTransform(so3.from_moment(list(rng.normal(size=3))), [0.0, 0.0, 0.0])
        b.setCurrentTransform(so3.from_moment(list(rng.normal(size=3))), list(rng.uniform(-0.3, 0.3, size=3)))
        pairs.append((a, b))
    serial = [a.distance(b).d for a, b in pairs]
    assert 5 < sum(d < 0 for d in serial) < 35  # both overlapping and apart pairs

    def ask(seed):
        order = np.random.RandomState(seed).permutation(len(pairs))
        return {int(i): pairs[i][0].distance(pairs[i][1]).d for _ in range(5) for i in order}

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for answers in pool.map(ask, range(8)):
            for i, d in answers.items():
                assert d == pytest.approx(serial[i], abs=1e-12), i


def test_box_inside_another_touching_a_face_collides_both_ways():
    outer, inner = GeometricPrimitive(), GeometricPrimitive()
    outer.setAABB([0, 0, 0], [1, 1, 1])
    inner.setBox([0.2, 0.2, 0.0], so3.identity(), [0.3, 0.3, 0.3])  # its bottom face on the outer's
    a, b = Geometry3D(outer), Geometry3D(inner)
    assert a.collides(b) and b.collides(a)
    assert a.withinDistance(b, 0.0) and b.withinDistance(a, 1e-3)


def penetration_depth(A, B):
    """Least translation separating conv(A) and conv(B) when they intersect:
    the depth of the origin inside their Minkowski difference, the least
    distance from it to one of the difference's facets."""
    eq = Hull((A[:, None, :] - B[None, :, :]).reshape(-1, 3)).equations  # normal . x + offset <= 0 inside
    return float(-eq[:, 3].max())


def test_intersecting_boxes_report_their_least_penetration():
    rng = np.random.RandomState(11)
    tested = 0
    while tested < 60:
        (a, pa), (b, pb) = random_box(rng, rng.rand() < 0.3), random_box(rng, False)
        pa = place(a, pa, rng, 0.05)
        pb = place(b, pb, rng, 0.2)
        if hull_distance(pa, pb) > 0:
            continue
        tested += 1
        r = a.distance(b)
        assert r.d == 0 and r.hasClosestPoints  # boxes have no signed distance: 0 when they meet
        cp1, cp2 = np.array(r.cp1), np.array(r.cp2)
        depth = penetration_depth(pa, pb)
        assert np.linalg.norm(cp1 - cp2) == pytest.approx(depth, abs=1e-6)
        # cp1 on a's surface, cp2 on b's: inside every facet plane of its box, on one
        for p, pts in ((cp1, pa), (cp2, pb)):
            signed = Hull(pts).equations @ np.r_[p, 1]
            assert signed.max() < 1e-6 and np.abs(signed).min() < 1e-6


def test_point_to_box_distance_is_the_distance_in_its_frame():
    rng = np.random.RandomState(13)
    for _ in range(40):
        g, corners = random_box(rng, rng.rand() < 0.3)
        corners = place(g, corners, rng, 0.3)
        origin, axes = corners[0], np.stack([corners[1] - corners[0], corners[2] - corners[0], corners[4] - corners[0]])
        dims = np.linalg.norm(axes, axis=1)
        R = (axes / dims[:, None]).T  # the box's axes as columns
        for p in corners.mean(0) + rng.uniform(-0.6, 0.6, size=(10, 3)):
            q = R.T @ (p - origin) - dims / 2  # in the box frame, from its centre
            over = np.abs(q) - dims / 2
            truth = np.linalg.norm(np.maximum(over, 0))  # a box has no signed distance: 0 inside
            r = g.distance_point(list(p))
            assert r.d == pytest.approx(truth, abs=1e-9)
            assert np.linalg.norm(np.subtract(r.cp1, p)) == pytest.approx(truth, abs=1e-9)


def random_ball(rng, point=False):
    """A Sphere (or Point) primitive at a random place: the primitive, its centre and radius."""
    c = rng.uniform(-0.3, 0.3, size=3)
    g = GeometricPrimitive()
    if point:
        g.setPoint(list(c))
        return Geometry3D(g), c, 0.0
    r = rng.uniform(0.02, 0.4)
    g.setSphere(list(c), r)
    return Geometry3D(g), c, r


def test_spheres_and_points_are_measured_from_their_centres():
    # The signed distance of a ball is its centre's distance less its radius,
    # with the closest point on its surface; against a box, the box's signed
    # distance to the centre (negative inside) less the radius.
    rng = np.random.RandomState(17)
    for _ in range(300):
        a, ca, ra = random_ball(rng, rng.rand() < 0.2)
        wa = place(a, ca[None, :], rng, 0.2)[0]
        p = wa + rng.uniform(-0.6, 0.6, size=3)
        r = a.distance_point(list(p))
        assert r.d == pytest.approx(np.linalg.norm(p - wa) - ra, abs=1e-12)
        assert np.linalg.norm(np.subtract(r.cp1, wa)) == pytest.approx(ra, abs=1e-12)
        assert np.linalg.norm(np.subtract(r.cp1, p)) == pytest.approx(abs(r.d), abs=1e-12)
        b, cb, rb = random_ball(rng, rng.rand() < 0.2)
        wb = place(b, cb[None, :], rng, 0.2)[0]
        truth = np.linalg.norm(wa - wb) - ra - rb
        assert a.distance(b).d == pytest.approx(truth, abs=1e-12)
        assert a.collides(b) == (truth <= 0)
        assert a.withinDistance(b, TOL) == (truth <= TOL)
        box, corners = random_box(rng, rng.rand() < 0.3)
        corners = place(box, corners, rng, 0.3)
        gap = hull_distance(corners, wa[None, :])
        # a centre inside the box: its depth there (the least distance to a face plane) counts too
        depth = 0.0 if gap > 0 else float(-(Hull(corners).equations @ np.r_[wa, 1]).max())
        signed = gap - depth - ra
        # a Point has no inside, and a box no signed distance: a point in a box is at 0
        assert a.distance(box).d == pytest.approx(signed if ra > 0 else max(signed, 0.0), abs=1e-9)
        assert a.collides(box) == (gap <= ra)
        assert a.withinDistance(box, TOL) == (gap <= ra + TOL)


def test_answers_from_built_bounds_count_margins_and_tolerance():
    # Once both shapes have their collision structures, a pair whose boxes are
    # farther apart than tol plus the margins is answered from the boxes alone:
    # the margins and tol must move that answer exactly as the full query's.
    a, b = GeometricPrimitive(), GeometricPrimitive()
    a.setAABB([0, 0, 0], [1, 1, 1])
    b.setAABB([1.2, 0, 0], [2, 1, 1])  # 0.2 apart along x
    ga, gb = Geometry3D(a), Geometry3D(b)
    for _ in range(2):  # the first call builds the structures, the second may use them
        assert not ga.collides(gb) and ga.withinDistance(gb, 0.21) and not ga.withinDistance(gb, 0.19)
    ga.setCollisionMargin(0.15)
    gb.setCollisionMargin(0.06)
    for _ in range(2):
        assert ga.collides(gb) and gb.collides(ga)
    gb.setCollisionMargin(0.04)
    for _ in range(2):
        assert not ga.collides(gb) and ga.withinDistance(gb, 0.011) and not ga.withinDistance(gb, 0.009)
