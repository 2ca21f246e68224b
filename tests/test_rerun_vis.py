"""The Rerun backend of klampt.vis, headless: the arm_table demo world is
shown into an .rrd file (the default with no display), read back with
Rerun's reader, and the logged link and object transforms are compared
with the robot's and objects' own; moving the robot, animating it,
colouring, hiding and removing items, points, frames and text reach the
recording too."""
import json
import math
import os
import time
import warnings

import numpy as np
import pytest

from conftest import PROJECT_DATA, arm_table_world, xvfb_command
from rerun_readback import Recording, blueprint, packed, require_rerun
from vis_helpers import PAINT, run_python

rr = require_rerun()

from klampt.math import so3  # noqa: E402
from klampt.vis.backends.vis_rerun import rerun_command  # noqa: E402
from klampt.model.trajectory import RobotTrajectory  # noqa: E402


@pytest.fixture
def vis(monkeypatch, tmp_path):
    """klampt.vis on the Rerun backend with no display, in tmp_path."""
    monkeypatch.delenv('DISPLAY', raising=False)
    monkeypatch.delenv('WAYLAND_DISPLAY', raising=False)
    monkeypatch.delenv('KLAMPT_VIS_RERUN', raising=False)
    monkeypatch.delenv('KLAMPT_VIS_HEADLESS_TIMEOUT', raising=False)
    monkeypatch.chdir(tmp_path)
    from klampt import vis as v
    v.kill()
    assert v.init('rerun') == 'Rerun'
    v.createWindow('rerun test')
    yield v
    v.kill()


def finish(vis, tmp_path):
    """Closes the recording and reads the default file back."""
    vis.kill()
    return Recording(str(tmp_path / 'klampt_vis.rrd'))


def link_entity(robot, i, root='world'):
    return '/%s/%s/%s' % (root, rr.escape_entity_path_part(robot.getName()),
                          rr.escape_entity_path_part(robot.link(i).getName()))


def assert_links_at(rec, robot, frame=None, root='world'):
    for i in range(robot.numLinks()):
        R, t = rec.transform(link_entity(robot, i, root), frame)
        eR, et = robot.link(i).getTransform()
        np.testing.assert_allclose(R, eR, atol=1e-6)
        np.testing.assert_allclose(t, et, atol=1e-6)


def test_world_links_follow_the_robot(vis, tmp_path, capsys):
    world = arm_table_world()
    robot = world.robot(0)
    vis.add('world', world)
    vis.show()
    assert 'klampt_vis.rrd' in capsys.readouterr().out
    assert isinstance(vis.nativeWindow(), rr.RecordingStream)
    q0 = robot.getConfig()
    q1 = list(q0)
    q1[1] += 0.6
    q1[3] -= 0.4
    vis.lock()
    robot.setConfig(q1)
    vis.unlock()
    rec = finish(vis, tmp_path)
    # Rerun's axis codes (1 up, 3 right, 5 forward): x right, y forward, z up, as Klamp't's world
    assert rec.static['/']['ViewCoordinates:xyz'] == [[3, 5, 1]]
    assert_links_at(rec, robot)  # the last logged frame: q1
    moved = rec.transform(link_entity(robot, robot.numLinks() - 1))
    robot.setConfig(q0)
    first = min(r['frame'] for r in rec.rows[link_entity(robot, 1)])
    assert_links_at(rec, robot, frame=first)
    assert np.linalg.norm(np.subtract(moved[1], robot.link(robot.numLinks() - 1).getTransform()[1])) > 0.05
    # every link with geometry has its mesh; objects their transforms; terrains their meshes
    for i in range(robot.numLinks()):
        if not robot.link(i).geometry().empty():
            v, f = rec.mesh(link_entity(robot, i))
            assert len(f) == len(robot.link(i).geometry().getTriangleMesh().getIndices())
    for i in range(world.numRigidObjects()):
        obj = world.rigidObject(i)
        R, t = rec.transform('/world/' + obj.getName())
        np.testing.assert_allclose(t, obj.getTransform()[1], atol=1e-6)
        assert rec.static['/world/' + obj.getName()]['Mesh3D:albedo_factor'] == [packed(obj.appearance().getColor())]
    assert rec.static['/world/table']['Mesh3D:albedo_factor'] == [packed((0.55, 0.4, 0.25, 1))]


