"""Reading and writing Klamp't objects in Klamp't's native text formats
(:func:`read`, :func:`write`), files (:func:`load`, :func:`save`) and JSON
structures (:func:`to_json`, :func:`from_json`).

Text formats:

- Config / Vector / IntArray: ``n\\tv1 ... vn``; Configs: one Config a line.
- StringArray: ``n\\ts1 ... sn`` (strings without whitespace).
- Vector3: ``x y z``.
- Rotation: the matrix rows ``r11 r12 r13\\tr21 r22 r23\\tr31 r32 r33``;
  RigidTransform: the rotation rows then ``\\tx y z``; Matrix3: a 3x3 list
  of rows written like a Rotation.
- Matrix: ``m n`` on the first line, then one row a line.
- IKGoal: ``link destLink``, then a line for the position constraint
  (``N``, ``P local world normal``, ``L local world axis``, ``F local
  world``) and one for the rotation (``N``, ``A local world``, ``F
  moment``).
- ContactPoint: ``x y z nx ny nz kFriction``; Hold: ``begin hold``,
  ``link = i``, ``contacts = ...`` (7 values each), ``position = local
  world``, optionally ``rotation = moment`` or ``axis = local world``,
  ``end``.
- Trajectory files (.path): one ``t\\tn x1 ... xn`` line a milestone.
"""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
import json
import os

from .. import _json, robotsim
from ..math import so3
from ..model import trajectory
from ..model import types as _types
from ..model.contact import ContactPoint, Hold
from ..model.multipath import MultiPath
from ..model.trajectory import Trajectory
from . import _text
from ._text import _numbers

EXTENSION_TO_TYPES = {'.config': ['Config'], '.configs': ['Configs'],
                      '.tri': ['Geometry3D', 'TriangleMesh'], '.off': ['Geometry3D', 'TriangleMesh'],
                      '.stl': ['Geometry3D', 'TriangleMesh'], '.ply': ['Geometry3D', 'TriangleMesh'],
                      '.wrl': ['Geometry3D', 'TriangleMesh'], '.dae': ['Geometry3D', 'TriangleMesh'],
                      '.poly': ['Geometry3D', 'TriangleMesh'], '.geom': ['Geometry3D', 'GeometricPrimitive'],
                      '.pcd': ['Geometry3D', 'PointCloud'], '.vector3': ['Vector3'], '.matrix3': ['Matrix3'],
                      '.ikgoal': ['IKGoal'], '.xform': ['RigidTransform'],
                      '.path': ['Trajectory', 'LinearPath', 'SE3Trajectory', 'SO3Trajectory'],
                      '.hold': ['Hold'], '.stance': ['Stance'], '.grasp': ['Grasp'],
                      '.rob': ['RobotModel'], '.urdf': ['RobotModel'],
                      '.obj': ['Geometry3D', 'RigidObjectModel', 'TriangleMesh'], '.env': ['TerrainModel'],
                      '.xml': ['WorldModel', 'MultiPath']}
"""Maps a file extension to the types it may hold."""

TYPE_TO_EXTENSIONS = {}
"""Maps a type to the file extensions that hold it."""
for _ext, _tlist in EXTENSION_TO_TYPES.items():
    for _t in _tlist:
        TYPE_TO_EXTENSIONS.setdefault(_t, []).append(_ext)

UNSUPPORTED_JSON_TYPES = ['Geometry3D', 'TriangleMesh', 'PointCloud', 'GeometricPrimitive', 'VolumeGrid',
                          'RobotModel', 'RigidObjectModel', 'TerrainModel', 'WorldModel']
"""Types that :func:`to_json` / :func:`from_json` do not handle."""


def filename_to_types(name):
    """The types a file may hold, from its extension; RuntimeError if the
    extension is unknown."""
    ext = os.path.splitext(name)[1].lower()
    if ext not in EXTENSION_TO_TYPES:
        raise RuntimeError("Cannot determine type of object from filename " + name)
    return list(EXTENSION_TO_TYPES[ext])


def filename_to_type(name):
    """The type of a file from its extension; 'xml' for .xml files, which
    may hold several types (see :func:`load_dynamic_xml`)."""
    types = filename_to_types(name)
    if os.path.splitext(name)[1].lower() == '.xml':
        return 'xml'
    return types[0]


def write_Vector(q):
    """Writes a vector as ``n\\tv1 ... vn``."""
    return _text.write_Vector(q)


def read_Vector(text):
    """Reads a vector written as ``n v1 ... vn``."""
    return _text.read_Vector(text)


def write_Vector_raw(x):
    """Writes a vector as ``v1 ... vn``."""
    return _text.write_Vector_raw(x)


