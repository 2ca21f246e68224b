"""Conversions from Klamp't objects to `Rerun <https://rerun.io>`_ archetypes,
and logging of robots, worlds, geometries, transforms and trajectories to a
Rerun recording (an optional dependency: ``pip install rerun-sdk``, or
``pip install klampt[rerun]``).

Entity layout: a robot is logged as ``prefix/<robot name>/<link name>``
(one entity per link, holding the link's geometry in the link frame and a
``Transform3D`` equal to the link's world transform), a rigid object as
``prefix/<object name>`` (its geometry and transform) and a terrain as
``prefix/<terrain name>`` (its geometry, in the world frame). Geometry is
logged static; transforms at the recording's current time, so
``update_rr_*`` called after ``recording.set_time(...)`` animate the
scene. Names are escaped as entity path parts
(``rerun.escape_entity_path_part``).

Geometry: a triangle mesh becomes a ``Mesh3D`` (with vertex normals, the
appearance's colour as albedo factor, per-vertex colours, per-face colours
through unshared vertices, and a 2D texture with its coordinates); a point
cloud a ``Points3D`` (with its rgb / rgba / r, g, b colours); geometric
primitives, convex hulls, volume grids and the other surfaces are meshed
(``Geometry3D.convert('TriangleMesh')``), except point and segment
primitives, which become ``Points3D`` and ``LineStrips3D``; a group is
logged as one child entity per element.

Every ``log_*`` / ``update_*`` function takes a keyword ``recording`` (a
``rerun.RecordingStream``); by default Rerun's current recording is used.
"""
import math
from typing import Optional, Union

import numpy as np

try:
    import rerun as rr
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("klampt.io.rerun_convert needs the optional package 'rerun-sdk' "
                      "(install it with: pip install rerun-sdk, or pip install klampt[rerun])") from exc

from ..robotsim import Appearance, Geometry3D, PointCloud, TriangleMesh
from .._heightmap_colors import heightmap_vertex_colors
from .._render_state import render_state
from ..model.sensing import camera_to_intrinsics
from ..model.trajectory import HermiteTrajectory, SE3Trajectory

__all__ = ['trimesh_to_rr', 'point_cloud_to_rr', 'geom_to_rr', 'transform_to_rr', 'point_to_rr', 'camera_to_rr',
           'traj_to_rr', 'log_rr_geometry', 'log_rr_robot', 'log_rr_terrain', 'log_rr_rigid_object',
           'log_rr_transform', 'log_rr_world', 'log_rr_trajectory', 'update_rr_transform', 'update_rr_robot',
           'update_rr_rigid_object', 'update_rr_world', 'world_entity_names']

_AXIS_COLORS = [[255, 0, 0], [0, 255, 0], [0, 0, 255]]


# ------------------------------------------------------------------ helpers

def _rgba(color, what='color'):
    """A colour as 4 floats in [0, 1] (RGB gets alpha 1)."""
    c = [float(v) for v in color]
    if len(c) not in (3, 4) or not all(math.isfinite(v) for v in c):
        raise ValueError("%s must be 3 or 4 finite numbers, got %r" % (what, color))
    if any(v < 0 or v > 1 for v in c):
        raise ValueError("%s channels must be in [0, 1], got %r" % (what, color))
    return c + [1.0] * (4 - len(c))


def _join(prefix, *names):
    """``prefix`` (a path, kept as given) followed by the escaped ``names``."""
    parts = [rr.escape_entity_path_part(str(n)) for n in names]
    prefix = prefix.rstrip('/')
    return '/'.join(([prefix] if prefix else []) + parts)


def _log(recording, path, archetype, static=False):
    if recording is None:
        rr.log(path, archetype, static=static)
    else:
        recording.log(path, archetype, static=static)


def _tinted(colors, state):
    """RGBA rows (n x 4, uint8) of colours in [0, 1] blended toward the
    appearance's tint colour by its tint strength, as the renderer draws
    them (rounded in double precision, the same for every input type)."""
    out = np.array(colors, dtype=float).reshape(-1, 4)
    strength = float(state.tint_strength)
    if strength > 0:
        out[:, :3] = (1 - strength) * out[:, :3] + strength * np.asarray(state.tint_color[:3], dtype=float)
    return np.clip(np.round(out * 255), 0, 255).astype(np.uint8)


