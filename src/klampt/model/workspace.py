"""Robot workspaces as volume grids: the cells reachable by a point on a link
under feasibility conditions (self collision, obstacles, load capacity, user
tests), and scalar fields over them.

- :func:`compute_occupancy_grid` and :func:`compute_field_grid` grid
  scattered points (and values).
- :func:`compute_workspace` samples configurations (and, for an IKObjective,
  solves IK into each candidate cell) to find the reachable cells.
- :func:`compute_workspace_field` grids a value of the configurations that
  reach each cell.

Grids are :class:`klampt.VolumeGrid` objects whose cell (i, j, k) covers
``bmin + [i, j, k] * cellsize`` to ``bmin + [i + 1, j + 1, k + 1] * cellsize``.
"""
from ..robotsim import ImplicitSurface, OccupancyGrid, RigidObjectModel, RobotModel, TerrainModel  # noqa: F401  (Klamp't's module has them)
import math
from typing import Callable, Dict, Sequence, Union

import numpy as np

from klampt.robotsim import IKObjective, RobotModelLink, VolumeGrid
from . import ik


def _grid_layout(points, resolution, dimensions, bounds):
    """(lower corner, upper corner, dims, cell size) of the grid over
    ``points``: with ``bounds`` the grid spans them exactly; otherwise it is
    centred on the points' bounding box and has one extra cell on each side."""
    points = np.asarray(points, dtype=float).reshape(-1, 3)
    if bounds is not None:
        lower, upper = (np.asarray(b, dtype=float) for b in bounds)
        if lower.shape != (3,) or upper.shape != (3,):
            raise ValueError("Invalid bounds")
        auto = False
    else:
        if len(points) == 0:
            raise ValueError("Cannot compute occupancy grid of empty set of points")
        lower, upper = points.min(axis=0), points.max(axis=0)
        auto = True
    extent = upper - lower
    if dimensions is not None:
        if hasattr(dimensions, '__len__'):
            dims = np.asarray(dimensions, dtype=int)
            cell = extent / dims
            center_and_pad = False
        else:
            cell = np.full(3, float(np.max(extent)) / dimensions)
            dims = np.floor(extent / cell).astype(int) + 1
            center_and_pad = auto
    else:
        if resolution is None:
            raise ValueError("One of resolution or dimensions must be given")
        cell = np.asarray(resolution if hasattr(resolution, '__len__') else [resolution] * 3, dtype=float)
        dims = np.floor(extent / cell).astype(int) + 1
        center_and_pad = auto
    if center_and_pad:
        # dims cells of the requested size, centred on the points, plus one
        # empty cell on each side
        lower = lower - 0.5 * (dims * cell - extent) - cell
        dims = dims + 2
        upper = lower + dims * cell
    if bounds is not None or not center_and_pad:
        cell = (upper - lower) / dims
    return lower, upper, dims, cell


def _cell_indices(points, lower, dims, cell):
    """Cell index of each point inside the grid, and the mask of those
    points."""
    points = np.asarray(points, dtype=float).reshape(-1, 3)
    idx = np.floor((points - lower) / cell).astype(int)
    inside = np.all((idx >= 0) & (idx < dims), axis=1)
    return idx[inside], inside


def _make_grid(lower, upper, values):
    grid = VolumeGrid()
    grid.setBounds([float(v) for v in lower], [float(v) for v in upper])
    grid.setValues(np.asarray(values, dtype=float))
    return grid


def _grid_bounds(grid):
    b = list(grid.bbox)
    return np.array(b[:3]), np.array(b[3:]), np.array(list(grid.dims))


