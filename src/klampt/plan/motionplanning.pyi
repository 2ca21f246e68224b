"""
Motion planning: C-spaces, planners and time scaling (klampt.plan).
"""
from __future__ import annotations
import collections.abc
import klampt._robotsim
import numpy
import typing
__all__: list[str] = ['CSpaceInterface', 'PlannerInterface', 'brake_1d', 'brake_nd', 'combine_nd_cubic', 'destroy', 'get_plan_json_string', 'interpolate_1d_min_accel', 'interpolate_1d_min_time', 'interpolate_nd_min_accel', 'interpolate_nd_min_time', 'interpolate_nd_min_time_linear', 'robot_cspace', 'set_plan_json_string', 'set_plan_setting', 'set_plan_type', 'set_random_seed']
class CSpaceInterface:
    """
    A configuration space for the planners: Python callbacks (feasibility tests, edge
    tests, sampler, distance, interpolation) or a native robot space
    (motionplanning.robot_cspace). klampt.plan.cspace.CSpace is easier to use.
    """
    @typing.overload
    def __init__(self) -> None:
        """
        A new, empty callback space.
        """
    @typing.overload
    def __init__(self, other: CSpaceInterface) -> None:
        """
        A copy of another space's callbacks and settings (a native space is shared).
        """
    def adaptiveQueriesEnabled(self) -> bool:
        """
        Whether test statistics and ordering are on.
        """
    def addFeasibilityTest(self, name: str, pyFeas: collections.abc.Callable[[list[float]], bool]) -> None:
        """
        Adds a named feasibility test f(q) -> bool; every test must pass. On a native robot
        space it runs after the native tests.
        """
    def addVisibilityTest(self, name: str, pyVisible: collections.abc.Callable[[list[float], list[float]], bool]) -> None:
        """
        Adds a named edge test f(a, b) -> bool.
        """
    def clearance(self, x: collections.abc.Sequence[float] | numpy.ndarray) -> float:
        """
        Distance from the robot at x to the tested bodies (and half the gap of its self pairs),
        minus the collision margin; negative when colliding (native robot spaces).
        """
    def destroy(self) -> None:
        """
        Frees the space; later calls raise RuntimeError.
        """
    def distance(self, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray) -> float:
        """
        The distance between two configurations.
        """
    def enableAdaptiveQueries(self, enabled: bool = True) -> None:
        """
        Keeps per-test statistics and runs cheap, often-failing tests first.
        """
    def feasibilityCost(self, name: str) -> float:
        """
        The measured mean time of a test (s).
        """
    def feasibilityFailures(self, q: collections.abc.Sequence[float] | numpy.ndarray) -> list[str]:
        """
        Names of the tests q fails.
        """
    def feasibilityProbability(self, name: str) -> float:
        """
        The measured pass rate of a test.
        """
    def feasibilityQueryOrder(self) -> list[str]:
        """
        The feasibility tests in the order they run.
        """
    def getProperty(self, key: str) -> str:
        """
        A property's value; RuntimeError if it is not set.
        """
    def getStats(self) -> dict[str, str]:
        """
        Query statistics (values are strings): feasible_/visible_ count, probability, time, ...
        """
    def getVisibilityEpsilon(self) -> float:
        """
        The edge-check resolution.
        """
    def interpolate(self, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray, u: typing.SupportsFloat | typing.SupportsIndex) -> list[float]:
        """
        The configuration u of the way from a to b.
        """
    def isFeasible(self, q: collections.abc.Sequence[float] | numpy.ndarray) -> bool:
        """
        Whether q passes every feasibility test.
        """
    def isNative(self) -> bool:
        """
        Whether this is a native robot space.
        """
    def isVisible(self, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray) -> bool:
        """
        Whether the edge from a to b is feasible.
        """
    def lift(self, x: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        The robot configuration of coordinates x (native robot spaces).
        """
    def optimizeQueryOrder(self) -> None:
        """
        Re-orders the tests by their measured cost and failure rate.
        """
    def project(self, q: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        The coordinates of robot configuration q (native robot spaces).
        """
    def sample(self) -> list[float]:
        """
        A sample configuration.
        """
    def setDistance(self, pyDist: collections.abc.Callable[[list[float], list[float]], float]) -> None:
        """
        Sets the metric f(a, b) -> float.
        """
    def setFeasibility(self, pyFeas: collections.abc.Callable[[list[float]], bool]) -> None:
        """
        Sets a single feasibility test f(q) -> bool (named "feasible").
        """
    def setFeasibilityDependency(self, name: str, precedingTest: str) -> None:
        """
        Test `name` must run after `precedingTest`.
        """
    def setFeasibilityPrior(self, name: str, costPrior: typing.SupportsFloat | typing.SupportsIndex = 0.0, feasibilityProbability: typing.SupportsFloat | typing.SupportsIndex = 0.0, evidenceStrength: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        Resets a test's statistics to a prior.
        """
    def setInterpolate(self, pyInterp: collections.abc.Callable[[list[float], list[float], float], collections.abc.Sequence[float]]) -> None:
        """
        Sets the interpolation f(a, b, u) -> configuration.
        """
    def setNeighborhoodSampler(self, pySamp: collections.abc.Callable[[list[float], float], collections.abc.Sequence[float]]) -> None:
        """
        Sets the neighbourhood sampler f(c, r) -> configuration.
        """
    def setProperty(self, key: str, value: str) -> None:
        """
        Sets a property (euclidean, geodesic, volume, minimum, maximum, ...).
        """
    def setSampler(self, pySamp: collections.abc.Callable[[], collections.abc.Sequence[float]]) -> None:
        """
        Sets the sampler f() -> configuration.
        """
    def setVisibility(self, pyVisible: collections.abc.Callable[[list[float], list[float]], bool]) -> None:
        """
        Sets the edge test f(a, b) -> bool, replacing the bisection check.
        """
    def setVisibilityDependency(self, name: str, precedingTest: str) -> None:
        """
        Edge test `name` must run after `precedingTest`.
        """
    def setVisibilityEpsilon(self, eps: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Checks edges by bisection until the pieces are shorter than eps (> 0).
        """
    def setVisibilityPrior(self, name: str, costPrior: typing.SupportsFloat | typing.SupportsIndex = 0.0, visibilityProbability: typing.SupportsFloat | typing.SupportsIndex = 0.0, evidenceStrength: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        Resets an edge test's statistics to a prior.
        """
    def testFeasibility(self, name: str, q: collections.abc.Sequence[float] | numpy.ndarray) -> bool:
        """
        Whether q passes the named test.
        """
    def testVisibility(self, name: str, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray) -> bool:
        """
        Whether the edge passes the named test.
        """
    def visibilityCost(self, name: str) -> float:
        """
        The measured mean time of an edge test (s).
        """
    def visibilityFailures(self, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray) -> list[str]:
        """
        Names of the edge tests the edge fails.
        """
    def visibilityProbability(self, name: str) -> float:
        """
        The measured pass rate of an edge test.
        """
    def visibilityQueryOrder(self) -> list[str]:
        """
        The edge tests in the order they run.
        """
    @property
    def collisionMargin(self) -> float:
        """
        Distances to other bodies below this (m) count as collisions (native robot spaces).
        """
    @collisionMargin.setter
    def collisionMargin(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def index(self) -> int:
        """
        The space's number (-1 once destroyed).
        """
class PlannerInterface:
    """
    A motion planner on a CSpaceInterface, of the type and settings the module's
    factory holds when it is created (set_plan_type, set_plan_setting).
    klampt.plan.cspace.MotionPlan is easier to use.
    """
    def __init__(self, cspace: CSpaceInterface) -> None:
        """
        Raises ValueError for an unknown planner type.
        """
    def addMilestone(self, milestone: collections.abc.Sequence[float] | numpy.ndarray) -> int:
        """
        Adds a milestone; its index, or -1 if infeasible.
        """
    def destroy(self) -> None:
        """
        Frees the planner; later calls raise RuntimeError.
        """
    def dump(self, fn: str) -> None:
        """
        Saves the roadmap in Trivial Graph Format (node labels are configurations).
        """
    def getClosestMilestone(self, config: collections.abc.Sequence[float] | numpy.ndarray) -> int:
        """
        Index of the milestone nearest to config.
        """
    def getData(self, setting: str) -> float:
        """
        "iterations", "milestones" or "components".
        """
    def getMilestone(self, arg2: typing.SupportsInt | typing.SupportsIndex) -> list[float]:
        """
        The configuration of milestone i.
        """
    @typing.overload
    def getPath(self, milestone1: typing.SupportsInt | typing.SupportsIndex, milestone2: typing.SupportsInt | typing.SupportsIndex) -> list[list[float]] | None:
        """
        The path between two milestones, or None if not connected.
        """
    @typing.overload
    def getPath(self, milestone1: typing.SupportsInt | typing.SupportsIndex, goalMilestones: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> list[list[float]] | None:
        """
        The cheapest path to any of the goal milestones, or None.
        """
    def getRoadmap(self) -> tuple[list[list[float]], list[tuple[int, int]]]:
        """
        (V, E): the roadmap's configurations and (i, j) edges.
        """
    def getSolutionPath(self) -> list[list[float]] | None:
        """
        The solution path (list of configurations), or None until solved.
        """
    def getStats(self) -> dict[str, str]:
        """
        Planner statistics (values are strings): numIters, numMilestones, numComponents, ...
        """
    def isSolved(self) -> bool:
        """
        Whether a solution was found.
        """
    def planMore(self, iterations: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Runs that many iterations (on a native robot space without the interpreter lock; an
        exception raised in a Python callback stops planning and is raised here).
        """
    def setCostFunction(self, edgeCost: collections.abc.Callable[[list[float], list[float]], float] | None = None, terminalCost: collections.abc.Callable[[list[float]], float] | None = None) -> None:
        """
        Path cost: sum of edgeCost(a, b) (default: distance) plus terminalCost(last).
        """
    def setEndpointSet(self, start: collections.abc.Sequence[float] | numpy.ndarray, goal: collections.abc.Callable[[list[float]], bool], goalSample: collections.abc.Callable[[], collections.abc.Sequence[float]] | None = None) -> bool:
        """
        A start and a goal set: goal(q) -> bool tests membership, goalSample() -> q draws
        candidates (else the space's sampler is used).
        """
    def setEndpoints(self, start: collections.abc.Sequence[float] | numpy.ndarray, goal: collections.abc.Sequence[float] | numpy.ndarray) -> bool:
        """
        Point-to-point endpoints (milestones 0 and 1). RuntimeError if either is infeasible
        (naming the failed tests) or endpoints were already set.
        """
    @property
    def index(self) -> int:
        """
        The plan's number (-1 once destroyed).
        """
    @property
    def spaceIndex(self) -> int:
        """
        The index of its space.
        """
def brake_1d(x0: typing.SupportsFloat | typing.SupportsIndex, v0: typing.SupportsFloat | typing.SupportsIndex, amax: typing.SupportsFloat | typing.SupportsIndex) -> tuple:
    """
    Stopping from (x0, v0) at full deceleration amax, as (times, positions, velocities).
    """
def brake_nd(x0: collections.abc.Sequence[float] | numpy.ndarray, v0: collections.abc.Sequence[float] | numpy.ndarray, xmin: collections.abc.Sequence[float] | numpy.ndarray, xmax: collections.abc.Sequence[float] | numpy.ndarray, amax: collections.abc.Sequence[float] | numpy.ndarray) -> tuple:
    """
    Stopping every DOF together in the least time the slowest needs, each decelerating uniformly:
    one knot list per DOF. The limits are not enforced (a stop cannot be made shorter).
    """
def combine_nd_cubic(times: collections.abc.Sequence[collections.abc.Sequence[float]], positions: collections.abc.Sequence[collections.abc.Sequence[float]], velocities: collections.abc.Sequence[collections.abc.Sequence[float]]) -> tuple:
    """
    Merges per-DOF knot lists (as interpolate_nd_min_time returns) into one time grid:
    (times, configurations, velocities), cubic Hermite between each DOF's knots.
    """
def destroy() -> None:
    """
    Frees every space and planner; their handles then raise RuntimeError.
    """
def get_plan_json_string() -> str:
    """
    The factory settings as the reference's JSON string (bare inf).
    """
def interpolate_1d_min_accel(x0: typing.SupportsFloat | typing.SupportsIndex, v0: typing.SupportsFloat | typing.SupportsIndex, x1: typing.SupportsFloat | typing.SupportsIndex, v1: typing.SupportsFloat | typing.SupportsIndex, endTime: typing.SupportsFloat | typing.SupportsIndex, xmin: typing.SupportsFloat | typing.SupportsIndex, xmax: typing.SupportsFloat | typing.SupportsIndex, vmax: typing.SupportsFloat | typing.SupportsIndex) -> tuple:
    """
    The move of least acceleration from (x0, v0) to (x1, v1) taking exactly endTime, as (times,
    positions, velocities); empty lists if none exists within the bounds.
    """
def interpolate_1d_min_time(x0: typing.SupportsFloat | typing.SupportsIndex, v0: typing.SupportsFloat | typing.SupportsIndex, x1: typing.SupportsFloat | typing.SupportsIndex, v1: typing.SupportsFloat | typing.SupportsIndex, xmin: typing.SupportsFloat | typing.SupportsIndex, xmax: typing.SupportsFloat | typing.SupportsIndex, vmax: typing.SupportsFloat | typing.SupportsIndex, amax: typing.SupportsFloat | typing.SupportsIndex) -> tuple:
    """
    The fastest move from (x0, v0) to (x1, v1) with |v| <= vmax, |a| <= amax within [xmin, xmax], as
    (times, positions, velocities) at the phase boundaries. Empty lists if the start cannot brake
    before a limit; RuntimeError if x1 is outside the limits. amax = inf moves at constant velocity.
    """
def interpolate_nd_min_accel(x0: collections.abc.Sequence[float] | numpy.ndarray, v0: collections.abc.Sequence[float] | numpy.ndarray, x1: collections.abc.Sequence[float] | numpy.ndarray, v1: collections.abc.Sequence[float] | numpy.ndarray, endTime: typing.SupportsFloat | typing.SupportsIndex, xmin: collections.abc.Sequence[float] | numpy.ndarray, xmax: collections.abc.Sequence[float] | numpy.ndarray, vmax: collections.abc.Sequence[float] | numpy.ndarray) -> tuple:
    """
    The least-acceleration n-D move lasting endTime: one knot list per DOF; empty lists if some DOF
    has no such move.
    """
def interpolate_nd_min_time(x0: collections.abc.Sequence[float] | numpy.ndarray, v0: collections.abc.Sequence[float] | numpy.ndarray, x1: collections.abc.Sequence[float] | numpy.ndarray, v1: collections.abc.Sequence[float] | numpy.ndarray, xmin: collections.abc.Sequence[float] | numpy.ndarray, xmax: collections.abc.Sequence[float] | numpy.ndarray, vmax: collections.abc.Sequence[float] | numpy.ndarray, amax: collections.abc.Sequence[float] | numpy.ndarray) -> tuple:
    """
    The fastest synchronized n-D move: one (times, positions, velocities) knot list per DOF, all
    ending at the slowest DOF's time. Empty lists if some DOF cannot stay within its limits.
    """
def interpolate_nd_min_time_linear(x0: collections.abc.Sequence[float] | numpy.ndarray, x1: collections.abc.Sequence[float] | numpy.ndarray, vmax: collections.abc.Sequence[float] | numpy.ndarray, amax: collections.abc.Sequence[float] | numpy.ndarray) -> tuple:
    """
    The fastest rest-to-rest move along the straight segment from x0 to x1, as (times,
    configurations, velocities).
    """
def robot_cspace(robot: klampt._robotsim.RobotModel, offset: collections.abc.Sequence[float] | numpy.ndarray, terms: collections.abc.Sequence[tuple], pairs: collections.abc.Sequence[tuple], collider: bool = True, collisionMargin: typing.SupportsFloat | typing.SupportsIndex = 0.0, edgeCheck: str = 'bisection', eps: typing.SupportsFloat | typing.SupportsIndex = 0.01) -> CSpaceInterface:
    """
    A native C-space for `robot`: coordinates x map to q = offset + A x, with `terms`
    (coordinate, link, scale) giving A; `pairs` (link, 'terrain'|'object'|'robot', index,
    otherLink) are the link-body pairs to test; self collision follows the robot's
    self-collision pairs. It copies the robot's kinematic state and never changes the robot.
    klampt.plan.robotcspace builds these for RobotCSpace and its embeddings.
    """
def set_plan_json_string(string: str) -> None:
    """
    Loads the factory settings from a JSON string (bare inf allowed; "type" required).
    """
@typing.overload
def set_plan_setting(setting: str, value: typing.SupportsFloat | typing.SupportsIndex) -> None:
    """
    Sets a numeric setting of the planners created next: knn, connectionThreshold,
    perturbationRadius, bidirectional, grid, gridResolution, suboptimalityFactor,
    ignoreConnectedComponents, randomizeFrequency, shortcut, restart.
    """
@typing.overload
def set_plan_setting(setting: str, value: str) -> None:
    """
    Sets a string setting: pointLocation or restartTermCond.
    """
def set_plan_type(type: str) -> None:
    """
    Sets the type of the planners created next: prm, rrt, sbl, sblprt, rrt*, prm*, lazyprm*,
    lazyrrg*, fmm, fmm*, or any (sbl, or sblprt for goal sets); case-insensitive.
    ValueError for an unknown type.
    """
def set_random_seed(seed: typing.SupportsInt | typing.SupportsIndex) -> None:
    """
    Seeds the planners' random generator (each new planner draws its own seed from it, so
    seeded runs repeat). Python's random module, used by CSpace.sample, is separate.
    """
combineNDCubic = combine_nd_cubic
getPlanJSONString = get_plan_json_string
interpolate1DMinAccel = interpolate_1d_min_accel
interpolate1DMinTime = interpolate_1d_min_time
interpolateNDMinAccel = interpolate_nd_min_accel
interpolateNDMinTime = interpolate_nd_min_time
interpolateNDMinTimeLinear = interpolate_nd_min_time_linear
setPlanJSONString = set_plan_json_string
setPlanSetting = set_plan_setting
setPlanType = set_plan_type
setRandomSeed = set_random_seed
