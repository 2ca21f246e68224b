"""The scene model as the web viewer reads it, and per-frame updates: the
messages of :mod:`.protocol` (a :class:`~.protocol.Scene` and
:data:`~.protocol.Transforms`), where each field is described. Node names
are made unique (``name``, ``name#2``, ...) so every node can be updated by
name."""
import math

from klampt.math import se3, so3, vectorops

from ... import _threejs
from ..._render_state import render_state
from .. import _lighting
from .._scene import VisualizationScene
from .._render.geometry import TERRAIN_CHECKER_LEVELS, TERRAIN_CHECKER_SIZE

_IDENTITY = (so3.identity(), [0.0, 0.0, 0.0])


def _names(item):
    return {c.__name__ for c in type(item).__mro__}


def _rgba(color, default=(0.5, 0.5, 0.5, 1.0)):
    if color is None:
        return list(default)
    c = [float(v) for v in color]
    return c + [1.0] * (4 - len(c))


class _Names:
    """Unique node names, in the order nodes are made."""

    def __init__(self):
        self.used = {}

    def unique(self, name):
        name = str(name)
        n = self.used.get(name, 0) + 1
        self.used[name] = n
        return name if n == 1 else '%s#%d' % (name, n)


class SceneSerializer:
    """Builds the viewer's JSON from a VisualizationScene; remembers how to
    recompute each moving node's matrix for :meth:`transforms`."""

    def __init__(self, scene):
        self.scene = scene
        self.builder = _threejs._SceneBuilder()
        self.names = _Names()
        self.movers = []  # (node name, function returning the se3 matrix)
        self.checkered = []  # names of the terrain nodes drawn with the checkerboard

    # -- nodes
    def _body(self, name, body, transform_fn, color=None):
        node = self.builder.body_node(name, body, transform_fn())
        if color is not None and 'material' in node:
            for m in self.builder.materials:
                if m['uuid'] == node['material']:
                    m['color'] = _threejs._color_int(color)
                    if color[3] < 1:
                        m['opacity'] = color[3]
                        m['transparent'] = True
        self.movers.append((name, transform_fn))
        return node

    def _robot(self, app, robot):
        names = {}

        def visit(link_name, link, T):
            unique = self.names.unique(link_name)
            names[link.getIndex()] = unique
            sub = app.subAppearances.get(('Link', link.getIndex()))
            color = None
            if sub is not None and not sub.useDefaultAppearance and 'color' in sub.attributes:
                color = _rgba(sub.attributes['color'])

            def relative(link=link):
                p = link.getParent()
                if p < 0:
                    return link.getTransform()
                return se3.mul(se3.inv(robot.link(p).getTransform()), link.getTransform())
            return self._body(unique, link, relative, color)
        children = _threejs._robot_nodes(robot, visit)
        if sub_hidden(app):
            for c in children:
                c['visible'] = False
        return {'name': self.names.unique(robot.getName()), 'type': 'Group',
                'matrix': _threejs._matrix(_IDENTITY), 'uuid': _threejs._uuid(), 'children': children}

    def _element(self, app, element, is_terrain=False):
        color = None
        if not app.useDefaultAppearance and 'color' in app.attributes:
            color = _rgba(app.attributes['color'])
        name = self.names.unique(element.getName())
        fn = (lambda: _IDENTITY) if is_terrain else element.getTransform
        node = self._body(name, element, fn, color)
        if is_terrain and node.get('type') == 'Mesh':
            source = app.customAppearance if app.customAppearance is not None else element.appearance()
            if render_state(source).texture is None:
                self.checkered.append(name)
        if app.attributes.get('hidden', False):
            node['visible'] = False
        return node

    def _world(self, app, world):
        children = []
        for key, sub in app.subAppearances.items():
            kind, index = key
            if kind == 'Robot':
                node = self._robot(sub, world.robot(index))
                if sub.attributes.get('hidden', False):
                    node['visible'] = False
            elif kind == 'RigidObject':
                node = self._element(sub, world.rigidObject(index))
            else:
                node = self._element(sub, world.terrain(index), is_terrain=True)
            children.append(node)
        return children

    def _geometry_item(self, app):
        from klampt import Geometry3D
        item = app.item
        geom = item if 'Geometry3D' in _names(item) else Geometry3D(item)

        class _Body:
            def __init__(self, g, color):
                self.g = g
                from klampt import Appearance
                self.a = Appearance()
                self.a.setColor(*color)

            def geometry(self):
                return self.g

            def appearance(self):
                return self.a
        color = _rgba(app.attributes.get('color'))
        name = self.names.unique(app.name)
        return self._body(name, _Body(geom, color), geom.getCurrentTransform)

    # -- extras
    def _extras(self, app, out):
        """Appends the item's non-mesh drawing (points, lines, axes, text)."""
        from klampt.model.trajectory import Trajectory
        from .._types import objectToVisType
        item = app.item
        a = app.attributes
        label = None if a.get('hide_label', False) else a.get('label')
        name = str(app.name)
        if a.get('hidden', False):
            return
        if isinstance(item, str):
            pos = a.get('position')
            out.append({'type': 'text', 'name': name, 'text': item, 'position': list(pos) if pos is not None
                        else None, 'color': _rgba(a.get('color'), (0, 0, 0, 1)), 'size': a.get('size', 12)})
            return
        if isinstance(item, Trajectory):
            pts = _trajectory_points(item, self.scene.world(), a)
            if pts:
                out.append({'type': 'lines', 'name': name, 'points': pts, 'color': _rgba(a.get('color'),
                                                                                        (1, 0.5, 0, 1)),
                            'width': a.get('width', 3), 'strip': True})
                out.append({'type': 'points', 'name': name + ':milestones', 'points': pts,
                            'color': _rgba(a.get('pointColor') or [0.75 * c for c in _rgba(a.get('color'), (1, 0.5, 0, 1))[:3]] + [1]),
                            'size': a.get('pointSize') or a.get('width', 3) + 2})
                if label:
                    out.append({'type': 'text', 'name': name + ':label', 'text': label, 'position': pts[0],
                                'color': [0, 0, 0, 1], 'size': 12})
            return
        try:
            itype = a.get('type') or objectToVisType(item, self.scene.world())
        except Exception:
            return
        if itype == 'Vector3':
            p = [float(v) for v in item]
            out.append({'type': 'points', 'name': name, 'points': [p], 'color': _rgba(a.get('color'), (0, 0, 0, 1)),
                        'size': a.get('size', 5.0)})
            if label:
                out.append({'type': 'text', 'name': name + ':label', 'text': label, 'position': p,
                            'color': [0, 0, 0, 1], 'size': 12})
        elif itype == 'RigidTransform':
            R, t = item
            L = float(a.get('length', 0.1))
            for axis, color in zip(range(3), ((1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1))):
                tip = vectorops.madd(t, R[3 * axis:3 * axis + 3], L)
                out.append({'type': 'lines', 'name': '%s:%s' % (name, 'xyz'[axis]), 'points': [list(t), tip],
                            'color': list(color), 'width': 2, 'strip': False})
            if label:
                out.append({'type': 'text', 'name': name + ':label', 'text': label, 'position': list(t),
                            'color': [0, 0, 0, 1], 'size': 12})
        elif itype == 'Configs' and item and len(item[0]) in (2, 3):
            pts = [list(p) + [0.0] * (3 - len(p)) for p in item]
            out.append({'type': 'lines', 'name': name, 'points': pts, 'color': _rgba(a.get('color'), (1, 0.5, 0, 1)),
                        'width': a.get('width', 3), 'strip': True})

    def build(self):
        """The viewer's JSON dict for the scene as it is now (a
        :class:`~.protocol.Scene`)."""
        self.checkered = []
        children = []
        extras = []
        for app in list(self.scene.items.values()):
            item = app.item
            names = _names(item)
            if app.attributes.get('hidden', False) and 'WorldModel' not in names:
                continue
            app.swapDrawConfig()
            try:
                if 'WorldModel' in names:
                    nodes = self._world(app, item)
                    if app.attributes.get('hidden', False):
                        for n in nodes:
                            n['visible'] = False
                    children += nodes
                elif 'RobotModel' in names:
                    children.append(self._robot(app, item))
                elif names & {'RigidObjectModel'}:
                    children.append(self._element(app, item))
                elif names & {'TerrainModel'}:
                    children.append(self._element(app, item, is_terrain=True))
                elif names & {'Geometry3D', 'TriangleMesh', 'PointCloud', 'GeometricPrimitive', 'ConvexHull',
                              'VolumeGrid'}:
                    children.append(self._geometry_item(app))
                else:
                    self._extras(app, extras)
            finally:
                app.swapDrawConfig()
        children.append({'position': [-4, -8, 20], 'color': 0xffffff, 'name': 'Light 1',
                         'type': 'DirectionalLight', 'target': {'position': [0, 0, 0]}, 'intensity': 1,
                         'uuid': _threejs._uuid()})
        out = {'metadata': dict(_threejs._METADATA, fullscene=True), 'materials': self.builder.materials,
               'geometries': self.builder.geometries,
               'object': {'name': 'world', 'type': 'Scene', 'matrix': _threejs._WORLD_MATRIX,
                          'uuid': _threejs._uuid(), 'children': children},
               'extras': extras, 'camera': camera_json(self.scene.view),
               'background': [float(c) for c in self.scene.backgroundColor],
               'lights': _lighting.as_json(),
               'checker': {'nodes': list(self.checkered), 'size': TERRAIN_CHECKER_SIZE,
                           'levels': [v / 255.0 for v in TERRAIN_CHECKER_LEVELS]}}
        return _numbered_uuids(out)

    def transforms(self):
        """{node name: column-major matrix} of the moving nodes now (with
        animated configurations swapped in)."""
        apps = list(self.scene.items.values())
        for app in apps:
            app.swapDrawConfig()
        try:
            return {name: _threejs._matrix(fn()) for name, fn in self.movers}
        finally:
            for app in apps:
                app.swapDrawConfig()


