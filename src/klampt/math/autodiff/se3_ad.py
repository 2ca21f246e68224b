"""Autodiff versions of the :mod:`klampt.math.se3` functions.

A transform is a 12-element numpy array: the 9 entries of the rotation (as
in :mod:`klampt.math.so3`) followed by the translation.  Use
:func:`from_klampt` / :func:`to_klampt` to convert from / to the
``(R, t)`` pairs of :mod:`klampt.math.se3`.  All functions have analytic
first derivatives; the rotation-reading ones (:data:`error`,
:data:`distance`, :data:`interpolate`) follow the conventions of
:mod:`so3_ad`.
"""

import numpy as np

from .ad import ADFunctionInterface, function, var, stack, _ExpressionFunction  # noqa: F401 (exported)
from . import math_ad, so3_ad
from .. import so3, se3

SIZE = 12
"""The dimension of an se3_ad element."""


def to_klampt(T):
    """Converts a 12-element array to a Klampt ``(R, t)`` pair of lists."""
    T = np.asarray(T, dtype=float)
    if T.shape != (12,):
        raise ValueError("An se3_ad element has 12 entries, got shape %s" % (T.shape,))
    return (T[:9].tolist(), T[9:].tolist())


def from_klampt(T):
    """Converts a Klampt ``(R, t)`` pair to a 12-element array."""
    R, t = T
    return np.hstack((np.asarray(R, dtype=float), np.asarray(t, dtype=float)))


def identity():
    """The identity transform as a 12-element array."""
    return from_klampt(se3.identity())


def _block(rows, cols, offset_r, offset_c, n):
    res = np.zeros((rows, cols))
    res[offset_r:offset_r + n, offset_c:offset_c + n] = np.eye(n)
    return res


join = function(lambda R, t: np.hstack((R, t)), 'se3.join', [9, 3], 12, ['R', 't'],
                derivative=[lambda R, t: _block(12, 9, 0, 0, 9), lambda R, t: _block(12, 3, 9, 0, 3)],
                order=1)
"""Autodiff joining of a rotation (9) and translation (3) into a transform."""

rotation = function(lambda T: np.asarray(T)[:9].astype(float), 'se3.rotation', (12,), 9, ['T'],
                    derivative=[lambda T: _block(9, 12, 0, 0, 9)], order=1)
"""Autodiff rotation part (9 entries) of a transform."""

translation = function(lambda T: np.asarray(T)[9:].astype(float), 'se3.translation', (12,), 3, ['T'],
                       derivative=[lambda T: _block(3, 12, 0, 9, 3)], order=1)
"""Autodiff translation part (3 entries) of a transform."""

from_rotation = function(lambda R: np.hstack((R, np.zeros(3))), 'se3.from_rotation', (9,), 12, ['R'],
                         derivative=[lambda R: _block(12, 9, 0, 0, 9)], order=1)
"""Autodiff transform with rotation R and zero translation."""

from_translation = function(lambda t: np.hstack((so3.identity(), t)), 'se3.from_translation', (3,), 12,
                            ['t'], derivative=[lambda t: _block(12, 3, 9, 0, 3)], order=1)
"""Autodiff transform with identity rotation and translation t."""


def _composite(name, argnames, sizes, outsize, build):
    terms = [var(n) for n in argnames]
    return _ExpressionFunction(name, build(*terms), argnames, sizes, outsize)


apply = _composite('se3.apply', ['T', 'x'], [12, 3], 3,
                   lambda T, x: so3_ad.apply(rotation(T), x) + translation(T))
"""Autodiff se3.apply: the transform applied to the point x."""

apply_rotation = _composite('se3.apply_rotation', ['T', 'x'], [12, 3], 3,
                            lambda T, x: so3_ad.apply(rotation(T), x))
"""Autodiff se3.apply_rotation: the rotation of T applied to the direction x."""

mul = _composite('se3.mul', ['T1', 'T2'], [12, 12], 12,
                 lambda T1, T2: join(so3_ad.mul(rotation(T1), rotation(T2)),
                                     so3_ad.apply(rotation(T1), translation(T2)) + translation(T1)))
"""Autodiff se3.mul: the composition T1*T2."""


def _inv_expr(T):
    Rinv = so3_ad.inv(rotation(T))
    return join(Rinv, -so3_ad.apply(Rinv, translation(T)))


inv = _composite('se3.inv', ['T'], [12], 12, _inv_expr)
"""Autodiff se3.inv: the inverse transform."""

error = _composite('se3.error', ['T1', 'T2'], [12, 12], 6,
                   lambda T1, T2: stack(so3_ad.error(rotation(T1), rotation(T2)),
                                        translation(T1) - translation(T2)))
"""Autodiff se3.error: so3 error of the rotations followed by t1-t2."""

distance = _composite('se3.distance', ['T1', 'T2'], [12, 12], 1,
                      lambda T1, T2: so3_ad.distance(rotation(T1), rotation(T2))
                      + math_ad.distance(translation(T1), translation(T2)))
"""Autodiff se3.distance (unit weights): rotation angle plus translation
distance."""

interpolate = _composite('se3.interpolate', ['T1', 'T2', 'u'], [12, 12, 1], 12,
                         lambda T1, T2, u: join(so3_ad.interpolate(rotation(T1), rotation(T2), u),
                                                math_ad.interpolate(translation(T1), translation(T2), u)))
"""Autodiff se3.interpolate: geodesic rotation, linear translation."""
