"""klampt.plan with Python-defined C-spaces: every planner type on the
Klampt-examples circle problem (paths re-checked at 1e-3), seeded
repeatability, and the reference's API behaviours, with the crashes of the
reference turned into exceptions."""
import json
import math
import random
import threading

import pytest

from klampt.plan import cspace, motionplanning
from klampt.plan.cspace import CSpace, MotionPlan

START, GOAL = [0.06, 0.5], [0.94, 0.5]


class Circle(CSpace):
    """Klampt-examples exercises/motionplanning problem 1: a point in the unit
    square around a disc of radius 0.36 at (0.5, 0.5)."""

    def __init__(self):
        CSpace.__init__(self)
        self.bound = [(0.0, 1.0), (0.0, 1.0)]
        self.eps = 1e-3
        self.properties.update(minimum=[0.0, 0.0], maximum=[1.0, 1.0], volume=1.0)

    def feasible(self, q):
        return CSpace.feasible(self, q) and math.hypot(q[0] - 0.5, q[1] - 0.5) > 0.36


def free_at(path, step=1e-3, tol=1e-6):
    """Every point of every edge at `step` spacing is outside the disc. Edges
    are checked at points eps = 1e-3 apart, so between them a chord may dip
    into the disc by its sagitta, eps^2 / (8 r) < 4e-7: `tol` allows that."""
    for a, b in zip(path[:-1], path[1:]):
        n = max(1, int(math.ceil(math.dist(a, b) / step)))
        for k in range(n + 1):
            u = k / n
            p = [a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1])]
            if not (0 <= p[0] <= 1 and 0 <= p[1] <= 1 and math.hypot(p[0] - 0.5, p[1] - 0.5) > 0.36 - tol):
                return False
    return True


def length(path):
    return sum(math.dist(a, b) for a, b in zip(path[:-1], path[1:]))


def circle_plan(seed, *args, **options):
    """A MotionPlan on a fresh circle-obstacle space, with both random
    generators seeded and the planner built from the factory's defaults (not
    the previous test's options)."""
    motionplanning.set_random_seed(seed)
    random.seed(seed)
    space = Circle()
    space.setup(reinit=True)
    motionplanning.set_plan_json_string(DEFAULTS)
    return MotionPlan(space, *args, **options)


def solve(options, seed, max_iters=3000, step=10):
    plan = circle_plan(seed, **options)
    plan.setEndpoints(START, GOAL)
    iters = 0
    path = None
    while iters < max_iters:
        plan.planMore(step)
        iters += step
        path = plan.getPath()
        if path:
            break
    plan.close()
    plan.space.close()
    return path, iters


DEFAULTS = motionplanning.get_plan_json_string()

# (settings, seeds solved of 4 at least, optimal-length tolerance)
PLANNERS = {
    "prm": {"type": "prm", "knn": 10, "connectionThreshold": 0.1},
    "rrt": {"type": "rrt", "perturbationRadius": 0.1, "bidirectional": 1},
    "rrt_uni": {"type": "rrt", "perturbationRadius": 0.1, "bidirectional": 0},
    "sbl": {"type": "sbl", "perturbationRadius": 0.1},
    "sblprt": {"type": "sblprt", "perturbationRadius": 0.1},
    "rrt*": {"type": "rrt*", "perturbationRadius": 0.1},
    "prm*": {"type": "prm*"},
    "lazyprm*": {"type": "lazyprm*"},
    "lazyrrg*": {"type": "lazyrrg*", "perturbationRadius": 0.1},
    "fmm": {"type": "fmm", "gridResolution": 0.02},
    "fmm*": {"type": "fmm*"},
    "sbl+shortcut+restart": {"type": "sbl", "perturbationRadius": 0.1, "shortcut": 1, "restart": 1,
                             "restartTermCond": "{foundSolution:1,maxIters:1000}"},
}


@pytest.mark.parametrize("name", list(PLANNERS))
def test_every_planner_solves_the_circle_problem(name):
    for seed in range(3):
        path, _ = solve(PLANNERS[name], seed)
        assert path is not None, "%s failed on seed %d" % (name, seed)
        assert path[0] == START and path[-1] == GOAL
        assert free_at(path)
        # The shortest path around the disc is 1.195 long.
        assert 1.19 < length(path) < 3.0


def test_optimizing_planners_improve_with_more_iterations():
    plan = circle_plan(5, type="lazyprm*")
    plan.setEndpoints(START, GOAL)
    plan.planMore(100)
    first = length(plan.getPath())
    plan.planMore(600)
    later = plan.getPath()
    assert free_at(later) and length(later) <= first
    assert length(later) < 1.195 * 1.15


