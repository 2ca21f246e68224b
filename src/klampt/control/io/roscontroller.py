"""ROS 1 robot controller blocks: a simulated robot driven by a ROS
application.

- :class:`RosRobotBlock` is a
  :class:`~klampt.control.blocks.robotcontroller.RobotControllerBlock` that
  follows the JointTrajectory messages of a ROS topic and publishes the
  robot's JointState on another.
- :class:`RosTimeBlock` publishes the controller's clock on ``/clock``.
- :func:`make` is the controllerFile entry point (``klampt_control``,
  simulators): it subscribes to ``/[robot_name]/joint_trajectory``, publishes
  ``/[robot_name]/joint_states`` and, the first time, ``/clock``.

They need ``rospy`` and the sensor, trajectory and rosgraph message packages;
without them, building one raises RuntimeError (importing this module does
not need ROS).
"""
import warnings

from klampt.model.trajectory import HermiteTrajectory, Trajectory

from ..blocks.core import Block
from ..blocks.robotcontroller import RobotControllerBlock
from ._ros import ensure_node, require_ros_io, require_rospy

ros_initialized = False
"""True once :func:`make` has made sure this process runs a ROS node
(starting one if none ran) and published the clock."""


class RosRobotBlock(RobotControllerBlock):
    """A controller that reads JointTrajectory messages from a ROS topic,
    follows them, and writes the robot's JointState messages to another
    topic, much like ROS's JointTrajectoryActionController.

    A message's points give, per joint it names:

    - positions and velocities: a cubic Hermite trajectory (``qcmd`` and
      ``dqcmd`` outputs);
    - positions only: a piecewise linear one (``qcmd`` and its derivative as
      ``dqcmd``);
    - velocities only: a velocity command (``dqcmd`` with ``tcmd``, the time
      step ``dt`` when given, else 1 s);
    - efforts (alone or with the above): feedforward torques (``torquecmd``).

    A trajectory starts at its header's stamp (Klamp't time, so ROS nodes
    talking to it should set ``/use_sim_time``), or at the time of the
    :meth:`advance` that reads it when the stamp is zero; each point's
    ``time_from_start`` counts from there.  A message naming the same joints
    as the current trajectory replaces it from its start time on; one naming
    other joints replaces it altogether.  Joints a message does not name keep
    the incoming command (``qcmd``, else the sensed ``q``), zero velocity and
    zero torque.  Accelerations are ignored (with a warning), as are PID gains
    and action goals.

    Args:
        joint_trajectory_sub_topic (str): the JointTrajectory topic to follow.
        joint_state_pub_topic (str): the topic the JointState is published on.
        link_list (list of str): the Klamp't robot's link names, in order; the
            JointState and trajectory joint names are these.
        publish_clock (bool): also publish each advance's ``t`` on ``/clock``
            (as a :class:`RosTimeBlock`).
    """

    def __init__(self, joint_trajectory_sub_topic, joint_state_pub_topic, link_list, publish_clock=False):
        rospy = require_rospy("RosRobotBlock")
        ros = require_ros_io("RosRobotBlock")
        RobotControllerBlock.__init__(self)
        self.state = ros.JointState()
        self.state.name = [str(n) for n in link_list]
        self.nameToIndex = dict((n, i) for i, n in enumerate(self.state.name))
        if len(self.nameToIndex) != len(self.state.name):
            raise ValueError("RosRobotBlock: link_list has repeated names")
        self.clock = RosTimeBlock() if publish_clock else None
        self.pub = rospy.Publisher(joint_state_pub_topic, ros.JointState, queue_size=10)
        self.jointTrajectoryRosMsgQueue = []
        self.sub = rospy.Subscriber(joint_trajectory_sub_topic, ros.JointTrajectory, self.jointTrajectoryCallback)
        self.currentTrajectoryStart = 0
        self.currentTrajectoryNames = []
        self.currentPhaseTrajectory = None
        self.currentPositionTrajectory = None
        self.currentVelocityTrajectory = None
        self.currentEffortTrajectory = None

    def jointTrajectoryCallback(self, msg):
        """Queues a JointTrajectory message for the next :meth:`advance`
        (called from rospy's thread)."""
        self.jointTrajectoryRosMsgQueue.append(msg)

    def set_index(self, name, index):
        """Maps the ROS joint ``name`` to the link index ``index``."""
        self.nameToIndex[name] = index

    def close(self):
        """Unregisters the topics."""
        self.sub.unregister()
        self.pub.unregister()
        if self.clock is not None:
            self.clock.clockpub.unregister()

    def _splice(self, current, traj, start, same_joints):
        """traj (times relative to start) spliced into current at start."""
        if current is None or not same_joints:
            return traj.constructor()([t + start for t in traj.times], traj.milestones)
        return current.splice(traj, time=start, relative=True, jumpPolicy='blend')

    def _read(self, msg, t):
        """Folds one JointTrajectory message into the current trajectories."""
        names = list(msg.joint_names)
        for n in names:
            if n not in self.nameToIndex:
                raise ValueError("RosRobotBlock: JointTrajectory names joint %r, which is not a link of the robot" % n)
        fields = {}
        for field in ('positions', 'velocities', 'accelerations', 'effort'):
            values = [list(getattr(p, field)) for p in msg.points]
            for v in values:
                if len(v) not in (0, len(names)):
                    raise ValueError("RosRobotBlock: a JointTrajectory point has %d %s for %d joints"
                                     % (len(v), field, len(names)))
            fields[field] = values if values and all(len(v) != 0 for v in values) else None
        if fields['accelerations'] is not None:
            warnings.warn("RosRobotBlock: JointTrajectory accelerations are ignored", RuntimeWarning)
        stamp = msg.header.stamp.to_sec()
        start = stamp if stamp != 0 else t
        times = [p.time_from_start.to_sec() for p in msg.points]
        same = names == self.currentTrajectoryNames
        self.currentTrajectoryStart = start
        self.currentTrajectoryNames = names
        positions, velocities = fields['positions'], fields['velocities']
        if positions is not None:
            self.currentVelocityTrajectory = None
            if velocities is not None:
                self.currentPositionTrajectory = None
                self.currentPhaseTrajectory = self._splice(self.currentPhaseTrajectory,
                                                           HermiteTrajectory(times, positions, velocities), start, same)
            else:
                self.currentPhaseTrajectory = None
                self.currentPositionTrajectory = self._splice(self.currentPositionTrajectory,
                                                              Trajectory(times, positions), start, same)
        else:
            self.currentPhaseTrajectory = None
            self.currentPositionTrajectory = None
            if velocities is not None:
                self.currentVelocityTrajectory = self._splice(self.currentVelocityTrajectory,
                                                              Trajectory(times, velocities), start, same)
            else:
                self.currentVelocityTrajectory = None
        if fields['effort'] is not None:
            self.currentEffortTrajectory = self._splice(self.currentEffortTrajectory,
                                                        Trajectory(times, fields['effort']), start, same)
        else:
            self.currentEffortTrajectory = None

    def advance(self, **inputs):
        """Reads the queued JointTrajectory messages, publishes the sensed
        ``q``, ``dq`` and ``torque`` as a JointState, and returns the
        trajectory's command at time ``t``.  A malformed message (unknown
        joint, wrong number of values) raises ValueError and is dropped."""
        import rospy
        t = inputs['t']
        msgs, self.jointTrajectoryRosMsgQueue = self.jointTrajectoryRosMsgQueue, []
        for msg in msgs:
            self._read(msg, t)
        if self.clock is not None:
            self.clock.advance(t)
        res = {}
        names = self.currentTrajectoryNames
        n = len(self.state.name)
        hold = inputs.get('qcmd') if inputs.get('qcmd') is not None else inputs.get('q')
        if self.currentPhaseTrajectory is not None:
            self.map_output(self.currentPhaseTrajectory.eval(t, 'halt'), names, res, 'qcmd', hold)
            self.map_output(self.currentPhaseTrajectory.deriv(t, 'halt'), names, res, 'dqcmd')
        elif self.currentPositionTrajectory is not None:
            self.map_output(self.currentPositionTrajectory.eval(t, 'halt'), names, res, 'qcmd', hold)
            self.map_output(self.currentPositionTrajectory.deriv(t, 'halt'), names, res, 'dqcmd')
        elif self.currentVelocityTrajectory is not None:
            self.map_output(self.currentVelocityTrajectory.eval(t, 'halt'), names, res, 'dqcmd')
            res['tcmd'] = inputs['dt'] if inputs.get('dt') else 1.0
        if self.currentEffortTrajectory is not None:
            self.map_output(self.currentEffortTrajectory.eval(t, 'halt'), names, res, 'torquecmd')
        self.state.header.stamp = rospy.get_rostime()
        self.state.header.seq += 1
        for key, field in (('q', 'position'), ('dq', 'velocity'), ('torque', 'effort')):
            value = inputs.get(key)
            if value is not None:
                if len(value) != n:
                    raise ValueError("RosRobotBlock: %s has %d entries for %d links" % (key, len(value), n))
                setattr(self.state, field, [float(v) for v in value])
        self.pub.publish(self.state)
        return res

    def map_output(self, vector, names, output_map, output_name, default=None):
        """Writes the values of the joints ``names`` (``vector``) into the
        link vector ``output_map[output_name]``.  A vector not yet in
        output_map starts as a copy of ``default`` (zeros if None)."""
        if output_name in output_map:
            val = output_map[output_name]
        elif default is not None:
            val = [float(v) for v in default]
        else:
            val = [0.0] * len(self.state.name)
        for name, v in zip(names, vector):
            val[self.nameToIndex[name]] = float(v)
        output_map[output_name] = val


