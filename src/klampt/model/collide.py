"""Collision checking between many bodies: axis-aligned bounding box helpers,
broad-phase iterators over lists of geometries, ray casts, and
:class:`WorldCollider`, which tests the bodies of a world while ignoring chosen
bodies or pairs.
"""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
from typing import Callable, Iterator, List, Optional, Sequence, Tuple, Union

from klampt.robotsim import (Geometry3D, RigidObjectModel, RobotModel, RobotModelLink, TerrainModel,
                             WorldModel)
from klampt.math import vectorops

Vector3 = Sequence[float]
BBType = Tuple[List[float], List[float]]
CollidableType = Union[RobotModel, RobotModelLink, RigidObjectModel, TerrainModel]
WorldBodyType = Union[RobotModelLink, RigidObjectModel, TerrainModel]
PairsType = Union[str, Callable[[int, int], bool], Sequence[Tuple[int, int]]]


def bb_create(*ptlist: Vector3) -> BBType:
    """Returns the smallest box ``(bmin, bmax)`` containing the given points,
    or an empty box (+inf lower corner, -inf upper corner) when none are given."""
    if not ptlist:
        return [float('inf')] * 3, [float('-inf')] * 3
    bmin = [float(v) for v in ptlist[0]]
    bmax = list(bmin)
    for p in ptlist[1:]:
        bmin = [min(a, float(v)) for a, v in zip(bmin, p)]
        bmax = [max(a, float(v)) for a, v in zip(bmax, p)]
    return bmin, bmax


def bb_empty(bb: BBType) -> bool:
    """Returns True if the bounding box contains no point."""
    return any(lo > hi for lo, hi in zip(bb[0], bb[1]))


def bb_intersect(a: BBType, b: BBType) -> bool:
    """Returns True if the closed boxes ``a`` and ``b`` share a point."""
    return all(amin <= bmax and bmin <= amax for amin, amax, bmin, bmax in zip(a[0], a[1], b[0], b[1]))


def bb_contains(bb: BBType, x: Vector3) -> bool:
    """Returns True if the point ``x`` is inside the closed box ``bb``."""
    return all(lo <= v <= hi for lo, hi, v in zip(bb[0], bb[1], x))


def bb_intersection(*bbs: BBType) -> BBType:
    """Returns the intersection of the given boxes (possibly empty)."""
    return ([max(v) for v in zip(*[b[0] for b in bbs])],
            [min(v) for v in zip(*[b[1] for b in bbs])])


def bb_union(*bbs: BBType) -> BBType:
    """Returns the smallest box containing all the given boxes."""
    return ([min(v) for v in zip(*[b[0] for b in bbs])],
            [max(v) for v in zip(*[b[1] for b in bbs])])


def _candidate_pairs(indices1, indices2, pairs: PairsType, same_set: bool):
    """Index pairs to test: every pair of the two index lists (each unordered
    pair once when both lists index the same set), those accepted by a
    predicate, or an explicit list."""
    if isinstance(pairs, str):
        if pairs != 'all':
            raise ValueError("pairs must be 'all', a predicate or a list of index pairs")
        accept = None
    elif callable(pairs):
        accept = pairs
    else:
        for pair in pairs:
            yield tuple(pair)
        return
    for i in indices1:
        for j in indices2:
            if same_set and j <= i:
                continue
            if accept is None or accept(i, j):
                yield (i, j)


def self_collision_iter(geomlist: Sequence[Geometry3D], pairs: PairsType = 'all') -> Iterator[Tuple[int, int]]:
    """Yields the colliding pairs ``(i, j)``, ``i < j``, of a list of geometries.

    Args:
        geomlist (list of Geometry3D): the geometries.
        pairs: ``'all'`` to test every pair, a predicate ``f(i, j) -> bool``
            selecting the pairs to test, or a list of ``(i, j)`` index pairs.

    Pairs whose bounding boxes are disjoint are rejected without a narrow-phase
    test.
    """
    bbs = [g.getBB() for g in geomlist]
    for i, j in _candidate_pairs(range(len(geomlist)), range(len(geomlist)), pairs, True):
        if bb_intersect(bbs[i], bbs[j]) and geomlist[i].collides(geomlist[j]):
            yield (i, j)


