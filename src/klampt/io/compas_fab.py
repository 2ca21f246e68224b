"""Conversions between COMPAS FAB 2.x robot cells and klampt objects.

Frames become se3 transforms ``(R, t)`` (R column-major), a
``compas_robots.RobotModel`` becomes a klampt robot loaded from a generated
kinematics URDF, configurations are matched by joint name, collision
geometry becomes triangle meshes, and tools and rigid bodies become lists of
triangle meshes with the transforms that place them.

compas, compas_robots and compas_fab are imported on first use of this
module; install them with ``pip install "klampt[compas_fab]"``.
"""

import os
import tempfile
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

try:
    from compas.geometry import Frame, Transformation
    from compas_robots.model import Joint
    from compas_fab.backends import BackendFeatureNotSupportedError
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError('klampt.io.compas_fab needs COMPAS FAB: pip install "klampt[compas_fab]"') from e

from ..math import se3, so3
from ..robotsim import ConvexHull, Geometry3D, TriangleMesh

__all__ = [
    "WORLD_LINK",
    "frame_to_se3",
    "se3_to_frame",
    "transformation_to_se3",
    "scale_frame",
    "robot_model_to_urdf",
    "RobotMapping",
    "load_robot_model",
    "configuration_to_config",
    "config_to_values",
    "mesh_to_triangle_mesh",
    "link_collision_mesh",
    "COLLISION_GEOMETRY_MODES",
    "collision_geometry",
    "link_collision_parts",
    "link_collision_geometry",
    "tool_link_geometries",
    "rigid_body_geometries",
    "tool_link_meshes",
    "tool_link_transform",
    "rigid_body_meshes",
    "tool_base_transform",
    "workpiece_transform",
    "link_attachment_transform",
]

#: Name of the synthetic fixed root every converted robot hangs from; klampt's
#: URDF loader takes a root with this name as the fixed world.
WORLD_LINK = "world"


# ---------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------

def transformation_to_se3(transformation) -> Tuple[List[float], List[float]]:
    """A compas ``Transformation`` (or 4x4 nested list) as an se3 ``(R, t)``."""
    m = transformation.matrix if hasattr(transformation, "matrix") else transformation
    R = [m[0][0], m[1][0], m[2][0], m[0][1], m[1][1], m[2][1], m[0][2], m[1][2], m[2][2]]
    t = [m[0][3], m[1][3], m[2][3]]
    return R, t


def frame_to_se3(frame) -> Tuple[List[float], List[float]]:
    """A compas ``Frame`` as an se3 ``(R, t)``; ``None`` is the identity.

    Goes through ``Transformation.from_frame`` so that non-orthonormal input
    axes are orthonormalized the way compas does.
    """
    if frame is None:
        return se3.identity()
    return transformation_to_se3(Transformation.from_frame(frame))


def se3_to_frame(T) -> "Frame":
    """An se3 ``(R, t)`` as a compas ``Frame``."""
    R, t = T
    return Frame(list(t), list(R[0:3]), list(R[3:6]))


def scale_frame(frame, native_scale: Optional[float]):
    """The frame with its point divided by ``native_scale`` (meters -> user units); ``None`` keeps it."""
    if native_scale:
        frame = frame.copy()
        frame.scale(1.0 / native_scale)
    return frame


# ---------------------------------------------------------------------------
# Robot models
# ---------------------------------------------------------------------------

_URDF_JOINT_TYPE = {
    Joint.REVOLUTE: "revolute",
    Joint.CONTINUOUS: "continuous",
    Joint.PRISMATIC: "prismatic",
    Joint.FIXED: "fixed",
}


def _fmt(values: Sequence[float]) -> str:
    return " ".join(repr(float(v)) for v in values)


def _rename_root(name: str) -> str:
    # a compas root called 'world' would be swallowed by the loader's fixed world
    return "world_" if name == WORLD_LINK else name


