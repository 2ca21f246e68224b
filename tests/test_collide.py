"""klampt.model.collide: bounding boxes, broad-phase iterators checked against
brute-force Geometry3D tests, ray casts against closed forms, and
WorldCollider against the reference on the shared worlds.

tests/data/collide_reference.json was produced by Klamp't 0.9.2
(tests/data/make_collide_reference.py). The reference enables every rigid
object against itself (it slices the object list with a geomList index), so
its pairs of a body with itself are dropped before comparing.
"""
import json
import math
import os
import random

import pytest

import klampt
from klampt.math import vectorops
from klampt.model import collide

from conftest import aabb_geometry, load_shared_world, sphere_geometry as sphere

HERE = os.path.dirname(os.path.abspath(__file__))


def random_spheres(n, seed):
    rng = random.Random(seed)
    centers = [[rng.uniform(0, 3) for _ in range(3)] for _ in range(n)]
    radii = [rng.uniform(0.1, 0.6) for _ in range(n)]
    return centers, radii, [sphere(c, r) for c, r in zip(centers, radii)]


def spheres_touch(c1, r1, c2, r2):
    return vectorops.distance(c1, c2) <= r1 + r2


def test_bb_helpers():
    empty = collide.bb_create()
    assert collide.bb_empty(empty)
    bb = collide.bb_create([0, 1, 2], [3, -1, 5], [1, 1, 1])
    assert bb == ([0, -1, 1], [3, 1, 5])
    assert not collide.bb_empty(bb)
    assert collide.bb_contains(bb, [3, 1, 5]) and collide.bb_contains(bb, [1, 0, 2])
    assert not collide.bb_contains(bb, [3.1, 0, 2])
    other = ([2, 0, 4], [4, 4, 9])
    assert collide.bb_intersect(bb, other) and collide.bb_intersect(other, bb)
    assert collide.bb_intersection(bb, other) == ([2, 0, 4], [3, 1, 5])
    assert collide.bb_union(bb, other) == ([0, -1, 1], [4, 4, 9])
    far = ([5, 5, 5], [6, 6, 6])
    assert not collide.bb_intersect(bb, far)
    assert collide.bb_empty(collide.bb_intersection(bb, far))
    # touching faces count as intersecting (closed boxes)
    assert collide.bb_intersect(([0, 0, 0], [1, 1, 1]), ([1, 0, 0], [2, 1, 1]))
    # union with the empty box changes nothing
    assert collide.bb_union(bb, empty) == bb


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_self_collision_iter_matches_brute_force(seed):
    centers, radii, geoms = random_spheres(14, seed)
    expected = [(i, j) for i in range(14) for j in range(i + 1, 14)
                if spheres_touch(centers[i], radii[i], centers[j], radii[j])]
    assert expected, "the random scene should have collisions"
    assert sorted(collide.self_collision_iter(geoms)) == expected
    odd = lambda i, j: (i + j) % 2 == 1
    assert sorted(collide.self_collision_iter(geoms, odd)) == [p for p in expected if odd(*p)]
    listed = expected[:2] + [(0, 1), (2, 3)]
    got = list(collide.self_collision_iter(geoms, listed))
    assert got == [p for p in listed if p in expected]


@pytest.mark.parametrize("seed", [4, 5])
def test_group_collision_iters_match_brute_force(seed):
    centers, radii, geoms = random_spheres(16, seed)
    a, b = list(range(0, 8)), list(range(8, 16))
    expected = [(i, j) for i in range(8) for j in range(8)
                if spheres_touch(centers[a[i]], radii[a[i]], centers[b[j]], radii[b[j]])]
    assert sorted(collide.group_collision_iter(geoms[:8], geoms[8:])) == expected
    keep = lambda i, j: i < j
    assert sorted(collide.group_collision_iter(geoms[:8], geoms[8:], keep)) == [p for p in expected if keep(*p)]
    assert list(collide.group_collision_iter([], geoms)) == []

    alist, blist = [0, 2, 4, 6, 8, 10], [1, 3, 4, 9, 11, 15]
    expected_subset = sorted((i, j) for i in alist for j in blist
                             if i != j and spheres_touch(centers[i], radii[i], centers[j], radii[j]))
    assert sorted(collide.group_subset_collision_iter(geoms, alist, blist)) == expected_subset
    pairs = [(0, 1), (2, 3), (4, 9), (10, 11)]
    expected_pairs = [p for p in pairs if spheres_touch(centers[p[0]], radii[p[0]], centers[p[1]], radii[p[1]])]
    assert list(collide.group_subset_collision_iter(geoms, None, None, pairs)) == expected_pairs


