"""Working with sensors and their data.

- Sensor transforms: :func:`get_sensor_xform`, :func:`set_sensor_xform`.
- Images and point clouds: :func:`camera_to_images`, :func:`camera_to_points`,
  :func:`camera_to_points_world`, :func:`image_to_points`,
  :func:`laser_to_points`.
- Cameras: :func:`camera_to_viewport`, :func:`viewport_to_camera`,
  :func:`camera_to_intrinsics`, :func:`intrinsics_to_camera`,
  :func:`camera_ray`, :func:`camera_project`, :func:`visible`,
  :func:`visible_fraction`, :func:`occluded`, :func:`sample_visible_surface`,
  :func:`projection_map_texture`.

Camera sensors follow the simulator's model: the image's pixel (i, j) (column
i, row j) of a w x h image looks along (i - w/2, j - h/2, f) in the sensor
frame (x right, y down, z forward) with the focal length f = w / (2 tan(xfov/2))
in pixels for both axes (square pixels); depth is measured along z. Sensors
are :class:`klampt.SimRobotSensor` objects, or any object with the same
``type``, ``getSetting``, ``setSetting``, ``getMeasurements``,
``getTransform``, ``getTransformWorld``, ``setTransform`` and ``setLink``
methods.
"""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
import json
import math
from typing import List, Optional, Tuple, Union

import numpy as np

from klampt.robotsim import Appearance, GeometricPrimitive, Geometry3D, Heightmap, PointCloud, RobotModelLink, \
    TriangleMesh, Viewport, WorldModel
from klampt.math import se3, so3, vectorops
from . import coordinates
from .._viewport import GLViewport
from . import geometry
from .collide import bb_create, bb_intersect

#: An image: a numpy array or nested lists (rows of pixels).
ImageLike = Union[np.ndarray, List[List]]

Vector3 = List[float]


def _require_camera(camera):
    if isinstance(camera, GLViewport) or not hasattr(camera, 'getSetting'):
        raise TypeError("Must provide a SimRobotSensor instance")
    if camera.type() != 'CameraSensor':
        raise ValueError("Must provide a camera sensor instance, got a " + str(camera.type()))


def get_sensor_xform(sensor, robot=None):
    """The sensor's transform on its link, or in world coordinates (for the
    robot's current configuration) if ``robot`` is given."""
    if robot is None:
        return sensor.getTransform()
    return sensor.getTransformWorld()


def set_sensor_xform(sensor, T, link=None):
    """Sets a link-mounted sensor's transform on its link to T, and moves it
    to ``link`` (a RobotModelLink or index) if given.

    T may also be a :class:`klampt.model.coordinates.Frame`: a frame that is a
    robot link mounts the sensor at that link's origin; otherwise the frame's
    coordinates relative to its parent (which must be a link, or the world)
    are used.
    """
    if isinstance(T, coordinates.Frame):
        if isinstance(T.data(), RobotModelLink):
            return set_sensor_xform(sensor, se3.identity(), T.data())
        parent = -1 if T.parent() is None else T.parent().data()
        return set_sensor_xform(sensor, T.relativeCoordinates(), parent)
    sensor.setTransform(*T)
    if link is not None:
        sensor.setLink(link)


def _unpack_rgb(argb):
    argb = np.asarray(argb).astype(np.uint32)
    return ((argb >> 16) & 0xff, (argb >> 8) & 0xff, argb & 0xff)


def camera_to_images(camera, image_format='numpy', color_format='channels'):
    """The current images of a camera sensor.

    Args:
        image_format (str): only 'numpy' is supported.
        color_format (str): 'channels' (h x w x 3 uint8 array), 'rgb' (h x w
            uint32 array of 0xrrggbb) or 'bgr' (0xbbggrr).

    Returns:
        ``(rgb, depth)`` if the camera has both, otherwise the one it has (the
        depth image is an h x w float array), or None with no measurements.
    """
    _require_camera(camera)
    if image_format != 'numpy':
        raise NotImplementedError("No other image formats besides numpy supported")
    w, h = int(camera.getSetting('xres')), int(camera.getSetting('yres'))
    has_rgb, has_depth = int(camera.getSetting('rgb')), int(camera.getSetting('depth'))
    measurements = np.asarray(camera.getMeasurements(), dtype=float)
    rgb = depth = None
    if len(measurements) > 0 and has_rgb:
        argb = measurements[:w * h].reshape(h, w).astype(np.uint32)
        r, g, b = _unpack_rgb(argb)
        if color_format == 'rgb':
            rgb = (r << 16) | (g << 8) | b
        elif color_format == 'bgr':
            rgb = (b << 16) | (g << 8) | r
        elif color_format == 'channels':
            rgb = np.stack([r, g, b], axis=2).astype(np.uint8)
        else:
            raise ValueError("Invalid color_format " + repr(color_format))
    if len(measurements) > 0 and has_depth:
        start = w * h if has_rgb else 0
        depth = measurements[start:start + w * h].reshape(h, w)
    if has_rgb and has_depth:
        return rgb, depth
    return rgb if has_rgb else depth


