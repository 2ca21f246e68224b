"""The per-call fast paths of the kinematics and dynamics methods (plain
CPython method descriptors, cpp/bindings/fast_call.h): argument matching by
position and keyword, argument errors, every accepted vector type, handles
that are not set up, and the reference's dirty_dynamics flag."""
import inspect
import math

import numpy as np
import pytest

import klampt
from conftest import arm6_world, assert_close


@pytest.fixture
def world():
    w = arm6_world()
    robot = w.robot(0)
    n = robot.numLinks()
    robot.setConfig([0.1 * (i + 1) for i in range(n)])
    robot.setVelocity([0.2 - 0.05 * i for i in range(n)])
    return w


def test_keyword_arguments_match_positional(world):
    robot = world.robot(0)
    n = robot.numLinks()
    link = robot.link(n - 1)
    p = [0.1, 0.2, 0.3]
    ddq = [0.3] * n
    assert np.array_equal(link.getJacobian(plocal=p), link.getJacobian(p))
    assert np.array_equal(link.getPositionJacobian(plocal=p), link.getPositionJacobian(p))
    assert robot.getGravityForces(g=[0, 0, -9.8]) == robot.getGravityForces([0, 0, -9.8])
    assert robot.torquesFromAccel(ddq=ddq) == robot.torquesFromAccel(ddq)
    assert robot.accelFromTorques(t=ddq) == robot.accelFromTorques(ddq)
    assert np.array_equal(robot.getMassMatrixDeriv(i=1), robot.getMassMatrixDeriv(1))
    assert link.getPointAcceleration(ddq=ddq, plocal=p) == link.getPointAcceleration(p, ddq)
    assert link.getPointAcceleration(p, ddq=ddq) == link.getPointAcceleration(p, ddq)
    q = [0.05] * n
    robot.setConfig(q=q)
    assert robot.getConfig() == q
    robot.setVelocity(dq=q)
    assert robot.getVelocity() == q


@pytest.mark.parametrize("call", [
    lambda r, l: l.getJacobian(),
    lambda r, l: l.getJacobian([0, 0, 0], [0, 0, 0]),
    lambda r, l: l.getJacobian(point=[0, 0, 0]),
    lambda r, l: l.getJacobian([0, 0, 0], plocal=[0, 0, 0]),
    lambda r, l: l.getTransform(0),
    lambda r, l: r.getMassMatrix(1),
    lambda r, l: r.setConfig(),
    lambda r, l: l.getPointAcceleration([0, 0, 0]),
    lambda r, l: r.getGravityForces(["a", 0, 0]),
    lambda r, l: r.getGravityForces(None),
    lambda r, l: r.getMassMatrixDeriv("1"),
])
def test_bad_arguments_raise_type_error(world, call):
    robot = world.robot(0)
    with pytest.raises(TypeError):
        call(robot, robot.link(robot.numLinks() - 1))


def test_bad_sizes_and_values(world):
    robot = world.robot(0)
    n = robot.numLinks()
    link = robot.link(n - 1)
    with pytest.raises(ValueError):
        link.getJacobian([0, 0])
    with pytest.raises(ValueError):
        robot.getGravityForces(np.zeros(4))
    with pytest.raises(ValueError):
        robot.torquesFromAccel([0.0] * (n + 1))
    with pytest.raises(ValueError):
        robot.accelFromTorques([math.nan] * n)
    with pytest.raises(IndexError):
        robot.getMassMatrixDeriv(n)


def test_vector_arguments_of_every_kind(world):
    robot = world.robot(0)
    n = robot.numLinks()
    link = robot.link(n - 1)
    expected = link.getJacobian([0.1, 0.0, 2.0])
    for p in [(0.1, 0, 2), [0.1, 0, 2], np.array([0.1, 0, 2]), np.array([0.1, 0, 2], dtype=np.float32),
              np.array([[0.1, 9.0], [0.0, 9.0], [2.0, 9.0]])[:, 0]]:
        assert np.allclose(link.getJacobian(p), expected, rtol=0, atol=1e-7)
    q = [0.3 - 0.1 * i for i in range(n)]
    robot.setConfig(np.array(q))
    assert robot.getConfig() == q
    robot.setConfig(tuple(q))
    assert robot.getConfig() == q