def _vertex_normals(vertices, triangles):
    """Area-weighted unit vertex normals (zero for unused vertices)."""
    normals = np.zeros_like(vertices)
    if len(triangles):
        a, b, c = (vertices[triangles[:, k]] for k in range(3))
        face = np.cross(b - a, c - a)
        for k in range(3):
            np.add.at(normals, triangles[:, k], face)
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    return np.divide(normals, length, out=np.zeros_like(normals), where=length > 0)


def _texture(state, vertices):
    """(texels, texcoords) of a 2D-textured appearance state, or None."""
    tex = state.texture
    if tex is None:
        return None
    texels = np.asarray(tex.texels, dtype=np.uint8)
    if texels.ndim != 3 or texels.shape[0] <= 1:
        return None  # 1D textures have no Rerun counterpart
    fmt = str(tex.format).lower()
    channels = texels.shape[2]
    if channels == 1:
        texels = np.repeat(texels, 3, axis=2)
    elif fmt.startswith('bgr'):
        texels = np.concatenate([texels[:, :, 2::-1], texels[:, :, 3:]], axis=2)
    texels = np.ascontiguousarray(texels[:, :, :4])
    coords = tex.texcoords
    if coords is not None and len(coords) == len(vertices) and np.shape(coords)[1] >= 2:
        uv = np.asarray(coords, dtype=np.float32)[:, :2]
    elif len(tex.texgen) >= 2:
        planes = np.asarray(tex.texgen, dtype=float)[:2]
        uv = (np.hstack([vertices, np.ones((len(vertices), 1))]) @ planes.T).astype(np.float32)
    else:
        return None
    return texels, uv


# ------------------------------------------------------------------ archetypes

def trimesh_to_rr(mesh: TriangleMesh, appearance: Optional[Appearance] = None) -> 'rr.Mesh3D':
    """A ``rerun.Mesh3D`` of a TriangleMesh (in its own frame) with vertex
    normals; with an appearance, its colour (albedo factor), per-vertex
    colours, per-face colours (each triangle then gets its own three
    vertices), all blended with its tint, and 2D texture with its texture
    coordinates or texgen."""
    vertices = np.asarray(mesh.getVertices(), dtype=float).reshape(-1, 3)
    triangles = np.asarray(mesh.getIndices(), dtype=np.int64).reshape(-1, 3)
    if len(triangles) and (triangles.min() < 0 or triangles.max() >= len(vertices)):
        raise ValueError("the mesh has triangle indices outside its %d vertices" % len(vertices))
    kwargs = {}
    if appearance is not None:
        state = render_state(appearance)
        kwargs['albedo_factor'] = _tinted(state.color, state)[0]
        faces, colors = state.face_colors, state.vertex_colors
        if faces is not None and len(faces) == len(triangles):
            vertices = vertices[triangles.ravel()]
            triangles = np.arange(len(vertices)).reshape(-1, 3)
            kwargs['vertex_colors'] = np.repeat(_tinted(faces, state), 3, axis=0)
        elif colors is not None and len(colors) == len(vertices):
            kwargs['vertex_colors'] = _tinted(colors, state)
        else:
            texture = _texture(state, vertices)
            if texture is not None:
                kwargs['albedo_texture'], kwargs['vertex_texcoords'] = texture
    return rr.Mesh3D(vertex_positions=vertices.astype(np.float32), triangle_indices=triangles.astype(np.uint32),
                     vertex_normals=_vertex_normals(vertices, triangles).astype(np.float32), **kwargs)


def point_cloud_to_rr(pc: PointCloud, appearance: Optional[Appearance] = None) -> 'rr.Points3D':
    """A ``rerun.Points3D`` of a PointCloud (in its own frame), coloured by
    its rgb / rgba / r, g, b properties, else by the appearance's colour;
    the appearance's point size (pixels) becomes the points' radii in UI
    points."""
    data = Geometry3D(pc)._render_points()
    positions = np.asarray(data['positions'], dtype=np.float32).reshape(-1, 3)
    kwargs = {}
    if data['colors'] is not None:
        kwargs['colors'] = np.asarray(data['colors'], dtype=np.float32)
    if appearance is not None:
        state = render_state(appearance)
        kwargs['colors'] = _tinted(kwargs.get('colors', state.color), state)
        kwargs['radii'] = rr.Radius.ui_points(0.5 * float(state.point_size))
    return rr.Points3D(positions, **kwargs)


