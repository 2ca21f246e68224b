"""The ROS 1 pieces :mod:`klampt.io.ros` is built on: rospy and the message
classes, imported here once, with an ImportError that names the Debian
packages to install when one is missing.
"""

try:
    import rospy
    from std_msgs.msg import Float32MultiArray, Header
    from geometry_msgs.msg import (Vector3, Point, Quaternion, Pose, Transform, PoseStamped,
                                   TransformStamped, WrenchStamped)
    from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
    from shape_msgs.msg import Mesh, MeshTriangle
    from nav_msgs.msg import Path
    from sensor_msgs.msg import JointState, PointCloud2, PointField, Image, CameraInfo, LaserScan
except ImportError as e:
    raise ImportError(
        "klampt.io.ros needs ROS 1's rospy and message packages (on Debian: python3-rospy "
        "python3-std-msgs python3-geometry-msgs python3-sensor-msgs python3-nav-msgs "
        "python3-trajectory-msgs python3-shape-msgs): " + str(e)) from e

__all__ = ['rospy', 'Float32MultiArray', 'Header', 'Vector3', 'Point', 'Quaternion', 'Pose', 'Transform', 'PoseStamped',
           'TransformStamped', 'WrenchStamped', 'JointTrajectory', 'JointTrajectoryPoint', 'Mesh', 'MeshTriangle',
           'Path', 'JointState', 'PointCloud2', 'PointField', 'Image', 'CameraInfo', 'LaserScan']
