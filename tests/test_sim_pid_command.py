"""SimRobotController.setPIDCommand takes driver-sized vectors (as the
reference's control interfaces send them) or link-sized ones, and the
simulated robot reaches the commanded driver values, affine drivers included.
Expected values: tests/data/make_pid_command_reference.py, run on the reference."""
import json
import math
import os

import pytest

from klampt import Simulator, WorldModel
from conftest import SHARED_DATA, assert_close, require_shared_data

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "pid_command_reference.json")) as f:
    REFERENCE = json.load(f)


def start(robot_file):
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", robot_file))
    return w, Simulator(w)


def driver_values(robot, q):
    robot.setConfig(q)
    return [robot.driver(i).getValue() for i in range(robot.numDrivers())]


@pytest.mark.parametrize("robot_file", sorted(REFERENCE))
def test_driver_sized_command_reaches_the_driver_values(robot_file):
    ref = REFERENCE[robot_file]
    w, sim = start(robot_file)
    robot, c = w.robot(0), sim.controller(0)
    qdes = ref["driverCommand"]["qdes"]
    c.setPIDCommand(qdes, [0.0] * len(qdes))
    assert c.getControlType() == "PID"
    # The setpoint in link space: each driver's value spread over its links.
    assert_close(c.getCommandedConfig(), ref["driverCommand"]["commandedConfig"], atol=1e-12)
    assert_close(c.getCommandedVelocity(), ref["driverCommand"]["commandedVelocity"], atol=1e-12)
    times = sorted(ref["driverCommand"]["sensed"], key=float)
    for t in times:
        sim.simulate(float(t) - sim.getTime())
        sensed = c.getSensedConfig()
        # On the reference's trajectory (ODE steps differ in the last digits).
        assert_close(sensed, ref["driverCommand"]["sensed"][t], atol=5e-3, what="%s at %s s" % (robot_file, t))
    # At rest: every driver at its commanded value, the links of each affine
    # driver on scale * value + offset.
    values = driver_values(robot, sensed)
    assert_close(values, qdes, atol=5e-3)
    for d in range(robot.numDrivers()):
        drv = robot.driver(d)
        if drv.getType() != "affine":
            continue
        scale, offset = drv.getAffineCoeffs()
        for link, s, o in zip(drv.getAffectedLinks(), scale, offset):
            assert sensed[link] == pytest.approx(s * qdes[d] + o, abs=2e-2)


@pytest.mark.parametrize("robot_file", sorted(REFERENCE))
def test_link_sized_command_is_read_through_the_drivers(robot_file):
    ref = REFERENCE[robot_file]["linkCommand"]
    w, sim = start(robot_file)
    c = sim.controller(0)
    c.setPIDCommand(ref["qdes"], ref["dqdes"])
    # Affine links are made to agree (the driver value is their mean), links
    # without a driver stay where the robot is (at 0 here, as the reference gives).
    assert_close(c.getCommandedConfig(), ref["commandedConfig"], atol=1e-12)
    assert_close(c.getCommandedVelocity(), ref["commandedVelocity"], atol=1e-12)


def test_link_sized_and_driver_sized_commands_move_the_robot_alike():
    w1, sim1 = start("tx90pr2.rob")
    w2, sim2 = start("tx90pr2.rob")
    robot = w1.robot(0)
    qdes = REFERENCE["tx90pr2.rob"]["driverCommand"]["qdes"]
    sim1.controller(0).setPIDCommand(qdes, [0.0] * len(qdes))
    for i, v in enumerate(qdes):
        robot.driver(i).setValue(v)
    qlinks = robot.getConfig()
    robot.setConfig([0.0] * robot.numLinks())
    sim2.controller(0).setPIDCommand(qlinks, [0.0] * len(qlinks))
    sim1.simulate(0.3)
    sim2.simulate(0.3)
    assert sim1.controller(0).getSensedConfig() == sim2.controller(0).getSensedConfig()


@pytest.mark.parametrize("robot_file", sorted(REFERENCE))
def test_feedforward_torque_per_driver(robot_file):
    ref = REFERENCE[robot_file]
    w, sim = start(robot_file)
    c = sim.controller(0)
    c.setPIDCommand(ref["driverCommand"]["qdes"], [0.0] * ref["numDrivers"], ref["feedforward"]["tfeedforward"])
    assert_close(c.getCommandedTorque(), ref["feedforward"]["commandedTorque"], atol=1e-12)
    c.setPIDCommand(ref["driverCommand"]["qdes"], [0.0] * ref["numDrivers"])
    assert c.getCommandedTorque() == [0.0] * ref["numDrivers"]


@pytest.mark.parametrize("robot_file", sorted(REFERENCE))
def test_bad_sizes_and_values_raise_and_change_nothing(robot_file):
    ref = REFERENCE[robot_file]
    nd, nl = ref["numDrivers"], ref["numLinks"]
    w, sim = start(robot_file)
    c = sim.controller(0)
    qdes = ref["driverCommand"]["qdes"]
    c.setPIDCommand(qdes, [0.0] * nd, [0.1] * nd)
    before = (c.getCommandedConfig(), c.getCommandedVelocity(), c.getCommandedTorque())
    bad = {"mixed": (qdes, [0.0] * nl), "mixed2": ([0.0] * nl, [0.0] * nd),
           "short": ([0.0] * (nd + 1), [0.0] * (nd + 1)),
           "feedforward_short": (qdes, [0.0] * nd, [0.0] * (nd + 1))}
    for name, args in bad.items():
        assert ref["errors"][name] is not None  # the reference refuses them too
        with pytest.raises(ValueError):
            c.setPIDCommand(*args)
        assert (c.getCommandedConfig(), c.getCommandedVelocity(), c.getCommandedTorque()) == before, name
    for value in (math.nan, math.inf):
        with pytest.raises(ValueError, match="finite"):
            c.setPIDCommand([value] + qdes[1:], [0.0] * nd)
        with pytest.raises(ValueError, match="finite"):
            c.setPIDCommand(qdes, [0.0] * nd, [value] * nd)
        assert (c.getCommandedConfig(), c.getCommandedVelocity(), c.getCommandedTorque()) == before
