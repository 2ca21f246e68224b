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

import math
import sys
import time

import numpy as np

from klampt import Geometry3D, PointCloud, RobotModel, SimRobotController, Simulator, TriangleMesh, WorldModel
from klampt.math import so3, se3
from klampt.model import types
from klampt.model.trajectory import RobotTrajectory, SE3Trajectory, SO3Trajectory, Trajectory

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


def _stamp(stamp):
    """A rospy.Time from 'now', a number of seconds, a rospy.Time or None (zero)."""
    if isinstance(stamp, str):
        if stamp != 'now':
            raise ValueError("Invalid stamp " + repr(stamp) + ": must be 'now', seconds or a rospy.Time")
        if rospy.rostime.is_rostime_initialized():
            return rospy.Time.now()
        return rospy.Time.from_sec(time.time())
    if stamp is None:
        return rospy.Time(0)
    if isinstance(stamp, (int, float)):
        return rospy.Time.from_sec(float(stamp))
    return stamp


def from_Vector3(ros_v):
    """From ROS Vector3 to Klamp't point"""
    return [ros_v.x, ros_v.y, ros_v.z]


def to_Vector3(klampt_pt):
    """From Klamp't point to ROS Vector3"""
    return Vector3(*[float(v) for v in klampt_pt[:3]])


def from_Point(ros_pt):
    """From ROS Point to Klamp't point"""
    return [ros_pt.x, ros_pt.y, ros_pt.z]


def to_Point(klampt_pt):
    """From Klamp't point to ROS Point"""
    return Point(*[float(v) for v in klampt_pt[:3]])


def from_Quaternion(ros_q):
    """From ROS Quaternion to Klamp't so3 element"""
    return so3.from_quaternion([ros_q.w, ros_q.x, ros_q.y, ros_q.z])


def to_Quaternion(klampt_so3):
    """From Klamp't so3 element to ROS Quaternion"""
    w, x, y, z = so3.quaternion(klampt_so3)
    return Quaternion(x=x, y=y, z=z, w=w)


def from_Pose(ros_pose):
    """From ROS Pose to Klamp't se3 element"""
    return (from_Quaternion(ros_pose.orientation), from_Point(ros_pose.position))


def to_Pose(klampt_se3):
    """From Klamp't se3 element to ROS Pose"""
    return Pose(position=to_Point(klampt_se3[1]), orientation=to_Quaternion(klampt_se3[0]))


def from_Transform(ros_transform):
    """From ROS Transform to Klamp't se3 element"""
    return (from_Quaternion(ros_transform.rotation), from_Vector3(ros_transform.translation))


def to_Transform(klampt_se3):
    """From Klamp't se3 element to ROS Transform"""
    return Transform(translation=to_Vector3(klampt_se3[1]), rotation=to_Quaternion(klampt_se3[0]))


def from_PoseStamped(ros_pose):
    """From ROS PoseStamped to Klamp't se3 element (the header is dropped)"""
    return from_Pose(ros_pose.pose)


def to_PoseStamped(klampt_se3, stamp='now', frame=''):
    """From Klamp't se3 element to ROS PoseStamped with the given stamp and
    frame_id."""
    msg = PoseStamped(pose=to_Pose(klampt_se3))
    msg.header.stamp = _stamp(stamp)
    msg.header.frame_id = frame
    return msg


def from_TransformStamped(ros_transform):
    """From ROS TransformStamped (a tf frame) to Klamp't se3 element: the
    child frame's pose in the header's frame."""
    return from_Transform(ros_transform.transform)


def to_TransformStamped(klampt_se3, child_frame, parent_frame='world', stamp='now'):
    """From Klamp't se3 element, the pose of ``child_frame`` in
    ``parent_frame``, to ROS TransformStamped (a tf frame)."""
    msg = TransformStamped(transform=to_Transform(klampt_se3), child_frame_id=child_frame)
    msg.header.stamp = _stamp(stamp)
    msg.header.frame_id = parent_frame
    return msg


def _joint_link_indices(robot, joint_link_indices):
    if joint_link_indices is not None:
        return joint_link_indices
    return {robot.link(i).getName(): i for i in range(robot.numLinks())}


def from_JointState(ros_js, robot, joint_link_indices=None):
    """From ROS JointState to Klamp't robot configuration, velocity and
    effort. Links that the message does not name keep the robot's current
    values (zero effort).

    Args:
        ros_js (sensor_msgs.msg.JointState): the JointState message
        robot (RobotModel): the robot
        joint_link_indices (dict, optional): if given, maps ROS joint names to
            Klampt link indices.  Default uses the Klamp't link names.

    Returns:
        tuple: (config, velocity, effort), each a list of robot.numLinks()
        values, or None if the message has no positions, velocities or
        efforts.
    """
    indices = _joint_link_indices(robot, joint_link_indices)
    n = len(ros_js.name)
    for field in ('position', 'velocity', 'effort'):
        if len(getattr(ros_js, field)) not in (0, n):
            raise ValueError("JointState has %d names but %d %s values" % (n, len(getattr(ros_js, field)), field))
    q = list(robot.getConfig()) if len(ros_js.position) > 0 else None
    dq = list(robot.getVelocity()) if len(ros_js.velocity) > 0 else None
    effort = [0.0] * robot.numLinks() if len(ros_js.effort) > 0 else None
    for i, name in enumerate(ros_js.name):
        if name not in indices:
            raise ValueError("ROS JointState message has a joint name that is not a link: " + name)
        link = indices[name]
        if q is not None:
            q[link] = ros_js.position[i]
        if dq is not None:
            dq[link] = ros_js.velocity[i]
        if effort is not None:
            effort[link] = ros_js.effort[i]
    return (q, dq, effort)


def _controller_vector(controller, what, kind):
    """The controller's commanded / sensed / actual config, velocity or torque."""
    if what == 'commanded':
        return getattr(controller, 'getCommanded' + kind)()
    if what == 'sensed':
        return getattr(controller, 'getSensed' + kind)()
    return getattr(controller.sim, 'getActual' + kind)(controller.index)


def _link_effort(robot, effort):
    """Link-level efforts from a driver-level (or already link-level) torque vector."""
    if len(effort) == robot.numLinks():
        return list(effort)
    if len(effort) != robot.numDrivers():
        raise ValueError("Invalid size of effort vector: %d, the robot has %d links and %d drivers"
                         % (len(effort), robot.numLinks(), robot.numDrivers()))
    linkeffort = [0.0] * robot.numLinks()
    for i in range(robot.numDrivers()):
        d = robot.driver(i)
        links = d.getAffectedLinks()
        scales = d.getAffineCoeffs()[0] if d.getType() == 'affine' else [1.0] * len(links)
        for link, scale in zip(links, scales):
            linkeffort[link] = scale * effort[i]
    return linkeffort