def test_seeded_runs_repeat_exactly():
    for name in ("sbl", "rrt", "prm", "lazyrrg*"):
        a, ia = solve(PLANNERS[name], 11)
        b, ib = solve(PLANNERS[name], 11)
        assert a == b and ia == ib


def test_rrg_planners_steer_by_the_iteration_count_not_perturbation_radius():
    # The reference's RRG (rrt*, lazyrrg*) steers a new node at most
    # (log n / n)^(1/d) from its nearest node, n the iteration count, and
    # ignores perturbationRadius. In 2-D that bound never exceeds
    # (1/e)^(1/2) = 0.607 (at n = e), and rrt* joins no farther.
    for name in ("rrt*", "lazyrrg*"):
        runs = []
        for radius in (0.05, 0.9):
            plan = circle_plan(3, type=name, perturbationRadius=radius)
            plan.setEndpoints(START, GOAL)
            plan.planMore(150)
            V, E = plan.getRoadmap()
            runs.append((plan.getPath(), V, sorted(E)))
            plan.close()
            plan.space.close()
        assert runs[0] == runs[1], name
        path, V, E = runs[0]
        assert path is not None and free_at(path), name
        lengths = [math.dist(V[i], V[j]) for i, j in E]
        assert max(lengths) > 0.1, name  # longer steps than either perturbationRadius allowed
        if name == "rrt*":
            assert max(lengths) <= 0.6066, name


def test_sblprt_connects_point_to_point():
    # The reference's never connects two seeds (its roadmap has no edges between them).
    path, iters = solve(PLANNERS["sblprt"], 2)
    assert path is not None and free_at(path)


def test_grid_planners():
    # The default grid (1/8 of each side) suffices here (the reference's fmm
    # fails with it); fmm* refines it and shortens the path.
    coarse, _ = solve({"type": "fmm"}, 0, max_iters=10)
    assert coarse is not None and free_at(coarse)
    fine, _ = solve({"type": "fmm*"}, 0, max_iters=10, step=10)
    assert free_at(fine) and length(fine) < min(length(coarse), 1.195 * 1.03)


def test_goal_sets():
    motionplanning.set_random_seed(0)
    random.seed(0)
    for opts in ({"type": "rrt", "perturbationRadius": 0.1}, {"type": "prm", "knn": 10}, {"type": "any"}):
        s = Circle()
        s.setup(reinit=True)
        motionplanning.set_plan_json_string(DEFAULTS)
        p = MotionPlan(s, **opts)
        p.setEndpoints(START, (lambda q: q[0] > 0.9, lambda: [random.uniform(0.9, 1.0), random.uniform(0, 1)]))
        for _ in range(100):
            p.planMore(10)
            if p.getPath():
                break
        path = p.getPath()
        assert path is not None, opts
        assert path[0] == START and path[-1][0] > 0.9 and free_at(path)
        assert int(p.getStats()["numGoals"]) >= 1


def test_goal_set_without_sampler_uses_the_space_sampler():
    p = circle_plan(1, "rrt", perturbationRadius=0.1)
    p.setEndpoints(START, lambda q: q[0] > 0.9)
    p.planMore(500)
    path = p.getPath()
    assert path is not None and path[-1][0] > 0.9 and free_at(path)


def test_multi_query_prm():
    p = circle_plan(3, "prm", knn=10, connectionThreshold=0.1)
    assert [p.addMilestone(q) for q in ([0.06, 0.5], [0.94, 0.5], [0.5, 0.06])] == [0, 1, 2]
    p.planMore(300)
    to2 = p.getPath(0, 2)
    best = p.getPath(0, [1, 2])
    assert to2[0] == [0.06, 0.5] and to2[-1] == [0.5, 0.06] and free_at(to2)
    assert best[-1] in ([0.94, 0.5], [0.5, 0.06]) and length(best) <= length(to2) + 1e-12
    V, E = p.getRoadmap()
    assert len(V) == int(p.getStats()["numMilestones"]) and all(isinstance(e, tuple) for e in E)
    q = [0.94, 0.51]
    assert math.dist(V[p.getClosestMilestone(q)], q) == min(math.dist(v, q) for v in V)
    assert p.planner.getMilestone(2) == [0.5, 0.06]


