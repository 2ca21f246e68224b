"""Checks, made at the call, of the arguments vis hands to OpenGL (window and
viewport sizes, point sizes, line widths, colors): one the rendering context
cannot take gets a ValueError naming the limit, instead of an OpenGL error at
the next frame."""
import math
import threading
from ._context import offscreen_context, release
from .backends.base import _render_lock

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


#: Attributes drawn as OpenGL point sizes or line widths (in pixels, > 0) or
#: lengths (in m, >= 0).
_PIXEL_ATTRIBUTES = ('size', 'pointSize', 'width')
_LENGTH_ATTRIBUTES = ('length',)


def _number(value, what):
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError("%s must be a number, not %r" % (what, value)) from None
    if not math.isfinite(x):
        raise ValueError("%s must be finite, not %r" % (what, value))
    return x


def color(rgba, what='color'):
    """ValueError unless ``rgba`` is 3 or 4 finite numbers."""
    try:
        values = list(rgba)
    except TypeError:
        raise ValueError("%s must be 3 or 4 numbers, not %r" % (what, rgba)) from None
    if len(values) not in (3, 4):
        raise ValueError("%s must be 3 or 4 numbers, not %r" % (what, rgba))
    for v in values:
        _number(v, what)


def attributes(attrs):
    """ValueError for an attribute OpenGL would refuse: a point size, line
    width or text size that is not a finite number of pixels from 0 (not
    included) to :func:`max_size`, a negative length, a color that is not 3
    or 4 finite numbers. None (to delete an attribute) and the other
    attributes pass."""
    for name, value in attrs.items():
        if value is None:
            continue
        if name in _PIXEL_ATTRIBUTES:
            x = _number(value, "attribute %r" % name)
            if not 0 < x <= max_size():
                raise ValueError("attribute %r must be above 0 and at most %d, not %r"
                                 % (name, max_size(), value))
        elif name in _LENGTH_ATTRIBUTES and _number(value, "attribute %r" % name) < 0:
            raise ValueError("attribute %r must be >= 0 (m), not %r" % (name, value))
        elif name in ('color', 'pointColor') and not isinstance(value, str):
            color(value, "attribute %r" % name)
