"""The software motion controller behind the Completer and the Omni
interface: :class:`RobotInterfaceEmulator` keeps, per DOF, the command
being executed (set-point, PID, torque or trajectory), turns any command
into the control mode a base interface accepts, and runs Cartesian
controllers and filters.  Every method takes the DOF indices it acts on.
"""
import bisect
import math
import warnings

from ..math import so2
from . import _cartesian, _checks
from .blocks.utils import BlockSignal

INF = float('inf')

#: The joint control modes, lowest level first (setTorque is below them).
CONTROL_MODES = ['setPID', 'setVelocity', 'setPosition', 'moveToPosition', 'setPiecewiseLinear', 'setPiecewiseCubic']

_PRECEDENCE = {'setTorque': -1, 'setPID': 0, 'setVelocity': 1, 'setPosition': 2, 'setPiecewiseLinear': 3,
               'setPiecewiseCubic': 4}

#: Base methods tried, in order, to execute each desired mode.
BASE_METHODS = {
    'setPiecewiseCubic': ['setPiecewiseCubic', 'setPiecewiseLinear', 'setPID', 'setPosition', 'setVelocity',
                          'moveToPosition', 'setTorque'],
    'setPiecewiseLinear': ['setPiecewiseLinear', 'setPID', 'setPosition', 'setVelocity', 'moveToPosition',
                           'setTorque'],
    'setPID': ['setPID', 'setTorque', 'setPosition', 'setVelocity', 'moveToPosition'],
    'setPosition': ['setPosition', 'setVelocity', 'setPID', 'moveToPosition', 'setPiecewiseLinear', 'setTorque'],
    'setTorque': ['setTorque', 'setPID'],
}

_TRAJECTORY = ('setPiecewiseLinear', 'setPiecewiseCubic')
_FEEDBACK = ('setVelocity', 'setTorque')

#: Filter operands that are commands (the others are states or sensors).
COMMAND_OPERANDS = ('positionCommand', 'velocityCommand', 'accelerationCommand', 'torqueCommand')
STATE_OPERANDS = ('sensedPosition', 'sensedVelocity', 'sensedTorque', 'commandedPosition', 'commandedVelocity',
                  'commandedTorque', 'destinationPosition', 'destinationVelocity', 'status')

#: The default settings of the emulator (see RobotInterfaceCompleter).
DEFAULT_SETTINGS = {
    'velocityFeedforward': 1.0,
    'velocityTrackingGain': 10.0,
    'settleTolerance': None,
    'softStopMode': 'freeze',
}


class _Joint:
    """The command state of one DOF."""

    def __init__(self, name, spin=False, qmin=-INF, qmax=INF, vmax=INF, amax=INF, tmax=INF):
        self.name = name
        self.spin = spin
        self.qmin, self.qmax, self.vmax, self.amax, self.tmax = qmin, qmax, vmax, amax, tmax
        self.mode = None
        self.sensedPosition = None
        self.sensedVelocity = 0.0
        self.sensedTime = None
        self.baseCommanded = None
        self.hold = None            # held position when no command is active
        self.setpoint = None
        self.setpointVelocity = 0.0
        self.pid = None             # (q, dq, feedforward torque)
        self.gains = None           # (kP, kI, kD)
        self.integral = 0.0
        self.torque = 0.0
        self.torqueEnd = None
        self.times = self.qs = self.vs = None
        self.dirty = False
        self.controller = None
        self.commandedTorque = 0.0

    def diff(self, a, b):
        """a - b, the shortest angle for spin joints."""
        return so2.diff(a, b) if self.spin else a - b

    def clampLimits(self, q):
        return q if self.spin else min(max(q, self.qmin), self.qmax)

    def evalTrajectory(self, t):
        """(position, velocity) of the trajectory at clock time t."""
        ts, qs, vs = self.times, self.qs, self.vs
        if t < ts[0]:
            return qs[0], 0.0
        if t >= ts[-1]:
            return qs[-1], (vs[-1] if vs is not None else 0.0)
        if t == ts[0]:
            return qs[0], self._startVelocity()
        i = bisect.bisect_right(ts, t) - 1
        h = ts[i + 1] - ts[i]
        u = (t - ts[i]) / h
        dq = self.diff(qs[i + 1], qs[i])
        if vs is None:
            return qs[i] + u * dq, dq / h
        v0, v1 = vs[i] * h, vs[i + 1] * h
        u2, u3 = u * u, u * u * u
        q = qs[i] + (u - 2 * u2 + u3) * v0 + (3 * u2 - 2 * u3) * dq + (u3 - u2) * v1
        dqdu = (1 - 4 * u + 3 * u2) * v0 + (6 * u - 6 * u2) * dq + (3 * u2 - 2 * u) * v1
        return q, dqdu / h

    def _startVelocity(self):
        if self.vs is not None:
            return self.vs[0]
        if len(self.times) > 1 and self.times[1] > self.times[0]:
            return self.diff(self.qs[1], self.qs[0]) / (self.times[1] - self.times[0])
        return 0.0

    def desired(self, t):
        """(position, velocity, feedforward torque) the command asks for at
        clock time t."""
        m = self.mode
        if m in _TRAJECTORY:
            q, v = self.evalTrajectory(t)
            return self.clampLimits(q), v, 0.0
        if m == 'setPosition':
            return self.setpoint, self.setpointVelocity, 0.0
        if m == 'setPID':
            return self.pid
        if m == 'setTorque':
            return self.hold, 0.0, self.torque
        return self.hold, 0.0, 0.0

    def endTime(self):
        return self.times[-1] if self.mode in _TRAJECTORY else None

    def setMode(self, mode):
        """Switches to a new command, keeping the current command as the
        hold position."""
        self.mode = mode
        self.dirty = True
        if mode != 'setTorque':
            self.torqueEnd = None

    def trim(self, t):
        """Drops trajectory knots entirely before t."""
        if self.mode in _TRAJECTORY and len(self.times) > 8:
            i = bisect.bisect_right(self.times, t) - 1
            if i > 4:
                del self.times[:i]
                del self.qs[:i]
                if self.vs is not None:
                    del self.vs[:i]


class _Filter:
    """A filter installed on some DOFs."""

    def __init__(self, name, indices, func, inputs, outputs):
        self.name = name
        self.indices = tuple(indices)
        self.func = func
        self.inputs = inputs
        self.outputs = outputs
        self.warned = False

    @property
    def isCommandFilter(self):
        """Reads a command and outputs only commands (or nothing): runs
        when commands are issued and sent."""
        return any(i in COMMAND_OPERANDS for i in self.inputs) and all(o in COMMAND_OPERANDS for o in self.outputs)


class _Drive:
    """A Cartesian velocity command being executed by a CartesianDriveSolver."""

    def __init__(self, kin, solver, dx, endTime):
        self.kin = kin
        self.solver = solver
        self.dx = dx
        self.endTime = endTime
        self.active = True


