"""A uniform interface to the configuration of arbitrary objects: a
configuration is a flat list of floats describing the pose of an object.

Supported items: WorldModel (its robots then rigid objects), RobotModel,
SubRobotModel, RigidObjectModel and rigid transforms (R + t, 12 floats),
points / vectors / rotations (the list itself), coordinates-module points,
directions and frames (local / relative coordinates), IK objectives (their
constraint parameters) and lists of any of these (compound items,
whose configuration is the concatenation of the components').
"""
from ..robotsim import (IKObjective, RigidObjectModel, RobotModel, RobotModelLink,  # noqa: F401  (Klamp't's module has them)
                        WorldModel)
import math
from typing import List, Sequence, Union

from ..math import vectorops, se3
from .types import _is_vector, _is_rigid_transform
from . import coordinates

_SE3_NAMES = ['R11', 'R21', 'R31', 'R12', 'R22', 'R32', 'R13', 'R23', 'R33', 'tx', 'ty', 'tz']
_SO3_NAMES = _SE3_NAMES[:9]
_POINT_NAMES = ['x', 'y', 'z']


def _kind(item):
    name = type(item).__name__
    if name in ('WorldModel', 'RobotModel', 'RigidObjectModel', 'SubRobotModel', 'IKObjective'):
        return name
    if isinstance(item, (coordinates.Point, coordinates.Direction)):
        return 'coordinates.Point'
    if isinstance(item, coordinates.Frame):
        return 'coordinates.Frame'
    if _is_rigid_transform(item):
        return 'RigidTransform'
    if _is_vector(item) and not isinstance(item, str):
        return 'Vector'
    if isinstance(item, (list, tuple)):
        return 'List'
    raise ValueError("Item of type %s has no configuration" % name)


def is_compound(item) -> bool:
    """True for worlds and lists of objects."""
    return _kind(item) in ('WorldModel', 'List')


def components(item):
    """The component sub-items of a compound item (robots then rigid objects
    for a world), or the item itself."""
    k = _kind(item)
    if k == 'WorldModel':
        return [item.robot(i) for i in range(item.numRobots())] + [item.rigidObject(i) for i in range(item.numRigidObjects())]
    if k == 'List':
        return list(item)
    return item


def component_names(item) -> Union[str, List[str]]:
    """Names of the components of a compound item (entity names for worlds,
    '[i]' for lists), or the item's name."""
    k = _kind(item)
    if k == 'WorldModel':
        return [c.getName() for c in components(item)]
    if k == 'List':
        return ['[%d]' % i for i in range(len(item))]
    if hasattr(item, 'getName'):
        return item.getName()
    return k


def num_config_params(item) -> int:
    """The size of the item's configuration."""
    k = _kind(item)
    if k in ('WorldModel', 'List'):
        return sum(num_config_params(c) for c in components(item))
    if k in ('RobotModel', 'SubRobotModel'):
        return item.numLinks()
    if k in ('RigidObjectModel', 'RigidTransform', 'coordinates.Frame'):
        return 12
    if k == 'coordinates.Point':
        return 3
    if k == 'IKObjective':
        return len(_ik_config(item))
    return len(item)


def _ik_config(obj):
    """An IK objective's parameters: R + t for a fixed transform, else the
    position part (fixed: local + world; linear: local + world + axis;
    planar: local + normal + offset) followed by the rotation part (fixed:
    the rotation; axial: local + world axes)."""
    npos, nrot = obj.numPosDims(), obj.numRotDims()
    if npos == 3 and nrot == 3:
        R, t = obj.getTransform()
        return list(R) + list(t)
    x = []
    if npos in (1, 2, 3):
        local, world = obj.getPosition()
        x += list(local)
        if npos == 3:
            x += list(world)
        elif npos == 2:
            x += list(world) + list(obj.getPositionDirection())
        else:
            n = list(obj.getPositionDirection())
            x += n + [vectorops.dot(n, world)]
    if nrot == 3:
        x += list(obj.getRotation())
    elif nrot == 2:
        local, world = obj.getRotationAxis()
        x += list(local) + list(world)
    return x


def _ik_names(obj):
    npos, nrot = obj.numPosDims(), obj.numRotDims()
    if npos == 3 and nrot == 3:
        return list(_SE3_NAMES)
    local = ['local_x', 'local_y', 'local_z']
    world = ['world_x', 'world_y', 'world_z']
    names = {3: local + world, 2: local + world + ['dir_x', 'dir_y', 'dir_z'],
             1: local + ['normal_x', 'normal_y', 'normal_z', 'offset'], 0: []}[npos]
    if nrot == 3:
        names += _SO3_NAMES
    elif nrot == 2:
        names += ['local_axis_x', 'local_axis_y', 'local_axis_z', 'world_axis_x', 'world_axis_y', 'world_axis_z']
    return names


def _ik_set(obj, v):
    npos, nrot = obj.numPosDims(), obj.numRotDims()
    if npos == 3 and nrot == 3:
        obj.setFixedTransform(obj.link(), v[:9], v[9:12])
        return
    k = 0
    if npos == 3:
        obj.setFixedPosConstraint(v[0:3], v[3:6])
        k = 6
    elif npos == 2:
        obj.setLinearPosConstraint(v[0:3], v[3:6], v[6:9])
        k = 9
    elif npos == 1:
        obj.setPlanarPosConstraint(v[0:3], v[3:6], v[6])
        k = 7
    if nrot == 3:
        obj.setFixedRotConstraint(v[k:k + 9])
    elif nrot == 2:
        obj.setAxialRotConstraint(v[k:k + 3], v[k + 3:k + 6])


