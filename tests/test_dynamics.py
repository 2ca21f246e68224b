"""Rigid-body dynamics: against the values the reference (Klamp't 0.9.2)
computed on the shared robots, and against identities every rigid-body model
satisfies (symmetric positive semidefinite B, inverse/forward dynamics round
trips, finite differences of B, of the Jacobians and of velocities,
Christoffel symbols, kinetic energy, potential energy)."""
import glob
import os

import numpy as np
import pytest

from conftest import PROJECT_DATA, SHARED_DATA, assert_close, golden_files, load_golden, load_robot, require_shared_data

ROBOT_GOLDEN = golden_files((".rob.json", ".urdf.json"))
BROKEN = {"sphere.rob"}  # malformed on purpose (see test_files.py)


def scaled(expected, rel=1e-9):
    """An absolute tolerance relative to the largest magnitude of `expected`."""
    return rel * max(float(np.max(np.abs(expected))), 1e-300)


# ---------------------------------------------------------------------------
# Golden values

@pytest.fixture(scope="module", params=ROBOT_GOLDEN or ["<missing>"])
def golden(request):
    gold = load_golden(request.param)
    world, robot = load_robot(os.path.join(SHARED_DATA, gold["file"]))
    # Use the reference's link masses: masses estimated from geometry agree
    # with the reference only to ~1e-8, and this test is about dynamics.
    asymmetry = 0.0
    for g in gold["links"]:
        link = robot.link(g["index"])
        m = link.getMass()
        m.setMass(g["mass"]["mass"])
        m.setCom(g["mass"]["com"])
        m.setInertia(g["mass"]["inertia"])
        link.setMass(m)
        inertia = np.reshape(g["mass"]["inertia"], (3, 3))
        asymmetry = max(asymmetry, float(np.max(np.abs(inertia - inertia.T))))
    # atlas.rob gives two massless links slightly asymmetric inertia matrices
    # (1e-6); the reference uses them as they are (its mass matrix is then not
    # symmetric), the equations of motion here use their symmetric part. The
    # values affected differ by a small multiple of the asymmetry.
    return gold, world, robot, 10 * asymmetry


def test_golden_files_present():
    assert len(ROBOT_GOLDEN) >= 8


def test_golden_mass_matrix_and_gravity(golden):
    gold, _, robot, _ = golden
    n = robot.numLinks()
    for c in gold["configs"]:
        robot.setConfig(c["q"])
        robot.setVelocity([0.0] * n)
        B = robot.getMassMatrix()
        assert isinstance(B, np.ndarray) and B.shape == (n, n)
        Bg = np.array(c["massMatrix"])
        # The symmetric part: equal to Bg except on atlas (see the fixture).
        assert_close(B, (Bg + Bg.T) / 2, rtol=1e-8, atol=scaled(Bg), what=c["label"] + " mass matrix")
        G = robot.getGravityForces(c["gravity"])
        assert isinstance(G, list)
        assert_close(G, c["gravityForces"], rtol=1e-8, atol=scaled(c["gravityForces"]),
                     what=c["label"] + " gravity forces")
        assert_close(robot.getTotalInertia(), c["totalInertia"], rtol=1e-8, atol=scaled(c["totalInertia"]),
                     what=c["label"] + " total inertia")


def test_golden_coriolis_and_inverse_dynamics(golden):
    gold, _, robot, extra = golden
    for c in gold["configs"]:
        robot.setConfig(c["q"])
        robot.setVelocity(c["dq"])
        C = robot.getCoriolisForces()
        assert isinstance(C, list)
        assert_close(C, c["coriolisForces"], rtol=1e-8, atol=scaled(c["coriolisForces"]) + extra,
                     what=c["label"] + " Coriolis forces")
        tau = robot.torquesFromAccel(c["ddq"])
        assert_close(tau, c["torquesFromAccel"], rtol=1e-8, atol=scaled(c["torquesFromAccel"]) + extra,
                     what=c["label"] + " torquesFromAccel")