def robot_model_to_urdf(robot_model) -> Tuple[str, Dict[str, str]]:
    """A kinematics-only URDF string of a ``compas_robots.RobotModel``.

    Returns ``(urdf_text, link_names)`` where ``link_names`` maps each compas
    link name to its name in the URDF (they differ only for a compas link
    named ``world``). The compas root hangs from a synthetic fixed ``world``
    link, joint origins are written as xyz + extrinsic-XYZ rpy at full
    precision, and mimic joints are carried over.

    Raises ``BackendFeatureNotSupportedError`` for floating and planar joints.
    """
    names = {link.name: _rename_root(link.name) for link in robot_model.iter_links()}
    if WORLD_LINK in names.values() and WORLD_LINK not in names:
        raise ValueError("link name collision on %r" % WORLD_LINK)
    out = ['<?xml version="1.0"?>', '<robot name="%s">' % (robot_model.name or "robot"),
           '<link name="%s"/>' % WORLD_LINK]
    for link in robot_model.iter_links():
        out.append('<link name="%s"/>' % names[link.name])
    out.append('<joint name="%s__fixed_root" type="fixed"><parent link="%s"/><child link="%s"/></joint>'
               % (WORLD_LINK, WORLD_LINK, names[robot_model.root.name]))
    for joint in robot_model.iter_joints():
        if joint.type not in _URDF_JOINT_TYPE:
            raise BackendFeatureNotSupportedError(
                "Joint '%s' of type %s is not supported by the klampt backend (floating and planar joints)"
                % (joint.name, joint.type))
        origin = joint.origin or Frame.worldXY()
        T = Transformation.from_frame(origin)
        xyz = [T.matrix[i][3] for i in range(3)]
        rpy = Frame.from_transformation(T).euler_angles(static=True, axes="xyz")
        parts = ['<joint name="%s" type="%s">' % (joint.name, _URDF_JOINT_TYPE[joint.type]),
                 '<parent link="%s"/><child link="%s"/>' % (names[joint.parent.link], names[joint.child.link]),
                 '<origin xyz="%s" rpy="%s"/>' % (_fmt(xyz), _fmt(rpy))]
        if joint.type != Joint.FIXED:
            axis = joint.axis.vector if joint.axis else [1.0, 0.0, 0.0]
            parts.append('<axis xyz="%s"/>' % _fmt(axis))
        if joint.type in (Joint.REVOLUTE, Joint.PRISMATIC):
            lim = joint.limit
            lower = lim.lower if lim is not None else 0.0
            upper = lim.upper if lim is not None else 0.0
            effort = lim.effort if lim is not None and lim.effort else 0.0
            velocity = lim.velocity if lim is not None and lim.velocity else 0.0
            parts.append('<limit lower="%r" upper="%r" effort="%r" velocity="%r"/>'
                         % (float(lower), float(upper), float(effort), float(velocity)))
        if joint.mimic is not None:
            parts.append('<mimic joint="%s" multiplier="%r" offset="%r"/>'
                         % (joint.mimic.joint, float(joint.mimic.multiplier or 1.0), float(joint.mimic.offset or 0.0)))
        parts.append("</joint>")
        out.append("".join(parts))
    out.append("</robot>")
    return "\n".join(out), names


class RobotMapping:
    """How a compas robot model maps onto its klampt robot.

    Attributes:
        link_index: compas link name -> klampt link index.
        joint_dof: compas joint name -> klampt DOF (the index of its child link),
            for every non-fixed joint.
        joint_type: compas joint name -> compas joint type.
        mimic: ``(dof, source dof, multiplier, offset)`` per mimic joint.
    """

    def __init__(self, link_index, joint_dof, joint_type, mimic):
        self.link_index: Dict[str, int] = link_index
        self.joint_dof: Dict[str, int] = joint_dof
        self.joint_type: Dict[str, int] = joint_type
        self.mimic: List[Tuple[int, int, float, float]] = mimic


def load_robot_model(world, robot_model, name: Optional[str] = None):
    """Adds a compas ``RobotModel`` to a klampt ``WorldModel`` (kinematics only).

    Returns ``(robot, mapping)``: the klampt ``RobotModel`` and a
    :class:`RobotMapping`. Collision geometry is added separately with
    :func:`link_collision_mesh`.
    """
    urdf, names = robot_model_to_urdf(robot_model)
    fd, path = tempfile.mkstemp(suffix=".urdf", prefix="compas_fab_")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(urdf)
        robot = world.loadRobot(path)
    finally:
        os.remove(path)
    if robot is None or robot.index < 0:
        raise RuntimeError("klampt could not load the converted robot model %r" % robot_model.name)
    if name:
        robot.setName(name)
    link_index = {}
    for compas_name, urdf_name in names.items():
        link_index[compas_name] = robot.link(urdf_name).index
    joint_dof, joint_type, mimic = {}, {}, []
    for joint in robot_model.iter_joints():
        if joint.type == Joint.FIXED:
            continue
        joint_dof[joint.name] = link_index[joint.child.link]
        joint_type[joint.name] = joint.type
    for joint in robot_model.iter_joints():
        if joint.mimic is not None and joint.name in joint_dof:
            mimic.append((joint_dof[joint.name], joint_dof[joint.mimic.joint],
                          float(joint.mimic.multiplier or 1.0), float(joint.mimic.offset or 0.0)))
    return robot, RobotMapping(link_index, joint_dof, joint_type, mimic)