def to_JointState(robot, q='current', dq='current', effort=None, indices='auto', link_joint_names=None):
    """Returns a ROS JointState message for a Klamp't robot or controller.

    Args:
        robot (RobotModel or SimRobotController): the robot
        q (str or Config, optional): either 'current', 'commanded', 'sensed',
            'actual', None, or a configuration of size robot.numLinks().

            'commanded', 'sensed', and 'actual' are available only when robot
            is a SimRobotController ('current' is then 'sensed').

        dq (str or Config, optional): either 'current', 'commanded', 'sensed',
            'actual', None, or a joint velocity vector of size robot.numLinks()
        effort (str or Config, optional): either 'commanded', 'sensed',
            'actual', None, or a torque vector of size robot.numDrivers() or
            robot.numLinks().
        indices (str or list of int): if 'auto', all links are set.
            Otherwise, only these link indices are set.
        link_joint_names (list of str, optional): if given, the i'th link is
            mapped to the ROS joint name link_joint_names[i].
    """
    controller = robot if isinstance(robot, SimRobotController) else None
    values = {}
    for key, value, kind in (('q', q, 'Config'), ('dq', dq, 'Velocity'), ('effort', effort, 'Torque')):
        if isinstance(value, str):
            if value == 'current' and key != 'effort':
                if controller is None:
                    value = robot.getConfig() if key == 'q' else robot.getVelocity()
                else:
                    value = _controller_vector(controller, 'sensed', kind)
            elif value in ('commanded', 'sensed', 'actual'):
                if controller is None:
                    raise ValueError("%s=%r needs a SimRobotController" % (key, value))
                value = _controller_vector(controller, value, kind)
            else:
                raise ValueError("Invalid %s: %r" % (key, value))
        values[key] = value
    if controller is not None:
        robot = controller.model()
    q, dq, effort = values['q'], values['dq'], values['effort']
    if q is not None and len(q) != robot.numLinks():
        raise ValueError("Invalid size of q vector: %d, the robot has %d links" % (len(q), robot.numLinks()))
    if dq is not None and len(dq) != robot.numLinks():
        raise ValueError("Invalid size of dq vector: %d, the robot has %d links" % (len(dq), robot.numLinks()))
    if effort is not None:
        effort = _link_effort(robot, effort)
    if indices == 'auto':
        indices = range(robot.numLinks())
    js = JointState()
    for link in indices:
        js.name.append(link_joint_names[link] if link_joint_names is not None else robot.link(link).getName())
        if q is not None:
            js.position.append(float(q[link]))
        if dq is not None:
            js.velocity.append(float(dq[link]))
        if effort is not None:
            js.effort.append(float(effort[link]))
    return js


def from_Float32MultiArray(ros_msg):
    """From ROS Float32MultiArray to Klamp't Config"""
    return [float(v) for v in ros_msg.data]


def to_Float32MultiArray(klampt_config):
    """From Klamp't Config (or any vector) to ROS Float32MultiArray"""
    return Float32MultiArray(data=[float(v) for v in klampt_config])


def from_JointTrajectory(ros_traj, robot=None, joint_link_indices=None):
    """Returns a Klamp't Trajectory, or a RobotTrajectory if ``robot`` is
    given, for a JointTrajectory message.

    With a robot, the milestones are full configurations: joints the message
    does not name keep the robot's current values.

    Args:
        ros_traj (trajectory_msgs.msg.JointTrajectory): the JointTrajectory
        robot (RobotModel): the robot, optional
        joint_link_indices (dict, optional): if given, maps ROS joint names to
            Klampt link indices.  Default uses the Klamp't link names.
    """
    times = [p.time_from_start.to_sec() for p in ros_traj.points]
    if robot is None:
        return Trajectory(times, [[float(v) for v in p.positions] for p in ros_traj.points])
    names = _joint_link_indices(robot, joint_link_indices)
    indices = []
    for n in ros_traj.joint_names:
        if n not in names:
            raise ValueError("ROS joint name %s is not a link of the robot" % (n,))
        indices.append(names[n])
    milestones = []
    for p in ros_traj.points:
        if len(p.positions) != len(indices):
            raise ValueError("JointTrajectory point has %d positions for %d joints" % (len(p.positions), len(indices)))
        q = list(robot.getConfig())
        for k, v in zip(indices, p.positions):
            q[k] = v
        milestones.append(q)
    return RobotTrajectory(robot, times, milestones)


def to_JointTrajectory(klampt_traj, indices='auto', link_joint_names=None):
    """Returns a ROS JointTrajectory message for a Klamp't Trajectory or
    RobotTrajectory.

    Args:
        klampt_traj (Trajectory or RobotTrajectory): the trajectory
        indices (str or list of ints): the link indices to send (only valid
            with RobotTrajectory); 'auto' sends every link.
        link_joint_names (list of str, optional): if given, the i'th link
            (milestone entry for a Trajectory) is named link_joint_names[i].
            A Trajectory's entries are otherwise named '0', '1', ...
    """
    res = JointTrajectory()
    if len(klampt_traj.milestones) == 0:
        return res
    robot = getattr(klampt_traj, 'robot', None)
    n = len(klampt_traj.milestones[0])
    if robot is None:
        if indices != 'auto':
            raise ValueError("indices can only be given with a RobotTrajectory")
        indices = list(range(n))
        if link_joint_names is None:
            link_joint_names = [str(i) for i in indices]
        elif len(link_joint_names) != n:
            raise ValueError("link_joint_names has %d names for milestones of size %d" % (len(link_joint_names), n))
    else:
        if n != robot.numLinks():
            raise ValueError("Milestones have size %d, the robot has %d links" % (n, robot.numLinks()))
        if indices == 'auto':
            indices = list(range(n))
        if link_joint_names is None:
            link_joint_names = [robot.link(i).getName() for i in range(n)]
    res.joint_names = [link_joint_names[i] for i in indices]
    for t, q in zip(klampt_traj.times, klampt_traj.milestones):
        res.points.append(JointTrajectoryPoint(positions=[float(q[i]) for i in indices],
                                               time_from_start=rospy.Duration.from_sec(t)))
    return res


