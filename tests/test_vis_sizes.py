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