def read_Vector_raw(text):
    """Reads a vector written as ``v1 ... vn``."""
    return _numbers(text, 'vector')


def write_VectorList(x):
    """Writes vectors one a line (``n\\tv1 ... vn``)."""
    return '\n'.join(write_Vector(q) for q in x)


def read_VectorList(text):
    """Reads vectors written one a line."""
    return [read_Vector(line) for line in parse_lines(text)]


def write_Matrix(x):
    """Writes a matrix (list of rows) as ``m n`` then one row a line."""
    rows = [list(r) for r in x]
    n = len(rows[0]) if rows else 0
    return '%d %d\n' % (len(rows), n) + '\n'.join(' '.join(str(v) for v in r) for r in rows)


def read_Matrix(text):
    """Reads a matrix written by :func:`write_Matrix`."""
    items = _numbers(text, 'matrix')
    if len(items) < 2:
        raise ValueError("Matrix text needs its dimensions")
    m, n = int(items[0]), int(items[1])
    if len(items) != 2 + m * n:
        raise ValueError("Matrix text does not hold %d x %d values" % (m, n))
    return [items[2 + i * n:2 + (i + 1) * n] for i in range(m)]


def write_so3(x):
    """Writes a rotation (9 column-major floats) as its three matrix rows."""
    if len(x) != 9:
        raise ValueError("A rotation has 9 entries")
    rows = so3.matrix(x)
    return '\t'.join(' '.join(str(v) for v in r) for r in rows)


def read_so3(text):
    """Reads a rotation written as 9 row-major values."""
    items = _numbers(text, 'rotation')
    if len(items) != 9:
        raise ValueError("A rotation needs 9 values, got %d" % len(items))
    return so3.from_matrix([items[0:3], items[3:6], items[6:9]])


def write_se3(x):
    """Writes a rigid transform (R, t) as the rotation rows then t."""
    return write_so3(x[0]) + '\t' + write_Vector_raw(x[1])


def read_se3(text):
    """Reads a rigid transform written by :func:`write_se3`."""
    items = _numbers(text, 'rigid transform')
    if len(items) != 12:
        raise ValueError("A rigid transform needs 12 values, got %d" % len(items))
    return (so3.from_matrix([items[0:3], items[3:6], items[6:9]]), items[9:12])


def write_Matrix3(x):
    """Writes a 3x3 matrix (list of rows) row by row."""
    return write_so3(so3.from_matrix(x))


def read_Matrix3(text):
    """Reads a 3x3 matrix as a list of rows."""
    return so3.matrix(read_so3(text))


def write_IntArray(x):
    """Writes integers as ``n\\ti1 ... in``."""
    return write_Vector([int(v) for v in x])


def read_IntArray(text):
    """Reads integers written as ``n i1 ... in``."""
    items = text.split()
    try:
        values = [int(v) for v in items]
    except ValueError:
        raise ValueError("Invalid integer array: %r" % text)
    if not values or len(values) != values[0] + 1:
        raise ValueError("Integer array text %r has the wrong count" % text)
    return values[1:]


def write_StringArray(x):
    """Writes strings as ``n\\ts1 ... sn``; the strings may not contain
    whitespace (ValueError)."""
    for s in x:
        if not s or len(s.split()) != 1:
            raise ValueError("Strings in a StringArray must be non-empty and without whitespace: %r" % s)
    return '%d\t%s' % (len(x), ' '.join(x))


def read_StringArray(text):
    """Reads strings written as ``n s1 ... sn``."""
    items = text.split()
    if not items:
        raise ValueError("Empty string array text")
    n = int(items[0])
    if len(items) != n + 1:
        raise ValueError("String array text %r has the wrong count" % text)
    return items[1:]


def write_GeometricPrimitive(g):
    """Writes a GeometricPrimitive in its native text format."""
    return g.saveString()


def read_GeometricPrimitive(text):
    """Reads a GeometricPrimitive from its native text format."""
    g = robotsim.GeometricPrimitive()
    if not g.loadString(text):
        raise ValueError("Invalid GeometricPrimitive text %r" % text)
    return g


def read_IKObjective(text):
    """Reads an IKObjective in the native format described in the module
    docstring."""
    return _text.read_IKObjective(text)


def write_IKObjective(obj):
    """Writes an IKObjective in the native format described in the module
    docstring."""
    return _text.write_IKObjective(obj)


def write_ContactPoint(cp):
    """Writes a contact point as ``x y z nx ny nz kFriction``."""
    return _text.write_ContactPoint(cp)


