"""Which Qt the ``PyQt`` backend uses and whether it can start here: the
binding (PyQt6, PySide6 or PyQt5, the one already imported first) and, on
Linux, the checks made before the QApplication exists (a display, the
platform plugin, the libraries of the ``xcb`` plugin), which raise a
RuntimeError naming what is missing where Qt would abort the process."""
import ctypes
import os
import sys
import threading
from .. import _launcher

BINDINGS = ('PyQt6', 'PySide6', 'PyQt5')

# What the xcb platform plugin (and its GLX integration) loads, and the
# Debian package of each library.
XCB_LIBRARIES = {
    'libxcb.so.1': 'libxcb1', 'libX11-xcb.so.1': 'libx11-xcb1', 'libxcb-cursor.so.0': 'libxcb-cursor0',
    'libxcb-glx.so.0': 'libxcb-glx0', 'libxcb-icccm.so.4': 'libxcb-icccm4', 'libxcb-image.so.0': 'libxcb-image0',
    'libxcb-keysyms.so.1': 'libxcb-keysyms1', 'libxcb-randr.so.0': 'libxcb-randr0',
    'libxcb-render.so.0': 'libxcb-render0', 'libxcb-render-util.so.0': 'libxcb-render-util0',
    'libxcb-shape.so.0': 'libxcb-shape0', 'libxcb-shm.so.0': 'libxcb-shm0', 'libxcb-sync.so.1': 'libxcb-sync1',
    'libxcb-util.so.1': 'libxcb-util1', 'libxcb-xfixes.so.0': 'libxcb-xfixes0', 'libxcb-xkb.so.1': 'libxcb-xkb1',
    'libxkbcommon.so.0': 'libxkbcommon0', 'libxkbcommon-x11.so.0': 'libxkbcommon-x11-0',
}
XCB_LIBRARIES_QT5 = {'libxcb-xinerama.so.0': 'libxcb-xinerama0'}

_in_use = None  # the binding of the process's Qt GUI, once it is made


def keep(qt):
    """Makes ``qt`` (a Binding) the one every later choice returns: the
    process's Qt GUI was made with it."""
    global _in_use
    _in_use = qt


class Binding:
    """The Qt binding in use: its modules, and the few names that differ
    between them."""

    def __init__(self, name):
        import importlib
        self.name = name
        self.QtCore = importlib.import_module(name + '.QtCore')
        self.QtGui = importlib.import_module(name + '.QtGui')
        self.QtWidgets = importlib.import_module(name + '.QtWidgets')
        if name == 'PyQt5':
            self.QOpenGLWidget = self.QtWidgets.QOpenGLWidget
            self.QAction = self.QtWidgets.QAction
        else:
            self.QOpenGLWidget = importlib.import_module(name + '.QtOpenGLWidgets').QOpenGLWidget
            self.QAction = self.QtGui.QAction
        self.Qt = self.QtCore.Qt

    def enum(self, owner, scope, name):
        """``owner.scope.name`` (Qt 6 scoped enums), else ``owner.name``."""
        try:
            return getattr(getattr(owner, scope), name)
        except AttributeError:
            return getattr(owner, name)

    def delete(self, obj):
        """Destroys the C++ object of a wrapper now (in this thread)."""
        if self.name == 'PySide6':
            import shiboken6
            shiboken6.delete(obj)
        else:
            import importlib
            importlib.import_module(self.name + '.sip').delete(obj)

    def plugin_dir(self):
        """The folder of the platform plugins."""
        info = self.QtCore.QLibraryInfo
        if hasattr(info, 'path'):
            path = info.path(self.enum(info, 'LibraryPath', 'PluginsPath'))
        else:
            path = info.location(info.PluginsPath)
        return os.environ.get('QT_QPA_PLATFORM_PLUGIN_PATH') or os.path.join(path, 'platforms')


def choose_binding(requested=None):
    """The Binding of the Qt already imported, else ``requested`` ('PyQt6',
    'PyQt5', 'PySide6'), else the first of BINDINGS that imports."""
    loaded = [b for b in BINDINGS if b + '.QtWidgets' in sys.modules]
    if _in_use is not None:
        return _in_use
    order = loaded + ([requested] if requested in BINDINGS else []) + list(BINDINGS)
    errors = []
    for name in dict.fromkeys(order):
        try:
            return Binding(name)
        except ImportError as e:
            errors.append("%s: %s" % (name, e))
    raise ImportError("the Qt backend needs PyQt6, PySide6 or PyQt5 (pip install klampt[qt]): " + "; ".join(errors))


