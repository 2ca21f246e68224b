"""The ``klampt.vis`` module functions: windows, items, attributes,
animation, text, plots, camera, screenshots and the GUI, over one scene
model (:mod:`klampt.vis._scene`) and a backend chosen at the first call that
needs one (:func:`init`): ``offscreen`` (EGL / OSMesa) with no display,
``GLFW`` windows on desktops, ``IPython`` in Jupyter, ``HTML`` export, or
``null`` when no OpenGL is installed; Qt windows (``init('PyQt')``) and
``viser`` on request. Importing it loads no OpenGL, GLFW,
Qt or IPython.

Environment: ``KLAMPT_VIS_BACKEND`` picks the backend;
``KLAMPT_VIS_HEADLESS_TIMEOUT`` (seconds) bounds ``shown()``, ``spin`` and
``loop`` when headless; ``KLAMPT_VIS_SCREENSHOT_DIR`` receives a PNG of what
headless ``dialog()``, ``run()``, ``spin()`` and ``kill()`` would have shown.
"""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
import sys
import warnings
from typing import Callable, Sequence, Union

from . import backends as _backends
from ._blocking import blocking as _blocking
from . import _gl_limits
from ._gl_limits import frame_size as _frame_size
from . import _json_gui
from ._item import VisAppearance
from ._scene import VisualizationScene, global_lock
from ._state import manager as _manager
from ._render.trajectory import drawRobotTrajectory, drawTrajectory
from ._types import objectToVisType
from ._window import Window
from ._launcher import LAUNCHER_HINT, gui_mode
from ._pick import Picker
from ._framing import autoFitViewport as fit
from ._plot import VisPlot
from ._web.serialize import apply_camera_json

ItemPath = Union[str, Sequence[str]]

__all__ = ['init', 'debug', 'nativeWindow', 'scene', 'createWindow', 'setWindow', 'getWindow', 'setPlugin',
           'pushPlugin', 'popPlugin', 'splitView', 'addPlugin', 'run', 'multithreaded', 'dialog',
           'setWindowTitle', 'getWindowTitle', 'resizeWindow', 'kill', 'loop', 'show', 'spin', 'lock',
           'unlock', 'update', 'shown', 'customUI', 'threadCall', 'addAction', 'clear', 'add', 'listItems',
           'getItemName', 'dirty', 'animate', 'pauseAnimation', 'stepAnimation', 'animationTime',
           'setTimeCallback', 'remove', 'getItemConfig', 'setItemConfig', 'setLabel', 'hideLabel', 'hide',
           'edit', 'pick', 'addButton', 'addCheckbox', 'addSelect', 'addInput', 'addSlider', 'addWidget',
           'setGUI', 'bindWidget', 'removeWidget', 'getWidgetState', 'setAppearance', 'setAttribute',
           'getAttribute', 'getAttributes', 'revertAppearance', 'setColor', 'setDrawFunc', 'autoFitViewport',
           'addText', 'clearText', 'addPlot', 'addPlotItem', 'logPlot', 'logPlotEvent', 'hidePlotItem',
           'setPlotDuration', 'setPlotRange', 'setPlotPosition', 'setPlotSize', 'savePlot', 'autoFitCamera',
           'followCamera', 'getViewport', 'setViewport', 'resizeViewport', 'setBackgroundColor',
           'saveJsonConfig', 'loadJsonConfig', 'screenshot', 'screenshotCallback', 'objectToVisType',
           'drawTrajectory', 'drawRobotTrajectory',
           'VisualizationScene', 'VisAppearance', 'ItemPath']

