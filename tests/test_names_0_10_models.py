"""Klamp't 0.10's members of the model and simulation classes: collections as
tuples and name mappings, element properties, link re-parenting, SensorModel
(0.10's name of SimRobotSensor), the controller's rate and sensors, SimBody's
object-frame forces and velocities, and the widgets' index. Names and values
are checked against Klamp't 0.10.1's answers (tests/data/names_0_10_reference.json,
recorded by make_names_0_10_reference.py), against the elements reached by
index, and against rigid-body physics."""
import inspect
import json
import math
import os
import types

import numpy as np
import pytest

import klampt
from klampt.math import so3, vectorops
from conftest import TEST_DATA, arm_table_world, assert_close

with open(os.path.join(TEST_DATA, "names_0_10_reference.json")) as _f:
    REF = json.load(_f)["world"]


# ------------------------------------------------------------ collections

def test_robot_links_and_drivers_are_the_indexed_elements(arm_table):
    r = arm_table.robot(0)
    links = r.links
    assert isinstance(links, tuple) and [l.index for l in r.getLinks()] == [l.index for l in links]
    assert [l.index for l in links] == list(range(r.numLinks()))
    assert [l.getName() for l in links] == REF["links"]
    for l, by_index in zip(links, (r.link(i) for i in range(r.numLinks()))):
        assert l.getName() == by_index.getName() and l.getID() == by_index.getID()
    d = r.linksDict
    assert isinstance(d, types.MappingProxyType) and sorted(d) == REF["linksDict"]
    assert all(d[name].index == r.link(name).index for name in d)
    with pytest.raises(TypeError):
        d["x"] = r.link(0)  # read-only
    assert [x.getName() for x in r.drivers] == REF["drivers"] == [x.getName() for x in r.getDrivers()]
    assert {name: x.index for name, x in r.driversDict.items()} == {
        r.driver(i).getName(): i for i in range(r.numDrivers())}
    assert dict(r.getDriversDict()).keys() == r.driversDict.keys()


def test_world_collections_are_the_indexed_elements(arm_table):
    w = arm_table
    assert [x.name for x in w.robots] == REF["robots"] == [x.getName() for x in w.getRobots()]
    assert [x.getName() for x in w.rigidObjects] == REF["rigidObjects"]
    assert [x.getName() for x in w.terrains] == REF["terrains"]
    assert [o.index for o in w.rigidObjects] == list(range(w.numRigidObjects()))
    assert [t.getID() for t in w.getTerrains()] == [w.terrain(i).getID() for i in range(w.numTerrains())]
    for mapping, get in [(w.robotsDict, w.robot), (w.rigidObjectsDict, w.rigidObject), (w.terrainsDict, w.terrain)]:
        assert isinstance(mapping, types.MappingProxyType)
        assert all(mapping[name].getID() == get(name).getID() for name in mapping)
    assert sorted(w.getRigidObjectsDict()) == sorted(REF["rigidObjects"])
    assert sorted(w.getTerrainsDict()) == sorted(REF["terrains"])
    assert list(w.getRobotsDict()) == REF["robots"]
    empty = klampt.WorldModel()
    assert empty.robots == () and empty.rigidObjects == () and dict(empty.terrainsDict) == {}


def test_a_repeated_name_maps_to_the_last_element():
    w = klampt.WorldModel()
    w.makeRigidObject("twin")
    second = w.makeRigidObject("twin")
    assert len(w.rigidObjects) == 2 and list(w.rigidObjectsDict) == ["twin"]
    assert w.rigidObjectsDict["twin"].index == second.index == 1


# --------------------------------------------------- element properties

