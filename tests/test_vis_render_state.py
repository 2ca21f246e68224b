"""What one render leaves in the process's OpenGL context must not change
the next: a scene with a colored mesh and a point cloud (the colormap demo's)
rendered between two renders of the demo world, in new windows of the same
process, leaves the second identical to the first and to a render made in a
fresh interpreter; and a geometry's drawGL gives its appearance's color
whatever color tracking state a push / pop of the context left."""
import numpy as np
import pytest

from conftest import arm_table_world, require_offscreen, sphere_geometry
from vis_helpers import background_mask, run_python

W, H = 320, 240

RENDER_WORLD = """
import sys
import numpy as np
from klampt import vis
from test_vis_render_state import render_world
np.save(sys.argv[1], render_world(vis)[0])
"""


def render_world(vis):
    """The demo world in a new W x H offscreen window, camera fitted: the
    image, and the pixels where the robot's links' origins project."""
    world = arm_table_world()
    vis.init('offscreen')
    vis.createWindow('world')
    try:
        vis.resizeWindow(W, H)
        vis.add('world', world)
        vis.autoFitCamera()
        view = vis.getViewport()
        robot = world.robot(0)
        pixels = [view.project(robot.link(i).getTransform()[1], clip=False)[:2] for i in range(robot.numLinks())]
        return vis.screenshot(), np.round(pixels).astype(int)
    finally:
        vis.kill()


def link_patches(img, pixels):
    """The 5 x 5 patches of ``img`` around ``pixels`` inside it (n x 25 x 3)."""
    h, w = img.shape[:2]
    inside = [(x, y) for x, y in pixels if 2 <= x < w - 2 and 2 <= y < h - 2]
    return np.array([img[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3) for x, y in inside]).astype(int)


def render_colored_scene(vis, feature):
    """The colormap demo's scene: a sphere mesh colored per face or per
    vertex, and its point cloud colored per point, in a new window."""
    from klampt.vis import colorize
    from test_examples_colormap import make_geometry
    mesh, cloud = make_geometry()
    appearance = colorize.colorize(mesh, 'z', 'viridis', feature)
    colorize.colorize(cloud, 'z', 'viridis')
    vis.init('offscreen')
    vis.createWindow('colored')
    try:
        vis.add('mesh', mesh, appearance=appearance)
        vis.add('cloud', cloud)
        vis.autoFitCamera()
        img = vis.screenshot()
        vis.clear()
        return img
    finally:
        vis.kill()


def assert_lit_grey(img, links):
    """Around its links' origins the arm shows its grey (0.5, specular 0.2)
    lit by the scene's lights: neutral, no darker than the ambient light
    alone and no brighter than every light full on."""
    from klampt.vis._lighting import AMBIENT, LIGHTS
    patches = link_patches(img, links)
    assert len(patches) >= 4
    darkest = 0.5 * AMBIENT * 255
    brightest = (0.5 * (AMBIENT + sum(light.diffuse for light in LIGHTS)) +
                 0.2 * sum(light.specular for light in LIGHTS)) * 255
    assert (patches.max(axis=2) - patches.min(axis=2)).max() <= 6
    assert darkest - 2 <= patches.min() and patches.max() <= brightest + 2, (darkest, brightest, patches.max())


def assert_same_render(a, b):
    diff = np.abs(a.astype(int) - b.astype(int)).max(axis=2)
    assert diff.mean() < 0.2 and (diff > 8).sum() <= 10, (diff.mean(), (diff > 8).sum())


