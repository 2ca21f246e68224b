"""The ``Rerun`` backend (``vis.init('rerun')``, ``pip install
klampt[rerun]``): the scene is logged to a `Rerun <https://rerun.io>`_
recording with :mod:`klampt.io.rerun_convert`, from ``show()`` on.

Where the recording goes is chosen at ``show()`` by ``KLAMPT_VIS_RERUN``:
``spawn`` (a Rerun viewer process, the default with a display), ``serve``
(a Rerun gRPC server on 127.0.0.1, port ``KLAMPT_VIS_PORT`` or 9876 or the
next free one, that viewers connect to, from another machine through an
SSH port forward; its address is printed), a
``rerun+http://...`` address (an existing viewer or server), or a file
name ending in ``.rrd`` (the default without a display:
``klampt_vis.rrd`` in the working directory). ``nativeWindow()`` gives
the ``rerun.RecordingStream``.

Entities (in a right-handed, z-up world): each item under its name (a
world's robots, objects and terrains as ``<name>/<robot>/<link>``,
``<name>/<object>``, ``<name>/<terrain>``, see
:mod:`klampt.io.rerun_convert`); screen text in the text document
``text``. Geometry is static and re-sent when an item's
attributes (colour, hidden, ...) change; transforms are logged on the
``frame`` timeline whenever something moved: at ``show()``,
``update()``, ``unlock()``, ``stepAnimation``, and each ``shown()`` /
``spin`` / ``loop`` step (animations play then). Plots (``vis.addPlot``)
become Rerun time series on the ``plot_time`` timeline. A blueprint
starts the viewer's 3D view at the scene's camera, on its background
colour (sent again when they change). Screenshots are rendered
offscreen in this process. Rerun has no editing, actions or widgets: they
are kept in the scene but not shown."""
import os
import time
import uuid
import warnings

from .._scene import global_lock
from .base import LOOP_PERIOD, Backend, headless_timeout
from klampt.math import so3
from klampt.model.trajectory import Trajectory
from .._types import objectToVisType
from .._web.serialize import _trajectory_points, camera_json
from .._context import has_display

DEFAULT_FILE = 'klampt_vis.rrd'
DEFAULT_PORT = 9876  # Rerun's
SERVER_START_TIMEOUT = 20.0
TEXT_ENTITY = 'text'


def _names(item):
    return {c.__name__ for c in type(item).__mro__}


def _robot_of(attributes, world):
    if world is None or world.numRobots() == 0:
        raise ValueError("a configuration is drawn on a robot of the world: add the world first")
    return world.robot(int(attributes.get('robot', 0)))


def _color(attributes):
    c = attributes.get('color')
    return None if c is None else [float(v) for v in c]


