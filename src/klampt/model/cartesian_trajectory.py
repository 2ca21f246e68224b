"""Cartesian (task space) motion: IK along straight lines and paths in task
space, and "bumping" joint-space paths by Cartesian offsets.

The task space of one or more :class:`IKObjective` constraints is the vector
``config.getConfig(constraints)`` (e.g. the local point followed by the world
target of a position constraint, or the 12 numbers of rotation and translation
of a fixed transform constraint); :func:`klampt.model.config.interpolate`
moves along it.

- :func:`cartesian_move_to`: from the robot's configuration to IK targets.
- :func:`cartesian_interpolate_linear` and :func:`cartesian_interpolate_bisect`:
  between two task space points.
- :func:`cartesian_path_interpolate`: along a task space path, greedily
  ('pointwise') or with a roadmap over the self-motion manifolds ('roadmap').
- :func:`cartesian_bump`: offsets a joint-space path in Cartesian space.

Resulting paths are kinematic: RobotTrajectory objects whose consecutive
milestones differ by at most ``delta`` per joint (linear interpolation) or in
``robot.distance`` (bisection), with time domain [0, 1] for interpolation
between two points and the path's time domain otherwise.
"""
from ..robotsim import RobotModelLink  # noqa: F401  (Klamp't's module has them)
import math
import random
import warnings
from collections import deque
from typing import Callable, List, Optional, Sequence

from klampt.robotsim import IKObjective, IKSolver, RobotModel
from klampt.math import se3, so3
from . import config, ik
from .trajectory import RobotTrajectory, SE3Trajectory, Trajectory
# the names Klamp't's module has through its star import of trajectory
from ..math import so2, spline, vectorops  # noqa: F401,E402
from ..math.geodesic import (CartesianSpace, GeodesicSpace, MultiGeodesicSpace, SE3Space, SO2Space,  # noqa: F401,E402
                             SO3Space)
from .subrobot import SubRobotModel  # noqa: F401,E402
from .trajectory import (GeodesicHermiteTrajectory, GeodesicTrajectory, HermiteTrajectory,  # noqa: F401,E402
                         SE3HermiteTrajectory, SO3HermiteTrajectory, SO3Trajectory, execute_path, execute_trajectory,
                         path_to_trajectory)

Vector = Sequence[float]


def set_cartesian_constraints(x: Vector, constraints: Sequence[IKObjective], solver: IKSolver) -> None:
    """Moves the targets of ``constraints`` to the task space point ``x`` and
    sets them as the objectives of ``solver``."""
    config.setConfig(constraints, x)
    solver.clear()
    for c in constraints:
        solver.add(c)


def solve_cartesian(x: Vector, constraints: Sequence[IKObjective], solver: IKSolver) -> bool:
    """Solves IK for the task space point ``x`` from the robot's current
    configuration; returns True on success (the robot is left at the
    solver's result)."""
    set_cartesian_constraints(x, constraints, solver)
    return solver.solve()


def _canonical(robot, constraints, startConfig, endConfig, solver):
    """Constraints as a list of IKObjectives (links given by index or name
    get a fixed-pose objective), a solver for them, and explicit start / end
    configurations."""
    if isinstance(constraints, (int, str, IKObjective)):
        constraints = [constraints]
    constraints = list(constraints)
    converted = any(isinstance(c, (int, str)) for c in constraints)
    if converted:
        constraints = [ik.objective(robot.link(c), R=so3.identity(), t=[0, 0, 0]) if isinstance(c, (int, str)) else c
                       for c in constraints]
        if solver is not None:
            solver = IKSolver(solver)
            solver.clear()
    if solver is None:
        solver = IKSolver(robot) if isinstance(robot, RobotModel) else ik.solver(constraints)
    for c in constraints:
        if not isinstance(c, IKObjective):
            raise TypeError("constraints must be link indices, link names or IKObjectives")
    if isinstance(startConfig, str) and startConfig == 'robot':
        startConfig = robot.getConfig()
    if isinstance(endConfig, str) and endConfig == 'robot':
        endConfig = robot.getConfig()
    return constraints, startConfig, endConfig, solver


