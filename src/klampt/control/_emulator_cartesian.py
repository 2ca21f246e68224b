"""Cartesian control by the emulator: the tool of each group of DOFs, IK
targets, straight-line moves, Cartesian velocity drives, Cartesian
queries, and the stored gravity compensation settings
(:class:`_CartesianControl`, mixed into
:class:`~klampt.control._emulator.RobotInterfaceEmulator`)."""
import math

from ..math import se3, vectorops
from . import _cartesian, _checks
from .cartesian_drive import CartesianDriveSolver


class _Drive:
    """A Cartesian velocity command being executed by a CartesianDriveSolver."""

    def __init__(self, kin, solver, dx, endTime):
        self.kin = kin
        self.solver = solver
        self.dx = dx
        self.endTime = endTime
        self.active = True


class _CartesianControl:
    """The Cartesian control and gravity settings of RobotInterfaceEmulator."""

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
        n = max(1, int(math.ceil(duration / step - 1e-9)))
        path = []
        q = qstart
        err = (0.0, 0.0)
        for k in range(1, n + 1):
            u = min(1.0, k * step / duration)
            s = 3 * u * u - 2 * u * u * u
            if _checks.is_transform(goal):
                pose = se3.interpolate(start, goal, s)
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