def test_golden_forward_dynamics(golden):
    gold, _, robot, _ = golden
    for c in gold["configs"]:
        robot.setConfig(c["q"])
        robot.setVelocity(c["dq"])
        a = robot.accelFromTorques(c["tau"])
        assert isinstance(a, list)
        if c["massMatrixCond"] < 1e10:
            assert_close(a, c["accelFromTorques"], rtol=1e-8, atol=scaled(c["accelFromTorques"]),
                         what=c["label"] + " accelFromTorques")
        else:
            # Singular B (massless links): the reference's answer is meaningless
            # there; check that ours solves B a + C = tau (tau is zero on the
            # massless DOFs, so it is consistent).
            B = np.array(robot.getMassMatrix())
            residual = B @ a + np.array(robot.getCoriolisForces()) - c["tau"]
            assert np.max(np.abs(residual)) < 1e-9 * max(1.0, np.max(np.abs(c["tau"]))), c["label"]


def test_golden_momenta_and_energy(golden):
    gold, _, robot, _ = golden
    for c in gold["configs"]:
        robot.setConfig(c["q"])
        robot.setVelocity(c["dq"])
        label = c["label"]
        assert_close(robot.getKineticEnergy(), c["kineticEnergy"], rtol=1e-8, atol=1e-12, what=label + " kinetic")
        assert_close(robot.getLinearMomentum(), c["linearMomentum"], rtol=1e-8, atol=scaled(c["linearMomentum"]),
                     what=label + " linear momentum")
        assert_close(robot.getComVelocity(), c["comVelocity"], rtol=1e-8, atol=scaled(c["comVelocity"]),
                     what=label + " COM velocity")
        # Matches the reference's definition (spin terms only, see docstring).
        assert_close(robot.getAngularMomentum(), c["angularMomentum"], rtol=1e-8, atol=scaled(c["angularMomentum"]),
                     what=label + " angular momentum")


# ---------------------------------------------------------------------------
# Identities on every robot

def every_robot():
    if not os.path.isdir(SHARED_DATA):
        return ["<missing>"]
    shared = glob.glob(os.path.join(SHARED_DATA, "robots", "*.rob")) + glob.glob(
        os.path.join(SHARED_DATA, "robots", "*.urdf"))
    own = glob.glob(os.path.join(PROJECT_DATA, "robots", "*.rob")) + glob.glob(
        os.path.join(PROJECT_DATA, "robots", "*.urdf"))
    return sorted(p for p in shared if os.path.basename(p) not in BROKEN) + sorted(own)


def orthonormalize_frames(robot):
    """Some shared files write parent rotations to 6 digits, so they are not
    exactly orthonormal (up to 1.2e-6) and forward kinematics is then not
    exactly rigid; finite differences of it would disagree with any rigid-body
    formula at that level. Snap them to the nearest rotation."""
    for i in range(robot.numLinks()):
        link = robot.link(i)
        R, t = link.getParentTransform()
        U, _, Vt = np.linalg.svd(np.reshape(R, (3, 3)).T)  # so3 lists are column-major
        link.setParentTransform((U @ Vt).T.flatten().tolist(), t)


class State:
    def __init__(self, path, seed=0):
        self.world, self.robot = load_robot(path)
        robot = self.robot
        orthonormalize_frames(robot)
        n = self.n = robot.numLinks()
        rng = np.random.default_rng(seed)
        lo, hi = robot.getJointLimits()
        self.q = rng.uniform(np.maximum(lo, -np.pi), np.minimum(hi, np.pi))
        self.dq = rng.uniform(-1, 1, n)
        self.ddq = rng.uniform(-1, 1, n)
        self.reset()

    def reset(self):
        self.robot.setConfig(self.q.tolist())
        self.robot.setVelocity(self.dq.tolist())

    def mass_matrix_at(self, q):
        self.robot.setConfig(list(q))
        return np.array(self.robot.getMassMatrix())

    def mass_matrix_partials(self, h=1e-6):
        """dB/dq_k for every k by central differences."""
        E = np.eye(self.n) * h
        partials = np.array([(self.mass_matrix_at(self.q + e) - self.mass_matrix_at(self.q - e)) / (2 * h) for e in E])
        self.reset()
        return partials


@pytest.fixture(scope="module", params=every_robot(), ids=os.path.basename)
def state(request):
    require_shared_data()
    return State(request.param)


def test_mass_matrix_symmetric_positive_semidefinite(state):
    B = state.robot.getMassMatrix()
    assert np.array_equal(B, B.T)
    eig = np.linalg.eigvalsh(B)
    assert eig[0] >= -1e-12 * max(eig[-1], 1.0)


