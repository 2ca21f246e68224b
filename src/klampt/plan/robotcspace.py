"""C-spaces of robots: collision-free motion (:class:`RobotCSpace`), motion
keeping IK constraints (:class:`ClosedLoopRobotCSpace`), motion on the manifold of
a vector function (:class:`ImplicitManifoldRobotCSpace`), motion of a subset
of DOFs (:class:`EmbeddedRobotCSpace`).

A :class:`RobotCSpace` and its embeddings are checked by a native space
(:func:`klampt.plan.motionplanning.robot_cspace`): joint limits, self
collision, and collision with the terrains, rigid objects and other robots
its collider tests, without calling back into Python and without changing
the robot's configuration. Constraints added with
:meth:`RobotCSpace.addConstraint` run in Python after the native tests, with
the robot set to the configuration being tested (and restored afterwards).

Besides the reference's attributes, a RobotCSpace has ``collisionMargin``
(m; distances to other bodies below it count as collisions) and ``edgeCheck``
(``'bisection'``: points along an edge at ``eps`` in C-space units, which
may graze obstacles between checked points on long lever arms;
``'conservative'``: an edge is free only if no point of the robot can move
farther than its clearance between checked configurations).
"""
import math
import random
import warnings
from typing import Callable, List, Optional

from .. import robotsim
from ..model import collide
from ..math import rootfind
from ..math.vectorfield import VectorFieldFunction
from ..model.typing import Config, Configs
from ..robotsim import IKObjective, RigidObjectModel, RobotModel, RobotModelLink, TerrainModel  # noqa: F401 (names the reference's module also exposes)
from . import motionplanning
from .cspace import CSpace
from .cspaceutils import EmbeddedCSpace


def _collision_pairs(robot: RobotModel, collider) -> list:
    """The (link, kind, index, otherLink) pairs the collider tests between
    the robot's links and other bodies (self pairs follow the robot model)."""
    if collider is None:
        return []
    pairs = []
    me = robot.index
    for link, gi in enumerate(collider.robots[me]):
        if gi < 0:
            continue
        for gj in sorted(collider.mask[gi]):
            body = collider.geomList[gj][0]
            if isinstance(body, TerrainModel):
                pairs.append((link, 'terrain', body.index, -1))
            elif isinstance(body, RigidObjectModel):
                pairs.append((link, 'object', body.index, -1))
            elif isinstance(body, RobotModelLink) and body.robotIndex != me:
                pairs.append((link, 'robot', body.robotIndex, body.index))
    return pairs


def _native_test_names(robot: RobotModel, collider) -> List[str]:
    """The native space's test names, in order."""
    names = ['joint limits', 'setconfig']
    if collider is None:
        return names + ['self collision']
    world = collider.world
    names += ['calcbb', 'self collision']
    names += ["obj collision %d %s" % (i, world.rigidObject(i).getName()) for i in range(world.numRigidObjects())]
    names += ["terrain collision %d %s" % (i, world.terrain(i).getName()) for i in range(world.numTerrains())]
    names += ["robot collision %d %s" % (i, world.robot(i).getName()) for i in range(world.numRobots())
              if i != robot.index]
    return names


def _moving_links(robot: RobotModel, dofs) -> List[bool]:
    """Links that move when the DOFs do: the DOFs' links and their descendants."""
    active = [False] * robot.numLinks()
    for i in dofs:
        active[i] = True
    for i in range(robot.numLinks()):
        p = robot.link(i).getParent()
        if p >= 0 and active[p]:
            active[i] = True
    return active


def _disable_inactive(robot: RobotModel, collider, active: List[bool]) -> None:
    """Removes the collider's pairs of the robot's links that do not move
    (``active[i]`` False), which planning need not test."""
    indices = collider.robots[robot.index]
    for i in range(robot.numLinks()):
        if active[i] or indices[i] < 0:
            continue
        gi = indices[i]
        keep = set(indices[j] for j in range(robot.numLinks()) if active[j] and indices[j] in collider.mask[gi])
        for gj in collider.mask[gi] - keep:
            collider.mask[gj].discard(gi)
        collider.mask[gi] = keep