def _grid_mesh_indices(w, h):
    """Two triangles per pixel square of a w x h grid of row-major vertices."""
    corners = np.arange(w * h).reshape(h, w)[:-1, :-1].ravel()
    first = np.column_stack([corners, corners + 1, corners + w + 1])
    second = np.column_stack([corners + w + 1, corners + w, corners])
    return np.stack([first, second], axis=1).reshape(-1, 3).astype(np.int32)


def _points_output(pts, color, color_format, points_format, all_points, w, h):
    """Packages N x 3 points and their colors (N x 3 channels in [0, 1], N
    packed 0xrrggbb words, or None) in the requested format."""
    if points_format == 'numpy':
        if color is None:
            return pts
        return np.column_stack([pts, color])
    if points_format in ('PointCloud', 'Geometry3D'):
        pc = PointCloud()
        pc.setPoints(pts)
        if all_points:
            pc.setSetting('width', str(w))
            pc.setSetting('height', str(h))
        if color is not None:
            if color_format == 'rgb':
                pc.addProperty('rgb', np.asarray(color, dtype=float).ravel())
            else:
                for k, name in enumerate('rgb'):
                    pc.addProperty(name, color[:, k])
        return pc if points_format == 'PointCloud' else Geometry3D(pc)
    if points_format == 'TriangleMesh':
        mesh = TriangleMesh()
        mesh.setVertices(pts)
        mesh.setIndices(_grid_mesh_indices(w, h))
        if color is None:
            return mesh
        app = Appearance()
        if color_format == 'rgb':
            r, g, b = _unpack_rgb(np.asarray(color).ravel())
            color = np.column_stack([r, g, b]) / 255.0
        app.setColors(Appearance.VERTICES, np.asarray(color, dtype=np.float32))
        return (mesh, app)
    raise ValueError("Invalid points_format " + repr(points_format))


def _depth_heightmap(depth, color, color_format, fx, fy, cx, cy):
    """A perspective Heightmap of a depth image (Klamp't 0.10's
    points_format='Heightmap'), its colors from channels in [0, 1] or packed
    0xrrggbb words."""
    h, w = depth.shape
    vp = Viewport()
    vp.resize(w, h)
    vp.fx, vp.fy = fx, fy
    vp.cx, vp.cy = (0.5 * w if cx is None else cx), (0.5 * h if cy is None else cy)
    hm = Heightmap()
    hm.setViewport(vp)
    hm.setHeightImage(depth)
    if color is not None:
        if color_format == 'rgb':
            color = np.stack(_unpack_rgb(np.asarray(color).reshape(h, w)), axis=2).astype(np.uint8)
        else:
            color = np.clip(np.asarray(color, dtype=float).reshape(h, w, -1)[:, :, :3], 0.0, 1.0)
        hm.setColorImage(color)
    return hm


def _back_project(depth, fx, fy, cx=None, cy=None):
    h, w = depth.shape
    xs = (np.arange(w) - (0.5 * w if cx is None else cx)) / fx
    ys = (np.arange(h) - (0.5 * h if cy is None else cy)) / fy
    return np.dstack([xs[None, :] * depth, ys[:, None] * depth, depth])


