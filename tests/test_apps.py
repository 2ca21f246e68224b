"""The Klamp't apps as a user runs them: the console scripts klampt_sim,
klampt_resource, klampt_browser and klampt_control (``python -m
klampt.apps.<name>`` where the scripts are not installed; in CI they must
be). Headless: the simulation advances with physics a person expects
(objects settle on the table, the arm holds its pose or follows a path),
recorded frames and thumbnails are real renders showing the robot, and the
resource operations give the expected files. Under Xvfb: the browser and
the controller open a window showing the scene and close on the q key.
Through viser: the simulation is served to a browser over HTTP and stops
on the Quit button."""
import csv
import os
import re
import subprocess
import sys
import textwrap
import time
import urllib.request

import numpy as np
import pytest

from conftest import PROJECT_DATA, require_offscreen, xvfb_command
from vis_helpers import XTEST_PREAMBLE

ARM_TABLE = os.path.join(PROJECT_DATA, 'worlds', 'arm_table.xml')
ARM6 = os.path.join(PROJECT_DATA, 'robots', 'arm6.rob')
ARM_TABLE_Q0 = [0, 0, 0.4, 0.8, 0, 1.2, 0]  # arm6's configuration in arm_table.xml
OBJECTS = ('block', 'cylinder', 'ball', 'flat_box')
APPS = ('browser', 'sim', 'resource', 'control')


def app_command(name):
    """The console script klampt_<name> of this interpreter's environment;
    where it is not installed ``python -m klampt.apps.<name>`` (in CI, a
    missing script fails the test)."""
    script = os.path.join(os.path.dirname(sys.executable), 'klampt_' + name)
    if os.path.exists(script):
        return [script]
    if os.environ.get('CI'):
        pytest.fail("the console script %s is not installed (pyproject.toml [project.scripts])" % script)
    return [sys.executable, '-m', 'klampt.apps.' + name]


def headless_env(**changes):
    """This environment without a display, with ``changes``."""
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM')}
    env.update(changes)
    return env


def run_app(name, args, cwd, timeout=180):
    """Runs an app headless; the CompletedProcess (text output)."""
    return subprocess.run(app_command(name) + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, env=headless_env(), cwd=str(cwd))


def load_png(path):
    """A PNG file as an (h, w, 3) uint8 array."""
    from PIL import Image
    return np.asarray(Image.open(path).convert('RGB'))


def grey_share(img):
    """The share of grey pixels (the robot's colour; the ground, table
    and sky of arm_table are not grey)."""
    c = img.astype(int)
    spread = c.max(axis=2) - c.min(axis=2)
    return float(((spread <= 12) & (c.mean(axis=2) > 40) & (c.mean(axis=2) < 225)).mean())


def dominant_share(img):
    """The share of the most frequent colour."""
    _, counts = np.unique(img.reshape(-1, 3), axis=0, return_counts=True)
    return counts.max() / counts.sum()


def assert_shows_robot(img, min_grey=0.04, max_dominant=0.5):
    """A real render with the robot in view: no colour fills most of the
    frame (more than max_dominant of it: a robot alone leaves most of it
    to the background), and the robot's grey covers a recognisable share."""
    assert dominant_share(img) < max_dominant, dominant_share(img)
    assert grey_share(img) > min_grey, grey_share(img)


def write_path(fn, times, milestones):
    """Writes a .path file (one 'time<TAB>n q...' line a milestone)."""
    with open(fn, 'w') as f:
        for t, q in zip(times, milestones):
            f.write('%g\t%d %s\n' % (t, len(q), ' '.join('%g' % v for v in q)))


def read_log(fn):
    """The rows of a simulation CSV log as dicts of floats."""
    with open(fn) as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


# ---------------------------------------------------------------- --help

@pytest.mark.parametrize('name', APPS)
def test_help_of_each_app(name, tmp_path):
    for cmd in (app_command(name), [sys.executable, '-m', 'klampt.apps.' + name]):
        r = subprocess.run(cmd + ['--help'], capture_output=True, text=True, timeout=60, env=headless_env(),
                           cwd=str(tmp_path))
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith('usage: klampt_' + name), r.stdout[:200]
        assert 'examples:' in r.stdout
        if name != 'resource':
            assert '--backend {auto,glfw,qt,viser,offscreen}' in r.stdout


