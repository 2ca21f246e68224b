"""The backends of :mod:`klampt.vis` (a window with GLFW or Qt, offscreen
rendering, HTML, Jupyter, viser, Rerun): their names (:data:`ALIASES`),
the default order (:func:`default_order`) and :func:`make`;
:func:`klampt.vis.visualization.init` chooses one. Importing this package
imports none of them."""
import os

from .. import _state
from .._context import has_display

#: The names a backend is asked for by (lower case) -> the backend's name.
ALIASES = {'pyqt': 'PyQt', 'pyqt5': 'PyQt', 'pyqt6': 'PyQt', 'pyside6': 'PyQt', 'qt': 'PyQt',
            'glut': 'GLFW', 'glfw': 'GLFW', 'ipython': 'IPython', 'jupyter': 'IPython', 'html': 'HTML',
            'offscreen': 'offscreen', 'egl': 'offscreen', 'osmesa': 'offscreen', 'null': 'null',
            'none': 'null', 'viser': 'viser', 'rerun': 'Rerun'}


def default_order():
    """The backends tried when none is asked for: ``KLAMPT_VIS_BACKEND``
    (names separated by commas), else Jupyter in notebooks (and HTML in
    Colab), a GLFW window with a display, offscreen, null."""
    env = os.environ.get('KLAMPT_VIS_BACKEND')
    if env:
        return [b.strip() for b in env.split(',') if b.strip()]
    order = []
    if _state.in_colab():
        order += ['IPython', 'HTML']
    elif _state.in_notebook():
        order += ['IPython']
    if has_display() and _state.importable('glfw') and _state.importable('OpenGL'):
        order.append('GLFW')
    order += ['offscreen', 'null']
    return order


def make(name, requested=None):
    """A new backend ``name`` (a value of :data:`ALIASES`; ``requested``
    is the name as asked, which picks the Qt binding); each is imported
    here, as it needs optional packages (OpenGL, GLFW, Qt, viser, Rerun).
    ImportError or RuntimeError when it cannot run here."""
    # each backend is imported when made: they need optional packages (PyOpenGL, glfw, Qt, viser, rerun)
    if name == 'offscreen':
        from .offscreen import OffscreenBackend
        return OffscreenBackend()
    if name == 'null':
        from .null import NullBackend
        return NullBackend()
    if name == 'GLFW':
        from .glfw_window import GLFWBackend
        return GLFWBackend()
    if name == 'HTML':
        from .html import HTMLBackend
        return HTMLBackend()
    if name == 'IPython':
        from .jupyter import JupyterBackend
        return JupyterBackend()
    if name == 'PyQt':
        from .qt_window import QtBackend
        return QtBackend({'pyqt5': 'PyQt5', 'pyqt6': 'PyQt6', 'pyside6': 'PySide6'}.get(str(requested).lower()))
    if name == 'viser':
        from .viser_backend import ViserBackend
        return ViserBackend()
    if name == 'Rerun':
        from .vis_rerun import RerunWindowManager
        return RerunWindowManager()
    raise RuntimeError("klampt.vis backend %r is not available here" % name)
