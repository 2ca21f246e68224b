"""Cartesian velocity control of a joint-controlled robot by incremental IK:
:class:`CartesianDriveSolver`, plus :func:`axis_rotation_magnitude` and
:func:`normalize_rotation`.
"""
import math

from ..math import so3, vectorops
from ..model import ik
from ..model.trajectory import RobotTrajectory


class CartesianDriveSolver:
    """Drives one or more end effectors along Cartesian velocities, one IK
    solve per time step.  It slows down instead of failing near
    singularities, joint limits and out-of-reach targets, and keeps the
    driven goals ("drive transforms") on the commanded screw motion, so
    long drives do not accumulate IK errors.

    Usage::

        solver = CartesianDriveSolver(robot)
        solver.start(q, 6)                 # drive link 6
        while driving:
            progress, q = solver.drive(q, w, v, dt)
            if progress <= 0:
                break                      # no progress possible
            send(q)

    Attributes:
        robot (RobotModel or SubRobotModel): the robot (link space).
        positionTolerance (float): IK position tolerance (1e-4 m).
        rotationTolerance (float): IK orientation tolerance (1e-3 rad).
        ikSolveTolerance (float): kept for compatibility (unused: the IK
            tolerance follows the two above).
        driveSpeedAdjustment (float): the fraction of the commanded speed
            the solver currently attempts, in [0, 1].
        links, baseLinks, endEffectorOffsets: set by :meth:`start`.
        driveTransforms (list of [R, t]): the current drive goals (relative
            to the base links when given).
        ikGoals (list of IKObjective): the fixed objectives templates.
        qmin, qmax, vmin, vmax (list or None): overrides of the model's
            joint and velocity limits.
        solver (IKSolver): the IK solver (20 iterations per solve).
    """

    def __init__(self, robot):
        self.robot = robot
        self.positionTolerance = 1e-4
        self.rotationTolerance = 1e-3
        self.ikSolveTolerance = 0
        self.driveSpeedAdjustment = 1.0
        self.links = None
        self.baseLinks = None
        self.endEffectorOffsets = None
        self.driveTransforms = None
        self.ikGoals = None
        self.qmin = None
        self.qmax = None
        self.vmin = None
        self.vmax = None
        self.solver = None

    def _link(self, l):
        return self.robot.link(l)

    def start(self, q, links, baseLinks=None, endEffectorPositions=None):
        """Sets up the drive of `links` (an index, a name or a list) from
        configuration q (link space).

        Args:
            baseLinks (optional): per link, a base link relative to which
                the drive is expressed (-1 or '' for none).
            endEffectorPositions (optional): the local driven point(s) (a
                3-vector or one per link); the link origins by default.
        """
        if isinstance(links, (int, str)) or not hasattr(links, '__iter__'):
            links = [links]
        links = list(links)
        if baseLinks is not None:
            if isinstance(baseLinks, (int, str)) or not hasattr(baseLinks, '__iter__'):
                baseLinks = [baseLinks]
            baseLinks = list(baseLinks)
            if len(baseLinks) != len(links):
                raise ValueError("links and baseLinks must have the same length")
        if endEffectorPositions is None:
            endEffectorPositions = [[0.0, 0.0, 0.0] for l in links]
        else:
            if len(endEffectorPositions) == 0:
                raise ValueError("endEffectorPositions must not be empty")
            if not hasattr(endEffectorPositions[0], '__iter__'):
                endEffectorPositions = [endEffectorPositions]
            if len(endEffectorPositions) != len(links):
                raise ValueError("links and endEffectorPositions must have the same length")
            endEffectorPositions = [[float(x) for x in p] for p in endEffectorPositions]
        self._checkConfig(q, 'start')
        self.robot.setConfig(q)
        self.links = links
        self.baseLinks = baseLinks
        self.endEffectorOffsets = endEffectorPositions
        self._robotLinks = [self._link(l) for l in links]
        if baseLinks is None:
            self._baseRobotLinks = [None] * len(links)
        else:
            self._baseRobotLinks = [self._link(b) if (isinstance(b, str) and b) or (not isinstance(b, str) and b >= 0)
                                    else None for b in baseLinks]
        self.driveTransforms = self._achievedTransforms()
        self.ikGoals = [ik.fixed_objective(l, b, local=ofs)
                        for l, b, ofs in zip(self._robotLinks, self._baseRobotLinks, endEffectorPositions)]
        self.solver = ik.IKSolver(self.robot)
        self.solver.setMaxIters(20)
        for g in self.ikGoals:
            self.solver.add(g)
        self.driveSpeedAdjustment = 1.0

    def _checkConfig(self, q, method):
        if len(q) != self.robot.numLinks():
            raise ValueError("CartesianDriveSolver.%s: configuration must have %d entries, got %d"
                             % (method, self.robot.numLinks(), len(q)))

    def _achievedTransforms(self):
        """The driven points' current transforms (relative to the bases)."""
        res = []
        for l, b, ofs in zip(self._robotLinks, self._baseRobotLinks, self.endEffectorOffsets):
            R, t = l.getTransform()
            T = [list(R), list(l.getWorldPosition(ofs))]
            if b is not None:
                Rb, tb = b.getTransform()
                Rbi = so3.inv(Rb)
                T = [so3.mul(Rbi, T[0]), so3.apply(Rbi, vectorops.sub(T[1], tb))]
            res.append(T)
        return res

    def setTolerance(self, positionTolerance, rotationTolerance=None):
        """Sets the position and rotation tolerances (rotation = position
        when not given).

        r=None means p (the reference stores None, and the next drive() raises
        TypeError)."""
        self.positionTolerance = positionTolerance
        self.rotationTolerance = positionTolerance if rotationTolerance is None else rotationTolerance

    def _requireStarted(self, method):
        if self.solver is None:
            raise RuntimeError("CartesianDriveSolver.%s: call start() first" % method)

    def setMaxIters(self, maxIters):
        """IK iterations per solve."""
        self._requireStarted('setMaxIters')
        self.solver.setMaxIters(maxIters)

    def setActiveDofs(self, activeDofs):
        """The links the solver may move."""
        self._requireStarted('setActiveDofs')
        self.solver.setActiveDofs(activeDofs)

    def setJointLimits(self, qmin, qmax=None):
        """Overrides the model's joint limits (None, None: the model's)."""
        if (qmin is None) != (qmax is None):
            raise ValueError("qmin and qmax are both given or both None")
        self.qmin, self.qmax = qmin, qmax

    def setVelocityLimits(self, vmin=None, vmax=None):
        """Overrides the model's velocity limits (None, None: the model's)."""
        if (vmin is None) != (vmax is None):
            raise ValueError("vmin and vmax are both given or both None")
        self.vmin, self.vmax = vmin, vmax

    def _perLink(self, x):
        """x as one entry (3-vector or None) per driven link."""
        if x is None:
            return [None] * len(self.links)
        if len(x) == 0:
            raise ValueError("CartesianDriveSolver.drive: empty velocity")
        if not hasattr(x[0], '__iter__') and x[0] is not None:
            x = [x]
        if len(x) != len(self.links):
            raise ValueError("CartesianDriveSolver.drive: %d velocities for %d links" % (len(x), len(self.links)))
        return [None if xi is None else [float(v) for v in xi] for xi in x]

    def _stepLimits(self, qcur, dt):
        qmin, qmax = [list(v) for v in self.robot.getJointLimits()]
        if self.qmin is not None:
            qmin, qmax = list(self.qmin), list(self.qmax)
        vmax = list(self.robot.getVelocityLimits())
        vmin = [-v for v in vmax]
        if self.vmin is not None:
            vmin, vmax = list(self.vmin), list(self.vmax)
        lo = [max(a, q + dt * v) for a, q, v in zip(qmin, qcur, vmin)]
        hi = [min(b, q + dt * v) for b, q, v in zip(qmax, qcur, vmax)]
        return lo, hi

    def _goalScales(self, goal):
        p, r = self.positionTolerance, self.rotationTolerance
        if math.isfinite(p) and math.isfinite(r):
            goal.rotationScale = p / (p + r)
            goal.positionScale = r / (p + r)
        elif math.isfinite(p) or math.isfinite(r):
            m = min(p, r)
            goal.rotationScale = m / r
            goal.positionScale = m / p

    def drive(self, qcur, angVel, vel, dt):
        """Advances the drive goals by (angVel, vel)*dt and solves IK.

        Args:
            qcur (list of float): the current configuration (numLinks()).
            angVel: the angular velocity (3-vector, or one per link); None
                frees the orientation (of all links, or of link i when
                angVel[i] is None).
            vel: the linear velocity, likewise; None frees the position.
            dt (float): the time step.

        Returns:
            (progress, qnext): progress in [0, 1] is the achieved fraction of
            the commanded motion, -1 when none is possible (then qnext is
            qcur).  Feed qnext back as qcur on the next call.
        """
        self._requireStarted('drive')
        self._checkConfig(qcur, 'drive')
        qcur = [float(v) for v in qcur]
        if angVel is None and vel is None:
            return (1.0, qcur)
        angVel = self._perLink(angVel)
        vel = self._perLink(vel)
        if not any((w is not None and any(w)) or (v is not None and any(v)) for w, v in zip(angVel, vel)):
            return (1.0, qcur)
        lo, hi = self._stepLimits(qcur, dt)
        self.solver.setJointLimits(lo, hi)
        goals = [ik.IKObjective(g) for g in self.ikGoals]
        for g in goals:
            self._goalScales(g)
        tol = min(1e-6, min(self.positionTolerance, self.rotationTolerance) / (math.sqrt(3.0) * len(self.links)))
        self.solver.setTolerance(tol)
        if self.driveSpeedAdjustment <= 0:
            self.driveSpeedAdjustment = 0.1
        anyFailures = False
        while self.driveSpeedAdjustment > 1e-8:
            amount = dt * self.driveSpeedAdjustment
            for i, g in enumerate(goals):
                T = self.driveTransforms[i]
                if vel[i] is not None:
                    g.setFixedPosConstraint(self.endEffectorOffsets[i], vectorops.madd(T[1], vel[i], amount))
                else:
                    g.setFreePosition()
                if angVel[i] is not None:
                    g.setFixedRotConstraint(so3.mul(so3.from_rotation_vector(vectorops.mul(angVel[i], amount)), T[0]))
                else:
                    g.setFreeRotConstraint()
                self.solver.set(i, g)
            self.robot.setConfig(qcur)
            err0 = vectorops.norm(self.solver.getResidual())
            ok = self.solver.solve()
            q = [float(v) for v in self.robot.getConfig()]
            self._wrapIntoLimits(q, lo, hi)
            self.robot.setConfig(q)
            err1 = vectorops.norm(self.solver.getResidual())
            if err1 > err0:
                ok = False
            elif err1 < err0 - 1e-8:
                ok = True
            if ok:
                distance = self._advanceDrive(angVel, vel, dt)
                if math.ceil(distance / dt * 10) < math.floor(self.driveSpeedAdjustment * 10):
                    self.driveSpeedAdjustment = max(0.0, self.driveSpeedAdjustment - 0.1)
                elif not anyFailures and self.driveSpeedAdjustment < 1.0:
                    self.driveSpeedAdjustment = min(1.0, self.driveSpeedAdjustment + 0.1)
                return (distance / dt, q)
            anyFailures = True
            self.driveSpeedAdjustment -= 0.1
        self.driveSpeedAdjustment = 0.0
        self.robot.setConfig(qcur)
        return (-1, qcur)

    def _wrapIntoLimits(self, q, lo, hi):
        """Moves IK results back into [lo, hi], by 2 pi for joints that
        wrap (the solver does not care about absolute angles)."""
        for k in self.solver.getActiveDofs():
            if lo[k] <= q[k] <= hi[k]:
                continue
            for shift in (2 * math.pi, -2 * math.pi):
                if lo[k] <= q[k] + shift <= hi[k]:
                    q[k] += shift
                    break
            else:
                q[k] = min(max(q[k], lo[k]), hi[k])

    def _advanceDrive(self, angVel, vel, dt):
        """Moves the drive transforms along the commanded screw by the
        distance (in time units) the solve achieved; returns it."""
        achieved = self._achievedTransforms()
        num, den = 0.0, 0.0
        for i in range(len(self.links)):
            T = self.driveTransforms[i]
            if vel[i] is not None:
                speed = vectorops.norm(vel[i])
                if speed > 0:
                    along = vectorops.dot(vectorops.sub(achieved[i][1], T[1]), vectorops.div(vel[i], speed))
                    along = min(max(along, 0.0), dt * speed)
                    num += speed * along
                    den += speed ** 2
            if angVel[i] is not None:
                speed = vectorops.norm(angVel[i])
                if speed > 0:
                    Rrel = so3.mul(achieved[i][0], so3.inv(T[0]))
                    axis = vectorops.div(angVel[i], speed)
                    turned = min(max(axis_rotation_magnitude(Rrel, axis), 0.0), dt * speed)
                    num += speed * turned
                    den += speed ** 2
        distance = num / den if den > 0 else dt
        for i in range(len(self.links)):
            T = self.driveTransforms[i]
            if vel[i] is not None:
                T[1] = vectorops.madd(T[1], vel[i], distance)
            else:
                T[1] = achieved[i][1]
            if angVel[i] is not None:
                T[0] = normalize_rotation(so3.mul(so3.from_rotation_vector(vectorops.mul(angVel[i], distance)), T[0]))
            else:
                T[0] = achieved[i][0]
        return distance

    def getTrajectory(self, qcur, angVel, vel, dt, numSteps, reset=True):
        """The RobotTrajectory of numSteps drive steps of dt from qcur
        (numSteps+1 milestones at times k*dt; after a failed step the last
        configuration is held).  With reset, driveTransforms and
        driveSpeedAdjustment are restored afterwards.

        Returns a RobotTrajectory (the reference reads a nonexistent attribute
        and returns nothing)."""
        self._requireStarted('getTrajectory')
        saved = ([[list(T[0]), list(T[1])] for T in self.driveTransforms], self.driveSpeedAdjustment)
        qs = [[float(v) for v in qcur]]
        for _ in range(numSteps):
            progress, qnext = self.drive(qs[-1], angVel, vel, dt)
            if progress <= 0:
                qs += [list(qs[-1])] * (numSteps + 1 - len(qs))
                break
            qs.append(list(qnext))
        if reset:
            self.driveTransforms, self.driveSpeedAdjustment = saved
        return RobotTrajectory(self.robot, [k * dt for k in range(len(qs))], qs)


def axis_rotation_magnitude(R, a):
    """How far R rotates about the unit axis a: for R =
    so3.from_axis_angle((a, v)) this is v (modulo 2 pi, in (-pi, pi])."""
    cterm = so3.trace(R) - vectorops.dot(a, so3.apply(R, a))
    m = so3.matrix(R)
    sterm = -(a[0] * (m[1][2] - m[2][1]) + a[1] * (m[2][0] - m[0][2]) + a[2] * (m[0][1] - m[1][0]))
    return math.atan2(sterm, cterm)


def normalize_rotation(R):
    """The rotation matrix nearest to the almost-rotation R (through a
    normalized quaternion)."""
    return so3.from_quaternion(so3.quaternion(R))

