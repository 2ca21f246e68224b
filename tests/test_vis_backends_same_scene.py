"""Every backend of klampt.vis shows the same scene: the demo world with its
robot painted blue, from the camera ``vis.autoFitCamera()`` chooses, drawn
by the offscreen renderer (EGL), OSMesa, a GLFW and a Qt window under a
virtual X server, and in headless Chromium the HTML export, the
HTMLSharePath page, the Jupyter widget's module and the viser client.
Each picture is one a person accepts (``assert_recognisable``) and puts
the robot where the offscreen one does.

Every picture is made in its own process (a backend per process, as a
program uses one), all started together to share the two minutes."""
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from conftest import require_offscreen, xvfb_command
from test_vis_web import _chromium
from vis_helpers import PAINT, assert_recognisable, painted_share

WORLD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'data', 'worlds', 'arm_table.xml')
W, H = 640, 480
# The viser client's panels cover the top corners of its page: it is shot at
# twice the size (the panels stay as large) and scaled down.
VISER_SCALE = 2

SCRIPT = textwrap.dedent("""
    import os, subprocess, sys, time
    import numpy as np
    import klampt
    from klampt import vis
    from PIL import Image
    backend, out, world_file, w, h, chromium, scale = sys.argv[1:8]
    w, h, scale = int(w), int(h), int(scale)
    PAINT = [float(c) for c in sys.argv[8].split(',')]
    world = klampt.WorldModel()
    assert world.loadFile(world_file)

    def paint():
        for i in range(world.numRobots()):
            vis.setColor(('world', world.robot(i).getName()), *PAINT)

    def browser(url, path, size=(w, h), budget=8000):
        subprocess.run([chromium, '--no-sandbox', '--headless', '--use-angle=swiftshader',
                        '--enable-unsafe-swiftshader', '--hide-scrollbars', '--window-size=%d,%d' % size,
                        '--virtual-time-budget=%d' % budget, '--screenshot=' + path, url],
                       capture_output=True, timeout=120)
        return np.asarray(Image.open(path).convert('RGB'))

    def page_shot(html):
        page = out + '.html'
        with open(page, 'w', encoding='utf-8') as f:
            f.write(html)
        return browser('file://' + page, out + '.png')

    kind = backend
    if backend in ('offscreen', 'osmesa'):
        vis.init('offscreen')
    elif backend in ('HTML', 'widget'):
        vis.init('HTML')
    elif backend == 'sharepath':
        pass
    else:
        assert vis.init(backend) == backend, backend
    if backend != 'sharepath':
        vis.createWindow('same scene')
        vis.resizeWindow(w, h)
        vis.add('world', world)
        paint()
        vis.autoFitCamera()
    if backend in ('offscreen', 'osmesa'):
        img = vis.screenshot()
        from klampt.vis import _context
        kind = type(_context._context).__name__
    elif backend in ('GLFW', 'PyQt'):
        vis.show()
        end = time.time() + 20
        while not vis.shown() and time.time() < end:
            time.sleep(0.05)
        assert vis.shown(), 'the window did not open'
        time.sleep(1.0)
        img = vis.screenshot()
    elif backend == 'HTML':
        img = page_shot(vis.nativeWindow().page())
    elif backend == 'widget':
        from klampt.vis._web.page import _inline_json
        from klampt.vis.ipython import KlamptWidget
        widget = KlamptWidget(scene=vis.scene(), width=w, height=h)
        img = page_shot('''<!DOCTYPE html><html><body style="margin:0;overflow:hidden"><div id="w"></div>
    <script type="module">
    const mod = await import(URL.createObjectURL(new Blob([%s], {type: "text/javascript"})));
    const state = {scene: %s, transforms: %s, camera: {}, width: %d, height: %d};
    const model = {get: (k) => state[k], set: (k, v) => { state[k] = v; }, save_changes: () => {}, on: () => {}};
    mod.default.render({model, el: document.getElementById("w")});
    </script></body></html>''' % (_inline_json(widget._esm), _inline_json(widget.scene),
                                    _inline_json(widget.transforms), w, h))
    elif backend == 'sharepath':
        from klampt.io.html import HTMLSharePath
        for i in range(world.numRobots()):  # the page shows the world's own appearance
            robot = world.robot(i)
            for j in range(robot.numLinks()):
                robot.link(j).appearance().setColor(*PAINT)
        sharer = HTMLSharePath(out + '.html', name='same scene')
        sharer.start(world)
        sharer.end()
        img = browser('file://' + out + '.html', out + '.png')
    elif backend == 'viser':
        from browser_cdp import screenshot_when
        from vis_helpers import painted_share
        vis.show()
        port = vis.nativeWindow().get_port()
        seen = []

        def settled(img):  # the robot there, and the same picture twice
            seen.append(img)
            return painted_share(img) > 0.004 and len(seen) > 1 and np.array_equal(seen[-2], img)
        img = screenshot_when(chromium, 'http://127.0.0.1:%d' % port, (w * scale, h * scale), settled)
        img = np.asarray(Image.fromarray(img).resize((w, h), Image.BILINEAR))
    vis.kill()
    np.save(out + '.npy', np.asarray(img)[..., :3])
    Image.fromarray(np.asarray(img)[..., :3]).save(out + '.png')
    print(kind)
    """)

GL_BACKENDS = ('offscreen', 'osmesa', 'GLFW', 'PyQt')
BROWSER_BACKENDS = ('HTML', 'sharepath', 'widget', 'viser')


