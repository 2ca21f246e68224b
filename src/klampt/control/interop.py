"""Bridges between the Robot Interface Layer and other controller APIs:
:class:`SimRobotControllerToInterface` (a SimRobotController-like facade of
an interface), :class:`RobotControllerBlockToInterface` (runs a
RobotControllerBlock on an interface) and :class:`RobotInterfacetoVis`
(draws an interface's state with klampt.vis, imported only when used).
"""
import logging

from .blocks.robotcontroller import RobotControllerBlock
from .robotinterface import RobotInterfaceBase
from .robotinterfaceutils import RobotInterfaceCompleter


def _complete(iface, base_initialized=False):
    if iface.properties.get('complete', False):
        return iface
    return RobotInterfaceCompleter(iface, base_initialized=base_initialized)


class SimRobotControllerToInterface(object):
    """A :class:`SimRobotController`-like API over a robot interface, so
    simulation control code runs on any robot.  Configurations are in link
    space, as for a SimRobotController.  Not available (raise): setRate,
    getSetting/setSetting, setMilestone with a velocity, the add* queue
    methods.

    Args:
        robotInterface (RobotInterfaceBase): completed if needed.
    """

    def __init__(self, robotInterface: RobotInterfaceBase) -> None:
        self.robotInterface = _complete(robotInterface)

    def initialize(self):
        """Initializes the interface."""
        return self.robotInterface.initialize()

    def beginStep(self):
        """Begins a control step of the robot interface."""
        self.robotInterface.beginStep()

    def endStep(self):
        """Ends the control step, sending the commands of the step."""
        self.robotInterface.endStep()

    def model(self):
        """The interface's RobotModel."""
        return self.robotInterface.klamptModel()

    def setRate(self, dt):
        """Not available: raises NotImplementedError (the robot sets its own rate)."""
        raise NotImplementedError("setRate() is not available: the robot's rate is fixed")

    def getRate(self):
        """The control period, in s."""
        return 1.0 / self.robotInterface.controlRate()

    def getCommandedConfig(self):
        """The commanded configuration, in link space (rad or m)."""
        return self.robotInterface.configToKlampt(self.robotInterface.commandedPosition())

    def getCommandedVelocity(self):
        """The commanded velocity, in link space (rad/s or m/s)."""
        return self.robotInterface.velocityToKlampt(self.robotInterface.commandedVelocity())

    def getCommandedTorque(self):
        """The commanded driver torques (N m or N)."""
        return self.robotInterface.commandedTorque()

    def getSensedConfig(self):
        """The sensed configuration, in link space (rad or m)."""
        return self.robotInterface.configToKlampt(self.robotInterface.sensedPosition())

    def getSensedVelocity(self):
        """The sensed velocity, in link space (rad/s or m/s)."""
        return self.robotInterface.velocityToKlampt(self.robotInterface.sensedVelocity())

    def getSensedTorque(self):
        """The sensed driver torques (N m or N)."""
        return self.robotInterface.sensedTorque()

    def sensor(self, index_or_name):
        """A sensor of the interface (a null sensor, with empty name and
        type, when unknown)."""
        iface = self.robotInterface
        if isinstance(index_or_name, int):
            names = iface.sensors()
            if not 0 <= index_or_name < len(names):
                return _SensorModelFromInterface(iface, None)
            return _SensorModelFromInterface(iface, names[index_or_name])
        name = index_or_name
        if name not in iface.enabledSensors():
            if not iface.hasSensor(name):
                return _SensorModelFromInterface(iface, None)
            iface.enableSensor(name)
        return _SensorModelFromInterface(iface, name)

    def commands(self):
        """The commands sendCommand accepts: 'estop', 'softStop', 'reset'."""
        return ['estop', 'softStop', 'reset']

    def sendCommand(self, name, args):
        """Sends one of commands() to the interface; an unknown name raises ValueError."""
        if name not in self.commands():
            raise ValueError("Unknown command %r" % (name,))
        getattr(self.robotInterface, name)()

    def getSetting(self, name):
        """Not available: raises NotImplementedError."""
        raise NotImplementedError("Controller settings are not available through a robot interface")

    def setSetting(self, name, val):
        """Not available: raises NotImplementedError."""
        raise NotImplementedError("Controller settings are not available through a robot interface")

    def setMilestone(self, q, dq=None):
        """Moves to configuration q (link space); a final velocity dq is not available (raises)."""
        if dq is not None:
            raise NotImplementedError("setMilestone(q, dq) with a final velocity is not available")
        self.robotInterface.moveToPosition(self.robotInterface.configFromKlampt(q))

    def addMilestone(self, q, dq=None):
        """Not available: raises NotImplementedError (no motion queue)."""
        raise NotImplementedError("addMilestone() is not available")

    def addMilestoneLinear(self, q):
        """Not available: raises NotImplementedError (no motion queue)."""
        raise NotImplementedError("addMilestoneLinear() is not available")

    def setLinear(self, q, dt):
        """Moves linearly to configuration q (link space) over dt seconds."""
        self.robotInterface.setPiecewiseLinear([dt], [self.robotInterface.configFromKlampt(q)])

    def setCubic(self, q, v, dt):
        """Moves along a cubic to configuration q with velocity v (link space) over dt seconds."""
        self.robotInterface.setPiecewiseCubic([dt], [self.robotInterface.configFromKlampt(q)],
                                              [self.robotInterface.velocityFromKlampt(v)])

    def addLinear(self, q, dt):
        """Not available: raises NotImplementedError (no motion queue)."""
        raise NotImplementedError("addLinear() is not available")

    def addCubic(self, q, v, dt):
        """Not available: raises NotImplementedError (no motion queue)."""
        raise NotImplementedError("addCubic() is not available")

    def remainingTime(self):
        """Seconds until the motion queue ends (0 when done).

        A duration, max(0, destinationTime() - clock()); the reference returns
        the end's clock time."""
        return max(0.0, self.robotInterface.destinationTime() - self.robotInterface.clock())

    def setVelocity(self, dq, dt):
        """Commands velocity dq (link space) for dt seconds."""
        self.robotInterface.setVelocity(self.robotInterface.velocityFromKlampt(dq), dt)

    def setTorque(self, t):
        """Commands driver torques t (N m or N)."""
        self.robotInterface.setTorque(t)

    def setPIDCommand(self, qdes, dqdes, tfeedforward=None):
        """Commands position qdes and velocity dqdes (link space), plus optional feedforward torques, to the PID controllers."""
        self.robotInterface.setPID(self.robotInterface.configFromKlampt(qdes),
                                   self.robotInterface.velocityFromKlampt(dqdes), tfeedforward)

    def setManualMode(self, enabled):
        """Has no effect: the interface is always commanded directly."""
        pass

    def getControlType(self):
        """Always 'unknown': a robot interface does not report a SimRobotController control type."""
        return 'unknown'

    def setPIDGains(self, kP, kI, kD):
        """Sets the PID gains kP, kI, kD (one per driver)."""
        self.robotInterface.setPIDGains(kP, kI, kD)

    def getPIDGains(self):
        """(None, None, None): the interface does not report its PID gains."""
        return None, None, None


