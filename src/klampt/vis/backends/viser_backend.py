"""The ``viser`` backend (``pip install klampt[viser]``): the scene served
to a browser by a `viser <https://viser.studio>`_ server on
``http://127.0.0.1:8080`` (``KLAMPT_VIS_PORT`` picks another port; the next
free one is taken when it is busy; the URL is printed). It works through
an SSH port forward, in Docker and on macOS, where no window can be opened
from a thread.

What the browser gets comes from the same JSON the web viewer reads
(:mod:`klampt.vis._web.serialize`): meshes (terrains as glTF textured with
the checkerboard), point clouds, points, lines, axes and labels are sent
once, and re-sent only when their data or colour changes; a browser starts
at the scene's camera and the scene is lit by its lights
(:class:`SceneLights`); a publisher thread sends the moving nodes' poses
about 30 times a second (at once after ``update()`` / ``unlock()``). Actions and the JSON
GUI become controls of viser's GUI panel; its "Close" button ends
``shown()`` as closing a window would. ``vis.edit`` gives points,
transforms, frames and rigid objects a transform gizmo, and robots and
configurations a slider per joint. Screenshots are rendered offscreen in
this process."""
import math
import os
import threading
import time
import warnings

import numpy as np

from klampt.math import so3

from .._scene import global_lock
from .base import LOOP_PERIOD, Backend
from .. import _lighting
from .._web.serialize import SceneSerializer

DEFAULT_PORT = 8080
REBUILD_PERIOD = 0.1  # full scene comparisons at most 10 times a second
POINT_METRES_PER_PIXEL = 0.004  # viser sizes points in metres, the scene in pixels
# three.js (viser's renderer) divides the light a diffuse surface reflects by
# pi: a light of intensity pi there lights as one of intensity 1 in OpenGL.
LIGHT_UNITS = math.pi
CHECKER_TEXELS = 32  # texels a side of a terrain checker square (three.js filters the texture linearly)


def pose_of_matrix(matrix):
    """(wxyz quaternion, position) of a column-major 4x4 matrix."""
    R = [float(v) for v in matrix[0:3] + matrix[4:7] + matrix[8:11]]
    return tuple(float(v) for v in so3.quaternion(R)), tuple(float(v) for v in matrix[12:15])


def node_path(parent, name):
    """The viser scene path of a node named ``name`` under ``parent``
    (viser separates path components with '/')."""
    return parent + '/' + (str(name).replace('/', '_') or '_')


def _rgb(color):
    """An (r, g, b) uint8 tuple of a 0xRRGGBB int or a 0..1 float sequence."""
    if isinstance(color, int):
        return ((color >> 16) & 255, (color >> 8) & 255, color & 255)
    return tuple(int(round(255 * min(1.0, max(0.0, float(c))))) for c in color[:3])


class _Node:
    """A node sent to the browser: what it was made from, its handle and
    the pose last sent."""

    def __init__(self, signature, handle, pose):
        self.signature = signature
        self.handle = handle
        self.pose = pose