def image_to_points(depth, color, xfov=None, yfov: Optional[float] = None, depth_scale: Optional[float] = None,
                    depth_range: Optional[Tuple[float, float]] = None, color_format='auto', points_format='numpy',
                    all_points=False, intrinsics: Optional[dict] = None):
    """Converts a depth image (and optionally a color image of the same size)
    to a point cloud in the camera frame (x right, y down, z forward).

    Args:
        depth (h x w array): depths along the camera's z axis.
        color (array or None): h x w x 3 channels (uint8 in [0, 255] or floats
            in [0, 1]) or h x w packed 0xrrggbb integers.
        xfov (float): horizontal field of view in radians
            (fx = w / (2 tan(xfov / 2))). A dict in its place (Klamp't 0.10's
            third argument) is ``intrinsics``.
        yfov (float, optional): vertical field of view; square pixels if None.
        intrinsics (dict, optional): 'fx', 'fy', 'cx', 'cy' in pixels, in
            place of the fields of view (Klamp't 0.10).
        depth_scale (float, optional): multiplies the depth values.
        depth_range (pair, optional): only depths strictly inside this range
            are valid.
        color_format (str): 'auto', 'channels' or 'rgb'.
        points_format (str): 'numpy' (N x 3, N x 4 with packed colors or N x 6
            with channels in [0, 1]), 'PointCloud', 'Geometry3D' or
            'TriangleMesh' (a grid mesh, with an Appearance of vertex colors
            when colored: returns (mesh, appearance)) or 'Heightmap' (a
            perspective Heightmap of the depth image with its colors; every
            pixel is kept, invalid ones at depth 0).
        all_points (bool): keep every pixel (invalid ones become (0, 0, 0))
            in row-major order instead of dropping the invalid ones (depth
            <= 0 or out of range).
    """
    depth = np.array(depth, dtype=float)
    if depth.ndim != 2:
        raise ValueError("depth must be a 2D image")
    h, w = depth.shape
    if depth_scale is not None:
        depth = depth * depth_scale
    if color is not None:
        color = np.asarray(color)
        if color.shape[:2] != (h, w):
            raise ValueError("color and depth need to have same dimensions")
        if color_format == 'auto':
            color_format = 'channels' if color.ndim == 3 else 'rgb'
        if color_format == 'channels':
            color = color.reshape(h, w, -1)[:, :, :3]
            color = color / 255.0 if color.dtype == np.uint8 else color.astype(float)
        elif color_format != 'rgb':
            raise ValueError("Invalid color_format " + repr(color_format))
    if points_format == 'TriangleMesh' and not all_points:
        raise NotImplementedError("A TriangleMesh result needs all_points=True")
    if isinstance(xfov, dict):
        intrinsics, xfov = xfov, None
    if intrinsics is not None:
        fx, fy, cx, cy = [float(intrinsics[k]) for k in ('fx', 'fy', 'cx', 'cy')]
    elif xfov is None:
        raise ValueError("image_to_points needs xfov or intrinsics")
    else:
        fx = 0.5 * w / math.tan(0.5 * xfov)
        fy = fx if yfov is None else 0.5 * h / math.tan(0.5 * yfov)
        cx = cy = None
    valid = depth > 0
    if depth_range is not None:
        valid &= (depth > depth_range[0]) & (depth < depth_range[1])
    if points_format == 'Heightmap':
        return _depth_heightmap(np.where(valid, depth, 0.0), color, color_format, fx, fy, cx, cy)
    pts = _back_project(np.where(valid, depth, 0.0), fx, fy, cx, cy)
    if all_points:
        pts = pts.reshape(-1, 3)
        if color is not None:
            color = color.reshape(h * w, -1) if color_format == 'channels' else color.reshape(-1)
    else:
        pts = pts[valid]
        if color is not None:
            color = color[valid]
    return _points_output(pts, color, color_format if color is not None else None, points_format, all_points, w, h)


def camera_to_points(camera, points_format='numpy', all_points=False, color_format='channels'):
    """The point cloud seen by a camera sensor, in the sensor frame (x right,
    y down, z forward).

    Pixels at the camera's maximum depth ``zmax`` (no return) are dropped, or
    set to (0, 0, 0) with ``all_points``. ``points_format`` is as in
    :func:`image_to_points`; ``color_format`` is 'channels' (r, g, b in
    [0, 1]), 'rgb' (packed 0xrrggbb) or None (no color).
    """
    _require_camera(camera)
    if not int(camera.getSetting('depth')):
        raise ValueError("Camera sensor must have a depth channel")
    images = camera_to_images(camera, 'numpy', 'rgb')
    if images is None:
        raise RuntimeError("the camera has no measurements yet")
    if int(camera.getSetting('rgb')):
        rgb, depth = images
    else:
        rgb, depth = None, images
        color_format = None
    if color_format is None:
        rgb = None
    elif color_format == 'channels':
        rgb = np.stack(_unpack_rgb(rgb), axis=2) / 255.0
    elif color_format != 'rgb':
        raise ValueError("Invalid color_format " + repr(color_format))
    xfov = float(camera.getSetting('xfov'))
    zmax = float(camera.getSetting('zmax'))
    depth = np.array(depth, dtype=float)
    depth[depth >= zmax] = 0.0
    return image_to_points(depth, rgb, xfov, None, None, None, color_format or 'auto', points_format, all_points)


