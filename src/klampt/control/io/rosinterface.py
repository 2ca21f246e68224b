"""A Robot Interface Layer interface to a ROS 1 robot.

- :class:`RosRobotInterface` is a
  :class:`~klampt.control.robotinterface.RobotInterfaceBase` that senses the
  robot from JointState messages and commands it with JointTrajectory
  messages.
- :func:`make` is the controllerFile entry point: it subscribes to
  ``/[robot_name]/joint_states`` and publishes
  ``/[robot_name]/joint_trajectory``.

They need ``rospy`` and the sensor and trajectory message packages; without
them, building one raises RuntimeError (importing this module does not need
ROS).
"""
from klampt.model.trajectory import Trajectory

from ..robotinterface import RobotInterfaceBase
from ._ros import ensure_node, require_ros_io, require_rospy

ros_initialized = False
"""True once a :class:`RosRobotInterface` has made sure this process runs a
ROS node (starting one if none ran)."""


class RosRobotInterface(RobotInterfaceBase):
    """A robot that publishes JointState messages and accepts JointTrajectory
    commands, as a Robot Interface Layer interface (asynchronous: rospy
    delivers the states in its own thread).

    Its joints are the Klamp't model's drivers; the ROS joint names are the
    names of the links they move.  The JointState names must be links of the
    model (sensedPosition() and co. raise ValueError naming the one that is
    not); links the message leaves out keep the model's current values.

    ``initialize()`` starts this process's ROS node unless one runs already
    (``initialize(False)`` never does: start it yourself first), then
    subscribes and advertises.  ``close()`` unregisters them; call it before
    initializing again.

    Args:
        robot (RobotModel): the Klamp't model of the robot.
        joint_state_sub_topic (str): the JointState topic to read.
        joint_trajectory_pub_topic (str): the JointTrajectory topic to
            command.
    """

    def __init__(self, robot, joint_state_sub_topic, joint_trajectory_pub_topic):
        require_rospy("RosRobotInterface")
        self._ros = require_ros_io("RosRobotInterface")
        RobotInterfaceBase.__init__(self, asynchronous=True)
        self.robot = robot
        self.link_list = [robot.link(i).getName() for i in range(robot.numLinks())]
        self.driver_list = [robot.link(robot.driver(i).getAffectedLink()).getName() for i in range(robot.numDrivers())]
        self.link_dict = dict((n, i) for i, n in enumerate(self.link_list))
        self.joint_state_sub_topic = joint_state_sub_topic
        self.joint_trajectory_pub_topic = joint_trajectory_pub_topic
        self.last_joint_state = None
        self.joint_state_sub = None
        self.joint_trajectory_pub = None
        self.pub_seq = 0
        self._commanded = None

    def initialize(self, init_ros=True):
        """Starts the ROS node if init_ros and none runs, then subscribes to
        the JointState topic and advertises the JointTrajectory one."""
        global ros_initialized
        import rospy
        if init_ros:
            ensure_node('klampt_RosRobotInterface')
            ros_initialized = True
        elif not rospy.core.is_initialized():
            raise RuntimeError("RosRobotInterface.initialize(False) needs a ROS node: call rospy.init_node first")
        ros = self._ros
        self.joint_state_sub = rospy.Subscriber(self.joint_state_sub_topic, ros.JointState, self.jointStateCallback)
        self.joint_trajectory_pub = rospy.Publisher(self.joint_trajectory_pub_topic, ros.JointTrajectory,
                                                    queue_size=10)
        return True

    def close(self):
        """Unregisters the subscriber and the publisher."""
        if self.joint_state_sub is not None:
            self.joint_state_sub.unregister()
            self.joint_state_sub = None
        if self.joint_trajectory_pub is not None:
            self.joint_trajectory_pub.unregister()
            self.joint_trajectory_pub = None
        return True

    def jointStateCallback(self, jointState):
        """Stores the latest JointState message (called from rospy's
        thread)."""
        self.last_joint_state = jointState

    def klamptModel(self):
        """The Klamp't RobotModel given to the constructor."""
        return self.robot

    def clock(self):
        """The ROS time, s."""
        import rospy
        return rospy.get_rostime().to_sec()

    def status(self):
        """'ok'."""
        return 'ok'

    def _sensed(self, which):
        """Entry ``which`` of (q, dq, effort) of the last JointState, in link
        space, or None."""
        js = self.last_joint_state
        if js is None:
            return None
        return self._ros.from_JointState(js, self.robot, self.link_dict)[which]

    def sensedPosition(self):
        """The driver positions of the last JointState (None before one
        arrived, or when it has no positions)."""
        q = self._sensed(0)
        return None if q is None else self.configFromKlampt(q)

    def sensedVelocity(self):
        """The driver velocities of the last JointState, or None."""
        dq = self._sensed(1)
        return None if dq is None else self.velocityFromKlampt(dq)

    def sensedTorque(self):
        """The driver efforts of the last JointState, or None."""
        t = self._sensed(2)
        return None if t is None else self.velocityFromKlampt(t)

    def commandedPosition(self):
        """The driver positions the last trajectory command asks for now
        (None before any command)."""
        if self._commanded is None:
            return None
        return [float(v) for v in self._commanded.eval(self.clock(), 'halt')]

    def setPiecewiseLinear(self, ts, qs, relative=True):
        """Publishes a JointTrajectory through the driver positions qs at the
        times ts: from now if relative, else ts are clock() times (the
        message starts at ts[0])."""
        import rospy
        if len(ts) != len(qs) or len(ts) == 0:
            raise ValueError("setPiecewiseLinear needs as many times as milestones (at least one): %d and %d"
                             % (len(ts), len(qs)))
        n = len(self.driver_list)
        for q in qs:
            if len(q) != n:
                raise ValueError("setPiecewiseLinear: a milestone has %d entries, the robot has %d drivers" % (len(q), n))
        if any(b < a for a, b in zip(ts[:-1], ts[1:])):
            raise ValueError("setPiecewiseLinear: times must be nondecreasing")
        if self.joint_trajectory_pub is None:
            raise RuntimeError("RosRobotInterface: call initialize() before sending commands")
        start = rospy.get_rostime() if relative else rospy.Time.from_sec(ts[0])
        offset = 0.0 if relative else ts[0]
        traj = Trajectory([t - offset for t in ts], [[float(v) for v in q] for q in qs])
        msg = self._ros.to_JointTrajectory(traj, link_joint_names=self.driver_list)
        msg.header.seq = self.pub_seq
        msg.header.stamp = start
        self.pub_seq += 1
        self.joint_trajectory_pub.publish(msg)
        self._commanded = Trajectory([t + start.to_sec() for t in traj.times], traj.milestones)


def make(klampt_robot_model):
    """Returns a :class:`RosRobotInterface` for a RobotModel, reading
    ``/[robot_name]/joint_states`` and commanding
    ``/[robot_name]/joint_trajectory`` (call its initialize())."""
    robotName = klampt_robot_model.getName()
    return RosRobotInterface(klampt_robot_model, "/%s/joint_states" % robotName,
                             "/%s/joint_trajectory" % robotName)
