"""Building C-spaces from others: defaults for the optional callbacks,
products of spaces (:class:`CompositeCSpace`), subspaces of chosen DOFs
(:class:`EmbeddedCSpace`) or affine images (:class:`AffineEmbeddedCSpace`),
and plans that take and return ambient configurations
(:class:`EmbeddedMotionPlan`, :class:`SubsetMotionPlan`).

An embedding of a robot space (:class:`~klampt.plan.robotcspace.RobotCSpace`)
is checked natively: the planner never calls back into Python for it.
"""
import random
import warnings
from typing import List, Optional, Union

from ..math import vectorops
from ..model.typing import Config
from ..robotsim import RobotModel
from .cspace import CSpace, MotionPlan


def default_sampleneighborhood(c, r):
    """A uniform sample of the box of half-width r around c."""
    return [ci + random.uniform(-r, r) for ci in c]


def default_visible(a, b):
    """Placeholder edge test of spaces that have none: raises."""
    raise RuntimeError("Can't check visibility")


def default_distance(a, b):
    """Euclidean distance."""
    return vectorops.distance(a, b)


def default_interpolate(a, b, u):
    """Linear interpolation."""
    return vectorops.interpolate(a, b, u)


def make_default(space: CSpace) -> None:
    """Gives a space the default Cartesian callbacks."""
    space.sampleneighborhood = default_sampleneighborhood
    space.visible = default_visible
    space.distance = default_distance
    space.interpolate = default_interpolate


class CompositeCSpace(CSpace):
    """The Cartesian product of spaces (a list); override :meth:`feasible`
    to add interactions between them."""

    def __init__(self, spaces: List[CSpace]):
        CSpace.__init__(self)
        self.spaces = spaces
        optional = {
            'sampleneighborhood': (default_sampleneighborhood,
                                   lambda c, r: self.join(s.sampleneighborhood(x, r) for s, x in zip(self.spaces, self.split(c)))),
            'visible': (default_visible,
                        lambda a, b: all(s.visible(x, y) for s, x, y in zip(self.spaces, self.split(a), self.split(b)))),
            'distance': (default_distance,
                         lambda a, b: sum(s.distance(x, y) for s, x, y in zip(self.spaces, self.split(a), self.split(b)))),
            'interpolate': (default_interpolate,
                            lambda a, b, u: self.join(s.interpolate(x, y, u) for s, x, y in
                                                      zip(self.spaces, self.split(a), self.split(b)))),
        }
        for name, (default, combined) in optional.items():
            if any(hasattr(s, name) for s in spaces):
                for s in spaces:
                    if not hasattr(s, name):
                        setattr(s, name, default)
                setattr(self, name, combined)

    def subDims(self) -> List[int]:
        """The dimension of each factor."""
        return [len(s.sample()) for s in self.spaces]

    def split(self, x) -> List[list]:
        """x cut into the factors' configurations."""
        out, pos = [], 0
        for d in self.subDims():
            out.append(list(x[pos:pos + d]))
            pos += d
        return out

    def join(self, xs) -> list:
        """The factors' configurations concatenated."""
        out = []
        for x in xs:
            out += list(x)
        return out

    def feasible(self, x) -> bool:
        return all(s.feasible(xi) for xi, s in zip(self.split(x), self.spaces))

    def sample(self):
        return self.join(s.sample() for s in self.spaces)


def _native_embedding(space, terms, offset):
    """A native space for an embedding of a robot space, or None when the
    ambient space cannot make one."""
    make = getattr(space.ambientspace, '_native_embedding', None)
    if make is None:
        return None
    return make(terms, offset, space.lift)