def log_rr(name: str, item, attributes: dict, world, *, recording=None):
    """Logs one visualization item at entity ``name`` with its vis
    attributes ('color', 'hide_label', 'size', 'length', 'width',
    'robot', 'position', 'appearance'): worlds, robots, rigid objects,
    terrains, geometries, trajectories, points, transforms, text, and
    robot configurations (a ghost robot at the configuration, on robot
    ``attributes['robot']`` of ``world``). ValueError for other items."""
    import rerun as rr
    from klampt.io import rerun_convert as rc  # lazy: it imports rerun and numpy
    log = rr.log if recording is None else recording.log
    names = _names(item)
    hide = bool(attributes.get('hide_label', False))
    color = _color(attributes)
    if 'WorldModel' in names:
        rc.log_rr_world(item, name, hide, recording=recording)
    elif 'RobotModel' in names:
        rc.log_rr_robot(item, name, hide, color, recording=recording)
    elif 'RigidObjectModel' in names:
        rc.log_rr_rigid_object(item, name, hide, color, recording=recording)
    elif 'TerrainModel' in names:
        rc.log_rr_terrain(item, name, hide, color, recording=recording)
    elif names & {'Geometry3D', 'TriangleMesh', 'PointCloud', 'GeometricPrimitive', 'ConvexHull', 'VolumeGrid'}:
        rc.log_rr_geometry(item, name, attributes.get('appearance'), hide, color, recording=recording)
    elif isinstance(item, str):
        pos = attributes.get('position')
        if pos is not None and len(pos) == 3:
            log(name, rr.Points3D([[float(v) for v in pos]], labels=[item], colors=[color or [0, 0, 0, 1]]),
                static=True)
        else:
            log(name, rr.TextDocument(item), static=True)
    elif isinstance(item, Trajectory):
        points = _trajectory_points(item, world, attributes)
        if points:
            c = color or [1, 0.5, 0, 1]
            log(name, rr.LineStrips3D([points], colors=[c], labels=None if hide else [name],
                                      radii=rr.Radius.ui_points(0.5 * float(attributes.get('width', 3)))),
                static=True)
    else:
        itype = attributes.get('type') or objectToVisType(item, world)
        if itype in ('Vector3', 'Point'):
            log(name, rr.Points3D([[0.0, 0.0, 0.0]], colors=[color or [0, 0, 0, 1]],
                                  radii=rr.Radius.ui_points(0.5 * float(attributes.get('size', 5.0))),
                                  labels=None if hide else [name]), static=True)
            rc.update_rr_transform((so3.identity(), [float(v) for v in item]), name, recording=recording)
        elif itype == 'RigidTransform':
            rc.log_rr_transform(item, name, float(attributes.get('length', 0.1)), hide, recording=recording)
        elif itype == 'Config':
            robot = _robot_of(attributes, world)
            saved = robot.getConfig()
            try:
                robot.setConfig(list(item))
                rc.log_rr_robot(robot, name, True, color, recording=recording)
            finally:
                robot.setConfig(saved)
        elif itype == 'Configs':
            robot = _robot_of(attributes, world)
            saved = robot.getConfig()
            try:
                for i, q in enumerate(item):
                    robot.setConfig(list(q))
                    rc.log_rr_robot(robot, '%s/%d' % (name, i), True, color, recording=recording)
            finally:
                robot.setConfig(saved)
        else:
            raise ValueError("Rerun cannot show item %r of type %s" % (name, itype))


def update_config_rr(name: str, item, attributes: dict, world, *, recording=None):
    """Logs the current transforms of an item logged by :func:`log_rr`
    (robot links, objects, geometries, points, transforms, the ghost
    robot of a configuration); items without a pose log nothing."""
    from klampt.io import rerun_convert as rc  # lazy: it imports rerun and numpy
    names = _names(item)
    if 'WorldModel' in names:
        rc.update_rr_world(item, name, recording=recording)
    elif 'RobotModel' in names:
        rc.update_rr_robot(item, name, recording=recording)
    elif 'RigidObjectModel' in names:
        rc.update_rr_rigid_object(item, name, recording=recording)
    elif 'Geometry3D' in names:
        rc.update_rr_transform(item.getCurrentTransform(), name, recording=recording)
    elif isinstance(item, (list, tuple)) and not isinstance(item, str):
        try:
            itype = attributes.get('type') or objectToVisType(item, world)
        except Exception:
            return
        if itype in ('Vector3', 'Point'):
            rc.update_rr_transform((so3.identity(), [float(v) for v in item]), name, recording=recording)
        elif itype == 'RigidTransform':
            rc.update_rr_transform(item, name, recording=recording)
        elif itype == 'Config':
            robot = _robot_of(attributes, world)
            saved = robot.getConfig()
            try:
                robot.setConfig(list(item))
                rc.update_rr_robot(robot, name, recording=recording)
            finally:
                robot.setConfig(saved)


class _Tracked:
    """A recording that remembers the entities given static data (and the
    archetype each got), to clear them when their item goes."""

    def __init__(self, recording):
        self.recording = recording
        self.static = {}

    def log(self, path, archetype, static=False):
        if static:
            self.static[path.strip('/')] = type(archetype)
        self.recording.log(path, archetype, static=static)


def _state(app):
    """What an item's geometry and colours were logged from: when it
    changes, the item is logged again."""
    subs = tuple((key, _state(sub)) for key, sub in sorted(app.subAppearances.items(), key=lambda kv: repr(kv[0])))
    return (id(app.item), repr(sorted(app.attributes.flatten().items(), key=lambda kv: kv[0])),
            app.useDefaultAppearance, id(app.customAppearance), app.version if not app.animation else None, subs)


def _pose(app):
    """What an item's transforms are computed from (changes when it moves)."""
    item = app.item
    names = _names(item)
    if 'WorldModel' in names:
        return (tuple(tuple(item.robot(i).getConfig()) for i in range(item.numRobots())),
                tuple(repr(item.rigidObject(i).getTransform()) for i in range(item.numRigidObjects())))
    if 'RobotModel' in names:
        return tuple(item.getConfig())
    if 'RigidObjectModel' in names:
        return repr(item.getTransform())
    if 'Geometry3D' in names:
        return repr(item.getCurrentTransform())
    return repr(item)