def configuration_to_config(configuration, mapping: RobotMapping, base_config: Sequence[float]) -> List[float]:
    """A klampt config: ``base_config`` with the joints of a compas ``Configuration`` set by name.

    Mimic joints follow their source (``q[dof] = multiplier * q[src] + offset``).
    Raises ``ValueError`` for a joint name the robot does not have.
    """
    q = list(base_config)
    names = configuration.joint_names
    if not names:
        raise ValueError("the configuration has no joint names; the klampt backend matches joints by name")
    for name, value in zip(names, configuration.joint_values):
        dof = mapping.joint_dof.get(name)
        if dof is None:
            raise ValueError("joint %r is not a movable joint of the robot" % name)
        q[dof] = float(value)
    for dof, src, mult, off in mapping.mimic:
        q[dof] = mult * q[src] + off
    return q


def config_to_values(q: Sequence[float], joint_names: Sequence[str], mapping: RobotMapping) -> List[float]:
    """The values of the named joints in a klampt config, in the order given."""
    return [q[mapping.joint_dof[name]] for name in joint_names]


# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------

def _mesh_arrays(mesh) -> Tuple[np.ndarray, np.ndarray]:
    vertices, faces = mesh.to_vertices_and_faces(triangulated=True)
    V = np.asarray(vertices, dtype=float).reshape(-1, 3)
    F = np.asarray(faces, dtype=np.int32).reshape(-1, 3)
    return V, F


def _transform_rows(V: np.ndarray, T) -> np.ndarray:
    R, t = T
    Rm = np.array(so3.matrix(R))
    return V @ Rm.T + np.asarray(t)


def mesh_to_triangle_mesh(mesh, T=None, scale: Sequence[float] = (1.0, 1.0, 1.0)) -> TriangleMesh:
    """A compas ``Mesh`` (polygons triangulated) as a klampt ``TriangleMesh``.

    Vertices are scaled per axis by ``scale`` first, then moved by the se3
    transform ``T``.
    """
    V, F = _mesh_arrays(mesh)
    return _arrays_to_triangle_mesh(V * np.asarray(scale, dtype=float), F, T)


def _arrays_to_triangle_mesh(V, F, T=None) -> TriangleMesh:
    if T is not None:
        V = _transform_rows(V, T)
    tm = TriangleMesh()
    tm.setVertices(np.ascontiguousarray(V, dtype=float))
    tm.setIndices(np.ascontiguousarray(F, dtype=np.int32))
    return tm


def _merge(parts: List[Tuple[np.ndarray, np.ndarray]]) -> Optional[TriangleMesh]:
    if not parts:
        return None
    Vs, Fs, n = [], [], 0
    for V, F in parts:
        Vs.append(V)
        Fs.append(F + n)
        n += len(V)
    return _arrays_to_triangle_mesh(np.vstack(Vs), np.vstack(Fs))


def _element_parts(elements) -> List[Tuple[np.ndarray, np.ndarray]]:
    parts = []
    for element in elements:
        shape = element.geometry.shape
        meshes = getattr(shape, "meshes", None) or []
        scale = getattr(shape, "scale", None)
        scale = np.asarray(scale, dtype=float) if isinstance(scale, (list, tuple)) else np.ones(3)
        T = frame_to_se3(element.origin) if element.origin is not None else None
        for mesh in meshes:
            V, F = _mesh_arrays(mesh)
            if len(F) == 0:
                continue
            V = V * scale
            if T is not None:
                V = _transform_rows(V, T)
            parts.append((V, F))
    return parts


def link_collision_mesh(link) -> Optional[TriangleMesh]:
    """All collision elements of a compas ``Link`` merged into one mesh in link coordinates.

    Mesh descriptors are scaled by their ``scale`` and every element is moved
    by its ``origin``; primitives (box, cylinder, sphere, capsule proxies)
    are triangulated. ``None`` when the link has no (loaded) collision geometry.
    """
    return _merge(_element_parts(link.collision))


#: ``"mesh"``: exact triangle meshes (surfaces); ``"convex_hull"``: one solid convex hull per collision mesh,
#: as PyBullet loads meshes.
COLLISION_GEOMETRY_MODES = ("mesh", "convex_hull")


def collision_geometry(parts: List[Tuple[np.ndarray, np.ndarray]], mode: str = "mesh") -> Optional[Geometry3D]:
    """A klampt geometry of mesh parts ``(vertices, faces)``: one merged triangle mesh, or (``"convex_hull"``)
    the convex hull of each part, grouped when there are several. ``None`` without parts."""
    if mode not in COLLISION_GEOMETRY_MODES:
        raise ValueError("collision geometry mode must be one of {}; got {!r}".format(COLLISION_GEOMETRY_MODES, mode))
    if not parts:
        return None
    if mode == "mesh":
        return Geometry3D(_merge(parts))
    hulls = []
    for V, _ in parts:
        hull = ConvexHull()
        hull.setPoints(np.ascontiguousarray(_solid(V), dtype=float))
        hulls.append(Geometry3D(hull))
    if len(hulls) == 1:
        return hulls[0]
    group = Geometry3D()
    group.setGroup()
    for i, h in enumerate(hulls):
        group.setElement(i, h)
    return group


