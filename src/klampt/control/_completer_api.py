"""The commands and queries shared by a RobotInterfaceCompleter and its
part interfaces (:class:`_CompleterAPI`): argument checks, command
filters, then the emulator; queries from the bases or the emulator."""
import warnings

from . import _checks
from ._physical import _MISSING
from .robotinterface import RobotInterfaceBase


def _cartesianQuery(name, kind, fromEmulator, jointQueries):
    """The Cartesian query `name`: the tool's `kind` ('position', 'velocity'
    or 'force') at the whole-robot joint queries jointQueries of the root
    interface, or of the emulator when fromEmulator."""
    def query(self, frame='world'):
        source = self._em() if fromEmulator else self._root
        kin = self._kin()
        args = [getattr(source, q)() for q in jointQueries]
        return getattr(kin, kind)(*args, _checks.frame(frame, name))
    query.__name__ = name
    query.__qualname__ = '_CompleterAPI.' + name
    return query


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

    def _issue(self, method, item, value, *args):
        """value (a command of kind item) through the command filters, then,
        unless a filter dropped it, to the emulator's method."""
        value = self._filter(item, value)
        if value is not None:
            getattr(self._em(), method)(self._dofs, value, *args)

    # ------------------------------------------------------------ joint commands
    def setPosition(self, q):
        """Immediate position command; a new command of any mode replaces
        the previous one for these DOFs."""
        q = self._vec(q, 'setPosition', 'q')
        if self._motion('setPosition'):
            self._issue('setPosition', 'positionCommand', q)

    def setVelocity(self, v, ttl=None):
        """Moves at velocity v for ttl seconds, then stops (a piecewise
        linear trajectory from the commanded position).  ttl=None is 1 s,
        shortened so that no joint passes its limits (1e-3 short); with a
        ttl each joint stops at its limit.  Calling it every step with a
        short ttl drives continuously; the robot coasts at most the last
        ttl after the calls stop."""
        v = self._vec(v, 'setVelocity', 'v')
        ttl = _checks.optional_duration(ttl, 'setVelocity')
        if self._motion('setVelocity'):
            self._issue('setVelocity', 'velocityCommand', v, ttl)

    def setTorque(self, t, ttl=None):
        """Torque command for ttl seconds (then zero torque)."""
        t = self._vec(t, 'setTorque', 't')
        ttl = _checks.optional_duration(ttl, 'setTorque')
        if self._motion('setTorque'):
            self._issue('setTorque', 'torqueCommand', t, ttl)

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
        if self._motion('moveToPosition'):
            self._issue('moveToPosition', 'positionCommand', q, speed)

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

    sensedCartesianPosition = _cartesianQuery('sensedCartesianPosition', 'position', False, ('sensedPosition',))
    sensedCartesianVelocity = _cartesianQuery('sensedCartesianVelocity', 'velocity', False,
                                              ('sensedPosition', 'sensedVelocity'))
    sensedCartesianForce = _cartesianQuery('sensedCartesianForce', 'force', False, ('sensedPosition', 'sensedTorque'))
    commandedCartesianPosition = _cartesianQuery('commandedCartesianPosition', 'position', False,
                                                 ('commandedPosition',))
    commandedCartesianVelocity = _cartesianQuery('commandedCartesianVelocity', 'velocity', False,
                                                 ('commandedPosition', 'commandedVelocity'))
    commandedCartesianForce = _cartesianQuery('commandedCartesianForce', 'force', False,
                                              ('commandedPosition', 'commandedTorque'))
    destinationCartesianPosition = _cartesianQuery('destinationCartesianPosition', 'position', True,
                                                   ('destinationPosition',))
    destinationCartesianVelocity = _cartesianQuery('destinationCartesianVelocity', 'velocity', True,
                                                   ('destinationPosition', 'destinationVelocity'))
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
