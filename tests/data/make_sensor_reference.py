# Run with the reference python: records the reference's sensor declarations
# (types, measurement names, settings) and kinematic readings.
# Usage: python make_sensor_reference.py KLAMPT_DATA_DIR sensor_reference.json
import json
import sys
import klampt

data = sys.argv[1]
# Settings whose reference values are uninitialized memory (IMU / gyro variances).
GARBAGE = {'angAccelVariance', 'angVelVariance', 'rotationVariance'}


def describe(robot):
    out = []
    i = 0
    while robot.sensor(i).name() != '':
        s = robot.sensor(i)
        names = list(s.measurementNames())
        # Cameras have tens of thousands of names: keep the count and the ends.
        out.append({'name': s.name(), 'type': s.type(), 'count': len(names),
                    'firstNames': names[:4], 'lastNames': names[-4:],
                    'settings': {k: s.getSetting(k) for k in s.settings() if k not in GARBAGE}})
        i += 1
    return out


EXTRA_SENSORS = """<sensors>
<Accelerometer name="acc" link="6" hasAxis="1 1 1"/>
<ForceTorqueSensor name="ft" link="3" hasForce="1 1 1" hasTorque="1 1 1"/>
<TiltSensor name="tilt" link="6" hasAxis="1 1 1"/>
<GyroSensor name="gyro" link="6" hasRotation="1"/>
</sensors>"""


def kinematic(world_file):
    w = klampt.WorldModel()
    assert w.readFile(world_file)
    r = w.robot(0)
    q = [0, 0.3, -0.5, 0.8, 0.2, 0.4, 0.1]
    dq = [0.1, 0.2, -0.1, 0.3, 0, 0.5, 0.2]
    out = {'q': q, 'dq': dq, 'readings': {}}
    for name in ['acc', 'ft', 'tilt', 'gyro']:
        s = r.sensor(name)
        r.setConfig(q)
        r.setVelocity([0.0] * len(q))
        s.kinematicReset()
        s.kinematicSimulate(w, 0.01)
        rest = list(s.getMeasurements())
        r.setVelocity(dq)
        s.kinematicSimulate(w, 0.01)
        moving = list(s.getMeasurements())
        out['readings'][name] = {'rest': rest, 'moving': moving}
    return out


result = {}
for rel in ['simulation_test_worlds/sensortest.xml', 'robots/baxter_col.rob', 'robots/tx90l.rob']:
    w = klampt.WorldModel()
    assert w.readFile(data + '/' + rel)
    result[rel] = describe(w.robot(0))
tmp = '/tmp/sensor_reference_world.xml'
with open(tmp, 'w') as f:
    f.write('<world><robot file="%s/robots/tx90l.rob">%s</robot></world>' % (data, EXTRA_SENSORS))
result['kinematic_tx90l'] = kinematic(tmp)
result['kinematic_tx90l']['sensors'] = EXTRA_SENSORS
w = klampt.WorldModel()
assert w.readFile(data + '/simulation_test_worlds/sensortest.xml')
w.robot(0).setConfig([0, 0.3, -0.5, 0.8, 0.2, 0.4, 0.1])
cam = w.robot(0).sensor('rgbd_camera')
cam.kinematicSimulate(w, 0.01)
counts = {}
for c in list(cam.getMeasurements())[:256 * 128]:
    counts[str(int(c))] = counts.get(str(int(c)), 0) + 1
cam.setSetting('zvarianceLinear', '0')
cam.kinematicSimulate(w, 0.01)
depth = list(cam.getMeasurements())[256 * 128:]
result['camera_colors'] = {'q': w.robot(0).getConfig(), 'counts': counts,
                           'depth_zero': sum(1 for d in depth if d == 0),
                           'depth_max': sum(1 for d in depth if d == 4.0),
                           'depth_sum': sum(depth)}
with open(sys.argv[2], 'w') as f:
    json.dump(result, f, indent=1)
