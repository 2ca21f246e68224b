"""klampt.plan.robotoptimize: IK problems with joint limits, collision-free
tests, extra constraints and costs, checked independently: the IK residual
from the link's transform, the joint limits, and a WorldCollider query."""
import os
import random

import numpy as np
import pytest

from conftest import PROJECT_DATA, load_shared_world, load_world
from klampt import IKSolver
from klampt.math import optimize
from klampt.model import collide, ik
from klampt.plan.robotoptimize import KlamptVariable, RobotOptimizationProblem


@pytest.fixture
def arm_world():
    return load_world(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))


def ee_position(robot, q, link):
    robot.setConfig(q)
    return np.array(robot.link(link).getWorldPosition([0, 0, 0]))


def within_limits(robot, q, tol=1e-9):
    qmin, qmax = robot.getJointLimits()
    return all(a - tol <= v <= b + tol for v, a, b in zip(q, qmin, qmax))


def collides(world, q):
    world.robot(0).setConfig(q)
    return any(True for _ in collide.WorldCollider(world).collisions())


def test_ik_with_collision_free_test(arm_world):
    robot = arm_world.robot(0)
    target = [0.6, 0.0, 0.78]    # 8 cm above the table top: many IK solutions put the arm through it
    goal = ik.objective(robot.link(6), local=[0, 0, 0], world=target)
    solver = IKSolver(robot)
    solver.add(goal)
    random.seed(0)
    colliding = None
    for _ in range(100):
        solver.sampleInitial()
        if solver.solve() and collides(arm_world, robot.getConfig()):
            colliding = robot.getConfig()
            break
    assert colliding is not None, "expected some IK solutions to collide with the table"
    # start from a colliding IK solution: it must be rejected
    robot.setConfig(colliding)
    problem = RobotOptimizationProblem(robot, arm_world)
    problem.addIKObjective(goal)
    problem.addCollisionFreeTest()
    q = problem.solve(optimize.OptimizerParams(numRestarts=100))
    assert q is not None
    assert np.allclose(ee_position(robot, q, 6), target, atol=1e-3)
    assert within_limits(robot, q)
    assert not collides(arm_world, q)
    assert np.allclose(problem.q.value, q)
    assert problem.isFeasible()


def test_ik_with_cost_and_local_polish(arm_world):
    robot = arm_world.robot(0)
    target = [0.5, 0.3, 1.0]
    problem = RobotOptimizationProblem(robot, arm_world, ik.objective(robot.link(6), local=[0, 0, 0], world=target))
    problem.addCost(problem.context.linalg.norm2(problem.q))
    random.seed(1)
    robot.setConfig([0.0] * 7)
    q = problem.solve(optimize.OptimizerParams(numRestarts=5, localMethod='scipy', tol=1e-6))
    assert q is not None
    assert np.allclose(ee_position(robot, q, 6), target, atol=1e-4)
    assert within_limits(robot, q)
    assert problem.cost() == pytest.approx(float(np.dot(q, q)))
    # no solution of the IK problem seen by the plain solver is cheaper
    solver = IKSolver(robot)
    solver.add(ik.objective(robot.link(6), local=[0, 0, 0], world=target))
    costs = []
    for _ in range(20):
        solver.sampleInitial()
        if solver.solve() and within_limits(robot, robot.getConfig()):
            costs.append(float(np.dot(robot.getConfig(), robot.getConfig())))
    assert costs and problem.cost() <= min(costs) + 1e-6


def test_ik_with_extra_inequality_and_active_dofs(arm_world):
    robot = arm_world.robot(0)
    target = [0.5, 0.3, 1.0]
    problem = RobotOptimizationProblem(robot, arm_world, ik.objective(robot.link(6), local=[0, 0, 0], world=target))
    problem.addInequality(problem.q[2] - 0.2)      # q[2] <= 0.2
    q = problem.solve(optimize.OptimizerParams(numRestarts=10, tol=1e-6))
    assert q is not None
    assert q[2] <= 0.2 + 1e-6
    assert np.allclose(ee_position(robot, q, 6), target, atol=1e-4)
    assert within_limits(robot, q)

    problem.setActiveDofs([1, 2, 'forearm'])
    start = [0.0, 0.0, 0.0, 0.0, 0.3, 0.2, 0.1]
    robot.setConfig(start)
    problem.q.bind(np.array(start))
    q = problem.solve(optimize.OptimizerParams(numRestarts=10, tol=1e-6))
    assert q is not None
    assert np.allclose([q[i] for i in (0, 4, 5, 6)], [start[i] for i in (0, 4, 5, 6)])
    assert q[2] <= 0.2 + 1e-6
    assert np.allclose(ee_position(robot, q, 6), target, atol=1e-4)


def test_shared_robot_narrowed_joint_limits():
    world = load_shared_world("robots/tx90l.rob", quiet=True)
    robot = world.robot(0)
    n = robot.numLinks()
    ee = n - 1
    qtarget = [0.0, 0.3, -0.4, 0.5, 0.6, -0.2, 0.4][:n] + [0.0] * max(0, n - 7)
    target = ee_position(robot, qtarget, ee).tolist()
    qmin, qmax = robot.getJointLimits()
    # narrow joint 1 so that only solutions near qtarget[1] are allowed
    qmin, qmax = list(qmin), list(qmax)
    qmin[1], qmax[1] = 0.2, 0.4
    problem = RobotOptimizationProblem(robot)
    problem.setJointLimits(qmin, qmax)
    problem.addIKObjective(ik.objective(robot.link(ee), local=[0, 0, 0], world=target))
    robot.setConfig([0.0] * n)
    random.seed(2)
    q = problem.solve(optimize.OptimizerParams(numRestarts=50))
    assert q is not None
    assert np.allclose(ee_position(robot, q, ee), target, atol=1e-3)
    assert all(a - 1e-9 <= v <= b + 1e-9 for v, a, b in zip(q, qmin, qmax))
    assert problem.inJointLimits(q)
    with pytest.raises(ValueError):
        problem.setJointLimits([0.0], [1.0])