def _match_start(robot, x, constraints, solver, config_, caller):
    """Places the robot at ``config_`` and makes it satisfy the task point x
    (solving if needed); returns the matching configuration or None."""
    robot.setConfig(config_)
    set_cartesian_constraints(x, constraints, solver)
    if solver.isSolved():
        return list(config_)
    if not solver.solve():
        warnings.warn("%s(): configuration cannot be solved to match the Cartesian coordinates, residual %s"
                      % (caller, solver.getResidual()), RuntimeWarning)
        return None
    warnings.warn("%s(): configuration does not match the Cartesian coordinates, solving" % caller, RuntimeWarning)
    return robot.getConfig()


class _SolverState:
    """Restores a solver's joint limits, tolerance and bias on exit."""

    def __init__(self, solver):
        self.solver = solver

    def __enter__(self):
        self.limits = self.solver.getJointLimits()
        self.tol = self.solver.getTolerance()
        return self

    def __exit__(self, *exc):
        self.solver.setJointLimits(*self.limits)
        self.solver.setTolerance(self.tol)
        self.solver.setBiasConfig([])


def cartesian_interpolate_linear(robot, a: Vector, b: Vector, constraints, startConfig='robot',
                                 endConfig: Optional[Vector] = None, delta: float = 1e-2,
                                 solver: Optional[IKSolver] = None,
                                 feasibilityTest: Optional[Callable[[Vector], bool]] = None,
                                 maximize: bool = False) -> Optional[RobotTrajectory]:
    """A robot path with time domain [0, 1] whose task space coordinates move
    along the straight line from ``a`` to ``b``, found by stepping along the
    line with IK and adapting the step size.

    Args:
        robot (RobotModel or SubRobotModel): the robot.
        a, b (list of floats): task space points (see ``config.getConfig``).
        constraints: link indices or names (whole pose constrained),
            IKObjectives (their targets are moved), or a list of them.
        startConfig: 'robot' (current configuration) or a configuration.
        endConfig (optional): a configuration matching ``b`` that the path
            must end at (intermediate steps are biased toward the joint-space
            interpolation).
        delta (float): maximum change of any joint between milestones.
        solver (IKSolver, optional): a configured solver to use.
        feasibilityTest (callable, optional): f(q) -> False for infeasible q.
        maximize (bool): on failure, return the part of the path found so far
            instead of None.
    """
    if delta <= 0:
        raise ValueError("Spatial resolution must be positive")
    constraints, startConfig, endConfig, solver = _canonical(robot, constraints, startConfig, endConfig, solver)
    if startConfig is None:
        raise ValueError("Unable to cartesian interpolate without a start configuration")
    start = _match_start(robot, a, constraints, solver, startConfig, "cartesian_interpolate_linear")
    if start is None:
        return None
    if feasibilityTest is not None and not feasibilityTest(start):
        warnings.warn("cartesian_interpolate_linear(): initial configuration is infeasible", RuntimeWarning)
        return None
    if endConfig is not None:
        robot.setConfig(endConfig)
        set_cartesian_constraints(b, constraints, solver)
        if not solver.isSolved():
            warnings.warn("cartesian_interpolate_linear(): end configuration does not match the final Cartesian "
                          "coordinates, residual %s" % (solver.getResidual(),), RuntimeWarning)
            return None
        if feasibilityTest is not None and not feasibilityTest(endConfig):
            warnings.warn("cartesian_interpolate_linear(): final configuration is infeasible", RuntimeWarning)
            return None

    res = RobotTrajectory(robot, [0.0], [start])
    with _SolverState(solver) as state:
        qmin0, qmax0 = state.limits
        tight = state.tol * 0.1
        solver.setTolerance(tight)
        stall = 0.01 * state.tol / max(config.distance(constraints, a, b), 0.01)
        t, step = 0.0, 0.1

        def attempt(tend):
            x = config.interpolate(constraints, a, b, tend)
            q = res.milestones[-1]
            if endConfig is not None:
                robot.setConfig(robot.interpolate(start, endConfig, tend))
                solver.setBiasConfig(robot.getConfig())
            else:
                robot.setConfig(q)
            solver.setJointLimits([max(lo, v - delta) for v, lo in zip(q, qmin0)],
                                  [min(hi, v + delta) for v, hi in zip(q, qmax0)])
            if solve_cartesian(x, constraints, solver):
                return True
            # accept a solution within the caller's own tolerance
            solver.setTolerance(state.tol)
            ok = solver.isSolved()
            solver.setTolerance(tight)
            return ok

        while t < 1:
            tend = min(t + step, 1.0)
            if attempt(tend):
                step *= 1.5
            else:
                ok = False
                while step > stall:
                    step *= 0.5
                    tend = min(t + step, 1.0)
                    if attempt(tend):
                        ok = True
                        break
                if not ok:
                    warnings.warn("cartesian_interpolate_linear(): failed to take a valid step along the straight "
                                  "line at time %g, residual %s" % (t, solver.getResidual()), RuntimeWarning)
                    return res if maximize else None
            q = robot.getConfig()
            if feasibilityTest is not None and not feasibilityTest(q):
                warnings.warn("cartesian_interpolate_linear(): infeasible configuration at time %g" % tend,
                              RuntimeWarning)
                return res if maximize else None
            res.times.append(tend)
            res.milestones.append(q)
            t = tend
    if endConfig is not None:
        if max(abs(u - v) for u, v in zip(res.milestones[-1], endConfig)) > delta:
            warnings.warn("cartesian_interpolate_linear(): reached a different solution than the end configuration",
                          RuntimeWarning)
            if maximize:
                return res
            return None
        res.milestones[-1] = list(endConfig)
    return res