def _primitive_to_rr(geom, appearance):
    """Points3D / LineStrips3D of a point or segment primitive, else None."""
    prim = geom.getGeometricPrimitive()
    props = [float(v) for v in prim.properties]
    color = None if appearance is None else [appearance.getColor()]
    if prim.type == 'Point':
        return rr.Points3D([props[0:3]], colors=color)
    if prim.type == 'Segment':
        return rr.LineStrips3D([[props[0:3], props[3:6]]], colors=color)
    return None


def _group_parts(geom, M, t):
    """(kind, positions, extra) of each element of a group in the frame
    where the group has rotation matrix M and translation t: ('mesh',
    vertices, triangles) or ('points', points, colors or None); nested
    groups are walked."""
    for i in range(geom.numElements()):
        element = geom.getElement(i)
        if element.empty():
            continue
        R, et = element.getCurrentTransform()
        Me = M @ np.array(R, dtype=float).reshape(3, 3).T
        te = M @ np.asarray(et, dtype=float) + t
        if element.type() == 'Group':
            yield from _group_parts(element, Me, te)
        elif element.type() == 'PointCloud':
            data = element._render_points()
            colors = data['colors']
            yield ('points', np.asarray(data['positions'], dtype=float) @ Me.T + te,
                   None if colors is None else np.asarray(colors, dtype=np.float32))
        else:
            mesh = _surface(element)
            if mesh is not None:
                yield ('mesh', np.asarray(mesh.getVertices(), dtype=float).reshape(-1, 3) @ Me.T + te,
                       np.asarray(mesh.getIndices(), dtype=np.int64).reshape(-1, 3))


def _merged_group(geom, appearance):
    """One Mesh3D of the surfaces of a group's elements (each in the group's
    frame), or one Points3D when every element is a point cloud."""
    parts = list(_group_parts(geom, np.eye(3), np.zeros(3)))
    meshes = [(v, f) for kind, v, f in parts if kind == 'mesh']
    if meshes:
        offsets = np.cumsum([0] + [len(v) for v, _ in meshes])
        mesh = TriangleMesh()
        mesh.setVertices(np.vstack([v for v, _ in meshes]))
        mesh.setIndices(np.vstack([f + o for (_, f), o in zip(meshes, offsets)]).astype(np.int32))
        return trimesh_to_rr(mesh, appearance)
    clouds = [(p, c) for kind, p, c in parts if kind == 'points']
    if not clouds:
        return None
    kwargs = {}
    if all(c is not None for _, c in clouds):
        kwargs['colors'] = np.vstack([c for _, c in clouds])
    elif appearance is not None:
        kwargs['colors'] = [appearance.getColor()]
    return rr.Points3D(np.vstack([p for p, _ in clouds]).astype(np.float32), **kwargs)


def _surface(geom):
    """The TriangleMesh of a geometry's surface (in its own frame), or None
    when it has none (points, segments, unstructured point clouds)."""
    if geom.type() == 'TriangleMesh':
        return geom.getTriangleMesh()
    if geom.type() == 'Group':
        return None
    try:
        converted = geom.convert('TriangleMesh')
    except (ValueError, RuntimeError):
        return None
    return converted.getTriangleMesh() if converted.type() == 'TriangleMesh' else None