def test_iterators_use_narrow_phase_not_just_boxes():
    # two spheres whose bounding boxes overlap at a corner but which are apart
    a = sphere([0, 0, 0], 1.0)
    b = sphere([1.7, 1.7, 1.7], 1.0)
    assert collide.bb_intersect(a.getBB(), b.getBB())
    assert list(collide.self_collision_iter([a, b])) == []
    assert list(collide.group_collision_iter([a], [b])) == []


def test_ray_cast_first_hit():
    geoms = [sphere([0, 0, 5], 1.0), sphere([0, 0, 2], 0.5), aabb_geometry([-1, -1, -1], [1, 1, -0.5], mesh=True)]
    hit = collide.ray_cast(geoms, [0, 0, 10], [0, 0, -1])
    assert hit[0] == 0 and vectorops.distance(hit[1], [0, 0, 6]) < 1e-9
    hit = collide.ray_cast(geoms, [0, 0, 3.5], [0, 0, -1])
    assert hit[0] == 1 and vectorops.distance(hit[1], [0, 0, 2.5]) < 1e-9
    hit = collide.ray_cast(geoms, [0.8, 0.3, 0], [0, 0, -1])
    assert hit[0] == 2 and vectorops.distance(hit[1], [0.8, 0.3, -0.5]) < 1e-9
    assert collide.ray_cast(geoms, [3, 3, 3], [1, 0, 0]) is None
    d = vectorops.unit([1, 0, 1])
    hit = collide.ray_cast(geoms, [-2, 0, 0], d)
    # first root of |s + t d - c| = 0.5 for the sphere of radius 0.5 at c = (0, 0, 2)
    s = [-2, 0, 0]
    centre = [0, 0, 2]
    oc = vectorops.sub(s, centre)
    bq = vectorops.dot(oc, d)
    disc = bq * bq - (vectorops.dot(oc, oc) - 0.25)
    t = -bq - math.sqrt(disc)
    assert hit[0] == 1 and vectorops.distance(hit[1], vectorops.madd(s, d, t)) < 1e-9


def _load_reference():
    with open(os.path.join(HERE, 'data', 'collide_reference.json')) as f:
        return json.load(f)


def _names(pairs):
    return sorted([a.getName(), b.getName()] for a, b in pairs)


def _reference_pairs(pairs):
    return sorted([a, b] for a, b, same_body in pairs if not same_body)


@pytest.mark.parametrize("world_name", sorted(_load_reference()))
def test_world_collider_matches_reference(world_name):
    ref = _load_reference()[world_name]
    world = load_shared_world(world_name)
    wc = collide.WorldCollider(world)
    assert [body.getName() for body, _ in wc.geomList] == ref['geomList']
    robot = world.robot(0)
    for case in ref['cases']:
        robot.setConfig(case['q'])
        assert _names(wc.collisions()) == _reference_pairs(case['collisions'])
        assert _names(wc.robotSelfCollisions(0)) == _reference_pairs(case['self'])
        assert _names(wc.robotSelfCollisions(robot)) == _reference_pairs(case['self'])
        assert _names(wc.robotTerrainCollisions(0)) == _reference_pairs(case['terrain'])
        assert _names(wc.robotObjectCollisions(robot)) == _reference_pairs(case['object'])
        s, d, expected = case['ray']
        hit = wc.rayCast(s, d)
        if expected is None:
            assert hit is None
        else:
            assert hit[0].getName() == expected[0]
            assert vectorops.distance(hit[1], expected[1]) < 1e-6
        hit = wc.rayCastRobot(0, [2.0, 0.1, 0.6], [-1, 0, 0])
        expected = case['ray_robot']
        if expected is None:
            assert hit is None
        else:
            assert hit[0].getName() == expected[0]
            assert vectorops.distance(hit[1], expected[1]) < 1e-6


def test_world_collider_collisions_equal_brute_force_over_mask():
    world = load_shared_world('tx90cuptable.xml')
    wc = collide.WorldCollider(world)
    robot = world.robot(0)
    qmin, qmax = robot.getJointLimits()
    rng = random.Random(7)
    found_any = False
    for _ in range(6):
        robot.setConfig([rng.uniform(max(a, -3), min(b, 3)) for a, b in zip(qmin, qmax)])
        expected = sorted((i, j) for i in range(len(wc.geomList)) for j in wc.mask[i]
                          if i < j and wc.geomList[i][1].collides(wc.geomList[j][1]))
        found_any = found_any or bool(expected)
        index = {id(g): k for k, (_, g) in enumerate(wc.geomList)}
        got = sorted(tuple(sorted((index[id(a[1])], index[id(b[1])]))) for a, b in wc.collisionTests()
                     if a[1].collides(b[1]))
        assert got == expected
        assert len(list(wc.collisions())) == len(expected)
    assert found_any


