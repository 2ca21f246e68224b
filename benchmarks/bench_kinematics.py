"""Kinematics timings on the shared robots: loading, setConfig, getTransform,
getJacobian, getPositionJacobian and getCom, as medians in microseconds.

    python benchmarks/bench_kinematics.py                 # this interpreter's klampt
    python benchmarks/bench_kinematics.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2) and the table shows
other/this: a ratio of 3 means this implementation is 3x faster.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

ROBOTS = ["robots/tx90l.rob", "robots/ur5.rob", "robots/kinova_gen3_7dof.urdf", "robots/baxter.rob", "robots/atlas.rob"]


def data_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "..", "shared", "klampt-data")
    return os.path.abspath(os.environ.get("KLAMPT_DATA_DIR", default))


def median_us(fn, repeat=7, number=None):
    """Median over `repeat` batches of the time per call, in microseconds."""
    if number is None:  # aim for ~20 ms batches
        t0 = time.perf_counter()
        fn()
        once = max(time.perf_counter() - t0, 1e-7)
        number = max(1, min(20000, int(0.02 / once)))
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number * 1e6)
    return statistics.median(samples)


def measure():
    import klampt

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
        last = robot.link(n - 1)
        state = {"k": 0}

        def set_config():
            state["k"] = (state["k"] + 1) & 15
            robot.setConfig(configs[state["k"]])

        robot.setConfig(configs[3])
        row["setConfig"] = median_us(set_config)
        row["getTransform"] = median_us(last.getTransform)
        p = [0.1, 0.05, 0.02]
        row["getJacobian"] = median_us(lambda: last.getJacobian(p))
        row["getPositionJacobian"] = median_us(lambda: last.getPositionJacobian(p))
        row["getCom"] = median_us(robot.getCom)
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
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", metavar="PYTHON", help="another interpreter whose klampt to measure too")
    ap.add_argument("--json", action="store_true", help="print the measurements as JSON")
    args = ap.parse_args()
    mine = measure()
    if args.json:
        print(json.dumps(mine))
        return
    other = None
    if args.compare:
        # Run from a neutral folder so the other interpreter imports its own klampt.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["KLAMPT_DATA_DIR"] = data_dir()
        out = subprocess.run([args.compare, os.path.abspath(__file__), "--json"], capture_output=True, text=True,
                             cwd="/", env=env)
        if out.returncode != 0:
            sys.exit("the other interpreter failed:\n" + out.stderr)
        other = json.loads(out.stdout.strip().splitlines()[-1])
    print_table(mine, other)


if __name__ == "__main__":
    main()
