"""klampt.control.interop: a SimRobotController-like facade over an
interface, and RobotControllerBlocks driving interfaces (acceptance
criterion 10, T12), checked on the simulated tx90l."""
import math

import pytest

from conftest import load_shared_world
from control_helpers import TARGET, TOL, make_base, run, run_until, step, tx90

import klampt
from klampt.control.blocks.robotcontroller import RobotControllerBlock, RobotControllerIO
from klampt.control.blocks.wiggle_controller import BigWiggleController
from klampt.control.interop import RobotControllerBlockToInterface, SimRobotControllerToInterface
from klampt.control.robotinterfaceutils import RobotInterfaceCompleter


def facade_step(f, fn):
    f.beginStep()
    try:
        return fn(f)
    finally:
        f.endStep()


def test_sim_robot_controller_facade_moves_the_arm():
    c, w, sim = tx90('Position')
    robot = w.robot(0)
    f = SimRobotControllerToInterface(c)
    assert f.model().getName() == robot.getName()
    assert f.getRate() == pytest.approx(0.01)
    assert len(f.getSensedConfig()) == robot.numLinks()
    target = robot.configFromDrivers(TARGET)
    facade_step(f, lambda f: f.setMilestone(target))
    remaining = facade_step(f, lambda f: f.remainingTime())
    # a duration, not a clock time (the reference returns the end time)
    assert 0.7 < remaining < 0.76
    for _ in range(100):
        facade_step(f, lambda f: None)
    assert facade_step(f, lambda f: f.remainingTime()) == 0.0
    assert facade_step(f, lambda f: f.getCommandedConfig()) == pytest.approx(target, abs=1e-9)
    sensed = robot.configToDrivers(facade_step(f, lambda f: f.getSensedConfig()))
    assert all(abs(a - b) <= tol for a, b, tol in zip(sensed, TARGET, TOL))
    # velocity in link space for 0.5 s
    dq = [0.0] * robot.numLinks()
    dq[1] = 0.4
    q0 = facade_step(f, lambda f: f.getCommandedConfig())
    facade_step(f, lambda f: f.setVelocity(dq, 0.5))
    for _ in range(60):
        facade_step(f, lambda f: None)
    assert facade_step(f, lambda f: f.getCommandedConfig())[1] - q0[1] == pytest.approx(0.2, abs=1e-6)
    # a PID command in link space
    qpid = list(q0)
    qpid[2] += 0.1
    facade_step(f, lambda f: f.setPIDCommand(qpid, [0.0] * robot.numLinks()))
    facade_step(f, lambda f: None)
    assert facade_step(f, lambda f: f.getCommandedConfig())[2] == pytest.approx(qpid[2], abs=1e-9)
    assert f.sensor(0).name() == 'q' and f.sensor('no such sensor').type() == ''
    assert f.getPIDGains() == (None, None, None)
    with pytest.raises(NotImplementedError):
        f.setMilestone(target, [0.0] * robot.numLinks())
    with pytest.raises(ValueError):
        f.sendCommand('explode', [])
    facade_step(f, lambda f: f.sendCommand('softStop', []))
    assert c.status() == 'softStop'


def test_big_wiggle_controller_drives_a_position_base():
    c, w, sim = tx90('Position')
    robot = w.robot(0)
    block = RobotControllerBlockToInterface(BigWiggleController(robot), c)
    commands = []
    for _ in range(300):
        block.advance(step_interface=True)
        commands.append(block.lastOutputs['qcmd'][1])
    # the first quarter period (2.5 s) moves link 1 monotonically up to its limit
    quarter = commands[:250]
    assert all(b >= a - 1e-12 for a, b in zip(quarter, quarter[1:]))
    assert quarter[-1] == pytest.approx(robot.getJointLimits()[1][1], abs=1e-3)
    assert commands[-1] < quarter[-1]
    assert step(c, lambda c: c.status()) == 'ok'
    # the arm followed (sensed, driver 0 is link 1)
    assert step(c, lambda c: c.sensedPosition())[0] == pytest.approx(commands[-1], abs=0.05)


class HoldAndPush(RobotControllerBlock):
    """A controller sending a velocity command with a duration."""

    def advance(self, **inputs):
        api = RobotControllerIO(inputs)
        dq = [0.0] * len(api.sensedConfiguration())
        dq[3] = 0.5
        return api.makeVelocityCommand(dq, 0.1)


def test_block_velocity_commands_on_a_raw_base():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    sim = klampt.Simulator(w)
    base = make_base('Kinematic', w, sim)
    assert base.initialize()
    block = RobotControllerBlockToInterface(HoldAndPush(w.robot(0)), base)
    c = block.robotInterface
    assert c.properties['complete']
    for _ in range(100):
        block.advance(step_interface=True)
    # 100 steps at 200 Hz at 0.5 rad/s
    assert step(c, lambda c: c.commandedPosition())[2] == pytest.approx(0.25, abs=1e-6)
    # then the last command (issued 99 steps in, at 0.2475) runs out its 0.1 s
    run(c, 0.2)
    assert step(c, lambda c: c.commandedPosition())[2] == pytest.approx(0.2475 + 0.05, abs=1e-6)
    assert run_until(c, lambda c: not c.isMoving(), 0.1) < 0.01
    with pytest.raises(NotImplementedError):
        RobotControllerBlockToInterface(HoldAndPush(), c, controllerRateRatio=2)


def test_simple_simulator_runs_a_controller_block():
    from klampt.sim.simulation import SimpleSimulator
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    sim = SimpleSimulator(w)
    sim.setController(0, BigWiggleController(w.robot(0), period=10))
    for _ in range(50):
        sim.simulate(0.01)
    # half a second into the first quarter period: link 1 on its way up,
    # sin(2 pi 0.05) of the way to its upper limit
    qmax = w.robot(0).getJointLimits()[1][1]
    qcmd = sim.controller(0).getCommandedConfig()
    assert qcmd[1] == pytest.approx(qmax * math.sin(0.1 * math.pi), rel=0.05)
    assert 0 < sim.controller(0).getSensedConfig()[1] <= qcmd[1] + 0.01


def test_models_set_on_the_completer_before_initialize_are_used():
    # kbdrive.py and pose.py give the Completer their own world's robot
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    sim = klampt.Simulator(w)
    other = load_shared_world('robots/tx90l.rob', quiet=True)
    c = RobotInterfaceCompleter(make_base('Full', w, sim))
    c._klamptModel = other.robot(0)
    c._worldModel = other
    assert c.initialize()
    assert c.klamptModel().world == other.index != w.index
    step(c, lambda c: c.moveToPosition(TARGET))
    run_until(c, lambda c: not c.isMoving(), 2.0)
    assert step(c, lambda c: c.commandedPosition()) == pytest.approx(TARGET, abs=1e-9)
