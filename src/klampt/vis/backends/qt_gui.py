"""The Qt GUI of the process: one QApplication, the thread that owns it
(the main thread for blocking calls and under ``python -m klampt.vis``, else
a vis thread on Linux), its event loop, the calls other threads queue for
it, and the Qt windows following the vis windows (:class:`Gui`,
:func:`ensure_gui`, :func:`current`)."""
import queue
import sys
import threading
import time
import warnings

from .._scene import global_lock
from .._state import manager
from .base import LOOP_PERIOD, FrameRequests, run_queued_calls
from .qt_platform import keep
from .qt_widgets import NativeWindow
from .. import _launcher

_gui = None  # the process's Gui, once a QApplication exists
_warned_thread = False


def current():
    """The process's Gui, or None before Qt was started."""
    return _gui


class Gui:
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
        self.frames = FrameRequests()
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
                native = NativeWindow(self, window, with_ok=getattr(window, 'qt_ok_button', False))
            except Exception as e:
                warnings.warn("klampt.vis: cannot open a Qt window: %r" % (e,))
                window.shown = False
                self.frames.answer(window, None)
                return
            self.natives[window] = native
        if native is None:
            self.frames.answer(window, None)
            return
        if not window.shown or window.closed:
            self.natives.pop(window).destroy()
            self.frames.answer(window, None)
            return
        native.sync()
        window.scene.updateTime()
        for v in native.views:
            v.vis_window.idle()
        requests = self.frames.take(window)
        if requests:
            result = native.glwidget.grab(any(want for want, _ in requests))
            for _, deliver in requests:
                deliver(result)
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


def ensure_gui(qt, blocking):
    """The process's Gui, its QApplication made where this call's kind
    wants it (see the module docstring)."""
    global _gui, _warned_thread
    if _gui is None:
        _gui = Gui(qt)
        keep(qt)
    gui = _gui
    if gui.app is not None:
        return gui
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
