"""RobotInfo.configureSimulator with a simulatorFile whose make() returns
the simulator's own SimRobotController and an actuator emulator, as
Klampt-examples' sphero_sim.py does: the controller is left in place and
the emulator's forces move the robot as Newton says."""
import json
import os

import pytest

from conftest import SHARED_DATA, require_shared_data

from klampt import WorldModel
from klampt.model.robotinfo import RobotInfo
from klampt.sim import ActuatorEmulator, SimpleSimulator

ACCEL = 4.0

SIMULATOR_FILE = '''
from klampt.sim.simulation import ActuatorEmulator


class PushEmulator(ActuatorEmulator):
    """Pushes the cube along x with a constant force and turns its servo off."""
    def __init__(self, sim, robotIndex, force):
        self.controller = sim.controller(robotIndex)
        self.body = sim.body(sim.world.robot(robotIndex).link(5))
        self.force = force
        self.substeps = 0

    def substep(self, dt):
        self.substeps += 1
        self.body.applyWrench([self.force, 0, 0], [0, 0, 0])
        self.controller.setTorque([0])


def make(sim, robotIndex=0):
    robot = sim.world.robot(robotIndex)
    mass = sum(robot.link(i).getMass().getMass() for i in range(robot.numLinks()))
    return sim.controller(robotIndex), [PushEmulator(sim, robotIndex, %r * mass)]
'''


def test_simulator_file_returning_the_sim_controller(tmp_path):
    require_shared_data()
    model = os.path.join(SHARED_DATA, 'robots', 'free_cube.rob')
    (tmp_path / 'push_sim.py').write_text(SIMULATOR_FILE % ACCEL)
    (tmp_path / 'cube.json').write_text(json.dumps({
        'name': 'PushedCube', 'modelFile': model, 'baseType': 'floating',
        'controllerFile': 'klampt.control.simrobotinterface', 'simulatorFile': 'push_sim.py'}))
    info = RobotInfo.load(str(tmp_path / 'cube.json'))
    try:
        world = WorldModel()
        assert world.loadRobot(model).index == 0
        sim = SimpleSimulator(world)
        info.configureSimulator(sim, 0)
    finally:
        RobotInfo.all_robots.pop(info.name, None)
    # the SimRobotController was not installed as a controller function
    assert not any(sim.robotControllers)
    emulator = sim.actuatorEmulators[0][0]
    assert isinstance(emulator, ActuatorEmulator) and type(emulator).__name__ == 'PushEmulator'
    com0 = world.robot(0).getCom()
    T = 0.4
    for _ in range(40):
        sim.simulate(T / 40)
    sim.updateWorld()
    assert emulator.substeps >= 400
    # the centre of mass moves by a t^2 / 2 along x (0.32 m), not along y
    com = world.robot(0).getCom()
    assert com[0] - com0[0] == pytest.approx(0.5 * ACCEL * T ** 2, rel=0.03)
    assert com[1] == pytest.approx(com0[1], abs=1e-3)