def compute_occupancy_grid(points: Sequence, resolution=0.05, dimensions=None, bounds=None,
                           value='occupancy') -> VolumeGrid:
    """Grids a set of points.

    Args:
        points (list of 3-vectors or n x 3 array): the points.
        resolution (float or 3-vector): the cell size.
        dimensions (int or 3 ints, optional): used instead of ``resolution``
            if given: the number of cells along each axis, or along the
            longest side of the points' bounding box (cubic cells).
        bounds (pair of 3-vectors, optional): the grid's extent; by default
            the points' bounding box, centred in the grid, padded by a cell.
        value (str): 'occupancy' (1 in cells with a point), 'count' (number of
            points) or 'probability' (fraction of the points).
    """
    if value not in ('occupancy', 'count', 'probability'):
        raise ValueError("value must be 'occupancy', 'count' or 'probability'")
    lower, upper, dims, cell = _grid_layout(points, resolution, dimensions, bounds)
    counts = np.zeros(tuple(dims))
    idx, _ = _cell_indices(points, lower, dims, cell)
    np.add.at(counts, tuple(idx.T), 1.0)
    if value == 'occupancy':
        counts = (counts > 0).astype(float)
    elif value == 'probability' and len(points) > 0:
        counts /= len(points)
    return _make_grid(lower, upper, counts)


def compute_field_grid(points: Sequence, values: Sequence[float], resolution=0.05, dimensions=None, bounds=None,
                       aggregator='max', initial_value='auto') -> VolumeGrid:
    """Grids values given at scattered points.

    Args:
        points, resolution, dimensions, bounds: as in
            :func:`compute_occupancy_grid`.
        values (list of float): the value at each point.
        aggregator: how the values falling in a cell combine: 'max', 'min',
            'sum', 'average', or a pair of functions (f, g) with
            f(x, value) -> x folding the values into a state x (starting at
            ``initial_value``, None by default) and g(x) -> float.
        initial_value: the value of cells without points ('auto': -inf for
            max, inf for min, 0 for sum); for 'average', a pair (prior,
            strength) weighting a prior value as ``strength`` extra samples
            ('auto': empty cells are 0).

    A VolumeGrid only holds finite values, so with 'auto' the empty cells of
    'max' and 'min' hold 0 (the reference uses -inf / inf).
    """
    values = np.asarray(values, dtype=float)
    lower, upper, dims, cell = _grid_layout(points, resolution, dimensions, bounds)
    idx, inside = _cell_indices(points, lower, dims, cell)
    vals = values[inside] if len(values) else values
    shape = tuple(dims)
    where = tuple(idx.T)
    if aggregator in ('max', 'min', 'sum'):
        combine = {'max': np.maximum, 'min': np.minimum, 'sum': np.add}[aggregator]
        if aggregator == 'sum':
            result = np.full(shape, 0.0 if initial_value == 'auto' else float(initial_value))
            combine.at(result, where, vals)
        else:
            identity = -math.inf if aggregator == 'max' else math.inf
            result = np.full(shape, identity if initial_value == 'auto' else float(initial_value))
            combine.at(result, where, vals)
            if initial_value == 'auto':
                result[np.isinf(result) & (result == identity)] = 0.0
    elif aggregator == 'average':
        if initial_value == 'auto':
            prior, strength = 0.0, 0.0
        elif isinstance(initial_value, (tuple, list)) and len(initial_value) == 2:
            prior, strength = initial_value
        else:
            raise ValueError("Initial value for average must be of the form (prior,strength)")
        total = np.full(shape, prior * strength)
        count = np.full(shape, float(strength))
        np.add.at(total, where, vals)
        np.add.at(count, where, 1.0)
        result = np.divide(total, count, out=np.zeros(shape), where=count > 0)
    elif isinstance(aggregator, tuple) and len(aggregator) == 2 and all(callable(f) for f in aggregator):
        fold, finish = aggregator
        start = None if initial_value == 'auto' else initial_value
        states = np.empty(shape, dtype=object)
        states.fill(start)
        for ind, v in zip(map(tuple, idx), vals):
            states[ind] = fold(states[ind], v)
        result = np.vectorize(finish, otypes=[float])(states)
    else:
        raise ValueError("Invalid value for aggregator, must be min, max, sum, average, or a pair of callables")
    return _make_grid(lower, upper, result)


