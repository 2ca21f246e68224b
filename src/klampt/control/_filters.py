"""Command and state filters for the Completer (see
``RobotInterfaceCompleter.setFilter``).  Each is a callable; a filter
stops the robot by raising ``BlockSignal('softStop', text)`` and drops a
command (with a warning) by raising ``BlockSignal('warn', text)``."""
import math
import os

from . import blocks
from ..math import so3
from .blocks.utils import BlockSignal

_OPS = ('clamp', 'stop', 'warn')


def _signal(op, text):
    raise BlockSignal('softStop' if op == 'stop' else 'warn', text)


class LimitFilter:
    """Keeps a vector within [qmin, qmax]: op 'clamp' clamps it, 'stop'
    soft-stops the robot, 'warn' drops the command with a warning.

    The reference passes a 'warn' command on (the simulator received q = 10
    against a limit of 2.27); here it is dropped."""

    def __init__(self, op, qmin, qmax):
        if op not in _OPS:
            raise ValueError("LimitFilter op must be one of %s, got %r" % (', '.join(_OPS), op))
        if len(qmin) != len(qmax):
            raise ValueError("LimitFilter: qmin and qmax have different sizes")
        self.op = op
        self.qmin = [float(v) for v in qmin]
        self.qmax = [float(v) for v in qmax]

    def __call__(self, q):
        if len(q) != len(self.qmin):
            raise ValueError("LimitFilter: got %d values for %d limits" % (len(q), len(self.qmin)))
        for i, (v, a, b) in enumerate(zip(q, self.qmin, self.qmax)):
            if v < a or v > b:
                if self.op == 'clamp':
                    return [min(max(x, lo), hi) for x, lo, hi in zip(q, self.qmin, self.qmax)]
                _signal(self.op, "entry %d = %f outside its limits [%f, %f]" % (i, v, a, b))
        return list(q)


class BrakeLimitFilter:
    """Checks that a state (q, dq) can brake within [qmin, qmax] with
    deceleration bounds amin (< 0) and amax (> 0); op 'clamp' reduces dq
    (and clamps q) so it can, 'stop' soft-stops, 'warn' drops the command.

    The reference's constructor raises TypeError (range(qmin)); this one brakes
    exactly at the limit, as brake_1d does.
    """

    def __init__(self, op, qmin, qmax, amin, amax):
        if op not in _OPS:
            raise ValueError("BrakeLimitFilter op must be one of %s, got %r" % (', '.join(_OPS), op))
        n = len(amax)
        if not (len(qmin) == len(qmax) == len(amin) == n):
            raise ValueError("BrakeLimitFilter: qmin, qmax, amin and amax must have the same size")
        for i in range(n):
            if qmin[i] > qmax[i]:
                raise ValueError("BrakeLimitFilter: qmin[%d] > qmax[%d]" % (i, i))
            if amin[i] > 0 or amax[i] < 0:
                raise ValueError("BrakeLimitFilter: amin must be <= 0 and amax >= 0")
        self.op = op
        self.qmin, self.qmax = list(qmin), list(qmax)
        self.amin, self.amax = list(amin), list(amax)

    def stopPosition(self, i, x, v):
        """Where joint i stops from (x, v) braking at full deceleration."""
        if v > 0:
            return x + 0.5 * v * v / -self.amin[i] if self.amin[i] < 0 else math.inf
        if v < 0:
            return x - 0.5 * v * v / self.amax[i] if self.amax[i] > 0 else -math.inf
        return x

    def __call__(self, q, dq):
        if len(q) != len(self.amax) or len(dq) != len(self.amax):
            raise ValueError("BrakeLimitFilter: got %d positions and %d velocities for %d limits"
                             % (len(q), len(dq), len(self.amax)))
        qres, vres = [], []
        for i, (x, v) in enumerate(zip(q, dq)):
            stop = self.stopPosition(i, x, v)
            if stop < self.qmin[i] or stop > self.qmax[i]:
                if self.op != 'clamp':
                    _signal(self.op, "joint %d cannot brake before its limits" % i)
                if x <= self.qmin[i]:
                    x, v = self.qmin[i], max(v, 0.0)
                elif x >= self.qmax[i]:
                    x, v = self.qmax[i], min(v, 0.0)
                elif v > 0:
                    v = math.sqrt(2 * -self.amin[i] * (self.qmax[i] - x))
                else:
                    v = -math.sqrt(2 * self.amax[i] * (x - self.qmin[i]))
            qres.append(x)
            vres.append(v)
        return (qres, vres)


class CartesianLimitFilter:
    """Keeps a transform (R, t) within a box: the roll-pitch-yaw of
    Rref^T R within [rpymin, rpymax] (Rref None: unchecked) and t within
    [xmin, xmax] (None: unchecked); op as LimitFilter.

    Returns the clamped translation (the reference returns the unclamped one)."""

    def __init__(self, op, Rref, rpymin, rpymax, xmin, xmax):
        if op not in _OPS:
            raise ValueError("CartesianLimitFilter op must be one of %s, got %r" % (', '.join(_OPS), op))
        self.op = op
        self.Rref, self.rpymin, self.rpymax = Rref, rpymin, rpymax
        self.xmin, self.xmax = xmin, xmax

    def __call__(self, T):
        R, t = T
        if len(R) != 9 or len(t) != 3:
            raise ValueError("CartesianLimitFilter needs an (R, t) transform")
        R, t = list(R), list(t)
        if self.Rref is not None:
            rpy = so3.rpy(so3.mul(so3.inv(self.Rref), R))
            clamped = [min(max(a, lo), hi) for a, lo, hi in zip(rpy, self.rpymin, self.rpymax)]
            if clamped != list(rpy):
                if self.op != 'clamp':
                    _signal(self.op, "rotation outside its limits")
                R = so3.mul(self.Rref, so3.from_rpy(clamped))
        if self.xmin is not None:
            clamped = [min(max(a, lo), hi) for a, lo, hi in zip(t, self.xmin, self.xmax)]
            if clamped != t:
                if self.op != 'clamp':
                    _signal(self.op, "translation outside its limits")
                t = clamped
        return (R, t)