def to_Path(klampt_path, start_time='now', frame='1'):
    """Converts a Klampt SE3Trajectory, SO3Trajectory, or 2D or 3D Trajectory
    to a ROS Path.

    start_time is the stamp of the path; each pose is stamped start_time plus
    its time. frame is the frame_id in the headers (1 means global frame).
    """
    rospath = Path()
    start_time = _stamp(start_time)
    rospath.header.stamp = start_time
    rospath.header.frame_id = frame
    if isinstance(klampt_path, SE3Trajectory):
        milestone_to_se3 = klampt_path.to_se3
    elif isinstance(klampt_path, SO3Trajectory):
        milestone_to_se3 = lambda x: (x, [0.0, 0.0, 0.0])
    else:
        milestone_to_se3 = None
        if len(klampt_path.milestones) > 0 and len(klampt_path.milestones[0]) not in (2, 3):
            raise ValueError("Only 2D and 3D trajectories (or SO3 / SE3 ones) can be paths")
    for t, x in zip(klampt_path.times, klampt_path.milestones):
        if milestone_to_se3 is None:
            T = (so3.identity(), [x[0], x[1], x[2] if len(x) == 3 else 0.0])
        else:
            T = milestone_to_se3(x)
        ps = PoseStamped(pose=to_Pose(T))
        ps.header.seq = len(rospath.poses)
        ps.header.stamp = start_time + rospy.Duration.from_sec(t)
        ps.header.frame_id = frame
        rospath.poses.append(ps)
    return rospath


def from_Path(ros_path):
    """Converts a ROS Path to a Klamp't SE3Trajectory.

    Times are the poses' stamps relative to the path header's stamp.
    """
    times = [(p.header.stamp - ros_path.header.stamp).to_sec() for p in ros_path.poses]
    return SE3Trajectory(times, [from_Pose(p.pose) for p in ros_path.poses])


def from_Mesh(ros_mesh):
    """From a ROS Mesh to a Klampt TriangleMesh"""
    mesh = TriangleMesh()
    mesh.setVertices(np.array([[v.x, v.y, v.z] for v in ros_mesh.vertices], dtype=float).reshape(-1, 3))
    mesh.setIndices(np.array([list(t.vertex_indices) for t in ros_mesh.triangles], dtype=np.int32).reshape(-1, 3))
    return mesh


def to_Mesh(klampt_mesh):
    """From a Klampt Geometry3D or TriangleMesh to a ROS Mesh. A Geometry3D's
    vertices are moved by its current transform."""
    if isinstance(klampt_mesh, Geometry3D):
        if klampt_mesh.type() != 'TriangleMesh':
            raise ValueError("Geometry3D of type %s is not a TriangleMesh" % klampt_mesh.type())
        mesh = klampt_mesh.getTriangleMesh()
        T = klampt_mesh.getCurrentTransform()
        if T != se3.identity():
            mesh.transform(*T)
        klampt_mesh = mesh
    ros_mesh = Mesh()
    ros_mesh.vertices = [Point(*p) for p in np.asarray(klampt_mesh.getVertices(), dtype=float).reshape(-1, 3).tolist()]
    ros_mesh.triangles = [MeshTriangle(t) for t in np.asarray(klampt_mesh.getIndices()).reshape(-1, 3).tolist()]
    return ros_mesh


#: PointField datatypes as numpy types
_POINTFIELD_DTYPES = {PointField.INT8: 'i1', PointField.UINT8: 'u1', PointField.INT16: 'i2',
                      PointField.UINT16: 'u2', PointField.INT32: 'i4', PointField.UINT32: 'u4',
                      PointField.FLOAT32: 'f4', PointField.FLOAT64: 'f8'}
#: properties holding packed colors: sent as the bits of a FLOAT32 field, as PCL and rviz read them
_PACKED_COLORS = ('rgb', 'rgba')


def from_PointCloud2(ros_pc):
    """From a ROS PointCloud2 to a Klampt PointCloud.

    Fields other than x, y, z become properties (a field of count n > 1
    becomes n properties name0 ... name{n-1}); packed 'rgb' / 'rgba' colors
    keep their integer value (0xRRGGBB). An organized cloud (height > 1)
    gets the width and height settings, a nonzero header seq the id setting.
    """
    order = '>' if ros_pc.is_bigendian else '<'
    names, formats, offsets, props = [], [], [], []
    for f in ros_pc.fields:
        if f.datatype not in _POINTFIELD_DTYPES:
            raise ValueError("PointCloud2 field %s has an unknown datatype %d" % (f.name, f.datatype))
        for j in range(max(f.count, 1)):
            name = f.name if f.count <= 1 else f.name + str(j)
            names.append(name)
            formats.append(order + _POINTFIELD_DTYPES[f.datatype])
            offsets.append(f.offset + j * np.dtype(_POINTFIELD_DTYPES[f.datatype]).itemsize)
            if f.name not in ('x', 'y', 'z'):
                props.append((name, f.name in _PACKED_COLORS and f.datatype == PointField.FLOAT32))
    if not {'x', 'y', 'z'} <= set(names):
        raise ValueError("PointCloud2 message doesn't have x, y, z fields")
    dtype = np.dtype({'names': names, 'formats': formats, 'offsets': offsets, 'itemsize': ros_pc.point_step})
    data = np.frombuffer(bytes(ros_pc.data), dtype=np.uint8)
    if len(data) < ros_pc.row_step * ros_pc.height or ros_pc.row_step < ros_pc.point_step * ros_pc.width:
        raise ValueError("PointCloud2 data is shorter than its height x row_step")
    rows = data[:ros_pc.row_step * ros_pc.height].reshape(ros_pc.height, ros_pc.row_step)
    rows = np.ascontiguousarray(rows[:, :ros_pc.point_step * ros_pc.width])
    records = rows.reshape(-1).view(dtype) if len(rows) else np.zeros(0, dtype)
    pc = PointCloud()
    pc.setPoints(np.column_stack([records['x'], records['y'], records['z']]).astype(float).reshape(-1, 3))
    if props:
        columns = []
        for name, packed in props:
            column = records[name]
            if packed:
                column = column.view(order + 'u4')
            columns.append(column.astype(float))
            pc.addProperty(name)
        pc.setProperties(np.column_stack(columns))
    if ros_pc.header.seq > 0:
        pc.setSetting("id", str(ros_pc.header.seq))
    if ros_pc.height > 1:
        pc.setSetting("width", str(ros_pc.width))
        pc.setSetting("height", str(ros_pc.height))
    return pc


def _setting(obj, name):
    try:
        return obj.getSetting(name)
    except (KeyError, RuntimeError, ValueError):
        return None


