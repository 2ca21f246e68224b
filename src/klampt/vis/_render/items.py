"""Draws the scene's items (``VisAppearance``) into the current OpenGL
context, one function per kind of item, as the reference's
``VisAppearance.drawGL`` draws them. Appearance overrides (``setColor``,
``setAppearance``) are applied to a copy of the render state, never to the
user's objects; animated configurations are swapped in only while drawn."""
import dataclasses
import math
import warnings

from klampt._render_state import render_state
from klampt.math import se3, so3, spline, vectorops

from . import geometry, primitives
from .gl import gl
from klampt import Appearance, Geometry3D
from klampt.model.trajectory import HermiteTrajectory, SE3Trajectory, RobotTrajectory, Trajectory
from klampt.model import coordinates
from klampt.model.contact import ContactPoint, Hold
from klampt.model.multipath import MultiPath
from .._plot import VisPlot
from .._types import objectToVisType
from .. import _posers

_STANDALONE_STATE = None


def _class_names(item):
    return {c.__name__ for c in type(item).__mro__}


def _base_geometry_state():
    """The render state of a new standalone Appearance, grey 0.5 (geometry
    items are drawn with it, as the reference does)."""
    global _STANDALONE_STATE
    if _STANDALONE_STATE is None:
        _STANDALONE_STATE = render_state(Appearance())
    return dataclasses.replace(_STANDALONE_STATE)


def _element_state(app, element):
    """The render state of a link / object / terrain with the item's
    overrides (custom appearance, then color)."""
    source = app.customAppearance if app.customAppearance is not None else element.appearance()
    state = render_state(source)
    if not app.useDefaultAppearance and app.customAppearance is None:
        color = app.attributes.get('color')
        if color is not None:
            state.color = [float(c) for c in color] + [1.0] * (4 - len(color))
            state.face_colors = state.vertex_colors = None
            state.texture = None
    if type(element).__name__ == 'TerrainModel':
        state = geometry.with_terrain_checker(state)
    return state


def _label(scene, app, point):
    if app.attributes.get('hide_label', False):
        return
    text = app.attributes.get('label')
    if text is None or point is None or len(point) != 3 or not all(math.isfinite(v) for v in point):
        return
    scene.addLabel(str(text), list(point), [0, 0, 0])


def _robot_of(app, world):
    if world is None or world.numRobots() == 0:
        return None
    index = int(app.attributes.get('robot', 0))
    return world.robot(index) if 0 <= index < world.numRobots() else None


def _draw_robot_links(robot, state_for_link, transparent_pass=None):
    for i in range(robot.numLinks()):
        link = robot.link(i)
        state = state_for_link(link)
        opaque = state.color[3] >= 1.0
        if transparent_pass is True and opaque or transparent_pass is False and not opaque:
            continue
        geometry.draw_world(link.geometry(), state)


def _draw_ghost(app, robot, q):
    """The robot drawn at q (tinted by the item's color), then restored."""
    saved = robot.getConfig()
    try:
        robot.setConfig(list(q))
        for transparent in (False, True):
            _draw_robot_links(robot, lambda link: _element_state(app, link), transparent)
    finally:
        robot.setConfig(saved)


def _polyline_points(item):
    return [list(p) + [0.0] * (3 - len(p)) for p in item]


def _draw_path(points, width, color, point_size, point_color, milestones=None):
    GL = gl()
    GL.glDisable(GL.GL_LIGHTING)
    color = list(color)
    blend = len(color) > 3 and color[3] < 1
    if blend:
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
    primitives.polyline(points, width, color)
    if point_size is None:
        point_size = width + 2
    if point_color is None:
        point_color = [0.75 * c for c in color[:3]] + color[3:4]
    primitives.points(milestones if milestones is not None else points, point_size, point_color)
    if blend:
        GL.glDisable(GL.GL_BLEND)
    GL.glEnable(GL.GL_LIGHTING)


