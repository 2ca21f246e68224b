"""Motion planning against the reference, with the shared benchmark scripts
(../shared/tools/plan_bench, public klampt API only, so they run on both):

- bench_robot.py run: time to first solution (process CPU) on the 60 frozen
  tx90 problems per planner setting, success, and the paths' violations
  when re-checked at 1 mm / 1 mrad; the optimal family on the first
  problems of each world with a 5 s limit, as the reference was measured;
- bench_robot.py check: the cost of one feasibility check and of one
  0.3 rad edge check of the robot C-space;
- bench_cspace2d.py: planners on a Python-defined C-space;
- here: problems solved within 100 and within 500 iterations of planMore(5)
  rounds over several seed sets (the frozen seeds k, then k + 100, k + 200,
  ...): one draw of seeds decides a count by a problem or two either way,
  since the two implementations draw different random numbers;
- here: the first plan_to_config + setEndpoints on a freshly loaded world
  (issue #196), a Python thread's rate while another thread plans, two
  plans on two threads against one after the other, and paths after 300
  more (shortcutting) iterations re-checked at 1 mm, with the edge checks
  and clearance margin of issue #217 (this implementation only).

    python benchmarks/bench_plan.py                        # this klampt
    python benchmarks/bench_plan.py --compare /work/refenv/bin/python

With --compare the same script runs under the other interpreter in the same
sitting; tables give both medians and their ratio (other / this: 10 means
ten times faster here). Times are process CPU time, which a loaded machine
does not inflate; success counts use a CPU limit per problem.
Environment: BENCH_PLAN_PLANNERS (default sbl_default,rrt), BENCH_PLAN_N
(problems per world, default 20), BENCH_PLAN_LIMIT (s, default 10),
BENCH_PLAN_OPTIMAL (default rrt*,prm*,lazyprm*,lazyrrg*), BENCH_PLAN_OPTIMAL_N
(default 10), BENCH_PLAN_GRAZING_N (default 10), BENCH_PLAN_CSPACE2D_LIMIT
(s, default 5), BENCH_PLAN_SEED_SETS (default 8), BENCH_PLAN_PARTS (default
robot,optimal,check,cspace2d,iterations,first_query,threads,grazing).
"""
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from benchcommon import data_dir, run as run_benchmark

PLANNERS = os.environ.get("BENCH_PLAN_PLANNERS", "sbl_default,rrt")
N = int(os.environ.get("BENCH_PLAN_N", "20"))
LIMIT = float(os.environ.get("BENCH_PLAN_LIMIT", "10"))
OPTIMAL = os.environ.get("BENCH_PLAN_OPTIMAL", "rrt*,prm*,lazyprm*,lazyrrg*")
OPTIMAL_N = int(os.environ.get("BENCH_PLAN_OPTIMAL_N", "10"))
OPTIMAL_LIMIT = 5.0
GRAZING_N = int(os.environ.get("BENCH_PLAN_GRAZING_N", "10"))
CSPACE2D_LIMIT = os.environ.get("BENCH_PLAN_CSPACE2D_LIMIT", "5")
SEED_SETS = int(os.environ.get("BENCH_PLAN_SEED_SETS", "8"))
PARTS = os.environ.get("BENCH_PLAN_PARTS",
                       "robot,optimal,check,cspace2d,iterations,first_query,threads,grazing").split(",")
