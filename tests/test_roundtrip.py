"""Save / load round trips of robots (.rob, and .urdf saved as .rob) and
worlds (.xml with their element files).

Each robot is loaded, saved with ``RobotModel.saveFile`` -- once referring to
its source geometry files, once writing its geometry under a
``geometryPrefix`` -- and loaded again; everything observable through the
Python API must be the same: names, parents, joint types, axes, parent
transforms, limits, masses, drivers, self-collision pairs, the initial
configuration, link transforms at random configurations and each link's
geometry (type, margin, tight bounding box).  Worlds are saved with
``WorldModel.saveFile`` and compared the same way, element by element.

The writers print every number in full (shortest round-trip) precision, so
the comparisons are exact unless a comment says why not.
"""
import logging
import math
import os
import random

import numpy as np
import pytest

import klampt
from conftest import PROJECT_DATA, SHARED_DATA, load_robot, random_config, require_shared_data

SHARED_ROBOT_DIR = os.path.join(SHARED_DATA, "robots")
PROJECT_ROBOT_DIR = os.path.join(PROJECT_DATA, "robots")


def _listing(folder, suffixes, skip=()):
    if not os.path.isdir(folder):
        return []
    return sorted(f for f in os.listdir(folder) if f.endswith(suffixes) and f not in skip)


# sphere.rob is malformed (its floating joint spans 3 links): it must fail to
# load (test_loader_fuzz.py), so it has nothing to round-trip.
SHARED_ROBOTS = [os.path.join(SHARED_ROBOT_DIR, f) for f in _listing(SHARED_ROBOT_DIR, (".rob", ".urdf"), ("sphere.rob",))]
PROJECT_ROBOTS = [os.path.join(PROJECT_ROBOT_DIR, f) for f in _listing(PROJECT_ROBOT_DIR, (".rob", ".urdf"))]
SHARED_WORLDS = [os.path.join(SHARED_DATA, f) for f in _listing(SHARED_DATA, (".xml",))]
PROJECT_WORLDS = [os.path.join(PROJECT_DATA, "worlds", f)
                  for f in _listing(os.path.join(PROJECT_DATA, "worlds"), (".xml",))]


def _ids(paths):
    return [os.path.relpath(p, os.path.dirname(os.path.dirname(p))) for p in paths]


def test_shared_data_present():
    require_shared_data()
    assert SHARED_ROBOTS and SHARED_WORLDS


# ---------------------------------------------------------------------------
# comparisons


def same(actual, expected, what, tol=0.0):
    """Elementwise equality of nested numbers (inf == inf, nan == nan), within
    tol (absolute and relative) when tol > 0."""
    a = np.asarray(actual, dtype=float)
    e = np.asarray(expected, dtype=float)
    assert a.shape == e.shape, "%s: shape %s != %s" % (what, a.shape, e.shape)
    both_nan = np.isnan(a) & np.isnan(e)
    if tol == 0:
        ok = (a == e) | both_nan
    else:
        same_inf = np.isinf(a) & np.isinf(e) & (np.sign(a) == np.sign(e))
        ok = same_inf | both_nan | np.isclose(a, e, rtol=tol, atol=tol)
    if not ok.all():
        idx = tuple(np.argwhere(~ok)[0])
        raise AssertionError("%s: mismatch at %s: %r != %r" % (what, idx, a[idx], e[idx]))


def compare_geometry(ga, gb, what, bb_tol=0.0):
    assert ga.type() == gb.type(), what
    assert ga.empty() == gb.empty(), what
    assert ga.getCollisionMargin() == gb.getCollisionMargin(), what
    if not ga.empty():
        same(ga.getCurrentTransform()[0], gb.getCurrentTransform()[0], what + " transform R")
        same(ga.getCurrentTransform()[1], gb.getCurrentTransform()[1], what + " transform t")
        same(ga.getBBTight(), gb.getBBTight(), what + " tight bounding box", bb_tol)