def test_animation_steps_log_the_animated_configuration(vis, tmp_path):
    world = arm_table_world()
    robot = world.robot(0)
    q0 = robot.getConfig()
    q1 = list(q0)
    q1[1] += 1.0
    traj = RobotTrajectory(robot, [0, 1], [q0, q1])
    vis.add('world', world)
    vis.animate(('world', robot.getName()), traj)
    vis.show()
    vis.pauseAnimation()  # the clock moves only by steps
    vis.animationTime(0.0)
    vis.stepAnimation(0.5)
    after_step = vis.nativeWindow()  # the stream is still open
    assert isinstance(after_step, rr.RecordingStream)
    rec = finish(vis, tmp_path)
    assert robot.getConfig() == q0  # the user's robot keeps its configuration
    robot.setConfig(traj.eval(0.5))
    assert_links_at(rec, robot)


def test_colour_hide_and_remove(vis, tmp_path):
    world = arm_table_world()
    vis.add('world', world)
    vis.show()
    vis.setColor(('world', 'block'), 0, 1, 0, 1)
    vis.hide(('world', 'ball'))
    vis.add('marker', [0.5, 0.5, 1.0], color=(1, 0, 0, 1))
    vis.remove('marker')
    vis.update()
    rec = finish(vis, tmp_path)
    assert rec.static['/world/block']['Mesh3D:albedo_factor'] == [packed((0, 1, 0, 1))]
    assert rec.static['/world/ball'].get('Mesh3D:vertex_positions') in (None, [])
    assert rec.static['/marker'].get('Points3D:positions') in (None, [])
    # what is still shown is untouched
    assert len(rec.mesh('/world/cylinder')[0]) > 0


def test_points_frames_text_and_moving_them(vis, tmp_path):
    vis.add('p', [1.0, 2.0, 3.0], color=(1, 0, 0, 1), size=10)
    R = so3.from_axis_angle(([0, 0, 1], math.pi / 2))
    vis.add('T', (R, [0.0, 0.0, 1.0]), length=0.25)
    vis.addText('t', 'hello rerun')
    vis.show()
    vis.setItemConfig('p', [0.0, 0.0, 1.5])
    vis.update()
    rec = finish(vis, tmp_path)
    s = rec.static['/p']
    assert s['Points3D:colors'] == [packed((1, 0, 0, 1))]
    assert s['Points3D:radii'] == [-5.0]
    assert rec.transform('/p')[1] == [0.0, 0.0, 1.5]
    first = min(r['frame'] for r in rec.rows['/p'])
    assert rec.transform('/p', first)[1] == [1.0, 2.0, 3.0]
    np.testing.assert_allclose(rec.transform('/T')[0], R, atol=1e-12)
    np.testing.assert_allclose(rec.static['/T']['Arrows3D:vectors'], [[0.25, 0, 0], [0, 0.25, 0], [0, 0, 0.25]])
    assert 'hello rerun' in rec.static['/text']['TextDocument:text'][0]


def test_configuration_ghost_and_trajectory(vis, tmp_path):
    world = arm_table_world()
    robot = world.robot(0)
    q0 = robot.getConfig()
    q1 = list(q0)
    q1[1] += 0.5
    vis.add('world', world)
    vis.add('ghost', q1, color=(0, 1, 0, 0.5))
    vis.add('path', RobotTrajectory(robot, [0, 1], [q0, q1]), color=(0, 0, 1, 1))
    vis.show()
    rec = finish(vis, tmp_path)
    assert robot.getConfig() == q0
    ee = robot.link(robot.numLinks() - 1)
    start = ee.getTransform()[1]
    robot.setConfig(q1)
    assert_links_at(rec, robot, root='ghost')
    entity = link_entity(robot, 1, root='ghost')
    assert rec.static[entity]['Mesh3D:albedo_factor'] == [packed((0, 1, 0, 0.5))]
    strip = rec.static['/path']['LineStrips3D:strips'][0]
    np.testing.assert_allclose(strip, [start, ee.getTransform()[1]], atol=1e-6)
    assert rec.static['/path']['LineStrips3D:colors'] == [packed((0, 0, 1, 1))]