class _BisectNode:
    def __init__(self, a, b, ua, ub, qa, qb, d):
        self.a, self.b = a, b
        self.ua, self.ub = ua, ub
        self.qa, self.qb = qa, qb
        self.d = d
        self.left = self.right = None


def cartesian_interpolate_bisect(robot, a: Vector, b: Vector, constraints, startConfig='robot',
                                 endConfig: Optional[Vector] = None, delta: float = 1e-2,
                                 solver: Optional[IKSolver] = None,
                                 feasibilityTest: Optional[Callable[[Vector], bool]] = None,
                                 maximize: bool = False, growthTol: int = 10) -> Optional[RobotTrajectory]:
    """Like :func:`cartesian_interpolate_linear`, but builds the path by
    recursive bisection: the task space midpoint of each segment is solved
    from the joint-space midpoint until consecutive milestones are within
    ``delta`` (``robot.distance``). Fails (returns None) if the path grows
    longer than ``growthTol`` times the start-to-end distance or a half
    segment is not shorter than its parent segment by a margin set by
    ``growthTol``. ``maximize`` is accepted for compatibility and ignored.
    Without ``endConfig``, the end is solved from the start configuration."""
    if delta <= 0:
        raise ValueError("Spatial resolution must be positive")
    if growthTol <= 1:
        raise ValueError("Growth parameter must be > 1")
    constraints, startConfig, endConfig, solver = _canonical(robot, constraints, startConfig, endConfig, solver)
    if startConfig is None:
        raise ValueError("Unable to cartesian bisection interpolate without a start configuration")
    if endConfig is None:
        robot.setConfig(startConfig)
        if not solve_cartesian(b, constraints, solver):
            warnings.warn("cartesian_interpolate_bisect(): could not find an end configuration to match the final "
                          "Cartesian coordinates", RuntimeWarning)
            return None
        endConfig = robot.getConfig()
    start = _match_start(robot, a, constraints, solver, startConfig, "cartesian_interpolate_bisect")
    if start is None:
        return None
    end = _match_start(robot, b, constraints, solver, endConfig, "cartesian_interpolate_bisect")
    if end is None:
        return None
    for q, which in ((start, 'initial'), (end, 'final')):
        if feasibilityTest is not None and not feasibilityTest(q):
            warnings.warn("cartesian_interpolate_bisect(): %s configuration is infeasible" % which, RuntimeWarning)
            return None
    root = _BisectNode(a, b, 0.0, 1.0, start, end, robot.distance(start, end))
    total = original = root.d
    shrink = 1.0 - 1.0 / growthTol
    stack = [root]
    try:
        while stack:
            node = stack.pop()
            if node.d <= delta:
                continue
            xm = config.interpolate(constraints, node.a, node.b, 0.5)
            qm = robot.interpolate(node.qa, node.qb, 0.5)
            um = 0.5 * (node.ua + node.ub)
            robot.setConfig(qm)
            solver.setBiasConfig(qm)
            if not solve_cartesian(xm, constraints, solver):
                warnings.warn("cartesian_interpolate_bisect(): failed to solve at point %g" % um, RuntimeWarning)
                return None
            qm = robot.getConfig()
            d1, d2 = robot.distance(node.qa, qm), robot.distance(qm, node.qb)
            total += d1 + d2 - node.d
            if total > original * growthTol or d1 > shrink * node.d or d2 > shrink * node.d:
                warnings.warn("cartesian_interpolate_bisect(): excessive growth at point %g" % um, RuntimeWarning)
                return None
            if feasibilityTest is not None and not feasibilityTest(qm):
                warnings.warn("cartesian_interpolate_bisect(): infeasible configuration at point %g" % um,
                              RuntimeWarning)
                return None
            node.left = _BisectNode(node.a, xm, node.ua, um, node.qa, qm, d1)
            node.right = _BisectNode(xm, node.b, um, node.ub, qm, node.qb, d2)
            stack.extend([node.left, node.right] if d1 < d2 else [node.right, node.left])
    finally:
        solver.setBiasConfig([])
    res = RobotTrajectory(robot, [0.0], [start])
    stack = [root]
    while stack:
        node = stack.pop()
        if node.left is None:
            res.times.append(node.ub)
            res.milestones.append(node.qb)
        else:
            stack.extend([node.right, node.left])
    return res


