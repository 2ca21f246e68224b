"""klampt.sim: SimpleSimulator (controllers, emulators, hooks), batch runs,
CSV logging and playback, settling, and the reference-style example script."""
import importlib.util
import io
import math
import os

import klampt
import pytest
from conftest import PROJECT_DATA, REPO, arm_table_world
from klampt.math import so3
from klampt.sim import batch, settle, simlog
from klampt.sim.simulation import ActuatorEmulator, SensorEmulator, SimpleSimulator

ARM_TABLE = os.path.join(PROJECT_DATA, "worlds", "arm_table.xml")
TABLE_TOP = 0.7
BLOCK_HALF = 0.025


def test_hooks_run_every_substep_with_time_and_dt():
    world = arm_table_world()
    sim = SimpleSimulator(world)
    sim.substep_dt = 0.002
    seen = []
    sim.addHook(['time', 'dt', world.rigidObject('block')], lambda t, dt, body: seen.append((t, dt, body)))
    sim.simulate(0.01)
    assert len(seen) == 5
    assert [t for t, _, _ in seen] == pytest.approx([0.0, 0.002, 0.004, 0.006, 0.008])
    assert all(dt == pytest.approx(0.002) for _, dt, _ in seen)
    assert isinstance(seen[0][2], klampt.SimBody)
    assert sim.getTime() == pytest.approx(0.01)


def test_hook_forces_act_on_the_body():
    # A hook cancelling gravity keeps a free object in the air.
    world = arm_table_world()
    ball = world.rigidObject('ball')
    R, t = ball.getTransform()
    ball.setTransform(R, [t[0], t[1], 1.5])
    sim = SimpleSimulator(world)
    m = ball.getMass().mass
    sim.addHook(ball, lambda body: body.applyWrench([0, 0, 9.8 * m], [0, 0, 0]))
    for _ in range(20):
        sim.simulate(0.01)
    sim.updateWorld()
    assert ball.getTransform()[1][2] == pytest.approx(1.5, abs=1e-3)


def test_function_controller_gets_the_robot_controller():
    world = arm_table_world()
    sim = SimpleSimulator(world)
    target = [0, 0.2, 0.3, 0.6, 0.1, 1.0, 0.2]
    calls = []

    def control(c):
        calls.append(c.getControlType())
        c.setPIDCommand(target, [0.0] * len(target))

    sim.setController(world.robot(0), control)
    start = max(abs(a - b) for a, b in zip(world.robot(0).getConfig(), target))
    for _ in range(150):
        sim.simulate(0.01)
    assert len(calls) == 150 and calls[-1] == 'PID'
    q = sim.getActualConfig(0)
    assert max(abs(a - b) for a, b in zip(q, target)) < 0.1 * start


class HoldBlock(object):
    """A controller block in the reference's RobotControllerBlock style."""

    def __init__(self, target):
        self.target = target
        self.inputs = []

    def advance(self, **inputs):
        self.inputs.append(inputs)
        return {'qcmd': self.target, 'note': 'x'}


class CountingSensor(SensorEmulator):
    def __init__(self):
        self.n = 0

    def update(self):
        self.n += 1
        return {'count': self.n}


class RecordingActuator(ActuatorEmulator):
    def __init__(self):
        self.commands = []
        self.substeps = 0

    def process(self, commands, dt):
        self.commands.append(dict(commands))

    def substep(self, dt):
        self.substeps += 1


def test_block_controller_with_emulators():
    world = arm_table_world()
    sim = SimpleSimulator(world)
    target = [0, -0.2, 0.5, 0.5, 0, 0.8, 0]
    block = HoldBlock(target)
    sensor, actuator = CountingSensor(), RecordingActuator()
    sim.setController('arm6', block)
    sim.addEmulator(0, sensor)
    sim.addEmulator(0, actuator)
    sim.substep_dt = 0.005
    start = max(abs(a - b) for a, b in zip(world.robot(0).getConfig(), target))
    for _ in range(100):
        sim.simulate(0.01)
    first = block.inputs[0]
    assert first['t'] == 0 and first['dt'] == 0.01 and first['count'] == 1
    assert len(first['qcmd']) == world.robot(0).numLinks()   # the default emulator's PID readings
    assert len(actuator.commands) == 100 and actuator.commands[0]['qcmd'] == target
    assert actuator.substeps == 200
    q = sim.getActualConfig(0)
    assert max(abs(a - b) for a, b in zip(q, target)) < 0.1 * start
    with pytest.raises(ValueError):
        sim.addEmulator(0, object())


