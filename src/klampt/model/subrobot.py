"""A view of a subset of a robot's links with the RobotModel API:
configurations, limits, Jacobians and dynamics terms are re-indexed to the
chosen links (:class:`SubRobotModel`), as are links
(:class:`SubRobotModelLink`) and drivers (:class:`SubRobotModelDriver`).

Values the full robot returns as numpy arrays are returned as numpy arrays
here; lists stay lists.
"""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
from typing import TYPE_CHECKING, Sequence, Tuple, Union

import numpy as np

from ..robotsim import RobotModel, RobotModelLink

if TYPE_CHECKING:
    from ..robotsim import SimRobotSensor


def _select(values, indices):
    """values[indices] for a list, tuple or 1-D array, keeping the kind."""
    if isinstance(values, np.ndarray):
        return values[indices]
    return [values[i] for i in indices]


def _select_columns(matrix, indices):
    if isinstance(matrix, np.ndarray):
        return matrix[:, indices]
    return [[row[i] for i in indices] for row in matrix]


class SubRobotModel(object):
    """The links ``links`` (indices or names) of a RobotModel (or of another
    SubRobotModel), with the RobotModel API re-indexed to them.

    Setting a configuration changes only these links of the underlying
    robot.  :meth:`tofull` and :meth:`fromfull` convert indices,
    configurations, lists of configurations, matrices and trajectories to
    and from the full robot.
    """

    def __init__(self, robot: Union[RobotModel, 'SubRobotModel'], links: Sequence[Union[int, str]]):
        if not isinstance(robot, (RobotModel, SubRobotModel)):
            raise ValueError("SubRobotModel needs a RobotModel or SubRobotModel as first argument")
        indices = [robot.link(l).index if isinstance(l, str) else int(l) for l in links]
        n = robot.numLinks()
        for i in indices:
            if i < 0 or i >= n:
                raise IndexError("Link index %d out of range [0, %d)" % (i, n))
        if isinstance(robot, SubRobotModel):
            indices = [robot._links[i] for i in indices]
            robot = robot._robot
        self._robot = robot
        self._links = indices
        self._inv_links = dict((l, i) for i, l in enumerate(indices))
        self._drivers = None
        self.index = robot.index
        self.world = robot.world

    # ------------------------------------------------------------ conversions
    def tofull(self, obj, reference=None):
        """Maps a sub-robot index, link, configuration (list or 1-D array),
        list of configurations (or 2-D array) or Trajectory to the full
        robot.  Entries outside the sub-robot come from reference (a
        configuration, a list of them, or a number); by default the robot's
        current configuration."""
        if isinstance(obj, (int, np.integer)):
            return self._links[obj]
        if isinstance(obj, SubRobotModelLink):
            return obj._link
        if hasattr(obj, '_map_milestones'):
            # A Trajectory maps its own milestones: klampt.model.trajectory
            # imports this module, so this one does not import it back.
            return obj._map_milestones(lambda qs: self.tofull(qs, reference), lambda q: self.tofull(q, reference),
                                       lambda v: self.tofull(v, 0.0))
        n = self._robot.numLinks()
        if isinstance(obj, np.ndarray):
            if obj.ndim == 1:
                res = self._reference_row(reference, n).astype(float)
                res[self._links] = obj
                return res
            if obj.ndim == 2:
                res = np.empty((obj.shape[0], n))
                for k in range(obj.shape[0]):
                    ref = reference[k] if (reference is not None and np.ndim(reference) == 2) else reference
                    res[k] = self._reference_row(ref, n)
                res[:, self._links] = obj
                return res
            raise ValueError("Expected a 1-D or 2-D array")
        if isinstance(obj, (list, tuple)):
            if len(obj) > 0 and hasattr(obj[0], '__iter__'):
                if reference is not None and np.ndim(reference) == 2:
                    if len(reference) != len(obj):
                        raise ValueError("reference has %d rows, expected %d" % (len(reference), len(obj)))
                    return [self.tofull(row, ref) for row, ref in zip(obj, reference)]
                return [self.tofull(row, reference) for row in obj]
            if len(obj) != len(self._links):
                raise ValueError("Expected %d values, got %d" % (len(self._links), len(obj)))
            res = [float(v) for v in self._reference_row(reference, n)]
            for l, v in zip(self._links, obj):
                res[l] = v
            return res
        raise ValueError("Cannot map an object of type %s to the full robot" % type(obj).__name__)

    def _reference_row(self, reference, n):
        if reference is None:
            return np.array(self._robot.getConfig(), dtype=float)
        if np.ndim(reference) == 0:
            return np.full(n, float(reference))
        ref = np.array(reference, dtype=float)
        if ref.shape != (n,):
            raise ValueError("reference must have %d entries" % n)
        return ref

    def fromfull(self, object):
        """Maps a full-robot index (None if not in the sub-robot), link,
        configuration, list of configurations, 2-D array or Trajectory to
        the sub-robot."""
        if isinstance(object, (int, np.integer)):
            return self._inv_links.get(int(object), None)
        if isinstance(object, RobotModelLink):
            return SubRobotModelLink(object, self)
        if hasattr(object, '_map_milestones'):  # a Trajectory, as in tofull
            return object._map_milestones(lambda qs: [self.fromfull(m) for m in qs], self.fromfull, self.fromfull)
        n = self._robot.numLinks()
        if isinstance(object, np.ndarray):
            if object.ndim == 1:
                return object[self._links]
            if object.ndim == 2:
                return object[:, self._links]
            raise ValueError("Expected a 1-D or 2-D array")
        if isinstance(object, (list, tuple)):
            if len(object) > 0 and hasattr(object[0], '__iter__'):
                return [self.fromfull(row) for row in object]
            if len(object) != n:
                raise ValueError("Expected a configuration of length %d, got %d" % (n, len(object)))
            return [object[i] for i in self._links]
        raise ValueError("Cannot map an object of type %s to the sub-robot" % type(object).__name__)

    # ------------------------------------------------------------ structure
    def getName(self):
        """The name of the underlying full robot."""
        return self._robot.getName()

    def numLinks(self) -> int:
        """The number of links (DOFs) of the sub-robot."""
        return len(self._links)

    def link(self, index) -> 'SubRobotModelLink':
        """The sub-robot link of a sub-robot index or a link name (which must
        belong to the sub-robot)."""
        if isinstance(index, str):
            full = self._robot.link(index).index
            if full not in self._inv_links:
                raise ValueError("Link %r is not part of the sub-robot" % index)
            return SubRobotModelLink(self._robot.link(full), self)
        if index < 0 or index >= len(self._links):
            raise IndexError("Link index %d out of range [0, %d)" % (index, len(self._links)))
        return SubRobotModelLink(self._robot.link(self._links[index]), self)

    def _computeDrivers(self):
        """Drivers all of whose affected links are in the sub-robot."""
        if self._drivers is None:
            self._drivers = []
            for i in range(self._robot.numDrivers()):
                d = self._robot.driver(i)
                if all(l in self._inv_links for l in d.getAffectedLinks()):
                    self._drivers.append(i)
        return self._drivers

    def numDrivers(self) -> int:
        """The number of the full robot's drivers all of whose affected links are
        in the sub-robot (the sub-robot's drivers)."""
        return len(self._computeDrivers())

    def driver(self, index) -> 'SubRobotModelDriver':
        """A driver of the sub-robot.

        Args:
            index (int or str): a sub-robot driver index (see
                :meth:`numDrivers`) or a driver name.

        Returns:
            SubRobotModelDriver

        Raises:
            IndexError: if the index is out of range.
            ValueError: if the named driver is not one of the sub-robot's.
        """
        drivers = self._computeDrivers()
        if isinstance(index, str):
            d = self._robot.driver(index)
            if d.index not in drivers:
                raise ValueError("Driver %r is not part of the sub-robot" % index)
            return SubRobotModelDriver(d, self)
        if index < 0 or index >= len(drivers):
            raise IndexError("Driver index %d out of range [0, %d)" % (index, len(drivers)))
        return SubRobotModelDriver(self._robot.driver(drivers[index]), self)

    # ------------------------------------------------------------ state
    def getConfig(self) -> Sequence[float]:
        """The sub-robot's entries of the robot's current configuration (rad or
        m per joint), a list or 1-D array like the full robot's."""
        return _select(self._robot.getConfig(), self._links)

    def getVelocity(self) -> Sequence[float]:
        """The sub-robot's entries of the robot's current joint velocities
        (rad/s or m/s per joint)."""
        return _select(self._robot.getVelocity(), self._links)

    def setConfig(self, q: Sequence[float]) -> None:
        """Sets the sub-robot's links to q (length numLinks()) and updates the
        link transforms; the other links keep their configuration.

        Raises:
            ValueError: if q has the wrong length.
        """
        self._robot.setConfig(self.tofull(list(q)))

    def setVelocity(self, q: Sequence[float]) -> None:
        """Sets the sub-robot's joint velocities to q (length numLinks()); the
        other links keep their velocity.

        Raises:
            ValueError: if q has the wrong length.
        """
        self._robot.setVelocity(self.tofull(list(q), self._robot.getVelocity()))

    def getJointLimits(self) -> Tuple[Sequence[float], Sequence[float]]:
        """The sub-robot's joint limits.

        Returns:
            tuple: (qmin, qmax), each with numLinks() entries (rad or m).
        """
        qmin, qmax = self._robot.getJointLimits()
        return _select(qmin, self._links), _select(qmax, self._links)

    def setJointLimits(self, qmin: Sequence[float], qmax: Sequence[float]) -> None:
        """Sets the sub-robot's joint limits (numLinks() entries each, rad or m);
        the other links keep theirs."""
        fmin, fmax = self._robot.getJointLimits()
        self._robot.setJointLimits(self.tofull(list(qmin), fmin), self.tofull(list(qmax), fmax))

    def getVelocityLimits(self) -> Sequence[float]:
        """The sub-robot's velocity limits vmax (``abs(dq[i]) <= vmax[i]``;
        rad/s or m/s)."""
        return _select(self._robot.getVelocityLimits(), self._links)

    def setVelocityLimits(self, vmax: Sequence[float]) -> None:
        """Sets the sub-robot's velocity limits (numLinks() entries); the other
        links keep theirs."""
        self._robot.setVelocityLimits(self.tofull(list(vmax), self._robot.getVelocityLimits()))

    def getAccelerationLimits(self) -> Sequence[float]:
        """The sub-robot's acceleration limits amax (``abs(ddq[i]) <= amax[i]``;
        rad/s^2 or m/s^2)."""
        return _select(self._robot.getAccelerationLimits(), self._links)

    def setAccelerationLimits(self, amax: Sequence[float]) -> None:
        """Sets the sub-robot's acceleration limits (numLinks() entries); the
        other links keep theirs."""
        self._robot.setAccelerationLimits(self.tofull(list(amax), self._robot.getAccelerationLimits()))

    def getTorqueLimits(self) -> Sequence[float]:
        """The sub-robot's torque limits tmax (``abs(torque[i]) <= tmax[i]``;
        N m for revolute joints, N for prismatic ones)."""
        return _select(self._robot.getTorqueLimits(), self._links)

    def setTorqueLimits(self, tmax: Sequence[float]) -> None:
        """Sets the sub-robot's torque limits (numLinks() entries); the other
        links keep theirs."""
        self._robot.setTorqueLimits(self.tofull(list(tmax), self._robot.getTorqueLimits()))

    def _full_index(self, index):
        if isinstance(index, str):
            full = self._robot.link(index).index
            if full not in self._inv_links:
                raise ValueError("Link %r is not part of the sub-robot" % index)
            return full
        if index < 0 or index >= len(self._links):
            raise IndexError("DOF index %d out of range [0, %d)" % (index, len(self._links)))
        return self._links[index]

    def setDOFPosition(self, index: Union[int, str], qi: float) -> None:
        """Sets one DOF of the sub-robot and updates the link transforms.

        Args:
            index (int or str): a sub-robot index or the name of one of the
                sub-robot's links.
            qi (float): the value (rad or m).

        Raises:
            IndexError: if the index is out of range.
            ValueError: if the named link is not in the sub-robot.
        """
        self._robot.setDOFPosition(self._full_index(index), qi)

    def getDOFPosition(self, index: Union[int, str]) -> float:
        """One DOF of the sub-robot (rad or m), by sub-robot index or link name
        (IndexError / ValueError as in :meth:`setDOFPosition`)."""
        return self._robot.getDOFPosition(self._full_index(index))

    # ------------------------------------------------------------ kinematics and dynamics
    def getCom(self):
        """The center of mass of the whole robot."""
        return self._robot.getCom()

    def getComJacobian(self):
        """The whole robot's COM Jacobian, columns of the sub-robot's links."""
        return _select_columns(self._robot.getComJacobian(), self._links)

    def getLinearMomentum(self) -> Sequence[float]:
        """The linear momentum of the whole robot (kg m/s, world frame), as
        RobotModel.getLinearMomentum; not restricted to the sub-robot."""
        return self._robot.getLinearMomentum()

    def getAngularMomentum(self) -> Sequence[float]:
        """The angular momentum of the whole robot (kg m^2/s, world frame), as
        RobotModel.getAngularMomentum computes it; not restricted to the
        sub-robot."""
        return self._robot.getAngularMomentum()

    def getKineticEnergy(self) -> float:
        """The kinetic energy of the whole robot (J) at its current configuration
        and velocity; not restricted to the sub-robot."""
        return self._robot.getKineticEnergy()

    def getTotalInertia(self):
        """The 3x3 inertia matrix of the whole robot about its center of mass
        (kg m^2), as RobotModel.getTotalInertia; not restricted to the
        sub-robot."""
        return self._robot.getTotalInertia()

    def _submatrix(self, M):
        M = np.asarray(M)
        return M[np.ix_(self._links, self._links)]

    def getMassMatrix(self):
        """Rows and columns of the sub-robot's links of the full mass
        matrix."""
        return self._submatrix(self._robot.getMassMatrix())

    def getMassMatrixInv(self):
        """Inverse of the sub-robot's mass matrix (the other links held
        fixed)."""
        return np.linalg.inv(self.getMassMatrix())

    def getCoriolisForceMatrix(self):
        """The rows and columns of the sub-robot's links of the full robot's
        Coriolis force matrix C(q,dq) at the current configuration and
        velocity.

        Returns:
            ndarray: numLinks() x numLinks().
        """
        return self._submatrix(self._robot.getCoriolisForceMatrix())

    def getCoriolisForces(self):
        """The sub-robot's entries of the full robot's Coriolis forces C(q,dq)*dq
        (joint torques, N m or N) at the current configuration and velocity."""
        return _select(self._robot.getCoriolisForces(), self._links)

    def getGravityForces(self, g):
        """The sub-robot's entries of the full robot's generalized gravity vector
        G(q) (joint torques, N m or N) at the current configuration.

        Args:
            g (list of 3 floats): the gravity acceleration in world coordinates
                (m/s^2), usually (0, 0, -9.8).
        """
        return _select(self._robot.getGravityForces(g), self._links)

    def torquesFromAccel(self, ddq):
        """Torques of the sub-robot's links for accelerations ddq of its links
        (zero acceleration elsewhere)."""
        return _select(self._robot.torquesFromAccel(self.tofull(list(ddq), 0.0)), self._links)

    def accelFromTorques(self, t):
        """Accelerations of the sub-robot's links for torques t (the other
        links held fixed)."""
        M = self.getMassMatrix()
        rhs = np.asarray(t, dtype=float) - np.asarray(self.getCoriolisForces(), dtype=float) - np.asarray(self.getGravityForces((0, 0, -9.8)), dtype=float)
        return np.linalg.solve(M, rhs)

    def interpolate(self, a: Sequence[float], b: Sequence[float], u: float) -> Sequence[float]:
        """Interpolates from a (u=0) to b (u=1) with the full robot's rules
        (e.g. spin joints wrap), the other links at the current configuration.

        Args:
            a (list of float): a sub-robot configuration.
            b (list of float): a sub-robot configuration.
            u (float): the interpolation parameter.

        Returns:
            list of float: the sub-robot configuration.
        """
        ref = self._robot.getConfig()
        return self.fromfull(list(self._robot.interpolate(self.tofull(list(a), ref), self.tofull(list(b), ref), u)))

    def distance(self, a: Sequence[float], b: Sequence[float]) -> float:
        """The full robot's distance between the sub-robot configurations a and
        b, the other links at the current configuration."""
        ref = self._robot.getConfig()
        return self._robot.distance(self.tofull(list(a), ref), self.tofull(list(b), ref))

    def interpolateDeriv(self, a: Sequence[float], b: Sequence[float]) -> Sequence[float]:
        """The derivative of the sub-robot configuration at a when interpolating
        toward b at unit speed (the full robot's rules, other links at the
        current configuration); a list of numLinks() floats."""
        ref = self._robot.getConfig()
        return self.fromfull(list(self._robot.interpolateDeriv(self.tofull(list(a), ref), self.tofull(list(b), ref))))

    def randomizeConfig(self, unboundedScale=1.0) -> None:
        """Randomizes the sub-robot's links only."""
        old = list(self._robot.getConfig())
        self._robot.randomizeConfig(unboundedScale)
        rand = self._robot.getConfig()
        for l in self._links:
            old[l] = rand[l]
        self._robot.setConfig(old)

    def configToDrivers(self, q: Sequence[float]) -> Sequence[float]:
        """The values of the sub-robot's drivers (see :meth:`driver`) for the
        sub-robot configuration q, the other links at the current
        configuration.

        Returns:
            list of float: numDrivers() values.
        """
        full = self._robot.configToDrivers(self.tofull(list(q)))
        return [full[d] for d in self._computeDrivers()]

    def velocityToDrivers(self, dq: Sequence[float]) -> Sequence[float]:
        """The velocities of the sub-robot's drivers for the sub-robot joint
        velocity dq (the other links at rest).

        Returns:
            list of float: numDrivers() values.
        """
        full = self._robot.velocityToDrivers(self.tofull(list(dq), 0.0))
        return [full[d] for d in self._computeDrivers()]

    def configFromDrivers(self, driverValues: Sequence[float]) -> Sequence[float]:
        """The sub-robot configuration for the values of its drivers; the other
        drivers keep the values of the current configuration.

        Args:
            driverValues (list of float): numDrivers() values.

        Returns:
            list of float: numLinks() values.

        Raises:
            ValueError: if driverValues has the wrong length.
        """
        drivers = self._computeDrivers()
        if len(driverValues) != len(drivers):
            raise ValueError("Expected %d driver values, got %d" % (len(drivers), len(driverValues)))
        full = list(self._robot.configToDrivers(self._robot.getConfig()))
        for d, v in zip(drivers, driverValues):
            full[d] = v
        return self.fromfull(list(self._robot.configFromDrivers(full)))

    def velocityFromDrivers(self, driverVelocities: Sequence[float]) -> Sequence[float]:
        """The sub-robot joint velocity for the velocities of its drivers (the
        other drivers at rest).

        Args:
            driverVelocities (list of float): numDrivers() values.

        Returns:
            list of float: numLinks() values.

        Raises:
            ValueError: if driverVelocities has the wrong length.
        """
        drivers = self._computeDrivers()
        if len(driverVelocities) != len(drivers):
            raise ValueError("Expected %d driver velocities, got %d" % (len(drivers), len(driverVelocities)))
        full = [0.0] * self._robot.numDrivers()
        for d, v in zip(drivers, driverVelocities):
            full[d] = v
        return self.fromfull(list(self._robot.velocityFromDrivers(full)))

    def selfCollisionEnabled(self, link1, link2):
        """True if self collisions between two of the sub-robot's links (indices
        or names) are checked."""
        return self._robot.selfCollisionEnabled(self._full_index(link1), self._full_index(link2))

    def enableSelfCollision(self, link1, link2, value=True):
        """Enables (value=True) or disables self collisions between two of the
        sub-robot's links, given by sub-robot index or name."""
        self._robot.enableSelfCollision(self._full_index(link1), self._full_index(link2), value)

    def selfCollides(self):
        """True if two of the sub-robot's links with self-collision enabled
        collide."""
        for a in range(len(self._links)):
            for b in range(a + 1, len(self._links)):
                la, lb = self._links[a], self._links[b]
                if self._robot.selfCollisionEnabled(la, lb):
                    if self._robot.link(la).geometry().collides(self._robot.link(lb).geometry()):
                        return True
        return False

    def drawGL(self, keepAppearance=True):
        """Draws the sub-robot's links at their current transforms in the
        current OpenGL context (keepAppearance=False: in the current GL color)."""
        for l in self._links:
            self._robot.link(l).drawWorldGL(keepAppearance)

    def reduce(self):
        """Not available for a sub-robot: always raises ValueError (reduce the
        full RobotModel instead)."""
        raise ValueError("Can't reduce a sub-robot")

    def mount(self, link, subRobot, R, t):
        """Mounts a copy of subRobot onto one of the sub-robot's links, as
        RobotModel.mount does on the full robot.

        Args:
            link (int or str): a sub-robot link index or name.
            subRobot (RobotModel): the robot to mount.
            R (list of 9 floats): the mount rotation relative to the link.
            t (list of 3 floats): the mount translation relative to the link
                (m).
        """
        self._robot.mount(self._full_index(link), subRobot, R, t)

    def sensor(self, index) -> 'SimRobotSensor':
        """The full robot's sensor (sensor settings refer to full-robot
        link indices)."""
        return self._robot.sensor(index)