def _discretize(path, constraints, count=20):
    """The path resampled at ``count`` evenly spaced times (keeping its
    milestones), interpolating in task space."""
    if path.duration() <= 0:
        return path
    times = sorted(set(path.times) | {path.startTime() + path.duration() * i / (count - 1) for i in range(count)})
    milestones = []
    for t in times:
        seg, u = path.getSegment(t)
        seg = min(max(seg, 0), len(path.milestones) - 2)
        if t >= path.times[-1]:
            seg, u = len(path.milestones) - 2, 1.0
        milestones.append(config.interpolate(constraints, path.milestones[seg], path.milestones[seg + 1], u))
    return path.constructor()(times, milestones)


def _config_check(robot, feasibilityTest):
    """A no-argument feasibility check of the robot's configuration."""
    if feasibilityTest is None:
        return None
    return lambda: feasibilityTest(robot.getConfig())


def _pointwise(robot, path, constraints, startConfig, endConfig, delta, solver, feasibilityTest, numSamples,
               maximize):
    """Resolves the path segment by segment from the start configuration
    (bisection toward the end configuration if given, linear otherwise)."""
    if startConfig is None:
        if not ik.solve_global(constraints, solver.getMaxIters(), solver.getTolerance(), solver.getActiveDofs(),
                               numRestarts=max(100, numSamples),
                               feasibilityCheck=_config_check(robot, feasibilityTest)):
            warnings.warn("cartesian_path_interpolate(): could not solve for a start configuration", RuntimeWarning)
            return None, False
        startConfig = robot.getConfig()
    res = RobotTrajectory(robot, [path.times[0]], [list(startConfig)])
    for i in range(len(path.milestones) - 1):
        seg_end = None
        if endConfig is not None:
            u = (path.times[i + 1] - path.times[i]) / (path.times[-1] - path.times[i])
            seg_end = robot.interpolate(res.milestones[-1], endConfig, u)
            robot.setConfig(seg_end)
            if solve_cartesian(path.milestones[i + 1], constraints, solver):
                seg_end = robot.getConfig()
        if seg_end is None:
            seg = cartesian_interpolate_linear(robot, path.milestones[i], path.milestones[i + 1], constraints,
                                               startConfig=res.milestones[-1], delta=delta, solver=solver,
                                               feasibilityTest=feasibilityTest)
        else:
            seg = cartesian_interpolate_bisect(robot, path.milestones[i], path.milestones[i + 1], constraints,
                                               startConfig=res.milestones[-1], endConfig=seg_end, delta=delta,
                                               solver=solver, feasibilityTest=feasibilityTest)
        if seg is None:
            warnings.warn("cartesian_path_interpolate(): infeasible Cartesian interpolation segment at time %g"
                          % path.times[i + 1], RuntimeWarning)
            return res, False
        dt = path.times[i + 1] - path.times[i]
        seg.times = [t * dt for t in seg.times]
        res = res.concat(seg, relative=True)
    return res, True


