"""Robot Interface Layer interfaces to simulated robots, for testing control
code without hardware.

The ``Sim*ControlInterface`` classes adapt a :class:`SimRobotController`,
each exposing one control mode the way a real motor controller would (wrap
them in a :class:`~.robotinterfaceutils.RobotInterfaceCompleter` for the
rest).  Given the :class:`Simulator`, ``endStep()`` advances it by one
control period; otherwise the caller steps it.
:class:`KinematicSimControlInterface` has no physics: it sets the model's
configuration.  :func:`make` is the ``controllerFile`` entry point of
robot-info files (``"klampt.control.simrobotinterface"``).
"""
import logging
import time

from . import _checks
from .robotinterface import RobotInterfaceBase
from .robotinterfaceutils import OmniRobotInterface, RobotInterfaceCompleter
from ..robotsim import RobotModel, SimRobotController, Simulator
from ..model import robotinfo  # noqa: F401  (Klamp't's module has both names)
from ..model.robotinfo import RobotInfo  # noqa: F401


def _sensor_names(sensor_of):
    """Sensor names by index until the first null sensor."""
    names = []
    index = 0
    while True:
        name = sensor_of(index).name()
        if not name:
            return names
        names.append(name)
        index += 1


def _info_parts(interface, robotInfo):
    res = {None: list(range(interface.numJoints()))}
    if robotInfo is not None:
        for k in robotInfo.parts:
            res[k] = robotInfo.partDriverIndices(k)
    return res



def _set_model_file(properties, robotInfo):
    """properties['klamptModelFile'] from a RobotInfo's modelFile, resolved
    (a robot-info file names its model relative to itself, not to the
    working directory)."""
    if robotInfo is None or robotInfo.modelFile is None:
        return
    import os
    path = robotInfo._resolve(robotInfo.modelFile)
    properties['klamptModelFile'] = os.path.abspath(path) if path is not None else robotInfo.modelFile

class _SimBase(RobotInterfaceBase):
    """What the simulated interfaces share: the model (robot), parts from a
    RobotInfo, sensors (sensor_of: index or name -> sensor), closing once."""

    def __init__(self, robot, sensor_of, robotInfo, status):
        RobotInterfaceBase.__init__(self, name=self.__class__.__name__, simulated=True)
        self.robot = robot
        self.robotInfo = robotInfo
        self._sensorOf = sensor_of
        _set_model_file(self.properties, robotInfo)
        self._status = status
        self._closed = False

    def klamptModel(self):
        return self.robot

    def _requireOpen(self, method):
        if self._closed:
            raise RuntimeError("%s.%s(): the interface was closed" % (self, method))

    def _checkInitialize(self):
        if self._closed:
            raise RuntimeError("%s was closed" % self)

    def close(self):
        if self._closed:
            raise RuntimeError("%s.close() called twice" % self)
        self._closed = True
        return True

    def parts(self):
        if self._partsCache is None:
            self._partsCache = _info_parts(self, self.robotInfo)
        return self._partsCache

    def status(self, joint_idx=None):
        return self._status

    def sensors(self):
        return _sensor_names(self._sensorOf)

    def enabledSensors(self):
        return self.sensors()

    def _sensor(self, name):
        """The sensor named name; KeyError if there is none."""
        sensor = self._sensorOf(name)
        if sensor.type() == '':
            raise KeyError("%s has no sensor %r (sensors: %s)" % (self, name, ', '.join(self.sensors())))
        return sensor


