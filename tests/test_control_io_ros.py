"""klampt.control.io.roscontroller and rosinterface through a real roscore
(conftest.ros_node): the controller block's commands are the published
JointTrajectory evaluated at the block's time (checked against the waypoints
interpolated here with numpy), its JointState and clock reach subscribers,
and the Robot Interface Layer interface senses published JointStates and
publishes its trajectory commands."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import SHARED_DATA, assert_close, load_robot, require_shared_data, wait_for

try:
    import rospy
    from rosgraph_msgs.msg import Clock
    from sensor_msgs.msg import JointState
    from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
except ImportError as e:
    if os.environ.get("CI"):
        raise
    pytest.skip(str(e), allow_module_level=True)

from klampt.control.io import roscontroller, rosinterface

# rospy's threads still call Condition.notifyAll
pytestmark = pytest.mark.filterwarnings("ignore:notifyAll:DeprecationWarning")


def shared_robot(name):
    """(world, robot) of a robot file of the shared data."""
    require_shared_data()
    return load_robot(os.path.join(SHARED_DATA, "robots", name))


def trajectory_msg(names, times, positions=None, velocities=None, effort=None, stamp=0.0):
    """A JointTrajectory message; missing fields stay empty."""
    msg = JointTrajectory(joint_names=list(names))
    msg.header.stamp = rospy.Time.from_sec(stamp)
    for i, t in enumerate(times):
        p = JointTrajectoryPoint(time_from_start=rospy.Duration.from_sec(t))
        if positions is not None:
            p.positions = list(positions[i])
        if velocities is not None:
            p.velocities = list(velocities[i])
        if effort is not None:
            p.effort = list(effort[i])
        msg.points.append(p)
    return msg


def send(block, topic, msg):
    """Publishes msg on topic and waits until the block has queued it."""
    pub = rospy.Publisher(topic, JointTrajectory, queue_size=10)
    wait_for(lambda: pub.get_num_connections() > 0, what="the block to subscribe")
    pub.publish(msg)
    wait_for(lambda: block.jointTrajectoryRosMsgQueue, what="the trajectory message")
    pub.unregister()


def linear(times, values, t):
    """Piecewise linear interpolation of waypoint rows at t (held outside)
    and its derivative (zero outside)."""
    times, values = np.asarray(times, float), np.asarray(values, float)
    x = np.array([np.interp(t, times, values[:, j]) for j in range(values.shape[1])])
    if t < times[0] or t >= times[-1]:
        return x, np.zeros(values.shape[1])
    k = np.searchsorted(times, t, side="right") - 1
    return x, (values[k + 1] - values[k]) / (times[k + 1] - times[k])


def hermite(times, xs, vs, t):
    """Cubic Hermite interpolation at t, position and velocity (held with
    zero velocity outside)."""
    times, xs, vs = np.asarray(times, float), np.asarray(xs, float), np.asarray(vs, float)
    if t <= times[0]:
        return xs[0], np.zeros(xs.shape[1])
    if t >= times[-1]:
        return xs[-1], np.zeros(xs.shape[1])
    k = np.searchsorted(times, t, side="right") - 1
    h = times[k + 1] - times[k]
    s = (t - times[k]) / h
    p0, p1, m0, m1 = xs[k], xs[k + 1], vs[k] * h, vs[k + 1] * h
    x = (2 * s**3 - 3 * s**2 + 1) * p0 + (s**3 - 2 * s**2 + s) * m0 + (-2 * s**3 + 3 * s**2) * p1 + (s**3 - s**2) * m1
    dx = (6 * s**2 - 6 * s) * p0 + (3 * s**2 - 4 * s + 1) * m0 + (-6 * s**2 + 6 * s) * p1 + (3 * s**2 - 2 * s) * m1
    return x, dx / h


LINKS = ["Link_0", "Link_1", "Link_2"]


@pytest.fixture
def block(ros_node, request):
    """A RosRobotBlock of a 3-link robot on topics of this test's own."""
    prefix = "/ctl_" + request.node.name
    b = roscontroller.RosRobotBlock(prefix + "/joint_trajectory", prefix + "/joint_states", LINKS)
    b.topic = prefix
    yield b
    b.close()


