"""Autodiff vector math (compare :mod:`klampt.math.vectorops` and numpy).

 =================  ======================================================
 Function           Notes
 =================  ======================================================
 exp, log, sqrt     elementwise, first and second derivatives
 sin, cos           elementwise, first and second derivatives
 dot                like np.dot on scalars / 1D arrays
 linear             :math:`A x` for a constant matrix A
 quadratric         :math:`x^T A x` for a constant matrix A
 bilinear           :math:`x^T A y` for a constant matrix A
 ShapedDot          reshapes one argument into a matrix before dot
 norm, normSquared  L2 norm and its square
 distance           :math:`\\|a-b\\|`
 distanceSquared    :math:`\\|a-b\\|^2`
 unit               :math:`x/\\|x\\|`
 cross              3D cross product
 interpolate        :math:`(1-u) a + u b`
 =================  ======================================================
"""

import numpy as np

from .ad import ADFunctionInterface, function, _scalar, _size
from ._ad_ops import _Elementwise


class _Unary(_Elementwise):
    """Elementwise function of one argument from value and derivatives."""

    def __init__(self, name, f, df, ddf):
        self.name = name
        self.f, self.df, self.ddf = f, df, ddf

    def n_args(self):
        return 1

    def eval(self, x):
        return self.f(x)

    def partial(self, arg, x):
        return self.df(x)

    def partial2(self, i, j, x):
        return self.ddf(x)


def _skew(v):
    return np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])


class _ADDot(ADFunctionInterface):
    def __str__(self):
        return 'dot'

    def n_args(self):
        return 2

    def n_in(self, arg):
        return -1

    def n_out(self):
        return -1

    def eval(self, x, y):
        return np.dot(x, y)

    def derivative(self, arg, x, y):
        other = y if arg == 0 else x
        mine = x if arg == 0 else y
        if _scalar(mine):
            return np.asarray(other, dtype=float).reshape((_size(other), 1))
        if _scalar(other):
            return float(other) * np.eye(_size(mine))
        return np.asarray(other, dtype=float).reshape((1, -1))

    def jvp(self, arg, darg, x, y):
        return np.dot(darg, y) if arg == 0 else np.dot(x, darg)

    def gen_derivative(self, arg, x, y):
        if len(arg) == 1:
            return self.derivative(arg[0], x, y)
        if len(arg) != 2 or arg[0] == arg[1]:
            return 0
        if _scalar(x) or _scalar(y):
            raise NotImplementedError()
        return np.eye(_size(x))[np.newaxis, :, :]


class ShapedDot(ADFunctionInterface):
    """Matrix-vector products on flattened arrays: the first argument is
    reshaped to ``shape1`` (giving ``X y``) or the second to ``shape2``
    (giving ``x Y``) before the dot product.  Exactly one shape is given;
    matrices are flattened in row-major (numpy) order."""

    def __init__(self, shape1=None, shape2=None):
        if (shape1 is None) == (shape2 is None):
            raise ValueError("ShapedDot reshapes exactly one of its arguments")
        for s in (shape1, shape2):
            if s is not None and len(s) != 2:
                raise ValueError("ShapedDot only reshapes to matrices")
        self.shape1 = tuple(shape1) if shape1 is not None else None
        self.shape2 = tuple(shape2) if shape2 is not None else None

    def __str__(self):
        return 'ShapedDot[%s,%s]' % (self.shape1, self.shape2)

    def n_args(self):
        return 2

    def n_in(self, arg):
        if arg == 0:
            return self.shape1[0] * self.shape1[1] if self.shape1 else self.shape2[0]
        return self.shape2[0] * self.shape2[1] if self.shape2 else self.shape1[1]

    def n_out(self):
        return self.shape1[0] if self.shape1 else self.shape2[1]

    def eval(self, x, y):
        if self.shape1:
            return np.dot(x.reshape(self.shape1), y)
        return np.dot(x, y.reshape(self.shape2))

    def derivative(self, arg, x, y):
        if self.shape1:
            if arg == 0:
                return np.kron(np.eye(self.shape1[0]), y.reshape((1, -1)))
            return x.reshape(self.shape1)
        if arg == 0:
            return y.reshape(self.shape2).T
        return np.kron(x.reshape((-1, 1)), np.eye(self.shape2[1])).T

    def jvp(self, arg, darg, x, y):
        if arg == 0:
            return self.eval(darg, y)
        return self.eval(x, darg)

    def gen_derivative(self, arg, x, y):
        if len(arg) == 1:
            return self.derivative(arg[0], x, y)
        if len(arg) != 2 or arg[0] == arg[1]:
            return 0
        n0, n1 = _size(x), _size(y)
        res = np.zeros((self.n_out(), n0, n1))
        for k in range(n1):
            e = np.zeros(n1)
            e[k] = 1.0
            res[:, :, k] = self.derivative(0, x, e)
        return res if arg[0] == 0 else res.transpose((0, 2, 1))


