"""What :mod:`klampt.vis.visualization` shares with the backends it starts
and with the launcher: the windows, the current one and the active backend
(:data:`manager`), and what the environment offers (a notebook, Colab, an
importable package). Backends read this module; only the visualization
chooses and makes them."""
import atexit
import importlib.util
import sys

from ._window import Window
from . import _sensor_render


class Manager:
    """The windows and the active backend.

    Attributes:
        backend (Backend): the active backend, or None.
        windows (list of Window): the windows, indexed by their ids.
        current (int): the id of the current window.
    """

    def __init__(self):
        self.backend = None
        self.windows = [Window()]
        self.current = 0
        self.atexit_registered = False

    @property
    def window(self):
        """The current Window."""
        return self.windows[self.current]

    def start(self, backend):
        """Makes ``backend`` the active backend, killing the previous one."""
        if self.backend is not None:
            self.backend.kill(self.windows)
        self.backend = backend
        # Camera sensors render lit with OpenGL, as the reference's do in a GL context; every backend can make
        # an offscreen one for its screenshots (where none can be made, they ray cast).
        _sensor_render.install()
        if not self.atexit_registered:
            atexit.register(self.stop)
            self.atexit_registered = True

    def stop(self):
        """Closes every window and stops the active backend; the windows
        stay, hidden, for the next backend."""
        backend = self.backend
        if backend is not None:
            backend.kill(self.windows)
            self.backend = None
            _sensor_render.uninstall()
        for w in self.windows:
            w.shown = False
            w.closed = False


#: The process's windows and active backend.
manager = Manager()


def in_notebook():
    """Whether the code runs in a Jupyter (or Colab) kernel."""
    shell = sys.modules.get('IPython')
    if shell is None:
        return False
    try:
        ip = shell.get_ipython()
    except Exception:
        return False
    return ip is not None and type(ip).__name__ in ('ZMQInteractiveShell', 'Shell')


def in_colab():
    """Whether the code runs in Google Colab."""
    return 'google.colab' in sys.modules


def importable(name):
    """Whether module ``name`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False