def _camera_pose(camera, frame):
    """The camera's pose for Klamp't 0.9.2's robot argument (a RobotModel)
    or 0.10's frame: 'world' (and None), 'link' (relative to its link) or
    'sensor' (the identity)."""
    if frame == 'link':
        return camera.getTransform()
    if frame == 'sensor':
        return se3.identity()
    if isinstance(frame, str) and frame != 'world':
        raise ValueError("frame must be 'world', 'link' or 'sensor', got %r" % (frame,))
    return camera.getTransformWorld()


def camera_to_points_world(camera, robot=None, points_format='numpy', color_format='channels'):
    """:func:`camera_to_points` (invalid pixels dropped) in world coordinates,
    for the robot's current configuration. ``robot`` (Klamp't 0.9.2) may be
    omitted, as in Klamp't 0.10, where the second argument is points_format."""
    _require_camera(camera)
    if isinstance(robot, str):
        robot, points_format, color_format = None, robot, (points_format if points_format != 'numpy'
                                                             else color_format)
    T = _camera_pose(camera, 'world')
    pts = camera_to_points(camera, points_format, all_points=False, color_format=color_format)
    if points_format == 'numpy':
        pts = np.array(pts, dtype=float)
        pts[:, :3] = pts[:, :3] @ np.array(so3.ndarray(T[0])).T + np.asarray(T[1])
        return pts
    if points_format == 'PointCloud':
        pts.transform(*T)
        return pts
    if points_format == 'Geometry3D':
        pts.transform(*T)
        return pts
    raise ValueError("Invalid format " + str(points_format))


def camera_to_viewport(camera, robot='world') -> GLViewport:
    """A GLViewport with the camera's view: resolution, horizontal field of
    view, clipping depths and pose: in world coordinates for the robot's
    current configuration (given a robot, as in Klamp't 0.9.2, or the frame
    'world' of Klamp't 0.10), or with the frame 'link' relative to the
    camera's link, with 'sensor' at the origin. None is 0.9.2's link frame."""
    _require_camera(camera)
    T = camera.getTransform() if robot is None else _camera_pose(camera, robot)
    view = GLViewport()
    view.w, view.h = int(camera.getSetting('xres')), int(camera.getSetting('yres'))
    view.fov = math.degrees(float(camera.getSetting('xfov')))
    view.camera.dist = 1.0
    view.camera.tgt = se3.apply(T, [0.0, 0.0, 1.0])
    view.camera.set_orientation(T[0], ['x', 'y', 'z'])
    view.clippingplanes = (float(camera.getSetting('zmin')), float(camera.getSetting('zmax')))
    return view


def viewport_to_camera(viewport, camera, robot='world'):
    """Sets a camera sensor's resolution, fields of view, clipping depths and
    pose to match a viewport (a GLViewport or a :class:`klampt.Viewport`);
    returns the camera. The viewport is in world coordinates given a robot
    (Klamp't 0.9.2, its current configuration places the camera's link) or
    the frame 'world' (0.10), in the camera link's frame with 'link'; with
    None (0.10) the camera's pose is left unchanged."""
    if not isinstance(viewport, Viewport):
        raise TypeError("viewport must be a GLViewport or a klampt.Viewport")
    _require_camera(camera)
    if isinstance(viewport, GLViewport):
        T = viewport.get_transform()
    else:
        R, t = viewport.getRigidTransform()
        T = (so3.mul(R, [1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0]), t)
    link = int(camera.getSetting('link'))
    if robot is not None and robot != 'link':
        if isinstance(robot, str) and robot != 'world':
            raise ValueError("frame must be 'world', 'link' or None, got %r" % (robot,))
        if link >= 0:
            link_robot = camera.robot() if isinstance(robot, str) else robot
            T = se3.mul(se3.inv(link_robot.link(link).getTransform()), T)
    if robot is not None:
        camera.setTransform(*T)
    zmin, zmax = viewport.n, viewport.f
    xfov = viewport.getFOV()
    yfov = viewport.getVFOV()
    for name, value in (('xres', viewport.w), ('yres', viewport.h), ('xfov', xfov), ('yfov', yfov),
                        ('zmin', zmin), ('zmax', zmax)):
        camera.setSetting(name, str(value))
    return camera


def _intrinsics(camera):
    w, h = int(camera.getSetting('xres')), int(camera.getSetting('yres'))
    fx = 0.5 * w / math.tan(0.5 * float(camera.getSetting('xfov')))
    fy = 0.5 * h / math.tan(0.5 * float(camera.getSetting('yfov')))
    return w, h, fx, fy, 0.5 * w, 0.5 * h


