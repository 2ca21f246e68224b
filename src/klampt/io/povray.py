"""Renders a Klamp't scene with POV-Ray: the robots, rigid objects and
terrains of a world, and the geometry items of a :mod:`klampt.vis` scene,
seen from the visualization's camera.

The scene is built with `vapory <https://pypi.org/project/vapory/>`_ and
rendered by the ``povray`` program (Debian/Ubuntu: ``apt-get install
povray``). A ``properties`` dict carries everything POV-Ray takes that
Klamp't does not model (lights, materials, output file, quality); fill it
with the helpers below rather than by hand::

    from klampt import vis
    from klampt.io import povray

    vis.add('world', world)
    vis.autoFitCamera()
    properties = {}
    povray.add_multiple_lights(properties, world.robot(0), dist=3.0, numLight=3)
    povray.render_to_file(properties, 'robot.png')
    povray.to_povray(vis, world, properties)

Per-object settings live in ``properties[name]`` (a dict), where ``name`` is
the object's ``getName()``: ``'hide'``, ``'texture'``, ``'pigment'``,
``'finish'``, ``'normal'``, ``'ambient'``, ``'diffuse'``, ``'phong'``,
``'phong_size'``, ``'transmit'``, ``'smooth'``, ``'radius'`` (points,
segments, point clouds) and ``'transient'``; the same keys at the top level
apply to every object.
"""
import json
import math
import os
import re
import shutil
import subprocess
import tempfile as _tempfile
import warnings

import numpy as np

from klampt import Appearance, Geometry3D
from klampt.math import se3, vectorops

try:
    import vapory as vp
except ImportError as e:
    raise ImportError("klampt.io.povray needs vapory: pip install vapory "
                      "(and the povray program: apt-get install povray)") from e

_POVRAY = 'povray.exe' if os.name == 'nt' else 'povray'

#: The lights used when ``properties`` has none: the directions and
#: intensities of klampt.vis's two directional lights.
_DEFAULT_LIGHTS = (([0.0, -1.0, 2.0], 1.0), ([-1.0, 2.0, 1.0], 0.5))


def patch_vapory():
    """Adds the mesh elements (Mesh, Mesh2, VertexVectors, NormalVectors,
    FaceIndices) to vapory versions that lack them."""
    for name in ['Mesh', 'Mesh2', 'VertexVectors', 'NormalVectors', 'FaceIndices']:
        if not hasattr(vp, name):
            setattr(vp, name, type(name, (vp.POVRayElement, object), {}))


def _keys_of(o):
    """The keys ``properties`` may hold an object's settings under: the
    object itself (when hashable) and its name."""
    keys = []
    try:
        hash(o)
        keys.append(o)
    except TypeError:
        pass
    get_name = getattr(o, 'getName', None)
    if callable(get_name):
        keys.append(get_name())
    return keys


def get_property(properties, objects, name, default=None):
    """The setting ``name`` of the first of ``objects`` that has one in
    ``properties`` (looked up by the object, then by its name), else the
    top-level ``properties[name]``, else ``default``. ``objects`` may be
    None or empty for top-level settings."""
    for o in objects or ():
        for key in _keys_of(o):
            try:
                entry = properties.get(key)
            except TypeError:
                continue
            if isinstance(entry, dict) and name in entry:
                return entry[name]
    return properties[name] if name in properties else default


def get_property_yes(properties, objects, name, default=None):
    """True if the setting (see :func:`get_property`) is set and is not a
    number <= 0 (``False`` counts as 0)."""
    ret = get_property(properties, objects, name, default)
    return ret is not None and (not isinstance(ret, (int, float)) or ret > 0)


def create_env_light_for_bb(bb, distRatio=1.5, zdim=2, nLight=3):
    """Positions of ``nLight`` lights on a circle above a bounding box
    (``distRatio`` times its height above its top, ``1 + distRatio`` times
    its half-diagonal from its axis; ``zdim`` is the vertical axis), and the
    centre of the box's bottom face they should aim at.

    Returns:
        tuple: (list of positions, target)
    """
    xdim = (zdim + 1) % 3
    ydim = (zdim + 2) % 3
    ctr = [0.0, 0.0, 0.0]
    ctr[xdim] = (bb[0][xdim] + bb[1][xdim]) / 2
    ctr[ydim] = (bb[0][ydim] + bb[1][ydim]) / 2
    ctr[zdim] = (bb[1][zdim] - bb[0][zdim]) * distRatio + bb[1][zdim]
    dist = math.hypot((bb[1][xdim] - bb[0][xdim]) / 2, (bb[1][ydim] - bb[0][ydim]) / 2) * (1.0 + distRatio)
    pos = []
    for d in range(nLight):
        ang = math.pi * 2 * d / nLight
        p = list(ctr)
        p[xdim] += dist * math.cos(ang)
        p[ydim] += dist * math.sin(ang)
        pos.append(p)
    tgt = list(ctr)
    tgt[zdim] = bb[0][zdim]
    return pos, tgt


