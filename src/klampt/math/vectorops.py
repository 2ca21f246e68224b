"""Treats lists, tuples and numpy arrays as vectors.

Every function accepts any indexable sequence of numbers (list, tuple,
1-D numpy array) and returns a new Python list (or a float), never modifying
its arguments.  The one exception, as in Klamp't, is :func:`cross` of two
3-vectors, which returns a tuple.

Binary operations raise ``RuntimeError`` when the vector dimensions differ.
"""

import math

__all__ = ['add', 'madd', 'sub', 'mul', 'div', 'maximum', 'minimum', 'neg',
           'dot', 'normSquared', 'norm', 'unit', 'norm_L2', 'norm_L1',
           'norm_Linf', 'distanceSquared', 'distance', 'cross', 'angle',
           'interpolate']

_SCALAR_TYPES = (int, float)


def _is_scalar(b) -> bool:
    """True if b is a number rather than a vector (0-d arrays count as
    numbers)."""
    if isinstance(b, _SCALAR_TYPES):
        return True
    if hasattr(b, '__len__'):
        try:
            len(b)
        except TypeError:  # e.g. a 0-d numpy array
            return True
        return False
    return True


def _check(a, b) -> None:
    if len(a) != len(b):
        raise RuntimeError('Vector dimensions not equal')


def add(*items):
    """Adds one or more vectors.  Returns 0 if called with no arguments."""
    if len(items) == 0:
        return 0
    a = items[0]
    if len(items) == 1:
        return list(a)
    n = len(a)
    for v in items:
        if len(v) != n:
            raise RuntimeError('Vector dimensions not equal')
    if len(items) == 2:
        return [ai + bi for ai, bi in zip(a, items[1])]
    return [sum(vals) for vals in zip(*items)]


def madd(a, b, c):
    """Returns a+c*b where a and b are vectors and c is a scalar."""
    _check(a, b)
    return [ai + c * bi for ai, bi in zip(a, b)]


def sub(a, b):
    """Subtracts the vector b from a, or subtracts a scalar b from every
    element of a."""
    if _is_scalar(b):
        return [ai - b for ai in a]
    _check(a, b)
    return [ai - bi for ai, bi in zip(a, b)]


def mul(a, b):
    """Multiplies a vector either elementwise with another vector, or with a
    scalar."""
    if _is_scalar(b):
        return [ai * b for ai in a]
    _check(a, b)
    return [ai * bi for ai, bi in zip(a, b)]


def div(a, b):
    """Divides a vector either elementwise by another vector, or by a
    scalar."""
    if _is_scalar(b):
        return [ai / b for ai in a]
    _check(a, b)
    return [ai / bi for ai, bi in zip(a, b)]


def maximum(a, b):
    """Elementwise max of a with a vector or a scalar b."""
    if _is_scalar(b):
        return [max(ai, b) for ai in a]
    _check(a, b)
    return [max(ai, bi) for ai, bi in zip(a, b)]


def minimum(a, b):
    """Elementwise min of a with a vector or a scalar b."""
    if _is_scalar(b):
        return [min(ai, b) for ai in a]
    _check(a, b)
    return [min(ai, bi) for ai, bi in zip(a, b)]


def neg(a):
    """Returns -a.  (Convenience; not part of Klamp't 0.9.2.)"""
    return [-ai for ai in a]


def dot(a, b):
    """Dot product."""
    _check(a, b)
    return sum([ai * bi for ai, bi in zip(a, b)])


def normSquared(a):
    """Returns the squared L2 norm of a."""
    return sum([ai * ai for ai in a])


def norm(a):
    """L2 norm (computed without overflow/underflow)."""
    return math.hypot(*a)


norm_L2 = norm


def unit(a, epsilon=1e-5):
    """Returns the unit vector in the direction a.  If the norm of a is not
    greater than epsilon, a copy of a is returned unchanged."""
    n = math.hypot(*a)
    if n > epsilon:
        if n < 1e-150:  # avoid precision loss with subnormal entries
            a = [ai * 2.0 ** 600 for ai in a]
            n = math.hypot(*a)
        s = 1.0 / n
        return [ai * s for ai in a]
    return list(a)


def norm_L1(a):
    """L1 norm."""
    return sum([abs(ai) for ai in a])


def norm_Linf(a):
    """L-infinity norm (0 for an empty vector)."""
    return max([abs(ai) for ai in a], default=0.0)


def distanceSquared(a, b):
    """Squared L2 distance."""
    _check(a, b)
    return sum([(ai - bi) * (ai - bi) for ai, bi in zip(a, b)])


def distance(a, b):
    """L2 distance."""
    _check(a, b)
    return math.hypot(*[ai - bi for ai, bi in zip(a, b)])


def cross(a, b):
    """Cross product.  For 3-vectors returns a 3-tuple; for 2-vectors returns
    the scalar a[0]*b[1]-a[1]*b[0]."""
    _check(a, b)
    if len(a) == 3:
        return (a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0])
    elif len(a) == 2:
        return a[0] * b[1] - a[1] * b[0]
    raise RuntimeError('Vectors must be 2D or 3D')


def angle(a, b):
    """Returns the angle between vectors a and b in [0, pi] (0 if either is
    zero).  (Convenience; not part of Klamp't 0.9.2.)"""
    _check(a, b)
    na = math.hypot(*a)
    nb = math.hypot(*b)
    if na == 0 or nb == 0:
        return 0.0
    # Kahan's formula: accurate for nearly parallel / antiparallel vectors
    u = [ai * nb for ai in a]
    v = [bi * na for bi in b]
    y = math.hypot(*[ui - vi for ui, vi in zip(u, v)])
    x = math.hypot(*[ui + vi for ui, vi in zip(u, v)])
    return 2.0 * math.atan2(y, x)


def interpolate(a, b, u):
    """Linear interpolation a + u*(b-a) between a (u=0) and b (u=1)."""
    _check(a, b)
    return [ai + u * (bi - ai) for ai, bi in zip(a, b)]
