"""The GUI panel of the GLFW window, under Xvfb, driven by real X input
(mouse and key events sent through the XTest extension, which GLFW
receives as from a user): the panel is drawn where its layout says (dark
background, light text, the checkbox filling in when checked), clicks on
its controls change the widgets' states and fire their callbacks, typing
edits an input, the header folds it, a key fires an action, and clicks on
the panel do not move the camera while a drag beside it does."""
import os
import subprocess
import sys
import textwrap


from conftest import xvfb_command
from vis_helpers import XTEST_PREAMBLE

SCRIPT = XTEST_PREAMBLE + textwrap.dedent("""
    import ctypes, threading, time
    import numpy as np
    import klampt
    from klampt import vis
    from klampt.vis import _panel_layout as layout
    from klampt.vis import visualization


    assert vis.init() == 'GLFW'
    p = klampt.GeometricPrimitive(); p.setSphere([0, 0, 0], 0.5)
    vis.setViewport(vis.getViewport())  # the default camera: the sphere stays clear of the panel's corner
    vis.add('s', klampt.Geometry3D(p), color=(1, 0, 0, 1))
    vis.show()
    time.sleep(0.5)
    out = {}
    W = 640
    out['before'] = vis.screenshot()[10:260, W - 240:W - 10].copy()

    calls = []
    vis.addAction(lambda: calls.append('action'), 'Do it', 'd')
    vis.addButton('Press me', lambda: calls.append('button'))
    vis.addCheckbox('Enable', lambda s: calls.append(('checkbox', s)))
    vis.addSlider('Gain', 0.5, 0.0, 2.0, lambda s: calls.append(('slider', round(s, 3))))
    vis.addSelect('Mode', ['fast', 'slow', 'off'], lambda s: calls.append(('select', s)))
    vis.addInput('Count', 3, lambda s: calls.append(('count', s)))
    time.sleep(0.3)

    origin = []
    backend = visualization._manager.backend
    def window_pos():
        import glfw
        origin.append(glfw.get_window_pos(backend._natives[visualization._manager.window].handle))
    vis.threadCall(window_pos)
    while not origin:
        time.sleep(0.02)
    ox, oy = origin[0]

    def move(x, y):
        xtst.XTestFakeMotionEvent(dpy, -1, int(ox + x), int(oy + y), 0)
        x11.XFlush(dpy)
        time.sleep(0.1)

    def click(x, y):
        move(x, y)
        xtst.XTestFakeButtonEvent(dpy, 1, True, 0)
        xtst.XTestFakeButtonEvent(dpy, 1, False, 0)
        x11.XFlush(dpy)
        time.sleep(0.3)

    def wait_until(condition, timeout=10.0):
        # the vis thread takes the X events at its next frame, later under load
        end = time.time() + timeout
        while not condition() and time.time() < end:
            time.sleep(0.05)
        return condition()

    def key(name):
        code = x11.XKeysymToKeycode(dpy, x11.XStringToKeysym(name.encode()))
        xtst.XTestFakeKeyEvent(dpy, code, True, 0)
        xtst.XTestFakeKeyEvent(dpy, code, False, 0)
        x11.XFlush(dpy)
        time.sleep(0.15)

    # the layout, from the panel's documented geometry: header, the action, then the widgets in order
    left = W - layout.MARGIN - layout.PANEL_WIDTH
    def row_y(i):
        return layout.MARGIN + layout.ROW_HEIGHT * i + layout.ROW_HEIGHT // 2
    centre_x = left + layout.PANEL_WIDTH // 2
    img = vis.screenshot()
    out['shown'] = img[10:260, W - 240:W - 10].copy()
    out['panel_corner'] = img[layout.MARGIN + 2, left + 2].tolist()
    out['button_row'] = img[row_y(2) - 8:row_y(2) + 8, left + 8:left + 90].reshape(-1, 3).max(axis=0).tolist()
    box = (left + 8 + 3 + 6, row_y(3))  # inside the checkbox square
    out['box_unchecked'] = img[box[1], box[0]].tolist()
    camera = list(vis.getViewport().camera.rot)

    click(centre_x, row_y(2))
    wait_until(lambda: calls)
    out['after_button'] = list(calls)
    click(left + 40, row_y(3))
    wait_until(lambda: vis.getWidgetState('Enable'))
    out['checkbox_state'] = vis.getWidgetState('Enable')
    out['box_checked'] = vis.screenshot()[box[1], box[0]].tolist()
    track_x = left + layout.PANEL_WIDTH // 2
    track_w = layout.PANEL_WIDTH // 2 - 8
    click(track_x + int(0.75 * track_w), row_y(4))
    wait_until(lambda: vis.getWidgetState('Gain') != 0.5)
    out['slider_state'] = vis.getWidgetState('Gain')
    click(centre_x, row_y(5))
    click(centre_x, row_y(5))
    click(left + 8, row_y(5))  # the '<' end goes back
    wait_until(lambda: len([c for c in calls if c[0] == 'select']) == 3)
    out['select_state'] = vis.getWidgetState('Mode')
    click(left + layout.PANEL_WIDTH - 30, row_y(6))
    for k in ('BackSpace', '4', '2', 'Return'):
        key(k)
    wait_until(lambda: vis.getWidgetState('Count') == 42)
    out['count_state'] = vis.getWidgetState('Count')
    click(centre_x, row_y(1))
    wait_until(lambda: 'action' in calls)
    out['camera_still'] = list(vis.getViewport().camera.rot) == camera
    key('d')  # the action's key
    wait_until(lambda: calls.count('action') == 2)

    # a drag beside the panel still turns the camera
    move(200, 300)
    xtst.XTestFakeButtonEvent(dpy, 1, True, 0); x11.XFlush(dpy); time.sleep(0.1)
    move(260, 320)
    xtst.XTestFakeButtonEvent(dpy, 1, False, 0); x11.XFlush(dpy); time.sleep(0.2)
    out['camera_moved'] = wait_until(lambda: list(vis.getViewport().camera.rot) != camera)

    below = lambda: vis.screenshot()[row_y(3), left + 2].tolist()
    click(centre_x, row_y(0))  # fold
    wait_until(lambda: below()[0] > 150)
    out['folded_below_header'] = below()
    click(centre_x, row_y(0))  # unfold
    wait_until(lambda: below()[0] < 100)
    out['unfolded_below_header'] = below()
    out['calls'] = calls
    vis.kill()
    np.set_printoptions(threshold=10**9)
    out['before'] = out['before'].astype(int).mean(axis=(0, 1)).tolist()
    out['shown'] = out['shown'].astype(int).mean(axis=(0, 1)).tolist()
    print(repr(out))
    """)