def _texture(appearance, keys, properties):
    """The object's texture: the 'texture' setting, or one made of its
    pigment (the appearance's color), finish and normal settings."""
    tex = get_property(properties, keys, 'texture')
    if tex is not None:
        return tex
    pigment = get_property(properties, keys, 'pigment')
    if pigment is None:
        color = list(appearance.getColor())
        pigment = vp.Pigment('color', color[:3], 'transmit',
                             get_property(properties, keys, 'transmit', 1.0 - color[3]))
    params = [pigment]
    finish = get_property(properties, keys, 'finish')
    if finish is None:
        finish = vp.Finish('ambient', get_property(properties, keys, 'ambient', 0.2),
                           'diffuse', get_property(properties, keys, 'diffuse', 0.7),
                           'phong', get_property(properties, keys, 'phong', 1.0),
                           'phong_size', get_property(properties, keys, 'phong_size', 50))
    params.append(finish)
    normal = get_property(properties, keys, 'normal')
    if normal is not None:
        params.append(normal)
    return vp.Texture(*params)


def _matrix(T):
    """POV-Ray's ``matrix`` (12 numbers, rows of the 4x3 matrix acting on
    row vectors): the columns of R, then t."""
    return [float(v) for v in list(T[0]) + list(T[1])]


def _vectors(rows, fmt):
    return ','.join(fmt % tuple(r) for r in rows)


def _mesh2(vertices, triangles, smooth, tex, T):
    """A mesh2 object in local coordinates, placed by T; None if empty."""
    vertices = np.asarray(vertices, dtype=float).reshape(-1, 3)
    triangles = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    if len(triangles) == 0:
        return None
    if triangles.min() < 0 or triangles.max() >= len(vertices):
        raise ValueError("triangle mesh has indices outside its %d vertices" % len(vertices))
    params = [vp.VertexVectors('%d,' % len(vertices), _vectors(vertices.tolist(), '<%.7g,%.7g,%.7g>'))]
    if smooth:
        a, b, c = (vertices[triangles[:, i]] for i in range(3))
        face_normals = np.cross(b - a, c - a)  # area-weighted
        normals = np.zeros_like(vertices)
        for i in range(3):
            np.add.at(normals, triangles[:, i], face_normals)
        lengths = np.linalg.norm(normals, axis=1, keepdims=True)
        normals = np.where(lengths > 0, normals / np.where(lengths > 0, lengths, 1.0), [0.0, 0.0, 1.0])
        params.append(vp.NormalVectors('%d,' % len(normals), _vectors(normals.tolist(), '<%.6g,%.6g,%.6g>')))
    params.append(vp.FaceIndices('%d,' % len(triangles), _vectors(triangles.tolist(), '<%d,%d,%d>')))
    params += [tex, 'matrix', _matrix(T)]
    return vp.Mesh2(*params)


def _point_radius(properties, keys, points):
    """The 'radius' setting, else 1/200 of the points' bounding-box diagonal."""
    rad = get_property(properties, keys, 'radius')
    if rad is not None:
        return float(rad)
    diag = float(np.linalg.norm(points.max(axis=0) - points.min(axis=0))) if len(points) else 0.0
    return diag / 200 if diag > 0 else 0.005