class _SensorModelFromInterface(object):
    """A SimRobotSensor-like view of an interface's sensor."""

    def __init__(self, iface, name):
        self.iface = iface
        self._name = name

    def name(self):
        return '' if self._name is None else self._name

    def type(self):
        return '' if self._name is None else 'UnknownSensor'

    def robot(self):
        return self.iface.klamptModel()

    def measurementNames(self):
        if self._name is None:
            return []
        return self.robot().sensor(self._name).measurementNames()

    def getMeasurements(self):
        if self._name is None:
            return []
        return self.iface.sensorMeasurements(self._name)

    def getSetting(self, name):
        return self.robot().sensor(self._name).getSetting(name)

    def setSetting(self, name, val):
        raise NotImplementedError("Sensor settings are not available through a robot interface")


class RobotControllerBlockToInterface(object):
    """Runs a :class:`RobotControllerBlock` on a robot interface: each
    :meth:`advance` feeds it the clock, time step, sensed state (link space)
    and enabled sensors, and sends its output (qcmd/dqcmd/torquecmd as PID
    or position, dqcmd+tcmd as velocity, torquecmd as torque).  A partial
    interface is completed (and initialized).

    Args:
        controller (RobotControllerBlock): the controller.
        robotInterface (RobotInterfaceBase): the robot.
        controllerRateRatio (float): must be 1.
    """

    def __init__(self, controller: RobotControllerBlock, robotInterface: RobotInterfaceBase, controllerRateRatio=1):
        if not isinstance(robotInterface, RobotInterfaceBase):
            raise ValueError("robotInterface must be a RobotInterfaceBase")
        if not isinstance(controller, RobotControllerBlock):
            raise ValueError("controller must be a RobotControllerBlock")
        if controllerRateRatio != 1:
            raise NotImplementedError("Controller / interface rate ratios other than 1 are not supported")
        if not robotInterface.properties.get('complete', False):
            robotInterface = RobotInterfaceCompleter(robotInterface, base_initialized=True)
            if not robotInterface.initialize():
                raise RuntimeError("Could not initialize %s" % robotInterface)
        self.robotInterface = robotInterface
        self.controller = controller
        self.controllerRateRatio = controllerRateRatio
        self.lastInputs = None
        self.lastOutputs = None

    def advance(self, step_interface=False):
        """Runs the controller one step.  With step_interface, the
        interface's beginStep()/endStep() are called around it; otherwise
        call advance() inside the caller's step.

        Uses beginStep() (the reference calls the deprecated startStep())."""
        iface = self.robotInterface
        if step_interface:
            iface.beginStep()
        try:
            inputs = dict()
            inputs['t'] = iface.clock()
            inputs['dt'] = 1.0 / iface.controlRate()
            inputs['q'] = iface.configToKlampt(iface.sensedPosition())
            inputs['dq'] = iface.velocityToKlampt(iface.sensedVelocity())
            try:
                inputs['torque'] = iface.velocityToKlampt(iface.sensedTorque())
            except NotImplementedError:
                pass
            try:
                inputs['qcmd'] = iface.configToKlampt(iface.commandedPosition())
                inputs['dqcmd'] = iface.velocityToKlampt(iface.commandedVelocity())
            except NotImplementedError:
                pass
            try:
                sensors = iface.enabledSensors()
            except NotImplementedError:
                sensors = []
            for s in sensors:
                try:
                    inputs[s] = iface.sensorMeasurements(s)
                except Exception as e:
                    logging.getLogger(__name__).warning("Can't read sensor %s of %s: %s", s, iface, e)
            res = self.controller.advance(**inputs) or {}
            if 'qcmd' in res:
                qcmd = iface.configFromKlampt(res['qcmd'])
                if 'dqcmd' in res:
                    dqcmd = iface.velocityFromKlampt(res['dqcmd'])
                    if 'torquecmd' in res:
                        iface.setPID(qcmd, dqcmd, iface.velocityFromKlampt(res['torquecmd']))
                    else:
                        iface.setPID(qcmd, dqcmd)
                else:
                    iface.setPosition(qcmd)
            elif 'dqcmd' in res:
                if 'tcmd' not in res:
                    raise ValueError("A velocity command (dqcmd) needs a duration (tcmd)")
                iface.setVelocity(iface.velocityFromKlampt(res['dqcmd']), res['tcmd'])
            elif 'torquecmd' in res:
                iface.setTorque(iface.velocityFromKlampt(res['torquecmd']))
        finally:
            if step_interface:
                iface.endStep()
        self.lastInputs = inputs
        self.lastOutputs = res


