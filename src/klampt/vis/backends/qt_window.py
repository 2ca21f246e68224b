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
import time
import warnings

from .._scene import global_lock
from .base import LOOP_PERIOD, Backend
from .qt_gui import current, ensure_gui
from .qt_platform import usable_binding
from .qt_widgets import SplitWindow
from .._render.gl import gl

_warned_pumped = False


class QtBackend(Backend):
    """Qt windows (see the module docstring)."""

    name = 'PyQt'
    edit_gui = 'PyQt'

    def __init__(self, binding=None):
        qt = usable_binding(binding)
        gl()
        self.qt = qt

    def _start(self, blocking):
        gui = ensure_gui(self.qt, blocking)
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
        gui = current()
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
        gui = current()
        if gui is not None and gui.app is not None and gui.in_owner():
            gui.service()
            gui.app.processEvents()

    def kill(self, windows):
        """Closes every window; the application stays for the next show()."""
        for w in windows:
            w.shown = False
        gui = current()
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
        gui = current()
        if gui is not None and gui.app is not None:
            gui.call(lambda: gui.rebuild(window))

    def split_view(self, window, plugin):
        """One more view beside the window's, of the scene (own camera)
        or of ``plugin``."""
        with global_lock:
            window.__dict__.setdefault('qt_splits', []).append(SplitWindow(window, plugin))
        gui = current()
        if gui is not None and gui.app is not None:
            gui.call(lambda: gui.rebuild(window))

    def thread_call(self, func):
        """Runs func in the Qt thread at its next turn."""
        gui = current()
        if gui is not None and gui.running_elsewhere():
            gui.calls.put(func)
        else:
            with global_lock:
                func()

    # -- screenshots
    def screenshot(self, window, want_depth=False):
        """The window's next frame, read from its FBO."""
        gui = current()
        if not self.shown(window):
            return super().screenshot(window, want_depth)
        if gui.in_owner():
            gui.service_window(window)
            native = gui.natives.get(window)
            result = None if native is None else native.glwidget.grab(want_depth)
            return super().screenshot(window, want_depth) if result is None else result
        result = gui.frames.wait(window, want_depth)
        return super().screenshot(window, want_depth) if result is None else result

    def screenshot_callback(self, window, deliver, want_depth):
        """Delivers the next frame the window draws."""
        gui = current()
        if not self.shown(window) or gui.in_owner():
            return super().screenshot_callback(window, deliver, want_depth)
        gui.frames.callback(window, want_depth, deliver)
