"""The simulated robot controller: PID milestones, cubic motion queues and
torque control against the model's own dynamics."""
import math
import os

import pytest

from conftest import PROJECT_DATA, SHARED_DATA, require_shared_data
from klampt import Simulator, WorldModel
from test_sim_physics import pendulum_world


def tx90_world():
    require_shared_data()
    w = WorldModel()
    assert w.loadRobot(os.path.join(SHARED_DATA, "robots", "tx90l.rob")).index == 0
    return w


# The last wrist joint has tiny inertia, low gains (P 100, D 2) and dry
# friction: it settles in a limit cycle of a few centiradians, in the
# reference too. The other joints are held tightly.
TOLERANCE = [0, 0.01, 0.01, 0.01, 0.01, 0.01, 0.1]


def hermite(q0, v0, q1, v1, T, t):
    u = t / T
    h00, h10 = 2 * u**3 - 3 * u**2 + 1, u**3 - 2 * u**2 + u
    h01, h11 = -2 * u**3 + 3 * u**2, u**3 - u**2
    return [h00 * a + h10 * T * b + h01 * c + h11 * T * d for a, b, c, d in zip(q0, v0, q1, v1)]


def test_pid_reaches_milestone():
    w = tx90_world()
    sim = Simulator(w)
    c = sim.controller(0)
    assert c.getControlType() == "PID"
    target = [0, 0.6, -0.4, 0.5, 0.7, -0.5, 0.8]
    c.setMilestone(target)
    duration = c.remainingTime()
    assert duration > 0
    sim.simulate(duration + 1.0)
    assert c.remainingTime() == 0
    q = sim.getActualConfig(0)
    for i in range(1, 7):
        assert q[i] == pytest.approx(target[i], abs=TOLERANCE[i]), "joint %d" % i
    assert c.getCommandedConfig() == pytest.approx(target, abs=1e-9)
    assert sim.getStatus() == Simulator.STATUS_NORMAL


@pytest.mark.parametrize("pose", [[0] * 7, [0, 0, 0.4, 0.8, 0, 1.2, 0]], ids=["upright", "bent"])
def test_demo_arm_servos_move_without_chatter(pose):
    # An explicit PD term with kD dt / I > 2 overshoots at every step while a
    # joint moves: the torque flips between its limits instead of following
    # the motion. The demo arm's gains must be stable at the 1 ms step where
    # its joint inertias are smallest (upright) and in the demo's working pose.
    w = WorldModel()
    assert w.readFile(os.path.join(PROJECT_DATA, "robots", "arm6.rob"))
    robot = w.robot(0)
    robot.setConfig(pose)
    limits = robot.getTorqueLimits()
    sim = Simulator(w)
    c = sim.controller(0)
    target = [q + (0.3 if i > 0 else 0) for i, q in enumerate(pose)]
    c.setMilestone(target)
    for _ in range(300):
        sim.simulate(0.001)
        for d, t in enumerate(sim.getActualTorque(0)):
            limit = limits[robot.driver(d).getAffectedLinks()[0]]
            assert abs(t) < 0.9 * limit, "driver %d at its torque limit" % d
    sim.simulate(1.0)
    assert sim.getActualConfig(0) == pytest.approx(target, abs=0.02)


def test_cubic_queue_follows_its_trajectory():
    w = tx90_world()
    sim = Simulator(w)
    c = sim.controller(0)
    q0 = sim.getActualConfig(0)
    q1 = [0, 0.4, 0.3, -0.2, 0.5, 0.3, -0.4]
    v0, v1 = [0.0] * 7, [0, 0.1, 0, 0, 0, 0, 0]
    T = 1.5
    c.setCubic(q1, v1, T)
    assert c.remainingTime() == pytest.approx(T)
    for k in range(1, 16):
        sim.simulate(0.1)
        t = 0.1 * k
        expected = hermite(q0, v0, q1, v1, T, t)
        # The command is the cubic where it should be at the end of the
        # current control period (updated in the step that ends at t).
        assert c.getCommandedConfig() == pytest.approx(hermite(q0, v0, q1, v1, T, min(t + c.getRate(), T)), abs=1e-12)
        # PID with the robot's servo gains tracks it closely.
        actual = sim.getActualConfig(0)
        for i in range(1, 7):
            assert actual[i] == pytest.approx(expected[i], abs=2 * TOLERANCE[i]), "joint %d at t=%g" % (i, t)
    assert c.remainingTime() == pytest.approx(0, abs=1e-9)


def test_linear_and_appended_segments_chain():
    w = tx90_world()
    sim = Simulator(w)
    c = sim.controller(0)
    q0 = sim.getActualConfig(0)
    qa = [0, 0.2, 0, 0, 0, 0, 0]
    qb = [0, 0.2, 0.2, 0, 0, 0, 0]
    c.setLinear(qa, 0.5)
    c.addLinear(qb, 0.5)
    assert c.remainingTime() == pytest.approx(1.0)
    # The command leads the simulation by one control period (0.01 s).
    sim.simulate(0.25)
    assert c.getCommandedConfig()[1] == pytest.approx(0.2 * 0.26 / 0.5, abs=1e-12)
    assert c.getCommandedVelocity()[1] == pytest.approx(0.4, abs=1e-9)
    sim.simulate(0.5)
    assert c.getCommandedConfig()[2] == pytest.approx(0.2 * 0.26 / 0.5, abs=1e-12)
    sim.simulate(1.0)
    assert sim.getActualConfig(0)[2] == pytest.approx(0.2, abs=0.01)
    assert q0[1] == 0


