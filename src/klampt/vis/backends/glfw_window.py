"""The ``GLFW`` backend (also serves 'GLUT' requests): desktop windows driven
by one vis thread that owns every GLFW window and its context. ``show()``
starts the thread and returns; ``loop``, ``dialog``, ``run`` and ``spin``
wait in the caller's thread while the vis thread draws. Frames are drawn
into an FBO and blitted to the window; screenshots read the FBO after the
next frame (5 s timeout). Keys fire actions ('?' prints them), drag
rotates, Ctrl-drag pans, Shift-drag and the wheel zoom. The JSON GUI
widgets and the actions are controls of a panel in the top right corner
(:mod:`klampt.vis._panel_layout`); screenshots show it as the window does.

On macOS the loop needs the main thread (:mod:`klampt.vis._launcher`):
under ``python -m klampt.vis`` it runs there while the script runs in a
worker; otherwise the blocking calls run it in the calling main thread."""
import queue
import threading
import time
import warnings

from .._scene import global_lock
from .._state import manager
from .base import LOOP_PERIOD, Backend, FrameRequests, run_queued_calls
from .._panel_layout import GuiPanel
from .._render.frame import Framebuffer
from .._render.gl import clip_planes, gl
from .._render.panel import draw_panel
from .._context import has_display
from .._launcher import gui_mode, start_gui_loop

_SPECIAL_KEYS = None


def _special_keys(glfw):
    global _SPECIAL_KEYS
    if _SPECIAL_KEYS is None:
        keys = {glfw.KEY_UP: 'up', glfw.KEY_DOWN: 'down', glfw.KEY_LEFT: 'left', glfw.KEY_RIGHT: 'right',
                glfw.KEY_HOME: 'home', glfw.KEY_END: 'end', glfw.KEY_DELETE: 'delete', glfw.KEY_ENTER: 'enter',
                glfw.KEY_ESCAPE: 'escape', glfw.KEY_TAB: '\t', glfw.KEY_BACKSPACE: '\b',
                glfw.KEY_PAGE_UP: 'pageup', glfw.KEY_PAGE_DOWN: 'pagedown', glfw.KEY_INSERT: 'insert'}
        for i in range(12):
            keys[glfw.KEY_F1 + i] = 'f%d' % (i + 1)
        _SPECIAL_KEYS = keys
    return _SPECIAL_KEYS


