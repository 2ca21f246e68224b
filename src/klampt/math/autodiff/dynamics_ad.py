"""Autodiff robot dynamics.

 ====================  ==========  ==========================================
 Function              Derivative  Value
 ====================  ==========  ==========================================
 CenterOfMass          1           com[robot](q) -> R^3
 GravityVector         1           G[robot](q,g) -> R^n
 KineticEnergy         1           KE[robot](q,dq) -> R
 MassMatrix            1           vec(B)[robot](q) -> R^(n*n)
 MassMatrixInv         1           vec(B^-1)[robot](q) -> R^(n*n)
 MomentumVector        1           B*v[robot](q,v) -> R^n
 CoriolisVector        1 (dq)      C[robot](q,dq) -> R^n
 ForwardDynamics       1 (dq,t)    ddq[robot](q,dq,t) -> R^n
 InverseDynamics       1 (dq,ddq)  t[robot](q,dq,ddq) -> R^n
 PointForceTorques     1           J^T*f[link,localpt](q,f) -> R^n
 PointWrenchTorques    1           J^T*w[link,localpt](q,w) -> R^n
 FullDynamics          1 (dq,t,f)  ddq[robot,g,links,localpts](q,dq,t,f) -> R^n
 ====================  ==========  ==========================================

Matrices are flattened in row-major (numpy) order.  Values come from the
robot's own dynamics (``getMassMatrix``, ``getCoriolisForces``,
``getGravityForces``, ``accelFromTorques``, ``torquesFromAccel``) and
derivatives from its Jacobians, Hessians and mass matrix derivatives
(``getMassMatrixDeriv``).  Derivatives of the Coriolis terms with respect to
q, which need second derivatives of the mass matrix, use finite differences.
The torque vectors of ForwardDynamics / InverseDynamics have one entry per
link; FullDynamics takes driver torques.
"""

import numpy as np

from .ad import ADFunctionInterface, ADFunctionCall, ADTerminal, sum_  # noqa: F401 (exported)
from . import math_ad, so3_ad, se3_ad  # noqa: F401 (exported)
from .. import vectorops, so3, se3  # noqa: F401 (exported)
from ...robotsim import RobotModel, RobotModelLink


class _Dynamics(ADFunctionInterface):
    """A function of a robot's configuration (and velocity, ...)."""
    names = ['q']

    def __init__(self, robot):
        if not isinstance(robot, RobotModel):
            raise ValueError("Expected a RobotModel, got %r" % (robot,))
        self.robot = robot

    def __str__(self):
        return "dynamics.%s[%s]" % (self.__class__.__name__, self.robot.getName())

    def argname(self, arg):
        return self.names[arg]

    def n_args(self):
        return len(self.names)

    def n_in(self, arg):
        return self.robot.numLinks()

    def n_out(self):
        return self.robot.numLinks()

    def _set(self, q, dq=None):
        self.robot.setConfig(np.asarray(q, dtype=float).tolist())
        if dq is not None:
            self.robot.setVelocity(np.asarray(dq, dtype=float).tolist())

    def _mass(self):
        return np.array(self.robot.getMassMatrix())

    def _mass_derivs(self):
        """dB[k] = dB/dq_k at the current configuration."""
        return np.array([self.robot.getMassMatrixDeriv(k) for k in range(self.robot.numLinks())])

    def _coriolis_dq(self, dq):
        """Derivative of the Coriolis vector with respect to dq, from
        c_i = sum_jk (dB_ij/dq_k - dB_jk/dq_i / 2) dq_j dq_k."""
        dB = self._mass_derivs()
        gamma = dB.transpose((1, 2, 0)) - 0.5 * dB  # gamma[i, j, k]
        return np.einsum('imk,k->im', gamma, dq) + np.einsum('ikm,k->im', gamma, dq)


class CenterOfMass(_Dynamics):
    """The robot's center of mass as a function of q (``getCom``)."""

    def n_out(self):
        return 3

    def eval(self, q):
        self._set(q)
        return np.array(self.robot.getCom())

    def derivative(self, arg, q):
        self._set(q)
        return np.array(self.robot.getComJacobian())


class GravityVector(_Dynamics):
    """The generalized gravity forces G(q) for the gravity vector g
    (``getGravityForces(g)``), as a function of (q, g)."""
    names = ['q', 'g']

    def n_in(self, arg):
        return self.robot.numLinks() if arg == 0 else 3

    def eval(self, q, g):
        self._set(q)
        return np.array(self.robot.getGravityForces(np.asarray(g, dtype=float).tolist()))

    def derivative(self, arg, q, g):
        self._set(q)
        n = self.robot.numLinks()
        res = np.zeros((n, n if arg == 0 else 3))
        g = np.asarray(g, dtype=float)
        # G = -sum_i m_i J_i(q)^T g over the links' centers of mass
        for i in range(n):
            link = self.robot.link(i)
            m = link.getMass()
            if m.mass == 0:
                continue
            if arg == 0:
                H = np.array(link.getPositionHessian(m.com))
                res -= m.mass * np.einsum('a,ajk->jk', g, H)
            else:
                res -= m.mass * np.array(link.getPositionJacobian(m.com)).T
        return res


