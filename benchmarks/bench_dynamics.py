"""Dynamics timings on the shared robots: every dynamics method of RobotModel
and RobotModelLink (the last link), as medians in microseconds per call.

    python benchmarks/bench_dynamics.py                 # this interpreter's klampt
    python benchmarks/bench_dynamics.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2) and the table shows
other/this: a ratio of 3 means this implementation is 3x faster. Each method is
timed at a fixed random configuration and velocity (the same in both runs).
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
PLOCAL = [0.1, 0.05, 0.02]
GRAVITY = [0, 0, -9.8]


def data_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "..", "shared", "klampt-data")
    return os.path.abspath(os.environ.get("KLAMPT_DATA_DIR", default))


def median_us(fn, repeat=7):
    """Median over `repeat` batches of the time per call, in microseconds."""
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-7)
    number = max(1, min(20000, int(0.02 / once)))  # aim for ~20 ms batches
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number * 1e6)
    return statistics.median(samples)


def methods(robot):
    """(name, callable) for every dynamics method, at the robot's current state."""
    n = robot.numLinks()
    rng = random.Random(1)
    ddq = [rng.uniform(-1, 1) for _ in range(n)]
    tau = [rng.uniform(-1, 1) for _ in range(n)]
    link = robot.link(n - 1)
    return [
        ("getMassMatrix", robot.getMassMatrix),
        ("getMassMatrixInv", robot.getMassMatrixInv),
        ("getMassMatrixDeriv", lambda: robot.getMassMatrixDeriv(n // 2)),
        ("getMassMatrixTimeDeriv", robot.getMassMatrixTimeDeriv),
        ("getCoriolisForceMatrix", robot.getCoriolisForceMatrix),
        ("getCoriolisForces", robot.getCoriolisForces),
        ("getGravityForces", lambda: robot.getGravityForces(GRAVITY)),
        ("torquesFromAccel", lambda: robot.torquesFromAccel(ddq)),
        ("accelFromTorques", lambda: robot.accelFromTorques(tau)),
        ("getComVelocity", robot.getComVelocity),
        ("getLinearMomentum", robot.getLinearMomentum),
        ("getAngularMomentum", robot.getAngularMomentum),
        ("getKineticEnergy", robot.getKineticEnergy),
        ("getTotalInertia", robot.getTotalInertia),
        ("link.getAcceleration", lambda: link.getAcceleration(ddq)),
        ("link.getPointAcceleration", lambda: link.getPointAcceleration(PLOCAL, ddq)),
        ("link.getAngularAcceleration", lambda: link.getAngularAcceleration(ddq)),
        ("link.getPositionHessian", lambda: link.getPositionHessian(PLOCAL)),
        ("link.getOrientationHessian", link.getOrientationHessian),
    ]


def measure():
    import klampt

    results = {}
    for rel in ROBOTS:
        path = os.path.join(data_dir(), rel)
        world = klampt.WorldModel()
        if not world.readFile(path):
            raise RuntimeError("cannot load " + path)
        robot = world.robot(0)
        n = robot.numLinks()
        qmin, qmax = robot.getJointLimits()
        rng = random.Random(0)
        robot.setConfig([rng.uniform(max(a, -3.0), min(b, 3.0)) for a, b in zip(qmin, qmax)])
        robot.setVelocity([rng.uniform(-1, 1) for _ in range(n)])
        row = {name: median_us(fn) for name, fn in methods(robot)}
        row["links"] = n
        results[os.path.basename(rel)] = row
    return results


def print_table(mine, other=None):
    robots = list(mine)
    names = [k for k in next(iter(mine.values())) if k != "links"]
    print("median time per call, microseconds" + (" (this / other = speed-up)" if other else ""))
    print("%-28s " % "method" + " ".join("%24s" % ("%s (%d)" % (r[:17], mine[r]["links"])) for r in robots))
    for name in names:
        cells = []
        for r in robots:
            t = mine[r][name]
            if other and r in other:
                o = other[r][name]
                cells.append("%8.2f/%-8.2f %5.1fx" % (t, o, o / t))
            else:
                cells.append("%24.2f" % t)
        print("%-28s " % name + " ".join(cells))


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