WORLDS = ["tx90obstacles.xml", "tx90cuptable.xml", "tx90blocks.xml"]
# Issue #217's runs: (name, settings, edgeCheckResolution, extra keywords of this implementation).
GRAZING = [
    ("sbl_default eps 0.01", {"type": "sbl", "perturbationRadius": 0.5, "randomizeFrequency": 1000, "shortcut": 1},
     0.01, {}),
    ("sbl_default eps 0.05", {"type": "sbl", "perturbationRadius": 0.5, "randomizeFrequency": 1000, "shortcut": 1},
     0.05, {}),
    ("issue217 eps 0.05", {"type": "rrt*", "perturbationRadius": 0.025, "bidirectional": True, "shortcut": True,
                           "restart": False, "restartTermCond": "{foundSolution:1,maxIters:10000}"}, 0.05, {}),
    ("sbl_default eps 0.05 conservative",
     {"type": "sbl", "perturbationRadius": 0.5, "randomizeFrequency": 1000, "shortcut": 1}, 0.05,
     {"edgeCheck": "conservative"}),
    ("issue217 eps 0.05 conservative",
     {"type": "rrt*", "perturbationRadius": 0.025, "bidirectional": True, "shortcut": True, "restart": False,
      "restartTermCond": "{foundSolution:1,maxIters:10000}"}, 0.05, {"edgeCheck": "conservative"}),
    ("sbl_default eps 0.01 margin 0.02",
     {"type": "sbl", "perturbationRadius": 0.5, "randomizeFrequency": 1000, "shortcut": 1}, 0.01,
     {"collisionMargin": 0.02}),
]


def tools_dir():
    return os.path.abspath(os.path.join(data_dir(), "..", "tools", "plan_bench"))


def problems_file():
    return os.path.abspath(os.path.join(data_dir(), "..", "golden", "plan", "problems.json"))


def shared_script(name, *args):
    """Runs a shared script with this interpreter; its stdout."""
    env = dict(os.environ, KLAMPT_DATA_DIR=data_dir())
    out = subprocess.run([sys.executable, os.path.join(tools_dir(), name)] + list(args), capture_output=True,
                         text=True, cwd=tempfile.gettempdir(), env=env)
    if out.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (name, out.stderr[-3000:]))
    return out.stdout


def robot_runs(planners=PLANNERS, n=N, limit=LIMIT):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "runs.json")
        shared_script("bench_robot.py", "run", "--planners", planners, "--n", str(n), "--limit", str(limit),
                      "--validate", "--problems", problems_file(), "--out", path)
        with open(path) as f:
            return json.load(f)


def optimal_runs():
    return robot_runs(OPTIMAL, OPTIMAL_N, OPTIMAL_LIMIT)


def check_costs():
    """{world: (isFeasible us, isVisible us)} from bench_robot.py check."""
    out = {}
    for line in shared_script("bench_robot.py", "check").splitlines():
        m = re.match(r"(\S+): isFeasible ([\d.]+) us .*isVisible\(0.3 rad edge, eps 0.01\) ([\d.]+) us", line)
        if m:
            out[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    return out


def cspace2d():
    """{planner: (solved, median CPU ms, mean iterations, median length)}."""
    out = {}
    for line in shared_script("bench_cspace2d.py", "--n", "10", "--limit", CSPACE2D_LIMIT).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and "/" in cells[1]:
            out[cells[0]] = cells[1:]
    return out


ITERATION_SETTINGS = {
    "sbl_default": {"type": "sbl", "perturbationRadius": 0.5, "randomizeFrequency": 1000, "shortcut": 1},
    "rrt": {"type": "rrt", "perturbationRadius": 0.5, "bidirectional": 1},
}


def iterations(sets=SEED_SETS):
    """{"world planner": [solved within 100, within 500, runs]} over the 20
    frozen problems of each world, seeded k + 100 * s for s < sets, with
    planMore(5) rounds as bench_robot.py runs them."""
    import random
    import warnings
    warnings.simplefilter("ignore")
    import klampt
    from klampt.plan import motionplanning, robotplanning
    with open(problems_file()) as f:
        worlds = json.load(f)["worlds"]
    out = {}
    for wdesc in worlds:
        world = klampt.WorldModel()
        world.readFile(os.path.join(data_dir(), wdesc["world"]))
        robot = world.robot(0)
        for name, settings in ITERATION_SETTINGS.items():
            counts = out.setdefault("%s %s" % (wdesc["world"], name), [0, 0, 0])
            for s in range(sets):
                for k, (qs, qg) in enumerate(wdesc["pairs"][:20]):
                    motionplanning.set_random_seed(k + 100 * s)
                    random.seed(k + 100 * s)
                    robot.setConfig(qs)
                    plan = robotplanning.plan_to_config(world, robot, qg, edgeCheckResolution=0.01, **settings)
                    iters = 0
                    while iters < 500 and not plan.getPath():
                        plan.planMore(5)
                        iters += 5
                    solved = bool(plan.getPath())
                    counts[0] += solved and iters <= 100
                    counts[1] += solved
                    counts[2] += 1
    return out


FIRST_QUERY = """
import json, os, sys, time, warnings
warnings.simplefilter("ignore")
import klampt
from klampt.plan import robotplanning
w = klampt.WorldModel(); w.readFile(os.path.join(sys.argv[1], "tx90obstacles.xml"))
r = w.robot(0)
qs, qg = json.load(open(sys.argv[2]))["worlds"][0]["pairs"][0]
r.setConfig(qs)
c0, t0 = time.process_time(), time.perf_counter()
plan = robotplanning.plan_to_config(w, r, qg, **robotplanning.preferred_plan_options(r))
print(json.dumps([time.process_time() - c0, time.perf_counter() - t0]))
"""


def first_query():
    """CPU and wall seconds of the first plan_to_config (space + endpoints)
    in a fresh process, the world already loaded (median of 3 processes)."""
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", FIRST_QUERY, data_dir(), problems_file()], capture_output=True,
                             text=True, cwd=tempfile.gettempdir())
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return [statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)]


