"""Conversions between Klamp't meshes / worlds and the `trimesh
<https://trimesh.org>`_ library (an optional dependency: ``pip install
trimesh``)."""
from typing import Optional, Tuple, Union

import numpy as np

try:
    import trimesh
    import trimesh.visual
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("klampt.io.trimesh_convert needs the optional package 'trimesh' "
                      "(install it with: pip install trimesh)") from exc

from ..math import se3
from ..robotsim import Appearance, Geometry3D, TriangleMesh, WorldModel
from ..model import geometry


def to_trimesh(geom: Union[TriangleMesh, Geometry3D, WorldModel],
               appearance: Optional[Appearance] = None) -> Union['trimesh.Trimesh', 'trimesh.Scene']:
    """Converts a TriangleMesh or triangle-mesh Geometry3D (in its local
    frame) to a ``trimesh.Trimesh``, colored with ``appearance``'s color if
    given, or a WorldModel to a ``trimesh.Scene`` with one node per body with
    a mesh geometry (robot links are children of their parent links)."""
    if isinstance(geom, TriangleMesh):
        res = trimesh.Trimesh(vertices=np.array(geom.getVertices(), dtype=float),
                              faces=np.array(geom.getIndices(), dtype=np.int64), process=False)
        if appearance is not None:
            color = np.round(np.asarray(appearance.getColor(), dtype=float) * 255).astype(np.uint8)
            res.visual = trimesh.visual.ColorVisuals(res, face_colors=np.tile(color, (len(res.faces), 1)))
        return res
    if isinstance(geom, Geometry3D):
        if geom.type() != 'TriangleMesh':
            raise ValueError("Can only convert TriangleMesh geometries to Trimesh, got " + repr(geom.type()))
        return to_trimesh(geom.getTriangleMesh(), appearance)
    if isinstance(geom, WorldModel):
        scene = trimesh.Scene()

        def add(body, node, parent, T):
            g = body.geometry()
            if g.type() == 'TriangleMesh':
                scene.add_geometry(to_trimesh(g, body.appearance()), node_name=node, parent_node_name=parent,
                                   transform=np.array(se3.ndarray(T)))

        for i in range(geom.numRobots()):
            robot = geom.robot(i)
            for j in range(robot.numLinks()):
                link = robot.link(j)
                p = link.getParent()
                if p >= 0:
                    parent = robot.link(p)
                    T = se3.mul(se3.inv(parent.getTransform()), link.getTransform())
                    add(link, robot.getName() + ' ' + link.getName(), robot.getName() + ' ' + parent.getName(), T)
                else:
                    add(link, robot.getName() + ' ' + link.getName(), None, link.getTransform())
        for i in range(geom.numRigidObjects()):
            obj = geom.rigidObject(i)
            add(obj, obj.getName(), None, obj.getTransform())
        for i in range(geom.numTerrains()):
            terrain = geom.terrain(i)
            add(terrain, terrain.getName(), None, se3.identity())
        return scene
    raise ValueError("Invalid input type " + type(geom).__name__)


def _texture_appearance(app: Appearance, image):
    mode = image.mode
    if mode == 'P':
        image = image.convert('RGB')
        mode = 'RGB'
    pixels = np.array(image)
    formats = {'RGB': 'rgb8', 'RGBA': 'rgba8', 'L': 'l8'}
    if mode not in formats:
        raise ValueError("from_trimesh: can't handle texture mode " + mode)
    app.setTexture2D(formats[mode], pixels)


def _appearance_from_visual(mesh) -> Appearance:
    app = Appearance()
    visual = mesh.visual
    if visual.kind is None:
        app.setColor(*[c / 255.0 for c in visual.face_colors[0]])
    elif visual.kind == 'face':
        app.setColors(Appearance.FACES, np.asarray(visual.face_colors, dtype=np.float32) / 255.0)
    elif visual.kind == 'vertex':
        app.setColors(Appearance.VERTICES, np.asarray(visual.vertex_colors, dtype=np.float32) / 255.0)
    elif visual.kind == 'texture':
        material = visual.material
        if isinstance(material, trimesh.visual.material.PBRMaterial):
            base = material.baseColorFactor
            app.setColor(*([c / 255.0 for c in base] if base is not None else [1, 1, 1, 1]))
            if material.baseColorTexture is not None:
                _texture_appearance(app, material.baseColorTexture)
                app.setTexcoords2D(np.asarray(visual.uv, dtype=float))
        elif isinstance(material, trimesh.visual.material.SimpleMaterial):
            app.setColor(*[c / 255.0 for c in material.diffuse])
            if material.image is not None:
                _texture_appearance(app, material.image)
                app.setTexcoords2D(np.asarray(visual.uv, dtype=float))
    return app


def from_trimesh(mesh, flatten=False) -> Union[Tuple[TriangleMesh, Appearance], WorldModel]:
    """Converts a ``trimesh.Trimesh`` to a pair (TriangleMesh, Appearance), or
    a ``trimesh.Scene`` to a WorldModel with one rigid object per geometry
    node (or, with ``flatten``, to one merged (Geometry3D, Appearance) pair
    colored per face)."""
    if isinstance(mesh, trimesh.Trimesh):
        m = TriangleMesh()
        m.setVertices(np.asarray(mesh.vertices, dtype=float))
        m.setIndices(np.asarray(mesh.faces, dtype=np.int32))
        return m, _appearance_from_visual(mesh)
    if isinstance(mesh, trimesh.Scene):
        world = WorldModel()
        for node_name, entry in mesh.graph.to_flattened().items():
            geometry_name = entry.get('geometry')
            if geometry_name is None:
                continue
            m, app = from_trimesh(mesh.geometry[geometry_name])
            obj = world.makeRigidObject(node_name)
            obj.geometry().set(Geometry3D(m))
            obj.appearance().set(app)
            obj.setTransform(*se3.from_ndarray(np.asarray(entry['transform'], dtype=float)))
        if not flatten:
            return world
        geoms = [world.rigidObject(i).geometry() for i in range(world.numRigidObjects())]
        apps = [world.rigidObject(i).appearance() for i in range(world.numRigidObjects())]
        if len(geoms) == 1:
            return geoms[0], apps[0]
        merged = Appearance()
        face_colors = [a.getColor() for g, a in zip(geoms, apps) for _ in range(len(g.getTriangleMesh().getIndices()))]
        merged.setColors(Appearance.FACES, np.array(face_colors, dtype=np.float32))
        return geometry.merge(*geoms), merged
    raise ValueError("Invalid input type " + type(mesh).__name__)
