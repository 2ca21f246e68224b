"""Autodiff versions of the :mod:`klampt.math.so3` functions.

Rotations are 9-element numpy arrays in the column-major layout of
:mod:`klampt.math.so3`.  All functions have analytic first derivatives
except :data:`canonical` (finite differences).

Functions that read a rotation off a matrix (:data:`rotation_vector`,
:data:`angle`, :data:`axis`, :data:`error`, :data:`distance`, :data:`rpy`,
:data:`quaternion`, :data:`interpolate`) treat their 9-vector argument as
the nearest rotation (its polar factor).  On rotation matrices the values
equal the so3 module's, and the derivative in any direction of R^9 is that
of the function along the rotation manifold (the antisymmetric part of the
perturbation), so derivatives chain correctly through expressions whose
values are rotations.

.. note::
    To optimize over rotations, use a non-redundant parameterization such as
    :data:`from_rotation_vector` rather than the 9 matrix entries.
"""

import math

import numpy as np

from .ad import ADFunctionInterface, function, var, _ExpressionFunction
from . import math_ad
from .. import so3, vectorops

SIZE = 9
"""The dimension of an so3_ad element."""

_I9 = np.eye(9)


def identity():
    """The identity rotation as a 9-element array."""
    return np.array(so3.identity())


def _mat(R):
    """3x3 matrix of a column-major 9-vector."""
    return np.asarray(R, dtype=float).reshape((3, 3)).T


def _vec(M):
    """Column-major 9-vector of a 3x3 matrix."""
    return np.asarray(M, dtype=float).T.reshape(9)


def _skew(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def _polar(R):
    """The rotation nearest to the 3x3 matrix of R, as a 3x3 matrix."""
    U, _, Vt = np.linalg.svd(_mat(R))
    if np.linalg.det(U @ Vt) < 0:
        U[:, 2] = -U[:, 2]
    return U @ Vt


def _world_rate(R):
    """The 3x9 linear map from a perturbation dR of a rotation R to the
    world angular velocity w with d(polar(R)) = [w] R."""
    M = _mat(R)
    res = np.empty((3, 9))
    for k in range(9):
        D = _mat(_I9[k]) @ M.T
        A = 0.5 * (D - D.T)
        res[:, k] = [A[2, 1], A[0, 2], A[1, 0]]
    return res


def _left_jacobian(w):
    """J with d exp([w]) = [J dw] exp([w])."""
    t = np.linalg.norm(w)
    K = _skew(w)
    if t < 1e-6:
        return np.eye(3) + 0.5 * K + K @ K / 6.0
    return (np.eye(3) + (1 - math.cos(t)) / t ** 2 * K
            + (t - math.sin(t)) / t ** 3 * (K @ K))


def _left_jacobian_inv(w):
    """Inverse of :func:`_left_jacobian`: dw = Jinv [w-rate]."""
    t = np.linalg.norm(w)
    K = _skew(w)
    if t < 1e-6:
        coef = 1.0 / 12.0 + t ** 2 / 720.0
    else:
        coef = 1.0 / t ** 2 - 1.0 / (2 * t * math.tan(0.5 * t))
    return np.eye(3) - 0.5 * K + coef * (K @ K)


def _rate_to_vec(rate_cols, R):
    """Columns [w_k] R (world rates w_k = columns of rate_cols) as 9-vectors."""
    M = _mat(R)
    return np.column_stack([_vec(_skew(w) @ M) for w in np.asarray(rate_cols).T])


class _OnRotations(ADFunctionInterface):
    """A function of rotation arguments (those of size 9) whose
    derivative is given with respect to world angular perturbations."""

    def __init__(self, name, f, rate_jacobians, argspec, outspec, argnames, other_jacobians=None):
        self.name = name
        self.f = f
        self.rate_jacobians = rate_jacobians
        self.other_jacobians = other_jacobians or {}
        self.argspec = argspec
        self.outspec = outspec
        self.argnames = argnames

    def __str__(self):
        return self.name

    def argname(self, arg):
        return self.argnames[arg]

    def n_args(self):
        return len(self.argspec)

    def n_in(self, arg):
        return self.argspec[arg]

    def n_out(self):
        return self.outspec

    def _project(self, args):
        return [_vec(_polar(a)) if self.argspec[i] == 9 else a for i, a in enumerate(args)]

    def eval(self, *args):
        res = self.f(*self._project(args))
        return float(res) if np.ndim(res) == 0 else np.asarray(res, dtype=float)

    def derivative(self, arg, *args):
        pargs = self._project(args)
        if self.argspec[arg] == 9:
            J = np.atleast_2d(self.rate_jacobians[arg](*pargs))
            return J @ _world_rate(pargs[arg])
        return np.atleast_2d(self.other_jacobians[arg](*pargs)).reshape((self.outspec, -1))


def _rotation_vector_rate(R):
    return _left_jacobian_inv(np.array(so3.rotation_vector(R)))


def _angle_rate(R):
    w = np.array(so3.rotation_vector(R))
    t = np.linalg.norm(w)
    return (w / t if t > 0 else np.zeros(3)).reshape((1, 3))


def _axis_rate(R):
    w = np.array(so3.rotation_vector(R))
    return math_ad._unit_jacobian(w) @ _left_jacobian_inv(w)


def _relative(Ra, Rb):
    return so3.mul(Ra, so3.inv(Rb))


def _error_rate_a(Ra, Rb):
    return _rotation_vector_rate(_relative(Ra, Rb))


def _error_rate_b(Ra, Rb):
    Rrel = _relative(Ra, Rb)
    return -_rotation_vector_rate(Rrel) @ _mat(Rrel)


def _distance_rate_a(Ra, Rb):
    return _angle_rate(_relative(Ra, Rb))


def _distance_rate_b(Ra, Rb):
    return -_angle_rate(_relative(Ra, Rb))


def _rpy_rate(R):
    roll, pitch, yaw = so3.rpy(R)
    Rz = _mat(so3.rotation([0, 0, 1], yaw))
    Ry = _mat(so3.rotation([0, 1, 0], pitch))
    E = np.column_stack([Rz @ Ry @ [1.0, 0, 0], Rz @ [0, 1.0, 0], [0, 0, 1.0]])
    return np.linalg.inv(E)


def _quaternion_rate(R):
    w, x, y, z = so3.quaternion(R)
    qv = np.array([x, y, z])
    return 0.5 * np.vstack([-qv, w * np.eye(3) - _skew(qv)])


def _from_rpy_derivative(rpy):
    roll, pitch, yaw = rpy
    Rz = _mat(so3.rotation([0, 0, 1], yaw))
    Ry = _mat(so3.rotation([0, 1, 0], pitch))
    rates = np.column_stack([Rz @ Ry @ [1.0, 0, 0], Rz @ [0, 1.0, 0], [0, 0, 1.0]])
    return _rate_to_vec(rates, so3.from_rpy(rpy))


def _from_rotation_vector_derivative(w):
    return _rate_to_vec(_left_jacobian(np.asarray(w, dtype=float)), so3.from_rotation_vector(w))


def _quat_matrix(q):
    """The rotation formula of a unit quaternion, applied to any 4-vector."""
    w, x, y, z = q
    return np.array([1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y),
                     2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                     2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)])


