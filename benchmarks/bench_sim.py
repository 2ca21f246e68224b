"""Simulation timings: milliseconds per Simulator.simulate(0.01) call (median
over the calls of a run), on tx90blocks.xml (the tx90 robot holding still
among five mesh blocks on a table), on 20 mesh boxes falling on a plane and
on 20 primitive boxes falling on a primitive plane, the last also with the
autoDisable setting (resting objects sleep). Each scene also reports how
many objects end the run resting on the terrain.

    python benchmarks/bench_sim.py                 # this interpreter's klampt
    python benchmarks/bench_sim.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2) and the table shows
other/this: a ratio of 3 means this implementation is 3x faster.
"""
import gc
import os
import statistics
import sys
import time

from benchcommon import data_dir, run

CALLS = 200  # 2 s of simulated time per scene
SCENES = ["tx90blocks", "20 mesh boxes", "20 primitive boxes", "20 prim. autoDisable"]


def falling_boxes(klampt, mesh):
    w = klampt.WorldModel()
    ground = w.makeTerrain("plane")
    g = klampt.Geometry3D()
    p = klampt.GeometricPrimitive()
    p.setAABB([-5, -5, -1], [5, 5, 0])
    g.setGeometricPrimitive(p)
    ground.geometry().set(g.convert("TriangleMesh") if mesh else g)
    for i in range(20):
        o = w.makeRigidObject("box%d" % i)
        gb = klampt.Geometry3D()
        pb = klampt.GeometricPrimitive()
        pb.setBox([-0.05, -0.05, -0.05], [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.1, 0.1, 0.1])
        gb.setGeometricPrimitive(pb)
        o.geometry().set(gb.convert("TriangleMesh") if mesh else gb)
        m = o.getMass()
        m.setMass(1.0)
        m.setCom([0, 0, 0])
        m.setInertia([1.0 / 600] * 3)
        o.setMass(m)
        o.setTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0.3 * (i % 5) - 0.6, 0.3 * (i // 5) - 0.45, 0.3 + 0.02 * i])
    return w


def scene(klampt, name):
    if name == "tx90blocks":
        w = klampt.WorldModel()
        if not w.readFile(os.path.join(data_dir(), "tx90blocks.xml")):
            raise RuntimeError("cannot load tx90blocks.xml")
        return w
    return falling_boxes(klampt, mesh=name.startswith("20 mesh"))


def resting(w, floor_top, min_height):
    """Objects whose origin is at least min_height above the terrain top."""
    return sum(w.rigidObject(i).getTransform()[1][2] >= floor_top + min_height for i in range(w.numRigidObjects()))


def measure():
    import klampt

    results = {}
    for name in SCENES:
        w = scene(klampt, name)
        sim = klampt.Simulator(w)
        if name.endswith("autoDisable"):
            sim.setSetting("autoDisable", "1")
        times = []
        for _ in range(CALLS):
            t0 = time.perf_counter()
            sim.simulate(0.01)
            times.append(time.perf_counter() - t0)
        # The blocks sit on the table top (z = 0.645); a box's centre is
        # 5 cm above the plane when it rests (less 5 mm of tolerance).
        top, height = (0.645, 0.0) if name == "tx90blocks" else (0.0, 0.045)
        results[name] = {"ms": statistics.median(times) * 1e3, "resting": resting(w, top, height),
                         "objects": w.numRigidObjects()}
        # Free the simulator now: Klamp't prints a message to stdout when it
        # closes ODE, which must come before the JSON line of --json.
        del sim, w
        gc.collect()
    return results


def print_table(mine, other=None):
    print("median time per simulate(0.01), ms" + (" (other / this = speed-up)" if other else ""))
    print("%-20s %24s %12s" % ("scene", "ms", "resting") + ("  %12s" % "other resting" if other else ""))
    for name, row in mine.items():
        rest = "%d/%d" % (row["resting"], row["objects"])
        if other and name in other:
            o = other[name]
            cell = "%8.3f/%-8.3f %5.1fx" % (row["ms"], o["ms"], o["ms"] / row["ms"])
            print("%-20s %24s %12s  %12s" % (name, cell, rest, "%d/%d" % (o["resting"], o["objects"])))
        else:
            print("%-20s %24.3f %12s" % (name, row["ms"], rest))


def main():
    run(__file__, __doc__, measure, print_table)
    # Klamp't prints a message when ODE closes at exit, after --json's line.
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
