"""Configuration spaces defined in Python (:class:`CSpace`) and motion plans
in them (:class:`MotionPlan`), over the native planners of
:mod:`klampt.plan.motionplanning`.

A space needs a feasibility test (override :meth:`CSpace.feasible` or call
:meth:`CSpace.addFeasibilityTest`), a sampling domain (``bound``, or
override :meth:`CSpace.sample`) and an edge resolution ``eps``; optionally
``visible``, ``distance``, ``interpolate`` and ``sampleneighborhood``
methods, and ``properties`` that planners read (``euclidean``, ``geodesic``,
``volume``, ``minimum``, ``maximum``, ``metricWeights``, ...).

Example (a point in the unit square avoiding a disc)::

    class Circle(CSpace):
        def __init__(self):
            CSpace.__init__(self)
            self.bound = [(0, 1), (0, 1)]
            self.eps = 1e-3
        def feasible(self, q):
            return CSpace.feasible(self, q) and math.hypot(q[0] - 0.5, q[1] - 0.5) > 0.36

    plan = MotionPlan(Circle(), type='prm', knn=10, connectionThreshold=0.1)
    plan.setEndpoints([0.06, 0.5], [0.94, 0.5])
    plan.planMore(100)
    path = plan.getPath()
"""
import math
import random
import warnings
from typing import Callable, List, Optional, Sequence, Tuple, Union

from . import motionplanning

Config = List[float]


class CSpace:
    """A configuration space for :class:`MotionPlan`.

    Attributes:
        bound (list of pairs): sampling box ``[(lo, hi), ...]``.
        properties (dict): hints for planners (see the module docstring).
        cspace (CSpaceInterface): the native space, made by :meth:`setup`.
        feasibilityTests, feasibilityTestNames, feasibilityTestDependencies:
            the tests added by :meth:`addFeasibilityTest` (None until then).
    """

    def __init__(self):
        self.cspace = None
        self.feasibilityTests = None
        self.feasibilityTestNames = None
        self.feasibilityTestDependencies = None
        self.eps = 1e-3
        self.bound = [(0, 1)]
        self.properties = {}

    @property
    def eps(self) -> float:
        """Edge-check resolution (float) in the units of :meth:`distance`.
        Once :meth:`setup` made the native space, setting it updates the
        native space too."""
        return self._eps

    @eps.setter
    def eps(self, value: float) -> None:
        self._eps = value
        native = self.__dict__.get('cspace')
        # A space with its own visible() test has no use for eps.
        if native is not None and native.index >= 0 and not hasattr(self, 'visible'):
            native.setVisibilityEpsilon(value)

    def setBounds(self, bound: Sequence[Tuple[float, float]]) -> None:
        """Sets the sampling box and the ``minimum``, ``maximum`` and
        ``volume`` properties (axes of zero width are left out of the volume)."""
        self.bound = bound
        self.properties["minimum"] = [b[0] for b in bound]
        self.properties["maximum"] = [b[1] for b in bound]
        volume = 1
        for lo, hi in bound:
            if lo != hi:
                volume *= hi - lo
        self.properties["volume"] = volume

    def close(self) -> None:
        """Frees the native space (motionplanning.destroy() frees all)."""
        if self.cspace is not None:
            self.cspace.destroy()
            self.cspace = None

    def _make_native(self):
        """The native space :meth:`setup` fills with this object's callbacks."""
        return motionplanning.CSpaceInterface()

    def setup(self, reinit: bool = False) -> None:
        """Builds the native space from this object's tests and callbacks
        (MotionPlan calls it). Called again without ``reinit``, it warns that
        the previous native space is thrown away."""
        if self.cspace is not None:
            if not reinit:
                warnings.warn("CSpace.setup(): Performance warning, called twice, destroying previous CSpaceInterface object")
            self.cspace.destroy()
            self.cspace = None
        native = self._make_native()
        if native.isNative():
            # The native space has its tests (and the extra Python ones) already.
            native.setVisibilityEpsilon(self.eps)
        else:
            if self.feasibilityTests is not None:
                for name, test in zip(self.feasibilityTestNames, self.feasibilityTests):
                    native.addFeasibilityTest(name, test)
                native.enableAdaptiveQueries()
                for name, preceding in self.feasibilityTestDependencies:
                    native.setFeasibilityDependency(name, preceding)
            else:
                native.setFeasibility(self.feasible)
            if hasattr(self, 'visible'):
                native.setVisibility(self.visible)
            else:
                native.setVisibilityEpsilon(self.eps)
            native.setSampler(self.sample)
            native.setNeighborhoodSampler(self.sampleneighborhood)
            if hasattr(self, 'distance'):
                native.setDistance(self.distance)
            if hasattr(self, 'interpolate'):
                native.setInterpolate(self.interpolate)
        for key, value in self.properties.items():
            if isinstance(value, (list, tuple)):
                native.setProperty(key, " ".join(str(v) for v in value))
            else:
                native.setProperty(key, str(value))
        self.cspace = native

    def sample(self) -> Config:
        """A uniform sample of ``bound`` (Python's ``random``); override for
        other domains."""
        return [random.uniform(lo, hi) for lo, hi in self.bound]

    def sampleneighborhood(self, c: Config, r: float) -> Config:
        """A uniform sample of the box of half-width r around c, clamped to ``bound``."""
        return [random.uniform(max(lo, ci - r), min(hi, ci + r)) for ci, (lo, hi) in zip(c, self.bound)]

    def addFeasibilityTest(self, func: Callable, name: Optional[str] = None,
                           dependencies: Optional[Union[str, List[str]]] = None) -> None:
        """Adds a test ``func(x) -> bool`` (named ``test_<i>`` by default) that
        must pass; ``dependencies`` names tests that must run before it."""
        if self.feasibilityTests is None:
            self.feasibilityTests = []
            self.feasibilityTestNames = []
            self.feasibilityTestDependencies = []
        assert name is None or isinstance(name, str), "Name argument 'name' must be a string"
        assert callable(func), "Feasibility test 'func' must be a callable object"
        self.feasibilityTests.append(func)
        if name is None:
            name = "test_" + str(len(self.feasibilityTests) - 1)
        self.feasibilityTestNames.append(name)
        if dependencies is not None:
            for d in (dependencies if isinstance(dependencies, (list, tuple)) else [dependencies]):
                self.feasibilityTestDependencies.append((name, d))

    def inBounds(self, x: Config) -> bool:
        """Whether x is within ``bound``."""
        return all(lo <= xi <= hi for xi, (lo, hi) in zip(x, self.bound))

    def feasible(self, x: Config) -> bool:
        """Override with the feasibility test. By default: every added test,
        or just :meth:`inBounds` if none was added."""
        if self.feasibilityTests is None:
            return self.inBounds(x)
        return all(test(x) for test in self.feasibilityTests)

    def isFeasible(self, x: Config) -> bool:
        """Feasibility through the native space (counted in :meth:`getStats`)."""
        return self.cspace.isFeasible(x)

    def isVisible(self, x: Config, y: Config) -> bool:
        """Whether the edge from x to y is feasible, through the native space."""
        return self.cspace.isVisible(x, y)

    def getStats(self) -> dict:
        """Query statistics of the native space (string values); {} before setup."""
        if self.cspace is None:
            return {}
        return self.cspace.getStats()


