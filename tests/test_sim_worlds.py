"""Every world of the reference's simulation test suite runs to completion:
finite states, no object sunk into a terrain."""
import math
import os

import pytest

from conftest import SHARED_DATA, require_shared_data
from klampt import Simulator, WorldModel

# Simulated durations (s) keep the suite fast; the stack of ten mesh boxes is
# the slowest world (one LCP of ~250 rows per step).
WORLDS = {
    "bounce_test.xml": 3.0,
    "displaytest.xml": 1.0,
    "fastdroptest.xml": 3.0,
    "heavyblocktest.xml": 3.0,
    "jointtest.xml": 3.0,
    "sensortest.xml": 2.0,
    "slideblock.xml": 3.0,
    "stacktest.xml": 0.5,
    "stiffness_test.xml": 2.0,
}


# stiffness_test.xml preshrinks its objects by their 4 cm paddings and gives
# them soft contacts (50 to 5000 N/m): they settle inside their boundary
# layers, so their true surfaces may sink up to the padding into the terrain.
SINK_ALLOWANCE = {"stiffness_test.xml": 0.04}


def terrain_boxes(w):
    return [w.terrain(i).geometry().getBBTight() for i in range(w.numTerrains())]


def check_above_terrains(w, boxes, tol):
    for i in range(w.numRigidObjects()):
        lo, hi = w.rigidObject(i).geometry().getBBTight()
        assert all(math.isfinite(x) for x in lo + hi)
        centre = [(a + b) / 2 for a, b in zip(lo, hi)]
        for tlo, thi in boxes:
            over = tlo[0] <= centre[0] <= thi[0] and tlo[1] <= centre[1] <= thi[1]
            # An object over a terrain's footprint and level with its top
            # must not have sunk below that top.
            if over and lo[2] < thi[2] and hi[2] > thi[2]:
                assert lo[2] >= thi[2] - tol, "object %d sank into a terrain: %s < %s" % (i, lo[2], thi[2])


@pytest.mark.parametrize("name", sorted(WORLDS))
def test_simulation_world_runs(name):
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "simulation_test_worlds", name))
    sim = Simulator(w)
    boxes = terrain_boxes(w)
    steps = int(round(WORLDS[name] / 0.01))
    for _ in range(steps):
        sim.simulate(0.01)
        check_above_terrains(w, boxes, 0.005 + SINK_ALLOWANCE.get(name, 0.0))
    assert sim.getTime() == pytest.approx(WORLDS[name], abs=1e-6)
    assert sim.getStatus() != Simulator.STATUS_ERROR
    for r in range(w.numRobots()):
        assert all(math.isfinite(x) for x in sim.getActualConfig(r))


def test_stack_stays_stacked():
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "simulation_test_worlds", "stacktest.xml"))
    start = [w.rigidObject(i).getTransform()[1] for i in range(w.numRigidObjects())]
    sim = Simulator(w)
    sim.simulate(0.5)
    heights = []
    for i, p in enumerate(start):
        q = w.rigidObject(i).getTransform()[1]
        assert math.dist(p[:2], q[:2]) < 0.01
        heights.append(q[2])
    # The bottom box rests on its boundary layer; boxes 10 cm tall neither
    # overlap nor float further apart than two layers (2 x 2.5 mm).
    assert heights[0] == pytest.approx(0.05 + 0.0025, abs=1e-3)
    for lower, upper in zip(heights, heights[1:]):
        assert 0.1 - 1e-3 <= upper - lower <= 0.105 + 1e-3


def test_heavy_block_rests_on_light_block():
    require_shared_data()
    w = WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "simulation_test_worlds", "heavyblocktest.xml"))
    sim = Simulator(w)
    sim.enableContactFeedbackAll()
    sim.simulate(2.0)
    light, heavy = w.rigidObject(0), w.rigidObject(1)
    assert heavy.getTransform()[1][2] > light.getTransform()[1][2] + 0.2
    # The light block carries the heavy one: the terrain pushes up on it with
    # the weight of both.
    f = sim.contactForce(light.getID(), w.terrain(0).getID())
    assert f[2] == pytest.approx(101 * 9.8, rel=0.05)
