"""The batch functions of :mod:`klampt.batch`: argument checking, then the
native batch query (``klampt._robotsim._batch_*``), here or in chunks on an
executor (:mod:`klampt.batch.distributed`)."""
import numpy as np

from ..robotsim import IKObjective, RobotModel, WorldModel
from . import _local, distributed


def _threads(num_threads):
    if num_threads is None:
        return 0
    if int(num_threads) < 1:
        raise ValueError("num_threads must be >= 1 (or None for every core)")
    return int(num_threads)


def _configs(configs, n):
    q = np.ascontiguousarray(configs, dtype=float)
    if q.ndim != 2 or q.shape[1] != n:
        raise ValueError("configs must have shape (N, %d), got %s" % (n, q.shape))
    return q


def _robot(robot):
    if not isinstance(robot, RobotModel):
        raise TypeError("robot must be a RobotModel")
    return robot


def _link_index(robot, link):
    if isinstance(link, str):
        return robot.link(link).index
    i = int(link)
    if not 0 <= i < robot.numLinks():
        raise IndexError("link index %d out of range [0, %d)" % (i, robot.numLinks()))
    return i


def _robot_in_world(world, robot):
    if not isinstance(world, WorldModel):
        raise TypeError("world must be a WorldModel")
    if isinstance(robot, RobotModel):
        if robot.world != world.index or robot.index < 0:
            raise ValueError("robot must be a robot of the world (or its index)")
        return robot.index
    i = int(robot)
    if not 0 <= i < world.numRobots():
        raise IndexError("robot index %d out of range [0, %d)" % (i, world.numRobots()))
    return i


#: The computation of each batch function on one machine, by name (what executors' workers run).
LOCAL = _local.LOCAL


def _run(name, models, split, fixed, n, num_threads, executor, chunk_size):
    if executor is None:
        return LOCAL[name](*models, *split, num_threads=_threads(num_threads), **fixed)
    return distributed.map_chunks(executor, name, models, split, fixed, n, num_threads, chunk_size)


def forward_kinematics(robot, configs, links=None, num_threads=None, executor=None, chunk_size=None):
    """World transforms of links over many configurations.

    Args:
        robot (RobotModel): the robot (it is not changed).
        configs (array-like): (N, n) configurations.
        links (list, optional): link indices or names; default: every link.
        num_threads (int, optional): native threads (default: every core
            available; with an executor, 1 per chunk).
        executor (optional): a concurrent.futures.Executor or a
            dask.distributed.Client to run chunks on.
        chunk_size (int, optional): configurations per chunk with an executor.

    Returns:
        ndarray: (N, len(links), 4, 4) homogeneous transforms, entry [i, k]
        equal to ``se3.homogeneous(robot.link(links[k]).getTransform())``
        after ``robot.setConfig(configs[i])``.
    """
    robot = _robot(robot)
    q = _configs(configs, robot.numLinks())
    links = list(range(robot.numLinks())) if links is None else [_link_index(robot, l) for l in links]
    return _run('fk', (robot,), [q], {'links': links}, len(q), num_threads, executor, chunk_size)


def jacobians(robot, configs, link, local_point=(0.0, 0.0, 0.0), num_threads=None, executor=None, chunk_size=None):
    """Jacobians of a point of a link over many configurations.

    Returns:
        ndarray: (N, 6, n), entry i equal to
        ``robot.link(link).getJacobian(local_point)`` after
        ``robot.setConfig(configs[i])`` (angular rows first).

    Other arguments as :func:`forward_kinematics`.
    """
    robot = _robot(robot)
    q = _configs(configs, robot.numLinks())
    p = [float(x) for x in local_point]
    if len(p) != 3:
        raise ValueError("local_point must have 3 entries")
    fixed = {'link': _link_index(robot, link), 'local_point': p}
    return _run('jacobians', (robot,), [q], fixed, len(q), num_threads, executor, chunk_size)