def _trajectory_points(traj):
    """(curve points, milestone points) of a point-valued trajectory, or
    None when its values are not 2D / 3D points or se3 elements."""
    if isinstance(traj, SE3Trajectory) or _class_names(traj) & {'SE3HermiteTrajectory', 'SE3Trajectory'}:
        pts = [m[9:12] for m in traj.milestones]
        return pts, pts
    if not traj.milestones:
        return None
    dim = len(traj.milestones[0])
    if isinstance(traj, HermiteTrajectory):
        dim //= 2
        if dim not in (2, 3):
            return None
        dt = traj.duration() / max(1, len(traj.times)) / 10.0
        curve = traj.discretize(dt) if dt > 0 else traj
        curve_pts = [m[:dim] for m in curve.milestones]
        return _polyline_points(curve_pts), _polyline_points([m[:dim] for m in traj.milestones])
    if dim not in (2, 3):
        return None
    pts = _polyline_points(traj.milestones)
    return pts, pts


def _end_effector_paths(configs, robot, ees):
    saved = robot.getConfig()
    paths = [[] for _ in ees]
    try:
        for q in configs:
            robot.setConfig(list(q))
            for k, ee in enumerate(ees):
                paths[k].append(robot.link(ee).getTransform()[1])
    finally:
        robot.setConfig(saved)
    return paths


def _draw_trajectory(app, scene, world):
    item = app.item
    a = app.attributes
    if len(item.milestones) == 0:
        return
    robot = _robot_of(app, world)
    as_robot = isinstance(item, RobotTrajectory) or (
        type(item) is Trajectory and robot is not None and len(item.milestones[0]) == robot.numLinks())
    if as_robot:
        if robot is None:
            return
        ees = [robot.numLinks() - 1 if ee < 0 else ee for ee in a.get('endeffectors', [-1])]
        if not ees:
            return
        for path in _end_effector_paths(item.milestones, robot, ees):
            _draw_path(path, a['width'], a['color'], a['pointSize'], a['pointColor'])
        centroid = vectorops.div(vectorops.add(*[p[0] for p in _end_effector_paths(item.milestones[:1], robot,
                                                                                     ees)]), len(ees))
        _label(scene, app, centroid)
        return
    pts = _trajectory_points(item)
    if pts is None:
        return
    curve, milestones = pts
    _draw_path(curve, a['width'], a['color'], a['pointSize'], a['pointColor'], milestones)
    _label(scene, app, milestones[0])


def _draw_multipath(app, scene, world):
    item = app.item
    robot = _robot_of(app, world)
    if robot is None or item.numSections() == 0 or len(item.sections[0].configs[0]) != robot.numLinks():
        return
    a = app.attributes
    ees = [robot.numLinks() - 1 if ee < 0 else ee for ee in a.get('endeffectors', [-1])]
    color = list(a['color'])
    color2 = [1 - c for c in color[:3]] + color[3:4]
    for i, section in enumerate(item.sections):
        for path in _end_effector_paths(section.configs, robot, ees):
            _draw_path(path, a['width'], color if i % 2 == 0 else color2, a['pointSize'], a['pointColor'])
    first = _end_effector_paths(item.sections[0].configs[:1], robot, ees)
    _label(scene, app, vectorops.div(vectorops.add(*[p[0] for p in first]), len(ees)))


def _draw_point(p, size, color, depth_test=True):
    GL = gl()
    if not depth_test:
        GL.glDisable(GL.GL_DEPTH_TEST)
    color = list(color)
    blend = len(color) > 3 and color[3] < 1
    if blend:
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
    primitives.point(p, size, color)
    if blend:
        GL.glDisable(GL.GL_BLEND)
    GL.glEnable(GL.GL_DEPTH_TEST)
    GL.glEnable(GL.GL_LIGHTING)


def _draw_transform(app, scene, T):
    a = app.attributes
    fancy = a.get('fancy', False)
    GL = gl()
    GL.glLineWidth(1.0 if fancy else 2.0)
    primitives.xform_widget(T, a.get('length', 0.1), a.get('width', 0.01), lighting=fancy, fancy=fancy)
    GL.glLineWidth(1.0)
    GL.glEnable(GL.GL_LIGHTING)
    _label(scene, app, T[1])