def _position_point(constraint_or_point):
    if isinstance(constraint_or_point, IKObjective):
        return list(constraint_or_point.getPosition()[0]), constraint_or_point
    return list(constraint_or_point), None


class _JointLimits:
    """Temporarily replaces a robot's joint limits (qmin / qmax overrides,
    fixed links pinned at their current values)."""

    def __init__(self, robot, qmin, qmax, fixed_links):
        self.robot = robot
        self.original = robot.getJointLimits()
        lo = list(self.original[0] if qmin is None else qmin)
        hi = list(self.original[1] if qmax is None else qmax)
        if len(lo) != len(self.original[0]) or len(hi) != len(self.original[1]):
            raise ValueError("Invalid length of qmin or qmax")
        q = robot.getConfig()
        self.fixed = [robot.link(l).getIndex() for l in (fixed_links or [])]
        for i in self.fixed:
            lo[i] = hi[i] = q[i]
        self.pinned = {i: q[i] for i in self.fixed}
        self.active = [i for i in range(robot.numLinks()) if i not in self.pinned]
        self.limits = (lo, hi)

    def randomize(self):
        """A random configuration with the fixed links kept (spin joints
        ignore their limits when sampled)."""
        self.robot.randomizeConfig()
        if self.pinned:
            q = self.robot.getConfig()
            for i, v in self.pinned.items():
                q[i] = v
            self.robot.setConfig(q)

    def __enter__(self):
        self.robot.setJointLimits(*self.limits)
        return self

    def __exit__(self, *exc):
        self.robot.setJointLimits(*self.original)


def _load_test(robot, link, point_local, fixed, load, load_type, gravity):
    tmax = np.abs(np.asarray(robot.getTorqueLimits(), dtype=float))
    tmax[list(fixed)] = np.inf
    if load_type in (None, 'auto'):
        load_type = 'isotropic' if not hasattr(load, '__len__') else {3: 'force', 6: 'wrench'}.get(len(load))
    if load_type == 'isotropic':
        def satisfies():
            g = np.abs(np.asarray(robot.getGravityForces(list(gravity))))
            J = np.asarray(link.getPositionJacobian(point_local))
            return bool(np.all(g + load * np.linalg.norm(J, axis=0) <= tmax))
        return satisfies
    sizes = {'force': 3, 'torque': 3, 'wrench': 6}
    if load_type not in sizes:
        raise NotImplementedError("load_type %r is not supported (local loads are not implemented)" % (load_type,))
    load = np.asarray(load, dtype=float)
    if load.shape != (sizes[load_type],):
        raise ValueError("Need load to be a %d-vector" % sizes[load_type])

    def jacobian():
        if load_type == 'force':
            return np.asarray(link.getPositionJacobian(point_local))
        if load_type == 'torque':
            return np.asarray(link.getOrientationJacobian())
        return np.asarray(link.getJacobian(point_local))

    def satisfies():
        g = np.asarray(robot.getGravityForces(list(gravity)))
        return bool(np.all(np.abs(g - jacobian().T @ load) <= tmax))
    return satisfies


def _setup_feasible_tests(robot, link, point_local, fixed_links, obstacles, load, load_type, gravity,
                          self_collision, feasibility_test) -> Dict[str, Callable[[], bool]]:
    """Named tests of the robot's current configuration."""
    tests = {}
    fixed = {robot.link(l).getIndex() for l in (fixed_links or [])}
    if self_collision:
        tests['self_collision_free'] = lambda: not robot.selfCollides()
    if obstacles is not None:
        moving = [i for i in range(robot.numLinks()) if i not in fixed]

        def obstacle_test(obstacle):
            return lambda: not any(robot.link(j).geometry().collides(obstacle.geometry()) for j in moving)
        for i, obstacle in enumerate(obstacles):
            tests['obstacle_%d_collision_free' % i] = obstacle_test(obstacle)
    if load is not None:
        tests['load'] = _load_test(robot, link, point_local, fixed, load, load_type, gravity)
    if feasibility_test is not None:
        def wrap(test, name):
            if not callable(test):
                raise ValueError("Feasibility test %s must be callable" % name)
            return lambda: bool(test(robot.getConfig()))
        if isinstance(feasibility_test, (list, tuple)):
            for i, test in enumerate(feasibility_test):
                tests['feasibility_test_%d' % i] = wrap(test, i)
        elif isinstance(feasibility_test, dict):
            for name, test in feasibility_test.items():
                tests[name] = wrap(test, name)
        else:
            tests['feasibility_test'] = wrap(feasibility_test, '')
    return tests