def init(backends=None) -> str:
    """Chooses the backend: a name or list of names tried in order among
    'GLFW' ('GLUT' is served by GLFW), 'offscreen' ('EGL', 'OSMesa'),
    'IPython', 'HTML', 'PyQt' / 'PyQt5' / 'PyQt6' / 'PySide6', 'viser'
    (a browser view served on http://127.0.0.1:8080), 'rerun' (the scene
    logged to a Rerun viewer or .rrd file), 'null'; None
    picks the default (``KLAMPT_VIS_BACKEND``, else Jupyter in notebooks, a
    GLFW window with a display, else offscreen, else null). Returns the
    chosen backend's name. Calling it again with the active backend keeps
    it; another backend replaces it."""
    if backends is None:
        names = _backends.default_order()
    elif isinstance(backends, str):
        names = [backends]
    else:
        names = list(backends)
    requested = {}
    for n in names:
        requested.setdefault(_backends.ALIASES.get(str(n).lower(), str(n)), n)
    names = list(requested)
    current = _manager.backend
    if current is not None and current.name in names:
        if backends is not None:
            current.reset_windows(_manager.windows)
        return current.name
    errors = []
    for name in names:
        try:
            backend = _backends.make(name, requested[name])
        except Exception as e:  # an optional package or library is missing
            errors.append("%s: %s" % (name, e))
            continue
        _manager.start(backend)
        return backend.name
    raise RuntimeError("Unable to initialize visualization: " + "; ".join(errors))


def _backend():
    if _manager.backend is None:
        init(None)
    return _manager.backend


def _window():
    return _manager.window


def _scene():
    return _manager.window.scene


# ---------------------------------------------------------------- windows

def nativeWindow():
    """The backend's window object: the Window (GL backends), the
    KlamptWidget (IPython), or an object with ``page()``, ``iframe(w,h)``
    and ``str()`` (HTML)."""
    return _backend().native_window(_window())


def scene() -> VisualizationScene:
    """The current window's VisualizationScene."""
    return _scene()


def createWindow(title=None) -> int:
    """Makes a new window current and returns its id."""
    with global_lock:
        _manager.windows.append(Window(title))
        _manager.current = len(_manager.windows) - 1
        return _manager.current


def setWindow(id: int) -> None:
    """Makes window ``id`` current."""
    if not 0 <= id < len(_manager.windows):
        raise ValueError("Invalid window id %d" % id)
    _manager.current = id


def getWindow() -> int:
    """The id of the current window."""
    return _manager.current


def setPlugin(plugin) -> None:
    """Replaces the window's scene by a GLPluginInterface (None restores
    the scene)."""
    _window().set_plugin(plugin)
    _backend().plugins_changed(_window())


def pushPlugin(plugin) -> None:
    """Adds a plugin on top of the window's current ones."""
    _window().push_plugin(plugin)
    _backend().plugins_changed(_window())


def popPlugin() -> None:
    """Removes the top plugin."""
    _window().pop_plugin()
    _backend().plugins_changed(_window())


def splitView(plugin=None) -> None:
    """Adds a view to the window: in Qt windows a second view beside the
    first, of ``plugin`` or (None) of the scene with its own camera; other
    backends draw the plugin on top of the window's scene."""
    _backend().split_view(_window(), plugin)


def addPlugin(plugin=None) -> None:
    """Deprecated alias of :func:`splitView`."""
    warnings.warn("addPlugin will be deprecated in favor of splitView", DeprecationWarning)
    splitView(plugin)


def multithreaded() -> bool:
    """True if ``show()`` runs the GUI in a thread (all but macOS)."""
    return sys.platform != 'darwin'


def run(plugin=None) -> None:
    """Shows the window (with ``plugin``, if given) until it is closed, then
    kills the visualization."""
    if plugin is not None:
        setPlugin(plugin)
    with _blocking('vis.run'):
        _backend().run(_window())
    kill()


def dialog():
    """Shows the window as a blocking dialog until it is closed."""
    with _blocking('vis.dialog'):
        return _backend().dialog(_window())


def setWindowTitle(title: str) -> None:
    """Sets the current window's title."""
    _window().title = str(title)
    _backend().title_changed(_window())


def getWindowTitle() -> str:
    """The current window's title."""
    return _window().title


def resizeWindow(w: int, h: int) -> None:
    """Sets the window size in pixels (also the screenshot size); ValueError
    unless both are from 1 to what the OpenGL context can allocate."""
    w, h = _frame_size(w, h)
    _window().reshape(w, h)
    _backend().resized(_window())


def kill() -> None:
    """Closes every window and stops the GUI; the visualization can be
    started again afterwards."""
    _manager.stop()


