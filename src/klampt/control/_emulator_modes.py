"""Mode translation of the emulator: which mode the DOFs' commands need,
the arguments of each base method executing them, and sending them to a
base interface in the best mode it implements (:class:`_ModeTranslation`,
mixed into :class:`~klampt.control._emulator.RobotInterfaceEmulator`)."""
import math

from ._joint_state import PRECEDENCE, TRAJECTORY, linearSide

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

#: Base modes whose command follows the sensed state: sent every step.
_FEEDBACK = ('setVelocity', 'setTorque')


class _ModeTranslation:
    """Turns RobotInterfaceEmulator's joint commands into base commands."""

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
            if best is None or PRECEDENCE[m] < PRECEDENCE[best]:
                best = m
        return best

    def _needsSending(self, joints, baseMode):
        if any(j.dirty for j in joints):
            return True
        if baseMode in _FEEDBACK:
            return True
        if baseMode in TRAJECTORY:
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
            if j.mode in TRAJECTORY:
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
                        q, v = linearSide(j, x, side)
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