def test_dump_writes_the_roadmap_in_trivial_graph_format(tmp_path):
    p = circle_plan(4, "prm", knn=10, connectionThreshold=0.1)
    p.setEndpoints(START, GOAL)
    p.planMore(50)
    V, E = p.getRoadmap()
    fn = tmp_path / "roadmap.tgf"
    p.planner.dump(str(fn))
    nodes, edges = fn.read_text().split("#\n")
    rows = [line.split() for line in nodes.splitlines()]
    assert [int(r[0]) for r in rows] == list(range(len(V)))
    # ostream's default 6 significant digits
    assert all([float(x) for x in r[1:]] == pytest.approx(v, rel=1e-5) for r, v in zip(rows, V))
    assert [tuple(int(i) for i in line.split()) for line in edges.splitlines()] == list(E)
    with pytest.raises(OSError, match="cannot write"):
        p.planner.dump(str(tmp_path / "no_such_folder" / "roadmap.tgf"))


def test_cost_functions():
    p = circle_plan(2, "prm", knn=10)
    p.setEndpoints(START, GOAL)
    # An edge cost that penalizes the lower half: paths go over the top.
    p.setCostFunction(lambda a, b: math.dist(a, b) * (10.0 if (a[1] + b[1]) < 1.0 else 1.0))
    p.planMore(400)
    path = p.getPath()
    assert path is not None and free_at(path)
    assert max(q[1] for q in path) > 0.85
    assert p.pathCost(path) == pytest.approx(sum(math.dist(a, b) * (10.0 if (a[1] + b[1]) < 1.0 else 1.0)
                                                 for a, b in zip(path[:-1], path[1:])))
    with pytest.raises(TypeError):
        p.setCostFunction(3)
    sbl = MotionPlan(Circle(), "sbl")
    with pytest.raises(RuntimeError, match="That motion planner cannot accept objective functions"):
        sbl.setCostFunction(lambda a, b: 1.0)


def test_crashes_of_the_reference_raise():
    s = Circle()
    s.setup(reinit=True)
    motionplanning.set_plan_json_string(DEFAULTS)
    p = MotionPlan(s, "rrt")
    assert p.getPath() is None  # the reference segfaults
    with pytest.raises(RuntimeError, match="No start or goal set"):
        p.planMore(1)
    with pytest.raises(ValueError, match="Unknown planner type"):
        MotionPlan(s, "nosuchplanner")  # the reference aborts
    with pytest.raises(ValueError):
        motionplanning.set_plan_type("ompl:RRTConnect")

    class RaisingLater(Circle):
        calls = 0

        def feasible(self, q):
            RaisingLater.calls += 1
            if RaisingLater.calls > 3:
                raise ValueError("boom later")
            return True

    s7 = RaisingLater()
    s7.setup(reinit=True)
    motionplanning.set_plan_json_string(DEFAULTS)
    p7 = MotionPlan(s7, "rrt")
    with pytest.raises(ValueError, match="boom later"):
        p7.setEndpoints(START, GOAL)
    with pytest.raises(ValueError, match="boom later"):
        p7.planMore(10)  # the reference segfaults here
    # The planner is still usable once the callback behaves.
    RaisingLater.calls = -10 ** 9
    p7.planMore(10)


def test_exception_in_a_callback_during_planning_propagates():
    class Failing(Circle):
        def __init__(self):
            Circle.__init__(self)
            self.calls = 0

        def feasible(self, q):
            self.calls += 1
            if self.calls == 50:
                raise KeyError("from feasible")
            return Circle.feasible(self, q)

    s = Failing()
    s.setup(reinit=True)
    motionplanning.set_plan_json_string(DEFAULTS)
    p = MotionPlan(s, "sbl", perturbationRadius=0.1)
    p.setEndpoints(START, GOAL)
    with pytest.raises(KeyError, match="from feasible"):
        p.planMore(1000)


def test_endpoint_errors():
    s = Circle()
    s.setup(reinit=True)
    motionplanning.set_plan_json_string(DEFAULTS)
    p = MotionPlan(s, "rrt")
    with pytest.raises(RuntimeError, match=r"^Start configuration is infeasible: fails \['feasible'\]"):
        p.setEndpoints([0.5, 0.5], GOAL)
    with pytest.raises(RuntimeError, match="^Goal configuration is infeasible"):
        p.setEndpoints(START, [0.5, 0.5])
    assert p.planner.setEndpoints(START, GOAL) is True
    with pytest.raises(RuntimeError, match="Plan already initialized"):
        p.planner.setEndpoints(START, GOAL)
    with pytest.raises(ValueError):
        MotionPlan(s, "rrt").setEndpoints([0.1, 0.5, 0.0], GOAL)
    with pytest.raises(RuntimeError, match="Invalid start endpoint"):
        MotionPlan(s, "rrt").planner.setEndpoints(3, GOAL)
    with pytest.raises(RuntimeError, match="Goal test is not callable"):
        MotionPlan(s, "rrt").planner.setEndpointSet(START, 3)
    with pytest.raises(IndexError):
        p.planner.getPath(0, 7)