def _geometry_elements(appearance, geometry, object, T, properties):
    """The POV-Ray objects of a geometry whose local frame is at T."""
    keys = [geometry, object]
    if get_property_yes(properties, keys, 'hide'):
        return []
    tex = _texture(appearance, keys, properties)
    gtype = geometry.type()
    if gtype == '':
        return []
    if gtype == 'Group':
        ret = []
        for i in range(geometry.numElements()):
            elem = geometry.getElement(i)
            ret += _geometry_elements(appearance, elem, object, se3.mul(T, elem.getCurrentTransform()), properties)
        return ret
    if gtype == 'GeometricPrimitive':
        prim = geometry.getGeometricPrimitive()
        keys = [prim] + keys
        if get_property_yes(properties, keys, 'hide'):
            return []
        p = [float(v) for v in prim.properties]
        if prim.type == 'Point':
            rad = get_property(properties, keys, 'radius')
            return [] if rad is None else [vp.Sphere(p[0:3], rad, tex, 'matrix', _matrix(T))]
        if prim.type == 'Sphere':
            return [vp.Sphere(p[0:3], p[3], tex, 'matrix', _matrix(T))]
        if prim.type == 'Segment':
            rad = get_property(properties, keys, 'radius')
            return [] if rad is None else [vp.Cylinder(p[0:3], p[3:6], rad, tex, 'matrix', _matrix(T))]
        if prim.type == 'AABB':
            return [vp.Box(p[0:3], p[3:6], tex, 'matrix', _matrix(T))]
        if prim.type == 'Box':  # corner, then the axes (the columns of its rotation), then the sizes
            return [vp.Box([0, 0, 0], p[12:15], tex, 'matrix', _matrix(se3.mul(T, (p[3:12], p[0:3]))))]
    if gtype == 'PointCloud':
        points = np.asarray(geometry.getPointCloud().getPoints(), dtype=float).reshape(-1, 3)
        if len(points) == 0:
            return []
        rad = _point_radius(properties, [geometry.getPointCloud()] + keys, points)
        spheres = [vp.Sphere(pt, rad) for pt in points.tolist()]
        return [vp.Union(*(spheres + [tex, 'matrix', _matrix(T)]))]
    if gtype == 'TriangleMesh':
        mesh = geometry.getTriangleMesh()
    else:
        try:
            mesh = geometry.convert('TriangleMesh').getTriangleMesh()
        except Exception as e:
            name = object.getName() if callable(getattr(object, 'getName', None)) else object
            warnings.warn("klampt.io.povray: geometry of %s (type %s) cannot be rendered: %s" % (name, gtype, e))
            return []
    obj = _mesh2(mesh.vertices, mesh.indices, get_property_yes(properties, keys, 'smooth'), tex, T)
    return [] if obj is None else [obj]


def geometry_to_povray(appearance, geometry, object, transform, properties):
    """The POV-Ray objects (vapory elements) of a geometry.

    Triangle meshes become ``mesh2`` objects (with per-vertex normals if the
    'smooth' setting is on); spheres, boxes (axis-aligned or oriented), and points and
    segments with a 'radius' setting become spheres, boxes and cylinders; point clouds
    a union of spheres; groups their elements; other types (convex hulls,
    implicit surfaces, occupancy grids, heightmaps) their triangle mesh.
    Geometry is written in its own frame and placed by a ``matrix``.

    Args:
        appearance (Appearance): gives the color (alpha < 1 is drawn as
            transmit) unless the 'texture' or 'pigment' setting is given.
        geometry (Geometry3D): the geometry.
        object: its owner (a link, object or terrain), whose name keys its
            settings in ``properties``.
        transform (se3 element or None): a transform applied after the
            geometry's current transform.
        properties (dict): see the module documentation.

    Returns:
        list: vapory elements ([] if hidden or empty).
    """
    T = geometry.getCurrentTransform()
    if transform is not None:
        T = se3.mul(transform, T)
    return _geometry_elements(appearance, geometry, object, T, properties)


def _check_size(name, value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0):
        raise ValueError("%s must be a positive integer, got %r" % (name, value))


def _run(cmd, cwd):
    try:
        process = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
    except FileNotFoundError as e:
        raise IOError("POV-Ray is not installed: the '%s' program was not found "
                      "(apt-get install povray)" % cmd[0]) from e
    if process.returncode:
        raise IOError("POVRay rendering failed with the following error: " + process.stderr.decode('utf-8', 'replace'))