class MotionPlan:
    """A planner on a :class:`CSpace`.

    The type and options go to the module-global planner factory (they
    persist to later plans, as in Klamp't) before the planner is made:
    ``MotionPlan(space, 'rrt', perturbationRadius=0.1)``. Types: prm, rrt, sbl,
    sblprt, rrt*, prm*, lazyprm*, lazyrrg*, fmm, fmm*, any.

    Attributes:
        space (CSpace): the space.
        planOptions (str): the factory settings used, as a JSON string.
        planner (PlannerInterface): the native planner.
        edgeCost, terminalCost: the cost functions set by :meth:`setCostFunction`.
    """

    def __init__(self, space: CSpace, type: Optional[str] = None, **options):
        if space.cspace is None:
            space.setup()
        if type is not None:
            motionplanning.set_plan_type(type)
        if options:
            MotionPlan.setOptions(**options)
        self.space = space
        self.planOptions = motionplanning.get_plan_json_string()
        self.planner = motionplanning.PlannerInterface(space.cspace)
        self.edgeCost = None
        self.terminalCost = None

    def close(self) -> None:
        """Frees the native planner."""
        self.planner.destroy()

    @staticmethod
    def setOptions(**opts) -> None:
        """Sets factory settings for the planners created next: ``type``, and
        knn, connectionThreshold, perturbationRadius, bidirectional, grid,
        gridResolution, suboptimalityFactor, randomizeFrequency, shortcut,
        restart, ignoreConnectedComponents (numbers), pointLocation,
        restartTermCond (strings). RuntimeError for an unknown setting."""
        for key, value in list(opts.items()):
            if key == 'type':
                motionplanning.set_plan_type(str(value))
            elif isinstance(value, str):
                motionplanning.set_plan_setting(key, value)
            else:
                motionplanning.set_plan_setting(key, float(value))

    def setEndpoints(self, start: Config, goal) -> None:
        """Sets the start and the goal: a configuration, a test ``f(q) -> bool``
        of a goal set, or a ``(test, sampler)`` pair."""
        if callable(goal):
            self.planner.setEndpointSet(start, goal)
        elif len(goal) == 2 and callable(goal[0]):
            self.planner.setEndpointSet(start, goal[0], goal[1])
        else:
            self.planner.setEndpoints(start, goal)

    def setCostFunction(self, edgeCost: Optional[Callable] = None, terminalCost: Optional[Callable] = None) -> None:
        """Sets the path cost: sum of ``edgeCost(a, b)`` over edges plus
        ``terminalCost(last)``. Some planners cannot take costs (RuntimeError)."""
        if edgeCost is not None and not callable(edgeCost):
            raise TypeError("Need to pass a function into setCostFunction")
        if terminalCost is not None and not callable(terminalCost):
            raise TypeError("Need to pass a function into setCostFunction")
        self.edgeCost = edgeCost
        self.terminalCost = terminalCost
        self.planner.setCostFunction(edgeCost, terminalCost)

    def addMilestone(self, x: Config) -> int:
        """Adds a milestone (multi-query planners); its index."""
        return self.planner.addMilestone(x)

    def getClosestMilestone(self, x: Config) -> int:
        """The index of the milestone nearest to x."""
        return self.planner.getClosestMilestone(x)

    def planMore(self, iterations: int) -> None:
        """Runs that many planning iterations."""
        self.planner.planMore(iterations)

    def getPath(self, milestone1: Optional[int] = None, milestone2=None) -> Optional[List[Config]]:
        """The solution path (no arguments), or the path between two
        milestones (milestone2 may be a list: the best path to any of them);
        None if there is none yet. Between milestones, move with the space's
        ``interpolate`` for non-Euclidean spaces."""
        if milestone1 is None and milestone2 is None:
            return self.planner.getSolutionPath()
        return self.planner.getPath(milestone1, milestone2)

    def getRoadmap(self) -> Tuple[List[Config], List[Tuple[int, int]]]:
        """(V, E): the roadmap's configurations and (i, j) edges."""
        return self.planner.getRoadmap()

    def getStats(self) -> dict:
        """Planner statistics (string values)."""
        return self.planner.getStats()

    def pathCost(self, path: List[Config]) -> float:
        """The cost of a path: the cost functions if set, else its length."""
        c = 0.0 if self.terminalCost is None else self.terminalCost(path[-1])
        for a, b in zip(path[:-1], path[1:]):
            c += self.space.cspace.distance(a, b) if self.edgeCost is None else self.edgeCost(a, b)
        return c


