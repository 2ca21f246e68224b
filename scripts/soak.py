"""Soak test: load, simulate, plan, collide, render and free a world many
times, reporting the process's resident memory as it goes.

    python scripts/soak.py                       # 10000 cycles of the demo world
    python scripts/soak.py --cycles 300 --world ../shared/klampt-data/tx90blocks.xml

Each cycle loads the world into a fresh WorldModel, simulates 20 steps of
1 ms, plans 20 iterations towards a random configuration, asks the world for
collisions, renders one offscreen frame (every --render-every cycles; 0 for
none) and frees everything. Prints the RSS every 100 cycles and, at the end,
its growth after --warm-up cycles; exit status 1 when that growth exceeds
--max-growth MiB or a cycle raised.
"""
import argparse
import gc
import math
import os
import sys
import time
import warnings

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_mib():
    """The process's resident set size in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def cycle(path, i, render):
    """One load / simulate / plan / collide / render / free cycle."""
    from klampt import Simulator, WorldModel
    from klampt.model import collide
    from klampt.plan import robotplanning
    w = WorldModel()
    if not w.readFile(path):
        raise RuntimeError("could not load " + path)
    sim = Simulator(w)
    for _ in range(20):
        sim.simulate(0.001)
    robot = w.robot(0)
    qmin, qmax = robot.getJointLimits()
    # a target near the start (a random one is often in self collision)
    target = [min(b, max(a, q + 0.3 * math.sin(i + k)))
              for k, (a, b, q) in enumerate(zip(qmin, qmax, robot.getConfig()))]
    plan = robotplanning.plan_to_config(w, robot, target, movingSubset="all", verbose=False, type="rrt")
    if plan is not None:
        plan.planMore(20)
        plan.close()
    list(collide.WorldCollider(w).collisions())
    if render:
        from klampt import vis
        vis.add("world", w)
        vis.screenshot()
        vis.clear()
    del sim, plan, robot, w
    gc.collect()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=10000)
    parser.add_argument("--warm-up", type=int, default=20)
    parser.add_argument("--world", default=os.path.join(REPO, "data", "worlds", "arm_table.xml"))
    parser.add_argument("--render-every", type=int, default=10, help="render one frame every N cycles (0: never)")
    parser.add_argument("--max-growth", type=float, default=16.0, help="allowed RSS growth after warm-up, MiB")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if args.render_every:
        from klampt import vis
        vis.init("offscreen")
        vis.resizeWindow(320, 240)
    start_time = time.time()
    start = None
    for i in range(args.cycles):
        if i == args.warm_up:
            start = rss_mib()
        cycle(args.world, i, args.render_every and i % args.render_every == 0)
        if i % 100 == 0 or i == args.cycles - 1:
            print("cycle %6d  rss %7.1f MiB  %6.0f s" % (i, rss_mib(), time.time() - start_time), flush=True)
    growth = rss_mib() - (start if start is not None else rss_mib())
    print("RSS growth after %d warm-up cycles: %.1f MiB over %d cycles" % (args.warm_up, growth,
                                                                           max(0, args.cycles - args.warm_up)))
    return 1 if growth > args.max_growth else 0


if __name__ == "__main__":
    sys.exit(main())
