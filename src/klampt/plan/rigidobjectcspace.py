"""The C-space of a free-flying rigid object (:class:`RigidObjectCSpace`):
configurations ``[tx, ty, tz, mx, my, mz]``, a translation and the rotation
vector (exponential map) of the rotation.
"""
import math
import random

from ..math import se3, so3, vectorops
from ..model import collide, trajectory  # noqa: F401 (names the reference's module also exposes)
from .cspace import CSpace


class RigidObjectCSpace(CSpace):
    """Collision-free motion of a rigid object.

    Args:
        rigidObject (RigidObjectModel): the moving object.
        collider (WorldCollider, optional): the world's collider (ignored
            pairs are respected); without it nothing is checked but the
            constraints added.
        translationDomain (list of pairs, optional): the box translations are
            sampled in; by default unbounded (a Laplacian prior).
        rotationDomain (pair, optional): ``(R0, range)``: rotations within
            angle ``range`` of R0, or with roll / pitch / yaw within
            ``range`` (a triple), applied after R0.

    Attributes:
        rigidObject, collider, rotationDomain: as given.
        rotationWeight (float): weight of the rotation angle against
            translation in :meth:`distance` (1/pi).
    """

    def __init__(self, rigidObject, collider=None, translationDomain=None, rotationDomain=None):
        CSpace.__init__(self)
        self.rigidObject = rigidObject
        if translationDomain is None:
            translationDomain = [(-float('inf'), float('inf'))] * 3
        self.bound = list(translationDomain) + [(-math.pi, math.pi)] * 3
        self.rotationDomain = rotationDomain
        self.collider = collider
        self.rotationWeight = 1.0 / math.pi
        self.addFeasibilityTest(self.setConfig, "setconfig")
        if collider:
            world = collider.world
            me = rigidObject.index
            for r in range(world.numRobots()):
                self.addFeasibilityTest((lambda x, r=r: not any(True for _ in collider.robotObjectCollisions(r, me))),
                                        "robot collision %d %s" % (r, world.robot(r).getName()),
                                        dependencies="setconfig")
            for o in range(world.numRigidObjects()):
                if o != me:
                    self.addFeasibilityTest(
                        (lambda x, o=o: not any(True for _ in collider.objectObjectCollisions(me, o))),
                        "obj collision %d %s" % (o, world.rigidObject(o).getName()), dependencies="setconfig")
            for t in range(world.numTerrains()):
                self.addFeasibilityTest(
                    (lambda x, t=t: not any(True for _ in collider.objectTerrainCollisions(me, t))),
                    "terrain collision %d %s" % (t, world.terrain(t).getName()), dependencies="setconfig")
        self.properties['geodesic'] = 1

    def configToTransform(self, x):
        """Configuration -> (R, t)."""
        return (so3.from_moment(x[3:6]), list(x[:3]))

    def transformToConfig(self, T):
        """(R, t) -> configuration."""
        return list(T[1]) + list(so3.moment(T[0]))

    def setConfig(self, x) -> bool:
        """Moves the object to x (a feasibility test that always passes)."""
        self.rigidObject.setTransform(*self.configToTransform(x))
        return True

    def addConstraint(self, checker, name=None):
        """Adds a constraint checker(x) -> bool (the object is at x when it is
        called). The reference misspells the method it calls here."""
        self.addFeasibilityTest(checker, name, dependencies="setconfig")

    def sample(self):
        """A random transform: translations in the domain (Laplacian where
        unbounded), rotations uniform or within rotationDomain."""
        t = [0.0] * 3
        for i, (lo, hi) in enumerate(self.bound[:3]):
            if math.isinf(lo) or math.isinf(hi) or math.isnan(lo) or math.isnan(hi):
                t[i] = math.log(1.0 - random.random()) * (-1.0 if random.random() < 0.5 else 1.0)
            else:
                t[i] = random.uniform(lo, hi)
        if self.rotationDomain is None:
            R = so3.sample()
        else:
            R0, arange = self.rotationDomain
            if hasattr(arange, '__iter__'):
                rpy = [random.uniform(-a, a) for a in arange]
                Rrand = so3.from_rpy(rpy)
            else:
                axis = vectorops.unit([random.gauss(0, 1) for _ in range(3)])
                Rrand = so3.rotation(axis, random.uniform(0, arange))
            R = so3.mul(R0, Rrand)
        return self.transformToConfig((R, t))

    def envCollision(self, x=None) -> bool:
        """Whether the object (at x, or where it is) collides with anything
        the collider tests."""
        if not self.collider:
            return False
        if x is not None:
            self.setConfig(x)
        world = self.collider.world
        me = self.rigidObject.index
        if any(any(True for _ in self.collider.robotObjectCollisions(r, me)) for r in range(world.numRobots())):
            return True
        if any(any(True for _ in self.collider.objectObjectCollisions(me, o))
               for o in range(world.numRigidObjects()) if o != me):
            return True
        return any(any(True for _ in self.collider.objectTerrainCollisions(me, t)) for t in range(world.numTerrains()))

    def interpolate(self, a, b, u):
        """Geodesic SE(3) interpolation from pose a (u=0) to pose b (u=1)."""
        return self.transformToConfig(se3.interpolate(self.configToTransform(a), self.configToTransform(b), u))

    def distance(self, a, b):
        """sqrt(translation distance^2 + (rotationWeight * rotation angle)^2), in m and rad."""
        td = vectorops.distanceSquared(a[:3], b[:3])
        Ra, Rb = so3.from_moment(a[3:6]), so3.from_moment(b[3:6])
        return math.sqrt(td + (self.rotationWeight * so3.distance(Ra, Rb)) ** 2)

    def pathToTransforms(self, path):
        """A path as a list of (R, t)."""
        return [self.configToTransform(x) for x in path]

    def pathToTrajectory(self, path):
        """A path as an SE3Trajectory, one milestone per unit of time."""
        return trajectory.SE3Trajectory(list(range(len(path))), [self.configToTransform(x) for x in path])
