"""The GLFW window backend under a virtual X server (Xvfb): the window shows
the scene, screenshots read the rendered frame (never a black front
buffer), actions fire on keys, loop(setup=vis.show) works, and the window
can be shown again after kill()."""
import os
import subprocess
import sys
import textwrap


from conftest import xvfb_command

SCRIPT = textwrap.dedent("""
    import time
    import klampt
    from klampt import vis
    assert vis.init() == 'GLFW', vis.init()
    p = klampt.GeometricPrimitive(); p.setSphere([0, 0, 0], 0.5)
    vis.add('s', klampt.Geometry3D(p), color=(1, 0, 0, 1))
    fired = []
    vis.addAction(lambda: fired.append('d'), 'Do it', 'd')
    vis.show()
    time.sleep(0.5)
    assert vis.shown()
    img = vis.screenshot()
    vis.nativeWindow().keyboard('d', 0, 0)
    calls = []
    def cb():
        calls.append(1)
        if len(calls) > 5:
            vis.show(False)
    vis.loop(setup=vis.show, callback=cb)
    vis.kill()
    vis.show()
    time.sleep(0.3)
    again = vis.screenshot()
    vis.kill()
    print(repr((img[240, 320].tolist(), img[5, 5].tolist(), fired, len(calls) > 5, again[240, 320].tolist())))
    """)


def test_glfw_window_under_xvfb():
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM')}
    r = subprocess.run(xvfb_command(sys.executable, '-c', SCRIPT),
                       capture_output=True, text=True, timeout=120, env=env, cwd=os.path.dirname(__file__))
    assert r.returncode == 0, r.stdout + r.stderr
    centre, corner, fired, looped, again = eval(r.stdout.strip().splitlines()[-1])
    assert centre[0] > 100 and centre[1] < 50 and centre[2] < 50  # red, not a black front buffer
    assert abs(corner[0] - 204) <= 1 and abs(corner[2] - 229) <= 1
    assert fired == ['d'] and looped
    assert again[0] > 100 and again[1] < 50