def loop(setup: Callable = None, callback: Callable = None, cleanup: Callable = None) -> None:
    """Runs ``setup()``, then ``callback()`` about 30 times a second while
    the window is shown, then ``cleanup()``; the documented idiom
    ``vis.loop(setup=vis.show, callback=cb)`` works on every backend.
    RuntimeError when called from inside a vis callback (as are ``run``,
    ``dialog`` and ``spin``)."""
    with _blocking('vis.loop'):
        _backend().loop(_window(), setup, callback, cleanup)


def show(display: bool = True) -> None:
    """Shows (or with False hides) the current window; returns at once on
    threaded backends. On macOS a window needs the main thread: outside
    ``python -m klampt.vis`` (and outside ``loop``, ``dialog``, ``run``),
    the scene goes to the viser backend when it is installed, else a
    RuntimeError names the launcher."""
    if display:
        _main_thread_fallback()
    _backend().show(_window(), display)


def _main_thread_fallback():
    backend = _backend()
    if not backend.needs_fallback:
        return
    if gui_mode(blocking=False) == 'viser':
        warnings.warn("klampt.vis: a window needs the main thread here; showing the scene with viser instead "
                      "(%s for a window)" % LAUNCHER_HINT)
        init('viser')


def spin(duration: float) -> None:
    """Shows the window for ``duration`` seconds (or until closed), then hides it."""
    with _blocking('vis.spin'):
        _backend().spin(_window(), float(duration))


def lock() -> None:
    """Takes the visualization lock (hold it while changing shown objects)."""
    global_lock.acquire()


def unlock() -> None:
    """Releases the visualization lock (web backends then send updates)."""
    global_lock.release()
    backend = _manager.backend
    if backend is not None:
        backend.unlocked(_window())


def update() -> None:
    """Asks for a redraw; web backends send the current transforms."""
    _window().refresh()
    _backend().update(_window())


def shown() -> bool:
    """True while the current window is shown and not closed."""
    return _backend().shown(_window())


def customUI(func: Callable) -> None:
    """Qt only: ``func(glwidget)`` returns the Qt widget or window wrapping it."""
    _backend().custom_ui(_window(), func)


def threadCall(func: Callable) -> None:
    """Runs ``func()`` in the GUI thread at the next frame (now, when there
    is no GUI thread)."""
    _backend().thread_call(func)


def addAction(hook: Callable, short_text: str, key: str = None, description: str = None) -> None:
    """Adds an action: a key binding (GLFW), a menu item (Qt), a button
    (Jupyter); headless, ``nativeWindow().triggerAction(short_text)`` fires it."""
    if not callable(hook):
        raise ValueError("addAction needs a callable")
    _window().actions.append((hook, short_text, key, description))
    _backend().actions_changed(_window())


# ---------------------------------------------------------------- items

def clear() -> None:
    """Removes every item (and the GUI widgets) of the current window."""
    _scene().clear()
    _window().widgets.clear()
    _backend().scene_changed(_window())


def add(name: str, item, keepAppearance=False, **kwargs) -> None:
    """Adds an item (a world, robot, object, configuration, geometry, point,
    transform, trajectory, text, ...), replacing any of the same name;
    keywords set attributes ('color', 'size', 'hide_label', 'type', ...).
    Items are held by reference: changes show on the next frame. ValueError
    for sizes, widths and colors OpenGL cannot draw."""
    _gl_limits.attributes(kwargs)
    with global_lock:
        _scene().add(name, item, keepAppearance, **kwargs)
    _backend().scene_changed(_window())


def listItems(name=None, indent=0) -> None:
    """Prints the items (and sub-items)."""
    _scene().listItems(name, indent)


def getItemName(object) -> ItemPath:
    """The name or path of an object in the scene, or None."""
    return _scene().getItemName(object)


def dirty(item_name: str = 'all') -> None:
    """Marks an item changed (after editing its geometry)."""
    _scene().dirty(item_name)
    _backend().scene_changed(_window())