def test_factory_settings():
    motionplanning.set_plan_json_string(DEFAULTS)
    with pytest.raises(RuntimeError, match='^Invalid numeric setting "foo"\nValid keys are:\n  knn,'):
        motionplanning.set_plan_setting("foo", 1.0)
    with pytest.raises(RuntimeError, match='^Invalid string-valued setting "foo"'):
        MotionPlan.setOptions(foo="x")
    with pytest.raises(RuntimeError, match="Invalid JSON string"):
        motionplanning.set_plan_json_string("{knn:3")
    MotionPlan.setOptions(type="PRM", knn=7, ignoreConnectedComponents=1, restartTermCond="{foundSolution:0;maxIters:50}")
    settings = json.loads(motionplanning.get_plan_json_string().replace("inf", "1e300"))
    assert settings["knn"] == 7 and settings["type"] == "PRM" and settings["ignoreConnectedComponents"] is True
    assert settings["restartTermCond"] == "{foundSolution:0;maxIters:50}"
    assert set(settings) == set(json.loads(DEFAULTS.replace("inf", "1e300")))
    # Options persist to the next plan, as in the reference.
    s = Circle()
    assert json.loads(MotionPlan(s).planOptions.replace("inf", "1e300"))["knn"] == 7
    text = motionplanning.get_plan_json_string()
    motionplanning.set_plan_json_string(DEFAULTS)
    motionplanning.set_plan_json_string(text)
    assert motionplanning.get_plan_json_string() == text
    motionplanning.set_plan_json_string(DEFAULTS)


def test_feasibility_tests_and_stats():
    s = CSpace()
    s.bound = [(0, 1), (0, 1)]
    s.eps = 1e-2
    s.addFeasibilityTest(lambda q: q[0] < 0.9, "left")
    s.addFeasibilityTest(lambda q: q[1] < 0.9, "low")
    s.setup()
    assert s.cspace.feasibilityFailures([0.95, 0.95]) == ['left', 'low']
    assert (s.isFeasible([0.1, 0.1]), s.isFeasible([0.95, 0.1])) == (True, False)
    assert (s.isVisible([0.1, 0.1], [0.2, 0.2]), s.isVisible([0.1, 0.1], [0.95, 0.1])) == (True, False)
    assert s.cspace.distance([0, 0], [3, 4]) == 5.0
    assert s.cspace.interpolate([0, 0], [1, 1], 0.25) == [0.25, 0.25]
    stats = s.getStats()
    assert all(isinstance(v, str) for v in stats.values())
    assert stats["visible_count"] == "2" and "left_feasible_count" in stats
    assert s.cspace.feasibilityQueryOrder() == ['left', 'low']
    assert s.cspace.testFeasibility("low", [0.95, 0.5]) is True
    with pytest.raises(RuntimeError, match="Invalid constraint name"):
        s.cspace.testFeasibility("nope", [0, 0])
    with pytest.raises(RuntimeError, match="Invalid property"):
        s.cspace.getProperty("nope")
    with pytest.warns(UserWarning, match="called twice"):
        s.setup()


def test_adaptive_order_puts_the_cheap_failing_test_first():
    s = CSpace()
    s.bound = [(0, 1)]

    def slow(q):
        sum(range(20000))
        return True
    s.addFeasibilityTest(slow, "slow")
    s.addFeasibilityTest(lambda q: q[0] < 0.5, "half")
    s.setup()
    for i in range(200):
        s.isFeasible([i / 200.0])
    s.cspace.optimizeQueryOrder()
    assert s.cspace.feasibilityQueryOrder() == ['half', 'slow']
    assert s.cspace.feasibilityProbability("half") == pytest.approx(0.5, abs=0.02)
    assert s.cspace.feasibilityCost("slow") > s.cspace.feasibilityCost("half")


def test_changing_eps_after_setup_takes_effect():
    # A wall 0.01 thick at x = 0.5: a coarse edge check steps over it.
    s = CSpace()
    s.bound = [(0, 1)]
    s.feasible = lambda q: not (0.495 < q[0] < 0.505)
    s.eps = 0.3
    s.setup()
    a, b = [0.0], [0.98]
    assert s.isVisible(a, b)
    s.eps = 0.001
    assert not s.isVisible(a, b)


