"""The ROS 1 dependency of the ROS back ends, loaded when they are used."""
import importlib


def require_rospy(what):
    """The rospy module, or a RuntimeError saying what needs it."""
    try:
        return importlib.import_module('rospy')
    except ImportError:
        raise RuntimeError("%s needs ROS 1 (rospy), which is not installed" % what)


def require_ros_io(what):
    """klampt.io.ros (the message conversions), or a RuntimeError saying what
    needs ROS 1 and which part of it is missing."""
    require_rospy(what)
    try:
        return importlib.import_module('klampt.io.ros')
    except ImportError as e:
        raise RuntimeError("%s needs ROS 1's message packages: %s" % (what, e))


def ensure_node(name):
    """Starts this process's ROS node (anonymous, leaving signal handling to
    the application) unless one runs already: rospy allows one init_node per
    process.  Returns True when it started the node."""
    rospy = require_rospy(name)
    if rospy.core.is_initialized():
        return False
    rospy.init_node(name, anonymous=True, disable_signals=True)
    return True
