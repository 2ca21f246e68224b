"""Simulator.getState / setState / reset reproduce runs exactly."""

import pytest

from conftest import tx90blocks_world
from klampt import Simulator, WorldModel


def snapshot(sim, w):
    return (
        sim.getTime(),
        [sim.getActualConfig(r) for r in range(w.numRobots())],
        [sim.getActualVelocity(r) for r in range(w.numRobots())],
        [w.rigidObject(i).getTransform() for i in range(w.numRigidObjects())],
        [w.rigidObject(i).getVelocity() for i in range(w.numRigidObjects())],
        [sim.controller(r).getCommandedConfig() for r in range(w.numRobots())],
    )


def run(sim, steps=20):
    for _ in range(steps):
        sim.simulate(0.01)


def test_set_state_reproduces_a_run_exactly():
    w = tx90blocks_world()
    sim = Simulator(w)
    c = sim.controller(0)
    q = c.getCommandedConfig()
    q[1] += 0.3
    q[3] -= 0.2
    c.setMilestone(q)
    run(sim)
    state = sim.getState()
    assert isinstance(state, str) and state
    run(sim)
    first = snapshot(sim, w)
    sim.setState(state)
    run(sim)
    assert snapshot(sim, w) == first


def test_state_restores_into_a_new_simulator():
    w = tx90blocks_world()
    sim = Simulator(w)
    sim.controller(0).setVelocity([0, 0.2, 0, 0, 0, 0, 0] + [0] * (w.robot(0).numLinks() - 7), 0.5)
    run(sim, 10)
    state = sim.getState()
    run(sim)
    first = snapshot(sim, w)

    w2 = tx90blocks_world()
    sim2 = Simulator(w2)
    sim2.setState(state)
    run(sim2)
    assert snapshot(sim2, w2) == first


def test_reset_returns_to_the_initial_state():
    w = tx90blocks_world()
    start = [w.rigidObject(i).getTransform() for i in range(w.numRigidObjects())]
    sim = Simulator(w)
    run(sim, 30)
    assert sim.getTime() == pytest.approx(0.3)
    assert [w.rigidObject(i).getTransform() for i in range(w.numRigidObjects())] != start
    sim.reset()
    assert sim.getTime() == 0
    got = [w.rigidObject(i).getTransform() for i in range(w.numRigidObjects())]
    for (R, t), (R0, t0) in zip(got, start):
        assert R == pytest.approx(R0, abs=1e-12) and t == pytest.approx(t0, abs=1e-12)
    assert sim.getState() == sim.initialState


def test_malformed_state_raises_and_keeps_the_state():
    w = tx90blocks_world()
    sim = Simulator(w)
    run(sim, 5)
    before = sim.getState()
    for bad in ["", "not base64 !!", before[: len(before) // 2]]:
        with pytest.raises(ValueError):
            sim.setState(bad)
    assert sim.getState() == before
    other = WorldModel()
    other.makeRigidObject("lonely")
    with pytest.raises(ValueError):
        sim.setState(Simulator(other).getState())
