"""The type-dispatching conversions (:func:`toMsg`, :func:`fromMsg`) of
:mod:`klampt.io.ros` and the publishers and subscribers of Klamp't objects
built on them.
"""

from klampt import Geometry3D
from klampt.model import types
from ._ros_messages import (rospy, Float32MultiArray, Vector3, Point, Quaternion, Pose, Transform,
                            PoseStamped, TransformStamped, WrenchStamped, JointTrajectory, Mesh,
                            Path, JointState, PointCloud2, Image, CameraInfo, LaserScan)
from ._ros_motion_convert import _stamp
from ._ros_sensor_convert import _is_sensor, _sensor_name, _sensor_robot, to_SensorMsg
from . import _ros_motion_convert, _ros_sensor_convert


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
    name = direction + '_' + ros_type
    fn = getattr(_ros_motion_convert, name, None) or getattr(_ros_sensor_convert, name, None)
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
