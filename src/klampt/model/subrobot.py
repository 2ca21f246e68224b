"""A view of a subset of a robot's links with the RobotModel API:
configurations, limits, Jacobians and dynamics terms are re-indexed to the
chosen links (:class:`SubRobotModel`), as are links
(:class:`SubRobotModelLink`) and drivers (:class:`SubRobotModelDriver`).

Values the full robot returns as numpy arrays are returned as numpy arrays
here; lists stay lists.
"""
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
        from .trajectory import Trajectory, HermiteTrajectory
        if isinstance(obj, Trajectory):
            if isinstance(obj, HermiteTrajectory):
                milestones = []
                for m in obj.milestones:
                    half = len(m) // 2
                    milestones.append(self.tofull(m[:half], reference) + self.tofull(m[half:], 0.0))
                return HermiteTrajectory(obj.times, milestones)
            return obj.constructor()(obj.times, self.tofull(obj.milestones, reference))
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
        from .trajectory import Trajectory, HermiteTrajectory
        if isinstance(object, Trajectory):
            if isinstance(object, HermiteTrajectory):
                milestones = []
                for m in object.milestones:
                    half = len(m) // 2
                    milestones.append(self.fromfull(m[:half]) + self.fromfull(m[half:]))
                return HermiteTrajectory(object.times, milestones)
            return object.constructor()(object.times, [self.fromfull(m) for m in object.milestones])
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
        return self._robot.getName()

    def numLinks(self) -> int:
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
        return len(self._computeDrivers())

    def driver(self, index) -> 'SubRobotModelDriver':
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
        return _select(self._robot.getConfig(), self._links)

    def getVelocity(self) -> Sequence[float]:
        return _select(self._robot.getVelocity(), self._links)

    def setConfig(self, q: Sequence[float]) -> None:
        self._robot.setConfig(self.tofull(list(q)))

    def setVelocity(self, q: Sequence[float]) -> None:
        self._robot.setVelocity(self.tofull(list(q), self._robot.getVelocity()))

    def getJointLimits(self) -> Tuple[Sequence[float], Sequence[float]]:
        qmin, qmax = self._robot.getJointLimits()
        return _select(qmin, self._links), _select(qmax, self._links)

    def setJointLimits(self, qmin: Sequence[float], qmax: Sequence[float]) -> None:
        fmin, fmax = self._robot.getJointLimits()
        self._robot.setJointLimits(self.tofull(list(qmin), fmin), self.tofull(list(qmax), fmax))

    def getVelocityLimits(self) -> Sequence[float]:
        return _select(self._robot.getVelocityLimits(), self._links)

    def setVelocityLimits(self, vmax: Sequence[float]) -> None:
        self._robot.setVelocityLimits(self.tofull(list(vmax), self._robot.getVelocityLimits()))

    def getAccelerationLimits(self) -> Sequence[float]:
        return _select(self._robot.getAccelerationLimits(), self._links)

    def setAccelerationLimits(self, amax: Sequence[float]) -> None:
        self._robot.setAccelerationLimits(self.tofull(list(amax), self._robot.getAccelerationLimits()))

    def getTorqueLimits(self) -> Sequence[float]:
        return _select(self._robot.getTorqueLimits(), self._links)

    def setTorqueLimits(self, tmax: Sequence[float]) -> None:
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
        self._robot.setDOFPosition(self._full_index(index), qi)

    def getDOFPosition(self, index: Union[int, str]) -> float:
        return self._robot.getDOFPosition(self._full_index(index))

    # ------------------------------------------------------------ kinematics and dynamics
    def getCom(self):
        """The center of mass of the whole robot."""
        return self._robot.getCom()

    def getComJacobian(self):
        """The whole robot's COM Jacobian, columns of the sub-robot's links."""
        return _select_columns(self._robot.getComJacobian(), self._links)

    def getLinearMomentum(self) -> Sequence[float]:
        return self._robot.getLinearMomentum()

    def getAngularMomentum(self) -> Sequence[float]:
        return self._robot.getAngularMomentum()

    def getKineticEnergy(self) -> float:
        return self._robot.getKineticEnergy()

    def getTotalInertia(self):
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
        return self._submatrix(self._robot.getCoriolisForceMatrix())

    def getCoriolisForces(self):
        return _select(self._robot.getCoriolisForces(), self._links)

    def getGravityForces(self, g):
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
        ref = self._robot.getConfig()
        return self.fromfull(list(self._robot.interpolate(self.tofull(list(a), ref), self.tofull(list(b), ref), u)))

    def distance(self, a: Sequence[float], b: Sequence[float]) -> float:
        ref = self._robot.getConfig()
        return self._robot.distance(self.tofull(list(a), ref), self.tofull(list(b), ref))

    def interpolateDeriv(self, a: Sequence[float], b: Sequence[float]) -> Sequence[float]:
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
        full = self._robot.configToDrivers(self.tofull(list(q)))
        return [full[d] for d in self._computeDrivers()]

    def velocityToDrivers(self, dq: Sequence[float]) -> Sequence[float]:
        full = self._robot.velocityToDrivers(self.tofull(list(dq), 0.0))
        return [full[d] for d in self._computeDrivers()]

    def configFromDrivers(self, driverValues: Sequence[float]) -> Sequence[float]:
        drivers = self._computeDrivers()
        if len(driverValues) != len(drivers):
            raise ValueError("Expected %d driver values, got %d" % (len(drivers), len(driverValues)))
        full = list(self._robot.configToDrivers(self._robot.getConfig()))
        for d, v in zip(drivers, driverValues):
            full[d] = v
        return self.fromfull(list(self._robot.configFromDrivers(full)))

    def velocityFromDrivers(self, driverVelocities: Sequence[float]) -> Sequence[float]:
        drivers = self._computeDrivers()
        if len(driverVelocities) != len(drivers):
            raise ValueError("Expected %d driver velocities, got %d" % (len(drivers), len(driverVelocities)))
        full = [0.0] * self._robot.numDrivers()
        for d, v in zip(drivers, driverVelocities):
            full[d] = v
        return self.fromfull(list(self._robot.velocityFromDrivers(full)))

    def selfCollisionEnabled(self, link1, link2):
        return self._robot.selfCollisionEnabled(self._full_index(link1), self._full_index(link2))

    def enableSelfCollision(self, link1, link2, value=True):
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
        for l in self._links:
            self._robot.link(l).drawGL(keepAppearance)

    def reduce(self):
        raise ValueError("Can't reduce a sub-robot")

    def mount(self, link, subRobot, R, t):
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
        return self._robot

    def getIndex(self):
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
        if isinstance(p, SubRobotModelLink):
            p = p._link.index
        elif p >= 0:
            p = self._robot._links[p]
        self._link.setParent(p)

    def getJacobian(self, p):
        return _select_columns(self._link.getJacobian(p), self._robot._links)

    def getPositionJacobian(self, p):
        return _select_columns(self._link.getPositionJacobian(p), self._robot._links)

    def getOrientationJacobian(self):
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
        return self._robot

    def getAffectedLink(self):
        return self._robot._inv_links.get(self._driver.getAffectedLink(), -1)

    def getAffectedLinks(self):
        return [self._robot._inv_links.get(l, -1) for l in self._driver.getAffectedLinks()]