class RobotInterfaceEmulator:
    """A software motion controller for nd DOFs.

    Each DOF executes its latest command: a set-point (setPosition), a PID
    or torque command, or a trajectory; velocity commands and move-to
    commands become piecewise linear and cubic trajectories.  Each cycle:
    :meth:`advanceClock`, :meth:`update` with the sensed state, commands,
    then :meth:`sendToInterface` for each base interface, which picks the
    lowest-level mode the DOFs need (setTorque < setPID < setPosition <
    setPiecewiseLinear < setPiecewiseCubic) and the first base method able
    to execute it (:data:`BASE_METHODS`).

    Attributes:
        klamptModel (RobotModel or None): the model (limits, Cartesian
            control, collision filters).
        curClock (float): the clock of the current step.
        dt (float): the control period.
        numUpdates (int): updates so far (-1 before initialize).
        status (str): 'ok', 'softStop' or 'estop'.
        jointData (list): the per-DOF command state.
        cartesianInterfaces (dict): tuple(indices) -> Cartesian part state.
        stateFilters, commandFilters (dict): name -> installed filter.
        virtualSensorMeasurements (dict): name -> (time, value) from filters.
        settings (dict): see :data:`DEFAULT_SETTINGS`.
    """

    CONTROL_MODES = CONTROL_MODES

    def __init__(self, nd: int, klamptModel=None):
        self.klamptModel = klamptModel
        self.curClock = None
        self.dt = None
        self.numUpdates = -1
        self.status = 'ok'
        self.settings = dict(DEFAULT_SETTINGS)
        self.jointData = [self._makeJoint(i) for i in range(nd)]
        self.cartesianInterfaces = dict()
        self.stateFilters = dict()
        self.commandFilters = dict()
        self.virtualSensorMeasurements = dict()
        self.stateValues = {'cartesianError': 0.0}
        self.gravityCompensation = dict()
        self.sensorReader = None
        self._drives = dict()
        self._stopWarned = False

    def _makeJoint(self, i):
        model = self.klamptModel
        if model is None:
            return _Joint('Joint %d' % i)
        d = model.driver(i)
        links = d.getAffectedLinks()
        spin = len(links) == 1 and model.getJointType(links[0]) == 'spin'
        qmin, qmax = d.getLimits()
        vmin, vmax = d.getVelocityLimits()
        amin, amax = d.getAccelerationLimits()
        tmin, tmax = d.getTorqueLimits()
        return _Joint(model.link(links[-1]).getName() if links else 'Joint %d' % i, spin, qmin, qmax,
                      min(-vmin, vmax), min(-amin, amax), min(-tmin, tmax))

    # ------------------------------------------------------------ helpers
    def _joints(self, indices):
        if indices is None:
            return self.jointData
        return [self.jointData[i] for i in indices]

    def _all(self):
        return list(range(len(self.jointData)))

    def _now(self):
        if self.curClock is None:
            raise RuntimeError("The emulator needs a clock: run a step first")
        return self.curClock

    def _step(self):
        return self.dt if self.dt is not None else 0.0

    def _acceptsMotion(self, method):
        if self.status == 'ok':
            return True
        if not self._stopWarned:
            warnings.warn("%s ignored: the robot is stopped (status %r) until reset()" % (method, self.status),
                          RuntimeWarning, stacklevel=4)
            self._stopWarned = True
        return False

    def _releaseControllers(self, indices):
        for j in self._joints(indices):
            if j.controller is not None:
                j.controller.active = False
                for k in j.controller.kin.indices:
                    self.jointData[k].controller = None

    def _startCommand(self, indices, mode):
        """Common start of every joint command: the current command becomes
        the hold position and Cartesian controllers are released."""
        t = self._now()
        self._releaseControllers(indices)
        for j in self._joints(indices):
            j.hold = j.desired(t)[0]
            j.setMode(mode)
            for f in list(self.stateFilters.values()) + list(self.commandFilters.values()):
                f.warned = False

    # ------------------------------------------------------------ lifecycle
    def initialize(self, qsns, vsns, tsns, qcmd, vcmd, tcmd):
        """Sets the initial sensed and commanded state (lists or None;
        missing commanded positions default to the sensed ones)."""
        n = len(self.jointData)
        for name, v in (('qsns', qsns), ('vsns', vsns), ('tsns', tsns), ('qcmd', qcmd), ('vcmd', vcmd),
                        ('tcmd', tcmd)):
            if v is not None and len(v) != n:
                raise ValueError("RobotInterfaceEmulator.initialize: %s must have %d entries" % (name, n))
        if qsns is None and qcmd is None:
            raise ValueError("RobotInterfaceEmulator.initialize needs a sensed or commanded position")
        for i, j in enumerate(self.jointData):
            j.sensedPosition = float(qsns[i] if qsns is not None else qcmd[i])
            j.sensedVelocity = float(vsns[i]) if vsns is not None and vsns[i] is not None else 0.0
            j.hold = float(qcmd[i]) if qcmd is not None and qcmd[i] is not None else j.sensedPosition
            j.commandedTorque = float(tcmd[i]) if tcmd is not None and tcmd[i] is not None else 0.0
            j.mode = None
        self.numUpdates = 0

    def advanceClock(self, newClock, rate):
        """Moves to the next step: the given clock (if known), else one
        period of the given rate later."""
        if self.numUpdates < 0:
            raise RuntimeError("RobotInterfaceEmulator: call initialize() before advanceClock()")
        last = self.curClock
        if rate is not None:
            self.dt = 1.0 / rate
        if newClock is None:
            if rate is None and self.dt is None:
                raise ValueError("advanceClock needs a clock or a rate")
            self.curClock = 0.0 if last is None else last + self.dt
            return
        newClock = float(newClock)
        if last is not None:
            if rate is not None and abs(last + self.dt - newClock) > 1e-3:
                warnings.warn("Clock advanced from %g to %g, but the control period is %g" % (last, newClock, self.dt),
                              RuntimeWarning)
            if rate is None and newClock > last:
                self.dt = newClock - last
        self.curClock = newClock

    def update(self, q, v=None, qcmd=None):
        """Feeds the sensed positions q, the sensed velocities v (None: a
        finite difference of positions) and, optionally, the base's own
        commanded positions."""
        if self.numUpdates < 0:
            raise RuntimeError("RobotInterfaceEmulator: call initialize() before update()")
        n = len(self.jointData)
        if q is None or len(q) != n:
            raise ValueError("RobotInterfaceEmulator.update: q must have %d entries" % n)
        t = self.curClock
        for i, j in enumerate(self.jointData):
            qi = float(q[i])
            if v is not None and v[i] is not None:
                j.sensedVelocity = float(v[i])
            elif j.sensedTime is not None and t is not None and t > j.sensedTime:
                j.sensedVelocity = j.diff(qi, j.sensedPosition) / (t - j.sensedTime)
            j.sensedPosition = qi
            j.sensedTime = t
            j.baseCommanded = None if qcmd is None or qcmd[i] is None else float(qcmd[i])
            if j.mode == 'setTorque' and j.torqueEnd is not None and t is not None and t >= j.torqueEnd - 1e-9:
                j.torque = 0.0
                j.torqueEnd = None
                j.dirty = True
            if t is not None:
                j.trim(t)
        self.numUpdates += 1

    # ------------------------------------------------------------ joint commands
    def setPosition(self, indices, q):
        """Immediate position command."""
        if not self._acceptsMotion('setPosition'):
            return
        self._startCommand(indices, 'setPosition')
        for j, x in zip(self._joints(indices), q):
            j.setpoint = float(x)
            j.setpointVelocity = 0.0

    def setVelocity(self, indices, v, ttl):
        """A velocity command as a linear trajectory lasting ttl (1 s when
        None, shortened so no joint passes its limits, 1e-3 short of them;
        with an explicit ttl each joint stops at its limit)."""
        if not self._acceptsMotion('setVelocity'):
            return
        t = self._now()
        joints = self._joints(indices)
        q0 = [j.desired(t)[0] for j in joints]
        if ttl is None:
            ttl = 1.0
            for k, (j, x, vi) in enumerate(zip(joints, q0, v)):
                if j.spin or vi == 0:
                    continue
                if x < j.qmin or x > j.qmax:
                    raise ValueError("setVelocity: joint %d is outside its limits: %f <= %f <= %f"
                                     % (indices[k], j.qmin, x, j.qmax))
                if x + ttl * vi < j.qmin:
                    ttl = max(0.0, (j.qmin + 1e-3 - x) / vi)
                if x + ttl * vi > j.qmax:
                    ttl = max(0.0, (j.qmax - 1e-3 - x) / vi)
        self._startCommand(indices, 'setPiecewiseLinear')
        for j, x, vi in zip(joints, q0, v):
            end = x + vi * ttl
            times, qs = [t, t + ttl], [x, end]
            if not j.spin and vi != 0 and not (j.qmin <= end <= j.qmax):
                lim = j.qmax if vi > 0 else j.qmin
                tl = max(0.0, (lim - x) / vi)
                if tl < ttl:
                    times, qs = [t, t + tl, t + ttl], [x, lim, lim]
                else:
                    qs = [x, lim]
            j.times, j.qs, j.vs = times, qs, None

    def setTorque(self, indices, tau, ttl):
        """Torque command (for ttl seconds, then zero torque)."""
        if not self._acceptsMotion('setTorque'):
            return
        t = self._now()
        self._startCommand(indices, 'setTorque')
        for j, x in zip(self._joints(indices), tau):
            j.torque = float(x)
            j.torqueEnd = None if ttl is None else t + ttl

    def setPID(self, indices, q, dq, tau=None):
        """PID command to (q, dq) with feedforward torque tau."""
        if not self._acceptsMotion('setPID'):
            return
        if tau is None:
            tau = [0.0] * len(q)
        self._startCommand(indices, 'setPID')
        for j, a, b, c in zip(self._joints(indices), q, dq, tau):
            j.pid = (float(a), float(b), float(c))
            j.integral = 0.0

    def setPIDGains(self, indices, kP, kI, kD):
        """Per-DOF gains (used when PID is emulated through torques).

        Gains are stored per joint as scalars (kP, kI, kD); the reference
        stores whole vectors per joint and raises TypeError."""
        for j, p, i, d in zip(self._joints(indices), kP, kI, kD):
            j.gains = (float(p), float(i), float(d))

    def getPIDGains(self, indices):
        """(kP, kI, kD) lists; (None, None, None) if not set."""
        joints = self._joints(indices)
        if any(j.gains is None for j in joints):
            return (None, None, None)
        return tuple([j.gains[k] for j in joints] for k in range(3))

    def moveToPosition(self, indices, q, speed=1.0):
        """The time-optimal acceleration-bounded move to (q, 0), all DOFs
        arriving together, as a piecewise cubic (a set-point without a
        model)."""
        if not self._acceptsMotion('moveToPosition'):
            return
        joints = self._joints(indices)
        if self.klamptModel is None:
            warnings.warn("moveToPosition without a Klamp't model: sent as setPosition", RuntimeWarning,
                          stacklevel=3)
            self.setPosition(indices, q)
            return
        t = self._now()
        from ..plan import motionplanning
        x0, v0, x1, xmin, xmax, vmax, amax = [], [], [], [], [], [], []
        for k, (j, target) in enumerate(zip(joints, q)):
            qc, vc, _ = j.desired(t)
            if j.spin:
                target = qc + so2.diff(target, qc)
                lo, hi = -INF, INF
            else:
                if not (j.qmin <= target <= j.qmax):
                    raise ValueError("moveToPosition: joint %d target %f is outside its limits [%f, %f]"
                                     % (indices[k], target, j.qmin, j.qmax))
                lo, hi = min(j.qmin, qc), max(j.qmax, qc)
            x0.append(qc)
            v0.append(vc)
            x1.append(float(target))
            xmin.append(lo)
            xmax.append(hi)
            vmax.append(max(j.vmax * speed, abs(vc)))
            amax.append(j.amax * speed * speed)
        ts, xs, vs = motionplanning.interpolate_nd_min_time(x0, v0, x1, [0.0] * len(x1), xmin, xmax, vmax, amax)
        for k, tk in enumerate(ts):
            if len(tk) == 0:
                raise ValueError("moveToPosition: no feasible move for joint %d from %f (velocity %f) to %f"
                                 % (indices[k], x0[k], v0[k], x1[k]))
        ts, xs, vs = motionplanning.combine_nd_cubic(ts, xs, vs)
        self._setTrajectory(indices, [t + x for x in ts], xs, vs)

    def _setTrajectory(self, indices, ts, qs, vs):
        """Installs an absolute-time trajectory starting at the current
        commanded state."""
        t = self._now()
        joints = self._joints(indices)
        if ts[0] > t:
            start = [j.desired(t) for j in joints]
            ts = [t] + list(ts)
            qs = [[s[0] for s in start]] + list(qs)
            if vs is not None:
                vs = [[s[1] for s in start]] + list(vs)
        self._startCommand(indices, 'setPiecewiseCubic' if vs is not None else 'setPiecewiseLinear')
        for k, j in enumerate(joints):
            j.times = list(ts)
            j.qs = [float(q[k]) for q in qs]
            j.vs = None if vs is None else [float(v[k]) for v in vs]

    def _absoluteTimes(self, method, ts, relative):
        t = self._now()
        ts = [float(x) for x in ts]
        if any(b < a for a, b in zip(ts, ts[1:])):
            raise ValueError("%s: times must be nondecreasing" % method)
        if relative:
            if ts and ts[0] < 0:
                raise ValueError("%s: relative times must be >= 0" % method)
            return [x + t for x in ts]
        if ts and ts[0] < t - 1e-9:
            raise ValueError("%s: absolute times must be >= clock() = %f" % (method, t))
        return ts

    def setPiecewiseLinear(self, indices, ts, qs, relative=True):
        """A piecewise linear trajectory (times relative to now, or clock
        times)."""
        if not self._acceptsMotion('setPiecewiseLinear') or len(ts) == 0:
            return
        self._setTrajectory(indices, self._absoluteTimes('setPiecewiseLinear', ts, relative), qs, None)

    def setPiecewiseCubic(self, indices, ts, qs, vs, relative=True):
        """A piecewise cubic trajectory (times relative to now, or clock
        times)."""
        if not self._acceptsMotion('setPiecewiseCubic') or len(ts) == 0:
            return
        self._setTrajectory(indices, self._absoluteTimes('setPiecewiseCubic', ts, relative), qs, vs)

    def promote(self, indices, controlType):
        """Re-expresses the DOFs' commands in controlType: None clears them
        (hold the commanded position), 'setPiecewiseCubic' turns linear
        trajectories into cubic ones with the segment slopes.

        The reference tests for 'setPiecewiseLinear' inside its cubic branch
        and keeps None velocities."""
        t = self._now()
        joints = self._joints(indices)
        if controlType is None:
            self._releaseControllers(indices)
            for j in joints:
                j.hold = j.desired(t)[0]
                j.mode = None
                j.dirty = True
            return
        if controlType == 'setPiecewiseCubic':
            for j in joints:
                if j.mode == 'setPiecewiseLinear':
                    times, qs, vs = _linearAsCubic(j)
                    j.times, j.qs, j.vs = times, qs, vs
                    j.mode = 'setPiecewiseCubic'
                    j.dirty = True

    def release(self, indices):
        """Stops commanding the DOFs (the base runs a custom control mode
        on them) until their next command."""
        self.promote(indices, None)
        for j in self._joints(indices):
            j.mode = 'external'
            j.dirty = False

    # ------------------------------------------------------------ stops
    def _freeze(self, indices, status):
        t = self._now()
        self.status = status
        self._stopWarned = False
        self._releaseControllers(None)
        joints = self._joints(indices)
        if self.settings.get('softStopMode') == 'brake' and status == 'softStop' and self.klamptModel is not None:
            from ..plan import motionplanning
            state = [j.desired(t) for j in joints]
            tb, xb, vb = motionplanning.brake_nd([s[0] for s in state], [s[1] for s in state],
                                                 [-INF] * len(joints), [INF] * len(joints),
                                                 [j.amax for j in joints])
            tb, xb, vb = motionplanning.combine_nd_cubic(tb, xb, vb)
            for k, j in enumerate(joints):
                j.hold = state[k][0]
                j.setMode('setPiecewiseCubic')
                j.times = [t + x for x in tb]
                j.qs = [x[k] for x in xb]
                j.vs = [v[k] for v in vb]
            return
        for j in joints:
            q = j.desired(t)[0]
            j.hold = q
            j.setMode('setPosition')
            j.setpoint = q
            j.setpointVelocity = 0.0

    def softStop(self, indices=None):
        """Freezes the DOFs at their commanded position (or brakes, with the
        setting softStopMode='brake'); status 'softStop' until reset()."""
        self._freeze(indices, 'softStop')

    def estop(self, indices=None):
        """Freezes the DOFs at their commanded position; status 'estop'."""
        self._freeze(indices, 'estop')

    def reset(self):
        """Clears a stop status."""
        self.status = 'ok'
        self._stopWarned = False

    # ------------------------------------------------------------ queries
    def isMoving(self, indices=None):
        """True while a trajectory or a Cartesian velocity command runs on
        the DOFs (and, with the setting settleTolerance, while the sensed
        position is farther than that from the commanded one)."""
        t = self._now()
        tol = self.settings.get('settleTolerance')
        for j in self._joints(indices):
            if j.controller is not None and j.controller.active:
                return True
            end = j.endTime()
            if end is not None and t < end - 1e-9:
                return True
            if tol is not None and j.mode is not None and j.sensedPosition is not None:
                if abs(j.diff(j.desired(t)[0], j.sensedPosition)) > tol:
                    return True
        return False

    def commandedPosition(self, indices=None):
        """The commanded positions at the current clock."""
        t = self._now()
        return [j.desired(t)[0] for j in self._joints(indices)]

    def commandedVelocity(self, indices=None):
        """The commanded velocities at the current clock."""
        t = self._now()
        return [j.desired(t)[1] for j in self._joints(indices)]

    def commandedTorque(self, indices=None):
        """The commanded (feedforward) torques."""
        t = self._now()
        return [j.desired(t)[2] if j.mode in ('setTorque', 'setPID') else j.commandedTorque
                for j in self._joints(indices)]

    def sensedPosition(self, indices=None):
        """The sensed positions fed by update()."""
        return [j.sensedPosition for j in self._joints(indices)]

    def sensedVelocity(self, indices=None):
        """The sensed velocities: measured, or finite differences."""
        return [j.sensedVelocity for j in self._joints(indices)]

    def destinationPosition(self, indices=None):
        """Where the current commands end."""
        t = self._now()
        res = []
        for j in self._joints(indices):
            res.append(j.clampLimits(j.qs[-1]) if j.mode in _TRAJECTORY else j.desired(t)[0])
        return res

    def destinationVelocity(self, indices=None):
        """The velocity at the end of the current commands."""
        res = []
        for j in self._joints(indices):
            if j.mode == 'setPiecewiseCubic':
                res.append(j.vs[-1])
            elif j.mode == 'setPID':
                res.append(j.pid[1])
            else:
                res.append(0.0)
        return res

    def destinationTime(self, indices=None):
        """The clock time at which the current commands end (now if none
        is running)."""
        t = self._now()
        ends = [j.endTime() for j in self._joints(indices)]
        drives = [j.controller.endTime for j in self._joints(indices) if j.controller is not None]
        return max([t] + [e for e in ends if e is not None] + [e for e in drives if e is not None])

    def queuedTrajectory(self, indices=None):
        """(ts, qs, vs) of the commands from now on, on one time grid."""
        t = self._now()
        joints = self._joints(indices)
        times = sorted(set([t] + [x for j in joints if j.mode in _TRAJECTORY for x in j.times if x > t]))
        qs, vs = [], []
        for x in times:
            state = [j.desired(x) for j in joints]
            qs.append([s[0] for s in state])
            vs.append([s[1] for s in state])
        return (times, qs, vs)

    # ------------------------------------------------------------ sending
    def desiredControlMode(self, indices=None):
        """The lowest-level mode the DOFs' commands need (DOFs without a
        command count as setPosition); None if the base runs a custom mode
        on all of them.

        The true lowest mode of the DOFs (the reference's loop skips the first
        joint, so its result depends on joint order)."""
        best = None
        for j in self._joints(indices):
            if j.mode == 'external':
                continue
            m = j.mode or 'setPosition'
            if best is None or _PRECEDENCE[m] < _PRECEDENCE[best]:
                best = m
        return best

    def _needsSending(self, joints, baseMode):
        if any(j.dirty for j in joints):
            return True
        if baseMode in _FEEDBACK:
            return True
        if baseMode in _TRAJECTORY:
            return False
        t = self._now()
        for j in joints:
            end = j.endTime()
            if end is not None and t < end + self._step() - 1e-9:
                return True
            if j.mode == 'setPosition' and j.setpointVelocity != 0:
                return True
        return False

    def _positionCommand(self, indices, t):
        """The position command of the DOFs for time t through the command
        filters; None if a filter dropped it."""
        q = [j.desired(t)[0] for j in self._joints(indices)]
        return self._runCommandFilters(indices, {'positionCommand': q}, streaming=True)

    def getCommand(self, commandType, indices=None):
        """The arguments of base method commandType executing the DOFs'
        commands this step (None if a filter dropped the command)."""
        if indices is None:
            indices = self._all()
        joints = self._joints(indices)
        t = self._now()
        dt = self._step()
        tn = t + dt
        if commandType in ('setPosition', 'moveToPosition'):
            items = self._positionCommand(indices, tn)
            return None if items is None else (items['positionCommand'],)
        if commandType == 'setPID':
            state = [j.desired(tn) for j in joints]
            items = self._runCommandFilters(indices, {'positionCommand': [s[0] for s in state],
                                                      'velocityCommand': [s[1] for s in state]}, streaming=True)
            if items is None:
                return None
            return (items['positionCommand'], items['velocityCommand'], [s[2] for s in state])
        if commandType == 'setVelocity':
            return self._velocityCommand(indices, joints, t, dt)
        if commandType == 'setTorque':
            return self._torqueCommand(indices, joints, t)
        if commandType == 'setPiecewiseLinear':
            return self._linearCommand(joints, t, dt)
        if commandType == 'setPiecewiseCubic':
            return self._cubicCommand(joints, t)
        raise ValueError("Unknown command type %r" % (commandType,))

    def _velocityCommand(self, indices, joints, t, dt):
        kff = self.settings['velocityFeedforward']
        kp = self.settings['velocityTrackingGain']
        h = dt if dt > 0 else 1e-3
        ttl = 2 * h
        v = []
        for j in joints:
            q0 = j.desired(t)[0]
            q1 = j.desired(t + h)[0]
            vi = kff * j.diff(q1, q0) / h + kp * j.diff(q0, j.sensedPosition)
            vi = max(-j.vmax, min(j.vmax, vi))
            if j.baseCommanded is not None and not j.spin:
                lo = (j.qmin - j.baseCommanded) / ttl
                hi = (j.qmax - j.baseCommanded) / ttl
                vi = max(min(vi, hi), lo) if lo <= hi else 0.0
            v.append(vi)
        items = self._runCommandFilters(indices, {'velocityCommand': v}, streaming=True)
        return None if items is None else (items['velocityCommand'], ttl)

    def _torqueCommand(self, indices, joints, t):
        tau = []
        ttl = None
        for k, j in enumerate(joints):
            if j.mode == 'setTorque':
                tau.append(j.torque)
                if j.torqueEnd is not None:
                    ttl = max(ttl or 0.0, j.torqueEnd - t)
                continue
            if j.gains is None:
                raise RuntimeError("Joint %d (%s) needs PID gains (setPIDGains) to be controlled through torques"
                                   % (indices[k], j.name))
            kp, ki, kd = j.gains
            qd, vd, tff = j.desired(t)
            e = j.diff(qd, j.sensedPosition)
            j.integral += e * self._step()
            if ki > 0 and math.isfinite(j.tmax):
                j.integral = max(-j.tmax / ki, min(j.tmax / ki, j.integral))
            tau.append(kp * e + kd * (vd - j.sensedVelocity) + ki * j.integral + tff)
        items = self._runCommandFilters(indices, {'torqueCommand': tau}, streaming=True)
        return None if items is None else (items['torqueCommand'], ttl)

    def _linearCommand(self, joints, t, dt):
        times = set()
        for j in joints:
            if j.mode == 'setPiecewiseLinear':
                times.update(x for x in j.times if x > t)
            elif j.mode == 'setPiecewiseCubic':
                end = j.times[-1]
                step = dt if dt > 0 else 0.01
                k = 1
                while t + k * step < end:
                    times.add(t + k * step)
                    k += 1
                times.add(end)
        times = sorted(times)
        if not times:
            times = [t]
        qs = [[j.desired(x)[0] for j in joints] for x in times]
        return ([x - t for x in times], qs)

    def _cubicCommand(self, joints, t):
        times = set()
        kinks = set()
        for j in joints:
            if j.mode in _TRAJECTORY:
                future = [x for x in j.times if x > t]
                times.update(future)
                if j.mode == 'setPiecewiseLinear':
                    kinks.update(future[:-1])
        times = sorted(times)
        if not times:
            times = [t]
        ts, qs, vs = [], [], []
        for x in times:
            sides = ('left', 'right') if x in kinks else (None,)
            for side in sides:
                ts.append(x - t)
                qk, vk = [], []
                for j in joints:
                    if j.mode == 'setPiecewiseLinear' and side is not None:
                        q, v = _linearSide(j, x, side)
                    else:
                        q, v = j.desired(x)[:2]
                    qk.append(q)
                    vk.append(v)
                qs.append(qk)
                vs.append(vk)
        return (ts, qs, vs)

    def sendToInterface(self, interface, indices=None, cache=None):
        """Sends the DOFs' commands to a base interface in the best mode it
        implements.  cache (dict) remembers which methods exist.  Returns
        (desiredControlMode, baseControlMode), (None, None) when nothing
        needed sending.

        Command filters run on the converted command too (the reference
        computes their arguments but never calls them)."""
        if indices is None:
            indices = self._all()
        if cache is None:
            cache = interface.__dict__.setdefault('_control_mode_map', dict())
        joints = self._joints(indices)
        desired = self.desiredControlMode(indices)
        if desired is None:
            return (None, None)
        known = cache.get(('mode', desired))
        if known is not None:
            if not self._needsSending(joints, known):
                return (None, None)
            methods = [known]
        else:
            # nothing was ever commanded in this mode: a base without a
            # command keeps its own state until the first one
            if not any(j.dirty for j in joints):
                return (None, None)
            methods = BASE_METHODS[desired]
        uncomputable = None
        for method in methods:
            if cache.get(method) is False:
                continue
            try:
                args = self.getCommand(method, indices)
            except RuntimeError as e:
                # e.g. torques without PID gains: a later method may do
                if known is not None:
                    raise
                uncomputable = e
                continue
            if args is None:
                cache[('mode', desired)] = method
                return (desired, method)
            try:
                getattr(interface, method)(*args)
            except NotImplementedError:
                cache[method] = False
                continue
            cache[method] = True
            cache[('mode', desired)] = method
            for j in joints:
                j.dirty = False
            return (desired, method)
        if uncomputable is not None:
            raise uncomputable
        raise NotImplementedError("%s implements none of %s, needed for %s commands"
                                  % (interface, ', '.join(BASE_METHODS[desired]), desired))

    def onBaseCommand(self, desiredControlMode, sentControlMode, indices=None):
        """Marks the DOFs' commands as sent.

        The DOFs' modes are tested with `in` (the reference compares with ==
        [list]), so base commands are recorded."""
        if sentControlMode is None:
            return
        for j in self._joints(indices):
            j.dirty = False

    # ------------------------------------------------------------ filters
    def setFilter(self, indices, name, filter, input='auto', output='auto'):
        """Installs (or removes, filter=None) a filter on the DOFs (see
        RobotInterfaceCompleter.setFilter).

        A filter raising an unknown BlockSignal raises ValueError (the
        reference reads a nonexistent e.type)."""
        indices = tuple(self._all() if indices is None else indices)
        if filter is None:
            self.commandFilters.pop(name, None)
            self.stateFilters.pop(name, None)
            self.virtualSensorMeasurements.pop(name, None)
            return
        if input == 'auto':
            input = {'joint_limit': 'positionCommand', 'self_collision': 'positionCommand',
                     'obstacle_collision': 'positionCommand', 'velocity_limit': 'velocityCommand',
                     'acceleration_limit': 'accelerationCommand', 'torque_limit': 'torqueCommand',
                     'tracking_monitor': ['commandedPosition', 'sensedPosition']}.get(name, name)
        if output == 'auto':
            output = {'joint_limit': 'positionCommand', 'self_collision': 'positionCommand',
                      'obstacle_collision': 'positionCommand', 'velocity_limit': 'velocityCommand',
                      'acceleration_limit': 'accelerationCommand', 'torque_limit': 'torqueCommand',
                      'tracking_monitor': []}.get(name, name)
        inputs = list(input) if isinstance(input, (list, tuple)) else [input]
        outputs = [] if output is None else (list(output) if isinstance(output, (list, tuple)) else [output])
        for o in outputs:
            if o in STATE_OPERANDS and o != 'status':
                raise ValueError("Filter %s: output %s is a state, not a command or a virtual sensor" % (name, o))
        if any(o in COMMAND_OPERANDS for o in outputs) and not all(o in COMMAND_OPERANDS for o in outputs):
            raise NotImplementedError("Filter %s mixes command and state outputs" % name)
        if any(o in COMMAND_OPERANDS for o in outputs) and not any(i in COMMAND_OPERANDS for i in inputs):
            raise NotImplementedError("Filter %s outputs commands but reads no command" % name)
        from .blocks.core import Block
        if isinstance(filter, Block):
            func = filter.advance
        elif callable(filter):
            func = filter
        elif hasattr(filter, 'advance'):
            func = filter.advance
        else:
            raise ValueError("Filter %s must be callable or a Block" % name)
        f = _Filter(name, indices, func, inputs, outputs)
        self.commandFilters.pop(name, None)
        self.stateFilters.pop(name, None)
        if f.isCommandFilter:
            self.commandFilters[name] = f
        else:
            self.stateFilters[name] = f
            for o in outputs:
                if o != 'status':
                    self.virtualSensorMeasurements.setdefault(o, (None, None))

    def _filterInput(self, f, name, items):
        if name in items:
            return items[name]
        if name == 'status':
            return self.status
        if name in ('sensedPosition', 'sensedVelocity', 'commandedPosition', 'commandedVelocity',
                    'commandedTorque', 'destinationPosition', 'destinationVelocity'):
            return getattr(self, name)(f.indices)
        if name in COMMAND_OPERANDS:
            # a command not being issued: the current commanded value
            base = {'positionCommand': 'commandedPosition', 'velocityCommand': 'commandedVelocity',
                    'torqueCommand': 'commandedTorque'}.get(name)
            if base is None:
                raise KeyError(name)
            return getattr(self, base)(f.indices)
        if name in self.virtualSensorMeasurements:
            return self.virtualSensorMeasurements[name][1]
        if self.sensorReader is not None:
            return self.sensorReader(name)
        raise ValueError("Filter %s: unknown input %s" % (f.name, name))

    def _runFilter(self, f, args):
        """Runs f; returns its results as a list, or raises _Dropped."""
        try:
            res = f.func(*args)
        except BlockSignal as e:
            if e.signal == 'softStop':
                self.softStop()
                raise _Dropped()
            if e.signal == 'warn':
                if not f.warned:
                    warnings.warn("Filter %s: %s; command ignored" % (f.name, e), RuntimeWarning, stacklevel=5)
                    f.warned = True
                raise _Dropped()
            raise ValueError("Filter %s raised the unknown signal %r" % (f.name, e.signal))
        if len(f.outputs) == 0:
            return []
        if len(f.outputs) == 1:
            return [res]
        if res is None or len(res) != len(f.outputs):
            raise ValueError("Filter %s must return %d outputs" % (f.name, len(f.outputs)))
        return list(res)

    def _runCommandFilters(self, indices, items, streaming=False):
        """Runs the command filters whose command inputs are among items
        (values for the DOFs indices); returns the filtered items, or None
        if a filter dropped the command."""
        if not self.commandFilters:
            return items
        items = dict(items)
        pos = dict((i, k) for k, i in enumerate(indices))
        for f in list(self.commandFilters.values()):
            needed = [i for i in f.inputs if i in COMMAND_OPERANDS]
            if not all(i in items for i in needed) or not any(i in pos for i in f.indices):
                continue
            full = {}
            for name in needed:
                cur = self._filterInput(f, name, {})
                vals = list(cur)
                for k, i in enumerate(f.indices):
                    if i in pos:
                        vals[k] = items[name][pos[i]]
                full[name] = vals
            args = [full[i] if i in full else self._filterInput(f, i, {}) for i in f.inputs]
            try:
                results = self._runFilter(f, args)
            except _Dropped:
                return None
            for name, value in zip(f.outputs, results):
                if value is None or name not in items:
                    continue
                if len(value) != len(f.indices):
                    raise ValueError("Filter %s returned %d values for %d DOFs" % (f.name, len(value), len(f.indices)))
                vals = list(items[name])
                for k, i in enumerate(f.indices):
                    if i in pos:
                        vals[pos[i]] = float(value[k])
                items[name] = vals
        return items

    def commandFilter(self, indices, item, value):
        """value (a command of kind item for the DOFs) through the command
        filters; None if a filter dropped it."""
        res = self._runCommandFilters(list(indices), {item: list(value)})
        return None if res is None else res[item]

    def runStateFilters(self):
        """Runs the state filters; their outputs become virtual sensor
        measurements (or the status)."""
        for f in list(self.stateFilters.values()):
            try:
                args = [self._filterInput(f, i, {}) for i in f.inputs]
            except (KeyError, NotImplementedError):
                continue
            try:
                results = self._runFilter(f, args)
            except _Dropped:
                continue
            for name, value in zip(f.outputs, results):
                if name == 'status':
                    if value and value != 'ok':
                        self.status = value
                else:
                    self.virtualSensorMeasurements[name] = (self.curClock, value)

    def setJointLimits(self, indices, qmin='auto', qmax='auto', op='clamp', hw_qmin=None, hw_qmax=None,
                       vmax=None, amax=None):
        """Installs the 'joint_limit' filter ('auto': the model's driver
        limits, spin joints [0, 2 pi]), intersected with hardware limits;
        optionally 'velocity_limit' (vmax) and a braking filter (amax)."""
        from ._filters import BrakeLimitFilter, LimitFilter
        indices = self._all() if indices is None else list(indices)
        joints = self._joints(indices)
        if qmin == 'auto' or qmax == 'auto':
            if self.klamptModel is None and hw_qmin is None:
                raise ValueError("setJointLimits('auto') needs a Klamp't model or hardware jointLimits")
            mq = [(0.0, 2 * math.pi) if j.spin else (j.qmin, j.qmax) for j in joints]
            if self.klamptModel is None:
                mq = list(zip(hw_qmin, hw_qmax))
            if qmin == 'auto':
                qmin = [a for a, b in mq]
            if qmax == 'auto':
                qmax = [b for a, b in mq]
        qmin = _checks.vector(qmin, len(indices), 'setJointLimits', 'qmin')
        qmax = _checks.vector(qmax, len(indices), 'setJointLimits', 'qmax')
        if hw_qmin is not None:
            qmin = [max(a, b) for a, b in zip(qmin, hw_qmin)]
            qmax = [min(a, b) for a, b in zip(qmax, hw_qmax)]
        self.setFilter(indices, 'joint_limit', LimitFilter(op, qmin, qmax))
        if vmax is not None:
            if vmax == 'auto':
                vmax = [j.vmax for j in joints]
            vmax = _checks.vector(vmax, len(indices), 'setJointLimits', 'vmax')
            self.setFilter(indices, 'velocity_limit', LimitFilter(op, [-v for v in vmax], vmax))
        if amax is not None:
            if amax == 'auto':
                amax = [j.amax for j in joints]
            amax = _checks.vector(amax, len(indices), 'setJointLimits', 'amax')
            self.setFilter(indices, 'brake_limit', BrakeLimitFilter(op, qmin, qmax, [-a for a in amax], amax),
                           input=['positionCommand', 'velocityCommand'], output=['positionCommand', 'velocityCommand'])

    def setCollisionFilter(self, world=None, op='warn'):
        """Installs 'self_collision', plus 'obstacle_collision' against the
        world's terrains and rigid objects when world is given."""
        from ._filters import CollisionFilter, SelfCollisionFilter
        robot = self.klamptModel
        if robot is None:
            raise ValueError("setCollisionFilter needs a Klamp't model")
        self.setFilter(self._all(), 'self_collision', SelfCollisionFilter(op, robot))
        if world is not None:
            obstacles = [world.terrain(i) for i in range(world.numTerrains())]
            obstacles += [world.rigidObject(i) for i in range(world.numRigidObjects())]
            self.setFilter(self._all(), 'obstacle_collision', CollisionFilter(op, robot, obstacles))

    # ------------------------------------------------------------ gravity
    def setGravityCompensation(self, indices, gravity, load, load_com):
        """Stores the gravity compensation settings of the DOFs."""
        self.gravityCompensation[tuple(indices)] = ([float(x) for x in gravity], float(load),
                                                    [float(x) for x in load_com])

    def getGravityCompensation(self, indices):
        """(gravity, load, load_com), the default ([0,0,-9.8], 0, [0,0,0])."""
        return self.gravityCompensation.get(tuple(indices), ([0.0, 0.0, -9.8], 0.0, [0.0, 0.0, 0.0]))

    # ------------------------------------------------------------ Cartesian
    def _kinematics(self, indices, create=True):
        key = tuple(indices)
        kin = self.cartesianInterfaces.get(key)
        if kin is None and create:
            if self.klamptModel is None:
                raise NotImplementedError("Cartesian control needs a Klamp't model")
            kin = _cartesian.PartKinematics(self.klamptModel, indices)
            self.cartesianInterfaces[key] = kin
        return kin

    def enableCartesianControl(self, indices, robot_model_link=None):
        """Sets the end-effector link of the DOFs' Cartesian control
        (default: the link of the last DOF)."""
        key = tuple(indices)
        kin = self._kinematics(indices)
        if robot_model_link is not None:
            kin.toolLink = _cartesian.resolve_link(self.klamptModel, robot_model_link)
        self.cartesianInterfaces[key] = kin
        return kin

    def setToolCoordinates(self, indices, xtool_local):
        """Sets the tool point (end-effector link coordinates)."""
        kin = self._kinematics(indices)
        if any(self.jointData[i].controller is not None and self.jointData[i].controller.active for i in indices):
            raise RuntimeError("Tool coordinates cannot change during a Cartesian velocity command")
        kin.toolCoordinates = _checks.vector(xtool_local, 3, 'setToolCoordinates', 'xtool_local')

    def getToolCoordinates(self, indices):
        """The tool point ([0,0,0] if never set)."""
        kin = self._kinematics(indices, create=False)
        return [0.0, 0.0, 0.0] if kin is None else list(kin.toolCoordinates)

    def _qcmdAll(self):
        return self.commandedPosition()

    def _cartesianGoal(self, indices, xparams, frame, method):
        kin = self._kinematics(indices)
        target = _checks.cartesian_target(xparams, method)
        _checks.frame(frame, method)
        qcmd = self._qcmdAll()
        world = kin.targetToWorld(target, frame, qcmd)
        qstart = self.klamptModel.configFromDrivers(qcmd)
        q, err = _cartesian.solve_ik(kin, world, qstart)
        drivers, q_ach = self._partDrivers(indices, q, qcmd)
        if q_ach is not None:
            err = kin.error(q_ach, world)
        self.stateValues['cartesianError'] = max(err)
        if err[0] > _cartesian.POSITION_TOLERANCE or err[1] > _cartesian.ROTATION_TOLERANCE:
            _cartesian.warn_unreachable(method, err)
        return drivers

    def _partDrivers(self, indices, q_links, qcmd):
        """The driver values of indices at the IK solution q_links, within
        the drivers' limits.  IK moves the links of a driver that moves
        several (a gripper) independently, and link limits may allow
        slightly more than the driver's: the solution is projected onto the
        drivers.  Returns (driver values, achieved link configuration or
        None when the projection changed nothing)."""
        model = self.klamptModel
        d = model.configToDrivers(q_links)
        out = []
        for i in indices:
            out.append(float(self.jointData[i].clampLimits(d[i])))
        full = list(qcmd)
        for i, v in zip(indices, out):
            full[i] = v
        q_ach = [float(v) for v in model.configFromDrivers(full)]
        if max(abs(a - b) for a, b in zip(q_ach, q_links)) <= 1e-12:
            return out, None
        return out, q_ach

    def setCartesianPosition(self, indices, xparams, frame='world'):
        """IK to the target, then setPosition."""
        if not self._acceptsMotion('setCartesianPosition'):
            return
        self.setPosition(indices, self._cartesianGoal(indices, xparams, frame, 'setCartesianPosition'))

    def moveToCartesianPosition(self, indices, xparams, speed=1.0, frame='world'):
        """IK to the target, then moveToPosition."""
        if not self._acceptsMotion('moveToCartesianPosition'):
            return
        self.moveToPosition(indices, self._cartesianGoal(indices, xparams, frame, 'moveToCartesianPosition'), speed)

    def moveToCartesianPositionLinear(self, indices, xparams, speed=1.0, frame='world', duration=None):
        """A straight line to the target lasting duration (default
        1/speed, lengthened to respect the joint velocity limits), with a
        smooth (cubic) time scaling, solved by IK at every control period
        and executed as a joint-space trajectory."""
        if not self._acceptsMotion('moveToCartesianPositionLinear'):
            return
        method = 'moveToCartesianPositionLinear'
        kin = self._kinematics(indices)
        target = _checks.cartesian_target(xparams, method)
        _checks.frame(frame, method)
        if duration is None:
            duration = 1.0 / _checks.speed(speed, method)
        elif not duration > 0:
            raise ValueError("%s: duration must be > 0" % method)
        qcmd = self._qcmdAll()
        world = kin.targetToWorld(target, frame, qcmd)
        start = kin.position(qcmd, 'world')
        if not _checks.is_transform(world):
            start = start[1]
        model = self.klamptModel
        qstart = [float(v) for v in model.configFromDrivers(qcmd)]
        step = self._step() if self._step() > 0 else 0.01
        for _attempt in range(3):
            path, err = self._linearPath(kin, start, world, qstart, duration, step)
            slowdown = self._pathSlowdown(kin, path, step)
            if slowdown <= 1.0 + 1e-9:
                break
            duration *= slowdown * 1.05
        self.stateValues['cartesianError'] = max(err)
        if err[0] > _cartesian.POSITION_TOLERANCE or err[1] > _cartesian.ROTATION_TOLERANCE:
            _cartesian.warn_unreachable(method, err)
        t = self._now()
        ts = [t + k * step for k in range(1, len(path) + 1)]
        qs = [self._partDrivers(indices, q, qcmd)[0] for q in path]
        self._setTrajectory(indices, ts, qs, None)

    def _linearPath(self, kin, start, goal, qstart, duration, step):
        """IK solutions along the straight line, one per control period."""
        from ..math import se3 as _se3
        from ..math import vectorops
        n = max(1, int(math.ceil(duration / step - 1e-9)))
        path = []
        q = qstart
        err = (0.0, 0.0)
        for k in range(1, n + 1):
            u = min(1.0, k * step / duration)
            s = 3 * u * u - 2 * u * u * u
            if _checks.is_transform(goal):
                pose = _se3.interpolate(start, goal, s)
            else:
                pose = vectorops.interpolate(start, goal, s)
            q, err = _cartesian.solve_ik(kin, pose, q, restarts=False)
            path.append(q)
        return path, err

    def _pathSlowdown(self, kin, path, step):
        worst = 0.0
        vmax = self.klamptModel.getVelocityLimits()
        prev = None
        for q in path:
            if prev is not None:
                for l in kin.links:
                    if vmax[l] > 0:
                        worst = max(worst, abs(q[l] - prev[l]) / step / vmax[l])
            prev = q
        return worst

    def setCartesianVelocity(self, indices, dxparams, ttl=None, frame='world'):
        """Drives the tool at (w, v) (or v, orientation free) for ttl
        seconds (until replaced when None)."""
        if not self._acceptsMotion('setCartesianVelocity'):
            return
        method = 'setCartesianVelocity'
        dx = _checks.cartesian_pair(dxparams, method, 'dxparams')
        _checks.frame(frame, method)
        kin = self._kinematics(indices)
        qcmd = self._qcmdAll()
        dxw = kin.velocityToWorld(dx, frame, qcmd)
        t = self._now()
        from .cartesian_drive import CartesianDriveSolver
        existing = self.jointData[indices[0]].controller
        if (existing is not None and existing.active and tuple(existing.kin.indices) == tuple(indices)
                and (len(existing.dx) == 2) == (len(dxw) == 2)):
            drive = existing
            drive.dx = dxw
            drive.endTime = None if ttl is None else t + ttl
            return
        self._startCommand(indices, 'setPosition')
        model = self.klamptModel
        solver = CartesianDriveSolver(model)
        solver.start(model.configFromDrivers(qcmd), kin.toolLink, endEffectorPositions=kin.toolCoordinates)
        solver.setActiveDofs(kin.links)
        drive = _Drive(kin, solver, dxw, None if ttl is None else t + ttl)
        for i in indices:
            j = self.jointData[i]
            j.setpoint = j.hold
            j.setpointVelocity = 0.0
            j.controller = drive

    def advanceControllers(self):
        """Steps the Cartesian velocity commands: each drives the tool one
        period and sets its DOFs' set-points for the end of the period."""
        t = self._now()
        dt = self._step()
        seen = set()
        for j in self.jointData:
            drive = j.controller
            if drive is None or id(drive) in seen:
                continue
            seen.add(id(drive))
            if not drive.active:
                continue
            if dt <= 0:
                continue
            if drive.endTime is not None and t >= drive.endTime - 1e-9:
                drive.active = False
                for i in drive.kin.indices:
                    self.jointData[i].setpointVelocity = 0.0
                    self.jointData[i].dirty = True
                continue
            model = self.klamptModel
            qcmd = self._qcmdAll()
            qlinks = model.configFromDrivers(qcmd)
            if len(drive.dx) == 2:
                progress, qnext = drive.solver.drive(qlinks, drive.dx[0], drive.dx[1], dt)
            else:
                progress, qnext = drive.solver.drive(qlinks, None, drive.dx, dt)
            drivers = model.configToDrivers(qnext)
            for i in drive.kin.indices:
                jj = self.jointData[i]
                x = float(drivers[i])
                jj.setpointVelocity = jj.diff(x, jj.setpoint) / dt
                jj.setpoint = x
                jj.dirty = True

    def setCartesianForce(self, indices, fparams, ttl=None, frame='world'):
        """Not emulated: needs a torque-controlled impedance controller."""
        raise NotImplementedError("setCartesianForce is not emulated")

    def cartesianPosition(self, indices, q, frame='world'):
        """The tool pose of the DOFs' Cartesian part at whole-robot driver
        values q; with a link index or name instead of indices, that link's
        world transform."""
        if isinstance(indices, (int, str)):
            if frame != 'world':
                raise ValueError("Link transforms are only available in the world frame")
            model = self.klamptModel
            model.setConfig(model.configFromDrivers(q))
            return model.link(_cartesian.resolve_link(model, indices)).getTransform()
        return self._kinematics(indices).position(q, frame)

    def cartesianVelocity(self, indices, q, dq, frame='world'):
        """The tool velocity (or a link's, given its index or name)."""
        if isinstance(indices, (int, str)):
            if frame != 'world':
                raise ValueError("Link velocities are only available in the world frame")
            model = self.klamptModel
            model.setConfig(model.configFromDrivers(q))
            model.setVelocity(model.velocityFromDrivers(dq))
            link = model.link(_cartesian.resolve_link(model, indices))
            return (list(link.getAngularVelocity()), list(link.getVelocity()))
        return self._kinematics(indices).velocity(q, dq, frame)

    def cartesianForce(self, indices, q, t, frame='world'):
        """The tool (torque, force) balanced by joint torques t."""
        return self._kinematics(indices).force(q, t, frame)

    # ------------------------------------------------------------ status text
    def printStatus(self):
        """Prints the clock, status and each DOF's command."""
        print("Emulator clock %s, status %s" % (self.curClock, self.status))
        for kin in self.cartesianInterfaces.values():
            print("  Cartesian part %s: tool link %d, tool %s" % (kin.indices, kin.toolLink, kin.toolCoordinates))
        for i, j in enumerate(self.jointData):
            extra = ' (Cartesian velocity)' if j.controller is not None and j.controller.active else ''
            print("  Joint %d %s: %s%s" % (i, j.name, j.mode or 'hold', extra))


