# Run with the reference python: records RobotInfo's part helpers on the
# parts that the robot-info files of the reference's examples give
# (Klampt-examples/robotinfo: kinova_with_robotiq85_*.json, tx90pr2_sim.json;
# each part lists a fixed base link), and on a floating-base robot.
# Usage: python make_robotinfo_parts_reference.py KLAMPT_DATA_DIR robotinfo_parts_reference.json
import json
import os
import sys
import tempfile

from klampt.model.robotinfo import RobotInfo

data = sys.argv[1]
CASES = {
    'kinova_with_robotiq_85.urdf': {'arm': [0, 1, 2, 3, 4, 5, 6, 7], 'gripper': [8, 9, 10, 11, 12, 13, 14, 15, 16]},
    'tx90pr2.rob': {'arm': [0, 1, 2, 3, 4, 5, 6], 'gripper': [7, 8, 9, 10, 11]},
    # The six virtual links of the floating base have no driver.
    'athlete.rob': {'base_and_leg': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]},
}
result = {}
tmp = tempfile.mkdtemp()
for model, parts in CASES.items():
    # The reference's RobotInfo(parts=...) raises; its files go through load().
    fn = os.path.join(tmp, model + '.json')
    with open(fn, 'w') as f:
        json.dump({'name': model, 'modelFile': os.path.join(data, 'robots', model), 'parts': parts}, f)
    info = RobotInfo.load(fn)
    robot = info.klamptModel()
    out = {'parts': parts, 'drivers': [robot.driver(i).getAffectedLinks() for i in range(robot.numDrivers())]}
    for part, links in parts.items():
        names = [robot.link(i).getName() for i in links]
        out[part] = {'partDriverIndices': info.partDriverIndices(part),
                     'partLinkIndices': list(info.partLinkIndices(part)),
                     'partLinkNames': info.partLinkNames(part),
                     'names': names,
                     'toDriverIndicesOfNames': info.toDriverIndices(names)}
    result[model] = out
with open(sys.argv[2], 'w') as f:
    json.dump(result, f, indent=1)
