"""klampt.model.cartesian_trajectory on the project's 6-DOF arm: paths end at
their targets, follow the requested task-space line or path (checked by
forward kinematics), respect the milestone spacing, and fail cleanly on
unreachable targets."""
import random
import warnings

import pytest

import klampt
from klampt.math import se3, so3, vectorops
from klampt.model import cartesian_trajectory as ct
from klampt.model import ik
from klampt.model.trajectory import RobotTrajectory, SE3Trajectory, Trajectory

from conftest import arm_table_world
from geometry_oracles import distance_to_segment

TOOL = [0.0, 0.0, 0.0]
# IK solutions are accepted within the solver tolerance (1e-3 per residual
# component), so positions are compared to 2e-3.


@pytest.fixture
def arm():
    world = arm_table_world()
    robot = world.robot(0)
    robot.setConfig([0, 0.3, 0.5, 0.8, 0, 1.0, 0][:robot.numLinks()])
    return world, robot


def ee(robot):
    return robot.link(robot.numLinks() - 1)


def point_objective(robot, target=None):
    link = ee(robot)
    return ik.objective(link, local=TOOL, world=target if target is not None else link.getWorldPosition(TOOL))


def task(p):
    """Task space coordinates of a point objective: local point, world target."""
    return TOOL + list(p)


def fk(robot, q):
    robot.setConfig(q)
    return ee(robot).getWorldPosition(TOOL)


def test_interpolate_linear_follows_the_line(arm):
    _, robot = arm
    q0 = robot.getConfig()
    obj = point_objective(robot)
    a = ee(robot).getWorldPosition(TOOL)
    b = vectorops.add(a, [0.1, -0.05, -0.08])
    path = ct.cartesian_interpolate_linear(robot, task(a), task(b), obj, delta=0.02)
    assert isinstance(path, RobotTrajectory)
    assert path.times[0] == 0 and path.times[-1] == 1
    assert path.milestones[0] == q0
    assert all(t1 > t0 for t0, t1 in zip(path.times, path.times[1:]))
    assert vectorops.distance(fk(robot, path.milestones[-1]), b) < 2e-3
    for t, q in zip(path.times, path.milestones):
        p = fk(robot, q)
        assert distance_to_segment(p, a, b) < 2e-3
        # the parameter tracks the position along the line
        assert vectorops.distance(p, vectorops.interpolate(a, b, t)) < 2e-3
    for q1, q2 in zip(path.milestones, path.milestones[1:]):
        assert max(abs(x - y) for x, y in zip(q1, q2)) <= 0.02 + 1e-9


def test_interpolate_linear_with_link_index_constrains_the_pose(arm):
    _, robot = arm
    n = robot.numLinks() - 1
    T0 = ee(robot).getTransform()
    obj = ik.objective(ee(robot), R=T0[0], t=T0[1])
    from klampt.model import config
    a = config.getConfig([obj])
    T1 = (so3.mul(so3.rotation([0, 0, 1], 0.1), T0[0]), vectorops.add(T0[1], [0.0, 0.05, 0.0]))
    obj.setFixedTransform(n, *T1)
    b = config.getConfig([obj])
    path = ct.cartesian_interpolate_linear(robot, a, b, n, delta=0.05)
    assert path is not None
    robot.setConfig(path.milestones[-1])
    R, t = ee(robot).getTransform()
    assert vectorops.distance(t, T1[1]) < 1e-3
    assert so3.distance(R, T1[0]) < 1e-3


def test_interpolate_bisect_and_end_config(arm):
    _, robot = arm
    obj = point_objective(robot)
    a = ee(robot).getWorldPosition(TOOL)
    b = vectorops.add(a, [-0.05, 0.08, 0.05])
    path = ct.cartesian_interpolate_bisect(robot, task(a), task(b), [obj], delta=0.01)
    assert path is not None and path.times == sorted(path.times)
    assert path.times[0] == 0 and path.times[-1] == 1
    for q1, q2 in zip(path.milestones, path.milestones[1:]):
        assert robot.distance(q1, q2) <= 0.01 + 1e-9
    for q in path.milestones:
        assert distance_to_segment(fk(robot, q), a, b) < 2e-3
    end = path.milestones[-1]
    assert vectorops.distance(fk(robot, end), b) < 2e-3
    # the linear method with a given end configuration finishes exactly there
    robot.setConfig(path.milestones[0])
    lin = ct.cartesian_interpolate_linear(robot, task(a), task(b), obj, endConfig=end, delta=0.02)
    assert lin is not None and lin.milestones[-1] == list(end)


def test_path_interpolate_pointwise_and_any(arm):
    _, robot = arm
    obj = point_objective(robot)
    p0 = ee(robot).getWorldPosition(TOOL)
    waypoints = [p0, vectorops.add(p0, [0.08, 0, 0]), vectorops.add(p0, [0.08, 0.08, 0]),
                 vectorops.add(p0, [0.08, 0.08, -0.05])]
    task_path = Trajectory([0, 1, 3, 4], [task(w) for w in waypoints])
    for method in ('pointwise', 'any'):
        robot.setConfig(robot.getConfig())
        path = ct.cartesian_path_interpolate(robot, task_path, obj, delta=0.05, method=method)
        assert path is not None
        assert path.times[0] == 0 and path.times[-1] == pytest.approx(4)
        for t, w in zip(task_path.times, waypoints):
            q = path.eval(t)
            assert vectorops.distance(fk(robot, q), w) < 2e-3
        for q in path.milestones:
            p = fk(robot, q)
            assert min(distance_to_segment(p, u, v) for u, v in zip(waypoints, waypoints[1:])) < 2e-3
        robot.setConfig(path.milestones[0])
    # plain milestones are spaced 1 s apart
    path = ct.cartesian_path_interpolate(robot, [task(w) for w in waypoints[:2]], obj, delta=0.05,
                                         method='pointwise')
    assert path.times[-1] == pytest.approx(1)


