"""klampt.batch equals loops of single calls on the same robots and worlds,
bit for bit, on one thread and on several, locally and on executors."""
import concurrent.futures
import os

import numpy as np
import pytest

import klampt
from klampt import IKSolver, Simulator, WorldModel, batch
from klampt.math import se3
from klampt.model import ik

from conftest import PROJECT_DATA, random_config_array

ARM_TABLE = os.path.join(PROJECT_DATA, "worlds", "arm_table.xml")


@pytest.mark.parametrize("threads", [1, 2])
def test_forward_kinematics_equals_single_calls(module_arm_table, threads):
    robot = module_arm_table.robot(0)
    before = robot.getConfig()
    Q = random_config_array(robot, 300)
    T = batch.forward_kinematics(robot, Q, num_threads=threads)
    assert T.shape == (300, robot.numLinks(), 4, 4)
    assert robot.getConfig() == before  # the robot itself does not move
    for i, q in enumerate(Q):
        robot.setConfig(q)
        expected = [se3.homogeneous(robot.link(k).getTransform()) for k in range(robot.numLinks())]
        assert np.array_equal(T[i], np.array(expected))
    robot.setConfig(before)
    assert np.array_equal(batch.forward_kinematics(robot, Q), T)  # every core
    sub = batch.forward_kinematics(robot, Q[:5], links=["flange", 2], num_threads=threads)
    assert np.array_equal(sub, T[:5][:, [6, 2]])
    # Links off the chain of the chosen ones are not needed.
    assert np.array_equal(batch.forward_kinematics(robot, Q, links=[3], num_threads=threads), T[:, [3]])


@pytest.mark.parametrize("threads", [1, 2])
def test_jacobians_equal_single_calls(module_arm_table, threads):
    robot = module_arm_table.robot(0)
    Q = random_config_array(robot, 100, seed=1)
    J = batch.jacobians(robot, Q, 6, [0.01, 0.02, 0.1], num_threads=threads)
    for i, q in enumerate(Q):
        robot.setConfig(q)
        assert np.array_equal(J[i], robot.link(6).getJacobian([0.01, 0.02, 0.1]))


def first_self_pair(robot):
    """Brute force: the first enabled colliding link pair, from Geometry3D.collides."""
    n = robot.numLinks()
    for i in range(n):
        for j in range(i + 1, n):
            gi, gj = robot.link(i).geometry(), robot.link(j).geometry()
            if robot.selfCollisionEnabled(i, j) and not gi.empty() and not gj.empty() and gi.collides(gj):
                return [i, j]
    return [-1, -1]


@pytest.mark.parametrize("threads", [1, 2])
def test_self_collision_equals_single_calls(module_arm_table, threads):
    robot = module_arm_table.robot(0)
    Q = random_config_array(robot, 300, seed=2)
    hit, pairs = batch.self_collides(robot, Q, return_pairs=True, num_threads=threads)
    assert hit.dtype == bool and pairs.shape == (300, 2)
    assert np.array_equal(batch.self_collides(robot, Q, num_threads=threads), hit)
    expected_hit, expected_pairs = [], []
    for q in Q:
        robot.setConfig(q)
        expected_hit.append(robot.selfCollides())
        expected_pairs.append(first_self_pair(robot))
    assert 0 < sum(expected_hit) < len(Q)  # both answers occur
    assert hit.tolist() == expected_hit
    assert pairs.tolist() == expected_pairs


def first_world_pair(world, robot):
    ids = list(range(world.numTerrains() + world.numRigidObjects()))
    for r in range(world.numRobots()):
        if r != robot.index:
            ids += [world.robot(r).link(k).getID() for k in range(world.robot(r).numLinks())]
    for l in range(robot.numLinks()):
        g = robot.link(l).geometry()
        if g.empty():
            continue
        for i in ids:
            h = world.geometry(i)
            if not h.empty() and g.collides(h):
                return [l, i]
    return [-1, -1]


@pytest.mark.parametrize("threads", [1, 2])
def test_world_collision_equals_single_calls(threads):
    w = WorldModel()
    assert w.readFile(ARM_TABLE)
    w.remove(w.terrain(0))  # without the ground the base is free and answers vary
    robot = w.robot(0)
    Q = random_config_array(robot, 200, seed=3)
    hit, pairs = batch.world_collides(w, robot, Q, return_pairs=True, num_threads=threads)
    expected = []
    for q in Q:
        robot.setConfig(q)
        expected.append(first_world_pair(w, robot))
    assert 0 < sum(p[0] >= 0 for p in expected) < len(Q)
    assert pairs.tolist() == expected
    assert hit.tolist() == [p[0] >= 0 for p in expected]
    assert np.array_equal(batch.world_collides(w, 0, Q, num_threads=threads), hit)


