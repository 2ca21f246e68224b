"""OmniRobotInterface and the robot-info entry point make(): an arm and a
gripper as one robot, parts taking commands independently (acceptance
criteria 8 and 9)."""
import os
import warnings

import pytest

from conftest import SHARED_DATA, load_shared_world
from control_helpers import max_abs_diff, run, run_until, step

import klampt
from klampt.control import simrobotinterface
from klampt.control.robotinterface import RobotInterfaceBase
from klampt.control.robotinterfaceutils import OmniRobotInterface, RobotInterfaceCompleter
from klampt.control.simrobotinterface import KinematicSimControlInterface
from klampt.model.robotinfo import RobotInfo

TX90PR2 = os.path.join(SHARED_DATA, 'robots', 'tx90pr2.rob')


class Joints(RobotInterfaceBase):
    """A minimal position-controlled device of n joints that records what
    it receives."""

    def __init__(self, n, rate=100.0, name='joints'):
        RobotInterfaceBase.__init__(self, name=name)
        self.q = [0.0] * n
        self.rate = rate
        self.gains = None
        self.commands = 0

    def numJoints(self, part=None):
        return len(self.q)

    def controlRate(self):
        return self.rate

    def sensedPosition(self):
        return list(self.q)

    def setPosition(self, q):
        self.q = [float(x) for x in q]
        self.commands += 1

    def setPIDGains(self, kP, kI, kD):
        self.gains = (list(kP), list(kI), list(kD))


def arm_and_gripper(indices):
    arm, gripper = Joints(6, name='arm'), Joints(1, name='gripper')
    omni = OmniRobotInterface()
    if indices:
        omni.addPhysicalPart('arm', arm, list(range(6)))
        omni.addPhysicalPart('gripper', gripper, [6])
    else:
        omni.addPhysicalPart('arm', arm)
        omni.addPhysicalPart('gripper', gripper)
    return omni, arm, gripper


@pytest.mark.parametrize('indices', [True, False])
def test_omni_arm_and_gripper_behave_as_one_robot(indices):
    omni, arm, gripper = arm_and_gripper(indices)
    assert omni.initialize()
    assert omni.numJoints() == 7
    assert omni.indices('gripper') == [6] and omni.indices('arm') == list(range(6))
    target = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.04]
    step(omni, lambda o: o.setPosition(target))
    assert arm.q == target[:6] and gripper.q == [0.04]
    # a move without a model: a set-point (with a warning)
    with pytest.warns(RuntimeWarning, match="model"):
        step(omni, lambda o: o.moveToPosition([0.0] * 7))
    assert gripper.q == [0.0]
    # parts command independently
    g = omni.partInterface('gripper')
    step(omni, lambda o: g.setPosition([0.03]))
    assert gripper.q == [0.03] and arm.q == [0.0] * 6
    assert not step(omni, lambda o: o.isMoving())
    step(omni, lambda o: g.setPiecewiseLinear([0.5], [[0.01]]))
    assert step(omni, lambda o: o.isMoving())
    run(omni, 0.5)
    assert gripper.q == pytest.approx([0.01]) and arm.commands >= 2
    # PID gains reach the owning part, in (kP, kI, kD) order
    omni.setPIDGains([1, 2, 3, 4, 5, 6, 7], [10] * 7, [100] * 7)
    assert arm.gains == ([1, 2, 3, 4, 5, 6], [10] * 6, [100] * 6)
    assert gripper.gains == ([7], [10], [100])
    assert omni.getPIDGains()[0] == [1, 2, 3, 4, 5, 6, 7]
    assert omni.controlRate() == 100.0


def test_omni_requires_every_dof_in_a_physical_part():
    w = load_shared_world('robots/tx90pr2.rob', quiet=True)
    omni = OmniRobotInterface(w.robot(0))
    omni.addPhysicalPart('arm', Joints(6), list(range(6)))
    with pytest.warns(RuntimeWarning, match="no physical part"):
        assert not omni.initialize()
    with pytest.raises(ValueError, match="already exists"):
        omni.addPhysicalPart('arm', Joints(1), [6])
    with pytest.raises(ValueError, match="shares"):
        omni.addPhysicalPart('other', Joints(1), [5])