def threads():
    """(share of its solo rate a Python counting loop keeps while another
    thread plans, two plans on two threads / one after the other, in wall time)."""
    import random
    import warnings
    warnings.simplefilter("ignore")
    import klampt
    from klampt.plan import motionplanning, robotplanning
    world = klampt.WorldModel()
    world.readFile(os.path.join(data_dir(), "tx90obstacles.xml"))
    robot = world.robot(0)
    with open(problems_file()) as f:
        pairs = json.load(f)["worlds"][0]["pairs"]

    def plan(k):
        motionplanning.set_random_seed(k)
        random.seed(k)
        robot.setConfig(pairs[k][0])
        # An optimizing planner keeps working for all its iterations.
        return robotplanning.plan_to_config(world, robot, pairs[k][1], type="prm*")

    def count(seconds):
        n, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            n += 1
        return n

    solo = count(0.5)
    p = plan(0)
    stop = threading.Event()

    def keep_planning():
        while not stop.is_set():
            p.planMore(10)
    t = threading.Thread(target=keep_planning)
    t.start()
    during = count(0.5)
    stop.set()
    t.join()
    # The reference spends seconds of Python per prm* iteration on this
    # world; the ratio does not depend on the count.
    iters = 300 if hasattr(motionplanning, "robot_cspace") else 20
    t0 = time.perf_counter()
    for k in (1, 2):
        plan(k).planMore(iters)
    sequential = time.perf_counter() - t0
    plans = [plan(1), plan(2)]
    t0 = time.perf_counter()
    ts = [threading.Thread(target=q.planMore, args=(iters,)) for q in plans]
    for x in ts:
        x.start()
    for x in ts:
        x.join()
    parallel = time.perf_counter() - t0
    return [during / solo, parallel / sequential]


