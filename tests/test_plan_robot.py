"""Robot planning (klampt.plan.robotcspace / robotplanning) on the shared
tx90 worlds and frozen benchmark problems: the native checks agree with
brute-force geometry queries, planned paths are free when re-checked at
1 mm / 1 mrad steps by those queries, the robot's configuration is left
alone, runs repeat, two plans run in two threads, and the reference's
issues #148, #216, #217 are fixed."""
import functools
import json
import math
import os
import random
import shutil
import threading

import pytest

import klampt
from conftest import GOLDEN, SHARED_DATA, load_golden, load_shared_world, load_world, require_shared_data
from klampt.model import collide, ik
from klampt.plan import cspaceutils, motionplanning, robotcspace, robotplanning
from klampt.plan.cspace import MotionPlan

SBL = robotplanning.preferred_plan_options(None)
RRT = {'type': 'rrt', 'perturbationRadius': 0.5, 'bidirectional': 1}


@pytest.fixture(scope="module")
def problems():
    return {w["world"]: w for w in load_golden("plan/problems.json")["worlds"]}


@functools.lru_cache(maxsize=None)
def loaded(name):
    """A world the tests that only plan in it share, and its ambient robot
    space (every test sets the robot's configuration it starts from)."""
    world = load_shared_world(name, quiet=True)
    checker = robotcspace.RobotCSpace(world.robot(0), collide.WorldCollider(world))
    checker.setup()
    return world, checker


class BruteForce:
    """Feasibility of a robot configuration from Geometry3D queries alone:
    joint limits, self collision, and every link against every terrain,
    rigid object and other robot's link (all pairs WorldCollider tests)."""

    def __init__(self, world, robot, margin=0.0):
        self.world, self.robot, self.margin = world, robot, margin
        self.collider = collide.WorldCollider(world)
        self.qmin, self.qmax = robot.getJointLimits()

    def feasible(self, q):
        r = self.robot
        saved = r.getConfig()
        try:
            if any(x < lo or x > hi for x, lo, hi in zip(q, self.qmin, self.qmax)):
                return False
            r.setConfig(q)
            if r.selfCollides():
                return False
            c = self.collider
            for gi in c.robots[r.index]:
                if gi < 0:
                    continue
                g = c.geomList[gi][1]
                for gj in c.mask[gi]:
                    body, other = c.geomList[gj]
                    if isinstance(body, klampt.RobotModelLink) and body.robotIndex == r.index:
                        continue
                    if g.withinDistance(other, self.margin) if self.margin > 0 else g.collides(other):
                        return False
            return True
        finally:
            r.setConfig(saved)

    def violations(self, path, step=1e-3):
        bad = 0
        for a, b in zip(path[:-1], path[1:]):
            n = max(1, int(math.ceil(self.robot.distance(a, b) / step)))
            bad += sum(not self.feasible(self.robot.interpolate(a, b, j / n)) for j in range(n + 1))
        return bad


def run(plan, iters=1000, step=5):
    done = 0
    while done < iters:
        plan.planMore(step)
        done += step
        path = plan.getPath()
        if path:
            return path, done
    return None, done


def random_arm_configs(robot, n, seed):
    rng = random.Random(seed)
    q0 = robot.getConfig()
    qmin, qmax = robot.getJointLimits()
    out = []
    for _ in range(n):
        q = list(q0)
        for i in range(1, 7):
            q[i] = rng.uniform(qmin[i], qmax[i])
        out.append(q)
    return out


@pytest.mark.parametrize("name", ["tx90obstacles.xml", "tx90cuptable.xml", "tx90blocks.xml"])
def test_native_feasibility_agrees_with_geometry_queries(name):
    world = load_shared_world(name, quiet=True)
    robot = world.robot(0)
    space = robotcspace.RobotCSpace(robot, collide.WorldCollider(world))
    space.setup()
    check = BruteForce(world, robot)
    qs = random_arm_configs(robot, 150, 7)
    agree = [space.isFeasible(q) == check.feasible(q) for q in qs]
    assert all(agree), "%d of %d disagree" % (agree.count(False), len(agree))
    assert 0.2 < sum(space.isFeasible(q) for q in qs) / len(qs) < 0.9
    # A failing configuration names the test it fails, as the reference.
    failing = [q for q in qs if not check.feasible(q)][0]
    assert space.cspace.feasibilityFailures(failing)