def test_rigid_object_and_terrain_properties(arm_table):
    w = arm_table
    objs = w.rigidObjects
    assert [o.id for o in objs] == REF["rigidObjectIds"] == [o.getID() for o in objs]
    assert [o.name for o in objs] == REF["rigidObjects"]
    assert_close([o.mass.getMass() for o in objs], REF["rigidObjectMasses"], what="masses")
    assert_close([list(o.transform[0]) + list(o.transform[1]) for o in objs], REF["rigidObjectTransforms"],
                 atol=1e-12, what="transforms")
    o = objs[0]
    o.name = "renamed"
    assert o.getName() == "renamed" and "renamed" in w.rigidObjectsDict
    m = o.mass
    m.setMass(2.5)
    assert o.getMass().getMass() != 2.5  # a copy
    o.mass = m
    assert o.getMass().getMass() == 2.5
    o.setTransform(so3.rotation([0, 0, 1], 0.3), [1, 2, 3])
    assert_close(o.transform[1], [1, 2, 3])
    with pytest.raises(AttributeError):
        o.transform = o.getTransform()  # read-only, as in 0.10
    with pytest.raises(AttributeError):
        o.id = 3
    t = w.terrains[1]
    assert [x.id for x in w.terrains] == REF["terrainIds"]
    t.name = "bench"
    assert t.getName() == "bench" and w.terrain("bench").getID() == t.id
    standalone = klampt.RigidObjectModel()
    assert standalone.id == -1


# ------------------------------------------------------ link parents

def test_parent_accessors_match_get_parent(arm_table):
    r = arm_table.robot(0)
    assert [l.getParentIndex() for l in r.links] == REF["parents"] == [l.getParent() for l in r.links]
    root = r.link(0).getParentLink()
    assert root.index == -1
    with pytest.raises(RuntimeError):
        root.getName()  # a null link
    assert r.link(4).getParentLink().index == 3 and r.link(4).getParentLink().getName() == "forearm"


def test_set_parent_index_changes_forward_kinematics_as_the_reference(arm_table):
    r = arm_table.robot(0)
    case = REF["reparented"]
    r.setConfig(case["q"])
    r.link(case["link"]).setParentIndex(case["parent"])
    assert r.link(case["link"]).getParentIndex() == case["parent"]
    r.setConfig(case["q"])
    assert_close([r.link(i).getTransform()[1] for i in range(r.numLinks())], case["transforms"], atol=1e-9,
                 what="link origins after re-parenting")


def test_set_parent_link_is_set_parent_index_and_composes_parent_transforms(arm_table):
    r = arm_table.robot(0)
    q = [0.0, 0.3, 0.5, -0.7, 0.2, 0.4, 0.1]
    r.setConfig(q)
    r.link(3).setParentLink(r.link(1))
    assert r.link(3).getParentIndex() == 1
    # Link 3's frame is now link 1's frame, then link 3's parent transform, then its joint.
    R1, t1 = r.link(1).getTransform()
    Rp, tp = r.link(3).getParentTransform()
    T3 = r.link(3).getTransform()
    Rj = so3.rotation(r.link(3).getAxis(), q[3])
    expected_R = so3.mul(so3.mul(R1, Rp), Rj)
    assert_close(T3[0], expected_R, atol=1e-12)
    assert_close(T3[1], vectorops.add(so3.apply(R1, tp), t1), atol=1e-12)
    with pytest.raises(ValueError):
        r.link(2).setParentIndex(5)  # a parent must come before its child
    with pytest.raises(IndexError):
        r.link(2).setParentIndex(99)
    other = arm_table_world().robot(0)
    with pytest.raises(ValueError):
        r.link(3).setParentLink(other.link(0))
    r.link(3).setParentLink(r.link(0).getParentLink())  # the null link: no parent
    assert r.link(3).getParentIndex() == -1


# ----------------------------------------------------------- sensors

def test_sensor_model_is_sim_robot_sensor():
    assert klampt.SensorModel is klampt.SimRobotSensor
    assert klampt.robotsim.SensorModel is klampt.SimRobotSensor


