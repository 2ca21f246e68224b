"""Compatibility module: Klamp't's ``klampt.vis.glprogram``, the program
classes of ``klampt.vis``: GLProgram (a whole window's drawing and events),
GLNavigationProgram (camera navigation), GLRealtimeProgram (a fixed frame
rate) and GLPluginProgram (a stack of GLPluginInterfaces). ``run()`` shows
the program through ``klampt.vis``. Importing it loads no OpenGL."""
import math
import time

from klampt._viewport import GLViewport

from .glinterface import GLPluginInterface
from . import visualization
from ._render.frame import prepare_world
from ._render.gl import gl, set_screen_projection, clip_planes, set_lights
from .visualization import _format_image
from ._window import navigate


class GLProgramAction:
    """A GUI action: hook, short text, key and description."""

    def __init__(self, hook, short_text, key, description=None):
        self.short_text = short_text
        self.hook = hook
        self.key = key
        self.description = description if description is not None else short_text


class GLProgram(GLPluginInterface):
    """A window's whole drawing and event handling.

    Attributes:
        name (str): the window title.
        window: the window showing the program (None until run).
        view (GLViewport): the camera; its w, h size the window.
        clearColor (list): the background color.
        actions (list of GLProgramAction).
    """

    def __init__(self, name="OpenGL Program"):
        super().__init__()
        self.name = name
        self.view = GLViewport()
        self.clearColor = [1.0, 1.0, 1.0, 0.0]
        self.actions = []

    def add_action(self, hook, short_text, key, description=None):
        """Defines a GUI action (a key binding or menu item)."""
        self.actions.append(GLProgramAction(hook, short_text, key, description))

    def run(self):
        """Shows the program in a window until it is closed."""
        visualization.setWindowTitle(self.name)
        visualization.resizeWindow(self.view.w, self.view.h)
        visualization.run(self)

    def initialize(self):
        """Called once the context exists."""
        return True

    def refresh(self):
        """Asks for a redraw."""
        if self.window:
            self.window.refresh()

    def reshapefunc(self, w, h):
        """The window was resized."""
        self.view.w, self.view.h = w, h
        self.refresh()
        return True

    def print_help(self):
        """Prints the key bindings."""
        print("************** Help **************")
        print("?: print this help message")
        for a in self.actions:
            print(a.key, ":", a.description)
        print("**********************************")

    def keyboardfunc(self, c, x, y):
        """'?' prints help; other keys fire actions ('Ctrl+' / 'Alt+' prefixes)."""
        if c == '?':
            self.print_help()
            return True
        mods = self.modifiers()
        if 'alt' in mods:
            c = 'Alt+' + c
        if 'ctrl' in mods:
            c = 'Ctrl+' + c
        for a in self.actions:
            if c == a.key:
                a.hook()
                self.refresh()
                return True
        return False

    def displayfunc(self):
        """The whole frame: prepare_GL, display, prepare_screen_GL,
        display_screen."""
        if self.view.w == 0 or self.view.h == 0:
            return False
        self.prepare_GL()
        self.display()
        self.prepare_screen_GL()
        self.display_screen()
        return True

    def idlefunc(self):
        """Called when idle; the default sleeps idle calls forever."""
        self.idlesleep()

    def idlesleep(self, duration=float('inf')):
        """Suspends idle calls for ``duration`` seconds."""
        if self.window:
            self.window.idlesleep(duration if math.isfinite(duration) else 1e9)

    def prepare_GL(self):
        """Viewport, clear, default state, camera and lights for world drawing."""
        height = self.window.height if self.window is not None else self.view.h
        prepare_world(self.view, self.clearColor, height)

    def prepare_screen_GL(self):
        """Pixel coordinates for screen drawing (y down)."""
        GL = gl()
        set_screen_projection(self.view.w, self.view.h)
        GL.glDisable(GL.GL_LIGHTING)
        GL.glDisable(GL.GL_DEPTH_TEST)

    def display(self):
        """Draws the world (override)."""
        return True

    def display_screen(self):
        """Draws on the screen (override)."""
        return True

    def closefunc(self):
        """The window is closing."""
        return True

    def get_screen(self, format='auto', want_depth=False):
        """The frame being drawn (call from display functions), as
        ``vis.screenshot`` formats it."""
        import numpy as np
        GL = gl()
        x, y, w, h = [int(v) for v in GL.glGetIntegerv(GL.GL_VIEWPORT)]
        GL.glPixelStorei(GL.GL_PACK_ALIGNMENT, 1)
        data = GL.glReadPixels(x, y, w, h, GL.GL_RGB, GL.GL_UNSIGNED_BYTE)
        rgb = np.ascontiguousarray(np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)[::-1])
        depth = None
        if want_depth:
            n, f = clip_planes(self.view)
            raw = GL.glReadPixels(x, y, w, h, GL.GL_DEPTH_COMPONENT, GL.GL_FLOAT)
            d = np.frombuffer(raw, dtype=np.float32).reshape(h, w)[::-1].astype(np.float64)
            depth = (n * f / (f - d * (f - n))).astype(np.float32)
        return _format_image(rgb, depth, 'numpy' if format == 'auto' else format, want_depth)

    def save_screen(self, fn, multithreaded=True):
        """Saves the frame being drawn to an image file."""
        self.get_screen('Image').save(fn)


