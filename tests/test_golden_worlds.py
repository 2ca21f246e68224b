"""World contents, IDs, element transforms, masses and geometry summaries
against the reference's values for the shared world files."""
import os

import pytest

import klampt
from conftest import SHARED_DATA, assert_close, golden_files, load_golden

WORLD_GOLDEN = golden_files((".xml.json",))


@pytest.fixture(scope="module", params=WORLD_GOLDEN or ["<missing>"])
def case(request):
    gold = load_golden(request.param)
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(SHARED_DATA, gold["file"])), gold["file"]
    return gold, world


def test_golden_files_present():
    assert len(WORLD_GOLDEN) >= 4


def test_counts_and_names(case):
    gold, world = case
    assert world.numRobots() == gold["numRobots"]
    assert world.numRigidObjects() == gold["numRigidObjects"]
    assert world.numTerrains() == gold["numTerrains"]
    assert world.numIDs() == gold["numIDs"]
    for entry in gold["names"]:
        assert world.getName(entry["id"]) == entry["name"], entry


def test_robots(case):
    gold, world = case
    for g in gold["robots"]:
        robot = world.robot(g["index"])
        assert robot.getID() == g["id"]
        assert robot.getName() == g["name"]
        assert robot.numLinks() == g["numLinks"]
        assert robot.numDrivers() == g["numDrivers"]
        assert [robot.link(i).getID() for i in range(robot.numLinks())] == g["linkIDs"]
        assert_close(robot.getConfig(), g["config"], what="config of " + g["name"])
        for i, T in enumerate(g["linkTransforms"]):
            R, t = robot.link(i).getTransform()
            assert_close(R, T[0], atol=1e-8, what="R of link %d" % i)
            assert_close(t, T[1], atol=1e-8, what="t of link %d" % i)


def check_geometry(geom, g, what):
    assert geom.type() == g["type"], what
    if not g["type"]:
        return
    assert_close(geom.getCollisionMargin(), g["collisionMargin"], what=what + " margin")
    R, t = geom.getCurrentTransform()
    assert_close(R, g["currentTransform"][0], atol=1e-8, what=what + " transform R")
    assert_close(t, g["currentTransform"][1], atol=1e-8, what=what + " transform t")
    lo, hi = geom.getBBTight()
    assert_close(lo, g["bbTightWorld"][0], atol=1e-6, what=what + " tight bbox min")
    assert_close(hi, g["bbTightWorld"][1], atol=1e-6, what=what + " tight bbox max")
    blo, bhi = geom.getBB()
    assert all(b <= x + 1e-9 for b, x in zip(blo, lo)) and all(b >= x - 1e-9 for b, x in zip(bhi, hi))


def test_rigid_objects(case):
    gold, world = case
    for g in gold["rigidObjects"]:
        obj = world.rigidObject(g["index"])
        assert obj.getID() == g["id"]
        assert obj.getName() == g["name"]
        R, t = obj.getTransform()
        assert_close(R, g["transform"][0], atol=1e-8, what=g["name"] + " R")
        assert_close(t, g["transform"][1], atol=1e-8, what=g["name"] + " t")
        m = obj.getMass()
        assert_close(m.mass, g["mass"]["mass"], what="mass")
        assert_close(m.com, g["mass"]["com"], atol=1e-9, what="com")
        assert_close(m.inertia, g["mass"]["inertia"], rtol=1e-6, atol=1e-12, what="inertia")
        p = obj.getContactParameters()
        for k in ("kFriction", "kRestitution", "kStiffness", "kDamping"):
            assert_close(getattr(p, k), g["contactParameters"][k], what=k)
        check_geometry(obj.geometry(), g["geometry"], g["name"])


def test_terrains(case):
    gold, world = case
    for g in gold["terrains"]:
        terrain = world.terrain(g["index"])
        assert terrain.getID() == g["id"]
        assert terrain.getName() == g["name"]
        check_geometry(terrain.geometry(), g["geometry"], g["name"])


def test_robot_link_geometry_from_robot_golden(shared_data):
    """Link geometry types, transforms and tight boxes of the golden robots."""
    for name in golden_files((".rob.json", ".urdf.json")):
        gold = load_golden(name)
        world = klampt.WorldModel()
        assert world.readFile(os.path.join(shared_data, gold["file"]))
        robot = world.robot(0)
        robot.setConfig(gold["initialConfig"])
        for g in gold["links"]:
            link = robot.link(g["index"])
            geom = link.geometry()
            geom.setCurrentTransform(*link.getTransform())
            check_geometry(geom, g["geometry"], "%s link %s" % (gold["name"], g["name"]))
