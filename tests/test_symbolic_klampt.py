"""klampt.math.symbolic_klampt: so3/se3 functions against klampt.math.so3/se3,
their derivatives and the robot kinematics derivatives (from the C++ core's
Jacobians) against central differences."""
import math
import os

import numpy as np
import pytest

import klampt
from klampt.math import so3, se3
from klampt.math import symbolic_klampt as sk
from klampt.math.symbolic import Context, expr, deriv, const
from klampt.model import ik
from conftest import PROJECT_DATA
from symbolic_helpers import assert_jacobian


@pytest.fixture(scope="module")
def world():
    w = klampt.WorldModel()
    assert w.loadFile(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))
    return w


def _random_rotation(rng):
    axis = rng.normal(size=3)
    return so3.rotation(list(axis / np.linalg.norm(axis)), float(rng.uniform(0.2, 2.5)))


def test_so3_functions_match_klampt():
    rng = np.random.default_rng(1)
    c = sk.SO3Context()
    for _ in range(5):
        R, R2 = _random_rotation(rng), _random_rotation(rng)
        p = list(rng.normal(size=3))
        assert np.allclose(c.mul(R, R2).evalf(), so3.mul(R, R2))
        assert np.allclose(c.inv(R).evalf(), so3.inv(R))
        assert np.allclose(c.apply(R, p).evalf(), so3.apply(R, p))
        assert np.allclose(c.matrix(R).evalf(), so3.matrix(R))
        assert np.allclose(c.from_matrix(so3.matrix(R)).evalf(), R)
        assert c.angle(R).evalf() == pytest.approx(so3.angle(R))
        assert c.distance(R, R2).evalf() == pytest.approx(so3.distance(R, R2))
        assert np.allclose(c.from_quaternion(so3.quaternion(R)).evalf(), R)
        assert np.allclose(c.rotation_vector(R).evalf(), so3.rotation_vector(R))
        assert np.allclose(c.axis(R).evalf() * so3.angle(R), so3.rotation_vector(R))
        assert np.allclose(c.rpy(R).evalf(), so3.rpy(R))
        assert np.allclose(c.from_rpy(so3.rpy(R)).evalf(), R)
        assert np.allclose(c.eq_constraint(R).evalf(), np.eye(3))
        v = list(rng.normal(size=3))
        assert np.allclose(c.canonical(v).evalf(), so3.canonical(v))
    assert np.allclose(c.rotation([0, 0, 1], math.pi / 2).evalf(), so3.rotation([0, 0, 1], math.pi / 2))
    assert np.allclose(c.identity().evalf(), so3.identity())


def test_se3_functions_match_klampt():
    rng = np.random.default_rng(2)
    c = sk.SE3Context()
    for _ in range(5):
        T = (_random_rotation(rng), list(rng.normal(size=3)))
        T2 = (_random_rotation(rng), list(rng.normal(size=3)))
        p = list(rng.normal(size=3))
        for got, ref in ((c.mul(T, T2).evalf(), se3.mul(T, T2)), (c.inv(T).evalf(), se3.inv(T))):
            assert np.allclose(got[0], ref[0]) and np.allclose(got[1], ref[1])
        assert np.allclose(c.apply(T, p).evalf(), se3.apply(T, p))
        assert np.allclose(c.homogeneous(T).evalf(), se3.homogeneous(T))
        back = c.from_homogeneous(se3.homogeneous(T)).evalf()
        assert np.allclose(back[0], T[0]) and np.allclose(back[1], T[1])


def test_so3_se3_derivatives():
    rng = np.random.default_rng(4)
    ctx = Context()
    a, w, p, R = ctx.addVar('a', 'N'), ctx.addVar('w', 'V', 3), ctx.addVar('p', 'V', 3), ctx.addVar('R', 'V', 9)
    q, t = ctx.addVar('q', 'V', 4), ctx.addVar('t', 'V', 3)
    c, e3 = sk.SO3Context(), sk.SE3Context()
    R0 = _random_rotation(rng)
    values = {'a': 0.4, 'w': np.array([0.3, -0.5, 0.8]), 'p': rng.normal(size=3), 'R': np.array(R0),
              'q': np.array(so3.quaternion(R0)) * 1.3, 't': rng.normal(size=3)}
    cases = [(c.rotation(w, a), (w, a)), (c.apply(R, p), (R, p)), (c.mul(R, c.rotation([0, 0, 1], a)), (R, a)),
             (c.angle(R), (R,)), (c.distance(R, c.rotation([1, 0, 0], a)), (R, a)), (c.from_quaternion(q), (q,)),
             (c.canonical(w), (w,)), (c.inv(R), (R,)), (c.matrix(R), (R,)),
             (e3.apply(e3.make(c.rotation([0, 0, 1], a), t), p), (a, t, p)),
             (e3.apply(e3.inv(e3.make(R, t)), p), (R, t, p)),
             (e3.translation(e3.mul(e3.make(R, t), e3.make(c.rotation([0, 1, 0], a), p))), (R, t, a, p)),
             (e3.homogeneous(e3.make(R, t)), (R, t))]
    for e, variables in cases:
        for v in variables:
            assert_jacobian(e, v, values)