def grazing(n=GRAZING_N, extra=300):
    """Issue #217: {run name: (solved, colliding at 1 mm, median configurations
    in collision of those colliding, min clearance m)} after `extra` more
    iterations from the first solution, on tx90obstacles. Runs with keywords
    the reference lacks are left out there."""
    import random
    import warnings
    warnings.simplefilter("ignore")
    import klampt
    from klampt.model import collide
    from klampt.plan import motionplanning, robotcspace, robotplanning
    native = hasattr(motionplanning, "robot_cspace")
    world = klampt.WorldModel()
    world.readFile(os.path.join(data_dir(), "tx90obstacles.xml"))
    robot = world.robot(0)
    checker = robotcspace.RobotCSpace(robot, collide.WorldCollider(world))
    checker.setup()
    with open(problems_file()) as f:
        pairs = json.load(f)["worlds"][0]["pairs"][:n]
    out = {}
    for name, settings, eps, keywords in GRAZING:
        if keywords and not native:
            continue
        solved, colliding, bad, clearance = 0, 0, [], []
        for k, (qs, qg) in enumerate(pairs):
            motionplanning.set_random_seed(k)
            random.seed(k)
            robot.setConfig(qs)
            plan = robotplanning.plan_to_config(world, robot, qg, edgeCheckResolution=eps, **dict(settings, **keywords))
            if plan is None:
                continue
            c0, path = time.process_time(), None
            while path is None and time.process_time() - c0 < LIMIT:
                plan.planMore(5)
                path = plan.getPath()
            if path is None:
                continue
            plan.planMore(extra)
            path = plan.getPath() or path
            solved += 1
            count, low = 0, float("inf")
            for a, b in zip(path[:-1], path[1:]):
                m = max(1, int(math.ceil(robot.distance(a, b) / 1e-3)))
                for j in range(1, m):
                    q = robot.interpolate(a, b, j / m)
                    count += not checker.isFeasible(q)
                    if native and j % 10 == 0:
                        low = min(low, checker.clearance(q))
            colliding += count > 0
            if count:
                bad.append(count)
            clearance.append(low)
        out[name] = (solved, colliding, statistics.median(bad) if bad else 0,
                     min(clearance) if native and clearance else None)
    return out


def measure():
    parts = {"robot": robot_runs, "optimal": optimal_runs, "check": check_costs, "cspace2d": cspace2d,
             "iterations": iterations, "first_query": first_query, "threads": threads, "grazing": grazing}
    return {name: parts[name]() for name in PARTS}


def summary(runs, limit):
    """{(world, planner): (solved, n, median CPU s with failures at the limit,
    median create s, paths with violations, within 100, within 500 iterations)}."""
    out = {}
    for r in runs:
        out.setdefault((r["world"], r["planner"]), []).append(r)
    table = {}
    for key, rs in out.items():
        ok = [r for r in rs if r["ok"]]
        table[key] = (len(ok), len(rs), statistics.median(r["plan_cpu"] if r["ok"] else limit for r in rs),
                      statistics.median(r["create_cpu"] for r in rs),
                      sum(1 for r in ok if r.get("violations", 0) > 0),
                      sum(1 for r in ok if r["iters"] <= 100), sum(1 for r in ok if r["iters"] <= 500))
    return table


def ratio(a, b):
    return "%.0fx" % (a / b) if b > 0 and math.isfinite(a / b) else "-"


def print_table(mine, other):
    print("\nLoad average (1, 5, 15 min) when the tables were printed: %.1f, %.1f, %.1f" % os.getloadavg())
    if "robot" in mine:
        print_robot(mine, other, "robot", LIMIT)
    if "optimal" in mine:
        print_robot(mine, other, "optimal", OPTIMAL_LIMIT)
    if "check" in mine:
        print_check(mine, other)
    if "cspace2d" in mine:
        print_cspace2d(mine, other)
    if "iterations" in mine:
        print_iterations(mine, other)
    if "first_query" in mine and "threads" in mine:
        print_threads(mine, other)
    if "grazing" in mine:
        print_grazing(mine, other)