def _sample_points(limits, link, point_local, Nsamples, feasible=None):
    robot = limits.robot
    points, configs = [], []
    for _ in range(Nsamples):
        limits.randomize()
        if feasible is None or feasible():
            points.append(link.getWorldPosition(point_local))
            configs.append(robot.getConfig())
    return points, configs


def _cell_center(lower, cell, ind):
    return (lower + (np.asarray(ind) + 0.5) * cell).tolist()


def _expand(limits, link, point_local, grid, feasible=None):
    """Grows an occupancy grid by solving IK for the centres of empty cells
    next to occupied ones, repeatedly; returns the reached centres and
    configurations (the grid is updated)."""
    robot = limits.robot
    lower, upper, dims = _grid_bounds(grid)
    cell = (upper - lower) / dims
    occupied = np.asarray(grid.getValues()) > 0
    offsets = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]

    def empty_neighbours(ind):
        for d in offsets:
            n = tuple(int(a + b) for a, b in zip(ind, d))
            if all(0 <= n[k] < dims[k] for k in range(3)) and not occupied[n]:
                yield n

    fringe = set()
    for ind in zip(*occupied.nonzero()):
        fringe.update(empty_neighbours(ind))
    points, configs = [], []
    tried = set()
    while fringe:
        ind = fringe.pop()
        tried.add(ind)
        center = _cell_center(lower, cell, ind)
        obj = ik.objective(link, local=point_local, world=center)
        if ik.solve_global(obj, iters=20, activeDofs=limits.active, numRestarts=5, feasibilityCheck=feasible):
            occupied[ind] = True
            points.append(center)
            configs.append(robot.getConfig())
            fringe.update(n for n in empty_neighbours(ind) if n not in tried)
    values = np.asarray(grid.getValues(), dtype=float)
    values[occupied] = np.maximum(values[occupied], 1.0)
    grid.setValues(values)
    return points, configs


def _ik_cells(limits, link, point_local, Nsamples, resolution, dimensions):
    """Candidate cells for an IK-constrained workspace: the sampled and
    expanded position workspace."""
    points, _ = _sample_points(limits, link, point_local, Nsamples)
    candidates = compute_occupancy_grid(points, resolution, dimensions)
    _expand(limits, link, point_local, candidates)
    return candidates