class _Embedding(CSpace):
    """A space embedded in an ambient one by :meth:`lift` (embedded ->
    ambient) and :meth:`project` (back): sampling, feasibility and the
    ambient space's optional neighbourhood, visibility, distance and
    interpolation go through the ambient space, and so do its properties
    and feasibility tests."""

    def __init__(self, ambientspace: CSpace):
        CSpace.__init__(self)
        self.ambientspace = ambientspace
        if hasattr(ambientspace, 'sampleneighborhood'):
            self.sampleneighborhood = lambda c, r: self.project(self.ambientspace.sampleneighborhood(self.lift(c), r))
        if hasattr(ambientspace, 'visible'):
            self.visible = lambda a, b: self.ambientspace.visible(self.lift(a), self.lift(b))
        if hasattr(ambientspace, 'distance'):
            self.distance = lambda a, b: self.ambientspace.distance(self.lift(a), self.lift(b))
        if hasattr(ambientspace, 'interpolate'):
            self.interpolate = lambda a, b, u: self.project(self.ambientspace.interpolate(self.lift(a), self.lift(b), u))
        self.eps = self.ambientspace.eps
        self.properties = self.ambientspace.properties
        if self.ambientspace.feasibilityTests is not None:
            self.feasibilityTests = [(lambda x, f=f: f(self.lift(x))) for f in self.ambientspace.feasibilityTests]
            self.feasibilityTestNames = self.ambientspace.feasibilityTestNames[:]
            self.feasibilityTestDependencies = self.ambientspace.feasibilityTestDependencies[:]

    def liftPath(self, path):
        """A subspace path as ambient configurations."""
        return [self.lift(q) for q in path]

    def projectPath(self, path_amb):
        """An ambient path in subspace coordinates."""
        return [self.project(q) for q in path_amb]

    def feasible(self, x) -> bool:
        if self.cspace is not None and self.cspace.isNative():
            return self.cspace.isFeasible(x)
        return self.ambientspace.feasible(self.lift(x))

    def sample(self):
        return self.project(self.ambientspace.sample())


class EmbeddedCSpace(_Embedding):
    """The subspace of an ambient space where only the DOFs ``subset`` move;
    the others stay at ``xinit`` (default zeros).

    A :class:`MotionPlan` on it works in the subspace: :meth:`project` the
    endpoints and :meth:`lift` the path, or use :class:`EmbeddedMotionPlan`.

    Attributes:
        ambientspace (CSpace): the ambient space.
        mapping (list of int): the moving DOFs.
        xinit (list): the ambient configuration the others keep.
    """

    def __init__(self, ambientspace: CSpace, subset: List[int], xinit: Optional[Config] = None):
        _Embedding.__init__(self, ambientspace)
        n = len(ambientspace.sample())
        self.mapping = list(subset)
        self.xinit = [0.0] * n if xinit is None else list(xinit)
        self.bound = [self.ambientspace.bound[i] for i in self.mapping]

    def _make_native(self):
        offset = list(self.xinit)
        for i in self.mapping:
            offset[i] = 0.0
        native = _native_embedding(self, [(k, i, 1.0) for k, i in enumerate(self.mapping)], offset)
        return native if native is not None else CSpace._make_native(self)

    def project(self, xamb: Config) -> Config:
        """Ambient configuration -> subspace coordinates."""
        if len(xamb) != len(self.xinit):
            raise ValueError("Invalid length of ambient space vector: %d should be %d" % (len(xamb), len(self.xinit)))
        return [xamb[i] for i in self.mapping]

    def lift(self, xemb: Config) -> Config:
        """Subspace coordinates -> ambient configuration."""
        if len(xemb) != len(self.mapping):
            raise ValueError("Invalid length of embedded space vector: %d should be %d" % (len(xemb), len(self.mapping)))
        xamb = list(self.xinit)
        for k, i in enumerate(self.mapping):
            xamb[i] = xemb[k]
        return xamb

def _matrix_entries(A):
    """(row, column, value) of the nonzeros of a scipy sparse matrix, a numpy
    array or a list of {column: value} rows."""
    if hasattr(A, 'tocoo'):
        coo = A.tocoo()
        return [(int(i), int(j), float(v)) for i, j, v in zip(coo.row, coo.col, coo.data) if v != 0]
    if hasattr(A, 'shape'):
        import numpy as np
        return [(int(i), int(j), float(v)) for (i, j), v in np.ndenumerate(np.asarray(A)) if v != 0]
    return [(i, j, float(v)) for i, row in enumerate(A) for j, v in row.items() if v != 0]


