"""Conversion of Klamp't objects to and from numpy arrays.

- Config, Vector, Vector3, Point: 1-D arrays.
- Rotation (9 column-major floats) and Matrix3 (list of rows): 3x3 arrays.
- RigidTransform: 4x4 homogeneous matrices.
- Configs: 2-D arrays, one configuration a row.
- Trajectory and its subclasses: a pair (times, milestones).
- TriangleMesh: a pair (vertices n x 3, indices m x 3 int32).
- PointCloud: an n x (3 + k) array of points and their k properties.
- VolumeGrid: a triple (bmin, bmax, values) with values a 3-D array.
- ConvexHull: the n x 3 array of its points.
- GeometricPrimitive: a pair (type name, properties array).
- Geometry3D: a pair (4x4 current transform, data of its type); a group's
  data is the list of its elements' pairs.

Passing a Geometry3D with its data type (e.g. ``to_numpy(g, 'TriangleMesh')``)
returns the data in world coordinates (current transform applied).
"""
import numpy as np

from ..math import so3, se3
from ..model import trajectory
from ..model import types as _types
from ..model.trajectory import Trajectory
from . import _numpy_geometry as _geometry

SUPPORTED_TYPES = set(['Value', 'Vector', 'Config', 'Vector2', 'Vector3', 'Point', 'Matrix3', 'Rotation',
                       'RigidTransform', 'Configs', 'Trajectory', 'LinearPath', 'SO3Trajectory', 'SE3Trajectory',
                       'TriangleMesh', 'PointCloud', 'VolumeGrid', 'ConvexHull', 'GeometricPrimitive',
                       'Geometry3D'])
"""The types :func:`to_numpy` and :func:`from_numpy` convert."""


def to_numpy(obj, type='auto'):
    """Converts an object to a numpy array, or a pair (times, milestones)
    for trajectories.  With type='auto' a 9-vector is a Config; pass
    type='Rotation' to get a 3x3 matrix."""
    if isinstance(obj, Trajectory):
        return np.array(obj.times, dtype=float), np.array(obj.milestones, dtype=float)
    if type == 'auto':
        type = _types.object_to_type(obj, SUPPORTED_TYPES)
        if type is None:
            raise ValueError("Can't convert an object of type %s to numpy" % obj.__class__.__name__)
    if type not in SUPPORTED_TYPES:
        raise ValueError("Type %s is not supported by to_numpy" % type)
    if type in _geometry.GEOMETRY_TYPES:
        return _geometry.to_numpy(obj, type)
    if type == 'Rotation':
        return np.array(so3.matrix(obj), dtype=float)
    if type == 'RigidTransform':
        return np.array(se3.homogeneous(obj), dtype=float)
    return np.array(obj, dtype=float)


def from_numpy(obj, type='auto', template=None):
    """Converts a numpy array (or a (times, milestones) pair) to an object
    of the given type.  With type='auto', 1-D arrays become lists, 4x4
    arrays rigid transforms, 3x3 arrays rotations, other 2-D arrays lists
    of configurations, pairs of a 1-D and a 2-D array trajectories, pairs of
    two n x 3 arrays triangle meshes, triples (bmin, bmax, 3-D values)
    volume grids and pairs (4x4 array, data) Geometry3D objects.  template (an object of the
    desired type) picks the trajectory class (and robot of a
    RobotTrajectory)."""
    if template is not None and type == 'auto':
        if isinstance(template, trajectory.Trajectory):
            type = 'Trajectory'
        else:
            type = _types.object_to_type(template, SUPPORTED_TYPES)
    if type == 'auto':
        type = _geometry.detect_type(obj)
    if type in _geometry.GEOMETRY_TYPES:
        return _geometry.from_numpy(obj, type, template)
    if type == 'auto':
        if isinstance(obj, tuple) and len(obj) == 2:
            type = 'Trajectory'
        else:
            a = np.asarray(obj)
            if a.ndim == 0:
                type = 'Value'
            elif a.ndim == 1:
                type = 'Config'
            elif a.shape == (4, 4):
                type = 'RigidTransform'
            elif a.shape == (3, 3):
                type = 'Rotation'
            elif a.ndim == 2:
                type = 'Configs'
            else:
                raise ValueError("Can't auto-detect the type of an array of shape %s" % (a.shape,))
    if type in ('Trajectory', 'LinearPath', 'SO3Trajectory', 'SE3Trajectory'):
        times, milestones = obj
        times = [float(t) for t in np.asarray(times)]
        milestones = np.asarray(milestones, dtype=float).tolist()
        if isinstance(template, trajectory.Trajectory):
            return template.constructor()(times, milestones)
        if type == 'SO3Trajectory':
            return trajectory.SO3Trajectory(times, milestones)
        if type == 'SE3Trajectory':
            return trajectory.SE3Trajectory(times, milestones)
        return trajectory.Trajectory(times, milestones)
    a = np.asarray(obj, dtype=float)
    if type == 'Value':
        return float(a)
    if type in ('Config', 'Vector', 'Vector2', 'Vector3', 'Point'):
        if a.ndim != 1:
            raise ValueError("A %s needs a 1-D array" % type)
        return a.tolist()
    if type == 'Rotation':
        if a.shape != (3, 3):
            raise ValueError("A Rotation needs a 3x3 array")
        return so3.from_ndarray(a)
    if type == 'Matrix3':
        if a.shape != (3, 3):
            raise ValueError("A Matrix3 needs a 3x3 array")
        return a.tolist()
    if type == 'RigidTransform':
        if a.shape != (4, 4):
            raise ValueError("A RigidTransform needs a 4x4 array")
        return se3.from_homogeneous(a)
    if type == 'Configs':
        if a.ndim != 2:
            raise ValueError("Configs need a 2-D array")
        return a.tolist()
    raise ValueError("Type %s is not supported by from_numpy" % type)


supportedTypes = sorted(SUPPORTED_TYPES)