def test_torque_control_matches_forward_dynamics(tmp_path):
    w = pendulum_world(tmp_path, q0=0.3)
    robot = w.robot(0)
    sim = Simulator(w)
    c = sim.controller(0)
    tau = 2.5
    c.setTorque([tau])
    assert c.getControlType() == "torque"
    robot.setConfig(sim.getActualConfig(0))
    robot.setVelocity([0, 0])
    # accelFromTorques leaves gravity out: subtract the gravity torques.
    g = robot.getGravityForces([0, 0, -9.8])
    expected = robot.accelFromTorques([0 - g[0], tau - g[1]])[1]
    assert abs(expected - tau) > 1.0  # gravity matters at this angle
    # One semi-implicit Euler step: the velocity changes by the acceleration
    # at the start state times dt.
    dt = 1e-3
    # Joint constraints get compliance CFM/dt; make it negligible.
    sim.setSetting("dampedLeastSquaresParameter", "1e-10")
    sim.simulate(dt)
    measured = sim.getActualVelocity(0)[1] / dt
    assert measured == pytest.approx(expected, rel=1e-3)
    assert sim.getActualTorque(0) == pytest.approx([tau])


def test_pid_gains_and_settings():
    w = tx90_world()
    sim = Simulator(w)
    c = sim.controller(w.robot(0))
    kp, ki, kd = c.getPIDGains()
    # The robot file's servo gains.
    assert kp[1] == pytest.approx(40000.0) or kp[1] > 0
    assert len(kp) == w.robot(0).numDrivers()
    c.setPIDGains([1.0] * len(kp), [0.0] * len(kp), [0.5] * len(kp))
    assert c.getPIDGains()[0] == [1.0] * len(kp)
    with pytest.raises(ValueError):
        c.setPIDGains([1.0], [0.0], [0.5])
    assert "enableGravityCompensation" in c.settings()
    assert c.setSetting("enableGravityCompensation", "0")
    assert c.getSetting("enableGravityCompensation") == "0"
    assert not c.setSetting("noSuchSetting", "1")
    assert c.getRate() == pytest.approx(0.01)
    c.setRate(0.005)
    assert c.getRate() == 0.005
    with pytest.raises(ValueError):
        c.setLinear([0] * 7, -0.1)
    with pytest.raises(ValueError):
        c.setMilestone([0] * 3)
    assert c.sendCommand("set_q", "7 0 0.1 0 0 0 0 0")
    assert c.getCommandedConfig() is not None and c.remainingTime() > 0
    assert not c.sendCommand("set_q", "3 0 0")
    assert c.model().getName() == w.robot(0).getName()
    with pytest.raises(RuntimeError):
        c.getSensedTorque()  # the robot has no torque sensor


def test_nonfinite_torque_reports_error_without_nan_state(tmp_path):
    w = pendulum_world(tmp_path)
    sim = Simulator(w)
    sim.controller(0).setTorque([math.nan])
    sim.simulate(0.05)
    assert sim.getStatus() == Simulator.STATUS_ERROR
    assert sim.getStatusString() == "error"
    assert all(math.isfinite(x) for x in sim.getActualConfig(0))
    assert all(math.isfinite(x) for x in w.robot(0).getConfig())


def test_pid_integral_does_not_wind_up_past_the_torque_limit(tmp_path):
    # A 20 kg pendulum on a 100 N m motor cannot reach 1.2 rad: it settles
    # where the saturated motor balances gravity. The integral is held where
    # kI times it equals the limit (the reference's anti-windup), so once the
    # target drops to 0 the torque comes off the limit at once and the
    # pendulum swings down; a wound-up integral would hold it there for
    # seconds.
    w = pendulum_world(tmp_path, q0=0.0, mass=20.0)
    sim = Simulator(w)
    c = sim.controller(0)
    c.setSetting("enableGravityCompensation", "0")
    c.setPIDGains([0], [50], [100])
    c.setPIDCommand([0, 1.2], [0, 0])
    sim.simulate(5.0)
    held = sim.getActualConfig(0)[1]
    assert held == pytest.approx(math.asin(100 / (20 * 9.8)), abs=0.02)
    assert sim.getActualTorque(0)[0] == pytest.approx(100, rel=0.01)
    c.setPIDCommand([0, 0.0], [0, 0])
    sim.simulate(0.05)
    assert sim.getActualTorque(0)[0] < 99
    sim.simulate(2.0)
    assert sim.getActualConfig(0)[1] < held - 0.1


def test_affine_driver_moves_its_links_together():
    # pr2gripper.rob drives four finger links through one affine driver. The
    # transmission holds each link at scale * value + offset, so a commanded
    # opening is reached by all four (the reference gets 0.5479 rad at 2 s).
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", "pr2gripper.rob"))
    robot = w.robot(0)
    robot.driver(0).setValue(0.5)
    target = robot.getConfig()
    robot.setConfig([0.0] * robot.numLinks())
    sim = Simulator(w)
    c = sim.controller(0)
    c.setMilestone(target)
    sim.simulate(2.0)
    assert sim.getActualConfig(0) == pytest.approx(target, abs=2e-3)