def camera_to_intrinsics(camera, format='opencv', fn=None):
    """The camera's pinhole intrinsics fx = w / (2 tan(xfov/2)),
    fy = h / (2 tan(yfov/2)), cx = w/2, cy = h/2.

    Args:
        format (str): 'opencv' returns (K, distortion) with K the 3x3
            projection matrix and 5 zero distortion coefficients; 'numpy'
            returns K; 'json' returns a dict with fx, fy, cx, cy, model
            (None) and coeffs ([]); 'ros' needs ROS and raises.
        fn (str, optional): also saves them: .json for 'json', .npy for
            'numpy', OpenCV .yml or .xml storage for 'opencv'.
    """
    _require_camera(camera)
    w, h, fx, fy, cx, cy = _intrinsics(camera)
    K = np.array([[fx, 0.0, cx], [0.0, fy, cy], [0.0, 0.0, 1.0]])
    if format == 'json':
        data = {'fx': fx, 'fy': fy, 'cx': cx, 'cy': cy, 'model': None, 'coeffs': []}
        if fn is not None:
            with open(fn, 'w') as f:
                json.dump(data, f)
        return data
    if format == 'numpy':
        if fn is not None:
            np.save(fn, K)
        return K
    if format == 'ros':
        raise RuntimeError("camera_to_intrinsics(format='ros') needs ROS, which is not available")
    if format == 'opencv':
        dist = np.zeros(5)
        if fn is not None:
            with open(fn, 'w') as f:
                f.write(_opencv_text(fn, w, h, fx, fy, cx, cy))
        return K, dist
    raise ValueError("Invalid format, only opencv, numpy, ros, and json are supported")


def _opencv_text(fn, w, h, fx, fy, cx, cy):
    values = "%r 0. %r 0. %r %r 0. 0. 1." % (fx, cx, fy, cy)
    if fn.endswith('.yml') or fn.endswith('.yaml'):
        return ("%%YAML:1.0\nimage_width: %d\nimage_height: %d\ncamera_matrix: !!opencv-matrix\n"
                "   rows: 3\n   cols: 3\n   dt: d\n   data: [ %s ]\ndistortion_coefficients: !!opencv-matrix\n"
                "   rows: 1\n   cols: 5\n   dt: d\n   data: [ 0. 0. 0. 0. 0. ]\n"
                % (w, h, values.replace(' ', ', ').replace(',,', ',')))
    return ("<?xml version=\"1.0\"?>\n<opencv_storage>\n<cameraResolution>\n  %d %d</cameraResolution>\n"
            "<cameraMatrix type_id=\"opencv-matrix\">\n  <rows>3</rows>\n  <cols>3</cols>\n  <dt>d</dt>\n"
            "  <data>\n    %s</data></cameraMatrix>\n<dist_coeffs type_id=\"opencv-matrix\">\n  <rows>1</rows>\n"
            "  <cols>5</cols>\n  <dt>d</dt>\n  <data>\n    0. 0. 0. 0. 0.</data></dist_coeffs>\n</opencv_storage>\n"
            % (w, h, values))


def intrinsics_to_camera(data, camera, format='opencv'):
    """Sets a camera's resolution (2 cx x 2 cy) and fields of view from
    pinhole intrinsics (distortion is ignored); returns the camera.

    Args:
        data: for 'opencv' a pair (K, distortion), for 'numpy' the 3x3 K, for
            'json' a dict with fx, fy, cx, cy; or the name of a .npy / .json
            file with format 'numpy' / 'json'.
    """
    _require_camera(camera)
    if isinstance(data, str):
        if format == 'numpy':
            return intrinsics_to_camera(np.load(data), camera, format)
        if format == 'json':
            with open(data, 'r') as f:
                return intrinsics_to_camera(json.load(f), camera, format)
        raise ValueError("Only the numpy and json formats can be loaded from a file")
    if format == 'ros':
        raise RuntimeError("intrinsics_to_camera(format='ros') needs ROS, which is not available")
    if format in ('numpy', 'opencv'):
        K = np.asarray(data if format == 'numpy' else data[0], dtype=float)
        if K.shape != (3, 3):
            raise ValueError("the projection matrix must be 3x3")
        fx, fy, cx, cy = K[0, 0], K[1, 1], K[0, 2], K[1, 2]
    elif format == 'json':
        fx, fy, cx, cy = (float(data[k]) for k in ('fx', 'fy', 'cx', 'cy'))
    else:
        raise ValueError("Invalid format, only opencv, numpy, ros, and json are supported")
    w, h = int(round(cx * 2)), int(round(cy * 2))
    camera.setSetting('xres', str(w))
    camera.setSetting('yres', str(h))
    camera.setSetting('xfov', str(2 * math.atan(w / (2 * fx))))
    camera.setSetting('yfov', str(2 * math.atan(h / (2 * fy))))
    return camera