def _roadmap(robot, path, constraints, startConfig, endConfig, delta, solver, feasibilityTest, numSamples,
             maximize):
    """Probabilistic roadmap over the self-motion manifolds of the path's
    milestones: configurations sampled at milestones (from random
    configurations, or from those of existing nodes to grow the roadmap
    locally) are connected to their nearest neighbours at other milestones by
    pointwise interpolation of the sub-path between them."""
    path = _discretize(path, constraints)
    last = len(path.milestones) - 1

    def sample_at(index, tries, seeds=()):
        """An IK solution at milestone ``index``, solved from the seed
        configurations first, then from random ones."""
        for attempt in range(tries):
            if attempt < len(seeds):
                robot.setConfig(seeds[attempt])
            else:
                solver.sampleInitial()
            if solve_cartesian(path.milestones[index], constraints, solver):
                q = robot.getConfig()
                if feasibilityTest is None or feasibilityTest(q):
                    return q
        return None

    candidates = list(range(1, last))
    if startConfig is None:
        startConfig = sample_at(0, numSamples, [endConfig] if endConfig is not None else [])
        candidates.insert(0, 0)
    if endConfig is None:
        endConfig = sample_at(last, numSamples, [startConfig] if startConfig is not None else [])
        candidates.append(last)
    if startConfig is None or endConfig is None:
        warnings.warn("cartesian_path_interpolate(): exhausted all samples, perhaps the endpoints are unreachable",
                      RuntimeWarning)
        return None
    nodes = [(0, list(startConfig)), (last, list(endConfig))]
    component = [0, 1]
    edges = {}

    def find(i):
        while component[i] != i:
            component[i] = component[component[i]]
            i = component[i]
        return i

    def trace(goal_nodes):
        adjacency = {}
        for (i, j) in edges:
            adjacency.setdefault(i, []).append(j)
            adjacency.setdefault(j, []).append(i)
        parent = {0: None}
        queue = deque([0])
        while queue:
            n = queue.popleft()
            if n in goal_nodes:
                chain = []
                while n is not None:
                    chain.append(n)
                    n = parent[n]
                chain.reverse()
                res = RobotTrajectory(robot, [path.times[0]], [nodes[0][1]])
                for u, v in zip(chain[:-1], chain[1:]):
                    res = res.concat(edges[(u, v)], relative=False)
                return res
            for m in adjacency.get(n, []):
                if m not in parent and nodes[m][0] > nodes[n][0]:
                    parent[m] = n
                    queue.append(m)
        return None

    for count in range(numSamples):
        index = random.choice(candidates)
        # half of the samples grow the roadmap locally, from a node's configuration
        seeds = [random.choice(nodes)[1]] if random.random() < 0.5 else []
        q = sample_at(index, 1, seeds)
        if q is None:
            continue
        nodes.append((index, q))
        component.append(len(nodes) - 1)
        new = len(nodes) - 1
        k = int(math.log(count + 2)) + 2
        neighbours = sorted((robot.distance(q, qn), n) for n, (i, qn) in enumerate(nodes[:-1]) if i != index)
        for _, n in neighbours[:k]:
            if find(n) == find(new):
                continue
            lo, hi = (n, new) if nodes[n][0] < nodes[new][0] else (new, n)
            i, j = nodes[lo][0], nodes[hi][0]
            sub = path.constructor()(path.times[i:j + 1], path.milestones[i:j + 1])
            seg = cartesian_path_interpolate(robot, sub, constraints, startConfig=nodes[lo][1],
                                             endConfig=nodes[hi][1], delta=delta, method='pointwise', solver=solver,
                                             feasibilityTest=feasibilityTest)
            if seg is None:
                continue
            edges[(lo, hi)] = seg
            component[find(lo)] = find(hi)
            if find(0) == find(1):
                found = trace({1})
                if found is not None:
                    return found
    if maximize:
        reachable = [n for n in range(len(nodes)) if find(n) == find(0)]
        deepest = max(nodes[n][0] for n in reachable)
        return trace({n for n in reachable if nodes[n][0] == deepest})
    warnings.warn("cartesian_path_interpolate(): unable to find a feasible path within %d samples" % numSamples,
                  RuntimeWarning)
    return None


