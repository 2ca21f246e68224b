"""The software motion controller behind the Completer and the Omni
interface: :class:`RobotInterfaceEmulator` keeps, per DOF, the command
being executed (set-point, PID, torque or trajectory), turns any command
into the control mode a base interface accepts, and runs Cartesian
controllers and filters.  Every method takes the DOF indices it acts on.

The class is assembled from one module per job: the joint commands and
stops (``_emulator_joints``), mode translation (``_emulator_modes``), the
filter pipeline (``_emulator_filters``) and Cartesian control
(``_emulator_cartesian``); the per-DOF state is ``_joint_state._Joint``.
This module keeps the clock, the sensed state and the queries.
"""
import warnings

from ._emulator_cartesian import _CartesianControl
from ._emulator_filters import _FilterPipeline
from ._emulator_joints import _JointCommands
from ._emulator_modes import _ModeTranslation
from ._joint_state import CONTROL_MODES, TRAJECTORY, _Joint

#: The default settings of the emulator (see RobotInterfaceCompleter).
DEFAULT_SETTINGS = {
    'velocityFeedforward': 1.0,
    'velocityTrackingGain': 10.0,
    'settleTolerance': None,
    'softStopMode': 'freeze',
}


class RobotInterfaceEmulator(_JointCommands, _ModeTranslation, _FilterPipeline, _CartesianControl):
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
            res.append(j.clampLimits(j.qs[-1]) if j.mode in TRAJECTORY else j.desired(t)[0])
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
        times = sorted(set([t] + [x for j in joints if j.mode in TRAJECTORY for x in j.times if x > t]))
        qs, vs = [], []
        for x in times:
            state = [j.desired(x) for j in joints]
            qs.append([s[0] for s in state])
            vs.append([s[1] for s in state])
        return (times, qs, vs)

    # ------------------------------------------------------------ sending
    # ------------------------------------------------------------ status text
    def printStatus(self):
        """Prints the clock, status and each DOF's command."""
        print("Emulator clock %s, status %s" % (self.curClock, self.status))
        for kin in self.cartesianInterfaces.values():
            print("  Cartesian part %s: tool link %d, tool %s" % (kin.indices, kin.toolLink, kin.toolCoordinates))
        for i, j in enumerate(self.jointData):
            extra = ' (Cartesian velocity)' if j.controller is not None and j.controller.active else ''
            print("  Joint %d %s: %s%s" % (i, j.name, j.mode or 'hold', extra))