def compare_robots(a, b, bb_tol=0.0, seed=0):
    """Everything observable of two robots; b is the reloaded copy of a."""
    n = a.numLinks()
    assert b.numLinks() == n
    assert b.numDrivers() == a.numDrivers()
    same(b.getConfig(), a.getConfig(), "initial config")
    for i in range(n):
        la, lb = a.link(i), b.link(i)
        what = "link %d (%s)" % (i, la.getName())
        assert lb.getName() == la.getName(), what
        assert lb.getParent() == la.getParent(), what
        assert b.getJointType(i) == a.getJointType(i), what
        assert lb.isPrismatic() == la.isPrismatic(), what
        same(lb.getAxis(), la.getAxis(), what + " axis")
        same(lb.getParentTransform()[0], la.getParentTransform()[0], what + " parent rotation")
        same(lb.getParentTransform()[1], la.getParentTransform()[1], what + " parent translation")
        ma, mb = la.getMass(), lb.getMass()
        assert mb.getMass() == ma.getMass(), what
        same(mb.getCom(), ma.getCom(), what + " com")
        same(mb.getInertia(), ma.getInertia(), what + " inertia")
    same(b.getJointLimits(), a.getJointLimits(), "joint limits")
    same(b.getVelocityLimits(), a.getVelocityLimits(), "velocity limits")
    same(b.getAccelerationLimits(), a.getAccelerationLimits(), "acceleration limits")
    same(b.getTorqueLimits(), a.getTorqueLimits(), "torque limits")
    for d in range(a.numDrivers()):
        da, db = a.driver(d), b.driver(d)
        what = "driver %d (%s)" % (d, da.getName())
        assert db.getName() == da.getName(), what
        assert db.getType() == da.getType(), what
        assert list(db.getAffectedLinks()) == list(da.getAffectedLinks()), what
        same(db.getAffineCoeffs(), da.getAffineCoeffs(), what + " affine coefficients")
        same(db.getLimits(), da.getLimits(), what + " limits")
        same(db.getVelocityLimits(), da.getVelocityLimits(), what + " velocity limits")
        same(db.getAccelerationLimits(), da.getAccelerationLimits(), what + " acceleration limits")
        same(db.getTorqueLimits(), da.getTorqueLimits(), what + " torque limits")
    pairs_a = [(i, j) for i in range(n) for j in range(i + 1, n) if a.selfCollisionEnabled(i, j)]
    pairs_b = [(i, j) for i in range(n) for j in range(i + 1, n) if b.selfCollisionEnabled(i, j)]
    assert pairs_b == pairs_a, "self-collision pairs"
    q0 = a.getConfig()
    rng = random.Random(seed)
    for q in [q0] + [random_config(a, rng) for _ in range(3)]:
        a.setConfig(q)
        b.setConfig(q)
        for i in range(n):
            what = "link %d at q=%r" % (i, q)
            same(b.link(i).getTransform()[0], a.link(i).getTransform()[0], what + " R")
            same(b.link(i).getTransform()[1], a.link(i).getTransform()[1], what + " t")
            compare_geometry(a.link(i).geometry(), b.link(i).geometry(), what + " geometry", bb_tol)
    a.setConfig(q0)
    b.setConfig(q0)


# ---------------------------------------------------------------------------
# robots


@pytest.mark.parametrize("mode", ["source", "prefix"])
@pytest.mark.parametrize("path", SHARED_ROBOTS + PROJECT_ROBOTS, ids=_ids(SHARED_ROBOTS + PROJECT_ROBOTS))
def test_robot_round_trip(path, mode, tmp_path):
    """mode "source": the saved .rob refers to the original geometry files
    (with a geomtransform for what the loader applied to them); "prefix": the
    geometry is written under geometryPrefix and referred to there."""
    if path.startswith(SHARED_DATA):
        require_shared_data()
    _, robot = load_robot(path, quiet=False)
    out = str(tmp_path / "x.rob")
    if mode == "source":
        assert robot.saveFile(out) is True
    else:
        assert robot.saveFile(out, geometryPrefix=str(tmp_path) + "/geom_") is True
    _, reloaded = load_robot(out, quiet=False)
    compare_robots(robot, reloaded, seed=hash(os.path.basename(path)) & 0xFFFF)
    # RobotModel.loadFile reads the saved file to the same model.
    model = klampt.RobotModel()
    assert model.loadFile(out) is True
    compare_robots(robot, model)


