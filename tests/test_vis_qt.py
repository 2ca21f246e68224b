"""The Qt backend under a virtual X server, driven by real X input
(XTest key and mouse events, as from a user): screenshots are the rendered
frame (a red sphere at the centre, the tx90 world in two poses), an
action's shortcut key fires it from the "Actions" menu, customUI wraps the
GL widget, vis.edit lets a drag pose the robot, the window opens again
after kill(), and resource.edit returns the edited value on OK and the
given one on Cancel, with the QApplication in the main thread. Without a
usable platform plugin (no display, an unknown QT_QPA_PLATFORM, a missing
xcb library) init('PyQt') raises a RuntimeError naming what is missing,
where Qt would abort the process. Under ``python -m klampt.vis`` Qt lives
on the main thread. The window and resource.edit scripts run with PyQt6
and again with PySide6 (each alone in its process); the others with PyQt6."""
import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import SHARED_DATA, require_shared_data, xvfb_command
from vis_helpers import XTEST_PREAMBLE

# found, not imported: this process stays free of Qt
if importlib.util.find_spec("PyQt6") is None:
    pytest.skip("PyQt6 is not installed (pip install klampt[qt])", allow_module_level=True)

# the window and dialog scripts run once per binding, named to the script by KLAMPT_TEST_QT
BINDINGS = [pytest.param("PyQt6"),
            pytest.param("PySide6", marks=pytest.mark.skipif(importlib.util.find_spec("PySide6") is None,
                                                             reason="PySide6 is not installed"))]

X_INPUT = XTEST_PREAMBLE + textwrap.dedent("""
    import ctypes, os, sys, threading, time
    import numpy as np
    import klampt
    from klampt import vis
    from klampt.vis import visualization
    from klampt.vis.backends import qt_gui, qt_platform


    def wait_until(condition, timeout=10.0):
        end = time.time() + timeout
        while not condition() and time.time() < end:
            time.sleep(0.05)
        return condition()

    def native(window=None):
        gui = qt_gui.current()
        return gui.natives.get(window or visualization._manager.window) if gui else None

    def origin(n):
        p = qt_gui.current().call(lambda: n.glwidget.mapToGlobal(n.glwidget.rect().topLeft()))
        return p.x(), p.y()

    def move(o, x, y):
        xtst.XTestFakeMotionEvent(dpy, -1, int(o[0] + x), int(o[1] + y), 0)
        x11.XFlush(dpy)
        time.sleep(0.1)

    def button(down):
        xtst.XTestFakeButtonEvent(dpy, 1, down, 0)
        x11.XFlush(dpy)
        time.sleep(0.1)

    def drag_from(o, hit):
        # press at hit, move 40 x 20 pixels in five steps, release
        move(o, *hit)
        button(True)
        for i in range(1, 6):
            move(o, hit[0] + 8 * i, hit[1] + 4 * i)
        button(False)

    def key(name, pause=0.1):
        code = x11.XKeysymToKeycode(dpy, x11.XStringToKeysym(name.encode()))
        xtst.XTestFakeKeyEvent(dpy, code, True, 0)
        xtst.XTestFakeKeyEvent(dpy, code, False, 0)
        x11.XFlush(dpy)
        time.sleep(pause)

    def editor_pixel(window, editor):
        # a pixel where the robot poser grabs a movable link
        vp = window.view.to_viewport()
        for y in range(0, vp.h, 6):
            for x in range(0, vp.w, 6):
                if editor.hover(x, y, vp) and editor._highlight[1] > 0:
                    editor.hover(-1, -1, vp)
                    return x, y
        return None

    QT = os.environ['KLAMPT_TEST_QT']

    def widgets():
        return qt_gui.current().qt.QtWidgets

    def bindings_loaded():
        return [b for b in qt_platform.BINDINGS if b + '.QtCore' in sys.modules]

    def shown_dialog(kind):
        gui = qt_gui.current()
        if gui is None or not gui.running_elsewhere():
            return None
        found = gui.call(lambda: [w for w in widgets().QApplication.topLevelWidgets()
                                  if isinstance(w, getattr(widgets(), kind)) and w.isVisible()])
        return found[0] if found else None

    def answer(name):
        # in a helper thread, as a user: the file dialog gets the keys of name and Enter, or Escape for None
        def run():
            try:
                assert wait_until(lambda: shown_dialog('QFileDialog') is not None, 20.0)
                d = shown_dialog('QFileDialog')
                gui = qt_gui.current()
                p = gui.call(lambda: d.mapToGlobal(d.rect().center()))
                move((p.x(), p.y()), 0, 0)
                gui.call(lambda: (d.raise_(), d.activateWindow()))
                assert wait_until(lambda: gui.call(lambda: d.isActiveWindow()), 5.0)
                field = gui.call(lambda: widgets().QApplication.focusWidget())
                out.setdefault('focus', []).append(type(field).__name__)
                if name is None:
                    key('Escape')
                    return
                for i, c in enumerate(name):
                    # one key at a time: a busy GUI thread takes queued keys in a batch, which its completer reorders
                    key({'.': 'period', '/': 'slash', '-': 'minus'}.get(c, c), 0.01)
                    assert wait_until(lambda: gui.call(lambda: field.text()) == name[:i + 1], 5.0), \
                        gui.call(lambda: field.text())
                key('Return')
            except BaseException as e:
                out.setdefault('driver_errors', []).append(repr(e))
                qt_gui.current().call(lambda: [w.reject() for w in widgets().QApplication.topLevelWidgets()
                                             if isinstance(w, widgets().QFileDialog)])
        threading.Thread(target=run, daemon=True).start()

    def sphere():
        p = klampt.GeometricPrimitive(); p.setSphere([0, 0, 0], 0.5)
        return klampt.Geometry3D(p)
    """)

