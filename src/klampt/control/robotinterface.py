"""The Robot Interface Layer (RIL): :class:`RobotInterfaceBase`, the one API
through which scripts drive a robot, simulated or real.

A subclass implements what its motor controller can do and raises
``NotImplementedError`` for the rest;
:class:`~klampt.control.robotinterfaceutils.RobotInterfaceCompleter` fills
in everything else (motion queues, Cartesian control, filters).
"""
from ..robotsim import RobotModel, WorldModel  # noqa: F401  (Klamp't's module has them)
import time
import warnings
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _checks
from ..model.typing import RigidTransform, Vector, Vector3
from .utils import TimedLooper


class RobotInterfaceBase(object):
    """A unifying API to a robot's motor controller.

    **Step contract.** Construct the interface, call :meth:`initialize`
    (must return True), then run the control loop at
    ``1/controlRate()``, bracketing each cycle with :meth:`beginStep` and
    :meth:`endStep` (or ``with StepContext(interface):``)::

        interface = MyRobotInterface(...)
        if not interface.initialize():
            raise RuntimeError("Could not initialize " + str(interface))
        looper = TimedLooper(1.0 / interface.controlRate())
        while looper:
            with StepContext(interface):
                if interface.status() != 'ok':
                    looper.stop()
                q = interface.sensedPosition()
                interface.moveToPosition(qtarget)
        interface.close()

    No command blocks: a command takes effect at the end of the step (or at
    once for a raw interface).  :meth:`wait` is the one blocking call.
    Structure queries (:meth:`parts`, :meth:`indices`, :meth:`numJoints`,
    :meth:`jointName`, :meth:`partInterface`, :meth:`klamptModel`, the
    ``config*Klampt``/``velocity*Klampt`` conversions, the ``cartesian*``
    utilities, :meth:`controlRate`, :meth:`sensors`, :meth:`hasSensor`)
    may be called outside a step once initialized.  Interfaces whose
    ``properties['asynchronous']`` is True (threaded, multiprocessing) may
    be called at any time.

    **DOFs and parts.** ``numJoints()`` is the number of actuated DOFs:
    for a Klamp't model, ``model.numDrivers()``.  All vectors (positions,
    velocities, torques, gains) are in driver space; convert with
    :meth:`configToKlampt` / :meth:`configFromKlampt`.  :meth:`parts` maps
    part names to DOF indices; the part None (all DOFs) always exists.

    **Cartesian frames.** ``'world'`` (default), ``'base'`` (the parent of
    the part's first link), ``'end effector'`` and ``'tool'`` (the tool
    point with the end effector's orientation).  Positions are se3 ``(R,t)``
    or 3-vectors (position only); velocities ``(w,v)`` or ``v``; forces
    ``(torque,force)`` or a force.

    **Errors.** Methods an implementation lacks raise
    ``NotImplementedError("method() is not implemented by Class")``; wrong
    vector sizes raise ValueError, unknown parts KeyError, bad joint
    indices IndexError.  Every vector query returns a list of float.

    Attributes:
        properties (dict): constant facts about the interface: 'name',
            'version', 'simulated', 'klamptModelFile',
            'klamptModelCartesianLink', 'asynchronous', 'complete', 'part',
            'jointLimits', 'velocityLimits', 'accelerationLimits',
            'torqueLimits' (the last four as (min, max) pairs).

    Every vector query returns a list of floats (the reference leaks tuples
    from the kinematic base and the threaded wrapper); wrong sizes raise
    ValueError instead of assert.
    """

    def __init__(self, **properties):
        self.properties = properties
        self._worldModel = None
        self._klamptModel = None
        self._partsCache = None
        self._warnedStartStep = False

    def _nie(self, method):
        return NotImplementedError("%s() is not implemented by %s" % (method, self.__class__.__name__))

    def __str__(self):
        inner = [str(self.properties[k]) for k in ('name', 'version') if k in self.properties]
        if not inner:
            return self.__class__.__name__
        if self.properties.get('name') == self.__class__.__name__:
            return ','.join(inner)
        return ','.join(inner) + '(%s)' % self.__class__.__name__

    # ------------------------------------------------------------ lifecycle
    def initialize(self) -> bool:
        """Connects to the robot; True when ready for commands.  Call it
        first."""
        return True

    def close(self) -> bool:
        """Releases what :meth:`initialize` acquired."""
        return True

    def startStep(self) -> None:
        """Deprecated alias of :meth:`beginStep`."""
        if not self._warnedStartStep:
            warnings.warn("startStep() is deprecated, use beginStep()", DeprecationWarning, stacklevel=2)
            self._warnedStartStep = True
        self.beginStep()

    def beginStep(self) -> None:
        """Begins a control cycle (before its queries and commands)."""

    def endStep(self) -> None:
        """Ends a control cycle (sends its commands)."""

    # ------------------------------------------------------------ structure
    def numJoints(self, part: Optional[str] = None) -> int:
        """The number of DOFs of the robot or of a part; by default the
        Klamp't model's number of drivers."""
        if part is None:
            model = self.klamptModel()
            if model is None:
                raise self._nie('numJoints')
            return model.numDrivers()
        return len(self.indices(part))

    def jointName(self, joint_idx: int) -> str:
        """The name of DOF joint_idx."""
        raise self._nie('jointName')

    def parts(self) -> Dict[Any, List[int]]:
        """Part name -> DOF indices; {None: all DOFs} by default (computed
        once per interface)."""
        if self._partsCache is None:
            self._partsCache = {None: list(range(self.numJoints()))}
        return self._partsCache

    def indices(self, part: Optional[str] = None, joint_idx: Optional[int] = None) -> List[int]:
        """The DOF indices of a part, or the single index [part[joint_idx]].
        KeyError for an unknown part, IndexError for a bad joint index."""
        parts = self.parts()
        if part not in parts:
            raise KeyError("%s has no part %r (parts: %s)" % (self, part, ', '.join(str(p) for p in parts)))
        plist = parts[part]
        if joint_idx is None:
            return list(plist)
        if not isinstance(joint_idx, int) or joint_idx < 0 or joint_idx >= len(plist):
            raise IndexError("Joint index %r out of range for part %r of %d DOFs" % (joint_idx, part, len(plist)))
        return [plist[joint_idx]]

    def partInterface(self, part: str, joint_idx: Optional[int] = None) -> 'RobotInterfaceBase':
        """An interface controlling exactly ``indices(part, joint_idx)``."""
        raise self._nie('partInterface')

    def controlRate(self) -> float:
        """The control rate, in Hz."""
        raise self._nie('controlRate')

    def clock(self) -> float:
        """The robot's clock, in seconds."""
        raise self._nie('clock')

    # ------------------------------------------------------------ status
    def status(self, joint_idx: Optional[int] = None) -> str:
        """'ok', or a description of what is wrong (e.g. 'softStop',
        'estop', 'disconnected')."""
        return 'ok'

    def estop(self) -> None:
        """Emergency stop; the default soft-stops."""
        self.softStop()

    def softStop(self) -> None:
        """Stops the robot; the default holds the commanded position."""
        self.setPosition(self.commandedPosition())

    def reset(self) -> bool:
        """Tries to clear a non-ok status; the caller polls :meth:`status`."""
        raise self._nie('reset')

    # ------------------------------------------------------------ settings
    def getSettings(self) -> Dict[str, Any]:
        """All implementation-specific settings."""
        raise self._nie('getSettings')

    def getSetting(self, name: str):
        """An implementation-specific setting."""
        raise KeyError(name + " isn't a valid setting")

    def setSetting(self, name: str, value) -> None:
        """Changes an implementation-specific setting."""
        raise KeyError(name + " isn't a valid setting")

    # ------------------------------------------------------------ sensors
    def sensors(self) -> list:
        """Names of the sensors this robot may have."""
        raise self._nie('sensors')

    def enabledSensors(self) -> list:
        """Names of the enabled sensors."""
        raise self._nie('enabledSensors')

    def hasSensor(self, sensor: str) -> bool:
        """True if the sensor exists (may be enabled)."""
        return sensor in self.sensors()

    def enableSensor(self, sensor: str, enabled: bool = True) -> bool:
        """Enables or disables a sensor; True on success."""
        raise self._nie('enableSensor')

    def sensorMeasurements(self, name: str):
        """The latest measurements of a sensor."""
        raise self._nie('sensorMeasurements')

    def sensorUpdateTime(self, name: str) -> float:
        """The clock time of the sensor's last update."""
        raise self._nie('sensorUpdateTime')

    # ------------------------------------------------------------ custom
    def setControlMode(self, mode, *args, **kwargs):
        """Enters a custom control mode."""
        raise self._nie('setControlMode')

    def functionCall(self, proc, *args, **kwargs):
        """Calls a custom function of the controller."""
        raise self._nie('functionCall')

    def stateValue(self, name) -> Union[float, Vector]:
        """A custom state value."""
        raise NotImplementedError(name + " is not a valid state query")

    # ------------------------------------------------------------ joint state
    def isMoving(self, joint_idx: Optional[int] = None) -> bool:
        """True while the robot (or the joint) executes a motion command."""
        raise self._nie('isMoving')

    def sensedPosition(self) -> Vector:
        """The sensed joint positions."""
        raise self._nie('sensedPosition')

    def sensedVelocity(self) -> Vector:
        """The sensed joint velocities."""
        raise self._nie('sensedVelocity')

    def sensedTorque(self) -> Vector:
        """The sensed joint torques."""
        raise self._nie('sensedTorque')

    def commandedPosition(self) -> Vector:
        """The commanded joint positions."""
        raise self._nie('commandedPosition')

    def commandedVelocity(self) -> Vector:
        """The commanded joint velocities."""
        raise self._nie('commandedVelocity')

    def commandedTorque(self) -> Vector:
        """The commanded joint torques."""
        raise self._nie('commandedTorque')

    def destinationPosition(self) -> Vector:
        """The position at the end of the motion queue."""
        raise self._nie('destinationPosition')

    def destinationVelocity(self) -> Vector:
        """The velocity at the end of the motion queue."""
        raise self._nie('destinationVelocity')

    def destinationTime(self) -> float:
        """The clock time at which the motion queue ends."""
        raise self._nie('destinationTime')

    def queuedTrajectory(self) -> tuple:
        """The motion queue from now: (ts, qs) for a piecewise linear or
        (ts, qs, vs) for a piecewise cubic trajectory."""
        raise self._nie('queuedTrajectory')

    # ------------------------------------------------------------ Cartesian queries
    def cartesianPosition(self, q: Vector, frame: str = 'world') -> RigidTransform:
        """The tool transform at whole-robot joint positions q, in frame."""
        raise self._nie('cartesianPosition')

    def cartesianVelocity(self, q: Vector, dq: Vector, frame: str = 'world') -> Tuple[Vector3, Vector3]:
        """The tool's (angular, linear) velocity at (q, dq), in frame."""
        raise self._nie('cartesianVelocity')

    def cartesianForce(self, q: Vector, t: Vector, frame: str = 'world') -> Tuple[Vector3, Vector3]:
        """The (torque, force) at the tool that joint torques t balance."""
        raise self._nie('cartesianForce')

    def sensedCartesianPosition(self, frame: str = 'world') -> RigidTransform:
        """cartesianPosition of the sensed position."""
        return self.cartesianPosition(self.sensedPosition(), frame)

    def sensedCartesianVelocity(self, frame: str = 'world') -> Tuple[Vector3, Vector3]:
        """cartesianVelocity of the sensed position and velocity."""
        return self.cartesianVelocity(self.sensedPosition(), self.sensedVelocity(), frame)

    def sensedCartesianForce(self, frame: str = 'world') -> Tuple[Vector3, Vector3]:
        """cartesianForce of the sensed position and torque."""
        return self.cartesianForce(self.sensedPosition(), self.sensedTorque(), frame)

    def commandedCartesianPosition(self, frame: str = 'world') -> RigidTransform:
        """cartesianPosition of the commanded position."""
        return self.cartesianPosition(self.commandedPosition(), frame)

    def commandedCartesianVelocity(self, frame: str = 'world') -> Tuple[Vector3, Vector3]:
        """cartesianVelocity of the commanded position and velocity."""
        return self.cartesianVelocity(self.commandedPosition(), self.commandedVelocity(), frame)

    def commandedCartesianForce(self, frame: str = 'world') -> Tuple[Vector3, Vector3]:
        """cartesianForce of the commanded position and torque."""
        return self.cartesianForce(self.commandedPosition(), self.commandedTorque(), frame)

    def destinationCartesianPosition(self, frame: str = 'world') -> RigidTransform:
        """The tool transform at the end of the motion queue."""
        return self.cartesianPosition(self.destinationPosition(), frame)

    def destinationCartesianVelocity(self, frame: str = 'world') -> Tuple[Vector3, Vector3]:
        """The tool velocity at the end of the motion queue, in frame.

        The reference misspells destinationVelocity (AttributeError) and drops
        frame."""
        return self.cartesianVelocity(self.destinationPosition(), self.destinationVelocity(), frame)

    def queuedCartesianTrajectory(self, frame: str = 'world') -> tuple:
        """The motion queue in Cartesian space: (ts, Ts) or (ts, Ts, dTs)."""
        res = self.queuedTrajectory()
        if len(res) == 2:
            ts, qs = res
            return ts, [self.cartesianPosition(q, frame) for q in qs]
        if len(res) == 3:
            ts, qs, vs = res
            return (ts, [self.cartesianPosition(q, frame) for q in qs],
                    [self.cartesianVelocity(q, v, frame) for q, v in zip(qs, vs)])
        raise RuntimeError("queuedTrajectory() returned %d items, expected 2 or 3" % len(res))

    # ------------------------------------------------------------ joint commands
    def setPosition(self, q: Vector) -> None:
        """An immediate position command."""
        raise self._nie('setPosition')

    def setVelocity(self, v: Vector, ttl: Optional[float] = None) -> None:
        """A velocity command lasting ttl seconds (implementation default
        if None)."""
        raise self._nie('setVelocity')

    def setTorque(self, t: Vector, ttl: Optional[float] = None) -> None:
        """A torque command lasting ttl seconds."""
        raise self._nie('setTorque')

    def setPID(self, q: Vector, dq: Vector, t: Optional[Vector] = None) -> None:
        """A PID command to position q, velocity dq, feedforward torque t."""
        raise self._nie('setPID')

    def setPIDGains(self, kP: Vector, kI: Vector, kD: Vector) -> None:
        """Sets the PID gains."""
        raise self._nie('setPIDGains')

    def getPIDGains(self) -> Tuple[List[float], List[float], List[float]]:
        """The PID gains (kP, kI, kD)."""
        raise self._nie('getPIDGains')

    def moveToPosition(self, q: Vector, speed: float = 1.0) -> None:
        """A smooth move to q; speed in (0, 1] scales the velocity and
        acceleration limits."""
        raise self._nie('moveToPosition')

    def setPiecewiseLinear(self, ts: List[float], qs: List[Vector], relative: bool = True) -> None:
        """A piecewise linear trajectory through milestones qs at times ts,
        starting from the commanded position.  relative: ts count from
        now; otherwise they are clock times after clock()."""
        raise self._nie('setPiecewiseLinear')

    def setPiecewiseCubic(self, ts: List[float], qs: List[Vector], vs: List[Vector], relative: bool = True) -> None:
        """A piecewise cubic (Hermite) trajectory through milestones qs with
        velocities vs at times ts, starting from the commanded state."""
        raise self._nie('setPiecewiseCubic')

    # ------------------------------------------------------------ Cartesian commands
    def setToolCoordinates(self, xtool_local: Vector3) -> None:
        """Sets the tool point, in end-effector link coordinates."""
        raise self._nie('setToolCoordinates')

    def getToolCoordinates(self) -> Vector3:
        """The tool point, in end-effector link coordinates."""
        raise self._nie('getToolCoordinates')

    def setGravityCompensation(self, gravity: Vector3 = [0, 0, -9.8], load: float = 0.0,
                               load_com: Vector3 = [0, 0, 0]) -> None:
        """Sets up gravity compensation: gravity (m/s^2, base frame), end
        effector load (kg) and its COM (end-effector link frame)."""
        raise self._nie('setGravityCompensation')

    def getGravityCompensation(self) -> tuple:
        """(gravity, load, load_com) as set by setGravityCompensation."""
        raise self._nie('getGravityCompensation')

    def setCartesianPosition(self, xparams: Union[Vector3, RigidTransform], frame: str = 'world') -> None:
        """An immediate Cartesian position command: se3 or a 3-vector."""
        raise self._nie('setCartesianPosition')

    def moveToCartesianPosition(self, xparams: Union[Vector3, RigidTransform], speed: float = 1.0,
                                frame: str = 'world') -> None:
        """A joint-space move to a Cartesian target."""
        raise self._nie('moveToCartesianPosition')

    def moveToCartesianPositionLinear(self, xparams: Union[Vector3, RigidTransform], speed: float = 1.0,
                                      frame: str = 'world') -> None:
        """A straight-line Cartesian move to a target."""
        raise self._nie('moveToCartesianPositionLinear')

    def setCartesianVelocity(self, dxparams: Union[Vector3, Tuple[Vector3, Vector3]], ttl: Optional[float] = None,
                             frame: str = 'world') -> None:
        """A Cartesian velocity command (w, v), or v alone leaving the
        orientation free, for ttl seconds."""
        raise self._nie('setCartesianVelocity')

    def setCartesianForce(self, fparams: Union[Vector3, Tuple[Vector3, Vector3]], ttl: Optional[float] = None,
                          frame: str = 'world') -> None:
        """A Cartesian force command (torque, force), or a force."""
        raise self._nie('setCartesianForce')

    # ------------------------------------------------------------ conversions
    def partToRobotConfig(self, pconfig: Vector, part: str, robotConfig: Vector,
                          joint_idx: Optional[int] = None) -> Vector:
        """robotConfig with the entries of the part replaced by pconfig."""
        pindices = self.indices(part, joint_idx)
        pconfig = _checks.vector(pconfig, len(pindices), 'partToRobotConfig', 'pconfig')
        q = _checks.as_list(robotConfig)
        for i, x in zip(pindices, pconfig):
            q[i] = x
        return q

    def robotToPartConfig(self, robotConfig: Vector, part: str, joint_idx: Optional[int] = None) -> Vector:
        """The entries of the part in robotConfig."""
        return [float(robotConfig[i]) for i in self.indices(part, joint_idx)]

    def klamptModel(self):
        """The Klamp't RobotModel of this robot, or None.  The default loads
        properties['klamptModelFile'] once into a private WorldModel.  Its
        configuration DOFs are links; RIL DOFs are its drivers."""
        if self._klamptModel is not None:
            return self._klamptModel
        fn = self.properties.get('klamptModelFile')
        if fn is None:
            return None
        world = WorldModel()
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            ok = world.loadFile(fn)
        if not ok or world.numRobots() == 0:
            warnings.warn("%s: could not load klamptModelFile %s" % (self, fn), RuntimeWarning)
            return None
        self._worldModel = world
        self._klamptModel = world.robot(0)
        return self._klamptModel

    def configFromKlampt(self, klamptConfig: Vector, part: Optional[str] = None,
                         joint_idx: Optional[int] = None) -> Vector:
        """The RIL configuration (drivers) of a Klamp't configuration
        (links), optionally restricted to a part.  Without a model it is
        returned unchanged.  Changes the model's configuration."""
        model = self.klamptModel()
        if model is None:
            return _checks.as_list(klamptConfig)
        q = _checks.vector(klamptConfig, model.numLinks(), 'configFromKlampt', 'klamptConfig')
        qdrivers = model.configToDrivers(q)
        if part is None and joint_idx is None:
            return _checks.as_list(qdrivers)
        return [float(qdrivers[i]) for i in self.indices(part, joint_idx)]

    def velocityFromKlampt(self, klamptVelocity: Vector, part: Optional[str] = None,
                           joint_idx: Optional[int] = None) -> Vector:
        """The RIL velocity (drivers) of a Klamp't velocity (links).

        part and joint_idx select the DOFs in every interface; the reference's
        Completer and wrappers ignore them."""
        model = self.klamptModel()
        if model is None:
            return _checks.as_list(klamptVelocity)
        v = _checks.vector(klamptVelocity, model.numLinks(), 'velocityFromKlampt', 'klamptVelocity')
        vdrivers = model.velocityToDrivers(v)
        if part is None and joint_idx is None:
            return _checks.as_list(vdrivers)
        return [float(vdrivers[i]) for i in self.indices(part, joint_idx)]

    def configToKlampt(self, config: Vector, klamptConfig: Optional[Vector] = None, part: Optional[str] = None,
                       joint_idx: Optional[int] = None) -> Vector:
        """The Klamp't configuration (links) of a RIL configuration of the
        robot or a part.  For a part, the other links come from
        klamptConfig, else from the model's current configuration.
        Changes the model's configuration.

        part and joint_idx select the DOFs in every interface; the reference's
        Completer and wrappers ignore them."""
        model = self.klamptModel()
        if model is None:
            return _checks.as_list(config)
        dofs = self.indices(part, joint_idx)
        config = _checks.vector(config, len(dofs), 'configToKlampt', 'config')
        if klamptConfig is not None:
            model.setConfig(_checks.vector(klamptConfig, model.numLinks(), 'configToKlampt', 'klamptConfig'))
        if part is None and joint_idx is None and len(dofs) == model.numDrivers():
            return _checks.as_list(model.configFromDrivers(config))
        qd = _checks.as_list(model.configToDrivers(model.getConfig()))
        for i, x in zip(dofs, config):
            qd[i] = x
        return _checks.as_list(model.configFromDrivers(qd))

    def velocityToKlampt(self, velocity: Vector, klamptVelocity: Optional[Vector] = None,
                         part: Optional[str] = None, joint_idx: Optional[int] = None) -> Vector:
        """The Klamp't velocity (links) of a RIL velocity of the robot or a
        part; the other links from klamptVelocity, else the model's."""
        model = self.klamptModel()
        if model is None:
            return _checks.as_list(velocity)
        dofs = self.indices(part, joint_idx)
        velocity = _checks.vector(velocity, len(dofs), 'velocityToKlampt', 'velocity')
        if klamptVelocity is not None:
            model.setVelocity(_checks.vector(klamptVelocity, model.numLinks(), 'velocityToKlampt', 'klamptVelocity'))
        if part is None and joint_idx is None and len(dofs) == model.numDrivers():
            return _checks.as_list(model.velocityFromDrivers(velocity))
        vd = _checks.as_list(model.velocityToDrivers(model.getVelocity()))
        for i, x in zip(dofs, velocity):
            vd[i] = x
        return _checks.as_list(model.velocityFromDrivers(vd))

    # ------------------------------------------------------------ waiting
    def _advancesOwnSimulation(self):
        """True when stepping this interface advances a simulator itself, so
        wait() need not sleep between steps."""
        return False

    def wait(self, timeout: Optional[float] = None, condition=None, pollRate: Optional[float] = None) -> float:
        """Blocks until the commands issued so far were executed and the
        motion finished (``not isMoving()``), or until ``condition()`` is
        True, or until timeout seconds passed.  Returns the time waited.

        A synchronous interface must not be inside a step: wait() runs the
        steps itself (RuntimeError otherwise), at the control rate, without
        sleeping when it drives a simulator.  An asynchronous one sleeps
        two control periods first so its worker has taken the commands.
        """
        if condition is None:
            def condition():
                return not self.isMoving()
        if self.properties.get('asynchronous', False):
            rate = pollRate if pollRate is not None else self.controlRate()
            dt = 1.0 / rate
            t0 = time.monotonic()
            time.sleep(2.0 / self.controlRate())
            while not condition():
                if timeout is not None and time.monotonic() - t0 >= timeout:
                    break
                time.sleep(dt)
            return time.monotonic() - t0
        if getattr(self, '_inStep', False):
            raise RuntimeError("wait() may not be called between beginStep() and endStep()")
        dt = 1.0 / (pollRate if pollRate is not None else self.controlRate())
        fast = self._advancesOwnSimulation()
        looper = None if fast else TimedLooper(dt)
        waited = 0.0
        while True:
            self.beginStep()
            try:
                stop = condition()
            finally:
                self.endStep()
            if stop or (timeout is not None and waited >= timeout):
                return waited
            if looper is not None:
                bool(looper)
            waited += dt