def animate(name: ItemPath, animation, speed: float = 1.0, endBehavior: str = 'loop') -> None:
    """Animates an item with a Trajectory (or milestones one second apart);
    endBehavior 'loop' or 'halt'."""
    _scene().animate(name, animation, speed, endBehavior)
    _backend().scene_changed(_window())


def pauseAnimation(paused=True) -> None:
    """Pauses or resumes animations."""
    _scene().pauseAnimation(paused)


def stepAnimation(amount: float) -> None:
    """Advances the animation clock by ``amount`` seconds."""
    _scene().stepAnimation(amount)
    _backend().animation_stepped(_window())


def animationTime(newtime: float = None):
    """The animation time, or sets it."""
    if newtime is None:
        return _scene().animationTime()
    _scene().animationTime(newtime)
    _backend().animation_stepped(_window())


def setTimeCallback(timefunc: Callable = None) -> None:
    """Sets the clock of the scene (time.time by default)."""
    _scene().setTimeCallback(timefunc)


def remove(name: ItemPath) -> None:
    """Removes a top-level item."""
    _scene().remove(name)
    _backend().scene_changed(_window())


def getItemConfig(name: ItemPath) -> Sequence[float]:
    """The item's configuration (as ``klampt.model.config``), including edits."""
    return _scene().getItemConfig(name)


def setItemConfig(name: ItemPath, value: Sequence[float]) -> None:
    """Sets the item's configuration."""
    _scene().setItemConfig(name, value)
    _backend().scene_changed(_window())


def setLabel(name: ItemPath, text: str) -> None:
    """Sets the item's label."""
    setAttribute(name, 'label', text)


def hideLabel(name: ItemPath, hidden=True) -> None:
    """Hides (or shows) the item's label."""
    _scene().hideLabel(name, hidden)
    _backend().scene_changed(_window())


def hide(name: ItemPath, hidden=True) -> None:
    """Hides an item; ``hide(name, False)`` shows it again."""
    _scene().hide(name, hidden)
    _backend().scene_changed(_window())


def edit(name: ItemPath, doedit=True):
    """Turns on (or off) editing of an item: points, transforms, frames,
    configurations, robots, rigid objects. Returns the editor widget;
    ``getItemConfig`` reads the edited value."""
    with global_lock:
        app = _scene().getItem(name)
        if not doedit:
            app.editor = None
            result = None
        else:
            result = app.make_editor(_scene().world())
    _backend().editors_changed(_window(), app)
    return result


def pick(click_callback: Callable, hover_callback: Callable = None, highlight_color=(1, 1, 0, 0.3),
         filter: Callable = None, tolerance=0.01) -> None:
    """Lets the user click an item once: ``click_callback(name, item,
    point)``; ``hover_callback`` likewise on hover (GL windows)."""
    _scene().picker = None if click_callback is None else Picker(_scene(), click_callback, hover_callback,
                                                                 highlight_color, filter, tolerance)


# ---------------------------------------------------------------- JSON GUI

def _add_widget(widget, callback=None):
    if 'id' not in widget:
        widget['id'] = widget.get('text', 'widget%d' % len(_window().widgets))
    _window().widgets[widget['id']] = widget
    if callback is not None:
        _window().widget_callbacks[widget['id']] = callback
    _backend().gui_changed(_window())
    return widget['id']


def addButton(text: str, callback: Callable = None, id: str = None, icon=None, iconformat=None,
              style: dict = None) -> str:
    """A button calling ``callback()``; returns its id (``text`` unless
    given). ``icon`` (base64 data), ``iconformat`` (its MIME type) and
    ``style`` (a dict of HTML style) are kept in the widget."""
    return _add_widget(_json_gui.button(text, id, icon, iconformat, style), callback)


def addCheckbox(text: str, callback: Callable = None, checked: bool = False, id: str = None, icon=None,
                iconformat=None, style: dict = None, value: bool = None) -> str:
    """A checkbox, ``checked`` or not (``value`` is the same), calling
    ``callback(state)`` with its new state (a bool, as
    ``getWidgetState`` gives); returns its id."""
    state = bool(checked if value is None else value)
    return _add_widget(_json_gui.checkbox(text, state, id, icon, iconformat, style), callback)


