"""The rest of klampt.plan: rigid-object and stance C-spaces, the deprecated
and unavailable names, the package's imports."""
import math
import os
import random
import subprocess
import sys

import pytest

from conftest import REPO, load_world
from klampt.math import se3, so3
from klampt.model import collide
from klampt.model.contact import ContactPoint, Hold
from klampt.plan import motionplanning, robotcspace, robotplanning
from klampt.plan.contactcspace import StanceCSpace, TransitionCSpace
from klampt.plan.cspace import MotionPlan
from klampt.plan.rigidobjectcspace import RigidObjectCSpace

WORLD = os.path.join(REPO, "data", "worlds", "arm_table.xml")


def test_every_module_imports_in_a_fresh_interpreter():
    code = ("import klampt.plan\nfrom klampt.plan import cspace, robotplanning, robotcspace, cspaceutils, "
            "motionplanning, rigidobjectcspace, contactcspace\nprint(klampt.plan.__all__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert out.returncode == 0, out.stderr
    assert "['cspace', 'robotcspace', 'robotplanning']" in out.stdout


def test_rigid_object_space():
    world = load_world(WORLD, quiet=True)
    ball = world.rigidObject("ball")
    T0 = ball.getTransform()
    space = RigidObjectCSpace(ball, collide.WorldCollider(world),
                              translationDomain=[(0.3, 1.2), (-0.6, 0.6), (0.7, 1.2)])
    assert space.feasibilityTestNames[0] == "setconfig"
    assert "terrain collision 1 table" in space.feasibilityTestNames
    assert "robot collision 0 arm6" in space.feasibilityTestNames
    assert "obj collision 2 ball" not in space.feasibilityTestNames
    x = space.transformToConfig(T0)
    R, t = space.configToTransform(x)
    assert so3.distance(R, T0[0]) < 1e-9 and t == pytest.approx(T0[1])
    random.seed(2)
    a, b = space.sample(), space.sample()
    assert space.interpolate(a, b, 0) == pytest.approx(a) and space.interpolate(a, b, 1) == pytest.approx(b)
    assert space.distance(a, b) == pytest.approx(space.distance(b, a))
    assert space.distance(a, a) == pytest.approx(0, abs=1e-12)
    # Half-way in SE(3): the translation is the midpoint.
    assert space.interpolate(a, b, 0.5)[:3] == pytest.approx([(p + q) / 2 for p, q in zip(a[:3], b[:3])])
    # Sunk into the table: infeasible.
    inside = list(x)
    inside[2] = 0.69  # the table top is at 0.7
    assert not space.feasible(inside)
    assert space.envCollision(inside)
    above = list(x)
    above[2] += 0.2
    assert space.feasible(above) and not space.envCollision(above)
    traj = space.pathToTrajectory([above, x])
    assert type(traj).__name__ == "SE3Trajectory"
    # addConstraint works (the reference misspells the method it calls).
    space.addConstraint(lambda q: q[2] > 0.72, "high")
    assert space.feasibilityTestNames[-1] == "high"
    ball.setTransform(*T0)


def test_rigid_object_planning():
    world = load_world(WORLD, quiet=True)
    ball = world.rigidObject("ball")
    T0 = ball.getTransform()
    space = RigidObjectCSpace(ball, collide.WorldCollider(world), translationDomain=[(0.3, 1.2), (-0.6, 0.6),
                                                                                   (0.72, 1.0)],
                              rotationDomain=(so3.identity(), 0.1))
    space.eps = 5e-3
    start = space.transformToConfig(T0)
    start[2] += 0.02
    goal = list(start)
    goal[1] += 0.5
    motionplanning.set_random_seed(0)
    random.seed(0)
    motionplanning.set_plan_json_string('{"type":"any"}')
    plan = MotionPlan(space, "rrt", perturbationRadius=0.2)
    plan.setEndpoints(start, goal)
    path = None
    for _ in range(200):
        plan.planMore(10)
        path = plan.getPath()
        if path:
            break
    assert path is not None and path[0] == start and path[-1] == goal
    for a, b in zip(path[:-1], path[1:]):
        for k in range(11):
            assert space.feasible(space.interpolate(a, b, k / 10))
    ball.setTransform(*T0)


def test_stance_space():
    world = load_world(WORLD, quiet=True)
    robot = world.robot(0)
    ee = robot.link(robot.numLinks() - 1)
    robot.setConfig([0, 0, 0.4, 0.8, 0, 1.2, 0])
    p = se3.apply(ee.getTransform(), [0, 0, 0])
    hold = Hold()
    hold.setFixed(ee, [ContactPoint(p, [0, 0, 1], 0.5)])
    space = StanceCSpace(robot, [hold], world=world)
    names = space.feasibilityTestNames
    assert names[-2:] == ['closed loop constraint', 'suppPoly']
    # One contact point at p: the COM is supported only straight above it.
    q = robot.getConfig()
    com = robot.getCom()
    assert space.testSupportPolygon(q) == (math.hypot(com[0] - p[0], com[1] - p[1]) < 1e-6)
    assert space.closedLoop(q)
    with pytest.raises(NotImplementedError):
        StanceCSpace(robot, [hold], world=world, checkTorqueLimits=True)
    other = StanceCSpace(robot, [], world=world)
    transition = TransitionCSpace(space, other)
    assert 'suppPoly' in transition.feasibilityTestNames


def test_deprecated_names_warn():
    world = load_world(WORLD, quiet=True)
    robot = world.robot(0)
    with pytest.warns(DeprecationWarning):
        assert robotplanning.preferredPlanOptions(robot) == robotplanning.preferred_plan_options(robot)
    with pytest.warns(DeprecationWarning):
        robotcspace.RobotSubsetCSpace(robot, [1, 2], collide.WorldCollider(world))
    with pytest.warns(DeprecationWarning):
        motionplanning.setPlanType("rrt")
    motionplanning.set_plan_json_string('{"type":"any"}')
    with pytest.raises(NotImplementedError):
        robotplanning.wizard(world)
