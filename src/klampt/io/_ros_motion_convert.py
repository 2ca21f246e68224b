"""Conversions of :mod:`klampt.io.ros` between Klamp't's points, rotations,
transforms, configurations, robots and trajectories and the ROS geometry,
joint state, joint trajectory and path messages; time stamps.
"""

import time

from klampt import SimRobotController
from klampt.math import so3
from klampt.model.trajectory import RobotTrajectory, SE3Trajectory, SO3Trajectory, Trajectory
from ._ros_messages import (rospy, Float32MultiArray, Vector3, Point, Quaternion, Pose, Transform,
                            PoseStamped, TransformStamped, JointTrajectory, JointTrajectoryPoint, Path, JointState)


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
