"""Autodiff robot kinematics.

 ====================  ==========  ===========================================
 Function              Derivative  Value
 ====================  ==========  ===========================================
 WorldPosition         1, 2        wp[link,localPos](q) -> R^3
 WorldDirection        1, 2        wd[link,localDir](q) -> R^3
 WorldOrientation      1, 2        wo[link](q) -> SO(3) (9 entries)
 WorldTransform        1, 2        wt[link,localPos](q) -> SE(3) (12 entries)
 WorldVelocity         1           wv[link,localPos](q,dq) -> R^3
 WorldAngularVelocity  1           ww[link](q,dq) -> R^3
 DriversToLinks        1           d2l[robot](qdriver) -> R^numLinks
 DriverDerivsToLinks   1           d2l'[robot](vdriver) -> R^numLinks
 LinksToDrivers        1           l2d[robot](q) -> R^numDrivers
 LinkDerivsToDrivers   1           l2d'[robot](v) -> R^numDrivers
 ConfigInterpolate     1           qinterp[robot](a,b,u) -> R^numLinks
 ====================  ==========  ===========================================

Derivatives come from the robot's own Jacobians and Hessians
(``RobotModelLink.getJacobian``, ``getPositionJacobian``,
``getOrientationJacobian``, ``getPositionHessian``,
``getOrientationHessian``).  Each evaluation sets the robot's configuration
(and velocity); :class:`KinematicsBuilder` instead builds the whole forward
kinematics as one expression graph whose subexpressions are shared.
"""

import numpy as np

from .ad import ADFunctionInterface, ADFunctionCall, ADTerminal, sum_  # noqa: F401 (exported)
from . import math_ad, so3_ad, se3_ad
from .. import vectorops, so3, se3  # noqa: F401 (exported)
from ...robotsim import RobotModel, RobotModelLink