def self_collides(robot, configs, return_pairs=False, num_threads=None, executor=None, chunk_size=None):
    """Self-collision over many configurations.

    Returns:
        ndarray of bool (N,): ``robot.selfCollides()`` after
        ``robot.setConfig(configs[i])``. With return_pairs, also an (N, 2)
        int array: the first colliding enabled link pair (i < j, in the order
        (0,1), (0,2), ..., (1,2), ...), (-1, -1) where free.

    Other arguments as :func:`forward_kinematics`.
    """
    robot = _robot(robot)
    q = _configs(configs, robot.numLinks())
    return _run('self_collides', (robot,), [q], {'return_pairs': bool(return_pairs)}, len(q), num_threads,
                executor, chunk_size)


def world_collides(world, robot, configs, return_pairs=False, num_threads=None, executor=None, chunk_size=None):
    """Collision of a robot with the rest of its world over many configurations.

    The rest of the world is its terrains, rigid objects and the links of its
    other robots, where they are now. Elements without geometry are skipped.

    Args:
        world (WorldModel): the world.
        robot (RobotModel or int): a robot of the world, or its index.
        configs (array-like): (N, n) configurations of that robot.

    Returns:
        ndarray of bool (N,): whether any link geometry collides
        (``Geometry3D.collides``) with any element's. With return_pairs, also
        an (N, 2) int array: the first colliding (link index, world ID of the
        element), links in index order and elements in ID order, (-1, -1)
        where free.

    Other arguments as :func:`forward_kinematics`.
    """
    index = _robot_in_world(world, robot)
    q = _configs(configs, world.robot(index).numLinks())
    fixed = {'robot': index, 'return_pairs': bool(return_pairs)}
    return _run('world_collides', (world,), [q], fixed, len(q), num_threads, executor, chunk_size)


def solve_ik(robot, objectives, initial=None, tol=1e-3, max_iters=100, restarts=0, start_random=False, seed=0,
             num_threads=None, executor=None, chunk_size=None):
    """Inverse kinematics for many targets.

    Target i is solved as::

        robot.setConfig(initial[i])
        s = IKSolver(robot); [s.add(o) for o in objectives[i]]
        s.setTolerance(tol); s.setMaxIters(max_iters)
        if restarts == 0 and not start_random:
            ok = s.solve()
        else:
            klampt.set_random_seed(seed + i)
            ok = s._solveGlobal(restarts, start_random)   # what ik.solve_global runs
        solution = robot.getConfig()

    on a copy of the robot per thread, so targets do not depend on each other
    or on the thread count.

    Args:
        robot (RobotModel): the robot (it is not changed).
        objectives (list): N targets, each an IKObjective or a list of them.
        initial (array-like, optional): (N, n) start configurations, or one
            (n,) for every target; default: the robot's configuration.
        tol (float): residual tolerance.
        max_iters (int): Newton iterations per attempt.
        restarts (int): random restarts after the first attempt.
        start_random (bool): start the first attempt from a random configuration.
        seed (int): target i draws its restarts from seed + i.

    Returns:
        tuple: (solutions, solved): an (N, n) array (the best attempt where
        the solve failed) and an (N,) bool array.

    Other arguments as :func:`forward_kinematics`.
    """
    robot = _robot(robot)
    targets = []
    for k, o in enumerate(objectives):
        t = [o] if isinstance(o, IKObjective) else list(o) if isinstance(o, (list, tuple)) else None
        if not t or not all(isinstance(x, IKObjective) for x in t):
            raise ValueError("objectives[%d] must be an IKObjective or a non-empty list of them" % k)
        targets.append(t)
    n = robot.numLinks()
    q0 = np.ascontiguousarray(robot.getConfig() if initial is None else initial, dtype=float)
    if q0.ndim == 1:
        if q0.shape != (n,):
            raise ValueError("initial must have shape (%d,) or (N, %d)" % (n, n))
        q0 = np.repeat(q0[None, :], len(targets), axis=0)
    elif q0.shape != (len(targets), n):
        raise ValueError("initial must have shape (%d,) or (%d, %d), got %s" % (n, len(targets), n, q0.shape))
    if int(restarts) < 0 or int(max_iters) < 0 or int(seed) < 0:
        raise ValueError("restarts, max_iters and seed must be >= 0")
    seeds = np.arange(len(targets), dtype=np.int64) + int(seed)
    fixed = {'tol': float(tol), 'max_iters': int(max_iters), 'restarts': int(restarts),
             'start_random': bool(start_random)}
    return _run('ik', (robot,), [targets, q0, seeds], fixed, len(targets), num_threads, executor, chunk_size)


