"""The ``IPython`` backend (Jupyter, VS Code, Colab with anywidget): ``show()``
displays a KlamptWidget bound to the window's scene; ``update()`` and
``unlock()`` send the transforms; actions and the JSON GUI become
ipywidgets buttons; screenshots are rendered offscreen in the kernel.
Without anywidget, ``show()`` displays a static page in an iframe."""
from .base import Backend
from .._web.page import iframe, page
from .._web.serialize import SceneSerializer, camera_json


class JupyterBackend(Backend):
    """Notebook output through an anywidget."""

    name = 'IPython'

    def __init__(self):
        import IPython  # noqa: F401  (ImportError: not in Jupyter)
        self.widgets = {}
        self.controls = {}

    def _widget(self, window):
        widget = self.widgets.get(window)
        if widget is None:
            from ..ipython.widgets import KlamptWidget  # lazy: it imports anywidget and ipywidgets
            widget = KlamptWidget(width=window.width, height=window.height, scene=window.scene)
            self.widgets[window] = widget
        return widget

    def native_window(self, window):
        return self._widget(window)

    def show(self, window, display=True):
        window.shown = bool(display)
        if not display:
            return
        from IPython.display import HTML, display as ipy_display
        try:
            widget = self._widget(window)
        except ImportError:
            print("klampt.vis: pip install klampt[jupyter] for an interactive view")
            ipy_display(HTML(iframe(page(SceneSerializer(window.scene).build(), width=window.width,
                                         height=window.height))))
            return
        widget._refresh()
        controls = self._controls(window)
        ipy_display(widget if controls is None else __import__('ipywidgets').VBox([widget, controls]))

    def _controls(self, window):
        import ipywidgets
        buttons = []
        for hook, short, key, desc in window.actions:
            b = ipywidgets.Button(description=short, tooltip=desc or short)
            b.on_click(lambda _, hook=hook: (hook(), self.update(window)))
            buttons.append(b)
        for wid, widget in window.widgets.items():
            buttons.append(self._gui_widget(window, wid, widget))
        return ipywidgets.HBox(buttons) if buttons else None

    def _gui_widget(self, window, wid, widget):
        import ipywidgets
        kind = widget['type']
        if kind == 'button':
            w = ipywidgets.Button(description=widget.get('text', wid))
            w.on_click(lambda _: window.set_widget_state(wid, None))
            return w
        if kind == 'checkbox':
            w = ipywidgets.Checkbox(description=widget.get('text', wid), value=bool(widget.get('state')))
        elif kind == 'select':
            w = ipywidgets.Dropdown(description=widget.get('text', wid), options=widget.get('options', []),
                                    value=widget.get('state'))
        elif kind == 'slider':
            w = ipywidgets.FloatSlider(description=widget.get('text', wid), value=widget.get('state', 0.0),
                                       min=widget.get('min', 0.0), max=widget.get('max', 1.0))
        else:
            w = ipywidgets.Text(description=widget.get('text', wid), value=str(widget.get('state', '')))
        w.observe(lambda change: window.set_widget_state(wid, change['new']), names='value')
        return w

    def _push(self, window, full=False):
        widget = self.widgets.get(window)
        if widget is None:
            return
        if full:
            widget._refresh()
        else:
            widget.update()

    def scene_changed(self, window):
        self._push(window, full=True)

    def camera_changed(self, window):
        widget = self.widgets.get(window)
        if widget is not None:
            widget.camera = camera_json(window.scene.view)

    def user_viewport(self, window, view):
        """The camera as the reference's notebook widget gives it, which
        notebooks edit and pass to ``vis.setViewport``: position, target and
        up as {'x', 'y', 'z'} dicts, near and far."""
        cam = camera_json(view)
        out = {k: dict(zip('xyz', cam[k])) for k in ('up', 'target', 'position')}
        out['near'], out['far'] = cam['near'], cam['far']
        return out

    def update(self, window):
        self._push(window)

    def unlocked(self, window):
        self._push(window)

    def animation_stepped(self, window):
        self._push(window)

    def loop(self, window, setup, callback, cleanup):
        """A Playback control calling ``callback`` per frame."""
        from IPython.display import display as ipy_display
        from ..ipython.widgets import Playback  # lazy: it imports anywidget and ipywidgets
        if setup is not None:
            setup()
        widget = self._widget(window)

        def advance():
            if callback is not None:
                callback()
            widget.update()
        ipy_display(Playback(widget, advance=advance, reset=cleanup, framerate=30))

    def kill(self, windows):
        for w in windows:
            w.shown = False
        self.widgets = {}
