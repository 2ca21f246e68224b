"""Piles of dense meshes on a block: mugs of 22,300 triangles dropped from
several heights onto the block terrain, 10 and 22 at a time, simulated for
3 s, and an arm pushing through a pile, simulated until 2.4 s after it
leaves. Every mug must end finite, on the block, at rest and outside every
other mug, and the block must carry the weight of what rests on it."""
import math
import os

import pytest

from klampt import Simulator, WorldModel
from klampt.math import so3, vectorops

from conftest import require_shared_data, SHARED_DATA

G = 9.8
SETTLE = 3.0
# The arm of the pushing scene: above the pile, down into it with the gripper
# pointing down (its lowest point 2 cm above the block), through it towards
# -y, and back up (configurations of robots/tx90pr2.rob, its 12 links).
ARM_ABOVE = [0, 0.35, 0.41, -1.70, 3.124, 1.026, -0.058, 0, 0.048, 0.048, -0.048, 0.048]
ARM_IN_PILE = [0, 0.0, 0.9, -1.70, 3.124, 0.55, -0.058, 0, 0.048, 0.048, -0.048, 0.048]
ARM_THROUGH = [0, -0.35, 0.9, -1.70, 3.124, 0.55, -0.058, 0, 0.048, 0.048, -0.048, 0.048]


def mug_world(placements, robot=False):
    """The block terrain (top face z = 0) and one mug per (R, t) placement."""
    require_shared_data()
    w = WorldModel()
    if robot:
        w.loadRobot(os.path.join(SHARED_DATA, "robots", "tx90pr2.rob"))
    assert w.loadTerrain(os.path.join(SHARED_DATA, "terrains", "block.off")).index == 0
    for R, t in placements:
        mug = w.loadRigidObject(os.path.join(SHARED_DATA, "objects", "srimugsmooth.obj"))
        mug.setTransform(R, t)
    return w


def layered(count, per_layer, spacing, first_height, layer_gap, centre=(0, 0), shift=(0.0, 0.0), tilt=0.3):
    """Mugs in layers of per_layer on a grid, each layer shifted and turned so
    that it falls onto the one below."""
    side = math.ceil(math.sqrt(per_layer))
    out = []
    for i in range(count):
        layer, k = divmod(i, per_layer)
        x = centre[0] + spacing * (k % side - (side - 1) / 2) + shift[0] * (layer % 2)
        y = centre[1] + spacing * (k // side - (side - 1) / 2) + shift[1] * (layer % 2)
        R = so3.mul(so3.rotation([0, 0, 1], 0.7 * i), so3.rotation([1, 0, 0], tilt * ((i % 3) - 1)))
        out.append((R, [x, y, first_height + layer_gap * layer]))
    return out


def settle(w, arm_moves=(), duration=SETTLE):
    """Simulates `duration` seconds (arm milestones at the given times) and
    returns the simulator and each mug's position 0.25 s before the end."""
    sim = Simulator(w)
    sim.enableContactFeedbackAll()
    moves = sorted(arm_moves)
    before = None
    for step in range(int(round(duration / 0.01))):
        t = step * 0.01
        while moves and moves[0][0] <= t + 1e-9:
            sim.controller(0).addMilestone(moves.pop(0)[1])
        if step == int(round((duration - 0.25) / 0.01)):
            before = [w.rigidObject(i).getTransform()[1] for i in range(w.numRigidObjects())]
        sim.simulate(0.01)
    return sim, before


def check_pile_at_rest(w, sim, before, weight_on_block=True):
    block = w.terrain(0)
    mugs = [w.rigidObject(i) for i in range(w.numRigidObjects())]
    for i, mug in enumerate(mugs):
        R, t = mug.getTransform()
        assert all(math.isfinite(x) for x in list(R) + list(t)), "mug %d is not finite" % i
        # On the block: its lowest point no deeper than its boundary layer.
        lowest = mug.geometry().support([0, 0, -1])[2]
        assert lowest > -0.001, "mug %d sank into the block (lowest point %g)" % (i, lowest)
        # At rest: slow, and barely moved in the last quarter second.
        wv, v = sim.body(mug).getVelocity()
        assert vectorops.norm(v) < 0.01 and vectorops.norm(wv) < 0.2, "mug %d still moves: %s %s" % (i, wv, v)
        assert vectorops.distance(t, before[i]) < 0.002, "mug %d moved %g m" % (i, vectorops.distance(t, before[i]))
        # Outside the block and every other mug: the contacts held them in
        # their boundary layers.
        assert not mug.geometry().collides(block.geometry()), "mug %d is inside the block" % i
        for j in range(i):
            assert not mug.geometry().collides(mugs[j].geometry()), "mugs %d and %d interpenetrate" % (i, j)
    if weight_on_block:
        # What rests on the block, rests on it with its whole weight.
        total = sum(m.getMass().getMass() for m in mugs) * G
        up = sum(sim.contactForce(m.getID(), block.getID())[2] for m in mugs)  # force on each mug
        assert up == pytest.approx(total, rel=0.05), "the block carries %g N of the pile's %g N" % (up, total)
    assert sim.getStatus() < 4, sim.getStatusString()


def test_ten_mugs_dropped_in_three_layers_come_to_rest():
    w = mug_world(layered(10, 4, 0.125, 0.07, 0.13, shift=(0.05, 0.03)))
    sim, before = settle(w)
    check_pile_at_rest(w, sim, before)
    # Mugs of the upper layers landed on the lower ones, not beside the block.
    assert max(w.rigidObject(i).geometry().support([0, 0, 1])[2] for i in range(10)) > 0.12


def test_twenty_two_mugs_dropped_from_up_to_a_metre_come_to_rest():
    w = mug_world(layered(22, 5, 0.12, 0.09, 0.2, shift=(-0.04, 0.05), tilt=0.6))
    sim, before = settle(w)
    check_pile_at_rest(w, sim, before)


def test_an_arm_pushing_through_a_pile_leaves_it_at_rest():
    w = mug_world(layered(10, 4, 0.12, 0.06, 0.12, centre=(0.72, 0.0), shift=(0.04, -0.03)), robot=True)
    arm = [(0.0, ARM_ABOVE), (0.6, ARM_IN_PILE), (1.2, ARM_THROUGH), (1.6, ARM_ABOVE)]
    # The pile is chaotic: a mug the arm left leaning may fall over late and
    # rock on its side for a second, so the pile gets 2.4 s after the arm leaves.
    sim, before = settle(w, arm, duration=4.0)
    check_pile_at_rest(w, sim, before)
    # The arm went through the pile: some mugs were pushed along +y... or -y.
    ys = [w.rigidObject(i).getTransform()[1][1] for i in range(10)]
    assert max(abs(y) for y in ys) > 0.2