class RobotCSpace(CSpace):
    """Collision-free motion of a robot.

    Args:
        robot (RobotModel): the moving robot.
        collider (WorldCollider, optional): the world's collider; its ignored
            pairs are respected. Without it only self collision is checked.

    Attributes:
        robot, collider: as given.
        collisionMargin (float): clearance (m) from other bodies below which
            the robot counts as colliding with them; 0 by default.
        edgeCheck (str): 'bisection' (default) or 'conservative'.
        joint_limit_failures (list of int): per-DOF counts of
            :meth:`inJointLimits` failures.

    Infinite joint limits are sampled uniformly in [0, 2 pi]; override
    :meth:`sample` for other joints (floating bases).
    """

    def __init__(self, robot: RobotModel, collider: Optional[collide.WorldCollider] = None):
        CSpace.__init__(self)
        self.robot = robot
        self.setBounds(list(zip(*robot.getJointLimits())))
        self.collider = collider
        self.collisionMargin = 0.0
        self.edgeCheck = 'bisection'
        self._extras = []
        self._checker_space = None
        names = _native_test_names(robot, collider)
        for name in names:
            deps = None
            if name == 'calcbb' or name == 'self collision':
                deps = 'setconfig'
            elif name not in ('joint limits', 'setconfig'):
                deps = 'calcbb'
            if name == 'setconfig':
                # Only run when the space is checked through Python (closed-loop
                # spaces, or direct calls): later tests may read the robot.
                test = self._set_robot_config
            else:
                test = (lambda x, n=name: self._checker().testFeasibility(n, x))
            self.addFeasibilityTest(test, name, dependencies=deps)
        self.joint_limit_failures = [0] * len(self.bound)
        self.properties['geodesic'] = 1

    def _set_robot_config(self, x):
        self.robot.setConfig(x)
        return True

    def _checker(self):
        """The native space over all DOFs (with the extra constraints), used by
        this object's own queries."""
        if self.cspace is not None and self.cspace.index >= 0 and self.cspace.isNative():
            return self.cspace
        if self._checker_space is None or self._checker_space.index < 0:
            self._checker_space = RobotCSpace._build_native(self, self._identity_terms(), [0.0] * self.robot.numLinks(),
                                                            None)
        return self._checker_space

    def _identity_terms(self):
        return [(i, i, 1.0) for i in range(self.robot.numLinks())]

    def _native_embedding(self, terms, offset, lift):
        """The native space of an embedding (cspaceutils asks for it)."""
        return self._build_native(terms, offset, lift)

    def _build_native(self, terms, offset, lift):
        """A native space over coordinates x with q = offset + A x (A from
        ``terms``), with the extra constraints attached (``lift`` maps x to q;
        None for the identity)."""
        native = motionplanning.robot_cspace(self.robot, offset, terms, _collision_pairs(self.robot, self.collider),
                                             collider=self.collider is not None,
                                             collisionMargin=self.collisionMargin, edgeCheck=self.edgeCheck,
                                             eps=self.eps)
        for name, f in self._extras:
            native.addFeasibilityTest(name, self._robot_constraint(f, lift))
        return native

    def _robot_constraint(self, f, lift):
        """f(q) called with the robot at q, which is restored afterwards."""
        robot = self.robot

        def test(x):
            q = x if lift is None else lift(x)
            saved = robot.getConfig()
            robot.setConfig(q)
            try:
                return bool(f(q))
            finally:
                robot.setConfig(saved)
        return test

    def _make_native(self):
        return self._build_native(self._identity_terms(), [0.0] * self.robot.numLinks(), None)

    def setup(self, reinit: bool = False) -> None:
        """Builds the native space (with the collider's mask as it is now)."""
        self._checker_space = None
        CSpace.setup(self, reinit)

    def addConstraint(self, checker: Callable, name: Optional[str] = None) -> None:
        """Adds a constraint checker(q) -> bool on robot configurations; the
        robot is at q when it is called."""
        self.addFeasibilityTest(checker, name)
        self._extras.append((self.feasibilityTestNames[-1], checker))
        self._checker_space = None

    def feasible(self, x: Config) -> bool:
        return self._checker().isFeasible(x)

    def sample(self) -> Config:
        """Uniform within the joint limits; infinite ranges in [0, 2 pi]."""
        res = CSpace.sample(self)
        for i, x in enumerate(res):
            if math.isnan(x) or math.isinf(x):
                res[i] = random.uniform(0, math.pi * 2.0)
        return res

    def inJointLimits(self, x: Config) -> bool:
        """Whether x is within the joint limits (counts failures per DOF)."""
        for i, (xi, (lo, hi)) in enumerate(zip(x, self.bound)):
            if xi < lo or xi > hi:
                self.joint_limit_failures[i] += 1
                return False
        return True

    def selfCollision(self, x: Optional[Config] = None) -> bool:
        """Whether the robot self-collides at x (or at its current configuration)."""
        if x is None:
            x = self.robot.getConfig()
        return not self._checker().testFeasibility('self collision', x)

    def envCollision(self, x: Optional[Config] = None) -> bool:
        """Whether the robot collides with the bodies its collider tests."""
        if not self.collider:
            return False
        if x is None:
            x = self.robot.getConfig()
        checker = self._checker()
        return any(not checker.testFeasibility(n, x) for n in checker.feasibilityQueryOrder()
                   if n.startswith(('obj collision', 'terrain collision', 'robot collision')))

    def interpolate(self, a, b, u):
        """The robot's interpolation from a (u=0) to b (u=1), spin joints the short way round."""
        return self.robot.interpolate(a, b, u)

    def distance(self, a, b):
        """The robot's configuration distance between a and b (rad and m combined)."""
        return self.robot.distance(a, b)

    def clearance(self, x: Config) -> float:
        """Distance (m) from the robot at x to the bodies it is checked
        against (half the gap for self pairs), minus ``collisionMargin``."""
        return self._checker().clearance(x)

    def executablePath(self, path: Configs) -> Configs:
        """A planned path in the form trajectory.execute_path takes."""
        return path


