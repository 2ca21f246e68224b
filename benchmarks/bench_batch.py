"""klampt.batch against Python loops of single calls, as medians in
milliseconds per batch: forward kinematics of the end link, self-collision and
world collision on 10^4 configurations and IK on 10^3 targets of the 6-DOF arm
(data/worlds/arm_table.xml without its ground slab), with 1 and 2 native
threads; then 16 simulations of 3 s of the whole world (a batch of a few
seconds) on a Dask LocalCluster of 1 and 2 single-threaded worker
processes, against the same batch run here.

    python benchmarks/bench_batch.py [--compare REFERENCE_PYTHON]

Columns: loop (the Python loop), t1 / t2 (the batch on 1 / 2 threads),
loop/t1, loop/t2 and t1/t2 (speed-ups). The loop and the batches are timed
in turn, seven rounds, and each speed-up is the median of the rounds' own.
The setConfig row is the loop that only sets each configuration: what every
loop pays per item before its query. With --compare, the same loops run
under the other interpreter's klampt (which has no batch module), in the
same sitting: columns ref loop and ref/t1, what a loop written for that
klampt gains from the batch. Dask rows: local (the batch here on as many
threads as workers), dask (the same batch on the cluster), overhead
(dask/local - 1). The load average before and after is printed: on a shared
machine, t1/t2 means little unless it is well below the core count.
"""
import os
import statistics
import time

# numpy's BLAS threads spin for a while after each call and would take the
# core the second batch thread needs; nothing here needs them.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from benchcommon import run

HERE = os.path.dirname(os.path.abspath(__file__))
WORLD = os.path.join(HERE, "..", "data", "worlds", "arm_table.xml")
N_CONFIGS, N_TARGETS = 10000, 1000
DASK_RUNS, DASK_DURATION = 16, 3.0  # a batch of a few seconds


def median_ms(f, repeat, warm=True):
    if warm:
        f()  # first calls build per-thread caches and collision structures
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def measure_interleaved(loop, batch_call, rounds=7):
    """The loop, then the batch on 1 and 2 threads (median of 3 each), round
    after round, so that a machine whose speed drifts (other work, clock
    changes) slows both sides of each round alike: medians of each and of
    the per-round speed-ups."""
    loop(), batch_call(1), batch_call(2)  # warm: per-thread caches, collision structures
    rows = []
    for _ in range(rounds):
        row = {"loop": median_ms(loop, 1, warm=False)}
        row.update(t1=median_ms(lambda: batch_call(1), 3, warm=False), t2=median_ms(lambda: batch_call(2), 3, warm=False))
        rows.append(row)
    out = {k: statistics.median(r[k] for r in rows) for k in ("loop", "t1", "t2")}
    out.update({"loop/t1": statistics.median(r["loop"] / r["t1"] for r in rows),
                "loop/t2": statistics.median(r["loop"] / r["t2"] for r in rows),
                "t1/t2": statistics.median(r["t1"] / r["t2"] for r in rows)})
    return out


def setup():
    from klampt import WorldModel
    from klampt.model import ik
    w = WorldModel()
    if not w.readFile(WORLD):
        raise RuntimeError("cannot load " + WORLD)
    w.remove(w.terrain(0))
    robot = w.robot(0)
    lo, hi = (np.array(v) for v in robot.getJointLimits())
    rng = np.random.RandomState(0)
    Q = lo + rng.rand(N_CONFIGS, len(lo)) * (hi - lo)
    objs = []
    for q in 0.5 * (lo + hi) + 0.8 * (rng.rand(N_TARGETS, len(lo)) - 0.5) * (hi - lo):
        robot.setConfig(q)
        objs.append(ik.objective(robot.link(6), local=[0, 0, 0], world=robot.link(6).getWorldPosition([0, 0, 0])))
    robot.setConfig(0.5 * (lo + hi))
    return w, robot, Q, objs


def has_batch():
    try:
        from klampt import batch  # noqa: F401
    except ImportError:
        return False
    return True