@pytest.mark.parametrize("path", SHARED_ROBOTS + PROJECT_ROBOTS, ids=_ids(SHARED_ROBOTS + PROJECT_ROBOTS))
def test_saved_robot_is_a_fixed_point(path, tmp_path):
    """Saving the reloaded robot again writes the same text."""
    if path.startswith(SHARED_DATA):
        require_shared_data()
    _, robot = load_robot(path, quiet=False)
    first, second = tmp_path / "first.rob", tmp_path / "second.rob"
    assert robot.saveFile(str(first)) is True
    _, reloaded = load_robot(str(first), quiet=False)
    assert reloaded.saveFile(str(second)) is True
    assert second.read_text() == first.read_text()


def test_round_trip_keeps_edits(tmp_path):
    """Values set through the API (not from a file) survive a round trip too."""
    _, robot = load_robot(os.path.join(PROJECT_ROBOT_DIR, "arm6.rob"), quiet=False)
    n = robot.numLinks()
    qmin, qmax = robot.getJointLimits()
    robot.setJointLimits([x - 0.125 for x in qmin], [x + 1 / 3 for x in qmax])
    robot.setVelocityLimits([math.pi / (i + 1) for i in range(n)])
    robot.setTorqueLimits([1e-7 * (i + 1) for i in range(n)])
    robot.link(2).setName('odd name "quoted" \\ back')
    robot.driver(1).setName("driver #1")
    robot.enableSelfCollision(0, n - 1, False)
    robot.enableSelfCollision(0, 1, True)
    robot.setConfig([0.1 / 3 * i for i in range(n)])
    robot.link(3).geometry().setCollisionMargin(0.0123)
    m = robot.link(4).getMass()
    m.setMass(math.e)
    m.setCom([1 / 7, -2 / 9, 1e-300])
    robot.link(4).setMass(m)
    for mode in ("source", "prefix"):
        out = str(tmp_path / (mode + ".rob"))
        assert robot.saveFile(out, geometryPrefix=None if mode == "source" else str(tmp_path) + "/g_") is True
        _, reloaded = load_robot(out, quiet=False)
        compare_robots(robot, reloaded)


def test_savers_refuse_what_the_loader_cannot_read(tmp_path, caplog):
    """saveFile returns False (with an error naming the file) rather than
    writing a .rob that does not load: a robot without links, or a name with
    a line break (the .rob lexer ends the line there)."""
    with caplog.at_level(logging.ERROR, logger="klampt"):
        assert klampt.RobotModel().saveFile(str(tmp_path / "empty.rob")) is False
        world = klampt.WorldModel()
        world.makeRobot("empty")
        assert world.saveFile(str(tmp_path / "w.xml")) is False
        for name in ("a\nb", "a\rb"):
            _, robot = load_robot(os.path.join(PROJECT_ROBOT_DIR, "planar3R.rob"), quiet=False)
            robot.link(1).setName(name)
            assert robot.saveFile(str(tmp_path / "link.rob")) is False
            _, robot = load_robot(os.path.join(PROJECT_ROBOT_DIR, "planar3R.rob"), quiet=False)
            robot.driver(0).setName(name)
            assert robot.saveFile(str(tmp_path / "driver.rob")) is False
    errors = [r.getMessage() for r in caplog.records]
    assert len(errors) == 6
    assert "empty.rob" in errors[0] and "without links" in errors[0]
    assert "empty.rob" in errors[1]
    assert all("line break" in m for m in errors[2:]), errors


# ---------------------------------------------------------------------------
# worlds


