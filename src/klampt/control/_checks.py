"""Argument conversion shared by the Robot Interface Layer: every vector
becomes a list of float, every wrong size a ValueError naming the method."""
from .._checks import check_not_nan


def as_list(v):
    """v (list, tuple, ndarray or scalar sequence) as a list of float."""
    return [float(x) for x in v]


def to_plain(obj):
    """obj with tuples and numpy values turned into lists and Python
    numbers, so it pickles and marshals everywhere."""
    if isinstance(obj, (str, bool)) or obj is None:
        return obj
    if isinstance(obj, dict):
        return dict((k, to_plain(v)) for k, v in obj.items())
    if hasattr(obj, 'tolist'):
        return obj.tolist()
    if isinstance(obj, (list, tuple)):
        return [to_plain(v) for v in obj]
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        return float(obj)
    return obj


def vector(v, n, method, name='vector'):
    """v as a list of n floats, or ValueError naming method for a wrong
    size or a NaN entry."""
    try:
        res = [float(x) for x in v]
    except TypeError:
        raise ValueError("%s: %s must be a sequence of %d numbers, got %r" % (method, name, n, v))
    if n is not None and len(res) != n:
        raise ValueError("%s: %s must have %d entries, got %d" % (method, name, n, len(res)))
    check_not_nan(res, "%s: %s" % (method, name))
    return res


def vector_or_scalar(v, n, method, name):
    """A scalar broadcast to n entries, or a vector of n entries."""
    if not hasattr(v, '__iter__'):
        return [float(v)] * n
    return vector(v, n, method, name)


def optional_duration(ttl, method):
    """ttl as None or a float >= 0."""
    if ttl is None:
        return None
    try:
        ttl = float(ttl)
    except TypeError:
        raise ValueError("%s: ttl must be None or a number, got %r" % (method, ttl))
    if not ttl >= 0:
        raise ValueError("%s: ttl must be >= 0, got %r" % (method, ttl))
    return ttl


def speed(s, method):
    """A speed factor in (0, 1]."""
    try:
        s = float(s)
    except TypeError:
        raise ValueError("%s: speed must be a number, got %r" % (method, s))
    if not (s > 0 and s <= 1):
        raise ValueError("%s: speed must be in (0, 1], got %r" % (method, s))
    return s


def is_transform(x):
    """True for an se3 element (R, t)."""
    return len(x) == 2 and hasattr(x[0], '__len__') and len(x[0]) == 9 and len(x[1]) == 3


def cartesian_target(x, method):
    """A 3-vector point or an se3 (R, t) as lists; ValueError otherwise."""
    try:
        if is_transform(x):
            return (vector(x[0], 9, method, 'rotation'), vector(x[1], 3, method, 'translation'))
        if len(x) == 3 and not hasattr(x[0], '__len__'):
            return vector(x, 3, method, 'point')
    except TypeError:
        pass
    raise ValueError("%s: target must be a 3-vector or an (R, t) transform, got %r" % (method, x))


def cartesian_pair(x, method, what):
    """A 3-vector or a pair of 3-vectors (angular, linear) as lists."""
    try:
        if len(x) == 2 and hasattr(x[0], '__len__'):
            return (vector(x[0], 3, method, what + '[0]'), vector(x[1], 3, method, what + '[1]'))
        if len(x) == 3 and not hasattr(x[0], '__len__'):
            return vector(x, 3, method, what)
    except TypeError:
        pass
    raise ValueError("%s: %s must be a 3-vector or a pair of 3-vectors, got %r" % (method, what, x))


FRAMES = ('world', 'base', 'end effector', 'tool')


def frame(f, method):
    """f if it is a known Cartesian frame, else ValueError."""
    if f not in FRAMES:
        raise ValueError("%s: unknown frame %r, must be one of %s" % (method, f, ', '.join(FRAMES)))
    return f