def test_the_view_starts_at_the_scene_camera(vis, tmp_path):
    world = arm_table_world()
    vis.add('world', world)
    vp = vis.getViewport()
    vp.camera.tgt = [0.5, 0.0, 0.6]
    vp.camera.dist = 4.0
    vis.setViewport(vp)
    vis.setBackgroundColor(0.2, 0.4, 0.6)
    vis.show()
    vis.kill()
    views = [v for v in blueprint(str(tmp_path / 'klampt_vis.rrd')).values() if 'EyeControls3D:position' in v]
    assert views, "no 3D view in the blueprint"
    eye = views[-1]
    target = np.asarray(eye['EyeControls3D:look_target'][0])
    np.testing.assert_allclose(target, [0.5, 0.0, 0.6], atol=1e-6)
    assert abs(np.linalg.norm(np.asarray(eye['EyeControls3D:position'][0]) - target) - 4.0) < 1e-6
    backgrounds = [v['Background:color'] for v in blueprint(str(tmp_path / 'klampt_vis.rrd')).values()
                   if 'Background:color' in v]
    assert backgrounds[-1] == [packed((0.2, 0.4, 0.6, 1))]


def test_plots_become_time_series(vis, tmp_path):
    vis.addPlot('plot')
    vis.show()
    for value in (1.0, 2.0, 4.0):
        vis.logPlot('plot', 'x', value)
        vis.update()
        time.sleep(0.02)
    rec = finish(vis, tmp_path)
    assert [r['Scalars:scalars'] for r in rec.rows['/plot/x']] == [[1.0], [2.0], [4.0]]
    assert rec.static['/plot/x']['SeriesLines:names'] == ['x']


def test_spin_and_loop_log_frames(vis, tmp_path, monkeypatch):
    world = arm_table_world()
    robot = world.robot(0)
    vis.add('world', world)
    calls = []

    def step():
        q = robot.getConfig()
        q[1] += 0.05
        robot.setConfig(q)
        calls.append(1)
        if len(calls) == 5:
            vis.show(False)
    vis.loop(setup=vis.show, callback=step)
    assert len(calls) == 5
    vis.spin(0.1)
    rec = finish(vis, tmp_path)
    assert_links_at(rec, robot)
    assert len({r['frame'] for r in rec.rows[link_entity(robot, 1)]}) >= 5


