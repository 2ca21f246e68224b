"""Helpers of the klampt.control tests: the simulated tx90l arm behind each
kind of base interface, and stepping loops on simulated time."""
import os
import warnings

from conftest import SHARED_DATA, require_shared_data

import klampt
from klampt.control import simrobotinterface as sri
from klampt.control.robotinterfaceutils import RobotInterfaceCompleter

BASES = ['Kinematic', 'Position', 'Velocity', 'MoveTo', 'Full']
#: Sensed tracking tolerance per joint: the tx90l wrist has a limit cycle
#: of a few hundredths of a radian under its servo gains.
TOL = [0.01] * 5 + [0.1]
#: The T1 target and its time-optimal duration (reference: 0.756940 s).
TARGET = [0.3, -0.5, 1.0, 0.2, 0.6, -0.4]
MOVE_TIME = 0.756939756606048


def load_world(relpath):
    """A WorldModel of a shared data file, its loading warnings silenced."""
    require_shared_data()
    w = klampt.WorldModel()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert w.readFile(os.path.join(SHARED_DATA, relpath)), relpath
    return w


def make_base(kind, world, sim):
    """The base interface of robot 0 of kind ('Kinematic', 'Position', ...)."""
    if kind == 'Kinematic':
        return sri.KinematicSimControlInterface(world.robot(0))
    return getattr(sri, 'Sim%sControlInterface' % kind)(sim.controller(0), sim)


def tx90(kind, world='robots/tx90l.rob'):
    """(completer, world, sim) for the tx90l on a base of the given kind."""
    w = load_world(world)
    sim = klampt.Simulator(w)
    c = RobotInterfaceCompleter(make_base(kind, w, sim))
    assert c.initialize()
    return c, w, sim


def step(c, fn=None):
    """One control step, running fn(c) inside it; returns fn's result."""
    c.beginStep()
    try:
        return fn(c) if fn is not None else None
    finally:
        c.endStep()


def run(c, seconds, fn=None):
    """Steps for the given simulated time (whole control periods), running
    fn(c) in every step."""
    n = int(round(seconds * c.controlRate()))
    for _ in range(n):
        step(c, fn)


def run_until(c, condition, limit):
    """Steps until condition(c) (checked inside a step) holds; returns the
    clock time it took, or fails after limit seconds."""
    t0 = step(c, lambda c: c.clock())
    for _ in range(int(limit * c.controlRate()) + 1):
        done, t = step(c, lambda c: (condition(c), c.clock()))
        if done:
            return t - t0
    raise AssertionError("condition not reached within %g s" % limit)


def max_abs_diff(a, b):
    return max(abs(x - y) for x, y in zip(a, b))


def driver_limits(robot):
    """(qmin, qmax) per driver."""
    lims = [robot.driver(i).getLimits() for i in range(robot.numDrivers())]
    return [a for a, b in lims], [b for a, b in lims]