def _collision_op(op, what):
    if op not in ('stop', 'warn'):
        raise ValueError("%s op must be 'stop' or 'warn', got %r" % (what, op))
    return op


class SelfCollisionFilter:
    """Signals (op 'stop' or 'warn') when the robot at driver values q
    collides with itself; the message names the links."""

    def __init__(self, op, robot):
        self.op = _collision_op(op, 'SelfCollisionFilter')
        self.robot = robot
        robot.selfCollides()  # builds the collision structures now, not in the control loop

    def __call__(self, q):
        robot = self.robot
        robot.setConfig(robot.configFromDrivers(q))
        if robot.selfCollides():
            n = robot.numLinks()
            for a in range(n):
                for b in range(a + 1, n):
                    if robot.selfCollisionEnabled(a, b) and robot.link(a).geometry().collides(robot.link(b).geometry()):
                        _signal(self.op, "self collision between links %s and %s"
                                % (robot.link(a).getName(), robot.link(b).getName()))
            _signal(self.op, "self collision")
        return list(q)


def _moving_links(robot):
    """The links some driver moves, directly or through an ancestor."""
    driven = set()
    for d in range(robot.numDrivers()):
        driven.update(robot.driver(d).getAffectedLinks())
    moving = []
    for i in range(robot.numLinks()):
        j = i
        while j >= 0 and j not in driven:
            j = robot.link(j).getParent()
        if j >= 0:
            moving.append(i)
    return moving


class CollisionFilter:
    """Signals (op 'stop' or 'warn') when a link of the robot at driver
    values q touches an obstacle (terrains, rigid objects or geometries).
    Links no driver moves (a base bolted to the floor) are not checked."""

    def __init__(self, op, robot, obstacles):
        self.op = _collision_op(op, 'CollisionFilter')
        self.robot = robot
        self.links = [robot.link(i) for i in _moving_links(robot) if not robot.link(i).geometry().empty()]
        self.obstacles = list(obstacles)
        for o in self.obstacles:
            g = o.geometry() if hasattr(o, 'geometry') else o
            for link in self.links:
                g.collides(link.geometry())  # builds the collision structures now

    def __call__(self, q):
        robot = self.robot
        robot.setConfig(robot.configFromDrivers(q))
        for o in self.obstacles:
            g = o.geometry() if hasattr(o, 'geometry') else o
            for link in self.links:
                if g.collides(link.geometry()):
                    name = o.getName() if hasattr(o, 'getName') else 'an obstacle'
                    _signal(self.op, "link %s collides with %s" % (link.getName(), name))
        return list(q)


class DifferenceFilter:
    """Signals (op 'stop' or 'warn') when its two inputs differ by more
    than threshold in the given norm (1, 2 or inf); no outputs.

    Callable (__call__(q1, q2)); the reference's is not and misspells its
    threshold."""

    def __init__(self, op, threshold, norm=float('inf')):
        self.op = _collision_op(op, 'DifferenceFilter')
        self.threshold = threshold
        self.subblock = blocks.utils.Distance(norm)

    def __call__(self, q1, q2):
        d = self.subblock.advance(q1, q2)
        if d > self.threshold:
            _signal(self.op, "difference %f exceeds the threshold %f" % (d, self.threshold))

    advance = __call__


class LoggingFilter(blocks.Block):
    """Appends its inputs (names in items) as a CSV row to the file fn, with
    a header naming each column (vectors one column per entry)."""

    def __init__(self, fn, items, delim=',', header=True):
        blocks.Block.__init__(self, items, 0)
        self.items = list(items)
        self.fn = fn
        self.file = None
        self.delim = delim
        self.header = header

    def advance(self, *args, **kwargs):
        if kwargs:
            args = [kwargs[n] for n in self.items]
        if len(args) != len(self.items):
            raise ValueError("LoggingFilter: %d values for %d items" % (len(args), len(self.items)))
        if self.file is None:
            exists = os.path.exists(self.fn)
            self.file = open(self.fn, 'a' if exists else 'w')
            if self.header and not exists:
                names = []
                for n, a in zip(self.items, args):
                    if hasattr(a, '__iter__') and not isinstance(a, str):
                        names += ['%s[%d]' % (n, i) for i in range(len(a))]
                    else:
                        names.append(n)
                self.file.write(self.delim.join(names) + '\n')
        values = []
        for a in args:
            if hasattr(a, '__iter__') and not isinstance(a, str):
                values += [str(v) for v in a]
            else:
                values.append(str(a))
        self.file.write(self.delim.join(values) + '\n')
        self.file.flush()

    def close(self):
        """Closes the file."""
        if self.file is not None:
            self.file.close()
            self.file = None
