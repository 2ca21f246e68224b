"""SimRobotController's motion queue (the dynamic interpolant of setMilestone,
addMilestone and addMilestoneLinear, and setLinear, addLinear, setCubic and
setVelocity) against the reference's, recorded in
data/motion_queue_reference.json by data/make_motion_queue_reference.py with
Klamp't 0.9.2: the move durations, and the commanded configuration and
velocity after every control period."""
import json
import os

import pytest

from conftest import SHARED_DATA, require_shared_data
from klampt import Simulator, WorldModel

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "motion_queue_reference.json")) as f:
    REFERENCE = json.load(f)
CASES = REFERENCE["cases"]


def replay(case):
    """The case's calls on this package's simulator, sampled as the reference was."""
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, case["robot"]))
    sim = Simulator(w)
    c = sim.controller(0)
    pending = sorted(case["calls"], key=lambda call: call[0])
    remaining, samples = [], []
    for ref in case["samples"]:
        while pending and pending[0][0] <= sim.getTime() + 1e-9:
            _, method, args = pending.pop(0)
            getattr(c, method)(*args)
            remaining.append(c.remainingTime())
        sim.simulate(ref["t"] - sim.getTime())
        samples.append({"t": sim.getTime(), "remaining": c.remainingTime(), "q": c.getCommandedConfig(),
                        "dq": c.getCommandedVelocity()})
    return remaining, samples


@pytest.mark.parametrize("name", sorted(CASES))
def test_move_durations_match_the_reference(name):
    remaining, _ = replay(CASES[name])
    assert remaining == pytest.approx(CASES[name]["remaining"], abs=1e-9)


@pytest.mark.parametrize("name", sorted(CASES))
def test_commanded_motion_matches_the_reference(name):
    case = CASES[name]
    _, ours = replay(case)
    # Samples are paired by the time left in the queue: the reference's
    # control clock, a sum of floating-point steps, drifts by one control
    # period after about a second, which shifts its samples, not its motion.
    mine = {round(s["remaining"], 8): s for s in ours if s["remaining"] > 1e-9}
    paired = 0
    for ref in case["samples"]:
        if ref["remaining"] <= 1e-9:
            continue
        s = mine.get(round(ref["remaining"], 8))
        if s is None:
            continue
        paired += 1
        assert s["q"] == pytest.approx(ref["q"], abs=1e-9), "t=%g" % ref["t"]
        assert s["dq"] == pytest.approx(ref["dq"], abs=1e-9), "t=%g" % ref["t"]
    moving = sum(ref["remaining"] > 1e-9 for ref in case["samples"])
    assert paired >= moving - 1
    # Both end at the target, at rest.
    assert ours[-1]["q"] == pytest.approx(case["samples"][-1]["q"], abs=1e-9)
    assert ours[-1]["dq"] == pytest.approx([0.0] * len(ours[-1]["dq"]), abs=1e-12)


def test_moves_respect_the_velocity_and_acceleration_limits():
    # Time-optimal: every DOF within its bounds, and the slowest DOF at its
    # acceleration bound (or its velocity bound) for the whole move.
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", "ur5.rob"))
    robot = w.robot(0)
    vmax, amax = robot.getVelocityLimits(), robot.getAccelerationLimits()
    sim = Simulator(w)
    c = sim.controller(0)
    target = [0, 2.0, -1.5, 1.0, 0.5, -2.5, 1.0, 0]
    c.setMilestone(target)
    previous, left = c.getCommandedVelocity(), c.remainingTime()
    peak = [0.0] * len(target)
    while c.remainingTime() > 0:
        sim.simulate(c.getRate())
        v = c.getCommandedVelocity()
        elapsed = left - c.remainingTime()  # of the queue's own clock
        for i in range(len(v)):
            assert abs(v[i]) <= vmax[i] + 1e-9
            assert abs(v[i] - previous[i]) <= amax[i] * elapsed + 1e-9
            peak[i] = max(peak[i], abs(v[i]))
        previous, left = v, c.remainingTime()
    assert peak[5] == pytest.approx(vmax[5], rel=1e-9)  # the 2.5 rad move coasts at full speed
    assert c.getCommandedConfig() == pytest.approx(target, abs=1e-12)


def test_targets_beyond_the_joint_limits_stop_just_inside():
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", "tx90l.rob"))
    qmin, qmax = w.robot(0).getJointLimits()
    sim = Simulator(w)
    c = sim.controller(0)
    target = [0, qmax[1] + 1.0, qmin[2] - 1.0, 0, 0, 0, 0]
    c.setMilestone(target)
    sim.simulate(c.remainingTime() + 0.05)
    q = c.getCommandedConfig()
    assert qmax[1] - 1e-6 < q[1] < qmax[1]
    assert qmin[2] < q[2] < qmin[2] + 1e-6


def test_state_restores_a_move_in_progress():
    # getState / setState carry the queued ramps: a restored simulator
    # commands the same motion as the original.
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", "tx90l.rob"))
    sim = Simulator(w)
    c = sim.controller(0)
    c.setMilestone([0, 0.6, -0.4, 0.5, 0.7, -0.5, 0.8])
    sim.simulate(0.2)
    c.addMilestoneLinear([0, -0.2, 0.3, 0.1, 0.5, 0.2, -0.4])
    state = sim.getState()
    first = []
    for _ in range(50):
        sim.simulate(0.02)
        first.append(c.getCommandedConfig())
    sim.setState(state)
    for expected in first:
        sim.simulate(0.02)
        assert c.getCommandedConfig() == expected


def test_joints_without_an_acceleration_limit_move_with_the_others():
    # atlas.rob leaves some joints' acceleration unbounded. Alone they would
    # jump; in a move with bounded joints they follow the same timing, as the
    # reference's ramps do.
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", "atlas.rob"))
    robot = w.robot(0)
    amax = robot.getAccelerationLimits()
    free, bounded = 19, 10
    assert amax[free] == float("inf") and 0 < amax[bounded] < float("inf")
    q0 = robot.getConfig()
    target = list(q0)
    target[free] += 0.3
    target[bounded] += 0.3
    sim = Simulator(w)
    c = sim.controller(0)
    c.setMilestone(target)
    T = c.remainingTime()
    assert T == pytest.approx(2 * (0.3 / amax[bounded]) ** 0.5)
    sim.simulate(0.1)
    q = c.getCommandedConfig()
    assert 0 < q[free] - q0[free] < 0.3
    assert q[free] - q0[free] == pytest.approx(q[bounded] - q0[bounded], abs=1e-12)