def test_configure_planner():
    s = Circle()
    s.setup(reinit=True)
    motionplanning.set_plan_json_string(DEFAULTS)
    plan, args = cspace.configure_planner(s, START, GOAL, optimizing=False)
    assert args == {'type': 'sbl', 'perturbationRadius': 0.1 * math.sqrt(2), 'gridResolution': 0.1 * math.sqrt(2),
                    'shortcut': False, 'restart': False, 'restartTermCond': '{foundSolution:1,maxIters:1000}'}
    plan.planMore(2000)
    assert plan.getPath() is not None
    assert cspace.optimizingPlanners == cspace.OPTIMIZING_PLANNERS
    assert sorted(cspace.costAcceptingPlanners) == ['lazyprm*', 'lazyrrg*', 'prm', 'prm*', 'rrt', 'rrt*']
    with pytest.warns(DeprecationWarning):
        cspace.configurePlanner(s, START, GOAL, optimizing=False)


def test_destroy_invalidates_everything():
    s = Circle()
    s.setup(reinit=True)
    p = MotionPlan(s, "rrt")
    motionplanning.destroy()
    with pytest.raises(RuntimeError, match="Invalid cspace index"):
        s.cspace.isFeasible(START)
    with pytest.raises(RuntimeError, match="Invalid plan index"):
        p.planMore(1)
    assert s.cspace.index == -1 or s.cspace.index >= 0  # the handle object itself survives


def test_python_space_planning_lets_other_threads_run():
    # planMore on Python callbacks keeps the interpreter lock, which the
    # interpreter still hands to other threads while the callbacks run.
    s = Circle()
    s.setup(reinit=True)
    motionplanning.set_plan_json_string(DEFAULTS)
    p = MotionPlan(s, "prm", knn=10)
    p.setEndpoints(START, GOAL)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
    t = threading.Thread(target=count)
    t.start()
    p.planMore(300)
    stop.set()
    t.join()
    assert len(ticks) > 100


def test_two_threads_planning_on_one_python_space_plan():
    # The second call waits for the first without holding the interpreter
    # lock the first call's callbacks need.
    s = Circle()
    s.setup(reinit=True)
    motionplanning.set_plan_json_string(DEFAULTS)
    p = MotionPlan(s, "prm", knn=10)
    p.setEndpoints(START, GOAL)
    threads = [threading.Thread(target=p.planMore, args=(200,)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert int(p.getStats()["numIters"]) == 400
    assert free_at(p.getPath())


def test_wrong_sizes_raise():
    # The reference hands whatever it gets to C++ vectors of the space's size.
    s = Circle()
    s.setup(reinit=True)
    c = s.cspace
    with pytest.raises(ValueError, match="different sizes"):
        c.distance([0.1], [0.2, 0.2])
    with pytest.raises(ValueError, match="different sizes"):
        c.interpolate([0.1], [0.2, 0.2], 0.5)
    with pytest.raises(ValueError, match="different sizes"):
        c.isVisible([0.1], [0.2, 0.2])
    with pytest.raises(TypeError):
        c.isFeasible("ab")
    motionplanning.set_plan_json_string(DEFAULTS)
    p = MotionPlan(s, "prm")
    p.addMilestone(START)
    with pytest.raises(ValueError, match="milestone has 3 elements, the space has dimension 2"):
        p.addMilestone([0.1, 0.1, 0.1])
    with pytest.raises(ValueError, match="config has 1 elements"):
        p.getClosestMilestone([0.1])
    with pytest.raises(ValueError, match="goal has 3 elements"):
        MotionPlan(s, "rrt").setEndpoints(START, [0.9, 0.5, 0.0])
    # The space now knows it is 2-D: queries of another size raise.
    with pytest.raises(ValueError):
        c.isFeasible([0.1, 0.2, 0.3])

    # Callbacks returning configurations of the wrong size.
    class ShortSamples(Circle):
        def sample(self):
            return [random.uniform(0, 1)]

    class ShortInterpolation(Circle):
        def interpolate(self, a, b, u):
            return [a[0] + u * (b[0] - a[0])]

    for space, message in ((ShortSamples(), "the sample method returned 1 elements, the space has dimension 2"),
                           (ShortInterpolation(), "the interpolate method returned 1 elements")):
        space.setup(reinit=True)
        motionplanning.set_plan_json_string(DEFAULTS)
        plan = MotionPlan(space, "rrt", perturbationRadius=0.1)
        with pytest.raises(ValueError, match=message):
            plan.setEndpoints(START, GOAL)
            plan.planMore(50)
