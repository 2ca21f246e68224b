"""Klampt-examples' RIL demos ``Python3/demos/control/kbdrive.py`` and
``pose.py`` against the project, re-implemented call for call (the
originals are not in this repository): the same loading
(``load_world_and_interface``: world files, a robot-info file, a controller
module), the same wrapping, the ``_klamptModel``/``_worldModel`` they set
on the interface before ``initialize()`` (honoured: the interface's model
is the world's robot), and the code of their loops: kbdrive's
``MyGLViewer.idle`` driving joints with ``setVelocity(v, 0.1)`` while a
key is held; pose.py's deprecated ``startStep()``, the ghost editor, the
trajectory overlay and ``moveToPosition`` of the posed configuration.  Both
run on the headless klampt.vis up to the window: ``vis.show()``/
``vis.run()`` and the keyboard are replaced by the test's key presses and
posed ghost (acceptance criterion 12)."""
import warnings

import pytest

from control_helpers import TOL, max_abs_diff, write_robotinfo
from conftest import SHARED_DATA, require_shared_data

import klampt
from klampt.control import RobotInterfaceCompleter, StepContext
from klampt.control.interop import RobotInterfacetoVis
from klampt.control.robotinterfaceutils import OmniRobotInterface
from klampt.control.simrobotinterface import KinematicSimControlInterface, SimFullControlInterface
from klampt.math import vectorops
from klampt.model.robotinfo import RobotInfo
from klampt.model.trajectory import RobotTrajectory

SPEED = 1


def build_default_keymap(robot):
    """kbdrive's default keymap: 1234567890 raise drivers 1-10, qwertyuiop
    lower them."""
    up = '1234567890'
    down = 'qwertyuiop'
    res = {}
    for i in range(min(robot.numDrivers(), 10)):
        vel = [0] * robot.numDrivers()
        vel[i] = SPEED
        res[up[i]] = (0, vel)
        vel = vectorops.mul(vel, -1)
        res[down[i]] = (0, vel)
    return res


def load_world_and_interface(args):
    """kbdrive's loader (pose.py imports it): world files, a robot-info
    .json, a controller .py or klampt.* module; (world, interface or None)."""
    world = klampt.WorldModel()
    robotinfo = RobotInfo('robot')
    for fn in args:
        if fn.endswith('.py') or fn.endswith('.pyc') or fn.startswith('klampt.'):
            robotinfo.controllerFile = fn
        elif fn.endswith('.json'):
            robotinfo = RobotInfo.load(fn)
        else:
            res = world.readFile(fn)
            if not res:
                raise RuntimeError("Unable to load model " + fn)
    if robotinfo.modelFile is None and world.numRobots() == 0:
        raise SystemExit(1)
    if world.numRobots() != 0:
        robotinfo.robotModel = world.robot(0)
    else:
        robot = robotinfo.klamptModel()
        world.add(robotinfo.name, robot)
    if robotinfo.controllerFile is not None:
        interface = robotinfo.controller()
        return world, interface
    return world, None