def _from_quaternion_derivative(q):
    q = np.asarray(q, dtype=float)
    n = np.linalg.norm(q)
    u = q / n
    # the formula is quadratic: its derivative along d is (f(u+d)-f(u-d))/2
    D = np.column_stack([0.5 * (_quat_matrix(u + e) - _quat_matrix(u - e)) for e in np.eye(4)])
    return D @ ((np.eye(4) - np.outer(u, u)) / n)


def _mul_derivative(arg, R1, R2):
    if arg == 0:
        return np.kron(_mat(R2).T, np.eye(3))
    return np.kron(np.eye(3), _mat(R1))


def _mul_hessian(i, j):
    def h(R1, R2):
        res = np.empty((9, 9, 9))
        for a in range(9):
            for b in range(9):
                E1, E2 = (_I9[a], _I9[b]) if i == 0 else (_I9[b], _I9[a])
                res[:, a, b] = so3.mul(E1, E2)
        return res
    return h


def _apply_hessian_rx(R, x):
    res = np.empty((3, 9, 3))
    for a in range(9):
        res[:, a, :] = _mat(_I9[a])
    return res


def _det_derivative(R):
    M = _mat(R)
    cof = np.array([[np.linalg.det(np.delete(np.delete(M, i, 0), j, 1)) * (-1) ** (i + j)
                     for j in range(3)] for i in range(3)])
    return _vec(cof).reshape((1, 9))


inv = function(lambda R: np.array(so3.inv(R)), 'so3.inv', (9,), 9, ['R'],
               derivative=[lambda R: np.array([so3.inv(e) for e in _I9]).T], order=1)
"""Autodiff so3.inv (the transpose)."""

mul = function(lambda R1, R2: np.array(so3.mul(R1, R2)), 'so3.mul', (9, 9), 9, ['R1', 'R2'],
               derivative=_mul_derivative,
               gen_derivative={(0, 0): lambda R1, R2: 0, (1, 1): lambda R1, R2: 0,
                               (0, 1): _mul_hessian(0, 1), (1, 0): _mul_hessian(1, 0)}, order=2)
"""Autodiff so3.mul (matrix product)."""

