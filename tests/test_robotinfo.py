"""klampt.model.robotinfo on the project's robot and gripper info files
(data/robots/arm6_info.json, gripper2f_info.json): loading, registry, parts,
JSON round trips, resources, calibration, gripper opening/width
consistency against the finger geometry, synergies, mounting."""
import importlib.util
import io
import json
import os

import pytest

import klampt
from klampt.math import so3
from klampt.model.robotinfo import RobotInfo, GripperInfo, EndEffectorInfo
from klampt.model.subrobot import SubRobotModel

from conftest import PROJECT_DATA, SHARED_DATA, assert_close, require_shared_data

ROBOTS = os.path.join(PROJECT_DATA, "robots")


@pytest.fixture
def arm():
    return RobotInfo.load(os.path.join(ROBOTS, "arm6_info.json"))


@pytest.fixture
def gripper():
    return GripperInfo.load(os.path.join(ROBOTS, "gripper2f_info.json"))


def test_robot_info_loads_and_registers(arm):
    assert RobotInfo.get('arm6') is arm
    robot = arm.klamptModel()
    assert robot.numLinks() == 7 and robot.getName() == 'arm6'
    assert arm.klamptModel() is robot  # cached
    assert arm.partLinkIndices('arm') == [1, 2, 3, 4, 5, 6]
    assert arm.partLinkNames('wrist') == ['wrist_roll', 'wrist_pitch', 'flange']
    assert arm.partDriverIndices('wrist') == [3, 4, 5]
    assert arm.toIndices(['flange', 2]) == [6, 2]
    assert arm.toNames([1, 'forearm']) == ['shoulder', 'forearm']
    sub = arm.partAsSubrobot('wrist')
    assert isinstance(sub, SubRobotModel) and sub.numLinks() == 3
    sub.setConfig([0.1, 0.2, 0.3])
    assert robot.getConfig()[4:] == [0.1, 0.2, 0.3]
    ee = arm.endEffectors['flange']
    assert isinstance(ee, EndEffectorInfo) and ee.link == 'flange'
    with pytest.raises(ValueError):
        arm.partLinks('leg')
    with pytest.raises(ValueError):
        arm.toIndices(['nosuchlink'])
    with pytest.raises(KeyError):
        RobotInfo.get('nosuchrobot')


def test_robot_info_json_round_trip(arm, tmp_path):
    arm.grippers['hand'] = GripperInfo('hand', 6, [], [], type='vacuum', maximumSpan=0.05, register=False)
    fn = str(tmp_path / 'copy_info.json')
    arm.save(fn)
    with open(fn) as f:
        saved = json.load(f)
    assert saved['parts'] == arm.parts and saved['grippers']['hand']['type'] == 'vacuum'
    # model file resolved through filePaths, which the saved copy keeps
    other = RobotInfo.load(fn)
    assert other.toJson() == dict(arm.toJson(), filePaths=other.filePaths)
    assert other.klamptModel().numLinks() == 7
    buf = io.StringIO()
    arm.save(buf)
    assert json.loads(buf.getvalue())['name'] == 'arm6'


def test_calibration_and_model_errors(tmp_path):
    calib = {"forearm": {"axis": [1, 0, 0], "Tparent": [so3.rotation([0, 0, 1], 0.1), [0, 0, 0.5]]}}
    with open(tmp_path / 'kin.json', 'w') as f:
        json.dump(calib, f)
    info = RobotInfo('calibrated', modelFile='arm6.rob')
    info.filePaths = [ROBOTS, str(tmp_path)]
    info.calibrationFiles = {'kinematics': 'kin.json'}
    robot = info.klamptModel()
    link = robot.link('forearm')
    assert_close(link.getAxis(), [1, 0, 0])
    R, t = link.getParentTransform()
    assert_close(R, so3.rotation([0, 0, 1], 0.1), atol=1e-12)
    assert_close(t, [0, 0, 0.5])
    with pytest.raises(RuntimeError):
        RobotInfo('nomodel').klamptModel()
    missing = RobotInfo('missing', modelFile='nothere.rob')
    with pytest.raises(IOError):
        missing.klamptModel()


def test_resources_and_controller(arm, tmp_path):
    arm.resourceDir = str(tmp_path / 'res')
    assert arm.listResources() == []
    arm.setResource('home.config', [0.0] * 7)
    arm.setResource('poses/up.config', [0.0, 0.1, 0, 0, 0, 0, 0])
    assert arm.listResources() == ['home.config', os.path.join('poses', 'up.config')]
    assert arm.getResource('poses/up.config') == [0.0, 0.1, 0, 0, 0, 0, 0]
    code = tmp_path / 'ctl.py'
    code.write_text("def make(robot, gain=1.0):\n    return ('controller', robot.numLinks(), gain)\n")
    arm.controllerFile = str(code)
    arm.controllerArgs = [2.5]
    assert arm.controller() == ('controller', 7, 2.5)
    arm.controllerFile = None
    with pytest.raises(RuntimeError):
        arm.controller()