def group_collision_iter(geomlist1: Sequence[Geometry3D], geomlist2: Sequence[Geometry3D],
                         pairs: PairsType = 'all') -> Iterator[Tuple[int, int]]:
    """Yields the colliding pairs ``(i, j)`` with ``geomlist1[i]`` colliding
    with ``geomlist2[j]``.

    ``pairs`` is ``'all'``, a predicate ``f(i, j) -> bool`` or a list of
    ``(i, j)`` pairs, with i indexing ``geomlist1`` and j ``geomlist2``.
    Bounding boxes are used to reject pairs quickly.
    """
    if len(geomlist1) == 0 or len(geomlist2) == 0:
        return
    bbs1 = [g.getBB() for g in geomlist1]
    bbs2 = [g.getBB() for g in geomlist2]
    total1, total2 = bb_union(*bbs1), bb_union(*bbs2)
    near1 = [i for i in range(len(geomlist1)) if bb_intersect(bbs1[i], total2)]
    near2 = [j for j in range(len(geomlist2)) if bb_intersect(bbs2[j], total1)]
    for i, j in _candidate_pairs(near1, near2, pairs, False):
        if bb_intersect(bbs1[i], bbs2[j]) and geomlist1[i].collides(geomlist2[j]):
            yield (i, j)


def group_subset_collision_iter(geomlist: Sequence[Geometry3D], alist: Sequence[int], blist: Sequence[int],
                                pairs: PairsType = 'all') -> Iterator[Tuple[int, int]]:
    """Yields the colliding pairs ``(i, j)`` with i in ``alist`` and j in
    ``blist`` (both indices into ``geomlist``).

    ``pairs`` is ``'all'``, a predicate ``f(i, j) -> bool`` or an explicit
    list of ``(i, j)`` pairs of geomlist indices (then ``alist`` and ``blist``
    are ignored and may be None). A pair ``(i, i)`` is never tested.
    """
    if isinstance(pairs, str) or callable(pairs):
        if not alist or not blist:
            return
        bbs = {k: geomlist[k].getBB() for k in set(alist) | set(blist)}
        total_a = bb_union(*[bbs[i] for i in alist])
        total_b = bb_union(*[bbs[j] for j in blist])
        alist = [i for i in alist if bb_intersect(bbs[i], total_b)]
        blist = [j for j in blist if bb_intersect(bbs[j], total_a)]
    else:
        bbs = {}
        for i, j in pairs:
            for k in (i, j):
                if k not in bbs:
                    bbs[k] = geomlist[k].getBB()
    for i, j in _candidate_pairs(alist, blist, pairs, False):
        if i == j:
            continue
        if bb_intersect(bbs[i], bbs[j]) and geomlist[i].collides(geomlist[j]):
            yield (i, j)


def _closest_hit(geoms, s: Vector3, d: Vector3):
    """The (index, point) of the first hit of the ray among ``geoms``, or None."""
    best = None
    best_dist = float('inf')
    for i, g in enumerate(geoms):
        hit, pt = g.rayCast(s, d)
        if hit:
            dist = vectorops.dot(d, vectorops.sub(pt, s))
            if dist < best_dist:
                best_dist, best = dist, (i, list(pt))
    return best


def ray_cast(geomlist: Sequence[Geometry3D], s: Vector3, d: Vector3) -> Optional[Tuple[int, List[float]]]:
    """Returns ``(index, point)`` of the first geometry in ``geomlist`` hit by
    the ray from ``s`` in direction ``d`` (point in world coordinates), or None
    if nothing is hit."""
    return _closest_hit(geomlist, s, d)


def _has_geometry(g) -> bool:
    return g is not None and g.type() != ""