def test_inverse_forward_round_trip(state):
    robot = state.robot
    B = np.array(robot.getMassMatrix())
    C = np.array(robot.getCoriolisForces())
    tau = np.array(robot.torquesFromAccel(state.ddq.tolist()))
    assert_close(tau, B @ state.ddq + C, rtol=1e-9, atol=scaled(tau), what="B ddq + C")
    # tau = B ddq + C is consistent even when B is singular.
    a = robot.accelFromTorques(tau.tolist())
    assert_close(robot.torquesFromAccel(a), tau, rtol=1e-9, atol=scaled(tau), what="round trip")
    if np.linalg.cond(B) < 1e10:
        assert_close(a, state.ddq, rtol=1e-6, atol=1e-6, what="accelFromTorques(torquesFromAccel(ddq))")
        t = np.random.default_rng(1).uniform(-1, 1, state.n)
        assert_close(robot.torquesFromAccel(robot.accelFromTorques(t.tolist())), t, rtol=1e-9, atol=1e-9,
                     what="torquesFromAccel(accelFromTorques(t))")


def test_mass_matrix_inverse(state):
    robot = state.robot
    B = np.array(robot.getMassMatrix())
    M = robot.getMassMatrixInv()
    assert isinstance(M, np.ndarray) and M.shape == B.shape
    assert np.array_equal(M, M.T)
    # Moore-Penrose conditions (B^-1 itself when B is regular), to a precision
    # set by the condition number of B on its range.
    eig = np.linalg.eigvalsh(B)
    tol = max(1e-8, 1e-15 * eig[-1] / eig[eig > 1e-12 * eig[-1]][0])
    assert_close(B @ M @ B, B, rtol=tol, atol=scaled(B, tol), what="B M B = B")
    assert_close(M @ B @ M, M, rtol=tol, atol=scaled(M, tol), what="M B M = M")
    assert_close(M @ B, (M @ B).T, atol=tol, what="M B symmetric")
    cond = np.linalg.cond(B)
    if cond < 1e10:
        assert_close(M @ B, np.eye(state.n), atol=1e-14 * cond + 1e-12, what="M B = I")
    tau = np.random.default_rng(2).uniform(-1, 1, state.n)
    a = robot.accelFromTorques(tau.tolist())
    assert_close(a, M @ (tau - robot.getCoriolisForces()), rtol=1e-7, atol=scaled(a, 1e-7), what="M (t - C)")


def test_mass_matrix_derivatives(state):
    robot = state.robot
    partials = state.mass_matrix_partials()
    scale = scaled(partials, 1e-7)
    for i in range(state.n):
        dB = robot.getMassMatrixDeriv(i)
        assert isinstance(dB, np.ndarray)
        assert_close(dB, partials[i], atol=scale, what="dB/dq_%d" % i)
    Bdot = robot.getMassMatrixTimeDeriv()
    assert_close(Bdot, np.einsum("kij,k->ij", partials, state.dq), atol=scale, what="dB/dt")


def test_mass_matrix_deriv_is_time_deriv_along_unit_velocity(state):
    # getMassMatrixDeriv(i) computes only the links that move with q_i;
    # getMassMatrixTimeDeriv moves every link, so both must agree to rounding.
    # With a unit velocity dB/dt has the scale of B.
    robot = state.robot
    atol = scaled(robot.getMassMatrix(), 1e-12)
    for i in range(state.n):
        dB = robot.getMassMatrixDeriv(i)
        robot.setVelocity(np.eye(state.n)[i].tolist())
        Bdot = robot.getMassMatrixTimeDeriv()
        assert_close(dB, Bdot, rtol=1e-12, atol=atol, what="dB/dq_%d" % i)
    state.reset()