def test_sent_to_a_rerun_server(vis, tmp_path, monkeypatch):
    """KLAMPT_VIS_RERUN=rerun+http://...: the scene goes to a Rerun server
    (here ``rerun --save``, on the loopback interface, writing what it
    receives to a file)."""
    import signal
    import socket
    import subprocess
    viewer = rerun_command()
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    out = tmp_path / 'received.rrd'
    server = subprocess.Popen([viewer, '--bind', '127.0.0.1', '--port', str(port), '--save', str(out)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 20
        while True:
            with socket.socket() as s:
                if s.connect_ex(('127.0.0.1', port)) == 0:
                    break
            assert time.time() < deadline and server.poll() is None, "the Rerun server did not start"
            time.sleep(0.1)
        monkeypatch.setenv('KLAMPT_VIS_RERUN', 'rerun+http://127.0.0.1:%d/proxy' % port)
        world = arm_table_world()
        robot = world.robot(0)
        vis.add('world', world)
        vis.show()
        vis.kill()
        time.sleep(1.0)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # a file cut by Ctrl-C has no footer
        rec = Recording(str(out))
    assert_links_at(rec, robot)


def test_served_on_loopback_to_a_late_viewer(vis, tmp_path, monkeypatch, capsys):
    """KLAMPT_VIS_RERUN=serve: a Rerun server on 127.0.0.1 keeps the scene
    for a viewer that connects after show() (here ``rerun <address>
    --save``, writing what it receives to a file); kill() stops it."""
    import signal
    import subprocess
    monkeypatch.setenv('KLAMPT_VIS_RERUN', 'serve')
    monkeypatch.setenv('KLAMPT_VIS_PORT', '0')
    world = arm_table_world()
    robot = world.robot(0)
    vis.add('world', world)
    vis.show()
    address = capsys.readouterr().out.split('served on ')[1].split()[0]
    assert address.startswith('rerun+http://127.0.0.1:')
    out = tmp_path / 'late.rrd'
    client = subprocess.Popen([rerun_command(), address, '--bind', '127.0.0.1', '--port', 'auto', '--save', str(out)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 20
        while not (out.exists() and out.stat().st_size > 50000) and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)
    finally:
        client.send_signal(signal.SIGINT)
        try:
            client.wait(10)
        except subprocess.TimeoutExpired:
            client.kill()
            client.wait()
    server = vis.nativeWindow()
    assert isinstance(server, rr.RecordingStream)
    backend_server = visualization_backend().server
    vis.kill()
    assert backend_server.poll() is not None  # the server stopped with kill()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # a file cut by Ctrl-C has no footer
        rec = Recording(str(out))
    assert_links_at(rec, robot)


def visualization_backend():
    from klampt.vis import _state
    return _state.manager.backend


def test_bad_destination_is_a_clear_error(vis, monkeypatch):
    monkeypatch.setenv('KLAMPT_VIS_RERUN', 'nowhere')
    vis.add('p', [0, 0, 0])
    with pytest.raises(ValueError, match='KLAMPT_VIS_RERUN'):
        vis.show()


def test_a_desktop_script_runs_headless_into_an_rrd(tmp_path):
    """A show() / while shown() script, unchanged, with no display: the
    recording is finished at exit and holds the robot where it ended."""
    world_file = os.path.join(PROJECT_DATA, 'worlds', 'arm_table.xml')
    script = """
        import json, time
        from klampt import vis, WorldModel
        w = WorldModel()
        w.readFile(%r)
        robot = w.robot(0)
        vis.init('rerun')
        vis.add('world', w)
        vis.show()
        while vis.shown():
            vis.lock()
            q = robot.getConfig()
            q[1] = min(q[1] + 0.02, 1.0)
            robot.setConfig(q)
            vis.unlock()
            time.sleep(0.02)
        print(json.dumps(robot.getConfig()))
        """ % world_file
    r = run_python(script, cwd=str(tmp_path), KLAMPT_VIS_HEADLESS_TIMEOUT='1', KLAMPT_VIS_RERUN=None)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert 'klampt_vis.rrd' in lines[0]
    rec = Recording(str(tmp_path / 'klampt_vis.rrd'))
    world = arm_table_world()
    robot = world.robot(0)
    q_end = json.loads(lines[-1])
    assert q_end[1] > robot.getConfig()[1] + 0.1
    robot.setConfig(q_end)
    assert_links_at(rec, robot)


def test_without_rerun_the_errors_name_the_package():
    r = run_python("""
        import sys
        sys.modules['rerun'] = None  # as if rerun-sdk were not installed
        from klampt import vis
        try:
            vis.init('rerun')
        except RuntimeError as e:
            print('init:', e)
        try:
            import klampt.io.rerun_convert
        except ImportError as e:
            print('convert:', e)
        """)
    assert r.returncode == 0, r.stderr
    assert 'pip install klampt[rerun]' in r.stdout.split('init:')[1].split('convert:')[0]
    assert 'rerun-sdk' in r.stdout.split('convert:')[1]


def test_the_rerun_viewer_shows_the_robot(vis, tmp_path):
    """Rerun's own viewer (under a virtual X server, drawing through Mesa's
    Vulkan) opens the recording: its screenshot shows the robot, painted
    blue, among the other pixels of the 3D view."""
    import subprocess
    from PIL import Image
    world = arm_table_world()
    vis.add('world', world)
    vis.setColor(('world', world.robot(0).getName()), *PAINT)
    vis.show()
    finish(vis, tmp_path)
    viewer = rerun_command()
    shot = tmp_path / 'viewer.png'
    cmd = xvfb_command(viewer, '--bind', '127.0.0.1', '--port', 'auto', '--window-size', '800x600',
                       '--screenshot-to', str(shot), str(tmp_path / 'klampt_vis.rrd'), needs=None)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180,
                       env=dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path)))
    assert r.returncode == 0 and shot.exists(), r.stderr[-2000:]
    img = np.asarray(Image.open(shot).convert('RGB')).astype(int)
    h, w, _ = img.shape
    blue = (img[:, :, 2] > 120) & (img[:, :, 0] < 60) & (img[:, :, 1] < 60)
    # the robot: a few hundred blue pixels, in the 3D view (right of the side panel, below the top bar)
    ys, xs = np.nonzero(blue)
    assert len(xs) > 200, "no blue robot in the viewer's screenshot"
    assert xs.min() > 0.25 * w and ys.min() > 0.1 * h
    # the scene around it is drawn too: the table and floor colours fill much of the view,
    # seen on the scene's background (204, 204, 229) from the scene's camera
    view = img[int(0.1 * h):int(0.9 * h), int(0.3 * w):]
    assert np.mean(np.ptp(view, axis=2) > 40) > 0.2
    assert np.mean(np.all(np.abs(view - [204, 204, 229]) <= 8, axis=2)) > 0.05
