"""RobotInterfaceCompleter (one partial base interface made complete by the
emulator), its part interfaces, and OmniRobotInterface (several physical
interfaces as one robot)."""
import logging
import warnings

from . import _checks
from ._emulator import RobotInterfaceEmulator
from .robotinterface import RobotInterfaceBase

_MISSING = object()

#: Base modes through which the Completer emulates others: the base's own
#: commanded state is then not the robot's command.
_EMULATING_MODES = ('setVelocity', 'setTorque', 'moveToPosition')

#: Settings the Completer handles itself (see RobotInterfaceCompleter).
COMPLETER_SETTINGS = ('velocityFeedforward', 'velocityTrackingGain', 'settleTolerance', 'softStopMode')


class _Physical:
    """A base interface driving some DOFs, with what it implements."""

    def __init__(self, name, iface, indices):
        self.name = name
        self.iface = iface
        self.indices = indices
        self.has = dict()
        self.modes = dict()
        self.lastMode = None

    def call(self, name, *args):
        """iface.name(*args), or _MISSING if it is not implemented."""
        if self.has.get(name) is False:
            return _MISSING
        try:
            res = getattr(self.iface, name)(*args)
        except NotImplementedError:
            self.has[name] = False
            return _MISSING
        self.has[name] = True
        return res


