"""Names of the Klamp't object types ('Config', 'RigidTransform',
'Trajectory', 'RobotModel', ...) used by the loader and resource modules:
recognizing the type of a Python object, making default instances,
describing objects, converting path-like objects and transferring
robot-indexed objects between robots.
"""
from ..robotsim import (ConvexHull, GeometricPrimitive, Geometry3D, Heightmap, IKObjective,  # noqa: F401  (Klamp't's module has them)
                        ImplicitSurface, OccupancyGrid, PointCloud, RigidObjectModel, RobotModel, RobotModelLink,
                        TerrainModel, TriangleMesh, VolumeGrid, WorldModel)
from .. import robotsim
from ..math import so3, se3
from . import contact, multipath, trajectory
from .subrobot import SubRobotModel
from .trajectory import RobotTrajectory, SE3Trajectory, SO3Trajectory, Trajectory

_KNOWN_TYPES = set(['Value', 'Vector2', 'Vector3', 'Point', 'Matrix3', 'Rotation', 'RigidTransform',
                    'Vector', 'Config', 'IntArray', 'StringArray', 'Configs', 'Trajectory', 'LinearPath',
                    'SE3Trajectory', 'SO3Trajectory', 'MultiPath', 'IKGoal', 'ContactPoint', 'Hold',
                    'TriangleMesh', 'PointCloud', 'VolumeGrid', 'ImplicitSurface', 'Heightmap', 'OccupancyGrid',
                    'GeometricPrimitive', 'ConvexHull', 'Geometry3D', 'WorldModel', 'RobotModel', 'RigidObjectModel', 'TerrainModel'])

# core classes named by their own class name
_CLASS_TYPES = {'WorldModel': 'WorldModel', 'RobotModel': 'RobotModel', 'RigidObjectModel': 'RigidObjectModel',
                'TerrainModel': 'TerrainModel', 'TriangleMesh': 'TriangleMesh', 'PointCloud': 'PointCloud',
                'VolumeGrid': 'VolumeGrid', 'Heightmap': 'Heightmap', 'OccupancyGrid': 'OccupancyGrid',
                'GeometricPrimitive': 'GeometricPrimitive', 'ConvexHull': 'ConvexHull',
                'IKObjective': 'IKGoal', 'ContactPoint': 'ContactPoint', 'Hold': 'Hold', 'MultiPath': 'MultiPath'}


def known_types():
    """The set of all known Klamp't type names."""
    return set(_KNOWN_TYPES)


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) or type(x).__name__ in ('float64', 'float32', 'int64', 'int32')


def _is_vector(x):
    try:
        return all(_is_number(v) for v in x)
    except TypeError:
        return False


def _is_rigid_transform(x):
    return (isinstance(x, (list, tuple)) and len(x) == 2 and _is_vector(x[0]) and _is_vector(x[1])
            and len(x[0]) == 9 and len(x[1]) == 3)


def object_to_types(object, world=None):
    """The type name of a Python object, or the list of all its valid type
    names if there are several (e.g. ['Config', 'Vector3'] for a 3-vector).
    Raises ValueError for unknown objects."""
    if isinstance(object, SE3Trajectory):
        return ['SE3Trajectory', 'Trajectory']
    if isinstance(object, SO3Trajectory):
        return ['SO3Trajectory', 'Trajectory']
    if isinstance(object, Trajectory):
        return 'Trajectory'
    name = type(object).__name__
    if name in _CLASS_TYPES:
        return _CLASS_TYPES[name]
    if name == 'Geometry3D':
        return ['Geometry3D', object.type()]
    if isinstance(object, str):
        return 'StringArray'
    if _is_number(object):
        return 'Value'
    if _is_rigid_transform(object):
        return 'RigidTransform'
    if hasattr(object, '__iter__'):
        items = list(object)
        if all(isinstance(v, str) for v in items) and items:
            return 'StringArray'
        if _is_vector(items):
            types = ['Config']
            if all(isinstance(v, int) or type(v).__name__ in ('int64', 'int32') for v in items):
                types.append('IntArray')
            if len(items) == 2:
                types.append('Vector2')
            elif len(items) == 3:
                types.append('Vector3')
            elif len(items) == 9:
                types += ['Matrix3', 'Rotation']
            return types if len(types) > 1 else types[0]
        if all(_is_vector(v) for v in items):
            if len(set(len(v) for v in items)) > 1:
                raise ValueError("Sequence of unequal-length types passed to object_to_types")
            return 'Configs'
    raise ValueError("Unknown object of type %s passed to object_to_types" % name)


