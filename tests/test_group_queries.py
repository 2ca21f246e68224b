"""A group answers as its members do: it collides or is within a distance
of another shape when one of its members is, and its distance is the least
member distance, whatever the members' order (the queries test cheap
members first), on random poses."""
import random
import zlib

import pytest

from klampt import Geometry3D, GeometricPrimitive, PointCloud
from klampt.math import se3, so3
from conftest import aabb_geometry, sphere_geometry


def _members():
    """A mesh, a box, a point cloud, a convex hull and a sphere, each placed
    differently inside the group."""
    mesh = aabb_geometry([-0.2, -0.1, -0.05], [0.2, 0.1, 0.05], mesh=True)
    box = GeometricPrimitive()
    box.setAABB([-0.05, -0.05, -0.3], [0.05, 0.05, 0.3])
    pc = PointCloud()
    rng = random.Random(4)
    pc.setPoints([[rng.uniform(-0.1, 0.1) for _ in range(3)] for _ in range(300)])
    hull = aabb_geometry([-0.1, -0.1, -0.1], [0.1, 0.1, 0.1]).convert("ConvexHull")
    members = [mesh, Geometry3D(box), Geometry3D(pc), hull, sphere_geometry((0, 0, 0), 0.08)]
    offsets = [([0, 0, 0]), ([0.3, 0, 0]), ([0, 0.3, 0]), ([-0.3, 0, 0.1]), ([0, -0.3, -0.1])]
    for g, t in zip(members, offsets):
        g.setCurrentTransform(so3.rotation([1, 2, 3], 0.4), t)
    return members


def _group(members):
    g = Geometry3D()
    g.setGroup()
    for i, m in enumerate(members):
        g.setElement(i, m)
    return g


def _others():
    cloud = PointCloud()
    rng = random.Random(9)
    cloud.setPoints([[rng.uniform(-0.15, 0.15) for _ in range(3)] for _ in range(200)])
    return {
        "mesh": aabb_geometry([-0.15, -0.15, -0.02], [0.15, 0.15, 0.02], mesh=True),
        "box": aabb_geometry([-0.1, -0.2, -0.1], [0.1, 0.2, 0.1]),
        "cloud": Geometry3D(cloud),
        "grid": sphere_geometry((0, 0, 0), 0.15).convert("VolumeGrid", 0.02),
    }


def _placed_members(members, T):
    """Each member as a stand-alone geometry where the group at T puts it."""
    out = []
    for m in members:
        c = m.clone()
        c.setCurrentTransform(*se3.mul(T, m.getCurrentTransform()))
        out.append(c)
    return out


@pytest.mark.parametrize("other_kind", ["mesh", "box", "cloud", "grid"])
@pytest.mark.parametrize("order", [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [2, 0, 4, 1, 3]])
def test_group_queries_equal_the_members(other_kind, order):
    members = [_members()[i] for i in order]
    group = _group(members)
    other = _others()[other_kind]
    rng = random.Random(zlib.crc32(repr((other_kind, order)).encode()))
    hits = misses = 0
    for _ in range(15):
        T = (so3.rotation([rng.gauss(0, 1) for _ in range(3)], rng.uniform(0, 3)),
             [rng.uniform(-0.4, 0.4) for _ in range(3)])
        group.setCurrentTransform(*T)
        other.setCurrentTransform(so3.identity(), [0, 0, 0])
        placed = _placed_members(members, T)
        least = min(m.distance(other).d for m in placed)
        for tol in (0.0, 0.03):
            if abs(least - tol) < 1e-9:
                continue  # touching at the tolerance: either answer is within rounding
            expected = any(m.withinDistance(other, tol) for m in placed)
            assert group.withinDistance(other, tol) == expected
            assert other.withinDistance(group, tol) == expected
            if tol == 0:
                assert group.collides(other) == expected and other.collides(group) == expected
            hits, misses = hits + expected, misses + (not expected)
        res = group.distance(other)
        assert res.d == pytest.approx(least, abs=1e-6)
        ranked = sorted((m.distance(other).d, i) for i, m in enumerate(placed))
        if ranked[1][0] - ranked[0][0] > 1e-6:
            assert res.elem1 == ranked[0][1]  # the member nearest, wherever the search took it
    assert hits and misses  # the poses try both answers


@pytest.mark.parametrize("cloud_first", [True, False])
def test_a_distance_tie_goes_to_the_member_first_in_order(cloud_first):
    # A one-point cloud and a Point primitive at the same place are exactly
    # as far from a sphere; the primitive's pair is searched first, but the
    # group reports the member it lists first, as members searched in order do.
    pc = PointCloud()
    pc.setPoints([[0.3, 0.1, 0.0]])
    point = GeometricPrimitive()
    point.setPoint([0.3, 0.1, 0.0])
    members = [Geometry3D(pc), Geometry3D(point)]
    group = _group(members if cloud_first else members[::-1])
    probe = sphere_geometry((0, 0, 0), 0.1)
    d_cloud, d_point = members[0].distance(probe).d, members[1].distance(probe).d
    assert d_cloud == d_point
    res = group.distance(probe)
    assert res.d == d_cloud and res.elem1 == 0


def test_a_member_goes_where_its_transform_puts_it():
    # Measured on Klamp't 0.9.2: a sphere at x = 1 set as a member gives the
    # group the box [0.9, 1.1] along x, and the group's queries see it there.
    sphere = sphere_geometry((0, 0, 0), 0.1)
    sphere.setCurrentTransform(so3.identity(), [1, 0, 0])
    group = _group([sphere])
    lo, hi = group.getBB()
    assert lo == pytest.approx([0.9, -0.1, -0.1]) and hi == pytest.approx([1.1, 0.1, 0.1])
    probe = sphere_geometry((1.3, 0, 0), 0.1)
    assert group.distance(probe).d == pytest.approx(0.1)
    # The member reads back in the group's frame, at the same place.
    member = group.getElement(0)
    assert member.getBB()[0] == pytest.approx([0.9, -0.1, -0.1])
    grid = sphere_geometry((0, 0, 0), 0.1).convert("VolumeGrid", 0.02)
    grid.setCurrentTransform(so3.rotation([0, 0, 1], 0.5), [0, 0, 0])
    with pytest.raises(ValueError, match="VolumeGrid can only be translated"):
        group.setElement(1, grid)
