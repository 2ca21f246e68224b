"""Export of a WorldModel to the three.js JSON object format (version 4.4):
``threejs_get_scene`` (geometry, materials and the scene graph) and
``threejs_get_transforms`` (the current transforms only, to animate a scene
already sent)."""
import json
import uuid

import numpy as np

from .math import se3, so3
from ._heightmap_colors import heightmap_vertex_colors

_METADATA = {"type": "Object", "version": 4.4, "generator": "Klampt three.js export"}
# three.js is y-up; the world node turns Klamp't's z-up frame into it
_WORLD_MATRIX = [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1]


def _g(value):
    """A number with 6 significant digits, as the reference writes them."""
    v = float('%.6g' % value)
    return int(v) if v.is_integer() and abs(v) < 1e15 else v


def _matrix(T):
    """Column-major 4x4 homogeneous matrix of an se3 element."""
    R, t = T
    return [_g(R[0]), _g(R[1]), _g(R[2]), 0, _g(R[3]), _g(R[4]), _g(R[5]), 0, _g(R[6]), _g(R[7]), _g(R[8]), 0,
            _g(t[0]), _g(t[1]), _g(t[2]), 1]


def _color_int(rgb):
    """0xRRGGBB with channels truncated to 0..255 (as the reference does)."""
    c = [min(255, max(0, int(float(x) * 255))) for x in rgb[:3]]
    return (c[0] << 16) | (c[1] << 8) | c[2]


def _uuid():
    return uuid.uuid4().hex


def _mesh_data(geom):
    """(positions, indices) of a geometry drawn as a mesh, in its local
    frame, or None if it has no surface."""
    gtype = geom.type()
    if gtype == 'TriangleMesh':
        mesh = geom.getTriangleMesh()
    elif gtype in ('GeometricPrimitive', 'ConvexHull', 'VolumeGrid', 'Group', 'Heightmap', 'OccupancyGrid'):
        converted = geom.convert('TriangleMesh')
        if converted.type() != 'TriangleMesh':
            return None
        mesh = converted.getTriangleMesh()
    else:
        return None
    return np.asarray(mesh.getVertices(), dtype=float), np.asarray(mesh.getIndices(), dtype=np.int64)


class _SceneBuilder:
    def __init__(self):
        self.geometries = []
        self.materials = []

    def _add_material(self, appearance, points):
        if points:
            material = {"color": _color_int(appearance.getColor()), "type": "PointsMaterial", "size": 0.01}
        else:
            color = appearance.getColor()
            material = {"color": _color_int(color), "type": "MeshPhongMaterial", "flatShading": 1,
                        "shininess": _g(appearance.getShininess())}
            if float(color[3]) < 1:
                material["opacity"] = _g(color[3])
                material["transparent"] = True
            shininess = appearance.getShininess()
            material["specular"] = _color_int(appearance.getColor(appearance.SPECULAR)) if shininess > 0 else 0
            material["emissive"] = _color_int(appearance.getColor(appearance.EMISSIVE))
        material["uuid"] = _uuid()
        self.materials.append(material)
        return material["uuid"]

    def _add_geometry(self, data):
        entry = {"type": "BufferGeometry", "uuid": _uuid(), "data": data}
        self.geometries.append(entry)
        return entry["uuid"]

    def body_node(self, name, body, T):
        """The scene node of a world body (Mesh, Points, or Group when it has
        nothing to draw)."""
        node = {"name": name, "type": "Group", "matrix": _matrix(T), "uuid": _uuid()}
        geom = body.geometry()
        if geom is None or geom.empty():
            return node
        if geom.type() == 'PointCloud':
            pts = [_g(v) for v in np.asarray(geom.getPointCloud().getPoints(), dtype=float).ravel()]
            attribute = {"type": "Float32Array", "itemSize": 3, "array": pts}
            gid = self._add_geometry({"position": attribute, "attributes": {"position": attribute}})
            node.update(type="Points", geometry=gid, material=self._add_material(body.appearance(), True))
            return node
        data = _mesh_data(geom)
        if data is None:
            return node
        verts, tris = data
        index_type = "Uint16Array" if len(verts) < 65536 else "Uint32Array"
        attributes = {"position": {"type": "Float32Array", "itemSize": 3, "array": [_g(v) for v in verts.ravel()]}}
        colors = heightmap_vertex_colors(geom)
        if colors is not None:
            attributes["color"] = {"type": "Float32Array", "itemSize": 3,
                                   "array": [_g(v) for v in colors[:, :3].ravel()]}
        gid = self._add_geometry({
            "index": {"type": index_type, "itemSize": 1, "array": [int(i) for i in tris.ravel()]},
            "attributes": attributes})
        material = self._add_material(body.appearance(), False)
        if colors is not None:
            # The heightmap's own colours, unmodulated by the body's colour.
            self.materials[-1].update(vertexColors=True, color=0xFFFFFF)
        node.update(type="Mesh", geometry=gid, material=material)
        return node


