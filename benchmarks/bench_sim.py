"""Simulation timings: milliseconds per Simulator.simulate(0.01) call, on
tx90blocks.xml (the tx90 robot holding still among five mesh blocks on a
table), on 20 mesh boxes falling on a plane and on 20 primitive boxes falling
on a primitive plane, the last also with the autoDisable setting (resting
objects sleep), for 2 s each; and on piles of dense meshes for 3 s each: 10
and 22 mugs (srimugsmooth, 22,300 triangles) dropped in layers onto the block
terrain, and the tx90 arm reaching down into a 10-mug pile and sweeping
through it. Each scene reports the median and the slowest call, the whole
run's time, and how many objects end it resting.

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
PILE_CALLS = 300  # 3 s for the mug piles
SCENES = ["tx90blocks", "20 mesh boxes", "20 primitive boxes", "20 prim. autoDisable",
          "10-mug pile", "22-mug pile", "tx90 into mug pile"]
# tx90pr2.rob configurations: above the pile, down in it with the gripper
# pointing down (2 cm above the block at its lowest), and swept towards -y.
ARM_ABOVE = [0, 0.35, 0.41, -1.70, 3.124, 1.026, -0.058, 0, 0.048, 0.048, -0.048, 0.048]
ARM_DOWN = [0, 0.0, 0.9, -1.70, 3.124, 0.55, -0.058, 0, 0.048, 0.048, -0.048, 0.048]
ARM_SWEPT = [0, -0.35, 0.9, -1.70, 3.124, 0.55, -0.058, 0, 0.048, 0.048, -0.048, 0.048]
ARM_MOVES = {0: ARM_ABOVE, 60: ARM_DOWN, 120: ARM_SWEPT, 160: ARM_ABOVE}  # call index -> milestone


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


def mug_pile(klampt, count, centre=(0.0, 0.0), robot=False):
    """Mugs in layers of four on a 12.5 cm grid, each layer shifted and the
    mugs turned so that a layer falls onto the one below."""
    from klampt.math import so3

    w = klampt.WorldModel()
    if robot:
        w.loadRobot(os.path.join(data_dir(), "robots", "tx90pr2.rob"))
    w.loadTerrain(os.path.join(data_dir(), "terrains", "block.off"))
    for i in range(count):
        mug = w.loadRigidObject(os.path.join(data_dir(), "objects", "srimugsmooth.obj"))
        layer, k = divmod(i, 4)
        x = centre[0] + 0.125 * (k % 2) - 0.0625 + 0.05 * (layer % 2) - 0.025
        y = centre[1] + 0.125 * (k // 2) - 0.0625 + 0.03 * ((layer // 2) % 2) - 0.015
        R = so3.mul(so3.rotation([0, 0, 1], 0.7 * i), so3.rotation([1, 0, 0], 0.3 * ((i % 3) - 1)))
        mug.setTransform(R, [x, y, 0.07 + 0.13 * layer])
    return w


def scene(klampt, name):
    if name == "tx90blocks":
        w = klampt.WorldModel()
        if not w.readFile(os.path.join(data_dir(), "tx90blocks.xml")):
            raise RuntimeError("cannot load tx90blocks.xml")
        return w
    if name == "10-mug pile":
        return mug_pile(klampt, 10)
    if name == "22-mug pile":
        return mug_pile(klampt, 22)
    if name == "tx90 into mug pile":
        return mug_pile(klampt, 10, centre=(0.72, 0.0), robot=True)
    return falling_boxes(klampt, mesh=name.startswith("20 mesh"))


def resting(w, floor_top, min_height):
    """Objects whose origin is at least min_height above the terrain top."""
    return sum(w.rigidObject(i).getTransform()[1][2] >= floor_top + min_height for i in range(w.numRigidObjects()))


def at_rest(sim, w):
    """Objects moving slower than 1 cm/s and 0.2 rad/s."""
    def slow(obj):
        wv, v = sim.body(obj).getVelocity()
        return sum(x * x for x in v) < 1e-4 and sum(x * x for x in wv) < 0.04
    return sum(slow(w.rigidObject(i)) for i in range(w.numRigidObjects()))


def measure():
    import klampt

    results = {}
    for name in SCENES:
        w = scene(klampt, name)
        sim = klampt.Simulator(w)
        if name.endswith("autoDisable"):
            sim.setSetting("autoDisable", "1")
        pile = "mug" in name
        times = []
        for call in range(PILE_CALLS if pile else CALLS):
            if name.startswith("tx90 into") and call in ARM_MOVES:
                sim.controller(0).addMilestone(ARM_MOVES[call])
            t0 = time.perf_counter()
            sim.simulate(0.01)
            times.append(time.perf_counter() - t0)
        if pile:
            rest = at_rest(sim, w)
        else:
            # The blocks sit on the table top (z = 0.645); a box's centre is
            # 5 cm above the plane when it rests (less 5 mm of tolerance).
            top, height = (0.645, 0.0) if name == "tx90blocks" else (0.0, 0.045)
            rest = resting(w, top, height)
        results[name] = {"ms": statistics.median(times) * 1e3, "max_ms": max(times) * 1e3, "total_s": sum(times),
                         "resting": rest, "objects": w.numRigidObjects()}
        # Free the simulator now: Klamp't prints a message to stdout when it
        # closes ODE, which must come before the JSON line of --json.
        del sim, w
        gc.collect()
    return results


def print_table(mine, other=None):
    print("per simulate(0.01) call: median and slowest (ms), whole run (s)"
          + (", this/other and the speed-up other/this" if other else ""))
    cols = ("median ms", "slowest ms", "run s")
    print("%-20s" % "scene" + "".join("%26s" % c for c in cols) + "%10s" % "resting"
          + ("%14s" % "other resting" if other else ""))
    for name, row in mine.items():
        rest = "%d/%d" % (row["resting"], row["objects"])
        values = (row["ms"], row["max_ms"], row["total_s"])
        o = other.get(name) if other else None
        if o:
            theirs = (o["ms"], o["max_ms"], o["total_s"])
            cells = ["%9.3f/%-9.3f %5.1fx" % (a, b, b / a) for a, b in zip(values, theirs)]
            print("%-20s" % name + "".join("%26s" % c for c in cells) + "%10s" % rest
                  + "%14s" % ("%d/%d" % (o["resting"], o["objects"])))
        else:
            print("%-20s" % name + "".join("%26.3f" % v for v in values) + "%10s" % rest)


def main():
    run(__file__, __doc__, measure, print_table)
    # Klamp't prints a message when ODE closes at exit, after --json's line.
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