def compute_workspace(link: RobotModelLink, constraint_or_point: Union[Sequence[float], IKObjective], Nsamples=100000,
                      resolution=0.05, dimensions=None, fixed_links=None, qmin=None, qmax=None, obstacles=None,
                      load=None, load_type=None, gravity=(0, 0, -9.8), self_collision=True, feasibility_test=None,
                      value='occupancy', all_tests=True) -> Union[VolumeGrid, Dict[str, VolumeGrid]]:
    """The reachable workspace of a point on a link, as an occupancy grid.

    Configurations are sampled uniformly within the joint limits (the
    cells their point falls in are reached), then empty cells next to
    reached ones are tested by IK until no more are reached. With an
    IKObjective (e.g. with a fixed orientation), IK is solved for the centre
    of each candidate cell with the objective's other constraints.

    Args:
        link (RobotModelLink): the link.
        constraint_or_point: the point on the link (local coordinates), or an
            IKObjective on the link whose local point is used.
        Nsamples (int): number of configuration samples.
        resolution, dimensions: grid cell size, or number of cells (see
            :func:`compute_occupancy_grid`).
        fixed_links (list of int or str): links kept at their current values.
        qmin, qmax (list of float): joint limits replacing the robot's.
        obstacles (list of RigidObjectModel / TerrainModel): the robot's
            moving links must not collide with them.
        load (float, 3- or 6-vector): a load the point must hold against
            gravity within the torque limits.
        load_type (str): 'isotropic' (a force of magnitude ``load`` in any
            direction), 'force', 'torque' or 'wrench'; 'auto'/None picks from
            the shape of ``load``.
        gravity (3-vector): gravity for the load test.
        self_collision (bool): reject self-colliding configurations.
        feasibility_test (callable, list or dict): f(q) -> bool tests.
        value (str): 'occupancy', 'count' or 'probability'.
        all_tests (bool): return a dict with the grid of every test (keys
            'self_collision_free', 'obstacle_<i>_collision_free', 'load',
            'feasibility_test...') and 'workspace' for all of them together.

    Returns:
        VolumeGrid, or a dict of VolumeGrids if ``all_tests``.
    """
    robot = link.robot()
    point_local, constraint = _position_point(constraint_or_point)
    with _JointLimits(robot, qmin, qmax, fixed_links) as limits:
        tests = _setup_feasible_tests(robot, link, point_local, fixed_links, obstacles, load, load_type, gravity,
                                      self_collision, feasibility_test)

        def all_feasible():
            return all(test() for test in tests.values())

        if constraint is not None:
            return _constrained_workspace(limits, link, point_local, constraint, tests, all_feasible, Nsamples,
                                          resolution, dimensions, value, all_tests)
        if not all_tests:
            points, _ = _sample_points(limits, link, point_local, Nsamples, all_feasible)
            reached = compute_occupancy_grid(points, resolution, dimensions)
            extra, _ = _expand(limits, link, point_local, reached, all_feasible)
            lower, upper, dims = _grid_bounds(reached)
            return compute_occupancy_grid(points + extra, dimensions=dims, bounds=(lower, upper), value=value)
        points, configs = _sample_points(limits, link, point_local, Nsamples)
        layout = compute_occupancy_grid(points, resolution, dimensions)
        lower, upper, dims = _grid_bounds(layout)
        passing = {name: [] for name in list(tests) + ['workspace']}
        for p, q in zip(points, configs):
            robot.setConfig(q)
            results = {name: test() for name, test in tests.items()}
            for name, ok in results.items():
                if ok:
                    passing[name].append(p)
            if all(results.values()):
                passing['workspace'].append(p)
        grids = {}
        for name, pts in passing.items():
            grid = compute_occupancy_grid(pts, dimensions=dims, bounds=(lower, upper), value=value)
            _expand(limits, link, point_local, grid, all_feasible if name == 'workspace' else tests[name])
            grids[name] = grid
        return grids