WINDOW_SCRIPT = X_INPUT + textwrap.dedent("""
    out = {}
    assert vis.init(QT) == 'PyQt'
    vis.add('s', sphere(), color=(1, 0, 0, 1))
    fired = []
    vis.addAction(lambda: fired.append('d'), 'Do it', 'd')
    vis.show()
    assert wait_until(lambda: native() is not None and native().glwidget.isValid())
    assert vis.shown()
    img = vis.screenshot()
    out['size'] = img.shape
    out['centre'] = img[240, 320].tolist()
    out['corner'] = img[5, 5].tolist()
    n = native()
    out['gui_thread_is_main'] = qt_gui.current().thread is None
    out['menu'] = qt_gui.current().call(lambda: [(a.text(), a.shortcut().toString()) for a in n.menu.actions()])
    o = origin(n)
    move(o, 320, 240)
    qt_gui.current().call(lambda: (n.top.raise_(), n.top.activateWindow()))
    wait_until(lambda: qt_gui.current().call(lambda: n.top.isActiveWindow()), 3.0)
    key('d')
    wait_until(lambda: fired, 5.0)
    out['fired'] = list(fired)

    # the tx90 world, in two poses
    w = klampt.WorldModel()
    assert w.readFile(WORLD)
    vis.add('world', w)
    vis.autoFitCamera()
    robot = w.robot(0)
    a = vis.screenshot()
    q = robot.getConfig(); q[2] += 0.8; q[3] += 0.8
    vis.lock(); robot.setConfig(q); vis.unlock()
    b = vis.screenshot()
    out['non_black'] = float((a.max(axis=2) > 30).mean())
    out['pose_diff'] = float((np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 30).mean())

    # vis.edit: a real drag on a link turns its joint
    vis.remove('s')
    editor = vis.edit(('world', robot.getName()))
    window = visualization._manager.window
    hit = editor_pixel(window, editor)
    out['hit'] = hit is not None
    before = vis.getItemConfig(('world', robot.getName()))
    if hit:
        drag_from(o, hit)
        time.sleep(0.3)
    after = vis.getItemConfig(('world', robot.getName()))
    out['edit_moved'] = max(abs(x - y) for x, y in zip(before, after))
    vis.edit(('world', robot.getName()), False)

    # a file dialog asked for in the main thread while the vis thread owns Qt
    import tempfile
    from klampt.io import resource
    with tempfile.TemporaryDirectory() as folder:
        answer('b.config')
        saved = resource.save([1.0, 2.0], 'Config', directory=folder)
        out['saved_from_thread'] = saved == os.path.join(folder, 'b.config') and os.path.exists(saved)

    # kill, then a new window with a custom UI and a split view
    vis.kill()
    out['closed_after_kill'] = native(window) is None
    assert vis.init('PyQt') == 'PyQt'
    vis.createWindow('custom')  # the default camera again
    vis.add('s', sphere(), color=(1, 0, 0, 1))
    def make_ui(glwidget):
        QtWidgets = widgets()
        top = QtWidgets.QMainWindow()
        area = QtWidgets.QWidget()
        layout = QtWidgets.QVBoxLayout(area)
        layout.addWidget(glwidget)
        layout.addWidget(QtWidgets.QPushButton('Click me'))
        top.setCentralWidget(area)
        top.resize(640, 540)
        return top
    vis.customUI(make_ui)
    vis.setWindowTitle('custom')
    vis.show()
    assert wait_until(lambda: native() is not None and native().glwidget.isValid())
    n = native()
    def inspect():
        QtWidgets = widgets()
        return (type(n.top).__name__, n.glwidget.window() is n.top, n.top.windowTitle(),
                [b.text() for b in n.top.findChildren(QtWidgets.QPushButton)])
    out['custom'] = qt_gui.current().call(inspect)
    again = vis.screenshot()
    out['again_centre'] = again[again.shape[0] // 2, again.shape[1] // 2].tolist()
    vis.splitView()
    assert wait_until(lambda: native() is not None and len(native().views) == 2 and
                      all(v.isValid() for v in native().views))
    out['split_views'] = len(native().views)
    vis.kill()
    out['bindings'] = bindings_loaded()
    print(repr(out))
    """)