class _ADLinear(ADFunctionInterface):
    def __init__(self, A):
        self.A = np.asarray(A, dtype=float)
        if self.A.ndim != 2:
            raise ValueError("linear needs a 2D matrix")

    def __str__(self):
        return 'linear'

    def n_args(self):
        return 1

    def n_in(self, arg):
        return self.A.shape[1]

    def n_out(self):
        return self.A.shape[0]

    def eval(self, x):
        return self.A.dot(x)

    def derivative(self, arg, x):
        return self.A

    def jvp(self, arg, darg, x):
        return self.A.dot(darg)

    def vjp(self, arg, dout, x):
        return self.A.T.dot(dout)

    def gen_derivative(self, arg, x):
        return self.A if len(arg) == 1 else 0


class _ADQuadratic(ADFunctionInterface):
    def __init__(self, A):
        self.A = np.asarray(A, dtype=float)
        if self.A.ndim != 2 or self.A.shape[0] != self.A.shape[1]:
            raise ValueError("quadratic needs a square matrix")

    def __str__(self):
        return 'quadratic'

    def n_args(self):
        return 1

    def n_in(self, arg):
        return self.A.shape[0]

    def n_out(self):
        return 1

    def eval(self, x):
        return float(np.dot(x, self.A.dot(x)))

    def derivative(self, arg, x):
        return (self.A.dot(x) + self.A.T.dot(x))[np.newaxis, :]

    def jvp(self, arg, darg, x):
        return np.dot(x, self.A.dot(darg)) + np.dot(darg, self.A.dot(x))

    def gen_derivative(self, arg, x):
        if len(arg) == 1:
            return self.derivative(arg[0], x)
        if len(arg) == 2:
            return (self.A + self.A.T)[np.newaxis, :, :]
        return 0


class _ADBilinear(ADFunctionInterface):
    def __init__(self, A):
        self.A = np.asarray(A, dtype=float)
        if self.A.ndim != 2:
            raise ValueError("bilinear needs a 2D matrix")

    def __str__(self):
        return 'bilinear'

    def n_args(self):
        return 2

    def n_in(self, arg):
        return self.A.shape[arg]

    def n_out(self):
        return 1

    def eval(self, x, y):
        return float(np.dot(x, self.A.dot(y)))

    def derivative(self, arg, x, y):
        return (self.A.dot(y) if arg == 0 else self.A.T.dot(x))[np.newaxis, :]

    def jvp(self, arg, darg, x, y):
        return np.dot(darg, self.A.dot(y)) if arg == 0 else np.dot(x, self.A.dot(darg))

    def gen_derivative(self, arg, x, y):
        if len(arg) == 1:
            return self.derivative(arg[0], x, y)
        if len(arg) != 2 or arg[0] == arg[1]:
            return 0
        return (self.A if arg[0] == 0 else self.A.T)[np.newaxis, :, :]


class _ADDistance(ADFunctionInterface):
    """||a-b|| (squared=False) or ||a-b||^2 (squared=True)."""

    def __init__(self, squared):
        self.squared = squared

    def __str__(self):
        return 'distanceSquared' if self.squared else 'distance'

    def argname(self, arg):
        return ['a', 'b'][arg]

    def n_args(self):
        return 2

    def n_in(self, arg):
        return -1

    def n_out(self):
        return 1

    def eval(self, a, b):
        d = np.asarray(a - b, dtype=float)
        return float(np.dot(d, d)) if self.squared else float(np.linalg.norm(d))

    def _grad_a(self, a, b):
        d = np.atleast_1d(np.asarray(a - b, dtype=float))
        if self.squared:
            return 2 * d
        n = np.linalg.norm(d)
        return d / n if n > 0 else np.zeros_like(d)

    def derivative(self, arg, a, b):
        g = self._grad_a(a, b)
        return (g if arg == 0 else -g)[np.newaxis, :]

    def jvp(self, arg, darg, a, b):
        g = self._grad_a(a, b)
        return float(np.dot(g if arg == 0 else -g, np.atleast_1d(darg)))

    def gen_derivative(self, arg, a, b):
        if len(arg) == 1:
            return self.derivative(arg[0], a, b)
        if len(arg) != 2:
            raise NotImplementedError()
        sign = 1.0 if arg[0] == arg[1] else -1.0
        n = _size(a)
        if self.squared:
            return sign * 2 * np.eye(n)[np.newaxis]
        d = np.atleast_1d(np.asarray(a - b, dtype=float))
        r = np.linalg.norm(d)
        u = d / r
        return sign * ((np.eye(n) - np.outer(u, u)) / r)[np.newaxis]