def camera_ray(camera, robot=None, x: float = None, y: float = None):
    """The world ray (source, unit direction) through pixel (x, y) of a
    camera (see :meth:`GLViewport.click_ray`): ``camera_ray(camera, robot,
    x, y)`` as in Klamp't 0.9.2 or ``camera_ray(camera, x, y)`` as in 0.10."""
    if isinstance(robot, (int, float)):
        robot, x, y = None, robot, x
    if x is None or y is None:
        raise TypeError("camera_ray needs the pixel coordinates x and y")
    return _as_view(camera, robot).click_ray(x, y)


def camera_project(camera, robot=None, pt=None, clip=True):
    """The pixel coordinates and depth (x, y, z) of world point ``pt`` in a
    camera, or None if ``clip`` and the point is outside the view frustum
    (see :meth:`GLViewport.project`): ``camera_project(camera, robot, pt,
    clip)`` as in Klamp't 0.9.2 or ``camera_project(camera, pt, clip)`` as in
    0.10."""
    if robot is not None and _is_point(robot):
        robot, pt, clip = None, robot, (clip if pt is None else pt)
    if pt is None:
        raise TypeError("camera_project needs a point")
    return _as_view(camera, robot).project(pt, clip)


def _as_view(camera, robot):
    """A GLViewport as is, else the camera's view in world coordinates."""
    if isinstance(camera, GLViewport):
        return camera
    return camera_to_viewport(camera, 'world' if robot is None else robot)


def _bbox_corners(bmin, bmax):
    return [[x, y, z] for x in (bmin[0], bmax[0]) for y in (bmin[1], bmax[1]) for z in (bmin[2], bmax[2])]


def _is_point(obj):
    return hasattr(obj, '__len__') and len(obj) == 3 and not hasattr(obj[0], '__len__')


def visible(camera, object, full=True, robot=None, require_depth=None) -> bool:
    """Whether an object is in a camera's view frustum (occlusion ignored).

    Args:
        camera (SimRobotSensor or GLViewport): the camera.
        object: a 3-vector, a sphere (center, radius), a box (bmin, bmax), a
            Geometry3D (its bounding box is tested) or a body with a
            ``geometry()`` method.
        full (bool): the whole object must be in view (True) or any part.
        robot (RobotModel): places a SimRobotSensor camera (Klamp't 0.9.2;
            a bool in its place is 0.10's require_depth).
        require_depth (bool): the object must also be within the clipping
            depths (the default, as in Klamp't 0.9.2; 0.10's default is
            False).
    """
    if isinstance(robot, bool):
        robot, require_depth = None, robot
    view = _as_view(camera, robot)
    if require_depth is False:
        import copy
        view = copy.copy(view)
        view.n, view.f = 1e-12, math.inf
    if hasattr(object, 'geometry') and callable(object.geometry):
        object = object.geometry()
    if isinstance(object, Geometry3D):
        return visible(view, object.getBB(), full, require_depth=require_depth)
    if _is_point(object):
        return view.project(object) is not None
    if not (hasattr(object, '__len__') and len(object) == 2):
        raise ValueError("Object must be a point, sphere, bounding box, or Geometry3D")
    if hasattr(object[1], '__len__'):
        bmin, bmax = object
        if len(bmin) != 3 or len(bmax) != 3:
            raise ValueError("Object must be a bounding box")
        return _box_visible(view, bmin, bmax, full)
    center, radius = object
    if len(center) != 3:
        raise ValueError("Object must be a sphere")
    return _sphere_visible(view, center, radius, full)


def _box_visible(view, bmin, bmax, full):
    corners = _bbox_corners(bmin, bmax)
    if full:
        return all(view.project(c) is not None for c in corners)
    if view.project(vectorops.interpolate(bmin, bmax, 0.5)) is not None:
        return True
    eye = view.get_transform()[1]
    if all(a <= v <= b for a, b, v in zip(bmin, bmax, eye)):
        return True
    # any corner in view, or the box crossing the frustum: clip its corners
    # to the camera's half-space and test the projected extent
    if any(view.project(c) is not None for c in corners):
        return True
    projected = [view.project(c, False) for c in corners]
    depths = [p[2] for p in projected]
    near, far = view.clippingplanes
    if max(depths) <= near or min(depths) >= far:
        return False
    front = [p for p in projected if p[2] > 0]
    if len(front) < len(projected):
        return False
    xs, ys = [p[0] for p in front], [p[1] for p in front]
    return max(xs) >= view.x and min(xs) <= view.x + view.w and max(ys) >= view.y and min(ys) <= view.y + view.h