def _draw_ik_objective(app, scene, world):
    item = app.item
    a = app.attributes
    robot = getattr(item, 'robot', None) or _robot_of(app, world)
    if robot is None or item.link() < 0 or item.link() >= robot.numLinks():
        return
    GL = gl()
    link = robot.link(item.link())
    dest = robot.link(item.destLink()) if item.destLink() >= 0 else None
    Tdest = dest.getTransform() if dest is not None else se3.identity()
    GL.glDisable(GL.GL_LIGHTING)
    if item.numPosDims() != 0:
        lp, wp = item.getPosition()
        p1 = se3.apply(link.getTransform(), lp)
        p2 = se3.apply(Tdest, wp)
        d = vectorops.distance(p1, p2)
        if item.numRotDims() == 3:
            R = item.getRotation()
            t1 = se3.mul(link.getTransform(), (so3.identity(), lp))
            t2 = se3.mul(Tdest, (R, wp))
            primitives.xform_widget(t1, a['length'], a['width'])
            primitives.xform_widget(t2, a['length'], a['width'])
            v1 = so3.apply(t1[0], [-d * 0.1] * 3)
            v2 = so3.apply(t2[0], [d * 0.1] * 3)
        else:
            if item.numRotDims() == 0:
                primitives.point(p1, a['size'], a['color'])
                primitives.point(p2, a['size'], a['color'])
            else:
                ld, wd = item.getRotationAxis()
                for T, p, axis in ((link.getTransform(), lp, ld), (Tdest, wp, wd)):
                    GL.glLineWidth(float(a['width']) if a['width'] >= 1 else 1.0)
                    q = se3.apply(T, p)
                    primitives.point(q, a['size'], a['color'])
                    primitives.polyline([q, vectorops.madd(q, so3.apply(T[0], axis), a['length'])], None,
                                        a['color'])
                    GL.glLineWidth(1.0)
            v1 = vectorops.mul(vectorops.sub(p2, p1), 0.5)
            v2 = vectorops.cross((0, 0, 0.5), vectorops.sub(p2, p1))
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glColor3f(1, 0.5, 0)
        primitives.hermite_curve(p1, v1, p2, v2, 0.03 * max(0.1, d))
        GL.glEnable(GL.GL_DEPTH_TEST)
        _label(scene, app, wp)
    else:
        wp = link.getTransform()[1]
        if item.numRotDims() == 3:
            R = item.getRotation()
            primitives.xform_widget(link.getTransform(), a['length'], a['width'])
            primitives.xform_widget(se3.mul(link.getTransform(), (R, [0, 0, 0])), a['length'], a['width'])
        elif item.numRotDims() > 0:
            ld, wd = item.getRotationAxis()
            GL.glLineWidth(float(a['axis_width']))
            T = link.getTransform()
            primitives.polyline([T[1], vectorops.madd(T[1], so3.apply(T[0], ld), a['axis_length'])], None,
                                a['axis_color'])
            Rd = Tdest[0]
            primitives.polyline([wp, vectorops.madd(wp, so3.apply(Rd, wd), a['axis_length'])], None,
                                a['axis_color'])
            GL.glLineWidth(1.0)
        _label(scene, app, wp)
    GL.glEnable(GL.GL_LIGHTING)


def _geometry_of(app):
    """The Geometry3D drawn for a geometry-data item (made once per item
    version)."""
    item = app.item
    if type(item).__name__ == 'Geometry3D':
        return item
    cached = getattr(app, '_geometry', None)
    if cached is None or cached[0] != app.version:
        cached = (app.version, Geometry3D(item))
        app._geometry = cached
    return cached[1]


