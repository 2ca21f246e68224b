"""What every backend provides to :mod:`klampt.vis.visualization`, with the
headless behaviour as the default: windows are flags, ``shown()`` is bounded
by ``KLAMPT_VIS_HEADLESS_TIMEOUT``, ``dialog()`` / ``run()`` return at once,
``loop`` runs its callback at 30 Hz, and screenshots are rendered offscreen
synchronously (``KLAMPT_VIS_SCREENSHOT_DIR`` receives what would have been
shown)."""
import itertools
import os
import queue
import threading
import time
import warnings

from .._scene import global_lock
from .._context import offscreen_context, release
from .._render.frame import Framebuffer
from .._render.gl import clip_planes

LOOP_PERIOD = 1.0 / 30.0
SCREENSHOT_TIMEOUT = 5.0  # seconds a screenshot asked of a GUI thread waits for its frame
_screenshot_numbers = itertools.count()

_framebuffer = None
_render_lock = threading.Lock()


def render_offscreen(window, want_depth=False):
    """(rgb, depth) of a window rendered now at its size in the offscreen
    context (made on first use)."""
    global _framebuffer
    with global_lock, _render_lock:
        offscreen_context(requested=True)
        try:
            if _framebuffer is None:
                _framebuffer = Framebuffer()
            _framebuffer.bind(window.width, window.height)
            window.draw(window.height)
            near, far = clip_planes(window.view)
            return _framebuffer.read(want_depth, near, far)
        finally:
            # no context stays current between frames: user code sees "no OpenGL context", and
            # another thread may render next
            release()


def headless_timeout():
    """KLAMPT_VIS_HEADLESS_TIMEOUT in seconds, or None (no bound)."""
    value = os.environ.get('KLAMPT_VIS_HEADLESS_TIMEOUT')
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        warnings.warn("KLAMPT_VIS_HEADLESS_TIMEOUT=%r is not a number" % value)
        return None



def run_queued_calls(calls, where):
    """Runs the functions other threads queued on ``calls`` (a queue.Queue),
    each under the scene lock; one that raises is reported as a warning
    naming ``where`` and the others still run."""
    while True:
        try:
            func = calls.get_nowait()
        except queue.Empty:
            return
        try:
            with global_lock:
                func()
        except Exception as e:
            warnings.warn("klampt.vis: a function run in the %s thread raised %r" % (where, e))

class FrameRequests:
    """Screenshots other threads ask a GUI thread for: each waits for the
    next frame its window draws (:meth:`wait`, at most SCREENSHOT_TIMEOUT
    seconds) or has it delivered to a callback (:meth:`callback`). The GUI
    thread takes a window's requests before drawing it (:meth:`take`) and
    answers those of a window closed first with None (:meth:`answer`)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pending = {}

    def add(self, window, want_depth, deliver):
        """Queues ``deliver(result)`` for the window's next frame: result
        is (rgb, depth), or None if the window is closed first."""
        with self._lock:
            self._pending.setdefault(window, []).append((bool(want_depth), deliver))

    def take(self, window):
        """The window's requests, (want_depth, deliver) pairs, now removed."""
        with self._lock:
            return self._pending.pop(window, [])

    def answer(self, window, result):
        """Delivers ``result`` to every request of the window."""
        for _, deliver in self.take(window):
            deliver(result)

    def wait(self, window, want_depth):
        """The window's next frame (rgb, depth), or None if it is closed
        first; RuntimeError when no frame is drawn in time."""
        done = threading.Event()
        box = []

        def deliver(result):
            box.append(result)
            done.set()
        self.add(window, want_depth, deliver)
        if not done.wait(SCREENSHOT_TIMEOUT):
            raise RuntimeError("klampt.vis.screenshot: no frame was drawn within %g s" % SCREENSHOT_TIMEOUT)
        return box[0]

    def callback(self, window, want_depth, deliver):
        """Calls ``deliver(rgb, depth)`` with the window's next frame (not
        at all if the window is closed first)."""
        self.add(window, want_depth, lambda r: r is not None and deliver(*r))


