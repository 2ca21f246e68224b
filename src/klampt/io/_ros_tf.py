"""tf broadcasting and listening of :mod:`klampt.io.ros`: the frames of worlds,
robots, rigid objects and sensors sent to and read from tf.
"""



from klampt import RobotModel, SimRobotController, Simulator, WorldModel
from klampt.math import so3, se3
from ._ros_messages import rospy
from ._ros_motion_convert import _stamp, from_TransformStamped, to_TransformStamped
from ._ros_sensor_convert import _is_sensor, _sensor_name, _sensor_robot


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
