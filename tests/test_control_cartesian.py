"""Cartesian commands of the Completer on the simulated tx90l: poses
reached within 1 mm and 2 mrad, straight lines, velocity drives,
unreachable targets (acceptance criterion 4)."""
import pytest

from control_helpers import max_abs_diff, run, run_until, step, tx90

from klampt.math import se3, so3, vectorops

Q_START = [0, -0.3, 1.2, 0, 0.8, 0]


def settled(kind='Position'):
    c, w, sim = tx90(kind)
    step(c, lambda c: c.moveToPosition(Q_START))
    run_until(c, lambda c: not c.isMoving(), 3.0)
    run(c, 0.5)
    step(c, lambda c: c.setToolCoordinates([0, 0, 0.1]))
    return c, w, sim


def pose_error(a, b):
    return vectorops.distance(a[1], b[1]), so3.distance(a[0], b[0])


def test_tool_pose_queries():
    c, w, sim = settled()
    T = step(c, lambda c: c.commandedCartesianPosition())
    assert T[1] == pytest.approx([-0.818, 0.05, 0.859], abs=1e-3)
    assert max(pose_error(step(c, lambda c: c.commandedCartesianPosition('base')), T)) < 1e-12
    robot = w.robot(0)
    robot.setConfig(robot.configFromDrivers(Q_START))
    assert T[1] == pytest.approx(robot.link(6).getWorldPosition([0, 0, 0.1]), abs=1e-12)
    assert max(pose_error(step(c, lambda c: c.commandedCartesianPosition('tool')), se3.identity())) == 0
    assert step(c, lambda c: c.commandedCartesianPosition('end effector'))[1] == [0, 0, 0.1]
    assert c.getToolCoordinates() == [0, 0, 0.1]
    # a velocity query agrees with a finite difference of poses
    dq = [0.1, -0.2, 0.3, 0.1, 0.2, -0.1]
    w_, v = c.cartesianVelocity(Q_START, dq)
    h = 1e-6
    T1 = c.cartesianPosition([a + h * b for a, b in zip(Q_START, dq)])
    T0 = c.cartesianPosition(Q_START)
    assert vectorops.div(vectorops.sub(T1[1], T0[1]), h) == pytest.approx(v, abs=1e-4)
    # a force query balances the torques: J^T f = tau for the arm's joints
    f = c.cartesianForce(Q_START, [1, 2, 3, 0.5, 0.2, 0.1])
    import numpy as np
    robot.setConfig(robot.configFromDrivers(Q_START))
    J = np.asarray(robot.link(6).getJacobian([0, 0, 0.1]))[:, 1:]
    assert J.T.dot(np.array(f[0] + f[1])) == pytest.approx([1, 2, 3, 0.5, 0.2, 0.1], abs=1e-8)


def test_move_to_cartesian_position():
    c, w, sim = settled()
    R0, t0 = step(c, lambda c: c.commandedCartesianPosition())
    target = (R0, vectorops.add(t0, [0.1, 0.05, -0.1]))
    remaining = step(c, lambda c: (c.moveToCartesianPosition(target), c.destinationTime() - c.clock())[1])
    assert remaining == pytest.approx(0.479, abs=0.02)
    run_until(c, lambda c: not c.isMoving(), 2.0)
    err = pose_error(step(c, lambda c: c.commandedCartesianPosition()), target)
    assert err[0] < 1e-3 and err[1] < 2e-3
    run(c, 1.0)
    assert vectorops.distance(step(c, lambda c: c.sensedCartesianPosition())[1], target[1]) < 5e-3
    assert not step(c, lambda c: c.isMoving())
    # a point target constrains the position only
    point = vectorops.add(t0, [0.0, -0.1, 0.05])
    step(c, lambda c: c.moveToCartesianPosition(point))
    run_until(c, lambda c: not c.isMoving(), 2.0)
    assert vectorops.distance(step(c, lambda c: c.commandedCartesianPosition())[1], point) < 1e-3


def test_set_cartesian_position_in_other_frames():
    c, w, sim = settled('Kinematic')
    T0 = step(c, lambda c: c.commandedCartesianPosition())
    step(c, lambda c: c.setCartesianPosition((so3.identity(), [0, 0, 0.05]), frame='tool'))
    T1 = step(c, lambda c: c.commandedCartesianPosition())
    assert pose_error(T1, se3.mul(T0, (so3.identity(), [0, 0, 0.05])))[0] < 1e-3
    step(c, lambda c: c.setCartesianPosition(T0, frame='base'))
    err = pose_error(step(c, lambda c: c.commandedCartesianPosition()), T0)
    assert err[0] < 1e-3 and err[1] < 2e-3


