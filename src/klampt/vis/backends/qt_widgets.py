"""The Qt widgets of the ``PyQt`` backend: the classes made once the binding
is known (the GL widget drawing a vis Window into an FBO and passing it the
mouse and keys, the close watcher), the top-level window of a vis Window
(:class:`NativeWindow`: menu of actions, split views, custom UI, OK button)
and the extra views of ``vis.splitView`` (:class:`SplitWindow`)."""
import time

from .._scene import global_lock
from .._window import Window
from .._render.frame import Framebuffer
from .._render.gl import clip_planes, gl

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

        @guarded
        def initializeGL(self):
            """Makes the FBO frames are drawn into."""
            self.fbo = Framebuffer()

        @guarded
        def resizeGL(self, w, h):
            """Keeps the vis window at the widget's size."""
            size = (self.width(), self.height())
            if size != (self.vis_window.width, self.vis_window.height) and min(size) > 0:
                self.vis_window.reshape(*size)

        def render(self, want_depth):
            """Draws a frame into the FBO (the context must be current);
            returns (rgb, depth) when want_depth is not None."""
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

        @guarded
        def paintGL(self):
            """Draws the frame and copies it to the widget."""
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

        @guarded
        def keyPressEvent(self, event):
            """Keys go to the plugins, then to key-bound actions."""
            self._modifiers(event)
            name = self._key_name(event)
            if name is None:
                return super().keyPressEvent(event)
            p = self.mapFromGlobal(qt.QtGui.QCursor.pos())
            self.vis_window.keyboard(name, p.x(), p.y())
            self.update()

        @guarded
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

        @guarded
        def mousePressEvent(self, event):
            """A press, as GLUT's mousefunc(button, 0, x, y)."""
            self._modifiers(event)
            button = buttons.get(_value(event.button()))
            if button is not None:
                self.vis_window.mouse_button(button, 0, *self._pos(event))
                self.update()

        @guarded
        def mouseReleaseEvent(self, event):
            """A release, as GLUT's mousefunc(button, 1, x, y)."""
            self._modifiers(event)
            button = buttons.get(_value(event.button()))
            if button is not None:
                self.vis_window.mouse_button(button, 1, *self._pos(event))
                self.update()

        @guarded
        def mouseMoveEvent(self, event):
            """Motion: drags editors or the camera, or hovers."""
            self._modifiers(event)
            if self.vis_window.motion(*self._pos(event)):
                self.update()

        @guarded
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
                guarded(self.window.close)()
            return False

    _CLASSES[qt.name] = (GLWidget, CloseWatcher, QtWidgets)
    return _CLASSES[qt.name]


def guarded(func):
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


class NativeWindow:
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
                ok.clicked.connect(guarded(lambda *args: window.close()))
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
            top.finished.connect(guarded(lambda *args: self.watcher.active and window.close()))
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

        @guarded
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
