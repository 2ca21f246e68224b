# Run with the reference python: records what the reference's
# klampt.plan.motionplanning time-scaling functions return on a set of cases,
# and HermiteTrajectory.makeMinTimeSpline with and without velocities.
# Usage: python make_plan_time_scaling_reference.py plan_time_scaling_reference.json
import json
import math
import random
import sys

from klampt.model.trajectory import HermiteTrajectory
from klampt.plan import motionplanning as mp

INF = float('inf')


def finite(x):
    """JSON has no inf: infinite bounds are written as the string 'inf'."""
    if isinstance(x, (list, tuple)):
        return [finite(v) for v in x]
    if isinstance(x, float) and math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    return x


def record(fn, args):
    try:
        return {"fn": fn, "args": finite(args), "result": getattr(mp, fn)(*args)}
    except Exception as e:
        return {"fn": fn, "args": finite(args), "raises": type(e).__name__, "message": str(e)}


cases = []
for args in [(0, 0, 1, 0, -10, 10, 1, 1), (0, 0, 3, 0, -10, 10, 1, 1), (0, 1, 1, 0, -10, 10, 2, 1),
             (0, 1, -1, 0, -10, 10, 2, 1), (0, -1, 2, 0.5, -10, 10, 2, 3), (0, 0.5, 0.3, 0.5, -10, 10, 1, 1),
             (0, 0, 1, 0, -10, 1, 1, 1), (0, 1, 0.5, 0, -10, 1, 2, 1), (0.9, 1, 0.95, 0, -10, 1, 2, 1),
             (0, 0, 2, 0, -1, 1, 1, 1), (0, -1, 0.5, 0, -0.3, 1, 2, 1), (0, 0, 1, 0, -1, 1, INF, 1),
             (0, 0, 0, 0, -1, 2, 1, 1)]:
    cases.append(record("interpolate_1d_min_time", list(args)))
for args in [(0, 0, 2, 0, 3.0, -10, 10, 1), (0, 0, 1, 0, 2.0, -10, 10, 10), (0, 1, 1, 0, 3.0, -10, 10, 10),
             (0, 1, 0, 1, 2.0, -10, 10, 10), (0, 0, 1, 0, 0.5, -10, 10, 1), (0, 0, 5, 0, 3.0, -10, 1, 10)]:
    cases.append(record("interpolate_1d_min_accel", list(args)))
for args in [([0, 0], [0, 0], [1, 2], [0, 0], [-10, -10], [10, 10], [1, 1], [1, 1]),
             ([0, 0], [0, 0], [1, 0.5], [0, 0], [-10, -10], [10, 10], [1, 1], [1, 1]),
             ([0.9], [1], [0.95], [0], [-1], [1], [2], [1]),
             ([0], [0], [2], [0], [-1], [1], [2], [1]),
             ([0, 0], [0, 0], [1, 0], [0, 0], [-10, -10], [10, 10], [1, 1], [1, 1]),
             ([0, 0], [1, 0], [0, 1], [0, 0], [-10, -10], [10, 10], [1, 1], [1, 1]),
             ([0, 0, 0], [0.5, -0.2, 0], [1, -1, 0.3], [0, 0.1, 0], [-10] * 3, [10] * 3, [1, 2, 1], [1, 1, 3])]:
    cases.append(record("interpolate_nd_min_time", [list(a) for a in args]))
for args in [([0, 0], [1, 2], [1, 1], [1, 1]), ([0, 0, 1], [1, -2, 1], [1, 3, 1], [2, 1, 1]),
             ([0, 0], [1, 0], [1, 1], [1, 1]), ([0, 0], [0, 0], [1, 1], [1, 1])]:
    cases.append(record("interpolate_nd_min_time_linear", [list(a) for a in args]))
for args in [(0, 1, 2), (1, -2, 1), (0, 0, 1)]:
    cases.append(record("brake_1d", list(args)))
for args in [([0, 0], [1, -1], [-10, -10], [10, 10], [2, 2]), ([0, 0], [1, -0.5], [-10, -10], [10, 10], [1, 1]),
             ([0, 0], [1, 0], [-10, -10], [10, 10], [1, 1])]:
    cases.append(record("brake_nd", [list(a) for a in args]))
for i in (0, 1, 5, 6):
    nd = [c for c in cases if c["fn"] == "interpolate_nd_min_time"][i]
    cases.append(record("combine_nd_cubic", list(nd["result"])))

# makeMinTimeSpline with velocities: random smooth legs.
rng = random.Random(4)
splines = []
for k in range(5):
    n = 3
    milestones = [[rng.uniform(-1, 1) for _ in range(n)] for _ in range(4)]
    velocities = [[0.0] * n] + [[rng.uniform(-0.3, 0.3) for _ in range(n)] for _ in range(2)] + [[0.0] * n]
    vmax, amax = [1.0, 1.5, 2.0], [2.0, 1.0, 3.0]
    for vel in (None, velocities):
        H = HermiteTrajectory()
        H.makeMinTimeSpline(milestones, velocities=vel, vmax=vmax, amax=amax)
        ts = [H.endTime() * j / 20.0 for j in range(21)]
        splines.append({"milestones": milestones, "velocities": vel, "vmax": vmax, "amax": amax,
                        "times": H.times, "samples": [[t, H.eval(t), H.deriv(t)] for t in ts]})

with open(sys.argv[1], "w") as f:
    json.dump({"cases": cases, "splines": splines}, f, indent=0)
