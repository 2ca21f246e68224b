"""A script as a user writes it, type-checked by tests/test_typing.py: each
assert_type pins what the stubs say a call returns, so that a stub that loses
precision (a typing.Any, a bare list) fails the check. It also runs.

    python typed_user_script.py WORLD.xml
"""
import sys
from typing import assert_type

import numpy as np
import numpy.typing as npt

from klampt import (Geometry3D, GeometricPrimitive, IKObjective, IKSolver, RobotModel, RobotModelLink,
                    SimRobotController, Simulator, WorldModel, DistanceQueryResult)

Vector = list[float]
Pair = tuple[list[float], list[float]]
Matrix = npt.NDArray[np.float64]

world = WorldModel()
assert_type(world.readFile(sys.argv[1]), bool)
robot = world.robot(0)
assert_type(robot, RobotModel)
n = robot.numLinks()
assert_type(n, int)

# configurations: lists and arrays in, lists out
q = robot.getConfig()
assert_type(q, Vector)
robot.setConfig(q)
robot.setConfig(np.zeros(n))
robot.setVelocity([0.0] * n)
assert_type(robot.getVelocity(), Vector)
assert_type(robot.getJointLimits(), Pair)
assert_type(robot.getCom(), Vector)

# links: transforms, points, Jacobians
link = robot.link(n - 1)
assert_type(link, RobotModelLink)
assert_type(robot.link(link.getName()), RobotModelLink)
assert_type(link.getTransform(), Pair)
assert_type(link.getWorldPosition([0, 0, 0.1]), Vector)
assert_type(link.getJacobian([0, 0, 0]), Matrix)
assert_type(link.getPositionJacobian(np.array([0.0, 0.0, 0.1])), Matrix)
assert_type(link.getOrientationJacobian(), Matrix)
assert_type(link.getPointAcceleration([0, 0, 0], [0.0] * n), Vector)

# dynamics
assert_type(robot.getMassMatrix(), Matrix)
assert_type(robot.getGravityForces([0, 0, -9.8]), Vector)
assert_type(robot.torquesFromAccel([0.0] * n), Vector)
assert_type(robot.getKineticEnergy(), float)

# inverse kinematics
goal = IKObjective()
goal.setFixedPoint(link.getIndex(), [0, 0, 0], link.getWorldPosition([0, 0, 0]))
solver = IKSolver(robot)
solver.add(goal)
assert_type(solver.solve(), bool)
assert_type(solver.getResidual(), Vector)
assert_type(solver.getJacobian(), Matrix)

# geometry queries
sphere = GeometricPrimitive()
sphere.setSphere([0, 0, 2], 0.25)
ball = Geometry3D(sphere)
geom = link.geometry()
assert_type(geom, Geometry3D)
assert_type(geom.getBB(), Pair)
assert_type(geom.collides(ball), bool)
d = geom.distance(ball)
assert_type(d, DistanceQueryResult)
assert_type(d.d, float)
hit, point = geom.rayCast([0, 0, 3], [0, 0, -1])
assert_type(hit, bool)
ball.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0.5, 0, 2])
assert_type(ball.getCurrentTransform(), Pair)

# simulation
sim = Simulator(world)
controller = sim.controller(0)
assert_type(controller, SimRobotController)
controller.setMilestone(q)
sim.simulate(0.01)
assert_type(sim.getActualConfig(0), Vector)
assert_type(controller.getSensedConfig(), Vector)
# planning on a C-space of Python callbacks, and the time-scaling functions
import random  # noqa: E402
import warnings  # noqa: E402

from klampt.plan import motionplanning  # noqa: E402


def free(x: list[float]) -> bool:
    return (x[0] - 0.5) ** 2 + (x[1] - 0.5) ** 2 > 0.04


space = motionplanning.CSpaceInterface()
space.setFeasibility(free)
space.setVisibilityEpsilon(0.01)
space.setSampler(lambda: [random.random(), random.random()])
assert_type(space.isFeasible(np.array([0.1, 0.1])), bool)
assert_type(space.isVisible([0.1, 0.1], [0.9, 0.1]), bool)
assert_type(space.getStats(), dict[str, str])
motionplanning.set_random_seed(1)
motionplanning.set_plan_type("rrt")
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    motionplanning.setPlanSetting("perturbationRadius", 0.1)  # the deprecated alias has the same signature
planner = motionplanning.PlannerInterface(space)
assert_type(planner.setEndpoints([0.1, 0.5], [0.9, 0.5]), bool)
planner.planMore(1000)
path = planner.getPath(0, 1)
assert_type(path, list[list[float]] | None)
assert path is not None and path[0] == [0.1, 0.5]
vertices, edges = planner.getRoadmap()
assert_type(edges, list[tuple[int, int]])
assert_type(vertices, list[list[float]])
motionplanning.interpolate_nd_min_time([0.0, 0.0], [0.0, 0.0], [1.0, 2.0], [0.0, 0.0], [-5.0, -5.0], [5.0, 5.0],
                                       [1.0, 1.0], [2.0, 2.0])
print("ok", len(q))