def world_serializer(world):
    """A :class:`SceneSerializer` of a scene holding just ``world``, the
    camera fitted to it (what :class:`klampt.io.html.HTMLSharePath` records)."""
    scene = VisualizationScene()
    scene.add('world', world)
    scene.autoFitCamera()
    return SceneSerializer(scene)


def _numbered_uuids(scene):
    """The same scene with uuids numbered in order of appearance, so the
    same scene always serializes to the same text."""
    numbers = {}

    def number(u):
        if u not in numbers:
            numbers[u] = '%032x' % (len(numbers) + 1)
        return numbers[u]
    for entry in scene['geometries'] + scene['materials']:
        entry['uuid'] = number(entry['uuid'])

    def visit(node):
        for key in ('uuid', 'geometry', 'material'):
            if key in node:
                node[key] = number(node[key])
        for c in node.get('children', []):
            visit(c)
    visit(scene['object'])
    return scene


def sub_hidden(app):
    """Whether an item is hidden."""
    return bool(app.attributes.get('hidden', False))


def _trajectory_points(traj, world, attributes):
    from klampt.model.trajectory import HermiteTrajectory, RobotTrajectory, SE3Trajectory
    if not traj.milestones:
        return []
    robot = None
    if world is not None and world.numRobots() > 0:
        robot = world.robot(int(attributes.get('robot', 0)))
    if isinstance(traj, RobotTrajectory) or (robot is not None and len(traj.milestones[0]) == robot.numLinks()):
        if robot is None:
            return []
        ee = robot.numLinks() - 1
        saved = robot.getConfig()
        pts = []
        try:
            for q in traj.milestones:
                robot.setConfig(q)
                pts.append(robot.link(ee).getTransform()[1])
        finally:
            robot.setConfig(saved)
        return pts
    if isinstance(traj, SE3Trajectory):
        return [m[9:12] for m in traj.milestones]
    m0 = traj.milestones[0]
    dim = len(m0) // 2 if isinstance(traj, HermiteTrajectory) else len(m0)
    if dim not in (2, 3):
        return []
    return [list(m[:dim]) + [0.0] * (3 - dim) for m in traj.milestones]