DIALOG_SCRIPT = X_INPUT + textwrap.dedent("""
    import importlib
    from klampt.io import resource
    importlib.import_module(QT + '.QtWidgets')  # the program's own Qt: the one resource.edit uses
    out = {}
    w = klampt.WorldModel()
    assert w.readFile(WORLD)
    robot = w.robot(0)
    q0 = robot.getConfig()

    def dialog_native(title):
        gui = qt_gui.current()
        if gui is None:
            return None
        for win, n in list(gui.natives.items()):
            if win.title.startswith(title) and n.glwidget.isValid():
                return n
        return None

    def drive(press_ok, drag=True, clicks=()):
        # in a helper thread: a drag on the robot in the dialog, the buttons named in clicks, then OK or Cancel
        def run():
            try:
                assert wait_until(lambda: dialog_native('Editing') is not None, 20.0)
                n = dialog_native('Editing')
                time.sleep(0.3)
                o = origin(n)
                editor = n.window.scene.getItem('value').editor
                hit = editor_pixel(n.window, editor) if drag else None
                QPushButton = widgets().QPushButton
                for text in clicks:
                    qt_gui.current().call(lambda: [b.click() for b in n.top.findChildren(QPushButton)
                                                 if b.text() == text])
                if hit:
                    drag_from(o, hit)
                which = 'Ok' if press_ok else 'Cancel'
                QDialogButtonBox = widgets().QDialogButtonBox
                qt_gui.current().call(lambda: n.top.buttons.button(
                    getattr(QDialogButtonBox.StandardButton, which)).click())
            except BaseException as e:
                out.setdefault('driver_errors', []).append(repr(e))
        threading.Thread(target=run, daemon=True).start()

    drive(True)
    ok, value = resource.edit('start', list(q0), 'Config', description='pose it', world=w)
    out['ok'] = ok
    out['edited'] = max(abs(a - b) for a, b in zip(value, q0))
    out['world_restored'] = robot.getConfig() == q0
    QThread = qt_gui.current().qt.QtCore.QThread
    out['app_in_main'] = widgets().QApplication.instance().thread() == QThread.currentThread()

    drive(False)
    ok, value = resource.edit('start', list(q0), 'Config', world=w)
    out['cancel'] = (ok, value == q0)
    drive(True, drag=False, clicks=['Insert'])
    out['configs'] = resource.edit('qs', [list(q0), list(q0)], 'Configs', world=w)
    drive(True, drag=False)
    out['point'] = resource.edit('p', [1.0, 2.0, 3.0], 'Point')
    drive(False, drag=False)
    out['rotation'] = resource.edit('R', [1.0, 0, 0, 0, 1.0, 0, 0, 0, 1.0], 'Rotation', world=w)

    # loop and dialog in the main thread: screenshots from the callback, OK closes the dialog
    assert vis.init('PyQt') == 'PyQt'
    vis.add('s', sphere(), color=(1, 0, 0, 1))
    shots = []
    def cb():
        shots.append(vis.screenshot()[240, 320].tolist())
        if len(shots) >= 3:
            vis.show(False)
    vis.loop(setup=vis.show, callback=cb)
    out['loop'] = shots
    def ok_buttons():
        QPushButton = widgets().QPushButton
        n = native()
        if n is None or not n.glwidget.isValid():
            return []
        return qt_gui.current().call(lambda: [b for b in n.top.findChildren(QPushButton) if b.text() == 'OK'])
    def press_ok():
        assert wait_until(ok_buttons, 20.0)
        qt_gui.current().call(lambda: ok_buttons()[0].click())
    threading.Thread(target=press_ok, daemon=True).start()
    start = time.time()
    vis.dialog()
    out['dialog_returned'] = time.time() - start < 20
    vis.kill()
    out['bindings'] = bindings_loaded()
    print(repr(out))
    """)