def addSelect(text: str, options: Sequence[str], callback: Callable = None, selection=None, id: str = None,
              multiple: bool = False, style: dict = None, value=None) -> str:
    """A selection among ``options`` calling ``callback(state)``; the
    initial ``selection`` (``value`` is the same) is an option (a list of
    them when ``multiple``), by default the first option (none when
    ``multiple``). ValueError for a selection that is not an option."""
    widget = _json_gui.select(text, options, selection if value is None else value, id, multiple, style)
    return _add_widget(widget, callback)


def addInput(text: str, value='', callback: Callable = None, id: str = None, min=None, max=None,
             style: dict = None) -> str:
    """A text (str value) or number (int / float value) input calling
    ``callback(state)``; a number input keeps its state within ``min`` and
    ``max`` when given, and steps by 1 for an int (any for a float)."""
    return _add_widget(_json_gui.input_field(text, value, id, min, max, style), callback)


def addSlider(text: str, value: float = 0.0, min: float = 0.0, max: float = 1.0, callback: Callable = None,
              id: str = None) -> str:
    """A slider over [min, max] calling ``callback(state)``."""
    return _add_widget({'type': 'slider', 'text': text, 'state': float(value), 'min': float(min),
                        'max': float(max), 'id': id or text}, callback)


def addWidget(widget: dict) -> str:
    """Adds a widget given as a dict ({'type', 'text', 'state', 'id', ...})."""
    if not isinstance(widget, dict) or 'type' not in widget:
        raise ValueError("addWidget needs a dict with a 'type'")
    return _add_widget(dict(widget))


def setGUI(menu: dict) -> None:
    """Replaces the widgets by those of ``menu`` ({'widgets': [...]} or a list)."""
    _window().widgets.clear()
    for w in (menu.get('widgets', []) if isinstance(menu, dict) else menu):
        addWidget(w)


def bindWidget(id: str, callback: Callable) -> None:
    """Sets the callback of a widget."""
    if id not in _window().widgets:
        raise ValueError("Unknown widget %r" % id)
    _window().widget_callbacks[id] = callback


def removeWidget(id: str) -> None:
    """Removes a widget."""
    _window().widgets.pop(id, None)
    _window().widget_callbacks.pop(id, None)
    _backend().gui_changed(_window())


def getWidgetState(id: str):
    """The state of a widget (checkbox bool, select value, input value...)."""
    if id not in _window().widgets:
        raise ValueError("Unknown widget %r" % id)
    return _window().widgets[id].get('state')


# ---------------------------------------------------------------- attributes

def setAppearance(name: ItemPath, appearance) -> None:
    """Draws an item with an Appearance."""
    _scene().setAppearance(name, appearance)
    _backend().scene_changed(_window())


def setAttribute(name: ItemPath, attr: str, value) -> None:
    """Sets an attribute ('color', 'size', 'label', 'hidden', 'type', ...);
    None deletes it. ValueError for sizes, widths and colors OpenGL cannot draw."""
    _gl_limits.attributes({attr: value})
    _scene().setAttribute(name, attr, value)
    _backend().scene_changed(_window())


def getAttribute(name: ItemPath, attr: str):
    """An attribute of an item."""
    return _scene().getAttribute(name, attr)


def getAttributes(name: ItemPath) -> dict:
    """All attributes of an item."""
    return _scene().getAttributes(name)


def revertAppearance(name: ItemPath) -> None:
    """Draws the item with its own appearance again."""
    _scene().revertAppearance(name)
    _backend().scene_changed(_window())


def setColor(name: ItemPath, r: float, g: float, b: float, a: float = 1.0) -> None:
    """Sets an item's color (for worlds and robots, every link's); ValueError
    unless the components are finite numbers."""
    _gl_limits.color((r, g, b, a))
    _scene().setColor(name, r, g, b, a)
    _backend().scene_changed(_window())


def setDrawFunc(name: ItemPath, func: Callable) -> None:
    """Replaces the drawing of an item with ``func(item)`` (OpenGL calls)."""
    _scene().setDrawFunc(name, func)