class _CompleterAPI(RobotInterfaceBase):
    """The commands and queries shared by a Completer and its parts: each
    acts on the DOFs self._dofs of the Completer self._root."""

    _root = None
    _dofs = None

    def _em(self):
        return self._root._requireInitialized()

    def _motion(self, method):
        """Checks a motion command may be issued now."""
        root = self._root
        root._requireInitialized()
        if not root._inStep and not root.properties.get('asynchronous', False):
            raise RuntimeError("%s.%s() must be called between beginStep() and endStep()" % (self, method))
        status = root.status()
        if status != 'ok':
            em = root._emulator
            if not em._stopWarned:
                warnings.warn("%s ignored: %s is stopped (status %r) until reset()" % (method, root, status),
                              RuntimeWarning, stacklevel=3)
                em._stopWarned = True
            return False
        return True

    def _vec(self, v, method, name):
        return _checks.vector(v, len(self._dofs), method, name)

    def _filter(self, item, value):
        return self._root._emulator.commandFilter(self._dofs, item, value)

    # ------------------------------------------------------------ joint commands
    def setPosition(self, q):
        """Immediate position command; a new command of any mode replaces
        the previous one for these DOFs."""
        q = self._vec(q, 'setPosition', 'q')
        if not self._motion('setPosition'):
            return
        q = self._filter('positionCommand', q)
        if q is not None:
            self._em().setPosition(self._dofs, q)

    def setVelocity(self, v, ttl=None):
        """Moves at velocity v for ttl seconds, then stops (a piecewise
        linear trajectory from the commanded position).  ttl=None is 1 s,
        shortened so that no joint passes its limits (1e-3 short); with a
        ttl each joint stops at its limit.  Calling it every step with a
        short ttl drives continuously; the robot coasts at most the last
        ttl after the calls stop."""
        v = self._vec(v, 'setVelocity', 'v')
        ttl = _checks.optional_duration(ttl, 'setVelocity')
        if not self._motion('setVelocity'):
            return
        v = self._filter('velocityCommand', v)
        if v is not None:
            self._em().setVelocity(self._dofs, v, ttl)

    def setTorque(self, t, ttl=None):
        """Torque command for ttl seconds (then zero torque)."""
        t = self._vec(t, 'setTorque', 't')
        ttl = _checks.optional_duration(ttl, 'setTorque')
        if not self._motion('setTorque'):
            return
        t = self._filter('torqueCommand', t)
        if t is not None:
            self._em().setTorque(self._dofs, t, ttl)

    def setPID(self, q, dq, t=None):
        """PID command; emulated through torques it needs setPIDGains."""
        q = self._vec(q, 'setPID', 'q')
        dq = self._vec(dq, 'setPID', 'dq')
        t = None if t is None else self._vec(t, 'setPID', 't')
        if not self._motion('setPID'):
            return
        items = self._root._emulator._runCommandFilters(self._dofs, {'positionCommand': q, 'velocityCommand': dq})
        if items is not None:
            self._em().setPID(self._dofs, items['positionCommand'], items['velocityCommand'], t)

    def setPIDGains(self, kP, kI, kD):
        """Per-DOF gains (scalars broadcast); sent to the base when it takes
        them, always kept for torque emulation.

        The reference raises TypeError for scalars (it checks lengths before
        broadcasting); an OmniRobotInterface sends each part (kP, kI, kD) in
        that order (the reference swaps kI and kD)."""
        n = len(self._dofs)
        kP = _checks.vector_or_scalar(kP, n, 'setPIDGains', 'kP')
        kI = _checks.vector_or_scalar(kI, n, 'setPIDGains', 'kI')
        kD = _checks.vector_or_scalar(kD, n, 'setPIDGains', 'kD')
        if any(v < 0 for v in kP + kI + kD):
            raise ValueError("setPIDGains: gains must be nonnegative")
        self._root._setGains(self._dofs, kP, kI, kD)

    def getPIDGains(self):
        """(kP, kI, kD) from the base, else as set by setPIDGains."""
        return self._root._getGains(self._dofs)

    def moveToPosition(self, q, speed=1.0):
        """The time-optimal move to q at rest within the velocity and
        acceleration limits (scaled by speed and speed^2), all joints
        arriving together at destinationTime(); a setPosition without a
        Klamp't model."""
        q = self._vec(q, 'moveToPosition', 'q')
        speed = _checks.speed(speed, 'moveToPosition')
        if not self._motion('moveToPosition'):
            return
        q = self._filter('positionCommand', q)
        if q is not None:
            self._em().moveToPosition(self._dofs, q, speed)

    def _milestones(self, method, ts, qs, vs=None):
        if len(ts) != len(qs) or (vs is not None and len(vs) != len(ts)):
            raise ValueError("%s: ts, qs (and vs) must have the same length" % method)
        qs = [self._vec(q, method, 'qs[%d]' % k) for k, q in enumerate(qs)]
        if vs is not None:
            vs = [self._vec(v, method, 'vs[%d]' % k) for k, v in enumerate(vs)]
        return list(ts), qs, vs

    def setPiecewiseLinear(self, ts, qs, relative=True):
        """A piecewise linear trajectory from the commanded position through
        qs at times ts (relative to now, or clock times); the caller's
        lists are not modified.

        Copies the caller's lists (the reference overwrites them)."""
        ts, qs, _ = self._milestones('setPiecewiseLinear', ts, qs)
        if not self._motion('setPiecewiseLinear'):
            return
        filtered = []
        for q in qs:
            q = self._filter('positionCommand', q)
            if q is None:
                return
            filtered.append(q)
        self._em().setPiecewiseLinear(self._dofs, ts, filtered, relative)

    def setPiecewiseCubic(self, ts, qs, vs, relative=True):
        """A piecewise cubic (Hermite) trajectory from the commanded state.

        relative=True times are relative to now, else clock times (the
        reference's signature lacks relative, which its docstring lists); the
        caller's lists are copies (the reference overwrites them)."""
        ts, qs, vs = self._milestones('setPiecewiseCubic', ts, qs, vs)
        if not self._motion('setPiecewiseCubic'):
            return
        fq, fv = [], []
        for q, v in zip(qs, vs):
            items = self._root._emulator._runCommandFilters(self._dofs, {'positionCommand': q, 'velocityCommand': v})
            if items is None:
                return
            fq.append(items['positionCommand'])
            fv.append(items['velocityCommand'])
        self._em().setPiecewiseCubic(self._dofs, ts, fq, fv, relative)

    def setControlMode(self, mode, *args, **kwargs):
        """Clears the pending commands of these DOFs and hands them to the
        base's custom mode until their next command."""
        root = self._root
        root._requireInitialized()
        root._emulator.release(self._dofs)
        target = self._basePart() or root._physical[0].iface
        return target.setControlMode(mode, *args, **kwargs)

    def functionCall(self, proc, *args, **kwargs):
        """The base's custom function."""
        target = self._basePart() or self._root._physical[0].iface
        return target.functionCall(proc, *args, **kwargs)

    def _basePart(self):
        return None

    # ------------------------------------------------------------ stops
    def estop(self):
        """Emergency stop of the whole robot (the base's estop, then every
        DOF frozen); status 'estop' until reset().

        Stops through the emulator when the base cannot (the reference raises
        from the base's default)."""
        self._root._stop('estop')

    def softStop(self):
        """Stops the whole robot at once at its commanded position (no
        deceleration unless setSetting('softStopMode', 'brake')); status
        'softStop' until reset(); motion commands are ignored meanwhile.

        Stops through the emulator when the base cannot (the reference raises
        from the base's default)."""
        self._root._stop('softStop')

    # ------------------------------------------------------------ queries
    def _select(self, v):
        return [v[i] for i in self._dofs]

    def isMoving(self, joint_idx=None):
        """True while a trajectory, move or timed velocity command runs (on
        joint_idx only, if given).  It follows the commands, not the tracking
        error: see the setting settleTolerance.

        The reference also requires 1e-3 rad of tracking in position modes, so
        with gravity sag isMoving() stays True and wait() never returns; its
        OmniRobotInterface raises NotImplementedError, while here Omni's comes
        from its emulator."""
        em = self._em()
        if joint_idx is None:
            return em.isMoving(self._dofs)
        return em.isMoving([self._dofs[self._jointIndex(joint_idx)]])

    def _jointIndex(self, joint_idx):
        if not isinstance(joint_idx, int) or not 0 <= joint_idx < len(self._dofs):
            raise IndexError("Joint index %r out of range [0, %d)" % (joint_idx, len(self._dofs)))
        return joint_idx

    def sensedPosition(self):
        return self._select(self._root._sensed('sensedPosition'))

    def sensedVelocity(self):
        """The base's sensed velocity, else a finite difference of sensed
        positions.

        The reference feeds the emulator its own output, so its emulated sensed
        velocity is always 0."""
        return self._select(self._root._sensed('sensedVelocity'))

    def sensedTorque(self):
        """The base's sensed torques (NotImplementedError when it has none).
        An OmniRobotInterface gathers its parts' sensed torques (the reference
        never splits them to the parts)."""
        return self._select(self._root._sensed('sensedTorque'))

    def commandedPosition(self):
        """The base's commanded position when it reports one (a new command
        shows after the next endStep), else the emulator's (at once).  When
        the Completer drives the base through velocity, torque or move-to
        commands, the emulator's."""
        return self._select(self._root._sensed('commandedPosition'))

    def commandedVelocity(self):
        """The base's commanded velocity, else the emulator's.  A part
        interface returns the part's velocities; the reference's
        sub-interface returns its positions."""
        return self._select(self._root._sensed('commandedVelocity'))

    def commandedTorque(self):
        return self._select(self._root._sensed('commandedTorque'))

    def destinationPosition(self):
        """Where the current commands end (includes this step's commands)."""
        return self._em().destinationPosition(self._dofs)

    def destinationVelocity(self):
        return self._em().destinationVelocity(self._dofs)

    def destinationTime(self):
        """The clock time at which the current commands end."""
        return self._em().destinationTime(self._dofs)

    def queuedTrajectory(self):
        """(ts, qs, vs): the commanded trajectory from now on."""
        return self._em().queuedTrajectory(self._dofs)

    def clock(self):
        return self._root._clock()

    def controlRate(self):
        return self._root._controlRate()

    def stateValue(self, name):
        """'cartesianError' (the residual of the last Cartesian target), or
        the base's state value."""
        if self._root is not self:
            return self._root.stateValue(name)
        em = self._em()
        if name in em.stateValues:
            return em.stateValues[name]
        return self._physical[0].iface.stateValue(name)

    # ------------------------------------------------------------ Cartesian
    def _cartesianLink(self):
        return None

    def _kin(self):
        em = self._em()
        kin = em._kinematics(self._dofs, create=False)
        if kin is None:
            kin = em.enableCartesianControl(self._dofs, self._cartesianLink())
        return kin

    def setToolCoordinates(self, xtool_local):
        """The tool point (end-effector link coordinates) of Cartesian
        queries and commands; it cannot change during a Cartesian velocity
        command."""
        self._kin()
        self._em().setToolCoordinates(self._dofs, xtool_local)

    def getToolCoordinates(self):
        """The tool point ([0,0,0] if never set)."""
        return self._em().getToolCoordinates(self._dofs)

    def setGravityCompensation(self, gravity=[0, 0, -9.8], load=0.0, load_com=[0, 0, 0]):
        """Sent to the base when it takes it; always stored."""
        gravity = _checks.vector(gravity, 3, 'setGravityCompensation', 'gravity')
        load_com = _checks.vector(load_com, 3, 'setGravityCompensation', 'load_com')
        root = self._root
        for p in root._physical:
            if set(p.indices) & set(self._dofs):
                p.call('setGravityCompensation', gravity, float(load), load_com)
        self._em().setGravityCompensation(self._dofs, gravity, load, load_com)

    def getGravityCompensation(self):
        """(gravity, load, load_com) from the base, else as stored.

        The reference's emulator raises "TODO" on the setter and this getter
        returns None."""
        root = self._root
        if len(root._physical) == 1:
            res = root._physical[0].call('getGravityCompensation')
            if res is not _MISSING:
                return res
        return self._em().getGravityCompensation(self._dofs)

    def _wholeConfig(self, q, method, reference):
        n = self._root._n
        if len(q) == n:
            return _checks.vector(q, n, method, 'q')
        q = self._vec(q, method, 'q')
        full = list(reference())
        for i, x in zip(self._dofs, q):
            full[i] = x
        return full

    def cartesianPosition(self, q, frame='world'):
        """The tool transform at joint positions q (of this interface, the
        other DOFs at their commanded values, or of the whole robot)."""
        _checks.frame(frame, 'cartesianPosition')
        root = self._root
        return self._kin().position(self._wholeConfig(q, 'cartesianPosition', root.commandedPosition), frame)

    def cartesianVelocity(self, q, dq, frame='world'):
        """The tool (angular, linear) velocity at (q, dq)."""
        _checks.frame(frame, 'cartesianVelocity')
        root = self._root
        return self._kin().velocity(self._wholeConfig(q, 'cartesianVelocity', root.commandedPosition),
                                    self._wholeConfig(dq, 'cartesianVelocity', lambda: [0.0] * root._n), frame)

    def cartesianForce(self, q, t, frame='world'):
        """The tool (torque, force) balanced by joint torques t.

        frame is honoured also when emulated, which the reference drops."""
        _checks.frame(frame, 'cartesianForce')
        root = self._root
        return self._kin().force(self._wholeConfig(q, 'cartesianForce', root.commandedPosition),
                                 self._wholeConfig(t, 'cartesianForce', lambda: [0.0] * root._n), frame)

    def sensedCartesianPosition(self, frame='world'):
        return self._kin().position(self._root.sensedPosition(), _checks.frame(frame, 'sensedCartesianPosition'))

    def sensedCartesianVelocity(self, frame='world'):
        root = self._root
        return self._kin().velocity(root.sensedPosition(), root.sensedVelocity(),
                                    _checks.frame(frame, 'sensedCartesianVelocity'))

    def sensedCartesianForce(self, frame='world'):
        root = self._root
        return self._kin().force(root.sensedPosition(), root.sensedTorque(), _checks.frame(frame, 'sensedCartesianForce'))

    def commandedCartesianPosition(self, frame='world'):
        return self._kin().position(self._root.commandedPosition(), _checks.frame(frame, 'commandedCartesianPosition'))

    def commandedCartesianVelocity(self, frame='world'):
        root = self._root
        return self._kin().velocity(root.commandedPosition(), root.commandedVelocity(),
                                    _checks.frame(frame, 'commandedCartesianVelocity'))

    def commandedCartesianForce(self, frame='world'):
        root = self._root
        return self._kin().force(root.commandedPosition(), root.commandedTorque(),
                                 _checks.frame(frame, 'commandedCartesianForce'))

    def destinationCartesianPosition(self, frame='world'):
        em = self._em()
        return self._kin().position(em.destinationPosition(), _checks.frame(frame, 'destinationCartesianPosition'))

    def destinationCartesianVelocity(self, frame='world'):
        em = self._em()
        return self._kin().velocity(em.destinationPosition(), em.destinationVelocity(),
                                    _checks.frame(frame, 'destinationCartesianVelocity'))

    def queuedCartesianTrajectory(self, frame='world'):
        em = self._em()
        ts, qs, vs = em.queuedTrajectory()
        kin = self._kin()
        return (ts, [kin.position(q, frame) for q in qs], [kin.velocity(q, v, frame) for q, v in zip(qs, vs)])

    def setCartesianPosition(self, xparams, frame='world'):
        """IK from the commanded configuration (retries from other starts
        if the local solve misses by more than 1 mm / 1 mrad), then
        setPosition.  An unreachable target gives a RuntimeWarning, the
        closest pose found, and stateValue('cartesianError')."""
        target = _checks.cartesian_target(xparams, 'setCartesianPosition')
        if not self._motion('setCartesianPosition'):
            return
        q = self._em()._cartesianGoal(self._dofs, target, _checks.frame(frame, 'setCartesianPosition'),
                                      'setCartesianPosition')
        self.setPosition(q)

    def moveToCartesianPosition(self, xparams, speed=1.0, frame='world'):
        """IK as setCartesianPosition, then moveToPosition.

        The IK solve runs up to 100 iterations from the commanded
        configuration, then from perturbed starts; a target out of reach gives
        a RuntimeWarning, the best pose found and stateValue('cartesianError').
        The reference runs one 20-iteration solve and silently stops 7.3 cm
        short of a reachable target."""
        target = _checks.cartesian_target(xparams, 'moveToCartesianPosition')
        speed = _checks.speed(speed, 'moveToCartesianPosition')
        if not self._motion('moveToCartesianPosition'):
            return
        q = self._em()._cartesianGoal(self._dofs, target, _checks.frame(frame, 'moveToCartesianPosition'),
                                      'moveToCartesianPosition')
        self.moveToPosition(q, speed)

    def moveToCartesianPositionLinear(self, xparams, speed=1.0, frame='world', duration=None):
        """A straight-line Cartesian move lasting duration seconds (default
        1/speed, as the reference: speed is not a velocity), lengthened when
        the joint velocity limits need it; smooth start and stop.

        As in the reference, speed is read as 1/duration (not a velocity, as
        the reference's docstring says); duration= is an addition, and the move
        ends with isMoving() False."""
        target = _checks.cartesian_target(xparams, 'moveToCartesianPositionLinear')
        if not self._motion('moveToCartesianPositionLinear'):
            return
        self._em().moveToCartesianPositionLinear(self._dofs, target, speed,
                                                 _checks.frame(frame, 'moveToCartesianPositionLinear'), duration)

    def setCartesianVelocity(self, dxparams, ttl=None, frame='world'):
        """Drives the tool at (w, v) (a 3-vector v leaves the orientation
        free) for ttl seconds, or until another command when None."""
        dx = _checks.cartesian_pair(dxparams, 'setCartesianVelocity', 'dxparams')
        ttl = _checks.optional_duration(ttl, 'setCartesianVelocity')
        if not self._motion('setCartesianVelocity'):
            return
        self._kin()
        self._em().setCartesianVelocity(self._dofs, dx, ttl, _checks.frame(frame, 'setCartesianVelocity'))

    def setCartesianForce(self, fparams, ttl=None, frame='world'):
        """Not emulated: NotImplementedError."""
        raise NotImplementedError("setCartesianForce is not emulated by %s" % self.__class__.__name__)


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
            clock, rate = self._baseClockAndRate()
            if clock is not None and em.curClock is None and clock != 0:
                logging.getLogger(__name__).debug("%s: starting with clock %g", self, clock)
            em.advanceClock(clock, rate)
            q = self._gather('sensedPosition', lambda p: p.call('commandedPosition'))
            em.update(q, self._gather('sensedVelocity', partial=True), self._gather('commandedPosition', partial=True))
        except Exception:
            self._inStep = False
            for p in self._physical:
                p.iface.endStep()
            raise

    def _initEmulator(self, em):
        def get(name, fallback=None):
            return self._gather(name, fallback, partial=True)
        qsns = get('sensedPosition', lambda p: p.call('commandedPosition'))
        qcmd = get('commandedPosition', lambda p: p.call('sensedPosition'))
        em.initialize(qsns, get('sensedVelocity'), get('sensedTorque'), qcmd, get('commandedVelocity'),
                      get('commandedTorque'))

    def _baseClockAndRate(self):
        clock = None
        rate = None
        for p in self._physical:
            c = p.call('clock')
            if c is not _MISSING and clock is None:
                clock = c
            r = p.call('controlRate')
            if r is not _MISSING:
                rate = r if rate is None else max(rate, r)
        return clock, rate

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
    def _gather(self, name, fallback=None, partial=False, emulatedWhen=()):
        """The whole-robot vector of query name from the bases.  A base
        lacking it (or whose last command mode is in emulatedWhen)
        contributes fallback(physical) (if given and not _MISSING), else
        None entries when partial; otherwise the result is None."""
        res = [None] * self._n
        for p in self._physical:
            v = _MISSING if p.lastMode in emulatedWhen else p.call(name)
            if v is _MISSING and fallback is not None:
                v = fallback(p)
            if v is _MISSING:
                if not partial:
                    return None
                continue
            if len(v) != len(p.indices):
                raise ValueError("%s.%s() returned %d values for %d DOFs" % (p.iface, name, len(v), len(p.indices)))
            for i, x in zip(p.indices, v):
                res[i] = float(x)
        return res

    def _sensed(self, name):
        """A whole-robot state query: the bases', completed by the
        emulator's (sensed positions: the base's commanded ones)."""
        em = self._requireInitialized()
        if name == 'sensedPosition':
            return self._gather(name, lambda p: p.call('commandedPosition'))
        if name == 'sensedTorque':
            res = self._gather(name)
            if res is None:
                raise NotImplementedError("sensedTorque() is not implemented by %s" % self)
            return res
        emulated = getattr(em, name)
        if em.curClock is None:
            res = self._gather(name, lambda p: p.call('sensedPosition') if name == 'commandedPosition' else _MISSING)
            if res is None:
                raise RuntimeError("%s.%s(): run a step first" % (self, name))
            return res
        if name.startswith('commanded'):
            # through these modes the base's commanded state is an internal of the emulation
            return self._gather(name, lambda p: emulated(p.indices), emulatedWhen=_EMULATING_MODES)
        return self._gather(name, lambda p: emulated(p.indices))

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

    def sensors(self):
        """The base's sensors plus the filters' virtual sensors."""
        res = []
        for p in self._physical:
            s = p.call('sensors')
            if s is not _MISSING:
                res += list(s)
        if self._emulator is not None:
            res += [k for k in self._emulator.virtualSensorMeasurements if k not in res]
        return res

    def enabledSensors(self):
        res = []
        for p in self._physical:
            s = p.call('enabledSensors')
            if s is not _MISSING:
                res += list(s)
        if self._emulator is not None:
            res += [k for k in self._emulator.virtualSensorMeasurements if k not in res]
        return res

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