class WorldCollider:
    """Collision checking among the bodies of a world, with bodies or pairs of
    bodies that can be ignored.

    Attributes:
        world (WorldModel): the world.
        geomList (list): ``(body, Geometry3D)`` pairs of every body of the world
            that has a geometry: terrains, then rigid objects, then robot links.
        mask (list of sets of ints): ``mask[i]`` holds the geomList indices
            that body i is tested against (symmetric).
        terrains (list of ints): geomList index of each terrain, -1 if it has
            no geometry.
        rigidObjects (list of ints): geomList index of each rigid object, or -1.
        robots (list of lists of ints): geomList index of each robot link, or -1.

    By default every pair is tested except terrain-terrain pairs, pairs with
    a robot's fixed base links (links without a parent) and a terrain, and
    robot self-collision pairs disabled in the robot model.

    The lists follow the world's structure when the collider was made: once an
    element is added, removed or reloaded, or a robot's links change, every
    query raises RuntimeError (make a new WorldCollider). Moving bodies and
    editing geometries is fine.
    """

    def __init__(self, world: WorldModel, ignore=()):
        """Args:
            world (WorldModel): the world to check.
            ignore (list, optional): items passed to :meth:`ignoreCollision`.
        """
        world.enableInitCollisions(True)
        self.world = world
        self._structure = world.structureStamp()
        self.geomList = []
        self.mask = []
        self.terrains = []
        self.rigidObjects = []
        self.robots = []
        for i in range(world.numTerrains()):
            self.terrains.append(self._addBody(world.terrain(i)))
        for i in range(world.numRigidObjects()):
            self.rigidObjects.append(self._addBody(world.rigidObject(i)))
        for i in range(world.numRobots()):
            robot = world.robot(i)
            self.robots.append([self._addBody(robot.link(j)) for j in range(robot.numLinks())])
        self.mask = [set() for _ in self.geomList]
        self._buildMask()
        for item in ignore:
            self.ignoreCollision(item)

    def _checkStructure(self) -> None:
        """Raises RuntimeError if the world changed structure since the collider was made."""
        if self.world.structureStamp() != self._structure:
            raise RuntimeError("the world changed structure (an element was added, removed or reloaded, or a "
                               "robot's links changed) after this WorldCollider was made: make a new one")

    def _addBody(self, body) -> int:
        g = body.geometry()
        if not _has_geometry(g):
            return -1
        self.geomList.append((body, g))
        return len(self.geomList) - 1

    def _enable(self, a: int, b: int) -> None:
        if a >= 0 and b >= 0 and a != b:
            self.mask[a].add(b)
            self.mask[b].add(a)

    def _buildMask(self) -> None:
        for t in self.terrains:
            for o in self.rigidObjects:
                self._enable(t, o)
            for links in self.robots:
                for l in links:
                    if l >= 0 and self.geomList[l][0].getParent() >= 0:
                        self._enable(t, l)
        for k, o in enumerate(self.rigidObjects):
            for o2 in self.rigidObjects[:k]:
                self._enable(o, o2)
            for links in self.robots:
                for l in links:
                    self._enable(l, o)
        for r, links in enumerate(self.robots):
            for other in self.robots[:r]:
                for l1 in links:
                    for l2 in other:
                        self._enable(l1, l2)
            robot = self.world.robot(r)
            for i in range(len(links)):
                for j in range(i):
                    if links[i] >= 0 and links[j] >= 0 and robot.selfCollisionEnabled(i, j):
                        self._enable(links[i], links[j])

    def _getGeomIndex(self, object) -> Optional[int]:
        """The geomList index of a body of the world, or None."""
        self._checkStructure()
        if not isinstance(object, (RobotModel, RobotModelLink, RigidObjectModel, TerrainModel)):
            raise TypeError("expected a RobotModelLink, RigidObjectModel or TerrainModel, got " + type(object).__name__)
        for i, (body, _) in enumerate(self.geomList):
            if type(body) is type(object) and body.world == object.world and body.getID() == object.getID():
                return i
        return None

    def ignoreCollision(self, ign) -> None:
        """Stops testing a body against anything, or a pair of bodies against
        each other.

        Args:
            ign: a body (RobotModelLink, RigidObjectModel, TerrainModel) of the
                world, or a pair of bodies.

        Raises:
            ValueError: if a body is not in the world or has no geometry.
        """
        if isinstance(ign, (tuple, list)):
            a, b = ign
            ia, ib = self._getGeomIndex(a), self._getGeomIndex(b)
            if ia is None or ib is None:
                raise ValueError("Invalid ignore collision item, must be a pair of bodies in the world")
            self.mask[ia].discard(ib)
            self.mask[ib].discard(ia)
        else:
            i = self._getGeomIndex(ign)
            if i is None:
                raise ValueError("Invalid ignore collision item, must be a body in the world")
            for j in self.mask[i]:
                self.mask[j].discard(i)
            self.mask[i] = set()

    def isCollisionEnabled(self, obj_or_pair) -> bool:
        """Returns True if the pair of bodies is tested, or for a single body,
        if it is tested against anything."""
        if isinstance(obj_or_pair, (tuple, list)):
            a, b = obj_or_pair
            ia, ib = self._getGeomIndex(a), self._getGeomIndex(b)
            if ia is None or ib is None:
                return False
            return ib in self.mask[ia]
        i = self._getGeomIndex(obj_or_pair)
        return i is not None and len(self.mask[i]) > 0

    def collisionTests(self, filter1: Optional[Callable] = None, filter2: Optional[Callable] = None,
                       bb_reject: bool = True) -> Iterator[Tuple[tuple, tuple]]:
        """Yields the pairs ``((body1, geom1), (body2, geom2))`` that should be
        tested, without testing them (useful for distance queries).

        Args:
            filter1, filter2 (callable, optional): predicates on bodies; see
                :meth:`collisions`.
            bb_reject (bool): skip pairs whose bounding boxes are disjoint.
        """
        self._checkStructure()
        bbs = [g.getBB() for _, g in self.geomList] if bb_reject else None

        def overlapping(i, j):
            return not bb_reject or bb_intersect(bbs[i], bbs[j])

        if filter1 is None:
            for i, others in enumerate(self.mask):
                for j in sorted(others):
                    if j > i and overlapping(i, j):
                        yield (self.geomList[i], self.geomList[j])
        elif filter2 is None:
            passing = [filter1(body) for body, _ in self.geomList]
            for i, others in enumerate(self.mask):
                if not passing[i]:
                    continue
                for j in sorted(others):
                    if j > i and passing[j] and overlapping(i, j):
                        yield (self.geomList[i], self.geomList[j])
        else:
            in1 = [filter1(body) for body, _ in self.geomList]
            in2 = [filter2(body) for body, _ in self.geomList]
            for i, others in enumerate(self.mask):
                if not in1[i]:
                    continue
                for j in sorted(others):
                    if in2[j] and overlapping(i, j):
                        yield (self.geomList[i], self.geomList[j])

    def collisions(self, filter1: Optional[Callable] = None,
                   filter2: Optional[Callable] = None) -> Iterator[Tuple[WorldBodyType, WorldBodyType]]:
        """Yields the colliding pairs of bodies ``(body1, body2)``.

        With no filter every enabled pair is tested. With ``filter1`` only,
        the bodies accepted by ``filter1`` are tested against each other. With
        both, bodies accepted by ``filter1`` are tested against bodies accepted
        by ``filter2`` (body1 passes filter1, body2 passes filter2).
        """
        for (b1, g1), (b2, g2) in self.collisionTests(filter1, filter2):
            if g1.collides(g2):
                yield (b1, b2)

    def _robotIndex(self, robot) -> int:
        self._checkStructure()
        if isinstance(robot, RobotModel):
            for r in range(self.world.numRobots()):
                if self.world.robot(r).getID() == robot.getID():
                    return r
            raise RuntimeError("Robot " + robot.getName() + " is not found in the world!")
        return robot

    @staticmethod
    def _elementIndex(item, cls):
        return item.index if isinstance(item, cls) else item

    def _testPair(self, i: int, j: int) -> bool:
        # Callers check the structure once per query, not per pair: the check
        # costs as much as a pair's bounding-box rejection.
        return i >= 0 and j >= 0 and j in self.mask[i] and self.geomList[i][1].collides(self.geomList[j][1])

    def robotSelfCollisions(self, robot: Union[RobotModel, int, None] = None
                            ) -> Iterator[Tuple[RobotModelLink, RobotModelLink]]:
        """Yields the colliding link pairs ``(link_i, link_j)``, i > j, of one
        robot (a RobotModel or index), or of every robot if robot is None."""
        if robot is None:
            for r in range(len(self.robots)):
                yield from self.robotSelfCollisions(r)
            return
        links = self.robots[self._robotIndex(robot)]
        for a, i in enumerate(links):
            for j in links[:a]:
                if self._testPair(i, j):
                    yield (self.geomList[i][0], self.geomList[j][0])

    def robotObjectCollisions(self, robot: Union[RobotModel, int], object: Union[RigidObjectModel, int, None] = None
                              ) -> Iterator[Tuple[RobotModelLink, RigidObjectModel]]:
        """Yields the colliding ``(link, object)`` pairs of a robot with one
        rigid object (a RigidObjectModel or index) or with all of them."""
        if object is None:
            for o in range(len(self.rigidObjects)):
                yield from self.robotObjectCollisions(robot, o)
            return
        o = self.rigidObjects[self._elementIndex(object, RigidObjectModel)]
        for l in self.robots[self._robotIndex(robot)]:
            if self._testPair(l, o):
                yield (self.geomList[l][0], self.geomList[o][0])

    def robotTerrainCollisions(self, robot: Union[RobotModel, int], terrain: Union[TerrainModel, int, None] = None
                               ) -> Iterator[Tuple[RobotModelLink, TerrainModel]]:
        """Yields the colliding ``(link, terrain)`` pairs of a robot with one
        terrain (a TerrainModel or index) or with all of them."""
        if terrain is None:
            for t in range(len(self.terrains)):
                yield from self.robotTerrainCollisions(robot, t)
            return
        t = self.terrains[self._elementIndex(terrain, TerrainModel)]
        for l in self.robots[self._robotIndex(robot)]:
            if self._testPair(l, t):
                yield (self.geomList[l][0], self.geomList[t][0])

    def objectTerrainCollisions(self, object: Union[RigidObjectModel, int], terrain: Union[TerrainModel, int, None] = None
                                ) -> Iterator[Tuple[RigidObjectModel, TerrainModel]]:
        """Yields the colliding ``(object, terrain)`` pairs of a rigid object
        with one terrain or with all of them."""
        if terrain is None:
            for t in range(len(self.terrains)):
                yield from self.objectTerrainCollisions(object, t)
            return
        self._checkStructure()
        o = self.rigidObjects[self._elementIndex(object, RigidObjectModel)]
        t = self.terrains[self._elementIndex(terrain, TerrainModel)]
        if self._testPair(o, t):
            yield (self.geomList[o][0], self.geomList[t][0])

    def objectObjectCollisions(self, object: Union[RigidObjectModel, int],
                               object2: Union[RigidObjectModel, int, None] = None
                               ) -> Iterator[Tuple[RigidObjectModel, RigidObjectModel]]:
        """Yields the colliding ``(object, object2)`` pairs of a rigid object
        with another one or, if object2 is None, with every other object."""
        if object2 is None:
            for o in range(len(self.rigidObjects)):
                yield from self.objectObjectCollisions(object, o)
            return
        self._checkStructure()
        o = self.rigidObjects[self._elementIndex(object, RigidObjectModel)]
        o2 = self.rigidObjects[self._elementIndex(object2, RigidObjectModel)]
        if self._testPair(o, o2):
            yield (self.geomList[o][0], self.geomList[o2][0])

    def rayCast(self, s: Vector3, d: Vector3, indices: Optional[List[int]] = None
                ) -> Optional[Tuple[WorldBodyType, List[float]]]:
        """Returns ``(body, point)`` for the first body hit by the ray from
        ``s`` in direction ``d``, or None. ``indices`` restricts the test to
        those geomList indices (negative entries are skipped)."""
        self._checkStructure()
        entries = self.geomList if indices is None else [self.geomList[i] for i in indices if i >= 0]
        hit = _closest_hit([g for _, g in entries], s, d)
        if hit is None:
            return None
        return (entries[hit[0]][0], hit[1])

    def rayCastRobot(self, robot: Union[RobotModel, int], s: Vector3, d: Vector3
                     ) -> Optional[Tuple[RobotModelLink, List[float]]]:
        """Returns ``(link, point)`` for the first link of the robot hit by the
        ray, or None."""
        return self.rayCast(s, d, self.robots[self._robotIndex(robot)])
