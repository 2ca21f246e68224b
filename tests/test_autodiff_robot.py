"""klampt.math.autodiff kinematics_ad and dynamics_ad on real robots (a
fixed-base arm, tx90l, and the floating-base athlete).

Values agree with the robot's own kinematics and dynamics; derivatives agree
with central finite differences of the values and with the robot's
Jacobians, and reverse mode with forward mode.  Physical identities check
the dynamics independently (d KE / d dq = B dq, gravity forces from the
total mass and the COM Jacobian, forward dynamics inverting inverse
dynamics).
"""
import os

import numpy as np
import pytest

from conftest import load_shared_world
from klampt.math.autodiff import dynamics_ad, kinematics_ad, math_ad
from klampt.math.autodiff.ad import check_derivatives, finite_differences, var

LOCAL = [0.1, -0.2, 0.3]


@pytest.fixture(scope="module", params=["tx90l.rob", "athlete.rob"])
def robot(request):
    world = load_shared_world(os.path.join("robots", request.param), quiet=True)
    yield world.robot(0)
    del world


def random_state(robot, seed=0):
    rng = np.random.default_rng(seed)
    n = robot.numLinks()
    return rng.uniform(-1, 1, n), rng.uniform(-1, 1, n), rng


def fd(func, args, i):
    """Central differences of func.eval in argument i."""
    def f(y):
        a = list(args)
        a[i] = y
        return func.eval(*a)
    return finite_differences(f, args[i])


def assert_all_derivatives(func, args, tol=1e-4):
    """Each argument: derivative (or its fallback) = finite differences, and
    an expression's forward = reverse mode."""
    names = [func.argname(i) for i in range(len(args))]
    expr = func(*[var(n) for n in names])
    values = dict(zip(names, args))
    for i, name in enumerate(names):
        forward = expr.derivative(name, **values)
        np.testing.assert_allclose(forward, fd(func, args, i), rtol=tol, atol=tol, err_msg="%s %s" % (func, name))
        np.testing.assert_allclose(expr.jacobian(name, **values), forward, rtol=1e-10, atol=1e-10)
    assert check_derivatives(func, list(args), rtol=tol, atol=tol)


def test_link_functions_match_the_robot_and_finite_differences(robot):
    q, dq, _ = random_state(robot)
    link = robot.link(robot.numLinks() - 1)
    robot.setConfig(q.tolist())
    J = np.array(link.getJacobian(LOCAL))
    R, _ = link.getTransform()
    p = link.getWorldPosition(LOCAL)
    wp = kinematics_ad.WorldPosition(link, LOCAL)
    np.testing.assert_allclose(wp.eval(q), p)
    np.testing.assert_allclose(wp.derivative(0, q), J[3:])
    np.testing.assert_allclose(kinematics_ad.WorldOrientation(link).eval(q), R)
    np.testing.assert_allclose(kinematics_ad.WorldTransform(link, LOCAL).eval(q), np.hstack((R, p)))
    np.testing.assert_allclose(kinematics_ad.WorldAngularVelocity(link).derivative(1, q, dq), J[:3])
    robot.setVelocity(dq.tolist())
    np.testing.assert_allclose(kinematics_ad.WorldVelocity(link, LOCAL).eval(q, dq), J[3:] @ dq, atol=1e-12)
    for func, args in [(wp, [q]), (kinematics_ad.WorldDirection(link, LOCAL), [q]),
                       (kinematics_ad.WorldOrientation(link), [q]), (kinematics_ad.WorldTransform(link, LOCAL), [q]),
                       (kinematics_ad.WorldTransform(link), [q]), (kinematics_ad.WorldVelocity(link, LOCAL), [q, dq]),
                       (kinematics_ad.WorldAngularVelocity(link), [q, dq])]:
        assert_all_derivatives(func, args)


