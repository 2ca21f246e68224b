"""Placing objects in a container: random collision-free arrangements on the
container's floor (:func:`make_object_arrangement`) and piles settled by
simulation (:func:`make_object_pile`, with :func:`klampt.sim.settle.settle`
reached through :func:`klampt._providers.provider`: model imports nothing
from sim)."""
from ...robotsim import *  # noqa: F401,F403  (Klamp't's module star-imports klampt)
import math
import random

from klampt import _providers
from klampt.math import so3, vectorops
from klampt.model import collide


def _get_bound(objects):
    """Tight world bounding box of a body or of a list of bodies."""
    if isinstance(objects, (list, tuple)):
        return collide.bb_union(*[_get_bound(o) for o in objects])
    return objects.geometry().getBBTight()


def xy_randomize(obj, bmin, bmax):
    """Rotates ``obj`` by a random angle about z and moves it to a random x-y
    position where its bounding box lies within [bmin, bmax] in x and y (the
    box must be large enough to hold it)."""
    R, t = obj.getTransform()
    R = so3.mul(so3.rotation([0, 0, 1], random.uniform(0, 2 * math.pi)), R)
    t = list(t)
    t[0] = t[1] = 0.0
    obj.setTransform(R, t)
    omin, omax = obj.geometry().getBB()
    t[0] = random.uniform(bmin[0] - omin[0], bmax[0] - omax[0])
    t[1] = random.uniform(bmin[1] - omin[1], bmax[1] - omax[1])
    obj.setTransform(R, t)


def _conflicts(geoms, fixed_geoms, removed=()):
    counts = [0] * len(geoms)
    for i, j in collide.self_collision_iter(geoms):
        if i not in removed and j not in removed:
            counts[i] += 1
            counts[j] += 1
    for i, _ in collide.group_collision_iter(geoms, fixed_geoms):
        if i not in removed:
            counts[i] += 1
    return counts


def xy_jiggle(world, objects, fixed_objects, bmin, bmax, iters, randomize=True, verbose=0):
    """Moves objects in x-y (and rotates them about z) within [bmin, bmax]
    until none collides with another or with ``fixed_objects``, re-sampling
    the most conflicting object first, for at most ``iters`` samples.

    Returns:
        list of int: indices of the objects that could not be placed
        (empty on success).
    """
    if randomize:
        for obj in objects:
            xy_randomize(obj, bmin, bmax)
    geoms = [o.geometry() for o in objects]
    fixed_geoms = [o.geometry() for o in fixed_objects]
    while iters > 0:
        counts = _conflicts(geoms, fixed_geoms)
        worst = max(range(len(objects)), key=lambda i: counts[i]) if objects else 0
        if not objects or counts[worst] == 0:
            return []
        if verbose:
            print(counts[worst], "conflicts with object", objects[worst].getName())
        others = [g for k, g in enumerate(geoms) if k != worst] + fixed_geoms
        for _ in range(10):
            xy_randomize(objects[worst], bmin, bmax)
            iters -= 1
            if sum(1 for _ in collide.group_collision_iter([geoms[worst]], others)) < counts[worst] or iters <= 0:
                break
    removed = []
    counts = _conflicts(geoms, fixed_geoms)
    while objects and max(counts) > 0:
        worst = max(range(len(objects)), key=lambda i: counts[i])
        if verbose:
            print("Unable to find a conflict-free placement for object", objects[worst].getName())
        removed.append(worst)
        counts = _conflicts(geoms, fixed_geoms, removed)
    return removed


def _inner_box(container, wall):
    bmin, bmax = _get_bound(container)
    return vectorops.add(bmin, [wall] * 3), vectorops.sub(bmax, [wall] * 3)


def make_object_arrangement(world, container, objects, container_wall_thickness=0.01, max_iterations=100,
                            remove_failures=False):
    """Places ``objects`` on the floor of an axis-aligned ``container`` (a rigid
    object or terrain of ``world``) at random collision-free x-y positions and
    z rotations.

    Returns:
        WorldModel: ``world`` (modified in place), or None if some objects
        could not be placed and ``remove_failures`` is False; with
        ``remove_failures`` those objects are removed from the world.
    """
    inner_min, inner_max = _inner_box(container, container_wall_thickness)
    margin = 0.0025
    for obj in objects:
        zmin = _get_bound(obj)[0][2]
        R, t = obj.getTransform()
        obj.setTransform(R, [t[0], t[1], t[2] + inner_min[2] - zmin + margin])
    failures = xy_jiggle(world, objects, [container], inner_min, inner_max, max_iterations)
    if failures:
        if not remove_failures:
            return None
        for index in sorted((objects[i].index for i in failures), reverse=True):
            world.remove(world.rigidObject(index))
    return world


def make_object_pile(world, container, objects, container_wall_thickness=0.01, randomize_orientation=True,
                     visualize=False, verbose=0):
    """Drops ``objects`` one after the other into ``container`` at random x-y
    positions (random orientations if ``randomize_orientation`` is True, z
    rotations only if it is 'z') and lets each settle with
    :func:`klampt.sim.settle.settle`.

    Returns:
        tuple: ``(world, None)``, the world with the objects moved to their
        settled placements (the reference returns no simulator either).
    """
    inner_min, inner_max = _inner_box(container, container_wall_thickness)
    margin = 0.0025
    for i, obj in enumerate(objects):
        R, t = obj.getTransform()
        if randomize_orientation is True:
            R = so3.sample()
        obj.setTransform(R, [0, 0, 0])
        zmin = _get_bound(obj)[0][2]
        floor = _get_bound(objects[:i])[1][2] if i > 0 else inner_min[2]
        obj.setTransform(R, [t[0], t[1], floor - zmin + margin])
        xy_randomize(obj, inner_min, inner_max)
        if verbose:
            print("Settling object", obj.getName())
        xform, _ = _providers.provider('pile.settle')(world, obj, debug=visualize)
        obj.setTransform(*xform)
    return (world, None)