# ------------------------------------------------------------ import rules

def test_modules_import_without_ros_and_say_what_is_missing():
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'rospy': raise ImportError('No module named rospy')\n"
            "sys.meta_path.insert(0, Block())\n"
            "from klampt.control.io import roscontroller, rosinterface\n"
            "print(roscontroller.ros_initialized, rosinterface.ros_initialized)\n"
            "for make in (lambda: roscontroller.RosTimeBlock(), lambda: roscontroller.RosRobotBlock('a', 'b', ['l']),\n"
            "             lambda: rosinterface.RosRobotInterface(None, 'a', 'b')):\n"
            "    try:\n"
            "        make()\n"
            "    except RuntimeError as e:\n"
            "        print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert lines[0] == "False False", out.stdout + out.stderr
    assert len(lines) == 4 and all("rospy" in line for line in lines[1:]), out.stdout + out.stderr


# ------------------------------------------------------- RosRobotBlock

def test_positions_only_give_a_linear_trajectory(block):
    times = [0.0, 1.0, 2.5]
    qs = [[0.0, 0.5, -1.0], [1.0, 0.0, -0.5], [0.5, 0.25, 1.0]]
    send(block, block.topic + "/joint_trajectory", trajectory_msg(LINKS, times, positions=qs, stamp=10.0))
    abs_times = [10.0 + t for t in times]
    for t in (9.0, 10.0, 10.4, 11.7, 12.5, 13.0):
        res = block.advance(t=t, q=[0.0] * 3, dq=[0.0] * 3)
        x, dx = linear(abs_times, qs, t)
        assert set(res) == {"qcmd", "dqcmd"}
        assert_close(res["qcmd"], x, atol=1e-12, what="qcmd at %g" % t)
        assert_close(res["dqcmd"], dx, atol=1e-12, what="dqcmd at %g" % t)


def test_positions_and_velocities_give_a_hermite_trajectory(block):
    times = [0.0, 0.8, 2.0]
    qs = [[0.0, 0.5, -1.0], [1.0, 0.0, -0.5], [0.5, 0.25, 1.0]]
    vs = [[0.0, 0.0, 0.0], [0.5, -1.0, 2.0], [0.0, 0.0, 0.0]]
    # a zero stamp starts the trajectory at the time of the advance that reads it
    send(block, block.topic + "/joint_trajectory", trajectory_msg(LINKS, times, qs, vs))
    abs_times = [5.0 + t for t in times]
    for t in (5.0, 5.3, 5.8, 6.1, 6.9, 7.5):
        res = block.advance(t=t, q=[0.0] * 3, dq=[0.0] * 3)
        x, dx = hermite(abs_times, qs, vs, t)
        assert_close(res["qcmd"], x, atol=1e-12, what="qcmd at %g" % t)
        assert_close(res["dqcmd"], dx, atol=1e-12, what="dqcmd at %g" % t)
    # the velocities at the waypoints are the message's
    assert_close(block.advance(t=5.8, q=[0.0] * 3)["dqcmd"], vs[1], atol=1e-12)


def test_velocities_only_give_velocity_commands(block):
    times = [0.0, 1.0, 3.0]
    vs = [[0.0, 1.0, 0.0], [1.0, -1.0, 0.5], [0.0, 0.0, 0.0]]
    send(block, block.topic + "/joint_trajectory", trajectory_msg(LINKS, times, velocities=vs, stamp=2.0))
    for t in (2.0, 2.25, 3.5, 4.0, 6.0):
        res = block.advance(t=t, dt=0.01, q=[0.0] * 3, dq=[0.0] * 3)
        assert set(res) == {"dqcmd", "tcmd"}
        assert_close(res["dqcmd"], linear([2.0, 3.0, 5.0], vs, t)[0], atol=1e-12, what="dqcmd at %g" % t)
        assert res["tcmd"] == 0.01