def autoFitViewport(viewport, objects, zoom=True, rotate=True) -> None:
    """Aims a GLViewport at objects (scene items or their VisAppearances)."""
    apps = [o if isinstance(o, VisAppearance) else VisAppearance(o, 'item') for o in objects]
    fit(viewport, apps, zoom, rotate)


def addText(name: str, text: str, position=None, **kwargs) -> None:
    """Adds text: at the console (no position), at pixel (x, y) from the top
    left (negative values anchor right / bottom), or at a world point
    (x, y, z). Attributes 'color' (default black) and 'size' (12, in pixels).
    ValueError for a size or color that cannot be drawn."""
    _gl_limits.attributes(kwargs)
    kwargs['position'] = position
    with global_lock:
        _scene().addText(name, text, **kwargs)
    _backend().scene_changed(_window())


def clearText() -> None:
    """Removes every text item."""
    _scene().clearText()
    _backend().scene_changed(_window())


def addPlot(name: str) -> None:
    """Adds a live plot (see addPlotItem, logPlot)."""
    add(name, VisPlot())


def addPlotItem(name: str, itemname: ItemPath) -> None:
    """Plots an item's configuration."""
    _scene().addPlotItem(name, itemname)


def logPlot(name: str, itemname: str, value) -> None:
    """Logs a value of a named trace."""
    _scene().logPlot(name, itemname, value)


def logPlotEvent(name: str, eventname: str, color=None) -> None:
    """Marks an event on a plot."""
    _scene().logPlotEvent(name, eventname, color)


def hidePlotItem(name: str, itemname, hidden=True) -> None:
    """Hides a trace (item name, or (item name, index))."""
    _scene().hidePlotItem(name, itemname, hidden)


def setPlotDuration(name: str, time: float) -> None:
    """The plot's time window, in seconds."""
    setAttribute(name, 'duration', time)


def setPlotRange(name: str, vmin: float, vmax: float) -> None:
    """The plot's value range (None: automatic)."""
    setAttribute(name, 'range', (vmin, vmax))


def setPlotPosition(name: str, x: float, y: float) -> None:
    """The plot's top-left pixel."""
    setAttribute(name, 'position', (x, y))


def setPlotSize(name: str, w: int, h: int) -> None:
    """The plot's size in pixels."""
    setAttribute(name, 'size', (w, h))


def savePlot(name: str, fn: str) -> None:
    """Saves a plot's traces (.csv or .traj)."""
    _scene().savePlot(name, fn)


# ---------------------------------------------------------------- camera

def autoFitCamera(zoom=True, rotate=True, scale=1) -> None:
    """Aims the camera at the items (terrains only if nothing else)."""
    _scene().autoFitCamera(zoom, rotate, scale)
    _backend().camera_changed(_window())


def followCamera(target, translate=True, rotate=False, center=False) -> None:
    """Makes the camera follow an item, a Trajectory or a camera sensor
    (None stops)."""
    _scene().followCamera(target, translate, rotate, center)


def getViewport():
    """A copy of the current camera: a GLViewport, or in a notebook (the
    IPython backend) the widget's camera dict, as in Klamp't: position,
    target and up as {'x', 'y', 'z'} dicts, near and far."""
    _backend().sync_camera(_window())
    vp = _scene().getViewport()
    vp.w, vp.h = _window().width, _window().height
    return _backend().user_viewport(_window(), vp)


def setViewport(viewport) -> None:
    """Sets the camera (and the window size, from the viewport's w, h;
    ValueError for sizes OpenGL cannot allocate). A camera dict as
    getViewport gives in a notebook moves the current camera."""
    if isinstance(viewport, dict):
        cam = viewport
        _backend().sync_camera(_window())
        viewport = _scene().getViewport()
        viewport.w, viewport.h = _window().width, _window().height
        apply_camera_json(viewport, cam)
    _frame_size(viewport.w, viewport.h, 'viewport')
    _scene().setViewport(viewport)
    if (viewport.w, viewport.h) != (_window().width, _window().height):
        _window().reshape(viewport.w, viewport.h)
        _backend().resized(_window())
    _backend().camera_changed(_window())


def resizeViewport(w: int, h: int) -> None:
    """Resizes the view (and window) to w x h pixels."""
    resizeWindow(w, h)