def to_PointCloud2(klampt_pc, frame='0', stamp='now'):
    """Converts a Klampt Geometry3D or PointCloud to a ROS PointCloud2 message.

    If it's a Geometry3D, the points are first transformed by the current
    transform. Properties become FLOAT32 fields; packed 'rgb' / 'rgba' colors
    (0xRRGGBB values) are stored as the bits of their FLOAT32 field, the way
    PCL and rviz read them. The width and height settings of an organized
    cloud are kept, and a numeric id setting becomes the header seq.

    frame is the ROS frame in the header.  Default '0' indicates no frame.

    stamp is the ROS timestamp, or 'now', or a numeric value.
    """
    if isinstance(klampt_pc, Geometry3D):
        if klampt_pc.type() != 'PointCloud':
            raise ValueError("Geometry3D of type %s is not a PointCloud" % klampt_pc.type())
        pc = klampt_pc.getPointCloud()
        T = klampt_pc.getCurrentTransform()
        if T != se3.identity():
            pc.transform(*T)
        klampt_pc = pc
    if not isinstance(klampt_pc, PointCloud):
        raise TypeError("Must provide a klampt.PointCloud or Geometry3D, not " + klampt_pc.__class__.__name__)
    points = np.asarray(klampt_pc.getPoints(), dtype=float).reshape(-1, 3)
    n = len(points)
    prop_names = list(klampt_pc.propertyNames)
    fields = [PointField(name, 4 * i, PointField.FLOAT32, 1) for i, name in enumerate(['x', 'y', 'z'] + prop_names)]
    record = np.zeros((n, len(fields)), dtype=np.float32)
    record[:, :3] = points
    if prop_names:
        props = np.asarray(klampt_pc.getAllProperties(), dtype=float).reshape(n, len(prop_names))
        for i, name in enumerate(prop_names):
            if name in _PACKED_COLORS:
                record[:, 3 + i] = props[:, i].astype(np.uint32).view(np.float32)
            else:
                record[:, 3 + i] = props[:, i]
    header = Header(stamp=_stamp(stamp), frame_id=frame)
    seq = _setting(klampt_pc, 'id')
    if seq is not None and seq.isdigit():
        header.seq = int(seq)
    width, height = n, 1
    w, h = _setting(klampt_pc, 'width'), _setting(klampt_pc, 'height')
    if w is not None and h is not None and int(w) * int(h) == n:
        width, height = int(w), int(h)
    return PointCloud2(header=header, height=height, width=width, fields=fields,
                       is_bigendian=(sys.byteorder == 'big'), point_step=4 * len(fields),
                       row_step=4 * len(fields) * width, data=record.tobytes(),
                       is_dense=bool(np.all(np.isfinite(points))))


def _is_sensor(obj):
    return obj.__class__.__name__ in ('SimRobotSensor', 'SensorModel')


def _sensor_name(sensor):
    return sensor.name() if callable(sensor.name) else sensor.name


def _sensor_robot(sensor):
    return sensor.robot() if callable(sensor.robot) else sensor.robot


def _camera_intrinsics(camera):
    """(w, h, fx, fy, cx, cy) of a camera sensor: its intrinsics settings
    if it has them, otherwise from its resolution and fields of view."""
    if camera.type() != 'CameraSensor':
        raise ValueError("Can't make CameraInfo from a non-camera sensor of type " + camera.type())
    w, h = int(camera.getSetting('xres')), int(camera.getSetting('yres'))
    if _setting(camera, 'fx') is not None:
        return (w, h) + tuple(float(camera.getSetting(k)) for k in ('fx', 'fy', 'cx', 'cy'))
    xfov, yfov = float(camera.getSetting('xfov')), float(camera.getSetting('yfov'))
    return w, h, 0.5 * w / math.tan(0.5 * xfov), 0.5 * h / math.tan(0.5 * yfov), 0.5 * w, 0.5 * h


def to_CameraInfo(klampt_obj):
    """Converts a Klampt camera sensor (SensorModel / SimRobotSensor),
    GLViewport, or Viewport to a ROS CameraInfo message (pinhole model, no
    distortion)."""
    if _is_sensor(klampt_obj):
        w, h, fx, fy, cx, cy = _camera_intrinsics(klampt_obj)
    else:
        vp = klampt_obj.to_viewport() if hasattr(klampt_obj, 'to_viewport') else klampt_obj
        if not all(hasattr(vp, a) for a in ('w', 'h', 'fx', 'fy', 'cx', 'cy')):
            raise ValueError("Invalid object type: " + klampt_obj.__class__.__name__)
        w, h, fx, fy, cx, cy = vp.w, vp.h, vp.fx, vp.fy, vp.cx, vp.cy
    msg = CameraInfo(width=int(w), height=int(h), distortion_model="plumb_bob")
    msg.D = [0.0] * 5
    msg.K = [fx, 0.0, cx, 0.0, fy, cy, 0.0, 0.0, 1.0]
    msg.R = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    msg.P = [fx, 0.0, cx, 0.0, 0.0, fy, cy, 0.0, 0.0, 0.0, 1.0, 0.0]
    return msg


def from_CameraInfo(ros_ci, klampt_obj):
    """Sets the resolution and intrinsics of a Klampt camera sensor
    (SensorModel / SimRobotSensor), GLViewport, or Viewport from a ROS
    CameraInfo message; modifies the object in place and returns it.

    A camera sensor's fields of view are derived from fx and fy; its
    principal point stays the image centre (its renderers draw centred
    images), so a message whose cx, cy lie more than half a pixel off the
    centre raises ValueError.
    """
    fx, fy, cx, cy = ros_ci.K[0], ros_ci.K[4], ros_ci.K[2], ros_ci.K[5]
    w, h = ros_ci.width, ros_ci.height
    if ros_ci.roi.x_offset != 0 or ros_ci.roi.y_offset != 0:
        raise NotImplementedError("CameraInfo with a region of interest is not supported")
    if fx <= 0 or fy <= 0:
        raise ValueError("CameraInfo has no intrinsics (K is zero)")
    if _is_sensor(klampt_obj):
        if klampt_obj.type() != 'CameraSensor':
            raise ValueError("Can't set CameraInfo on a non-camera sensor of type " + klampt_obj.type())
        if abs(cx - 0.5 * w) > 0.5 + 1e-9 or abs(cy - 0.5 * h) > 0.5 + 1e-9:
            raise ValueError("the camera's principal point (%g, %g) is off its image centre (%g, %g): Klamp't cameras "
                             "render centred images" % (cx, cy, 0.5 * w, 0.5 * h))
        klampt_obj.setSetting('xres', str(w))
        klampt_obj.setSetting('yres', str(h))
        klampt_obj.setSetting('xfov', repr(2 * math.atan(0.5 * w / fx)))
        klampt_obj.setSetting('yfov', repr(2 * math.atan(0.5 * h / fy)))
        return klampt_obj
    if hasattr(klampt_obj, 'to_viewport'):
        # a GLViewport: square pixels, its horizontal field of view in degrees
        klampt_obj.x, klampt_obj.y, klampt_obj.w, klampt_obj.h = 0, 0, w, h
        klampt_obj.fov = math.degrees(2 * math.atan(0.5 * w / fx))
        return klampt_obj
    if not all(hasattr(klampt_obj, a) for a in ('w', 'h', 'fx', 'fy', 'cx', 'cy')):
        raise ValueError("Invalid object type: " + klampt_obj.__class__.__name__)
    klampt_obj.x, klampt_obj.y, klampt_obj.w, klampt_obj.h = 0, 0, w, h
    klampt_obj.fx, klampt_obj.fy, klampt_obj.cx, klampt_obj.cy = fx, fy, cx, cy
    return klampt_obj


