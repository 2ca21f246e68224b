"""``KlamptClient``: the klampt world that mirrors a COMPAS FAB robot cell."""

from itertools import combinations
from typing import Dict, List, Optional, Tuple

import numpy as np
from compas_fab.backends.interfaces import ClientInterface
from compas_robots import RobotModel as CompasRobotModel

from ..io import compas_fab as convert
from ..math import se3
from ..robotsim import Geometry3D, RigidObjectModel, RobotModel, TriangleMesh, WorldModel

__all__ = ["KlamptClient"]


class ToolPart:
    """One link of a tool with collision geometry: its klampt object and its pose on the tool base."""

    def __init__(self, link_name: str, obj: RigidObjectModel, T_base_link):
        self.link_name = link_name
        self.obj = obj
        self.T_base_link = T_base_link


class KlamptClient(ClientInterface):
    """A COMPAS FAB backend client holding a klampt ``WorldModel``.

    Use it as a context manager (``with KlamptClient() as client:``) or call
    :meth:`connect` / :meth:`disconnect`; the world is created on connect and
    released on disconnect. :class:`~klampt.compas_fab.KlamptPlanner` fills it
    from a ``RobotCell``.

    Args:
        verbose: print what the backend does.
        collision_geometry: ``"mesh"`` (the default: exact triangle meshes,
            surfaces) or ``"convex_hull"`` (PyBullet's: each collision mesh
            of a link, tool link or rigid body replaced by its convex hull,
            a solid).

    Attributes:
        world: the klampt world (``None`` while disconnected).
        robot: the klampt robot of the cell's robot model.
        link_index: compas link name -> klampt link index.
        joint_dof: compas joint name -> klampt DOF.
        mimic: ``(dof, source dof, multiplier, offset)`` per mimic joint.
        link_names: the compas link names, in model order.
        link_geometry: compas link name -> its (non-empty) klampt geometry.
        self_collision_pairs: the link pairs CC.1 checks: both links have
            geometry and the SRDF does not disable the pair.
        tool_parts: tool id -> its :class:`ToolPart` list.
        rigid_body_objects: rigid body id -> one klampt object per collision mesh.
    """

    def __init__(self, verbose: bool = False, collision_geometry: str = "mesh"):
        super().__init__()
        if collision_geometry not in convert.COLLISION_GEOMETRY_MODES:
            raise ValueError("collision_geometry must be one of %s; got %r" % (convert.COLLISION_GEOMETRY_MODES, collision_geometry))
        self.verbose = verbose
        self.collision_geometry = collision_geometry
        self.world: Optional[WorldModel] = None
        #: Counts the times the world was posed from a state (generators re-pose it when it changed).
        self._state_serial = 0
        #: A one-link robot (in a world of its own) that :meth:`_carrying_robot` mounts, made on first use.
        self._carrier_world: Optional[WorldModel] = None
        self._carrier: Optional[RobotModel] = None
        self._clear()

    def _clear(self):
        self.robot: Optional[RobotModel] = None
        self.mapping: Optional[convert.RobotMapping] = None
        self.link_index: Dict[str, int] = {}
        self.joint_dof: Dict[str, int] = {}
        self.mimic: List[Tuple[int, int, float, float]] = []
        self.link_names: List[str] = []
        self.link_geometry: Dict[str, Geometry3D] = {}
        self.self_collision_pairs: List[Tuple[str, str]] = []
        self.tool_parts: Dict[str, List[ToolPart]] = {}
        self.rigid_body_objects: Dict[str, List[RigidObjectModel]] = {}
        self.root_link: int = -1

    # -- connection ---------------------------------------------------------

    @property
    def is_connected(self) -> bool:
        """Whether the client holds a world."""
        return self.world is not None

    def connect(self) -> None:
        """Creates a fresh, empty world."""
        self.world = WorldModel()
        self._clear()

    def disconnect(self) -> None:
        """Releases the world and everything built from the robot cell."""
        self._clear()
        self.world = None
        self._robot_cell = None
        self._robot_cell_state = None

    def __enter__(self) -> "KlamptClient":
        self.connect()
        return self

    def __exit__(self, *args) -> None:
        self.disconnect()

    # -- building the world from a cell ------------------------------------

    def _build(self, robot_cell) -> None:
        """Replaces the world's contents with ``robot_cell``'s robot, tools and rigid bodies."""
        self.connect()
        self._state_serial += 1
        world = self.world
        model = robot_cell.robot_model
        if model is not None:
            self.robot, self.mapping = convert.load_robot_model(world, model)
            self.link_index = self.mapping.link_index
            self.joint_dof = self.mapping.joint_dof
            self.mimic = self.mapping.mimic
            self.root_link = self.link_index[model.root.name]
            self.link_names = [link.name for link in model.iter_links()]
            vertices = {}
            for link in model.iter_links():
                parts = convert.link_collision_parts(link)
                if not parts:
                    continue
                geom = self.robot.link(self.link_index[link.name]).geometry()
                geom.set(convert.collision_geometry(parts, self.collision_geometry))
                self.link_geometry[link.name] = geom
                vertices[link.name] = np.vstack([V for V, _ in parts])
            disabled = robot_cell.robot_semantics.unordered_disabled_collisions if robot_cell.robot_semantics else set()
            self.self_collision_pairs = [
                (a, b) for a, b in combinations(self.link_names, 2)
                if a in self.link_geometry and b in self.link_geometry and {a, b} not in disabled
            ]
            self._bound_self_collision_pairs(vertices)
            self._mask_self_collision()
        for tool_id, tool_model in robot_cell.tool_models.items():
            parts = []
            for link_name, geom, T in convert.tool_link_geometries(tool_model, self.collision_geometry):
                obj = world.makeRigidObject("tool:%s:%s" % (tool_id, link_name))
                obj.geometry().set(geom)
                parts.append(ToolPart(link_name, obj, T))
            self.tool_parts[tool_id] = parts
        for body_id, body in robot_cell.rigid_body_models.items():
            objs = []
            for i, geom in enumerate(convert.rigid_body_geometries(body, self.collision_geometry)):
                obj = world.makeRigidObject("body:%s:%d" % (body_id, i))
                obj.geometry().set(geom)
                objs.append(obj)
            self.rigid_body_objects[body_id] = objs
        self._warm_up()

    def _bound_self_collision_pairs(self, vertices) -> None:
        """Bounding spheres of the link meshes (centre in link coordinates, radius) for the CC.1 broad phase,
        from each link's collision ``vertices``."""
        names = list(self.link_geometry)
        slot = {name: i for i, name in enumerate(names)}
        self._sphere_links = [self.robot.link(self.link_index[n]) for n in names]
        centers, radii = [], []
        for n in names:
            V = vertices[n]
            c = (V.min(axis=0) + V.max(axis=0)) / 2
            centers.append(c)
            radii.append(float(np.sqrt(((V - c) ** 2).sum(axis=1).max())))
        self._sphere_centers = np.array(centers).reshape(-1, 3)
        self._sphere_radii = np.array(radii)
        self._pair_slots = np.array([(slot[a], slot[b]) for a, b in self.self_collision_pairs], dtype=int).reshape(-1, 2)

    def _mask_self_collision(self) -> None:
        """Makes the klampt robot's self-collision pairs exactly the CC.1 pairs (native C-spaces test those)."""
        robot = self.robot
        wanted = {frozenset((self.link_index[a], self.link_index[b])) for a, b in self.self_collision_pairs}
        n = robot.numLinks()
        for i in range(n):
            for j in range(i + 1, n):
                robot.enableSelfCollision(i, j, frozenset((i, j)) in wanted)

    def _carrying_robot(self, carried) -> Tuple[WorldModel, RobotModel, List[int]]:
        """A copy of the world whose robot holds each carried object as a link of its own.

        ``carried`` lists ``(object, link, T_link_object)``: each object's
        geometry becomes a new link welded to ``link`` at ``T_link_object``, so
        that native C-spaces move and test it with the robot. Returns
        ``(world copy, its robot, the new link's index per item)``. The copy
        shares shapes with this world (nothing is rebuilt) and keeps the
        robot's self-collision pairs; the new links' pairs are left off, for
        the caller to enable.
        """
        if self._carrier is None:
            model = CompasRobotModel("carried")
            model.add_link("object")
            self._carrier_world = WorldModel()
            self._carrier, _ = convert.load_robot_model(self._carrier_world, model)
        world = self.world.copy()
        robot = world.robot(self.robot.index)
        links = []
        for obj, link, T in carried:
            robot.mount(link.index, self._carrier, *T)
            links.append(robot.numLinks() - 1)
            robot.link(links[-1]).geometry().set(obj.geometry())
        for i in links:
            for j in range(robot.numLinks()):
                if j != i:
                    robot.enableSelfCollision(i, j, False)
        return world, robot, links

    def _near_self_collision_pairs(self, margin: float = 0.0) -> List[Tuple[str, str]]:
        """The CC.1 pairs whose bounding spheres overlap (within ``margin``), in pair order."""
        if not self.self_collision_pairs:
            return []
        world = np.empty_like(self._sphere_centers)
        for i, link in enumerate(self._sphere_links):
            R, t = link.getTransform()
            world[i] = np.array(R).reshape(3, 3).T @ self._sphere_centers[i] + t
        a, b = self._pair_slots[:, 0], self._pair_slots[:, 1]
        gap = np.linalg.norm(world[a] - world[b], axis=1) - self._sphere_radii[a] - self._sphere_radii[b]
        pairs = self.self_collision_pairs
        return [pairs[i] for i in np.flatnonzero(gap <= margin)]

    def _warm_up(self) -> None:
        """Builds every mesh's collision hierarchy now rather than on its first query."""
        probe = TriangleMesh()
        probe.setVertices([[1e6, 1e6, 1e6], [1e6 + 1e-3, 1e6, 1e6], [1e6, 1e6 + 1e-3, 1e6]])
        probe.setIndices([[0, 1, 2]])
        probe = Geometry3D(probe)
        geoms = list(self.link_geometry.values())
        geoms += [p.obj.geometry() for parts in self.tool_parts.values() for p in parts]
        geoms += [o.geometry() for objs in self.rigid_body_objects.values() for o in objs]
        for g in geoms:
            g.collides(probe)

    # -- low-level state ----------------------------------------------------

    def _set_base(self, base_frame) -> None:
        """Places the robot's root at ``base_frame`` (the identity for ``None``)."""
        self.robot.link(self.root_link).setParentTransform(*convert.frame_to_se3(base_frame))

    def _link_transform(self, link_name: str):
        """The world transform of a compas link."""
        return self.robot.link(self.link_index[link_name]).getTransform()

    def _place_tool(self, tool_id: str, T_wcf_base, configuration=None) -> None:
        """Places every part of a tool from the world pose of its base."""
        tool_model = self.robot_cell.tool_models[tool_id]
        for part in self.tool_parts[tool_id]:
            T = part.T_base_link if configuration is None else \
                convert.tool_link_transform(tool_model, part.link_name, configuration)
            part.obj.setTransform(*se3.mul(T_wcf_base, T))

    def _place_rigid_body(self, body_id: str, T_wcf) -> None:
        for obj in self.rigid_body_objects[body_id]:
            obj.setTransform(*T_wcf)