def test_do_sim_restores_the_world_and_reports_items():
    world = arm_table_world()
    before = world.rigidObject(0).getTransform()
    drop = (so3.identity(), [0.7, 0.2, 0.9])
    res = batch.doSim(world, 0.6, {'rigidObjects[0].transform': drop},
                      returnItems=['rigidObjects[0].transform', 'time', 'robots[0].actualConfig'])
    z = res['rigidObjects[0].transform'][1][2]
    # it fell 17 cm onto the table and stopped there
    assert z == pytest.approx(TABLE_TOP + BLOCK_HALF, abs=5e-3)
    assert res['time'] == pytest.approx(0.6)
    assert res['status'] == 'normal'
    after = world.rigidObject(0).getTransform()
    assert list(after[0]) == list(before[0]) and list(after[1]) == list(before[1])
    assert world.rigidObject(0).getVelocity() == ([0.0] * 3, [0.0] * 3) or \
        [list(v) for v in world.rigidObject(0).getVelocity()] == [[0.0] * 3, [0.0] * 3]


def test_do_sim_trace_and_termination():
    world = arm_table_world()
    drop = (so3.identity(), [0.7, 0.2, 1.2])
    res = batch.doSim(world, 1.0, {'rigidObjects[0].transform': drop}, returnItems=['rigidObjects[0].transform'],
                      trace=True, simDt=0.02,
                      simTerm=lambda sim: sim.getTime() >= 0.2 - 1e-9)
    zs = [T[1][2] for T in res['rigidObjects[0].transform']]
    assert len(zs) == 11    # initial state + 10 steps of 0.02 s
    t = [0.02 * k for k in range(11)]
    # free fall from rest: z = z0 - g t^2 / 2 (before reaching the table)
    for tk, zk in zip(t, zs):
        assert zk == pytest.approx(1.2 - 0.5 * 9.8 * tk * tk, abs=2e-3)
    out = io.StringIO()
    batch.saveStateTrajectoryCSV({'z': zs}, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == 'z,iter' and len(lines) == 12


def test_batch_and_monte_carlo():
    world = arm_table_world()
    heights = [0.8, 0.9]
    inits = [{'rigidObjects[0].transform': (so3.identity(), [0.7, 0.2, h])} for h in heights]
    results = batch.batchSim(world, 0.05, inits, ['rigidObjects[0].transform'])
    assert len(results) == 2
    # after 0.05 s of free fall, each dropped by g t^2 / 2 from its height
    for h, r in zip(heights, results):
        assert r['rigidObjects[0].transform'][1][2] == pytest.approx(h - 0.5 * 9.8 * 0.05 ** 2, abs=2e-3)
    as_lists = batch.batchSim(world, 0.05, {'rigidObjects[0].transform': [i['rigidObjects[0].transform'] for i in inits]},
                              ['rigidObjects[0].transform'])
    assert [r['rigidObjects[0].transform'] for r in as_lists] == [r['rigidObjects[0].transform'] for r in results]
    samples = iter(heights)
    mc = batch.monteCarloSim(world, 0.05, {'rigidObjects[0].transform': lambda: (so3.identity(), [0.7, 0.2, next(samples)])},
                             2, ['rigidObjects[0].transform'])
    assert [init['rigidObjects[0].transform'][1][2] for init, _ in mc] == heights
    out = io.StringIO()
    batch.saveStatesCSV([{'a': 1.0, 'b': [2.0, 3.0]}, {'a': 4.0, 'b': [5.0, 6.0]}], out)
    assert out.getvalue().splitlines() == ['a,b[0],b[1]', '1.0,2.0,3.0', '4.0,5.0,6.0']


def test_logger_and_playback_round_trip(tmp_path):
    world = arm_table_world()
    sim = klampt.Simulator(world)
    state_fn, contact_fn = str(tmp_path / "state.csv"), str(tmp_path / "contact.csv")
    logger = simlog.SimLogger(sim, state_fn, contact_fn)
    logged = []
    for _ in range(30):
        sim.simulate(0.01)
        logger.saveStep()
        logged.append(sim.getActualConfig(0))
    logger.close()
    with open(state_fn) as f:
        rows = f.read().splitlines()
    header = rows[0].split(',')
    assert header[0] == 'time' and 'block_x' in header and 'arm6_q[shoulder]' in header
    assert len(rows) == 31 and all(len(r.split(',')) == len(header) for r in rows[1:])
    with open(contact_fn) as f:
        contact_rows = f.read().splitlines()
    assert contact_rows[0].startswith('time,body1,body2,numContacts')
    assert any(',block,' in r or ',table,' in r for r in contact_rows[1:])   # objects rest on the table

    replay = klampt.Simulator(world)
    playback = simlog.SimLogPlayback(replay, state_fn)
    playback.updateSim(timestep=10)
    assert world.robot(0).getConfig() == pytest.approx(logged[10], abs=1e-9)
    block_row = playback.state_array[10]
    x = block_row[playback.state_to_index['block_x']]
    assert world.rigidObject('block').getTransform()[1][0] == pytest.approx(x)


def test_settle_drops_an_object_onto_the_table():
    world = arm_table_world()
    block = world.rigidObject('block')
    R, t = block.getTransform()
    block.setTransform(R, [t[0], t[1], 0.85])
    T, touched = settle.settle(world, block, forcedir=(0, 0, -0.5))
    assert T is not None
    table_id = world.terrain('table').getID()
    assert table_id in touched and len(touched[table_id]) >= 3
    assert T[1][2] == pytest.approx(TABLE_TOP + BLOCK_HALF, abs=6e-3)
    # it kept its orientation (no tipping of a box pushed straight down)
    assert so3.distance(T[0], R) < 0.05
    for cp in touched[table_id]:
        assert cp.x[2] == pytest.approx(TABLE_TOP, abs=6e-3)


def test_settle_with_nothing_below_returns_none():
    world = arm_table_world()
    ball = world.rigidObject('ball')
    T, touched = settle.settle(world, ball, forcedir=(0, 0, 0.3))
    assert T is None and touched == {}


def test_reference_style_example_runs():
    path = os.path.join(REPO, "examples", "pick_and_place_style.py")
    spec = importlib.util.spec_from_file_location("pick_and_place_style", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    err = module.main(ARM_TABLE, duration=2.0)
    assert math.isfinite(err) and err < 0.1


def test_execute_trajectory_on_the_simulated_controller():
    from klampt.model import trajectory
    world = arm_table_world()
    robot = world.robot(0)
    sim = klampt.Simulator(world)
    c = sim.controller(0)
    q0 = robot.getConfig()
    q1 = [0, 0.2, 0.5, 0.6, 0.1, 1.0, 0.2]
    traj = trajectory.RobotTrajectory(robot, [0, 1, 2], [q0, q1, q0])
    trajectory.execute_trajectory(traj, c, smoothing='spline')
    assert c.remainingTime() == pytest.approx(2.0)
    spline = trajectory.HermiteTrajectory()
    spline.makeSpline(traj)
    worst = 0.0
    for _ in range(200):
        sim.simulate(0.01)
        # the commanded configuration is the spline at the end of the current
        # control period
        assert c.getCommandedConfig() == pytest.approx(spline.eval(sim.getTime() + c.getRate())[:len(q0)], abs=1e-9)
        worst = max(worst, max(abs(a - b) for a, b in zip(sim.getActualConfig(0), c.getCommandedConfig())))
    assert worst < 0.05
    for _ in range(50):
        sim.simulate(0.01)
    assert max(abs(a - b) for a, b in zip(sim.getActualConfig(0), q0)) < 0.01
    # a zero-length segment jumps the command; a negative one is an error
    c.setLinear(q1, 0.0)
    sim.simulate(0.01)
    assert c.getCommandedConfig() == pytest.approx(q1)
    with pytest.raises(ValueError):
        c.setCubic(q1, [0.0] * len(q1), -1.0)
