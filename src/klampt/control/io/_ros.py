"""The ROS 1 dependency of the ROS back ends, loaded when they are used."""
import importlib


def require_rospy(what):
    """The rospy module, or a RuntimeError saying what needs it."""
    try:
        return importlib.import_module('rospy')
    except ImportError:
        raise RuntimeError("%s needs ROS 1 (rospy), which is not installed" % what)