def camera_json(view):
    """The viewer's camera: position, target, up (z-up world) and field of
    view of a GLViewport."""
    R, t = view.camera.matrix()
    up = R[3:6]
    return {'position': list(t), 'target': list(view.camera.tgt), 'up': list(up), 'fov': float(view.fov),
            'near': float(view.clippingplanes[0]), 'far': float(max(view.clippingplanes[1],
                                                                     view.camera.dist * 1.05))}


def _xyz(v):
    """A 3-vector given as a sequence or as the notebook widget's
    {'x', 'y', 'z'} dict."""
    return [float(v[k]) for k in 'xyz'] if isinstance(v, dict) else [float(x) for x in v]


def apply_camera_json(view, cam):
    """Sets a GLViewport's orbit camera from the viewer's camera dict (its
    position, target and up as 3-lists or {'x', 'y', 'z'} dicts)."""
    pos, tgt, up = [_xyz(cam[k]) for k in ('position', 'target', 'up')]
    back = vectorops.sub(pos, tgt)
    dist = vectorops.norm(back)
    if dist < 1e-9:
        return
    z = vectorops.div(back, dist)
    x = vectorops.cross(up, z)
    if vectorops.norm(x) < 1e-9:
        return
    x = vectorops.unit(x)
    y = vectorops.cross(z, x)
    view.camera.dist = dist
    view.camera.tgt = tgt
    view.camera.set_matrix((list(x) + list(y) + list(z), pos))
    if 'fov' in cam and math.isfinite(float(cam['fov'])):
        view.fov = float(cam['fov'])
