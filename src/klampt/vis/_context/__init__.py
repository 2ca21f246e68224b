"""Offscreen OpenGL contexts: the first provider that works, made once per
process and cached (:func:`offscreen_context`).

Order on Linux: EGL (a device, then Mesa surfaceless), then OSMesa (only if
PyOpenGL can still be put on its ``osmesa`` platform). ``PYOPENGL_PLATFORM`` is set here only, only
when it is unset, OpenGL is not yet imported, and there is no display (or the
offscreen backend was asked for).
"""
import os
import sys
import threading

INSTALL_HINT = ("klampt.vis: cannot create an OpenGL context.\n"
                "Linux: apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri\n"
                "(or libosmesa6 with PYOPENGL_PLATFORM=osmesa)")

_lock = threading.RLock()
_context = None
_failure = None


def has_display() -> bool:
    """True on macOS and Windows desktops, and where an X11 or Wayland
    display is announced."""
    if sys.platform in ('darwin', 'win32'):
        return True
    return bool(os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY'))


def choose_platform(requested_offscreen=False):
    """Puts PyOpenGL on EGL when that is safe (see the module docstring)."""
    if sys.platform.startswith('linux') and 'PYOPENGL_PLATFORM' not in os.environ \
            and 'OpenGL' not in sys.modules and (requested_offscreen or not has_display()):
        os.environ['PYOPENGL_PLATFORM'] = 'egl'


def _providers():
    # lazy: a provider loads its libraries (libEGL, OSMesa with numpy) only when it is tried
    from .egl import EGLContext
    from .osmesa import OSMesaContext
    platform = os.environ.get('PYOPENGL_PLATFORM')
    if platform == 'osmesa':
        return [OSMesaContext]
    providers = [EGLContext]
    if platform is None and 'OpenGL' not in sys.modules:
        providers.append(_osmesa_late)
    return providers


def _osmesa_late():
    os.environ['PYOPENGL_PLATFORM'] = 'osmesa'
    from .osmesa import OSMesaContext  # after PYOPENGL_PLATFORM is set: it imports PyOpenGL
    return OSMesaContext()


def offscreen_context(requested=False):
    """The process's offscreen context, current in the calling thread.
    RuntimeError with the install hint when no provider works (remembered:
    later calls fail fast)."""
    global _context, _failure
    with _lock:
        if _context is not None:
            _context.make_current()
            return _context
        if _failure is not None:
            raise RuntimeError(_failure)
        choose_platform(requested)
        errors = []
        try:
            import OpenGL  # noqa: F401
        except ImportError:
            _failure = "klampt.vis needs PyOpenGL for rendering: pip install klampt[vis]"
            raise RuntimeError(_failure)
        for provider in _providers():
            try:
                _context = provider()
                _context.make_current()
                return _context
            except Exception as e:
                errors.append(str(e))
        _failure = INSTALL_HINT + "\n(" + "; ".join(errors) + ")"
        raise RuntimeError(_failure)


def offscreen_available() -> bool:
    """True if :func:`offscreen_context` succeeds (it is then made, and left
    not current)."""
    try:
        offscreen_context()
    except RuntimeError:
        return False
    release()
    return True


def release():
    """Makes the offscreen context not current in the calling thread (so
    another thread may use it)."""
    with _lock:
        if _context is not None:
            _context.release()