class GLNavigationProgram(GLProgram):
    """A GLProgram with camera navigation: drag rotates, Ctrl-drag pans,
    Shift-drag and the wheel zoom."""

    def __init__(self, name):
        super().__init__(name)
        self.dragging = False
        self.clearColor = [0.8, 0.8, 0.9, 0]

    def get_view(self):
        """The camera (GLViewport)."""
        return self.view

    def set_view(self, v):
        """Sets the camera."""
        self.view = v
        if self.window is not None:
            self.window.scene.view = v

    def set_lights_GL(self):
        """The default lights."""
        set_lights()

    def motionfunc(self, x, y, dx, dy):
        """Navigates while dragging."""
        if self.dragging:
            buttons = self.window.mouse['buttons'] if self.window is not None else {0}
            navigate(self.view, dx, dy, buttons, set(self.modifiers()))
            self.refresh()
            return True
        return False

    def mousefunc(self, button, state, x, y):
        """Starts / ends dragging."""
        self.dragging = state == 0
        return False

    def mousewheelfunc(self, dhorizontal, dvertical, x, y):
        """Zooms."""
        self.view.camera.dist *= math.pow(0.9, dvertical)
        self.refresh()
        return True


class GLRealtimeProgram(GLNavigationProgram):
    """A GLNavigationProgram that calls ``idle()`` at a fixed rate.

    Attributes:
        ttotal (float): elapsed time at the constant rate.
        fps (float), dt (float): the rate and its period.
        counter (int): frames so far.
        lasttime (float): time.time() at the last frame.
    """

    def __init__(self, name):
        super().__init__(name)
        self.ttotal = 0.0
        self.fps = 50
        self.dt = 1.0 / self.fps
        self.counter = 0
        self.lasttime = time.time()

    def idlefunc(self):
        """Calls idle() once per dt."""
        tcur = time.time()
        if self.dt - (tcur - self.lasttime) > 0.001:
            return None
        self.ttotal += self.dt
        self.counter += 1
        self.idle()
        self.lasttime = tcur
        self.refresh()
        return True

    def idle(self):
        """Called at the program's rate (override)."""
        return True


class GLPluginProgram(GLRealtimeProgram):
    """A program whose behaviour comes from a stack of GLPluginInterfaces."""

    def __init__(self, name="GLPluginProgram"):
        super().__init__(name)
        self.plugins = []

    def setPlugin(self, plugin):
        """Deprecated: set_plugin."""
        return self.set_plugin(plugin)

    def pushPlugin(self, plugin):
        """Deprecated: push_plugin."""
        return self.push_plugin(plugin)

    def popPlugin(self):
        """Deprecated: pop_plugin."""
        return self.pop_plugin()

    def set_plugin(self, plugin):
        """Replaces the stack by one plugin."""
        self.plugins = []
        if plugin:
            self.push_plugin(plugin)

    def push_plugin(self, plugin):
        """Adds a plugin on top."""
        self.plugins.append(plugin)
        plugin.window = self.window
        plugin.view = self.view

    def pop_plugin(self):
        """Removes the top plugin."""
        return self.plugins.pop() if self.plugins else None

    def initialize(self):
        """Initializes the plugins."""
        for p in self.plugins:
            p.window = self.window
            p.initialize()
        return True

    def idle(self):
        """The plugins' idle hooks."""
        return any([bool(p.idle()) for p in self.plugins])

    def reshapefunc(self, w, h):
        """Resizes the plugins."""
        GLRealtimeProgram.reshapefunc(self, w, h)
        for p in self.plugins:
            p.reshapefunc(w, h)

    def keyboardfunc(self, c, x, y):
        for p in self.plugins[::-1]:
            if p.keyboardfunc(c, x, y):
                return True
        return GLRealtimeProgram.keyboardfunc(self, c, x, y)

    def keyboardupfunc(self, c, x, y):
        for p in self.plugins[::-1]:
            if p.keyboardupfunc(c, x, y):
                return True
        return False

    def motionfunc(self, x, y, dx, dy):
        for p in self.plugins[::-1]:
            if p.motionfunc(x, y, dx, dy):
                return True
        return GLRealtimeProgram.motionfunc(self, x, y, dx, dy)

    def mousefunc(self, button, state, x, y):
        for p in self.plugins[::-1]:
            if p.mousefunc(button, state, x, y):
                return True
        return GLRealtimeProgram.mousefunc(self, button, state, x, y)

    def display(self):
        for p in self.plugins:
            p.view = self.view
            if p.display():
                return True
        return True

    def display_screen(self):
        for p in self.plugins:
            if p.display_screen():
                return True
        return True