def test_unreachable_goal_fails_and_soft_ik_gets_close(arm_world):
    robot = arm_world.robot(0)
    far = [3.0, 0.0, 1.0]
    problem = RobotOptimizationProblem(robot, arm_world, ik.objective(robot.link(6), local=[0, 0, 0], world=far))
    robot.setConfig([0.0] * 7)
    assert problem.solve(optimize.OptimizerParams(numRestarts=3)) is None
    problem.enableSoftIK()
    problem.q.bind(np.zeros(7))
    q = problem.solve(optimize.OptimizerParams(localMethod='scipy', numIters=200))
    assert q is not None
    # the closest reachable point lies on the line from the shoulder towards the goal
    reach = ee_position(robot, q, 6)
    shoulder = np.array(robot.link(1).getWorldPosition([0, 0, 0]))
    direction = (np.array(far) - shoulder) / np.linalg.norm(np.array(far) - shoulder)
    assert np.dot((reach - shoulder) / np.linalg.norm(reach - shoulder), direction) > 0.99


def test_klampt_variables(arm_world):
    robot = arm_world.robot(0)
    problem = RobotOptimizationProblem(robot, arm_world)
    R = [0, 1, 0, -1, 0, 0, 0, 0, 1]
    for encoding in ['rotation_vector', 'quaternion', 'rpy']:
        kv = problem.addKlamptVar('R_' + encoding, 'Rotation', R, encoding=encoding, optimize=False)
        assert isinstance(kv, KlamptVariable) and kv.encoding == encoding
        assert np.allclose(kv.getValue(), R, atol=1e-9)
        assert np.allclose(kv.expr.evalf(problem.context), R, atol=1e-9)
    T = problem.addKlamptVar('T', 'RigidTransform', (R, [1, 2, 3]), optimize=False)
    assert [v.name for v in T.variables] == ['T_rv', 'T_t']
    assert np.allclose(T.getValue()[1], [1, 2, 3])
    with pytest.raises(ValueError):
        problem.addKlamptVar('T', 'RigidTransform')
    with pytest.raises(ValueError):
        problem.addKlamptVar('bad', 'Rotation', R, encoding='euler')
    with pytest.raises(TypeError):
        problem.addIKObjective("not an objective")
    problem.rename('T', 'X')
    assert problem.get('X') is T and [v.name for v in T.variables] == ['X_rv', 'X_t']


def test_json_round_trip(arm_world):
    robot = arm_world.robot(0)
    problem = RobotOptimizationProblem(robot, arm_world)
    problem.addCost(problem.context.linalg.norm2(problem.q))
    problem.addInequality(problem.q[2] - 0.2)
    problem.setActiveDofs([1, 2, 3])
    other = RobotOptimizationProblem(robot, arm_world)
    other.fromJson(problem.toJson())
    assert other.activeDofs == [1, 2, 3]
    other.q.bind(np.array([0, 0, 0.5, 0, 0, 0, 0.0]))
    assert other.inequalityResidual()[0] == pytest.approx(0.3)
    assert other.cost() == pytest.approx(0.25)


def test_without_joint_limits(arm_world):
    robot = arm_world.robot(0)
    target = [0.5, -0.3, 0.9]
    problem = RobotOptimizationProblem(robot, arm_world, ik.objective(robot.link(6), local=[0, 0, 0], world=target))
    problem.disableJointLimits()
    assert problem.inJointLimits([100.0] * 7)
    q = problem.solve(optimize.OptimizerParams(numRestarts=10))
    assert q is not None and np.allclose(ee_position(robot, q, 6), target, atol=1e-3)
    with pytest.raises(ValueError):
        RobotOptimizationProblem()


def test_matrix_rotation_and_config_variables(arm_world):
    robot = arm_world.robot(0)
    problem = RobotOptimizationProblem(robot, arm_world)
    kv = problem.addKlamptVar('M', 'Rotation', [0, 1, 0, -1, 0, 0, 0, 0, 1], encoding=None, optimize=False)
    assert np.allclose(kv.constraints[0].expr.evalf(problem.context), 0)
    kv.bind([1, 0, 0, 0, 2, 0, 0, 0, 1])      # not a rotation: R^T R - I has a 3 on the diagonal
    assert np.allclose(kv.constraints[0].expr.evalf(problem.context), [0, 0, 0, 0, 3, 0, 0, 0, 0])
    qv = problem.addKlamptVar('q2', 'Config')
    assert problem.get('q2') is qv and problem.optimizationVariables[-1] is qv.variables[0]
    assert problem.variableBounds['q2'] == tuple(robot.getJointLimits())
    p3 = problem.addKlamptVar('p', 'Point', [1, 2, 3], optimize=False)
    assert np.allclose(p3.getValue(), [1, 2, 3])