def usable_binding(requested=None):
    """:func:`choose_binding` after :func:`require_display`, checked with
    :func:`check_platform`. Under ``python -m klampt.vis`` this runs on the
    main thread: the first thread that imports Qt is the one Qt takes for
    its main thread."""

    def find():
        require_display()
        qt = choose_binding(requested)
        check_platform(qt)
        return qt
    runner = _launcher._runner
    imported = any(b + '.QtCore' in sys.modules for b in BINDINGS)
    if runner is None or imported or threading.current_thread() is threading.main_thread():
        return find()
    box = []

    def job():
        try:
            box.append((True, find()))
        except BaseException as e:
            box.append((False, e))
    runner.submit(job, 'klampt.vis Qt import').join()
    if not box:
        raise RuntimeError("klampt.vis: the launcher stopped before Qt was imported")
    ok, value = box[0]
    if not ok:
        raise value
    return value


# ---------------------------------------------------------------- platform check

def _loads(soname):
    try:
        ctypes.CDLL(soname)
        return True
    except OSError:
        return False


def _x_display_opens(display):
    try:
        xcb = ctypes.CDLL('libxcb.so.1')
    except OSError:
        return False
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    conn = xcb.xcb_connect(display.encode(), None)
    try:
        return bool(conn) and xcb.xcb_connection_has_error(conn) == 0
    finally:
        if conn:
            xcb.xcb_disconnect(conn)


def require_display(environ=None):
    """RuntimeError on Linux when neither a display nor QT_QPA_PLATFORM is
    set (checked before Qt is imported)."""
    env = os.environ if environ is None else environ
    if sys.platform.startswith('linux') and not (env.get('DISPLAY') or env.get('WAYLAND_DISPLAY')
                                                 or env.get('QT_QPA_PLATFORM')):
        raise RuntimeError("klampt.vis: the Qt backend needs a display (DISPLAY or WAYLAND_DISPLAY is unset)")


def platform_plugin(qt, environ=None):
    """The platform plugin Qt will load on Linux ('xcb', 'wayland', ...);
    RuntimeError when none can start (no display, no such plugin)."""
    env = os.environ if environ is None else environ
    folder = qt.plugin_dir()
    try:
        available = sorted(f[4:-3] for f in os.listdir(folder) if f.startswith('libq') and f.endswith('.so'))
    except OSError:
        available = []
    requested = env.get('QT_QPA_PLATFORM')
    if requested:
        names = [n.split(':')[0].strip() for n in requested.split(';') if n.strip()]
        for name in names:
            if name in available:
                return name
        raise RuntimeError("klampt.vis: QT_QPA_PLATFORM=%r names no Qt platform plugin in %s (available: %s)"
                           % (requested, folder, ", ".join(available) or "none"))
    if env.get('WAYLAND_DISPLAY') and 'wayland' in available and \
            (env.get('XDG_SESSION_TYPE') == 'wayland' or not env.get('DISPLAY')):
        return 'wayland'
    if env.get('DISPLAY'):
        return 'xcb'
    raise RuntimeError("klampt.vis: the Qt backend needs a display (DISPLAY or WAYLAND_DISPLAY is unset)")


def check_platform(qt, environ=None):
    """Raises RuntimeError, naming what is missing, when the QApplication
    could not start: Qt would abort the process instead (Linux only; other
    systems always have their plugin)."""
    if not sys.platform.startswith('linux'):
        return
    env = os.environ if environ is None else environ
    name = platform_plugin(qt, env)
    if name != 'xcb':
        return
    libraries = dict(XCB_LIBRARIES)
    if qt.name == 'PyQt5':
        libraries.update(XCB_LIBRARIES_QT5)
    missing = [pkg for soname, pkg in libraries.items() if not _loads(soname)]
    if missing:
        raise RuntimeError("klampt.vis: Qt's xcb platform plugin cannot load, libraries are missing. On Debian or "
                           "Ubuntu: apt-get install %s" % " ".join(sorted(set(missing))))
    plugin = os.path.join(qt.plugin_dir(), 'libqxcb.so')
    if os.path.exists(plugin):
        try:
            ctypes.CDLL(plugin)
        except OSError as e:
            raise RuntimeError("klampt.vis: Qt's xcb platform plugin cannot load: %s" % e) from None
    if not _x_display_opens(env.get('DISPLAY', '')):
        raise RuntimeError("klampt.vis: Qt cannot connect to the X display %r" % env.get('DISPLAY'))