def test_coriolis_matrix(state):
    robot = state.robot
    C = robot.getCoriolisForceMatrix()
    assert isinstance(C, np.ndarray)
    forces = np.array(robot.getCoriolisForces())
    # Scaled by the products' magnitudes, with a floor for rounding when they
    # vanish (a single joint has no Coriolis force).
    tol = max(scaled(np.abs(C) @ np.abs(state.dq)), 1e-15)
    assert_close(C @ state.dq, forces, rtol=1e-9, atol=tol, what="C dq")
    Bdot = robot.getMassMatrixTimeDeriv()
    assert_close(C + C.T, Bdot, atol=scaled(Bdot), what="C + C^T = dB/dt")
    # Christoffel symbols of the first kind from finite differences of B.
    d = state.mass_matrix_partials()  # d[k, i, j] = dB_ij / dq_k
    gamma = 0.5 * (np.einsum("kij->ijk", d) + np.einsum("jik->ijk", d) - d)
    assert_close(C, np.einsum("ijk,k->ij", gamma, state.dq), atol=scaled(d, 1e-7), what="Christoffel")


def test_kinetic_energy_and_momentum(state):
    robot = state.robot
    B = np.array(robot.getMassMatrix())
    assert_close(robot.getKineticEnergy(), 0.5 * state.dq @ B @ state.dq, rtol=1e-12, atol=1e-14)
    masses = [robot.link(i).getMass().mass for i in range(state.n)]
    P = np.array(robot.getLinearMomentum())
    assert_close(P, sum(masses) * np.array(robot.getComJacobian()) @ state.dq, rtol=1e-10, atol=scaled(P, 1e-10) + 1e-14)
    assert_close(P, sum(masses) * np.array(robot.getComVelocity()), rtol=1e-12, atol=1e-14)


# Vertical gravity takes a shorter path than any other direction.
@pytest.mark.parametrize("g", [[0.3, -1.2, -9.8], [0, 0, -9.8], [0, 0, 3.7]])
def test_gravity_is_the_gradient_of_potential_energy(state, g):
    robot = state.robot
    total = sum(robot.link(i).getMass().mass for i in range(state.n))
    expected = -total * np.array(robot.getComJacobian()).T @ g
    G = robot.getGravityForces(g)
    assert_close(G, expected, rtol=1e-10, atol=scaled(expected, 1e-10) + 1e-14, what="G = -M Jcom^T g")