class RobotInterfacetoVis(object):
    """Shows an interface's state in klampt.vis: clock, status, motion
    text, and ghosts of the sensed, commanded and destination
    configurations.  klampt.vis is imported by :meth:`update` only; call it
    inside a step, with vis set up for the world.

    Attributes:
        text_x, text_y (int): where the text goes.
        tag (str): prefix of the vis item names.
    """

    def __init__(self, robotInterface: RobotInterfaceBase, visRobotIndex=0):
        self.interface = robotInterface
        self.visRobotIndex = visRobotIndex
        self.text_x = 10
        self.text_y = 10
        self.tag = '_' + str(visRobotIndex) + '_'

    def update(self):
        """Updates the vis items (RuntimeError if klampt.vis is missing)."""
        try:
            from klampt import vis  # here: klampt.vis (OpenGL) is optional and heavy to import
        except ImportError as e:
            raise RuntimeError("RobotInterfacetoVis needs klampt.vis, which is not available: %s" % e)
        iface = self.interface
        t = 0.0
        try:
            t = iface.clock()
            vis.addText(self.tag + "clock", '%.3f' % t, (self.text_x, self.text_y))
        except NotImplementedError:
            vis.addText(self.tag + "clock", str(iface) + " provides no clock", (self.text_x, self.text_y))
        status = iface.status()
        if status != 'ok':
            vis.addText(self.tag + "status", 'Status: ' + str(status), (self.text_x, self.text_y + 15),
                        color=(1, 0, 0))
        else:
            self._remove(vis, "status")
        moving, end = False, 0.0
        try:
            moving = iface.isMoving()
            if moving:
                end = iface.destinationTime()
                text = "Moving, %.3fs left" % (end - t) if end > t else "Moving"
                vis.addText(self.tag + "moving", text, (self.text_x, self.text_y + 30))
            else:
                self._remove(vis, "moving")
        except NotImplementedError:
            pass
        qsns = None
        try:
            qsns = iface.configToKlampt(iface.sensedPosition())
            vis.add(self.tag + "q_sns", qsns, robot=self.visRobotIndex, color=(0, 1, 0, 0.5))
        except NotImplementedError:
            pass
        try:
            qcmd = iface.configToKlampt(iface.commandedPosition())
            if qcmd != qsns:
                vis.add(self.tag + "q_cmd", qcmd, robot=self.visRobotIndex, color=(1, 1, 0, 0.5))
        except NotImplementedError:
            pass
        try:
            if moving and end > t:
                vis.add(self.tag + "q_dest", iface.configToKlampt(iface.destinationPosition()),
                        robot=self.visRobotIndex, color=(1, 0, 0, 0.5))
            else:
                self._remove(vis, "q_dest")
        except NotImplementedError:
            pass

    def _remove(self, vis, name):
        try:
            vis.remove(self.tag + name)
        except Exception:
            pass
