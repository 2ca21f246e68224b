"""klampt.model.calibrate: hand-eye calibration recovers the camera and
marker poses that generated synthetic detections (pixels of a chessboard on
the tx90l's flange seen by a fixed camera; points of a marker), also when
the frames are captured by driving a robot interface through a
trajectory."""
import math
import random

import pytest

from conftest import load_shared_world

from klampt.control.robotinterfaceutils import RobotInterfaceCompleter
from klampt.control.simrobotinterface import KinematicSimControlInterface
from klampt.math import se3, so3, vectorops
from klampt.model.calibrate import (CameraInfo, PixelObservation, PointMarker, RobotExtrinsicCalibration,
                                    TransformMarker)
from klampt.model.trajectory import RobotTrajectory

INTRINSICS = {'fx': 600.0, 'fy': 600.0, 'cx': 320.0, 'cy': 240.0}
MARKER = (so3.from_rpy((0.1, -0.2, 0.3)), [0.02, -0.01, 0.05])
CONFIGS = [[0, 0.2 * k - 0.4, -0.5 + 0.1 * k, 1.2 - 0.1 * k, 0.3 * k - 0.6, 0.8 - 0.05 * k, 0.2 * k] for k in range(6)]


def look_at(eye, target):
    """A camera pose at eye looking at target (z forward, y down)."""
    z = vectorops.unit(vectorops.sub(target, eye))
    x = vectorops.unit(vectorops.cross(z, [0, 0, 1]))
    y = vectorops.cross(z, x)
    # columns of the rotation: the camera axes in the world
    return (list(x) + list(y) + list(z), eye)


def setup():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    calib = RobotExtrinsicCalibration()
    calib.robot = w.robot(0)
    calib.cameras[0] = CameraInfo(None, INTRINSICS, look_at([2.0, 0.3, 1.4], [0.5, 0, 1.0]))
    board = TransformMarker.chessboard(3, 3, 0.04, link=6)
    board.local_coordinates = MARKER
    calib.markers['board'] = board
    return w, calib


def detect_all(calib, q, frame_id):
    """The true pixels of every chessboard corner at configuration q."""
    truth = {0: calib.cameras[0].local_coordinates}
    for f in range(len(calib.markers['board'].local_features)):
        obs = calib.addDetection([0.0, 0.0], frame_id, 'board', f)
        obs.value = calib.predictedObservations(truth, None)[-1].value
    return truth


def test_chessboard_features_and_world_transforms():
    board = TransformMarker.chessboard(2, 3, 0.05)
    assert board.local_features == [[0, 0, 0], [0.05, 0, 0], [0, 0.05, 0], [0.05, 0.05, 0], [0, 0.1, 0],
                                    [0.05, 0.1, 0]]
    w, calib = setup()
    calib.markers['dot'] = PointMarker(6, [0.1, 0, 0])
    robot = calib.robot
    robot.setConfig(CONFIGS[2])
    # a point marker's world position is the link transform applied to it
    assert calib.markerTransforms(world=True)['dot'] == pytest.approx(robot.link(6).getWorldPosition([0.1, 0, 0]))
    calib.setMarkerTransform('dot', robot.link(6).getWorldPosition([0.2, 0.1, 0]), world=True)
    assert calib.markers['dot'].local_coordinates == pytest.approx([0.2, 0.1, 0])


def test_optimize_recovers_camera_and_marker_from_pixels():
    w, calib = setup()
    true_camera = calib.cameras[0].local_coordinates
    for k, q in enumerate(CONFIGS):
        calib.addFrame(None, q)
        detect_all(calib, q, k)
    assert all(isinstance(o, PixelObservation) for o in calib.observations)
    assert len(calib.observations) == 6 * 9
    # exact poses explain the data exactly
    assert max(vectorops.norm(r) for r in calib.predictedResiduals()) < 1e-9
    # start from perturbed poses
    calib.cameras[0].local_coordinates = se3.mul(true_camera, (so3.from_rpy((0.05, -0.04, 0.03)), [0.05, -0.03, 0.04]))
    calib.markers['board'].local_coordinates = (so3.identity(), [0, 0, 0])
    assert max(vectorops.norm(r) for r in calib.predictedResiduals()) > 10
    rmse, cams, marks = calib.optimize()
    assert rmse < 1e-4
    assert se3.error(cams[0], true_camera) == pytest.approx([0] * 6, abs=1e-5)
    assert se3.error(marks['board'], MARKER) == pytest.approx([0] * 6, abs=1e-5)
    assert calib.cameras[0].local_coordinates == cams[0]
    # log-likelihoods: Gaussian with unit errors, one per observation
    ll = calib.predictedLogLikelihoods()
    assert len(ll) == len(calib.observations)
    assert ll[0] == pytest.approx(-math.log(2 * math.pi), abs=1e-6)