class _NativeWindow:
    """A GLFW window showing a vis Window (lives in the vis thread)."""

    def __init__(self, glfw, window, share):
        self.panel = GuiPanel(window)
        self.glfw = glfw
        self.window = window
        glfw.window_hint(glfw.VISIBLE, True)
        glfw.window_hint(glfw.SAMPLES, 4)
        self.handle = glfw.create_window(window.width, window.height, window.title, None, share)
        if not self.handle:
            raise RuntimeError("GLFW could not create a window")
        glfw.make_context_current(self.handle)
        glfw.swap_interval(0)
        self.fbo = Framebuffer()
        self.title = window.title
        self.size = (window.width, window.height)
        glfw.set_key_callback(self.handle, self._on_key)
        glfw.set_char_callback(self.handle, self._on_char)
        glfw.set_mouse_button_callback(self.handle, self._on_button)
        glfw.set_cursor_pos_callback(self.handle, self._on_motion)
        glfw.set_scroll_callback(self.handle, self._on_scroll)
        glfw.set_window_close_callback(self.handle, self._on_close)
        glfw.set_window_size_callback(self.handle, self._on_resize)

    def _mods(self, mods):
        glfw = self.glfw
        m = set()
        if mods & glfw.MOD_CONTROL:
            m.add('ctrl')
        if mods & glfw.MOD_SHIFT:
            m.add('shift')
        if mods & glfw.MOD_ALT:
            m.add('alt')
        self.window.mouse['modifiers'] = m

    def _cursor(self):
        x, y = self.glfw.get_cursor_pos(self.handle)
        return int(x), int(y)

    def _on_key(self, handle, key, scancode, action, mods):
        self._mods(mods)
        name = _special_keys(self.glfw).get(key)
        if name is None and mods & (self.glfw.MOD_CONTROL | self.glfw.MOD_ALT) and action == self.glfw.PRESS:
            # characters typed with Ctrl / Alt produce no char event
            if 32 <= key < 127:
                name = chr(key).lower()
        if name is None:
            return
        x, y = self._cursor()
        if action in (self.glfw.PRESS, self.glfw.REPEAT):
            with global_lock:
                if self.panel.key(name):
                    return
            self.window.keyboard(name, x, y)
        elif action == self.glfw.RELEASE:
            with global_lock:
                for p in self.window.plugins[::-1]:
                    if p.keyboardupfunc(name, x, y):
                        break

    def _on_char(self, handle, codepoint):
        x, y = self._cursor()
        with global_lock:
            if self.panel.key(chr(codepoint)):
                return
        self.window.keyboard(chr(codepoint), x, y)

    def _on_button(self, handle, button, action, mods):
        self._mods(mods)
        glut_button = {self.glfw.MOUSE_BUTTON_LEFT: 0, self.glfw.MOUSE_BUTTON_MIDDLE: 1,
                       self.glfw.MOUSE_BUTTON_RIGHT: 2}.get(button, button)
        x, y = self._cursor()
        with global_lock:
            if glut_button == 0 and action == self.glfw.PRESS and self.panel.press(x, y, self.window.width):
                return
            if glut_button == 0 and action == self.glfw.RELEASE and self.panel.release():
                return
        self.window.mouse_button(glut_button, 0 if action == self.glfw.PRESS else 1, x, y)

    def _on_motion(self, handle, x, y):
        with global_lock:
            if self.panel.drag(int(x), int(y), self.window.width):
                return
        self.window.motion(int(x), int(y))

    def _on_scroll(self, handle, dx, dy):
        x, y = self._cursor()
        self.window.wheel(dx, dy, x, y)

    def _on_close(self, handle):
        self.window.close()

    def _on_resize(self, handle, w, h):
        if w > 0 and h > 0:
            self.window.reshape(w, h)
            self.size = (w, h)

    def sync(self):
        """Applies title, size and visibility changes made from Python."""
        glfw = self.glfw
        if self.title != self.window.title:
            glfw.set_window_title(self.handle, self.window.title)
            self.title = self.window.title
        if self.size != (self.window.width, self.window.height):
            glfw.set_window_size(self.handle, self.window.width, self.window.height)
            self.size = (self.window.width, self.window.height)

    def frame(self, want_depth):
        """Draws a frame into the FBO, blits it to the window and returns
        (rgb, depth) when asked."""
        glfw = self.glfw
        GL = gl()
        glfw.make_context_current(self.handle)
        fw, fh = glfw.get_framebuffer_size(self.handle)
        w, h = self.window.width, self.window.height
        self.window.scene.view.screenDeviceScale = fw / float(w) if w else 1
        self.fbo.bind(fw, fh)
        self.window.draw(h)
        with global_lock:
            draw_panel(self.panel, w, h, fw / float(w) if w else 1.0)
        result = None
        if want_depth is not None:
            near, far = clip_planes(self.window.view)
            result = self.fbo.read(want_depth, near, far)
        GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, self.fbo.fbo)
        GL.glBindFramebuffer(GL.GL_DRAW_FRAMEBUFFER, 0)
        GL.glBlitFramebuffer(0, 0, fw, fh, 0, 0, fw, fh, GL.GL_COLOR_BUFFER_BIT, GL.GL_NEAREST)
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, 0)
        glfw.swap_buffers(self.handle)
        return result

    def destroy(self):
        """Closes the window (its context must be current)."""
        self.glfw.make_context_current(self.handle)
        self.fbo.release()
        self.glfw.destroy_window(self.handle)