class _SimControlInterface(_SimBase):
    """The shared part of the interfaces to a SimRobotController: clock,
    stepping, status."""

    def __init__(self, sim_controller, simulator=None, robotInfo=None):
        if not isinstance(sim_controller, SimRobotController):
            raise ValueError("%s needs a SimRobotController, got %r" % (self.__class__.__name__, sim_controller))
        if simulator is not None and not isinstance(simulator, Simulator):
            raise ValueError("simulator must be a klampt.Simulator")
        _SimBase.__init__(self, sim_controller.model(), sim_controller.sensor, robotInfo, 'disconnected')
        self.sim_controller = sim_controller
        self.simulator = simulator
        self._stepStart = None
        self._warnedSlow = False

    def _command(self, method):
        """Raises RuntimeError for a command before initialize() or after
        close()."""
        self._requireOpen(method)
        if self._status == 'disconnected':
            raise RuntimeError("%s.%s(): call initialize() first" % (self, method))

    def initialize(self):
        self._checkInitialize()
        self._status = 'ok'
        return True

    def close(self):
        _SimBase.close(self)
        self._status = 'disconnected'
        return True

    def controlRate(self):
        return 1.0 / self.sim_controller.getRate()

    def clock(self):
        if self.simulator is None:
            raise self._nie('clock')
        return self.simulator.getTime()

    def _advancesOwnSimulation(self):
        return self.simulator is not None

    def hasSensor(self, sensor):
        return self.sim_controller.sensor(sensor).type() != ''

    def enableSensor(self, sensor, enabled=True):
        if not enabled:
            raise NotImplementedError("A simulated sensor cannot be disabled")
        return True

    def sensorMeasurements(self, name):
        return [float(v) for v in self._sensor(name).getMeasurements()]

    def beginStep(self):
        if self._stepStart is not None:
            raise RuntimeError("%s.beginStep() called twice without endStep()" % self)
        self._stepStart = time.monotonic()

    def endStep(self):
        if self._stepStart is None:
            raise RuntimeError("%s.endStep() called without beginStep()" % self)
        rate = self.sim_controller.getRate()
        if self._stepStart is not None and time.monotonic() - self._stepStart > 5 * rate and not self._warnedSlow:
            logging.getLogger(__name__).warning("%s: a control step took more than 5 control periods of wall time "
                                                "(reported once)", self)
            self._warnedSlow = True
        self._stepStart = None
        if self.simulator is not None:
            self.simulator.simulate(rate)
            if self.simulator.getStatus() >= Simulator.STATUS_UNSTABLE:
                self._status = self.simulator.getStatusString()

    def reset(self):
        if self._status == 'disconnected':
            return False
        return self._status == 'ok'

    def sensedPosition(self):
        return self.configFromKlampt(self.sim_controller.getSensedConfig())

    def commandedPosition(self):
        return self.configFromKlampt(self.sim_controller.getCommandedConfig())


class SimPositionControlInterface(_SimControlInterface):
    """A simulated robot accepting only position commands (setPosition:
    a PID set-point with zero velocity); senses positions."""

    def setPosition(self, q):
        self._command('setPosition')
        q = _checks.vector(q, self.robot.numDrivers(), 'setPosition', 'q')
        self.sim_controller.setPIDCommand(q, [0.0] * len(q))


class SimVelocityControlInterface(_SimControlInterface):
    """A simulated robot accepting only velocity commands (for ttl seconds,
    1 s by default); senses positions."""

    def setVelocity(self, v, ttl=None):
        self._command('setVelocity')
        v = _checks.vector(v, self.robot.numDrivers(), 'setVelocity', 'v')
        ttl = _checks.optional_duration(ttl, 'setVelocity')
        self.sim_controller.setVelocity(self.velocityToKlampt(v), 1.0 if ttl is None else max(ttl, 1e-9))


class SimMoveToControlInterface(_SimControlInterface):
    """A simulated robot accepting only move-to commands (the simulator's
    time-optimal milestones); senses positions."""

    def moveToPosition(self, q, speed=1.0):
        self._command('moveToPosition')
        q = _checks.vector(q, self.robot.numDrivers(), 'moveToPosition', 'q')
        if _checks.speed(speed, 'moveToPosition') != 1.0:
            raise NotImplementedError("SimMoveToControlInterface.moveToPosition only moves at speed 1")
        self.sim_controller.setMilestone(self.configToKlampt(q))

    def isMoving(self, joint_idx=None):
        return self.sim_controller.remainingTime() > 0