def demo_setup(args):
    """The shared part of both demos' __main__ up to initialize()."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        world, interface = load_world_and_interface(args)
    sim = None
    if interface is None:
        sim = klampt.Simulator(world)
        interface = RobotInterfaceCompleter(SimFullControlInterface(sim.controller(0), sim))
    elif not interface.properties.get('complete', False):
        interface = RobotInterfaceCompleter(interface)
    interface._klamptModel = world.robot(0)
    interface._worldModel = world
    if not interface.initialize():
        raise RuntimeError("Robot interface %s could not be initialized" % interface)
    # _klamptModel and _worldModel are honoured
    assert same_robot(interface.klamptModel(), world.robot(0))
    assert interface._worldModel is world
    return world, interface, sim


def same_robot(a, b):
    """a and b are the same robot of the same world (the Python wrappers
    differ): same world and index, and a configuration set on one shows on
    the other."""
    if (a.world, a.index) != (b.world, b.index):
        return False
    q = a.getConfig()
    probe = list(q)
    probe[-1] += 1e-3
    a.setConfig(probe)
    same = b.getConfig() == probe
    a.setConfig(q)
    return same


class KbDrive:
    """kbdrive's MyGLViewer without the window: its __init__ and idle()."""

    def __init__(self, interface):
        self.interface = interface
        self.robot_model = interface.klamptModel()
        self.world = interface._worldModel
        self.keymap = build_default_keymap(self.robot_model)
        self.current_velocities = {}
        self.visplugin = RobotInterfacetoVis(self.interface)
        self.controller_dt = 1.0 / interface.controlRate()
        self.vis_dt = 1.0 / 30.0
        self.num_steps = 0

    def idle(self):
        if not self.interface.properties.get('asynchronous', False):
            num_vis_steps = int(self.vis_dt / self.controller_dt) - 1
            for i in range(num_vis_steps):
                with StepContext(self.interface):
                    self.num_steps += 1
        rvels = [[0] * self.world.robot(r).numDrivers() for r in range(self.world.numRobots())]
        for (c, (r, v)) in self.current_velocities.items():
            rvels[r] = vectorops.add(rvels[r], v)
        with StepContext(self.interface):
            if self.num_steps > 0:
                ttl = 0.1
                self.interface.setVelocity(rvels[0], ttl)
                self.last_command_clock = self.interface.clock()    # (the test's record)
            self.world.robot(0).setConfig(self.interface.configToKlampt(self.interface.sensedPosition()))
            self.visplugin.update()
            self.num_steps += 1
        return True

    def keyboardfunc(self, c):
        if c in self.keymap:
            self.current_velocities[c] = self.keymap[c]

    def keyboardupfunc(self, c):
        if c in self.current_velocities:
            del self.current_velocities[c]


def commanded(interface):
    with StepContext(interface):
        return interface.commandedPosition(), interface.clock()


def hold_key(viewer, key, seconds):
    """Holds key for about seconds of the interface's clock; returns the
    clock times at press and release."""
    viewer.keyboardfunc(key)
    t0 = commanded(viewer.interface)[1]
    while commanded(viewer.interface)[1] - t0 < seconds:
        viewer.idle()
    viewer.keyboardupfunc(key)
    return t0, commanded(viewer.interface)[1]


@pytest.fixture
def headless_vis():
    """klampt.vis as the demos use it (no window), killed afterwards: a live
    vis window changes how later simulated cameras render in this
    process."""
    from klampt import vis
    yield vis
    vis.kill()


def test_kbdrive_world_file_drives_the_simulated_arm(headless_vis):
    """``python kbdrive.py tx90scenario0.xml``: no controller given, so a
    Completer over SimFullControlInterface; '2' drives driver 1 up at 1
    rad/s while held, releasing it stops it, 'w' drives it back."""
    require_shared_data()
    vis = headless_vis
    world, interface, sim = demo_setup([SHARED_DATA + '/tx90scenario0.xml'])
    vis.clear()
    vis.add("world", world)
    assert isinstance(interface, RobotInterfaceCompleter)
    assert isinstance(interface._base, SimFullControlInterface)
    viewer = KbDrive(interface)
    assert same_robot(viewer.robot_model, world.robot(0))
    assert sorted(viewer.keymap) == sorted('123456qwerty')
    viewer.idle()              # the first idle sends no velocity
    q0, _ = commanded(interface)
    assert viewer.num_steps == 3
    t_press, t_release = hold_key(viewer, '2', 1.0)
    q1, t1 = commanded(interface)
    # moved at SPEED while held (the first and last idle's ttl at the ends)
    assert q1[1] - q0[1] == pytest.approx(SPEED * (t_release - t_press), abs=0.06)
    assert max_abs_diff(q1[:1] + q1[2:], q0[:1] + q0[2:]) < 1e-9
    # released: the last velocity (ttl 0.1 s) runs on through the next
    # idle's extra steps, until that idle sends a zero velocity; then the
    # arm stays
    viewer.idle()
    q2, _ = commanded(interface)
    assert 0 <= q2[1] - q1[1] <= SPEED * 3 * viewer.controller_dt + 1e-9
    for _ in range(10):
        viewer.idle()
    assert max_abs_diff(commanded(interface)[0], q2) < 1e-12
    # each idle sends a (zero) velocity of ttl 0.1 s: the command ends
    # 0.1 s after the last idle
    while True:
        with StepContext(interface):
            if not interface.isMoving():
                stopped = interface.clock()
                break
    assert stopped - viewer.last_command_clock == pytest.approx(0.1, abs=1e-9)
    with StepContext(interface):
        assert not interface.isMoving()
        sensed = interface.sensedPosition()
    assert all(abs(a - b) <= e for a, b, e in zip(sensed, q2, TOL))
    # the world's robot shows the sensed configuration (idle's setConfig)
    assert max_abs_diff(world.robot(0).getConfig(), interface.configToKlampt(sensed)) < 0.05
    hold_key(viewer, 'w', 0.5)
    q3, _ = commanded(interface)
    assert q3[1] - q2[1] == pytest.approx(-0.5 * SPEED, abs=0.06)
    # idle() kept the interface's items in the scene
    assert {'_0_clock', '_0_q_sns'} <= set(vis.scene().items)
    assert interface.close()