def geom_to_rr(geom: Geometry3D, appearance: Optional[Appearance] = None) \
        -> Union['rr.Mesh3D', 'rr.Points3D', 'rr.LineStrips3D', None]:
    """The Rerun archetype of a Geometry3D, in the geometry's own frame (its
    current transform is not applied: log it with :func:`transform_to_rr`),
    or None for an empty geometry.

    A triangle mesh gives a ``Mesh3D`` (:func:`trimesh_to_rr`), a point cloud
    a ``Points3D`` (:func:`point_cloud_to_rr`), a point primitive a
    ``Points3D``, a segment primitive a ``LineStrips3D``; the other
    primitives, convex hulls, volume grids and the other surface types are
    meshed with ``geom.convert('TriangleMesh')``. A group gives one mesh of
    its elements' surfaces (one ``Points3D`` if all its elements are point
    clouds); :func:`log_rr_geometry` logs a group's elements as separate
    entities instead."""
    if not isinstance(geom, Geometry3D):
        raise TypeError("geom_to_rr needs a Geometry3D, got %s" % type(geom).__name__)
    if geom.empty():
        return None
    kind = geom.type()
    if kind == 'TriangleMesh':
        return trimesh_to_rr(geom.getTriangleMesh(), appearance)
    if kind == 'PointCloud':
        return point_cloud_to_rr(geom.getPointCloud(), appearance)
    if kind == 'Group':
        return _merged_group(geom, appearance)
    if kind == 'GeometricPrimitive':
        archetype = _primitive_to_rr(geom, appearance)
        if archetype is not None:
            return archetype
    mesh = _surface(geom)
    if mesh is None:
        raise ValueError("a %s geometry cannot be converted to a Rerun archetype" % kind)
    colors = heightmap_vertex_colors(geom) if appearance is None else None
    if colors is not None:
        appearance = Appearance()
        appearance.setColors(Appearance.VERTICES, colors)
    return trimesh_to_rr(mesh, appearance)


def transform_to_rr(T) -> 'rr.Transform3D':
    """A ``rerun.Transform3D`` of a Klamp't se3 element (R, t): the pose of
    an entity's frame in its parent's."""
    R, t = T
    if len(R) != 9 or len(t) != 3:
        raise ValueError("transform_to_rr needs an se3 element (9 rotation entries, 3 translation entries)")
    # so3 lists are column-major; a nested array is read row by row
    return rr.Transform3D(translation=[float(v) for v in t],
                          mat3x3=np.array(R, dtype=float).reshape(3, 3).T)


def point_to_rr(pt, radius=None, color=None) -> 'rr.Points3D':
    """A ``rerun.Points3D`` of one point, with an optional radius (metres)
    and colour (RGB or RGBA in [0, 1])."""
    if len(pt) != 3:
        raise ValueError("point_to_rr needs a 3D point, got %r" % (pt,))
    return rr.Points3D([[float(v) for v in pt]], radii=None if radius is None else [float(radius)],
                       colors=None if color is None else [_rgba(color)])


def camera_to_rr(camera) -> 'rr.Pinhole':
    """A ``rerun.Pinhole`` of a CameraSensor's intrinsics (resolution,
    focal lengths, principal point). Log it at an entity whose transform is
    the camera's pose (:func:`klampt.model.sensing.get_sensor_xform`);
    Klamp't cameras look along +z with y down, Rerun's default RDF
    convention."""
    if camera.type() != 'CameraSensor':
        raise ValueError("camera_to_rr needs a CameraSensor, got a %s" % camera.type())
    intrinsics = camera_to_intrinsics(camera, 'json')
    return rr.Pinhole(width=int(camera.getSetting('xres')), height=int(camera.getSetting('yres')),
                      focal_length=[float(intrinsics['fx']), float(intrinsics['fy'])],
                      principal_point=[float(intrinsics['cx']), float(intrinsics['cy'])])