def test_robot_sensors_collections(arm_table):
    r = arm_table.robot(0)
    assert r.numSensors() == REF["numSensors"] == len(r.sensors) == len(r.getSensors())
    assert [s.getName() for s in r.sensors] == REF["sensors"] == [r.sensor(i).name() for i in range(r.numSensors())]
    assert [s.getType() for s in r.sensors] == REF["sensorTypes"]
    d = r.sensorsDict
    assert isinstance(d, types.MappingProxyType) and list(d) == REF["sensors"]
    assert all(d[n].getType() == r.sensor(n).type() for n in d)
    assert list(r.getSensorsDict()) == REF["sensors"]


def test_sensor_properties_and_get_set_pairs(arm_table):
    r = arm_table.robot(0)
    cam = r.addSensor("cam", "CameraSensor")
    assert cam.getName() == "cam" and cam.getType() == "CameraSensor"
    assert cam.link is None and cam.getLink() is None  # a new camera sits in the world
    cam.link = 3
    assert cam.link.index == 3 and cam.getSetting("link") == "3"
    cam.link = r.link(5)
    assert cam.getLink().index == 5
    cam.link = None
    assert cam.link is None and cam.getSetting("link") == "-1"
    cam.setLink(r.link(2))
    assert cam.link.getName() == r.link(2).getName()
    cam.setLink(None)
    assert cam.getLink() is None
    with pytest.raises(IndexError):
        cam.link = 42
    cam.setName("eye")
    assert cam.getName() == "eye" and "eye" in r.sensorsDict and r.sensor("eye").type() == "CameraSensor"
    assert cam.enabled is True
    cam.enabled = False
    assert cam.getEnabled() is False and cam.getSetting("enabled") == "0"
    cam.setEnabled(True)
    assert cam.enabled is True
    # 0.9's methods keep working: name() and type() are still methods.
    assert cam.name() == "eye" and cam.type() == "CameraSensor"
    # The reference's camera demos mount a camera through the link property and read its world pose.
    cam.link = r.link(6)
    cam.setTransform(so3.identity(), [0, 0, 0.1])
    R6, t6 = r.link(6).getTransform()
    assert_close(cam.getTransformWorld()[1], vectorops.add(t6, so3.apply(R6, [0, 0, 0.1])), atol=1e-12)


def test_joint_sensor_has_no_link():
    r = arm_table_world().robot(0)
    with pytest.raises(RuntimeError):
        _ = r.sensors[0].link


# ---------------------------------------------------------- controller

def test_controller_rate_and_sensors(arm_table):
    sim = klampt.Simulator(arm_table)
    c = sim.controller(0)
    assert c.rate == c.getRate() == REF["controller"]["rate"]
    c.rate = 0.02
    assert c.getRate() == 0.02
    with pytest.raises(ValueError):
        c.rate = -1
    assert c.numSensors() == REF["controller"]["numSensors"]
    assert [s.getName() for s in c.sensors] == REF["controller"]["sensors"] == [s.name() for s in c.getSensors()]
    added = c.addSensor("cam", "CameraSensor")
    assert c.numSensors() == 3 and list(c.sensorsDict) == REF["controller"]["sensors"] + ["cam"]
    assert c.getSensorsDict()["cam"].getType() == added.type()
    # The controller's sensors are the simulation's: readings come after simulate().
    sim.simulate(0.05)
    q_sensor = c.sensorsDict["q"]
    assert_close(q_sensor.getMeasurements(), sim.getActualConfig(0), atol=1e-6)


# ------------------------------------------------------------- SimBody

def _floating_body(com):
    """A world with one 2 kg box (off-centre COM `com`) and a simulator without gravity."""
    w = klampt.WorldModel()
    o = w.makeRigidObject("box")
    g = klampt.GeometricPrimitive()
    g.setAABB([-0.5, -0.5, -0.5], [0.5, 0.5, 0.5])
    o.geometry().setGeometricPrimitive(g)
    m = o.getMass()
    m.setMass(2.0)
    m.setCom(com)
    m.setInertia([0.4, 0, 0, 0, 0.5, 0, 0, 0, 0.6])
    o.setMass(m)
    o.setTransform(so3.rotation([0, 0, 1], math.pi / 2), [0, 0, 5])
    sim = klampt.Simulator(w)
    sim.setGravity([0, 0, 0])
    return sim, sim.body(o), o


