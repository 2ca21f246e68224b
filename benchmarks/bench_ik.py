"""IK timings and success rates on the shared robots: klampt.model.ik.solve
with a position target, with a position + orientation target, and
ik.solve_global with 10 random restarts (pose target).

Targets are the end effector's pose at random configurations (so reachable);
each solve starts from another random configuration. Both implementations get
the same targets and starts (Python's seeded `random`). Times are per solve in
microseconds (the best of 3 passes over all problems), success is the share
of problems solved to the default tolerance (1e-3); with 500 problems its
standard error is about 2 points at 70%.

    python benchmarks/bench_ik.py                 # this interpreter's klampt
    python benchmarks/bench_ik.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2) and the table shows
other/this time ratios: 3 means this implementation is 3x faster.
"""
import os
import random
import time

from benchcommon import data_dir, run as run_benchmark

# Robot file and end-effector link (an arm's last moving link).
ROBOTS = [("robots/tx90l.rob", "Link_6"), ("robots/ur5.rob", "ee_link"), ("robots/kinova_gen3_7dof.urdf", None),
          ("robots/baxter.rob", "right_gripper"), ("robots/atlas.rob", "r_hand")]
PROBLEMS = 500
MODES = ["position", "pose", "global10"]


def random_config(rng, qmin, qmax):
    return [rng.uniform(max(a, -3.0), min(b, 3.0)) if a < b else a for a, b in zip(qmin, qmax)]


def measure():
    import klampt
    from klampt.model import ik

    results = {}
    for rel, ee in ROBOTS:
        world = klampt.WorldModel()
        if not world.readFile(os.path.join(data_dir(), rel)):
            raise RuntimeError("cannot load " + rel)
        robot = world.robot(0)
        link = robot.link(ee if ee is not None else robot.numLinks() - 1)
        qmin, qmax = robot.getJointLimits()
        rng = random.Random(1)
        problems = []
        for _ in range(PROBLEMS):
            robot.setConfig(random_config(rng, qmin, qmax))
            target = link.getTransform()
            problems.append((random_config(rng, qmin, qmax), target))

        def run(mode):
            solved, total = 0, 0.0
            klampt.set_random_seed(7)
            for start, (R, t) in problems:
                robot.setConfig(start)
                t0 = time.perf_counter()
                if mode == "position":
                    ok = ik.solve(ik.objective(link, local=[0, 0, 0], world=t))
                elif mode == "pose":
                    ok = ik.solve(ik.objective(link, R=R, t=t))
                else:
                    ok = ik.solve_global(ik.objective(link, R=R, t=t), numRestarts=10)
                total += time.perf_counter() - t0
                solved += bool(ok)
            return total / len(problems) * 1e6, solved / len(problems)

        row = {"links": robot.numLinks()}
        for mode in MODES:
            runs = [run(mode) for _ in range(3)]
            row[mode] = min(r[0] for r in runs)
            row[mode + "_success"] = runs[0][1]
        results[os.path.basename(rel)] = row
    return results


def print_table(mine, other=None):
    print("time per solve in microseconds, success rate" + (" (this / other, time speed-up)" if other else ""))
    print("%-26s %5s " % ("robot", "links") + " ".join("%34s" % m for m in MODES))
    for name, row in mine.items():
        cells = []
        for m in MODES:
            s = row[m + "_success"]
            if other and name in other:
                o, os_ = other[name][m], other[name][m + "_success"]
                cells.append("%7.1f/%-7.1f %4.1fx %4.0f%%/%-4.0f%%" % (row[m], o, o / row[m], 100 * s, 100 * os_))
            else:
                cells.append("%25.1f %7.0f%%" % (row[m], 100 * s))
        print("%-26s %5d " % (name, row["links"]) + " ".join(cells))


def main():
    run_benchmark(__file__, __doc__, measure, print_table)


if __name__ == "__main__":
    main()