apply = function(lambda R, x: np.array(so3.apply(R, x)), 'so3.apply', (9, 3), 3, ['R', 'x'],
                 derivative=[lambda R, x: np.kron(np.asarray(x, dtype=float).reshape((1, 3)), np.eye(3)),
                             lambda R, x: _mat(R)],
                 gen_derivative={(0, 0): lambda R, x: 0, (1, 1): lambda R, x: 0,
                                 (0, 1): _apply_hessian_rx,
                                 (1, 0): lambda R, x: _apply_hessian_rx(R, x).transpose((0, 2, 1))},
                 order=2)
"""Autodiff so3.apply (matrix-vector product)."""

trace = function(so3.trace, 'so3.trace', (9,), 1, ['R'],
                 derivative=[lambda R: _vec(np.eye(3)).reshape((1, 9))], order=1)
"""Autodiff so3.trace."""

det = function(so3.det, 'so3.det', (9,), 1, ['R'], derivative=[_det_derivative])
"""Autodiff so3.det."""

diag = function(lambda R: np.array(so3.diag(R)), 'so3.diag', (9,), 3, ['R'],
                derivative=[lambda R: _I9[[0, 4, 8]]], order=1)
"""Autodiff so3.diag."""

deskew = function(lambda R: np.array(so3.deskew(R)), 'so3.deskew', (9,), 3, ['R'],
                  derivative=[lambda R: np.array([so3.deskew(e) for e in _I9]).T], order=1)
"""Autodiff so3.deskew."""

cross_product = function(lambda x: np.array(so3.cross_product(x)), 'so3.cross_product', (3,), 9, ['x'],
                         derivative=[lambda x: np.array([so3.cross_product(e) for e in np.eye(3)]).T],
                         order=1)
"""Autodiff so3.cross_product."""

from_rpy = function(lambda rpy: np.array(so3.from_rpy(rpy)), 'so3.from_rpy', (3,), 9, ['rpy'],
                    derivative=[_from_rpy_derivative])
"""Autodiff so3.from_rpy."""

from_rotation_vector = function(lambda w: np.array(so3.from_rotation_vector(w)),
                                'so3.from_rotation_vector', (3,), 9, ['w'],
                                derivative=[_from_rotation_vector_derivative])
"""Autodiff so3.from_rotation_vector (the exponential map)."""

from_quaternion = function(lambda q: np.array(so3.from_quaternion(q)), 'so3.from_quaternion',
                           (4,), 9, ['q'], derivative=[_from_quaternion_derivative])
"""Autodiff so3.from_quaternion (normalizing q)."""

_axis_angle_w = math_ad.unit(var('axis')) * var('angle')
from_axis_angle = _ExpressionFunction('so3.from_axis_angle', from_rotation_vector(_axis_angle_w),
                                      ['axis', 'angle'], [3, 1], 9)
"""Autodiff so3.from_axis_angle as a function of (axis, angle); the axis is
normalized."""

rotation_vector = _OnRotations('so3.rotation_vector', so3.rotation_vector,
                               [_rotation_vector_rate], (9,), 3, ['R'])
"""Autodiff so3.rotation_vector (the logarithm map)."""

angle = _OnRotations('so3.angle', so3.angle, [_angle_rate], (9,), 1, ['R'])
"""Autodiff so3.angle."""

axis = _OnRotations('so3.axis', lambda R: vectorops.unit(so3.rotation_vector(R)),
                    [_axis_rate], (9,), 3, ['R'])
"""Autodiff rotation axis ``so3.axis_angle(R)[0]``."""

error = _OnRotations('so3.error', so3.error, [_error_rate_a, _error_rate_b], (9, 9), 3, ['Ra', 'Rb'])
"""Autodiff so3.error."""

distance = _OnRotations('so3.distance', so3.distance, [_distance_rate_a, _distance_rate_b],
                        (9, 9), 1, ['Ra', 'Rb'])
"""Autodiff so3.distance."""

rpy = _OnRotations('so3.rpy', so3.rpy, [_rpy_rate], (9,), 3, ['R'])
"""Autodiff so3.rpy (roll, pitch, yaw); singular at the gimbal lock."""

quaternion = _OnRotations('so3.quaternion', so3.quaternion, [_quaternion_rate], (9,), 4, ['R'])
"""Autodiff so3.quaternion (w, x, y, z) with w >= 0."""

canonical = function(lambda v: np.array(so3.canonical(v)), 'so3.canonical', (3,), 9, ['v'])
"""Autodiff so3.canonical (derivatives by finite differences)."""

_Ra, _Rb, _u = var('Ra'), var('Rb'), var('u')
interpolate = _ExpressionFunction(
    'so3.interpolate',
    mul(_Ra, from_rotation_vector(rotation_vector(mul(inv(_Ra), _Rb)) * _u)),
    ['Ra', 'Rb', 'u'], [9, 9, 1], 9)
"""Autodiff so3.interpolate: the geodesic from Ra (u=0) to Rb (u=1)."""
del _Ra, _Rb, _u, _axis_angle_w
