"""Robot sensors (SimRobotSensor): declarations read from robot and world
files, settings, and kinematic simulation checked against closed forms and
against readings recorded with the reference (tests/data/sensor_reference.json,
made by tests/data/make_sensor_reference.py)."""
import json
import math
import os

import numpy as np
import pytest

import klampt
from klampt.math import so3
from conftest import SHARED_DATA, assert_close, load_shared_world, require_shared_data

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "sensor_reference.json")) as f:
    REFERENCE = json.load(f)

# tx90l.rob has a line the loader warns about; the warning is not under test here.
pytestmark = pytest.mark.filterwarnings("ignore:.*after the numbers of:RuntimeWarning")

Q = [0, 0.3, -0.5, 0.8, 0.2, 0.4, 0.1]
DQ = [0.1, 0.2, -0.1, 0.3, 0, 0.5, 0.2]


def world_with_sensors(tmp_path, sensors_xml, robot="robots/tx90l.rob"):
    require_shared_data()
    path = tmp_path / "sensors_world.xml"
    path.write_text('<world><robot file="%s">%s</robot></world>' % (os.path.join(SHARED_DATA, robot), sensors_xml))
    w = klampt.WorldModel()
    assert w.readFile(str(path))
    return w


def all_sensors(robot):
    out = []
    while robot.sensor(len(out)).name() != "":
        out.append(robot.sensor(len(out)))
    return out


def box_mesh(bmin, bmax):
    """The 12 triangles of the box [bmin, bmax]."""
    x0, y0, z0 = bmin
    x1, y1, z1 = bmax
    v = np.array([[x, y, z] for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)], dtype=float)
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    tris = []
    for a, b, c, d in faces:
        tris += [(a, b, c), (a, c, d)]
    m = klampt.TriangleMesh()
    m.setVertices(v)
    m.setIndices(np.array(tris, dtype=np.int32))
    return m


def add_terrain(world, name, geometry_setter):
    t = world.makeTerrain(name)
    g = klampt.Geometry3D()
    geometry_setter(g)
    t.geometry().set(g)
    return t


# ---------------------------------------------------------------- declarations

@pytest.mark.parametrize("rel", ["simulation_test_worlds/sensortest.xml", "robots/baxter_col.rob", "robots/tx90l.rob"])
def test_declared_sensors_match_reference(rel):
    w = load_shared_world(rel)
    robot = w.robot(0)
    expected = REFERENCE[rel]
    sensors = all_sensors(robot)
    assert [(s.name(), s.type()) for s in sensors] == [(e["name"], e["type"]) for e in expected]
    for s, e in zip(sensors, expected):
        names = s.measurementNames()
        if e["type"] == "DriverTorqueSensor" and e["count"] == 0:
            # The reference only sizes this sensor at its first reading.
            assert len(names) == robot.numDrivers()
            assert names[0] == "t[0]"
        else:
            assert len(names) == e["count"], s.name()
            assert list(names[:4]) == e["firstNames"] and list(names[-4:]) == e["lastNames"]
        settings = {k: s.getSetting(k) for k in s.settings()}
        for key, value in e["settings"].items():
            if e["type"] == "CameraSensor" and key == "zresolution":
                continue  # the reference drops this XML attribute; it is kept here
            assert settings[key] == value, (s.name(), key)
        assert set(e["settings"]) <= set(settings)


def test_default_sensors_are_joint_position_and_velocity():
    w = load_shared_world("robots/tx90l.rob")
    r = w.robot(0)
    assert [(s.name(), s.type()) for s in all_sensors(r)] == [("q", "JointPositionSensor"), ("dq", "JointVelocitySensor")]


def test_sensors_are_persistent_objects_of_the_robot():
    w = load_shared_world("robots/tx90l.rob")
    r = w.robot(0)
    r.sensor("q").setSetting("rate", "50")
    assert r.sensor(0).getSetting("rate") == "50"
    added = r.addSensor("tilt", "TiltSensor")
    assert r.sensor(2).name() == "tilt" and r.sensor("tilt").type() == "TiltSensor"
    assert added.robot().getName() == r.getName()
    assert added.robotModel.getName() == r.getName()
    # A copied world starts again from the robot's declaration.
    assert [s.name() for s in all_sensors(w.copy().robot(0))] == ["q", "dq"]