def _command(backend, out):
    args = [sys.executable, '-c', SCRIPT, backend, out, WORLD, str(W), str(H), _chromium(), str(VISER_SCALE),
            ','.join(str(c) for c in PAINT)]
    if backend in ('GLFW', 'PyQt'):
        return xvfb_command(*args, needs={'GLFW': 'glfw', 'PyQt': 'PyQt6'}[backend])
    return args


def _environment(backend):
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'PYOPENGL_PLATFORM',
                                                             'QT_QPA_PLATFORM')}
    if backend == 'osmesa':
        env['PYOPENGL_PLATFORM'] = 'osmesa'
    if backend == 'viser':
        env['KLAMPT_VIS_PORT'] = '0'
    return env


@pytest.fixture(scope='module')
def shots(tmp_path_factory):
    """{backend: (process, image path prefix)}, all started at once; read
    through :func:`_shot`."""
    require_offscreen()
    folder = tmp_path_factory.mktemp('same_scene')
    running = {}
    for backend in GL_BACKENDS + BROWSER_BACKENDS:
        out = str(folder / backend)
        running[backend] = (subprocess.Popen(_command(backend, out), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                             text=True, env=_environment(backend),
                                             cwd=os.path.dirname(os.path.abspath(__file__)), start_new_session=True),
                            out)
    yield running
    for process, _ in running.values():
        if process.poll() is None:  # with what it started (a browser, an X server)
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def backend_missing(backend):
    """Why a backend cannot render here (None when it can)."""
    if backend == 'osmesa':
        import ctypes.util
        return None if ctypes.util.find_library('OSMesa') else 'libOSMesa is missing (apt-get install libosmesa6)'
    return None


def _shot(shots, backend):
    process, out = shots[backend]
    stdout, stderr = process.communicate(timeout=150)
    assert process.returncode == 0, stdout + stderr
    return np.load(out + '.npy'), stdout.strip().splitlines()[-1]


def _robot_pixels(img):
    """(x, y) centroid and pixel count of the painted robot."""
    img = img.astype(int)
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    ys, xs = np.nonzero((b > 50) & (r < 0.4 * b) & (g < 0.4 * b))
    return np.array([xs.mean(), ys.mean()]), len(xs)


@pytest.fixture(scope='module')
def reference(shots):
    """The offscreen (EGL) picture, which the others are compared with."""
    img, kind = _shot(shots, 'offscreen')
    assert kind == 'EGLContext'
    assert img.shape == (H, W, 3)
    assert_recognisable(img)
    return img


def test_offscreen_egl_shows_the_robot_on_the_floor(reference):
    centre, count = _robot_pixels(reference)
    # the arm stands on the floor in the lower left, the table to its right:
    # robot well inside the frame, floor and table around it
    assert 0.04 < count / (W * H) < 0.4
    assert 0.15 * W < centre[0] < 0.6 * W and 0.2 * H < centre[1] < 0.85 * H


def _compare(img, reference, centre_tolerance, share_ratio):
    assert img.shape == reference.shape
    assert_recognisable(img)
    centre, count = _robot_pixels(img)
    ref_centre, ref_count = _robot_pixels(reference)
    assert np.linalg.norm(centre - ref_centre) <= centre_tolerance, (centre, ref_centre)
    assert 1 / share_ratio <= count / ref_count <= share_ratio, (count, ref_count)


@pytest.mark.parametrize('backend', ['osmesa', 'GLFW', 'PyQt'])
def test_opengl_backends_draw_the_offscreen_picture(shots, reference, backend):
    """The same renderer in another context: the same pixels, up to the
    rasterisers' rounding."""
    if backend == 'osmesa' and backend_missing('osmesa'):
        if os.environ.get('CI'):
            pytest.fail(backend_missing('osmesa'))
        pytest.skip(backend_missing('osmesa'))
    img, kind = _shot(shots, backend)
    if backend == 'osmesa':
        assert kind == 'OSMesaContext'
    _compare(img, reference, 2.0, 1.03)
    assert np.median(np.abs(img.astype(int) - reference).max(axis=-1)) <= 2


@pytest.mark.parametrize('backend', ['HTML', 'sharepath', 'widget'])
def test_web_viewer_pages_match_the_opengl_picture(shots, reference, backend):
    """The web viewer draws the scene JSON with the same camera, lights and
    terrain checkerboard: the robot in the same place, and most pixels
    within a few levels (WebGL antialiases the edges, the offscreen
    renderer does not)."""
    img, _ = _shot(shots, backend)
    _compare(img, reference, 2.0, 1.03)
    close = (np.abs(img.astype(int) - reference).max(axis=-1) <= 6).mean()
    assert close > 0.95, close


def test_viser_client_starts_at_the_scene_camera(shots, reference):
    """viser's three.js renderer, its own lighting units and no terrain
    checkerboard: the robot in the same place and about as large, lit
    (shaded, not one flat blue)."""
    img, _ = _shot(shots, 'viser')
    _compare(img, reference, 3.0, 1.05)
    robot = img[(img[..., 2] > 50) & (img[..., 0] < 0.4 * img[..., 2]) & (img[..., 1] < 0.4 * img[..., 2])]
    assert np.percentile(robot[:, 2], 90) - np.percentile(robot[:, 2], 10) > 30
    assert painted_share(img) > 0.04