def cartesian_path_interpolate(robot, path, constraints, startConfig='robot', endConfig: Optional[Vector] = None,
                               delta: float = 1e-2, method: str = 'any', solver: Optional[IKSolver] = None,
                               feasibilityTest: Optional[Callable[[Vector], bool]] = None, numSamples: int = 1000,
                               maximize: bool = False) -> Optional[RobotTrajectory]:
    """A robot path following a task space path (a Trajectory of task space
    points, or a list of them spaced 1 s apart) for the given constraints.

    Args:
        startConfig: 'robot', a configuration, or None (any start).
        endConfig: a configuration to end at, or None (any end).
        method (str): 'pointwise' (greedy, segment by segment), 'roadmap'
            (sampling the self-motion manifolds, probabilistically complete)
            or 'any' (pointwise, then roadmap if it fails).
        numSamples (int): number of roadmap samples.
        maximize (bool): on failure, return the longest prefix found.

    The other arguments are those of :func:`cartesian_interpolate_linear`.
    The result has the path's time domain.
    """
    if delta <= 0:
        raise ValueError("Spatial resolution must be positive")
    if method not in ('any', 'pointwise', 'roadmap'):
        raise ValueError("method must be 'any', 'pointwise' or 'roadmap'")
    if not isinstance(path, Trajectory):
        path = Trajectory(list(range(len(path))), [list(m) for m in path])
    constraints, startConfig, endConfig, solver = _canonical(robot, constraints, startConfig, endConfig, solver)
    if startConfig is not None:
        startConfig = _match_start(robot, path.milestones[0], constraints, solver, startConfig,
                                   "cartesian_path_interpolate")
        if startConfig is None:
            return None
    if endConfig is not None:
        endConfig = _match_start(robot, path.milestones[-1], constraints, solver, endConfig,
                                 "cartesian_path_interpolate")
        if endConfig is None:
            return None
    if method in ('any', 'pointwise'):
        res, complete = _pointwise(robot, path, constraints, startConfig, endConfig, delta, solver, feasibilityTest,
                                   numSamples, maximize)
        if complete:
            return res
        if method == 'pointwise':
            return res if maximize else None
    return _roadmap(robot, path, constraints, startConfig, endConfig, delta, solver, feasibilityTest, numSamples,
                    maximize)


def _target_transforms(robot, constraints, bump_paths, t, ee_relative):
    for c, p in zip(constraints, bump_paths):
        T0 = robot.link(c.link()).getTransform()
        rel = p.eval(t) if isinstance(p, Trajectory) else p
        c.matchDestination(*(se3.mul(T0, rel) if ee_relative else se3.mul(rel, T0)))


def _task_point(robot, constraints, q):
    robot.setConfig(q)
    for c in constraints:
        c.matchDestination(*robot.link(c.link()).getTransform())
    return config.getConfig(constraints)