def _robot_nodes(robot, visit):
    """The robot's link tree: ``visit(name, link, T)`` makes each link's node
    with T relative to its parent link (or the world for root links)."""
    nodes = []
    for i in range(robot.numLinks()):
        link = robot.link(i)
        p = link.getParent()
        T = link.getTransform() if p < 0 else se3.mul(se3.inv(robot.link(p).getTransform()), link.getTransform())
        nodes.append(visit(link.getName(), link, T))
    roots = []
    for i in range(robot.numLinks()):
        p = robot.link(i).getParent()
        if p < 0:
            roots.append(nodes[i])
        else:
            nodes[p].setdefault("children", []).append(nodes[i])
    return roots


def _identity():
    return (so3.identity(), [0.0, 0.0, 0.0])


def threejs_get_scene(world) -> str:
    """Exports the WorldModel to a JSON string ready for use in three.js: a
    y-up ``world`` Scene holding a Group per robot (its links nested by
    parent, each a Mesh / Points / Group node with its transform relative to
    its parent), a node per rigid object and terrain, and a directional
    light; with the BufferGeometry (meshes, converted primitives, point
    clouds) and Phong / Points materials they use."""
    builder = _SceneBuilder()
    children = []
    for i in range(world.numRobots()):
        robot = world.robot(i)
        children.append({"name": robot.getName(), "type": "Group", "matrix": _matrix(_identity()), "uuid": _uuid(),
                         "children": _robot_nodes(robot, builder.body_node)})
    for i in range(world.numRigidObjects()):
        obj = world.rigidObject(i)
        children.append(builder.body_node(obj.getName(), obj, obj.getTransform()))
    for i in range(world.numTerrains()):
        terrain = world.terrain(i)
        children.append(builder.body_node(terrain.getName(), terrain, _identity()))
    children.append({"position": [-4, -8, 20], "color": 0xffffff, "name": "Light 1", "type": "DirectionalLight",
                     "target": {"position": [0, 0, 0]}, "intensity": 1, "uuid": _uuid()})
    scene = {"metadata": dict(_METADATA, fullscene=True), "materials": builder.materials,
             "geometries": builder.geometries,
             "object": {"name": "world", "type": "Scene", "matrix": _WORLD_MATRIX, "uuid": _uuid(),
                        "children": children}}
    return json.dumps(scene)


def threejs_get_transforms(world) -> str:
    """The current transforms of the nodes of :func:`threejs_get_scene`, as
    a JSON string: a flat ``object`` list of ``{name, matrix}`` entries in
    scene order (world, each robot and its links, rigid objects, terrains)."""
    entries = [{"name": "world", "matrix": _WORLD_MATRIX}]
    for i in range(world.numRobots()):
        robot = world.robot(i)
        entries.append({"name": robot.getName(), "matrix": _matrix(_identity())})
        for j in range(robot.numLinks()):
            link = robot.link(j)
            p = link.getParent()
            T = link.getTransform() if p < 0 else se3.mul(se3.inv(robot.link(p).getTransform()), link.getTransform())
            entries.append({"name": link.getName(), "matrix": _matrix(T)})
    for i in range(world.numRigidObjects()):
        obj = world.rigidObject(i)
        entries.append({"name": obj.getName(), "matrix": _matrix(obj.getTransform())})
    for i in range(world.numTerrains()):
        entries.append({"name": world.terrain(i).getName(), "matrix": _matrix(_identity())})
    return json.dumps({"metadata": dict(_METADATA, fullscene=False), "object": entries})