class _Dropped(Exception):
    """A filter dropped the command."""


def _linearSide(j, t, side):
    """(position, slope) of a linear trajectory at knot t, the slope of the
    segment before (left) or after (right)."""
    q, _ = j.evalTrajectory(t)
    ts = j.times
    i = bisect.bisect_left(ts, t)
    if side == 'left':
        a, b = max(i - 1, 0), i
    else:
        a = bisect.bisect_right(ts, t) - 1
        b = a + 1
    if b >= len(ts) or a < 0 or ts[b] <= ts[a]:
        return j.clampLimits(q), 0.0
    return j.clampLimits(q), j.diff(j.qs[b], j.qs[a]) / (ts[b] - ts[a])


def _linearAsCubic(j):
    """A linear trajectory as a cubic one: each kink becomes two knots at
    the same time with the slopes of its two segments."""
    ts, qs, vs = [], [], []
    n = len(j.times)
    for k in range(n):
        left = j.diff(j.qs[k], j.qs[k - 1]) / (j.times[k] - j.times[k - 1]) \
            if k > 0 and j.times[k] > j.times[k - 1] else 0.0
        right = j.diff(j.qs[k + 1], j.qs[k]) / (j.times[k + 1] - j.times[k]) \
            if k + 1 < n and j.times[k + 1] > j.times[k] else 0.0
        if k > 0:
            ts.append(j.times[k])
            qs.append(j.qs[k])
            vs.append(left)
        if k + 1 < n:
            ts.append(j.times[k])
            qs.append(j.qs[k])
            vs.append(right)
    if not ts:
        ts, qs, vs = list(j.times), list(j.qs), [0.0] * n
    return ts, qs, vs