@pytest.mark.parametrize("name,settings", [("tx90obstacles.xml", SBL), ("tx90obstacles.xml", RRT),
                                           ("tx90cuptable.xml", SBL), ("tx90blocks.xml", RRT)])
def test_frozen_problems_are_solved_and_free_at_1mm(problems, name, settings):
    world, checker = loaded(name)
    robot = world.robot(0)
    check = BruteForce(world, robot)
    for k, (qs, qg) in enumerate(problems[name]["pairs"][:3]):
        motionplanning.set_random_seed(k)
        random.seed(k)
        robot.setConfig(qs)
        plan = robotplanning.plan_to_config(world, robot, qg, edgeCheckResolution=0.01, **settings)
        assert type(plan).__name__ == 'EmbeddedMotionPlan' and plan.space.mapping == [1, 2, 3, 4, 5, 6]
        path, iters = run(plan)
        assert path is not None, "problem %d unsolved in %d iterations" % (k, iters)
        assert path[0] == qs and path[-1] == qg
        assert robot.getConfig() == qs
        # Brute-force geometry queries on the first path, the (agreeing)
        # native checks on the others.
        assert (check.violations(path) if k == 0 else path_violations(checker, robot, path)) == 0


def reference_outcomes():
    """{(world, settings name): {problem: solved}} of the reference's runs
    within its CPU limit (10 s; 5 s for the optimal family)."""
    require_shared_data()
    out = {}
    with open(os.path.join(GOLDEN, "plan", "upstream_results_tx90.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            out.setdefault((r["world"], r["planner"]), {})[r["k"]] = r["ok"]
    return out


# The settings of the reference's runs (bench_robot.py's PLANNERS).
REFERENCE_SETTINGS = {
    "sbl": {"type": "sbl", "perturbationRadius": 0.5},
    "prm": {"type": "prm", "knn": 10},
    "sblprt": {"type": "sblprt", "perturbationRadius": 0.5},
    "rrt*": {"type": "rrt*", "perturbationRadius": 0.5},
    "prm*": {"type": "prm*"},
    "lazyprm*": {"type": "lazyprm*"},
    "lazyrrg*": {"type": "lazyrrg*", "perturbationRadius": 0.5},
}


@pytest.mark.parametrize("name", list(REFERENCE_SETTINGS))
def test_every_planner_solves_the_frozen_problems_as_often_as_the_reference(problems, name):
    # The first two problems of each world the reference ran this planner
    # on, within 1000 iterations (the reference took up to 10 s of CPU);
    # paths re-checked at 1 mm by the ambient space, whose checks agree
    # with brute-force geometry queries (test above).
    reference = reference_outcomes()
    defaults = motionplanning.get_plan_json_string()
    compared = 0
    for wname in ("tx90obstacles.xml", "tx90cuptable.xml", "tx90blocks.xml"):
        ref = reference.get((wname, name))
        if ref is None:
            continue
        world, checker = loaded(wname)
        robot = world.robot(0)
        ks = sorted(ref)[:2]
        solved = []
        for k in ks:
            qs, qg = problems[wname]["pairs"][k]
            motionplanning.set_plan_json_string(defaults)
            motionplanning.set_random_seed(k)
            random.seed(k)
            robot.setConfig(qs)
            plan = robotplanning.plan_to_config(world, robot, qg, edgeCheckResolution=0.01,
                                                **REFERENCE_SETTINGS[name])
            path, _ = run(plan, iters=1000)
            solved.append(path is not None)
            if path is not None:
                assert path[0] == qs and path[-1] == qg
                assert path_violations(checker, robot, path) == 0, (wname, k)
        assert sum(solved) >= sum(ref[k] for k in ks), (wname, dict(zip(ks, solved)), ref)
        compared += 1
    motionplanning.set_plan_json_string(defaults)
    assert compared >= 1


def path_violations(space, robot, path, step=1e-3):
    """Configurations every `step` along the path that `space` rejects."""
    bad = 0
    for a, b in zip(path[:-1], path[1:]):
        n = max(1, int(math.ceil(robot.distance(a, b) / step)))
        bad += sum(not space.isFeasible(robot.interpolate(a, b, j / n)) for j in range(n + 1))
    return bad


def test_native_space_rejects_wrong_sizes(problems):
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    space = robotplanning.make_space(world, robot, movingSubset=[1, 2, 3, 4, 5, 6])
    c = space.cspace
    x = space.project(problems["tx90obstacles.xml"]["pairs"][0][0])
    for call in (lambda: c.isFeasible([0.1]), lambda: c.isFeasible([0.0] * 12), lambda: c.isVisible(x, [0.1]),
                 lambda: c.distance(x, [0.1]), lambda: c.interpolate([0.1], x, 0.5), lambda: c.clearance([0.1]),
                 lambda: c.feasibilityFailures(x + [0.0]), lambda: c.lift([0.1])):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(TypeError):
        c.isFeasible(None)
    assert c.isFeasible([math.nan] * 6) is False
    plan = MotionPlan(space, "sbl")
    assert plan.getPath() is None
    with pytest.raises(RuntimeError, match="No start or goal set"):
        plan.planMore(5)
    with pytest.raises(ValueError, match="start has 1 elements, the space has dimension 6"):
        plan.planner.setEndpoints([0.1], x)
    with pytest.raises(ValueError, match="NaN"):
        plan.planner.setEndpoints(x, [math.nan] * 6)
    with pytest.raises(RuntimeError, match="Invalid epsilon"):
        space.eps = 0.0


def test_iteration_budgets(problems):
    # planMore(5) rounds up to 500 iterations, as the Klampt-examples demos
    # budget: the reference solves all 20 tx90obstacles problems that way.
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    solved = 0
    for k, (qs, qg) in enumerate(problems["tx90obstacles.xml"]["pairs"]):
        motionplanning.set_random_seed(k)
        random.seed(k)
        robot.setConfig(qs)
        plan = robotplanning.plan_to_config(world, robot, qg, **SBL)
        solved += run(plan, iters=500)[0] is not None
    assert solved == 20


# The reference's problems solved within 100 / within 500 iterations of
# planMore rounds (spec table "Iterations to first solution"). Within 500
# this implementation solves at least as many; within 100 a single draw of
# seeds decides a count by a problem or two either way, as the two draw
# different random numbers: over eight seed sets both solve about the same
# (benchmarks/bench_plan.py's iterations part prints the counts).
REFERENCE_WITHIN_500 = {
    ("tx90obstacles.xml", "sbl_default"): 20, ("tx90cuptable.xml", "sbl_default"): 19,
    ("tx90blocks.xml", "sbl_default"): 19, ("tx90obstacles.xml", "rrt"): 20,
    ("tx90cuptable.xml", "rrt"): 19, ("tx90blocks.xml", "rrt"): 20,
}


@pytest.mark.parametrize("name", ["tx90obstacles.xml", "tx90cuptable.xml", "tx90blocks.xml"])
def test_planmore_10_rounds_solve_within_500_iterations_as_often_as_the_reference(problems, name):
    world = load_shared_world(name, quiet=True)
    robot = world.robot(0)
    for planner, settings in (("sbl_default", SBL), ("rrt", RRT)):
        solved = 0
        for k, (qs, qg) in enumerate(problems[name]["pairs"]):
            motionplanning.set_random_seed(k)
            random.seed(k)
            robot.setConfig(qs)
            plan = robotplanning.plan_to_config(world, robot, qg, edgeCheckResolution=0.01, **settings)
            solved += run(plan, iters=500, step=10)[0] is not None
        assert solved >= REFERENCE_WITHIN_500[(name, planner)], (planner, solved)


def test_first_plan_after_loading_builds_no_collision_structures(problems, tmp_path):
    # Issue #196: loading the world builds every collision tree and the links'
    # broad-phase hulls, so the first plan_to_config + setEndpoints (a few ms)
    # builds none. The world is read through links to the data so that its
    # files' shapes are new to this process (others may hold the shared files').
    require_shared_data()
    for folder in ("robots", "terrains"):
        os.symlink(os.path.join(SHARED_DATA, folder), str(tmp_path / folder))
    shutil.copy(os.path.join(SHARED_DATA, "tx90obstacles.xml"), str(tmp_path))
    before = klampt.collision_structures_built()
    world = load_world(str(tmp_path / "tx90obstacles.xml"), quiet=True)
    loaded_count = klampt.collision_structures_built()
    assert loaded_count > before
    robot = world.robot(0)
    qs, qg = problems["tx90obstacles.xml"]["pairs"][0]
    robot.setConfig(qs)
    plan = robotplanning.plan_to_config(world, robot, qg, **SBL)
    assert plan is not None
    assert klampt.collision_structures_built() == loaded_count
    path, _ = run(plan, iters=500)
    assert path is not None
    assert klampt.collision_structures_built() == loaded_count


def test_seeded_robot_plans_repeat(problems):
    world = load_shared_world("tx90blocks.xml", quiet=True)
    robot = world.robot(0)
    qs, qg = problems["tx90blocks.xml"]["pairs"][4]
    paths = []
    for _ in range(2):
        motionplanning.set_random_seed(4)
        random.seed(4)
        robot.setConfig(qs)
        paths.append(run(robotplanning.plan_to_config(world, robot, qg, **SBL))[0])
    assert paths[0] is not None and paths[0] == paths[1]


def test_two_plans_in_two_threads(problems):
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    pairs = problems["tx90obstacles.xml"]["pairs"][:2]

    def make(k):
        motionplanning.set_random_seed(k)
        random.seed(k)
        qs, qg = pairs[k]
        robot.setConfig(qs)
        return robotplanning.plan_to_config(world, robot, qg, type='rrt', perturbationRadius=0.5)

    sequential = []
    for k in range(2):
        p = make(k)
        p.planMore(300)
        sequential.append(p.getPath())
    plans = [make(0), make(1)]
    threads = [threading.Thread(target=p.planMore, args=(300,)) for p in plans]
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
    counter = threading.Thread(target=count)
    counter.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    counter.join()
    assert [p.getPath() for p in plans] == sequential
    assert sequential[0] is not None and sequential[1] is not None
    assert len(ticks) > 100  # the Python thread ran while both planned


def test_robot_configuration_is_untouched_and_extra_constraints_see_it(problems):
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    qs, qg = problems["tx90obstacles.xml"]["pairs"][1]
    robot.setConfig(qs)
    seen = []

    def low_wrist(q):
        seen.append(robot.getConfig() == list(q))
        return True
    plan = robotplanning.plan_to_config(world, robot, qg, extraConstraints=[low_wrist], **SBL)
    path, _ = run(plan)
    assert path is not None and seen and all(seen)
    assert robot.getConfig() == qs


def test_endpoint_failures_and_argument_errors(problems):
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    qs, qg = problems["tx90obstacles.xml"]["pairs"][0]
    qbad = list(robot.getConfig())
    qbad[2] = qbad[3] = 1.5
    robot.setConfig(qs)
    with pytest.warns(UserWarning, match=r"Goal configuration fails \['terrain collision 1 Terrain1'\]"):
        assert robotplanning.plan_to_config(world, robot, qbad) is None
    robot.setConfig(qbad)
    with pytest.warns(UserWarning, match=r"Start configuration fails \['terrain collision 1 Terrain1'\]"):
        assert robotplanning.plan_to_config(world, robot, qs) is None
    robot.setConfig(qs)
    qg2 = list(qg)
    qg2[9] = 0.5
    with pytest.raises(ValueError, match="differs from start configuration along a fixed DOF: gripper:Link_2 "
                                         r"\(link 9\): 0.048014 vs 0.5"):
        robotplanning.plan_to_config(world, robot, qg2, movingSubset=[1, 2, 3, 4, 5, 6])
    with pytest.raises(AssertionError, match="target configuration must be of correct size for robot"):
        robotplanning.plan_to_config(world, robot, qg[:6])
    same = robotplanning.plan_to_config(world, robot, qs)
    same.planMore(5)
    assert same.getPath() in ([qs, qs], [qs])
    with pytest.raises(TypeError, match="target must be a predicate function or CSpace object"):
        robotplanning.plan_to_set(world, robot, 3)


def test_all_dofs_plan_in_driver_space(problems):
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    qs, qg = problems["tx90obstacles.xml"]["pairs"][0]
    motionplanning.set_random_seed(0)
    random.seed(0)
    robot.setConfig(qs)
    plan = robotplanning.plan_to_config(world, robot, qg, movingSubset='all', type='sbl', perturbationRadius=0.5)
    assert isinstance(plan.space, cspaceutils.AffineEmbeddedCSpace) and len(plan.space.sample()) == 7
    path, _ = run(plan, iters=3000)
    assert path is not None and len(path[0]) == 12
    gripper = robot.driver(6)
    scale, offset = gripper.getAffineCoeffs()
    links = gripper.getAffectedLinks()
    for q in path:
        v = (q[links[0]] - offset[0]) / scale[0]
        assert all(abs(q[l] - (s * v + o)) < 1e-9 for l, s, o in zip(links, scale, offset))
    assert BruteForce(world, robot).violations(path, step=5e-3) == 0


def test_live_eps_and_margin(problems):
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    space = robotplanning.make_space(world, robot, movingSubset=[1, 2, 3, 4, 5, 6])
    assert space.cspace.getVisibilityEpsilon() == pytest.approx(0.01)
    space.eps = 0.5
    assert space.cspace.getVisibilityEpsilon() == 0.5
    # Edges of ~1 rad between feasible configurations: some are free when
    # checked every 0.5 rad but not every 0.01 rad, so the new eps is used.
    feasible = [space.project(q) for q in random_arm_configs(robot, 120, 5) if space.isFeasible(space.project(q))]
    edges = [(a, [x + 0.4 * (y - x) for x, y in zip(a, b)]) for a, b in zip(feasible[:-1], feasible[1:])]
    coarse = [space.isVisible(a, b) for a, b in edges]
    space.eps = 0.01
    fine = [space.isVisible(a, b) for a, b in edges]
    assert any(c and not f for c, f in zip(coarse, fine))
    assert not any(f and not c for c, f in zip(coarse, fine))
    qs = problems["tx90obstacles.xml"]["pairs"][0][0]
    a = space.project(qs)
    # clearance agrees with the distance queries.
    robot.setConfig(qs)
    check = collide.WorldCollider(world)
    d = min(robot.link(i).geometry().distance(world.terrain(t).geometry()).d
            for i in range(1, robot.numLinks()) for t in range(world.numTerrains())
            if robot.link(i).geometry().type() != "" and
            check.isCollisionEnabled((robot.link(i), world.terrain(t))))
    assert space.cspace.clearance(a) <= d + 1e-9
    assert robot.getConfig() == qs


def test_manual_cuptable_example(problems):
    world = load_shared_world("tx90cuptable.xml", quiet=True)
    robot = world.robot(0)
    qs, qg = problems["tx90cuptable.xml"]["pairs"][0]
    motionplanning.set_random_seed(0)
    random.seed(0)
    space = robotplanning.make_space(world, robot, edgeCheckResolution=0.05)
    plan = MotionPlan(space, type='sbl')
    plan.setEndpoints(space.project(qs), space.project(qg))
    path = None
    for _ in range(200):
        plan.planMore(10)
        path = plan.getPath()
        if path:
            break
    assert path is not None
    full = space.liftPath(path)
    assert full[0] == pytest.approx(qs) and full[-1] == pytest.approx(qg)


def two_robot_world():
    """tx90obstacles with a second tx90 standing 1.1 m beside the first."""
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    world.loadElement(os.path.join(SHARED_DATA, "robots", "tx90pr2.rob"))
    other = world.robot(1)
    R, t = other.link(0).getParentTransform()
    other.link(0).setParentTransform(R, [t[0] + 1.1, t[1], t[2]])
    other.setConfig(other.getConfig())
    return world


def test_other_robots_are_obstacles():
    # Issue #148: the reference never checks robot-robot collisions.
    world = two_robot_world()
    robot, other = world.robot(0), world.robot(1)
    space = robotplanning.make_space(world, robot, movingSubset=[1, 2, 3, 4, 5, 6])
    names = space.cspace.feasibilityQueryOrder()
    assert "robot collision 1 " + other.getName() in names
    # Reaching over to the other robot collides with it.
    q = robot.getConfig()
    hits = 0
    for x in random_arm_configs(robot, 300, 2):
        robot.setConfig(x)
        touch = any(robot.link(i).geometry().collides(other.link(j).geometry())
                    for i in range(robot.numLinks()) for j in range(other.numLinks())
                    if robot.link(i).geometry().type() != "" and other.link(j).geometry().type() != "")
        if touch:
            hits += 1
            assert "robot collision 1 " + other.getName() in space.cspace.feasibilityFailures(space.project(x))
    robot.setConfig(q)
    assert hits > 0
    ignoring = robotplanning.make_space(world, robot, movingSubset=[1, 2, 3, 4, 5, 6], ignoreCollisions=[other])
    assert all("robot collision" not in n for x in random_arm_configs(robot, 100, 2)
               for n in ignoring.cspace.feasibilityFailures(ignoring.project(x)))


def test_cartesian_goal_with_moving_subset_keeps_other_dofs(problems):
    # Issue #216: goals come from IK over the moving DOFs only.
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    ee = robot.link(6)
    qs, qg = problems["tx90obstacles.xml"]["pairs"][0]
    qg = list(qg)
    qg[6] = qs[6]
    robot.setConfig(qg)
    Tg = ee.getTransform()
    obj = ik.objective(ee, R=Tg[0], t=Tg[1])
    subset = [1, 2, 3, 4, 5]
    motionplanning.set_random_seed(3)
    random.seed(3)
    robot.setConfig(qs)
    plan = robotplanning.plan_to_cartesian_objective(world, robot, [obj], movingSubset=subset, type='sbl',
                                                     perturbationRadius=0.5)
    path, _ = run(plan, iters=2000)
    assert path is not None
    robot.setConfig(path[-1])
    T = ee.getTransform()
    assert max(abs(a - b) for a, b in zip(T[1], Tg[1])) < 2e-3
    assert all(path[-1][i] == qs[i] for i in range(robot.numLinks()) if i not in subset)
    assert robot.getConfig() == path[-1]
    robot.setConfig(qs)
    # Default subset: the chain of the constrained link, the gripper stays put.
    plan = robotplanning.plan_to_cartesian_objective(world, robot, [obj], type='sbl', perturbationRadius=0.5)
    path, _ = run(plan, iters=2000)
    assert path is not None and all(path[-1][i] == qs[i] for i in range(7, 12))


def test_goal_sampler_samples_satisfy_the_objective():
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    ee = robot.link(6)
    q0 = robot.getConfig()
    robot.setConfig([0, 0.3, 0.4, 0.2, 0.1, 0.5, 0.2, 0, 0.5, 0.5, -0.5, 0.5])
    Tg = ee.getTransform()
    obj = ik.objective(ee, R=Tg[0], t=Tg[1])
    robot.setConfig(q0)
    test, sample = robotplanning._cartesian_goal(robot, [obj], 1e-3, [1, 2, 3, 4, 5, 6])
    random.seed(0)
    good = 0
    for _ in range(50):
        before = robot.getConfig()
        q = sample()
        assert robot.getConfig() == before
        assert all(q[i] == q0[i] for i in (0, 7, 8, 9, 10, 11))
        if test(q):
            good += 1
            robot.setConfig(q)
            assert max(abs(a - b) for a, b in zip(ee.getTransform()[1], Tg[1])) < 2e-3
    assert good == 50


def test_conservative_edges_and_margin_keep_clearance(problems):
    # Issue #217: paths that graze obstacles between checked points.
    world = load_shared_world("tx90obstacles.xml", quiet=True)
    robot = world.robot(0)
    check = BruteForce(world, robot, margin=0.02)
    ran = 0
    for k in range(4):
        qs, qg = problems["tx90obstacles.xml"]["pairs"][k]
        motionplanning.set_random_seed(k)
        random.seed(k)
        robot.setConfig(qs)
        if not check.feasible(qs) or not check.feasible(qg):
            continue
        plan = robotplanning.plan_to_config(world, robot, qg, edgeCheckResolution=0.05, collisionMargin=0.02,
                                            edgeCheck='conservative', **SBL)
        path, _ = run(plan, iters=2000)
        assert path is not None
        plan.planMore(100)  # shortcuts: long straight edges
        path = plan.getPath()
        assert check.violations(path, step=2e-3) == 0
        ran += 1
    assert ran >= 2