def object_to_type(obj, validTypes=None, world=None):
    """The first type of object_to_types(obj) that is in validTypes (any if
    validTypes is None), or None."""
    types = object_to_types(obj, world)
    if isinstance(types, str):
        types = [types]
    for t in types:
        if validTypes is None or t in validTypes:
            return t
    return None


def make(type, object=None):
    """A default instance of a type.  For 'Config', 'Configs', 'Vector' and
    'Trajectory', object (a robot or a configuration) gives the size."""
    if type not in _KNOWN_TYPES:
        raise ValueError("Unknown type %r" % (type,))
    if type in ('RobotModel', 'RigidObjectModel', 'TerrainModel'):
        raise ValueError("Can't make an independent robot, rigid object, or terrain")
    if type in ('Config', 'Vector', 'Configs'):
        n = 0
        if object is not None:
            n = object.numLinks() if hasattr(object, 'numLinks') else len(object)
        return [[0.0] * n] if type == 'Configs' else [0.0] * n
    if type in ('Trajectory', 'LinearPath'):
        if object is None:
            return trajectory.Trajectory()
        if hasattr(object, 'numLinks'):
            return trajectory.RobotTrajectory(object, [0.0], [object.getConfig()])
        return trajectory.Trajectory([0.0], [list(object)])
    simple = {'Value': 0, 'Vector2': [0.0, 0.0], 'Vector3': [0.0, 0.0, 0.0], 'Point': [0.0, 0.0, 0.0],
              'Matrix3': so3.identity(), 'Rotation': so3.identity(), 'RigidTransform': se3.identity(),
              'IntArray': [0], 'StringArray': ['']}
    if type in simple:
        return simple[type]
    if type == 'SE3Trajectory':
        return trajectory.SE3Trajectory()
    if type == 'SO3Trajectory':
        return trajectory.SO3Trajectory()
    if type == 'IKGoal':
        return robotsim.IKObjective()
    if type in ('ContactPoint', 'Hold'):
        return getattr(contact, type)()
    if type == 'MultiPath':
        return multipath.MultiPath()
    return getattr(robotsim, type)()


def info(object, world=None) -> dict:
    """A dictionary describing an object; 'type' is its type name (None if
    unknown), with sizes and bounds depending on the type."""
    try:
        types = object_to_types(object, world)
    except ValueError:
        return {'type': None}
    res = {}
    if isinstance(types, list):
        res['possible types'] = types
        t = types[0]
    else:
        t = types
    res['type'] = t
    if t in ('Config', 'Vector', 'IntArray', 'StringArray', 'Vector2', 'Vector3', 'Matrix3', 'Rotation'):
        res['items'] = len(object)
    elif t == 'Configs':
        res['items'] = len(object)
        res['dofs'] = len(object[0]) if len(object) else 0
    elif isinstance(object, Trajectory):
        res['items'] = len(object.times)
        res['duration'] = object.duration()
        res['start time'] = object.startTime()
        res['end time'] = object.endTime()
        res['length'] = object.length()
        res['dofs'] = len(object.milestones[0]) if object.milestones else 0
    elif t == 'Geometry3D':
        res['geometry type'] = object.type()
        if not object.empty():
            bmin, bmax = object.getBB()
            res['lower bound'] = list(bmin)
            res['upper bound'] = list(bmax)
    elif t == 'RobotModel':
        res['name'] = object.getName()
        res['#links'] = object.numLinks()
        res['#drivers'] = object.numDrivers()
        res['links'] = [{'joint type': object.getJointType(i), 'name': object.link(i).getName(),
                         'geometry': info(object.link(i).geometry())} for i in range(object.numLinks())]
    elif t in ('RigidObjectModel', 'TerrainModel'):
        res['name'] = object.getName()
        res['geometry'] = info(object.geometry())
    elif t == 'WorldModel':
        res['#robots'] = object.numRobots()
        res['#rigid objects'] = object.numRigidObjects()
        res['#terrains'] = object.numTerrains()
        res['robots'] = [info(object.robot(i)) for i in range(object.numRobots())]
        res['rigid objects'] = [info(object.rigidObject(i)) for i in range(object.numRigidObjects())]
        res['terrains'] = [info(object.terrain(i)) for i in range(object.numTerrains())]
    return res


