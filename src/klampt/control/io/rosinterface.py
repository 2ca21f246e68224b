"""A Robot Interface Layer interface to a ROS 1 robot (JointState in,
JointTrajectory out).  It needs ``rospy``; without it, building one raises
RuntimeError (importing this module does not need ROS)."""
from ..robotinterface import RobotInterfaceBase
from ._ros import require_rospy


class RosRobotInterface(RobotInterfaceBase):
    """A robot driven through ROS 1 topics.  Not available in this
    installation unless rospy is: the constructor raises RuntimeError."""

    def __init__(self, robot, joint_state_sub_topic, joint_trajectory_pub_topic):
        require_rospy("RosRobotInterface")
        raise RuntimeError("RosRobotInterface is not implemented: ROS 1 back ends are not provided")


def make(klampt_robot_model):
    """The controllerFile entry point (RuntimeError without ROS)."""
    return RosRobotInterface(klampt_robot_model, '/%s/joint_state' % klampt_robot_model.getName(),
                             '/%s/joint_trajectory' % klampt_robot_model.getName())