class KlamptRerunAdaptor:
    """Mirrors a VisualizationScene into a Rerun recording: an item's
    static data when it is added or its attributes change (and cleared
    when it goes or is hidden), its transforms on the ``frame`` timeline
    when it moves.

    Attributes:
        recording (rerun.RecordingStream): where the scene goes.
        frame (int): the last frame logged.
    """

    def __init__(self, recording):
        import rerun as rr
        self.recording = recording
        recording.log('/', rr.ViewCoordinates.RIGHT_HAND_Z_UP, static=True)  # Klamp't's world is z-up
        self.frame = 0
        self.logged = {}  # item name -> (state, {entity: archetype class})
        self.poses = {}  # item name -> pose last logged
        self.text = ''
        self.series = {}  # plot trace entity -> time of the last sample sent
        self.view = None  # the camera and background last sent in the blueprint
        self.warned = set()

    def _clear(self, entities):
        """Empties the static data of {entity: archetype class}."""
        for path, cls in entities.items():
            self.recording.log(path, cls.cleared(), static=True)

    def clear_all(self):
        """Empties everything logged (the window is no longer mirrored)."""
        for name in list(self.logged):
            self._clear(self.logged.pop(name)[1])
        self.poses = {}

    def _log_item(self, name, app, world, tracked):
        from klampt.io import rerun_convert as rc  # lazy: it imports rerun and numpy
        item = app.item
        if 'WorldModel' not in _names(item):
            log_rr(name, item, dict(app.attributes.flatten(), appearance=app.customAppearance), world,
                   recording=tracked)
            return
        import rerun as rr
        entity_names = rc.world_entity_names(item)
        hide = bool(app.attributes.get('hide_label', False))
        for (kind, index), sub in app.subAppearances.items():
            if sub.attributes.get('hidden', False):
                continue
            path = name + '/' + rr.escape_entity_path_part(entity_names[(kind, index)])
            color = None if sub.useDefaultAppearance else _color(sub.attributes)
            if kind == 'Robot':
                robot = item.robot(index)
                for (_, j), link_app in sub.subAppearances.items():
                    link = robot.link(j)
                    link_path = path + '/' + rr.escape_entity_path_part(link.getName())
                    if not link_app.attributes.get('hidden', False):
                        link_color = color if link_app.useDefaultAppearance else _color(link_app.attributes)
                        rc.log_rr_geometry(link.geometry(), link_path, link.appearance(), True, link_color,
                                           recording=tracked)
                    rc.update_rr_transform(link.getTransform(), link_path, recording=tracked)
            else:
                element = item.terrain(index) if kind == 'Terrain' else item.rigidObject(index)
                rc.log_rr_geometry(element.geometry(), path, element.appearance(), hide, color, recording=tracked)
                if kind == 'RigidObject':
                    rc.update_rr_transform(element.getTransform(), path, recording=tracked)

    def _log_plot(self, name, plot):
        """Sends a plot's new samples as Rerun scalars, one series per
        trace at ``name/<trace>``, on the ``plot_time`` timeline (scene
        seconds)."""
        import rerun as rr
        for label, color, trace in plot.channels():
            path = name + '/' + rr.escape_entity_path_part(label)
            if path not in self.series:
                self.recording.log(path, rr.SeriesLines(colors=[list(color)], names=[label]), static=True)
                self.series[path] = -float('inf')
            new = [(t, v) for t, v in trace if t > self.series[path]]
            if new:
                self.recording.send_columns(path, indexes=[rr.TimeColumn('plot_time', duration=[t for t, _ in new])],
                                            columns=rr.Scalars.columns(scalars=[v for _, v in new]))
                self.series[path] = new[-1][0]

    def _send_view(self, scene, title):
        """Sends a blueprint whose 3D view starts at the scene's camera,
        on its background colour, when they changed (other views: Rerun's
        own choice)."""
        import rerun.blueprint as rrb
        cam = camera_json(scene.view)
        background = [int(round(255 * min(1.0, max(0.0, float(c))))) for c in scene.backgroundColor[:3]]
        view = (tuple(cam['position']), tuple(cam['target']), tuple(cam['up']), tuple(background), title)
        if view == self.view:
            return
        self.view = view
        eye = rrb.EyeControls3D(position=cam['position'], look_target=cam['target'], eye_up=cam['up'])
        self.recording.send_blueprint(rrb.Blueprint(
            rrb.Spatial3DView(origin='/', name=title, background=background, eye_controls=eye), auto_views=True))

    def sync(self, scene, title="Klamp't visualizer"):
        """Logs the items added or changed since the last call (their
        static data), clears those removed or hidden, logs the transforms
        of what moved at the next frame, and the view (named ``title``)
        when the camera or background changed. Call with the scene lock
        held."""
        import rerun as rr
        self.frame += 1
        self.recording.set_time('frame', sequence=self.frame)
        world = scene.world()
        apps = {}
        screen_text = []
        for key, app in list(scene.items.items()):
            if isinstance(app.item, str) and (app.attributes.get('position') is None
                                              or len(app.attributes.get('position')) != 3):
                if not app.attributes.get('hidden', False):
                    screen_text.append(app.item)
                continue
            if app.attributes.get('hidden', False):
                continue
            if 'VisPlot' in _names(app.item):
                self._log_plot(rr.escape_entity_path_part(str(key)), app.item)
                continue
            apps[rr.escape_entity_path_part(str(key))] = app
        for name in list(self.logged):
            if name not in apps:
                self._clear(self.logged.pop(name)[1])
                self.poses.pop(name, None)
        for app in apps.values():
            app.swapDrawConfig()
        try:
            for name, app in apps.items():
                state = _state(app)
                old = self.logged.get(name)
                if old is None or old[0] != state:
                    tracked = _Tracked(self.recording)
                    try:
                        self._log_item(name, app, world, tracked)
                    except ValueError as e:
                        if name not in self.warned:
                            self.warned.add(name)
                            warnings.warn("klampt.vis Rerun: %s" % e)
                    if old is not None:
                        self._clear({p: c for p, c in old[1].items() if tracked.static.get(p) is not c})
                    self.logged[name] = (state, tracked.static)
                    self.poses[name] = _pose(app)
                    continue
                pose = _pose(app)
                if pose != self.poses.get(name):
                    self.poses[name] = pose
                    update_config_rr(name, app.item, app.attributes.flatten(), world, recording=self.recording)
        finally:
            for app in apps.values():
                app.swapDrawConfig()
        self._send_view(scene, title)
        text = '\n\n'.join(screen_text)
        if text != self.text:
            self.text = text
            self.recording.log(TEXT_ENTITY, rr.TextDocument(text), static=True)


