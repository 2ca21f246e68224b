"""Extrinsic (hand-eye) calibration of cameras and markers on a robot.

A :class:`RobotExtrinsicCalibration` holds cameras (:class:`CameraInfo`),
markers (:class:`PointMarker`, :class:`TransformMarker`), the robot
configurations of the captured frames and the detections in them
(:class:`PixelObservation`, :class:`PointObservation`,
:class:`TransformObservation`).  :meth:`~RobotExtrinsicCalibration.optimize`
finds the camera and marker poses (relative to their links) that best explain
the detections::

    calib = RobotExtrinsicCalibration()
    calib.robot = world.robot(0)
    calib.cameras[0] = CameraInfo(link=None, intrinsics={'fx': 600, 'fy': 600, 'cx': 320, 'cy': 240})
    calib.markers[0] = TransformMarker(link=6)
    calib.executeTrajectory(controller, traj, take_picture, detect_markers)
    rmse, cameras, markers = calib.optimize()

Camera coordinates: x right, y down, z forward (m); pixels: x right, y down.
"""
from ..robotsim import *  # noqa: F401,F403  (Klamp't's module star-imports klampt)
import json
import logging
import math
import os
import random
import warnings
from typing import Callable, Dict, List, Sequence, Tuple, Union

from .. import _providers
from ..io import resource
from ..math import se3, so3, vectorops
from ..robotsim import RobotModel, WorldModel
from . import sensing
from .trajectory import RobotTrajectory
from .typing import RigidTransform, Vector, Vector2, Vector3

Key = Union[int, str]

_log = logging.getLogger(__name__)


def robot_sensors(robot: RobotModel, type=None):
    """The robot's sensors (of the given type, e.g. 'CameraSensor')."""
    res = []
    i = 0
    while True:
        s = robot.sensor(i)
        if s.name() == '':
            return res
        if type is None or s.type() == type:
            res.append(s)
        i += 1


class PointMarker:
    """A point marker detectable in images.

    Attributes:
        link (int or str, optional): the link it is fixed to (None: the
            world).
        size (float): drawing size (m).
        local_coordinates (3-vector, optional): its position on the link.
        variable (bool): whether :meth:`RobotExtrinsicCalibration.optimize`
            estimates it.
    """

    def __init__(self, link=None, local_coordinates=None):
        self.link = link
        self.size = 0.01
        self.local_coordinates = local_coordinates
        self.variable = True


class TransformMarker:
    """A marker with an orientation (a tag or a chessboard): its pose, or
    its feature points, can be detected.

    Attributes:
        link (int or str, optional): the link it is fixed to (None: world).
        size (float): drawing size (m).
        local_coordinates (se3 element, optional): its pose on the link.
        local_features (list of 3-vectors): feature points in the marker's
            frame.
        variable (bool): whether it is estimated.
    """

    def __init__(self, link=None, local_coordinates=None, local_features=None):
        self.link = link
        self.size = 0.1
        self.local_coordinates = local_coordinates
        self.local_features = [] if local_features is None else local_features
        self.variable = True

    @staticmethod
    def chessboard(nrows, ncols, square_size, link=None):
        """A chessboard of nrows x ncols inner corners: feature
        ``j*nrows + i`` is at ``(i*square_size, j*square_size, 0)``."""
        m = TransformMarker(link=link)
        m.size = square_size
        m.local_features = [[i * square_size, j * square_size, 0.0] for j in range(ncols) for i in range(nrows)]
        return m


class CameraInfo:
    """A camera to calibrate.

    Attributes:
        link (int or str, optional): the link it is fixed to (None: world).
        intrinsics (dict): 'fx', 'fy', 'cx', 'cy' (needed for pixel
            observations).
        local_coordinates (se3 element, optional): its pose on the link.
        variable (bool): whether it is estimated.
    """

    def __init__(self, link, intrinsics=None, local_coordinates=None):
        self.link = link
        self.intrinsics = intrinsics
        self.local_coordinates = local_coordinates
        self.variable = True


class _Observation:
    kind = None

    def __init__(self, value, camera_id, frame_id, marker_id, feature_id=None):
        self.camera_id = camera_id
        self.frame_id = frame_id
        self.marker_id = marker_id
        self.feature_id = feature_id
        self.value = value
        #: standard deviation of the value (a float or one per component)
        self.error = None
        #: camera link frame -> marker link frame at this frame's configuration
        self.hand_eye_transform = None