def _camera_images(camera, frame, stamp):
    """Image messages (rgb8, then 32FC1 depth in meters) of a camera's measurements."""
    w, h = int(camera.getSetting('xres')), int(camera.getSetting('yres'))
    measurements = np.asarray(camera.getMeasurements(), dtype=float)
    if len(measurements) == 0:
        return []
    msgs = []
    ofs = 0
    if int(camera.getSetting('rgb')):
        packed = measurements[:w * h].astype(np.uint32).reshape(h, w)
        rgb = np.stack([(packed >> 16) & 0xff, (packed >> 8) & 0xff, packed & 0xff], axis=2).astype(np.uint8)
        msgs.append(Image(width=w, height=h, encoding="rgb8", is_bigendian=False, step=3 * w, data=rgb.tobytes()))
        ofs = w * h
    if int(camera.getSetting('depth')):
        depth = measurements[ofs:ofs + w * h].astype(np.float32).reshape(h, w)
        msgs.append(Image(width=w, height=h, encoding="32FC1", is_bigendian=(sys.byteorder == 'big'),
                          step=4 * w, data=depth.tobytes()))
    for msg in msgs:
        msg.header.frame_id = frame
        msg.header.stamp = stamp
    return msgs


def to_SensorMsg(klampt_sensor, frame=None, frame_prefix='klampt', stamp='now'):
    """Converts a sensor's measurements to a ROS message(s).

    Special types are CameraSensor, ForceTorqueSensor, and LaserRangeSensor.

    * CameraSensor is converted to a list of up to three messages: CameraInfo,
      Image (rgb8, if the camera has color and measurements), and Image
      (32FC1 depth, if it has depth and measurements).
    * ForceTorqueSensor is converted to a WrenchStamped.
    * LaserRangeSensor is converted to a LaserScan.

    Generic sensors are converted to a Float32MultiArray.

    Args:
        klampt_sensor (SensorModel): the sensor
        frame (str, optional): if given, this is the frame_id used in the
            ROS message(s).  Otherwise, the id is determined automatically.
        frame_prefix (str, optional): if frame is not given, this is the
            prefix used in the automatic frame_id assignment (see below)
        stamp (str, float, or rospy.Time, optional): can be 'now', a float,
            or a rospy.Time.  Will be set in the ROS message header.

    The ROS ``frame_id`` is set as follows:

    - If frame!=None, then ``frame_id=frame``.
    - If frame==None and frame_prefix==None, then
      ``frame_id = [robot_name]/[sensor_name]``.
    - Otherwise,
      ``frame_id = [frame_prefix]/[robot_name]/[sensor_name]``.
    """
    if frame is None:
        frame = _sensor_robot(klampt_sensor).getName() + '/' + _sensor_name(klampt_sensor)
        if frame_prefix is not None:
            frame = frame_prefix + '/' + frame
    stamp = _stamp(stamp)
    stype = klampt_sensor.type()
    if stype == 'CameraSensor':
        info = to_CameraInfo(klampt_sensor)
        info.header.frame_id = frame
        info.header.stamp = stamp
        return [info] + _camera_images(klampt_sensor, frame, stamp)
    measurements = [float(v) for v in klampt_sensor.getMeasurements()]
    if stype == 'ForceTorqueSensor':
        if len(measurements) == 0:
            measurements = [0.0] * 6
        if len(measurements) != 6:
            raise ValueError("F/T sensor returns %d measurements instead of 6" % len(measurements))
        res = WrenchStamped()
        res.header.frame_id = frame
        res.header.stamp = stamp
        res.wrench.force = Vector3(*measurements[:3])
        res.wrench.torque = Vector3(*measurements[3:])
        return res
    if stype == 'LaserRangeSensor':
        res = LaserScan()
        res.header.frame_id = frame
        res.header.stamp = stamp
        res.angle_max = float(klampt_sensor.getSetting("xSweepMagnitude"))
        res.angle_min = -res.angle_max
        count = float(klampt_sensor.getSetting("measurementCount"))
        res.angle_increment = (res.angle_max - res.angle_min) / count
        res.time_increment = float(klampt_sensor.getSetting("xSweepPeriod"))
        res.range_min = float(klampt_sensor.getSetting("depthMinimum"))
        res.range_max = float(klampt_sensor.getSetting("depthMaximum"))
        res.ranges = measurements
        return res
    return to_Float32MultiArray(measurements)


def to_ShapeMsg(klampt_geom, **kwargs):
    """Converts a Geometry3D holding a point cloud to PointCloud2 (kwargs
    are to_PointCloud2's frame and stamp), one holding a triangle mesh to
    Mesh."""
    if klampt_geom.type() == 'PointCloud':
        return to_PointCloud2(klampt_geom, **kwargs)
    if klampt_geom.type() == 'TriangleMesh':
        return to_Mesh(klampt_geom, **kwargs)
    raise ValueError("Geometry3D of type %s: implicit surfaces, geometric primitives, and groups are not supported"
                     % klampt_geom.type())


#: Klamp't type name -> the ROS message type it converts to
SUPPORTED_KLAMPT_TYPES = {
    'Vector3': 'Vector3',
    'Point': 'Point',
    'Matrix3': 'Quaternion',
    'Rotation': 'Quaternion',
    'Config': 'Float32MultiArray',
    'RigidTransform': 'Pose',
    'RobotModel': 'JointState',
    'SimRobotController': 'JointState',
    'Trajectory': 'JointTrajectory',
    'RobotTrajectory': 'JointTrajectory',
    'PointCloud': 'PointCloud2',
    'TriangleMesh': 'Mesh',
    'Geometry3D': 'ShapeMsg',
    'SensorModel': 'SensorMsg',
    'SimRobotSensor': 'SensorMsg',
    'Viewport': 'CameraInfo',
    'GLViewport': 'CameraInfo',
}

#: the ROS message classes by type name
_MSG_CLASSES = {cls.__name__: cls for cls in (
    Vector3, Point, Quaternion, Pose, Transform, PoseStamped, TransformStamped, WrenchStamped,
    Float32MultiArray, JointState, JointTrajectory, Mesh, Path, PointCloud2, Image, CameraInfo, LaserScan)}


def _compatibleKlamptType(klampt_obj):
    if klampt_obj.__class__.__name__ in SUPPORTED_KLAMPT_TYPES:
        return klampt_obj.__class__.__name__
    otype = types.object_to_type(klampt_obj, list(SUPPORTED_KLAMPT_TYPES))
    if otype is None or otype not in SUPPORTED_KLAMPT_TYPES:
        raise ValueError("Don't know how to convert Klampt object of type " + klampt_obj.__class__.__name__)
    return otype