def convert(object, dest_type):
    """Converts path-like objects (Configs, Trajectory/LinearPath and its
    subclasses) into each other, and geometries into other geometry types
    (Geometry3D.convert).  A Configs list becomes a trajectory with times
    0, 1, 2, ..."""
    t = object_to_type(object)
    if dest_type == t:
        return object
    if dest_type in ('TriangleMesh', 'PointCloud', 'VolumeGrid', 'ImplicitSurface', 'Heightmap', 'OccupancyGrid',
                     'ConvexHull', 'GeometricPrimitive') and t == 'Geometry3D':
        return object.convert(dest_type)
    if t == 'Configs':
        if dest_type in ('Trajectory', 'LinearPath'):
            return trajectory.Trajectory(list(range(len(object))), object)
        if dest_type == 'SO3Trajectory':
            return trajectory.SO3Trajectory(list(range(len(object))), object)
        if dest_type == 'SE3Trajectory':
            return trajectory.SE3Trajectory(list(range(len(object))), object)
    if isinstance(object, trajectory.Trajectory):
        if dest_type == 'Configs':
            return [list(object.waypoint(m)) if not isinstance(object, trajectory.SE3Trajectory) else list(m) for m in object.milestones]
        if dest_type in ('Trajectory', 'LinearPath'):
            if isinstance(object, trajectory.HermiteTrajectory):
                return trajectory.Trajectory(object.times, [object.waypoint(m) for m in object.milestones])
            return trajectory.Trajectory(object.times, object.milestones)
        if dest_type == 'SO3Trajectory':
            return trajectory.SO3Trajectory(object.times, [m[:9] for m in object.milestones])
        if dest_type == 'SE3Trajectory':
            return trajectory.SE3Trajectory(object.times, object.milestones)
    raise ValueError("Cannot convert a %s to a %s" % (t, dest_type))


def _robot(r):
    if isinstance(r, str):
        w = robotsim.WorldModel()
        # the robot handle keeps the world's data alive
        robot = w.loadRobot(r)
        if robot.index < 0:
            raise IOError("Could not load robot %s" % r)
        return robot
    return r


def transfer(object, source_robot, target_robot, link_map=None):
    """Maps an object indexed by the links of source_robot (a link index,
    list of indices, configuration, list of configurations, Trajectory,
    RobotModelLink or SubRobotModel) to target_robot, matching links by name
    or through link_map (source name/index -> target name/index, or
    {'*': 'prefix:*'} / {'prefix:*': '*'}).  Configuration entries of
    unmatched target links are 0."""
    source_robot = _robot(source_robot)
    target_robot = _robot(target_robot)
    src_names = [source_robot.link(i).getName() for i in range(source_robot.numLinks())]
    tgt_index = dict((target_robot.link(i).getName(), i) for i in range(target_robot.numLinks()))
    mapping = {}
    for i, name in enumerate(src_names):
        target = name
        if link_map is not None:
            if '*' in link_map:
                target = link_map['*'].replace('*', name)
            elif len(link_map) == 1 and list(link_map.values())[0] == '*':
                prefix = list(link_map.keys())[0].replace('*', '')
                if not name.startswith(prefix):
                    continue
                target = name[len(prefix):]
            elif name in link_map:
                target = link_map[name]
            elif i in link_map:
                target = link_map[i]
            else:
                continue
        if isinstance(target, int):
            mapping[i] = target
        elif target in tgt_index:
            mapping[i] = tgt_index[target]
    n = target_robot.numLinks()

    def config(q):
        if len(q) != len(src_names):
            raise ValueError("Configuration has %d entries, the source robot has %d links" % (len(q), len(src_names)))
        res = [0.0] * n
        for i, j in mapping.items():
            res[j] = q[i]
        return res

    if isinstance(object, int):
        return mapping.get(object, -1)
    if type(object).__name__ == 'RobotModelLink':
        j = mapping.get(object.index, -1)
        if j < 0:
            raise ValueError("Link %s has no match in the target robot" % object.getName())
        return target_robot.link(j)
    if isinstance(object, SubRobotModel):
        return SubRobotModel(target_robot, [mapping[l] for l in object._links if l in mapping])
    if isinstance(object, Trajectory):
        milestones = [config(m) for m in object.milestones]
        if isinstance(object, RobotTrajectory):
            return RobotTrajectory(target_robot, object.times, milestones)
        return object.constructor()(object.times, milestones)
    t = object_to_types(object)
    types = t if isinstance(t, list) else [t]
    if 'IntArray' in types and len(object) != len(src_names):
        return [mapping.get(i, -1) for i in object]
    if 'Config' in types:
        return config(object)
    if 'Configs' in types:
        return [config(q) for q in object]
    raise ValueError("Cannot transfer an object of type %s" % types[0])


knownTypes = known_types
objectToTypes = object_to_types