def _milestone_points(traj):
    """The positions of a trajectory's milestones (2D or 3D)."""
    if isinstance(traj, SE3Trajectory):
        return [list(m[9:12]) for m in traj.milestones]
    if isinstance(traj, HermiteTrajectory):
        return [list(m[:len(m) // 2]) for m in traj.milestones]
    return [list(m) for m in traj.milestones]


def traj_to_rr(traj, radius=None, color=None) -> Union['rr.LineStrips2D', 'rr.LineStrips3D', None]:
    """A line strip through a 2D or 3D trajectory's milestones
    (``LineStrips2D`` / ``LineStrips3D``; an SE3Trajectory gives its
    translations), or None for an empty trajectory; ValueError for other
    dimensions."""
    if len(traj.milestones) == 0:
        return None
    points = _milestone_points(traj)
    kwargs = {'radii': None if radius is None else [float(radius)],
              'colors': None if color is None else [_rgba(color)]}
    if len(points[0]) == 2:
        return rr.LineStrips2D([points], **kwargs)
    if len(points[0]) == 3:
        return rr.LineStrips3D([points], **kwargs)
    raise ValueError("traj_to_rr needs a 2D or 3D trajectory, got %d-dimensional milestones" % len(points[0]))


# ------------------------------------------------------------------ logging

def _with_color(archetype, color):
    """The archetype with its colour replaced by ``color``."""
    c = _rgba(color)
    if isinstance(archetype, rr.Mesh3D):
        archetype.vertex_colors = None
        archetype.albedo_texture_buffer = None
        archetype.albedo_texture_format = None
        archetype.vertex_texcoords = None
        archetype.albedo_factor = c
    else:
        archetype.colors = [c]
    return archetype


def _with_label(archetype, label):
    """The archetype labelled, where Rerun can label it (meshes cannot)."""
    if label is not None and not isinstance(archetype, rr.Mesh3D):
        archetype.labels = [str(label)]
    return archetype


def _log_geometry(path, geom, appearance, color, label, recording):
    """Logs a geometry's archetype (static) at ``path``; a group's elements
    go to ``path/<index>`` with their transforms in the group's frame."""
    if geom.empty():
        return
    if geom.type() == 'Group':
        for i in range(geom.numElements()):
            element = geom.getElement(i)
            child = _join(path, i)
            _log_geometry(child, element, appearance, color, label, recording)
            _log(recording, child, transform_to_rr(element.getCurrentTransform()), static=True)
        return
    archetype = geom_to_rr(geom, appearance)
    if color is not None:
        _with_color(archetype, color)
    _log(recording, path, _with_label(archetype, label), static=True)


def log_rr_geometry(geom: Geometry3D, name: str, appearance: Optional[Appearance] = None, hide_label=False,
                    color=None, *, recording=None):
    """Logs a geometry at entity ``name``: its archetype (static, in its own
    frame, see :func:`geom_to_rr`; a group one child entity per element)
    and its current transform. ``color`` (RGB or RGBA in [0, 1]) replaces
    the appearance's colours; the label is the entity name."""
    if not isinstance(geom, Geometry3D):
        geom = Geometry3D(geom)
    _log_geometry(name, geom, appearance, color, None if hide_label else name, recording)
    update_rr_transform(geom.getCurrentTransform(), name, recording=recording)


def _log_robot(robot, path, hide_labels, color, recording):
    """Logs each link at ``path/<link>``: geometry (static) and transform."""
    for i in range(robot.numLinks()):
        link = robot.link(i)
        child = _join(path, link.getName())
        _log_geometry(child, link.geometry(), link.appearance(), color, None if hide_labels else link.getName(),
                      recording)
        update_rr_transform(link.getTransform(), child, recording=recording)


def _update_robot(robot, path, recording):
    for i in range(robot.numLinks()):
        link = robot.link(i)
        update_rr_transform(link.getTransform(), _join(path, link.getName()), recording=recording)


def log_rr_robot(robot, prefix: str = '', hide_labels=False, color=None, *, recording=None):
    """Logs each link of a robot as ``prefix/<robot>/<link>``: its geometry
    (static, in the link frame, with the link's appearance or ``color``)
    and the link's world transform."""
    _log_robot(robot, _join(prefix, robot.getName()), hide_labels, color, recording)


def log_rr_terrain(terrain, prefix: str = '', hide_label=False, color=None, *, recording=None):
    """Logs a terrain's geometry (static, in the world frame) as
    ``prefix/<terrain>``, with its appearance or ``color``."""
    path = _join(prefix, terrain.getName())
    _log_geometry(path, terrain.geometry(), terrain.appearance(), color, None if hide_label else terrain.getName(),
                  recording)


def log_rr_rigid_object(rigid_object, prefix: str = '', hide_label=False, color=None, *, recording=None):
    """Logs a rigid object as ``prefix/<object>``: its geometry (static, in
    the object frame, with its appearance or ``color``) and its
    transform."""
    path = _join(prefix, rigid_object.getName())
    _log_geometry(path, rigid_object.geometry(), rigid_object.appearance(), color,
                  None if hide_label else rigid_object.getName(), recording)
    update_rr_transform(rigid_object.getTransform(), path, recording=recording)


def log_rr_transform(T, name: str, length=0.1, hide_label=False, *, recording=None):
    """Logs a coordinate frame at entity ``name``: three arrows of
    ``length`` (x red, y green, z blue; static, in the frame) and the
    frame's transform ``T``."""
    L = float(length)
    _log(recording, name, rr.Arrows3D(vectors=[[L, 0, 0], [0, L, 0], [0, 0, L]], colors=_AXIS_COLORS,
                                      labels=None if hide_label else [name, '', '']), static=True)
    update_rr_transform(T, name, recording=recording)


def world_entity_names(world):
    """{(kind, index): entity name} of a world's robots, terrains and rigid
    objects: a name used before gets '#2', '#3', ... (worlds may repeat
    names, entities cannot)."""
    used, out = {}, {}
    for kind, count, get in (('Robot', world.numRobots(), world.robot),
                             ('Terrain', world.numTerrains(), world.terrain),
                             ('RigidObject', world.numRigidObjects(), world.rigidObject)):
        for i in range(count):
            name = get(i).getName()
            used[name] = used.get(name, 0) + 1
            out[(kind, i)] = name if used[name] == 1 else '%s#%d' % (name, used[name])
    return out


def log_rr_world(world, prefix: str = '', hide_labels=False, *, recording=None):
    """Logs every robot, terrain and rigid object of a world under
    ``prefix`` (see :func:`log_rr_robot`, :func:`log_rr_terrain`,
    :func:`log_rr_rigid_object`); a repeated name gets '#2', '#3', ... in
    the order robots, terrains, rigid objects."""
    names = world_entity_names(world)
    for i in range(world.numRobots()):
        _log_robot(world.robot(i), _join(prefix, names[('Robot', i)]), hide_labels, None, recording)
    for i in range(world.numTerrains()):
        terrain = world.terrain(i)
        path = _join(prefix, names[('Terrain', i)])
        _log_geometry(path, terrain.geometry(), terrain.appearance(), None,
                      None if hide_labels else terrain.getName(), recording)
    for i in range(world.numRigidObjects()):
        obj = world.rigidObject(i)
        path = _join(prefix, names[('RigidObject', i)])
        _log_geometry(path, obj.geometry(), obj.appearance(), None, None if hide_labels else obj.getName(),
                      recording)
        update_rr_transform(obj.getTransform(), path, recording=recording)


def log_rr_trajectory(traj, name: str, color=None, hide_label=False, *, recording=None):
    """Logs a 2D or 3D trajectory (or an SE3Trajectory's translations) as a
    line strip at entity ``name`` (static); an SE3Trajectory also gets a
    coordinate frame at up to 10 of its milestones, as ``name/T<index>``."""
    lines = traj_to_rr(traj, color=color)
    if lines is None:
        return
    _log(recording, name, _with_label(lines, None if hide_label else name), static=True)
    if isinstance(traj, SE3Trajectory):
        step = max(1, len(traj.milestones) // 10)
        for i in range(0, len(traj.milestones), step):
            log_rr_transform(traj.to_se3(traj.milestones[i]), _join(name, 'T%d' % i), hide_label=True,
                             recording=recording)


def update_rr_transform(T, name: str, *, recording=None):
    """Logs entity ``name``'s transform ``T`` at the current time."""
    _log(recording, name, transform_to_rr(T))


def update_rr_robot(robot, prefix: str = '', *, recording=None):
    """Logs the world transforms of a robot's links (at the current time)."""
    _update_robot(robot, _join(prefix, robot.getName()), recording)


def update_rr_rigid_object(rigid_object, prefix: str = '', *, recording=None):
    """Logs a rigid object's transform (at the current time)."""
    update_rr_transform(rigid_object.getTransform(), _join(prefix, rigid_object.getName()), recording=recording)


def update_rr_world(world, prefix: str = '', *, recording=None):
    """Logs the transforms of a world's robot links and rigid objects (at
    the current time), under the entity names :func:`log_rr_world` gave."""
    names = world_entity_names(world)
    for i in range(world.numRobots()):
        _update_robot(world.robot(i), _join(prefix, names[('Robot', i)]), recording)
    for i in range(world.numRigidObjects()):
        update_rr_transform(world.rigidObject(i).getTransform(), _join(prefix, names[('RigidObject', i)]),
                            recording=recording)