def _port():
    """KLAMPT_VIS_PORT, else Rerun's 9876; the next free one when busy."""
    import socket
    try:
        port = int(os.environ.get('KLAMPT_VIS_PORT', DEFAULT_PORT))
    except ValueError:
        raise ValueError("KLAMPT_VIS_PORT=%r is not a port number" % os.environ['KLAMPT_VIS_PORT'])
    for candidate in (port, 0):
        with socket.socket() as s:
            try:
                s.bind(('127.0.0.1', candidate))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError("no free port on 127.0.0.1")


def rerun_command():
    """The path of rerun-sdk's ``rerun`` program: the binary itself (the
    ``rerun`` script on PATH runs it as a child, which would outlive a
    terminated script), else ``rerun`` on PATH."""
    import importlib.util
    import shutil
    spec = importlib.util.find_spec('rerun_cli')
    if spec is not None and spec.origin:
        binary = os.path.join(os.path.dirname(spec.origin), 'rerun')
        if os.path.isfile(binary):
            return binary
    found = shutil.which('rerun')
    if found is None:
        raise RuntimeError("rerun-sdk's 'rerun' program is not installed (pip install klampt[rerun])")
    return found


def serve_on_loopback():
    """A Rerun gRPC proxy (``rerun --serve-grpc``) on 127.0.0.1, where
    viewers connect (from another machine through an SSH port forward):
    (process, address)."""
    import socket
    import subprocess
    port = _port()
    process = subprocess.Popen([rerun_command(), '--serve-grpc', '--bind', '127.0.0.1', '--port', str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + SERVER_START_TIMEOUT
    while True:
        with socket.socket() as s:
            if s.connect_ex(('127.0.0.1', port)) == 0:
                return process, 'rerun+http://127.0.0.1:%d/proxy' % port
        if process.poll() is not None or time.time() > deadline:
            process.kill()
            process.wait()
            raise RuntimeError("the Rerun server (rerun --serve-grpc on 127.0.0.1:%d) did not start" % port)
        time.sleep(0.05)


def open_recording(title):
    """(recording, server process or None): a new RecordingStream sent
    where ``KLAMPT_VIS_RERUN`` says (see the module's description); prints
    where."""
    import rerun as rr
    spec = os.environ.get('KLAMPT_VIS_RERUN') or ('spawn' if has_display() else DEFAULT_FILE)
    if not (spec in ('spawn', 'serve') or spec.startswith('rerun+http') or spec.endswith('.rrd')):
        raise ValueError("KLAMPT_VIS_RERUN=%r: expected 'spawn', 'serve', a rerun+http:// address or a file "
                         "name ending in .rrd" % spec)
    recording = rr.RecordingStream('klampt', recording_id=str(uuid.uuid4()))
    recording.send_recording_name(title)
    server = None
    if spec == 'spawn':
        recording.spawn()
        print("klampt.vis: Rerun viewer spawned", flush=True)
    elif spec == 'serve':
        server, address = serve_on_loopback()
        recording.connect_grpc(address)
        print("klampt.vis: Rerun recording served on %s (rerun %s opens it)" % (address, address), flush=True)
    elif spec.startswith('rerun+http'):
        recording.connect_grpc(spec)
        print("klampt.vis: Rerun recording sent to %s" % spec, flush=True)
    else:
        path = os.path.abspath(spec)
        recording.save(path)
        print("klampt.vis: Rerun recording saved to %s" % path, flush=True)
    return recording, server


class RerunWindowManager(Backend):
    """The ``Rerun`` backend: the current window's scene logged to a Rerun
    recording (one recording for the backend's life; ``kill()`` closes it,
    finishing an .rrd file, and stops the server of ``serve``)."""

    name = 'Rerun'

    def __init__(self):
        try:
            import rerun  # noqa: F401
        except ImportError as e:
            raise ImportError("the Rerun backend needs rerun-sdk (pip install klampt[rerun]): %s" % e) from e
        self.recording = None
        self.server = None
        self.adaptor = None
        self.window = None

    def _publish(self, window):
        if self.adaptor is None or window is not self.window:
            return
        with global_lock:
            if window.shown:
                window.scene.updateTime()
            self.adaptor.sync(window.scene, window.title)

    # -- window lifecycle
    def show(self, window, display=True):
        if not display:
            window.shown = False
            return
        if self.recording is None:
            self.recording, self.server = open_recording(window.title)
        if window is not self.window:
            if self.adaptor is not None:
                with global_lock:
                    self.adaptor.clear_all()
            self.window = window
            self.adaptor = KlamptRerunAdaptor(self.recording)
        if not window.shown:
            window.shown_since = time.time()
        window.shown = True
        window.closed = False
        self._publish(window)

    def shown(self, window):
        alive = super().shown(window)
        if alive:
            self._publish(window)
        return alive

    def spin(self, window, duration):
        self.show(window, True)
        timeout = headless_timeout()
        end = time.time() + (duration if timeout is None else min(duration, timeout))
        while window.shown and time.time() < end:
            window.idle()
            self._publish(window)
            time.sleep(min(LOOP_PERIOD, max(0.0, end - time.time())))
        window.shown = False

    def dialog(self, window):
        """Logs the scene and returns (the viewer is another process)."""
        self.show(window, True)
        self.flush()
        window.shown = False

    def run(self, window):
        self.dialog(window)

    def flush(self):
        """Waits until what was logged reached the sink."""
        if self.recording is not None:
            self.recording.flush()

    def kill(self, windows):
        for w in windows:
            w.shown = False
        if self.recording is not None:
            self.recording.flush()
            self.recording.disconnect()
        if self.server is not None:
            self.server.terminate()
            try:
                self.server.wait(5.0)
            except Exception:
                self.server.kill()
                self.server.wait()
        self.recording = self.server = self.adaptor = self.window = None

    def native_window(self, window):
        """The rerun.RecordingStream once shown (else the Window)."""
        return self.recording if self.recording is not None else window

    # -- notifications
    def scene_changed(self, window):
        if window.shown:
            self._publish(window)

    def update(self, window):
        self._publish(window)

    def unlocked(self, window):
        self._publish(window)

    def animation_stepped(self, window):
        self._publish(window)

    def camera_changed(self, window):
        self._publish(window)