class GLFWBackend(Backend):
    """Desktop windows through GLFW, in a vis thread."""

    name = 'GLFW'
    edit_gui = 'GLFW'

    def __init__(self):
        import glfw  # noqa: F401  (ImportError: not available)
        if not has_display():
            raise RuntimeError("GLFW needs a display")
        gl()
        self._thread = None
        self._stop = threading.Event()
        self._calls = queue.Queue()
        self._started = threading.Event()
        self._error = None
        self._natives = {}
        self._frames = FrameRequests()
        self._gui_ident = None
        self._inline = False  # the loop runs in the blocking caller (macOS main thread)
        self._blocking = 0  # depth of loop / dialog / run / spin calls

    # -- the vis thread
    def _ensure_thread(self):
        """Starts the GUI loop unless it runs (returns False when the
        blocking caller must run it itself, in its thread)."""
        if self._inline or (self._thread is not None and self._thread.is_alive()):
            return True
        if gui_mode(blocking=self._blocking > 0) == 'inline':
            return False
        self._stop.clear()
        self._started.clear()
        self._error = None
        self._thread = start_gui_loop(self._main, 'klampt.vis GLFW')
        self._started.wait(10.0)
        if self._error is not None:
            raise RuntimeError("klampt.vis: GLFW failed: %s" % self._error)
        return True

    def _in_gui_thread(self):
        return threading.get_ident() == self._gui_ident

    def _run_inline(self, until, tick=None):
        """Runs the GUI loop in this thread until ``until()``."""
        self._stop.clear()
        self._inline = True
        try:
            self._main(until, tick)
        finally:
            self._inline = False
        if self._error is not None:
            raise RuntimeError("klampt.vis: GLFW failed: %s" % self._error)

    def _main(self, until=None, tick=None):
        import glfw
        self._gui_ident = threading.get_ident()
        try:
            if not glfw.init():
                raise RuntimeError("glfw.init() failed (no display?)")
        except Exception as e:
            self._error = e
            self._started.set()
            return
        self._started.set()
        try:
            while not self._stop.is_set():
                start = time.time()
                self._run_calls()
                windows = list(manager.windows)
                for w in windows:
                    self._service(glfw, w)
                for w in list(self._natives):
                    if w not in windows:
                        self._natives.pop(w).destroy()
                glfw.poll_events()
                if tick is not None:
                    with global_lock:
                        tick()
                if until is not None and until():
                    break
                time.sleep(max(0.0, LOOP_PERIOD - (time.time() - start)))
        except Exception as e:
            warnings.warn("klampt.vis GLFW thread stopped: %r" % (e,))
            self._error = e
        finally:
            for native in self._natives.values():
                try:
                    native.destroy()
                except Exception:
                    pass
            self._natives.clear()
            glfw.terminate()
            self._gui_ident = None

    def _run_calls(self):
        run_queued_calls(self._calls, "GLFW")

    def _service(self, glfw, window):
        native = self._natives.get(window)
        if window.shown and native is None:
            share = next(iter(self._natives.values())).handle if self._natives else None
            native = _NativeWindow(glfw, window, share)
            self._natives[window] = native
        if native is None:
            return
        if not window.shown:
            self._natives.pop(window).destroy()
            self._frames.answer(window, None)
            return
        native.sync()
        window.scene.updateTime()
        window.idle()
        requests = self._frames.take(window)  # a request made while drawing waits for the next frame
        want = None
        if requests:
            want = any(r[0] for r in requests)
        result = native.frame(want)
        for req in requests:
            req[1](result)

    # -- API
    def show(self, window, display=True):
        """Shows (or hides) the window; False when the GUI loop must be run
        by the blocking caller."""
        if display:
            window.shown = True
            window.closed = False
            window.shown_since = time.time()
            return self._ensure_thread()
        window.shown = False
        return True

    @property
    def needs_fallback(self):
        """Whether ``vis.show()`` now could not keep a window (macOS
        outside the launcher and outside a blocking call)."""
        return self._blocking == 0 and not self.loop_running()

    def loop_running(self):
        """Whether the GUI loop runs (in a thread, on the launcher's main
        thread, or in a blocking caller)."""
        return self._inline or (self._thread is not None and self._thread.is_alive())

    def shown(self, window):
        return window.shown and not window.closed and self.loop_running()

    def _wait(self, window, until):
        """Waits while the window is shown and not ``until()``; runs the
        loop here when the platform wants it in this (main) thread."""
        self._blocking += 1
        try:
            inline = not self.show(window, True)
            if inline:
                self._run_inline(lambda: not (window.shown and not window.closed) or until())
            else:
                while self.shown(window) and not until():
                    time.sleep(LOOP_PERIOD)
        finally:
            self._blocking -= 1

    def spin(self, window, duration):
        end = time.time() + duration
        self._wait(window, lambda: time.time() >= end)
        window.shown = False

    def dialog(self, window):
        self._wait(window, lambda: False)
        window.shown = False

    def loop(self, window, setup, callback, cleanup):
        """setup(), callback() each frame while shown, cleanup(); in the
        calling thread's GUI loop when the platform wants it there."""
        self._blocking += 1
        try:
            if self._inline or gui_mode(blocking=True) != 'inline':
                return super().loop(window, setup, callback, cleanup)
            try:
                if setup is not None:
                    setup()
                if not window.shown:
                    self.show(window, True)
                self._run_inline(lambda: not (window.shown and not window.closed), callback)
            finally:
                if cleanup is not None:
                    cleanup()
        finally:
            self._blocking -= 1

    def run(self, window):
        self.dialog(window)

    def screenshot(self, window, want_depth=False):
        if not self.shown(window):
            return super().screenshot(window, want_depth)
        if self._in_gui_thread() and window in self._natives:  # an action or inline loop callback
            return self._natives[window].frame(bool(want_depth))
        result = self._frames.wait(window, want_depth)
        return super().screenshot(window, want_depth) if result is None else result

    def screenshot_callback(self, window, deliver, want_depth):
        if not self.shown(window):
            return super().screenshot_callback(window, deliver, want_depth)
        self._frames.callback(window, want_depth, deliver)

    def thread_call(self, func):
        if not self.loop_running() or self._in_gui_thread():
            with global_lock:
                func()
        else:
            self._calls.put(func)

    def kill(self, windows):
        for w in windows:
            w.shown = False
        self._stop.set()
        if self._thread is not None:
            if not self._in_gui_thread():
                self._thread.join(10.0)
            self._thread = None