def test_kbdrive_robotinfo_file_drives_the_gripper_to_its_limit(tmp_path):
    """``python kbdrive.py tx90pr2_sim.json``: the robot-info controller (an
    OmniRobotInterface, complete, not wrapped again) on the world's copy of
    the robot; '7' opens the gripper, which stops just short of its limit
    however long the key is held."""
    fn = write_robotinfo(tmp_path, 'tx90pr2_sim.json')
    try:
        world, interface, sim = demo_setup([fn])
    finally:
        RobotInfo.all_robots.pop('TX90L with PR2 gripper', None)
    assert sim is None
    assert isinstance(interface, OmniRobotInterface)
    assert world.numRobots() == 1 and world.robot(0).numDrivers() == 7
    viewer = KbDrive(interface)
    assert viewer.keymap['7'] == (0, [0] * 6 + [SPEED])
    viewer.idle()
    q0, _ = commanded(interface)
    lo, hi = world.robot(0).driver(6).getLimits()
    hold_key(viewer, '7', 1.5)           # 1.5 rad worth of a 1.047 rad range
    q1, _ = commanded(interface)
    assert hi - 2e-3 <= q1[6] <= hi
    assert max_abs_diff(q1[:6], q0[:6]) < 1e-9
    # kinematic: sensed is commanded; the world robot shows it
    assert world.robot(0).getConfig() == pytest.approx(interface.configToKlampt(q1), abs=1e-9)
    hold_key(viewer, 'u', 0.3)
    q2, _ = commanded(interface)
    assert q2[6] == pytest.approx(q1[6] - 0.3 * SPEED, abs=0.04)
    assert interface.close()