def _norm_jacobian(x):
    x = np.atleast_1d(np.asarray(x, dtype=float))
    n = np.linalg.norm(x)
    return (x / n if n > 0 else np.zeros_like(x))[np.newaxis, :]


def _norm_hessian(x):
    x = np.atleast_1d(np.asarray(x, dtype=float))
    n = np.linalg.norm(x)
    u = x / n
    return ((np.eye(x.shape[0]) - np.outer(u, u)) / n)[np.newaxis]


def _unit(x):
    n = np.linalg.norm(x)
    return x / n if n > 0 else np.zeros_like(x)


def _unit_jacobian(x):
    return _norm_hessian(x)[0]


# eps[k, i, j]: cross(a, b)[k] = sum_ij eps[k, i, j] a[i] b[j]
_LEVI_CIVITA = np.array([[[np.linalg.det(np.array([ek, ei, ej])) for ej in np.eye(3)]
                          for ei in np.eye(3)] for ek in np.eye(3)])


def _cross_derivative(arg, a, b):
    return -_skew(b) if arg == 0 else _skew(a)


exp = _Unary('exp', np.exp, np.exp, np.exp)
"""Autodiff np.exp (elementwise)."""

log = _Unary('log', np.log, lambda x: 1.0 / x, lambda x: -1.0 / x ** 2)
"""Autodiff np.log (elementwise)."""

sqrt = _Unary('sqrt', np.sqrt, lambda x: 0.5 / np.sqrt(x), lambda x: -0.25 * x ** -1.5)
"""Autodiff np.sqrt (elementwise)."""

sin = _Unary('sin', np.sin, np.cos, lambda x: -np.sin(x))
"""Autodiff np.sin (elementwise)."""

cos = _Unary('cos', np.cos, lambda x: -np.sin(x), lambda x: -np.cos(x))
"""Autodiff np.cos (elementwise)."""

dot = _ADDot()
"""Autodiff np.dot of two scalars / 1D arrays."""

norm = function(lambda x: float(np.linalg.norm(x)), 'norm', [-1], 1, ['x'],
                derivative=[_norm_jacobian], gen_derivative=[_norm_hessian])
"""Autodiff L2 norm (np.linalg.norm)."""

normSquared = function(lambda x: float(np.dot(x, x)), 'normSquared', [-1], 1, ['x'],
                       derivative=[lambda x: 2 * np.atleast_1d(x)[np.newaxis, :]],
                       gen_derivative=[lambda x: 2 * np.eye(_size(x))[np.newaxis]])
"""Autodiff squared L2 norm ``dot(x, x)``."""

distance = _ADDistance(False)
"""Autodiff Euclidean distance ``norm(a - b)``."""

distanceSquared = _ADDistance(True)
"""Autodiff squared distance ``dot(a - b, a - b)``."""

unit = function(_unit, 'unit', [-1], -1, ['x'], derivative=[_unit_jacobian])
"""Autodiff normalization ``x / norm(x)`` (0 maps to 0)."""

cross = function(np.cross, 'cross', [3, 3], 3, ['a', 'b'],
                 derivative=lambda arg, a, b: _cross_derivative(arg, a, b),
                 gen_derivative={(0, 0): lambda a, b: 0, (1, 1): lambda a, b: 0,
                                 (0, 1): lambda a, b: _LEVI_CIVITA,
                                 (1, 0): lambda a, b: -_LEVI_CIVITA})
"""Autodiff 3D cross product ``np.cross(a, b)``."""

interpolate = function(lambda a, b, u: (1 - u) * a + u * b, 'interpolate', [-1, -1, 1], -1,
                       ['a', 'b', 'u'],
                       derivative=[lambda a, b, u: (1 - u) * np.eye(_size(a)),
                                   lambda a, b, u: u * np.eye(_size(b)),
                                   lambda a, b, u: np.atleast_1d(b - a).reshape((-1, 1))])
"""Autodiff linear interpolation ``(1 - u) * a + u * b``."""


def linear(A, x):
    """Autodiff ``np.dot(A, x)`` for a constant matrix A."""
    return _ADLinear(A)(x)


def quadratric(A, x):
    """Autodiff ``np.dot(x, np.dot(A, x))`` for a constant square matrix A."""
    return _ADQuadratic(A)(x)


def bilinear(x, A, y):
    """Autodiff ``np.dot(x, np.dot(A, y))`` for a constant matrix A."""
    return _ADBilinear(A)(x, y)
