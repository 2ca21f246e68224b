"""What klampt.control needs from the core and from robotinfo: driver-sized
PID commands, robot-info parts whose links include undriven ones, and
controller() handing back its model file."""
import os
import warnings

import pytest

from conftest import SHARED_DATA, load_robot, require_shared_data

import klampt
from klampt.model.robotinfo import RobotInfo


@pytest.fixture
def tx90pr2():
    require_shared_data()
    return load_robot(os.path.join(SHARED_DATA, 'robots', 'tx90pr2.rob'))


def test_pid_command_takes_driver_or_link_vectors(tx90pr2):
    world, robot = tx90pr2
    assert (robot.numDrivers(), robot.numLinks()) == (7, 12)
    sim = klampt.Simulator(world)
    c = sim.controller(0)
    qd = [0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.2]
    c.setPIDCommand(qd, [0.0] * 7)
    by_drivers = c.getCommandedConfig()
    # the same command in link space, through the model's driver mapping
    robot.setConfig(by_drivers)
    expected = robot.configFromDrivers(qd)
    assert by_drivers == pytest.approx(expected, abs=1e-12)
    assert robot.configToDrivers(by_drivers) == pytest.approx(qd, abs=1e-12)
    c.setPIDCommand([0.0] * 12, [0.0] * 12)
    c.setPIDCommand(expected, [0.0] * 12)
    assert c.getCommandedConfig() == pytest.approx(by_drivers, abs=1e-12)
    # driver velocities land on every link of the affine gripper driver
    c.setPIDCommand(qd, [0, 0, 0, 0, 0, 0, 1.0])
    dq = c.getCommandedVelocity()
    scale, _ = robot.driver(6).getAffineCoeffs()
    for link, s in zip(robot.driver(6).getAffectedLinks(), scale):
        assert dq[link] == pytest.approx(s)
    with pytest.raises(ValueError, match="numDrivers"):
        c.setPIDCommand([0.0] * 5, [0.0] * 5)


def test_pid_command_tx90l_sizes_agree(shared_data):
    world, robot = load_robot(os.path.join(shared_data, 'robots', 'tx90l.rob'))
    sim = klampt.Simulator(world)
    c = sim.controller(0)
    c.setPIDCommand([0.2] * 6, [0.0] * 6)
    a = c.getCommandedConfig()
    c.setPIDCommand([0.0] + [0.2] * 6, [0.0] * 7)
    assert c.getCommandedConfig() == pytest.approx(a, abs=1e-12)
    assert a[1:] == pytest.approx([0.2] * 6)


def test_part_driver_indices_skip_undriven_links(tx90pr2):
    world, robot = tx90pr2
    info = RobotInfo('tx90pr2_test', parts={'arm': list(range(7)), 'gripper': list(range(7, 12))})
    info.robotModel = robot
    # link 0 (the welded base) and link 7 (the welded gripper base) have no driver
    assert info.partDriverIndices('arm') == [0, 1, 2, 3, 4, 5]
    assert info.partDriverIndices('gripper') == [6]
    with pytest.raises(IndexError):
        info.toDriverIndices([12])


def test_controller_sets_the_model_file(tx90pr2, tmp_path):
    fn = os.path.join(SHARED_DATA, 'robots', 'tx90pr2.rob')
    code = tmp_path / 'ctl.py'
    code.write_text("from klampt.control.robotinterface import RobotInterfaceBase\n"
                    "def make(robot):\n    return RobotInterfaceBase(name=robot.getName())\n")
    info = RobotInfo('tx90pr2_ctl', modelFile=fn, parts={'arm': list(range(7))})
    info.controllerFile = str(code)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        iface = info.controller()
    assert iface.properties['klamptModelFile'] == os.path.abspath(fn)
    assert iface.properties['name'] == info.klamptModel().getName()
    code.write_text("def make(robot):\n    raise KeyError('no such port')\n")
    info.controllerFile = str(code)
    with pytest.raises(RuntimeError, match="ctl.py.*no such port"):
        info.controller()