class PointObservation(_Observation):
    """A 3D point (m) measured in a camera's frame."""
    kind = 'Point'


class TransformObservation(_Observation):
    """A marker pose measured in a camera's frame."""
    kind = 'Transform'

    def __init__(self, value, camera_id, frame_id, marker_id):
        _Observation.__init__(self, value, camera_id, frame_id, marker_id)


class PixelObservation(_Observation):
    """A pixel (x right, y down) where a camera saw a marker or feature."""
    kind = 'Pixel'


def _linkIndex(link, robot):
    if link is None:
        return -1
    if isinstance(link, int):
        return link
    if robot is None:
        raise ValueError("Link %r needs a robot" % (link,))
    return robot.link(link).getIndex()


def _linkTransform(link, robot):
    i = _linkIndex(link, robot)
    return se3.identity() if i < 0 else robot.link(i).getTransform()


def _worldTransform(link, robot, localTransform):
    T = se3.identity() if localTransform is None else localTransform
    return se3.mul(_linkTransform(link, robot), T)


def _worldPosition(link, robot, localPosition):
    p = [0.0] * 3 if localPosition is None else localPosition
    return se3.apply(_linkTransform(link, robot), p)


def _localTransform(link, robot, worldTransform):
    T = se3.identity() if worldTransform is None else worldTransform
    return se3.mul(se3.inv(_linkTransform(link, robot)), T)


def _localPosition(link, robot, worldPosition):
    p = [0.0] * 3 if worldPosition is None else worldPosition
    return se3.apply(se3.inv(_linkTransform(link, robot)), p)


def _project(intrinsics, xyz):
    if intrinsics is None:
        raise ValueError("Pixel observations need the camera's intrinsics")
    if xyz[2] <= 0:
        # behind the camera: a large residual instead of a division by zero
        return [1e6, 1e6]
    return [intrinsics['fx'] * xyz[0] / xyz[2] + intrinsics['cx'], intrinsics['fy'] * xyz[1] / xyz[2] + intrinsics['cy']]


def _plain(x):
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, 'tolist'):
        return x.tolist()
    return x