def test_robot_kinematics_derivatives(world):
    robot = world.robot(0)
    k = sk.KlamptContext(world)
    n = robot.numLinks()
    q = k.addVar('q', 'V', n)
    lp = k.addVar('lp', 'V', 3)
    qmin, qmax = robot.getJointLimits()
    rng = np.random.default_rng(7)
    qv = np.array([rng.uniform(lo, hi) if math.isfinite(lo) and math.isfinite(hi) else rng.uniform(-1, 1)
                   for lo, hi in zip(qmin, qmax)])
    values = dict(k.userData)
    values.update({'q': qv, 'lp': np.array([0.1, 0.05, -0.02])})
    at_q = k.setConfig("robot", q)
    last = n - 1
    robot.setConfig(list(qv))
    assert np.allclose(k.worldPos(at_q, last, lp).evalf(values), robot.link(last).getWorldPosition([0.1, 0.05, -0.02]))
    assert np.allclose(k.config(at_q).evalf(values), qv)
    assert k.inJointLimits(q, "robot").evalf(values) is True
    assert k.inJointLimits(np.array(qmax) + 1, "robot").evalf(values) is False
    for e, variables in [(k.worldPos(at_q, last, lp), (q, lp)), (k.com(at_q), (q,)), (k.worldRot(at_q, last), (q,)),
                         (k.config(at_q) * 2, (q,)),
                         (k.so3.apply(k.worldRot(at_q, last), lp), (q, lp)),
                         (k.linalg.distance(k.worldPos(at_q, last, lp), k.worldPos(at_q, 2, [0, 0, 0])), (q, lp))]:
        for v in variables:
            assert_jacobian(e, v, values, atol=1e-4)
    d = deriv(k.velocity("robot"), q)
    assert np.array_equal(expr(d).eval(values) if not isinstance(d, np.ndarray) else d, np.zeros(n) if np.ndim(d) == 1 else d)


def test_ik_context(world):
    robot = world.robot(0)
    k = sk.KlamptContext(world)
    n = robot.numLinks()
    q = k.addVar('q', 'V', n)
    link = robot.link(n - 1)
    obj = ik.objective(link, local=[0.0, 0.0, 0.1], world=[0.5, 0.1, 0.6])
    k.addUserData("goal", obj)
    values = dict(k.userData)
    values['q'] = np.array(robot.getConfig()) + 0.2
    at_q = k.setConfig("robot", q)
    assert k.ik.link("goal").evalf(values) == n - 1
    assert np.allclose(k.ik.targetPos("goal").evalf(values), [0.5, 0.1, 0.6])
    res = k.ik.residual("goal", at_q).evalf(values)
    wp = k.ik.worldPos("goal", at_q).evalf(values)
    assert np.allclose(res, wp - np.array([0.5, 0.1, 0.6]))
    for e in (k.ik.worldPos("goal", at_q), k.ik.residual("goal", at_q)):
        assert_jacobian(e, q, values, atol=1e-4)


def test_collide_and_json(world):
    robot = world.robot(0)
    k = sk.KlamptContext(world)
    k.addUserData("cc", {"world": world})
    from klampt.model import collide
    collider = collide.WorldCollider(world)
    for qv in (robot.getConfig(), [0.0] * robot.numLinks()):
        robot.setConfig(qv)
        expected = any(True for _ in collider.collisions())
        got = k.collide.robotCollision(qv, "cc").evalf(k)
        assert got == expected
        assert k.collide.robotCollisionFree(qv, "cc").evalf(k) == (not expected)
    obj = ik.objective(robot.link(1), local=[0, 0, 0], world=[0.2, 0.3, 0.4])
    k.addUserData("goal", obj)
    assert k.getJson("goal", const("endPosition[1]")).evalf(k) == pytest.approx(0.3)
    moved = k.setJson("goal", const("endPosition[1]"), 0.7).evalf(k)
    assert moved.getPosition()[1][1] == pytest.approx(0.7)