def test_rejected_configuration_leaves_the_robot_unchanged(world):
    robot = world.robot(0)
    n = robot.numLinks()
    link = robot.link(n - 1)
    q, dq, T = robot.getConfig(), robot.getVelocity(), link.getTransform()
    bad = list(q)
    bad[2] = math.nan
    with pytest.raises(ValueError):
        robot.setConfig(bad)
    with pytest.raises(ValueError):
        robot.setVelocity(bad)
    with pytest.raises(TypeError):
        robot.setConfig(q[:-1] + ["x"])
    assert robot.getConfig() == q
    assert robot.getVelocity() == dq
    assert link.getTransform() == T


def test_signatures_are_visible():
    assert list(inspect.signature(klampt.RobotModel.setConfig).parameters) == ["self", "q"]
    assert list(inspect.signature(klampt.RobotModelLink.getPointAcceleration).parameters) == ["self", "plocal", "ddq"]
    assert "Newton-Euler" in klampt.RobotModel.torquesFromAccel.__doc__


def test_handles_that_are_not_set_up(world):
    blank = klampt.RobotModel.__new__(klampt.RobotModel)
    with pytest.raises(TypeError):
        blank.getConfig()
    robot = world.robot(0)
    with pytest.raises(TypeError):
        klampt.RobotModel.getConfig(robot.link(0))
    world.remove(robot)
    with pytest.raises(RuntimeError):
        robot.getMassMatrix()
    with pytest.raises(RuntimeError):
        robot.link(0).getJacobian([0, 0, 0])


def test_subclass_uses_the_same_methods(world):
    class Robot(klampt.RobotModel):
        pass

    r = Robot()
    assert r.getConfig() == []
    assert r.getCom() == [0.0, 0.0, 0.0]


def test_dirty_dynamics_flag(world):
    # As in Klamp't 0.9.2: True on a new robot, writable, and set again by
    # setConfig and setVelocity; it changes no result here. It belongs to the
    # robot, so every handle to it reads the same value.
    robot = world.robot(0)
    assert robot.dirty_dynamics is True
    B = robot.getMassMatrix()
    robot.dirty_dynamics = False
    assert robot.dirty_dynamics is False
    assert world.robot(0).dirty_dynamics is False
    world.robot(0).setConfig(robot.getConfig())
    assert robot.dirty_dynamics is True
    robot.dirty_dynamics = False
    assert np.array_equal(robot.getMassMatrix(), B)
    robot.setConfig(robot.getConfig())
    assert robot.dirty_dynamics is True
    robot.dirty_dynamics = False
    robot.setVelocity(robot.getVelocity())
    assert robot.dirty_dynamics is True


def test_total_inertia_far_from_the_origin():
    # The floating body moved 1 km away: the inertia about its center of mass
    # must not lose digits to the offset. Expected value from the link masses
    # directly: sum R I R^T + m (|d|^2 1 - d d^T) with d = c_i - com.
    w = arm6_world()
    robot = w.robot(0)
    n = robot.numLinks()
    for offset in [0.0, 1000.0]:
        robot.setConfig([0.4 - 0.15 * i for i in range(n)])
        R0, t0 = robot.link(0).getParentTransform()
        robot.link(0).setParentTransform(R0, [offset, -offset, offset])
        robot.setConfig([0.4 - 0.15 * i for i in range(n)])
        com = np.array(robot.getCom())
        expected = np.zeros((3, 3))
        for i in range(n):
            link = robot.link(i)
            mass = link.getMass()
            R = np.array(link.getTransform()[0]).reshape(3, 3).T
            d = np.array(link.getWorldPosition(mass.getCom())) - com
            expected += R @ np.array(mass.getInertia()).reshape(3, 3) @ R.T
            expected += mass.getMass() * (d @ d * np.eye(3) - np.outer(d, d))
        assert_close(robot.getTotalInertia(), expected, rtol=1e-9, atol=1e-9 * abs(expected).max(),
                     what="total inertia at offset %g" % offset)