def test_null_sensor_and_errors():
    w = load_shared_world("robots/tx90l.rob")
    r = w.robot(0)
    for null in (r.sensor(99), r.sensor(-1), r.sensor("nope")):
        assert null.name() == "" and null.type() == ""
        assert null.measurementNames() == () and null.settings() == ()
        assert len(null.getMeasurements()) == 0 and not null.getEnabled()
        with pytest.raises(RuntimeError):
            null.getSetting("rate")
    with pytest.raises(RuntimeError, match="Invalid sensor type"):
        r.addSensor("bad", "NoSuchSensor")
    q = r.sensor("q")
    with pytest.raises(RuntimeError, match="not supported"):
        q.getSetting("foo")
    with pytest.raises(RuntimeError, match="not supported"):
        q.setSetting("rate", "fast")
    assert q.getSetting("rate") == "0"
    with pytest.raises(RuntimeError, match="link"):
        q.getLink()
    with pytest.raises(RuntimeError, match="Tsensor"):
        q.getTransform()
    with pytest.raises(RuntimeError):
        q.drawGL()


def test_malformed_sensor_declaration_raises(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><JointPositionSensor name="a" bogus="1"/></sensors>')
    with pytest.raises(RuntimeError, match="bogus"):
        w.robot(0).sensor(0)
    w = world_with_sensors(tmp_path, '<sensors><FilteredSensor name="f" sensor="missing"/></sensors>')
    with pytest.raises(RuntimeError, match="missing"):
        w.robot(0).sensor(0)


# ---------------------------------------------------------------- settings

def test_settings_round_trip_and_formats():
    w = load_shared_world("simulation_test_worlds/sensortest.xml")
    r = w.robot(0)
    for s in all_sensors(r):
        for key in s.settings():
            value = s.getSetting(key)
            s.setSetting(key, value)
            assert s.getSetting(key) == value, (s.name(), key)
    enc = r.sensor("encoders")
    enc.setSetting("qresolution", "3 0.1 0.2 0.3")
    assert enc.getSetting("qresolution") == "3\t0.1 0.2 0.3 "
    with pytest.raises(RuntimeError):
        enc.setSetting("qresolution", "4 0.1 0.2")  # the count must match
    enc.setSetting("indices", "1 3")
    assert enc.getSetting("indices") == "1 3 " and enc.measurementNames() == ("q[1]", "q[3]")
    assert len(enc.getMeasurements()) == 2
    lidar = r.sensor("lidar")
    lidar.setSetting("depthMinimum", "0.123456789")
    assert lidar.getSetting("depthMinimum") == "0.123457"
    lidar.setSetting("Tsensor", "1 0 0 0 1 0 0 0 1 0.5 0.25 1")
    assert lidar.getSetting("Tsensor") == "1 0 0\n0 1 0\n0 0 1\n0.5 0.25 1"
    assert lidar.getTransform() == ([1.0, 0, 0, 0, 1.0, 0, 0, 0, 1.0], [0.5, 0.25, 1.0])
    R = so3.rotation([0, 0, 1], 0.7)
    lidar.setTransform(R, [1, 2, 3])
    Rt, t = lidar.getTransform()
    assert_close(Rt, R)
    assert_close(t, [1, 2, 3])
    # The text prints R row by row.
    rows = [float(x) for x in lidar.getSetting("Tsensor").split()[:9]]
    assert_close(rows, np.array(R).reshape(3, 3).flatten(order="C")[[0, 3, 6, 1, 4, 7, 2, 5, 8]], atol=1e-6)
    lidar.setEnabled(False)
    assert not lidar.getEnabled() and lidar.getSetting("enabled") == "0"



def test_camera_resolution_must_be_an_image_that_fits_in_memory():
    w = load_shared_world("simulation_test_worlds/sensortest.xml")
    cam = next(s for s in all_sensors(w.robot(0)) if s.type() == "CameraSensor")
    cam.setSetting("xres", "64")
    cam.setSetting("yres", "48")
    # Negative sides, sides past an offscreen framebuffer's, numbers past int's
    # range and images past 2^26 pixels are refused; the setting is unchanged.
    for key, value in [("xres", "-5"), ("yres", "-1"), ("xres", "16385"), ("yres", "1e12"), ("xres", "2.5")]:
        with pytest.raises(RuntimeError, match="%s refuses %s: it must be a whole number of pixels" % (key, value)):
            cam.setSetting(key, value)
    assert (cam.getSetting("xres"), cam.getSetting("yres")) == ("64", "48")
    cam.setSetting("xres", "16384")
    with pytest.raises(RuntimeError, match="xres\\*yres at most 67108864"):
        cam.setSetting("yres", "4097")
    cam.setSetting("yres", "4096")  # exactly 2^26 pixels
    cam.setSetting("xres", "0")  # an empty image is allowed and measures nothing
    cam.kinematicSimulate(w, 0.01)
    assert len(cam.getMeasurements()) == 0

def test_link_and_world_transform():
    w = load_shared_world("simulation_test_worlds/sensortest.xml")
    r = w.robot(0)
    r.setConfig(Q)
    lidar = r.sensor("lidar")
    assert lidar.getLink().index == 6
    Tw = lidar.getTransformWorld()
    expected = klampt.math.se3.mul(r.link(6).getTransform(), lidar.getTransform())
    assert_close(Tw[0], expected[0])
    assert_close(Tw[1], expected[1])
    lidar.setLink(3)
    assert lidar.getSetting("link") == "3"
    lidar.setLink(r.link(5))
    assert lidar.getLink().index == 5
    lidar.setLink(-1)
    assert lidar.getLink() is None
    assert_close(lidar.getTransformWorld()[1], lidar.getTransform()[1])
    with pytest.raises(IndexError):
        lidar.setLink(7)


def test_link_names_in_declarations_become_indices(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><Accelerometer name="a" link="Link_4"/></sensors>')
    assert w.robot(0).sensor("a").getSetting("link") == "4"


# ---------------------------------------------------------------- kinematic readings

def test_joint_sensors_equal_the_state():
    w = load_shared_world("simulation_test_worlds/sensortest.xml")
    r = w.robot(0)
    rng = np.random.default_rng(1)
    enc, denc = r.sensor("encoders"), r.sensor("dencoders")
    for _ in range(3):
        q = rng.uniform(-1, 1, 7).tolist()
        dq = rng.uniform(-1, 1, 7).tolist()
        r.setConfig(q)
        r.setVelocity(dq)
        for s in (enc, denc):
            s.kinematicSimulate(w, 0.01)
        assert_close(enc.getMeasurements(), q, rtol=0, atol=0)
        assert_close(denc.getMeasurements(), dq, rtol=0, atol=0)
    enc.setSetting("qresolution", "7 0.1 0.1 0.1 0.1 0.1 0.1 0.1")
    enc.setSetting("indices", "2 5")
    r.setConfig([0.0, 0, 0.234, 0, 0, -0.46, 0])
    enc.kinematicSimulate(w, 0.01)
    assert_close(enc.getMeasurements(), [0.2, -0.5])


def test_joint_noise_is_seeded_and_absent_at_zero_variance():
    w = load_shared_world("robots/tx90l.rob")
    r = w.robot(0)
    r.setConfig(Q)
    s = r.sensor("q")
    s.setSetting("qvariance", "7 0.01 0.01 0.01 0.01 0.01 0.01 0.01")
    readings = []
    for seed in (5, 5, 6):
        klampt.set_random_seed(seed)
        s.kinematicSimulate(w, 0.01)
        readings.append(s.getMeasurements())
    assert_close(readings[0], readings[1], rtol=0, atol=0)
    assert not np.allclose(readings[0], readings[2])
    assert 0 < np.abs(readings[0] - Q).max() < 0.5


def test_driver_torques_read_zero_in_kinematic_mode():
    w = load_shared_world("robots/baxter_col.rob")
    r = w.robot(0)
    s = r.sensor("effort_sensors")
    s.kinematicSimulate(w, 0.01)
    assert_close(s.getMeasurements(), np.zeros(r.numDrivers()))


def test_inertial_and_force_readings_match_reference(tmp_path):
    ref = REFERENCE["kinematic_tx90l"]
    w = world_with_sensors(tmp_path, ref["sensors"])
    r = w.robot(0)
    for name, expected in ref["readings"].items():
        s = r.sensor(name)
        r.setConfig(ref["q"])
        r.setVelocity([0.0] * 7)
        s.kinematicReset()
        s.kinematicSimulate(w, 0.01)
        assert_close(s.getMeasurements(), expected["rest"], rtol=1e-7, atol=1e-9, what=name + " at rest")
        r.setVelocity(ref["dq"])
        s.kinematicSimulate(w, 0.01)
        assert_close(s.getMeasurements(), expected["moving"], rtol=1e-7, atol=1e-7, what=name + " moving")


def test_accelerometer_at_rest_reads_gravity_in_the_sensor_frame(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><Accelerometer name="a" link="6" hasAxis="1 1 1" '
                                     'Tsensor="0 1 0 -1 0 0 0 0 1 0.1 0.2 0"/></sensors>')
    r = w.robot(0)
    r.setConfig(Q)
    s = r.sensor("a")
    s.kinematicReset()
    for _ in range(3):
        s.kinematicSimulate(w, 0.01)
        Rw, _ = s.getTransformWorld()
        assert_close(s.getMeasurements(), so3.apply(so3.inv(Rw), [0, 0, -9.8]), atol=1e-9)


def test_accelerometer_differences_the_sensor_velocity(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><Accelerometer name="a" link="5" hasAxis="1 1 1" '
                                     'Tsensor="1 0 0 0 1 0 0 0 1 0 0 0.2"/></sensors>')
    r = w.robot(0)
    r.setConfig(Q)
    s = r.sensor("a")
    s.kinematicReset()
    dt = 0.02
    r.setVelocity([0.0] * 7)
    s.kinematicSimulate(w, dt)
    r.setVelocity(DQ)
    s.kinematicSimulate(w, dt)
    local = s.getTransform()[1]
    v1 = np.array(r.link(5).getPointVelocity(local))
    Rw = s.getTransformWorld()[0]
    expected = so3.apply(so3.inv(Rw), (v1 / dt + [0, 0, -9.8]).tolist())
    assert_close(s.getMeasurements(), expected, atol=1e-9)


def test_imu_at_rest_reads_no_motion(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><IMUSensor name="imu" link="6" hasAxis="1 1 1" '
                                     'hasAngVel="1" hasAngAccel="1"/></sensors>')
    r = w.robot(0)
    r.setConfig(Q)
    s = r.sensor("imu")
    s.kinematicReset()
    for _ in range(3):
        s.kinematicSimulate(w, 0.01)
    m = s.getMeasurements()
    assert_close(m[:15], np.zeros(15), atol=1e-9)
    assert_close(m[15:], np.eye(3).flatten(), atol=1e-12)
    # Turning: the angular velocity reads the link's (world frame).
    r.setVelocity(DQ)
    s.kinematicSimulate(w, 0.01)
    assert_close(s.getMeasurements()[12:15], r.link(6).getAngularVelocity(), atol=1e-12)


def test_force_torque_holds_the_subtree_weight(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><ForceTorqueSensor name="ft" link="2" hasForce="1 1 1" '
                                     'hasTorque="1 1 1"/></sensors>')
    r = w.robot(0)
    r.setConfig(Q)
    s = r.sensor("ft")
    s.kinematicSimulate(w, 0.01)
    R, origin = r.link(2).getTransform()
    force = np.zeros(3)
    moment = np.zeros(3)
    for i in range(2, r.numLinks()):
        mass = r.link(i).getMass()
        f = np.array([0, 0, mass.mass * 9.806])
        force += f
        moment += np.cross(np.array(r.link(i).getWorldPosition(mass.com)) - origin, f)
    Rinv = so3.inv(R)
    assert_close(s.getMeasurements(), so3.apply(Rinv, force.tolist()) + so3.apply(Rinv, moment.tolist()), atol=1e-9)


def test_contact_sensor_reads_zero_in_kinematic_mode():
    w = load_shared_world("simulation_test_worlds/sensortest.xml")
    s = w.robot(0).sensor("contact")
    s.kinematicSimulate(w, 0.01)
    assert_close(s.getMeasurements(), [0, 0])


def test_tilt_sensor_reads_the_up_direction(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><TiltSensor name="t" link="6" hasAxis="1 1 1"/></sensors>')
    r = w.robot(0)
    r.setConfig(Q)
    s = r.sensor("t")
    s.kinematicSimulate(w, 0.01)
    R = r.link(6).getTransform()[0]
    d = so3.apply(so3.inv(R), [0, 0, 1])
    assert_close(s.getMeasurements()[:3], [math.asin(d[1]), math.asin(-d[0]), math.asin(d[2])], atol=1e-12)


def test_filtered_sensor_smooths_exponentially(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><JointPositionSensor name="enc"/>'
                                     '<FilteredSensor name="f" sensor="enc" smoothing="0.25"/></sensors>')
    r = w.robot(0)
    s = r.sensor("f")
    assert s.measurementNames() == r.sensor("enc").measurementNames()
    s.kinematicReset()
    expected = np.zeros(7)
    for k in range(5):
        q = [0.1 * (k + 1)] * 7
        r.setConfig(q)
        s.kinematicSimulate(w, 0.01)
        expected = 0.25 * expected + 0.75 * np.array(q)
        assert_close(s.getMeasurements(), expected, atol=1e-12)


def test_time_delayed_sensor_delivers_late(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><JointPositionSensor name="enc"/>'
                                     '<TimeDelayedSensor name="d" sensor="enc" delay="0.025"/></sensors>')
    r = w.robot(0)
    s = r.sensor("d")
    s.kinematicReset()
    delivered = []
    for k in range(6):
        r.setConfig([0.1 * (k + 1)] * 7)
        s.kinematicSimulate(w, 0.01)
        m = s.getMeasurements()
        delivered.append(None if len(m) == 0 else round(m[0], 9))
    # A reading taken at t arrives at the first update at or after t + 0.025.
    assert delivered == [None, None, None, 0.1, 0.2, 0.3]


def test_transformed_and_corrupted_sensors(tmp_path):
    w = world_with_sensors(tmp_path, '<sensors><JointPositionSensor name="enc"/>'
                                     '<TransformedSensor name="t" sensor="enc" scale="2" bias="1" maximum="2"/>'
                                     '<CorruptedSensor name="c" sensor="enc" resolution="0.5"/></sensors>')
    r = w.robot(0)
    r.setConfig([0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8])
    t, c = r.sensor("t"), r.sensor("c")
    t.kinematicSimulate(w, 0.01)
    c.kinematicSimulate(w, 0.01)
    assert_close(t.getMeasurements(), [1.2, 1.4, 1.6, 1.8, 2.0, 2.0, 2.0])
    assert_close(c.getMeasurements(), [0.0, 0.0, 0.5, 0.5, 0.5, 0.5, 1.0])


# ---------------------------------------------------------------- range sensors

def test_laser_in_a_box_measures_the_walls():
    w = klampt.WorldModel()
    add_terrain(w, "room", lambda g: g.setTriangleMesh(box_mesh([-1, -2, -1.5], [1, 2, 1.5])))
    require_shared_data()
    r = w.loadRobot(os.path.join(SHARED_DATA, "robots", "tx90l.rob"))
    r.setConfig([0] * r.numLinks())
    s = r.addSensor("laser", "LaserRangeSensor")
    for key, value in [("link", "-1"), ("measurementCount", "181"), ("depthMinimum", "0.05"),
                       ("depthMaximum", "10")]:
        s.setSetting(key, value)
    # Far from the robot, so that only the walls are seen.
    s.setTransform(so3.identity(), [0, 0, 0])
    r.link(0).setParentTransform(so3.identity(), [0, 30, 0])
    r.setConfig([0] * r.numLinks())
    s.kinematicReset()
    s.kinematicSimulate(w, 0.01)
    m = s.getMeasurements()
    theta = np.linspace(-math.pi / 2, math.pi / 2, 181)
    with np.errstate(divide="ignore"):
        expected = np.minimum(1 / np.abs(np.sin(theta)), 1.5 / np.abs(np.cos(theta)))
    assert_close(m, expected, atol=1e-9)
    # Turned a quarter turn about z, the sweep plane holds the long side.
    s.setTransform(so3.rotation([0, 0, 1], math.pi / 2), [0, 0, 0])
    s.kinematicSimulate(w, 0.01)
    with np.errstate(divide="ignore"):
        expected = np.minimum(2 / np.abs(np.sin(theta)), 1.5 / np.abs(np.cos(theta)))
    assert_close(s.getMeasurements(), expected, atol=1e-9)
    # Beyond depthMaximum reads depthMaximum.
    s.setSetting("depthMaximum", "1.2")
    s.kinematicSimulate(w, 0.01)
    assert_close(s.getMeasurements(), np.where(expected >= 1.2, 1.2, expected), atol=1e-9)


def test_laser_ignores_the_link_it_is_mounted_on():
    w = load_shared_world("simulation_test_worlds/sensortest.xml")
    r = w.robot(0)
    r.setConfig([0] * 7)
    R6, t6 = r.link(6).getTransform()
    ceiling = t6[2] + 1.0
    add_terrain(w, "ceiling", lambda g: g.setTriangleMesh(box_mesh([-5, -5, ceiling], [5, 5, ceiling + 0.1])))
    s = r.sensor("lidar")
    for key, value in [("depthVarianceLinear", "0"), ("depthResolution", "0"), ("depthMinimum", "0.001"),
                       ("xSweepMagnitude", "0.2")]:
        s.setSetting(key, value)
    # From the origin of the last link (inside its geometry), looking straight up.
    s.setTransform(so3.inv(R6), [0, 0, 0])
    s.kinematicSimulate(w, 0.01)
    theta = np.linspace(-0.2, 0.2, 180)
    assert_close(s.getMeasurements(), 1.0 / np.cos(theta), atol=1e-9)


def test_depth_camera_sees_a_plane_at_its_depth():
    require_shared_data()
    w = klampt.WorldModel()
    terrain = w.loadTerrain(os.path.join(SHARED_DATA, "terrains", "plane.off"))
    r = w.loadRobot(os.path.join(SHARED_DATA, "robots", "tx90l.rob"))
    r.link(0).setParentTransform(so3.identity(), [0, 0, -50])
    r.setConfig([0] * r.numLinks())
    cam = r.addSensor("cam", "CameraSensor")
    for key, value in [("link", "-1"), ("xres", "8"), ("yres", "6"), ("xfov", "1.0"), ("zmax", "10")]:
        cam.setSetting(key, value)
    h = 2.0
    cam.setTransform([1, 0, 0, 0, -1, 0, 0, 0, -1], [1, 0.5, h])
    cam.kinematicSimulate(w, 0.01)
    m = cam.getMeasurements()
    assert len(m) == 96 and len(cam.measurementNames()) == 96
    assert cam.measurementNames()[:2] == ("rgb[0,0]", "rgb[0,1]") and cam.measurementNames()[48] == "d[0,0]"
    assert_close(m[48:], np.full(48, h), atol=1e-9)
    color = terrain.appearance().getColor()
    packed = (int(color[0] * 255) << 16) | (int(color[1] * 255) << 8) | int(color[2] * 255)
    assert_close(m[:48], np.full(48, packed))
    # Tilted about its x axis: depth along the view axis grows toward the top rows.
    tilt = 0.3
    cam.setTransform(so3.mul([1, 0, 0, 0, -1, 0, 0, 0, -1], so3.rotation([1, 0, 0], tilt)), [1, 0.5, h])
    cam.kinematicSimulate(w, 0.01)
    depth = cam.getMeasurements()[48:].reshape(6, 8)
    focal = 4 / math.tan(0.5)
    for j in range(6):
        v = 3 - j
        assert_close(depth[j], np.full(8, h / (math.cos(tilt) - v / focal * math.sin(tilt))), atol=1e-9)
    # Nothing in view: zmax depth and the background color.
    cam.setTransform(so3.identity(), [1, 0.5, h])
    cam.kinematicSimulate(w, 0.01)
    assert_close(cam.getMeasurements(), [0x96AAFF] * 48 + [10.0] * 48)
    cam.setSetting("rgb", "0")
    cam.kinematicSimulate(w, 0.01)
    assert len(cam.getMeasurements()) == 48 and cam.measurementNames()[0] == "d[0,0]"


def test_camera_matches_reference_coverage():
    """The sensortest camera sees the same numbers of plane and sky pixels as the reference."""
    w = load_shared_world("simulation_test_worlds/sensortest.xml")
    r = w.robot(0)
    r.setConfig(REFERENCE["camera_colors"]["q"])
    cam = r.sensor("rgbd_camera")
    cam.kinematicSimulate(w, 0.01)
    rgb = cam.getMeasurements()[:256 * 128]
    values, counts = np.unique(rgb, return_counts=True)
    expected = REFERENCE["camera_colors"]
    assert {str(int(v)): int(c) for v, c in zip(values, counts)} == expected["counts"]
    # Depths without noise: surfaces beyond zmax read 0, the sky reads zmax.
    cam.setSetting("zvarianceLinear", "0")
    cam.setSetting("zresolution", "0")
    cam.kinematicSimulate(w, 0.01)
    depth = cam.getMeasurements()[256 * 128:]
    assert (depth == 0).sum() == expected["depth_zero"]
    assert (depth == 4.0).sum() == expected["depth_max"]
    # The reference stores depths as 32-bit floats.
    assert abs(depth.sum() - expected["depth_sum"]) < 1e-6 * len(depth)


# ---------------------------------------------------------------- in the physics simulation

def simulated_sensortest(steps=20):
    w = load_shared_world("simulation_test_worlds/sensortest.xml")
    sim = klampt.Simulator(w)
    for _ in range(steps):
        sim.simulate(0.01)
    return w, sim


def test_simulated_joint_sensors_equal_the_state():
    w, sim = simulated_sensortest()
    c = sim.controller(0)
    # Sensors read at the last control update, within the last simulate call.
    assert_close(c.sensor("encoders").getMeasurements(), sim.getActualConfig(0), atol=1e-6)
    assert_close(c.sensor("dencoders").getMeasurements(), sim.getActualVelocity(0), atol=1e-4)
    assert c.sensor(99).name() == "" and c.sensor("nope").type() == ""
    added = c.addSensor("tilt", "TiltSensor")
    assert c.sensor("tilt").type() == "TiltSensor" and added.robot().getName() == w.robot(0).getName()
    # The simulation's sensors are its own: the robot model's are unchanged.
    assert w.robot(0).sensor("tilt").name() == ""


def test_simulated_accelerometer_at_rest_reads_gravity():
    w, sim = simulated_sensortest(50)
    s = sim.controller(0).sensor("accelerometer")
    r = w.robot(0)
    r.setConfig(sim.getActualConfig(0))
    R = r.link(6).getTransform()[0]
    assert_close(s.getMeasurements(), so3.apply(so3.inv(R), [0, 0, -9.8]), atol=2e-3)


def test_simulated_force_torque_measures_the_held_weight():
    w, sim = simulated_sensortest(50)
    r = w.robot(0)
    r.setConfig(sim.getActualConfig(0))
    s = sim.controller(0).sensor("f/t")
    s.setSetting("link", "3")
    sim.simulate(0.01)
    weight = sum(r.link(i).getMass().mass for i in range(3, 7)) * 9.8
    R = r.link(3).getTransform()[0]
    # The reference's sign in simulation: the wrench the link applies to its parent.
    assert_close(s.getMeasurements()[:3], so3.apply(so3.inv(R), [0, 0, -weight]), rtol=1e-3, atol=1e-3 * weight)


def test_simulated_laser_agrees_with_kinematic_laser():
    w, sim = simulated_sensortest(5)
    r = w.robot(0)
    simulated = sim.controller(0).sensor("lidar")
    kinematic = r.sensor("lidar")
    for s in (simulated, kinematic):
        s.setSetting("depthVarianceLinear", "0")
        s.setSetting("depthResolution", "0")
    sim.simulate(0.01)
    r.setConfig(sim.getActualConfig(0))
    kinematic.kinematicSimulate(w, 0.01)
    assert_close(simulated.getMeasurements(), kinematic.getMeasurements(), atol=1e-9)


def test_simulator_state_restores_sensor_history(tmp_path):
    require_shared_data()
    path = tmp_path / "delayed.xml"
    path.write_text('<world><terrain file="%s"/><robot file="%s"><sensors>'
                    '<JointVelocitySensor name="dq"/><TimeDelayedSensor name="late" sensor="dq" delay="0.05"/>'
                    '<Accelerometer name="acc" link="6" hasAxis="1 1 1"/></sensors></robot></world>'
                    % (os.path.join(SHARED_DATA, "terrains", "plane.off"),
                       os.path.join(SHARED_DATA, "robots", "tx90ball.rob")))
    w = klampt.WorldModel()
    assert w.readFile(str(path))
    sim = klampt.Simulator(w)
    c = sim.controller(0)
    c.setMilestone([0, 0.5, -0.5, 0.5, 0.3, 0.3, 0.2])
    for _ in range(10):
        sim.simulate(0.01)
    state = sim.getState()

    def run():
        readings = []
        for _ in range(8):
            sim.simulate(0.01)
            readings.append(np.concatenate([c.sensor("late").getMeasurements(), c.sensor("acc").getMeasurements()]))
        return np.array(readings)

    first = run()
    sim.setState(state)
    # The delayed readings and the accelerations depend on sensor history
    # (queued readings, previous velocity) that must come back with the state.
    assert_close(run(), first, rtol=0, atol=1e-9)
    assert np.abs(first[:, :7]).max() > 0


def test_sensor_rate_limits_simulated_updates(tmp_path):
    require_shared_data()
    path = tmp_path / "rate.xml"
    path.write_text('<world><robot file="%s"><sensors><JointPositionSensor name="slow" rate="20"/>'
                    '<JointPositionSensor name="fast"/></sensors></robot></world>'
                    % os.path.join(SHARED_DATA, "robots", "tx90ball.rob"))
    w = klampt.WorldModel()
    assert w.readFile(str(path))
    sim = klampt.Simulator(w)
    c = sim.controller(0)
    c.setMilestone([0.5] * 7)
    slow, fast = [], []
    for _ in range(20):
        sim.simulate(0.01)
        slow.append(tuple(c.sensor("slow").getMeasurements()))
        fast.append(tuple(c.sensor("fast").getMeasurements()))
    # 20 Hz within 100 Hz control: a reading at the first step, then every fifth.
    assert len(set(fast)) == 20
    assert len(set(slow)) == 4
    assert slow[0] == fast[0]
    assert all((slow[i] == slow[i - 1]) == (i % 5 != 0) for i in range(1, 20))
