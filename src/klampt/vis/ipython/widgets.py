"""KlamptWidget and its editors (imports anywidget and ipywidgets).

The widget shows a VisualizationScene with the project's WebGL viewer: the
``scene`` trait is the viewer's JSON (:mod:`klampt.vis._web.serialize`:
three.js Object JSON plus extras, camera, background, lights and checker),
``transforms`` the moving nodes' matrices (sent by :meth:`update`),
``camera`` the view (read back when the user moves it)."""
import math

import anywidget
import ipywidgets
import traitlets

from .._scene import VisualizationScene
from .._web.page import viewer_js
from .._web.serialize import SceneSerializer, apply_camera_json, camera_json
from klampt import GeometricPrimitive, TriangleMesh
from klampt.math import se3, so3
from klampt._viewport import GLViewport

_RENDER = r"""
function render({ model, el }) {
  const viewer = new globalThis.KlamptViewer(el, model.get("scene"), {
    width: model.get("width"), height: model.get("height"),
    onCamera: (cam) => { model.set("camera", cam); model.save_changes(); } });
  model.on("change:scene", () => viewer.setScene(model.get("scene")));
  model.on("change:transforms", () => viewer.setTransforms(model.get("transforms")));
  model.on("change:camera", () => {
    const cam = model.get("camera");
    if (cam && cam.position) viewer.setCamera(cam);
  });
  el.klamptViewer = viewer;
}
export default { render };
"""


def widget_esm():
    """The widget's ES module: the viewer and the anywidget render hook."""
    return viewer_js() + "\n" + _RENDER