def test_efforts_give_feedforward_torques(block):
    times = [0.0, 2.0]
    qs = [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]
    efforts = [[1.0, -2.0, 0.0], [3.0, 0.0, 4.0]]
    send(block, block.topic + "/joint_trajectory", trajectory_msg(LINKS, times, positions=qs, effort=efforts,
                                                                  stamp=1.0))
    for t in (1.0, 1.5, 2.7, 4.0):
        res = block.advance(t=t, q=[0.0] * 3)
        assert_close(res["qcmd"], linear([1.0, 3.0], qs, t)[0], atol=1e-12)
        assert_close(res["torquecmd"], linear([1.0, 3.0], efforts, t)[0], atol=1e-12)
    # efforts alone: torque commands only
    send(block, block.topic + "/joint_trajectory", trajectory_msg(LINKS, times, effort=efforts, stamp=1.0))
    res = block.advance(t=1.5, q=[0.0] * 3)
    assert set(res) == {"torquecmd"}
    assert_close(res["torquecmd"], linear([1.0, 3.0], efforts, 1.5)[0], atol=1e-12)


def test_partial_commands_map_names_to_links(ros_node):
    _, robot = shared_robot("tx90l.rob")
    links = [robot.link(i).getName() for i in range(robot.numLinks())]
    b = roscontroller.RosRobotBlock("/partial/joint_trajectory", "/partial/joint_states", links)
    names = ["Link_5", "Link_2"]
    qs = [[0.5, -0.25], [1.5, 0.75]]
    send(b, "/partial/joint_trajectory", trajectory_msg(names, [0.0, 1.0], positions=qs, stamp=1.0))
    held = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
    res = b.advance(t=1.5, q=[0.0] * 7, qcmd=held)
    expected = list(held)
    expected[5], expected[2] = 1.0, 0.25
    assert_close(res["qcmd"], expected, atol=1e-12)
    dq = [0.0] * 7
    dq[5], dq[2] = 1.0, 1.0
    assert_close(res["dqcmd"], dq, atol=1e-12)
    # without a commanded configuration, the others hold the sensed one
    sensed = [-0.1 * i for i in range(7)]
    res = b.advance(t=2.0, q=sensed)
    expected = list(sensed)
    expected[5], expected[2] = 1.5, 0.75
    assert_close(res["qcmd"], expected, atol=1e-12)
    # joints that are not links are an error, and the message is dropped
    send(b, "/partial/joint_trajectory", trajectory_msg(["Link_2", "wrist"], [0.0], positions=[[0.0, 0.0]]))
    with pytest.raises(ValueError, match="wrist"):
        b.advance(t=2.0, q=sensed)
    assert_close(b.advance(t=2.0, q=sensed)["qcmd"], expected, atol=1e-12)
    b.close()


def test_a_new_message_replaces_the_trajectory_from_its_start(block):
    qs1 = [[0.0, 0.0, 0.0], [4.0, 4.0, 4.0]]
    send(block, block.topic + "/joint_trajectory", trajectory_msg(LINKS, [0.0, 4.0], positions=qs1, stamp=0.5))
    assert_close(block.advance(t=1.5, q=[0.0] * 3)["qcmd"], [1.0] * 3, atol=1e-12)
    qs2 = [[0.0, -1.0, 2.0]]
    send(block, block.topic + "/joint_trajectory", trajectory_msg(LINKS, [1.0], positions=qs2, stamp=2.5))
    # up to 2.5 the first one, then from where it was to the new point at 3.5
    for t, x in ((2.0, [1.5] * 3), (2.5, [2.0] * 3), (3.0, [1.0, 0.5, 2.0]), (3.5, qs2[0]), (9.0, qs2[0])):
        assert_close(block.advance(t=t, q=[0.0] * 3)["qcmd"], x, atol=1e-12, what="qcmd at %g" % t)


def test_block_publishes_joint_states(block):
    got = []
    sub = rospy.Subscriber(block.topic + "/joint_states", JointState, got.append)
    wait_for(lambda: block.pub.get_num_connections() > 0, what="the subscriber to connect")
    q, dq, torque = [0.25, -0.5, 1.5], [0.1, 0.2, -0.3], [3.0, 2.0, 1.0]

    def arrived():
        block.advance(t=1.0, q=q, dq=dq, torque=torque)
        return got
    wait_for(arrived, what="the joint state")
    js = got[-1]
    assert list(js.name) == LINKS
    assert_close(js.position, q)
    assert_close(js.velocity, dq)
    assert_close(js.effort, torque)
    sub.unregister()