class _CheckedInPython:
    """A robot C-space whose samples and interpolated points need Python
    (IK, root finding) in every check: it is planned through Python, with
    CSpace's checks instead of RobotCSpace's native ones."""

    def _make_native(self):
        return CSpace._make_native(self)

    def _native_embedding(self, terms, offset, lift):
        return None

    def feasible(self, x: Config) -> bool:
        return CSpace.feasible(self, x)


class ClosedLoopRobotCSpace(_CheckedInPython, RobotCSpace):
    """Motion that keeps IK constraints: samples and interpolated points are
    projected onto the constraint manifold by an IK solve.

    Attributes:
        solver (IKSolver): the solver holding the constraints.
        maxIters (int): IK iterations per projection (100).
        tol (float): how closely the constraints must hold (1e-3).
    """

    def __init__(self, robot: RobotModel, iks, collider: Optional[collide.WorldCollider] = None):
        RobotCSpace.__init__(self, robot, collider)
        self.solver = robotsim.IKSolver(robot)
        for ik in (iks if hasattr(iks, '__iter__') else [iks]):
            self.solver.add(ik)
        self.maxIters = 100
        self.tol = 1e-3
        self.addFeasibilityTest((lambda x: self.closedLoop(x)), 'closed loop constraint')

    def setIKActiveDofs(self, activeSet: List[int]) -> None:
        """Solves the constraints with these DOFs only."""
        self.solver.setActiveDofs(activeSet)

    def sample(self) -> Config:
        """A random configuration projected onto the constraints."""
        return self.solveConstraints(RobotCSpace.sample(self))

    def sampleneighborhood(self, c: Config, r: float) -> Config:
        """A sample near c projected onto the constraints."""
        return self.solveConstraints(RobotCSpace.sampleneighborhood(self, c, r))

    def solveConstraints(self, x: Config) -> Config:
        """The configuration the IK solve reaches from x (the robot is left there)."""
        self.robot.setConfig(x)
        self.solver.setMaxIters(self.maxIters)
        self.solver.setTolerance(self.tol)
        self.solver.solve()
        return self.robot.getConfig()

    def closedLoop(self, config: Optional[Config] = None, tol: Optional[float] = None) -> bool:
        """Whether the constraints hold at config (default: the robot's)."""
        if config is not None:
            self.robot.setConfig(config)
        e = self.solver.getResidual()
        return max(abs(ei) for ei in e) <= (self.tol if tol is None else tol)

    def interpolate(self, a, b, u) -> Config:
        """Interpolation projected onto the constraints."""
        return self.solveConstraints(RobotCSpace.interpolate(self, a, b, u))

    def interpolationPath(self, a, b, epsilon=1e-2):
        """Points on the constraint manifold from a to b, at most epsilon apart."""
        d = self.distance(a, b)
        nsegs = int(math.ceil(d / epsilon))
        if nsegs <= 1:
            return [a, b]
        return [a] + [self.interpolate(a, b, float(i + 1) / nsegs) for i in range(nsegs - 1)] + [b]

    def discretizePath(self, path: Configs, epsilon: float = 1e-2) -> Configs:
        """A path with points at most epsilon apart that keep the constraints."""
        if path is None:
            return None
        if len(path) == 0:
            return []
        out = [path[0]]
        for a, b in zip(path[:-1], path[1:]):
            out += self.interpolationPath(a, b, epsilon)[1:]
        return out

    def executablePath(self, path: Configs, epsilon: float = 1e-2) -> Configs:
        """:meth:`discretizePath`, the form trajectory.execute_path takes."""
        return self.discretizePath(path, epsilon)


