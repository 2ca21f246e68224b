"""What the simulated controller senses: getSensedConfig / getSensedVelocity /
getSensedTorque read the robot's joint and torque sensors (noise, resolution,
rate and index subsets included), and a contact sensor under a resting body
reads the body's weight."""
import math
import os

import pytest

from conftest import SHARED_DATA, assert_close, require_shared_data
from klampt import Simulator, WorldModel

pytestmark = pytest.mark.filterwarnings("ignore:.*after the numbers of:RuntimeWarning")


def robot_world(tmp_path, robot_rel, sensors_xml="", ground=False):
    require_shared_data()
    path = tmp_path / "world.xml"
    terrain = '<terrain file="%s"/>' % os.path.join(SHARED_DATA, "terrains", "plane.off") if ground else ""
    path.write_text('<world>%s<robot file="%s">%s</robot></world>'
                    % (terrain, os.path.join(SHARED_DATA, robot_rel), sensors_xml))
    w = WorldModel()
    assert w.readFile(str(path))
    return w


def driven_planar3r(tmp_path, sensors_xml):
    w = robot_world(tmp_path, "robots/planar3R.rob", sensors_xml)
    sim = Simulator(w)
    sim.controller(0).setTorque([1.0, -0.5, 0.2])
    return w, sim


def test_sensed_config_is_the_encoder_reading_with_its_resolution(tmp_path):
    res = [0.05, 0.02, 0.01]
    w, sim = driven_planar3r(tmp_path, '<sensors><JointPositionSensor name="enc" qresolution="3 %g %g %g"/>'
                                       '</sensors>' % tuple(res))
    c = sim.controller(0)
    previous = sim.getActualConfig(0)
    changed = False
    for _ in range(20):
        sim.simulate(0.01)
        sensed = c.getSensedConfig()
        # Read at the control update that started this call: the state the previous call ended in.
        expected = [round(q / r) * r for q, r in zip(previous, res)]
        assert_close(sensed, expected, atol=1e-12)
        changed |= any(abs(a - b) > 1e-6 for a, b in zip(sensed, previous))
        previous = sim.getActualConfig(0)
    assert changed, "the quantization must be visible"