def _missing(module):
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:
        return True


def test_missing_capabilities_raise_clear_errors(arm, gripper):
    """Methods that need the simulator, klampt.vis or IK name what is
    missing while those parts are not installed."""
    checks = [('klampt.sim.simulation', lambda: arm.configureSimulator(None)),
              ('klampt.vis', gripper.visualize),
              ('klampt.vis', lambda: gripper.addToVis())]
    if not hasattr(klampt, 'IKSolver'):
        checks.append(('IKSolver', lambda: arm.eeSolver('flange', [0.5, 0, 0.5])))
    for module, call in checks:
        if module == 'IKSolver' or _missing(module):
            with pytest.raises(RuntimeError, match='not available'):
                call()


def test_gripper_opening_matches_geometry(gripper):
    assert GripperInfo.get('gripper2f') is gripper
    assert gripper.klamptModel == os.path.join(ROBOTS, 'gripper2f.rob')
    w = klampt.WorldModel()
    robot = w.loadRobot(gripper.klamptModel)
    left, right = robot.link('left_finger'), robot.link('right_finger')
    for opening in (0.0, 0.3, 1.0):
        qf = gripper.partwayOpenConfig(opening)
        robot.setConfig(gripper.setFingerConfig(robot.getConfig(), qf))
        # inner gap between the finger boxes along the closing axis (y)
        gap = left.geometry().getBB()[0][1] - right.geometry().getBB()[1][1]
        assert gap == pytest.approx(gripper.openingToWidth(opening), abs=1e-9)
        assert gripper.widthToOpening(gap) == pytest.approx(opening, abs=1e-9)
        assert gripper.configToOpening(qf) == pytest.approx(opening)
        assert gripper.getFingerConfig(robot.getConfig()) == pytest.approx(qf)
        # the affine driver reproduces the finger configuration
        assert robot.configFromDrivers(robot.configToDrivers(robot.getConfig()))[1:] == pytest.approx(qf)
    assert gripper.configToOpening([0.2, -0.2]) == 1.0
    assert gripper.descendantLinks(robot) == [1, 2]
    sub = gripper.getSubrobot(robot)
    assert sub._links == [0, 1, 2]
    assert gripper.getSubrobot(robot, all_descendants=False)._links == [0, 1, 2]


def test_gripper_synergies_and_json(gripper, tmp_path):
    assert gripper.evalSynergy('symmetric', [0.4]) == pytest.approx([0.02, -0.02])
    name, p = gripper.configToSynergy([0.03, -0.03])
    assert name == 'symmetric' and p == pytest.approx([0.6])
    gripper.synergies['left_only'] = [[0.05, 0.0], [0.0, 0.0]]
    name, p = gripper.configToSynergy([0.03, 0.0])
    assert name == 'left_only' and p == pytest.approx([0.6])
    assert gripper.configToSynergy([0.03, -0.03], 'left_only')[0] == 'left_only'
    with pytest.raises(ValueError):
        gripper.evalSynergy('symmetric', [0.1, 0.2])
    fn = str(tmp_path / 'g.json')
    gripper.save(fn)
    other = GripperInfo.load(fn)
    assert other.toJson() == gripper.toJson()
    gripper.synergies['fn'] = lambda p: [p[0], -p[0]]
    with pytest.raises(ValueError):
        gripper.toJson()


def test_gripper_mounted_on_robot(gripper):
    w = klampt.WorldModel()
    arm = w.loadRobot(os.path.join(ROBOTS, 'arm6.rob'))
    hand = w.loadRobot(gripper.klamptModel)
    arm.mount(6, hand, so3.identity(), [0, 0, 0.05])
    w.remove(hand)
    mounted = GripperInfo.mounted(gripper, arm, 7, register=False)
    assert mounted.name == 'gripper2f_mounted' and mounted.baseLink == 7
    assert mounted.fingerLinks == [8, 9]
    assert mounted.fingerDrivers == [6]
    assert arm.driver(6).getAffectedLinks() == [8, 9]
    assert gripper.fingerLinks == [1, 2]  # the original is unchanged
    assert mounted.descendantLinks(arm) == [8, 9]