def test_time_block_publishes_the_clock(ros_node):
    clock = roscontroller.RosTimeBlock()
    got = []
    sub = rospy.Subscriber("/clock", Clock, lambda m: got.append(m.clock.to_sec()))
    wait_for(lambda: clock.clockpub.get_num_connections() > 0, what="the subscriber to connect")

    def arrived():
        clock.advance(12.25)
        return got
    wait_for(arrived, what="the clock")
    assert got[-1] == 12.25
    sub.unregister()
    clock.clockpub.unregister()


def test_controller_make_starts_once_and_drives_a_simulation(ros_node, monkeypatch):
    from klampt.sim.simulation import SimpleSimulator
    monkeypatch.setattr(roscontroller, "ros_initialized", False)
    world, robot = shared_robot("planar3R.rob")
    first = roscontroller.make(robot)
    assert roscontroller.ros_initialized
    assert rospy.core.is_initialized()
    assert isinstance(first, roscontroller.RosRobotBlock) and first.clock is not None
    second = roscontroller.make(robot)
    assert second.clock is None
    second.close()
    # a simulated planar3R follows a trajectory sent to /planar3R/joint_trajectory
    sim = SimpleSimulator(world)
    sim.setController(robot, first)
    clocks, states = [], []
    subs = [rospy.Subscriber("/clock", Clock, lambda m: clocks.append(m.clock.to_sec())),
            rospy.Subscriber("/planar3R/joint_states", JointState, states.append)]
    wait_for(lambda: first.pub.get_num_connections() > 0 and first.clock.clockpub.get_num_connections() > 0,
             what="the subscribers")
    qs = [[0.0, 0.0, 0.0], [0.6, -0.4, 0.2]]
    send(first, "/planar3R/joint_trajectory", trajectory_msg(LINKS, [0.0, 1.0], positions=qs, stamp=0.0))
    while sim.getTime() < 0.5 - 1e-9:
        sim.simulate(0.01)
    t = sim.getTime()
    # the command of the last control step, which ran at the start of the last 0.01 s
    assert_close(sim.controller(0).getCommandedConfig(), linear([0.0, 1.0], qs, t - 0.01)[0], atol=1e-9)
    wait_for(lambda: clocks and states, what="the clock and joint states")
    assert 0 <= clocks[-1] <= t and list(states[-1].name) == LINKS
    for sub in subs:
        sub.unregister()
    first.close()


# ---------------------------------------------------- RosRobotInterface

@pytest.fixture
def interface(ros_node, monkeypatch):
    """An initialized RosRobotInterface of the tx90l (7 links, 6 drivers
    moving Link_1 .. Link_6), made by rosinterface.make."""
    monkeypatch.setattr(rosinterface, "ros_initialized", False)
    world, robot = shared_robot("tx90l.rob")
    iface = rosinterface.make(robot)
    assert iface.initialize()
    assert rosinterface.ros_initialized
    iface.world = world
    yield iface
    iface.close()


def publish_state(topic, js, interface):
    """Publishes js until the interface has it."""
    pub = rospy.Publisher(topic, JointState, queue_size=10)
    wait_for(lambda: pub.get_num_connections() > 0, what="the interface to subscribe")
    interface.last_joint_state = None
    pub.publish(js)
    wait_for(lambda: interface.last_joint_state is not None, what="the joint state")
    pub.unregister()


