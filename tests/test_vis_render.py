"""Pixel tests of klampt.vis on real offscreen renders (EGL / OSMesa): what
is drawn where, in which color, at which depth, against the camera's
projection computed independently here."""
import math
import os

import numpy as np
import pytest

import klampt
from klampt.math import se3, so3
from klampt.model.trajectory import Trajectory

from conftest import aabb_geometry, require_offscreen, sphere_geometry
from vis_helpers import background_mask, focal_pixels

W, H = 320, 240


def project(view, p):
    x, y, _ = view.project(p, clip=False)
    return int(round(x)), int(round(y))


def test_centre_sphere_color_silhouette_and_depth(vis):
    vis.add('s', sphere_geometry(), color=(1, 0, 0, 1))
    rgb, depth = vis.screenshot('numpy', True)
    assert rgb.shape == (H, W, 3) and rgb.dtype == np.uint8
    r, g, b = [int(c) for c in rgb[H // 2, W // 2]]
    assert r > 100 and r > 2 * g and r > 2 * b
    for corner in (rgb[0, 0], rgb[0, -1], rgb[-1, 0], rgb[-1, -1]):
        assert abs(int(corner[0]) - 204) <= 1 and abs(int(corner[1]) - 204) <= 1 and abs(int(corner[2]) - 229) <= 1
    # the camera is 6 from the centre: the sphere's front is 5.5 away along the view axis
    assert depth.dtype == np.float32 and depth.shape == (H, W)
    assert depth[H // 2, W // 2] == pytest.approx(5.5, abs=0.02)
    assert depth[0, 0] == pytest.approx(100.0, rel=1e-4)
    # silhouette radius: tangent cone of a sphere of radius 0.5 at distance 6
    expected = focal_pixels(W) * 0.5 / math.sqrt(36 - 0.25)
    ys, xs = np.nonzero(~background_mask(rgb))
    assert (xs.max() - xs.min() + 1) / 2 == pytest.approx(expected, abs=2)
    assert (ys.max() - ys.min() + 1) / 2 == pytest.approx(expected, abs=2)


def test_camera_conventions(vis):
    vis.add('s', sphere_geometry((1, 0, 0), 0.3), color=(1, 0, 0, 1))
    rgb = vis.screenshot()
    ys, xs = np.nonzero(~background_mask(rgb))
    assert xs.mean() > W / 2 + 40 and abs(ys.mean() - H / 2) < 3
    vis.add('s', sphere_geometry((0, 0, 1), 0.3), color=(1, 0, 0, 1))
    ys, xs = np.nonzero(~background_mask(vis.screenshot()))
    assert ys.mean() < H / 2 - 40 and abs(xs.mean() - W / 2) < 3
    vis.add('s', sphere_geometry((0, -7, 0), 0.3), color=(1, 0, 0, 1))  # behind the camera
    assert background_mask(vis.screenshot()).all()
    # turning the orbit camera by 90 degrees about z brings (+1, 0, 0) in front of it
    vis.add('s', sphere_geometry((1, 0, 0), 0.3), color=(1, 0, 0, 1))
    vp = vis.getViewport()
    vp.camera.rot[2] += math.pi / 2
    vis.setViewport(vp)
    ys, xs = np.nonzero(~background_mask(vis.screenshot()))
    assert abs(xs.mean() - W / 2) < 3 and abs(ys.mean() - H / 2) < 3


def test_colors_hiding_removal_and_transparency(vis):
    vis.add('s', sphere_geometry(), color=(1, 0, 0, 1))
    vis.setColor('s', 0, 1, 0)
    r, g, b = [int(c) for c in vis.screenshot()[H // 2, W // 2]]
    assert g > 100 and g > 2 * r and g > 2 * b
    vis.hide('s')
    assert background_mask(vis.screenshot()).all()
    vis.hide('s', False)
    assert not background_mask(vis.screenshot()).all()
    vis.remove('s')
    assert background_mask(vis.screenshot()).all()
    # a half-transparent blue box in front of an opaque red sphere
    vis.add('s', sphere_geometry(), color=(1, 0, 0, 1))
    vis.add('b', aabb_geometry([-0.3, -2.0, -0.3], [0.3, -1.5, 0.3]), color=(0, 0, 1, 0.5))
    r, g, b = [int(c) for c in vis.screenshot()[H // 2, W // 2]]
    assert r > 60 and b > 60 and g < 40


def test_points_are_unlit_squares_of_their_pixel_size(vis):
    vis.add('p', [0, 0, 0], size=20, color=(1, 0, 0, 1), hide_label=True)
    rgb = vis.screenshot()
    red = (np.abs(rgb.astype(int) - [255, 0, 0]).max(axis=2) <= 1)
    ys, xs = np.nonzero(red)
    assert 19 <= xs.max() - xs.min() + 1 <= 21 and 19 <= ys.max() - ys.min() + 1 <= 21
    assert abs(xs.mean() - W / 2) <= 1.5 and abs(ys.mean() - H / 2) <= 1.5
    assert red.sum() == pytest.approx(400, rel=0.12)


def test_trajectory_polyline_spans_its_projection(vis):
    vis.add('t', Trajectory([0, 1], [[-1, 0, 0], [1, 0, 0]]), hide_label=True)
    rgb = vis.screenshot()
    drawn = (~background_mask(rgb)[H // 2 - 2:H // 2 + 3]).any(axis=0)
    xs = np.nonzero(drawn)[0]
    half = focal_pixels(W) / 6.0  # x = +-1 at depth 6
    assert xs.min() == pytest.approx(W / 2 - half, abs=5)
    assert xs.max() == pytest.approx(W / 2 + half, abs=5)
    # orange (1, 0.5, 0) in the middle of the line
    r, g, b = [int(c) for c in rgb[H // 2, W // 2 + 20]]
    assert r > 200 and 100 < g < 160 and b < 40


def test_transform_axes(vis):
    vis.add('T', se3.identity(), length=0.5, hide_label=True)
    rgb = vis.screenshot().astype(int)
    red = (rgb[..., 0] > 200) & (rgb[..., 1] < 60) & (rgb[..., 2] < 60)
    blue = (rgb[..., 2] > 200) & (rgb[..., 0] < 60) & (rgb[..., 1] < 60)
    ys, xs = np.nonzero(red)
    assert len(xs) > 10 and xs.min() >= W / 2 - 2 and xs.max() > W / 2 + 20
    ys, xs = np.nonzero(blue)
    assert len(ys) > 10 and ys.max() <= H / 2 + 2 and ys.min() < H / 2 - 20
    green = (rgb[..., 1] > 200) & (rgb[..., 0] < 60) & (rgb[..., 2] < 60)
    assert green.sum() <= 4  # the y axis points away from the camera


def test_world_fills_the_view_with_a_grey_robot(vis, tx90blocks):
    vis.resizeWindow(640, 480)
    vis.add('world', tx90blocks)
    vis.autoFitCamera()
    rgb = vis.screenshot()
    assert rgb.shape == (480, 640, 3)
    assert (~background_mask(rgb)).mean() > 0.10
    # the robot's links are grey: where its base projects, the pixel is a neutral grey
    robot = tx90blocks.robot(0)
    view = vis.getViewport()
    link = robot.link(2)
    x, y = project(view, link.getTransform()[1])
    patch = rgb[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3).astype(int)
    neutral = (patch.max(axis=1) - patch.min(axis=1) < 12) & (patch.max(axis=1) > 20)
    assert neutral.mean() > 0.5, patch


def test_world_golden_look(vis, tx90blocks):
    """Compared with the project's own reviewed render (4x downsampled)."""
    from PIL import Image
    golden_path = os.path.join(os.path.dirname(__file__), 'data', 'vis_tx90blocks_golden.png')
    vis.resizeWindow(640, 480)
    vis.add('world', tx90blocks)
    vis.add('pt', [0.5, 0, 1.0], color=(1, 0, 0, 1), size=20)
    vis.autoFitCamera()
    rgb = vis.screenshot()
    small = np.asarray(Image.fromarray(rgb).resize((160, 120), Image.BOX), dtype=float)
    golden = np.asarray(Image.open(golden_path).convert('RGB'), dtype=float)
    diff = np.abs(small - golden)
    assert diff.mean() < 8
    # no pixel far off outside a 1-pixel edge band of the golden image
    gray = golden.mean(axis=2)
    edges = np.zeros_like(gray, dtype=bool)
    edges[1:-1, 1:-1] = (np.abs(np.diff(gray, axis=0))[1:, 1:-1] > 10) | (np.abs(np.diff(gray, axis=0))[:-1, 1:-1] > 10) \
        | (np.abs(np.diff(gray, axis=1))[1:-1, 1:] > 10) | (np.abs(np.diff(gray, axis=1))[1:-1, :-1] > 10)
    far = diff.max(axis=2) > 64
    assert not (far & ~edges).any()


def test_animation_is_deterministic_and_leaves_the_robot_alone(vis, tx90blocks):
    robot = tx90blocks.robot(0)
    q0 = robot.getConfig()
    q1 = list(q0)
    q1[2] += 1.0
    q1[3] -= 0.8
    traj = Trajectory([0, 1], [q0, q1])
    vis.add('world', tx90blocks)
    vis.autoFitCamera()
    still = vis.screenshot()
    vis.animate(('world', robot.getName()), traj)
    vis.stepAnimation(0.5)
    animated = vis.screenshot()
    assert robot.getConfig() == q0
    assert (np.abs(animated.astype(int) - still).max(axis=2) > 30).sum() > 200
    # the same picture as the robot posed at traj.eval(0.5) without animation
    vis.animate(('world', robot.getName()), None)
    robot.setConfig(traj.eval(0.5))
    posed = vis.screenshot()
    robot.setConfig(q0)
    assert np.array_equal(animated, posed)


def test_robot_at_two_configurations_differs_where_the_arm_moved(vis, tx90blocks):
    robot = tx90blocks.robot(0)
    vis.add('world', tx90blocks)
    vis.autoFitCamera()
    view = vis.getViewport()
    a = vis.screenshot()
    q = robot.getConfig()
    q[2] += 1.2
    robot.setConfig(q)
    tip = robot.link(robot.numLinks() - 1).getTransform()[1]
    b = vis.screenshot()
    changed = np.abs(a.astype(int) - b).max(axis=2) > 30
    ys, xs = np.nonzero(changed)
    assert len(xs) > 200
    # the moved wrist is drawn in the second picture, where the first one had none of it
    x, y = project(view, tip)
    assert changed[max(0, y - 15):y + 16, max(0, x - 15):x + 16].any()
    # the base did not move
    bx, by = project(view, robot.link(0).getTransform()[1])
    assert not changed[by - 3:by + 4, bx - 3:bx + 4].any()


def test_labels_and_text(vis):
    vis.add('p', [0.5, 0, 0.3], color=(1, 0, 0, 1), size=6)
    view = vis.getViewport()
    x, y = project(view, [0.5, 0, 0.3])
    rgb = vis.screenshot().astype(int)
    dark = rgb.max(axis=2) < 90
    assert dark[y - 20:y + 21, x - 20:x + 21].any()
    vis.hideLabel('p')
    dark = vis.screenshot().astype(int).max(axis=2) < 90
    assert not dark[y - 20:y + 21, x - 20:x + 21].any()
    vis.addText('t', 'hello')
    dark = vis.screenshot().astype(int).max(axis=2) < 90
    assert dark[20:41, 20:121].any() and not dark[60:, :].any()
    vis.clearText()
    vis.addText('t', 'hello', position=(-100, -20))
    dark = vis.screenshot().astype(int).max(axis=2) < 90
    ys, xs = np.nonzero(dark)
    assert xs.min() >= W - 100 and ys.min() >= H - 20 and len(xs) > 10


def test_core_drawGL_draws_in_the_users_context():
    """world.drawGL() in a context made without klampt.vis; without a
    current context it raises RuntimeError."""
    require_offscreen()
    from klampt.vis._context import offscreen_context, release
    from klampt.vis.glviewport import GLViewport
    from OpenGL import GL
    world = klampt.WorldModel()
    world.makeRigidObject('ball').geometry().set(sphere_geometry())
    with pytest.raises(RuntimeError, match="OpenGL context"):
        world.drawGL()
    offscreen_context()
    GL.glPushAttrib(GL.GL_LIGHTING_BIT | GL.GL_ENABLE_BIT | GL.GL_CURRENT_BIT)  # the context is shared with klampt.vis
    try:
        fbo = GL.glGenFramebuffers(1)
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, fbo)
        rb = GL.glGenRenderbuffers(1)
        GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb)
        GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_RGBA8, 64, 48)
        GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, rb)
        GL.glViewport(0, 0, 64, 48)
        GL.glClearColor(0, 0, 0, 1)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT)
        view = GLViewport()
        view.w, view.h = 64, 48
        view.set_current_GL()
        GL.glEnable(GL.GL_LIGHT0)  # OpenGL's default light: white, from the viewer
        GL.glDisable(GL.GL_DEPTH_TEST)
        world.drawGL()
        data = np.frombuffer(GL.glReadPixels(0, 0, 64, 48, GL.GL_RGB, GL.GL_UNSIGNED_BYTE), np.uint8).reshape(48, 64, 3)
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, 0)
        GL.glDeleteFramebuffers(1, [fbo])
        GL.glDeleteRenderbuffers(1, [rb])
    finally:
        GL.glPopAttrib()
        release()
    # the object's grey (0.6), lit, shows at the centre; the cleared black elsewhere
    centre = data[24, 32].astype(int)
    assert centre.min() > 60 and centre.max() - centre.min() <= 2 and data[0, 0].max() == 0
    with pytest.raises(RuntimeError, match="OpenGL context"):
        world.rigidObject(0).drawGL()


def test_plugin_display_and_display_screen(vis):
    from OpenGL import GL
    from klampt.vis.glinterface import GLPluginInterface

    class Plugin(GLPluginInterface):
        def display(self):
            GL.glDisable(GL.GL_LIGHTING)
            GL.glColor3f(1, 0, 0)
            GL.glBegin(GL.GL_QUADS)
            for x, z in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)):
                GL.glVertex3f(x, 0, z)
            GL.glEnd()

        def display_screen(self):
            GL.glColor3f(0, 0, 1)
            GL.glBegin(GL.GL_QUADS)
            for x, y in ((0, 0), (30, 0), (30, 10), (0, 10)):
                GL.glVertex2f(x, y)
            GL.glEnd()
    vis.pushPlugin(Plugin())
    rgb = vis.screenshot().astype(int)
    assert rgb[H // 2, W // 2, 0] > 200 and rgb[H // 2, W // 2, 1:].max() < 40
    # screen coordinates: origin top left, y down
    assert rgb[5, 15, 2] > 200 and rgb[5, 15, :2].max() < 40
    assert rgb[H - 5, 15, 2] < 240 and rgb[5, 40, 2] < 240


def test_editing_a_transform_by_dragging_its_x_arrow(vis):
    vis.add('T', se3.identity())
    widget = vis.edit('T')
    assert widget is not None
    view = vis.getViewport()
    x, y = project(view, [0, 0, 0])
    window = vis.nativeWindow()
    window.motion(x + 40, y)          # hover the x arrow
    window.mouse_button(0, 0, x + 40, y)
    window.motion(x + 70, y)          # drag right by 30 pixels
    window.mouse_button(0, 1, x + 70, y)
    T = vis.getItemConfig('T')
    assert T[9] > 0.05 and abs(T[10]) < 1e-9 and abs(T[11]) < 1e-9
    # the handles are drawn
    assert (vis.screenshot().astype(int)[..., 0] > 200).sum() > 20


def test_screenshot_formats(vis):
    vis.add('s', sphere_geometry(), color=(1, 0, 0, 1))
    a = vis.screenshot('numpy')
    assert a.flags['C_CONTIGUOUS'] and a.dtype == np.uint8 and a.shape == (H, W, 3)
    im = vis.screenshot('Image')
    assert im.mode == 'RGB' and im.size == (W, H) and np.array_equal(np.asarray(im), a)
    w, h, data = vis.screenshot('bytes')
    assert (w, h) == (W, H) and len(data) == 3 * W * H
    assert np.array_equal(np.frombuffer(data, np.uint8).reshape(H, W, 3)[::-1], a)
    rgb, depth = vis.screenshot('Image', want_depth=True)
    assert depth.dtype == np.float32 and depth.shape == (H, W)
    with pytest.raises(ValueError):
        vis.screenshot('jpeg')


def test_renders_are_repeatable_and_show_kill_cycles_leak_nothing(vis):
    import threading
    vis.add('s', sphere_geometry(), color=(1, 0, 0, 1))
    assert np.array_equal(vis.screenshot(), vis.screenshot())
    fds = len(os.listdir('/proc/self/fd')) if os.path.isdir('/proc/self/fd') else None
    threads = threading.active_count()
    for _ in range(50):
        vis.show()
        vis.screenshot()
        vis.kill()
    assert threading.active_count() == threads
    if fds is not None:
        assert len(os.listdir('/proc/self/fd')) <= fds + 2


def test_camera_sensor_renders_lit_colors_and_depth_through_opengl(vis):
    """With a rendering backend active, a camera sees the lit scene (not the
    flat appearance color) and the same depths as the ray caster."""
    world = klampt.WorldModel()
    robot = world.makeRobot('camera_mount')
    world.makeRigidObject('ball').geometry().set(sphere_geometry((0, 0, 2), 0.5))
    cam = robot.addSensor('cam', 'CameraSensor')
    for key, value in [('link', '-1'), ('xres', '32'), ('yres', '24'), ('xfov', '0.8'), ('zmax', '10')]:
        cam.setSetting(key, value)
    cam.setTransform(so3.identity(), [0, 0, 0])  # looking up +z at the ball
    cam.kinematicSimulate(world, 0.01)
    gl = np.asarray(cam.getMeasurements())
    from klampt.vis import _sensor_render
    _sensor_render.uninstall()
    cam.kinematicSimulate(world, 0.01)
    ray = np.asarray(cam.getMeasurements())
    _sensor_render.install()
    n = 32 * 24
    c = [int(v * 255) for v in world.rigidObject(0).appearance().getColor()[:3]]
    flat = (c[0] << 16) | (c[1] << 8) | c[2]  # the ray caster's unlit appearance color
    assert (ray[:n] == flat).sum() > 50
    hit = ray[:n] == flat
    seen = hit & (gl[:n] != 0x96AAFF)  # the rasterized silhouette differs from the rays' by edge pixels
    assert seen.sum() > 0.8 * hit.sum()
    colors = gl[:n].astype(np.int64)
    lit = np.stack([(colors >> 16) & 255, (colors >> 8) & 255, colors & 255], axis=1)[seen]
    assert np.abs(lit - lit.mean(axis=0)).max() > 5  # shading varies over the ball
    assert (lit.max(axis=1) - lit.min(axis=1) <= 2).all()  # still grey
    assert (gl[:n][~hit] == 0x96AAFF).mean() > 0.9
    # depths agree with ray casting up to the sphere's tessellation and half a pixel (rays go through pixel
    # corners as the reference's, the rasterizer samples pixel centres)
    dg, dr = gl[n:].reshape(24, 32), ray[n:].reshape(24, 32)
    both = seen.reshape(24, 32)
    assert np.median(np.abs(dg[both] - dr[both])) < 0.03
    front = both & (dr < 1.6)
    assert front.sum() > 20 and np.abs(dg[front] - dr[front]).max() < 0.05
    assert (dg[dr == 10.0] == 10.0).mean() > 0.9


def test_resource_thumbnail_of_a_configuration(tx90blocks):
    require_offscreen()
    from klampt.io import resource
    robot = tx90blocks.robot(0)
    q = robot.getConfig()
    q[2] += 1.0
    img = np.asarray(resource.thumbnail(q, (128, 96), world=tx90blocks))
    assert img.shape == (96, 128, 3)
    assert (~background_mask(img)).mean() > 0.05
    assert robot.getConfig() != q  # the robot itself was not moved