def srgb_to_linear(c):
    """A 0..1 sRGB channel in linear light (three.js turns the colours it
    is given so, glTF material factors are linear already)."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def checker_mesh(vertices, faces, color, checker):
    """A trimesh of a terrain drawn with the scene's checkerboard (the
    ``checker`` entry of the scene JSON) as its texture."""
    import trimesh
    from PIL import Image
    a, b = [int(round(255 * level)) for level in checker['levels']]
    cells = np.arange(2 * CHECKER_TEXELS) // CHECKER_TEXELS
    image = np.where(np.add.outer(cells, cells) % 2 == 0, a, b).astype(np.uint8)
    uv = vertices[:, :2] / (2.0 * float(checker['size']))
    material = trimesh.visual.material.PBRMaterial(
        baseColorFactor=[srgb_to_linear(c / 255.0) for c in color] + [1.0],
        baseColorTexture=Image.fromarray(image).convert('RGB'), metallicFactor=0.0, roughnessFactor=1.0,
        doubleSided=True)
    return trimesh.Trimesh(vertices, faces, visual=trimesh.visual.TextureVisuals(uv=uv, material=material),
                           process=False)


def camera_axes(position, target, up):
    """The camera frame's x (right), y (up) and z (toward the viewer) axes in
    the world, of a camera at ``position`` looking at ``target``."""
    z = np.asarray(position, dtype=float) - np.asarray(target, dtype=float)
    z /= np.linalg.norm(z)
    x = np.cross(np.asarray(up, dtype=float), z)
    x /= np.linalg.norm(x)
    return x, np.cross(z, x), z


class SceneLights:
    """The scene's lights (:mod:`klampt.vis._lighting`) in place of viser's
    own (environment map and default lights): the ambient and world lights
    shared by every browser, the camera-fixed ones made for each browser
    and turned with its camera (three.js lights both sides of viser's
    double-sided meshes).

    A directional light of viser shines from its node's position toward
    the origin, so the node sits at the light's direction."""

    PATH = '/klampt_lights'

    def __init__(self, server):
        self.server = server
        self.lights = _lighting.LIGHTS
        self.camera = ((0.0, -6.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))  # until the scene's arrives
        scene = server.scene
        scene.configure_default_lights(enabled=False, cast_shadow=False)
        scene.configure_environment_map(None)
        scene.add_light_ambient(self.PATH + '/ambient', intensity=_lighting.AMBIENT * LIGHT_UNITS)
        for i, light in enumerate(self.lights):
            if light.frame != 'camera':
                direction = np.asarray(light.direction, dtype=float)
                scene.add_light_directional('%s/world%d' % (self.PATH, i), intensity=light.diffuse * LIGHT_UNITS,
                                            position=tuple(direction / np.linalg.norm(direction)))
        server.on_client_connect(self._connected)

    def _directions(self, camera):
        axes = camera_axes(*camera)
        out = []
        for light in self.lights:
            if light.frame == 'camera':
                d = sum(a * c for a, c in zip(axes, light.direction))
                out.append((light, tuple(d / np.linalg.norm(d))))
        return out

    def _connected(self, client):
        handles = [(light, client.scene.add_light_directional('%s/camera%d' % (self.PATH, i),
                                                              intensity=light.diffuse * LIGHT_UNITS,
                                                              position=d))
                   for i, (light, d) in enumerate(self._directions(self.camera))]

        def moved(camera):
            for (light, handle), (_, d) in zip(handles, self._directions(
                    (camera.position, camera.look_at, camera.up_direction))):
                handle.position = d
        client.camera.on_update(moved)
        # viser connects a client on its first camera message and may run this
        # callback after that message's camera callbacks: place the lights at
        # the camera it reported, or a browser that never moves keeps them at
        # the scene camera's.
        if client.camera.update_timestamp > 0:
            moved(client.camera)