def measure():
    from klampt import IKSolver
    w, robot, Q, objs = setup()
    end = robot.numLinks() - 1
    q0 = robot.getConfig()

    def fk_loop():
        for q in Q:
            robot.setConfig(q)
            robot.link(end).getTransform()

    def self_loop():
        for q in Q:
            robot.setConfig(q)
            robot.selfCollides()

    others = [w.geometry(i) for i in range(w.numTerrains() + w.numRigidObjects())]
    links = [robot.link(k).geometry() for k in range(robot.numLinks())]

    def world_loop():
        for q in Q:
            robot.setConfig(q)
            any(g.collides(o) for g in links if not g.empty() for o in others)

    def config_loop():
        for q in Q:
            robot.setConfig(q)

    def ik_loop():
        for o in objs:
            robot.setConfig(q0)
            s = IKSolver(robot)
            s.add(o)
            s.solve()
            robot.getConfig()

    loops = {"FK 1e4": fk_loop, "selfCollides 1e4": self_loop, "worldCollides 1e4": world_loop, "IK 1e3": ik_loop}
    results = {"load before": os.getloadavg()[0], "setConfig 1e4": {"loop": median_ms(config_loop, 5)}}
    if not has_batch():
        for name, loop in loops.items():
            results[name] = {"loop": median_ms(loop, 5)}
    else:
        from klampt import batch
        batches = {
            "FK 1e4": lambda t: batch.forward_kinematics(robot, Q, links=[end], num_threads=t),
            "selfCollides 1e4": lambda t: batch.self_collides(robot, Q, num_threads=t),
            "worldCollides 1e4": lambda t: batch.world_collides(w, robot, Q, num_threads=t),
            "IK 1e3": lambda t: batch.solve_ik(robot, objs, initial=q0, num_threads=t),
        }
        for name, fn in batches.items():
            results[name] = measure_interleaved(loops[name], fn)
        results.update(measure_dask())
    results["load after"] = os.getloadavg()[0]
    return results


def measure_dask():
    from dask.distributed import Client, LocalCluster
    from klampt import WorldModel, batch
    world = WorldModel()
    if not world.readFile(WORLD):
        raise RuntimeError("cannot load " + WORLD)
    robot = world.robot(0)
    rng = np.random.RandomState(1)
    q0 = np.tile(robot.getConfig(), (DASK_RUNS, 1)) + 0.05 * rng.randn(DASK_RUNS, robot.numLinks())
    q0[:, 0] = 0

    def work(**kw):
        return batch.simulate(world, DASK_DURATION, 0.01, initial_configs=q0, **kw)

    results = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=40) as cluster, Client(cluster) as client:
            work(executor=client)  # workers import klampt and receive the world once
            results["Dask sim %d worker%s" % (workers, "s" if workers > 1 else "")] = {
                "local": median_ms(lambda: work(num_threads=workers), 3),
                "dask": median_ms(lambda: work(executor=client), 3)}
    return results


def print_table(mine, other):
    print("load average (1 min): %.2f before, %.2f after, %d cores" % (mine["load before"], mine["load after"],
                                                                     os.cpu_count()))
    ref = "%9s %8s" % ("ref loop", "ref/t1") if other else ""
    print("%-20s %9s %9s %9s %8s %8s %6s %s" % ("batch (ms)", "loop", "t1", "t2", "loop/t1", "loop/t2", "t1/t2", ref))
    for name, r in mine.items():
        if not isinstance(r, dict) or "loop" not in r:
            continue
        ref = ""
        if other:
            ref = "%9.2f" % other[name]["loop"] + (" %8.1f" % (other[name]["loop"] / r["t1"]) if "t1" in r else "")
        if "t1" in r:
            print("%-20s %9.2f %9.2f %9.2f %8.2f %8.2f %6.2f %s" % (
                name, r["loop"], r["t1"], r["t2"], r["loop/t1"], r["loop/t2"], r["t1/t2"], ref))
        else:
            print("%-20s %9.2f %48s%s" % (name, r["loop"], "", ref))
    print()
    print("%-20s %9s %9s %9s" % ("Dask (ms)", "local", "dask", "overhead"))
    for name, r in mine.items():
        if isinstance(r, dict) and "dask" in r:
            print("%-20s %9.1f %9.1f %8.0f%%" % (name, r["local"], r["dask"], 100 * (r["dask"] / r["local"] - 1)))


if __name__ == "__main__":
    run(__file__, __doc__, measure, print_table)
