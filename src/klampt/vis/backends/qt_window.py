"""The ``PyQt`` backend (asked for as 'PyQt', 'PyQt6', 'PyQt5', 'PySide6' or
'Qt'; never chosen by default): windows made of a ``QOpenGLWidget`` in a
``QMainWindow`` whose "Actions" menu holds ``vis.addAction``'s actions with
their shortcuts; ``vis.customUI`` wraps the GL widget in the user's own
widgets; ``vis.splitView`` tiles more views of the scene (or of plugins) in
a splitter; ``dialog()`` adds an OK button; the editors of ``vis.edit`` and
of :mod:`klampt.vis.editors` are driven by the mouse as in GLFW windows;
:func:`file_dialog` asks for file names (``resource.load`` / ``save``).
The binding is the one the program already imported, else the one asked
for, else the first installed of PyQt6, PySide6 and PyQt5.

One ``QApplication`` per process, made in the thread that first needs it:
the main thread for the blocking calls (``loop``, ``dialog``, ``run``,
``spin``, ``resource.edit``, ``load``, ``save``) and under ``python -m klampt.vis``; on Linux,
``show()`` from a script keeps the reference's behaviour and runs it in a
vis thread (with a warning, as Qt wants its GUI in the main thread); that
thread then lives until the process exits, so ``kill()`` can be followed by
``show()``. Windows and macOS need a blocking call or the launcher.

Before the application is made, the platform plugin Qt would load is
checked (``QT_QPA_PLATFORM``, the display, the libraries of the ``xcb``
plugin): a RuntimeError then names what is missing (the Debian packages
for the ``libxcb-*`` libraries) where Qt would abort the process.

Frames are drawn into an FBO and blitted to the widget; screenshots read
that FBO in the GUI thread (5 s timeout from other threads), so they show
what the window shows, never a black front buffer."""
import ctypes
import os
import queue
import sys
import threading
import time
import warnings

from .._scene import global_lock
from .._state import manager
from .._window import Window
from .base import LOOP_PERIOD, Backend, run_queued_calls

SCREENSHOT_TIMEOUT = 5.0
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

_gui = None  # the process's _Gui, once a QApplication exists
_warned_thread = False
_warned_pumped = False


# ---------------------------------------------------------------- binding

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
    if _gui is not None:
        return _gui.qt
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
    from .. import _launcher

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


# ---------------------------------------------------------------- widgets

_CLASSES = {}