def test_bad_arguments_are_usage_errors(tmp_path):
    r = run_app('sim', ['--duration', '1', tmp_path / 'missing.xml'], tmp_path)
    assert r.returncode == 2 and 'missing.xml: no such file' in r.stderr
    r = run_app('browser', [ARM_TABLE], tmp_path)  # no display, no viser, no screenshot
    assert r.returncode == 2 and '--backend viser' in r.stderr
    r = run_app('control', [ARM6], tmp_path)
    assert r.returncode == 2 and 'no controller' in r.stderr
    r = run_app('resource', ['extract', tmp_path / 'missing.path', '0'], tmp_path)
    assert r.returncode == 1 and 'no such file' in r.stderr


# ---------------------------------------------------------------- klampt_sim

def test_sim_duration_headless_settles_the_objects(tmp_path):
    r = run_app('sim', ['--duration', '1', '--log', 'state.csv', ARM_TABLE], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert 'klampt_sim: simulated 1.000 s' in r.stdout
    rows = read_log(tmp_path / 'state.csv')
    assert rows[0]['time'] == 0 and abs(rows[-1]['time'] - 0.99) < 1e-6 and len(rows) == 100
    assert (tmp_path / 'state_contacts.csv').is_file()
    for name in OBJECTS:
        # placed 5 mm above the table: they fall by 5 mm less the contact paddings, and rest
        drop = rows[0][name + '_z'] - rows[-1][name + '_z']
        assert 0.0003 < drop < 0.006, (name, drop)
        assert abs(rows[-1][name + '_dz']) < 1e-3, name
    links = ['base', 'shoulder', 'upper_arm', 'forearm', 'wrist_roll', 'wrist_pitch', 'flange']
    q_end = [rows[-1]['arm6_q[%s]' % link] for link in links]
    assert np.allclose(q_end, ARM_TABLE_Q0, atol=0.01), q_end  # no controller: it holds its pose


def test_sim_follows_a_path_and_records_frames(tmp_path):
    require_offscreen()
    q1 = [0, 1.0, 0.9, 0.3, 0, 0.6, 0]
    write_path(tmp_path / 'move.path', [0, 1], [ARM_TABLE_Q0, q1])
    r = run_app('sim', ['--duration', '1.5', '--record', 'frames', '--fps', '10', '--size', '320x240',
                        '--log', 'state.csv', ARM_TABLE, 'move.path'], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert '16 frames in frames' in r.stdout
    frames = sorted(os.listdir(tmp_path / 'frames'))
    assert frames == ['frame_%05d.png' % i for i in range(16)]  # t = 0, 0.1, ..., 1.5
    first, last = load_png(tmp_path / 'frames' / frames[0]), load_png(tmp_path / 'frames' / frames[-1])
    assert first.shape == (240, 320, 3)
    for img in (first, last):
        assert_shows_robot(img)
    moved = (np.abs(first.astype(int) - last.astype(int)).max(axis=2) > 30).mean()
    assert moved > 0.02, moved  # the arm swung to the path's end
    rows = read_log(tmp_path / 'state.csv')
    links = ['base', 'shoulder', 'upper_arm', 'forearm', 'wrist_roll', 'wrist_pitch', 'flange']
    q_end = [rows[-1]['arm6_q[%s]' % link] for link in links]
    assert np.allclose(q_end, q1, atol=0.05), q_end


def test_sim_in_a_window_records_every_frame_and_quits_at_the_duration(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM')}
    cmd = xvfb_command(*app_command('sim'), '--backend', 'glfw', '--duration', '1', '--record', 'frames', '--fps',
                       '10', ARM_TABLE)
    start = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert time.time() - start > 1.0  # in real time
    assert 'simulated 1.000 s, 11 frames in frames' in r.stdout
    frames = sorted(os.listdir(tmp_path / 'frames'))
    assert frames == ['frame_%05d.png' % i for i in range(11)]  # the last one too, saved before the window closed
    for name in (frames[0], frames[-1]):
        assert_shows_robot(load_png(tmp_path / 'frames' / name))


# ---------------------------------------------------------------- klampt_resource

def test_resource_thumbnails_show_the_robot(tmp_path):
    require_offscreen()
    r = run_app('resource', ['thumbnail', ARM_TABLE, 'world.png', '--size', '256x192'], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    world = load_png(tmp_path / 'world.png')
    assert world.shape == (192, 256, 3)
    assert_shows_robot(world)
    reach = tmp_path / 'reach.config'
    aside = tmp_path / 'aside.config'
    reach.write_text('7\t0 1.2 0.9 0.3 0 0.6 0\n')
    aside.write_text('7\t1.5 0.4 0.9 0.3 0 0.6 0\n')
    images = []
    for config in (reach, aside):
        r = run_app('resource', ['thumbnail', '--world', ARM_TABLE, config, '--size', '192x144'], tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        images.append(load_png(str(config)[:-len('.config')] + '_thumb.png'))
        assert images[-1].shape == (144, 192, 3)
        assert_shows_robot(images[-1])
    # the configuration poses the robot: its silhouettes differ
    differ = (np.abs(images[0].astype(int) - images[1].astype(int)).max(axis=2) > 30).mean()
    assert differ > 0.03, differ


def test_resource_timescale_extract_combine_convert(tmp_path):
    from klampt.io import loader
    a = [[0.0] * 7, [0, 1, 0.5, 0.5, 0, 0, 0], [0, -1, 0.3, 0.9, 0, 0.5, 0]]
    write_path(tmp_path / 'a.path', [0, 1, 3], a)

    def ok(*args):
        r = run_app('resource', list(args), tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        return r.stdout

    ok('timescale', 'a.path', '2', 'slow.path')
    slow = loader.load('Trajectory', str(tmp_path / 'slow.path'))
    assert slow.times == [0, 2, 6] and slow.milestones == a and slow.duration() == 2 * 3
    ok('timescale', 'a.path', '-1', '--shift', '1')
    back = loader.load('Trajectory', str(tmp_path / 'a_timescaled.path'))
    assert back.times == [1, 3, 4] and back.milestones == a[::-1]

    ok('extract', 'a.path', '-1')
    assert loader.load('Config', str(tmp_path / 'a_extracted.config')) == a[-1]
    assert ok('extract', 'a.path', '1', '--stdout').strip().split() == ['7'] + ['%s' % float(v) for v in a[1]]

    ok('combine', 'a.path', 'slow.path', 'ab.path')
    ab = loader.load('Trajectory', str(tmp_path / 'ab.path'))
    assert ab.times == [0, 1, 3, 3, 5, 9] and ab.milestones == a + a  # the second follows the first's end

    ok('convert', 'a.path', 'Configs')
    configs = loader.load('Configs', str(tmp_path / 'a.configs'))
    assert configs == a
    ok('timescale', 'a.configs', '-1', 'back.configs')
    assert loader.load('Configs', str(tmp_path / 'back.configs')) == a[::-1]
    ok('combine', 'a.configs', 'back.configs', 'there_and_back.configs')
    assert loader.load('Configs', str(tmp_path / 'there_and_back.configs')) == a + a[::-1][1:]  # junction once
    ok('convert', 'a.configs', 'Trajectory', 'unit.path')
    assert loader.load('Trajectory', str(tmp_path / 'unit.path')).times == [0, 1, 2]
    ok('convert', 'a.path', 'json')
    rt = loader.load('json', str(tmp_path / 'a.json'))
    assert rt.times == [0, 1, 3] and rt.milestones == a

    info = ok('info', 'a.path')
    assert 'duration: 3' in info
    r = run_app('resource', ['extract', 'a.path', '5'], tmp_path)
    assert r.returncode == 1 and 'out of range' in r.stderr
    r = run_app('resource', ['timescale', 'a.path', '0'], tmp_path)
    assert r.returncode == 1 and 'must not be 0' in r.stderr


def test_resource_takes_the_reference_options(tmp_path):
    """The reference's klampt_resource spelling (an option names the
    operation) gives the same files as the subcommands."""
    from klampt.apps.resource import from_upstream_options
    from klampt.io import loader
    assert from_upstream_options(['--extract', '-1', 'a.path', 'o.config']) == ['extract', 'a.path', '-1', 'o.config']
    assert from_upstream_options(['--timescale', '2', '--timeshift', '1', 'a.path']) == \
        ['timescale', 'a.path', '2', '--shift', '1']
    assert from_upstream_options(['-w', 'w.xml', '--thumbnails', 'q.config']) == \
        ['thumbnail', 'q.config', '--world', 'w.xml']
    assert from_upstream_options(['thumbnail', 'q.config']) == ['thumbnail', 'q.config']
    a = [[0.0] * 7, [0, 1, 0.5, 0.5, 0, 0, 0]]
    write_path(tmp_path / 'a.path', [0, 2], a)
    r = run_app('resource', ['--timescale', '2', 'a.path', 'slow.path'], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert loader.load('Trajectory', str(tmp_path / 'slow.path')).times == [0, 4]
    r = run_app('resource', ['--convert', 'Configs', 'a.path', 'a.configs'], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert loader.load('Configs', str(tmp_path / 'a.configs')) == a
    r = run_app('resource', ['--transfer', 'other.rob', 'a.path'], tmp_path)
    assert r.returncode == 2 and '--transfer' in r.stderr


# ---------------------------------------------------------------- klampt_browser headless

def test_browser_screenshot_shows_the_world_and_a_configuration(tmp_path):
    require_offscreen()
    (tmp_path / 'pose.config').write_text('7\t0 1.2 0.9 0.3 0 0.6 0\n')
    r = run_app('browser', ['--screenshot', 'view.png', '--size', '320x240', ARM_TABLE, 'pose.config'], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    img = load_png(tmp_path / 'view.png')
    assert img.shape == (240, 320, 3)
    assert_shows_robot(img)
    c = img.astype(int)
    ghost = ((c[:, :, 1] > c[:, :, 0] + 40) & (c[:, :, 1] > c[:, :, 2] + 40)).mean()
    assert ghost > 0.01, ghost  # the configuration is drawn as a green ghost of the arm


# ---------------------------------------------------------------- windows under Xvfb

# Runs the app given on its command line, waits for its window, presses the
# keys of argv[1] (keysym names, comma separated) with the pointer over the
# window, and
# reports the app's exit status and output; the window's pixels are saved
# to before.npy at the start and to after.npy before the last key.
WINDOW_DRIVER = XTEST_PREAMBLE + textwrap.dedent("""
    import json, subprocess, sys, time
    import numpy as np

    class XWindowAttributes(ctypes.Structure):
        _fields_ = [(n, ctypes.c_int) for n in ('x', 'y', 'width', 'height', 'border_width', 'depth')] + [
            ('visual', ctypes.c_void_p), ('root', ctypes.c_ulong), ('class_', ctypes.c_int),
            ('bit_gravity', ctypes.c_int), ('win_gravity', ctypes.c_int), ('backing_store', ctypes.c_int),
            ('backing_planes', ctypes.c_ulong), ('backing_pixel', ctypes.c_ulong), ('save_under', ctypes.c_int),
            ('colormap', ctypes.c_ulong), ('map_installed', ctypes.c_int), ('map_state', ctypes.c_int),
            ('all_event_masks', ctypes.c_long), ('your_event_mask', ctypes.c_long),
            ('do_not_propagate_mask', ctypes.c_long), ('override_redirect', ctypes.c_int),
            ('screen', ctypes.c_void_p)]

    class XImage(ctypes.Structure):
        _fields_ = [(n, ctypes.c_int) for n in ('width', 'height', 'xoffset', 'format')] + [
            ('data', ctypes.POINTER(ctypes.c_ubyte))] + [
            (n, ctypes.c_int) for n in ('byte_order', 'bitmap_unit', 'bitmap_bit_order', 'bitmap_pad', 'depth',
                                        'bytes_per_line', 'bits_per_pixel')]

    ulong_p = ctypes.POINTER(ctypes.c_ulong)
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ulong_p, ulong_p, ctypes.POINTER(ulong_p),
                               ctypes.POINTER(ctypes.c_uint)]
    x11.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(XWindowAttributes)]
    x11.XGetImage.restype = ctypes.POINTER(XImage)
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                              ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]

    def viewable_windows():
        root, parent, n = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_uint()
        children = ulong_p()
        x11.XQueryTree(dpy, x11.XDefaultRootWindow(dpy), ctypes.byref(root), ctypes.byref(parent),
                       ctypes.byref(children), ctypes.byref(n))
        found = []
        for i in range(n.value):
            a = XWindowAttributes()
            x11.XGetWindowAttributes(dpy, children[i], ctypes.byref(a))
            if a.map_state == 2 and a.width >= 200 and a.height >= 200:  # IsViewable
                found.append((a.width * a.height, children[i], a.x, a.y, a.width, a.height))
        return found

    app = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 90
    windows = []
    while not windows and app.poll() is None and time.time() < deadline:
        time.sleep(0.2)
        windows = viewable_windows()
    result = {'window': bool(windows)}
    if windows:
        time.sleep(3.0)  # the first frames (llvmpipe)
        _, win, x, y, w, h = max(windows)

        def grab(fn):
            image = x11.XGetImage(dpy, win, 0, 0, w, h, 0xFFFFFFFF, 2).contents  # ZPixmap, 32-bit BGRX
            pixels = np.ctypeslib.as_array(image.data, shape=(h, image.bytes_per_line))
            np.save(fn, pixels[:, :4 * w].reshape(h, w, 4)[:, :, 2::-1].copy())
        grab('before.npy')
        xtst.XTestFakeMotionEvent(dpy, -1, x + w // 2, y + h // 2, 0)
        x11.XFlush(dpy)
        time.sleep(0.3)
        keys = sys.argv[1].split(',')
        for i, key in enumerate(keys):
            if i == len(keys) - 1:
                grab('after.npy')
            code = x11.XKeysymToKeycode(dpy, x11.XStringToKeysym(key.encode()))
            for down in (True, False):
                xtst.XTestFakeKeyEvent(dpy, code, down, 0)
                x11.XFlush(dpy)
                time.sleep(0.1)
            time.sleep(0.5 if i < len(keys) - 2 else 2.0)
    start = time.time()
    try:
        out, _ = app.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        app.kill()
        out, _ = app.communicate()
    result.update(returncode=app.returncode, seconds_to_exit=time.time() - start, output=out)
    print(json.dumps(result))
    """)


@pytest.mark.parametrize('name, args, keys', [
    ('browser', [ARM_TABLE, 'wave.path'], 'p,p,q'),
    ('control', ['--sim', '--target', 'reach.config', ARM6], 'm,q'),
    # upper_arm of the target turned 6 x 0.05 rad, then moved to
    ('control', ['--sim', ARM_TABLE], 'bracketright,' + 'equal,' * 6 + 'm,q'),
])
def test_window_opens_shows_the_robot_and_closes_on_q(name, args, keys, tmp_path):
    before, after = drive_window(name, args, keys, tmp_path)
    moved = (np.abs(before.astype(int) - after.astype(int)).max(axis=2) > 30).mean()
    assert moved > 0.01, moved  # the path plays / the robot moves to the target


def drive_window(name, args, keys, tmp_path):
    """Runs an app under Xvfb through WINDOW_DRIVER, with wave.path and
    reach.config in tmp_path, and checks that its window showed the robot
    and that it quit at once on the last key with status 0; the window's
    (before, after) pixels."""
    import json
    reach = [0, 1.0, 0.9, 0.3, 0, 0.6, 0]
    write_path(tmp_path / 'wave.path', [0, 1, 2], [ARM_TABLE_Q0, reach, ARM_TABLE_Q0])
    (tmp_path / 'reach.config').write_text('7\t%s\n' % ' '.join(map(str, reach)))
    (tmp_path / 'driver.py').write_text(WINDOW_DRIVER)
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM')}
    cmd = xvfb_command(sys.executable, 'driver.py', keys, *app_command(name), *args)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    result = json.loads(r.stdout.strip().splitlines()[-1])
    assert result['window'], result['output']
    assert result['returncode'] == 0 and result['seconds_to_exit'] < 20, result
    assert 'q quits' in result['output']
    before, after = np.load(tmp_path / 'before.npy'), np.load(tmp_path / 'after.npy')
    assert before.shape[0] >= 200 and before.shape[1] >= 200
    alone = ARM_TABLE not in args
    for img in (before, after):
        assert_shows_robot(img, min_grey=0.02, max_dominant=0.98 if alone else 0.5)
    return before, after


def test_control_drives_a_served_controller(tmp_path):
    """klampt_control --server serves a kinematic simulation; a second
    klampt_control, its client, moves it to the target: the server's robot
    reaches it (the client's view follows the served robot)."""
    from klampt.control.networkrobotinterface import XMLRPCRobotInterfaceClient
    server = subprocess.Popen(app_command('control') + ['--server', '127.0.0.1:0', '--sim', ARM6],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=headless_env(),
                              cwd=str(tmp_path))
    try:
        line = server.stdout.readline()
        found = re.search(r'serving .* on 127\.0\.0\.1:(\d+)', line)
        assert found, line + server.stdout.read() if server.poll() is not None else line
        url = 'http://127.0.0.1:%s' % found.group(1)
        before, after = drive_window('control', ['--client', url, '--target', 'reach.config', ARM6], 'm,q',
                                     tmp_path)
        moved = (np.abs(before.astype(int) - after.astype(int)).max(axis=2) > 30).mean()
        assert moved > 0.01, moved
        probe = XMLRPCRobotInterfaceClient(url)
        assert probe.initialize()
        deadline = time.time() + 20
        while True:
            probe.beginStep()
            q = probe.sensedPosition()
            probe.endStep()
            if np.allclose(q, [1.0, 0.9, 0.3, 0, 0.6, 0], atol=1e-3) or time.time() > deadline:
                break
            time.sleep(0.1)
        probe.close()
        assert np.allclose(q, [1.0, 0.9, 0.3, 0, 0.6, 0], atol=1e-3), q  # the drivers of reach.config
    finally:
        server.terminate()
        server.communicate(timeout=30)


# ---------------------------------------------------------------- viser

def test_sim_served_through_viser_until_quit(tmp_path):
    if os.environ.get('CI'):
        import viser  # noqa: F401  (in the test extra: missing in CI is a failure)
    pytest.importorskip('viser')
    from viser_wire import ViserClient
    app = subprocess.Popen(app_command('sim') + ['--backend', 'viser', '--port', '0', ARM_TABLE],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=headless_env(),
                           cwd=str(tmp_path))
    try:
        port = None
        for line in app.stdout:
            found = re.search(r'klampt\.vis: viser serving the scene on http://127\.0\.0\.1:(\d+)', line)
            if found:
                port = int(found.group(1))
                break
        assert port, "no address printed"
        with urllib.request.urlopen('http://127.0.0.1:%d/' % port, timeout=10) as page:
            assert page.status == 200 and b'<html' in page.read().lower()
        client = ViserClient(port)
        try:
            # the table's mesh (as a mesh or a glTF scene) arrives
            client.wait_for(lambda ms: any(m['type'] in ('MeshMessage', 'GlbMessage') and m['name'] == '/table'
                                           for m in ms))
            client.wait_for(lambda ms: client.gui_uuid('Quit (q)'))
            time.sleep(1.0)
            client.receive(0.5)
            z = [m['position'][2] for m in client.messages
                 if m['type'] == 'SetPositionMessage' and m['name'] == '/ball']
            assert z and z[-1] < 0.735 - 0.0003, z[-3:]  # the ball fell onto the table: the simulation runs
            client.set_gui('Quit (q)', True)
        finally:
            client.close()
        out, _ = app.communicate(timeout=30)
    finally:
        if app.poll() is None:
            app.kill()
            app.communicate()
    assert app.returncode == 0, out
    assert 'klampt_sim: simulated' in out