class SubRobotModelLink(object):
    """A link of a SubRobotModel: a RobotModelLink whose indices and
    Jacobians refer to the sub-robot."""

    def __init__(self, link, robot):
        self._link = link
        self._robot = robot
        self.index = robot._inv_links.get(link.index, -1)

    def __getattr__(self, name):
        return getattr(self._link, name)

    def robot(self):
        """The SubRobotModel this link belongs to."""
        return self._robot

    def getIndex(self):
        """The link's sub-robot index, or -1 if it is not in the sub-robot."""
        return self.index

    def getParent(self):
        """Sub-robot index of the parent, or -1 if it is not in the
        sub-robot."""
        p = self._link.getParent()
        return self._robot._inv_links.get(p, -1)

    def parent(self):
        """The parent as a SubRobotModelLink, or -1 if it is not in the
        sub-robot."""
        p = self.getParent()
        return self._robot.link(p) if p >= 0 else -1

    def setParent(self, p):
        """Sets the link's parent in the underlying robot.

        Args:
            p (SubRobotModelLink or int): the new parent, as a link or a
                sub-robot index; a negative index (-1) means no parent.
        """
        if isinstance(p, SubRobotModelLink):
            p = p._link.index
        elif p >= 0:
            p = self._robot._links[p]
        self._link.setParent(p)

    def getJacobian(self, p):
        """The Jacobian of a point on the link with respect to the sub-robot's
        configuration: the full robot's 6 x n Jacobian restricted to the
        sub-robot's columns, angular-velocity rows first, world frame.

        Args:
            p (list of 3 floats): the point in the link's local frame (m).

        Returns:
            ndarray: 6 x numLinks().
        """
        return _select_columns(self._link.getJacobian(p), self._robot._links)

    def getPositionJacobian(self, p):
        """The Jacobian of the world position of a point on the link with respect
        to the sub-robot's configuration.

        Args:
            p (list of 3 floats): the point in the link's local frame (m).

        Returns:
            ndarray: 3 x numLinks().
        """
        return _select_columns(self._link.getPositionJacobian(p), self._robot._links)

    def getOrientationJacobian(self):
        """The Jacobian of the link's world-frame angular velocity with respect
        to the sub-robot's configuration.

        Returns:
            ndarray: 3 x numLinks().
        """
        return _select_columns(self._link.getOrientationJacobian(), self._robot._links)


class SubRobotModelDriver(object):
    """A driver of a SubRobotModel; affected links are sub-robot indices."""

    def __init__(self, driver, robot):
        self._driver = driver
        self._robot = robot
        drivers = robot._computeDrivers()
        self.index = drivers.index(driver.index) if driver.index in drivers else -1

    def __getattr__(self, name):
        return getattr(self._driver, name)

    def robot(self):
        """The SubRobotModel this driver belongs to."""
        return self._robot

    def getAffectedLink(self):
        """The sub-robot index of the link the driver drives (-1 if that link is
        not in the sub-robot)."""
        return self._robot._inv_links.get(self._driver.getAffectedLink(), -1)

    def getAffectedLinks(self):
        """The sub-robot indices of the links the driver affects (-1 for a link
        not in the sub-robot)."""
        return [self._robot._inv_links.get(l, -1) for l in self._driver.getAffectedLinks()]
