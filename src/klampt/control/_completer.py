"""RobotInterfaceCompleter: one partial base interface made complete by the
emulator (its commands and queries are :class:`_CompleterAPI`'s, its part
interfaces :class:`_CompleterPart`)."""
import logging
import warnings

from ._completer_api import _CompleterAPI
from ._completer_part import _CompleterPart
from ._emulator import RobotInterfaceEmulator
from ._physical import _MISSING, _Physical, clock_and_rate, gather
from .robotinterface import RobotInterfaceBase

#: Base modes through which the Completer emulates others: the base's own
#: commanded state is then not the robot's command.
_EMULATING_MODES = ('setVelocity', 'setTorque', 'moveToPosition')

#: Settings the Completer handles itself (see RobotInterfaceCompleter).
COMPLETER_SETTINGS = ('velocityFeedforward', 'velocityTrackingGain', 'settleTolerance', 'softStopMode')


class RobotInterfaceCompleter(_CompleterAPI):
    """Completes a partially implemented interface.

    The base must implement controlRate() or clock(); sensedPosition() or
    commandedPosition(); one of setPosition, moveToPosition, setVelocity,
    setTorque, setPID; numJoints() or klamptModel() (the model gives the
    limits of moveToPosition, Cartesian control and collision filters).
    The Completer then provides every command and query: move-to,
    velocity, piecewise linear and cubic trajectories, Cartesian commands,
    PID through torques, sensed velocities by finite differences, filters,
    soft and emergency stops, parts.

    Queries the base implements go to the base; the others come from the
    emulator.  A base's commandedPosition() shows a new command after the
    next endStep(); emulated queries (destination*, isMoving, commanded*
    of a base without them) show it at once.

    Settings (setSetting / getSetting): 'velocityFeedforward' (1.0) and
    'velocityTrackingGain' (10 per second) of the tracking of a velocity-only
    base, 'settleTolerance' (None: isMoving follows the commands only),
    'softStopMode' ('freeze' or 'brake'); others go to the base.

    Args:
        base_interface (RobotInterfaceBase): the partial interface.
        base_initialized (bool): True if the base was initialized already.

    Attributes:
        _base: the base interface.
        _emulator (RobotInterfaceEmulator): the emulator (after initialize).
        _klamptModel, _worldModel: set before initialize() to override the
            base's model.

    A velocity-only base tracks emulated trajectories clamped to the joint
    limits (shortest angles for spin joints only) with feed-forward 1.0 and a
    gain of 10/s, the settings velocityFeedforward and velocityTrackingGain;
    the reference's 0.8 and 1/s, unclamped, end controller_test's sequence 0.73
    m off target.
    """

    def __init__(self, base_interface, base_initialized=False):
        if isinstance(base_interface, RobotInterfaceCompleter):
            raise ValueError("%s is already complete: don't wrap a RobotInterfaceCompleter in another"
                             % (base_interface,))
        if not isinstance(base_interface, RobotInterfaceBase):
            raise ValueError("RobotInterfaceCompleter needs a RobotInterfaceBase, got %r" % (base_interface,))
        self._setup(dict(base_interface.properties))
        self._base = base_interface
        self._baseInitialized = base_initialized
        self._physical = [_Physical(None, base_interface, None)]
        self._has = self._physical[0].has

    def _setup(self, properties):
        RobotInterfaceBase.__init__(self, **properties)
        self.properties['complete'] = True
        # stepping runs the emulator: a Completer is synchronous whatever its base
        self.properties.pop('asynchronous', None)
        self._root = self
        self._dofs = None
        self._n = None
        self._addedParts = dict()
        self._parts = None
        self._emulator = None
        self._inStep = False
        self._closed = False
        self._initialized = False
        self._pending = []
        self._partInterfaces = dict()
        self._baseControlMode = None
        self._emulatorControlMode = None

    def __str__(self):
        return "Completer(%s)" % (self._base,)

    # ------------------------------------------------------------ setup
    def _requireInitialized(self):
        if self._emulator is None:
            if self._closed:
                raise RuntimeError("%s was closed" % self)
            raise RuntimeError("%s: call initialize() first" % self)
        return self._emulator

    def addPart(self, name, indices):
        """Adds a named group of DOFs (before or after initialize())."""
        if name is None or name in self._addedParts or (self._parts is not None and name in self._parts):
            raise ValueError("Part %r already exists" % (name,))
        indices = [int(i) for i in indices]
        if self._n is not None:
            self._checkPartIndices(name, indices)
        self._addedParts[name] = indices
        if self._parts is not None:
            self._parts[name] = indices

    def _checkPartIndices(self, name, indices):
        for i in indices:
            if i < 0 or i >= self._n:
                raise ValueError("Part %r has index %d, outside [0, %d)" % (name, i, self._n))

    def _initializeBases(self):
        """Initializes the base; returns its number of DOFs."""
        base = self._base
        if not self._baseInitialized:
            if not base.initialize():
                warnings.warn("%s: the base interface %s did not initialize" % (self, base), RuntimeWarning)
                return None
            self._baseInitialized = True
        try:
            n = base.numJoints()
        except NotImplementedError:
            model = self.klamptModel()
            if model is None:
                warnings.warn("%s: the base implements neither numJoints() nor klamptModel()" % self, RuntimeWarning)
                return None
            n = model.numDrivers()
        self._physical[0].indices = list(range(n))
        return n

    def _baseParts(self, n):
        try:
            parts = dict(self._base.parts())
        except NotImplementedError:
            parts = {}
        parts[None] = list(range(n))
        return parts

    def initialize(self):
        """Initializes the base (unless base_initialized) and discovers what
        it implements; False with a warning when it lacks a requirement.

        An OmniRobotInterface whose parts leave drivers uncovered returns False
        with a warning (the reference calls the nonexistent warnings.error)."""
        if self._closed:
            raise RuntimeError("%s was closed" % self)
        if self._initialized:
            warnings.warn("%s.initialize() called twice" % self, RuntimeWarning)
            return True
        n = self._initializeBases()
        if n is None:
            return False
        self._n = n
        self._dofs = list(range(n))
        parts = self._baseParts(n)
        for name, inds in self._addedParts.items():
            self._checkPartIndices(name, inds)
            parts[name] = inds
        for p in self._physical:
            p.iface.beginStep()
        try:
            for p in self._physical:
                for q in ('controlRate', 'clock', 'sensedPosition', 'sensedVelocity', 'sensedTorque',
                          'commandedPosition', 'commandedVelocity', 'commandedTorque'):
                    p.call(q)
        finally:
            for p in self._physical:
                p.iface.endStep()
        for p in self._physical:
            if not (p.has['controlRate'] or p.has['clock']):
                warnings.warn("%s: %s implements neither controlRate() nor clock()" % (self, p.iface), RuntimeWarning)
                return False
            if not (p.has['sensedPosition'] or p.has['commandedPosition']):
                warnings.warn("%s: %s implements neither sensedPosition() nor commandedPosition()"
                              % (self, p.iface), RuntimeWarning)
                return False
        model = self.klamptModel()
        if model is not None and model.numDrivers() != n:
            warnings.warn("%s: the Klamp't model has %d drivers but the interface %d DOFs; ignoring the model"
                          % (self, model.numDrivers(), n), RuntimeWarning)
            model = None
        self._parts = parts
        self._emulator = RobotInterfaceEmulator(n, model)
        self._emulator.sensorReader = self.sensorMeasurements
        self._initialized = True
        for method, args, kwargs in self._pending:
            getattr(self, method)(*args, **kwargs)
        self._pending = []
        return True

    def close(self):
        """Closes the base(s); a second close raises RuntimeError.

        The reference sets a misspelled flag (_base_initialized) and leaves the
        base open."""
        if self._closed:
            raise RuntimeError("%s.close() called twice" % self)
        self._closed = True
        self._emulator = None
        self._baseInitialized = False
        ok = True
        for p in self._physical:
            ok = (p.iface.close() is not False) and ok
        return ok

    # ------------------------------------------------------------ stepping
    def beginStep(self):
        """Begins a step: the bases' beginStep, the clock, the sensed state."""
        em = self._requireInitialized()
        if self._inStep:
            raise RuntimeError("%s.beginStep() called twice without endStep()" % self)
        for p in self._physical:
            p.iface.beginStep()
        self._inStep = True
        try:
            if em.numUpdates < 0:
                self._initEmulator(em)
            clock, rate = clock_and_rate(self._physical)
            if clock is not None and em.curClock is None and clock != 0:
                logging.getLogger(__name__).debug("%s: starting with clock %g", self, clock)
            em.advanceClock(clock, rate)
            q = gather(self._physical, self._n, 'sensedPosition', lambda p: p.call('commandedPosition'))
            em.update(q, gather(self._physical, self._n, 'sensedVelocity', partial=True),
                      gather(self._physical, self._n, 'commandedPosition', partial=True))
        except Exception:
            self._inStep = False
            for p in self._physical:
                p.iface.endStep()
            raise

    def _initEmulator(self, em):
        def get(name, fallback=None):
            return gather(self._physical, self._n, name, fallback, partial=True)
        qsns = get('sensedPosition', lambda p: p.call('commandedPosition'))
        qcmd = get('commandedPosition', lambda p: p.call('sensedPosition'))
        em.initialize(qsns, get('sensedVelocity'), get('sensedTorque'), qcmd, get('commandedVelocity'),
                      get('commandedTorque'))

    def endStep(self):
        """Ends a step: Cartesian controllers advance, each base gets one
        command in the best mode it implements, state filters run, then
        the bases' endStep."""
        em = self._requireInitialized()
        if not self._inStep:
            raise RuntimeError("%s.endStep() called without beginStep()" % self)
        self._inStep = False
        try:
            em.advanceControllers()
            for p in self._physical:
                desired, sent = em.sendToInterface(p.iface, p.indices, p.modes)
                if sent is not None:
                    p.lastMode = sent
                    self._emulatorControlMode, self._baseControlMode = desired, sent
            em.runStateFilters()
        except Exception:
            em.softStop()
            raise
        finally:
            for p in self._physical:
                p.iface.endStep()

    def _advancesOwnSimulation(self):
        return all(p.iface._advancesOwnSimulation() for p in self._physical)

    # ------------------------------------------------------------ base access
    def _sensed(self, name):
        """A whole-robot state query: the bases', completed by the
        emulator's (sensed positions: the base's commanded ones)."""
        em = self._requireInitialized()
        if name == 'sensedPosition':
            return gather(self._physical, self._n, name, lambda p: p.call('commandedPosition'))
        if name == 'sensedTorque':
            res = gather(self._physical, self._n, name)
            if res is None:
                raise NotImplementedError("sensedTorque() is not implemented by %s" % self)
            return res
        emulated = getattr(em, name)
        if em.curClock is None:
            res = gather(self._physical, self._n, name,
                         lambda p: p.call('sensedPosition') if name == 'commandedPosition' else _MISSING)
            if res is None:
                raise RuntimeError("%s.%s(): run a step first" % (self, name))
            return res
        if name.startswith('commanded'):
            # through these modes the base's commanded state is an internal of the emulation
            return gather(self._physical, self._n, name, lambda p: emulated(p.indices),
                          emulatedWhen=_EMULATING_MODES)
        return gather(self._physical, self._n, name, lambda p: emulated(p.indices))

    def _clock(self):
        em = self._requireInitialized()
        for p in self._physical:
            c = p.call('clock')
            if c is not _MISSING:
                return c
        if em.curClock is None:
            return 0.0
        return em.curClock

    def _controlRate(self):
        em = self._requireInitialized()
        rates = [r for r in (p.call('controlRate') for p in self._physical) if r is not _MISSING]
        if rates:
            return max(rates)
        if em.dt is None:
            raise RuntimeError("%s: the base has no controlRate(); run a step first" % self)
        return 1.0 / em.dt

    def _setGains(self, dofs, kP, kI, kD):
        em = self._requireInitialized()
        em.setPIDGains(dofs, kP, kI, kD)
        for p in self._physical:
            if not set(p.indices) & set(dofs):
                continue
            gains = em.getPIDGains(p.indices)
            if gains[0] is None:
                base = p.call('getPIDGains')
                if base is _MISSING:
                    continue
                gains = tuple(list(g) for g in base)
                pos = dict((i, k) for k, i in enumerate(p.indices))
                for g, new in zip(gains, (kP, kI, kD)):
                    for i, x in zip(dofs, new):
                        if i in pos:
                            g[pos[i]] = x
            p.call('setPIDGains', gains[0], gains[1], gains[2])

    def _getGains(self, dofs):
        em = self._requireInitialized()
        full = [[None] * self._n for _ in range(3)]
        for p in self._physical:
            res = p.call('getPIDGains')
            if res is _MISSING:
                res = em.getPIDGains(p.indices)
                if res[0] is None:
                    continue
            for g, vals in zip(full, res):
                for i, x in zip(p.indices, vals):
                    g[i] = float(x)
        sel = [[g[i] for i in dofs] for g in full]
        if any(x is None for g in sel for x in g):
            raise NotImplementedError("getPIDGains: no gains known for some DOFs of %s (call setPIDGains)" % self)
        return tuple(sel)

    def _stop(self, kind):
        em = self._requireInitialized()
        for p in self._physical:
            try:
                getattr(p.iface, kind)()
            except NotImplementedError:
                pass
        getattr(em, kind)()

    # ------------------------------------------------------------ structure
    def numJoints(self, part=None):
        if self._n is None:
            return self._base.numJoints(part)
        if part is None:
            return self._n
        return len(self.indices(part))

    def parts(self):
        """The base's parts plus those added with addPart (after
        initialize())."""
        if self._parts is None:
            parts = dict(self._base.parts())
            parts.update(self._addedParts)
            return parts
        return self._parts

    def partInterface(self, part, joint_idx=None):
        """An interface to the DOFs indices(part, joint_idx), sharing this
        Completer's emulator and bases; it may not step or initialize."""
        self._requireInitialized()
        if part is None and joint_idx is None:
            return self
        key = (part, joint_idx)
        iface = self._partInterfaces.get(key)
        if iface is None:
            iface = _CompleterPart(self, part, joint_idx, self.indices(part, joint_idx))
            self._partInterfaces[key] = iface
        return iface

    def jointName(self, joint_idx):
        """The base's name, else the model's link name of the driver, else
        'Joint i'."""
        if not isinstance(joint_idx, int) or not 0 <= joint_idx < self.numJoints():
            raise IndexError("Joint index %r out of range" % (joint_idx,))
        for p in self._physical:
            if p.indices is not None and joint_idx in p.indices:
                res = p.call('jointName', p.indices.index(joint_idx))
                if res is not _MISSING:
                    return res
        model = self.klamptModel()
        if model is None:
            return 'Joint %d' % joint_idx
        return model.link(model.driver(joint_idx).getAffectedLinks()[-1]).getName()

    def klamptModel(self):
        if self._klamptModel is not None:
            return self._klamptModel
        return self._base.klamptModel()

    def controlRate(self):
        """The base's control rate (Hz), else 1/dt of the last step.  An
        OmniRobotInterface's rate is the fastest of its parts' (the
        reference never gathers it)."""
        return self._controlRate()

    def clock(self):
        return self._clock()

    def status(self, joint_idx=None):
        """'softStop'/'estop' from the emulator, else the base's status
        (the whole robot's, also for one joint_idx)."""
        if joint_idx is not None:
            self._jointIndex(joint_idx)
        if self._emulator is not None and self._emulator.status != 'ok':
            return self._emulator.status
        for p in self._physical:
            s = p.call('status')
            if s is not _MISSING and s != 'ok':
                return s
        return 'ok'

    def reset(self):
        """Clears a stop and resets the bases whose status is not 'ok';
        True if the status is then 'ok'."""
        em = self._requireInitialized()
        em.reset()
        for p in self._physical:
            s = p.call('status')
            if s is not _MISSING and s != 'ok':
                p.call('reset')
        return self.status() == 'ok'

    # ------------------------------------------------------------ settings and sensors
    def getSettings(self):
        em = self._requireInitialized()
        res = dict()
        for p in self._physical:
            s = p.call('getSettings')
            if s is not _MISSING:
                res.update(s)
        res.update(dict((k, em.settings[k]) for k in COMPLETER_SETTINGS))
        return res

    def getSetting(self, name):
        if name in COMPLETER_SETTINGS:
            return self._requireInitialized().settings[name]
        return self._base.getSetting(name)

    def setSetting(self, name, value):
        if name in COMPLETER_SETTINGS:
            em = self._requireInitialized()
            if name == 'softStopMode' and value not in ('freeze', 'brake'):
                raise ValueError("softStopMode must be 'freeze' or 'brake'")
            if name in ('velocityFeedforward', 'velocityTrackingGain') and not float(value) >= 0:
                raise ValueError("%s must be >= 0" % name)
            em.settings[name] = value
            return
        self._base.setSetting(name, value)

    def _sensorList(self, query):
        """The bases' sensors listed by query, plus the filters' virtual sensors."""
        res = []
        for p in self._physical:
            s = p.call(query)
            if s is not _MISSING:
                res += list(s)
        if self._emulator is not None:
            res += [k for k in self._emulator.virtualSensorMeasurements if k not in res]
        return res

    def sensors(self):
        """The base's sensors plus the filters' virtual sensors."""
        return self._sensorList('sensors')

    def enabledSensors(self):
        return self._sensorList('enabledSensors')

    def hasSensor(self, sensor):
        if self._emulator is not None and sensor in self._emulator.virtualSensorMeasurements:
            return True
        for p in self._physical:
            r = p.call('hasSensor', sensor)
            if r is not _MISSING and r:
                return True
        return sensor in self.sensors()

    def enableSensor(self, sensor, enabled=True):
        """Enables (or, enabled=False, disables) a sensor of the base.
        Takes enabled as the base's method does; the reference's Completer
        drops it (TypeError)."""
        for p in self._physical:
            r = p.call('enableSensor', sensor, enabled)
            if r is not _MISSING:
                return r
        raise NotImplementedError("enableSensor() is not implemented by %s" % self._base)

    def sensorMeasurements(self, name):
        """A base sensor's measurements, or a virtual sensor's value."""
        if self._emulator is not None and name in self._emulator.virtualSensorMeasurements:
            return self._emulator.virtualSensorMeasurements[name][1]
        return self._physical[0].iface.sensorMeasurements(name)

    def sensorUpdateTime(self, name):
        if self._emulator is not None and name in self._emulator.virtualSensorMeasurements:
            return self._emulator.virtualSensorMeasurements[name][0]
        return self._physical[0].iface.sensorUpdateTime(name)

    # ------------------------------------------------------------ filters
    def _deferOrRun(self, method, args, kwargs):
        if self._emulator is None:
            self._pending.append((method, args, kwargs))
            return True
        return False

    def setFilter(self, name, filter, input='auto', output='auto'):
        """Installs (filter callable or Block) or removes (None) a filter.

        Names with default operands: 'joint_limit', 'self_collision',
        'obstacle_collision' (positionCommand -> positionCommand),
        'velocity_limit', 'acceleration_limit', 'torque_limit' (the
        matching command), 'tracking_monitor' (commandedPosition,
        sensedPosition -> nothing); other names read and write the sensor
        of that name (a virtual sensor, see sensorMeasurements).

        Operands: sensedPosition, sensedVelocity, sensedTorque,
        commandedPosition, commandedVelocity, commandedTorque,
        positionCommand, velocityCommand, torqueCommand, sensor names,
        'status'.  Filters reading and writing commands run on every
        command issued and on what is sent to the base; the others run at
        endStep.  A filter raising BlockSignal('softStop', ...) stops the
        robot; BlockSignal('warn', ...) drops the command with a warning.
        May be called before initialize().

        The reference raises AttributeError before initialize(); a 'warn'
        signal there passes the command on."""
        if not self._deferOrRun('setFilter', (name, filter, input, output), {}):
            self._emulator.setFilter(self._dofs, name, filter, input, output)

    def setJointLimits(self, qmin='auto', qmax='auto', op='clamp', vmax='auto', amax=None):
        """Joint limit filter on position commands: 'auto' limits are the
        model's driver limits (spin joints [0, 2 pi]) within
        properties['jointLimits']; op 'clamp' clamps, 'stop' soft-stops,
        'warn' drops the command with a warning.  vmax ('auto': the model's)
        also limits velocity commands, amax adds a braking filter.

        May be called before initialize(), which installs the filter (the
        reference raises AttributeError); 'warn' drops the command (the
        reference passes it on)."""
        if not self._deferOrRun('setJointLimits', (qmin, qmax, op, vmax, amax), {}):
            hw = self.properties.get('jointLimits', (None, None))
            if self._emulator.klamptModel is None and vmax == 'auto':
                vmax = None
            self._emulator.setJointLimits(self._dofs, qmin, qmax, op, hw[0], hw[1], vmax, amax)

    def setCollisionFilter(self, world=None, op='warn'):
        """Self-collision filter, plus collisions with the world's terrains
        and rigid objects when world is given; op 'stop' or 'warn'."""
        if not self._deferOrRun('setCollisionFilter', (world, op), {}):
            self._emulator.setCollisionFilter(world, op)

    def _cartesianLink(self):
        return self.properties.get('klamptModelCartesianLink')

    # ------------------------------------------------------------ conversions
    def partToRobotConfig(self, pconfig, part, robotConfig, joint_idx=None):
        """Copies a part's configuration (or its joint joint_idx) into
        robotConfig.  Takes joint_idx like the base class; the reference's
        Completer lacks it."""
        return RobotInterfaceBase.partToRobotConfig(self, pconfig, part, robotConfig, joint_idx)

    def printStatus(self):
        """Prints the base, status, added parts and control modes."""
        print("****** Status of %s ******" % self)
        if self._emulator is None:
            print("Not initialized")
            return
        print("Status:", self.status())
        if self._addedParts:
            print("Added parts:", ', '.join(str(k) for k in self._addedParts))
        if self._baseControlMode == self._emulatorControlMode:
            print("Using base control mode", self._baseControlMode)
        else:
            print("Emulating %s through base mode %s" % (self._emulatorControlMode, self._baseControlMode))
        self._emulator.printStatus()