class RosTimeBlock(Block):
    """A block that publishes its input ``t`` (simulation time, s) on the
    ROS topic ``/clock``.  It has no outputs."""

    def __init__(self):
        rospy = require_rospy("RosTimeBlock")
        try:
            from rosgraph_msgs.msg import Clock
        except ImportError as e:
            raise RuntimeError("RosTimeBlock needs ROS 1's rosgraph_msgs: %s" % e)
        Block.__init__(self, ['t'], 0)
        self.clockpub = rospy.Publisher("/clock", Clock, queue_size=10)

    def advance(self, t):
        """Publishes the time t."""
        import rospy
        from rosgraph_msgs.msg import Clock
        self.clockpub.publish(Clock(clock=rospy.Time.from_sec(t)))


def make(klampt_robot_model):
    """Returns a :class:`RosRobotBlock` for a RobotModel: it follows
    ``/[robot_name]/joint_trajectory`` and publishes
    ``/[robot_name]/joint_states``.  The first call also starts this process's
    ROS node (unless one runs) and makes the block publish ``/clock``; it sets
    :data:`ros_initialized`."""
    global ros_initialized
    robotName = klampt_robot_model.getName()
    linkNames = [klampt_robot_model.link(i).getName() for i in range(klampt_robot_model.numLinks())]
    first = not ros_initialized
    if first:
        ensure_node('klampt_sim')
        ros_initialized = True
    return RosRobotBlock("/%s/joint_trajectory" % robotName, "/%s/joint_states" % robotName, linkNames,
                         publish_clock=first)