def _skew(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def _rotation_columns(rates, R):
    """9 x k: the column-major entries of [w_j] R for each column w_j of the
    3 x k array rates (the derivative of R along angular rates)."""
    M = np.asarray(R, dtype=float).reshape((3, 3)).T
    rates = np.asarray(rates, dtype=float)
    out = np.einsum('aij,jb->aib', np.array([_skew(e) for e in np.eye(3)]), M)  # [e_a] R
    return np.einsum('aib,ak->bik', out, rates).reshape((9, -1))


def _rotation_hessian(Jo, Ho, R):
    """9 x n x n second derivative of R(q) from the orientation Jacobian and
    Hessian (Ho[:, j, k] = d Jo[:, j] / dq_k)."""
    M = np.asarray(R, dtype=float).reshape((3, 3)).T
    n = Jo.shape[1]
    res = np.empty((9, n, n))
    skews = [_skew(Jo[:, j]) for j in range(n)]
    for j in range(n):
        for k in range(n):
            D = (_skew(Ho[:, j, k]) + skews[j] @ skews[k]) @ M
            res[:, j, k] = D.T.reshape(9)
    return res


class _LinkFunction(ADFunctionInterface):
    """A function of the configuration (and velocity) of a link's robot."""

    def __init__(self, link):
        if not isinstance(link, RobotModelLink):
            raise ValueError("Expected a RobotModelLink, got %r" % (link,))
        self.link = link
        self.robot = link.robot()

    def n_args(self):
        return 1

    def n_in(self, arg):
        return self.robot.numLinks()

    def argname(self, arg):
        return ['q', 'dq'][arg]

    def _set(self, q, dq=None):
        self.robot.setConfig(np.asarray(q, dtype=float).tolist())
        if dq is not None:
            self.robot.setVelocity(np.asarray(dq, dtype=float).tolist())


class WorldPosition(_LinkFunction):
    """The world position of the point localPos of link, as a function of the
    robot configuration q (``link.getWorldPosition(localPos)``)."""

    def __init__(self, link, localPos):
        _LinkFunction.__init__(self, link)
        self.localPos = [float(v) for v in localPos]

    def __str__(self):
        return "kinematics.WorldPosition[%s,%s]" % (self.link.getName(), self.localPos)

    def n_out(self):
        return 3

    def eval(self, q):
        self._set(q)
        return np.array(self.link.getWorldPosition(self.localPos))

    def derivative(self, arg, q):
        self._set(q)
        return np.array(self.link.getPositionJacobian(self.localPos))

    def gen_derivative(self, arg, q):
        if len(arg) == 1:
            return self.derivative(arg[0], q)
        if len(arg) == 2:
            self._set(q)
            return np.array(self.link.getPositionHessian(self.localPos))
        raise NotImplementedError()


class WorldDirection(_LinkFunction):
    """The world direction of the link-local direction localDir, as a
    function of the robot configuration q."""

    def __init__(self, link, localDir):
        _LinkFunction.__init__(self, link)
        self.localDir = [float(v) for v in localDir]

    def __str__(self):
        return "kinematics.WorldDirection[%s,%s]" % (self.link.getName(), self.localDir)

    def n_out(self):
        return 3

    def eval(self, q):
        self._set(q)
        return np.array(self.link.getWorldDirection(self.localDir))

    def derivative(self, arg, q):
        self._set(q)
        d = np.array(self.link.getWorldDirection(self.localDir))
        return -_skew(d) @ np.array(self.link.getOrientationJacobian())

    def gen_derivative(self, arg, q):
        if len(arg) == 1:
            return self.derivative(arg[0], q)
        if len(arg) != 2:
            raise NotImplementedError()
        self._set(q)
        d = np.array(self.link.getWorldDirection(self.localDir))
        Jo = np.array(self.link.getOrientationJacobian())
        Ho = np.array(self.link.getOrientationHessian())
        # d/dq_k (Jo_j x d) = Ho[:,j,k] x d + Jo_j x (Jo_k x d)
        first = -np.einsum('ab,bjk->ajk', _skew(d), Ho)
        Jd = np.cross(Jo.T, d).T  # Jo_k x d
        second = np.cross(Jo.T[:, None, :], Jd.T[None, :, :]).transpose((2, 0, 1))
        return first + second


class WorldOrientation(_LinkFunction):
    """The link's world rotation (9 entries, so3 layout) as a function of the
    robot configuration q."""

    def __str__(self):
        return "kinematics.WorldOrientation[%s]" % (self.link.getName(),)

    def n_out(self):
        return 9

    def eval(self, q):
        self._set(q)
        return np.array(self.link.getTransform()[0])

    def derivative(self, arg, q):
        self._set(q)
        return _rotation_columns(self.link.getOrientationJacobian(), self.link.getTransform()[0])

    def gen_derivative(self, arg, q):
        if len(arg) == 1:
            return self.derivative(arg[0], q)
        if len(arg) != 2:
            raise NotImplementedError()
        self._set(q)
        return _rotation_hessian(np.array(self.link.getOrientationJacobian()),
                                 np.array(self.link.getOrientationHessian()), self.link.getTransform()[0])


class WorldTransform(_LinkFunction):
    """The link's world transform (12 entries, se3_ad layout) as a function
    of the robot configuration q.  If localPos is given, the translation is
    the world position of that point instead of the link origin."""

    def __init__(self, link, localPos=None):
        _LinkFunction.__init__(self, link)
        self.localPos = None if localPos is None else [float(v) for v in localPos]

    def __str__(self):
        if self.localPos is not None:
            return "kinematics.WorldTransform[%s,%s]" % (self.link.getName(), self.localPos)
        return "kinematics.WorldTransform[%s]" % (self.link.getName(),)

    def n_out(self):
        return 12

    def _point(self):
        return [0.0, 0.0, 0.0] if self.localPos is None else self.localPos

    def eval(self, q):
        self._set(q)
        R, _ = self.link.getTransform()
        return np.hstack((R, self.link.getWorldPosition(self._point())))

    def derivative(self, arg, q):
        self._set(q)
        J = np.array(self.link.getJacobian(self._point()))
        return np.vstack((_rotation_columns(J[:3], self.link.getTransform()[0]), J[3:]))

    def gen_derivative(self, arg, q):
        if len(arg) == 1:
            return self.derivative(arg[0], q)
        if len(arg) != 2:
            raise NotImplementedError()
        self._set(q)
        HR = _rotation_hessian(np.array(self.link.getOrientationJacobian()),
                               np.array(self.link.getOrientationHessian()), self.link.getTransform()[0])
        return np.concatenate((HR, np.array(self.link.getPositionHessian(self._point()))), axis=0)


class WorldVelocity(_LinkFunction):
    """The world velocity of the point localPos of link as a function of the
    robot configuration q and velocity dq (``link.getPointVelocity``)."""

    def __init__(self, link, localPos):
        _LinkFunction.__init__(self, link)
        self.localPos = [float(v) for v in localPos]

    def __str__(self):
        return "kinematics.WorldVelocity[%s,%s]" % (self.link.getName(), self.localPos)

    def n_args(self):
        return 2

    def n_out(self):
        return 3

    def eval(self, q, dq):
        self._set(q, dq)
        return np.array(self.link.getPointVelocity(self.localPos))

    def derivative(self, arg, q, dq):
        self._set(q)
        if arg == 1:
            return np.array(self.link.getPositionJacobian(self.localPos))
        H = np.array(self.link.getPositionHessian(self.localPos))
        return np.einsum('ijk,j->ik', H, np.asarray(dq, dtype=float))


class WorldAngularVelocity(_LinkFunction):
    """The link's world angular velocity as a function of the robot
    configuration q and velocity dq (``link.getAngularVelocity``)."""

    def __str__(self):
        return "kinematics.WorldAngularVelocity[%s]" % (self.link.getName(),)

    def n_args(self):
        return 2

    def n_out(self):
        return 3

    def eval(self, q, dq):
        self._set(q, dq)
        return np.array(self.link.getAngularVelocity())

    def derivative(self, arg, q, dq):
        self._set(q)
        if arg == 1:
            return np.array(self.link.getOrientationJacobian())
        H = np.array(self.link.getOrientationHessian())
        return np.einsum('ijk,j->ik', H, np.asarray(dq, dtype=float))


class _RobotFunction(ADFunctionInterface):
    """A one-argument function of a robot's driver or link values."""

    def __init__(self, robot):
        if not isinstance(robot, RobotModel):
            raise ValueError("Expected a RobotModel, got %r" % (robot,))
        self.robot = robot
        self.drivers = [robot.driver(i) for i in range(robot.numDrivers())]

    def __str__(self):
        return "kinematics.%s[%s]" % (self.__class__.__name__, self.robot.getName())

    def n_args(self):
        return 1

    def _driver_to_link_matrix(self):
        """numLinks x numDrivers: link velocities per unit driver velocity."""
        self.robot.setVelocity([0.0] * self.robot.numLinks())
        cols = []
        for i, d in enumerate(self.drivers):
            for j, other in enumerate(self.drivers):
                other.setVelocity(1.0 if i == j else 0.0)
            cols.append(np.array(self.robot.getVelocity()))
        return np.column_stack(cols)

    def _link_to_driver_matrix(self):
        """numDrivers x numLinks: driver velocities per unit link velocity."""
        n = self.robot.numLinks()
        cols = []
        for k in range(n):
            e = np.zeros(n)
            e[k] = 1.0
            self.robot.setVelocity(e.tolist())
            cols.append(np.array([d.getVelocity() for d in self.drivers]))
        return np.column_stack(cols)


class DriversToLinks(_RobotFunction):
    """Link values (a configuration) from driver values; links not moved by
    any driver keep the robot's current values."""

    def n_in(self, arg):
        return self.robot.numDrivers()

    def n_out(self):
        return self.robot.numLinks()

    def eval(self, qdriver):
        for d, v in zip(self.drivers, np.asarray(qdriver, dtype=float)):
            d.setValue(float(v))
        return np.array(self.robot.getConfig())

    def derivative(self, arg, qdriver):
        self.eval(qdriver)
        return self._driver_to_link_matrix()


class DriverDerivsToLinks(_RobotFunction):
    """Link velocities from driver velocities (a linear map)."""

    def n_in(self, arg):
        return self.robot.numDrivers()

    def n_out(self):
        return self.robot.numLinks()

    def eval(self, vdriver):
        self.robot.setVelocity([0.0] * self.robot.numLinks())
        for d, v in zip(self.drivers, np.asarray(vdriver, dtype=float)):
            d.setVelocity(float(v))
        return np.array(self.robot.getVelocity())

    def derivative(self, arg, vdriver):
        return self._driver_to_link_matrix()


class LinksToDrivers(_RobotFunction):
    """Driver values from link values (a configuration)."""

    def n_in(self, arg):
        return self.robot.numLinks()

    def n_out(self):
        return self.robot.numDrivers()

    def eval(self, q):
        self.robot.setConfig(np.asarray(q, dtype=float).tolist())
        return np.array([d.getValue() for d in self.drivers])

    def derivative(self, arg, q):
        self.robot.setConfig(np.asarray(q, dtype=float).tolist())
        return self._link_to_driver_matrix()


class LinkDerivsToDrivers(_RobotFunction):
    """Driver velocities from link velocities (a linear map)."""

    def n_in(self, arg):
        return self.robot.numLinks()

    def n_out(self):
        return self.robot.numDrivers()

    def eval(self, v):
        self.robot.setVelocity(np.asarray(v, dtype=float).tolist())
        return np.array([d.getVelocity() for d in self.drivers])

    def derivative(self, arg, v):
        return self._link_to_driver_matrix()


class ConfigInterpolate(_RobotFunction):
    """``robot.interpolate(a, b, u)`` as a function of (a, b, u).  The
    derivative in u comes from ``robot.interpolateDeriv``; those in a and b
    use finite differences."""

    def argname(self, arg):
        return ['a', 'b', 'u'][arg]

    def n_args(self):
        return 3

    def n_in(self, arg):
        return self.robot.numLinks() if arg <= 1 else 1

    def n_out(self):
        return self.robot.numLinks()

    def eval(self, a, b, u):
        return np.array(self.robot.interpolate(np.asarray(a, dtype=float).tolist(),
                                               np.asarray(b, dtype=float).tolist(), float(u)))

    def derivative(self, arg, a, b, u):
        if arg != 2:
            raise NotImplementedError()
        u = float(u)
        a, b = np.asarray(a, dtype=float).tolist(), np.asarray(b, dtype=float).tolist()
        x = self.robot.interpolate(a, b, u)
        # interpolateDeriv gives the (constant-speed) tangent at the start of
        # a path: restart the path at x(u), toward whichever end is farther
        if u <= 0.5:
            d = np.array(self.robot.interpolateDeriv(x, b)) / (1.0 - u)
        else:
            d = -np.array(self.robot.interpolateDeriv(x, a)) / u
        return d.reshape((-1, 1))


class KinematicsBuilder:
    """Builds the robot's forward kinematics as one expression graph, so that
    many link queries share their intermediate transforms and are
    differentiable with respect to the configuration (and velocity).

    Args:
        robot (RobotModel): the robot.
        configuration ('fixed', str, expression or array): the configuration;
            'fixed' takes the robot's current one, a string names a variable.
        velocity (None, 'fixed', str, expression or array): if given, the
            world_velocity and world_angular_velocity queries are available.
        relative_transforms ('fixed' or list): each link's transform relative
            to its parent (12-entry se3_ad values or expressions); 'fixed'
            takes them from the robot.
        axes ('fixed' or list): each link's joint axis (3-vectors or
            expressions); 'fixed' takes them from the robot.

    Example::

        kb = KinematicsBuilder(robot, 'q', 'dq')
        p = kb.world_position(robot.numLinks() - 1)
        p.derivative('q', q=q, dq=dq)
    """

    def __init__(self, robot, configuration='fixed', velocity=None, relative_transforms='fixed', axes='fixed'):
        n = robot.numLinks()
        configuration = self._input(robot, configuration, robot.getConfig)
        if isinstance(relative_transforms, str) and relative_transforms == 'fixed':
            relative_transforms = [se3_ad.from_klampt(robot.link(i).getParentTransform()) for i in range(n)]
        if isinstance(axes, str) and axes == 'fixed':
            axes = [np.array(robot.link(i).getAxis()) for i in range(n)]
        if len(relative_transforms) != n or len(axes) != n:
            raise ValueError("relative_transforms and axes need one entry per link")
        self.robot = robot
        self.axes = axes
        self.link_transforms = []
        self.link_rotations = []
        self.link_positions = []
        self.link_inv_transforms = []
        self.link_inv_rotations = []
        for i in range(n):
            link = robot.link(i)
            p = link.getParent()
            if p >= i:
                raise ValueError("Links must come after their parents")
            qi = configuration[i]
            Trel = relative_transforms[i]
            if isinstance(Trel, np.ndarray):
                Rrel, trel = Trel[:9], Trel[9:]
            else:
                Rrel, trel = se3_ad.rotation(Trel), se3_ad.translation(Trel)
            if link.isPrismatic():
                local_t, local_R = trel + qi * axes[i], Rrel
            else:
                local_t, local_R = trel, so3_ad.mul(Rrel, so3_ad.from_axis_angle(axes[i], qi))
            if p < 0:
                R, t = local_R, local_t
                T = se3_ad.join(R, t)
            else:
                R = so3_ad.mul(self.link_rotations[p], local_R)
                t = se3_ad.apply(self.link_transforms[p], local_t)
                T = se3_ad.join(R, t)
            self.link_rotations.append(R)
            self.link_positions.append(t)
            self.link_transforms.append(T)
            self.link_inv_rotations.append(so3_ad.inv(R))
            self.link_inv_transforms.append(se3_ad.inv(T))
        self.link_velocities = None
        self.link_angular_velocities = None
        if velocity is not None:
            self._build_velocities(self._input(robot, velocity, robot.getVelocity))

    @staticmethod
    def _input(robot, value, current):
        if isinstance(value, str):
            return np.array(current()) if value == 'fixed' else ADTerminal(value)
        if isinstance(value, (ADTerminal, ADFunctionCall)):
            return value
        value = np.asarray(value, dtype=float)
        if value.shape != (robot.numLinks(),):
            raise ValueError("Expected %d values, got shape %s" % (robot.numLinks(), value.shape))
        return value

    def _build_velocities(self, velocity):
        robot = self.robot
        n = robot.numLinks()
        world_axes = [so3_ad.apply(self.link_rotations[i], self.axes[i]) for i in range(n)]
        self.link_velocities = []
        self.link_angular_velocities = []
        for i in range(n):
            lin, ang = [], []
            k = i
            while k >= 0:
                term = world_axes[k] * velocity[k]
                if robot.link(k).isPrismatic():
                    lin.append(term)
                else:
                    ang.append(term)
                    if k != i:
                        lin.append(math_ad.cross(term, self.link_positions[i] - self.link_positions[k]))
                k = robot.link(k).getParent()
            self.link_velocities.append(sum_(*lin) if len(lin) > 1 else (lin[0] if lin else np.zeros(3)))
            self.link_angular_velocities.append(sum_(*ang) if len(ang) > 1 else (ang[0] if ang else np.zeros(3)))

    def _link_index(self, link):
        if isinstance(link, RobotModelLink):
            return link.index
        if isinstance(link, str):
            return self.robot.link(link).index
        return int(link)

    def _need_velocity(self):
        if self.link_velocities is None:
            raise ValueError("This KinematicsBuilder was made without a velocity")

    def world_transform(self, link):
        """Expression of the link's world transform (12 entries)."""
        return self.link_transforms[self._link_index(link)]

    def world_position(self, link, localPos=None):
        """Expression of the world position of localPos on the link (its
        origin if localPos is None)."""
        i = self._link_index(link)
        if localPos is None:
            return self.link_positions[i]
        return se3_ad.apply(self.link_transforms[i], localPos)

    def world_direction(self, link, localDir):
        """Expression of the world direction of the link-local direction."""
        return so3_ad.apply(self.link_rotations[self._link_index(link)], localDir)

    def world_orientation(self, link):
        """Expression of the link's world rotation (9 entries)."""
        return self.link_rotations[self._link_index(link)]

    def world_velocity(self, link, localPos=None):
        """Expression of the world velocity of localPos on the link (its
        origin if localPos is None); needs a velocity."""
        self._need_velocity()
        i = self._link_index(link)
        if localPos is None:
            return self.link_velocities[i]
        offset = so3_ad.apply(self.link_rotations[i], localPos)
        return self.link_velocities[i] + math_ad.cross(self.link_angular_velocities[i], offset)

    def world_angular_velocity(self, link):
        """Expression of the link's world angular velocity (3 entries);
        needs a velocity."""
        self._need_velocity()
        return self.link_angular_velocities[self._link_index(link)]

    def local_position(self, link, worldPos):
        """Expression of the link-local coordinates of the world point."""
        return se3_ad.apply(self.link_inv_transforms[self._link_index(link)], worldPos)

    def local_direction(self, link, worldDir):
        """Expression of the link-local coordinates of the world direction."""
        return so3_ad.apply(self.link_inv_rotations[self._link_index(link)], worldDir)

    def inv_orientation(self, link):
        """Expression of the inverse of the link's world rotation."""
        return self.link_inv_rotations[self._link_index(link)]