def _classes(qt):
    """The widget classes, made once the binding is known."""
    if qt.name in _CLASSES:
        return _CLASSES[qt.name]
    Qt = qt.Qt
    QtCore, QtWidgets = qt.QtCore, qt.QtWidgets
    special = {}
    for key, name in (('Key_Up', 'up'), ('Key_Down', 'down'), ('Key_Left', 'left'), ('Key_Right', 'right'),
                      ('Key_Home', 'home'), ('Key_End', 'end'), ('Key_Delete', 'delete'), ('Key_Return', 'enter'),
                      ('Key_Enter', 'enter'), ('Key_Escape', 'escape'), ('Key_Tab', '\t'),
                      ('Key_Backspace', '\b'), ('Key_PageUp', 'pageup'), ('Key_PageDown', 'pagedown'),
                      ('Key_Insert', 'insert')):
        special[int(_value(qt.enum(Qt, 'Key', key)))] = name
    for i in range(12):
        special[int(_value(qt.enum(Qt, 'Key', 'Key_F%d' % (i + 1))))] = 'f%d' % (i + 1)
    modifier_flags = [(qt.enum(Qt, 'KeyboardModifier', 'ControlModifier'), 'ctrl'),
                      (qt.enum(Qt, 'KeyboardModifier', 'ShiftModifier'), 'shift'),
                      (qt.enum(Qt, 'KeyboardModifier', 'AltModifier'), 'alt')]
    buttons = {_value(qt.enum(Qt, 'MouseButton', 'LeftButton')): 0,
               _value(qt.enum(Qt, 'MouseButton', 'MiddleButton')): 1,
               _value(qt.enum(Qt, 'MouseButton', 'RightButton')): 2}

    class GLWidget(qt.QOpenGLWidget):
        """The GL view of a vis Window: draws its frames, feeds it the
        mouse and keyboard in GLUT conventions.

        Attributes:
            vis_window (Window): the vis window shown.
        """

        def __init__(self, window, parent=None):
            super().__init__(parent)
            self.vis_window = window
            self.fbo = None
            self.setFocusPolicy(qt.enum(Qt, 'FocusPolicy', 'StrongFocus'))
            self.setMouseTracking(True)
            self.setMinimumSize(16, 16)

        def sizeHint(self):
            """The vis window's size."""
            return QtCore.QSize(self.vis_window.width, self.vis_window.height)

        @_guarded
        def initializeGL(self):
            """Makes the FBO frames are drawn into."""
            from .._render.frame import Framebuffer
            self.fbo = Framebuffer()

        @_guarded
        def resizeGL(self, w, h):
            """Keeps the vis window at the widget's size."""
            size = (self.width(), self.height())
            if size != (self.vis_window.width, self.vis_window.height) and min(size) > 0:
                self.vis_window.reshape(*size)

        def render(self, want_depth):
            """Draws a frame into the FBO (the context must be current);
            returns (rgb, depth) when want_depth is not None."""
            from .._render.gl import clip_planes
            from .._render.frame import Framebuffer
            if self.fbo is None:
                self.fbo = Framebuffer()
            w, h = self.vis_window.width, self.vis_window.height
            scale = self.devicePixelRatioF()
            self.vis_window.view.screenDeviceScale = scale
            self.fbo.bind(int(round(w * scale)), int(round(h * scale)))
            self.vis_window.draw(h)
            if want_depth is None:
                return None
            near, far = clip_planes(self.vis_window.view)
            return self.fbo.read(bool(want_depth), near, far)

        @_guarded
        def paintGL(self):
            """Draws the frame and copies it to the widget."""
            from .._render.gl import gl
            GL = gl()
            self.render(None)
            fw, fh = self.fbo.size
            GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, self.fbo.fbo)
            GL.glBindFramebuffer(GL.GL_DRAW_FRAMEBUFFER, self.defaultFramebufferObject())
            GL.glBlitFramebuffer(0, 0, fw, fh, 0, 0, fw, fh, GL.GL_COLOR_BUFFER_BIT, GL.GL_NEAREST)
            GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, self.defaultFramebufferObject())

        def grab(self, want_depth=False):
            """(rgb, depth) of a frame drawn now (GUI thread); None when the
            widget has no GL context yet after 2 s of events."""
            end = time.time() + 2.0
            while not self.isValid() and time.time() < end:
                QtWidgets.QApplication.processEvents()
                time.sleep(0.01)
            if not self.isValid():
                return None
            self.makeCurrent()
            try:
                return self.render(bool(want_depth))
            finally:
                self.doneCurrent()

        def release(self):
            """Deletes the FBO."""
            if self.fbo is not None and self.context() is not None:
                self.makeCurrent()
                self.fbo.release()
                self.doneCurrent()
            self.fbo = None

        # -- input
        def _modifiers(self, event):
            flags = event.modifiers()
            self.vis_window.mouse['modifiers'] = {name for flag, name in modifier_flags if flags & flag}

        def _pos(self, event):
            p = event.position() if hasattr(event, 'position') else event.pos()
            return int(p.x()), int(p.y())

        def _key_name(self, event):
            key = int(_value(event.key()))
            if key in special:
                return special[key]
            text = event.text()
            if text and text.isprintable():
                return text
            if 32 <= key < 127:  # Ctrl / Alt combinations carry no printable text
                return chr(key).lower()
            return None

        @_guarded
        def keyPressEvent(self, event):
            """Keys go to the plugins, then to key-bound actions."""
            self._modifiers(event)
            name = self._key_name(event)
            if name is None:
                return super().keyPressEvent(event)
            p = self.mapFromGlobal(qt.QtGui.QCursor.pos())
            self.vis_window.keyboard(name, p.x(), p.y())
            self.update()

        @_guarded
        def keyReleaseEvent(self, event):
            """Key releases go to the plugins' keyboardupfunc."""
            self._modifiers(event)
            name = self._key_name(event)
            if name is None or event.isAutoRepeat():
                return
            p = self.mapFromGlobal(qt.QtGui.QCursor.pos())
            with global_lock:
                for plugin in self.vis_window.plugins[::-1]:
                    if plugin.keyboardupfunc(name, p.x(), p.y()):
                        break

        @_guarded
        def mousePressEvent(self, event):
            """A press, as GLUT's mousefunc(button, 0, x, y)."""
            self._modifiers(event)
            button = buttons.get(_value(event.button()))
            if button is not None:
                self.vis_window.mouse_button(button, 0, *self._pos(event))
                self.update()

        @_guarded
        def mouseReleaseEvent(self, event):
            """A release, as GLUT's mousefunc(button, 1, x, y)."""
            self._modifiers(event)
            button = buttons.get(_value(event.button()))
            if button is not None:
                self.vis_window.mouse_button(button, 1, *self._pos(event))
                self.update()

        @_guarded
        def mouseMoveEvent(self, event):
            """Motion: drags editors or the camera, or hovers."""
            self._modifiers(event)
            if self.vis_window.motion(*self._pos(event)):
                self.update()

        @_guarded
        def wheelEvent(self, event):
            """The wheel zooms (in steps of 120 eighths of a degree)."""
            d = event.angleDelta()
            x, y = self._pos(event)
            self.vis_window.wheel(d.x() / 120.0, d.y() / 120.0, x, y)
            self.update()

    class CloseWatcher(QtCore.QObject):
        """Tells the vis window when the user closes its Qt window."""

        def __init__(self, window, parent):
            super().__init__(parent)
            self.window = window
            self.active = True

        def eventFilter(self, obj, event):
            """Marks the vis window closed on a Close event."""
            if self.active and event.type() == qt.enum(QtCore.QEvent, 'Type', 'Close'):
                _guarded(self.window.close)()
            return False

    _CLASSES[qt.name] = (GLWidget, CloseWatcher, QtWidgets)
    return _CLASSES[qt.name]