class KlamptWidget(anywidget.AnyWidget):
    """A 3D view of a world (or of a vis scene) in a notebook.

    Args:
        world (WorldModel, optional): the world shown.
        width, height (int): the size in pixels.
    """

    _esm = traitlets.Unicode(widget_esm()).tag(sync=True)
    scene = traitlets.Dict().tag(sync=True)
    transforms = traitlets.Dict().tag(sync=True)
    camera = traitlets.Dict().tag(sync=True)
    rpc = traitlets.Dict().tag(sync=True)
    width = traitlets.Int(640).tag(sync=True)
    height = traitlets.Int(480).tag(sync=True)

    def __init__(self, world=None, width=640, height=480, scene=None, **kwargs):
        super().__init__(width=width, height=height, **kwargs)
        self._vis_scene = scene if scene is not None else VisualizationScene()
        self._rpc_depth = 0
        self._serializer = None
        if world is not None:
            self._vis_scene.add('world', world)
        self.observe(self._camera_moved, names='camera')
        self._refresh()

    # -- sync
    def _camera_moved(self, change):
        cam = change['new']
        if cam and 'position' in cam:
            apply_camera_json(self._vis_scene.view, cam)

    def _refresh(self):
        if self._rpc_depth:
            return
        self._serializer = SceneSerializer(self._vis_scene)
        self.scene = self._serializer.build()
        self.transforms = self._serializer.transforms()

    def update(self):
        """Sends the current transforms (after robot.setConfig, ...)."""
        if self._rpc_depth:
            return
        if self._serializer is None:
            self._refresh()
            return
        self.transforms = self._serializer.transforms()

    def beginRpc(self):
        """Batches changes until :meth:`endRpc`."""
        self._rpc_depth += 1

    def endRpc(self):
        """Sends the batched changes."""
        self._rpc_depth = max(0, self._rpc_depth - 1)
        self._refresh()

    # -- content
    def setWorld(self, world):
        """Shows a world (replacing the previous one)."""
        self._vis_scene.add('world', world)
        self._refresh()

    def clear(self):
        """Removes everything."""
        self._vis_scene.clear()
        self._refresh()

    def clearExtras(self):
        """Removes everything but the world."""
        for name in [n for n in self._vis_scene.items if n != 'world']:
            self._vis_scene.remove(name)
        self._refresh()

    def add(self, name, item, **kwargs):
        """Adds any vis item (see ``vis.add``)."""
        self._vis_scene.add(name, item, **kwargs)
        self._refresh()

    def remove(self, name):
        """Removes an item."""
        self._vis_scene.remove(name)
        self._refresh()

    def hide(self, name, hidden=True):
        """Hides or shows an item."""
        self._vis_scene.hide(name, hidden)
        self._refresh()

    def setColor(self, target, r, g, b, a=1.0):
        """Colors an item (a name or a path)."""
        self._vis_scene.setColor(target, r, g, b, a)
        self._refresh()

    def setTransform(self, name, R=None, t=None, matrix=None):
        """Moves a transform item."""
        if matrix is not None:
            R = [matrix[0], matrix[1], matrix[2], matrix[4], matrix[5], matrix[6], matrix[8], matrix[9], matrix[10]]
            t = [matrix[12], matrix[13], matrix[14]]
        app = self._vis_scene.getItem(name)
        if t is None:
            t = app.item[1]
        if R is None:
            R = app.item[0]
        app.item = (list(R), list(t))
        self._refresh()

    def addGhost(self, name="ghost", robot=0):
        """Adds a ghost of robot ``robot`` (a configuration item)."""
        world = self._vis_scene.world()
        self._vis_scene.add(name, world.robot(robot).getConfig(), color=(0.5, 0.5, 0.5, 0.5), robot=robot)
        self._refresh()
        return name

    def setGhostConfig(self, q, name="ghost", robot=0):
        """Sets a ghost's configuration."""
        self._vis_scene.setItemConfig(name, list(q))
        self._refresh()

    def getRobotConfig(self, robot=0):
        """The configuration of robot ``robot`` of the world."""
        return self._vis_scene.world().robot(robot).getConfig()

    def addText(self, name="HUD_Text1", text="", position=None):
        """Adds text (console, pixel position or world point)."""
        self._vis_scene.add(name, text, position=position)
        self._refresh()

    def addSphere(self, name="Sph1", x=0, y=0, z=0, r=1):
        """Adds a sphere."""
        p = GeometricPrimitive()
        p.setSphere([x, y, z], r)
        self._vis_scene.add(name, p)
        self._refresh()

    def addLine(self, name="Line1", x1=0, y1=0, z1=0, x2=1, y2=1, z2=1):
        """Adds a segment."""
        self.addPolyline(name, [[x1, y1, z1], [x2, y2, z2]])

    def addPolyline(self, name="Line1", pts=()):
        """Adds a polyline through 3D points."""
        self._vis_scene.add(name, [list(p) for p in pts], type='Configs')
        self._refresh()

    def addXform(self, name="Xform1", length=0.1, width=0.01):
        """Adds coordinate axes (move them with setTransform)."""
        self._vis_scene.add(name, se3.identity(), length=length, width=width)
        self._refresh()

    def addTriangle(self, name="Tri1", a=(0, 0, 0), b=(1, 0, 0), c=(0, 1, 0)):
        """Adds a triangle."""
        m = TriangleMesh()
        m.setVertices([list(a), list(b), list(c)])
        m.setIndices([[0, 1, 2]])
        self._vis_scene.add(name, m)
        self._refresh()

    def addQuad(self, name="Quad1", a=(0, 0, 0), b=(1, 0, 0), c=(1, 1, 0), d=(0, 1, 0)):
        """Adds a quadrilateral."""
        m = TriangleMesh()
        m.setVertices([list(a), list(b), list(c), list(d)])
        m.setIndices([[0, 1, 2], [0, 2, 3]])
        self._vis_scene.add(name, m)
        self._refresh()

    def addBillboard(self, name="Billboard", image=None, format='auto', crange=(0, 1), colormap='auto',
                     filter='linear', size=(1, 1)):
        """Adds a flat textured quad of ``size`` (drawn as a grey quad)."""
        w, h = size
        self.addQuad(name, (0, 0, 0), (w, 0, 0), (w, h, 0), (0, h, 0))

    # -- camera
    def getCamera(self):
        """The viewer's camera dict (position, target, up, fov)."""
        return dict(self.camera) if self.camera else camera_json(self._vis_scene.view)

    def setCamera(self, cam):
        """Sets the viewer's camera (a dict from getCamera)."""
        apply_camera_json(self._vis_scene.view, cam)
        self.camera = dict(cam)

    def resetCamera(self):
        """Back to the default camera."""
        self._vis_scene.view = GLViewport()
        self.camera = camera_json(self._vis_scene.view)