class _FunctionField(VectorFieldFunction):
    """A vector field of a plain function f(q) -> list, with centered-difference Jacobians."""

    def __init__(self, f, n: int, q0: Config):
        VectorFieldFunction.__init__(self)
        self.f = f
        self.n = n
        self.m = len(f(list(q0)))

    def eval(self, x):
        return list(self.f(list(x)))


class ImplicitManifoldRobotCSpace(_CheckedInPython, RobotCSpace):
    """Motion on the manifold f(q) = 0 of a vector function: samples and
    interpolated points are projected onto it by Newton root finding within
    the joint limits (:mod:`klampt.math.rootfind`).

    Args:
        robot (RobotModel): the robot.
        implicitConstraint: a :class:`~klampt.math.vectorfield.VectorFieldFunction`
            of the robot's configuration (n = its number of links), or a
            function f(q) -> list of floats (its Jacobian is taken by
            centered differences).
        collider (WorldCollider, optional): the collisions to test.

    Attributes:
        implicitConstraint (VectorFieldFunction): the manifold's function.
        maxIters (int): root-finding iterations per projection (100).
        tol (float): how closely f(q) = 0 must hold, per component (1e-3).
    """

    def __init__(self, robot: RobotModel, implicitConstraint, collider=None):
        RobotCSpace.__init__(self, robot, collider)
        if not callable(getattr(implicitConstraint, 'eval', None)):
            if not callable(implicitConstraint):
                raise TypeError("implicitConstraint must be a VectorFieldFunction or a function f(q) -> list")
            implicitConstraint = _FunctionField(implicitConstraint, robot.numLinks(), robot.getConfig())
        if implicitConstraint.num_vars() != robot.numLinks():
            raise ValueError("the implicit constraint takes %d variables, the robot has %d links"
                             % (implicitConstraint.num_vars(), robot.numLinks()))
        self.implicitConstraint = implicitConstraint
        self.maxIters = 100
        self.tol = 1e-3
        self.addFeasibilityTest((lambda x: self.onManifold(x)), 'implicit manifold constraint')

    def sample(self) -> Config:
        """A random configuration projected onto the manifold."""
        return self.solveManifold(RobotCSpace.sample(self))

    def sampleneighborhood(self, c: Config, r: float) -> Config:
        """A sample near c projected onto the manifold."""
        return self.solveManifold(RobotCSpace.sampleneighborhood(self, c, r))

    def onManifold(self, x: Config, tol: Optional[float] = None) -> bool:
        """Whether every component of f(x) is within tol (default self.tol) of 0."""
        e = self.implicitConstraint.eval(list(x))
        return max((abs(ei) for ei in e), default=0.0) <= (self.tol if tol is None else tol)

    def solveManifold(self, x: Config, tol: Optional[float] = None, maxIters: Optional[int] = None) -> Config:
        """The point root finding reaches from x, within the joint limits, to
        tolerance tol in f after at most maxIters iterations (defaults: the
        attributes). It may be off the manifold: see :meth:`onManifold`."""
        rootfind.setXTolerance(1e-8)
        rootfind.setFTolerance(self.tol if tol is None else tol)
        rootfind.setVectorField(self.implicitConstraint)
        _, q, _ = rootfind.findRootsBounded(x, self.bound, self.maxIters if maxIters is None else maxIters)
        return q

    def interpolate(self, a, b, u) -> Config:
        """Interpolation projected onto the manifold."""
        return self.solveManifold(RobotCSpace.interpolate(self, a, b, u))