def _draw_geometry_item(app, scene):
    a = app.attributes
    geom = _geometry_of(app)
    custom = a.get('appearance') if app.customAppearance is None else app.customAppearance
    state = render_state(custom) if custom is not None else _base_geometry_state()
    if custom is None:
        color = a.get('color')
        if color is not None:
            state.color = [float(c) for c in color] + [1.0] * (4 - len(color))
        size = a.get('size')
        if size:
            state.point_size = float(size)
        state.silhouette_radius = 0.0
        state.crease_angle = 0.0
    GL = gl()
    width = None
    if geom.type() == 'GeometricPrimitive' and geom.getGeometricPrimitive().type == 'Segment':
        width = float(a.get('width', 3.0))
        GL.glLineWidth(width)
    geometry.draw_world(geom, state)
    if width is not None:
        GL.glLineWidth(1.0)
    if not a.get('hide_label', False):
        bmin, bmax = geom.getBB()
        if all(math.isfinite(v) for v in list(bmin) + list(bmax)):
            _label(scene, app, vectorops.mul(vectorops.add(bmin, bmax), 0.5))


def _draw_config(app, world, item):
    robot = _robot_of(app, world)
    if robot is None:
        warnings.warn("Unable to draw Config items without a world or robot")
        return
    if robot.numLinks() != len(item):
        warnings.warn("Unable to draw Config %s, does not have the same # of DOFs as the robot: %d != %d"
                      % (app.name, robot.numLinks(), len(item)))
        return
    _draw_ghost(app, robot, item)