class SceneMirror:
    """Keeps a viser server's scene equal to a VisualizationScene.

    Attributes:
        nodes (dict): viser path -> _Node of everything sent.
        paths (dict): serializer node name -> viser path of the moving nodes.
    """

    def __init__(self, server, lights=None):
        self.server = server
        self.lights = lights
        self.nodes = {}
        self.paths = {}
        self.serializer = None
        self.camera = None
        self.checker = {'nodes': []}

    # -- whole scene
    def rebuild(self, scene, aspect=4.0 / 3.0):
        """Brings the browser's scene up to date: sends new or changed nodes,
        removes the ones gone, moves the rest; the initial camera takes the
        window's ``aspect`` (width / height) to turn the scene's horizontal
        field of view vertical."""
        with global_lock:
            serializer = SceneSerializer(scene)
            data = serializer.build()
        self.checker = data.get('checker', {'nodes': []})
        geometries = {g['uuid']: g['data'] for g in data['geometries']}
        materials = {m['uuid']: m for m in data['materials']}
        seen = set()
        paths = {}
        with self.server.atomic():
            for child in data['object'].get('children', []):
                self._visit(child, '', geometries, materials, seen, paths, False)
            for extra in data['extras']:
                if extra['type'] == 'text' and (extra['position'] is None or len(extra['position']) != 3):
                    continue  # screen text goes to the GUI panel
                self._extra(extra, seen)
            for path in sorted(set(self.nodes) - seen, key=len):  # parents first: they take their children
                if path in self.nodes:
                    self.nodes.pop(path).handle.remove()
                    for p in [p for p in self.nodes if p.startswith(path + '/')]:
                        del self.nodes[p]
            self._set_camera(data['camera'], aspect)
        self.serializer = serializer
        self.paths = paths

    def _visit(self, node, parent, geometries, materials, seen, paths, force):
        if node.get('type') == 'DirectionalLight':
            return
        path = node_path(parent, node['name'])
        seen.add(path)
        paths[node['name']] = path
        pose = pose_of_matrix(node['matrix'])
        visible = node.get('visible', True)
        signature = self._signature(node, geometries, materials) + (node['name'] in self.checker['nodes'],)
        old = self.nodes.get(path)
        if force or old is None or old.signature != signature:
            if old is not None:
                old.handle.remove()  # with its children, which are made again below
                for p in [p for p in self.nodes if p.startswith(path + '/')]:
                    del self.nodes[p]
            handle = self._make(node, path, pose, geometries, materials)
            self.nodes[path] = _Node(signature, handle, pose)
            force = True
        else:
            self._move(old, pose)
        handle = self.nodes[path].handle
        if handle.visible != visible:
            handle.visible = visible
        for child in node.get('children', []):
            self._visit(child, path, geometries, materials, seen, paths, force)

    @staticmethod
    def _signature(node, geometries, materials):
        kind = node.get('type')
        if kind not in ('Mesh', 'Points'):
            return ('Group',)
        g = geometries[node['geometry']]
        m = materials[node['material']]
        index = g.get('index', {}).get('array', ())
        return (kind, hash(tuple(g['attributes']['position']['array'])), hash(tuple(index)), m.get('color'),
                m.get('opacity'))

    def _make(self, node, path, pose, geometries, materials):
        scene = self.server.scene
        wxyz, position = pose
        kind = node.get('type')
        if kind == 'Mesh':
            g = geometries[node['geometry']]
            m = materials[node['material']]
            vertices = np.asarray(g['attributes']['position']['array'], dtype=np.float32).reshape(-1, 3)
            faces = np.asarray(g['index']['array'], dtype=np.uint32).reshape(-1, 3)
            if node['name'] in self.checker['nodes']:
                return scene.add_mesh_trimesh(path, checker_mesh(vertices, faces, _rgb(m['color']), self.checker),
                                              wxyz=wxyz, position=position)
            return scene.add_mesh_simple(path, vertices, faces, color=_rgb(m['color']), opacity=m.get('opacity'),
                                         flat_shading=True, side='double', wxyz=wxyz, position=position)
        if kind == 'Points':
            g = geometries[node['geometry']]
            m = materials[node['material']]
            points = np.asarray(g['attributes']['position']['array'], dtype=np.float32).reshape(-1, 3)
            return scene.add_point_cloud(path, points, colors=_rgb(m['color']), point_size=0.01,
                                         precision='float32', wxyz=wxyz, position=position)
        return scene.add_frame(path, show_axes=False, wxyz=wxyz, position=position)

    def _extra(self, extra, seen):
        path = node_path('', extra['name'])
        seen.add(path)
        signature = repr(sorted(extra.items()))
        old = self.nodes.get(path)
        if old is not None and old.signature == signature:
            return
        if old is not None:
            old.handle.remove()
        scene = self.server.scene
        kind = extra['type']
        if kind == 'points':
            handle = scene.add_point_cloud(path, np.asarray(extra['points'], dtype=np.float32).reshape(-1, 3),
                                           colors=_rgb(extra['color']),
                                           point_size=float(extra['size']) * POINT_METRES_PER_PIXEL,
                                           point_shape='circle', precision='float32')
        elif kind == 'lines':
            pts = np.asarray(extra['points'], dtype=np.float32).reshape(-1, 3)
            segments = np.stack([pts[:-1], pts[1:]], axis=1) if extra['strip'] else pts.reshape(-1, 2, 3)
            handle = scene.add_line_segments(path, segments, colors=_rgb(extra['color']),
                                             thickness=float(extra['width']), thickness_units='screen')
        else:  # text at a world point
            handle = scene.add_label(path, str(extra['text']), position=tuple(float(v) for v in extra['position']),
                                     anchor='bottom-left')
        self.nodes[path] = _Node(signature, handle, None)

    def _set_camera(self, camera, aspect):
        """The camera a browser starts with: the scene's, with the world's z
        up (for viser's orbit controls)."""
        key = repr((camera, aspect))
        if key == self.camera:
            return
        self.camera = key
        initial = self.server.initial_camera
        initial.position = tuple(camera['position'])
        initial.look_at = tuple(camera['target'])
        forward = np.subtract(camera['target'], camera['position'])
        vertical = np.linalg.norm(np.cross(forward, [0.0, 0.0, 1.0])) < 1e-6 * np.linalg.norm(forward)
        initial.up = tuple(camera['up']) if vertical else (0.0, 0.0, 1.0)  # looking straight down (or up): its own
        # viser's fov is vertical (radians), the scene's horizontal (degrees)
        initial.fov = 2.0 * math.atan(math.tan(math.radians(camera['fov']) * 0.5) / aspect)
        if self.lights is not None:
            self.lights.camera = (initial.position, initial.look_at, initial.up)

    # -- motion only
    @staticmethod
    def _move(node, pose):
        if node.pose == pose:
            return
        if node.pose is None or node.pose[0] != pose[0]:
            node.handle.wxyz = pose[0]
        if node.pose is None or node.pose[1] != pose[1]:
            node.handle.position = pose[1]
        node.pose = pose

    def move(self):
        """Sends the poses of the nodes that moved since the last call."""
        if self.serializer is None:
            return
        with global_lock:
            matrices = self.serializer.transforms()
        with self.server.atomic():
            for name, matrix in matrices.items():
                node = self.nodes.get(self.paths.get(name))
                if node is not None:
                    self._move(node, pose_of_matrix(matrix))


