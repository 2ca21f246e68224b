"""Conversions between Klamp't objects and ROS 1 messages, with publishers,
subscribers and tf broadcasting built on them.

``toMsg(klampt_obj)`` and ``fromMsg(ros_msg)`` pick the converter from the
object's type (see :data:`SUPPORTED_KLAMPT_TYPES`); the ``to_X`` / ``from_X``
functions convert to / from the ROS message type ``X``. :func:`publisher`,
:func:`object_publisher`, :func:`subscriber` and :func:`object_subscriber`
publish Klamp't objects and deliver them from topics; :func:`broadcast_tf` and
:func:`listen_tf` exchange robot, object and sensor frames with tf.

Needs ROS 1's rospy with the std, geometry, sensor, nav, trajectory and shape
message packages (on Debian: python3-rospy, python3-std-msgs,
python3-geometry-msgs, python3-sensor-msgs, python3-nav-msgs,
python3-trajectory-msgs, python3-shape-msgs; tf needs python3-tf2-ros).

Time stamps (``stamp`` arguments) are 'now', a number of seconds or a
``rospy.Time``. 'now' is the ROS time once ``rospy.init_node`` has run, the
wall clock before.
"""

from klampt.math import so3, se3
from ._ros_messages import (  # noqa: F401  (the ROS classes, reached through this module as in Klamp't)
    rospy, Float32MultiArray, Header, Vector3, Point, Quaternion, Pose, Transform, PoseStamped, TransformStamped,
    WrenchStamped, JointTrajectory, JointTrajectoryPoint, Mesh, MeshTriangle, Path, JointState, PointCloud2,
    PointField, Image, CameraInfo, LaserScan)
from ._ros_motion_convert import (
    from_Vector3, to_Vector3, from_Point, to_Point, from_Quaternion, to_Quaternion, from_Pose, to_Pose,
    from_Transform, to_Transform, from_PoseStamped, to_PoseStamped, from_TransformStamped, to_TransformStamped,
    from_JointState, to_JointState, from_Float32MultiArray, to_Float32MultiArray, from_JointTrajectory,
    to_JointTrajectory, to_Path, from_Path)
from ._ros_sensor_convert import (
    from_Mesh, to_Mesh, from_PointCloud2, to_PointCloud2, to_CameraInfo, from_CameraInfo, to_SensorMsg,
    to_ShapeMsg)
from ._ros_topics import (
    SUPPORTED_KLAMPT_TYPES, fromMsg, toMsg, KlamptROSPublisher, KlamptROSCameraPublisher, publisher_SensorModel,
    publisher_SimRobotSensor, publisher, object_publisher, subscriber, object_subscriber)
from ._ros_tf import broadcast_tf, listen_tf

__all__ = [
    'from_Vector3', 'to_Vector3', 'from_Point', 'to_Point', 'from_Quaternion', 'to_Quaternion', 'from_Pose',
    'to_Pose', 'from_Transform', 'to_Transform', 'from_PoseStamped', 'to_PoseStamped', 'from_TransformStamped',
    'to_TransformStamped', 'from_JointState', 'to_JointState', 'from_Float32MultiArray', 'to_Float32MultiArray',
    'from_JointTrajectory', 'to_JointTrajectory', 'to_Path', 'from_Path', 'from_Mesh', 'to_Mesh',
    'from_PointCloud2', 'to_PointCloud2', 'to_CameraInfo', 'from_CameraInfo', 'to_SensorMsg', 'to_ShapeMsg',
    'SUPPORTED_KLAMPT_TYPES', 'fromMsg', 'toMsg', 'KlamptROSPublisher', 'KlamptROSCameraPublisher',
    'publisher_SensorModel', 'publisher_SimRobotSensor', 'publisher', 'object_publisher', 'subscriber',
    'object_subscriber', 'broadcast_tf', 'listen_tf', 'so3', 'se3']

# Documented, printed and pickled as this module's, as in Klamp't.
for _obj in (
        from_Vector3, to_Vector3, from_Point, to_Point, from_Quaternion, to_Quaternion, from_Pose, to_Pose,
        from_Transform, to_Transform, from_PoseStamped, to_PoseStamped, from_TransformStamped,
        to_TransformStamped, from_JointState, to_JointState, from_Float32MultiArray, to_Float32MultiArray,
        from_JointTrajectory, to_JointTrajectory, to_Path, from_Path, from_Mesh, to_Mesh, from_PointCloud2,
        to_PointCloud2, to_CameraInfo, from_CameraInfo, to_SensorMsg, to_ShapeMsg, fromMsg, toMsg,
        KlamptROSPublisher, KlamptROSCameraPublisher, publisher_SensorModel, publisher, object_publisher,
        subscriber, object_subscriber, broadcast_tf, listen_tf):
    _obj.__module__ = __name__
del _obj
