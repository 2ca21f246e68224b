"""Checks, made at the call, of the window and viewport sizes vis hands to
OpenGL: a size beyond what the rendering context can allocate gets a
ValueError naming the limit, instead of an OpenGL error at the next frame."""
import math
import threading

#: The bound when no context can be asked (the usual GL_MAX_RENDERBUFFER_SIZE).
FALLBACK_MAX_SIZE = 16384

_max_size = None
_lock = threading.Lock()


def max_size() -> int:
    """The largest width or height of a frame: the smaller of the offscreen
    context's GL_MAX_RENDERBUFFER_SIZE and GL_MAX_VIEWPORT_DIMS (asked once)."""
    global _max_size
    with _lock:
        if _max_size is None:
            _max_size = _query()
        return _max_size


def _query():
    from ._context import offscreen_context, release
    from .backends.base import _render_lock
    try:
        with _render_lock:
            offscreen_context()
            try:
                from OpenGL import GL
                renderbuffer = int(GL.glGetIntegerv(GL.GL_MAX_RENDERBUFFER_SIZE))
                viewport = min(int(v) for v in GL.glGetIntegerv(GL.GL_MAX_VIEWPORT_DIMS))
                return min(renderbuffer, viewport)
            finally:
                release()
    except (RuntimeError, ImportError):
        return FALLBACK_MAX_SIZE


def frame_size(w, h, what: str = 'window'):
    """(w, h) as ints (truncated as before); ValueError unless both are
    finite numbers from 1 to :func:`max_size`."""
    out = []
    for name, v in (('width', w), ('height', h)):
        try:
            x = float(v)
        except (TypeError, ValueError):
            raise ValueError("%s %s must be a number, not %r" % (what, name, v)) from None
        if not math.isfinite(x) or int(x) < 1:
            raise ValueError("%s %s must be a positive number of pixels, not %r" % (what, name, v))
        if int(x) > max_size():
            raise ValueError("%s %s %d is beyond the %d pixels the OpenGL context can allocate"
                             % (what, name, int(x), max_size()))
        out.append(int(x))
    return tuple(out)
