"""Compatibility module: Klamp't's ``klampt.vis.glinit``, which OpenGL
backends are available: checks that import nothing heavy until asked."""
import importlib.util
from ._context import has_display
from . import visualization
from ._state import manager



def _has(name):
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def available(name):
    """True if backend ``name`` ('GLFW' / 'GLUT', 'PyQt', 'offscreen',
    'IPython', 'HTML') can be used here (without starting it)."""
    name = str(name).lower()
    if name in ('glfw', 'glut'):
        return has_display() and _has('glfw') and _has('OpenGL')
    if name in ('pyqt', 'pyqt5', 'pyqt6', 'pyside6', 'qt'):
        return has_display() and any(_has(m) for m in ('PyQt6', 'PySide6', 'PyQt5')) and _has('OpenGL')
    if name in ('offscreen', 'egl', 'osmesa'):
        return _has('OpenGL')
    if name in ('ipython', 'jupyter'):
        return _has('anywidget') and _has('ipywidgets')
    if name in ('html', 'null'):
        return True
    return False


def init(backends=None):
    """Chooses a backend as ``vis.init`` does; returns its name."""
    return visualization.init(backends)


def active():
    """The name of the active backend, or None."""
    backend = manager.backend
    return backend.name if backend is not None else None


__all__ = ['available', 'init', 'active']