def test_sensed_velocity_holds_between_readings_at_the_sensor_rate(tmp_path):
    w, sim = driven_planar3r(tmp_path, '<sensors><JointPositionSensor name="enc"/>'
                                       '<JointVelocitySensor name="vel" rate="20"/></sensors>')
    c = sim.controller(0)
    states = [sim.getActualVelocity(0)]
    for k in range(12):
        sim.simulate(0.01)
        # A reading every 0.05 s, taken at the control updates at t = 0, 0.05, 0.10.
        assert_close(c.getSensedVelocity(), states[5 * (k // 5)], atol=1e-12)
        states.append(sim.getActualVelocity(0))
    assert max(abs(v) for v in states[10]) > 0.1


def test_sensed_config_spreads_an_index_subset_to_full_length(tmp_path):
    w, sim = driven_planar3r(tmp_path, '<sensors><JointPositionSensor name="enc" indices="1 2"/></sensors>')
    c = sim.controller(0)
    sim.simulate(0.01)
    read = sim.getActualConfig(0)
    sim.simulate(0.01)
    assert c.sensor(0).getMeasurements().shape == (2,)
    sensed = c.getSensedConfig()
    assert len(sensed) == 3 and sensed[0] == 0
    assert_close(sensed[1:], read[1:], atol=0)
    assert read[1] != 0


def test_sensed_state_without_joint_sensors_is_the_actual_state(tmp_path):
    w, sim = driven_planar3r(tmp_path, '<sensors><DriverTorqueSensor name="t"/></sensors>')
    c = sim.controller(0)
    for _ in range(3):
        sim.simulate(0.01)
    assert_close(c.getSensedConfig(), sim.getActualConfig(0), atol=0)
    assert_close(c.getSensedVelocity(), sim.getActualVelocity(0), atol=0)


def test_sensed_torque_reads_the_torque_sensor_declared_in_a_separate_file():
    require_shared_data()
    w = WorldModel()
    # baxter_col.rob declares its sensors in baxter/sensors.xml.
    assert w.loadElement(os.path.join(SHARED_DATA, "robots", "baxter_col.rob")) >= 0
    sim = Simulator(w)
    c = sim.controller(0)
    sim.simulate(0.01)
    applied = sim.getActualTorque(0)
    sim.simulate(0.01)
    sensed = c.getSensedTorque()
    assert len(sensed) == w.robot(0).numDrivers()
    # Read at the control update that started the second call: the torques of the first call's last step.
    assert_close(sensed, applied, atol=0)
    assert max(abs(t) for t in sensed) > 1  # the arms are held against gravity


def test_sensed_torque_without_a_torque_sensor_raises(tmp_path):
    w, sim = driven_planar3r(tmp_path, "")
    sim.simulate(0.01)
    with pytest.raises(RuntimeError, match="no torque sensor"):
        sim.controller(0).getSensedTorque()


FLOATING_BOX_ROB = """TParent 1 0 0 0 1 0 0 0 1 0 0 0 \\
1 0 0 0 1 0 0 0 1 0 0 0 \\
1 0 0 0 1 0 0 0 1 0 0 0 \\
1 0 0 0 1 0 0 0 1 0 0 0 \\
1 0 0 0 1 0 0 0 1 0 0 0 \\
1 0 0 0 1 0 0 0 1 0 0 0
parents -1 0 1 2 3 4
axis 1 0 0  0 1 0  0 0 1  0 0 1  0 1 0  1 0 0
jointtype p p p r r r
qMin -5 -5 -5 -inf -inf -inf
qMax 5 5 5 inf inf inf
q 0 0 0.02 0 0 0
geometry "" "" "" "" "" "%s"
geomscale 1 1 1 1 1 0.1
mass 0 0 0 0 0 %g
automass
joint floating 5 -1
"""


@pytest.mark.parametrize("feedback", [False, True])
def test_contact_sensor_under_a_resting_box_reads_its_weight(tmp_path, feedback):
    require_shared_data()
    mass = 2.0
    rob = tmp_path / "box.rob"
    rob.write_text(FLOATING_BOX_ROB % (os.path.join(SHARED_DATA, "objects", "cube.off"), mass))
    # The 0.1 m cube spans [0, 0.1]^3 in its link frame: the patch covers its bottom face.
    w = robot_world(tmp_path, str(rob), '<sensors><ContactSensor name="bottom" link="5" patchMin="-0.01 -0.01" '
                                        'patchMax="0.11 0.11" patchTolerance="0.01" hasForce="1 1 1"/></sensors>',
                    ground=True)
    sim = Simulator(w)
    if feedback:
        sim.enableContactFeedbackAll()
    s = sim.controller(0).sensor("bottom")
    for _ in range(100):
        sim.simulate(0.01)
    q = sim.getActualConfig(0)
    assert 0 <= q[2] < 0.01, "the box rests on the plane"
    contact, fx, fy, fz = s.getMeasurements()
    g = 9.8  # the simulator's default gravity
    assert contact == 1
    assert fz == pytest.approx(mass * g, rel=0.01)
    assert math.hypot(fx, fy) < 0.01 * mass * g
    if feedback:
        link = w.robot(0).link(5).getID()
        assert sim.contactForce(link, w.terrain(0).getID())[2] == pytest.approx(mass * g, rel=0.01)


def test_contact_sensor_reads_nothing_in_the_air(tmp_path):
    require_shared_data()
    rob = tmp_path / "box.rob"
    rob.write_text(FLOATING_BOX_ROB.replace("q 0 0 0.02", "q 0 0 1.0") % (
        os.path.join(SHARED_DATA, "objects", "cube.off"), 1.0))
    w = robot_world(tmp_path, str(rob), '<sensors><ContactSensor name="bottom" link="5" patchMin="0 0" '
                                        'patchMax="0.1 0.1" patchTolerance="0.01" hasForce="0 0 1"/></sensors>',
                    ground=True)
    sim = Simulator(w)
    for _ in range(10):
        sim.simulate(0.01)
    assert list(sim.controller(0).sensor("bottom").getMeasurements()) == [0, 0]