def render_povstring(string, outfile=None, height=None, width=None, quality=None, antialiasing=None,
                     remove_temp=True, show_window=False, tempfile=None, includedirs=None, output_alpha=False,
                     render=True):
    """Renders a POV-Ray scene description.

    The scene is written to ``tempfile`` (default: a file in a new temporary
    folder) and POV-Ray runs in that file's folder, so relative
    ``#include`` paths are relative to it (POV-Ray's default security
    settings only let it read and write there and under /tmp).

    Args:
        string (str): POV-Ray code, e.g. ``str(vapory.Scene(...))``.
        outfile (str, optional): the PNG file to write. With None nothing is
            rendered: the scene file is kept and the command that renders it
            (a list, ``cmd[1]`` being the scene file) is returned. With
            'ipython' the image is returned as an ``IPython.display.Image``.
        height, width (int, optional): image size in pixels.
        quality (int, optional): POV-Ray's quality level (0-11, ``+Q``).
        antialiasing (float, optional): antialiasing threshold (``+A``);
            None for no antialiasing.
        remove_temp (bool): delete the scene file after rendering.
        show_window (bool): show POV-Ray's preview window.
        tempfile (str, optional): where to write the scene file.
        includedirs (list of str, optional): library paths (``+L``).
        output_alpha (bool): transparent background in the PNG.
        render (bool): False writes the scene file and returns the command
            without running it.

    Returns:
        None after rendering to a file, the command (list of str) when not
        rendering, or an IPython Image for ``outfile='ipython'``.

    Raises:
        IOError: if POV-Ray is missing or fails (with its messages).
    """
    _check_size('height', height)
    _check_size('width', width)
    own_dir = None
    if tempfile is None:
        own_dir = _tempfile.mkdtemp(prefix='klampt_povray_')
        tempfile = os.path.join(own_dir, 'scene.pov')
    folder = os.path.dirname(os.path.abspath(tempfile))
    os.makedirs(folder, exist_ok=True)
    with open(tempfile, 'w') as f:
        f.write(string)

    cmd = [_POVRAY, tempfile]
    if height is not None:
        cmd.append('+H%d' % height)
    if width is not None:
        cmd.append('+W%d' % width)
    if quality is not None:
        cmd.append('+Q%d' % quality)
    if antialiasing is not None:
        cmd.append('+A%f' % antialiasing)
    if output_alpha:
        cmd.append('Output_Alpha=on')
    cmd.append('+D' if show_window else '-D')
    for d in includedirs or ():
        cmd.append('+L%s' % d)
    if outfile is None or not render:
        return cmd + ['Output_File_Type=P', '+O-']

    stem = os.path.splitext(os.path.basename(tempfile))[0]
    image = stem + '.png'
    cmd[1] = os.path.basename(tempfile)
    cmd += ['Output_File_Type=N', '+O%s' % image]
    try:
        _run(cmd, folder)
        rendered = os.path.join(folder, image)
        if outfile == 'ipython':
            from IPython.display import Image
            with open(rendered, 'rb') as f:
                return Image(data=f.read(), format='png')
        out_folder = os.path.dirname(os.path.abspath(outfile))
        os.makedirs(out_folder, exist_ok=True)
        if os.path.abspath(outfile) != rendered:
            shutil.move(rendered, outfile)
        return None
    finally:
        if remove_temp and os.path.exists(tempfile):
            os.remove(tempfile)
        if own_dir is not None:
            shutil.rmtree(own_dir, ignore_errors=True)


def _viewport_of(vis):
    """The GLViewport of a klampt.vis module or scene (getViewport()), a
    GLProgram (.view), or a GLViewport."""
    if all(hasattr(vis, a) for a in ('camera', 'fov', 'w', 'h')):
        return vis
    get = getattr(vis, 'getViewport', None)
    if callable(get):
        return get()
    view = getattr(vis, 'view', None)
    if view is not None and hasattr(view, 'camera'):
        return view
    raise TypeError("to_povray needs klampt.vis, a VisualizationScene, a GLProgram or a GLViewport, not %s"
                    % type(vis).__name__)


def _scene_of(vis):
    """The VisualizationScene behind ``vis`` (a scene: it has items and a
    background colour; or the klampt.vis module's scene()), or None."""
    if hasattr(vis, 'items') and hasattr(vis, 'backgroundColor'):
        return vis
    get = getattr(vis, 'scene', None)
    if callable(get) and getattr(vis, '__name__', '').startswith('klampt.vis'):
        scene = get()
        return scene if hasattr(scene, 'items') and hasattr(scene, 'backgroundColor') else None
    return None


