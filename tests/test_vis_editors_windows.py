"""klampt.vis.editors.run in real windows under a virtual X server, driven
by X input as from a user (XTest pointer events): in a GLFW window a drag
on a sphere's ring grows its radius by what the camera geometry predicts and
a click on the panel's OK returns it; in a Qt dialog a drag on a box's top
face raises it and Cancel returns the box given, and a right click on a
robot link selects it (the dialog's list follows) and OK returns it."""
import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import PROJECT_DATA, xvfb_command
from vis_helpers import XTEST_PREAMBLE

DRIVER = XTEST_PREAMBLE + textwrap.dedent("""
    import math, threading, time
    from klampt.vis import editors, visualization
    from klampt.vis._scene import global_lock
    out = {}

    def wait_until(condition, timeout=20.0):
        end = time.time() + timeout
        while not condition() and time.time() < end:
            time.sleep(0.05)
        return condition()

    def move(o, x, y):
        xtst.XTestFakeMotionEvent(dpy, -1, int(round(o[0] + x)), int(round(o[1] + y)), 0)
        x11.XFlush(dpy)
        time.sleep(0.1)

    def button(down, which=1):
        xtst.XTestFakeButtonEvent(dpy, which, down, 0)
        x11.XFlush(dpy)
        time.sleep(0.15)

    def drag(o, start, delta, steps=5):
        move(o, *start)
        button(True)
        for i in range(1, steps + 1):
            move(o, start[0] + delta[0] * i / steps, start[1] + delta[1] * i / steps)
        button(False)

    def front_view(window, dist):
        # the camera at (0, -dist, 0) looking along +y: image right is +x, image up is +z
        with global_lock:
            cam = window.view.camera
            cam.tgt, cam.rot, cam.dist = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], dist
            window.refresh()
        time.sleep(0.3)
        return window.view

    def focal(view):
        return (view.w / 2.0) / math.tan(math.radians(view.fov) / 2.0)

    def driven(run):
        def wrapper():
            try:
                run()
            except BaseException as e:
                out.setdefault('driver_errors', []).append(repr(e))
        threading.Thread(target=wrapper, daemon=True).start()
    """)

GLFW_SCRIPT = DRIVER + textwrap.dedent("""
    from klampt import vis
    from klampt.vis._panel_layout import GuiPanel
    assert vis.init('GLFW') == 'GLFW'
    e = editors.SphereEditor('ball', ([0.0, 0.0, 0.0], 0.25), 'a ball', None)
    backend = visualization._manager.backend

    def user():
        assert wait_until(lambda: e.window is not None and e.window in backend._natives)
        window = e.window
        view = front_view(window, 2.0)
        pos = []
        vis.threadCall(lambda: pos.append(__import__('glfw').get_window_pos(backend._natives[window].handle)))
        assert wait_until(lambda: pos)
        o = pos[0]
        x, y, depth = view.project([0.25, 0.0, 0.0])
        out['expected'] = 0.25 + 30 * depth / focal(view)
        drag(o, (x, y), (30, 0))
        assert wait_until(lambda: e.app.editor.get()[3] > 0.26, 5.0)
        rows = GuiPanel(window).rows(window.width)
        out['panel'] = [r.text for r in rows]
        rx, ry, rw, rh = [r for r in rows if r.text == 'OK'][0].rect
        move(o, rx + rw / 2, ry + rh / 2)
        button(True)
        button(False)
    driven(user)
    ok, value = editors.run(e)
    out['ok'] = ok
    out['value'] = value
    out['gone'] = e.window not in visualization._manager.windows
    vis.kill()
    print(repr(out))
    """)

