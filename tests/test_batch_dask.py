"""klampt.batch and klampt.sim.batch on a dask.distributed LocalCluster of two
worker processes: the results are exactly the serial ones, in order, also when
a worker is killed in the middle of a batch."""
import os
import signal
import threading
import time

import distributed
import numpy as np
import pytest

from klampt import batch
from klampt.model import ik
from klampt.sim import batch as simbatch

from conftest import random_config_array


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=40)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def targets(robot, N):
    objs = []
    for q in random_config_array(robot, N, scale=0.8):
        robot.setConfig(q)
        objs.append(ik.objective(robot.link(6), local=[0, 0, 0], world=robot.link(6).getWorldPosition([0, 0, 0])))
    return objs


def run_inputs(robot, N, steps):
    rng = np.random.RandomState(1)
    q0 = np.tile(robot.getConfig(), (N, 1)) + 0.05 * rng.randn(N, robot.numLinks())
    q0[:, 0] = 0
    u = np.array(robot.getConfig()) + 0.3 * rng.randn(N, steps, robot.numLinks())
    return q0, u


def test_ik_and_simulations_on_two_workers_equal_serial(client, module_arm_table):
    robot = module_arm_table.robot(0)
    objs = targets(robot, 24)
    serial = batch.solve_ik(robot, objs, restarts=3, seed=2)
    remote = batch.solve_ik(robot, objs, restarts=3, seed=2, executor=client)
    assert np.array_equal(remote[0], serial[0]) and np.array_equal(remote[1], serial[1])
    q0, u = run_inputs(robot, 6, 5)
    serial = batch.simulate(module_arm_table, 0.1, 0.02, initial_configs=q0, controls=u)
    remote = batch.simulate(module_arm_table, 0.1, 0.02, initial_configs=q0, controls=u, executor=client, chunk_size=1)
    for key in serial:
        assert np.array_equal(remote[key], serial[key]), key
    # Both workers took part.
    assert len(client.scheduler_info()["workers"]) == 2


def settle_condition(k):
    return {"rigidObjects[2].transform": ([1, 0, 0, 0, 1, 0, 0, 0, 1], [0.6, -0.3, 0.75 + 0.01 * k])}


def test_sim_batch_on_two_workers_equals_serial(client, module_arm_table):
    conditions = [settle_condition(k) for k in range(6)]
    items = ["rigidObjects[2].transform", "rigidObjects[0].velocity"]
    serial = simbatch.batchSim(module_arm_table, 0.05, conditions, items, simDt=0.01)
    remote = simbatch.batchSim(module_arm_table, 0.05, conditions, items, simDt=0.01, executor=client, chunk_size=2)
    assert len(remote) == len(serial) == 6
    for a, b in zip(remote, serial):
        a.pop("wall_clock_time")
        b.pop("wall_clock_time")
        assert a == b


def test_killed_worker_chunk_is_rerun(client, module_arm_table):
    robot = module_arm_table.robot(0)
    N, steps = 8, 40  # chunks of one run of 0.4 s simulated each take a good fraction of a second
    q0, u = run_inputs(robot, N, steps)
    serial = batch.simulate(module_arm_table, 0.4, 0.01, initial_configs=q0, controls=u)
    pids = client.run(os.getpid)
    out = {}

    def run():
        out["res"] = batch.simulate(module_arm_table, 0.4, 0.01, initial_configs=q0, controls=u, executor=client, chunk_size=1)

    t = threading.Thread(target=run)
    t.start()
    victim = None
    deadline = time.time() + 30
    while victim is None and time.time() < deadline:
        busy = [addr for addr, keys in client.processing().items()
                if addr in pids and any(str(k).startswith("run_chunk") for k in keys)]
        if busy:
            victim = busy[0]
        else:
            time.sleep(0.02)
    assert victim is not None, "no chunk started"
    os.kill(pids[victim], signal.SIGKILL)
    t.join(120)
    assert not t.is_alive()
    res = out["res"]
    for key in serial:
        assert np.array_equal(res[key], serial[key]), key
    assert res["configs"].shape[0] == N
    # The killed worker is gone (its nanny started a new one in its place).
    client.wait_for_workers(2, timeout=60)
    assert victim not in client.scheduler_info()["workers"]
