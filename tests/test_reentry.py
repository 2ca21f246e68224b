"""A callback that calls back into the call running it (a planner's, a
C-space's, an IK solver's, a simulator's or the visualization's) raises
RuntimeError at once, naming the call, instead of hanging or recursing; the
object stays usable afterwards, and calls that do not re-enter still work."""
import pytest

from klampt import IKSolver
from klampt.model import ik
from klampt.plan import motionplanning as mp
from klampt.sim.simulation import SimpleSimulator
from vis_helpers import run_python

from conftest import arm_table_world

REENTRY = "called from inside a callback of"


def test_plan_more_from_a_feasibility_test_raises_instead_of_hanging():
    # In a child process with a time bound: the call used to wait for itself forever.
    r = run_python("""
        import random
        from klampt.plan import motionplanning as mp
        mp.set_plan_type('rrt')
        s = mp.CSpaceInterface()
        planner = []
        def feasible(q):
            if planner:
                planner[0].planMore(1)
            return True
        s.setFeasibility(feasible)
        s.setSampler(lambda: [random.random(), random.random()])
        s.setVisibilityEpsilon(0.05)
        p = mp.PlannerInterface(s)
        p.setEndpoints([0.1, 0.1], [0.9, 0.9])
        planner.append(p)
        try:
            p.planMore(5)
        except RuntimeError as e:
            print('RuntimeError:', e)
        planner.clear()
        p.planMore(20)
        print('solved' if p.getSolutionPath() else 'unsolved')
        """, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "RuntimeError: PlannerInterface.planMore was %s PlannerInterface.planMore" % REENTRY in r.stdout
    assert r.stdout.strip().endswith("solved")  # the planner works on once the callback stops re-entering


@pytest.mark.parametrize("call", ["getMilestone(0)", "getStats()", "addMilestone([0.5, 0.5])"])
def test_other_planner_methods_from_its_callback_raise(call):
    # In a child process too: these used to wait for the running planMore forever.
    r = run_python("""
        import random
        from klampt.plan import motionplanning as mp
        mp.set_plan_type('rrt')
        s = mp.CSpaceInterface()
        planner, seen = [], []
        def feasible(q):
            if planner:
                try:
                    planner[0].%s
                except RuntimeError as e:
                    seen.append(str(e))
            return True
        s.setFeasibility(feasible)
        s.setSampler(lambda: [random.random(), random.random()])
        s.setVisibilityEpsilon(0.05)
        p = mp.PlannerInterface(s)
        p.setEndpoints([0.1, 0.1], [0.9, 0.9])
        planner.append(p)
        p.planMore(3)
        planner.clear()
        print(seen[0] if seen else 'no error')
        print('iterations', p.getStats()['numIters'])
        """ % call, timeout=60)
    assert r.returncode == 0, r.stderr
    name = call.split("(")[0]
    assert "PlannerInterface.%s was %s PlannerInterface.planMore" % (name, REENTRY) in r.stdout
    assert int(r.stdout.split("iterations")[1]) >= 3


def test_a_feasibility_test_querying_its_own_space_raises():
    s = mp.CSpaceInterface()
    s.setFeasibility(lambda q: s.isFeasible(q))
    with pytest.raises(RuntimeError, match="CSpaceInterface.isFeasible was %s CSpaceInterface.isFeasible" % REENTRY):
        s.isFeasible([0.5, 0.5])
    s.setFeasibility(lambda q: q[0] < 0.7)
    assert s.isFeasible([0.5, 0.5]) and not s.isFeasible([0.8, 0.5])
    s.destroy()


def test_a_visibility_test_may_query_feasibility_of_its_space():
    s = mp.CSpaceInterface()
    s.setFeasibility(lambda q: q[0] < 0.7)
    s.setVisibility(lambda a, b: all(s.isFeasible([a[0] + (b[0] - a[0]) * u / 10.0, a[1]]) for u in range(11)))
    assert s.isVisible([0.1, 0.5], [0.6, 0.5])
    assert not s.isVisible([0.1, 0.5], [0.9, 0.5])
    s.destroy()


def test_ik_minimize_callback_using_its_solver_raises():
    world = arm_table_world()
    robot = world.robot(0)
    link = robot.link(robot.numLinks() - 1)
    solver = IKSolver(robot)
    solver.add(ik.objective(link, local=[0, 0, 0], world=link.getWorldPosition([0, 0, 0])))
    errors = []

    def cost(q):
        try:
            solver.solve()
        except RuntimeError as e:
            errors.append(str(e))
        return sum(x * x for x in q)

    solver.minimize(cost, lambda q: [2 * x for x in q])
    assert errors and "IKSolver.solve was %s IKSolver.minimize" % REENTRY in errors[0]
    assert solver.solve()  # usable again afterwards


def test_simulator_hook_calling_simulate_raises():
    world = arm_table_world()
    sim = SimpleSimulator(world)
    sim.addHook([], lambda: sim.simulate(0.01))
    with pytest.raises(RuntimeError, match="SimpleSimulator.simulate was %s SimpleSimulator.simulate" % REENTRY):
        sim.simulate(0.01)
    sim.hooks.clear()
    sim.hook_args.clear()
    t = sim.getTime()
    sim.simulate(0.01)
    assert sim.getTime() == pytest.approx(t + 0.01)


def test_simulator_controller_calling_control_step_raises():
    world = arm_table_world()
    sim = SimpleSimulator(world)
    sim.setController(0, lambda c: sim.controlStep(0.01))
    with pytest.raises(RuntimeError, match="SimpleSimulator.controlStep was %s" % REENTRY):
        sim.simulate(0.01)


@pytest.mark.parametrize("call", ["loop", "spin", "dialog"])
def test_blocking_vis_call_from_a_loop_callback_raises(vis, call):
    errors = []

    def callback():
        try:
            if call == "loop":
                vis.loop(callback=lambda: vis.show(False))
            elif call == "spin":
                vis.spin(0.1)
            else:
                vis.dialog()
        except RuntimeError as e:
            errors.append(str(e))
        vis.show(False)

    vis.loop(setup=vis.show, callback=callback)
    assert errors and "vis.%s was %s vis.loop" % (call, REENTRY) in errors[0]
    frames = []
    vis.loop(setup=vis.show, callback=lambda: (frames.append(1), vis.show(len(frames) < 3)))
    assert len(frames) == 3  # a later loop runs normally