class AffineEmbeddedCSpace(_Embedding):
    """The subspace of an ambient space given by x_amb = A x + b (A: a scipy
    sparse matrix, numpy array or list of {column: value} rows; b: default 0).

    Attributes:
        ambientspace (CSpace): the ambient space.
        A, b: the map; m, n: embedded and ambient dimensions.
    """

    def __init__(self, ambientspace: CSpace, A, b=None):
        _Embedding.__init__(self, ambientspace)
        n = len(ambientspace.sample())
        self.A = A
        if hasattr(A, 'shape'):
            if A.shape[0] != n:
                raise ValueError("Coefficient matrix must have n rows")
            m = A.shape[1]
        else:
            if len(A) != n:
                raise ValueError("Coefficient matrix must have n rows")
            m = 0
            for row in A:
                if not isinstance(row, dict):
                    raise ValueError("Coefficient matrix must be a list of dicts, numpy array, or scipy matrix")
                for j in row:
                    if j < 0:
                        raise ValueError("Invalid entry {} in coeffcient matrix".format(j))
                    m = max(m, j + 1)
            if m >= n:
                warnings.warn("Embedded space has more DOFs than ambient space?")
        self.m, self.n = m, n
        self.b = [0.0] * n if b is None else list(b)
        if len(self.b) != n:
            raise ValueError("Offset matrix must have n entries")
        self._entries = _matrix_entries(A)
        # The box each coordinate may take so that every ambient DOF it moves stays in bounds.
        inf = float('inf')
        self.bound = [[-inf, inf] for _ in range(m)]
        for i, j, v in self._entries:
            lo, hi = self.ambientspace.bound[i]
            a, c = (lo - self.b[i]) / v, (hi - self.b[i]) / v
            if a > c:
                a, c = c, a
            self.bound[j][0] = max(self.bound[j][0], a)
            self.bound[j][1] = min(self.bound[j][1], c)
        print("AffineEmbeddedCSpace projects from dimension", self.m, "to", self.n)

    @staticmethod
    def fromRobotDrivers(robot: RobotModel, ambientspace: CSpace, drivers=None) -> 'AffineEmbeddedCSpace':
        """The space of a robot's driver values (all drivers, or the listed
        indices / names): affine drivers move their links together."""
        if drivers is None:
            drivers = list(range(robot.numDrivers()))
        A = [dict() for _ in range(robot.numLinks())]
        b = [0.0] * robot.numLinks()
        for k, d in enumerate(drivers):
            dr = robot.driver(d)
            links = dr.getAffectedLinks()
            if dr.getType() != 'affine':
                A[links[0]][k] = 1.0
            else:
                scale, offset = dr.getAffineCoeffs()
                for j, s, o in zip(links, scale, offset):
                    A[j][k] = s
                    b[j] = o
        return AffineEmbeddedCSpace(ambientspace, A, b)

    def _make_native(self):
        native = _native_embedding(self, [(j, i, v) for i, j, v in self._entries], list(self.b))
        return native if native is not None else CSpace._make_native(self)

    def project(self, xamb: Config) -> Config:
        """Ambient configuration -> embedded coordinates (least squares)."""
        if len(xamb) != len(self.b):
            raise ValueError("Invalid length of ambient space vector: %d should be %d" % (len(xamb), len(self.b)))
        import numpy as np
        import scipy.sparse
        import scipy.sparse.linalg
        rows, cols, vals = zip(*self._entries) if self._entries else ((), (), ())
        A = scipy.sparse.csr_matrix((vals, (rows, cols)), shape=(self.n, self.m))
        xemb = scipy.sparse.linalg.lsqr(A, np.asarray(xamb, dtype=float) - np.asarray(self.b, dtype=float),
                                        atol=1e-14, btol=1e-14)[0]
        return [float(v) for v in xemb]

    def lift(self, xemb: Config) -> Config:
        """Embedded coordinates -> ambient configuration."""
        if len(xemb) != self.m:
            raise ValueError("Invalid length of embedded space vector: %d should be %d" % (len(xemb), self.m))
        xamb = list(self.b)
        for i, j, v in self._entries:
            xamb[i] += v * xemb[j]
        return xamb