def test_object_velocity_is_the_origin_velocity():
    sim, body, obj = _floating_body([0.2, 0.0, 0.0])
    w, v = [0.0, 0.0, 1.0], [0.5, 0.0, 0.0]
    body.setObjectVelocity(w, v)
    got_w, got_v = body.getObjectVelocity()
    assert_close(got_w, w, atol=1e-12)
    assert_close(got_v, v, atol=1e-12)
    # The COM (world offset R * com) moves at v + w x (com - origin).
    com_offset = so3.apply(obj.getTransform()[0], [0.2, 0, 0])
    assert_close(body.getVelocity()[1], vectorops.add(v, vectorops.cross(w, com_offset)), atol=1e-12)
    body.setVelocity([0, 0, 0], [1, 2, 3])
    assert_close(body.getObjectVelocity()[1], [1, 2, 3], atol=1e-12)  # no rotation: every point moves alike


def test_force_at_object_local_point_gives_newton_euler_accelerations():
    com = [0.2, 0.0, 0.0]
    dt = 0.01
    sim, body, obj = _floating_body(com)
    R = obj.getTransform()[0]
    # At the COM (in object coordinates): a pure push.
    body.applyForceAtObjectLocalPoint([0, 0, 4.0], com)
    sim.simulate(dt)
    w, v = body.getVelocity()
    assert_close(v, [0, 0, 4.0 / 2.0 * dt], atol=1e-9)
    assert_close(w, [0, 0, 0], atol=1e-9)
    # At the object origin, 0.2 from the COM along the object's x: torque (origin - com) x f.
    sim2, body2, obj2 = _floating_body(com)
    f = [0, 0, 4.0]
    body2.applyForceAtObjectLocalPoint(f, [0, 0, 0])
    sim2.simulate(dt)
    r_world = so3.apply(R, [-0.2, 0, 0])
    torque = vectorops.cross(r_world, f)
    I_world = so3.mul(so3.mul(R, [0.4, 0, 0, 0, 0.5, 0, 0, 0, 0.6]), so3.inv(R))
    expected_w = np.linalg.solve(np.array(I_world).reshape(3, 3).T, np.array(torque)) * dt
    w2, v2 = body2.getVelocity()
    assert_close(v2, [0, 0, 4.0 / 2.0 * dt], atol=1e-9)
    assert_close(w2, expected_w, atol=1e-6, rtol=1e-3)
    assert np.linalg.norm(expected_w) > 0.01  # the torque is not negligible


def test_force_at_com_local_point_is_apply_force_at_local_point():
    com = [0.2, 0.0, 0.0]
    results = []
    for method in ("applyForceAtCOMLocalPoint", "applyForceAtLocalPoint"):
        sim, body, _ = _floating_body(com)
        getattr(body, method)([1.0, 0, 0], [0, 0.3, 0])
        sim.simulate(0.01)
        results.append(body.getVelocity())
    assert_close(results[0], results[1], atol=1e-12)
    assert np.linalg.norm(results[0][0]) > 0  # off the COM: it spins


# -------------------------------------------------------------- widgets

@pytest.mark.parametrize("name", ["Widget", "WidgetSet", "PointPoser", "TransformPoser", "AABBPoser", "BoxPoser",
                                  "SpherePoser"])
def test_widget_index_is_a_class_property(name):
    cls = getattr(klampt.robotsim, name)
    assert isinstance(inspect.getattr_static(cls, "index"), property)
    a, b = cls(), cls()
    assert b.index > a.index  # numbered in creation order
    a.index = 7
    assert a.index == 7