OPTIMIZING_PLANNERS = {'fmm*', 'rrt*', 'prm*', 'lazyprm*', 'lazyrrg*'}
"""Planners that keep improving their path by themselves (goal sets,
restarts and shortcutting also optimize)."""
COST_ACCEPTING_PLANNERS = {'prm', 'rrt', 'rrt*', 'prm*', 'lazyprm*', 'lazyrrg*'}
"""Planners that accept cost functions (goal sets, restarts and shortcutting
do too)."""
optimizingPlanners = OPTIMIZING_PLANNERS
costAcceptingPlanners = COST_ACCEPTING_PLANNERS


def configurePlanner(*args, **kwargs):
    """Deprecated: use :func:`configure_planner`."""
    warnings.warn("configurePlanner will be renamed configure_planner in a future version of Klampt", DeprecationWarning)
    return configure_planner(*args, **kwargs)


def configure_planner(space: CSpace, start: Config, goal, edgeCost: Optional[Callable] = None,
                      terminalCost: Optional[Callable] = None, optimizing: bool = True, type: str = 'auto',
                      stepsize: Optional[float] = None, knn: int = 10, shortcut='auto', restart='auto',
                      restartIters: int = 1000, pointLocation='auto', **otherSettings) -> Tuple[MotionPlan, dict]:
    """Makes a :class:`MotionPlan` with settings suited to the space and the
    problem, and sets its endpoints (and costs).

    Args:
        space, start, goal: as :meth:`MotionPlan.setEndpoints`.
        edgeCost, terminalCost: as :meth:`MotionPlan.setCostFunction`.
        optimizing: whether the path will be improved after the first one.
        type: planner type; 'auto' is sbl, or prm with an edge cost.
        stepsize: perturbation radius / grid resolution; default a tenth of
            the diagonal of the finite part of ``space.bound``.
        knn: prm's neighbour count.
        shortcut, restart: default to ``optimizing``.
        restartIters: iterations per restart round.
        pointLocation: 'kdtree' for Cartesian spaces, else 'balltree'.
        otherSettings: more factory settings, overriding these.

    Returns:
        (MotionPlan, dict): the plan and the settings used.
    """
    if type == 'auto':
        type = "prm" if edgeCost is not None else "sbl"
    if stepsize is None:
        widths = [hi - lo for lo, hi in space.bound if not math.isinf(lo) and not math.isinf(hi)]
        stepsize = 0.1 * math.sqrt(sum(w * w for w in widths))
    if shortcut == 'auto':
        shortcut = optimizing
    if restart == 'auto':
        restart = optimizing
    cartesian = (not hasattr(space, 'interpolate') or space.properties.get('euclidean', 0)
                 or space.properties.get('cartesian', 0))
    infinite = any(math.isinf(lo) or math.isinf(hi) for lo, hi in space.bound)
    if pointLocation == 'auto':
        pointLocation = 'kdtree' if cartesian else 'balltree'
    restartTermCond = "{foundSolution:1,maxIters:%d}" % (restartIters,)
    isgoalset = callable(goal) or callable(goal[0])
    optimizingPlanner = (type in OPTIMIZING_PLANNERS) or shortcut or restart or isgoalset
    if optimizingPlanner != optimizing:
        warnings.warn("Returned planner is %soptimizing but requested a %soptimizing planner" %
                      ('' if optimizingPlanner else 'not ', '' if optimizing else 'not '))
    if (edgeCost is not None or terminalCost is not None) and not shortcut and not restart \
            and type not in COST_ACCEPTING_PLANNERS:
        warnings.warn("Planner %s does not accept cost functions" % (type,))
    if isgoalset and type in ('prm*', 'rrt*', 'lazyprm*', 'lazyrrg*'):
        warnings.warn("Planner {} is fairly inefficient when the goal is a set... have not implemented multi-goal versions".format(type))

    args = {'type': type}
    if type == "prm":
        args.update(knn=knn, connectionThreshold=stepsize, pointLocation=pointLocation)
        if edgeCost is not None:
            args['ignoreConnectedComponents'] = True
    elif type in ('fmm', 'fmm*'):
        args['gridResolution'] = stepsize
        if not cartesian:
            warnings.warn("Planner {} does not support the topology of non-Cartesian spaces".format(type))
        if infinite:
            raise ValueError("Cannot use planner " + type + " with infinite spaces")
    elif type == 'rrt':
        args.update(bidirectional=True, perturbationRadius=stepsize, pointLocation=pointLocation, shortcut=shortcut,
                    restart=restart)
    elif type == 'sbl':
        args.update(perturbationRadius=stepsize, gridResolution=stepsize, shortcut=shortcut, restart=restart)
    elif type in ('rrt*', 'prm*', 'lazyprm*', 'lazyrrg*'):
        args['pointLocation'] = pointLocation
    if 'restart' in args:
        args['restartTermCond'] = restartTermCond
    args.update(otherSettings)

    MotionPlan.setOptions(**args)
    plan = MotionPlan(space)

    if not space.isFeasible(start):
        warnings.warn("Start configuration fails constraints {}".format(space.cspace.feasibilityFailures(start)))
    if hasattr(goal, '__iter__'):
        if not callable(goal[0]):
            if not space.isFeasible(goal):
                warnings.warn("Goal configuration fails constraints {}".format(space.cspace.feasibilityFailures(goal)))
        else:
            if not callable(goal[1]):
                raise TypeError("goal sampler is not callable")
            try:
                goal[0](start)
            except Exception:
                warnings.warn("Goal test doesn't seem to work properly")
            try:
                if len(goal[1]()) != len(start):
                    warnings.warn("Goal sampler doesn't seem to produce a properly-sized object")
            except Exception:
                warnings.warn("Goal sampler doesn't seem to work properly")
    else:
        if not callable(goal):
            raise TypeError("goal is not a configuration or callable")
        try:
            goal(start)
        except Exception:
            warnings.warn("Goal test doesn't seem to work properly")
    plan.setEndpoints(start, goal)
    if edgeCost or terminalCost:
        plan.setCostFunction(edgeCost, terminalCost)
    return plan, args
