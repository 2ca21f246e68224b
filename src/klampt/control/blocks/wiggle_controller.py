"""Test controllers that wiggle joints (link space):
:class:`BigWiggleController` and :class:`OneJointWiggleController`."""
import math

from .robotcontroller import RobotControllerBlock, RobotControllerIO


def _phase(block, t):
    """The fraction of the block's period elapsed at time t since its
    start (the first call's time)."""
    if block.startTime is None:
        block.startTime = t
    return (t - block.startTime) / block.period


class BigWiggleController(RobotControllerBlock):
    """Moves each joint in turn to its upper limit, its lower limit and
    back, one joint per period (seconds); joints with a range over 2 pi
    wiggle within [-pi, pi]."""

    def __init__(self, robot, period=10):
        self.robot = robot
        self.qmin, self.qmax = [list(v) for v in robot.getJointLimits()]
        for i in range(len(self.qmin)):
            if self.qmax[i] - self.qmin[i] > math.pi * 2:
                self.qmax[i] = min(self.qmax[i], math.pi)
                self.qmin[i] = max(self.qmin[i], -math.pi)
        self.q = list(robot.getConfig())
        self.index = 0
        self.startTime = None
        self.period = period
        RobotControllerBlock.__init__(self, robot)

    def __getstate__(self):
        return {'q': self.q, 'index': self.index, 'startTime': self.startTime, 'period': self.period}

    def __setstate__(self, state):
        self.q = state['q']
        self.index = state['index']
        self.startTime = state['startTime']
        self.period = state['period']

    def _next_movable(self):
        for _ in range(len(self.qmin)):
            if self.qmin[self.index] != self.qmax[self.index]:
                return
            self.index = (self.index + 1) % len(self.qmin)

    def advance(self, **inputs):
        api = RobotControllerIO(inputs)
        t = api.time()
        u = _phase(self, t)
        self._next_movable()
        i = self.index
        qdes = list(self.q)
        if u < 0.25:
            s = math.sin(u * 2 * math.pi)
            qdes[i] += s * (self.qmax[i] - qdes[i])
        elif u < 0.75:
            s = (1.0 - math.sin(u * 2 * math.pi)) * 0.5
            qdes[i] = self.qmax[i] + s * (self.qmin[i] - self.qmax[i])
        elif u < 1.0:
            s = math.sin(u * 2 * math.pi) + 1.0
            qdes[i] = self.qmin[i] + s * (qdes[i] - self.qmin[i])
        else:
            self.startTime = t
            self.index = (self.index + 1) % len(self.qmin)
        return api.makePositionCommand(qdes)

    def signal(self, type, *args):
        if type == 'reset':
            self.index = 0
            self.startTime = None


class OneJointWiggleController(RobotControllerBlock):
    """Moves joint index sinusoidally by +-magnitude with the given
    period."""

    def __init__(self, robot, index, magnitude, period=10):
        self.robot = robot
        self.q = list(robot.getConfig())
        self.index = index
        self.startTime = None
        self.magnitude = magnitude
        self.period = period
        RobotControllerBlock.__init__(self, robot)

    def __getstate__(self):
        return {'startTime': self.startTime}

    def __setstate__(self, state):
        self.startTime = state['startTime']

    def advance(self, **inputs):
        api = RobotControllerIO(inputs)
        t = api.time()
        u = _phase(self, t)
        qdes = list(self.q)
        qdes[self.index] += math.sin(u * 2 * math.pi) * self.magnitude
        return api.makePositionCommand(qdes)

    def signal(self, type, *args):
        if type == 'reset':
            self.startTime = None
