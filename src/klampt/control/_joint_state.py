"""The command state of one DOF of the emulator (:class:`_Joint`: set-point,
PID, torque or trajectory, with its limits) and the conversions of its
trajectories; the control modes and their order."""
import bisect

from ..math import so2

INF = float('inf')

#: The joint control modes, lowest level first (setTorque is below them).
CONTROL_MODES = ['setPID', 'setVelocity', 'setPosition', 'moveToPosition', 'setPiecewiseLinear', 'setPiecewiseCubic']

#: The level of each mode a joint command can be in (lower: closer to the motors).
PRECEDENCE = {'setTorque': -1, 'setPID': 0, 'setVelocity': 1, 'setPosition': 2, 'setPiecewiseLinear': 3,
              'setPiecewiseCubic': 4}

#: The modes whose command is a trajectory.
TRAJECTORY = ('setPiecewiseLinear', 'setPiecewiseCubic')


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
        if m in TRAJECTORY:
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
        return self.times[-1] if self.mode in TRAJECTORY else None

    def setMode(self, mode):
        """Switches to a new command, keeping the current command as the
        hold position."""
        self.mode = mode
        self.dirty = True
        if mode != 'setTorque':
            self.torqueEnd = None

    def trim(self, t):
        """Drops trajectory knots entirely before t."""
        if self.mode in TRAJECTORY and len(self.times) > 8:
            i = bisect.bisect_right(self.times, t) - 1
            if i > 4:
                del self.times[:i]
                del self.qs[:i]
                if self.vs is not None:
                    del self.vs[:i]



def linearSide(j, t, side):
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


def linearAsCubic(j):
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
