"""Compatibility module: Klamp't's ``klampt.vis.glinterface``,
GLPluginInterface: the base class of user plugins of ``klampt.vis``
(``vis.pushPlugin``, ``vis.setPlugin``, ``vis.run(plugin)``). Importing it
loads no OpenGL."""
from typing import Callable, List, Tuple
from ._render.gl import require_context
from ._render.overlay import draw_text_at


class GLPluginInterface:
    """User hooks into the visualization. Each hook returns True when it
    handled the event, which stops the event from reaching the plugins below
    it and the default handling.

    Conventions (GLUT's): mouse button 0 left, 1 middle, 2 right; state 0
    down, 1 up; keys are characters or 'f1'..'f12', 'up', 'down', 'left',
    'right', 'home', 'end', 'delete', 'enter'.

    Attributes:
        window: the window the plugin is attached to, or None.
        view (GLViewport): the plugin's camera view.
        actions (list): (callback, short_name, key, description) entries.
    """

    def __init__(self):
        self.window = None
        self.view = None
        self.actions = []

    def initialize(self) -> bool:
        """Called once the OpenGL context exists, before the first frame."""
        return True

    def displayfunc(self) -> bool:
        """Replaces the whole frame when it returns True."""
        return False

    def display(self) -> bool:
        """Draws in world coordinates."""
        return False

    def display_screen(self) -> bool:
        """Draws in pixel coordinates (origin top left, y down)."""
        return False

    def reshapefunc(self, w, h) -> bool:
        """The window was resized to w x h."""
        return False

    def keyboardfunc(self, c, x, y) -> bool:
        """Key c pressed with the mouse at (x, y)."""
        return False

    def keyboardupfunc(self, c, x, y) -> bool:
        """Key c released."""
        return False

    def mousefunc(self, button, state, x, y) -> bool:
        """Mouse button pressed (state 0) or released (state 1) at (x, y)."""
        return False

    def motionfunc(self, x, y, dx, dy) -> bool:
        """Mouse moved to (x, y) by (dx, dy)."""
        return False

    def mousewheelfunc(self, dhorizontal, dvertical, x, y) -> bool:
        """Mouse wheel turned."""
        return False

    def idle(self) -> bool:
        """Called when nothing else happens (about 30 times a second)."""
        return True

    def idlefunc(self) -> bool:
        """The window's idle event: calls :meth:`idle` (a GLProgram
        overrides it to pace its own ``idle``)."""
        return self.idle()

    def eventfunc(self, type, args="") -> bool:
        """Other GUI events (buttons, menus)."""
        return False

    def closefunc(self) -> bool:
        """The window is closing."""
        return False

    def add_action(self, callback: Callable, short_name: str, key: str, description: str = None) -> None:
        """Defines a GUI action: a key in GLFW windows, a menu item in Qt, a
        button in Jupyter."""
        if not callable(callback):
            raise ValueError("Invalid callback given to add_action(callback,short_name,key,description=None)")
        self.actions.append((callback, short_name, key, description))

    def reshape(self, w, h) -> None:
        """Asks the window to resize."""
        if self.window:
            self.window.reshape(w, h)

    def idlesleep(self, seconds) -> None:
        """Asks the window not to call idle() for a while."""
        if self.window:
            self.window.idlesleep(seconds)

    def modifiers(self) -> List[str]:
        """The pressed modifier keys, among 'ctrl', 'shift', 'alt'."""
        return self.window.modifiers() if self.window else []

    def refresh(self) -> None:
        """Asks for a redraw."""
        if self.window:
            self.window.refresh()

    def draw_text(self, point, text: str, size=12, color=None) -> None:
        """Draws text at a pixel (x, y) (in ``display_screen``) or a world
        point (x, y, z)."""
        require_context("draw_text")
        if self.view is None:
            raise RuntimeError("draw_text needs a plugin attached to a window")
        draw_text_at(self.view, point, text, size, color)

    def click_ray(self, x, y) -> Tuple[list, list]:
        """The world ray (source, direction) through pixel (x, y)."""
        if self.view is None:
            raise RuntimeError("Can't get click_ray for a GLPluginInterface that's not bound to a GLProgram")
        return self.view.click_ray(x, y)

    def viewport(self):
        """The :class:`klampt.Viewport` of the view (for widgets)."""
        if self.view is None:
            raise RuntimeError("Can't get viewport for a GLPluginInterface that's not bound to a GLProgram")
        return self.view.to_viewport()
