# Run with the reference python: records how the reference loads XML files
# whose elements do not nest properly (copies of a shared URDF broken by line
# edits, small world and sensor files).
# Usage: python make_xml_mistakes_reference.py KLAMPT_DATA_DIR xml_mistakes_reference.json
import json
import os
import sys
import tempfile

import klampt

from xml_mistakes_cases import describe_robot, edit_lines

data = os.path.abspath(sys.argv[1])
URDF = 'robots/kinova_gen3_7dof.urdf'
MESHES = 'robots/kinova_gen3_7dof'

# Each URDF case edits lines of the shared file: [line, old text, new text].
URDF_CASES = {
    'original': [],
    # robots/human_hand.urdf of the reference's data closes <klampt> this way.
    'klampt_closed_by_empty_tag': [[253, '</klampt>', '<klampt/>']],
    'robot_not_closed': [[254, '</robot>', '']],
    'klampt_child_misclosed': [[241, '/>', '></noselfcollisionX>']],
    'visual_closed_by_empty_tag': [[102, '</visual>', '<visual/>']],
    'extra_link_end_tag': [[109, '</link>', '</link></link>']],
    'misspelled_end_tag': [[109, '</link>', '</linkx>']],
    'end_tag_with_space': [[109, '</link>', '</link >']],
    'end_tag_after_root': [[253, '</klampt>', '</klampt></robot>']],
}

WORLD_CASES = {
    'terrain_closed_by_empty_tag': """<?xml version="1.0"?>
<world>
  <terrain file="{data}/terrains/block.off"/>
  <terrain file="{data}/terrains/cube.off" scale="0.8 0.8 0.03" translation="0.3 -0.275 0.615">
     <display color="0.8 0.7 0.2"/>
  <terrain/>
  <rigidObject name="a" file="{data}/objects/block_small.obj" position="0.4 0.1 0.72"/>
</world>
""",
    'world_not_closed': """<?xml version="1.0"?>
<world>
  <terrain file="{data}/terrains/block.off"/>
  <rigidObject name="a" file="{data}/objects/block_small.obj" position="0.4 0.1 0.72"/>
""",
    'end_tag_after_root': """<?xml version="1.0"?>
<world>
  <terrain file="{data}/terrains/block.off"/>
  <rigidObject name="a" file="{data}/objects/block_small.obj" position="0.4 0.1 0.72"/>
</world>
</world>
""",
}

# A two-link robot without geometry whose sensors come from sensors.xml.
SENSOR_ROBOT = """links "a" "b"
parents -1 0
TParent 1 0 0  0 1 0  0 0 1  0 0 0  1 0 0  0 1 0  0 0 1  0 0 1
axis 0 0 1  0 1 0
jointtype r r
qmin -1 -1
qmax 1 1
q 0 0
mass 1 1
com 0 0 0  0 0 0
inertia 1 0 0 0 1 0 0 0 1  1 0 0 0 1 0 0 0 1
torqueMax 10 10
velMax 1 1
accMax 1 1
servoP 10 10
servoI 0 0
servoD 1 1
joint normal 0
joint normal 1
property sensors "sensors.xml"
"""
SENSOR_CASES = {
    'closed': '<sensors>\n<JointPositionSensor name="enc"/>\n<JointVelocitySensor name="denc"/>\n</sensors>\n',
    'sensor_not_closed': '<sensors>\n<JointPositionSensor name="enc">\n<JointVelocitySensor name="denc"/>\n</sensors>\n',
    'sensors_closed_by_empty_tag': '<sensors>\n<JointPositionSensor name="enc"/>\n<JointVelocitySensor name="denc"/>\n<sensors/>\n',
    'sensors_not_closed': '<sensors>\n<JointPositionSensor name="enc"/>\n<JointVelocitySensor name="denc"/>\n',
    'sensor_misclosed': '<sensors>\n<JointPositionSensor name="enc"/>\n<JointVelocitySensor name="denc"></JointVelocitySensorX>\n'
                        '<DriverTorqueSensor name="t"/>\n</sensors>\n',
}


tmp = tempfile.mkdtemp()
os.symlink(os.path.join(data, MESHES), os.path.join(tmp, os.path.basename(MESHES)))
with open(os.path.join(data, URDF), newline='') as f:
    urdf = f.read()
result = {'urdf': {'file': URDF, 'meshes': MESHES, 'cases': {}}, 'world': {}, 'sensors': {'robot': SENSOR_ROBOT, 'cases': {}}}
for name, edits in URDF_CASES.items():
    path = os.path.join(tmp, name + '.urdf')
    with open(path, 'w', newline='') as f:
        f.write(edit_lines(urdf, edits))
    w = klampt.WorldModel()
    ok = w.readFile(path)
    entry = {'edits': edits, 'loads': bool(ok)}
    if ok:
        entry.update(describe_robot(w))
    result['urdf']['cases'][name] = entry
for name, text in WORLD_CASES.items():
    path = os.path.join(tmp, name + '.xml')
    with open(path, 'w') as f:
        f.write(text.format(data=data))
    w = klampt.WorldModel()
    ok = w.readFile(path)
    result['world'][name] = {'text': text, 'loads': bool(ok), 'numRobots': w.numRobots(),
                             'numRigidObjects': w.numRigidObjects(), 'numTerrains': w.numTerrains()}
for name, text in SENSOR_CASES.items():
    folder = os.path.join(tmp, 'sensors_' + name)
    os.mkdir(folder)
    with open(os.path.join(folder, 'robot.rob'), 'w') as f:
        f.write(SENSOR_ROBOT)
    with open(os.path.join(folder, 'sensors.xml'), 'w') as f:
        f.write(text)
    w = klampt.WorldModel()
    assert w.readFile(os.path.join(folder, 'robot.rob'))
    r = w.robot(0)
    names = []
    while r.sensor(len(names)).name() != '':
        names.append(r.sensor(len(names)).name())
    result['sensors']['cases'][name] = {'text': text, 'sensors': names}
with open(sys.argv[2], 'w') as f:
    json.dump(result, f, indent=1)