def _camera(view, properties):
    """The POV-Ray camera of a viewport: at the eye, looking along the
    view direction, ``angle`` = the horizontal field of view."""
    R, eye = view.camera.matrix()
    right, up, back = R[0:3], R[3:6], R[6:9]
    forward = vectorops.mul(back, -1.0)
    aspect = float(view.w) / view.h
    if view.orthogonal:
        width = view.camera.dist * 2.0 * math.tan(math.radians(view.fov) * 0.5)
        return vp.Camera('orthographic', 'location', list(eye), 'direction', forward,
                         'right', vectorops.mul(right, width), 'up', vectorops.mul(up, width / aspect))
    params = ['perspective', 'location', list(eye), 'direction', forward,
              'right', vectorops.mul(right, aspect), 'up', list(up), 'angle', float(view.fov)]
    sky = get_property(properties, [], 'sky')
    if sky is not None:
        params += ['sky', list(sky), 'look_at', vectorops.add(eye, forward)]
    return vp.Camera(*params)


class _VisGeometry:
    """A geometry item of a vis scene, drawn like an object: its name is the
    item's name."""

    def __init__(self, name, geometry, appearance):
        self.name = name
        self.geom = geometry
        self.app = appearance

    def getName(self):
        """The vis item's name."""
        return self.name

    def geometry(self):
        """The item's Geometry3D."""
        return self.geom

    def appearance(self):
        """The appearance it is drawn with."""
        return self.app


_ELEMENT_TYPES = {'RobotModelLink', 'RigidObjectModel', 'TerrainModel'}
_GEOMETRY_TYPES = {'Geometry3D', 'TriangleMesh', 'PointCloud', 'GeometricPrimitive', 'ConvexHull', 'VolumeGrid',
                   'ImplicitSurface', 'OccupancyGrid', 'Heightmap'}


def _class_names(item):
    return {c.__name__ for c in type(item).__mro__}


def _element_key(obj):
    """Identifies a world element across Python handles."""
    return (type(obj).__name__, obj.world, obj.getID())


def _colored(color):
    a = Appearance()
    a.setColor(*([float(c) for c in color] + [1.0] * (4 - len(color))))
    return a


def _vis_bodies(scene):
    """(object, appearance) of what the vis scene draws as solids, and the
    keys of the world elements it covers (hidden ones included)."""
    bodies, covered = [], set()

    def visit(app, hidden):
        hidden = hidden or bool(app.attributes.get('hidden', False))
        item = app.item
        names = _class_names(item)
        if names & {'WorldModel', 'RobotModel'}:
            for sub in app.subAppearances.values():
                visit(sub, hidden)
        elif names & _ELEMENT_TYPES:
            covered.add(_element_key(item))
            if hidden:
                return
            appearance = app.customAppearance
            if appearance is None:
                color = None if app.useDefaultAppearance else app.attributes.get('color')
                appearance = item.appearance() if color is None else _colored(color)
            bodies.append((item, appearance))
        elif names & _GEOMETRY_TYPES and not hidden:
            geom = item if 'Geometry3D' in names else Geometry3D(item)
            appearance = app.customAppearance or app.attributes.get('appearance')
            if appearance is None:
                color = app.attributes.get('color')
                appearance = Appearance() if color is None else _colored(color)
            bodies.append((_VisGeometry(str(app.name), geom, appearance), appearance))

    for app in list(scene.items.values()):
        visit(app, False)
    return bodies, covered


def _world_bodies(world):
    objs = [world.terrain(i) for i in range(world.numTerrains())]
    objs += [world.rigidObject(i) for i in range(world.numRigidObjects())]
    for r in range(world.numRobots()):
        robot = world.robot(r)
        objs += [robot.link(i) for i in range(robot.numLinks())]
    return objs


def _cache_name(obj):
    name = re.sub(r'[^A-Za-z0-9_.-]', '_', str(obj.getName()))
    if callable(getattr(obj, 'getID', None)):
        name += '_%s%d' % (type(obj).__name__, obj.getID())
    return name + '.pov'


def _cached_object(obj, appearance, folder, properties):
    """An object not marked transient: its geometry in its own frame is
    written once to ``folder``, then included and placed by a matrix."""
    name = _cache_name(obj)
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        geom = _geometry_elements(appearance, obj.geometry(), obj, se3.identity(), properties)
        if not geom:
            return None
        content = vp.Union(*geom) if len(geom) > 1 else vp.Object(*geom)
        with open(path, 'w') as f:
            f.write(str(content))
    return vp.Object('#include "%s"' % name, 'matrix', _matrix(obj.geometry().getCurrentTransform()))


