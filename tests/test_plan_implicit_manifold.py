"""ImplicitManifoldRobotCSpace: motion of arm_table's arm with its end
effector at a fixed height, checked against the link's world position."""
import os
import random

import pytest

from conftest import REPO, load_world
from klampt.math.vectorfield import VectorFieldFunction
from klampt.model import collide
from klampt.plan import robotcspace
from klampt.plan.cspace import MotionPlan

WORLD = os.path.join(REPO, "data", "worlds", "arm_table.xml")
HEIGHT = 0.9


@pytest.fixture
def arm():
    world = load_world(WORLD, quiet=True)
    return world, world.robot(0)


def height_error(robot, q):
    """The end effector's height above HEIGHT at q, from the robot model."""
    robot.setConfig(q)
    return robot.link(robot.numLinks() - 1).getWorldPosition([0, 0, 0])[2] - HEIGHT


def within_limits(robot, q):
    lo, hi = robot.getJointLimits()
    return all(a - 1e-9 <= x <= b + 1e-9 for a, x, b in zip(lo, q, hi))


def test_samples_and_interpolation_lie_on_the_manifold(arm):
    world, robot = arm
    random.seed(3)
    space = robotcspace.ImplicitManifoldRobotCSpace(robot, lambda q: [height_error(robot, q)],
                                                    collide.WorldCollider(world))
    space.setup()
    assert abs(height_error(robot, robot.getConfig())) > 0.01  # the start is off the manifold
    assert not space.feasible(robot.getConfig())
    samples = [space.sample() for _ in range(20)]
    feasible = [q for q in samples if space.feasible(q)]
    assert len(feasible) >= 10
    for q in feasible:
        assert abs(height_error(robot, q)) <= space.tol and within_limits(robot, q)
    mid = space.interpolate(feasible[0], feasible[1], 0.5)
    assert abs(height_error(robot, mid)) <= space.tol
    near = space.sampleneighborhood(feasible[0], 0.1)
    assert space.onManifold(near) == (abs(height_error(robot, near)) <= space.tol)


def test_a_plan_stays_on_the_manifold(arm):
    world, robot = arm
    random.seed(5)
    space = robotcspace.ImplicitManifoldRobotCSpace(robot, lambda q: [height_error(robot, q)],
                                                    collide.WorldCollider(world))
    space.setup()
    a = space.solveManifold([0, 0.2, 0.4, 0.8, 0, 1.2, 0])
    b = space.solveManifold([0, -0.2, 0.4, 0.8, 0, 1.2, 0])
    assert space.feasible(a) and space.feasible(b)
    plan = MotionPlan(space, type="rrt", bidirectional=True)
    plan.setEndpoints(a, b)
    for _ in range(20):
        plan.planMore(10)
        path = plan.getPath()
        if path:
            break
    assert path and path[0] == a and path[-1] == b
    assert max(abs(height_error(robot, q)) for q in path) <= space.tol


def test_vector_field_constraints_and_bad_input(arm):
    world, robot = arm

    class Joints(VectorFieldFunction):
        """q1 + q2 = 0.5 and q3 = 0.3."""

        def __init__(self):
            super().__init__()
            self.n, self.m = robot.numLinks(), 2

        def eval(self, q):
            return [q[1] + q[2] - 0.5, q[3] - 0.3]

        def jacobian(self, q):
            return [[0, 1, 1, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0]]

    space = robotcspace.ImplicitManifoldRobotCSpace(robot, Joints())
    q = space.solveManifold([0, 1.0, 1.0, 1.0, 0, 0, 0])
    assert q[1] + q[2] == pytest.approx(0.5, abs=1e-3) and q[3] == pytest.approx(0.3, abs=1e-3)
    # the minimum-norm step moves q1 and q2 equally; q0, q4.. stay
    assert q[1] == pytest.approx(q[2]) and q[0] == 0 and q[4:] == [0, 0, 0]
    with pytest.raises(ValueError, match="7 links"):
        bad = Joints()
        bad.n = 3
        robotcspace.ImplicitManifoldRobotCSpace(robot, bad)
    with pytest.raises(TypeError):
        robotcspace.ImplicitManifoldRobotCSpace(robot, 42)
