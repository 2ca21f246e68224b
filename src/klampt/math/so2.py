"""Operations for 2D rotations.  A rotation is represented by a single float
giving its angle in radians (counter-clockwise)."""

import math

__all__ = ['identity', 'inv', 'apply', 'normalize', 'diff', 'interp',
           'compose', 'matrix', 'from_matrix', 'ndarray', 'from_ndarray']

twopi = math.pi * 2


def identity() -> float:
    """The identity rotation (angle 0)."""
    return 0.0


def inv(a: float) -> float:
    """The inverse rotation."""
    return -a


def apply(a: float, pt):
    """Rotates the 2D point pt by the angle a about the origin."""
    c = math.cos(a)
    s = math.sin(a)
    return [c * pt[0] - s * pt[1], s * pt[0] + c * pt[1]]


def normalize(a: float) -> float:
    """Returns the angle a wrapped to the range [0, 2pi)."""
    res = a % twopi
    if res < 0:  # only possible for exotic numeric types
        res += twopi
    if res >= twopi:  # tiny negative a rounds up to exactly 2pi
        res = 0.0
    return res


def diff(a: float, b: float) -> float:
    """Returns the CCW difference between angles a and b, i.e. the amount you
    need to rotate from b to get to a.  The result is in [-pi, pi]."""
    d = normalize(a) - normalize(b)
    if d < -math.pi:
        return d + twopi
    if d > math.pi:
        return d - twopi
    return d


def interp(a: float, b: float, u: float) -> float:
    """Interpolates along the shortest arc from angle a (u=0) to angle b
    (u=1).  u outside [0,1] extrapolates.  The result is not normalized."""
    return a + diff(b, a) * u


def compose(a: float, b: float) -> float:
    """Returns the composition of rotations a and b."""
    return a + b


def matrix(a: float):
    """Returns the 2x2 rotation matrix (list of rows) of the angle a."""
    c = math.cos(a)
    s = math.sin(a)
    return [[c, -s], [s, c]]


def from_matrix(R) -> float:
    """Returns the angle of a 2x2 rotation matrix (list of rows or array)."""
    return float(math.atan2(R[1][0], R[0][0]))


def ndarray(a: float):
    """Returns the 2x2 numpy rotation matrix of the angle a."""
    import numpy
    return numpy.array(matrix(a))


def from_ndarray(R) -> float:
    """Returns the angle of a 2x2 numpy rotation matrix."""
    return from_matrix(R)