QT_SCRIPT = DRIVER + textwrap.dedent("""
    import importlib
    importlib.import_module('PyQt6.QtWidgets')   # the program's Qt: run() shows a Qt dialog
    from klampt.vis.backends import qt_gui
    e = editors.AABBEditor('box', ([-0.3, -0.3, -0.5], [0.3, 0.3, -0.2]), 'a box', None)
    edited = []

    def native():
        gui = qt_gui.current()
        n = gui.natives.get(e.window) if gui is not None and e.window is not None else None
        return n if n is not None and n.glwidget.isValid() else None

    def user():
        assert wait_until(lambda: native() is not None)
        n = native()
        time.sleep(0.3)
        gui = qt_gui.current()
        view = front_view(e.window, 2.0)
        p = gui.call(lambda: n.glwidget.mapToGlobal(n.glwidget.rect().topLeft()))
        o = (p.x(), p.y())
        x, y, depth = view.project([0.2, 0.1, -0.2])   # on the top face
        out['expected'] = -0.2 + 20 * depth / focal(view)
        drag(o, (x, y), (0, -20))
        assert wait_until(lambda: e.editedValue()[1][2] > -0.19, 5.0)
        edited.append(e.editedValue())
        cancel = getattr(gui.qt.QtWidgets.QDialogButtonBox.StandardButton, 'Cancel')
        gui.call(lambda: n.top.buttons.button(cancel).click())
    driven(user)
    ok, value = editors.run(e)
    out['ok'] = ok
    out['value'] = value
    out['edited'] = edited

    # a right click selects the link under the mouse; the dialog's list follows; OK returns the selection
    import klampt
    world = klampt.WorldModel()
    assert world.readFile(WORLD)
    robot = world.robot(0)
    e = editors.SelectionEditor('links', [], None, world, robot)

    def select_user():
        assert wait_until(lambda: native() is not None)
        n = native()
        time.sleep(0.3)
        gui = qt_gui.current()
        p = gui.call(lambda: n.glwidget.mapToGlobal(n.glwidget.rect().topLeft()))
        o = (p.x(), p.y())
        hit = next((x, y, i) for y in range(0, e.window.view.h, 8) for x in range(0, e.window.view.w, 8)
                   if (i := e.pickItem(x, y)) is not None and i > 0)
        out['link'] = hit[2]
        move(o, hit[0], hit[1])
        button(True, 3)
        button(False, 3)
        assert wait_until(lambda: e.editedValue() == [hit[2]], 5.0)
        out['listed'] = gui.call(lambda: [item.text() for item in e.selectionList.selectedItems()])
        ok_button = getattr(gui.qt.QtWidgets.QDialogButtonBox.StandardButton, 'Ok')
        gui.call(lambda: n.top.buttons.button(ok_button).click())
    driven(select_user)
    out['selection'] = editors.run(e)
    out['link_name'] = robot.link(out['link']).getName() if 'link' in out else None
    print(repr(out))
    """)


def _run(script, needs):
    script = "WORLD = %r\n" % os.path.join(PROJECT_DATA, 'worlds', 'arm_table.xml') + script
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM',
                                                           'KLAMPT_VIS_BACKEND', 'QT_QPA_PLATFORM')}
    r = subprocess.run(xvfb_command(sys.executable, '-c', script, needs=needs), capture_output=True, text=True,
                       timeout=180, env=env, cwd=os.path.dirname(os.path.abspath(__file__)))
    assert r.returncode == 0, r.stdout + r.stderr
    return eval(r.stdout.strip().splitlines()[-1])


def test_sphere_editor_in_a_glfw_window():
    out = _run(GLFW_SCRIPT, 'glfw')
    assert 'driver_errors' not in out, out
    assert out['panel'][-2:] == ['OK', 'Cancel']
    assert out['ok'] is True
    center, radius = out['value']
    assert radius == pytest.approx(out['expected'], rel=0.03) and radius > 0.25 + 0.03
    assert center == pytest.approx([0, 0, 0], abs=1e-9)
    assert out['gone']


@pytest.mark.skipif(importlib.util.find_spec("PyQt6") is None and not os.environ.get("CI"),
                    reason="PyQt6 is not installed (pip install klampt[qt])")
def test_aabb_editor_in_a_qt_dialog():
    out = _run(QT_SCRIPT, 'PyQt6')
    assert 'driver_errors' not in out, out
    (bmin, bmax), = out['edited']
    assert bmax[2] == pytest.approx(out['expected'], rel=0.03) and bmin == [-0.3, -0.3, -0.5]
    assert out['ok'] is False and out['value'] == ([-0.3, -0.3, -0.5], [0.3, 0.3, -0.2])
    assert out['selection'] == (True, [out['link']]) and out['listed'] == [out['link_name']]
