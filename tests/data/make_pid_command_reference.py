# Run with the reference python: records SimRobotController.setPIDCommand with
# driver-sized and link-sized vectors on robots with affine drivers.
# Usage: python make_pid_command_reference.py KLAMPT_DATA_DIR pid_command_reference.json
import json
import sys

import klampt

data = sys.argv[1]
CASES = {
    # One affine driver over six finger links; links 0, 2 and 8 have no driver.
    'robotiq_85.rob': {'driver': [0.5], 'times': [0.5, 1.0]},
    # Six normal drivers and the pr2 gripper's affine driver.
    'tx90pr2.rob': {'driver': [0.3, -0.4, 0.5, 0.2, -0.3, 0.4, 0.3], 'times': [0.5, 2.0]},
}


def start(robot_file):
    w = klampt.WorldModel()
    assert w.readFile(data + '/robots/' + robot_file)
    return w, klampt.Simulator(w)


result = {}
for robot_file, case in CASES.items():
    w, sim = start(robot_file)
    robot, c = w.robot(0), sim.controller(0)
    nd, nl = robot.numDrivers(), robot.numLinks()
    out = {'numDrivers': nd, 'numLinks': nl}
    c.setPIDCommand(case['driver'], [0.0] * nd)
    out['driverCommand'] = {'qdes': case['driver'], 'commandedConfig': c.getCommandedConfig(),
                            'commandedVelocity': c.getCommandedVelocity(), 'sensed': {}}
    for t in case['times']:
        sim.simulate(t - sim.getTime())
        out['driverCommand']['sensed'][str(t)] = c.getSensedConfig()
    # A link-sized command is read through the drivers.
    w, sim = start(robot_file)
    c = sim.controller(0)
    qlinks = [0.05 * (i + 1) for i in range(nl)]
    dqlinks = [0.01 * (i + 1) for i in range(nl)]
    c.setPIDCommand(qlinks, dqlinks)
    out['linkCommand'] = {'qdes': qlinks, 'dqdes': dqlinks, 'commandedConfig': c.getCommandedConfig(),
                          'commandedVelocity': c.getCommandedVelocity()}
    # Feedforward torques, one per driver.
    tff = [0.1 * (i + 1) for i in range(nd)]
    c.setPIDCommand(case['driver'], [0.0] * nd, tff)
    out['feedforward'] = {'tfeedforward': tff, 'commandedTorque': c.getCommandedTorque()}
    errors = {}
    for name, args in {'mixed': (case['driver'], [0.0] * nl), 'mixed2': (qlinks, [0.0] * nd),
                       'short': ([0.0] * (nd + 1), [0.0] * (nd + 1)),
                       'feedforward_short': (case['driver'], [0.0] * nd, [0.0] * (nd + 1))}.items():
        try:
            c.setPIDCommand(*args)
            errors[name] = None
        except Exception as e:
            errors[name] = type(e).__name__
    out['errors'] = errors
    result[robot_file] = out
with open(sys.argv[2], 'w') as f:
    json.dump(result, f, indent=1)