def ik_targets(robot, N, seed):
    Q = random_config_array(robot, N, seed=seed, scale=0.8)
    objs = []
    for q in Q:
        robot.setConfig(q)
        objs.append(ik.objective(robot.link(6), local=[0, 0, 0.05], world=robot.link(6).getWorldPosition([0, 0, 0.05])))
    return objs


def ik_loop(robot, objectives, q0, restarts, seed, tol=1e-3, iters=100, start_random=False):
    sols, oks = [], []
    for i, obj in enumerate(objectives):
        robot.setConfig(q0)
        s = IKSolver(robot)
        for o in (obj if isinstance(obj, list) else [obj]):
            s.add(o)
        s.setTolerance(tol)
        s.setMaxIters(iters)
        if restarts == 0 and not start_random:
            ok = s.solve()
        else:
            klampt.set_random_seed(seed + i)
            ok = s._solveGlobal(restarts, start_random)
        sols.append(robot.getConfig())
        oks.append(ok)
    return np.array(sols), oks


@pytest.mark.parametrize("threads,restarts", [(1, 0), (2, 0), (1, 4), (2, 4)])
def test_ik_equals_single_calls(module_arm_table, threads, restarts):
    robot = module_arm_table.robot(0)
    objs = ik_targets(robot, 40, seed=4)
    q0 = random_config_array(robot, 1, seed=5, scale=0.2)[0]
    sols, ok = batch.solve_ik(robot, objs, initial=q0, restarts=restarts, seed=7, num_threads=threads)
    expected_sols, expected_ok = ik_loop(robot, objs, q0, restarts, 7)
    assert ok.tolist() == expected_ok
    assert np.array_equal(sols, expected_sols)
    assert sum(ok) >= 0.6 * len(objs)
    if restarts:
        assert sum(ok) > sum(batch.solve_ik(robot, objs, initial=q0, num_threads=threads)[1])


def test_ik_per_target_starts_and_many_objectives(module_arm_table):
    robot = module_arm_table.robot(0)
    objs = ik_targets(robot, 10, seed=6)
    both = [[o, ik.objective(robot.link(3), local=[0, 0, 0], world=robot.link(3).getWorldPosition([0, 0, 0]))]
            for o in objs]
    starts = random_config_array(robot, 10, seed=8, scale=0.3)
    sols, ok = batch.solve_ik(robot, both, initial=starts, start_random=True, seed=3, num_threads=2)
    for i in range(10):
        s, o = ik_loop(robot, [both[i]], starts[i], 0, 3 + i, start_random=True)
        assert np.array_equal(sols[i], s[0]) and ok[i] == o[0]


def sim_loop(world, initial, controls, duration, dt, control_type="pid"):
    configs, objects, status = [], [], []
    for i in range(len(initial)):
        w = world.copy()
        w.robot(0).setConfig(initial[i])
        sim = Simulator(w)
        c = sim.controller(0)
        run_q = [sim.getActualConfig(0)]
        run_T = [[se3.homogeneous(w.rigidObject(k).getTransform()) for k in range(w.numRigidObjects())]]
        worst = 0
        for s in range(int(round(duration / dt))):
            if control_type == "pid":
                c.setPIDCommand(list(controls[i][s]), [0.0] * len(controls[i][s]))
            else:
                c.setTorque(list(controls[i][s]))
            sim.simulate(dt)
            worst = max(worst, sim.getStatus())
            run_q.append(sim.getActualConfig(0))
            run_T.append([se3.homogeneous(w.rigidObject(k).getTransform()) for k in range(w.numRigidObjects())])
        configs.append(run_q)
        objects.append(run_T)
        status.append(worst)
    return np.array(configs), np.array(objects), status


@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_equals_single_calls(module_arm_table, threads):
    robot = module_arm_table.robot(0)
    N, duration, dt = 3, 0.1, 0.02
    q0 = np.array(robot.getConfig()) + 0.05 * np.random.RandomState(9).randn(N, robot.numLinks())
    q0[:, 0] = 0
    u = np.array(robot.getConfig()) + 0.3 * np.random.RandomState(10).randn(N, 5, robot.numLinks())
    res = batch.simulate(module_arm_table, duration, dt, initial_configs=q0, controls=u, num_threads=threads)
    expected_q, expected_T, expected_status = sim_loop(module_arm_table, q0, u, duration, dt)
    assert np.array_equal(res["configs"], expected_q)
    assert np.array_equal(res["object_transforms"], expected_T)
    assert res["times"].shape == (6,) and res["times"][-1] == pytest.approx(duration)
    assert res["status"].tolist() == expected_status
    # the objects settle onto the table: they moved, and by the same amounts in every run
    assert not np.array_equal(expected_T[:, 0], expected_T[:, -1])