class _CompleterPart(_CompleterAPI):
    """The interface to some DOFs of a Completer (see partInterface)."""

    def __init__(self, root, part, joint_idx, dofs):
        RobotInterfaceBase.__init__(self, **dict(root.properties))
        name = str(part) if joint_idx is None else '%s[%d]' % (part, joint_idx)
        self.properties['name'] = name
        self.properties['part'] = True
        self._root = root
        self._dofs = list(dofs)
        self._partName = part
        self._jointIdx = joint_idx
        self._partBase = None
        if len(root._physical) == 1:
            try:
                self._partBase = root._physical[0].iface.partInterface(part, joint_idx)
            except (NotImplementedError, KeyError, IndexError, RuntimeError, ValueError):
                self._partBase = None

    def __str__(self):
        return '%s[%s]' % (self._root, self.properties['name'])

    def _basePart(self):
        return self._partBase

    def initialize(self):
        raise RuntimeError("initialize() may not be called on a part interface; initialize %s" % self._root)

    def beginStep(self):
        raise RuntimeError("beginStep() may not be called on a part interface; step %s" % self._root)

    def endStep(self):
        raise RuntimeError("endStep() may not be called on a part interface; step %s" % self._root)

    def close(self):
        raise RuntimeError("close() may not be called on a part interface; close %s" % self._root)

    def addPart(self, name, indices):
        raise RuntimeError("Parts of a part interface are not supported")

    def numJoints(self, part=None):
        return len(self.indices(part))

    def parts(self):
        if self._partsCache is None:
            self._partsCache = {None: list(range(len(self._dofs)))}
        return self._partsCache

    def jointName(self, joint_idx):
        return self._root.jointName(self._dofs[self._jointIndex(joint_idx)])

    def klamptModel(self):
        """The whole robot's model (RIL DOFs of this part are its drivers
        self._dofs)."""
        return self._root.klamptModel()

    def status(self, joint_idx=None):
        if joint_idx is not None:
            self._jointIndex(joint_idx)
        if self._partBase is not None:
            s = self._partBase.status()
            if s != 'ok':
                return s
        return self._root.status()

    def reset(self):
        if self._partBase is not None:
            try:
                self._partBase.reset()
            except NotImplementedError:
                pass
        return self._root.reset()

    def getSettings(self):
        return self._root.getSettings()

    def getSetting(self, name):
        return self._root.getSetting(name)

    def setSetting(self, name, value):
        return self._root.setSetting(name, value)

    def sensors(self):
        return self._root.sensors()

    def enabledSensors(self):
        return self._root.enabledSensors()

    def hasSensor(self, sensor):
        return self._root.hasSensor(sensor)

    def enableSensor(self, sensor, enabled=True):
        return self._root.enableSensor(sensor, enabled)

    def sensorMeasurements(self, name):
        return self._root.sensorMeasurements(name)

    def sensorUpdateTime(self, name):
        return self._root.sensorUpdateTime(name)

    def _toRoot(self, part, joint_idx):
        if part is not None or joint_idx is not None:
            return [self._dofs[i] for i in self.indices(part, joint_idx)]
        return self._dofs

    def configFromKlampt(self, klamptConfig, part=None, joint_idx=None):
        full = self._root.configFromKlampt(klamptConfig)
        return [full[i] for i in self._toRoot(part, joint_idx)]

    def velocityFromKlampt(self, klamptVelocity, part=None, joint_idx=None):
        full = self._root.velocityFromKlampt(klamptVelocity)
        return [full[i] for i in self._toRoot(part, joint_idx)]

    def configToKlampt(self, config, klamptConfig=None, part=None, joint_idx=None):
        dofs = self._toRoot(part, joint_idx)
        config = _checks.vector(config, len(dofs), 'configToKlampt', 'config')
        model = self.klamptModel()
        if model is None:
            return config
        if klamptConfig is not None:
            model.setConfig(klamptConfig)
        qd = list(model.configToDrivers(model.getConfig()))
        for i, x in zip(dofs, config):
            qd[i] = x
        return list(model.configFromDrivers(qd))

    def velocityToKlampt(self, velocity, klamptVelocity=None, part=None, joint_idx=None):
        dofs = self._toRoot(part, joint_idx)
        velocity = _checks.vector(velocity, len(dofs), 'velocityToKlampt', 'velocity')
        model = self.klamptModel()
        if model is None:
            return velocity
        if klamptVelocity is not None:
            model.setVelocity(klamptVelocity)
        vd = list(model.velocityToDrivers(model.getVelocity()))
        for i, x in zip(dofs, velocity):
            vd[i] = x
        return list(model.velocityFromDrivers(vd))

    def partInterface(self, part, joint_idx=None):
        if part is not None:
            raise KeyError("A part interface has only the part None")
        if joint_idx is None:
            return self
        return _CompleterPart(self._root, self._partName, joint_idx, [self._dofs[self._jointIndex(joint_idx)]])

    def setFilter(self, name, filter, input='auto', output='auto'):
        """A filter on this part's DOFs."""
        self._root._requireInitialized().setFilter(self._dofs, name, filter, input, output)

    def setJointLimits(self, qmin='auto', qmax='auto', op='clamp'):
        """A joint limit filter on this part's DOFs."""
        self._root._requireInitialized().setJointLimits(self._dofs, qmin, qmax, op)

    def controlRate(self):
        return self._root.controlRate()

    def clock(self):
        return self._root.clock()

    def wait(self, timeout=None, condition=None, pollRate=None):
        """Runs the Completer's steps until this part stops moving."""
        if condition is None:
            def condition():
                return not self.isMoving()
        return self._root.wait(timeout, condition, pollRate)