def test_link_hessians_come_from_the_robot_and_match_finite_differences(robot):
    q, _, _ = random_state(robot, 1)
    link = robot.link(robot.numLinks() - 1)
    for func in (kinematics_ad.WorldPosition(link, LOCAL), kinematics_ad.WorldDirection(link, LOCAL),
                 kinematics_ad.WorldOrientation(link), kinematics_ad.WorldTransform(link, LOCAL)):
        H = func.gen_derivative([0, 0], q)
        H_fd = finite_differences(lambda y: func.derivative(0, y).reshape(-1), q)
        H_fd = H_fd.reshape(H.shape[0], H.shape[1], H.shape[2])
        np.testing.assert_allclose(H, H_fd, atol=1e-5, err_msg=str(func))
    robot.setConfig(q.tolist())
    np.testing.assert_allclose(kinematics_ad.WorldPosition(link, LOCAL).gen_derivative([0, 0], q),
                               link.getPositionHessian(LOCAL))


def test_second_derivatives_through_expressions_use_the_robot_hessian(robot):
    q, _, _ = random_state(robot, 7)
    link = robot.link(robot.numLinks() - 1)
    c = np.array([0.3, -1.0, 0.5])
    expr = math_ad.dot(kinematics_ad.WorldPosition(link, LOCAL)('q'), c)
    robot.setConfig(q.tolist())
    want = np.einsum('a,ajk->jk', c, np.array(link.getPositionHessian(LOCAL)))
    np.testing.assert_allclose(expr.gen_derivative(['q', 'q'], q=q)[0], want, atol=1e-12)


def test_driver_maps_and_interpolation(robot):
    q, dq, rng = random_state(robot, 2)
    nd = robot.numDrivers()
    qd = rng.uniform(-1, 1, nd)
    l2d = kinematics_ad.LinksToDrivers(robot)
    d2l = kinematics_ad.DriversToLinks(robot)
    robot.setConfig(q.tolist())
    np.testing.assert_allclose(l2d.eval(q), [robot.driver(i).getValue() for i in range(nd)])
    # round trip: drivers -> links -> drivers is the identity, and so its Jacobian
    np.testing.assert_allclose(l2d.eval(d2l.eval(qd)), qd, atol=1e-12)
    np.testing.assert_allclose(l2d.derivative(0, d2l.eval(qd)) @ d2l.derivative(0, qd), np.eye(nd), atol=1e-12)
    interp = kinematics_ad.ConfigInterpolate(robot)
    np.testing.assert_allclose(interp.eval(q, q + 0.5, 0.3), robot.interpolate(q.tolist(), (q + 0.5).tolist(), 0.3))
    for func, args in [(d2l, [qd]), (kinematics_ad.DriverDerivsToLinks(robot), [qd]), (l2d, [q]),
                       (kinematics_ad.LinkDerivsToDrivers(robot), [dq])]:
        assert_all_derivatives(func, args)
    for u in (0.0, 0.3, 0.8, 1.4):
        assert_all_derivatives(interp, [q, q + 0.5, u])


