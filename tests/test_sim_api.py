"""Simulator, SimBody and SimJoint API: settings, statuses, errors, forces,
user joints and contact feedback."""
import math

import pytest

from klampt import Simulator, SimJoint, WorldModel
from test_sim_physics import add_box, add_ground


def test_settings_and_status_names():
    sim = Simulator(WorldModel())
    names = sim.settings()
    assert names[0] == "gravity" and "adaptiveTimeStepping" in names and len(names) == 16
    assert sim.getSetting("gravity") == "0 0 -9.8"
    assert sim.getSetting("maxContacts") == "20"
    assert sim.getSetting("instabilityPostCorrectionEnergy") == "0.8"
    sim.setSetting("maxContacts", "5")
    assert sim.getSetting("maxContacts") == "5"
    with pytest.raises(ValueError):
        sim.setSetting("maxContacts", "many")
    with pytest.raises(ValueError):
        sim.setSetting("noSuchSetting", "1")
    with pytest.raises(ValueError):
        sim.getSetting("noSuchSetting")
    assert [sim.getStatusString(i) for i in range(5)] == [
        "normal", "adaptive time stepping", "contact unreliable", "unstable", "error"]
    assert Simulator.STATUS_ERROR == 4
    with pytest.raises(IndexError):
        sim.controller(0)
    with pytest.raises(ValueError):
        sim.simulate(-1)


def test_gravity_setting_drives_free_fall():
    w = WorldModel()
    o = add_box(w, "box", [0, 0, 0])
    sim = Simulator(w)
    sim.setGravity([1.0, 0, 0])
    sim.simulate(0.1)
    assert o.getVelocity()[1] == pytest.approx([0.1, 0, 0], abs=1e-9)


def test_body_wrench_and_transforms():
    w = WorldModel()
    o = add_box(w, "box", [0, 0, 1], mass=2.0)
    sim = Simulator(w)
    sim.setGravity([0, 0, 0])
    b = sim.body(o)
    assert b.getID() == o.getID()
    b.applyWrench([4.0, 0, 0], [0, 0, 0])
    sim.simulate(0.1)
    # F/m over the call, then nothing.
    assert b.getVelocity()[1] == pytest.approx([0.2, 0, 0], abs=1e-9)
    sim.simulate(0.1)
    assert b.getVelocity()[1] == pytest.approx([0.2, 0, 0], abs=1e-9)
    b.setObjectTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [5, 6, 7])
    assert b.getObjectTransform()[1] == pytest.approx([5, 6, 7])
    b.setVelocity([0, 0, 1], [0, 0, 0])
    assert b.getVelocity()[0] == pytest.approx([0, 0, 1])
    b.enableDynamics(False)
    assert not b.isDynamicsEnabled()
    b.setCollisionPadding(0.01)
    assert b.getCollisionPadding() == 0.01
    with pytest.raises(ValueError):
        b.setCollisionPadding(-1)
    s = b.getSurface()
    s.kFriction = 0.123
    b.setSurface(s)
    assert b.getSurface().kFriction == pytest.approx(0.123)


def test_contact_feedback_measures_weight():
    w = WorldModel()
    ground = add_ground(w)
    o = add_box(w, "box", [0, 0, 0.0525], mass=3.0)
    sim = Simulator(w)
    sim.enableContactFeedback(o.getID(), ground.getID())
    sim.simulate(0.5)
    assert sim.inContact(o.getID(), ground.getID())
    assert sim.inContact(o.getID(), -1)
    assert sim.hadContact(o.getID(), ground.getID())
    assert not sim.hadSeparation(o.getID(), ground.getID())
    f = sim.contactForce(o.getID(), ground.getID())
    assert f == pytest.approx([0, 0, 3.0 * 9.8], abs=0.05)
    assert sim.meanContactForce(o.getID(), ground.getID())[2] == pytest.approx(3.0 * 9.8, rel=0.02)
    # Seen from the ground the force is opposite.
    assert sim.contactForce(ground.getID(), o.getID())[2] == pytest.approx(-3.0 * 9.8, abs=0.05)
    contacts = sim.getContacts(o.getID(), ground.getID())
    assert contacts.shape[1] == 7 and contacts.shape[0] >= 3
    assert all(c[5] > 0.99 for c in contacts)  # normals into the box: up
    forces = sim.getContactForces(o.getID(), ground.getID())
    assert forces.shape == (contacts.shape[0], 3)
    assert forces[:, 2].sum() == pytest.approx(3.0 * 9.8, abs=0.05)
    assert sim.contactTorque(o.getID(), ground.getID()) == pytest.approx([0, 0, 0], abs=0.05)
    with pytest.raises(IndexError):
        sim.inContact(99, 0)


def test_overlap_check():
    w = WorldModel()
    a = add_box(w, "a", [0, 0, 1])
    b = add_box(w, "b", [0.05, 0, 1])
    add_box(w, "c", [3, 0, 1])
    sim = Simulator(w)
    first, second = sim.checkObjectOverlap()
    assert sorted(zip(first, second)) == [(a.getID(), b.getID())]


def test_hinge_joint_turns_a_door():
    w = WorldModel()
    door = add_box(w, "door", [0.5, 0, 1], size=(1.0, 0.05, 1.0))
    sim = Simulator(w)
    sim.setGravity([0, 0, 0])
    j = SimJoint()
    j.makeHinge(sim.body(door), [0, 0, 1], [0, 0, 1])
    j.setLimits(-1, 0.5)
    inertia = (1.0 * (1.0 + 0.0025) / 12) + 1.0 * 0.25  # about the hinge line
    j.addForce(1.0)
    sim.simulate(0.1)
    w_z = sim.body(door).getVelocity()[0][2]
    assert w_z == pytest.approx(0.1 / inertia, rel=0.02)
    j.setVelocity(5.0, 100.0)
    sim.simulate(1.0)
    R = door.getTransform()[0]
    angle = math.atan2(R[1], R[0])
    assert angle == pytest.approx(0.5, abs=0.03)  # held at the upper limit
    j.destroy()
    with pytest.raises(RuntimeError):
        j.setFriction(1.0)


def test_concurrent_simulate_calls_are_serialized():
    import threading

    w = WorldModel()
    add_ground(w)
    for i in range(4):
        add_box(w, "b%d" % i, [0.3 * i, 0, 0.3])
    sim = Simulator(w)
    threads = [threading.Thread(target=lambda: [sim.simulate(0.01) for _ in range(20)]) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sim.getTime() == pytest.approx(0.6, abs=1e-9)
    assert all(w.rigidObject(i).getTransform()[1][2] > 0.045 for i in range(4))


def test_nonfinite_body_inputs_raise():
    w = WorldModel()
    o = add_box(w, "box", [0, 0, 1])
    sim = Simulator(w)
    b = sim.body(o)
    with pytest.raises(ValueError):
        b.setVelocity([0, 0, math.nan], [0, 0, 0])
    with pytest.raises(ValueError):
        b.setTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, math.nan, 0])
    with pytest.raises(ValueError):
        b.applyWrench([math.inf, 0, 0], [0, 0, 0])
    j = SimJoint()
    j.makeSlider(b, [1, 0, 0])
    with pytest.raises(ValueError):
        j.addForce(math.nan)
    sim.simulate(0.05)
    assert sim.getStatus() == Simulator.STATUS_NORMAL
    assert all(math.isfinite(x) for x in o.getTransform()[1])