def compare_worlds(a, b):
    assert b.numRobots() == a.numRobots()
    assert b.numRigidObjects() == a.numRigidObjects()
    assert b.numTerrains() == a.numTerrains()
    assert b.numIDs() == a.numIDs()
    for i in range(a.numIDs()):
        assert b.getName(i) == a.getName(i), "name of ID %d" % i
    for r in range(a.numRobots()):
        ra, rb = a.robot(r), b.robot(r)
        assert rb.getName() == ra.getName()
        same(rb.getConfig(), ra.getConfig(), "robot %d config" % r)
        compare_robots(ra, rb, seed=r)
    for o in range(a.numRigidObjects()):
        oa, ob = a.rigidObject(o), b.rigidObject(o)
        what = "rigid object %d (%s)" % (o, oa.getName())
        assert ob.getName() == oa.getName(), what
        same(ob.getTransform()[0], oa.getTransform()[0], what + " R")
        same(ob.getTransform()[1], oa.getTransform()[1], what + " t")
        same(ob.getVelocity(), oa.getVelocity(), what + " velocity")
        ma, mb = oa.getMass(), ob.getMass()
        assert mb.getMass() == ma.getMass(), what
        same(mb.getCom(), ma.getCom(), what + " com")
        same(mb.getInertia(), ma.getInertia(), what + " inertia")
        ca, cb = oa.getContactParameters(), ob.getContactParameters()
        for field in ("kFriction", "kRestitution", "kStiffness", "kDamping"):
            assert getattr(cb, field) == getattr(ca, field), what + " " + field
        compare_geometry(oa.geometry(), ob.geometry(), what + " geometry")
    for t in range(a.numTerrains()):
        ta, tb = a.terrain(t), b.terrain(t)
        what = "terrain %d (%s)" % (t, ta.getName())
        assert tb.getName() == ta.getName(), what
        compare_geometry(ta.geometry(), tb.geometry(), what + " geometry")
        same(tb.geometry().getBB(), ta.geometry().getBB(), what + " bounding box")


@pytest.mark.parametrize("path", SHARED_WORLDS + PROJECT_WORLDS, ids=_ids(SHARED_WORLDS + PROJECT_WORLDS))
def test_world_round_trip(path, tmp_path):
    if path.startswith(SHARED_DATA):
        require_shared_data()
    world = klampt.WorldModel()
    assert world.readFile(path), path
    out = str(tmp_path / "w.xml")
    assert world.saveFile(out) is True
    reloaded = klampt.WorldModel()
    assert reloaded.readFile(out) is True
    compare_worlds(world, reloaded)
    # ... and a copy of the world saved to another folder, with elementDir.
    out2 = str(tmp_path / "again" / "w2.xml")
    os.makedirs(os.path.dirname(out2))
    assert reloaded.saveFile(out2, str(tmp_path / "elements")) is True
    again = klampt.WorldModel()
    assert again.readFile(out2) is True
    compare_worlds(world, again)


def test_world_round_trip_keeps_edits(tmp_path):
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(PROJECT_DATA, "worlds", "grippers.xml"))
    obj = world.rigidObject(0)
    obj.setTransform([0, 1, 0, -1, 0, 0, 0, 0, 1], [1 / 3, -2 / 7, 0.1])
    obj.setVelocity([0.1, 0.2, 0.3], [1e-9, 0, -1 / 3])
    params = obj.getContactParameters()
    params.kFriction, params.kRestitution, params.kStiffness, params.kDamping = 0.123, 1 / 3, 1e7, math.pi
    obj.setContactParameters(params)
    obj.geometry().setCollisionMargin(0.004)
    world.terrain(1).geometry().setCollisionMargin(0.25)
    robot = world.robot(2)
    robot.setConfig([x + 1 / 3 for x in robot.getConfig()])
    world.robot(0).setName("renamed robot")
    out = str(tmp_path / "w.xml")
    assert world.saveFile(out) is True
    reloaded = klampt.WorldModel()
    assert reloaded.readFile(out) is True
    compare_worlds(world, reloaded)
