"""Dynamics timings on the shared robots: every dynamics method of RobotModel
and RobotModelLink (the last link), as medians in microseconds per call.

    python benchmarks/bench_dynamics.py                 # this interpreter's klampt
    python benchmarks/bench_dynamics.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2) and the table shows
other/this: a ratio of 3 means this implementation is 3x faster. Each method is
timed at a fixed random configuration and velocity (the same in both runs).
"""
import os
import random
import warnings

from benchcommon import data_dir, median_us, run

ROBOTS = ["robots/tx90l.rob", "robots/ur5.rob", "robots/kinova_gen3_7dof.urdf", "robots/baxter.rob", "robots/atlas.rob"]
PLOCAL = [0.1, 0.05, 0.02]
GRAVITY = [0, 0, -9.8]


def methods(robot):
    """(name, statement) for every dynamics method, at the robot's current
    state, and the namespace the statements run in."""
    n = robot.numLinks()
    rng = random.Random(1)
    env = {
        "robot": robot,
        "link": robot.link(n - 1),
        "i": n // 2,
        "ddq": [rng.uniform(-1, 1) for _ in range(n)],
        "tau": [rng.uniform(-1, 1) for _ in range(n)],
        "plocal": PLOCAL,
        "gravity": GRAVITY,
    }
    return [
        ("getMassMatrix", "robot.getMassMatrix()"),
        ("getMassMatrixInv", "robot.getMassMatrixInv()"),
        ("getMassMatrixDeriv", "robot.getMassMatrixDeriv(i)"),
        ("getMassMatrixTimeDeriv", "robot.getMassMatrixTimeDeriv()"),
        ("getCoriolisForceMatrix", "robot.getCoriolisForceMatrix()"),
        ("getCoriolisForces", "robot.getCoriolisForces()"),
        ("getGravityForces", "robot.getGravityForces(gravity)"),
        ("torquesFromAccel", "robot.torquesFromAccel(ddq)"),
        ("accelFromTorques", "robot.accelFromTorques(tau)"),
        ("getComVelocity", "robot.getComVelocity()"),
        ("getLinearMomentum", "robot.getLinearMomentum()"),
        ("getAngularMomentum", "robot.getAngularMomentum()"),
        ("getKineticEnergy", "robot.getKineticEnergy()"),
        ("getTotalInertia", "robot.getTotalInertia()"),
        ("link.getAcceleration", "link.getAcceleration(ddq)"),
        ("link.getPointAcceleration", "link.getPointAcceleration(plocal, ddq)"),
        ("link.getAngularAcceleration", "link.getAngularAcceleration(ddq)"),
        ("link.getPositionHessian", "link.getPositionHessian(plocal)"),
        ("link.getOrientationHessian", "link.getOrientationHessian()"),
    ], env


def measure():
    import klampt

    warnings.simplefilter("ignore")  # loader warnings about the shared files

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
        statements, env = methods(robot)
        row = {name: median_us(stmt, env=env) for name, stmt in statements}
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
    run(__file__, __doc__, measure, print_table)

if __name__ == "__main__":
    main()