def test_fixed_marker_and_point_observations_with_noise(tmp_path):
    w, calib = setup()
    truth_cam = calib.cameras[0].local_coordinates
    calib.markers['dot'] = PointMarker(6, [0.0, 0.05, 0.1])
    calib.markers['board'].variable = False
    for k, q in enumerate(CONFIGS):
        calib.addFrame(None, q)
        obs = calib.addDetection([0.0, 0.0, 1.0], k, 'dot', error=0.001)
        obs.value = calib.predictedObservations()[-1].value
        detect_all(calib, q, k)
    random.seed(1)      # the noise is drawn with the random module
    noisy = calib.predictedObservations(noise=1.0)
    for o, n in zip(calib.observations, noisy):
        o.value = n.value
    calib.cameras[0].local_coordinates = se3.mul(truth_cam, (so3.identity(), [0.1, 0, 0]))
    calib.markers['dot'].local_coordinates = [0, 0, 0]
    rmse, cams, marks = calib.optimize()
    assert rmse < 2.0
    assert vectorops.distance(marks['dot'], [0.0, 0.05, 0.1]) < 0.005
    # 1 px of noise: the camera lands 2-16 mm off over seeds 0-11
    assert vectorops.distance(cams[0][1], truth_cam[1]) < 0.025
    # the fixed marker kept its pose
    assert marks['board'] == MARKER
    # save / load round trip
    fn = str(tmp_path / 'calib.json')
    calib.save(fn)
    other = RobotExtrinsicCalibration()
    other.robot = calib.robot
    other.load(fn)
    assert set(other.cameras) == {0} and set(other.markers) == {'board', 'dot'}
    flat = [x for r in calib.predictedResiduals() for x in r]
    assert [x for r in other.predictedResiduals() for x in r] == pytest.approx(flat, abs=1e-9)


def test_execute_trajectory_on_a_robot_interface():
    w, calib = setup()
    truth = (calib.cameras[0].local_coordinates, MARKER)
    c = RobotInterfaceCompleter(KinematicSimControlInterface(w.robot(0)))
    assert c.initialize()
    traj = RobotTrajectory(calib.robot, list(range(len(CONFIGS))), CONFIGS)
    robot = calib.robot

    def detector(frame):
        # a simulated detector: where the corners are at the robot's pose
        q = c.configToKlampt(c.sensedPosition())
        robot.setConfig(q)
        Tm = se3.mul(robot.link(6).getTransform(), truth[1])
        out = []
        for f, p in enumerate(calib.markers['board'].local_features):
            xyz = se3.apply(se3.inv(truth[0]), se3.apply(Tm, p))
            out.append((('board', f), [600 * xyz[0] / xyz[2] + 320, 600 * xyz[1] / xyz[2] + 240]))
        return out
    calib.executeTrajectory(c, traj, lambda: 'image', detector, speed=1.0, wait=0.1)
    assert calib.frames == ['image'] * len(CONFIGS)
    for q, expected in zip(calib.configurations, CONFIGS):
        assert q == pytest.approx(expected, abs=1e-9)
    calib.markers['board'].local_coordinates = se3.identity()
    rmse, cams, marks = calib.optimize()
    assert rmse < 1e-4 and se3.error(marks['board'], MARKER) == pytest.approx([0] * 6, abs=1e-5)
    with pytest.raises(ValueError):
        calib.addDetection([1, 2], 99, 'board', 0)
    with pytest.raises(ValueError):
        calib.addDetection([1, 2], 0, 'nothing', 0)