def _default_lights(objs):
    """klampt.vis's two directional lights, as parallel lights placed far
    beyond the objects."""
    bb = None
    for obj in objs:
        try:
            b = obj.geometry().getBB()
        except Exception:
            continue
        if all(math.isfinite(v) for v in list(b[0]) + list(b[1])):
            bb = union_bb(bb, (list(b[0]), list(b[1])))
    if bb is None:
        bb = ([-1.0] * 3, [1.0] * 3)
    center = vectorops.mul(vectorops.add(bb[0], bb[1]), 0.5)
    reach = 100.0 * max(1.0, vectorops.distance(bb[0], bb[1]))
    lights = []
    for direction, intensity in _DEFAULT_LIGHTS:
        pos = vectorops.madd(center, vectorops.unit(direction), reach)
        lights.append(vp.LightSource(pos, 'color', [intensity] * 3, 'parallel', 'point_at', center))
    return lights


def to_povray(vis, world, properties={}):
    """Renders what the visualization shows with POV-Ray (or writes the
    scene for later rendering, see :func:`render_to_animation`).

    The camera is the visualization's viewport (eye, orientation,
    horizontal field of view and image size ``w`` x ``h``). The objects are,
    in order: ``properties['visualObjects']`` (anything with ``geometry()``,
    ``appearance()`` and ``getName()``); when ``vis`` is the ``klampt.vis``
    module or a VisualizationScene, the robots, rigid objects, terrains and
    geometry items in it, with the colors and appearances set in vis and
    without hidden items; and the terrains, rigid objects and robot links of
    ``world`` not already drawn. Lights are ``properties['lights']`` (see
    :func:`add_light`); a scene without any gets klampt.vis's two
    directional lights.

    Top-level settings: 'outfile', 'tempfile', 'remove_temp' (set by
    :func:`render_to_file` / :func:`render_to_animation`), 'quality',
    'antialiasing' (default 0.3; None turns it off), 'output_alpha'
    (default True: transparent background), 'background' (an rgb color;
    default the vis background color when ``vis`` has a scene, else none),
    'included', 'global_settings', 'includedirs', 'show_window', 'sky'
    (roll the camera so its up vector lies in the plane of the view
    direction and ``sky``) and 'cache_folder' (where objects marked not
    transient are written once; default the scene file's folder, or a
    temporary folder kept for this ``properties``).

    Args:
        vis: ``klampt.vis``, a VisualizationScene, a GLProgram (its
            ``view``) or a GLViewport.
        world (WorldModel or None): the world to draw.
        properties (dict): see above and the module documentation.

    Returns:
        None after rendering to ``properties['outfile']``; without an
        outfile, the povray command that renders the scene file.
    """
    patch_vapory()
    view = _viewport_of(vis)
    _check_size('viewport width', view.w)
    _check_size('viewport height', view.h)
    camera = _camera(view, properties)

    tempfile = get_property(properties, [], 'tempfile')

    def cache_folder():
        folder = get_property(properties, [], 'cache_folder')
        if folder is None:
            if tempfile is not None:
                folder = os.path.dirname(os.path.abspath(tempfile))
            else:
                folder = properties['cache_folder'] = _tempfile.mkdtemp(prefix='klampt_povray_')
        os.makedirs(folder, exist_ok=True)
        return folder

    bodies = [(o, o.appearance()) for o in properties.get('visualObjects', [])]
    covered = set()
    scene = _scene_of(vis)
    background = get_property(properties, [], 'background')
    if scene is not None:
        apps = list(scene.items.values())
        for app in apps:
            app.swapDrawConfig()
        try:
            vis_bodies, covered = _vis_bodies(scene)
            bodies += vis_bodies
            objects, folder = _objects(bodies, world, covered, cache_folder, properties)
        finally:
            for app in apps:
                app.swapDrawConfig()
        if background is None:
            background = scene.backgroundColor[:3]
    else:
        objects, folder = _objects(bodies, world, covered, cache_folder, properties)

    lights = properties.get('lights')
    if not lights:
        lights = _default_lights([o for o, _ in bodies] + (_world_bodies(world) if world is not None else []))
    objects += list(lights)
    if background is not None:
        objects.append(vp.Background('color', [float(c) for c in background[:3]]))
    povscene = vp.Scene(camera=camera, objects=objects, included=get_property(properties, [], 'included', []),
                        global_settings=get_property(properties, [], 'global_settings', []))
    outfile = get_property(properties, [], 'outfile')
    includedirs = list(get_property(properties, [], 'includedirs') or [])
    if folder is not None:
        includedirs.append(os.path.abspath(folder))  # where POV-Ray finds the cached objects
    result = render_povstring(str(povscene), outfile=outfile, width=view.w, height=view.h,
                              quality=get_property(properties, [], 'quality'),
                              antialiasing=get_property(properties, [], 'antialiasing', 0.3),
                              remove_temp=get_property(properties, [], 'remove_temp', False),
                              show_window=get_property(properties, [], 'show_window', False),
                              tempfile=tempfile, includedirs=includedirs or None,
                              output_alpha=get_property(properties, [], 'output_alpha', True))
    if outfile is None:
        with open(os.path.join(os.path.dirname(os.path.abspath(result[1])), 'cmd.dat'), 'a') as f:
            f.write(json.dumps(result) + '\n')
    return result