FILES_SCRIPT = X_INPUT + textwrap.dedent("""
    import importlib
    from klampt.io import resource
    importlib.import_module(QT + '.QtWidgets')
    out = {}
    resource.set_directory(DIRECTORY)

    def press_ok():
        def run():
            try:
                assert wait_until(lambda: shown_dialog('QDialog') is not None, 20.0)
                d = shown_dialog('QDialog')
                ok = getattr(widgets().QDialogButtonBox.StandardButton, 'Ok')
                qt_gui.current().call(lambda: d.buttons.button(ok).click())
            except BaseException as e:
                out.setdefault('driver_errors', []).append(repr(e))
        threading.Thread(target=run, daemon=True).start()

    q = [0.5, 1.5, 2.5]
    answer('picked.config')
    out['saved'] = resource.save(q, 'Config')
    out['file'] = open(os.path.join(DIRECTORY, 'picked.config')).read().split()
    answer('picked.config')
    out['loaded'] = resource.load('Config')
    answer('untyped')  # no extension: the type's is added
    out['saved_auto'] = resource.save(([1.0, 0, 0, 0, 1.0, 0, 0, 0, 1.0], [0.5, 0, 0]), 'RigidTransform')
    answer(None)
    out['cancel_load'] = resource.load()
    answer(None)
    out['cancel_save'] = resource.save(q, 'Config')
    # a missing resource: get() opens the editor; OK saves the default shown
    press_ok()
    out['got'] = resource.get('target.vector3', default=[1.0, 2.0, 3.0])
    out['got_file'] = open(os.path.join(DIRECTORY, 'target.vector3')).read().split()
    out['got_again'] = resource.get('target.vector3', default=[0.0, 0.0, 0.0])
    out['bindings'] = bindings_loaded()
    print(repr(out))
    """)


@pytest.mark.parametrize("binding", BINDINGS)
def test_resource_file_dialogs_and_get_open_when_a_gui_is_there(binding, tmp_path):
    folder = str(tmp_path)
    out = _run("DIRECTORY = %r\n" % folder + FILES_SCRIPT, binding=binding)
    assert 'driver_errors' not in out, out
    assert out['bindings'] == [binding]
    assert out['focus'] == ['QLineEdit'] * 5  # the typed name went to the dialog's file name field
    assert out['saved'] == os.path.join(folder, 'picked.config')
    assert [float(x) for x in out['file']] == [3, 0.5, 1.5, 2.5]
    assert out['loaded'] == (os.path.join(folder, 'picked.config'), [0.5, 1.5, 2.5])
    assert out['saved_auto'] == os.path.join(folder, 'untyped.xform')
    assert out['cancel_load'] is None and out['cancel_save'] is None
    assert out['got'] == [1.0, 2.0, 3.0] and [float(x) for x in out['got_file']] == [1.0, 2.0, 3.0]
    assert out['got_again'] == [1.0, 2.0, 3.0]