def _converter(direction, ros_type):
    fn = globals().get(direction + '_' + ros_type)
    if fn is None:
        raise ValueError("No conversion %s ROS message type %s" % ('to' if direction == 'from' else 'from', ros_type))
    return fn


def fromMsg(ros_obj, *args, **kwargs):
    """General conversion from ROS messages to corresponding Klamp't objects;
    extra arguments go to the ``from_X`` converter (e.g. the robot of a
    JointState)."""
    return _converter('from', ros_obj.__class__.__name__)(ros_obj, *args, **kwargs)


def toMsg(klampt_obj, *args, **kwargs):
    """General conversion from Klamp't objects to corresponding ROS messages;
    extra arguments go to the ``to_X`` converter."""
    return _converter('to', SUPPORTED_KLAMPT_TYPES[_compatibleKlamptType(klampt_obj)])(klampt_obj, *args, **kwargs)


class KlamptROSPublisher(rospy.Publisher):
    """A rospy.Publisher whose publish() takes Klamp't objects and converts
    them. Use :func:`publisher` or :func:`object_publisher` to make one."""

    def __init__(self, converter, *args, **kwargs):
        self.converter = converter
        self.seq_no = 0
        rospy.Publisher.__init__(self, *args, **kwargs)

    def publish(self, klampt_obj, header=None):
        """Publishes a Klamp't object to the advertised topic.

        Args:
            klampt_obj: A Klamp't object of the appropriate type
            header (Header, optional): a ROS header that overrides the
                default, which stamps unstamped messages with the current
                time and gives them frame '0' if they have none.
        """
        self.seq_no += 1
        rosobj = self.converter(klampt_obj)
        if hasattr(rosobj, 'header'):
            if header is not None:
                rosobj.header = header
            else:
                rosobj.header.seq = self.seq_no
                if rosobj.header.stamp.is_zero():
                    rosobj.header.stamp = _stamp('now')
                if len(rosobj.header.frame_id) == 0:
                    rosobj.header.frame_id = '0'
        rospy.Publisher.publish(self, rosobj)


class KlamptROSCameraPublisher:
    """Publishes a camera sensor's info and images on several topics. Use
    :func:`object_publisher` to make one."""

    def __init__(self, topic, frame_id, frame_prefix, *args, **kwargs):
        self.topic = topic
        self.frame_prefix = frame_prefix
        self.frame_id = frame_id
        self.rgbpubinfo = None
        self.rgbpub = None
        self.dpubinfo = None
        self.dpub = None
        self.pubargs = args
        self.pubkwargs = kwargs
        self.num_msgs = 0

    def publish(self, camera):
        """Publishes a Klamp't camera's data to the topics:

        - [topic]/rgb/camera_info
        - [topic]/rgb/image_rect_color
        - [topic]/depth_registered/camera_info
        - [topic]/depth_registered/image_rect

        The frame is [frame_prefix/]robot/link of the camera's link unless a
        frame was given. Nothing is published without measurements.

        Args:
            camera (SensorModel): an updated sensor of 'CameraSensor' type.
        """
        if camera.type() != 'CameraSensor':
            raise ValueError("KlamptROSCameraPublisher publishes cameras, not " + camera.type())
        if self.frame_id is None:
            robot = _sensor_robot(camera)
            link = int(camera.getSetting("link"))
            frame = robot.getName() + '/' + (robot.link(link).getName() if link >= 0 else _sensor_name(camera))
            self.frame_id = frame if self.frame_prefix is None else self.frame_prefix + '/' + frame
        msgs = to_SensorMsg(camera, frame=self.frame_id)
        if len(msgs) <= 1:
            return
        self.num_msgs += 1
        for msg in msgs:
            msg.header.seq = self.num_msgs
        images = iter(msgs[1:])
        if int(camera.getSetting('rgb')):
            if self.rgbpub is None:
                self.rgbpubinfo = rospy.Publisher(self.topic + '/rgb/camera_info', CameraInfo,
                                                  *self.pubargs, **self.pubkwargs)
                self.rgbpub = rospy.Publisher(self.topic + '/rgb/image_rect_color', Image,
                                              *self.pubargs, **self.pubkwargs)
            self.rgbpubinfo.publish(msgs[0])
            self.rgbpub.publish(next(images))
        if int(camera.getSetting('depth')):
            if self.dpub is None:
                self.dpubinfo = rospy.Publisher(self.topic + '/depth_registered/camera_info', CameraInfo,
                                                *self.pubargs, **self.pubkwargs)
                self.dpub = rospy.Publisher(self.topic + '/depth_registered/image_rect', Image,
                                            *self.pubargs, **self.pubkwargs)
            self.dpubinfo.publish(msgs[0])
            self.dpub.publish(next(images))


def publisher_SensorModel(topic, klampt_sensor, convert_kwargs=None, **kwargs):
    """A publisher of a sensor's measurements: a KlamptROSCameraPublisher
    for cameras (convert_kwargs may give 'frame' and 'frame_prefix'),
    otherwise a KlamptROSPublisher of WrenchStamped (force/torque sensors),
    LaserScan (laser range sensors) or Float32MultiArray messages made by
    :func:`to_SensorMsg` with convert_kwargs. kwargs go to rospy.Publisher.
    """
    convert_kwargs = dict(convert_kwargs or {})
    stype = klampt_sensor.type()
    if stype == 'CameraSensor':
        return KlamptROSCameraPublisher(topic, convert_kwargs.get('frame'), convert_kwargs.get('frame_prefix'),
                                        **kwargs)
    ros_type = {'ForceTorqueSensor': 'WrenchStamped', 'LaserRangeSensor': 'LaserScan'}.get(stype,
                                                                                          'Float32MultiArray')
    return KlamptROSPublisher(lambda obj: to_SensorMsg(obj, **convert_kwargs), topic, _MSG_CLASSES[ros_type],
                              **kwargs)


#: Klamp't 0.9's name of :func:`publisher_SensorModel`
publisher_SimRobotSensor = publisher_SensorModel