def test_kinematics_builder_matches_the_robot(robot):
    q, dq, _ = random_state(robot, 3)
    kb = kinematics_ad.KinematicsBuilder(robot, 'q', 'dq')
    values = {'q': q, 'dq': dq}
    last = robot.numLinks() - 1
    for i in (last, robot.numLinks() // 2):
        link = robot.link(i)
        pairs = [(kb.world_position(i, LOCAL), kinematics_ad.WorldPosition(link, LOCAL)(var('q'))),
                 (kb.world_orientation(link), kinematics_ad.WorldOrientation(link)(var('q'))),
                 (kb.world_transform(i), kinematics_ad.WorldTransform(link)(var('q'))),
                 (kb.world_direction(i, LOCAL), kinematics_ad.WorldDirection(link, LOCAL)(var('q'))),
                 (kb.world_velocity(i, LOCAL), kinematics_ad.WorldVelocity(link, LOCAL)(var('q'), var('dq'))),
                 (kb.world_angular_velocity(link.getName()),
                  kinematics_ad.WorldAngularVelocity(link)(var('q'), var('dq')))]
        for built, direct in pairs:
            np.testing.assert_allclose(built.eval(**values), direct.eval(**values), atol=1e-12)
            for name in ('q', 'dq'):
                want = direct.derivative(name, **values)
                np.testing.assert_allclose(built.derivative(name, **values), want, atol=1e-8)
                np.testing.assert_allclose(built.jacobian(name, **values), want, atol=1e-8)
        robot.setConfig(q.tolist())
        world_pt = link.getWorldPosition(LOCAL)
        np.testing.assert_allclose(kb.local_position(i, world_pt).eval(**values), LOCAL, atol=1e-12)
        np.testing.assert_allclose(kb.local_direction(i, kb.world_direction(i, LOCAL)).eval(**values), LOCAL, atol=1e-12)
    fixed = kinematics_ad.KinematicsBuilder(robot)
    with pytest.raises(ValueError, match="velocity"):
        fixed.world_velocity(last)


def test_reaching_objective_gradient_by_reverse_mode(robot):
    """A distance-to-target objective on the end point: its reverse-mode
    gradient equals the robot's Jacobian transposed times the unit error."""
    q, _, _ = random_state(robot, 4)
    link = robot.link(robot.numLinks() - 1)
    target = np.array([0.5, 0.2, 0.8])
    objective = math_ad.distance(kinematics_ad.WorldPosition(link, LOCAL)('q'), target)
    robot.setConfig(q.tolist())
    err = np.array(link.getWorldPosition(LOCAL)) - target
    want = np.array(link.getPositionJacobian(LOCAL)).T @ (err / np.linalg.norm(err))
    np.testing.assert_allclose(objective.gradient('q', q=q), want, atol=1e-12)
    np.testing.assert_allclose(objective.derivative('q', q=q)[0], want, atol=1e-12)


def test_dynamics_match_the_robot_and_finite_differences(robot):
    q, dq, rng = random_state(robot, 5)
    n = robot.numLinks()
    tau = rng.uniform(-1, 1, n)
    g = np.array([0.1, 0.2, -9.8])
    robot.setConfig(q.tolist())
    robot.setVelocity(dq.tolist())
    B = np.array(robot.getMassMatrix())
    np.testing.assert_allclose(dynamics_ad.MassMatrix(robot).eval(q), B.flatten())
    np.testing.assert_allclose(dynamics_ad.MassMatrixInv(robot).eval(q), np.linalg.inv(B).flatten(), atol=1e-8)
    np.testing.assert_allclose(dynamics_ad.GravityVector(robot).eval(q, g), robot.getGravityForces(g.tolist()))
    np.testing.assert_allclose(dynamics_ad.CoriolisVector(robot).eval(q, dq), robot.getCoriolisForces())
    np.testing.assert_allclose(dynamics_ad.CenterOfMass(robot).eval(q), robot.getCom())
    np.testing.assert_allclose(dynamics_ad.KineticEnergy(robot).eval(q, dq), 0.5 * dq @ B @ dq)
    link = robot.link(n - 1)
    wrench = rng.normal(size=6)
    cases = [(dynamics_ad.CenterOfMass(robot), [q]), (dynamics_ad.GravityVector(robot), [q, g]),
             (dynamics_ad.KineticEnergy(robot), [q, dq]), (dynamics_ad.MassMatrix(robot), [q]),
             (dynamics_ad.MassMatrixInv(robot), [q]), (dynamics_ad.MomentumVector(robot), [q, dq]),
             (dynamics_ad.CoriolisVector(robot), [q, dq]), (dynamics_ad.ForwardDynamics(robot), [q, dq, tau]),
             (dynamics_ad.InverseDynamics(robot), [q, dq, tau]),
             (dynamics_ad.PointForceTorques(link, LOCAL), [q, g]),
             (dynamics_ad.PointWrenchTorques(link, LOCAL), [q, wrench])]
    for func, args in cases:
        assert_all_derivatives(func, args)
    # the analytic derivatives are not finite differences in disguise
    np.testing.assert_allclose(dynamics_ad.MassMatrix(robot).derivative(0, q)[:, 2],
                               np.array(robot.getMassMatrixDeriv(2)).flatten())
    np.testing.assert_allclose(dynamics_ad.CoriolisVector(robot).derivative(1, q, dq), fd(
        dynamics_ad.CoriolisVector(robot), [q, dq], 1), atol=1e-6)


def test_dynamics_physical_identities(robot):
    q, dq, rng = random_state(robot, 6)
    n = robot.numLinks()
    g = np.array([0.0, 0.0, -9.8])
    # dKE/d(dq) = B dq (the momentum)
    np.testing.assert_allclose(dynamics_ad.KineticEnergy(robot).derivative(1, q, dq)[0],
                               dynamics_ad.MomentumVector(robot).eval(q, dq), atol=1e-10)
    # G(q, g) = -M_total Jcom^T g, so dG/dg = -M_total Jcom^T
    total = sum(robot.link(i).getMass().mass for i in range(n))
    Jcom = dynamics_ad.CenterOfMass(robot).derivative(0, q)
    np.testing.assert_allclose(dynamics_ad.GravityVector(robot).derivative(1, q, g), -total * Jcom.T, atol=1e-9)
    # forward dynamics inverts inverse dynamics: the chained Jacobian in ddq is I
    ddq = rng.uniform(-1, 1, n)
    chain = dynamics_ad.ForwardDynamics(robot)(q, dq, dynamics_ad.InverseDynamics(robot)(q, dq, var('ddq')))
    np.testing.assert_allclose(chain.eval(ddq=ddq), ddq, atol=1e-9)
    np.testing.assert_allclose(chain.derivative('ddq', ddq=ddq), np.eye(n), atol=1e-9)
    # full dynamics with gravity: B ddq + C + G = S t + J^T f
    links = [robot.link(n - 1), robot.link(n // 2)]
    full = dynamics_ad.FullDynamics(robot, g, links, [LOCAL, [0.0, 0.0, 0.0]])
    t = rng.normal(size=robot.numDrivers())
    f = rng.normal(size=6)
    acc = full.eval(q, dq, t, f)
    robot.setConfig(q.tolist())
    robot.setVelocity(dq.tolist())
    lhs = np.array(robot.getMassMatrix()) @ acc + robot.getCoriolisForces() + robot.getGravityForces(g.tolist())
    S = kinematics_ad.DriverDerivsToLinks(robot).derivative(0, t)
    rhs = S @ t + np.array(links[0].getPositionJacobian(LOCAL)).T @ f[:3] \
        + np.array(links[1].getPositionJacobian([0, 0, 0])).T @ f[3:]
    np.testing.assert_allclose(lhs, rhs, atol=1e-8)
    assert_all_derivatives(full, [q, dq, t, f])
    assert_all_derivatives(dynamics_ad.FullDynamics(robot, g), [q, dq, t])


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="RobotModelLink"):
        kinematics_ad.WorldPosition("link", LOCAL)
    with pytest.raises(ValueError, match="RobotModel"):
        dynamics_ad.MassMatrix(None)


@pytest.mark.parametrize("bend", [0.0, 0.4])
def test_link_derivatives_at_singular_arm_configurations(bend):
    """The wrist of tx90l straight (joint 5 at 0) makes the axes of joints 4
    and 6 parallel, 0.8 mm apart in the model: the end link's Jacobian is
    singular to 1e-4; the derivatives still equal the robot's Jacobian and
    finite differences there."""
    world = load_shared_world(os.path.join("robots", "tx90l.rob"), quiet=True)
    robot = world.robot(0)
    q = np.zeros(robot.numLinks())
    q[2], q[3] = bend, 0.3  # also the arm fully stretched (bend 0)
    link = robot.link(6)
    robot.setConfig(q.tolist())
    J = np.array(link.getJacobian(LOCAL))
    sigma = np.linalg.svd(J[:, 1:], compute_uv=False)  # link 0 is the fixed base
    assert sigma[-1] < 1e-3 * sigma[0]
    np.testing.assert_allclose(kinematics_ad.WorldPosition(link, LOCAL).derivative(0, q), J[3:], atol=1e-12)
    for func in (kinematics_ad.WorldPosition(link, LOCAL), kinematics_ad.WorldOrientation(link),
                 kinematics_ad.WorldTransform(link, LOCAL)):
        assert_all_derivatives(func, [q])