def read_ContactPoint(text):
    """Reads a contact point written by :func:`write_ContactPoint`."""
    return _text.read_ContactPoint(text)


def write_Hold(h):
    """Writes a Hold in Klamp't's ``begin hold ... end`` format: the link,
    the contacts and the IK constraint (``position = local world``, then
    ``rotation = moment`` for a fixed rotation or ``axis = local world``
    for an axial one)."""
    return _text.write_Hold(h)


def read_Hold(text):
    """Reads a Hold written by :func:`write_Hold` (its IK constraint needs
    klampt.IKObjective)."""
    return _text.read_Hold(text)


def parse_lines(text):
    """The non-empty lines of text, with lines ending in a backslash joined
    to the next."""
    return _text.parse_lines(text)


readers = {'Config': read_Vector, 'Vector': read_Vector, 'Configs': read_VectorList,
           'Vector3': read_Vector_raw, 'Point': read_Vector_raw, 'Matrix': read_Matrix,
           'Matrix3': read_Matrix3, 'Rotation': read_so3, 'RigidTransform': read_se3,
           'IntArray': read_IntArray, 'StringArray': read_StringArray,
           'IKGoal': read_IKObjective, 'IKObjective': read_IKObjective,
           'GeometricPrimitive': read_GeometricPrimitive, 'ContactPoint': read_ContactPoint, 'Hold': read_Hold}
"""Text readers by type."""

writers = {'Config': write_Vector, 'Vector': write_Vector, 'Configs': write_VectorList,
           'Vector3': write_Vector_raw, 'Point': write_Vector_raw, 'Matrix': write_Matrix,
           'Matrix3': write_Matrix3, 'Rotation': write_so3, 'RigidTransform': write_se3,
           'IntArray': write_IntArray, 'StringArray': write_StringArray,
           'IKGoal': write_IKObjective, 'IKObjective': write_IKObjective,
           'GeometricPrimitive': write_GeometricPrimitive, 'ContactPoint': write_ContactPoint, 'Hold': write_Hold}
"""Text writers by type."""


def write(obj, type):
    """Writes an object to a string in its native format; type is a type
    name, 'json' or 'auto'."""
    if type == 'auto':
        type = _types.object_to_type(obj, writers)
        if type is None:
            raise ValueError("Can't determine a writable type for object of type %s" % obj.__class__.__name__)
    if type == 'json':
        return json.dumps(to_json(obj))
    if type not in writers:
        raise ValueError("Writing of objects of type %s not supported" % type)
    return writers[type](obj)


def read(type, text):
    """Reads an object of the given type (or 'json') from a string."""
    if type == 'json':
        return from_json(_json.loads(text))
    if type not in readers:
        raise ValueError("Reading of objects of type %s not supported" % type)
    return readers[type](text)


def load_WorldModel(fn):
    """Loads a world file (IOError if it fails)."""
    w = robotsim.WorldModel()
    if not w.readFile(fn):
        raise IOError("Error reading WorldModel from " + fn)
    return w


def load_Geometry3D(fn):
    """Loads a geometry file (IOError if it fails)."""
    g = robotsim.Geometry3D()
    if not g.loadFile(fn):
        raise IOError("Error reading Geometry3D from " + fn)
    return g


def load_Trajectory(fn):
    """Loads a .path file as a Trajectory."""
    t = Trajectory()
    t.load(fn)
    return t


def _load_entity(kind):
    def loader(fn):
        w = robotsim.WorldModel()
        entity = getattr(w, 'load' + kind)(fn)
        if entity.index < 0:
            raise IOError("Error reading %sModel from %s" % (kind, fn))
        return entity
    return loader


def load_MultiPath(fn):
    """Loads a MultiPath XML file."""
    path = MultiPath()
    path.load(fn)
    return path


def load_dynamic_xml(fn):
    """Loads an .xml file according to its root element: ``world`` gives a
    WorldModel, ``multipath`` a MultiPath; other roots raise ValueError."""
    import xml.etree.ElementTree as ET
    root = ET.parse(fn).getroot()
    if root.tag == 'world':
        return load_WorldModel(fn)
    if root.tag == 'multipath':
        return load_MultiPath(fn)
    raise ValueError("Don't know how to load an XML file with root element <%s>" % root.tag)


loaders = {'Trajectory': load_Trajectory, 'LinearPath': load_Trajectory, 'MultiPath': load_MultiPath,
           'Geometry3D': load_Geometry3D, 'WorldModel': load_WorldModel,
           'RobotModel': _load_entity('Robot'), 'RigidObjectModel': _load_entity('RigidObject'),
           'TerrainModel': _load_entity('Terrain'), 'xml': load_dynamic_xml}
