"""The autoDisable setting: idle rigid objects sleep (no integration, zero
velocity) and keep their resting contacts; touching, pushing or moving them
wakes them; states with sleeping bodies restore exactly."""
import pytest

from klampt import Simulator, WorldModel
from test_sim_physics import add_box, add_ground

G = 9.8


def box_world(heights, spacing=0.3):
    """Unit-mass 10 cm boxes above a primitive floor (top at z = 0), at the
    given heights of their centres, in a row along x."""
    w = WorldModel()
    add_ground(w, mesh=False)
    for i, z in enumerate(heights):
        add_box(w, "box%d" % i, [spacing * i, 0, z], mesh=False)
    return w


def run(sim, seconds):
    for _ in range(int(round(seconds / 0.01))):
        sim.simulate(0.01)


AT_REST = ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])


def asleep(heights, **kwargs):
    """A world of boxes simulated with autoDisable until every box sleeps."""
    w = box_world(heights, **kwargs)
    sim = Simulator(w)
    sim.setSetting("autoDisable", "1")
    run(sim, 2.0)
    for i in range(len(heights)):
        assert sim.body(w.rigidObject(i)).getVelocity() == AT_REST
    return w, sim


def test_autodisable_is_off_by_default_and_resting_bodies_keep_moving_slightly():
    w = box_world([0.2])
    sim = Simulator(w)
    assert sim.getSetting("autoDisable") == "0"
    run(sim, 1.0)
    # Awake, a resting box still carries the solver's tiny residual velocity.
    assert any(v != 0.0 for v in sim.body(w.rigidObject(0)).getVelocity()[1])


def test_sleeping_boxes_rest_where_awake_boxes_rest():
    heights = [0.2 + 0.05 * i for i in range(6)]
    awake, sleepy = box_world(heights), box_world(heights)
    sa, ss = Simulator(awake), Simulator(sleepy)
    ss.setSetting("autoDisable", "1")
    run(sa, 2.0)
    run(ss, 2.0)
    for i in range(len(heights)):
        body = ss.body(sleepy.rigidObject(i))
        # Asleep: not integrated, so exactly at rest.
        assert body.getVelocity() == AT_REST
        za = awake.rigidObject(i).getTransform()[1][2]
        zs = sleepy.rigidObject(i).getTransform()[1][2]
        assert zs == pytest.approx(za, abs=1e-3)
        assert zs > 0.045


def test_sleeping_box_keeps_its_contact_and_supporting_force():
    w = box_world([0.2])
    sim = Simulator(w)
    sim.setSetting("autoDisable", "1")
    sim.enableContactFeedbackAll()
    run(sim, 2.0)
    box, floor = w.rigidObject(0).getID(), w.terrain(0).getID()
    assert sim.body(w.rigidObject(0)).getVelocity() == AT_REST
    assert sim.inContact(box, floor)
    assert sim.contactForce(box, floor)[2] == pytest.approx(1.0 * G, rel=0.02)


def test_force_wakes_a_sleeping_box():
    w, sim = asleep([0.2])
    body = sim.body(w.rigidObject(0))
    z0 = w.rigidObject(0).getTransform()[1][2]
    body.applyWrench([0, 0, 30.0], [0, 0, 0])  # three times its weight, upwards
    sim.simulate(0.01)
    assert body.getVelocity()[1][2] > 0.1
    assert w.rigidObject(0).getTransform()[1][2] > z0


def test_box_dropped_on_a_sleeping_box_wakes_it_and_both_come_to_rest_stacked():
    w, sim = asleep([0.2, 0.2])
    lower, upper = sim.body(w.rigidObject(0)), sim.body(w.rigidObject(1))
    z_lower = w.rigidObject(0).getTransform()[1][2]
    # Moving the second box above the first wakes it; it falls on the sleeper.
    upper.setObjectTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0.4])
    woke = False
    for _ in range(300):
        sim.simulate(0.01)
        woke |= lower.getVelocity() != AT_REST
    assert woke
    zl = w.rigidObject(0).getTransform()[1][2]
    zu = w.rigidObject(1).getTransform()[1][2]
    assert zl == pytest.approx(z_lower, abs=2e-3)
    # One box height plus the two boxes' boundary layers (2.5 mm each) up.
    assert zu == pytest.approx(zl + 0.1 + 0.005, abs=2e-3)
    assert lower.getVelocity() == upper.getVelocity() == AT_REST


def test_turning_autodisable_off_wakes_every_body():
    w, sim = asleep([0.2])
    body = sim.body(w.rigidObject(0))
    sim.setSetting("autoDisable", "0")
    body.applyWrench([0, 0, 0], [0, 0, 0])
    run(sim, 0.05)
    assert body.getVelocity() != AT_REST


def test_state_with_sleeping_bodies_restores_bit_for_bit():
    heights = [0.2, 0.35, 0.5]
    w = box_world(heights)
    sim = Simulator(w)
    sim.setSetting("autoDisable", "1")
    run(sim, 0.4)  # some boxes are asleep, some still falling
    state = sim.getState()

    def trajectory():
        out = []
        for _ in range(150):
            sim.simulate(0.01)
            out.append([w.rigidObject(i).getTransform() for i in range(len(heights))])
        return out

    first = trajectory()
    sim.setState(state)
    assert trajectory() == first


def test_kinematic_body_pushing_a_sleeping_box_wakes_it():
    w, sim = asleep([0.2, 0.2], spacing=0.2)
    x0 = w.rigidObject(1).getTransform()[1][0]
    # The first box becomes a kinematic paddle sliding towards the second.
    paddle = sim.body(w.rigidObject(0))
    paddle.enableDynamics(False)
    paddle.setVelocity([0, 0, 0], [0.5, 0, 0])
    run(sim, 0.5)
    assert w.rigidObject(1).getTransform()[1][0] > x0 + 0.1