@pytest.mark.parametrize('feature', ['faces', 'vertices'])
def test_colored_scene_leaves_the_next_windows_renders_alone(tmp_path, feature):
    from klampt import vis
    require_offscreen()
    out = tmp_path / 'world.npy'
    r = run_python(['-c', RENDER_WORLD, str(out)])
    assert r.returncode == 0, r.stderr[-2000:]
    fresh = np.load(out)
    assert fresh.shape == (H, W, 3) and (~background_mask(fresh)).mean() > 0.3
    before, links = render_world(vis)
    assert_lit_grey(fresh, links)
    assert_same_render(before, fresh)
    colored = render_colored_scene(vis, feature).astype(int)
    # the scene did draw its colors: viridis' yellow on the mesh
    assert (np.abs(colored - [0xfd, 0xe7, 0x25]).sum(axis=2) < 60).sum() > 15
    after, _ = render_world(vis)
    assert_lit_grey(after, links)
    assert_same_render(after, fresh)


def test_drawGL_color_survives_nested_push_pops():
    """Mesa 22's glPopAttrib restores only the groups it saw change since the
    matching push, and a nested push / pop loses what the inner push itself
    flushed (a color set just before it): the outer pop then restores the
    material tracking the color but not the color. A geometry drawn next in
    that same color must still be lit in it, not in the color from before
    the push."""
    require_offscreen()
    import klampt
    from klampt.vis._context import offscreen_context, release
    from klampt.vis.glviewport import GLViewport
    from OpenGL import GL
    world = klampt.WorldModel()
    world.makeRigidObject('ball').geometry().set(sphere_geometry())
    grey = list(world.rigidObject(0).appearance().getColor())
    assert max(grey[:3]) < 0.9
    offscreen_context()
    # the context is shared with klampt.vis (whose framebuffer may be bound)
    GL.glPushAttrib(GL.GL_LIGHTING_BIT | GL.GL_ENABLE_BIT | GL.GL_CURRENT_BIT)
    bound = GL.glGetIntegerv(GL.GL_FRAMEBUFFER_BINDING)
    fbo = GL.glGenFramebuffers(1)
    rb = GL.glGenRenderbuffers(1)
    try:
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, fbo)
        GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb)
        GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_RGBA8, 64, 48)
        GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, rb)
        GL.glViewport(0, 0, 64, 48)
        GL.glDisable(GL.GL_SCISSOR_TEST)
        GL.glDisable(GL.GL_DEPTH_TEST)
        view = GLViewport()
        view.w, view.h = 64, 48
        view.set_current_GL()
        GL.glEnable(GL.GL_LIGHT0)  # OpenGL's default light: white, from the viewer
        GL.glEnable(GL.GL_COLOR_MATERIAL)  # surfaces lit in the current color, as klampt.vis's frames set up
        GL.glColorMaterial(GL.GL_FRONT_AND_BACK, GL.GL_AMBIENT_AND_DIFFUSE)

        def centre():
            GL.glEnable(GL.GL_LIGHTING)
            GL.glClearColor(0, 0, 0, 1)
            GL.glClear(GL.GL_COLOR_BUFFER_BIT)
            world.drawGL()
            data = np.frombuffer(GL.glReadPixels(0, 0, 64, 48, GL.GL_RGB, GL.GL_UNSIGNED_BYTE), np.uint8)
            return data.reshape(48, 64, 3)[24, 32].astype(int)

        first = centre()
        GL.glColor4f(1, 1, 1, 1)
        GL.glDisable(GL.GL_LIGHTING)
        # a plugin's display inside the window's push / pop, itself pushing
        # around a draw in the object's grey
        GL.glPushAttrib(GL.GL_ALL_ATTRIB_BITS)
        GL.glColor4f(*grey)
        GL.glPushAttrib(GL.GL_ENABLE_BIT | GL.GL_LIGHTING_BIT)
        GL.glPopAttrib()
        GL.glEnable(GL.GL_LIGHTING)
        GL.glPopAttrib()
        second = centre()
    finally:
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, int(bound))
        GL.glDeleteFramebuffers(1, [fbo])
        GL.glDeleteRenderbuffers(1, [rb])
        GL.glPopAttrib()
        release()
    # lit grey, not white: the appearance's color times the light
    assert 60 < first.min() and first.max() < 240 and first.max() - first.min() <= 2, first
    assert np.abs(second - first).max() <= 1, (first, second)
