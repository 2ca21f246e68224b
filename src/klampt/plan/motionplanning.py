"""The native planning module: configuration spaces (:class:`CSpaceInterface`),
planners (:class:`PlannerInterface`), the settings of the planners created
next (:func:`set_plan_type`, :func:`set_plan_setting`, ...), and time-scaling
functions on the simulator's parabolic ramps (:func:`interpolate_nd_min_time`,
...). Implemented in C++ (``cpp/bindings/plan_*.cpp``, ``cpp/src/plan/``).

The camelCase names of older Klamp't versions are kept as deprecated aliases.
"""
from klampt import _robotsim
from klampt._deprecation import deprecated_alias
from klampt._containers import SwigPyIterator, doubleMatrix, doubleVector  # noqa: F401  (the SWIG module's containers)

_native = _robotsim.motionplanning

CSpaceInterface = _native.CSpaceInterface
PlannerInterface = _native.PlannerInterface
robot_cspace = _native.robot_cspace

set_random_seed = _native.set_random_seed
set_plan_type = _native.set_plan_type
set_plan_setting = _native.set_plan_setting
set_plan_json_string = _native.set_plan_json_string
get_plan_json_string = _native.get_plan_json_string
destroy = _native.destroy

interpolate_1d_min_time = _native.interpolate_1d_min_time
interpolate_1d_min_accel = _native.interpolate_1d_min_accel
interpolate_nd_min_time = _native.interpolate_nd_min_time
interpolate_nd_min_accel = _native.interpolate_nd_min_accel
interpolate_nd_min_time_linear = _native.interpolate_nd_min_time_linear
brake_1d = _native.brake_1d
brake_nd = _native.brake_nd
combine_nd_cubic = _native.combine_nd_cubic


for _old, _new in [('setRandomSeed', 'set_random_seed'), ('setPlanJSONString', 'set_plan_json_string'),
                   ('getPlanJSONString', 'get_plan_json_string'), ('setPlanType', 'set_plan_type'),
                   ('setPlanSetting', 'set_plan_setting'), ('interpolate1DMinTime', 'interpolate_1d_min_time'),
                   ('interpolate1DMinAccel', 'interpolate_1d_min_accel'),
                   ('interpolateNDMinTime', 'interpolate_nd_min_time'),
                   # The reference maps this one to the 1-D function; it is the n-D one.
                   ('interpolateNDMinAccel', 'interpolate_nd_min_accel'),
                   ('interpolateNDMinTimeLinear', 'interpolate_nd_min_time_linear'),
                   ('combineNDCubic', 'combine_nd_cubic')]:
    globals()[_old] = deprecated_alias(_old, globals()[_new], _new, __name__)
del _old, _new