def test_configure_simulator_installs_controller_emulators_and_calibration(arm, tmp_path):
    from klampt.sim.simulation import SimpleSimulator
    sim_file = tmp_path / "arm6_sim.py"
    sim_file.write_text(
        "from klampt.sim.simulation import SensorEmulator\n"
        "class Clock(SensorEmulator):\n"
        "    def __init__(self, sim):\n"
        "        self.sim = sim\n"
        "    def update(self):\n"
        "        return {'clock': self.sim.getTime()}\n"
        "def make(sim, robotIndex):\n"
        "    calls = []\n"
        "    def controller(c):\n"
        "        calls.append(c.getControlType())\n"
        "    controller.calls = calls\n"
        "    return controller, [Clock(sim)]\n")
    calibration = tmp_path / "ft.json"
    calibration.write_text('{"link": 6, "hasTorque": [0, 1, 0]}')
    arm.simulatorFile = str(sim_file)
    arm.calibrationFiles = {"wristFT": str(calibration)}
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(os.path.dirname(ROBOTS), "worlds", "arm_table.xml"))
    sim = SimpleSimulator(world)
    sensor = sim.controller(0).addSensor("wristFT", "ForceTorqueSensor")
    arm.configureSimulator(sim, "arm6")
    assert sensor.getSetting("link") == "6"
    assert sensor.getSetting("hasTorque").split() == ["0", "1", "0"]
    assert any(type(e).__name__ == "Clock" for e in sim.sensorEmulators[0])
    sim.simulate(0.02)
    assert sim.robotControllers[0].calls == ["PID"]
    # a simulator file whose make() does not return a pair is reported
    other = tmp_path / "bad_sim.py"
    other.write_text("def make(sim, robotIndex):\n    return 3\n")
    arm.simulatorFile = str(other)
    with pytest.raises(RuntimeError, match="pair"):
        arm.configureSimulator(SimpleSimulator(world), 0)
    arm.simulatorFile = None
    assert arm.configureSimulator(sim, 0) is None


# ------------------------------------------------------------ parts listing fixed links
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "robotinfo_parts_reference.json")) as _f:
    PARTS_REFERENCE = json.load(_f)


@pytest.mark.parametrize("model", sorted(PARTS_REFERENCE))
def test_part_helpers_skip_fixed_links_as_the_reference(model, tmp_path):
    """The robot-info files of the reference's examples list a fixed base link
    in every part (tests/data/make_robotinfo_parts_reference.py records the
    reference's answers on the same parts)."""
    require_shared_data()
    ref = PARTS_REFERENCE[model]
    fn = tmp_path / "info.json"
    fn.write_text(json.dumps({"name": "parts_" + model, "modelFile": os.path.join(SHARED_DATA, "robots", model),
                              "parts": ref["parts"]}))
    info = RobotInfo.load(str(fn))
    robot = info.klamptModel()
    assert [robot.driver(i).getAffectedLinks() for i in range(robot.numDrivers())] == ref["drivers"]
    for part in ref["parts"]:
        expected = ref[part]
        assert info.partDriverIndices(part) == expected["partDriverIndices"]
        assert info.partLinkIndices(part) == expected["partLinkIndices"]
        assert info.partLinkNames(part) == expected["partLinkNames"]
        assert info.toDriverIndices(expected["names"]) == expected["toDriverIndicesOfNames"]
        # Every listed link that a driver moves is covered by the part's drivers.
        moved = {l for d in info.partDriverIndices(part) for l in robot.driver(d).getAffectedLinks()}
        for link in expected["partLinkIndices"]:
            assert link in moved or all(link not in links for links in ref["drivers"])


def test_affine_links_other_than_the_first_give_their_driver(tmp_path):
    require_shared_data()
    fn = tmp_path / "info.json"
    fn.write_text(json.dumps({"name": "tx90pr2_fingers", "modelFile": os.path.join(SHARED_DATA, "robots", "tx90pr2.rob"),
                              "parts": {"fingers": [10, 11], "base": [0]}}))
    info = RobotInfo.load(str(fn))
    # Links 8-11 are the gripper's affine driver 6 (the reference only maps link 8).
    assert info.partDriverIndices("fingers") == [6]
    assert info.partDriverIndices("base") == []
    with pytest.raises(ValueError):
        info.toDriverIndices(["no_such_link"])


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a":', "}")])
@pytest.mark.parametrize("reader", [RobotInfo.load, GripperInfo.load])
def test_json_nested_too_deeply_is_refused_with_the_file_named(tmp_path, reader, opening, closing):
    path = tmp_path / "deep.json"
    path.write_text(opening * 100000 + "1" * (opening == '{"a":') + closing * 100000)
    with pytest.raises(ValueError, match="deep.json is nested too deeply"):
        reader(str(path))