class SimFullControlInterface(_SimControlInterface):
    """A simulated robot with every joint control mode: position, velocity
    (ttl 0.1 s by default), torque (with ttl), PID and its gains,
    relative piecewise linear and cubic trajectories, move-to; senses
    positions, velocities and (with a torque sensor) torques."""

    def __init__(self, sim_controller, simulator=None, robotInfo=None):
        _SimControlInterface.__init__(self, sim_controller, simulator, robotInfo)
        self._torqueExpiry = None

    def _n(self):
        return self.robot.numDrivers()

    def setPosition(self, q):
        self._command('setPosition')
        q = _checks.vector(q, self._n(), 'setPosition', 'q')
        self._torqueExpiry = None
        self.sim_controller.setPIDCommand(q, [0.0] * len(q))

    def setVelocity(self, v, ttl=None):
        self._command('setVelocity')
        v = _checks.vector(v, self._n(), 'setVelocity', 'v')
        ttl = _checks.optional_duration(ttl, 'setVelocity')
        self._torqueExpiry = None
        self.sim_controller.setVelocity(self.velocityToKlampt(v), 0.1 if ttl is None else max(ttl, 1e-9))

    def setTorque(self, t, ttl=None):
        """Torques for ttl seconds (for ever if None), then zero torque."""
        self._command('setTorque')
        t = _checks.vector(t, self._n(), 'setTorque', 't')
        ttl = _checks.optional_duration(ttl, 'setTorque')
        self.sim_controller.setTorque(t)
        self._torqueExpiry = None
        if ttl is not None:
            if self.simulator is None:
                raise NotImplementedError("setTorque with a ttl needs the Simulator to know the time")
            self._torqueExpiry = self.simulator.getTime() + ttl

    def endStep(self):
        if self._torqueExpiry is not None and self.simulator is not None \
                and self.simulator.getTime() >= self._torqueExpiry - 1e-9:
            self.sim_controller.setTorque([0.0] * self._n())
            self._torqueExpiry = None
        _SimControlInterface.endStep(self)

    def setPID(self, q, dq, t=None):
        self._command('setPID')
        n = self._n()
        q = _checks.vector(q, n, 'setPID', 'q')
        dq = _checks.vector(dq, n, 'setPID', 'dq')
        self._torqueExpiry = None
        if t is None:
            self.sim_controller.setPIDCommand(q, dq)
        else:
            self.sim_controller.setPIDCommand(q, dq, _checks.vector(t, n, 'setPID', 't'))

    def setPIDGains(self, kP, kI, kD):
        self._command('setPIDGains')
        n = self._n()
        self.sim_controller.setPIDGains(_checks.vector_or_scalar(kP, n, 'setPIDGains', 'kP'),
                                        _checks.vector_or_scalar(kI, n, 'setPIDGains', 'kI'),
                                        _checks.vector_or_scalar(kD, n, 'setPIDGains', 'kD'))

    def getPIDGains(self):
        return tuple(_checks.as_list(g) for g in self.sim_controller.getPIDGains())

    def _trajectory(self, method, ts, qs, vs, relative):
        self._command(method)
        if not relative:
            raise NotImplementedError("%s.%s only takes relative times" % (self.__class__.__name__, method))
        n = self._n()
        if len(ts) != len(qs) or (vs is not None and len(vs) != len(ts)):
            raise ValueError("%s: ts, qs (and vs) must have the same length" % method)
        if len(ts) == 0:
            return
        if ts[0] < 0 or any(b < a for a, b in zip(ts, ts[1:])):
            raise ValueError("%s: times must be nonnegative and nondecreasing" % method)
        self._torqueExpiry = None
        tlast = 0.0
        for k, t in enumerate(ts):
            q = self.configToKlampt(_checks.vector(qs[k], n, method, 'qs[%d]' % k))
            if vs is None:
                (self.sim_controller.setLinear if k == 0 else self.sim_controller.addLinear)(q, t - tlast)
            else:
                v = self.velocityToKlampt(_checks.vector(vs[k], n, method, 'vs[%d]' % k))
                (self.sim_controller.setCubic if k == 0 else self.sim_controller.addCubic)(q, v, t - tlast)
            tlast = t

    def setPiecewiseLinear(self, ts, qs, relative=True):
        self._trajectory('setPiecewiseLinear', ts, qs, None, relative)

    def setPiecewiseCubic(self, ts, qs, vs, relative=True):
        self._trajectory('setPiecewiseCubic', ts, qs, vs, relative)

    def moveToPosition(self, q, speed=1.0):
        self._command('moveToPosition')
        q = _checks.vector(q, self._n(), 'moveToPosition', 'q')
        if _checks.speed(speed, 'moveToPosition') != 1.0:
            raise NotImplementedError("SimFullControlInterface.moveToPosition only moves at speed 1")
        self._torqueExpiry = None
        self.sim_controller.setMilestone(self.configToKlampt(q))

    def isMoving(self, joint_idx=None):
        return self.sim_controller.remainingTime() > 0

    def sensedVelocity(self):
        return self.velocityFromKlampt(self.sim_controller.getSensedVelocity())

    def sensedTorque(self):
        try:
            return _checks.as_list(self.sim_controller.getSensedTorque())
        except RuntimeError as e:
            raise NotImplementedError("SimFullControlInterface.sensedTorque: %s" % e)

    def commandedVelocity(self):
        return self.velocityFromKlampt(self.sim_controller.getCommandedVelocity())

    def commandedTorque(self):
        """The commanded torque (getCommandedTorque()); the reference returns the
        commanded velocity."""
        return _checks.as_list(self.sim_controller.getCommandedTorque())