def pose_demo(args, ghost_fn):
    """pose.py's __main__ on the headless klampt.vis, but for the window:
    vis.show() and the vis.shown() loop guard; the user posing the ghost
    is vis.setItemConfig('ghost', ghost_fn(config)), pressing space is a
    call of the 'Move to posed config' action; the loop ends 1 s after the
    move.  Returns (world, interface, a log of each loop, (clock,
    destinationTime()) of the move, the posed configuration)."""
    from klampt import vis
    world, interface, sim = demo_setup(args)
    with pytest.warns(DeprecationWarning):
        interface.startStep()
    cqsns = interface.sensedPosition()
    world.robot(0).setConfig(interface.configToKlampt(cqsns))
    interface.endStep()

    state = {'target': None}

    def do_move():
        state['target'] = vis.getItemConfig("ghost")
    vis.clear()
    try:
        vis.add("world", world)
        vis.add("ghost", world.robot(0).getConfig())
        vis.hide(vis.getItemName(world.robot(0)))
        vis.edit("ghost")
        vis.addAction(do_move, "Move to posed config", ' ')
        visplugin = RobotInterfacetoVis(interface)
        # the user poses the ghost and presses space
        vis.setItemConfig("ghost", ghost_fn(world.robot(0).getConfig()))
        do_move()
        posed = state['target']
        log = []
        moved = None
        while True:
            vis.lock()
            qdest = vis.getItemConfig("ghost")
            vis.unlock()
            with StepContext(interface):
                cqsns = interface.sensedPosition()
                cqcmd = interface.commandedPosition()
                out_of_limits = []
                traj = None
                if cqcmd is not None and cqcmd[0] is not None:
                    qcmd = interface.configToKlampt(cqcmd)
                    qmin, qmax = world.robot(0).getJointLimits()
                    for i in range(len(qcmd)):
                        if qcmd[i] < qmin[i] or qcmd[i] > qmax[i]:
                            out_of_limits.append(i)
                    traj = RobotTrajectory(world.robot(0), milestones=[qcmd, qdest]).getLinkTrajectory(
                        world.robot(0).numLinks() - 1, 0.1)
                    vis.add("traj", traj)
                if state['target'] is not None:
                    interface.moveToPosition(interface.configFromKlampt(state['target']))
                    state['target'] = None
                    moved = (interface.clock(), interface.destinationTime())
                visplugin.update()
                log.append(dict(t=interface.clock(), qcmd=cqcmd, qsns=cqsns, moving=interface.isMoving(),
                                out=out_of_limits, traj=traj))
            if not log[-1]['moving'] and log[-1]['t'] > moved[1] + 1.0:
                break
            assert len(log) < 2000
        # the overlay and the interface's ghosts are in the scene
        assert {'traj', '_0_q_sns', 'ghost'} <= set(vis.scene().items)
        assert interface.close()
    finally:
        vis.kill()
    return world, interface, log, moved, posed


def test_pose_moves_the_arm_to_the_posed_configuration():
    """``python pose.py ../../data/tx90cuptable.xml`` (its suggested
    command): the simulated arm moves to the posed configuration, arriving
    when destinationTime() said, never commanded out of its limits; the
    overlay trajectory runs from the command to the ghost."""
    require_shared_data()

    def ghost(q):
        q = list(q)
        q[1] += 0.4
        q[3] -= 0.6
        q[5] += 0.5
        return q
    world, interface, log, (t_cmd, t_dest), qdest = pose_demo([SHARED_DATA + '/tx90cuptable.xml'], ghost)
    robot = world.robot(0)
    target = interface.configFromKlampt(qdest)
    assert 0.3 < t_dest - t_cmd < 2.0
    assert not any(row['out'] for row in log)
    stopped = next(row['t'] for row in log if row['t'] > t_cmd and not row['moving'])
    assert t_dest - 1e-9 <= stopped <= t_dest + 0.01 + 1e-9
    end = log[-1]
    assert max_abs_diff(end['qcmd'], target) < 1e-9
    assert all(abs(a - b) <= e for a, b, e in zip(end['qsns'], target, TOL))
    # the overlay: the last link's path from the commanded configuration to
    # the ghost, ending at the ghost's pose
    traj = end['traj']
    robot.setConfig(qdest)
    T = robot.link(robot.numLinks() - 1).getTransform()
    assert max_abs_diff(traj.milestones[-1][9:], T[1]) < 1e-6


def test_pose_with_a_robotinfo_controller(tmp_path):
    """``python pose.py ur5_sim.json``: the robot-info controller (a
    Completer over the kinematic base) on the world's robot; the arm ends
    exactly at the ghost."""
    fn = write_robotinfo(tmp_path, 'ur5/ur5_sim.json')

    def ghost(q):
        q = list(q)
        q[2] += 0.5
        q[4] -= 0.3
        return q
    try:
        world, interface, log, (t_cmd, t_dest), qdest = pose_demo([fn], ghost)
    finally:
        RobotInfo.all_robots.pop('UR5e', None)
    assert isinstance(interface, RobotInterfaceCompleter)
    assert isinstance(interface._base, KinematicSimControlInterface)
    target = interface.configFromKlampt(qdest)
    assert not any(row['out'] for row in log)
    assert max_abs_diff(log[-1]['qcmd'], target) < 1e-9
    assert max_abs_diff(log[-1]['qsns'], target) < 1e-9
