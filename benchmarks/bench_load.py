"""World and robot file loading times, as medians in milliseconds: `alone`
loads the file into a fresh WorldModel and frees it each time (every mesh is
parsed and its collision structures built), `held` loads it while another
world holding the same file is alive (this klampt shares the shapes of
unchanged mesh files; Klamp't shares geometries by file name).

    python benchmarks/bench_load.py                 # this interpreter's klampt
    python benchmarks/bench_load.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2) and the table shows
other/this: a ratio of 3 means this implementation is 3x faster.
"""
import gc
import os
import statistics
import time

from benchcommon import data_dir, run

FILES = ["tx90blocks.xml", "tx90scenario0.xml", "baxterserial.xml", "robots/kinova_gen3_7dof.urdf",
         "robots/ur5.rob"]
LOADS = 7


def load(path):
    import klampt

    w = klampt.WorldModel()
    ok = w.loadRobot(path).index >= 0 if path.endswith((".rob", ".urdf")) else w.readFile(path)
    if not ok:
        raise RuntimeError("cannot load " + path)
    return w


def timed_loads(path):
    """Median time of LOADS loads in ms; each world is freed before the next."""
    times = []
    for _ in range(LOADS):
        t0 = time.perf_counter()
        w = load(path)
        times.append(time.perf_counter() - t0)
        del w
        gc.collect()
    return statistics.median(times) * 1e3


def measure():
    results = {}
    for rel in FILES:
        path = os.path.join(data_dir(), rel)
        alone = timed_loads(path)
        held = load(path)
        results[rel] = {"alone": alone, "held": timed_loads(path)}
        del held
        gc.collect()
    return results


def print_table(mine, other=None):
    print("| file | alone (ms) | held (ms) |")
    print("|---|---|---|")
    for rel in FILES:
        cells = []
        for key in ("alone", "held"):
            m = mine[rel][key]
            if other is None:
                cells.append("%.1f" % m)
            else:
                o = other[rel][key]
                cells.append("%.1f / %.1f  %.2fx" % (m, o, o / m))
        print("| %s | %s |" % (rel, " | ".join(cells)))


def main():
    run(__file__, __doc__, measure, print_table)


if __name__ == "__main__":
    main()