def _objects(bodies, world, covered, cache_folder, properties):
    """The POV-Ray objects of the bodies and of the world elements not in
    ``covered``, and the folder of the cached objects they include (None if
    none)."""
    if world is not None:
        bodies = bodies + [(o, o.appearance()) for o in _world_bodies(world) if _element_key(o) not in covered]
    objects, folder = [], None
    for obj, appearance in bodies:
        if get_property(properties, [obj], 'transient', True):
            objects += _geometry_elements(appearance, obj.geometry(), obj, obj.geometry().getCurrentTransform(),
                                          properties)
        else:
            folder = cache_folder()
            cached = _cached_object(obj, appearance, folder, properties)
            if cached is not None:
                objects.append(cached)
    return objects, folder


def union_bb(a, b):
    """The union of two bounding boxes (bmin, bmax); either may be None and
    ``b`` may be a point."""
    if a is None:
        return b
    if b is None:
        return a
    if not isinstance(b[0], (list, tuple)):
        b = (b, b)
    return ([min(x, y) for x, y in zip(a[0], b[0])], [max(x, y) for x, y in zip(a[1], b[1])])


def compute_bb(entity):
    """The tight bounding box of a robot (all links) or of anything with a
    ``geometry()``."""
    if type(entity).__name__ == 'RobotModel':
        bb = None
        for i in range(entity.numLinks()):
            bb = union_bb(compute_bb(entity.link(i)), bb)
        return bb
    bb = entity.geometry().getBBTight()
    if not all(math.isfinite(v) for v in list(bb[0]) + list(bb[1])):
        return None
    return (list(bb[0]), list(bb[1]))


def render_to_file(properties, file):
    """Sets up ``properties`` so that :func:`to_povray` renders a PNG image
    to ``file``."""
    properties['tempfile'] = None
    properties['remove_temp'] = True
    properties['outfile'] = file


def render_to_animation(properties, folder):
    """Sets up ``properties`` so that :func:`to_povray` writes the next
    frame's scene, ``folder/<n>.pov``, without rendering it; the command
    that renders it is appended to ``folder/cmd.dat``. Render the frames
    with :func:`klampt.io.povray_animation.render_animation`."""
    os.makedirs(folder, exist_ok=True)
    frames = [int(f[:-4]) for f in os.listdir(folder) if re.fullmatch(r'[0-9]+\.pov', f)]
    properties['tempfile'] = os.path.join(folder, '%d.pov' % (max(frames, default=-1) + 1))
    properties['remove_temp'] = False
    properties['outfile'] = None
    properties['cache_folder'] = folder


