"""klampt.model.calibrate's interactive and sensor-facing parts, headless:
``visualize`` (on the offscreen vis backend: the scene it builds, what it
renders, and with ``edit=True`` the poses the user dragged stored back as
local coordinates), ``editCalibration``, ``editTrajectory`` (the trajectory
it builds from the captured configurations and what it keeps from the
editor), ``updateRobotSensors`` / ``cameraFromRobot`` (camera poses and
intrinsics through the robot's CameraSensor), ``saveFrames`` and
``robot_sensors``."""
import os

import numpy as np
import pytest

from test_calibrate import CONFIGS, INTRINSICS, look_at, setup

from klampt.math import se3, so3
from klampt.model import calibrate
from klampt.model.calibrate import PointMarker, RobotExtrinsicCalibration
from klampt.model.trajectory import RobotTrajectory


def flat(T):
    """A transform as vis gives it: 12 numbers, R then t."""
    return list(T[0]) + list(T[1])


def user_loop(vis, monkeypatch, action):
    """Replaces vis.loop for calibrate's visualize: the real loop on the
    headless window, which runs action() once (the user) and closes."""
    real = vis.loop
    state = {'frames': []}

    def loop(setup=None, callback=None, cleanup=None):
        def user():
            if not state['frames']:
                action(state)
                state['frames'].append(vis.screenshot())
            vis.show(False)
        real(setup, user, cleanup)
    monkeypatch.setattr(vis, 'loop', loop)
    return state


def test_visualize_shows_cameras_and_markers(vis, monkeypatch):
    w, calib = setup()
    calib.markers['dot'] = PointMarker(6, [0.1, 0, 0])
    calib.robot.setConfig(CONFIGS[1])
    items = {}

    def look(state):
        scene = vis.scene().items
        items.update({k: list(vis.getItemConfig(k)) for k in scene if k != 'robot'})
        state['view'] = vis.getViewport()
    state = user_loop(vis, monkeypatch, look)
    calib.visualize()
    assert set(items) == {'camera 0', 'marker board', 'marker dot'}
    cams, marks = calib.cameraTransforms(world=True), calib.markerTransforms(world=True)
    assert items['camera 0'] == pytest.approx(flat(cams[0]))
    assert items['marker board'] == pytest.approx(flat(marks['board']))
    assert items['marker dot'] == pytest.approx(marks['dot'])
    # not editing: nothing changed
    assert calib.cameras[0].local_coordinates == look_at([2.0, 0.3, 1.4], [0.5, 0, 1.0])
    with_items = state['frames'][0]
    # the same view without the camera and marker frames
    for k in items:
        vis.remove(k)
    vis.setViewport(state['view'])
    without = vis.screenshot()
    assert with_items.shape == without.shape == (240, 320, 3)
    changed = np.abs(with_items.astype(int) - without.astype(int)).max(axis=2) > 30
    assert changed.sum() > 20
    # the robot is drawn in both
    from vis_helpers import background_mask
    assert (~background_mask(without)).sum() > 500


def test_visualize_edit_stores_the_dragged_poses(vis, monkeypatch):
    w, calib = setup()
    calib.markers['dot'] = PointMarker(6, [0.1, 0, 0])
    robot = calib.robot
    robot.setConfig(CONFIGS[3])
    new_cam = look_at([1.5, -0.5, 1.8], [0.4, 0.1, 0.9])
    T6 = robot.link(6).getTransform()
    new_board_local = (so3.from_rpy((0.2, 0.0, -0.1)), [0.0, 0.03, 0.06])
    new_board = se3.mul(T6, new_board_local)
    new_dot = robot.link(6).getWorldPosition([0.05, 0.02, 0.0])
    edited = {}

    def drag(state):
        edited.update(vis.scene().items)
        vis.setItemConfig('camera 0', flat(new_cam))
        vis.setItemConfig('marker board', flat(new_board))
        vis.setItemConfig('marker dot', new_dot)
    user_loop(vis, monkeypatch, drag)
    calib.visualize(edit=True)
    assert {'camera 0', 'marker board', 'marker dot'} <= set(edited)
    # the camera is fixed in the world: its local pose is the world pose
    assert flat(calib.cameras[0].local_coordinates) == pytest.approx(flat(new_cam), abs=1e-9)
    # markers on link 6: stored relative to the link at the configuration
    assert flat(calib.markers['board'].local_coordinates) == pytest.approx(flat(new_board_local), abs=1e-9)
    assert calib.markers['dot'].local_coordinates == pytest.approx([0.05, 0.02, 0.0], abs=1e-9)


def test_edit_calibration_starts_unset_poses_at_identity(vis, monkeypatch):
    w, calib = setup()
    calib.cameras[0].local_coordinates = None
    calib.markers['board'].local_coordinates = None
    calib.markers['dot'] = PointMarker(6)
    calib.robot.setConfig(CONFIGS[0])
    seen = {}

    def look(state):
        seen.update({k: list(vis.getItemConfig(k)) for k in vis.scene().items if k != 'robot'})
    user_loop(vis, monkeypatch, look)
    calib.editCalibration(world=w)
    assert flat(calib.cameras[0].local_coordinates) == pytest.approx(flat(se3.identity()))
    T6 = calib.robot.link(6).getTransform()
    assert seen['marker board'] == pytest.approx(flat(T6))
    assert seen['marker dot'] == pytest.approx(T6[1])
    assert 'world' in vis.scene().items
    assert flat(calib.markers['board'].local_coordinates) == pytest.approx(flat(se3.identity()), abs=1e-9)


