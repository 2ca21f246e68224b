"""Conversions of :mod:`klampt.io.ros` between Klamp't's meshes, point clouds,
geometries, viewports and sensors and the ROS shape, point cloud, camera and
laser scan messages.
"""

import math
import sys

import numpy as np

from klampt import Geometry3D, PointCloud, TriangleMesh
from klampt.math import se3
from ._ros_messages import (Header, Vector3, Point, WrenchStamped, Mesh,
                            MeshTriangle, PointCloud2, PointField, Image, CameraInfo, LaserScan)
from ._ros_motion_convert import _stamp, to_Float32MultiArray


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