def publisher(topic, klampt_type, convert_kwargs=None, ros_type=None, **kwargs):
    """Convenience function. The publisher can be called in the form
    pub.publish(klampt_obj), which will convert a klampt_obj to a ROS message
    before publishing to a topic.

    Args:
        topic (str): the topic
        klampt_type (str or object): a key of SUPPORTED_KLAMPT_TYPES, or an
            object whose class name is one
        convert_kwargs (dict, optional): extra arguments of the converter
        ros_type (str, optional): the ROS message type, needed for Geometry3D
            and sensors ('PointCloud2', 'Mesh', ...)
        kwargs: rospy.Publisher arguments (e.g. queue_size)

    Returns:
        KlamptROSPublisher
    """
    convert_kwargs = dict(convert_kwargs or {})
    if not isinstance(klampt_type, str):
        klampt_type = klampt_type.__class__.__name__
    if ros_type is None:
        if klampt_type not in SUPPORTED_KLAMPT_TYPES:
            raise ValueError("Don't know how to publish Klampt type " + klampt_type)
        ros_type = SUPPORTED_KLAMPT_TYPES[klampt_type]
    if ros_type in ('SensorMsg', 'ShapeMsg'):
        raise ValueError("Klamp't type %s is ambiguous, need to specify a ROS type" % klampt_type)
    converter = _converter('to', ros_type)
    if ros_type not in _MSG_CLASSES:
        raise ValueError("Unknown ROS message type " + ros_type)
    kwargs.setdefault('queue_size', 10)
    return KlamptROSPublisher(lambda obj: converter(obj, **convert_kwargs), topic, _MSG_CLASSES[ros_type], **kwargs)


def object_publisher(topic, klampt_object, convert_kwargs=None, **kwargs):
    """Convenience function.  If klampt_object is an object, this sets up
    the publisher to be of the correct type.  You can then call publish on
    the returned publisher  using the same klampt_object (or another
    compatible Klampt objects).

    SensorModels (particularly, cameras) can be published to multiple
    topics of the form [topic]/[subtopic].

    Returns:
        KlamptROSPublisher
    """
    if _is_sensor(klampt_object):
        return publisher_SensorModel(topic, klampt_object, convert_kwargs, **kwargs)
    ros_type = None
    if isinstance(klampt_object, Geometry3D):
        ros_type = {'PointCloud': 'PointCloud2', 'TriangleMesh': 'Mesh'}.get(klampt_object.type())
        if ros_type is None:
            raise ValueError("Geometry3D of type %s: implicit surfaces, geometric primitives, and groups are not "
                             "supported" % klampt_object.type())
    return publisher(topic, _compatibleKlamptType(klampt_object), convert_kwargs, ros_type, **kwargs)


def subscriber(topic, klampt_type, callback, convert_kwargs=None, **kwargs):
    """Convenience function.  The subscriber automatically converts ROS
    messages to a Klampt type to be passed to the callback.

    Args:
        topic (str): the topic
        klampt_type (str): a key of SUPPORTED_KLAMPT_TYPES whose ROS type
            has a from_X converter, e.g. 'Config', 'RigidTransform',
            'RobotModel' (convert_kwargs must give the robot),
            'Trajectory', 'PointCloud', 'TriangleMesh'.
        callback: called with each converted object
        convert_kwargs (dict, optional): extra arguments of the converter
        kwargs: rospy.Subscriber arguments

    Returns:
        rospy.Subscriber
    """
    convert_kwargs = dict(convert_kwargs or {})
    if klampt_type not in SUPPORTED_KLAMPT_TYPES:
        raise ValueError("Don't know how to convert ROS messages to Klampt type " + str(klampt_type))
    ros_type = SUPPORTED_KLAMPT_TYPES[klampt_type]
    if ros_type not in _MSG_CLASSES:
        raise ValueError("No ROS message converts to Klampt type " + klampt_type)
    convert_fn = _converter('from', ros_type)

    def shim(ros_obj):
        callback(convert_fn(ros_obj, **convert_kwargs))
    return rospy.Subscriber(topic, _MSG_CLASSES[ros_type], callback=shim, **kwargs)


def _copy_list(vin, out):
    if not isinstance(out, list) or len(vin) != len(out):
        raise ValueError("Can only copy into a list of the same size (%d)" % len(vin))
    out[:] = vin


def object_subscriber(topic, klampt_obj, convert_kwargs=None, **kwargs):
    """Convenience function.  Every time a message arrives on the ROS topic,
    the given klampt object is updated.

    Only valid for:

        * points / rotations / transforms provided as lists (a transform as
          a pair of lists)
        * Config (Float32MultiArray messages)
        * RobotModel (JointState messages)
        * SimRobotController (JointState messages, sent as a PID command)
        * Trajectory (JointTrajectory messages)
        * PointCloud (PointCloud2 messages)

    Returns:
        rospy.Subscriber
    """
    convert_kwargs = dict(convert_kwargs or {})
    otype = _compatibleKlamptType(klampt_obj)
    if otype in ('Config', 'Point', 'Vector3', 'Matrix3', 'Rotation'):
        def copy_fn(value):
            _copy_list(value, klampt_obj)
    elif otype == 'RigidTransform':
        def copy_fn(value):
            _copy_list(value[0], klampt_obj[0])
            _copy_list(value[1], klampt_obj[1])
    elif otype == 'RobotModel':
        def copy_fn(jointstate_res):
            if jointstate_res[0] is not None:
                klampt_obj.setConfig(jointstate_res[0])
            if jointstate_res[1] is not None:
                klampt_obj.setVelocity(jointstate_res[1])
        convert_kwargs['robot'] = klampt_obj
    elif otype == 'SimRobotController':
        def copy_fn(jointstate_res):
            q, dq, effort = jointstate_res
            if q is None:
                if effort is not None:
                    klampt_obj.setTorque(effort)
                return
            if dq is None:
                dq = [0.0] * len(q)
            if effort is not None:
                klampt_obj.setPIDCommand(q, dq, effort)
            else:
                klampt_obj.setPIDCommand(q, dq)
        convert_kwargs['robot'] = klampt_obj.model()
    elif otype in ('Trajectory', 'RobotTrajectory'):
        otype = 'Trajectory'
        if getattr(klampt_obj, 'robot', None) is not None:
            convert_kwargs.setdefault('robot', klampt_obj.robot)

        def copy_fn(traj):
            klampt_obj.times, klampt_obj.milestones = traj.times, traj.milestones
    elif otype == 'PointCloud':
        def copy_fn(pc):
            klampt_obj.setPoints(pc.getPoints())
            for name in pc.propertyNames:
                if name not in klampt_obj.propertyNames:
                    klampt_obj.addProperty(name)
            for name in pc.propertyNames:
                klampt_obj.setProperties(list(klampt_obj.propertyNames).index(name), pc.getProperties(name))
            for key, value in pc.settings.items():
                klampt_obj.setSetting(key, value)
    else:
        raise ValueError("Don't know how to update a Klamp't object of type %s from ROS messages" % otype)
    return subscriber(topic, otype, copy_fn, convert_kwargs, **kwargs)


def _lidar_frame(sensor, T):
    """A laser range sensor's frame turned to ROS's convention (x forward, z up)."""
    if sensor.type() != 'LaserRangeSensor':
        return T
    klampt_to_ros_lidar = so3.from_matrix([[0, 1, 0], [0, 0, 1], [1, 0, 0]])
    return (so3.mul(T[0], klampt_to_ros_lidar), T[1])