def test_edit_trajectory_builds_it_from_the_configurations(monkeypatch):
    w, calib = setup()
    for q in CONFIGS[:3]:
        calib.addFrame(None, q)
    calls = []
    from klampt.io import resource

    def editor(name, value, type='auto', world=None, **kw):
        calls.append((name, value, type, world))
        edited = RobotTrajectory(calib.robot, [0, 2], [value.milestones[0], value.milestones[-1]])
        return accept, edited
    monkeypatch.setattr(resource, 'edit', editor)
    accept = False
    traj = calib.editTrajectory()
    # the captured configurations, one per second, went to the editor
    (name, value, type, world), = calls
    assert name == 'calibration_trajectory' and type == 'Trajectory'
    assert value.times == [0, 1, 2] and value.milestones == [list(q) for q in CONFIGS[:3]]
    assert isinstance(value, RobotTrajectory)
    # without a world, one holding the robot
    assert world.numRobots() == 1 and world.robot(0).numLinks() == calib.robot.numLinks()
    # cancelled: the trajectory is the one built
    assert traj is value and calib.trajectory is value
    accept = True
    traj = calib.editTrajectory(world=w, name='mine')
    assert calls[-1][0] == 'mine' and calls[-1][3] is w
    # the editor was given the existing trajectory, and its result is kept
    assert calls[-1][1] is value
    assert traj.times == [0, 2] and calib.trajectory is traj


def test_edit_trajectory_needs_a_robot_and_the_gui(monkeypatch):
    calib = RobotExtrinsicCalibration()
    with pytest.raises(ValueError, match='robot'):
        calib.editTrajectory()
    w, calib = setup()
    calib.addFrame(None, CONFIGS[0])
    # without a display the visual editor (a Qt dialog) says so
    monkeypatch.delenv('DISPLAY', raising=False)
    monkeypatch.delenv('WAYLAND_DISPLAY', raising=False)
    with pytest.raises(RuntimeError, match='klampt.vis GUI'):
        calib.editTrajectory(world=w)
    assert calib.trajectory.milestones == [CONFIGS[0]]


def test_robot_sensors_round_trip_the_camera():
    w, calib = setup()
    robot = calib.robot
    assert calibrate.robot_sensors(robot, 'CameraSensor') == []
    with pytest.raises(ValueError, match='no camera'):
        calib.cameraFromRobot()
    calib.cameras[0].link = 6      # a wrist camera
    calib.updateRobotSensors()
    sensors = calibrate.robot_sensors(robot, 'CameraSensor')
    assert [s.name() for s in sensors] == ['0']
    assert [s.name() for s in calibrate.robot_sensors(robot)][-1] == '0'
    other = RobotExtrinsicCalibration()
    other.robot = robot
    other.cameraFromRobot()
    cam, = other.cameras.values()
    assert list(other.cameras) == ['0']
    assert cam.link == 6
    assert flat(cam.local_coordinates) == pytest.approx(flat(calib.cameras[0].local_coordinates), abs=1e-6)
    for k in ('fx', 'fy', 'cx', 'cy'):
        assert cam.intrinsics[k] == pytest.approx(INTRINSICS[k], rel=1e-6)
    # by name, and errors for unknown or non-camera sensors
    other.cameraFromRobot('0')
    assert list(other.cameras) == ['0']
    with pytest.raises(ValueError, match='no sensor'):
        other.cameraFromRobot('nonexistent')
    robot.addSensor('imu', 'Accelerometer')
    with pytest.raises(ValueError, match='not a CameraSensor'):
        other.cameraFromRobot(['imu'])
    # a second update moves the existing sensor instead of adding one
    calib.cameras[0].local_coordinates = (so3.identity(), [0.0, 0.0, 0.1])
    calib.updateRobotSensors()
    assert len(calibrate.robot_sensors(robot, 'CameraSensor')) == 1
    other.cameraFromRobot('all')
    assert flat(other.cameras['0'].local_coordinates) == pytest.approx(flat(se3.identity())[:9] + [0, 0, 0.1],
                                                                      abs=1e-9)
    with pytest.raises(ValueError, match='robot'):
        RobotExtrinsicCalibration().updateRobotSensors()


def test_save_frames_writes_the_images(tmp_path):
    from PIL import Image
    w, calib = setup()
    img = np.zeros((4, 6, 3), dtype=np.uint8)
    img[1, 2] = [255, 0, 0]
    calib.addFrame(img, CONFIGS[0])
    calib.addFrame(None, CONFIGS[1])
    calib.addFrame(img[::-1].copy(), CONFIGS[2])
    calib.saveFrames(str(tmp_path / 'frames'))
    assert sorted(os.listdir(tmp_path / 'frames')) == ['frame0000.png', 'frame0002.png']
    back = np.asarray(Image.open(tmp_path / 'frames' / 'frame0000.png'))
    assert (back == img).all()
    back = np.asarray(Image.open(tmp_path / 'frames' / 'frame0002.png'))
    assert (back[2, 2] == [255, 0, 0]).all()


def test_vis_transform_item_takes_twelve_numbers(vis):
    """vis.setItemConfig on a transform item with the 12 numbers
    getItemConfig gives (what calibrate's editor reads back) keeps it a
    transform: it still draws and edits."""
    T = (so3.from_rpy((0.1, 0.2, 0.3)), [0.1, 0.0, 0.5])
    vis.add('frame', T)
    vis.edit('frame')
    T2 = (so3.from_rpy((0.0, 0.0, 1.0)), [0.0, 0.2, 0.4])
    vis.setItemConfig('frame', flat(T2))
    assert list(vis.getItemConfig('frame')) == pytest.approx(flat(T2))
    img = vis.screenshot()
    assert img.shape == (240, 320, 3)