def test_make_builds_an_omni_interface_for_a_robot_with_parts():
    w = load_shared_world('robots/tx90pr2.rob', quiet=True)
    robot = w.robot(0)
    warnings.filterwarnings('ignore', message=".*ignored 'parents")
    info = RobotInfo(robot.getName(), modelFile=TX90PR2, parts={'arm': list(range(7)), 'gripper': list(range(7, 12))})
    RobotInfo.register(info)
    try:
        iface = simrobotinterface.make(robot)
        assert isinstance(iface, OmniRobotInterface)
        assert iface.initialize()
        parts = iface.parts()
        assert set(parts) == {None, 'robot', 'arm', 'gripper'}
        assert parts['arm'] == [0, 1, 2, 3, 4, 5] and parts['gripper'] == [6]
        arm = iface.partInterface('arm')
        g0 = step(iface, lambda i: iface.partInterface('gripper').commandedPosition())
        q_arm = [0.2, -0.3, 0.4, 0.1, 0.5, -0.2]
        step(iface, lambda i: arm.moveToPosition(q_arm))
        assert step(iface, lambda i: arm.isMoving())
        run_until(iface, lambda i: not i.isMoving(), 3.0)
        assert max_abs_diff(step(iface, lambda i: arm.commandedPosition()), q_arm) < 1e-12
        # the gripper was held
        assert step(iface, lambda i: iface.partInterface('gripper').commandedPosition()) == g0
        # the same through RobotInfo.controller()
        info.controllerFile = 'klampt.control.simrobotinterface'
        info.robotModel = None
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            ctl = info.controller()
        assert isinstance(ctl, OmniRobotInterface) and ctl.initialize()
        assert ctl.properties['klamptModelFile'] == os.path.abspath(TX90PR2)
        g = ctl.partInterface('gripper')
        step(ctl, lambda c: (g.setPosition([0.5]), ctl.partInterface('arm').setPosition(q_arm)))
        step(ctl, lambda c: None)
        assert step(ctl, lambda c: c.commandedPosition()) == pytest.approx(q_arm + [0.5])
        assert not step(ctl, lambda c: c.isMoving())
    finally:
        RobotInfo.all_robots.pop(robot.getName(), None)


def test_make_without_parts_is_a_completer():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    iface = simrobotinterface.make(w.robot(0))
    assert isinstance(iface, RobotInterfaceCompleter)
    assert isinstance(iface._base, KinematicSimControlInterface)
    assert iface.initialize() and iface.controlRate() == 200.0


def test_make_from_file(tmp_path):
    from klampt.control.robotinterfaceutils import make_from_file
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    iface = make_from_file('klampt.control.simrobotinterface', w.robot(0))
    assert iface.initialize()
    code = tmp_path / 'maker.py'
    code.write_text("from klampt.control.simrobotinterface import KinematicSimControlInterface\n"
                    "def make(robot, rate):\n    return KinematicSimControlInterface(robot, rate=rate)\n")
    iface = make_from_file(str(code), w.robot(0), 50.0)
    assert iface.controlRate() == 50.0
    with pytest.raises(RuntimeError, match="make"):
        make_from_file('klampt.control.utils', w.robot(0))


def test_omni_over_two_simulated_robots():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        w.readFile(os.path.join(SHARED_DATA, 'robots', 'tx90l.rob'))
    # side by side, not inside each other
    w.robot(1).link(0).setParentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [2.0, 0, 0])
    w.robot(1).setConfig(w.robot(1).getConfig())
    sim = klampt.Simulator(w)
    from klampt.control.simrobotinterface import SimPositionControlInterface
    a = SimPositionControlInterface(sim.controller(0), sim)
    b = SimPositionControlInterface(sim.controller(1))
    omni = OmniRobotInterface()
    omni.addPhysicalPart('a', a)
    omni.addPhysicalPart('b', b)
    assert omni.initialize()
    assert omni.numJoints() == 12
    target = [0.2] * 6 + [-0.2] * 6
    step(omni, lambda o: o.setPosition(target))
    run(omni, 1.0)
    assert max_abs_diff(step(omni, lambda o: o.sensedPosition()), target) < 0.05