def test_world_collider_mask_rules_and_ignore():
    world = load_shared_world('tx90blocks.xml')
    wc = collide.WorldCollider(world)
    robot = world.robot(0)
    terrain = world.terrain(0)
    obj0, obj1 = world.rigidObject(0), world.rigidObject(1)
    base = robot.link(0)
    assert base.getParent() < 0
    assert not wc.isCollisionEnabled((base, terrain)), "fixed base links are not tested against terrains"
    assert wc.isCollisionEnabled((robot.link(3), terrain))
    assert wc.isCollisionEnabled((obj0, obj1)) and wc.isCollisionEnabled((obj0, terrain))
    assert not wc.isCollisionEnabled((obj0, obj0))
    assert not wc.isCollisionEnabled((terrain, world.terrain(1)))
    for i in range(robot.numLinks()):
        for j in range(i):
            li, lj = robot.link(i), robot.link(j)
            if wc._getGeomIndex(li) is None or wc._getGeomIndex(lj) is None:
                continue
            assert wc.isCollisionEnabled((li, lj)) == robot.selfCollisionEnabled(i, j)

    wc.ignoreCollision((obj0, terrain))
    assert not wc.isCollisionEnabled((obj0, terrain)) and not wc.isCollisionEnabled((terrain, obj0))
    assert wc.isCollisionEnabled(obj0)
    wc.ignoreCollision(obj1)
    assert not wc.isCollisionEnabled(obj1)
    assert all(wc._getGeomIndex(obj1) not in m for m in wc.mask)
    assert all(obj1.getName() != b.getName() or b.getID() != obj1.getID()
               for pair in wc.collisions() for b in pair)

    wc2 = collide.WorldCollider(world, ignore=[obj0, (robot.link(3), terrain)])
    assert not wc2.isCollisionEnabled(obj0)
    assert not wc2.isCollisionEnabled((robot.link(3), terrain))

    other = klampt.WorldModel()
    stranger = other.makeRigidObject('stranger')
    with pytest.raises(ValueError):
        wc.ignoreCollision(stranger)


def test_object_queries_on_a_built_world():
    world = klampt.WorldModel()
    floor = world.makeTerrain('floor')
    floor.geometry().set(aabb_geometry([-2, -2, -0.1], [2, 2, 0], mesh=True))
    a = world.makeRigidObject('a')
    a.geometry().set(aabb_geometry([-0.1, -0.1, -0.1], [0.1, 0.1, 0.1], mesh=True))
    b = world.makeRigidObject('b')
    b.geometry().set(aabb_geometry([-0.1, -0.1, -0.1], [0.1, 0.1, 0.1], mesh=True))
    c = world.makeRigidObject('c')
    c.geometry().set(aabb_geometry([-0.1, -0.1, -0.1], [0.1, 0.1, 0.1], mesh=True))
    a.setTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0.05])
    b.setTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0.15, 0, 0.05])
    c.setTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1])
    wc = collide.WorldCollider(world)
    assert _names(wc.objectTerrainCollisions(a)) == [['a', 'floor']]
    assert _names(wc.objectTerrainCollisions(2)) == []
    assert _names(wc.objectObjectCollisions(0)) == [['a', 'b']]
    assert _names(wc.objectObjectCollisions(a, b)) == [['a', 'b']]
    assert _names(wc.objectObjectCollisions(c)) == []
    assert _names(wc.collisions()) == [['a', 'b'], ['floor', 'a'], ['floor', 'b']]
    only_objects = lambda body: isinstance(body, klampt.RigidObjectModel)
    assert _names(wc.collisions(only_objects)) == [['a', 'b']]
    is_floor = lambda body: isinstance(body, klampt.TerrainModel)
    assert _names(wc.collisions(is_floor, only_objects)) == [['floor', 'a'], ['floor', 'b']]
    hit = wc.rayCast([1, 1, 3], [0, 0, -1])
    assert hit[0].getName() == 'c' and vectorops.distance(hit[1], [1, 1, 1.1]) < 1e-9