"""File loaders by type (other types are read as text with :func:`read`)."""


def _save_file(obj, fn):
    if not obj.saveFile(fn):
        raise IOError("Error saving to " + fn)


savers = {'Trajectory': lambda x, fn: x.save(fn), 'LinearPath': lambda x, fn: x.save(fn),
          'MultiPath': lambda x, fn: x.save(fn),
          'Geometry3D': _save_file, 'WorldModel': _save_file, 'RobotModel': _save_file,
          'RigidObjectModel': _save_file, 'TerrainModel': _save_file}
"""File savers by type (other types are written as text with :func:`write`)."""


def _save_type(obj, fn):
    """The type to save obj as: the first type of the file's extension that
    the object can be, else the object's own type."""
    try:
        objtypes = _types.object_to_types(obj)
    except ValueError:
        objtypes = []
    if isinstance(objtypes, str):
        objtypes = [objtypes]
    if os.path.splitext(fn)[1].lower() == '.json':
        return 'json'
    try:
        for t in filename_to_types(fn):
            if t in objtypes:
                return t
    except RuntimeError:
        pass
    for t in objtypes:
        if t in savers or t in writers:
            return t
    return filename_to_type(fn)


def save(obj, type, fn):
    """Saves an object to a file; type is a type name, 'json' or 'auto'
    (the first type of the file's extension that fits the object, else the
    object's type).  Returns True."""
    if type == 'auto':
        type = _save_type(obj, fn)
    if type == 'json':
        with open(fn, 'w') as f:
            json.dump(to_json(obj), f)
        return True
    if type in savers:
        savers[type](obj, fn)
        return True
    if type in ('SE3Trajectory', 'SO3Trajectory'):
        obj.save(fn)
        return True
    with open(fn, 'w') as f:
        f.write(write(obj, type) + '\n')
    return True


def load(type, fn):
    """Loads an object from a file; type is a type name, 'json' or 'auto'
    (from the file name).  Raises IOError or ValueError on failure."""
    if type == 'auto':
        type = filename_to_type(fn)
    if type == 'json':
        with open(fn, 'r') as f:
            return from_json(_json.load(f))
    if type in loaders:
        return loaders[type](fn)
    if type in ('SE3Trajectory', 'SO3Trajectory'):
        t = getattr(trajectory, type)()
        t.load(fn)
        return t
    with open(fn, 'r') as f:
        return read(type, f.read())


_TRAJECTORY_CLASSES = ('Trajectory', 'RobotTrajectory', 'HermiteTrajectory', 'SO3Trajectory', 'SE3Trajectory',
                       'SO3HermiteTrajectory', 'SE3HermiteTrajectory')


def to_json(obj, type='auto'):
    """Converts an object to a JSON-compatible structure: vectors, matrices
    and strings as lists, RigidTransform as [R, t], trajectories as dicts
    with 'times' and 'milestones' ('type' names the class unless it is a
    plain Trajectory), IK objectives and GeometricPrimitives as typed
    dicts.  Raises TypeError for unsupported objects (world entities,
    geometries)."""
    if isinstance(obj, trajectory.Trajectory):
        name = obj.__class__.__name__
        if name not in _TRAJECTORY_CLASSES:
            raise TypeError("Unsupported trajectory class %s" % name)
        res = {'times': list(obj.times), 'milestones': [list(m) for m in obj.milestones]}
        if name != 'Trajectory':
            res = dict(type=name, **res)
        return res
    if isinstance(obj, dict):
        return obj
    if type == 'auto':
        try:
            type = _types.object_to_type(obj)
        except ValueError:
            raise TypeError("Unknown object of type %s" % obj.__class__.__name__)
    if type in UNSUPPORTED_JSON_TYPES and type != 'GeometricPrimitive':
        raise TypeError("Unknown object of type %s" % type)
    if type == 'Value':
        return obj
    if type in ('Config', 'Vector', 'Vector2', 'Vector3', 'Point', 'Rotation', 'IntArray', 'StringArray'):
        return list(obj)
    if type in ('Configs', 'Matrix', 'Matrix3'):
        return [list(r) for r in obj]
    if type == 'RigidTransform':
        return [list(obj[0]), list(obj[1])]
    if type in ('IKGoal', 'IKObjective'):
        return _ik_to_json(obj)
    if type == 'GeometricPrimitive':
        return {'type': 'GeometricPrimitive', 'data': obj.saveString()}
    if type == 'ContactPoint':
        return {'x': list(obj.x), 'n': list(obj.n), 'kFriction': obj.kFriction}
    if type == 'Hold':
        return {'type': 'Hold', 'link': obj.link, 'contacts': [to_json(c, 'ContactPoint') for c in obj.contacts],
                'ikConstraint': None if obj.ikConstraint is None else _ik_to_json(obj.ikConstraint)}
    raise TypeError("Unknown object of type %s" % type)


