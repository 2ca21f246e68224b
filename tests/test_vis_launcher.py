"""``python -m klampt.vis script.py [args]``: the script runs in a worker
thread with its own ``sys.argv`` while the GUI loop runs on the main thread
(headless and in a GLFW window under Xvfb); the exit status is the
script's (0 when it ends, its ``sys.exit`` code, 1 and the traceback on an
exception). And the macOS decisions, with the platform injected: blocking
calls run the window in the main thread, ``show()`` falls back to viser or
raises an error naming the launcher."""
import os
import subprocess
import sys
import textwrap

import pytest

from klampt.vis import _launcher

from conftest import xvfb_command

def _env(display=False, **extra):
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM',
                                                           'KLAMPT_VIS_BACKEND', 'KLAMPT_VIS_HEADLESS_TIMEOUT')}
    env.update(extra)
    return env


def _launch(tmp_path, body, args=(), env=None, xvfb=False, timeout=120):
    script = tmp_path / 'user_script.py'
    script.write_text(textwrap.dedent(body))
    cmd = [sys.executable, '-m', 'klampt.vis', str(script)] + list(args)
    if xvfb:
        cmd = xvfb_command(*cmd)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env or _env(),
                          cwd=str(tmp_path))


def _last(r):
    return eval(r.stdout.strip().splitlines()[-1])


HEADLESS_SCRIPT = """
    import sys, threading, time
    from klampt import vis
    vis.add('p', [0, 0, 0])
    vis.show()
    n = 0
    while vis.shown():
        vis.lock(); n += 1; vis.unlock()
        time.sleep(0.05)
    print(repr((sys.argv, __name__, threading.current_thread() is threading.main_thread(), n > 3)))
    """


def test_headless_script_runs_with_its_argv(tmp_path):
    r = _launch(tmp_path, HEADLESS_SCRIPT, ['first', '--flag', 'x y'], env=_env(KLAMPT_VIS_HEADLESS_TIMEOUT='1'))
    assert r.returncode == 0, r.stdout + r.stderr
    argv, name, on_main, looped = _last(r)
    assert argv == [str(tmp_path / 'user_script.py'), 'first', '--flag', 'x y']
    assert name == '__main__'
    assert on_main is False  # the script is the worker; the main thread keeps the GUI
    assert looped


def test_script_exceptions_and_exit_codes(tmp_path):
    r = _launch(tmp_path, """
        from klampt import vis
        vis.add('p', [0, 0, 0])
        def inner():
            raise ValueError('boom in the script')
        inner()
        """)
    assert r.returncode == 1
    assert 'Traceback' in r.stderr and 'ValueError: boom in the script' in r.stderr and 'inner' in r.stderr
    r = _launch(tmp_path, "import sys\nsys.exit(3)\n")
    assert r.returncode == 3, r.stderr
    r = _launch(tmp_path, "import sys\nsys.exit('bad input')\n")
    assert r.returncode == 1 and 'bad input' in r.stderr
    r = subprocess.run([sys.executable, '-m', 'klampt.vis', str(tmp_path / 'missing.py')], capture_output=True,
                       text=True, timeout=60, env=_env())
    assert r.returncode == 2 and 'missing.py' in r.stderr
    r = subprocess.run([sys.executable, '-m', 'klampt.vis'], capture_output=True, text=True, timeout=60, env=_env())
    assert r.returncode == 2 and 'usage' in r.stdout


WINDOW_SCRIPT = """
    import sys, threading, time
    import klampt
    from klampt import vis
    assert vis.init() == 'GLFW'
    p = klampt.GeometricPrimitive(); p.setSphere([0, 0, 0], 0.5)
    vis.add('s', klampt.Geometry3D(p), color=(1, 0, 0, 1))
    vis.show()
    gui = []
    ran = threading.Event()
    vis.threadCall(lambda: (gui.append(threading.current_thread() is threading.main_thread()), ran.set()))
    start = time.time()
    while vis.shown() and time.time() - start < 1.0:
        time.sleep(0.05)
    img = vis.screenshot()
    ran.wait(10)  # threadCall runs at the next frame, which may come after the screenshot's
    print(repr((gui, img[240, 320].tolist(), sys.argv[1:])))
    """