def get_config(item) -> Sequence[float]:
    """The flattened configuration of the item."""
    k = _kind(item)
    if k in ('WorldModel', 'List'):
        res = []
        for c in components(item):
            res += list(get_config(c))
        return res
    if k in ('RobotModel', 'SubRobotModel'):
        return [float(v) for v in item.getConfig()]
    if k == 'RigidObjectModel':
        R, t = item.getTransform()
        return list(R) + list(t)
    if k == 'RigidTransform':
        return list(item[0]) + list(item[1])
    if k == 'coordinates.Point':
        return item.localCoordinates()
    if k == 'coordinates.Frame':
        R, t = item.relativeCoordinates()
        return list(R) + list(t)
    if k == 'IKObjective':
        return _ik_config(item)
    return [float(v) for v in item]


def set_config(item, vector: Sequence[float]) -> None:
    """Sets the item's configuration.  Plain lists are modified in place;
    tuples cannot be."""
    n = num_config_params(item)
    if len(vector) != n:
        raise ValueError("Configuration has %d entries, expected %d" % (len(vector), n))
    k = _kind(item)
    if k in ('WorldModel', 'List'):
        pos = 0
        for c in components(item):
            m = num_config_params(c)
            set_config(c, vector[pos:pos + m])
            pos += m
    elif k in ('RobotModel', 'SubRobotModel'):
        item.setConfig(list(vector))
    elif k == 'RigidObjectModel':
        item.setTransform(list(vector[:9]), list(vector[9:]))
    elif k == 'RigidTransform':
        if isinstance(item, tuple) or isinstance(item[0], tuple) or isinstance(item[1], tuple):
            raise ValueError("Cannot set the configuration of an immutable (tuple) transform")
        item[0][:] = list(vector[:9])
        item[1][:] = list(vector[9:])
    elif k == 'coordinates.Point':
        item._localCoordinates = list(vector)
    elif k == 'coordinates.Frame':
        # the frame moves relative to its parent; frames below it are updated
        # by Group.updateDependentFrames
        item._relativeCoordinates = (list(vector[:9]), list(vector[9:]))
        item._update_world()
    elif k == 'IKObjective':
        _ik_set(item, list(vector))
    else:
        if isinstance(item, tuple):
            raise ValueError("Cannot set the configuration of an immutable tuple")
        item[:] = list(vector)


def get_config_names(item) -> List[str]:
    """A name for each configuration entry: link names for robots, 'R11' ...
    'R33', 'tx', 'ty', 'tz' for transforms and frames, 'x', 'y', 'z' for
    points, '[i]' for other vectors; compound items prefix the names with
    their component names ('name.' for worlds, '[i].' for lists)."""
    k = _kind(item)
    if k in ('WorldModel', 'List'):
        res = []
        for name, c in zip(component_names(item), components(item)):
            res += [name + '.' + n for n in get_config_names(c)]
        return res
    if k in ('RobotModel', 'SubRobotModel'):
        return [item.link(i).getName() for i in range(item.numLinks())]
    if k in ('RigidObjectModel', 'RigidTransform', 'coordinates.Frame'):
        return list(_SE3_NAMES)
    if k == 'coordinates.Point' or (k == 'Vector' and len(item) == 3):
        return list(_POINT_NAMES)
    if k == 'IKObjective':
        return _ik_names(item)
    return ['[%d]' % i for i in range(len(item))]


def distance(item, a: Sequence[float], b: Sequence[float]) -> float:
    """The distance between configurations a and b of the item: the robot's
    metric, se3 distance for transforms, Euclidean for vectors, and the
    root of the sum of squares for compound items."""
    k = _kind(item)
    if k in ('WorldModel', 'List'):
        total = 0.0
        pos = 0
        for c in components(item):
            m = num_config_params(c)
            total += distance(c, a[pos:pos + m], b[pos:pos + m]) ** 2
            pos += m
        return math.sqrt(total)
    if k in ('RobotModel', 'SubRobotModel'):
        return item.distance(list(a), list(b))
    if k in ('RigidObjectModel', 'RigidTransform', 'coordinates.Frame'):
        return se3.distance((a[:9], a[9:]), (b[:9], b[9:]))
    return vectorops.distance(a, b)


def interpolate(item, a: Sequence[float], b: Sequence[float], u: float) -> Sequence[float]:
    """Interpolates between configurations a (u=0) and b (u=1) of the item:
    the robot's interpolation, geodesic for transforms, linear for vectors."""
    k = _kind(item)
    if k in ('WorldModel', 'List'):
        res = []
        pos = 0
        for c in components(item):
            m = num_config_params(c)
            res += list(interpolate(c, a[pos:pos + m], b[pos:pos + m], u))
            pos += m
        return res
    if k in ('RobotModel', 'SubRobotModel'):
        return [float(v) for v in item.interpolate(list(a), list(b), u)]
    if k in ('RigidObjectModel', 'RigidTransform', 'coordinates.Frame'):
        R, t = se3.interpolate((a[:9], a[9:]), (b[:9], b[9:]), u)
        return list(R) + list(t)
    return vectorops.interpolate(a, b, u)


isCompound = is_compound
getConfig = get_config
setConfig = set_config
getConfigNames = get_config_names
numConfigParams = num_config_params
componentNames = component_names