def _tf_frames(klampt_obj, frameprefix, root):
    """(child frame, parent frame, pose of child in parent) of the object's tf frames."""
    if isinstance(klampt_obj, Simulator):
        klampt_obj.updateWorld()
        klampt_obj = klampt_obj.world
    if isinstance(klampt_obj, WorldModel):
        frames = []
        for i in range(klampt_obj.numRigidObjects()):
            obj = klampt_obj.rigidObject(i)
            frames.append((frameprefix + "/" + obj.getName(), root, obj.getTransform()))
        for i in range(klampt_obj.numRobots()):
            robot = klampt_obj.robot(i)
            frames += _tf_frames(robot, frameprefix + "/" + robot.getName(), root)
        return frames
    if isinstance(klampt_obj, SimRobotController):
        robot = klampt_obj.model()
        robot.setConfig(klampt_obj.getSensedConfig())
        klampt_obj = robot
    if isinstance(klampt_obj, RobotModel):
        frames = []
        for j in range(klampt_obj.numLinks()):
            link = klampt_obj.link(j)
            p = link.getParent()
            name = frameprefix + "/" + link.getName()
            if p < 0:
                frames.append((name, root, link.getTransform()))
            else:
                parent = klampt_obj.link(p)
                frames.append((name, frameprefix + "/" + parent.getName(),
                               se3.mul(se3.inv(parent.getTransform()), link.getTransform())))
        return frames
    if _is_sensor(klampt_obj):
        link = int(klampt_obj.getSetting('link'))
        parent = frameprefix + "/" + _sensor_robot(klampt_obj).link(link).getName() if link >= 0 else root
        return [(frameprefix + "/" + _sensor_name(klampt_obj), parent,
                 _lidar_frame(klampt_obj, klampt_obj.getTransform()))]
    if isinstance(klampt_obj, (list, tuple)):
        transform = klampt_obj
    elif hasattr(klampt_obj, 'getTransform'):
        transform = klampt_obj.getTransform()
    elif hasattr(klampt_obj, 'getCurrentTransform'):
        transform = klampt_obj.getCurrentTransform()
    else:
        raise ValueError("Invalid type given to broadcast_tf: " + klampt_obj.__class__.__name__)
    return [(frameprefix, root, transform)]


def broadcast_tf(broadcaster, klampt_obj, frameprefix="klampt", root="world", stamp=0.):
    """Broadcasts Klampt frames to the ROS tf module.

    Frames are [frameprefix]/[object name] for a world's rigid objects,
    [frameprefix]/[robot name]/[link name] for its robots' links (a robot's
    own links are [frameprefix]/[link name]), each link relative to its
    parent link and root links relative to ``root``; a sensor's frame is
    [frameprefix]/[sensor name] relative to [frameprefix]/[its link name]
    (``root`` for a sensor fixed in the world).
    Anything else is the single frame [frameprefix] relative to ``root``.

    Args:
        broadcaster (tf2_ros.TransformBroadcaster,
            tf2_ros.StaticTransformBroadcaster or tf.TransformBroadcaster):
            the tf broadcaster; all frames go in one message.
        klampt_obj: the object to publish.  Can be WorldModel, Simulator,
            RobotModel, SimRobotController, SensorModel, anything with a
            getTransform or getCurrentTransform method, or se3 element
        frameprefix (str): the name of the base frame for this object
        root (str): the name of the TF world frame.
        stamp: the stamp of the frames, 'now', seconds or a rospy.Time
            (0, the default, means "latest" to tf lookups).

    Note:
        If klampt_obj is a Simulator or SimRobotController, then its
        corresponding model will be updated.
    """
    stamp = _stamp(stamp)
    msgs = [to_TransformStamped(T, child, parent, stamp) for child, parent, T in
            _tf_frames(klampt_obj, frameprefix, root)]
    if hasattr(broadcaster, 'sendTransformMessage'):
        for msg in msgs:
            broadcaster.sendTransformMessage(msg)
    else:
        broadcaster.sendTransform(msgs)


def listen_tf(listener, klampt_obj, frameprefix="klampt", root="world", onerror=None):
    """Reads Klampt frames from the ROS tf module, named as
    :func:`broadcast_tf` names them.

    Args:
        listener (tf2_ros.Buffer or tf.TransformListener): the tf buffer (fed
            by a tf2_ros.TransformListener) or tf listener
        klampt_obj: the object to update. Can be WorldModel, RobotModel,
            anything with a setTransform or setCurrentTransform method,
            or None (in the latter case, a se3 object will be returned).

            Note:

                RobotModel configurations will not be changed, just
                the link transforms.

        frameprefix (str): the name of the base frame for this object
        root (str): the name of the TF world frame.
        onerror (str or None): either 'raise' in which case a tf exception
            is raised, 'print', in which case the error is printed, or None,
            in which case any exception is silently ignored.
    """
    import tf2_ros

    def do_lookup(frame, parent):
        try:
            if hasattr(listener, 'lookup_transform'):
                return from_TransformStamped(listener.lookup_transform(parent, frame, rospy.Time(0)))
            trans, rot = listener.lookupTransform(parent, frame, rospy.Time(0))
            return (so3.from_quaternion((rot[3], rot[0], rot[1], rot[2])), list(trans))
        except tf2_ros.TransformException:
            if onerror == 'print':
                print("listen_tf: Error looking up frame", frame)
            elif onerror == 'raise':
                raise
        return None

    if isinstance(klampt_obj, WorldModel):
        for i in range(klampt_obj.numRigidObjects()):
            obj = klampt_obj.rigidObject(i)
            T = do_lookup(frameprefix + "/" + obj.getName(), root)
            if T:
                obj.setTransform(*T)
        for i in range(klampt_obj.numRobots()):
            robot = klampt_obj.robot(i)
            listen_tf(listener, robot, frameprefix + "/" + robot.getName(), root, onerror)
        return None
    if isinstance(klampt_obj, RobotModel):
        for j in range(klampt_obj.numLinks()):
            link = klampt_obj.link(j)
            p = link.getParent()
            if p < 0:
                T = do_lookup(frameprefix + "/" + link.getName(), root)
                if T:
                    link.setTransform(*T)
            else:
                parent = klampt_obj.link(p)
                T = do_lookup(frameprefix + "/" + link.getName(), frameprefix + "/" + parent.getName())
                if T:
                    link.setTransform(*se3.mul(parent.getTransform(), T))
        return None
    if klampt_obj is None:
        return do_lookup(frameprefix, root)
    if hasattr(klampt_obj, 'setTransform'):
        setter = klampt_obj.setTransform
    elif hasattr(klampt_obj, 'setCurrentTransform'):
        setter = klampt_obj.setCurrentTransform
    else:
        raise ValueError("Invalid type given to listen_tf: " + klampt_obj.__class__.__name__)
    T = do_lookup(frameprefix, root)
    if T:
        setter(*T)
    return None
