"""A visualization window as data, whatever shows it: its scene, plugin
stack, title, size, actions and JSON GUI widgets; the event handling every
GL backend shares (plugins first, then editors, then camera navigation:
drag rotates, Ctrl-drag pans, Shift-drag and the wheel zoom); and the frame
drawing (:meth:`Window.draw`)."""
import math
import time

from klampt.math import so3, vectorops

from ._scene import VisualizationScene, global_lock
from .glinterface import GLPluginInterface
from ._render.frame import draw_scene_world, draw_scene_screen
from ._render import background, frame
from ._render.overlay import draw_text_at
from ._render.gl import gl, set_screen_projection


class ScenePlugin(GLPluginInterface):
    """The plugin that draws a VisualizationScene (the bottom of every
    window's stack unless ``setPlugin`` replaced it)."""

    def __init__(self, scene):
        super().__init__()
        self.scene = scene

    def display(self):
        if self.scene.backgroundImage is not None:
            background.draw(self.scene.backgroundImage, self.window.view)
        draw_scene_world(self.scene, self.window.view)
        return False

    def display_screen(self):
        draw_scene_screen(self.scene, self.window.view)
        return False


class Window:
    """One window: title, size, the scene, plugins, actions and widgets.

    Attributes:
        scene (VisualizationScene): the items.
        plugins (list): the plugin stack, bottom first.
        title (str), width, height (int).
        actions (list): (callback, short_text, key, description).
        widgets (dict): id -> JSON GUI widget dict.
        shown (bool): whether ``show()`` made it visible.
        closed (bool): whether the user closed it.
    """

    def __init__(self, title=None):
        self.scene = VisualizationScene()
        self.scene_plugin = ScenePlugin(self.scene)
        self.scene_plugin.window = self
        self.plugins = [self.scene_plugin]
        self.title = title or "Klamp't visualizer"
        self.width, self.height = 640, 480
        self.actions = []
        self.widgets = {}
        self.widget_callbacks = {}
        self.shown = False
        self.closed = False
        self.shown_since = None
        self.mouse = {'buttons': set(), 'x': 0, 'y': 0, 'modifiers': set()}
        self.idle_sleep_until = 0.0
        self.dirty = True

    # -- the view: the scene's camera, sized like the window
    @property
    def view(self):
        """The scene's GLViewport (kept at the window's size)."""
        v = self.scene.view
        if (v.w, v.h) != (self.width, self.height):
            v.w, v.h = self.width, self.height
        return v

    # -- plugin stack
    def set_plugin(self, plugin):
        """Replaces the stack by one plugin (None: the scene)."""
        for p in self.plugins:
            if p is not self.scene_plugin:
                p.window = None
        if plugin is None or plugin is self.scene_plugin:
            self.plugins = [self.scene_plugin]
            self.refresh()
            return
        self.plugins = []
        self._attach(plugin)

    def push_plugin(self, plugin):
        """Adds a plugin on top (the scene stays below it)."""
        if not self.plugins:
            self.plugins = [self.scene_plugin]
        self._attach(plugin)

    def _attach(self, plugin):
        if not self.plugins and getattr(plugin, 'view', None) is not None:
            # the only plugin brings its own camera (GLProgram.view): the window adopts it
            self.scene.view = plugin.view
            if plugin.view.w > 0 and plugin.view.h > 0:
                self.width, self.height = int(plugin.view.w), int(plugin.view.h)
        self.plugins.append(plugin)
        plugin.window = self
        plugin.view = self.view
        for a in getattr(plugin, 'actions', []):
            if not isinstance(a, tuple):  # GLProgramAction
                a = (a.hook, a.short_text, a.key, a.description)
            self.actions.append(a)
        plugin.initialize()
        plugin.reshapefunc(self.width, self.height)
        self.refresh()

    def pop_plugin(self):
        """Removes and returns the top plugin (never the scene)."""
        if len(self.plugins) <= 1:
            return None
        p = self.plugins.pop()
        p.window = None
        self.refresh()
        return p

    # -- requests from plugins (GLPluginInterface.window API)
    def reshape(self, w, h):
        """Resizes the window."""
        self.width, self.height = int(w), int(h)
        for p in self.plugins:
            p.reshapefunc(self.width, self.height)
        self.refresh()

    def idlesleep(self, seconds):
        """Suspends plugin idle calls for a while."""
        self.idle_sleep_until = time.time() + float(seconds)

    def modifiers(self):
        """The pressed modifiers ('ctrl', 'shift', 'alt')."""
        return sorted(self.mouse['modifiers'])

    def refresh(self):
        """Asks for a redraw."""
        self.dirty = True

    def draw_text(self, point, text, size=12, color=None):
        """Text at a pixel or world point (see GLPluginInterface.draw_text)."""
        draw_text_at(self.view, point, text, size, color)

    # -- drawing
    def draw(self, window_height=None):
        """Draws a frame into the bound framebuffer (under the global lock)."""
        with global_lock:
            # the camera controller (followCamera) moves the camera this frame shows
            self.scene.updateCamera()
            view = self.view
            view._window_height = window_height or self.height
            for p in self.plugins:
                p.view = view
            if any(p.displayfunc() for p in self.plugins[::-1]):
                return
            frame.prepare_world(view, self.scene.backgroundColor, view._window_height)
            GL = gl()
            for p in self.plugins:
                GL.glPushAttrib(GL.GL_ALL_ATTRIB_BITS)
                GL.glMatrixMode(GL.GL_MODELVIEW)
                GL.glPushMatrix()
                try:
                    handled = p.display()
                finally:
                    GL.glMatrixMode(GL.GL_MODELVIEW)
                    GL.glPopMatrix()
                    GL.glPopAttrib()
                if handled:
                    break
            set_screen_projection(view.w, view.h)
            GL.glDisable(GL.GL_LIGHTING)
            GL.glDisable(GL.GL_DEPTH_TEST)
            for p in self.plugins:
                GL.glPushAttrib(GL.GL_ALL_ATTRIB_BITS)
                try:
                    set_screen_projection(view.w, view.h)
                    handled = p.display_screen()
                finally:
                    GL.glPopAttrib()
                if handled:
                    break
            GL.glDisable(GL.GL_SCISSOR_TEST)
            self.dirty = False

    # -- idle
    def idle(self):
        """Plugins' idle hooks (unless asleep)."""
        if time.time() < self.idle_sleep_until:
            return
        with global_lock:
            for p in self.plugins:
                p.idlefunc()

    # -- the JSON GUI
    def set_widget_state(self, id, state):
        """Sets a widget's state from the GUI and calls its callback (a
        button's callback takes no state and keeps none; a number stays
        within its 'min' and 'max')."""
        widget = self.widgets[id]
        callback = self.widget_callbacks.get(id)
        with global_lock:
            if widget['type'] == 'button':
                if callback:
                    callback()
                return
            if widget['type'] == 'number' and isinstance(state, (int, float)) and not isinstance(state, bool):
                state = min(widget.get('max', state), max(widget.get('min', state), state))
            widget['state'] = state
            if callback:
                callback(state)

    # -- events, in GLUT conventions
    def keyboard(self, c, x, y):
        """A key press: plugins, then actions bound to the key, then '?' help."""
        with global_lock:
            for p in self.plugins[::-1]:
                if p.keyboardfunc(c, x, y):
                    self.refresh()
                    return True
            for callback, short, key, desc in self.actions:
                if key is not None and _key_matches(key, c, self.mouse['modifiers']):
                    callback()
                    self.refresh()
                    return True
            if c == '?':
                print(self.help_text())
                return True
        return False

    def triggerAction(self, short_text):
        """Fires the action named ``short_text`` (as a menu or button would)."""
        with global_lock:
            for callback, short, key, desc in self.actions:
                if short == short_text:
                    callback()
                    self.refresh()
                    return
        raise ValueError("no action named %r" % (short_text,))

    def help_text(self):
        """The list of key bindings."""
        lines = ["Key bindings of %s:" % self.title]
        for callback, short, key, desc in self.actions:
            if key is not None:
                lines.append("  %s: %s" % (key, desc or short))
        lines.append("  drag: rotate, ctrl+drag: pan, shift+drag or wheel: zoom")
        return "\n".join(lines)

    def mouse_button(self, button, state, x, y):
        """A mouse press (state 0) or release (state 1)."""
        with global_lock:
            self.mouse['x'], self.mouse['y'] = x, y
            if state == 0:
                self.mouse['buttons'].add(button)
            else:
                self.mouse['buttons'].discard(button)
            for p in self.plugins[::-1]:
                if p.mousefunc(button, state, x, y):
                    self.refresh()
                    return True
            editor_app = self._editor_under(x, y) if state == 0 and button == 0 else None
            if editor_app is not None:
                self._dragging = editor_app
                editor_app.editor.beginDrag(x, y, self.view.to_viewport())
                return True
            if state == 1 and getattr(self, '_dragging', None) is not None:
                self._dragging.editor.endDrag()
                self._dragging.update_editor(False)
                self._dragging = None
                self.refresh()
                return True
            if state == 0 and button == 0 and self.scene.picker is not None:
                self.scene.picker.click(x, y)
        return False

    def _editor_under(self, x, y):
        vp = self.view.to_viewport()
        for app in self._editor_apps():
            if app.editor.hover(x, y, vp):
                return app
        return None

    def _editor_apps(self):
        out = []

        def visit(app):
            if app.editor is not None:
                out.append(app)
            for sub in app.subAppearances.values():
                visit(sub)
        for app in self.scene.items.values():
            visit(app)
        return out

    def motion(self, x, y):
        """Mouse motion to (x, y): drags editors or the camera."""
        with global_lock:
            dx, dy = x - self.mouse['x'], y - self.mouse['y']
            self.mouse['x'], self.mouse['y'] = x, y
            for p in self.plugins[::-1]:
                if p.motionfunc(x, y, dx, dy):
                    self.refresh()
                    return True
            dragging = getattr(self, '_dragging', None)
            if dragging is not None:
                dragging.editor.drag(dx, dy, self.view.to_viewport())
                dragging.update_editor(False)
                dragging.markChanged(config=False, appearance=False)
                self.refresh()
                return True
            if not self.mouse['buttons']:
                vp = self.view.to_viewport()
                for app in self._editor_apps():
                    app.editor.hover(x, y, vp)
                if self.scene.picker is not None:
                    self.scene.picker.hover(x, y)
                return False
            navigate(self.view, dx, dy, self.mouse['buttons'], self.mouse['modifiers'])
            self.refresh()
            return True

    def wheel(self, dh, dv, x, y):
        """Mouse wheel: plugins, else zoom."""
        with global_lock:
            for p in self.plugins[::-1]:
                if p.mousewheelfunc(dh, dv, x, y):
                    return True
            self.view.camera.dist *= math.pow(0.9, dv)
            self.refresh()
            return True

    def close(self):
        """The user closed the window."""
        with global_lock:
            for p in self.plugins:
                p.closefunc()
            self.closed = True
            self.shown = False


def _key_matches(key, c, modifiers):
    key = str(key).lower()
    parts = key.split('+')
    want = set(p for p in parts[:-1])
    want = {'ctrl' if m in ('ctrl', 'control') else m for m in want}
    return parts[-1] == str(c).lower() and want <= set(modifiers)


def navigate(view, dx, dy, buttons, modifiers):
    """Camera navigation of a drag by (dx, dy) pixels, as the reference's
    GLNavigationProgram: drag rotates, Ctrl pans, Shift (or the right
    button) zooms."""
    cam = view.camera
    if 'ctrl' in modifiers or 1 in buttons:
        R, t = cam.matrix()
        scale = 2.0 * math.tan(math.radians(view.fov) * 0.5)
        delta = so3.apply(R, [-scale * float(dx) * cam.dist / view.w, scale * float(dy) * cam.dist / view.w, 0])
        cam.tgt = vectorops.add(cam.tgt, delta)
    elif 'shift' in modifiers or 2 in buttons:
        cam.dist *= math.exp(dy * 0.01)
    else:
        cam.rot[2] -= float(dx) * 0.01
        cam.rot[1] -= float(dy) * 0.01
