"""ROS 1 robot controller blocks.  They need ``rospy``; without it,
building one raises RuntimeError (importing this module does not need
ROS)."""
from ..blocks.core import Block
from ..blocks.robotcontroller import RobotControllerBlock
from ._ros import require_rospy


class RosRobotBlock(RobotControllerBlock):
    """Relays a robot's state and commands through ROS 1 topics (not
    available: the constructor raises RuntimeError)."""

    def __init__(self, *args, **kwargs):
        require_rospy("RosRobotBlock")
        raise RuntimeError("RosRobotBlock is not implemented: ROS 1 back ends are not provided")


class RosTimeBlock(Block):
    """Publishes the controller clock to ROS 1 (not available: the
    constructor raises RuntimeError)."""

    def __init__(self, *args, **kwargs):
        require_rospy("RosTimeBlock")
        raise RuntimeError("RosTimeBlock is not implemented: ROS 1 back ends are not provided")


def make(klampt_robot_model):
    """The controllerFile entry point (RuntimeError without ROS)."""
    return RosRobotBlock(klampt_robot_model)