class KineticEnergy(_Dynamics):
    """The kinetic energy dq^T B(q) dq / 2 (``getKineticEnergy``)."""
    names = ['q', 'dq']

    def n_out(self):
        return 1

    def eval(self, q, dq):
        self._set(q, dq)
        return float(self.robot.getKineticEnergy())

    def derivative(self, arg, q, dq):
        self._set(q)
        dq = np.asarray(dq, dtype=float)
        if arg == 0:
            return 0.5 * np.einsum('kij,i,j->k', self._mass_derivs(), dq, dq)[np.newaxis, :]
        return (self._mass() @ dq)[np.newaxis, :]


class MassMatrix(_Dynamics):
    """The mass matrix B(q), flattened to n*n entries (``getMassMatrix``)."""

    def n_out(self):
        return self.robot.numLinks() ** 2

    def eval(self, q):
        self._set(q)
        return self._mass().flatten()

    def derivative(self, arg, q):
        self._set(q)
        return self._mass_derivs().reshape((self.robot.numLinks(), -1)).T


class MassMatrixInv(_Dynamics):
    """The inverse mass matrix B(q)^-1, flattened to n*n entries
    (``getMassMatrixInv``)."""

    def n_out(self):
        return self.robot.numLinks() ** 2

    def eval(self, q):
        self._set(q)
        return np.array(self.robot.getMassMatrixInv()).flatten()

    def derivative(self, arg, q):
        self._set(q)
        Binv = np.array(self.robot.getMassMatrixInv())
        return np.array([-(Binv @ dB @ Binv).flatten() for dB in self._mass_derivs()]).T


class MomentumVector(_Dynamics):
    """The generalized momentum B(q) v as a function of (q, v)."""
    names = ['q', 'v']

    def eval(self, q, v):
        self._set(q)
        return self._mass() @ np.asarray(v, dtype=float)

    def derivative(self, arg, q, v):
        self._set(q)
        if arg == 0:
            return np.einsum('kij,j->ik', self._mass_derivs(), np.asarray(v, dtype=float))
        return self._mass()


class CoriolisVector(_Dynamics):
    """The Coriolis and centrifugal forces C(q, dq) (``getCoriolisForces``)."""
    names = ['q', 'dq']

    def eval(self, q, dq):
        self._set(q, dq)
        return np.array(self.robot.getCoriolisForces())

    def derivative(self, arg, q, dq):
        if arg == 0:
            raise NotImplementedError()
        self._set(q)
        return self._coriolis_dq(np.asarray(dq, dtype=float))


class ForwardDynamics(_Dynamics):
    """The accelerations ddq with B(q) ddq + C(q, dq) = t, as a function of
    (q, dq, t) (``accelFromTorques``; no gravity).  t has one entry per link;
    see :class:`kinematics_ad.DriverDerivsToLinks` to map driver torques."""
    names = ['q', 'dq', 't']

    def eval(self, q, dq, t):
        self._set(q, dq)
        return np.array(self.robot.accelFromTorques(np.asarray(t, dtype=float).tolist()))

    def derivative(self, arg, q, dq, t):
        if arg == 0:
            raise NotImplementedError()
        self._set(q)
        Binv = np.array(self.robot.getMassMatrixInv())
        if arg == 2:
            return Binv
        return -Binv @ self._coriolis_dq(np.asarray(dq, dtype=float))


class InverseDynamics(_Dynamics):
    """The torques t = B(q) ddq + C(q, dq) as a function of (q, dq, ddq)
    (``torquesFromAccel``; no gravity).  t has one entry per link; see
    :class:`kinematics_ad.LinkDerivsToDrivers` to map to driver torques."""
    names = ['q', 'dq', 'ddq']

    def eval(self, q, dq, ddq):
        self._set(q, dq)
        return np.array(self.robot.torquesFromAccel(np.asarray(ddq, dtype=float).tolist()))

    def derivative(self, arg, q, dq, ddq):
        if arg == 0:
            raise NotImplementedError()
        self._set(q)
        if arg == 2:
            return self._mass()
        return self._coriolis_dq(np.asarray(dq, dtype=float))


class _PointTorques(_Dynamics):
    def __init__(self, link, localpt):
        if not isinstance(link, RobotModelLink):
            raise ValueError("Expected a RobotModelLink, got %r" % (link,))
        _Dynamics.__init__(self, link.robot())
        self.link = link
        self.localpt = [float(v) for v in localpt]

    def __str__(self):
        return "dynamics.%s[%s,%s]" % (self.__class__.__name__, self.link.getName(), self.localpt)