def _slider(description, value, lo, hi, step=0.001):
    lo = lo if math.isfinite(lo) else -math.pi
    hi = hi if math.isfinite(hi) else math.pi
    return ipywidgets.FloatSlider(description=description, value=min(max(value, lo), hi), min=lo, max=hi,
                                  step=step, continuous_update=True)


def EditConfig(robot, klampt_widget=None, ghost=None, link_selector='slider', link_subset=None, callback=None):
    """Sliders editing a robot's configuration; moves the robot (or a ghost
    of it) in ``klampt_widget``; ``callback(q)`` after each change."""
    qmin, qmax = robot.getJointLimits()
    q = robot.getConfig()
    links = list(link_subset) if link_subset is not None else list(range(robot.numLinks()))
    sliders = []
    for i in links:
        s = _slider(robot.link(i).getName(), q[i], qmin[i], qmax[i])

        def changed(change, i=i):
            cur = robot.getConfig() if ghost is None else list(klampt_widget._vis_scene.getItemConfig(ghost))
            cur[i] = change['new']
            if ghost is None:
                robot.setConfig(cur)
                if klampt_widget is not None:
                    klampt_widget.update()
            else:
                klampt_widget.setGhostConfig(cur, ghost)
            if callback is not None:
                callback(cur)
        s.observe(changed, names='value')
        sliders.append(s)
    return ipywidgets.VBox(sliders)


def EditPoint(value=None, min=None, max=None, labels=None, klampt_widget=None, point_name='edited_point',
              point_radius=0.05, callback=None):
    """Sliders editing a 3D point, shown as a point in ``klampt_widget``. A
    list given as ``value`` holds the edited point (as in Klamp't)."""
    value = value if isinstance(value, list) else list(value) if value is not None else [0.0, 0.0, 0.0]
    lo = list(min) if min is not None else [v - 2 for v in value]
    hi = list(max) if max is not None else [v + 2 for v in value]
    labels = labels or ['x', 'y', 'z']
    if klampt_widget is not None:
        klampt_widget.add(point_name, value, size=10)
    sliders = []
    for i in range(3):
        s = _slider(labels[i], value[i], lo[i], hi[i])

        def changed(change, i=i):
            value[i] = change['new']
            if klampt_widget is not None:
                klampt_widget._vis_scene.setItemConfig(point_name, list(value))
                klampt_widget._refresh()
            if callback is not None:
                callback(list(value))
        s.observe(changed, names='value')
        sliders.append(s)
    return ipywidgets.VBox(sliders)


def EditTransform(value=None, xmin=None, xmax=None, labels=None, klampt_widget=None, xform_name='edited_xform',
                  axis_length=0.2, axis_width=0.005, callback=None):
    """Sliders editing a transform (translation and roll-pitch-yaw)."""
    R, t = value if value is not None else se3.identity()
    rpy = list(so3.rpy(R))
    t = list(t)
    if klampt_widget is not None:
        klampt_widget.add(xform_name, (list(R), list(t)), length=axis_length, width=axis_width)
    names = labels or ['x', 'y', 'z', 'roll', 'pitch', 'yaw']
    state = t + rpy
    sliders = []
    for i in range(6):
        lo = (xmin[i] if xmin is not None else state[i] - 2) if i < 3 else -math.pi
        hi = (xmax[i] if xmax is not None else state[i] + 2) if i < 3 else math.pi
        s = _slider(names[i], state[i], lo, hi)

        def changed(change, i=i):
            state[i] = change['new']
            T = (so3.from_rpy(state[3:6]), state[0:3])
            if klampt_widget is not None:
                klampt_widget.setTransform(xform_name, T[0], T[1])
            if callback is not None:
                callback(T)
        s.observe(changed, names='value')
        sliders.append(s)
    return ipywidgets.VBox(sliders)


