"""The ``HTML`` backend: records the scene and its animation frames and
writes one self-contained page (no CDN, no ipywidgets). Frames are
recorded on ``stepAnimation`` / ``animationTime`` / ``update()`` /
``unlock()``. In a notebook ``show()`` displays it in an iframe; in a script
it writes ``klampt_vis.html`` and prints the path. ``nativeWindow()`` gives
an object with ``page()``, ``iframe(w, h)`` and ``str()``."""
import os

from .._state import in_notebook
from .base import Backend
from .._web.serialize import SceneSerializer
from .._web.page import page, iframe


class HTMLOutput:
    """The page of a window: ``page()`` (the HTML document), ``iframe(w,
    h)`` (for notebooks), ``str()`` (the page)."""

    def __init__(self, window):
        self.window = window
        self.frames = []
        self.dt = 1.0 / 30.0
        self._serializer = None
        self._last_time = None

    def _scene_json(self):
        self._serializer = SceneSerializer(self.window.scene)
        return self._serializer.build()

    def record(self):
        """Adds a frame of the current transforms."""
        if self._serializer is None:
            self._scene_json()
        t = self.window.scene.animationTime()
        if self._last_time is not None and t > self._last_time:
            self.dt = t - self._last_time
        self._last_time = t
        self.frames.append({'transforms': self._serializer.transforms()})

    def reset(self):
        """Forgets the recorded frames."""
        self.frames = []
        self._serializer = None
        self._last_time = None

    def page(self):
        """The self-contained HTML document."""
        scene = self._scene_json()
        frames = list(self.frames)
        return page(scene, frames, self.dt, self.window.width, self.window.height, self.window.title)

    def iframe(self, width=None, height=None):
        """The page in an <iframe srcdoc>."""
        return iframe(self.page(), width or self.window.width + 20, height or self.window.height + 20)

    def _repr_html_(self):
        return self.iframe()

    def __str__(self):
        return self.page()


class HTMLBackend(Backend):
    """Self-contained HTML output of the scene and its animation."""

    name = 'HTML'

    def __init__(self):
        self.outputs = {}

    def _output(self, window):
        if window not in self.outputs:
            self.outputs[window] = HTMLOutput(window)
        return self.outputs[window]

    def native_window(self, window):
        return self._output(window)

    def reset_windows(self, windows):
        for w in windows:
            self._output(w).reset()

    def scene_changed(self, window):
        self._output(window)._serializer = None

    def animation_stepped(self, window):
        self._output(window).record()

    def update(self, window):
        self._output(window).record()

    def unlocked(self, window):
        self._output(window).record()

    def show(self, window, display=True):
        super().show(window, display)
        if not display:
            return
        out = self._output(window)
        if in_notebook():
            from IPython.display import HTML, display as ipy_display
            ipy_display(HTML(out.iframe()))
            return
        path = os.path.abspath('klampt_vis.html')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(out.page())
        print("klampt.vis: wrote", path)

    def kill(self, windows):
        for w in windows:
            w.shown = False
        self.outputs = {}