class PointForceTorques(_PointTorques):
    """The joint torques J(q)^T f of a force f (world frame) applied at the
    point localpt of link, as a function of (q, f)."""
    names = ['q', 'f']

    def n_in(self, arg):
        return self.robot.numLinks() if arg == 0 else 3

    def eval(self, q, f):
        self._set(q)
        return np.array(self.link.getPositionJacobian(self.localpt)).T @ np.asarray(f, dtype=float)

    def derivative(self, arg, q, f):
        self._set(q)
        if arg == 1:
            return np.array(self.link.getPositionJacobian(self.localpt)).T
        H = np.array(self.link.getPositionHessian(self.localpt))
        return np.einsum('a,ajk->jk', np.asarray(f, dtype=float), H)


class PointWrenchTorques(_PointTorques):
    """The joint torques J(q)^T w of a wrench w = (torque, force) (world
    frame) applied at the point localpt of link, as a function of (q, w)."""
    names = ['q', 'w']

    def n_in(self, arg):
        return self.robot.numLinks() if arg == 0 else 6

    def eval(self, q, w):
        self._set(q)
        return np.array(self.link.getJacobian(self.localpt)).T @ np.asarray(w, dtype=float)

    def derivative(self, arg, q, w):
        self._set(q)
        if arg == 1:
            return np.array(self.link.getJacobian(self.localpt)).T
        w = np.asarray(w, dtype=float)
        Ho = np.array(self.link.getOrientationHessian())
        Hp = np.array(self.link.getPositionHessian(self.localpt))
        return np.einsum('a,ajk->jk', w[:3], Ho) + np.einsum('a,ajk->jk', w[3:], Hp)


class FullDynamics(_Dynamics):
    """The forward dynamics with gravity and point contact forces:
    :math:`\\ddot q = B(q)^{-1}(S t + \\sum_i J_i(q)^T f_i - C(q,\\dot q) - G(q))`
    as a function of (q, dq, t) or, with contacts, (q, dq, t, f).

    t holds one torque per driver (S maps driver torques to link torques), g
    is the gravity vector, and f stacks one world-frame force (3 entries)
    per contact point ``localpts[i]`` on ``links[i]``.
    """

    def __init__(self, robot, g, links=None, localpts=None):
        _Dynamics.__init__(self, robot)
        self.g = [float(v) for v in g]
        self.links = list(links) if links is not None else []
        self.localpts = [[float(v) for v in p] for p in localpts] if localpts is not None else []
        if len(self.links) != len(self.localpts):
            raise ValueError("FullDynamics needs one local point per contact link")
        self.names = ['q', 'dq', 't', 'f'] if self.links else ['q', 'dq', 't']

    def __str__(self):
        return "dynamics.FullDynamics[%s,%s,%d contacts]" % (self.robot.getName(), self.g, len(self.links))

    def n_in(self, arg):
        if arg <= 1:
            return self.robot.numLinks()
        if arg == 2:
            return self.robot.numDrivers()
        return 3 * len(self.links)

    def _selection(self):
        """numLinks x numDrivers map from driver torques to link torques."""
        S = np.zeros((self.robot.numLinks(), self.robot.numDrivers()))
        for d in range(self.robot.numDrivers()):
            driver = self.robot.driver(d)
            links = driver.getAffectedLinks()
            if len(links) == 1:
                S[links[0], d] = 1.0
            else:
                scale, _ = driver.getAffineCoeffs()
                for link, s in zip(links, scale):
                    S[link, d] = s
        return S

    def _contact_jacobian(self):
        """3k x numLinks stacked position Jacobians of the contact points."""
        if not self.links:
            return np.zeros((0, self.robot.numLinks()))
        return np.vstack([np.array(link.getPositionJacobian(p)) for link, p in zip(self.links, self.localpts)])

    def eval(self, q, dq, t, *f):
        self._set(q, dq)
        tau = self._selection() @ np.asarray(t, dtype=float)
        if f:
            tau = tau + self._contact_jacobian().T @ np.asarray(f[0], dtype=float)
        tau = tau - np.array(self.robot.getCoriolisForces()) - np.array(self.robot.getGravityForces(self.g))
        return np.linalg.solve(self._mass(), tau)

    def derivative(self, arg, q, dq, t, *f):
        if arg == 0:
            raise NotImplementedError()
        self._set(q)
        B = self._mass()
        if arg == 1:
            return -np.linalg.solve(B, self._coriolis_dq(np.asarray(dq, dtype=float)))
        if arg == 2:
            return np.linalg.solve(B, self._selection())
        return np.linalg.solve(B, self._contact_jacobian().T)