def test_window_loop_runs_on_the_main_thread_under_xvfb(tmp_path):
    r = _launch(tmp_path, WINDOW_SCRIPT, ['--arg'], env=_env(), xvfb=True)
    assert r.returncode == 0, r.stdout + r.stderr
    gui, centre, args = _last(r)
    assert gui == [True], r.stderr  # the GLFW loop ran on the main thread
    assert centre[0] > 100 and centre[1] < 50 and centre[2] < 50
    assert args == ['--arg']
    # the same script without the launcher: the loop is in a vis thread
    script = tmp_path / 'user_script.py'
    r = subprocess.run(xvfb_command(sys.executable, str(script), '--arg'),
                       capture_output=True, text=True, timeout=120, env=_env(), cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert _last(r)[0] == [False]


def test_window_script_exception_under_xvfb_exits_nonzero(tmp_path):
    r = _launch(tmp_path, """
        import time
        from klampt import vis
        vis.add('p', [0, 0, 0])
        vis.show()
        time.sleep(0.3)
        raise RuntimeError('failed while shown')
        """, xvfb=True)
    assert r.returncode == 1
    assert 'RuntimeError: failed while shown' in r.stderr


@pytest.mark.parametrize('platform, launcher, main_thread, blocking, viser, expected', [
    ('linux', False, True, False, False, 'thread'),
    ('linux', False, False, True, False, 'thread'),
    ('win32', False, True, False, True, 'thread'),
    ('linux', True, True, False, False, 'main'),
    ('darwin', True, False, False, False, 'main'),
    ('darwin', False, True, True, False, 'inline'),
    ('darwin', False, True, False, True, 'viser'),
    ('darwin', False, False, False, True, 'viser'),
])
def test_gui_mode_decisions(platform, launcher, main_thread, blocking, viser, expected):
    assert _launcher.gui_mode(blocking, platform=platform, launcher=launcher, main_thread=main_thread,
                              viser_available=viser) == expected


@pytest.mark.parametrize('main_thread, blocking', [(True, False), (False, False), (False, True)])
def test_macos_without_launcher_or_viser_names_the_launcher(main_thread, blocking):
    with pytest.raises(RuntimeError, match=r'python -m klampt\.vis script\.py'):
        _launcher.gui_mode(blocking, platform='darwin', launcher=False, main_thread=main_thread,
                           viser_available=False)


MACOS_SCRIPT = """
    import sys, threading, time, warnings
    import klampt
    from klampt import vis
    from klampt.vis import _launcher
    _launcher.PLATFORM = 'darwin'  # decide as on macOS; the window itself is an X11 one
    p = klampt.GeometricPrimitive(); p.setSphere([0, 0, 0], 0.5)
    out = {}

    # show() outside the launcher: viser instead of a window thread
    assert vis.init('GLFW') == 'GLFW'
    vis.add('s', klampt.Geometry3D(p), color=(1, 0, 0, 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        vis.show()
    out['fallback'] = type(vis.nativeWindow()).__name__
    out['warned'] = any('python -m klampt.vis' in str(w.message) for w in caught)
    vis.kill()

    # without viser: an error naming the launcher
    sys.modules['viser'] = None
    vis.init('GLFW')
    try:
        vis.show()
        out['error'] = None
    except RuntimeError as e:
        out['error'] = str(e)

    # loop() from the main thread runs the window in this thread
    vis.add('s', klampt.Geometry3D(p), color=(1, 0, 0, 1))
    calls = []
    def cb():
        calls.append(threading.current_thread() is threading.main_thread())
        if len(calls) == 3:
            out['centre'] = vis.screenshot()[240, 320].tolist()
        if len(calls) >= 5:
            vis.show(False)
    vis.loop(setup=vis.show, callback=cb)
    out['calls'] = calls
    out['threads'] = sorted(t.name for t in threading.enumerate())
    start = time.time()
    vis.spin(0.5)
    out['spin'] = time.time() - start
    vis.kill()
    print(repr(out))
    """


def test_macos_decisions_in_a_real_session_under_xvfb(tmp_path):
    pytest.importorskip('viser')
    script = tmp_path / 'macos.py'
    script.write_text(textwrap.dedent(MACOS_SCRIPT))
    r = subprocess.run(xvfb_command(sys.executable, str(script)),
                       capture_output=True, text=True, timeout=120, env=_env(KLAMPT_VIS_PORT='0'),
                       cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    out = _last(r)
    assert out['fallback'] == 'ViserServer' and out['warned']
    assert out['error'] is not None and 'python -m klampt.vis script.py' in out['error']
    assert out['calls'] == [True] * 5
    assert out['centre'][0] > 100 and out['centre'][1] < 50  # the window drew the red sphere
    assert 'klampt.vis GLFW' not in out['threads']  # no vis thread was started
    assert 0.4 < out['spin'] < 5


def test_ctrl_c_stops_the_launcher(tmp_path):
    import signal
    import time
    script = tmp_path / 'forever.py'
    script.write_text(textwrap.dedent("""
        import time
        from klampt import vis
        vis.add('p', [0, 0, 0])
        vis.show()
        print('running', flush=True)
        while vis.shown():
            time.sleep(0.05)
        """))
    proc = subprocess.Popen([sys.executable, '-m', 'klampt.vis', str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(), cwd=str(tmp_path))
    try:
        assert proc.stdout.readline().strip() == 'running'
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert 'interrupted' in err
