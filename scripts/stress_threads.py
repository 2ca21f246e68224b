"""Multi-thread stress test: plans, batch queries, offscreen screenshots,
simulation steps and world edits run in parallel threads on one world.

    python scripts/stress_threads.py                 # 60 s
    python scripts/stress_threads.py --seconds 600

Every thread repeats its task until the time is up; a task may raise only
the errors the API documents for a world edited meanwhile (RuntimeError
naming the change, e.g. a simulator of a world whose structure changed).
Prints each thread's count of completed tasks and of expected errors; exit
status 1 when a thread raised anything else, or a task never completed.
"""
import argparse
import math
import os
import sys
import threading
import time
import traceback
import warnings

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPECTED = ("changed structure", "was removed", "links changed", "Invalid plan index", "Invalid cspace index")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--world", default=os.path.join(REPO, "data", "worlds", "arm_table.xml"))
    args = parser.parse_args()
    warnings.simplefilter("ignore")

    from klampt import Simulator, WorldModel, vis
    from klampt.batch import queries
    from klampt.plan import robotplanning

    world = WorldModel()
    if not world.readFile(args.world):
        raise SystemExit("could not load " + args.world)
    robot = world.robot(0)
    q0 = robot.getConfig()
    vis.init("offscreen")
    vis.resizeWindow(160, 120)
    vis.add("world", world)
    stop = time.time() + args.seconds
    counts, expected, failures = {}, {}, []

    def plans(i):
        w = world.copy()
        r = w.robot(0)
        target = [q + 0.2 * math.sin(i + k) for k, q in enumerate(q0)]
        qmin, qmax = r.getJointLimits()
        target = [min(b, max(a, q)) for a, b, q in zip(qmin, qmax, target)]
        plan = robotplanning.plan_to_config(w, r, target, movingSubset="all", verbose=False, type="rrt")
        if plan is not None:
            plan.planMore(30)
            plan.getPath()
            plan.close()

    def batches(i):
        configs = [[q + 0.1 * math.sin(i * 7 + k + j) for k, q in enumerate(q0)] for j in range(64)]
        queries.forward_kinematics(robot, configs)
        queries.self_collides(robot, configs)

    def screenshots(i):
        img = vis.screenshot()
        assert img.shape == (120, 160, 3)

    def simulation(i):
        sim = Simulator(world)
        for _ in range(10):
            sim.simulate(0.001)

    def edits(i):
        t = world.makeTerrain("stress_%d" % i)
        assert t.geometry().loadFile(os.path.join(REPO, "data", "meshes", "box_unit.off"))
        t.geometry().translate([2.0 + 0.1 * (i % 10), 0, 0])
        world.remove(t)
        r = world.robot(0)
        r.setConfig([q + 0.01 * math.sin(i + k) for k, q in enumerate(q0)])

    tasks = {"plans": plans, "batches": batches, "screenshots": screenshots, "simulation": simulation,
             "edits": edits}

    def run(name, task):
        counts[name], expected[name] = 0, 0
        i = 0
        while time.time() < stop:
            try:
                task(i)
                counts[name] += 1
            except RuntimeError as e:
                if any(s in str(e) for s in EXPECTED):
                    expected[name] += 1
                else:
                    failures.append((name, traceback.format_exc()))
                    return
            except Exception:
                failures.append((name, traceback.format_exc()))
                return
            i += 1

    threads = [threading.Thread(target=run, args=item, name=item[0]) for item in tasks.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    vis.kill()
    for name in tasks:
        print("%-12s %6d tasks done, %4d expected errors" % (name, counts.get(name, 0), expected.get(name, 0)))
    for name, tb in failures:
        print("FAILED in %s:\n%s" % (name, tb))
    return 1 if failures or not all(counts.get(n) for n in tasks) else 0


if __name__ == "__main__":
    sys.exit(main())