class OmniRobotInterface(RobotInterfaceCompleter):
    """One robot made of several physical interfaces (e.g. an arm and a
    gripper with separate controllers), completed like a
    RobotInterfaceCompleter::

        omni = OmniRobotInterface(model)
        omni.addPhysicalPart('arm', arm_interface, list(range(6)))
        omni.addPhysicalPart('gripper', gripper_interface)   # next DOFs
        omni.addVirtualPart('wrist', [3, 4, 5])
        omni.initialize()

    Every DOF must belong to exactly one physical part.  Parts are the
    physical parts, their own parts (named 'PARENT__CHILD') and the
    virtual parts; each part interface has full emulated control.  PID
    gains and settings reach the physical part owning the DOFs.

    Args:
        klamptModel (RobotModel, optional): the model of the whole robot
            (its drivers are the DOFs).
    """

    def __init__(self, klamptModel=None):
        self._setup({'name': 'OmniRobotInterface'})
        self._physical = []
        self._has = dict()
        self._model = klamptModel
        self._base = None
        self._baseInitialized = False
        self._numAssigned = klamptModel.numDrivers() if klamptModel is not None else 0
        self._nextIndex = 0

    def __str__(self):
        return "OmniRobotInterface(%s)" % ', '.join(p.name for p in self._physical)

    def addPhysicalPart(self, name, interface, indices=None):
        """Adds a physical interface controlling DOFs indices (default: the
        next interface.numJoints() DOFs after the previous parts).

        With indices=None the next drivers are taken even with a model (the
        reference raises ValueError then, e.g. in Klampt-examples'
        mirobot_ril.py)."""
        if self._initialized:
            raise RuntimeError("Physical parts must be added before initialize()")
        if name is None or any(p.name == name for p in self._physical) or name in self._addedParts:
            raise ValueError("Part %r already exists" % (name,))
        if not isinstance(interface, RobotInterfaceBase):
            raise ValueError("addPhysicalPart needs a RobotInterfaceBase, got %r" % (interface,))
        if indices is None:
            try:
                ni = interface.numJoints()
            except NotImplementedError:
                raise ValueError("addPhysicalPart(%r): give the indices, %s does not implement numJoints()"
                                 % (name, interface))
            indices = list(range(self._nextIndex, self._nextIndex + ni))
        indices = [int(i) for i in indices]
        if self._model is not None:
            for i in indices:
                if i < 0 or i >= self._model.numDrivers():
                    raise ValueError("Part %r index %d outside [0, %d)" % (name, i, self._model.numDrivers()))
        for p in self._physical:
            common = set(p.indices) & set(indices)
            if common:
                raise ValueError("Part %r shares DOFs %s with part %r" % (name, sorted(common), p.name))
        self._physical.append(_Physical(name, interface, indices))
        self._nextIndex = max(self._nextIndex, max(indices) + 1 if indices else 0)

    def addVirtualPart(self, name, indices):
        """Adds a named group of DOFs with full emulated control."""
        if any(p.name == name for p in self._physical):
            raise ValueError("Part %r already exists" % (name,))
        self.addPart(name, indices)

    def klamptModel(self):
        if self._klamptModel is not None:
            return self._klamptModel
        return self._model

    def _initializeBases(self):
        if not self._physical:
            warnings.warn("OmniRobotInterface: no physical parts", RuntimeWarning)
            return None
        n = self._declaredJoints()
        covered = [0] * n
        for p in self._physical:
            for i in p.indices:
                if i < n:
                    covered[i] += 1
        missing = [i for i, c in enumerate(covered) if c == 0]
        if missing:
            warnings.warn("OmniRobotInterface: DOFs %s belong to no physical part" % missing, RuntimeWarning)
            return None
        for p in self._physical:
            if not p.iface.initialize():
                warnings.warn("OmniRobotInterface: part %r (%s) did not initialize" % (p.name, p.iface),
                              RuntimeWarning)
                return None
        return n

    def _baseParts(self, n):
        parts = {None: list(range(n))}
        for p in self._physical:
            parts[p.name] = list(p.indices)
            try:
                sub = p.iface.parts()
            except NotImplementedError:
                sub = {}
            for k, inds in sub.items():
                if k is not None:
                    parts[p.name + PART_NAME_SEPARATOR + str(k)] = [p.indices[i] for i in inds]
        return parts

    def _declaredJoints(self):
        return self._model.numDrivers() if self._model is not None else self._nextIndex

    def parts(self):
        if self._parts is None:
            parts = self._baseParts(self._declaredJoints())
            parts.update(self._addedParts)
            return parts
        return self._parts

    def numJoints(self, part=None):
        if self._n is None:
            return self._declaredJoints() if part is None else len(self.indices(part))
        return RobotInterfaceCompleter.numJoints(self, part)

    def getSetting(self, name):
        if name in COMPLETER_SETTINGS:
            return self._requireInitialized().settings[name]
        for p in self._physical:
            try:
                return p.iface.getSetting(name)
            except (KeyError, NotImplementedError):
                continue
        raise KeyError(name + " isn't a valid setting")

    def setSetting(self, name, value):
        if name in COMPLETER_SETTINGS:
            return RobotInterfaceCompleter.setSetting(self, name, value)
        for p in self._physical:
            try:
                p.iface.setSetting(name, value)
                return
            except (KeyError, NotImplementedError):
                continue
        raise KeyError(name + " isn't a valid setting")

    def setPartFilter(self, part, name, filter, input='auto', output='auto'):
        """A filter on the DOFs of a part."""
        if not self._deferOrRun('setPartFilter', (part, name, filter, input, output), {}):
            self._emulator.setFilter(self.indices(part), name, filter, input, output)

    def setPartJointLimits(self, part, qmin='auto', qmax='auto', op='clamp'):
        """A joint limit filter on the DOFs of a part."""
        if not self._deferOrRun('setPartJointLimits', (part, qmin, qmax, op), {}):
            inds = self.indices(part)
            hw = self.properties.get('jointLimits', (None, None))
            hwmin = None if hw[0] is None else [hw[0][i] for i in inds]
            hwmax = None if hw[1] is None else [hw[1][i] for i in inds]
            self._emulator.setJointLimits(inds, qmin, qmax, op, hwmin, hwmax)

    def partInterface(self, part, joint_idx=None):
        """The interface of a physical, child or virtual part (None: this
        interface), with emulated control of its DOFs."""
        if part is not None and part not in self.parts():
            raise KeyError("%s has no part %r" % (self, part))
        return RobotInterfaceCompleter.partInterface(self, part, joint_idx)

    def sensorMeasurements(self, name):
        if self._emulator is not None and name in self._emulator.virtualSensorMeasurements:
            return self._emulator.virtualSensorMeasurements[name][1]
        for p in self._physical:
            if p.call('hasSensor', name) is True:
                return p.iface.sensorMeasurements(name)
        raise NotImplementedError("No part of %s has the sensor %r" % (self, name))

    def stateValue(self, name):
        em = self._requireInitialized()
        if name in em.stateValues:
            return em.stateValues[name]
        for p in self._physical:
            try:
                return p.iface.stateValue(name)
            except NotImplementedError:
                continue
        raise NotImplementedError(name + " is not a valid state query")


#: Separates a physical part's name from its own parts' names.
PART_NAME_SEPARATOR = '__'