def simulate(world, duration, dt=0.01, robot=0, initial_configs=None, initial_velocities=None, controls=None,
             control_type='pid', runs=None, num_threads=None, executor=None, chunk_size=None):
    """N independent simulations of a world.

    Run i simulates a copy of the world (``world.copy()``) in which the robot
    starts at initial_configs[i] and initial_velocities[i]; before each of
    its ``round(duration / dt)`` steps of ``Simulator.simulate(dt)`` it sends
    controls[i][step] (``setPIDCommand(u, 0)`` for control_type 'pid',
    ``setTorque(u)`` for 'torque'). The world is not changed.

    Args:
        world (WorldModel): the world.
        duration (float): simulated time of each run.
        dt (float): step between controls and samples.
        robot (int or RobotModel): the robot whose state is set, controlled
            and recorded (-1 or None with a world without robots).
        initial_configs, initial_velocities (array-like, optional): (N, n).
        controls (array-like, optional): (N, steps, m), m = numDrivers() or
            numLinks().
        control_type (str): 'pid' or 'torque'.
        runs (int, optional): N when no per-run array gives it.

    Returns:
        dict: 'times' (steps+1,), 'configs' and 'velocities' (N, steps+1, n)
        (the robot's actual state, ``Simulator.getActualConfig``),
        'object_transforms' (N, steps+1, objects, 4, 4) and 'status' (N,)
        (the worst simulator status of each run).

    Other arguments as :func:`forward_kinematics`.
    """
    if not isinstance(world, WorldModel):
        raise TypeError("world must be a WorldModel")
    index = -1 if robot is None or (not isinstance(robot, RobotModel) and int(robot) == -1) \
        else _robot_in_world(world, robot)
    if not dt > 0:
        raise ValueError("dt must be positive")
    steps = int(round(duration / dt))
    if steps < 0:
        raise ValueError("duration must be >= 0")
    n = world.robot(index).numLinks() if index >= 0 else 0
    arrays = []
    for name, a in (('initial_configs', initial_configs), ('initial_velocities', initial_velocities),
                    ('controls', controls)):
        arrays.append(None if a is None else np.ascontiguousarray(a, dtype=float))
    sizes = set(len(a) for a in arrays if a is not None)
    if runs is not None:
        sizes.add(int(runs))
    if len(sizes) != 1:
        raise ValueError("give runs, or per-run arrays that agree on the number of runs")
    N = sizes.pop()
    for name, a, ndim in zip(('initial_configs', 'initial_velocities'), arrays[:2], (2, 2)):
        if a is not None and (a.ndim != 2 or a.shape[1] != n):
            raise ValueError("%s must have shape (N, %d), got %s" % (name, n, a.shape))
    if arrays[2] is not None and (arrays[2].ndim != 3 or arrays[2].shape[1] != steps):
        raise ValueError("controls must have shape (N, %d, m), got %s" % (steps, arrays[2].shape))
    if control_type not in ('pid', 'torque'):
        raise ValueError("control_type must be 'pid' or 'torque'")
    fixed = {'robot': index, 'dt': float(dt), 'steps': steps, 'control_type': control_type}
    split = arrays + [np.arange(N)]
    return _run('simulate', (world,), split, fixed, N, num_threads, executor, chunk_size)