def test_cartesian_velocity_raises_the_tool():
    c, w, sim = settled()
    R0, t0 = step(c, lambda c: c.commandedCartesianPosition())
    step(c, lambda c: c.setCartesianVelocity(([0, 0, 0], [0, 0, 0.1]), 1.0))
    assert step(c, lambda c: c.isMoving())
    run(c, 1.5)
    R1, t1 = step(c, lambda c: c.commandedCartesianPosition())
    assert vectorops.sub(t1, t0) == pytest.approx([0, 0, 0.1], abs=1e-3)
    assert so3.distance(R0, R1) < 1e-3
    assert not step(c, lambda c: c.isMoving())
    # the 3-vector form moves the same, the orientation free
    step(c, lambda c: c.setCartesianVelocity([0, 0, -0.1], 1.0))
    run(c, 1.5)
    t2 = step(c, lambda c: c.commandedCartesianPosition())[1]
    assert vectorops.sub(t2, t1) == pytest.approx([0, 0, -0.1], abs=1e-3)
    with pytest.raises(RuntimeError, match="Tool coordinates"):
        step(c, lambda c: (c.setCartesianVelocity([0, 0, 0.1]), c.setToolCoordinates([0, 0, 0])))


def test_linear_move_stays_on_the_line_and_ends():
    c, w, sim = settled()
    R0, t0 = step(c, lambda c: c.commandedCartesianPosition())
    target = (R0, vectorops.sub(t0, [0.1, 0, 0]))
    step(c, lambda c: c.moveToCartesianPositionLinear(target, speed=1.0))
    deviation = []
    start = step(c, lambda c: c.clock())

    def watch(c):
        p = c.commandedCartesianPosition()[1]
        d = vectorops.sub(p, t0)
        # distance from the segment's line (along x)
        deviation.append(vectorops.norm([0, d[1], d[2]]))
    took = run_until(c, lambda c: (watch(c), not c.isMoving())[1], 2.0)
    assert took <= 1.25
    assert max(deviation) < 1e-3
    err = pose_error(step(c, lambda c: c.commandedCartesianPosition()), target)
    assert err[0] < 1e-4 and err[1] < 1e-3
    assert not step(c, lambda c: c.isMoving())
    # the point form
    point = vectorops.add(target[1], [0, 0.1, 0])
    step(c, lambda c: c.moveToCartesianPositionLinear(point, duration=0.5))
    run_until(c, lambda c: not c.isMoving(), 2.0)
    assert vectorops.distance(step(c, lambda c: c.commandedCartesianPosition())[1], point) < 1e-3
    assert start >= 0


def test_unreachable_target_warns_and_does_its_best():
    c, w, sim = settled()
    R0, t0 = step(c, lambda c: c.commandedCartesianPosition())
    far = (R0, vectorops.add(t0, [-3.0, 0, 0]))
    with pytest.warns(RuntimeWarning, match="not reached"):
        step(c, lambda c: c.moveToCartesianPosition(far))
    assert c.stateValue('cartesianError') > 0.1
    run_until(c, lambda c: not c.isMoving(), 3.0)
    assert step(c, lambda c: c.status()) == 'ok'
    t1 = step(c, lambda c: c.commandedCartesianPosition())[1]
    # the best effort reaches toward the target
    assert vectorops.distance(t1, far[1]) < vectorops.distance(t0, far[1]) - 0.3


def test_cartesian_target_on_a_part():
    c, w, sim = tx90('Kinematic')
    c.addPart('arm', [0, 1, 2, 3, 4, 5])
    arm = c.partInterface('arm')
    step(c, lambda c: c.setPosition(Q_START))
    arm.setToolCoordinates([0, 0, 0.1])
    T0 = step(c, lambda c: arm.commandedCartesianPosition())
    target = (T0[0], vectorops.add(T0[1], [0, 0.1, 0]))
    step(c, lambda c: arm.moveToCartesianPosition(target))
    run_until(c, lambda c: not arm.isMoving(), 2.0)
    err = pose_error(step(c, lambda c: arm.commandedCartesianPosition()), target)
    assert err[0] < 1e-3 and err[1] < 2e-3
    assert max_abs_diff(arm.commandedPosition(), c.commandedPosition()) == 0