def _sphere_visible(view, center, radius, full):
    near, far = view.clippingplanes
    p = view.project(center, False)
    if full:
        if p is None or p[2] - radius <= near or p[2] + radius >= far:
            return False
        r = radius * view.w / (p[2] * view._image_scale())
        return (view.x <= p[0] - r and p[0] + r <= view.x + view.w and view.y <= p[1] - r
                and p[1] + r <= view.y + view.h)
    if p[2] + radius <= near or p[2] - radius >= far:
        return False
    if p[2] <= 0:
        return vectorops.distance(view.get_transform()[1], center) <= radius
    r = radius * view.w / (p[2] * view._image_scale())
    cx = min(max(p[0], view.x), view.x + view.w)
    cy = min(max(p[1], view.y), view.y + view.h)
    return math.hypot(cx - p[0], cy - p[1]) <= r


def _world_bodies(world: WorldModel):
    bodies = [world.robot(i).link(j) for i in range(world.numRobots()) for j in range(world.robot(i).numLinks())]
    bodies += [world.rigidObject(i) for i in range(world.numRigidObjects())]
    bodies += [world.terrain(i) for i in range(world.numTerrains())]
    return bodies


def occluded(origin, point, occluders, tol=1e-3) -> bool:
    """Whether the segment from ``origin`` to ``point`` is blocked by one of
    the occluders (a WorldModel, or a list of Geometry3D and bodies with a
    ``geometry()``) more than ``tol`` before reaching ``point``."""
    if not occluders:
        return False
    if isinstance(occluders, WorldModel):
        occluders = _world_bodies(occluders)
    d = vectorops.sub(point, origin)
    length = vectorops.norm(d)
    if length == 0:
        return False
    direction = vectorops.div(d, length)
    segment_box = bb_create(point, origin)
    for o in occluders:
        g = o.geometry() if hasattr(o, 'geometry') and callable(o.geometry) else o
        if not isinstance(g, Geometry3D):
            raise ValueError("Occluders must be a list of Geometry3D objects or entities")
        if g.empty() or not bb_intersect(segment_box, g.getBB()):
            continue
        hit, pt = g.rayCast(origin, direction)
        if hit and vectorops.dot(vectorops.sub(pt, origin), direction) < length - tol:
            return True
    return False


def sample_visible_surface(origin, object: Geometry3D, num_samples: int) -> List[Vector3]:
    """Up to ``num_samples`` points sampled on the surface of ``object`` that
    face ``origin`` (their outward normal points toward it)."""
    samples = geometry.sample_surface(object, int(math.ceil(num_samples * 2.5)), local=False, want_normals=True)
    origin = np.asarray(origin, dtype=float)
    facing = np.einsum('ij,ij->i', origin - samples[:, :3], samples[:, 3:6]) > 0
    return samples[facing, :3][:num_samples].tolist()


def visible_fraction(camera, object, num_samples=100, robot=None, occluders=None, self_occlusion=False) -> float:
    """Estimates the fraction of an object's camera-facing surface that is in
    the camera's view and not blocked by ``occluders`` (a WorldModel or a list
    of bodies / geometries), by sampling points. ``object`` is as in
    :func:`visible`; ``self_occlusion`` also tests the object against itself
    (for non-convex meshes). Klamp't 0.10 has no ``robot``: a WorldModel or
    list in its place is ``occluders`` (and the next argument
    ``self_occlusion``)."""
    if isinstance(robot, (WorldModel, list, tuple)):
        robot, occluders, self_occlusion = None, robot, (occluders if isinstance(occluders, bool)
                                                         else self_occlusion)
    view = _as_view(camera, robot)
    origin = view.get_transform()[1]
    if isinstance(occluders, WorldModel):
        occluders = _world_bodies(occluders)
    if hasattr(object, 'geometry') and callable(object.geometry):
        object = object.geometry()
    if isinstance(object, Geometry3D):
        if object.type() not in ('TriangleMesh', 'VolumeGrid'):
            self_occlusion = False
        pts = sample_visible_surface(origin, object, num_samples)
    elif _is_point(object):
        pts = [list(object)]
        self_occlusion = False
    elif hasattr(object, '__len__') and len(object) == 2:
        prim = GeometricPrimitive()
        if hasattr(object[1], '__len__'):
            prim.setAABB(object[0], object[1])
        else:
            prim.setSphere(object[0], object[1])
        pts = sample_visible_surface(origin, Geometry3D(prim), num_samples)
        self_occlusion = False
    else:
        raise ValueError("Object must be a point, sphere, bounding box, or Geometry3D")
    if not pts:
        return 0.0
    hidden = 0
    for pt in pts:
        if (view.project(pt) is None or occluded(origin, pt, occluders)
                or (self_occlusion and occluded(origin, pt, [object]))):
            hidden += 1
    return 1.0 - hidden / len(pts)