def test_native_simulate_checks_rows_against_runs_and_steps(module_arm_table):
    # klampt.batch.simulate checks shapes before calling the native function;
    # the native function checks them too, so that no caller reads past an array.
    from klampt import _robotsim
    robot = module_arm_table.robot(0)
    n = robot.numLinks()
    q0 = np.tile(robot.getConfig(), (3, 1))
    u = np.tile(robot.getConfig(), (2, 4, 1))
    call = _robotsim._batch_simulate
    with pytest.raises(ValueError, match="initial_configs must have one row per run"):
        call(module_arm_table, 0, 0.01, 4, 2, q0, None, None, "pid", 1)
    with pytest.raises(ValueError, match="initial_velocities must have one row per run"):
        call(module_arm_table, 0, 0.01, 4, 2, None, np.zeros((3, n)), None, "pid", 1)
    for runs, steps in ((3, 4), (2, 5)):
        with pytest.raises(ValueError, match=r"controls must have shape \(runs, steps"):
            call(module_arm_table, 0, 0.01, steps, runs, None, None, u, "pid", 1)
    res = call(module_arm_table, 0, 0.01, 4, 2, q0[:2], None, u, "pid", 1)
    assert res["configs"].shape == (2, 5, n)


def test_simulate_torque_control(module_arm_table):
    robot = module_arm_table.robot(0)
    N, duration, dt = 2, 0.06, 0.02
    q0 = np.tile(robot.getConfig(), (N, 1))
    u = np.random.RandomState(11).randn(N, 3, robot.numDrivers())
    res = batch.simulate(module_arm_table, duration, dt, initial_configs=q0, controls=u, control_type="torque", num_threads=2)
    expected_q, _, _ = sim_loop(module_arm_table, q0, u, duration, dt, "torque")
    assert np.array_equal(res["configs"], expected_q)


def near_contact_configs(robot, collides, seed, count):
    """Configurations within 1e-9 (in joint space) of a change of answer:
    bisections between a colliding and a free random configuration, both
    ends kept, so the narrow phase decides at distances near 0."""
    Q = random_config_array(robot, 400, seed=seed)
    answers = [collides(q) for q in Q]
    hits = [q for q, a in zip(Q, answers) if a]
    free = [q for q, a in zip(Q, answers) if not a]
    out = []
    for a, b in zip(hits[:count], free[:count]):
        for _ in range(35):
            m = 0.5 * (a + b)
            if collides(m):
                a = m
            else:
                b = m
        out += [a, b]
    return np.array(out)


@pytest.mark.parametrize("threads", [1, 2])
def test_collision_near_contact_equals_single_calls(threads):
    w = WorldModel()
    assert w.readFile(ARM_TABLE)
    w.remove(w.terrain(0))
    robot = w.robot(0)

    def self_at(q):
        robot.setConfig(q)
        return robot.selfCollides()

    def world_at(q):
        robot.setConfig(q)
        return first_world_pair(w, robot)[0] >= 0

    for collides, seed in ((self_at, 4), (world_at, 5)):
        Q = near_contact_configs(robot, collides, seed, 12)
        expected = [collides(q) for q in Q]
        assert 0 < sum(expected) < len(Q)
        if collides is self_at:
            hit, pairs = batch.self_collides(robot, Q, return_pairs=True, num_threads=threads)
            expected_pairs = []
            for q in Q:
                robot.setConfig(q)
                expected_pairs.append(first_self_pair(robot))
            assert pairs.tolist() == expected_pairs
            assert batch.self_collides(robot, Q, num_threads=threads).tolist() == expected
        else:
            hit = batch.world_collides(w, robot, Q, num_threads=threads)
        assert hit.tolist() == expected


