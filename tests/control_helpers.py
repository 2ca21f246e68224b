"""Helpers of the klampt.control tests: the simulated tx90l arm behind each
kind of base interface, and stepping loops on simulated time."""
import os

from conftest import SHARED_DATA, load_shared_world, require_shared_data

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


def make_base(kind, world, sim):
    """The base interface of robot 0 of kind ('Kinematic', 'Position', ...)."""
    if kind == 'Kinematic':
        return sri.KinematicSimControlInterface(world.robot(0))
    return getattr(sri, 'Sim%sControlInterface' % kind)(sim.controller(0), sim)


def tx90(kind, world='robots/tx90l.rob'):
    """(completer, world, sim) for the tx90l on a base of the given kind."""
    w = load_shared_world(world, quiet=True)
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


#: The robot-info files of Klampt-examples' ``robotinfo/`` directory that
#: name ``klampt.control.simrobotinterface`` as their controller (the 10
#: ``*_sim.json``), with the fields that decide what ``controller()`` builds:
#: path (relative to robotinfo/), name, modelFile (relative to the file, as
#: written there: Klampt-examples' ``data/`` is a sibling of ``robotinfo/``),
#: parts (link indices) and end effectors (link, active links).
ROBOTINFO_SIM = {
    'kinova/kinova_gen3_sim.json': dict(
        name='KinovaGen3', modelFile='../../data/robots/kinova_gen3_7dof.urdf', baseType='fixed',
        endEffectors={'wrist': (8, [1, 2, 3, 4, 5, 6, 7])}),
    'kinova/kinova_with_robotiq85_sim.json': dict(
        name='KinovaGen3', modelFile='../../data/robots/kinova_with_robotiq_85.urdf', baseType='fixed',
        parts={'arm': [0, 1, 2, 3, 4, 5, 6, 7], 'gripper': [8, 9, 10, 11, 12, 13, 14, 15, 16]},
        endEffectors={'wrist': (8, [1, 2, 3, 4, 5, 6, 7])}),
    'mirobot/mirobot_sim.json': dict(
        name='Mirobot', modelFile='../../data/robots/mirobot.urdf', baseType='fixed',
        endEffectors={'wrist': (6, [1, 2, 3, 4, 5, 6])}),
    'mirobot/mirobot_vacuum_sim.json': dict(
        name='Mirobot with vacuum', modelFile='../../data/robots/mirobot_vacuum.urdf', baseType='fixed',
        endEffectors={'wrist': (6, [1, 2, 3, 4, 5, 6]), 'vacuum': (6, [1, 2, 3, 4, 5, 6])}),
    'robotiq_2finger/robotiq_85_sim.json': dict(
        name='Robotiq 2f85', modelFile='../../data/robots/robotiq_85.rob', baseType='fixed'),
    'robotiq_3finger/robotiq_3finger_sim.json': dict(
        name='Robotiq 3-finger', modelFile='../../data/robots/robotiQ_3finger.rob', baseType='fixed'),
    'sphero/sphero_sim.json': dict(
        name='Sphero', modelFile='data/sphero.rob', baseType='floating'),
    'tx90pr2_sim.json': dict(
        name='TX90L with PR2 gripper', modelFile='../data/robots/tx90pr2.rob',
        parts={'arm': [0, 1, 2, 3, 4, 5, 6], 'gripper': [7, 8, 9, 10, 11]},
        endEffectors={'wrist': (6, [1, 2, 3, 4, 5, 6])}),
    'ur5/ur5_sim.json': dict(
        name='UR5e', modelFile='../../data/robots/ur5.rob', baseType='fixed',
        endEffectors={'wrist': (7, [1, 2, 3, 4, 5, 6])}),
    'ur5/ur5_with_robotiq85_sim.json': dict(
        name='UR5e-robotiq85', modelFile='../../data/robots/ur5_with_robotiq85.rob', baseType='fixed',
        parts={'arm': [0, 1, 2, 3, 4, 5, 6, 7], 'gripper': [8, 9, 10, 11, 12, 13, 14, 15, 16]},
        endEffectors={'wrist': (7, [1, 2, 3, 4, 5, 6])}),
}


def examples_layout(tmp_path):
    """A directory laid out as Klampt-examples: ``data`` (the shared data)
    beside ``robotinfo``.  Returns the robotinfo directory."""
    require_shared_data()
    root = tmp_path / 'Klampt-examples'
    root.mkdir(exist_ok=True)
    if not (root / 'data').exists():
        os.symlink(SHARED_DATA, str(root / 'data'))
    (root / 'robotinfo').mkdir(exist_ok=True)
    return root / 'robotinfo'


def robotinfo_model_path(key):
    """Where the model of ROBOTINFO_SIM[key] is in the shared data (None
    for a model kept beside the robot-info file in Klampt-examples)."""
    model = ROBOTINFO_SIM[key]['modelFile']
    if '/data/' not in model:
        return None
    return os.path.join(SHARED_DATA, model.split('/data/', 1)[1])


def write_robotinfo(tmp_path, key):
    """Writes ROBOTINFO_SIM[key] as the JSON file robotinfo/<key> of an
    examples_layout; returns its path."""
    spec = ROBOTINFO_SIM[key]
    info = {'name': spec['name'], 'modelFile': spec['modelFile'],
            'controllerFile': 'klampt.control.simrobotinterface',
            'properties': {'description': 'simulated ' + spec['name']}}
    if 'baseType' in spec:
        info['baseType'] = spec['baseType']
    if 'parts' in spec:
        info['parts'] = spec['parts']
    if 'endEffectors' in spec:
        info['endEffectors'] = {name: {'link': link, 'activeLinks': active, 'ikObjective': None}
                                for name, (link, active) in spec['endEffectors'].items()}
    fn = examples_layout(tmp_path) / key
    fn.parent.mkdir(parents=True, exist_ok=True)
    import json
    fn.write_text(json.dumps(info, indent=1))
    return str(fn)