def _sweep(sweep_type, u, stretch):
    """The simulator's sweep patterns in [-1, 1]: 0 sinusoid, 1 triangle,
    otherwise a sawtooth stretched so that the last ray of a sweep reaches 1."""
    if sweep_type == 0:
        return math.sin(2 * math.pi * u)
    if sweep_type == 1:
        return 2.0 * (1.0 + abs(math.fmod(u, 2.0) - 1.0)) - 1.0
    v = u / stretch
    return 2.0 * ((v - math.floor(v)) * stretch) - 1.0


def laser_to_points(sensor, robot=None, scan=None) -> PointCloud:
    """The points hit by a laser range sensor's rays, as a PointCloud.

    Ray i of n leaves the sensor frame's origin in direction
    (sin a, cos a sin b, cos a cos b) with a and b the x and y sweep angles of
    a full sweep (the simulator's model with a zero sweep period), and the
    point lies at the measured range along it.

    Args:
        robot (RobotModel, optional): if given, points are in world
            coordinates (robot at its current configuration); otherwise
            relative to the sensor's link.
        scan (list of float, optional): ranges; default the sensor's current
            measurements.
    """
    T = get_sensor_xform(sensor, robot)
    ranges = np.asarray(sensor.getMeasurements() if scan is None else scan, dtype=float)
    n = len(ranges)

    def setting(name, default):
        try:
            return float(sensor.getSetting(name))
        except Exception:
            return default

    xmag, ymag = setting('xSweepMagnitude', 0.0), setting('ySweepMagnitude', 0.0)
    xtype, ytype = int(setting('xSweepType', 2)), int(setting('ySweepType', 0))
    stretch = 1.0 + 1.0 / (n - 1) if n > 1 else 1.0
    points = np.zeros((n, 3))
    for i in range(n):
        u = i / (n - 1) if n > 1 else 1.0
        a = xmag * _sweep(xtype, u, stretch)
        b = ymag * _sweep(ytype, u, stretch)
        local = np.array([math.sin(a), math.cos(a) * math.sin(b), math.cos(a) * math.cos(b)]) * ranges[i]
        points[i] = se3.apply(T, local.tolist())
    pc = PointCloud()
    pc.setPoints(points)
    return pc


def projection_map_texture(vp, app: Appearance, robot=None):
    """Sets up ``app``'s texture coordinate generation to project an image
    from a camera (SimRobotSensor or GLViewport) onto its geometry; complete
    with ``app.setTexture2D(format, image)``."""
    view = _as_view(vp, robot)
    texgen = np.zeros((4, 4))
    R, t = view.get_transform('openGL')
    xdir, ydir, zdir = (so3.apply(R, axis) for axis in ([1, 0, 0], [0, 1, 0], [0, 0, 1]))
    aspect_h = view.h / view.w
    if view.orthogonal:
        texgen[0, 0:3] = vectorops.mul(xdir, 0.5 / view.fov)
        texgen[1, 0:3] = vectorops.mul(ydir, 0.5 / (view.fov * aspect_h))
        texgen[0, 3] = 0.5 - vectorops.dot(xdir, t) * 0.5 / view.fov
        texgen[1, 3] = 0.5 - vectorops.dot(ydir, t) * 0.5 / (view.fov * aspect_h)
        texgen[3, 3] = 1
    else:
        # u = S/Q, v = T/Q with Q = s zdir.(p - o), S = (-xdir + s/2 zdir).(p - o),
        # T = (-ydir/aspect + s/2 zdir).(p - o), s = 2 tan(fov/2)
        scale = 2.0 * math.tan(math.radians(view.fov) * 0.5)
        xnum = vectorops.madd(vectorops.mul(xdir, -1), zdir, 0.5 * scale)
        ynum = vectorops.madd(vectorops.div(vectorops.mul(ydir, -1), aspect_h), zdir, 0.5 * scale)
        texgen[0, 0:3] = xnum
        texgen[1, 0:3] = ynum
        texgen[0, 3] = -vectorops.dot(xnum, t)
        texgen[1, 3] = -vectorops.dot(ynum, t)
        texgen[3, 0:3] = vectorops.mul(zdir, scale)
        texgen[3, 3] = -scale * vectorops.dot(zdir, t)
    app.setTexgen(texgen, True)