def _draw_configs(app, scene, world, item):
    a = app.attributes
    if len(item) == 0:
        return
    robot = _robot_of(app, world)
    if robot is not None and robot.numLinks() == len(item[0]):
        count = int(a.get('maxConfigs', min(10, len(item))))
        for i in range(count):
            _draw_ghost(app, robot, item[int(i * len(item)) // count])
        return
    if len(item[0]) in (2, 3):
        pts = _polyline_points(item)
        _draw_path(pts, a.get('width', 3.0), a.get('color', (1, 0.5, 0, 1)), a.get('pointSize'), a.get('pointColor'))
        _label(scene, app, pts[0])
        return
    warnings.warn("Unable to draw Configs items without a world or robot")


def _draw_coordinates(app, scene, item):
    a = app.attributes
    GL = gl()
    if isinstance(item, coordinates.Point):
        _draw_point(item.worldCoordinates(), a['size'], a['color'], depth_test=False)
        _label(scene, app, item.worldCoordinates())
    elif isinstance(item, coordinates.Direction):
        T = item.frame().worldCoordinates()
        GL.glDisable(GL.GL_DEPTH_TEST)
        primitives.polyline([T[1], vectorops.madd(T[1], so3.apply(T[0], item.localCoordinates()), a['length'])],
                            None, a['color'])
        GL.glEnable(GL.GL_DEPTH_TEST)
        _label(scene, app, vectorops.add(T[1], item.worldCoordinates()))
    elif isinstance(item, coordinates.Frame):
        t = item.worldCoordinates()
        tp = item.parent().worldCoordinates() if item.parent() is not None else se3.identity()
        tlocal = item.relativeCoordinates()
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glLineWidth(2.0)
        primitives.xform_widget(t, a['length'], a['width'])
        GL.glLineWidth(1.0)
        if item.parent() is not None:
            vlen = vectorops.norm(tlocal[1]) * 0.5
            v1 = so3.apply(t[0], [-vlen] * 3)
            v2 = so3.apply(tp[0], [vlen] * 3)
            GL.glColor3f(1, 1, 0)
            primitives.hermite_curve(t[1], v1, tp[1], v2, 0.03 * max(0.1, vectorops.norm(tlocal[1])))
        GL.glEnable(GL.GL_DEPTH_TEST)
        _label(scene, app, t[1])
    elif isinstance(item, coordinates.Transform):
        t1 = item.source().worldCoordinates()
        t2 = item.destination().worldCoordinates() if item.destination() is not None else se3.identity()
        vlen = vectorops.distance(t1[1], t2[1]) * 0.5
        v1 = so3.apply(t1[0], [-vlen] * 3)
        v2 = so3.apply(t2[0], [vlen] * 3)
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glColor3f(1, 1, 1)
        primitives.hermite_curve(t1[1], v1, t2[1], v2, 0.03)
        GL.glEnable(GL.GL_DEPTH_TEST)
        _label(scene, app, spline.hermite_eval(t1[1], v1, t2[1], v2, 0.5))
    GL.glEnable(GL.GL_LIGHTING)


def _draw_contact_point(app, item):
    a = app.attributes
    primitives.point(item.x, a['size'], a['color'])
    n = vectorops.unit(item.n) if vectorops.norm(item.n) > 0 else [0, 0, 1]
    primitives.polyline([item.x, vectorops.madd(item.x, n, a['length'])], None, a['color'])
    gl().glEnable(gl().GL_LIGHTING)


def _draw_leaf(app, scene, world, view):
    """Draws an item with no sub-items."""
    item = app.item
    names = _class_names(item)
    if names & {'RobotModelLink', 'RigidObjectModel', 'TerrainModel'}:
        geometry.draw_world(item.geometry(), _element_state(app, item))
        return
    if isinstance(item, str):
        pos = app.attributes.get('position')
        if pos is not None and len(pos) == 3:
            scene.addLabel(item, list(pos), app.attributes.get('color', [0, 0, 0]))
        return
    if isinstance(item, VisPlot) or isinstance(item, Hold) or isinstance(item, coordinates.Group):
        return
    if isinstance(item, Trajectory):
        _draw_trajectory(app, scene, world)
        return
    if isinstance(item, MultiPath):
        _draw_multipath(app, scene, world)
        return
    if isinstance(item, (coordinates.Point, coordinates.Direction, coordinates.Frame, coordinates.Transform)):
        _draw_coordinates(app, scene, item)
        return
    if isinstance(item, ContactPoint):
        _draw_contact_point(app, item)
        return
    if 'IKObjective' in names:
        _draw_ik_objective(app, scene, world)
        return
    if names & {'Geometry3D', 'TriangleMesh', 'PointCloud', 'GeometricPrimitive', 'ConvexHull', 'VolumeGrid'}:
        _draw_geometry_item(app, scene)
        return
    if hasattr(item, 'drawGL'):
        item.drawGL()
        return
    if hasattr(item, 'drawWorldGL'):
        item.drawWorldGL()
        return
    itype = app.attributes.get('type')
    if itype is None:
        itype = objectToVisType(item, world)
    if itype is None:
        return
    if itype == 'Config':
        _draw_config(app, world, item)
    elif itype == 'Configs':
        _draw_configs(app, scene, world, item)
    elif itype == 'Vector3':
        _draw_point(item, app.attributes.get('size', 5.0), app.attributes.get('color', [0, 0, 0, 1]))
        _label(scene, app, item)
    elif itype == 'RigidTransform':
        _draw_transform(app, scene, item)
    else:
        warnings.warn('Unable to draw item of type "%s"' % (itype,))


def draw_item(app, scene, world, view, draw_transparent=None):
    """Draws one item: everything (draw_transparent None), or only its
    opaque (False) or transparent (True) parts."""
    if app.attributes.get('hidden', False):
        return
    if app.customDrawFunc is not None:
        app.customDrawFunc(app.item)
        return
    if app.editor is not None and view is not None:
        # drawn once, in the pass the item takes part in: a wholly transparent
        # item is only drawn in the transparent one
        editor_pass = app.transparent() is True
        if draw_transparent is None or draw_transparent == editor_pass:
            _posers.draw(app, world, view)
        if _posers.draws_item(app):
            return
    if app.subAppearances:
        for sub in app.subAppearances.values():
            t = sub.transparent()
            if draw_transparent is True and t is False or draw_transparent is False and t is True:
                continue
            draw_item(sub, scene, world, view, draw_transparent)
        return
    _draw_leaf(app, scene, world, view)