def setBackgroundColor(r: float, g: float, b: float, a: float = 1) -> None:
    """Sets the background color (ValueError unless finite numbers)."""
    _gl_limits.color((r, g, b, a), 'background color')
    _scene().setBackgroundColor(r, g, b, a)
    _backend().scene_changed(_window())


def saveJsonConfig(fn: str = None):
    """The items' attributes as a dict (saved to fn if given)."""
    return _scene().saveJsonConfig(fn)


def loadJsonConfig(jsonobj_or_fn):
    """Sets attributes from saveJsonConfig's output or file."""
    _scene().loadJsonConfig(jsonobj_or_fn)


# ---------------------------------------------------------------- screenshots

def screenshot(format='auto', want_depth=False):
    """An image of the current window, rendered now: 'numpy' / 'auto' a
    uint8 (h, w, 3) array, top row first; 'Image' a PIL RGB image; 'bytes'
    (w, h, bytes) with 3 w h bytes, bottom row first. With ``want_depth``,
    (image, depth) with depth a float32 (h, w) array of metric distances
    along the view axis (the far plane where nothing was drawn)."""
    if format not in ('auto', 'numpy', 'Image', 'bytes'):
        raise ValueError("screenshot format must be 'auto', 'numpy', 'Image' or 'bytes'")
    rgb, depth = _backend().screenshot(_window(), want_depth)
    return _format_image(rgb, depth, format, want_depth)


def _format_image(rgb, depth, format, want_depth):
    if format == 'Image':
        from PIL import Image
        image = Image.fromarray(rgb, 'RGB')
    elif format == 'bytes':
        image = (rgb.shape[1], rgb.shape[0], rgb[::-1].tobytes())
    else:
        image = rgb
    return (image, depth) if want_depth else image


def screenshotCallback(fn: Callable, format='auto', want_depth=False) -> None:
    """Calls ``fn(image)`` (or ``fn(image, depth)``) with the next frame."""
    def deliver(rgb, depth):
        out = _format_image(rgb, depth, format, want_depth)
        if want_depth:
            fn(*out)
        else:
            fn(out)
    _backend().screenshot_callback(_window(), deliver, want_depth)


# ---------------------------------------------------------------- debug

def debug(*args, **kwargs):
    """Shows items in a new window as a dialog, then returns to the previous
    window. Positional arguments are items; a string names the next item;
    a dict gives attributes of the previous item ('animation' animates it).
    Keywords: title, animation, centerCamera (True or a name),
    followCamera, dialog (default True), world; any other keyword adds an
    item of that name."""
    title = kwargs.pop('title', 'Debug')
    animation = kwargs.pop('animation', None)
    center = kwargs.pop('centerCamera', None)
    follow = kwargs.pop('followCamera', None)
    as_dialog = kwargs.pop('dialog', True)
    world = kwargs.pop('world', None)
    previous = getWindow()
    createWindow(title)
    if world is not None:
        add('world', world)
    name = None
    last = None
    count = 0
    for arg in args:
        if isinstance(arg, str) and name is None and not isinstance(arg, dict):
            name = arg
            continue
        if isinstance(arg, dict):
            if last is None:
                raise ValueError("debug(): a dict of attributes must follow an item")
            for attr, value in arg.items():
                if attr == 'animation':
                    animate(last, value)
                else:
                    setAttribute(last, attr, value)
            continue
        if name is None:
            name = 'world' if type(arg).__name__ == 'WorldModel' and 'world' not in _scene().items \
                else 'item%d' % count
            count += 1
        add(name, arg)
        last, name = name, None
    for key, value in kwargs.items():
        add(key, value)
        last = key
    if animation is not None and last is not None:
        animate(last, animation)
    if center is True:
        autoFitCamera()
    elif center:
        vp = getViewport()
        vp.camera.tgt = _scene().getItem(center).getCenter()
        setViewport(vp)
    if follow is not None:
        followCamera(follow)
    try:
        if as_dialog:
            _backend().debug_dialog(_window())
        else:
            show()
    finally:
        if as_dialog:
            setWindow(previous)