#: Half thickness (m) given to a flat mesh so that its convex hull is a solid slab.
FLAT_HULL_HALF_THICKNESS = 1e-5


def _solid(V: np.ndarray) -> np.ndarray:
    """``V``, or for coplanar (or collinear) points, the points moved by +- ``FLAT_HULL_HALF_THICKNESS``
    along the missing directions: a hull of no volume is not a solid the collision queries accept."""
    _, sv, Vt = np.linalg.svd(V - V.mean(axis=0))
    tol = 1e-9 * max(float(sv[0]) if len(sv) else 0.0, 1e-12)
    out = V
    for i in range(3):
        if i >= len(sv) or sv[i] <= tol:
            out = np.vstack([out + FLAT_HULL_HALF_THICKNESS * Vt[i], out - FLAT_HULL_HALF_THICKNESS * Vt[i]])
    return out


def link_collision_parts(link) -> List[Tuple[np.ndarray, np.ndarray]]:
    """The collision meshes of a compas ``Link`` as ``(vertices, faces)`` arrays in link coordinates
    (scaled and moved by each element's origin)."""
    return _element_parts(link.collision)


def link_collision_geometry(link, mode: str = "mesh") -> Optional[Geometry3D]:
    """The collision geometry of a compas ``Link`` in link coordinates (see :func:`collision_geometry`)."""
    return collision_geometry(_element_parts(link.collision), mode)


def tool_link_geometries(tool_model, mode: str = "mesh") -> List[Tuple[str, Geometry3D, tuple]]:
    """:func:`tool_link_meshes` as klampt geometries of the given mode: ``(link name, geometry, T_base_link)``."""
    result = []
    for link in tool_model.iter_links():
        geom = link_collision_geometry(link, mode)
        if geom is not None:
            result.append((link.name, geom, tool_link_transform(tool_model, link.name)))
    return result


def rigid_body_geometries(rigid_body, mode: str = "mesh") -> List[Geometry3D]:
    """One klampt geometry per collision mesh of a compas_fab ``RigidBody``, in meters."""
    result = []
    for mesh in rigid_body.collision_meshes_in_meters:
        V, F = _mesh_arrays(mesh)
        if len(F):
            result.append(collision_geometry([(V, F)], mode))
    return result


def tool_link_meshes(tool_model, configuration=None) -> List[Tuple[str, TriangleMesh, tuple]]:
    """The collision meshes of a compas ``ToolModel``: ``(link name, mesh, T_base_link)`` per link with geometry.

    ``T_base_link`` places the link relative to the tool base (its root) at
    ``configuration`` (the zero configuration if ``None``).
    """
    result = []
    for link in tool_model.iter_links():
        tm = link_collision_mesh(link)
        if tm is None:
            continue
        result.append((link.name, tm, tool_link_transform(tool_model, link.name, configuration)))
    return result


def tool_link_transform(tool_model, link_name: str, configuration=None) -> tuple:
    """The pose of a tool link relative to the tool base (its root link)."""
    if link_name == tool_model.root.name:
        return se3.identity()
    if configuration is None:
        configuration = tool_model.zero_configuration()
    return frame_to_se3(tool_model.forward_kinematics(configuration, link_name))


def rigid_body_meshes(rigid_body) -> List[TriangleMesh]:
    """One klampt mesh per collision mesh of a compas_fab ``RigidBody``, in meters."""
    result = []
    for mesh in rigid_body.collision_meshes_in_meters:
        V, F = _mesh_arrays(mesh)
        if len(F):
            result.append(_arrays_to_triangle_mesh(V, F))
    return result


# ---------------------------------------------------------------------------
# Attachments (all se3 transforms in the world frame)
# ---------------------------------------------------------------------------

def tool_base_transform(T_wcf_pcf, tool_state) -> tuple:
    """World pose of an attached tool's base: the planner frame times ``attachment_frame``."""
    return se3.mul(T_wcf_pcf, frame_to_se3(tool_state.attachment_frame))


def workpiece_transform(T_wcf_tool_base, tool_model, rigid_body_state) -> tuple:
    """World pose of a body attached to a tool: tool base * ``tool.frame`` * ``attachment_frame``."""
    return se3.mul(se3.mul(T_wcf_tool_base, frame_to_se3(tool_model.frame)),
                   frame_to_se3(rigid_body_state.attachment_frame))


def link_attachment_transform(T_wcf_link, rigid_body_state) -> tuple:
    """World pose of a body attached to a robot link: link * ``attachment_frame``."""
    return se3.mul(T_wcf_link, frame_to_se3(rigid_body_state.attachment_frame))