def print_robot(mine, other, part, limit):
    print("\nTime to first solution (process CPU, median, failures count as %g s), frozen tx90 problems:\n" % limit)
    ms = summary(mine[part], limit)
    os_ = summary(other[part], limit) if other and part in other else {}
    print("| world | planner | solved | median CPU s | reference solved | reference median CPU s | ratio | "
          "solved within 100 / 500 iterations (reference) | plan creation ms (reference) | colliding at 1 mm |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key in ms:
        m = ms[key]
        o = os_.get(key)
        print("| %s | %s | %d/%d | %.4f | %s | %s | %s | %d / %d (%s) | %.1f (%s) | %d%s |" % (
            key[0], key[1], m[0], m[1], m[2], "%d/%d" % o[:2] if o else "-", "%.3f" % o[2] if o else "-",
            ratio(o[2], m[2]) if o else "-", m[5], m[6], "%d / %d" % (o[5], o[6]) if o else "-", 1000 * m[3],
            "%.1f" % (1000 * o[3]) if o else "-", m[4], " (reference %d)" % o[4] if o else ""))


def print_check(mine, other):
    print("\nRobot C-space query cost (bench_robot.py check, 2000 random arm configurations):\n")
    print("| world | isFeasible us | reference | ratio | isVisible 0.3 rad us | reference | ratio |")
    print("|---|---|---|---|---|---|---|")
    for w in WORLDS:
        m = mine["check"].get(w)
        o = other["check"].get(w) if other else None
        if not m:
            continue
        print("| %s | %.1f | %s | %s | %.0f | %s | %s |" % (w, m[0], "%.1f" % o[0] if o else "-",
                                                          ratio(o[0], m[0]) if o else "-", m[1],
                                                          "%.0f" % o[1] if o else "-",
                                                          ratio(o[1], m[1]) if o else "-"))


def print_cspace2d(mine, other):
    print("\nPython-defined C-space (bench_cspace2d.py, 10 seeds, %s s CPU limit):\n" % CSPACE2D_LIMIT)
    print("| planner | solved | median CPU ms | mean iterations | median length | reference solved | "
          "reference median CPU ms | reference median length |")
    print("|---|---|---|---|---|---|---|---|")
    for name, m in mine["cspace2d"].items():
        o = other["cspace2d"].get(name) if other else None
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (name, m[0], m[1], m[2], m[3], o[0] if o else "-",
                                                             o[1] if o else "-", o[3] if o else "-"))


def print_iterations(mine, other):
    print("\nSolved within 100 / within 500 iterations of planMore(5) rounds, frozen tx90 problems, %d seed sets:\n"
          % SEED_SETS)
    print("| world | planner | within 100 | reference | within 500 | reference | runs |")
    print("|---|---|---|---|---|---|---|")
    totals = [0, 0, 0, 0]
    for key, m in mine["iterations"].items():
        o = other["iterations"].get(key) if other else None
        print("| %s | %s | %d | %s | %d | %s | %d |" % (tuple(key.split(" ")) + (m[0], o[0] if o else "-", m[1],
                                                                               o[1] if o else "-", m[2])))
        totals = [totals[0] + m[0], totals[1] + (o[0] if o else 0), totals[2] + m[1], totals[3] + (o[1] if o else 0)]
    print("| all | | %d | %s | %d | %s | |" % (totals[0], totals[1] if other else "-", totals[2],
                                              totals[3] if other else "-"))


def print_threads(mine, other):
    fq, th = mine["first_query"], mine["threads"]
    print("\nFirst plan_to_config + setEndpoints on a freshly loaded tx90obstacles world: %.1f ms CPU, %.1f ms wall%s"
          % (1000 * fq[0], 1000 * fq[1], " (reference %.1f ms CPU, %.1f ms wall)" % (
              1000 * other["first_query"][0], 1000 * other["first_query"][1]) if other else ""))
    print("A Python thread keeps %.0f%% of its solo rate while another thread plans%s; two plans on two threads "
          "take %.2f of the sequential time%s." % (
              100 * th[0], " (reference %.0f%%)" % (100 * other["threads"][0]) if other else "", th[1],
              " (reference %.2f)" % other["threads"][1] if other else ""))


def print_grazing(mine, other):
    print("\nIssue #217, tx90obstacles, %d problems, 300 more iterations after the first solution, paths re-checked "
          "at 1 mm:\n" % GRAZING_N)
    # RobotCSpace.clearance counts self pairs at half their gap; collisionMargin
    # keeps the robot from other bodies only, so a path whose end pose has two
    # links close together shows a clearance below the margin.
    print("| run | solved | colliding paths | median colliding configurations | min clearance m (1 cm steps, self "
          "pairs included) | "
          "reference solved | reference colliding |")
    print("|---|---|---|---|---|---|---|")
    for name, m in mine["grazing"].items():
        o = other["grazing"].get(name) if other else None
        print("| %s | %d | %d | %s | %s | %s | %s |" % (name, m[0], m[1], m[2], "%.4f" % m[3] if m[3] is not None
                                                        else "-", o[0] if o else "-", o[1] if o else "-"))


if __name__ == "__main__":
    run_benchmark(__file__, __doc__, measure, print_table)
