"""collides and withinDistance of convex pairs (boxes by their separating-axis
test, boxes and hulls by GJK without a penetration search) against the exact
distance between the convex hulls of their vertices, on random poses that
straddle contact and the tolerance."""
import itertools

import numpy as np
import pytest

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
            assert a.distance(b).d == pytest.approx(truth, abs=1e-6)
    # the poses test every answer, not one
    assert min(counts.values()) >= 10, counts


def test_box_inside_another_touching_a_face_collides_both_ways():
    outer, inner = GeometricPrimitive(), GeometricPrimitive()
    outer.setAABB([0, 0, 0], [1, 1, 1])
    inner.setBox([0.2, 0.2, 0.0], so3.identity(), [0.3, 0.3, 0.3])  # its bottom face on the outer's
    a, b = Geometry3D(outer), Geometry3D(inner)
    assert a.collides(b) and b.collides(a)
    assert a.withinDistance(b, 0.0) and b.withinDistance(a, 1e-3)