def test_first_pair_is_reported_whatever_collided_before(module_arm_table):
    """A worker tries the pair it found last first only when no pair is
    reported: with return_pairs the pair stays the first in index order even
    when the configuration before collided through a later pair."""
    robot = module_arm_table.robot(0)
    Q = random_config_array(robot, 2000, seed=6)
    hit, pairs = batch.self_collides(robot, Q, return_pairs=True, num_threads=1)
    multi = []
    for q, h in zip(Q, hit):
        if h:
            robot.setConfig(q)
            multi.append(first_self_pair(robot))
    assert len(set(map(tuple, multi))) > 1  # several different first pairs occur
    order = np.argsort(pairs[:, 0] * 100 + pairs[:, 1])[::-1]  # later pairs first, so hints go stale
    h2, p2 = batch.self_collides(robot, Q[order], return_pairs=True, num_threads=1)
    assert np.array_equal(p2, pairs[order])
    assert np.array_equal(batch.self_collides(robot, Q[order], num_threads=1), hit[order])


def test_empty_and_single_batches(module_arm_table):
    robot = module_arm_table.robot(0)
    n = robot.numLinks()
    none = np.zeros((0, n))
    assert batch.forward_kinematics(robot, none).shape == (0, n, 4, 4)
    assert batch.jacobians(robot, none, 6).shape == (0, 6, n)
    hit, pairs = batch.self_collides(robot, none, return_pairs=True)
    assert hit.shape == (0,) and pairs.shape == (0, 2)
    hit, pairs = batch.world_collides(module_arm_table, robot, none, return_pairs=True)
    assert hit.shape == (0,) and pairs.shape == (0, 2)
    solutions, solved = batch.solve_ik(robot, [])
    assert solutions.shape == (0, n) and solved.shape == (0,)

    q = random_config_array(robot, 1, seed=7)
    robot.setConfig(q[0])
    T = batch.forward_kinematics(robot, q, links=[6])
    assert np.array_equal(T[0, 0], np.array(se3.homogeneous(robot.link(6).getTransform())))
    assert np.array_equal(batch.jacobians(robot, q, 6)[0], robot.link(6).getJacobian([0, 0, 0]))
    assert batch.self_collides(robot, q).tolist() == [robot.selfCollides()]
    assert batch.world_collides(module_arm_table, robot, q, return_pairs=True)[1].tolist() == [first_world_pair(module_arm_table, robot)]
    target = ik.objective(robot.link(6), local=[0, 0, 0], world=[0.5, 0.1, 0.6])
    robot.setConfig(q[0])
    s = IKSolver(robot)
    s.add(target)
    ok = s.solve()
    solutions, solved = batch.solve_ik(robot, [target], initial=q[0])
    assert solved.tolist() == [ok] and solutions[0].tolist() == robot.getConfig()


def test_wrong_shapes_and_nans_raise_value_error(module_arm_table):
    robot = module_arm_table.robot(0)
    n = robot.numLinks()
    target = ik.objective(robot.link(6), local=[0, 0, 0], world=[0.5, 0.1, 0.6])
    calls = {
        "forward_kinematics": lambda Q: batch.forward_kinematics(robot, Q),
        "jacobians": lambda Q: batch.jacobians(robot, Q, 6),
        "self_collides": lambda Q: batch.self_collides(robot, Q),
        "world_collides": lambda Q: batch.world_collides(module_arm_table, robot, Q),
        "solve_ik": lambda Q: batch.solve_ik(robot, [target] * max(1, len(Q)), initial=Q),
    }
    for name, call in calls.items():
        for shape in ((3, n + 1), (3, n - 1), (n,) if name != "solve_ik" else (n + 1,), (2, 3, n)):
            with pytest.raises(ValueError):
                call(np.zeros(shape))
        for value in (np.nan, np.inf):
            bad = random_config_array(robot, 4, seed=8)
            bad[2, 3] = value
            with pytest.raises(ValueError, match="configuration 2"):
                call(bad)


def test_bad_arguments_raise(module_arm_table):
    robot = module_arm_table.robot(0)
    n = robot.numLinks()
    with pytest.raises(ValueError):
        batch.forward_kinematics(robot, np.zeros((3, n + 1)))
    with pytest.raises(ValueError):
        batch.forward_kinematics(robot, np.zeros(n))
    bad = np.zeros((4, n))
    bad[2, 3] = np.nan
    for f in (batch.forward_kinematics, batch.self_collides):
        with pytest.raises(ValueError, match="configuration 2"):
            f(robot, bad)
    with pytest.raises(ValueError):
        batch.world_collides(module_arm_table, 0, bad)
    with pytest.raises(IndexError):
        batch.forward_kinematics(robot, np.zeros((2, n)), links=[n])
    with pytest.raises(IndexError):
        batch.jacobians(robot, np.zeros((2, n)), -1)
    with pytest.raises(IndexError):
        batch.world_collides(module_arm_table, 3, np.zeros((2, n)))
    with pytest.raises(ValueError):
        batch.solve_ik(robot, [None])
    with pytest.raises(ValueError):
        batch.solve_ik(robot, [[]])
    with pytest.raises(ValueError):
        batch.forward_kinematics(robot, np.zeros((2, n)), num_threads=0)
    with pytest.raises(ValueError):
        batch.simulate(module_arm_table, 0.1, 0.02, initial_configs=np.zeros((2, n)), runs=3)
    with pytest.raises(ValueError):
        batch.simulate(module_arm_table, 0.1, 0.02, controls=np.zeros((2, 5, n + 1)))
    empty = batch.forward_kinematics(robot, np.zeros((0, n)))
    assert empty.shape == (0, n, 4, 4)