def test_path_interpolate_roadmap(arm):
    random.seed(2)
    klampt.set_random_seed(2)
    _, robot = arm
    start = robot.getConfig()
    obj = point_objective(robot)
    p0 = ee(robot).getWorldPosition(TOOL)
    waypoints = [p0, vectorops.add(p0, [0.05, 0.05, 0.0]), vectorops.add(p0, [0.1, 0.0, 0.0])]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        path = ct.cartesian_path_interpolate(robot, [task(w) for w in waypoints], obj, startConfig=start, delta=0.1,
                                             method='roadmap',
                                             numSamples=500)
    assert path is not None
    assert path.milestones[0] == start
    assert vectorops.distance(fk(robot, path.milestones[-1]), waypoints[-1]) < 2e-3
    assert path.times[-1] == pytest.approx(2)
    for q in path.milestones:
        p = fk(robot, q)
        assert min(distance_to_segment(p, u, v) for u, v in zip(waypoints, waypoints[1:])) < 2e-3


def test_move_to(arm):
    _, robot = arm
    target = vectorops.add(ee(robot).getWorldPosition(TOOL), [0.0, -0.1, 0.05])
    goal = point_objective(robot, target)
    q0 = robot.getConfig()
    path = ct.cartesian_move_to(robot, goal, delta=0.05)
    assert path is not None and path.milestones[0] == q0
    assert vectorops.distance(fk(robot, path.milestones[-1]), target) < 2e-3


def test_unreachable_target_fails(arm):
    _, robot = arm
    obj = point_objective(robot)
    a = ee(robot).getWorldPosition(TOOL)
    with pytest.warns(RuntimeWarning):
        assert ct.cartesian_interpolate_linear(robot, task(a), task([10.0, 0, 0]), obj) is None
    robot.setConfig(robot.getConfig())
    with pytest.warns(RuntimeWarning):
        partial = ct.cartesian_interpolate_linear(robot, task(a), task([10.0, 0, 0]), obj, maximize=True)
    assert partial is not None and partial.times[-1] < 1
    with pytest.warns(RuntimeWarning):
        assert ct.cartesian_interpolate_bisect(robot, task(a), task([10.0, 0, 0]), obj) is None
    with pytest.raises(ValueError):
        ct.cartesian_interpolate_linear(robot, task(a), task(a), obj, delta=0)


def test_feasibility_test_is_respected(arm):
    _, robot = arm
    obj = point_objective(robot)
    a = ee(robot).getWorldPosition(TOOL)
    b = vectorops.add(a, [0.1, 0, 0])
    # forbid the end effector from passing x > a.x + 0.05
    limit = a[0] + 0.05

    def feasible(q):
        return fk(robot, q)[0] <= limit

    with pytest.warns(RuntimeWarning):
        assert ct.cartesian_interpolate_linear(robot, task(a), task(b), obj, feasibilityTest=feasible) is None
    robot.setConfig(robot.getConfig())
    with pytest.warns(RuntimeWarning):
        partial = ct.cartesian_interpolate_linear(robot, task(a), task(b), obj, feasibilityTest=feasible,
                                                    maximize=True)
    assert all(feasible(q) for q in partial.milestones)


def test_cartesian_bump_translates_the_end_effector(arm):
    _, robot = arm
    q0 = robot.getConfig()
    q1 = [v + 0.1 for v in q0]
    js = RobotTrajectory(robot, [0, 1], [q0, q1])
    offset = [0.0, 0.0, 0.03]
    n = robot.numLinks() - 1
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        bumped = ct.cartesian_bump(robot, js, n, se3.from_translation(offset), delta=0.05)
    assert bumped is not None
    assert bumped.times[0] == 0 and bumped.times[-1] == 1
    for t in (0.0, 0.5, 1.0):
        robot.setConfig(js.eval(t))
        R0, t0 = ee(robot).getTransform()
        robot.setConfig(bumped.eval(t))
        R1, t1 = ee(robot).getTransform()
        if t in (0.0, 1.0):
            assert vectorops.distance(t1, vectorops.add(t0, offset)) < 2e-3
            assert so3.distance(R0, R1) < 2e-3
    for qa, qb in zip(bumped.milestones, bumped.milestones[1:]):
        assert robot.distance(qa, qb) <= 0.05 + 1e-6
    # a time-varying bump: zero at the start, full at the end
    bump = SE3Trajectory([0, 1], [se3.identity(), se3.from_translation(offset)])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        bumped = ct.cartesian_bump(robot, js, n, bump, delta=0.05)
    robot.setConfig(bumped.milestones[0])
    start = ee(robot).getTransform()[1]
    robot.setConfig(q0)
    assert vectorops.distance(start, ee(robot).getTransform()[1]) < 1e-3
    with pytest.raises(ValueError):
        ct.cartesian_bump(robot, js, [n, n], [se3.identity()])