def add_light(properties, pos, tgt=None, color=[1., 1., 1.], spotlight=False, radius=15., falloff=20.,
              tightness=10., area=0., sample=9, adaptive=True, jitter=True):
    """Adds a light source to ``properties['lights']``.

    Args:
        pos: the position, or a list of positions (one light each).
        tgt: the point it aims at (spotlights and area lights), or a list
            of targets matching ``pos``.
        color: rgb intensity.
        spotlight (bool): a spotlight with ``radius``, ``falloff`` and
            ``tightness`` (degrees / exponent, as in POV-Ray).
        area (float): > 0 makes an area light of this size facing ``tgt``,
            with ``sample`` x ``sample`` lights, ``adaptive`` and ``jitter``
            (soft shadows).
    """
    properties.setdefault('lights', [])
    if isinstance(pos[0], (list, tuple)):
        targets = tgt if tgt is not None and isinstance(tgt[0], (list, tuple)) else [tgt] * len(pos)
        if len(targets) != len(pos):
            raise ValueError("add_light: %d positions but %d targets" % (len(pos), len(targets)))
        for p, t in zip(pos, targets):
            add_light(properties, p, t, color, spotlight, radius, falloff, tightness, area, sample, adaptive,
                      jitter)
        return
    if (spotlight or area > 0) and tgt is None:
        raise ValueError("add_light: spotlights and area lights need a target")
    params = [list(pos), 'color', list(color)]
    if spotlight:
        params += ['spotlight', 'radius', radius, 'falloff', falloff, 'tightness', tightness, 'point_at', list(tgt)]
    if area > 0.:
        d = vectorops.sub(tgt, pos)
        if vectorops.norm(d) == 0:
            raise ValueError("add_light: an area light's target must differ from its position")
        d = vectorops.unit(d)
        axis = [0.0, 0.0, 0.0]
        axis[min(range(3), key=lambda i: abs(d[i]))] = 1.0
        t1 = vectorops.unit(vectorops.cross(d, axis))
        t0 = vectorops.cross(d, t1)
        params += ['area_light', vectorops.mul(t0, area), vectorops.mul(t1, area), sample, sample]
        if adaptive:
            params += ['adaptive', 1]
        if jitter:
            params.append('jitter')
    properties['lights'].append(vp.LightSource(*params))


def add_multiple_lights(properties, object, dist, numLight, gravity=[0, 0, -9.81], tgt=None, color=[1., 1., 1.],
                        spotlight=False, radius=15., falloff=20., tightness=10., area=0., sample=9, adaptive=True,
                        jitter=True):
    """Adds ``numLight`` lights (see :func:`add_light`) evenly spaced on a
    horizontal circle (normal to ``gravity``) of radius ``dist`` centred
    above the object's bounding box, at the height of its top, all aimed at
    the box's centre (or at ``tgt``). The object is a robot or anything
    with a ``geometry()``."""
    if vectorops.norm(gravity) == 0:
        raise ValueError("add_multiple_lights: gravity must be nonzero")
    g = vectorops.mul(gravity, -1 / vectorops.norm(gravity))
    gabs = [abs(gi) for gi in g]
    axis = [1. if i == gabs.index(min(gabs)) else 0. for i in range(3)]
    t1 = vectorops.unit(vectorops.cross(axis, g))
    t0 = vectorops.cross(t1, g)
    bb = compute_bb(object)
    if bb is None:
        raise ValueError("add_multiple_lights: the object has no geometry")
    ctr = vectorops.mul(vectorops.add(bb[0], bb[1]), 0.5)
    distg = sum(abs((bb[1][i] - bb[0][i]) / 2 * g[i]) for i in range(3))
    for i in range(numLight):
        angle = math.pi * 2 * i / numLight
        pos = vectorops.add(vectorops.madd(ctr, g, distg),
                            vectorops.add(vectorops.mul(t0, math.sin(angle) * dist),
                                          vectorops.mul(t1, math.cos(angle) * dist)))
        add_light(properties, pos, ctr if tgt is None else tgt, color, spotlight, radius, falloff, tightness, area,
                  sample, adaptive, jitter)


def _settings(properties, object):
    return properties.setdefault(object.getName(), {})


def mark_transient(properties, object, transient=False):
    """Marks whether an object changes over time. An object marked not
    transient is converted once and reused in later frames (placed at its
    current transform), which saves time for large static meshes."""
    _settings(properties, object)['transient'] = transient


def mark_terrain_transient(properties, world, transient=False):
    """:func:`mark_transient` for every terrain of the world."""
    for i in range(world.numTerrains()):
        mark_transient(properties, world.terrain(i), transient)


def mark_robot_transient(properties, robot, transient=False):
    """:func:`mark_transient` for every link of the robot (their shapes do
    not change; they are still placed where the links are)."""
    for i in range(robot.numLinks()):
        mark_transient(properties, robot.link(i), transient)


def set_material(properties, object, finish, normal):
    """Draws an object with a POV-Ray finish and normal instead of the
    default finish.

    Args:
        finish (vapory.Finish or None): e.g. ``vapory.Finish('phong', 0.9,
            'reflection', 0.2)``.
        normal (vapory.Normal or None): e.g. ``vapory.Normal('bumps', 0.3,
            'scale', 0.02)``.
    """
    settings = _settings(properties, object)
    settings['finish'] = finish
    settings['normal'] = normal
