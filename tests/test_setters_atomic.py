"""A setter that raises changes nothing, and values that would make the state
meaningless (NaN, infinite positions and velocities) are rejected like NaN."""
import math

import pytest

import klampt
from klampt import IKSolver, Simulator


INF, NAN = float("inf"), float("nan")
I = [1, 0, 0, 0, 1, 0, 0, 0, 1]


def unchanged(getter, setter, *bad_args, error=ValueError):
    """setter(*bad_args) raises `error` and leaves getter() as it was."""
    before = getter()
    with pytest.raises(error):
        setter(*bad_args)
    assert repr(getter()) == repr(before)


def test_configuration_and_velocity_reject_infinities_like_nan(tx90blocks):
    r = tx90blocks.robot(0)
    n = r.numLinks()
    r.setConfig([0.1] * n)
    for bad in (INF, -INF, NAN):
        unchanged(r.getConfig, r.setConfig, [0.0] * (n - 1) + [bad])
        unchanged(r.getVelocity, r.setVelocity, [bad] + [0.0] * (n - 1))
        unchanged(r.getConfig, r.setDOFPosition, 2, bad)
        unchanged(r.getConfig, r.driver(0).setValue, bad)
        unchanged(r.getVelocity, r.driver(0).setVelocity, bad)
    unchanged(r.getConfig, r.setConfig, [0.0] * (n + 1))
    # the link transforms still follow the configuration
    T = r.link(n - 1).getTransform()
    r.setConfig(r.getConfig())
    assert r.link(n - 1).getTransform() == T


def test_limit_setters_apply_all_or_nothing(tx90blocks):
    r = tx90blocks.robot(0)
    n = r.numLinks()
    lo, hi = r.getJointLimits()
    new_lo = [v - 0.5 if math.isfinite(v) else v for v in lo]
    unchanged(r.getJointLimits, r.setJointLimits, new_lo, [1.0] * (n - 1))
    unchanged(r.getJointLimits, r.setJointLimits, new_lo, [NAN] * n)
    unchanged(r.getJointLimits, r.setJointLimits, [NAN] * n, hi)
    unchanged(r.getVelocityLimits, r.setVelocityLimits, [1.0] * (n - 1) + [NAN])
    unchanged(r.getAccelerationLimits, r.setAccelerationLimits, [1.0] * (n + 1))
    unchanged(r.getTorqueLimits, r.setTorqueLimits, [NAN] * n)
    # infinite limits stay allowed
    r.setJointLimits([-INF] * n, [INF] * n)
    assert r.getJointLimits() == ([-INF] * n, [INF] * n)
    r.setTorqueLimits([INF] * n)
    assert r.getTorqueLimits() == [INF] * n


def test_link_setters_reject_non_finite_transforms(tx90blocks):
    link = tx90blocks.robot(0).link(3)
    unchanged(link.getParentTransform, link.setParentTransform, I, [0, NAN, 0])
    unchanged(link.getParentTransform, link.setParentTransform, [INF] + I[1:], [0, 0, 0])
    unchanged(link.getTransform, link.setTransform, I, [INF, 0, 0])
    unchanged(link.getAxis, link.setAxis, [NAN, 0, 1])
    unchanged(link.getParent, link.setParent, 7)  # a parent must come before the link
    unchanged(link.getParent, link.setParent, 99, error=IndexError)


def test_object_terrain_and_geometry_setters(tx90blocks):
    o = tx90blocks.rigidObject(0)
    o.setVelocity([0, 0, 1], [1, 0, 0])
    unchanged(o.getVelocity, o.setVelocity, [0, 0, 2], [NAN, 0, 0])
    unchanged(o.getVelocity, o.setVelocity, [0, 0, 2], [0, 0])
    unchanged(o.getTransform, o.setTransform, I, [0, 0, INF])
    g = o.geometry()
    unchanged(g.getBBTight, g.scale, NAN)
    unchanged(g.getBBTight, g.scale, 1.0, INF, 1.0)
    unchanged(g.getCurrentTransform, g.setCurrentTransform, I, [NAN, 0, 0])
    t = tx90blocks.terrain(0)
    for bad in (NAN, INF, -1.0):
        with pytest.raises(ValueError):
            t.setFriction(bad)


def test_appearance_setters(tx90blocks):
    a = tx90blocks.rigidObject(0).appearance()
    a.setTintColor([0.5, 0.5, 0.5, 1.0], 0.2)
    before = (a.getTintColor(), a.getTintStrength())
    with pytest.raises(ValueError):
        a.setTintColor([0.1, 0.2, 0.3, 1.0], NAN)
    assert (a.getTintColor(), a.getTintStrength()) == before
    with pytest.raises(ValueError):
        a.setTintColor([0.1, NAN, 0.3, 1.0], 0.5)
    assert (a.getTintColor(), a.getTintStrength()) == before
    shininess = a.getShininess()
    with pytest.raises(ValueError):
        a.setShininess(NAN, 0.5)
    assert a.getShininess() == shininess
    a.setElementColor(a.FACES, 3, 0.1, 0.2, 0.3, 1.0)
    before = a.getElementColor(a.FACES, 3)
    with pytest.raises(ValueError):
        a.setElementColor(a.FACES, 3, 0.5, NAN, 0.5, 1.0)
    assert a.getElementColor(a.FACES, 3) == before


def test_simulator_and_solver_setters(tx90blocks):
    sim = Simulator(tx90blocks)
    g = sim.getSetting("gravity")
    with pytest.raises(ValueError):
        sim.setGravity([0, 0, NAN])
    assert sim.getSetting("gravity") == g
    r = tx90blocks.robot(0)
    s = IKSolver(r)
    s.setJointLimits([-1.0] * r.numLinks(), [1.0] * r.numLinks())
    unchanged(s.getJointLimits, s.setJointLimits, [-2.0] * r.numLinks(), [NAN] * r.numLinks())
    unchanged(s.getJointLimits, s.setJointLimits, [-2.0] * r.numLinks(), [2.0] * (r.numLinks() - 1))
    # a joint that cannot be made leaves the one made before in place
    j = klampt.SimJoint()
    a, b = sim.body(tx90blocks.rigidObject(0)), sim.body(tx90blocks.rigidObject(1))
    j.makeFixed(a, b)
    with pytest.raises(ValueError):
        j.makeFixed(sim.body(tx90blocks.terrain(0)), a)
    assert j.type == 3 and j.a.getID() == a.getID()