class EmbeddedRobotCSpace(EmbeddedCSpace):
    """Motion of a subset of a robot's DOFs (the others stay at xinit,
    default the robot's current configuration).

    Args:
        ambientspace (RobotCSpace): the robot space (or a closed-loop one).
        subset (list of int): the moving DOFs.
        xinit (list, optional): the configuration of the others.
    """

    def __init__(self, ambientspace: RobotCSpace, subset: List[int], xinit: Optional[Config] = None):
        self.robot = ambientspace.robot
        if xinit is None:
            xinit = self.robot.getConfig()
        EmbeddedCSpace.__init__(self, ambientspace, subset, xinit)
        if isinstance(ambientspace, ClosedLoopRobotCSpace):
            active = ambientspace.solver.getActiveDofs()
            if len(active) > len(subset) or any(i not in set(subset) for i in active):
                raise ValueError("ClosedLoopRobotCSpace IK solver must be configured with moving dofs that are within the subset of embedded dofs")
            self.sample = lambda: self.project(self.ambientspace.solveConstraints(self.lift(CSpace.sample(self))))
            self.sampleneighborhood = lambda c, r: self.project(
                self.ambientspace.solveConstraints(self.lift(CSpace.sampleneighborhood(self, c, r))))

    def disableInactiveCollisions(self) -> None:
        """Stops testing the collider's pairs of links that cannot move
        (neither in the subset nor below a link in it). Call before setup()."""
        robot = self.robot
        collider = self.ambientspace.collider
        if collider is None:
            return
        _disable_inactive(robot, collider, _moving_links(robot, self.mapping))
        self.ambientspace._checker_space = None

    def discretizePath(self, path: Configs, epsilon=1e-2):
        """The path in ambient configurations (discretized on the constraint
        manifold for closed-loop spaces)."""
        if hasattr(self.ambientspace, 'discretizePath'):
            return self.ambientspace.discretizePath(self.liftPath(path), epsilon)
        return self.liftPath(path)

    def executablePath(self, path: Configs) -> Configs:
        """A planned path (embedded or ambient) as ambient configurations that
        trajectory.execute_path takes."""
        if len(path[0]) == len(self.mapping):
            path = self.liftPath(path)
        if hasattr(self.ambientspace, 'executablePath'):
            path = self.ambientspace.executablePath(path)
        return path


class RobotSubsetCSpace(EmbeddedCSpace):
    """Deprecated (since Klamp't 0.8.6): use
    ``EmbeddedRobotCSpace(RobotCSpace(robot, collider), subset)`` and its
    ``disableInactiveCollisions()``."""

    def __init__(self, robot: RobotModel, subset: List[int], collider: Optional[collide.WorldCollider] = None):
        warnings.warn("RobotSubsetCSpace is deprecated, use EmbeddedRobotCSpace", DeprecationWarning, stacklevel=2)
        ambient = RobotCSpace(robot, collider)
        EmbeddedCSpace.__init__(self, ambient, subset, xinit=robot.getConfig())
        self.robot = robot
        self.collider = collider
        EmbeddedRobotCSpace.disableInactiveCollisions(self)

    def executablePath(self, path: Configs) -> Configs:
        """The path as ambient configurations."""
        return self.liftPath(path)
