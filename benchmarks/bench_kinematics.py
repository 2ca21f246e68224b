"""Kinematics timings on the shared robots: loading, setConfig, getTransform,
getJacobian, getPositionJacobian and getCom, as medians in microseconds.

    python benchmarks/bench_kinematics.py                 # this interpreter's klampt
    python benchmarks/bench_kinematics.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2) and the table shows
other/this: a ratio of 3 means this implementation is 3x faster.
"""
import os
import random
import warnings

from benchcommon import data_dir, median_us, run

ROBOTS = ["robots/tx90l.rob", "robots/ur5.rob", "robots/kinova_gen3_7dof.urdf", "robots/baxter.rob", "robots/atlas.rob"]


def measure():
    import klampt

    warnings.simplefilter("ignore")  # loader warnings about the shared files

    results = {}
    for rel in ROBOTS:
        path = os.path.join(data_dir(), rel)
        name = os.path.basename(rel)

        def load():
            w = klampt.WorldModel()
            if not w.readFile(path):
                raise RuntimeError("cannot load " + path)
            return w

        row = {"load": median_us(load, repeat=3, number=1)}
        world = load()
        robot = world.robot(0)
        n = robot.numLinks()
        qmin, qmax = robot.getJointLimits()
        rng = random.Random(0)
        configs = [[rng.uniform(max(a, -3.0), min(b, 3.0)) for a, b in zip(qmin, qmax)] for _ in range(16)]
        env = {"robot": robot, "last": robot.link(n - 1), "p": [0.1, 0.05, 0.02]}
        env.update(("c%d" % k, c) for k, c in enumerate(configs))
        # Each call sets another configuration.
        row["setConfig"] = median_us("\n".join("robot.setConfig(c%d)" % k for k in range(16)), env=env, calls=16)
        robot.setConfig(configs[3])
        for column, stmt in [("getTransform", "last.getTransform()"), ("getJacobian", "last.getJacobian(p)"),
                             ("getPositionJacobian", "last.getPositionJacobian(p)"), ("getCom", "robot.getCom()")]:
            row[column] = median_us(stmt, env=env)
        row["links"] = n
        results[name] = row
    return results


def print_table(mine, other=None):
    columns = ["load", "setConfig", "getTransform", "getJacobian", "getPositionJacobian", "getCom"]
    print("median time per call, microseconds" + (" (this / other = speed-up)" if other else ""))
    print("%-26s %5s " % ("robot", "links") + " ".join("%21s" % c for c in columns))
    for name, row in mine.items():
        cells = []
        for c in columns:
            if other and name in other:
                o = other[name][c]
                cells.append("%8.2f/%-7.2f %4.1fx" % (row[c], o, o / row[c]))
            else:
                cells.append("%21.2f" % row[c])
        print("%-26s %5d " % (name, row["links"]) + " ".join(cells))


def main():
    run(__file__, __doc__, measure, print_table)

if __name__ == "__main__":
    main()
