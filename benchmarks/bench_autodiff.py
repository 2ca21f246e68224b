"""klampt.math.autodiff's kinematics derivatives on the shared robots, as
medians in microseconds per call: a link point's world position and a link's
world transform (value and Jacobian in the configuration), the same point
through an expression of a configuration variable, the squared distance of
that point to a target (a composite expression's gradient), and the point of
KinematicsBuilder's whole-robot expression (n/a where a klampt fails on it).

    python benchmarks/bench_autodiff.py                 # this interpreter's klampt
    python benchmarks/bench_autodiff.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2) and the table shows
other/this: a ratio of 3 means this implementation is 3x faster.
"""
import os
import warnings

from benchcommon import data_dir, median_us, run

ROBOTS = ["robots/tx90l.rob", "robots/kinova_gen3_7dof.urdf", "robots/baxter.rob"]
OPS = ["position", "position jacobian", "transform jacobian", "expression jacobian", "distance gradient",
       "builder jacobian"]


def timed(f):
    """median_us of f, or None when this klampt fails on it (the reference's
    builder expressions fail to differentiate)."""
    try:
        f()
    except Exception:
        return None
    return median_us(f)


def measure():
    import numpy as np

    import klampt
    from klampt.math.autodiff import ad, kinematics_ad, math_ad

    warnings.simplefilter("ignore")  # loader warnings about the shared files
    results = {}
    for rel in ROBOTS:
        world = klampt.WorldModel()
        if not world.readFile(os.path.join(data_dir(), rel)):
            raise RuntimeError("cannot load " + rel)
        robot = world.robot(0)
        link = robot.link(robot.numLinks() - 1)
        qmin, qmax = robot.getJointLimits()
        q = np.array([(a + b) / 2 if abs(b - a) < 1e9 else 0.3 for a, b in zip(qmin, qmax)])
        point = kinematics_ad.WorldPosition(link, [0.0, 0.0, 0.1])
        transform = kinematics_ad.WorldTransform(link)
        x = ad.var('q')
        expression = point(x)
        target = np.array([0.5, 0.2, 0.8])
        distance = math_ad.normSquared(expression - target)
        builder = kinematics_ad.KinematicsBuilder(robot, x)
        built = builder.world_position(link.index, np.array([0.0, 0.0, 0.1]))
        results[os.path.basename(rel)] = {
            "position": timed(lambda: point.eval(q)),
            "position jacobian": timed(lambda: point.derivative(0, q)),
            "transform jacobian": timed(lambda: transform.derivative(0, q)),
            "expression jacobian": timed(lambda: expression.derivative('q', q=q)),
            "distance gradient": timed(lambda: distance.derivative('q', q=q)),
            "builder jacobian": timed(lambda: built.derivative('q', q=q)),
        }
    return results


def show(us):
    return "n/a" if us is None else "%.1f" % us


def print_table(mine, other):
    print("| robot | operation | this (us) |" + (" other (us) | other/this |" if other else ""))
    print("|---|---|---|" + ("---|---|" if other else ""))
    for robot, row in mine.items():
        for op in OPS:
            line = "| %s | %s | %s |" % (robot, op, show(row[op]))
            if other:
                theirs = other[robot][op]
                ratio = "%.1f" % (theirs / row[op]) if theirs and row[op] else "n/a"
                line += " %s | %s |" % (show(theirs), ratio)
            print(line)


if __name__ == "__main__":
    run(__file__, __doc__, measure, print_table)