def _guarded(func):
    """``func`` reporting its exceptions: an exception escaping a Qt
    callback makes PyQt abort the process."""
    import functools

    @functools.wraps(func)
    def call(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Exception:
            import traceback
            traceback.print_exc()
    return call


def _value(enum):
    """An enum member's integer (PyQt6 enums are not ints)."""
    return getattr(enum, 'value', enum)


def _exec(obj):
    return obj.exec() if hasattr(obj, 'exec') else obj.exec_()


class SplitWindow(Window):
    """One more view of a window's scene, with its own camera (or of a
    plugin), shown beside the main view by ``splitView``."""

    def __init__(self, parent, plugin=None):
        super().__init__(parent.title)
        self.scene = parent.scene
        self.scene_plugin.scene = parent.scene
        self._own_view = parent.scene.getViewport()
        self.width, self.height = parent.width, parent.height
        if plugin is not None:
            self.set_plugin(plugin)

    @property
    def view(self):
        """This view's own GLViewport (kept at its size)."""
        v = self._own_view
        if (v.w, v.h) != (self.width, self.height):
            v.w, v.h = self.width, self.height
        return v


class _Native:
    """The Qt window of a vis Window (lives in the GUI thread)."""

    def __init__(self, gui, window, with_ok=False):
        qt = gui.qt
        GLWidget, CloseWatcher, QtWidgets = _classes(qt)
        self.qt = qt
        self.window = window
        self.glwidget = GLWidget(window)
        self.views = [self.glwidget]
        for sub in getattr(window, 'qt_splits', []):
            self.views.append(GLWidget(sub))
        if len(self.views) > 1:
            view = QtWidgets.QSplitter()
            for v in self.views:
                view.addWidget(v)
        else:
            view = self.glwidget
        custom = getattr(window, 'qt_custom_ui', None)
        if custom is not None:
            top = custom(view)
            if top is None:
                raise RuntimeError("the vis.customUI function returned no widget")
        else:
            top = QtWidgets.QMainWindow()
            if with_ok:
                central = QtWidgets.QWidget()
                layout = QtWidgets.QVBoxLayout(central)
                layout.setContentsMargins(0, 0, 0, 0)
                layout.addWidget(view)
                ok = QtWidgets.QPushButton("OK")
                ok.clicked.connect(_guarded(lambda *args: window.close()))
                layout.addWidget(ok)
                top.setCentralWidget(central)
            else:
                top.setCentralWidget(view)
        self.top = top
        self.menu = None
        self.qactions = []
        self.watcher = CloseWatcher(window, top)
        top.installEventFilter(self.watcher)
        if isinstance(top, QtWidgets.QDialog):  # accept / reject hide a dialog without closing it
            top.finished.connect(_guarded(lambda *args: self.watcher.active and window.close()))
        self.title = None
        self.size = None
        self.sync()
        if custom is None:
            top.resize(top.sizeHint())  # adjustSize() would cap it at 2/3 of the screen
        top.show()
        top.raise_()
        top.activateWindow()
        self.glwidget.setFocus()

    def sync(self):
        """Applies title, size and action changes made from Python."""
        window = self.window
        if self.title != window.title:
            self.top.setWindowTitle(window.title)
            self.title = window.title
        size = (window.width, window.height)
        if self.size is not None and size != self.size and size != (self.glwidget.width(), self.glwidget.height()):
            top = self.top
            top.resize(top.width() + size[0] - self.glwidget.width(), top.height() + size[1] - self.glwidget.height())
        self.size = size
        while len(self.qactions) < len(window.actions):
            self._add_action(*window.actions[len(self.qactions)])

    def _add_action(self, hook, short_text, key, description):
        qt = self.qt
        action = qt.QAction(short_text, self.top)
        if key:
            action.setShortcut(qt.QtGui.QKeySequence(_shortcut(key)))
        if description:
            action.setStatusTip(description)
            action.setToolTip(description)

        @_guarded
        def fire(*args):
            with global_lock:
                hook()
                self.window.refresh()
        action.triggered.connect(fire)
        if isinstance(self.top, qt.QtWidgets.QMainWindow):
            if self.menu is None:
                self.menu = self.top.menuBar().addMenu("&Actions")
            self.menu.addAction(action)
        self.top.addAction(action)  # the shortcut works while the window is active, menu or not
        self.qactions.append(action)

    def redraw(self):
        """Schedules a repaint of every view."""
        for v in self.views:
            v.update()

    def destroy(self):
        """Closes the Qt window (not as a user close)."""
        self.watcher.active = False
        for v in self.views:
            v.release()
        self.top.close()
        self.top.deleteLater()


def _shortcut(key):
    """Qt's spelling of an action key: 'k' -> 'K', 'ctrl+k' -> 'Ctrl+K'."""
    parts = str(key).split('+')
    names = {'ctrl': 'Ctrl', 'control': 'Ctrl', 'shift': 'Shift', 'alt': 'Alt', 'meta': 'Meta'}
    mods = [names.get(p.strip().lower(), p.strip()) for p in parts[:-1]]
    last = parts[-1]
    if len(last) == 1:
        last = last.upper()
    elif last.lower().startswith('f') and last[1:].isdigit():
        last = last.upper()
    else:
        last = last.capitalize()
    return "+".join(mods + [last])


# ---------------------------------------------------------------- the GUI thread

class _Gui:
    """The QApplication, the thread that owns it, and the Qt windows.

    Attributes:
        qt (Binding): the binding.
        app: the QApplication.
        owner (int): the owning thread's ident.
        thread: the vis thread running the event loop, or None.
        serving (int): how many event loops run now in the owning thread
            (the vis thread's, a blocking call's, the launcher's).
    """

    def __init__(self, qt):
        self.qt = qt
        self.app = None
        self.owner = None
        self.thread = None
        self.serving = 0
        self.calls = queue.Queue()
        self.natives = {}
        self.dialogs = set()  # windows shown by run_dialog (not vis windows)
        self.requests = {}
        self.requests_lock = threading.Lock()
        self.last_frame = 0.0
        self.stop = threading.Event()
        self.launched = None  # the launcher's GuiLoop while it serves Qt

    # -- the application
    def make_app(self):
        """Creates the QApplication in this thread."""
        qt = self.qt
        QtGui, QtWidgets = qt.QtGui, qt.QtWidgets
        fmt = QtGui.QSurfaceFormat()
        fmt.setProfile(qt.enum(QtGui.QSurfaceFormat, 'OpenGLContextProfile', 'CompatibilityProfile'))
        fmt.setDepthBufferSize(24)
        QtGui.QSurfaceFormat.setDefaultFormat(fmt)
        app = QtWidgets.QApplication.instance()
        if app is None:
            app = QtWidgets.QApplication([sys.argv[0] if sys.argv and sys.argv[0] else 'klampt'])
        app.setQuitOnLastWindowClosed(False)
        self.app = app
        self.owner = threading.get_ident()

    def in_owner(self):
        """Whether this thread owns the QApplication."""
        return self.owner == threading.get_ident()

    def running_elsewhere(self):
        """Whether an event loop runs in another thread."""
        return self.serving > 0 and not self.in_owner()

    def start_thread(self):
        """Starts the vis thread that makes the application and serves it
        until the process exits."""
        started = threading.Event()
        errors = []

        def main():
            try:
                self.make_app()
                self.serving += 1  # callers may queue calls as soon as it started
            except Exception as e:
                errors.append(e)
                return
            finally:
                started.set()
            try:
                self.serve(lambda: self.stop.is_set())
            finally:
                self.serving -= 1
            self.close_all()
            # the application dies in its own thread, not in the interpreter's teardown
            app, self.app = self.app, None
            self.qt.delete(app)
        self.thread = threading.Thread(target=main, name='klampt.vis Qt', daemon=True)
        self.thread.start()
        import atexit
        atexit.register(self.shutdown)
        started.wait(20.0)
        if errors:
            raise RuntimeError("klampt.vis: Qt failed to start: %s" % errors[0])

    def launch(self):
        """Under ``python -m klampt.vis``: serves Qt on the launcher's main
        thread (making the application there) until :meth:`unlaunch`."""
        from .. import _launcher
        if _launcher._runner is None or self.thread is not None:
            return
        if self.launched is not None and self.launched.is_alive():
            return
        self.stop.clear()

        def main():
            if self.app is None:
                self.make_app()
            self.serve(lambda: self.stop.is_set())
            self.close_all()
        self.launched = _launcher.start_gui_loop(main, 'klampt.vis Qt')
        end = time.time() + 20.0
        while self.app is None and self.launched.is_alive() and time.time() < end:
            time.sleep(0.01)

    def unlaunch(self):
        """Ends the launcher's Qt loop (kill); False when there is none."""
        if self.launched is None:
            return False
        self.stop.set()
        if not self.in_owner():
            self.launched.join(10.0)
        self.launched = None
        return True

    def shutdown(self):
        """Ends the vis thread (at exit)."""
        self.stop.set()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(5.0)

    # -- the event loop
    def serve(self, until, tick=None):
        """Runs Qt's events, the queued calls and the windows' frames in
        this (the owning) thread until ``until()``."""
        self.serving += 1
        try:
            while not until():
                try:
                    framed = self.step()
                except Exception as e:
                    warnings.warn("klampt.vis: the Qt loop caught %r" % (e,))
                    framed = False
                if framed and tick is not None:
                    with global_lock:
                        tick()
                time.sleep(0.005)
        finally:
            self.serving -= 1

    def step(self):
        """One turn: events, queued calls, and at 30 Hz the windows (then
        returns True)."""
        self.app.processEvents()
        self.run_calls()
        now = time.time()
        if now - self.last_frame < LOOP_PERIOD:
            return False
        self.last_frame = now
        self.service()
        return True

    def run_calls(self):
        """Runs the functions other threads queued."""
        run_queued_calls(self.calls, "Qt")

    def call(self, func, timeout=10.0):
        """Runs ``func()`` in the owning thread and returns its result; when
        no event loop runs there, queues it for the next one (returns None)."""
        if self.in_owner():
            with global_lock:
                return func()
        if not self.running_elsewhere():
            self.calls.put(func)
            return None
        done = threading.Event()
        box = []

        def run():
            try:
                box.append((True, func()))
            except Exception as e:
                box.append((False, e))
            finally:
                done.set()
        self.calls.put(run)
        if not done.wait(timeout):
            raise RuntimeError("klampt.vis: the Qt thread did not answer within %g s" % timeout)
        ok, value = box[0]
        if not ok:
            raise value
        return value

    # -- windows
    def service(self):
        """Creates, updates, redraws and closes the Qt windows to follow the
        vis windows."""
        windows = list(manager.windows) + list(self.dialogs)
        for w in windows:
            self.service_window(w)
        for w in list(self.natives):
            if w not in windows:
                self.natives.pop(w).destroy()

    def service_window(self, window):
        """Follows one vis window."""
        native = self.natives.get(window)
        if window.shown and not window.closed and native is None:
            try:
                native = _Native(self, window, with_ok=getattr(window, 'qt_ok_button', False))
            except Exception as e:
                warnings.warn("klampt.vis: cannot open a Qt window: %r" % (e,))
                window.shown = False
                self.answer(window, None)
                return
            self.natives[window] = native
        if native is None:
            self.answer(window, None)
            return
        if not window.shown or window.closed:
            self.natives.pop(window).destroy()
            self.answer(window, None)
            return
        native.sync()
        window.scene.updateTime()
        for v in native.views:
            v.vis_window.idle()
        if self.has_requests(window):
            want = any(r[0] for r in self.requests.get(window, []))
            self.answer(window, native.glwidget.grab(want))
        native.redraw()

    def rebuild(self, window):
        """Remakes a window's Qt window (after customUI or splitView)."""
        native = self.natives.pop(window, None)
        if native is not None:
            native.destroy()

    def close_all(self):
        """Closes every Qt window."""
        for native in self.natives.values():
            try:
                native.destroy()
            except Exception:
                pass
        self.natives.clear()
        if self.app is not None:
            self.app.processEvents()

    # -- screenshots requested from other threads
    def request(self, window, want_depth, deliver):
        """Queues a frame for ``deliver(result)`` (None: not shown)."""
        with self.requests_lock:
            self.requests.setdefault(window, []).append((want_depth, deliver))

    def has_requests(self, window):
        """Whether a frame was asked for."""
        with self.requests_lock:
            return bool(self.requests.get(window))

    def answer(self, window, result):
        """Delivers a frame to every request of the window."""
        with self.requests_lock:
            pending = self.requests.pop(window, [])
        for want_depth, deliver in pending:
            deliver(result)


def _ensure_gui(qt, blocking):
    """The process's _Gui, its QApplication made where this call's kind
    wants it (see the module docstring)."""
    global _gui, _warned_thread
    if _gui is None:
        _gui = _Gui(qt)
    gui = _gui
    if gui.app is not None:
        return gui
    from .. import _launcher
    main = threading.current_thread() is threading.main_thread()
    if _launcher._runner is not None and not main:
        gui.launch()
        return gui
    if blocking and main:
        gui.make_app()
        return gui
    if not sys.platform.startswith('linux'):
        raise RuntimeError("klampt.vis: Qt windows need the main thread on %s: %s"
                           % (sys.platform, _launcher.LAUNCHER_HINT))
    if not _warned_thread:
        warnings.warn("klampt.vis: vis.show() runs Qt in a vis thread, outside the main thread; vis.loop(), "
                      "vis.dialog() or python -m klampt.vis keep it in the main thread")
        _warned_thread = True
    gui.start_thread()
    return gui


# ---------------------------------------------------------------- backend

class QtBackend(Backend):
    """Qt windows (see the module docstring)."""

    name = 'PyQt'
    edit_gui = 'PyQt'

    def __init__(self, binding=None):
        qt = usable_binding(binding)
        from .._render.gl import gl
        gl()
        self.qt = qt

    def _start(self, blocking):
        gui = _ensure_gui(self.qt, blocking)
        gui.launch()
        return gui

    def _live(self, gui):
        """Whether some event loop serves the windows, or this thread can
        (it owns the application)."""
        return gui is not None and gui.app is not None and (gui.serving > 0 or gui.in_owner())

    # -- windows
    def show(self, window, display=True):
        """Shows (or hides) the window; returns at once."""
        if not display:
            window.shown = False
            return
        window.shown = True
        window.closed = False
        window.shown_since = time.time()
        gui = self._start(blocking=False)
        if gui.in_owner() and gui.serving == 0:
            global _warned_pumped
            if not _warned_pumped:
                warnings.warn("klampt.vis: Qt runs in this thread (made by an earlier blocking call): the window "
                              "updates while vis.shown() is called, or in vis.loop()")
                _warned_pumped = True
            gui.step()

    def shown(self, window):
        """True while the window is shown and not closed (in the owning
        thread, outside an event loop, it also runs one turn of events)."""
        gui = _gui
        if not (window.shown and not window.closed) or not self._live(gui):
            return False
        if gui.in_owner() and gui.serving == 0:
            gui.step()
        return window.shown and not window.closed

    def _wait(self, window, until, tick=None, ok_button=False):
        window.shown = True
        window.closed = False
        window.shown_since = time.time()
        window.qt_ok_button = ok_button
        try:
            gui = self._start(blocking=True)
            alive = lambda: window.shown and not window.closed  # noqa: E731
            if gui.in_owner():
                gui.serve(lambda: not alive() or until(), tick)
            else:
                while alive() and not until() and self._live(gui):
                    if tick is not None:
                        with global_lock:
                            tick()
                    time.sleep(LOOP_PERIOD)
        finally:
            window.qt_ok_button = False

    def spin(self, window, duration):
        """Shows the window for ``duration`` seconds, then hides it."""
        end = time.time() + duration
        self._wait(window, lambda: time.time() >= end)
        window.shown = False
        self._settle(window)

    def dialog(self, window):
        """A blocking window with an OK button."""
        self._wait(window, lambda: False, ok_button=True)
        window.shown = False
        self._settle(window)

    def run(self, window):
        """Shows the window until it is closed."""
        self._wait(window, lambda: False)
        window.shown = False
        self._settle(window)

    def loop(self, window, setup, callback, cleanup):
        """setup(), callback() at 30 Hz while shown, cleanup()."""
        try:
            if setup is not None:
                setup()
            self._wait(window, lambda: False, tick=callback)
        finally:
            self._settle(window)
            if cleanup is not None:
                cleanup()

    def _settle(self, window):
        """Closes the window's Qt window now (not at the next frame)."""
        gui = _gui
        if gui is not None and gui.app is not None and gui.in_owner():
            gui.service()
            gui.app.processEvents()

    def kill(self, windows):
        """Closes every window; the application stays for the next show()."""
        for w in windows:
            w.shown = False
        gui = _gui
        if gui is None or gui.app is None:
            return
        if gui.unlaunch():
            return
        try:
            gui.call(gui.close_all)
        except RuntimeError as e:
            warnings.warn(str(e))

    def custom_ui(self, window, func):
        """Wraps the window's GL widget with ``func(glwidget)``'s widget."""
        if not callable(func):
            raise ValueError("customUI needs a function of the GL widget")
        window.qt_custom_ui = func
        gui = _gui
        if gui is not None and gui.app is not None:
            gui.call(lambda: gui.rebuild(window))

    def split_view(self, window, plugin):
        """One more view beside the window's, of the scene (own camera)
        or of ``plugin``."""
        with global_lock:
            window.__dict__.setdefault('qt_splits', []).append(SplitWindow(window, plugin))
        gui = _gui
        if gui is not None and gui.app is not None:
            gui.call(lambda: gui.rebuild(window))

    def thread_call(self, func):
        """Runs func in the Qt thread at its next turn."""
        gui = _gui
        if gui is not None and gui.running_elsewhere():
            gui.calls.put(func)
        else:
            with global_lock:
                func()

    # -- screenshots
    def screenshot(self, window, want_depth=False):
        """The window's next frame, read from its FBO."""
        gui = _gui
        if not self.shown(window):
            return super().screenshot(window, want_depth)
        if gui.in_owner():
            gui.service_window(window)
            native = gui.natives.get(window)
            result = None if native is None else native.glwidget.grab(want_depth)
            return super().screenshot(window, want_depth) if result is None else result
        done = threading.Event()
        box = []

        def deliver(result):
            box.append(result)
            done.set()
        gui.request(window, bool(want_depth), deliver)
        if not done.wait(SCREENSHOT_TIMEOUT):
            raise RuntimeError("klampt.vis.screenshot: no frame was drawn within %g s" % SCREENSHOT_TIMEOUT)
        if box[0] is None:
            return super().screenshot(window, want_depth)
        return box[0]

    def screenshot_callback(self, window, deliver, want_depth):
        """Delivers the next frame the window draws."""
        gui = _gui
        if not self.shown(window) or gui.in_owner():
            return super().screenshot_callback(window, deliver, want_depth)
        gui.request(window, bool(want_depth), lambda r: r is not None and deliver(*r))


def qt_window(window):
    """The Qt top-level widget showing a vis Window (None when not shown)."""
    gui = _gui
    native = gui.natives.get(window) if gui is not None else None
    return None if native is None else native.top


def run_dialog(window, binding=None):
    """Shows a vis Window (not one of ``vis``'s) as a modal-like dialog
    until it is closed; with ``window.qt_custom_ui`` the widgets around the
    GL view (OK / Cancel for the resource editors). Runs in the main thread,
    or waits for the Qt thread."""
    qt = usable_binding(binding)
    gui = _ensure_gui(qt, blocking=True)
    window.shown = True
    window.closed = False
    gui.dialogs.add(window)
    alive = lambda: window.shown and not window.closed  # noqa: E731
    try:
        if gui.in_owner():
            gui.serve(lambda: not alive())
        else:
            while alive() and gui.serving > 0:
                time.sleep(LOOP_PERIOD)
    finally:
        window.shown = False
        if gui.in_owner():
            gui.service()
            gui.app.processEvents()
        gui.dialogs.discard(window)


def file_dialog(save, title, directory='', filters=(), suffix=None, binding=None):
    """Asks the user for a file in a QFileDialog (the system's own where Qt
    has one) and returns its path, or None on Cancel.

    Args:
        save (bool): True to name a file to write (it may not exist yet),
            False to pick an existing file to read.
        title (str): the dialog's title.
        directory (str): the folder it shows first.
        filters (list of str): Qt name filters, as "Config (*.config *.json)".
        suffix (str, optional): added to a typed name without extension.
        binding (str, optional): the Qt binding when none is imported yet.

    Runs in the main thread, or waits for the Qt thread; other windows keep
    updating meanwhile."""
    qt = usable_binding(binding)
    gui = _ensure_gui(qt, blocking=True)
    chosen = []
    dialogs = []  # the wrapper must outlive open_dialog: collecting it deletes the dialog

    def open_dialog():
        QFileDialog = qt.QtWidgets.QFileDialog
        dialog = QFileDialog(None, title, directory or '', ";;".join(filters))
        dialog.setAcceptMode(qt.enum(QFileDialog, 'AcceptMode', 'AcceptSave' if save else 'AcceptOpen'))
        dialog.setFileMode(qt.enum(QFileDialog, 'FileMode', 'AnyFile' if save else 'ExistingFile'))
        if suffix:
            dialog.setDefaultSuffix(suffix.lstrip('.'))

        def finished(result):
            files = dialog.selectedFiles()
            chosen.append(files[0] if result and files else None)
            dialog.deleteLater()
        dialog.finished.connect(_guarded(finished))
        dialogs.append(dialog)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
    if gui.in_owner():
        open_dialog()
        gui.serve(lambda: bool(chosen))
    elif gui.running_elsewhere():
        gui.call(open_dialog)
        while not chosen and gui.serving > 0:
            time.sleep(LOOP_PERIOD)
    else:
        raise RuntimeError("klampt.vis: Qt belongs to another thread, which runs no event loop now")
    return chosen[0] if chosen else None