def _lifted_goal(goal, lift, project):
    """A goal (configuration, test, or (test, sampler)) moved to the subspace."""
    if callable(goal):
        return lambda x: goal(lift(x))
    if hasattr(goal, '__iter__') and len(goal) == 2 and callable(goal[0]) and callable(goal[1]):
        test, sample = goal
        return [lambda x: test(lift(x)), lambda: project(sample())]
    return project(goal)


class SubsetMotionPlan(MotionPlan):
    """A plan in an :class:`EmbeddedCSpace` of DOFs ``subset`` that takes and
    returns configurations of the ambient space (the others at q0)."""

    def __init__(self, space, subset, q0, type=None, **options):
        MotionPlan.__init__(self, space, type, **options)
        self.subset = list(subset)
        self.q0 = list(q0)

    def project(self, xamb):
        """Ambient configuration -> subspace coordinates."""
        if len(xamb) != len(self.q0):
            raise ValueError("Invalid length of ambient space vector: %d should be %d" % (len(xamb), len(self.q0)))
        return [xamb[i] for i in self.subset]

    def lift(self, xemb):
        """Subspace coordinates -> ambient configuration."""
        if len(xemb) != len(self.subset):
            raise ValueError("Invalid length of embedded space vector: %d should be %d" % (len(xemb), len(self.subset)))
        xamb = list(self.q0)
        for k, i in enumerate(self.subset):
            xamb[i] = xemb[k]
        return xamb

    def setEndpoints(self, start, goal):
        """Ambient start and goal (configuration, test or (test, sampler))."""
        MotionPlan.setEndpoints(self, self.project(start), _lifted_goal(goal, self.lift, self.project))

    def addMilestone(self, x):
        """Adds an ambient configuration as a milestone; its index."""
        return MotionPlan.addMilestone(self, self.project(x))

    def getPath(self, milestone1=None, milestone2=None):
        """The path as ambient configurations, or None."""
        path = MotionPlan.getPath(self, milestone1, milestone2)
        return None if path is None else [self.lift(q) for q in path]

    def getRoadmap(self):
        """The roadmap with ambient configurations."""
        V, E = MotionPlan.getRoadmap(self)
        return [self.lift(v) for v in V], E


class EmbeddedMotionPlan(MotionPlan):
    """A plan in an :class:`EmbeddedCSpace` or :class:`AffineEmbeddedCSpace`
    (or any space with ``project`` and ``lift``) that takes and returns
    ambient configurations."""

    def __init__(self, space: Union[EmbeddedCSpace, AffineEmbeddedCSpace], q0: Config, type=None, **options):
        if not isinstance(space, (EmbeddedCSpace, AffineEmbeddedCSpace)):
            if not hasattr(space, 'project') or not hasattr(space, 'lift'):
                raise ValueError("space argument must have the project and lift methods")
            warnings.warn("EmbeddedMotionPlan has not been tested with classes other than EmbeddedCSpace and AffineEmbeddedCSpace")
        MotionPlan.__init__(self, space, type, **options)

    def setEndpoints(self, start, goal):
        """Ambient start and goal (configuration, test or (test, sampler))."""
        MotionPlan.setEndpoints(self, self.space.project(start), _lifted_goal(goal, self.space.lift, self.space.project))

    def addMilestone(self, x):
        """Adds an ambient configuration as a milestone; its index."""
        return MotionPlan.addMilestone(self, self.space.project(x))

    def getPath(self, milestone1=None, milestone2=None):
        """The path as ambient configurations, or None."""
        path = MotionPlan.getPath(self, milestone1, milestone2)
        return None if path is None else [self.space.lift(q) for q in path]

    def getRoadmap(self):
        """The roadmap with ambient configurations."""
        V, E = MotionPlan.getRoadmap(self)
        return [self.space.lift(v) for v in V], E

    def setCostFunction(self, edgeCost=None, terminalCost=None):
        """Costs given on ambient configurations."""
        lift = self.space.lift
        MotionPlan.setCostFunction(self, None if edgeCost is None else (lambda a, b: edgeCost(lift(a), lift(b))),
                                   None if terminalCost is None else (lambda a: terminalCost(lift(a))))

    def pathCost(self, p):
        """The cost of an ambient path."""
        return MotionPlan.pathCost(self, [self.space.project(x) for x in p])