class GuiPanel:
    """The window's actions, JSON GUI widgets and screen text as controls
    of viser's GUI panel."""

    def __init__(self, server, window, on_close):
        self.server = server
        self.window = window
        self.on_close = on_close
        self.handles = []
        self.layout = None
        self.text = None
        self.text_handle = None

    def sync(self):
        """Re-makes the controls when actions or widgets were added or
        removed; updates the screen text."""
        window = self.window
        layout = ([(a[1], a[2]) for a in window.actions],
                  [(wid, w['type'], w.get('text'), tuple(w.get('options', ())), w.get('min'), w.get('max'))
                   for wid, w in window.widgets.items()])
        if layout != self.layout:
            self.layout = layout
            for h in self.handles:
                h.remove()
            self.handles = []
            self.text_handle = None
            self.text = None
            gui = self.server.gui
            close = gui.add_button('Close', hint='Ends vis.shown(), as closing a window does')
            close.on_click(lambda _: self.on_close())
            self.handles.append(close)
            for hook, short, key, desc in list(window.actions):
                label = short if key is None else '%s (%s)' % (short, key)
                b = gui.add_button(label, hint=desc or None)
                b.on_click(lambda _, hook=hook: self._action(hook))
                self.handles.append(b)
            for wid, widget in list(window.widgets.items()):
                self.handles += self._widget(gui, wid, widget)
        text = self._screen_text()
        if text != self.text:
            self.text = text
            if self.text_handle is None:
                self.text_handle = self.server.gui.add_markdown(text)
                self.handles.append(self.text_handle)
            else:
                self.text_handle.content = text

    def _action(self, hook):
        with global_lock:
            hook()
        self.window.refresh()

    def _widget(self, gui, wid, widget):
        def set_state(value):
            self.window.set_widget_state(wid, value)
        kind = widget['type']
        label = str(widget.get('text', wid))
        if kind == 'button':
            h = gui.add_button(label)
            h.on_click(lambda _: set_state(None))
            return [h]
        if kind == 'select' and widget.get('multiple'):
            return self._multi_select(gui, widget, label, set_state)
        if kind == 'checkbox':
            h = gui.add_checkbox(label, initial_value=bool(widget.get('state')))
        elif kind == 'select':
            options = [str(o) for o in widget.get('options', [])]
            if not options:
                return []
            by_text = dict(zip(options, widget.get('options', [])))
            state = widget.get('state')
            h = gui.add_dropdown(label, options, initial_value=str(state) if str(state) in by_text else options[0])
            h.on_update(lambda e: set_state(by_text[e.target.value]))
            return [h]
        elif kind == 'slider':
            lo, hi = float(widget.get('min', 0.0)), float(widget.get('max', 1.0))
            value = min(hi, max(lo, float(widget.get('state', lo))))
            h = gui.add_slider(label, min=lo, max=hi, step=(hi - lo) / 100.0 if hi > lo else 1.0,
                               initial_value=value)
        elif kind == 'number':
            h = gui.add_number(label, initial_value=widget.get('state', 0))
        else:
            h = gui.add_text(label, initial_value=str(widget.get('state', '')))
        h.on_update(lambda e: set_state(e.target.value))
        return [h]

    def _multi_select(self, gui, widget, label, set_state):
        folder = gui.add_folder(label)
        chosen = list(widget.get('state') or [])
        with folder:  # removing the folder removes its checkboxes
            for option in widget.get('options', []):
                box = gui.add_checkbox(str(option), initial_value=option in chosen)

                def toggled(e, option=option):
                    current = [o for o in widget.get('options', []) if o in (widget.get('state') or [])]
                    if e.target.value and option not in current:
                        current.append(option)
                    elif not e.target.value and option in current:
                        current.remove(option)
                    set_state([o for o in widget.get('options', []) if o in current])
                box.on_update(toggled)
        return [folder]

    def _screen_text(self):
        lines = []
        with global_lock:
            for app in list(self.window.scene.items.values()):
                pos = app.attributes.get('position')
                if isinstance(app.item, str) and not app.attributes.get('hidden', False) and \
                        (pos is None or len(pos) != 3):
                    lines.append(app.item)
        return '\n\n'.join(lines)