def _ik_to_json(obj):
    """Fixed/free position and fixed/axis/free rotation constraints."""
    res = {'type': 'IKObjective', 'link': obj.link()}
    if obj.destLink() >= 0:
        res['destLink'] = obj.destLink()
    npos = obj.numPosDims()
    if npos == 3:
        local, world = obj.getPosition()
        res.update(posConstraint='fixed', localPosition=list(local), endPosition=list(world))
    elif npos != 0:
        raise ValueError("Planar and linear IK position constraints have no JSON form")
    nrot = obj.numRotDims()
    if nrot == 3:
        res.update(rotConstraint='fixed', endRotation=list(so3.rotation_vector(obj.getRotation())))
    elif nrot == 2:
        local, world = obj.getRotationAxis()
        res.update(rotConstraint='axis', localAxis=list(local), endRotation=list(world))
    return res


def _ik_from_json(d):
    obj = robotsim.IKObjective()
    obj.setLinks(d['link'], d.get('destLink', -1))
    pc = d.get('posConstraint', 'free')
    if pc == 'fixed':
        obj.setFixedPosConstraint(d['localPosition'], d['endPosition'])
    elif pc != 'free':
        raise ValueError("Unsupported posConstraint %r" % pc)
    rc = d.get('rotConstraint', 'free')
    if rc == 'fixed':
        obj.setFixedRotConstraint(so3.from_rotation_vector(d['endRotation']))
    elif rc == 'axis':
        obj.setAxialRotConstraint(d['localAxis'], d['endRotation'])
    elif rc != 'free':
        raise ValueError("Unsupported rotConstraint %r" % rc)
    return obj


def from_json(jsonobj, type='auto'):
    """Converts a JSON structure from :func:`to_json` back to an object.
    With type='auto', dicts are recognized by their 'type' entry (a dict
    with 'times' and 'milestones' and no type is a Trajectory) and other
    structures are returned as they are.  A RobotTrajectory comes back as a
    plain Trajectory (the robot is not stored)."""
    if type == 'auto':
        if isinstance(jsonobj, dict):
            if 'type' in jsonobj:
                type = jsonobj['type']
            elif 'times' in jsonobj and 'milestones' in jsonobj:
                type = 'Trajectory'
            elif 'x' in jsonobj and 'n' in jsonobj and 'kFriction' in jsonobj:
                type = 'ContactPoint'
            else:
                raise ValueError("Can't determine the type of a JSON dict without a 'type' entry")
        else:
            return jsonobj
    if type in ('Trajectory', 'LinearPath', 'RobotTrajectory'):
        return trajectory.Trajectory(jsonobj['times'], jsonobj['milestones'])
    if type in _TRAJECTORY_CLASSES:
        return getattr(trajectory, type)(jsonobj['times'], jsonobj['milestones'])
    if type == 'RigidTransform':
        return (list(jsonobj[0]), list(jsonobj[1]))
    if type in ('IKGoal', 'IKObjective'):
        return _ik_from_json(jsonobj)
    if type == 'GeometricPrimitive':
        return read_GeometricPrimitive(jsonobj['data'])
    if type == 'ContactPoint':
        return ContactPoint(jsonobj['x'], jsonobj['n'], jsonobj['kFriction'])
    if type == 'Hold':
        h = Hold()
        h.link = jsonobj['link']
        h.contacts = [from_json(c, 'ContactPoint') for c in jsonobj.get('contacts', [])]
        if jsonobj.get('ikConstraint') is not None:
            h.ikConstraint = _ik_from_json(jsonobj['ikConstraint'])
        return h
    if type in UNSUPPORTED_JSON_TYPES:
        raise TypeError("Unsupported JSON type %s" % type)
    if type == 'Value':
        return jsonobj
    if type in ('Configs', 'Matrix', 'Matrix3'):
        return [list(r) for r in jsonobj]
    if type == 'IntArray':
        return [int(v) for v in jsonobj]
    return list(jsonobj)


filenameToType = filename_to_type
filenameToTypes = filename_to_types
toJson = to_json
fromJson = from_json
extensionToTypes = EXTENSION_TO_TYPES
typeToExtensions = TYPE_TO_EXTENSIONS
unsupportedJsonTypes = UNSUPPORTED_JSON_TYPES