class KinematicSimControlInterface(_SimBase):
    """A robot without physics: setPosition sets the model's configuration,
    after checking the driver limits and self-collision.  A violation
    leaves the configuration unchanged and sets the status to
    ``'joint i limit violation: qmin <= q <= qmax'`` or ``'self
    collision'``; commands are then ignored until :meth:`reset`.

    Args:
        robot (RobotModel): the model (its configuration is the state).
        robotInfo (RobotInfo, optional): gives parts and the model file.
        rate (float): the control rate, Hz.
    """

    def __init__(self, robot, robotInfo=None, rate=200.0):
        if not isinstance(robot, RobotModel):
            raise ValueError("KinematicSimControlInterface needs a RobotModel, got %r" % (robot,))
        if not rate > 0:
            raise ValueError("rate must be > 0")
        _SimBase.__init__(self, robot, robot.sensor, robotInfo, 'ok')
        self.rate = float(rate)
        self.q = self.configFromKlampt(robot.getConfig())
        self.qmin, self.qmax = self._driverLimits()

    def _advancesOwnSimulation(self):
        # no physics and no wall clock: each step is one control period
        return True

    def _driverLimits(self):
        robot = self.robot
        q0 = robot.getConfig()
        qmin, qmax = [list(v) for v in robot.getJointLimits()]
        for i in range(robot.numDrivers()):
            d = robot.driver(i)
            if d.getType() == 'affine':
                scale, _ = d.getAffineCoeffs()
                for l, s in zip(d.getAffectedLinks(), scale):
                    if s < 0:
                        qmin[l], qmax[l] = qmax[l], qmin[l]
        lo, hi = self.configFromKlampt(qmin), self.configFromKlampt(qmax)
        robot.setConfig(q0)
        return [min(a, b) for a, b in zip(lo, hi)], [max(a, b) for a, b in zip(lo, hi)]

    def initialize(self):
        self._checkInitialize()
        self.robot.selfCollides()  # builds the collision structures before the control loop
        return True

    def controlRate(self):
        return self.rate

    def sensorMeasurements(self, name):
        sensor = self._sensor(name)
        self.robot.setConfig(self.configToKlampt(self.q))
        return [float(v) for v in sensor.getMeasurements()]

    def setPosition(self, q):
        self._requireOpen('setPosition')
        q = _checks.vector(q, len(self.q), 'setPosition', 'q')
        if self._status != 'ok':
            return
        for i, (v, a, b) in enumerate(zip(q, self.qmin, self.qmax)):
            if v < a or v > b:
                self._status = 'joint %d limit violation: %f <= %f <= %f' % (i, a, v, b)
                return
        self.robot.setConfig(self.configToKlampt(q))
        if self.robot.selfCollides():
            self._status = 'self collision'
            self.robot.setConfig(self.configToKlampt(self.q))
            return
        self.q = q

    def reset(self):
        self._status = 'ok'
        return True

    def sensedPosition(self):
        return list(self.q)

    def commandedPosition(self):
        return list(self.q)


def make(robotModel: RobotModel):
    """The default interface of a robot model: a
    :class:`KinematicSimControlInterface` completed by a Completer, or, when
    the robot's registered RobotInfo has parts, an OmniRobotInterface with
    the physical part 'robot' and one virtual part per info part."""
    try:
        ri = robotinfo.RobotInfo.get(robotModel.getName())
    except KeyError:
        ri = None
    if ri is not None and ri.parts:
        res = OmniRobotInterface(robotModel)
        base = KinematicSimControlInterface(robotModel)
        res.addPhysicalPart('robot', base, base.indices())
        for name, links in ri.parts.items():
            driver_indices = ri.toDriverIndices(links)
            logging.getLogger(__name__).debug('adding virtual part "%s", drivers %s', name, driver_indices)
            res.addVirtualPart(name, driver_indices)
        return res
    return RobotInterfaceCompleter(KinematicSimControlInterface(robotModel, ri))