def test_panel_drawn_and_driven_by_x_input():
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM',
                                                           'KLAMPT_VIS_BACKEND')}
    r = subprocess.run(xvfb_command(sys.executable, '-c', SCRIPT),
                       capture_output=True, text=True, timeout=180, env=env, cwd=os.path.dirname(__file__))
    assert r.returncode == 0, r.stdout + r.stderr
    out = eval(r.stdout.strip().splitlines()[-1])
    # drawn: the panel's corner goes from the background to dark, its rows carry light text
    assert out['before'][0] > 195 and out['before'][2] > 220  # nothing there before any widget
    assert out['shown'][0] < out['before'][0] - 60
    from klampt.vis._render.panel import BACKGROUND
    alpha = BACKGROUND[3]
    blend = [b * (1 - alpha) + 255 * c * alpha for b, c in zip((204, 204, 229), BACKGROUND[:3])]
    assert max(abs(a - b) for a, b in zip(out['panel_corner'], blend)) <= 3, (out['panel_corner'], blend)
    assert min(out['button_row']) > 200
    # the checkbox fills in with the accent colour once checked
    assert out['box_unchecked'][2] < 120 and out['box_checked'][2] > 180 and out['box_checked'][0] < 120
    # the clicks' effects
    assert out['after_button'] == ['button']
    assert out['checkbox_state'] is True
    assert abs(out['slider_state'] - 1.5) < 0.05
    assert out['select_state'] == 'slow'  # fast -> slow -> off -> back to slow
    assert out['count_state'] == 42 and isinstance(out['count_state'], int)
    assert out['camera_still'] and out['camera_moved']
    calls = out['calls']
    assert ('checkbox', True) in calls and ('count', 42) in calls
    assert [c for c in calls if isinstance(c, tuple) and c[0] == 'select'] == [('select', 'slow'), ('select', 'off'),
                                                                            ('select', 'slow')]
    assert calls.count('action') == 2  # the panel's row, then the 'd' key
    # folding hides the rows under the header
    assert out['folded_below_header'][0] > 195 and max(out['unfolded_below_header']) < 70
