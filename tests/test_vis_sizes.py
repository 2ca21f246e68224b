"""Window and viewport sizes are checked at the call: a size OpenGL cannot
allocate, zero, negative, NaN or not a number is a ValueError naming the
limit, and the window keeps rendering at its previous size."""
import math

import pytest

from conftest import arm_table_world
from vis_helpers import PAINT, assert_recognisable


def test_max_size_is_the_contexts_limit(vis):
    from OpenGL import GL

    from klampt.vis._context import offscreen_context, release
    from klampt.vis._gl_limits import max_size
    offscreen_context()
    try:
        expected = min(int(GL.glGetIntegerv(GL.GL_MAX_RENDERBUFFER_SIZE)),
                       min(int(v) for v in GL.glGetIntegerv(GL.GL_MAX_VIEWPORT_DIMS)))
    finally:
        release()
    assert max_size() == expected >= 1024


@pytest.mark.parametrize("size", [(100000, 100000), (320, 10 ** 9), (0, 240), (320, -5), (math.nan, 240),
                                  (math.inf, 240), ("wide", 240), (None, 240)])
def test_bad_window_sizes_raise_value_error_and_keep_the_window(vis, size):
    world = arm_table_world()
    vis.add("world", world)
    vis.setColor(("world", world.robot(0).getName()), *PAINT)
    with pytest.raises(ValueError, match="window (width|height)"):
        vis.resizeWindow(*size)
    img = vis.screenshot()
    assert img.shape == (240, 320, 3)
    vis.autoFitCamera()
    assert_recognisable(vis.screenshot())


def test_the_largest_size_is_accepted_and_one_more_is_not(vis):
    from klampt.vis._gl_limits import max_size
    with pytest.raises(ValueError, match="beyond the %d pixels" % max_size()):
        vis.resizeWindow(max_size() + 1, 8)
    vis.resizeWindow(max_size(), 8)  # accepted (not rendered: that would be a large frame)
    vis.resizeWindow(64.0, 48)
    assert vis.screenshot().shape == (48, 64, 3)


def test_viewports_beyond_the_limit_raise(vis):
    vp = vis.getViewport()
    vp.w = 100000
    with pytest.raises(ValueError, match="viewport width"):
        vis.setViewport(vp)
    assert vis.screenshot().shape == (240, 320, 3)


@pytest.mark.parametrize("call", [
    lambda v: v.setAttribute("pt", "size", -1),         # glPointSize raised GL_INVALID_VALUE at the next frame
    lambda v: v.setAttribute("pt", "size", math.nan),
    lambda v: v.add("pt2", [0, 0, 1], size=0),
    lambda v: v.add("path", [[0, 0, 1], [0.5, 0, 1]], width=-2),
    lambda v: v.addText("t", "hello", position=(10, 10), size=1e9),  # the font raised OSError at the next frame
    lambda v: v.setColor("pt", math.nan, 0, 0),
    lambda v: v.setBackgroundColor(0, math.inf, 0),
    lambda v: v.add("pt3", [0, 0, 1], color=(1, 0)),
])
def test_attributes_opengl_cannot_draw_raise_value_error(vis, call):
    vis.add("pt", [0.2, 0, 1], size=12, color=(0, 0, 1, 1))
    with pytest.raises(ValueError):
        call(vis)
    img = vis.screenshot()  # the scene still renders, the point in blue
    assert ((img[..., 2] > 150) & (img[..., 0] < 60)).sum() > 20


def test_valid_attributes_pass(vis):
    vis.add("pt", [0.2, 0, 1], size=12, color=(0, 0, 1))
    vis.setAttribute("pt", "size", 20.5)
    vis.setAttribute("pt", "color", None)
    vis.addText("t", "hello", position=(10, 10), size=18, color=(1, 0, 0))
    vis.setBackgroundColor(0.2, 0.2, 0.2, 1)
    assert vis.screenshot().shape == (240, 320, 3)