def test_interface_senses_joint_states(interface):
    robot = interface.klamptModel()
    names = ["Link_6", "Link_0", "Link_3", "Link_1", "Link_5", "Link_2", "Link_4"]
    q = [0.6, 0.0, 0.3, 0.1, 0.5, 0.2, 0.4]
    dq = [-0.6, 0.0, -0.3, -0.1, -0.5, -0.2, -0.4]
    effort = [6.0, 0.0, 3.0, 1.0, 5.0, 2.0, 4.0]
    publish_state("/tx90l/joint_states", JointState(name=names, position=q, velocity=dq, effort=effort), interface)
    assert_close(interface.sensedPosition(), [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert_close(interface.sensedVelocity(), [-0.1, -0.2, -0.3, -0.4, -0.5, -0.6])
    assert_close(interface.sensedTorque(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert interface.numJoints() == 6 and interface.status() == "ok"
    # a partial state: the other links keep the model's configuration, no velocity or effort
    robot.setConfig([0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    publish_state("/tx90l/joint_states", JointState(name=["Link_4", "Link_2"], position=[-0.4, -0.2]), interface)
    assert_close(interface.sensedPosition(), [1.0, -0.2, 1.0, -0.4, 1.0, 1.0])
    assert interface.sensedVelocity() is None and interface.sensedTorque() is None


def test_interface_rejects_joint_names_that_are_not_links(interface):
    assert interface.sensedPosition() is None
    publish_state("/tx90l/joint_states", JointState(name=["Link_1", "gripper"], position=[0.0, 0.0]), interface)
    with pytest.raises(ValueError, match="gripper"):
        interface.sensedPosition()


def test_interface_publishes_piecewise_linear_commands(interface):
    got = []
    sub = rospy.Subscriber("/tx90l/joint_trajectory", JointTrajectory, got.append)
    wait_for(lambda: interface.joint_trajectory_pub.get_num_connections() > 0, what="the subscriber to connect")
    q1, q2 = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [-0.1, -0.2, -0.3, -0.4, -0.5, -0.6]
    before = rospy.get_rostime().to_sec()
    interface.setPiecewiseLinear([100.0, 200.0], [q1, q2])
    wait_for(lambda: got, what="the trajectory")
    msg = got[-1]
    assert list(msg.joint_names) == ["Link_%d" % i for i in range(1, 7)]
    assert [p.time_from_start.to_sec() for p in msg.points] == [100.0, 200.0]
    assert_close([list(p.positions) for p in msg.points], [q1, q2])
    assert before <= msg.header.stamp.to_sec() <= rospy.get_rostime().to_sec()
    # held at the first milestone until it is due
    assert_close(interface.commandedPosition(), q1)
    # absolute times: the trajectory starts at the first one
    got.clear()
    now = interface.clock()
    interface.setPiecewiseLinear([now - 1.0, now + 1.0], [q1, q2], relative=False)
    wait_for(lambda: got, what="the absolute trajectory")
    msg = got[-1]
    assert abs(msg.header.stamp.to_sec() - (now - 1.0)) < 1e-6
    assert_close([p.time_from_start.to_sec() for p in msg.points], [0.0, 2.0], atol=1e-6)
    # commandedPosition follows the trajectory: halfway (plus the time elapsed since)
    elapsed = interface.clock() - now
    cmd = np.asarray(interface.commandedPosition())
    expected = np.asarray(q1) + (np.asarray(q2) - np.asarray(q1)) * (1.0 + elapsed) / 2.0
    assert np.allclose(cmd, expected, atol=0.02 * (1 + 10 * elapsed))
    with pytest.raises(ValueError, match="drivers"):
        interface.setPiecewiseLinear([1.0], [[0.0] * 7])
    with pytest.raises(ValueError, match="nondecreasing"):
        interface.setPiecewiseLinear([1.0, 0.5], [q1, q2])
    sub.unregister()


def test_interface_close_unregisters(interface):
    import rosgraph
    master = rosgraph.Master(rospy.get_name())
    me = rospy.get_name()

    def registered(kind, topic):
        publishers, subscribers, _ = master.getSystemState()
        entries = publishers if kind == "pub" else subscribers
        return any(t == topic and me in nodes for t, nodes in entries)
    wait_for(lambda: registered("pub", "/tx90l/joint_trajectory") and registered("sub", "/tx90l/joint_states"),
             what="the registration")
    interface.close()
    assert interface.joint_state_sub is None and interface.joint_trajectory_pub is None
    wait_for(lambda: not registered("pub", "/tx90l/joint_trajectory") and not registered("sub", "/tx90l/joint_states"),
             what="the unregistration")
    with pytest.raises(RuntimeError, match="initialize"):
        interface.setPiecewiseLinear([1.0], [[0.0] * 6])
    # and it initializes again
    assert interface.initialize(False)
