"""The ``offscreen`` backend (also 'EGL', 'OSMesa'): the default with no
display. Nothing is shown; frames are rendered on demand into an FBO of the
process's offscreen context (:mod:`klampt.vis._context`)."""
import threading

from .._scene import global_lock
from .base import Backend

_framebuffer = None
_render_lock = threading.Lock()


def render_offscreen(window, want_depth=False):
    """(rgb, depth) of a window rendered now at its size in the offscreen
    context (made on first use)."""
    global _framebuffer
    from .._context import offscreen_context, release
    from .._render.frame import Framebuffer
    from .._render.gl import clip_planes
    with global_lock, _render_lock:
        offscreen_context(requested=True)
        try:
            if _framebuffer is None:
                _framebuffer = Framebuffer()
            _framebuffer.bind(window.width, window.height)
            window.draw(window.height)
            near, far = clip_planes(window.view)
            return _framebuffer.read(want_depth, near, far)
        finally:
            # no context stays current between frames: user code sees "no OpenGL context", and
            # another thread may render next
            release()


class OffscreenBackend(Backend):
    """Headless rendering through EGL or OSMesa."""

    name = 'offscreen'

    def __init__(self):
        from .._context import choose_platform
        from .._render.gl import gl
        choose_platform(requested_offscreen=True)
        gl()  # PyOpenGL present, or RuntimeError with the install hint