def test_hessians(state):
    robot = state.robot
    n, h = state.n, 1e-6
    for index in sorted({n - 1, n // 2}):
        link = robot.link(index)
        p = [0.1, -0.05, 0.2]
        Hp, Ho = link.getPositionHessian(p), link.getOrientationHessian()
        assert isinstance(Hp, np.ndarray) and Hp.shape == (3, n, n) and Ho.shape == (3, n, n)
        dJp, dJo = [], []
        for e in np.eye(n) * h:
            robot.setConfig((state.q + e).tolist())
            Jp1, Jo1 = np.array(link.getPositionJacobian(p)), np.array(link.getOrientationJacobian())
            robot.setConfig((state.q - e).tolist())
            dJp.append((Jp1 - link.getPositionJacobian(p)) / (2 * h))
            dJo.append((Jo1 - link.getOrientationJacobian()) / (2 * h))
        state.reset()
        dJp, dJo = np.array(dJp), np.array(dJo)  # [i, k, j] = dJ[k, j] / dq_i
        assert_close(Hp, np.einsum("ikj->kij", dJp), atol=1e-7, what="position Hessian of link %d" % index)
        assert_close(Hp, Hp.transpose(0, 2, 1), atol=1e-15)
        assert_close(Ho, np.einsum("jki->kij", dJo), atol=1e-7, what="orientation Hessian of link %d" % index)


def test_link_accelerations_along_a_trajectory(state):
    robot, q, dq, ddq = state.robot, state.q, state.dq, state.ddq
    h = 1e-5
    link = robot.link(state.n - 1)
    p = [0.1, -0.05, 0.2]

    def velocities(t):
        robot.setConfig((q + dq * t + 0.5 * ddq * t * t).tolist())
        robot.setVelocity((dq + ddq * t).tolist())
        return np.array(link.getPointVelocity(p)), np.array(link.getVelocity()), np.array(link.getAngularVelocity())

    after, before = velocities(h), velocities(-h)
    state.reset()
    fd = [(a - b) / (2 * h) for a, b in zip(after, before)]
    assert_close(link.getPointAcceleration(p, ddq.tolist()), fd[0], atol=1e-7, what="point acceleration")
    assert_close(link.getAcceleration(ddq.tolist()), fd[1], atol=1e-7, what="origin acceleration")
    assert_close(link.getAngularAcceleration(ddq.tolist()), fd[2], atol=1e-7, what="angular acceleration")
    # An empty ddq means zero.
    zero = [0.0] * state.n
    assert link.getAcceleration([]) == link.getAcceleration(zero)
    assert link.getPointAcceleration(p, []) == link.getPointAcceleration(p, zero)
    assert link.getAngularAcceleration([]) == link.getAngularAcceleration(zero)
    assert_close(link.getAcceleration(ddq.tolist()), link.getPointAcceleration([0, 0, 0], ddq.tolist()), atol=1e-15)


# ---------------------------------------------------------------------------
# Singular mass matrices: minimum-norm least squares

def test_massless_links_get_zero_acceleration_and_their_torques_are_ignored(shared_data):
    _, robot = load_robot(os.path.join(shared_data, "robots", "baxter.rob"))
    n = robot.numLinks()
    rng = np.random.default_rng(3)
    robot.setConfig(rng.uniform(-0.5, 0.5, n).tolist())
    robot.setVelocity(rng.uniform(-1, 1, n).tolist())
    B = np.array(robot.getMassMatrix())
    massless = np.flatnonzero(np.diag(B) == 0)
    assert len(massless) > 10
    assert np.all(B[massless] == 0)
    # Torques everywhere, including on DOFs that move no mass: no exact solution.
    tau = rng.uniform(-1, 1, n)
    a = np.array(robot.accelFromTorques(tau.tolist()))
    assert np.all(a[massless] == 0)
    rhs = tau - robot.getCoriolisForces()
    moving = np.setdiff1d(np.arange(n), massless)
    # Tiny inertias (1e-8) give accelerations of order 1e8: a backward-stable
    # residual is relative to |B| |a|.
    assert_close((B @ a)[moving], rhs[moving], atol=1e-14 * np.max(np.abs(B)) * np.max(np.abs(a)),
                 what="least-squares residual")
    M = robot.getMassMatrixInv()
    assert np.all(M[massless] == 0) and np.all(M[:, massless] == 0)
    assert_close(M[np.ix_(moving, moving)] @ B[np.ix_(moving, moving)], np.eye(len(moving)), atol=1e-4)


@pytest.mark.parametrize("robot_file", ["atlas.rob", "athlete.rob"])
def test_floating_base_at_gimbal_lock(shared_data, robot_file):
    """At pitch = pi/2 the yaw and roll axes of the floating base coincide: B is
    singular without any zero row, and the dense minimum-norm least-squares
    path applies."""
    _, robot = load_robot(os.path.join(shared_data, "robots", robot_file))
    n = robot.numLinks()
    rng = np.random.default_rng(4)
    lo, hi = robot.getJointLimits()
    q = rng.uniform(np.maximum(lo, -1), np.minimum(hi, 1))
    q[4] = np.pi / 2  # base links: x, y, z, yaw, pitch, roll
    robot.setConfig(q.tolist())
    robot.setVelocity(rng.uniform(-1, 1, n).tolist())
    B = np.array(robot.getMassMatrix())
    assert np.all(np.diag(B)[3:6] > 0)
    tau = rng.uniform(-1, 1, n)
    rhs = tau - np.array(robot.getCoriolisForces())
    expected = np.linalg.lstsq(B, rhs, rcond=1e-12)[0]
    a = robot.accelFromTorques(tau.tolist())
    assert_close(a, expected, rtol=1e-6, atol=scaled(expected, 1e-6), what="minimum-norm least squares")
    assert_close(robot.getMassMatrixInv(), np.linalg.pinv(B, rcond=1e-12, hermitian=True), rtol=1e-6,
                 atol=1e-6 * np.max(np.abs(np.linalg.pinv(B, rcond=1e-12, hermitian=True))), what="pseudo-inverse")


# ---------------------------------------------------------------------------
# Small cases with closed forms, and argument checking

def test_pendulum_closed_form():
    """A point mass m at distance l from the first joint (z axis) of the
    project's planar 3R arm, every other link massless."""
    _, robot = load_robot(os.path.join(PROJECT_DATA, "robots", "planar3R.rob"))
    n = robot.numLinks()
    m, l = 2.0, 0.7
    for i in range(n):
        mass = robot.link(i).getMass()
        mass.setMass(m if i == 0 else 0.0)
        mass.setCom([l, 0, 0] if i == 0 else [0, 0, 0])
        mass.setInertia([0.0] * 9)
        robot.link(i).setMass(mass)
    assert robot.link(0).getAxis() == [0, 0, 1]
    theta, omega, alpha = 0.4, 1.3, -0.6
    robot.setConfig([theta] + [0.0] * (n - 1))
    robot.setVelocity([omega] + [0.0] * (n - 1))
    assert_close(robot.getMassMatrix()[0, 0], m * l * l, rtol=1e-12)
    assert_close(robot.getKineticEnergy(), 0.5 * m * (l * omega) ** 2, rtol=1e-12)
    # The centripetal force points at the axis: no torque about it.
    assert_close(robot.getCoriolisForces(), [0.0] * n, atol=1e-12)
    assert_close(robot.torquesFromAccel([alpha] + [0.0] * (n - 1))[0], m * l * l * alpha, rtol=1e-12)
    # Holding the mass against gravity along -y takes m g l cos(theta).
    assert_close(robot.getGravityForces([0, -9.8, 0])[0], m * 9.8 * l * np.cos(theta), rtol=1e-12)
    # The other DOFs move no mass: zero acceleration whatever their torque.
    a = robot.accelFromTorques([1.0] * n)
    assert_close(a, [1.0 / (m * l * l)] + [0.0] * (n - 1), rtol=1e-12, atol=1e-15)
    # Linear momentum and the reference's angular momentum (spins only: zero
    # for a point mass) against the physical one, m r x v, which it omits.
    r = l * np.array([np.cos(theta), np.sin(theta), 0])
    v = omega * np.cross([0, 0, 1], r)
    assert_close(robot.getLinearMomentum(), m * v, atol=1e-15)
    assert_close(robot.getAngularMomentum(), [0, 0, 0], atol=1e-15)


def test_argument_checks(shared_data):
    _, robot = load_robot(os.path.join(shared_data, "robots", "ur5.rob"))
    n = robot.numLinks()
    nan, inf = float("nan"), float("inf")
    link = robot.link(n - 1)
    for call in (lambda: robot.torquesFromAccel([nan] * n), lambda: robot.accelFromTorques([0.0] * (n - 1) + [inf]),
                 lambda: robot.getGravityForces([0, 0, nan]), lambda: robot.torquesFromAccel([0.0] * (n - 1)),
                 lambda: robot.accelFromTorques([0.0] * (n + 1)), lambda: robot.getGravityForces([0, 0]),
                 lambda: link.getAcceleration([0.0] * 3), lambda: link.getPointAcceleration([0, 0, nan], []),
                 lambda: link.getAngularAcceleration([nan] * n), lambda: link.getPositionHessian([nan, 0, 0])):
        with pytest.raises(ValueError):
            call()
    for i in (n, -1):
        with pytest.raises(IndexError):
            robot.getMassMatrixDeriv(i)
    with pytest.raises(TypeError):
        robot.torquesFromAccel(["a"] * n)
    # Numpy arrays and tuples are accepted like lists.
    ddq = np.linspace(-1, 1, n)
    assert robot.torquesFromAccel(ddq) == robot.torquesFromAccel(tuple(ddq)) == robot.torquesFromAccel(list(ddq))


def test_return_types(shared_data):
    _, robot = load_robot(os.path.join(shared_data, "robots", "ur5.rob"))
    n = robot.numLinks()
    for name in ("getMassMatrix", "getMassMatrixInv", "getMassMatrixTimeDeriv", "getCoriolisForceMatrix"):
        value = getattr(robot, name)()
        assert isinstance(value, np.ndarray) and value.shape == (n, n), name
    assert robot.getTotalInertia().shape == (3, 3)
    for value in (robot.getCoriolisForces(), robot.getGravityForces([0, 0, -9.8]), robot.torquesFromAccel([0] * n),
                  robot.accelFromTorques([0] * n)):
        assert isinstance(value, list) and len(value) == n
    for value in (robot.getComVelocity(), robot.getLinearMomentum(), robot.getAngularMomentum(),
                  robot.link(2).getAcceleration([]), robot.link(2).getPointAcceleration([0, 0, 0], []),
                  robot.link(2).getAngularAcceleration([])):
        assert isinstance(value, list) and len(value) == 3
    assert isinstance(robot.getKineticEnergy(), float)