def test_default_threads_are_the_available_cores(module_arm_table):
    assert batch.available_cores() == len(os.sched_getaffinity(0))
    assert klampt._robotsim._batch_threads(0, 1000) == batch.available_cores()
    assert klampt._robotsim._batch_threads(0, 1) == 1


@pytest.mark.parametrize("kind", ["thread", "process"])
def test_executor_gives_the_serial_results(module_arm_table, kind):
    robot = module_arm_table.robot(0)
    Q = random_config_array(robot, 90, seed=12)
    objs = ik_targets(robot, 12, seed=13)
    make = concurrent.futures.ThreadPoolExecutor if kind == "thread" else concurrent.futures.ProcessPoolExecutor
    with make(max_workers=2) as ex:
        assert np.array_equal(batch.forward_kinematics(robot, Q, executor=ex, chunk_size=7),
                              batch.forward_kinematics(robot, Q))
        a, b = batch.self_collides(robot, Q, True, executor=ex), batch.self_collides(robot, Q, True)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
        a, b = batch.solve_ik(robot, objs, restarts=2, seed=1, executor=ex, chunk_size=5), \
            batch.solve_ik(robot, objs, restarts=2, seed=1)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_forward_kinematics_and_jacobians_of_branching_and_floating_robots():
    w = WorldModel()
    assert w.readFile(os.path.join(PROJECT_DATA, "worlds", "grippers.xml"))
    for r in range(w.numRobots()):
        robot = w.robot(r)
        n = robot.numLinks()
        Q = random_config_array(robot, 40, seed=20 + r, scale=0.5)
        Q[~np.isfinite(Q)] = 0.3  # unbounded floating joints
        for links in ([n - 1], [0, n // 2]):
            T = batch.forward_kinematics(robot, Q, links=links, num_threads=2)
            J = batch.jacobians(robot, Q, links[-1], [0.1, 0.2, 0.3], num_threads=2)
            for i, q in enumerate(Q):
                robot.setConfig(q)
                assert np.array_equal(T[i], np.array([se3.homogeneous(robot.link(k).getTransform()) for k in links]))
                assert np.array_equal(J[i], robot.link(links[-1]).getJacobian([0.1, 0.2, 0.3]))


@pytest.mark.parametrize("world_file", ["tx90obstacles.xml", "baxterserial.xml", "athlete_plane.xml"])
def test_shared_robots_equal_single_calls(shared_data, world_file):
    w = WorldModel()
    assert w.readFile(os.path.join(shared_data, world_file))
    robot = w.robot(0)
    n = robot.numLinks()
    Q = random_config_array(robot, 60, seed=30, scale=0.7)
    Q[~np.isfinite(Q)] = 0.0  # unbounded (floating base) joints
    T = batch.forward_kinematics(robot, Q, num_threads=2)
    J = batch.jacobians(robot, Q, n - 1, [0, 0, 0.05], num_threads=2)
    self_hit, self_pairs = batch.self_collides(robot, Q, return_pairs=True, num_threads=2)
    world_hit, world_pairs = batch.world_collides(w, robot, Q, return_pairs=True, num_threads=2)
    for i, q in enumerate(Q):
        robot.setConfig(q)
        assert np.array_equal(T[i], np.array([se3.homogeneous(robot.link(k).getTransform()) for k in range(n)]))
        assert np.array_equal(J[i], robot.link(n - 1).getJacobian([0, 0, 0.05]))
        assert self_hit[i] == robot.selfCollides()
        assert self_pairs[i].tolist() == first_self_pair(robot)
        assert world_pairs[i].tolist() == first_world_pair(w, robot)
        assert world_hit[i] == (world_pairs[i][0] >= 0)
