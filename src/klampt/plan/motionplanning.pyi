"""
Motion planning: C-spaces, planners and time scaling (klampt.plan).
"""
from __future__ import annotations
import typing
__all__: list[str] = ['brake_1d', 'brake_nd', 'combine_nd_cubic', 'interpolate_1d_min_accel', 'interpolate_1d_min_time', 'interpolate_nd_min_accel', 'interpolate_nd_min_time', 'interpolate_nd_min_time_linear']
def brake_1d(x0: typing.SupportsFloat | typing.SupportsIndex, v0: typing.SupportsFloat | typing.SupportsIndex, amax: typing.SupportsFloat | typing.SupportsIndex) -> tuple:
    """
    Stopping from (x0, v0) at full deceleration amax, as (times, positions, velocities).
    """
def brake_nd(x0: typing.Any, v0: typing.Any, xmin: typing.Any, xmax: typing.Any, amax: typing.Any) -> tuple:
    """
    Stopping every DOF together in the least time the slowest needs, each decelerating uniformly:
    one knot list per DOF. The limits are not enforced (a stop cannot be made shorter).
    """
def combine_nd_cubic(times: typing.Any, positions: typing.Any, velocities: typing.Any) -> tuple:
    """
    Merges per-DOF knot lists (as interpolate_nd_min_time returns) into one time grid:
    (times, configurations, velocities), cubic Hermite between each DOF's knots.
    """
def interpolate_1d_min_accel(x0: typing.SupportsFloat | typing.SupportsIndex, v0: typing.SupportsFloat | typing.SupportsIndex, x1: typing.SupportsFloat | typing.SupportsIndex, v1: typing.SupportsFloat | typing.SupportsIndex, endTime: typing.SupportsFloat | typing.SupportsIndex, xmin: typing.SupportsFloat | typing.SupportsIndex, xmax: typing.SupportsFloat | typing.SupportsIndex, vmax: typing.SupportsFloat | typing.SupportsIndex) -> tuple:
    """
    The move of least acceleration from (x0, v0) to (x1, v1) taking exactly endTime, as (times,
    positions, velocities); empty lists if none exists within the bounds.
    """
def interpolate_1d_min_time(x0: typing.SupportsFloat | typing.SupportsIndex, v0: typing.SupportsFloat | typing.SupportsIndex, x1: typing.SupportsFloat | typing.SupportsIndex, v1: typing.SupportsFloat | typing.SupportsIndex, xmin: typing.SupportsFloat | typing.SupportsIndex, xmax: typing.SupportsFloat | typing.SupportsIndex, vmax: typing.SupportsFloat | typing.SupportsIndex, amax: typing.SupportsFloat | typing.SupportsIndex) -> tuple:
    """
    The fastest move from (x0, v0) to (x1, v1) with |v| <= vmax, |a| <= amax within [xmin, xmax], as
    (times, positions, velocities) at the phase boundaries. Empty lists if the start cannot brake
    before a limit; RuntimeError if x1 is outside the limits. amax = inf moves at constant velocity.
    """
def interpolate_nd_min_accel(x0: typing.Any, v0: typing.Any, x1: typing.Any, v1: typing.Any, endTime: typing.SupportsFloat | typing.SupportsIndex, xmin: typing.Any, xmax: typing.Any, vmax: typing.Any) -> tuple:
    """
    The least-acceleration n-D move lasting endTime: one knot list per DOF; empty lists if some DOF
    has no such move.
    """
def interpolate_nd_min_time(x0: typing.Any, v0: typing.Any, x1: typing.Any, v1: typing.Any, xmin: typing.Any, xmax: typing.Any, vmax: typing.Any, amax: typing.Any) -> tuple:
    """
    The fastest synchronized n-D move: one (times, positions, velocities) knot list per DOF, all
    ending at the slowest DOF's time. Empty lists if some DOF cannot stay within its limits.
    """
def interpolate_nd_min_time_linear(x0: typing.Any, x1: typing.Any, vmax: typing.Any, amax: typing.Any) -> tuple:
    """
    The fastest rest-to-rest move along the straight segment from x0 to x1, as (times,
    configurations, velocities).
    """
def combineNDCubic(*args, **kwargs) -> typing.Any:
    """
    Deprecated: use :func:`combine_nd_cubic`.
    """
def interpolate1DMinAccel(*args, **kwargs) -> typing.Any:
    """
    Deprecated: use :func:`interpolate_1d_min_accel`.
    """
def interpolate1DMinTime(*args, **kwargs) -> typing.Any:
    """
    Deprecated: use :func:`interpolate_1d_min_time`.
    """
def interpolateNDMinAccel(*args, **kwargs) -> typing.Any:
    """
    Deprecated: use :func:`interpolate_nd_min_accel`.
    """
def interpolateNDMinTime(*args, **kwargs) -> typing.Any:
    """
    Deprecated: use :func:`interpolate_nd_min_time`.
    """
def interpolateNDMinTimeLinear(*args, **kwargs) -> typing.Any:
    """
    Deprecated: use :func:`interpolate_nd_min_time_linear`.
    """