class Playback(ipywidgets.VBox):
    """Play / Step / Pause / Reset buttons for an animation shown in a
    KlamptWidget, with the reference's constructor and attributes.

    Play calls ``advance()`` once per frame in a background thread,
    ``framerate`` frames per second (None: as fast as possible), until Pause
    (which then calls ``pause()``), Reset (which calls ``reset()`` and sets
    ``frame`` back to 0) or ``maxframes`` frames; Step runs one frame.
    ``klampt_widget`` is updated after each frame. An exception raised by a
    callback stops playing and is printed in the widget's output area.

    Attributes:
        klampt_widget, advance, reset, pause, maxframes, framerate, quiet: as given.
        frame (int): frames run since the last reset.
        playbutton, stepbutton, pausebutton, resetbutton (ipywidgets.Button)
        out (ipywidgets.Output): where callback errors are printed.
    """

    def __init__(self, klampt_widget=None, advance=None, reset=None, pause=None, maxframes=None, framerate=None,
                 quiet=False):
        import threading
        self.klampt_widget = klampt_widget
        self.advance = advance
        self.reset = reset
        self.pause = pause
        self.maxframes = maxframes
        self.framerate = framerate
        self.quiet = quiet
        self.frame = 0
        self.playbutton = ipywidgets.Button(description='Play', icon='play', tooltip='Start the animation')
        self.stepbutton = ipywidgets.Button(description='Step', icon='step-forward', tooltip='Step the animation')
        self.pausebutton = ipywidgets.Button(description='Pause', icon='pause', tooltip='Pause the animation',
                                             disabled=True)
        self.resetbutton = ipywidgets.Button(description='Reset', icon='undo', tooltip='Reset the animation')
        self.out = ipywidgets.Output()
        self._lock = threading.RLock()
        self._playing = threading.Event()
        self._thread = None
        self.playbutton.on_click(lambda _: self._play())
        self.stepbutton.on_click(lambda _: self._step())
        self.pausebutton.on_click(lambda _: self._pause())
        self.resetbutton.on_click(lambda _: self._reset())
        ipywidgets.VBox.__init__(self, [ipywidgets.HBox([self.playbutton, self.stepbutton, self.pausebutton,
                                                         self.resetbutton]), self.out])

    def _call(self, fn):
        """Runs a user callback; False (and the error printed) if it raised."""
        if fn is None:
            return True
        try:
            fn()
            return True
        except Exception as e:
            with self.out:
                print("Exception during Playback callback, stopping:", repr(e))
            return False

    def _step(self):
        """One frame: advance, count it, refresh the view. False on an error."""
        with self._lock:
            ok = self._call(self.advance)
            if ok:
                self.frame += 1
                if self.klampt_widget is not None:
                    self.klampt_widget.update()
            return ok

    def _set_playing(self, playing):
        self.playbutton.disabled = playing
        self.stepbutton.disabled = playing
        self.pausebutton.disabled = not playing

    def _run(self):
        import time
        dt = 0.0 if self.framerate is None else 1.0 / self.framerate
        next_time = time.monotonic()
        while self._playing.is_set():
            if self.maxframes is not None and self.frame >= self.maxframes:
                self.frame = 0  # played to the end: the next Play starts over
                break
            if not self._step():
                break
            next_time += dt
            delay = next_time - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        self._playing.clear()
        self._set_playing(False)

    def _play(self):
        import threading
        if self._playing.is_set():
            return
        self._playing.set()
        self._set_playing(True)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _stop_thread(self):
        self._playing.clear()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _pause(self):
        self._stop_thread()
        self._call(self.pause)

    def _reset(self):
        self._stop_thread()
        with self._lock:
            self._call(self.reset)
            self.frame = 0
            if self.klampt_widget is not None:
                self.klampt_widget.update()
