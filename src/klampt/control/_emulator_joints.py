"""The joint commands of the emulator (set-points, velocities, torques, PID,
moves, trajectories, release) and its stops: :class:`_JointCommands`,
mixed into :class:`~klampt.control._emulator.RobotInterfaceEmulator`,
whose helpers (_now, _joints, _startCommand, ...) it uses."""
import warnings

from ..math import so2
from ..plan import motionplanning
from ._joint_state import INF, linearAsCubic


class _JointCommands:
    """The joint commands and stops of RobotInterfaceEmulator."""

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
                    times, qs, vs = linearAsCubic(j)
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