def _constrained_workspace(limits, link, point_local, constraint, tests, all_feasible, Nsamples, resolution,
                           dimensions, value, all_tests):
    candidates = _ik_cells(limits, link, point_local, Nsamples, resolution, dimensions)
    lower, upper, dims = _grid_bounds(candidates)
    cell = (upper - lower) / dims
    cells = list(zip(*np.asarray(candidates.getValues()).nonzero()))
    restarts = max(5, Nsamples // max(len(cells), 1))
    passing = {name: [] for name in list(tests) + ['workspace']}
    for ind in cells:
        target = _cell_center(lower, cell, ind)
        constraint.setFixedPosConstraint(point_local, target)
        if all_tests:
            if not ik.solve_global(constraint, iters=20, activeDofs=limits.active, numRestarts=restarts):
                continue
            results = {name: test() for name, test in tests.items()}
            for name, ok in results.items():
                if ok:
                    passing[name].append(target)
            if all(results.values()):
                passing['workspace'].append(target)
        elif ik.solve_global(constraint, iters=20, activeDofs=limits.active, numRestarts=restarts,
                             feasibilityCheck=all_feasible):
            passing['workspace'].append(target)
    if not all_tests:
        return compute_occupancy_grid(passing['workspace'], dimensions=dims, bounds=(lower, upper), value=value)
    return {name: compute_occupancy_grid(pts, dimensions=dims, bounds=(lower, upper), value=value)
            for name, pts in passing.items()}


def _value_function(robot, link, point_local, value, load_tests):
    if callable(value):
        return lambda: float(value(robot.getConfig()))
    if value == 'occupancy':
        return lambda: 1.0

    def singular_values():
        return np.linalg.svd(np.asarray(link.getPositionJacobian(point_local)), compute_uv=False)

    if value == 'manipulability':
        return lambda: float(np.prod(singular_values()))
    if value == 'max manipulability':
        return lambda: float(np.max(singular_values()))
    if value == 'min manipulability':
        return lambda: float(np.min(singular_values()))
    if value == 'load':
        def capacity():
            tmax = np.abs(np.asarray(robot.getTorqueLimits(), dtype=float))
            tmax[list(load_tests['fixed'])] = np.inf
            g = np.abs(np.asarray(robot.getGravityForces(list(load_tests['gravity']))))
            norms = np.linalg.norm(np.asarray(link.getPositionJacobian(point_local)), axis=0)
            with np.errstate(divide='ignore', invalid='ignore'):
                per_joint = np.where(norms > 0, (tmax - g) / norms, np.inf)
            return float(max(0.0, np.min(per_joint)))
        return capacity
    raise ValueError("Invalid value to output")


def compute_workspace_field(link: RobotModelLink, constraint_or_point, value, Nsamples=100000, resolution=0.05,
                            dimensions=None, fixed_links=None, qmin=None, qmax=None, obstacles=None, load=None,
                            load_type=None, gravity=(0, 0, -9.8), self_collision=True, feasibility_test=None,
                            default_value=0.0) -> VolumeGrid:
    """A scalar field over the reachable workspace of a point on a link: each
    cell holds the largest value among the feasible configurations reaching
    it (``default_value`` where none does).

    Args:
        value (str or callable): 'occupancy' (1), 'manipulability' (product
            of the singular values of the point's position Jacobian, i.e.
            sqrt(det(J J^T))), 'max manipulability' / 'min manipulability' (its
            largest / smallest singular value), 'load' (the largest force of
            any direction the point can hold against gravity within the
            torque limits), or a function f(q) -> float.

    The other arguments are those of :func:`compute_workspace`.
    """
    robot = link.robot()
    point_local, constraint = _position_point(constraint_or_point)
    with _JointLimits(robot, qmin, qmax, fixed_links) as limits:
        tests = _setup_feasible_tests(robot, link, point_local, fixed_links, obstacles, load, load_type, gravity,
                                      self_collision, feasibility_test)
        value_fn = _value_function(robot, link, point_local, value, {'fixed': limits.fixed, 'gravity': gravity})

        def all_feasible():
            return all(test() for test in tests.values())

        points, values = [], []
        if constraint is not None:
            candidates = _ik_cells(limits, link, point_local, Nsamples, resolution, dimensions)
            lower, upper, dims = _grid_bounds(candidates)
            cell = (upper - lower) / dims
            for ind in zip(*np.asarray(candidates.getValues()).nonzero()):
                target = _cell_center(lower, cell, ind)
                constraint.setFixedPosConstraint(point_local, target)
                if ik.solve_global(constraint, iters=20, activeDofs=limits.active, numRestarts=5,
                                   feasibilityCheck=all_feasible):
                    points.append(target)
                    values.append(value_fn())
            bounds = (lower, upper)
        else:
            sampled, configs = _sample_points(limits, link, point_local, Nsamples, all_feasible)
            reached = compute_occupancy_grid(sampled, resolution, dimensions)
            extra, extra_configs = _expand(limits, link, point_local, reached, all_feasible)
            lower, upper, dims = _grid_bounds(reached)
            for p, q in zip(sampled + extra, configs + extra_configs):
                robot.setConfig(q)
                points.append(p)
                values.append(value_fn())
            bounds = (lower, upper)
        return compute_field_grid(points, values, dimensions=dims, bounds=bounds, initial_value=default_value)
