"""What kind of drawable an object is (:func:`objectToVisType`) and the
default attributes of each kind, as the reference's ``klampt.vis`` defines
them."""
import warnings
from klampt.model import types, coordinates
from klampt.model.contact import ContactPoint, Hold
from klampt.model.multipath import MultiPath
from klampt.model.trajectory import RobotTrajectory, Trajectory
from klampt.robotsim import IKObjective, RobotModel, WorldModel
from ._plot import VisPlot

_default_str_attributes = {'color': [0, 0, 0, 1], 'position': None, 'size': 12}
_default_Trajectory_attributes = {'robot': 0, 'width': 3, 'color': (1, 0.5, 0, 1), 'pointSize': None,
                                  'pointColor': None}
_default_RobotTrajectory_attributes = dict(_default_Trajectory_attributes, endeffectors=[-1])
_default_VisPlot_attributes = {'compress': 1e-3, 'duration': 5., 'position': None, 'range': (None, None),
                               'size': (200, 150), 'hide_label': True}
_default_Point_attributes = {'size': 5.0, 'color': (0, 0, 0, 1)}
_default_Direction_attributes = {'length': 0.15, 'color': [0, 1, 1, 1]}
_default_Frame_attributes = {'length': 0.1, 'width': 0.01}
_default_ContactPoint_attributes = {'size': 5.0, 'length': 0.05, 'color': [1, 0.5, 0, 1]}
_default_IKObjective_attributes = {'size': 5.0, 'color': (0, 0, 0, 1), 'length': 0.1, 'width': 0.01,
                                   'axis_color': [0.5, 0, 0.5, 1], 'axis_width': 3.0, 'axis_length': 0.1}
_default_Geometry_attributes = {'size': None, 'color': None}
_default_RigidTransform_attributes = {'fancy': False, 'length': 0.1, 'width': 0.01}

_GEOMETRY_CLASSES = ('GeometricPrimitive', 'TriangleMesh', 'PointCloud', 'Geometry3D', 'ConvexHull', 'VolumeGrid')


def _class_names(item):
    return {c.__name__ for c in type(item).__mro__}


def objectToVisType(item, world):
    """The drawable type of an object: a class name, 'Config', 'Configs',
    'Vector3', 'RigidTransform', 'Trajectory', 'IKGoal', 'StringArray', ...;
    None (with a warning) when the type is ambiguous, e.g. a 9-vector that
    could be a rotation. A configuration is 'Config' only if it matches the
    link count of a robot of ``world``."""
    names = _class_names(item)
    if 'RobotModelLink' in names:
        raise ValueError("a RobotModelLink cannot be added by itself: add its world and use the path "
                         "('world', robot name, link name)")
    if names & {'Trajectory', 'SE3Trajectory', 'RobotTrajectory'}:
        return 'Trajectory'
    itypes = types.object_to_types(item, world)
    if not isinstance(itypes, (list, tuple)):
        return itypes
    if 'Geometry3D' in itypes:
        return 'Geometry3D'
    valid = []
    for t in itypes:
        if t == 'Config':
            if world is not None and any(len(item) == world.robot(i).numLinks() for i in range(world.numRobots())):
                valid.append(t)
        elif t in ('Vector3', 'RigidTransform', 'Configs'):
            valid.append(t)
    if 'Config' in valid:
        return 'Config'
    if len(valid) > 1:
        warnings.warn("Unable to draw item of ambiguous types {}".format(valid))
        return None
    if not valid:
        warnings.warn("Unable to draw any of types {}".format(itypes))
        return None
    return valid[0]


def default_attributes(item, type=None):
    """The attribute defaults of an item (a new dict), or None when it cannot
    be drawn."""
    if isinstance(item, str):
        return dict(_default_str_attributes)
    if isinstance(item, (WorldModel, RobotModel)):
        return {}
    if hasattr(item, 'appearance') and callable(item.appearance):
        return {'color': item.appearance().getColor()}
    if isinstance(item, (Trajectory, MultiPath)):
        if isinstance(item, RobotTrajectory):
            return dict(_default_RobotTrajectory_attributes)
        return dict(_default_Trajectory_attributes)
    if isinstance(item, VisPlot):
        return dict(_default_VisPlot_attributes)
    if isinstance(item, coordinates.Point):
        return dict(_default_Point_attributes)
    if isinstance(item, coordinates.Direction):
        return dict(_default_Direction_attributes)
    if isinstance(item, coordinates.Frame):
        return dict(_default_Frame_attributes)
    if isinstance(item, coordinates.Transform):
        return {}
    if isinstance(item, coordinates.Group):
        return {'hide_label': True}
    if isinstance(item, ContactPoint):
        return dict(_default_ContactPoint_attributes)
    if isinstance(item, Hold):
        return {}
    if isinstance(item, IKObjective):
        return dict(_default_IKObjective_attributes)
    if _class_names(item) & set(_GEOMETRY_CLASSES):
        return dict(_default_Geometry_attributes)
    if type is not None:
        itype = type
        res = {}
    else:
        try:
            itype = objectToVisType(item, None)
        except Exception as e:
            if hasattr(item, 'drawGL'):
                return {}  # a SimRobotSensor, Appearance, SubRobotModel or a user's drawable
            warnings.warn("Unsupported object type {} of type {}: {}".format(item, item.__class__.__name__, e))
            return None
        res = {'type': itype}
    if itype is None:
        warnings.warn("Unable to convert item {} to drawable".format(item))
        return None
    if itype == 'Config':
        return res
    if itype == 'Configs':
        res['maxConfigs'] = min(10, len(item))
        return res
    if itype == 'Vector3':
        return dict(_default_Point_attributes, **res)
    if itype == 'RigidTransform':
        return dict(_default_RigidTransform_attributes, **res)
    if itype in ('Trajectory',):
        return dict(_default_Trajectory_attributes, **res)
    if itype == 'StringArray':
        return dict(_default_str_attributes, **res)
    warnings.warn('klampt.vis: Unable to draw item of type "%s"' % (itype,))
    res['hidden'] = True
    res['hide_label'] = True
    return res