def _run(script, timeout=120, xvfb=True, env_extra=None, binding="PyQt6"):
    require_shared_data()
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM',
                                                             'QT_QPA_PLATFORM')}
    env.update(env_extra or {}, KLAMPT_TEST_QT=binding)
    source = "WORLD = %r\n" % os.path.join(SHARED_DATA, 'tx90blocks.xml') + script
    cmd = [sys.executable, '-c', source]
    if xvfb:
        cmd = xvfb_command(*cmd, needs=None)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=os.path.dirname(__file__))
    assert r.returncode == 0, r.stdout + r.stderr
    return eval(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("binding", BINDINGS)
def test_qt_window_renders_fires_actions_edits_and_restarts(binding):
    out = _run(WINDOW_SCRIPT, binding=binding)
    assert out['bindings'] == [binding]
    assert out['size'] == (480, 640, 3)
    centre, corner = out['centre'], out['corner']
    assert centre[0] > 100 and centre[1] < 50 and centre[2] < 50  # the red sphere, not a black buffer
    assert abs(corner[0] - 204) <= 1 and abs(corner[2] - 229) <= 1
    assert not out['gui_thread_is_main']  # show() from a script: the vis thread
    assert out['menu'] == [('Do it', 'D')]
    assert out['fired'] == ['d']
    assert out['non_black'] > 0.9 and out['pose_diff'] > 0.002
    assert out['hit'] and out['edit_moved'] > 0.02
    assert 'driver_errors' not in out and out['focus'] == ['QLineEdit'] and out['saved_from_thread']
    assert out['closed_after_kill']
    kind, wrapped, title, buttons = out['custom']
    assert kind == 'QMainWindow' and wrapped and title == 'custom' and buttons == ['Click me']
    assert out['again_centre'][0] > 100 and out['again_centre'][1] < 50
    assert out['split_views'] == 2


@pytest.mark.parametrize("binding", BINDINGS)
def test_resource_edit_loop_and_dialog_in_the_main_thread(binding):
    out = _run(DIALOG_SCRIPT, binding=binding)
    assert out['bindings'] == [binding]
    assert 'driver_errors' not in out, out
    assert out['ok'] is True and out['edited'] > 0.02
    assert out['world_restored'] and out['app_in_main']
    assert out['cancel'] == (False, True)
    ok, configs = out['configs']
    assert ok and len(configs) == 3 and all(len(q) == len(configs[0]) for q in configs)
    assert out['point'] == (True, [1.0, 2.0, 3.0])
    assert out['rotation'] == (False, [1.0, 0, 0, 0, 1.0, 0, 0, 0, 1.0])
    assert len(out['loop']) >= 3 and all(c[0] > 100 and c[1] < 50 for c in out['loop'])
    assert out['dialog_returned']


ERRORS_SCRIPT = textwrap.dedent("""
    import os, sys
    from klampt import vis
    from klampt.io import resource
    from klampt.vis.backends import qt_platform
    out = {}
    def failure(env):
        saved = dict(os.environ)
        os.environ.update(env)
        for k, v in env.items():
            if v is None:
                del os.environ[k]
        try:
            vis.init('PyQt')
            return None
        except RuntimeError as e:
            return str(e)
        finally:
            os.environ.clear(); os.environ.update(saved)
    out['no_display'] = failure({})
    out['bad_plugin'] = failure({'DISPLAY': ':0', 'QT_QPA_PLATFORM': 'nosuchplugin'})
    qt_platform.XCB_LIBRARIES['libxcb-nosuch.so.7'] = 'libxcb-nosuch7'
    out['missing_lib'] = failure({'DISPLAY': ':0'})
    try:
        resource.edit('p', [1.0, 2.0, 3.0], 'Point')
    except RuntimeError as e:
        out['edit'] = str(e)
    from PyQt6.QtWidgets import QApplication
    out['no_app'] = QApplication.instance() is None
    out['fallback'] = vis.init(['PyQt', 'null'])
    print(repr(out))
    """)


def test_qt_platform_problems_raise_instead_of_aborting():
    out = _run(ERRORS_SCRIPT, timeout=60, xvfb=False)
    assert 'needs a display' in out['no_display']
    assert "QT_QPA_PLATFORM='nosuchplugin'" in out['bad_plugin'] and 'xcb' in out['bad_plugin']
    assert 'apt-get install' in out['missing_lib'] and 'libxcb-nosuch7' in out['missing_lib']
    assert 'klampt.vis GUI' in out['edit']
    assert out['no_app'] and out['fallback'] == 'null'


LAUNCHED_SCRIPT = textwrap.dedent("""
    import threading, time
    import klampt
    from klampt import vis
    from klampt.vis.backends import qt_gui
    assert vis.init('PyQt') == 'PyQt'
    p = klampt.GeometricPrimitive(); p.setSphere([0, 0, 0], 0.5)
    vis.add('s', klampt.Geometry3D(p), color=(1, 0, 0, 1))
    vis.show()
    start = time.time()
    while vis.shown() and time.time() - start < 1.0:
        time.sleep(0.05)
    centre = vis.screenshot()[240, 320].tolist()
    print(repr((centre, qt_gui.current().owner == threading.main_thread().ident)))
    """)


def test_launcher_runs_qt_on_the_main_thread(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(LAUNCHED_SCRIPT)
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM',
                                                             'QT_QPA_PLATFORM')}
    r = subprocess.run(xvfb_command(sys.executable, '-m', 'klampt.vis', str(script), needs=None),
                       capture_output=True, text=True, timeout=120, env=env, cwd=os.path.dirname(__file__))
    assert r.returncode == 0, r.stdout + r.stderr
    centre, owner_is_main = eval(r.stdout.strip().splitlines()[-1])
    assert centre[0] > 100 and centre[1] < 50 and owner_is_main
    assert 'not created in the main() thread' not in r.stderr  # Qt was imported on the main thread too