class EditorControls:
    """The editors of a window's items (``vis.edit``) as viser controls:
    a transform gizmo for point and transform posers (a point's without
    rotations), a folder of joint sliders for robot posers."""

    def __init__(self, server, window, changed):
        self.server = server
        self.window = window
        self.changed = changed
        self.controls = {}  # id(app) -> (app, editor, handles)
        self.count = 0

    def sync(self):
        """Adds controls for new editors, removes those of editors gone."""
        with global_lock:
            apps = {id(app): app for app in self.window._editor_apps()}
        for key in list(self.controls):
            app, editor, handles = self.controls[key]
            if key not in apps or apps[key].editor is not editor:
                for h in handles:
                    h.remove()
                del self.controls[key]
        for key, app in apps.items():
            if key not in self.controls:
                self.controls[key] = (app, app.editor, self._make(app))

    def _make(self, app):
        editor = app.editor
        kind = {c.__name__ for c in type(editor).__mro__}
        self.count += 1
        path = '/klampt_edit/%d' % self.count
        with global_lock:
            if 'RobotPoser' in kind:
                return self._joint_sliders(app, editor)
            if 'PointPoser' in kind:
                gizmo = self.server.scene.add_transform_controls(path, scale=0.3, disable_rotations=True,
                                                                 position=tuple(editor.get()))
            elif 'TransformPoser' in kind:
                R, t = editor.get()
                gizmo = self.server.scene.add_transform_controls(path, scale=0.3, wxyz=tuple(so3.quaternion(R)),
                                                                 position=tuple(t))
            else:
                return []
        gizmo.on_update(lambda _: self._moved(app, editor, gizmo, 'PointPoser' in kind))
        return [gizmo]

    def _moved(self, app, editor, gizmo, point):
        with global_lock:
            if point:
                editor.set([float(v) for v in gizmo.position])
            else:
                editor.set(so3.from_quaternion([float(v) for v in gizmo.wxyz]), [float(v) for v in gizmo.position])
            app.update_editor(False)
            app.markChanged(config=True, appearance=False)
        self.changed()

    def _joint_sliders(self, app, editor):
        robot = editor._robot
        qmin, qmax = robot.getJointLimits()
        q = editor.get()
        gui = self.server.gui
        folder = gui.add_folder('Edit %s' % (app.name if isinstance(app.name, str) else robot.getName()))
        with folder:  # removing the folder removes the sliders
            for i in range(len(q)):
                lo, hi = qmin[i], qmax[i]
                if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
                    lo, hi = q[i] - math.pi, q[i] + math.pi
                if hi - lo < 1e-9:
                    continue  # a fixed joint
                slider = gui.add_slider(robot.link(i).getName(), min=lo, max=hi, step=(hi - lo) / 200.0,
                                        initial_value=min(hi, max(lo, q[i])))

                def moved(e, i=i):
                    with global_lock:
                        config = editor.get()
                        config[i] = float(e.target.value)
                        editor.set(config)
                        app.update_editor(False)
                        app.markChanged(config=True, appearance=False)
                    self.changed()
                slider.on_update(moved)
        return [folder]