class RobotExtrinsicCalibration:
    """A calibration data set: cameras, markers, frames (images with the
    robot configuration at capture) and detections; estimates the camera
    and marker poses.

    Attributes:
        robot (RobotModel): the robot.
        world (WorldModel, optional): for visualization.
        trajectory (RobotTrajectory, optional): the calibration motion.
        cameras (dict): key -> :class:`CameraInfo`.
        markers (dict): key -> :class:`PointMarker` or :class:`TransformMarker`.
        frames (list): the images (None when not kept).
        frame_camera_ids (list): the camera of each frame.
        configurations (list): the robot configuration of each frame.
        observations (list): the detections.

    Fix a camera or marker (``variable = False``, with local_coordinates)
    to calibrate the others against it.
    """

    def __init__(self) -> None:
        self.robot = None
        self.world = None
        self.trajectory = None
        self.cameras = dict()
        self.markers = dict()
        self.frames = []
        self.frame_camera_ids = []
        self.configurations = []
        self.observations = []

    def cameraFromRobot(self, sensors=None) -> None:
        """Takes the cameras from the robot model's CameraSensors: sensors is
        None (the first), 'all', or names/indices."""
        if self.robot is None:
            raise ValueError("Set the robot first")
        if sensors is None or sensors == 'all':
            found = robot_sensors(self.robot, 'CameraSensor')
            if not found:
                raise ValueError("The robot has no camera sensor")
            if sensors is None:
                found = found[:1]
        else:
            found = []
            for key in (sensors if isinstance(sensors, (list, tuple)) else [sensors]):
                s = self.robot.sensor(key)
                if s.name() == '':
                    raise ValueError("The robot has no sensor %r" % (key,))
                if s.type() != 'CameraSensor':
                    raise ValueError("Sensor %r is a %s, not a CameraSensor" % (key, s.type()))
                found.append(s)
        self.cameras = dict()
        for s in found:
            cam = CameraInfo(int(s.getSetting('link')))
            cam.intrinsics = sensing.camera_to_intrinsics(s, 'json')
            cam.local_coordinates = sensing.get_sensor_xform(s)
            self.cameras[s.name()] = cam

    def editTrajectory(self, world=None, name='calibration_trajectory') -> RobotTrajectory:
        """Edits the calibration trajectory (through the configurations) in
        klampt.io.resource's visual editor; returns it."""
        if world is None:
            world = self.world
        if world is None:
            if self.robot is None:
                raise ValueError("Editing the trajectory needs a robot")
            world = WorldModel()
            world.add('robot', self.robot)
        if self.trajectory is None and self.configurations:
            self.trajectory = RobotTrajectory(self.robot, list(range(len(self.configurations))),
                                              [list(q) for q in self.configurations])
        save, newtraj = resource.edit(name, self.trajectory, 'Trajectory', world=world)
        if save:
            self.trajectory = newtraj
        return self.trajectory

    def executeTrajectory(self, controller, traj: RobotTrajectory, camera_fn: Union[Callable, Dict[Key, Callable]],
                          detect_fn: Callable = None, speed=1.0, wait=0.0) -> None:
        """Moves an initialized robot interface to each milestone of traj
        and captures a frame there (after half of ``wait`` seconds of
        settling, simulated time on simulated robots).

        Args:
            controller (RobotInterfaceBase): the robot.
            traj (RobotTrajectory): milestones in link space.
            camera_fn (callable or dict of callables): camera_fn() returns an
                image (per camera id for a dict).
            detect_fn (callable, optional): see :meth:`addFrame`.
            speed (float): moveToPosition's speed.
            wait (float): seconds to hold at each milestone.
        """
        if self.robot is None:
            raise ValueError("Set the robot first")
        asynchronous = controller.properties.get('asynchronous', False)

        def in_step(fn):
            if asynchronous:
                return fn()
            controller.beginStep()
            try:
                return fn()
            finally:
                controller.endStep()

        def hold(seconds):
            if seconds > 0:
                t0 = in_step(controller.clock)
                controller.wait(condition=lambda: controller.clock() - t0 >= seconds)

        for i, q in enumerate(traj.milestones):
            _log.info("Calibration: moving to milestone %d", i)
            in_step(lambda: controller.moveToPosition(self.robot.configToDrivers(q), speed))
            controller.wait()
            hold(wait * 0.5)
            if camera_fn:
                sensed = self.robot.configFromDrivers(in_step(controller.sensedPosition))
                fns = camera_fn.items() if isinstance(camera_fn, dict) else [(None, camera_fn)]
                for cam, fn in fns:
                    self.addFrame(fn(), sensed, camera_id=cam, detect_fn=detect_fn)
            hold(wait * 0.5)

    def visualize(self, world=None, edit=False) -> None:
        """Shows the robot, cameras, markers and observations in klampt.vis
        (edit: lets the user drag the camera and marker poses, then stores
        them)."""
        world = world if world is not None else self.world
        items = {}
        if world is not None:
            items['world'] = world
        elif self.robot is not None:
            items['robot'] = self.robot
        cams, marks = self.cameraTransforms(world=True), self.markerTransforms(world=True)
        items.update(('camera ' + str(k), T) for k, T in cams.items())
        items.update(('marker ' + str(k), T) for k, T in marks.items())
        editable = [name for name in items if name.startswith(('camera ', 'marker '))] if edit else []
        edited = _providers.provider('calibrate.show_and_edit')(items, editable)
        for k in cams:
            if 'camera ' + str(k) in edited:
                self.setCameraTransform(k, edited['camera ' + str(k)], world=True)
        for k in marks:
            if 'marker ' + str(k) in edited:
                self.setMarkerTransform(k, edited['marker ' + str(k)], world=True)

    def editCalibration(self, world=None) -> None:
        """visualize(world, edit=True), starting unset poses at identity."""
        for c in self.cameras.values():
            if c.local_coordinates is None:
                c.local_coordinates = se3.identity()
        for m in self.markers.values():
            if m.local_coordinates is None:
                m.local_coordinates = se3.identity() if isinstance(m, TransformMarker) else [0.0] * 3
        self.visualize(world, True)

    def _handEye(self, q, camera_id, marker_id):
        self.robot.setConfig(q)
        Tc = _linkTransform(self.cameras[camera_id].link, self.robot)
        Tm = _linkTransform(self.markers[marker_id].link, self.robot)
        return se3.mul(se3.inv(Tc), Tm)

    def addFrame(self, frame, q: Vector = None, camera_id: Key = None, detect_fn: Callable = None) -> None:
        """Adds a captured frame with the robot configuration q (link
        space).  detect_fn(frame), if given, returns observations or
        ``(marker, value)`` / ``((marker, feature), value)`` pairs, which are
        added with their hand-eye transforms."""
        if q is not None:
            if self.robot is None:
                raise ValueError("Set the robot first")
            if len(q) != self.robot.numLinks():
                raise ValueError("q must have %d entries, got %d" % (self.robot.numLinks(), len(q)))
        if camera_id is None:
            if not self.cameras:
                raise ValueError("Add a camera first")
            camera_id = next(iter(self.cameras))
        if camera_id not in self.cameras:
            raise ValueError("No camera %r" % (camera_id,))
        frame_id = len(self.frames)
        self.frames.append(frame)
        self.configurations.append(None if q is None else list(q))
        self.frame_camera_ids.append(camera_id)
        if detect_fn is None:
            return
        for det in detect_fn(frame):
            if isinstance(det, _Observation):
                if det.marker_id not in self.markers:
                    raise ValueError("Detection of unknown marker %r (markers: %s)"
                                     % (det.marker_id, list(self.markers)))
                det.camera_id = camera_id
                det.frame_id = frame_id
                if q is not None:
                    det.hand_eye_transform = self._handEye(q, camera_id, det.marker_id)
                self.observations.append(det)
            else:
                marker, value = det
                feature = None
                if isinstance(marker, (list, tuple)):
                    marker, feature = marker
                self.addDetection(value, frame_id, marker, feature, camera_id)

    def addDetection(self, value: Union[Vector2, Vector3, RigidTransform], frame_id: int, marker_id: Key,
                     feature_id: int = None, camera_id: Key = None,
                     error: Union[float, Sequence[float]] = None):
        """Adds a detection: a pixel (2 numbers), a point (3) or a marker
        pose (se3) in camera coordinates; error is its standard deviation.
        Returns the observation."""
        if not 0 <= frame_id < len(self.frames):
            raise ValueError("No frame %d" % frame_id)
        if marker_id not in self.markers:
            raise ValueError("No marker %r" % (marker_id,))
        if camera_id is None:
            camera_id = self.frame_camera_ids[frame_id]
        if camera_id not in self.cameras:
            raise ValueError("No camera %r" % (camera_id,))
        marker = self.markers[marker_id]
        if feature_id is not None:
            if not isinstance(marker, TransformMarker):
                raise ValueError("A point marker has no features")
            if not 0 <= feature_id < len(marker.local_features):
                raise ValueError("Marker %r has no feature %d" % (marker_id, feature_id))
        if len(value) == 2 and not hasattr(value[0], '__iter__'):
            obs = PixelObservation(list(value), camera_id, frame_id, marker_id, feature_id)
        elif len(value) == 2:
            if not isinstance(marker, TransformMarker):
                raise ValueError("A pose detection needs a TransformMarker")
            obs = TransformObservation((list(value[0]), list(value[1])), camera_id, frame_id, marker_id)
        elif len(value) == 3:
            obs = PointObservation(list(value), camera_id, frame_id, marker_id, feature_id)
        else:
            raise ValueError("A detection is a pixel, a point or a pose")
        if isinstance(marker, TransformMarker) and obs.kind != 'Transform' and feature_id is None:
            raise ValueError("A pixel or point detection of a TransformMarker names its feature")
        obs.error = error
        q = self.configurations[frame_id]
        if self.robot is not None and q is not None:
            obs.hand_eye_transform = self._handEye(q, camera_id, marker_id)
        self.observations.append(obs)
        return obs

    def cameraTransforms(self, world=False) -> Dict[Key, RigidTransform]:
        """The cameras' poses on their links (world: in the world, at the
        robot's current configuration)."""
        if world:
            return dict((k, _worldTransform(c.link, self.robot, c.local_coordinates)) for k, c in self.cameras.items())
        return dict((k, c.local_coordinates if c.local_coordinates is not None else se3.identity())
                    for k, c in self.cameras.items())

    def markerTransforms(self, world=False) -> Dict[Key, Union[RigidTransform, Vector3]]:
        """The markers' poses (points for point markers) on their links, or
        in the world."""
        res = dict()
        for k, m in self.markers.items():
            point = isinstance(m, PointMarker)
            if world:
                res[k] = (_worldPosition if point else _worldTransform)(m.link, self.robot, m.local_coordinates)
            elif m.local_coordinates is not None:
                res[k] = m.local_coordinates
            else:
                res[k] = [0.0] * 3 if point else se3.identity()
        return res

    def setCameraTransform(self, camera: Key, T: RigidTransform, world=False):
        """Sets a camera's pose (world: given in the world frame at the
        robot's current configuration)."""
        c = self.cameras[camera]
        c.local_coordinates = _localTransform(c.link, self.robot, T) if world else T

    def setMarkerTransform(self, marker: Key, T, world=False):
        """Sets a marker's pose (a point for a point marker)."""
        m = self.markers[marker]
        if world:
            T = (_localTransform if isinstance(m, TransformMarker) else _localPosition)(m.link, self.robot, T)
        m.local_coordinates = T

    def _transforms(self, camera_transforms, marker_transforms):
        def fill(given, items, what):
            if given is None:
                given = dict()
            elif not isinstance(given, dict):
                if len(items) != 1:
                    raise ValueError("Give the %s transforms as a dict" % what)
                given = {next(iter(items)): given}
            res = dict(given)
            for k, item in items.items():
                if k not in res:
                    if item.local_coordinates is None:
                        raise ValueError("No transform for %s %r" % (what, k))
                    res[k] = item.local_coordinates
            return res
        return fill(camera_transforms, self.cameras, 'camera'), fill(marker_transforms, self.markers, 'marker')

    def _predict(self, o, cams, marks):
        """The predicted value of observation o."""
        if o.hand_eye_transform is None:
            raise ValueError("Observation of frame %d has no hand-eye transform (no configuration)" % o.frame_id)
        cam = self.cameras[o.camera_id]
        marker = self.markers[o.marker_id]
        Tc_inv = se3.inv(cams[o.camera_id])
        if isinstance(marker, TransformMarker):
            Tm_c = se3.mul(Tc_inv, se3.mul(o.hand_eye_transform, marks[o.marker_id]))
            if o.kind == 'Transform':
                return Tm_c
            xyz = se3.apply(Tm_c, marker.local_features[o.feature_id])
        else:
            if o.kind == 'Transform':
                raise ValueError("A point marker cannot be observed as a transform")
            xyz = se3.apply(Tc_inv, se3.apply(o.hand_eye_transform, marks[o.marker_id]))
        return _project(cam.intrinsics, xyz) if o.kind == 'Pixel' else xyz

    def predictedObservations(self, camera_transforms=None, marker_transforms=None, noise=False) -> List:
        """The observations the given (or stored) camera and marker
        transforms predict, one per entry of ``self.observations``; with
        ``noise`` (a scale), Gaussian noise of the observations' errors is
        added (for synthetic data)."""
        cams, marks = self._transforms(camera_transforms, marker_transforms)
        scale = 0.0 if noise is False else float(noise)

        def noisy(value, error):
            if scale == 0:
                return value
            sig = error if hasattr(error, '__iter__') else [1.0 if error is None else error] * len(value)
            return [v + random.gauss(0, scale * s) for v, s in zip(value, sig)]
        res = []
        for o in self.observations:
            v = self._predict(o, cams, marks)
            if o.kind == 'Transform':
                if scale:
                    d = noisy([0.0] * 6, o.error)
                    v = se3.mul((so3.from_moment(d[:3]), d[3:]), v)
                p = TransformObservation(v, o.camera_id, o.frame_id, o.marker_id)
            else:
                p = type(o)(noisy(list(v), o.error), o.camera_id, o.frame_id, o.marker_id, o.feature_id)
            p.error = o.error
            p.hand_eye_transform = o.hand_eye_transform
            res.append(p)
        return res

    def predictedResiduals(self, camera_transforms=None, marker_transforms=None) -> List[Vector]:
        """prediction - observation for each observation (a pose error
        ``se3.error`` of 6 entries for transforms)."""
        cams, marks = self._transforms(camera_transforms, marker_transforms)
        res = []
        for o in self.observations:
            v = self._predict(o, cams, marks)
            res.append(list(se3.error(v, o.value)) if o.kind == 'Transform' else vectorops.sub(v, o.value))
        return res

    def predictedLogLikelihoods(self, camera_transforms=None, marker_transforms=None) -> List[float]:
        """The Gaussian log-likelihood of each observation's residual under
        its error (1 when unset), one per observation."""
        log2pi = math.log(2 * math.pi)
        out = []
        for r, o in zip(self.predictedResiduals(camera_transforms, marker_transforms), self.observations):
            sig = o.error if hasattr(o.error, '__iter__') else [1.0 if o.error is None else o.error] * len(r)
            out.append(sum(-0.5 * (x / s) ** 2 - 0.5 * log2pi - math.log(s) for x, s in zip(r, sig)))
        return out

    def optimize(self, maxIters=100, tol=1e-7, regularizationFactor=0.0,
                 store=True) -> Tuple[float, Dict[Key, RigidTransform], Dict[Key, RigidTransform]]:
        """Estimates the variable cameras and markers by nonlinear least
        squares on the observations' residuals, weighted by 1/error
        (scipy.optimize.least_squares, from the stored poses; unset ones
        start at identity / the origin).  regularizationFactor pulls toward
        the start.  Returns (RMSE, camera transforms, marker transforms) and,
        with store, keeps the result."""
        import numpy as np
        from scipy.optimize import least_squares
        if not self.observations:
            raise ValueError("No observations to calibrate from")
        cams0 = self.cameraTransforms()
        marks0 = self.markerTransforms()
        variables = [('camera', k) for k, c in self.cameras.items() if c.variable]
        variables += [('marker', k) for k, m in self.markers.items() if m.variable]

        def size(kind, k):
            return 3 if kind == 'marker' and isinstance(self.markers[k], PointMarker) else 6

        def pack():
            xs = []
            for kind, k in variables:
                T = (cams0 if kind == 'camera' else marks0)[k]
                xs += list(T) if size(kind, k) == 3 else list(so3.moment(T[0])) + list(T[1])
            return np.array(xs, dtype=float)

        def unpack(x):
            cams, marks = dict(cams0), dict(marks0)
            i = 0
            for kind, k in variables:
                n = size(kind, k)
                v = x[i:i + n].tolist()
                T = v if n == 3 else (so3.from_moment(v[:3]), v[3:])
                (cams if kind == 'camera' else marks)[k] = T
                i += n
            return cams, marks

        weights = []
        for o in self.observations:
            n = 6 if o.kind == 'Transform' else (2 if o.kind == 'Pixel' else 3)
            e = o.error if hasattr(o.error, '__iter__') else [1.0 if o.error is None else o.error] * n
            weights.append(1.0 / np.asarray(e, dtype=float))
        x0 = pack()

        def residuals(x):
            cams, marks = unpack(x)
            r = [np.asarray(e) * w for e, w in zip(self.predictedResiduals(cams, marks), weights)]
            if regularizationFactor:
                r.append(math.sqrt(regularizationFactor) * (x - x0))
            return np.concatenate(r)

        def rmse(cams, marks):
            res = self.predictedResiduals(cams, marks)
            return math.sqrt(sum(vectorops.normSquared(e) for e in res) / len(res))

        _log.info("Calibration: initial RMSE %g", rmse(cams0, marks0))
        if len(x0):
            sol = least_squares(residuals, x0, xtol=tol, ftol=tol, gtol=tol, max_nfev=maxIters * (len(x0) + 1))
            x = sol.x
        else:
            x = x0
        cams, marks = unpack(x)
        err = rmse(cams, marks)
        _log.info("Calibration: final RMSE %g", err)
        if store:
            for kind, k in variables:
                if kind == 'camera':
                    self.cameras[k].local_coordinates = cams[k]
                else:
                    self.markers[k].local_coordinates = marks[k]
        return err, cams, marks

    def updateRobotSensors(self) -> None:
        """Writes the camera poses into the robot model's camera sensors
        (adding a CameraSensor for a camera the robot lacks)."""
        if self.robot is None:
            raise ValueError("Set the robot first")
        for k, c in self.cameras.items():
            s = self._cameraSensor(k)
            if s is None:
                s = self.robot.addSensor(str(k), 'CameraSensor')
                if c.intrinsics:
                    sensing.intrinsics_to_camera(c.intrinsics, s, 'json')
                s.setSetting('zmin', '0.1')
                s.setSetting('zmax', '10')
            s.setSetting('link', str(_linkIndex(c.link, self.robot)))
            sensing.set_sensor_xform(s, c.local_coordinates if c.local_coordinates is not None else se3.identity())

    def _cameraSensor(self, key):
        """The robot's CameraSensor of a camera key: the sensor of that
        index or name, else the one named str(key); None if neither is a
        camera (a camera key 0 is not the robot's sensor 0 when that is a
        joint sensor)."""
        for k in ([key, str(key)] if isinstance(key, int) else [str(key)]):
            s = self.robot.sensor(k)
            if s.name() != '' and s.type() == 'CameraSensor':
                return s
        return None

    def save(self, fn) -> None:
        """Saves everything but the images as JSON (a path or a file)."""
        if isinstance(fn, str):
            with open(fn, 'w') as f:
                return self.save(f)
        obj = {
            'cameras': dict((str(k), {'link': c.link, 'intrinsics': c.intrinsics,
                                      'local_coordinates': _plain(c.local_coordinates), 'variable': c.variable})
                            for k, c in self.cameras.items()),
            'markers': dict((str(k), {'type': 'Point' if isinstance(m, PointMarker) else 'Transform', 'link': m.link,
                                      'local_coordinates': _plain(m.local_coordinates),
                                      'local_features': _plain(getattr(m, 'local_features', None)),
                                      'variable': m.variable})
                            for k, m in self.markers.items()),
            'frames': [None] * len(self.frames),
            'frame_camera_ids': list(self.frame_camera_ids),
            'configurations': _plain(self.configurations),
            'observations': [{'type': o.kind, 'value': _plain(o.value), 'camera_id': o.camera_id,
                              'frame_id': o.frame_id, 'marker_id': o.marker_id, 'feature_id': o.feature_id,
                              'error': _plain(o.error)} for o in self.observations],
        }
        if self.robot is not None:
            obj['robot'] = self.robot.getName()
        json.dump(obj, fn, indent=2)

    def load(self, fn) -> None:
        """Loads a file written by :meth:`save` (images are None); keys that
        look like integers become integers.  Hand-eye transforms are
        recomputed when the robot is set."""
        if isinstance(fn, str):
            with open(fn) as f:
                return self.load(f)
        obj = json.load(fn)
        if self.robot is not None and obj.get('robot') not in (None, self.robot.getName()):
            warnings.warn("The calibration file is for robot %s, not %s" % (obj['robot'], self.robot.getName()))

        def key(k):
            try:
                return int(k)
            except ValueError:
                return k
        self.cameras = dict()
        for k, c in obj['cameras'].items():
            cam = CameraInfo(c['link'], c['intrinsics'], c['local_coordinates'])
            cam.variable = c['variable']
            self.cameras[key(k)] = cam
        self.markers = dict()
        for k, m in obj['markers'].items():
            if m['type'] == 'Point':
                mk = PointMarker(m['link'], m['local_coordinates'])
            else:
                mk = TransformMarker(m['link'], m['local_coordinates'], m['local_features'])
            mk.variable = m['variable']
            self.markers[key(k)] = mk
        self.frames = list(obj['frames'])
        self.frame_camera_ids = [key(k) if isinstance(k, str) else k for k in obj['frame_camera_ids']]
        self.configurations = obj['configurations']
        self.observations = []
        classes = {'Pixel': PixelObservation, 'Point': PointObservation}
        for o in obj['observations']:
            cam, mk = key(o['camera_id']) if isinstance(o['camera_id'], str) else o['camera_id'], o['marker_id']
            mk = key(mk) if isinstance(mk, str) else mk
            if o['type'] == 'Transform':
                ob = TransformObservation(o['value'], cam, o['frame_id'], mk)
            else:
                ob = classes[o['type']](o['value'], cam, o['frame_id'], mk, o['feature_id'])
            ob.error = o.get('error')
            q = self.configurations[ob.frame_id] if ob.frame_id < len(self.configurations) else None
            if self.robot is not None and q is not None:
                ob.hand_eye_transform = self._handEye(q, cam, mk)
            self.observations.append(ob)

    def saveFrames(self, dirname: str, pattern: str = 'frame{:04d}.png') -> None:
        """Saves the images (numpy arrays) to dirname (needs Pillow)."""
        try:
            from PIL import Image
        except ImportError:
            raise RuntimeError("saveFrames needs the Pillow package")
        os.makedirs(dirname, exist_ok=True)
        for i, f in enumerate(self.frames):
            if f is not None:
                Image.fromarray(f).save(os.path.join(dirname, pattern.format(i)))


__all__ = ['robot_sensors', 'PointMarker', 'TransformMarker', 'CameraInfo', 'PointObservation',
           'TransformObservation', 'PixelObservation', 'RobotExtrinsicCalibration']