def cartesian_bump(robot, js_path, constraints, bump_paths, delta: float = 1e-2, solver: Optional[IKSolver] = None,
                   ee_relative: bool = False, maximize: bool = False, closest: bool = False,
                   maxDeviation: Optional[List[float]] = None) -> Optional[RobotTrajectory]:
    """Offsets a joint-space path in Cartesian space: at every milestone the
    constrained links are moved by a world-frame (or, with ``ee_relative``,
    link-frame) rigid transform, and the path between milestones is resolved
    by bisection so that it stays within ``delta``.

    Args:
        js_path (Trajectory or RobotTrajectory): the reference path.
        constraints: one constraint (link index / name / IKObjective) or a
            list of them.
        bump_paths: one bump per constraint, each a static se3 transform or an
            SE3Trajectory over time.
        closest (bool): where a milestone can't be solved, keep the closest IK
            solution instead of failing.
        maxDeviation (list of floats, optional): per-joint bound on the
            deviation from ``js_path``.
        maximize (bool): on failure, return the part found so far.

    Returns:
        RobotTrajectory or None.
    """
    if delta <= 0:
        raise ValueError("Invalid delta, must be positive")
    if isinstance(constraints, (int, str, IKObjective)):
        constraints = [constraints]
    if isinstance(bump_paths, SE3Trajectory) or (isinstance(bump_paths, (list, tuple)) and len(bump_paths) == 2
                                                 and len(bump_paths[0]) == 9 and len(bump_paths[1]) == 3
                                                 and not hasattr(bump_paths[0][0], '__len__')):
        bump_paths = [bump_paths]
    bump_paths = list(bump_paths)
    if len(constraints) != len(bump_paths):
        raise ValueError("Must specify one bump per constraint")
    if maxDeviation is not None and len(maxDeviation) != robot.numLinks():
        raise ValueError("maxDeviation must have one entry per link")
    constraints, _, _, solver = _canonical(robot, constraints, None, None, solver)
    mesh = [t for p in bump_paths if isinstance(p, Trajectory) for t in p.times]
    for i in range(len(js_path.milestones) - 1):
        d = robot.distance(js_path.milestones[i], js_path.milestones[i + 1])
        if d > delta:
            a, b = js_path.times[i], js_path.times[i + 1]
            n = int(math.ceil(d / delta))
            mesh += [a + (b - a) * j / n for j in range(1, n)]
    if mesh:
        js_path = js_path.remesh(mesh)[0]
    qmin0, qmax0 = solver.getJointLimits()
    res = RobotTrajectory(robot, [], [])
    approximate = set()
    for i, q in enumerate(js_path.milestones):
        t = js_path.times[i]
        robot.setConfig(q)
        _target_transforms(robot, constraints, bump_paths, t, ee_relative)
        solver.clear()
        for c in constraints:
            solver.add(c)
        if maxDeviation is not None:
            solver.setJointLimits([max(v - d, lo) for v, d, lo in zip(q, maxDeviation, qmin0)],
                                  [min(v + d, hi) for v, d, hi in zip(q, maxDeviation, qmax0)])
        if not solver.solve():
            warnings.warn("cartesian_bump(): unable to solve the milestone at time %g" % t, RuntimeWarning)
            if not closest:
                solver.setJointLimits(qmin0, qmax0)
                return res if maximize and res.milestones else None
            solver.minimize()
            approximate.add(i)
        res.times.append(t)
        res.milestones.append(robot.getConfig())
    solver.setJointLimits(qmin0, qmax0)
    i = 0
    while i + 1 < len(res.milestones):
        q, qnext = res.milestones[i], res.milestones[i + 1]
        if robot.distance(q, qnext) <= delta or i in approximate:
            i += 1
            continue
        xa = _task_point(robot, constraints, q)
        xb = _task_point(robot, constraints, qnext)
        seg = cartesian_interpolate_bisect(robot, xa, xb, constraints, startConfig=q, endConfig=qnext, delta=delta,
                                           solver=solver)
        if seg is None:
            warnings.warn("cartesian_bump(): unable to resolve the segment at time %g" % res.times[i], RuntimeWarning)
            if closest:
                i += 1
                continue
            if maximize:
                return RobotTrajectory(robot, res.times[:i + 1], res.milestones[:i + 1])
            return None
        ta, tb = res.times[i], res.times[i + 1]
        inner_t = [ta + u * (tb - ta) for u in seg.times[1:-1]]
        res.times[i + 1:i + 1] = inner_t
        res.milestones[i + 1:i + 1] = seg.milestones[1:-1]
        approximate = {k + len(inner_t) if k > i else k for k in approximate}
        i += len(inner_t) + 1
    return res


def cartesian_move_to(robot, constraints, delta: float = 1e-2, solver: Optional[IKSolver] = None,
                      feasibilityTest: Optional[Callable[[Vector], bool]] = None,
                      maximize: bool = False) -> Optional[RobotTrajectory]:
    """A straight-line Cartesian path from the robot's current configuration
    to the targets of the given IKObjective(s) (see
    :func:`cartesian_interpolate_linear`)."""
    if isinstance(constraints, IKObjective):
        constraints = [constraints]
    constraints = list(constraints)
    for c in constraints:
        if not isinstance(c, IKObjective):
            raise TypeError("cartesian_move_to needs IKObjectives")
    task_end = config.getConfig(constraints)
    for c in constraints:
        Tl = robot.link(c.link()).getTransform()
        Tr = robot.link(c.destLink()).getTransform() if c.destLink() >= 0 else se3.identity()
        c.matchDestination(*se3.mul(se3.inv(Tr), Tl))
    task_start = config.getConfig(constraints)
    return cartesian_interpolate_linear(robot, task_start, task_end, constraints, delta=delta, solver=solver,
                                        feasibilityTest=feasibilityTest, maximize=maximize)