class Backend:
    """The headless backend's behaviour; GUI backends override what they show."""

    name = 'base'
    warned_headless = False

    # What the backend can do, read by vis instead of its name.
    #: The window klampt.vis.editors run in while it is active: 'GLFW', 'PyQt' or None (it cannot edit).
    edit_gui = None
    #: ``vis.show()`` now could not keep a window (a GLFW window needing the main thread): viser shows instead.
    needs_fallback = False

    @property
    def can_edit(self):
        """Whether klampt.vis.editors can run while this backend is active."""
        return self.edit_gui is not None

    # -- rendering (offscreen by default)
    def render(self, window, want_depth=False):
        """(rgb, depth) of the window's current frame."""
        return render_offscreen(window, want_depth)

    def screenshot(self, window, want_depth=False):
        """(rgb, depth) for ``vis.screenshot``; advances the scene clock
        while the window is shown."""
        if window.shown:
            window.scene.updateTime()
        return self.render(window, want_depth)

    def screenshot_callback(self, window, deliver, want_depth):
        """Delivers the next frame (now, headless)."""
        rgb, depth = self.screenshot(window, want_depth)
        deliver(rgb, depth)

    def save_screenshot(self, window, reason):
        """Writes the frame to KLAMPT_VIS_SCREENSHOT_DIR, if set."""
        folder = os.environ.get('KLAMPT_VIS_SCREENSHOT_DIR')
        if not folder:
            return None
        try:
            from PIL import Image
            rgb, _ = self.render(window)
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, 'klampt_vis_%d_%03d_%s.png' % (os.getpid(), next(_screenshot_numbers),
                                                                      reason))
            Image.fromarray(rgb, 'RGB').save(path)
            return path
        except Exception as e:
            warnings.warn("klampt.vis: could not save the %s screenshot: %s" % (reason, e))
            return None

    # -- window lifecycle
    def show(self, window, display=True):
        """Marks the window shown (warning once that nothing is displayed)."""
        if display:
            if not Backend.warned_headless:
                warnings.warn("klampt.vis: no display, the %s backend shows nothing; vis.screenshot() renders the "
                              "scene (set KLAMPT_VIS_HEADLESS_TIMEOUT to bound vis.shown())" % self.name)
                Backend.warned_headless = True
            if not window.shown:
                window.shown_since = time.time()
            window.shown = True
            window.closed = False
        else:
            window.shown = False

    def shown(self, window):
        """True until ``show(False)``, ``kill()`` or the headless timeout;
        runs the plugins' idle hooks at most 30 times a second."""
        if not window.shown:
            return False
        timeout = headless_timeout()
        if timeout is not None and time.time() - window.shown_since >= timeout:
            window.shown = False
            self.save_screenshot(window, 'shown')
            return False
        now = time.time()
        if now - getattr(window, '_last_idle', 0.0) >= LOOP_PERIOD:
            window._last_idle = now
            window.idle()
        return True

    def spin(self, window, duration):
        """Shows for ``duration`` seconds (capped by the headless timeout)."""
        self.show(window, True)
        timeout = headless_timeout()
        end = time.time() + (duration if timeout is None else min(duration, timeout))
        while window.shown and time.time() < end:
            window.idle()
            time.sleep(min(LOOP_PERIOD, max(0.0, end - time.time())))
        self.save_screenshot(window, 'spin')
        window.shown = False

    def loop(self, window, setup, callback, cleanup):
        """setup(), callback() at 30 Hz while shown, cleanup()."""
        if setup is not None:
            setup()
        if not window.shown:
            self.show(window, True)
        try:
            while self.shown(window):
                if callback is not None:
                    with global_lock:
                        callback()
                time.sleep(LOOP_PERIOD)
        finally:
            if cleanup is not None:
                cleanup()

    def dialog(self, window):
        """Returns at once (the frame goes to KLAMPT_VIS_SCREENSHOT_DIR)."""
        self.save_screenshot(window, 'dialog')

    def debug_dialog(self, window):
        """``vis.debug``'s dialog."""
        self.dialog(window)

    def run(self, window):
        """Returns at once (the frame goes to KLAMPT_VIS_SCREENSHOT_DIR)."""
        self.save_screenshot(window, 'run')

    def kill(self, windows):
        """Closes everything (saving the shown window's frame if asked)."""
        for w in windows:
            if w.shown:
                self.save_screenshot(w, 'kill')
            w.shown = False

    def reset_windows(self, windows):
        """``init`` called again with this backend."""

    def native_window(self, window):
        """The object ``vis.nativeWindow()`` returns."""
        return window

    def thread_call(self, func):
        """Runs func in the GUI thread (here: now)."""
        with global_lock:
            func()

    def custom_ui(self, window, func):
        """Qt only."""
        raise RuntimeError("vis.customUI needs the Qt backend (vis.init('PyQt'))")

    def split_view(self, window, plugin):
        """``vis.splitView``: here the plugin is drawn over the scene."""
        if plugin is not None:
            window.push_plugin(plugin)
            self.plugins_changed(window)

    # -- notifications (GUI backends react)
    def scene_changed(self, window):
        """Items or attributes changed."""

    def camera_changed(self, window):
        """The camera was set."""

    def sync_camera(self, window):
        """Reads the camera back from the GUI (web viewers)."""

    def user_viewport(self, window, view):
        """What ``vis.getViewport()`` returns for the window's camera
        ``view`` (a GLViewport copy): the view itself."""
        return view

    def animation_stepped(self, window):
        """The animation clock moved."""

    def update(self, window):
        """``vis.update()``."""

    def unlocked(self, window):
        """``vis.unlock()``."""

    def plugins_changed(self, window):
        """The plugin stack changed."""

    def title_changed(self, window):
        """The title changed."""

    def resized(self, window):
        """The window size changed."""

    def actions_changed(self, window):
        """An action was added."""

    def gui_changed(self, window):
        """A JSON GUI widget was added or removed."""

    def editors_changed(self, window, app):
        """An item's editor was turned on or off."""