class ViserBackend(Backend):
    """The scene in a browser through a viser server."""

    name = 'viser'

    def __init__(self):
        import viser  # noqa: F401  (ImportError: pip install klampt[viser])
        self.server = None
        self.url = None
        self.window = None
        self.mirror = None
        self.lights = None
        self.panel = None
        self.editors = None
        self._thread = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._scene_dirty = True
        self._gui_dirty = True

    # -- the server and its publisher thread
    def _start(self, window):
        if self.server is None:
            import viser
            try:
                port = int(os.environ.get('KLAMPT_VIS_PORT', DEFAULT_PORT))
            except ValueError:
                raise ValueError("KLAMPT_VIS_PORT=%r is not a port number" % os.environ['KLAMPT_VIS_PORT'])
            self.server = viser.ViserServer(host='127.0.0.1', port=port, label=window.title, verbose=False)
            self.url = 'http://127.0.0.1:%d' % self.server.get_port()
            self.lights = SceneLights(self.server)
            print("klampt.vis: viser serving the scene on %s" % self.url, flush=True)
        if window is not self.window:
            self.window = window
            self.mirror = SceneMirror(self.server, self.lights)
            if self.panel is not None:
                for h in self.panel.handles:
                    h.remove()
            self.panel = GuiPanel(self.server, window, lambda: self._closed(window))
            if self.editors is not None:
                for _, _, handles in self.editors.controls.values():
                    for h in handles:
                        h.remove()
            self.editors = EditorControls(self.server, window, lambda: self.scene_changed(window))
            self._scene_dirty = self._gui_dirty = True
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._publish, name='klampt.vis viser', daemon=True)
            self._thread.start()
        self._wake.set()

    def _closed(self, window):
        window.closed = True
        window.shown = False

    def _publish(self):
        last_rebuild = 0.0
        while not self._stop.is_set():
            self._wake.wait(LOOP_PERIOD)
            self._wake.clear()
            if self._stop.is_set():
                break
            window, mirror, panel = self.window, self.mirror, self.panel
            try:
                with global_lock:
                    if window.shown:
                        window.scene.updateTime()
                        window.idle()
                now = time.time()
                if self._scene_dirty and now - last_rebuild >= REBUILD_PERIOD:
                    self._scene_dirty = False
                    last_rebuild = now
                    mirror.rebuild(window.scene, float(window.width) / max(1, window.height))
                else:
                    mirror.move()
                if self._gui_dirty:
                    self._gui_dirty = False
                    panel.sync()
                    self.editors.sync()
            except Exception as e:  # keep serving; the next change retries
                warnings.warn("klampt.vis viser: %r" % (e,))
                time.sleep(LOOP_PERIOD)

    # -- window lifecycle
    def show(self, window, display=True):
        if display:
            window.shown = True
            window.closed = False
            window.shown_since = time.time()
            self._start(window)
        else:
            window.shown = False

    def shown(self, window):
        return window.shown and not window.closed and self.server is not None

    def _wait_closed(self, window, duration=None):
        end = None if duration is None else time.time() + duration
        while self.shown(window) and (end is None or time.time() < end):
            time.sleep(LOOP_PERIOD)

    def spin(self, window, duration):
        self.show(window, True)
        self._wait_closed(window, duration)
        window.shown = False

    def dialog(self, window):
        """Serves the window until its Close button is pressed (or kill())."""
        self.show(window, True)
        self._wait_closed(window)
        window.shown = False

    def run(self, window):
        self.dialog(window)

    def kill(self, windows):
        for w in windows:
            w.shown = False
        self._stop.set()
        self._wake.set()
        if self._thread is not None and threading.current_thread() is not self._thread:
            self._thread.join(5.0)
        self._thread = None
        if self.server is not None:
            self.server.stop()
        self.server = None
        self.window = self.mirror = self.lights = self.panel = self.editors = None

    def native_window(self, window):
        """The ViserServer once shown (else the Window)."""
        return self.server if self.server is not None else window

    # -- notifications
    def scene_changed(self, window):
        self._scene_dirty = True
        self._gui_dirty = True  # screen text lives in the panel
        self._wake.set()

    def camera_changed(self, window):
        self.scene_changed(window)

    def update(self, window):
        self._wake.set()

    def unlocked(self, window):
        self._wake.set()

    def animation_stepped(self, window):
        self._wake.set()

    def actions_changed(self, window):
        self._gui_dirty = True
        self._wake.set()

    def gui_changed(self, window):
        self._gui_dirty = True
        self._wake.set()

    def editors_changed(self, window, app):
        self._gui_dirty = True
        self._wake.set()

    def title_changed(self, window):
        if self.server is not None and window is self.window:
            self.server.gui.set_panel_label(window.title)
