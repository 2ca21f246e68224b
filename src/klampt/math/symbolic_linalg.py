"""Symbolic linear algebra functions, with derivatives:

- norm(x), norm2(x) (squared), norm_L1(x), norm_Linf(x): vector norms
- norm_fro(A), norm2_fro(A): the Frobenius norm of a matrix and its square
- distance(x,y), distance2(x,y), distance_L1(x,y), distance_Linf(x,y)
- mahalanobis_distance(x,y,A) = sqrt((x-y)^T A (x-y)), mahalanobis_distance2
- unit(x): x/norm(x) (0 for x = 0)
- inv(A), pinv(A): inverse and pseudo-inverse
- linear(x,A) = A x, quadratic(x,A) = x^T A x, bilinear(x,A,y) = x^T A y
- bound_contains(xmin,xmax,x), bound_overlaps(xmin,xmax,ymin,ymax),
  bound_margin(xmin,xmax,x) (distance from x to the box boundary, positive
  inside)

:class:`LinAlgContext` declares them all, for inclusion into a Context
(e.g. ``ctx.include(LinAlgContext(), 'linalg')``).  Unlike Klamp't 0.9.2, the
derivatives of quadratic, bilinear and the Mahalanobis distances are also
right for non-symmetric A.
"""

import numpy as np

from .symbolic import Function, Context, Vector, Matrix, Variable, VariableExpression
from ._symbolic_library import dot, outer, sign, sqrt, div, mul, neg, sub, eye, len_, transpose, add

_x = VariableExpression(Variable("x", "V"))
_y = VariableExpression(Variable("y", "V"))
_A = VariableExpression(Variable("A", "M"))


def _F(name, func, args, rt, argtypes, desc):
    f = Function(name, func, args, rt)
    f.argTypes = list(argtypes)
    f.description = desc
    return f


def _unit(x):
    x = np.asarray(x, dtype=float)
    n = np.linalg.norm(x)
    return x if n == 0 else x / n


def _linf_jac(x):
    x = np.asarray(x, dtype=float)
    J = np.zeros(x.shape)
    if x.size:
        i = int(np.argmax(np.abs(x)))
        J[i] = np.sign(x[i])
    return J


def _inv_jac(A):
    Ai = np.linalg.inv(A)
    return -np.einsum('ik,lj->ijkl', Ai, Ai)


def _pinv_jvp(A, dA):
    A, dA = np.asarray(A, dtype=float), np.asarray(dA, dtype=float)
    P = np.linalg.pinv(A)
    m, n = A.shape
    return (-P @ dA @ P + P @ P.T @ dA.T @ (np.eye(m) - A @ P)
            + (np.eye(n) - P @ A) @ dA.T @ P.T @ P)


def _linear_jac_A(x, A):
    x = np.asarray(x, dtype=float)
    m = np.shape(A)[0]
    return np.einsum('ik,l->ikl', np.eye(m), x)


def _bound_contains(xmin, xmax, x):
    return bool(np.all(np.asarray(xmin) <= x) and np.all(np.asarray(x) <= xmax))


def _bound_overlaps(xmin, xmax, ymin, ymax):
    return bool(np.all(np.asarray(ymax) >= xmin) and np.all(np.asarray(ymin) <= xmax))


def _bound_margin(xmin, xmax, x):
    x = np.asarray(x, dtype=float)
    return float(min(np.min(x - xmin), np.min(np.asarray(xmax) - x)))


def _margin_jacs(xmin, xmax, x):
    """Jacobians of bound_margin w.r.t. xmin, xmax and x at the active term."""
    x, lo, hi = (np.asarray(v, dtype=float) for v in (x, xmin, xmax))
    Jlo, Jhi, Jx = np.zeros(x.shape), np.zeros(x.shape), np.zeros(x.shape)
    a, b = x - lo, hi - x
    i, j = int(np.argmin(a)), int(np.argmin(b))
    if a[i] <= b[j]:
        Jx[i], Jlo[i] = 1.0, -1.0
    else:
        Jx[j], Jhi[j] = -1.0, 1.0
    return Jlo, Jhi, Jx


norm = _F('norm', lambda x: float(np.linalg.norm(x)), ['x'], 'N', [Vector], "The L-2 norm of a vector.")
norm2 = _F('norm2', lambda x: float(np.dot(x, x)), ['x'], 'N', [Vector], "The squared L-2 norm of a vector.")
norm_L1 = _F('norm_L1', lambda x: float(np.linalg.norm(x, ord=1)), ['x'], 'N', [Vector], "The L-1 norm of a vector.")
norm_Linf = _F('norm_Linf', lambda x: float(np.linalg.norm(x, ord=np.inf)), ['x'], 'N', [Vector], "The L-infinity norm of a vector.")
norm_fro = _F('norm_fro', lambda A: float(np.linalg.norm(A)), ['A'], 'N', [Matrix], "The Frobenius norm of a matrix.")
norm2_fro = _F('norm2_fro', lambda A: float(np.linalg.norm(A) ** 2), ['A'], 'N', [Matrix], "The squared Frobenius norm of a matrix.")
distance = _F('distance', lambda x, y: float(np.linalg.norm(np.subtract(x, y))), ['x', 'y'], 'N', [Vector, Vector], "The L-2 distance between two vectors.")
distance2 = _F('distance2', lambda x, y: float(np.dot(np.subtract(x, y), np.subtract(x, y))), ['x', 'y'], 'N', [Vector, Vector], "The squared L-2 distance between two vectors.")
distance_L1 = _F('distance_L1', lambda x, y: float(np.linalg.norm(np.subtract(x, y), ord=1)), ['x', 'y'], 'N', [Vector, Vector], "The L-1 distance between two vectors.")
distance_Linf = _F('distance_Linf', lambda x, y: float(np.linalg.norm(np.subtract(x, y), ord=np.inf)), ['x', 'y'], 'N', [Vector, Vector], "The L-infinity distance between two vectors.")
unit = _F('unit', _unit, ['x'], 'V', [Vector], "The unit vector in the direction of x (x itself if x = 0).")
inv = _F('inv', np.linalg.inv, ['A'], 'M', [Matrix], "The inverse of a square matrix.")
pinv = _F('pinv', np.linalg.pinv, ['A'], 'M', [Matrix], "The Moore-Penrose pseudo-inverse of a matrix.")
linear = _F('linear', lambda x, A: np.dot(A, x), ['x', 'A'], 'V', [Vector, Matrix], "The linear function A x.")
quadratic = _F('quadratic', lambda x, A: float(np.dot(x, np.dot(A, x))), ['x', 'A'], 'N', [Vector, Matrix], "The quadratic form x^T A x.")
bilinear = _F('bilinear', lambda x, A, y: float(np.dot(x, np.dot(A, y))), ['x', 'A', 'y'], 'N', [Vector, Matrix, Vector], "The bilinear form x^T A y.")
mahalanobis_distance2 = _F('mahalanobis_distance2', lambda x, y, A: float(np.dot(np.subtract(x, y), np.dot(A, np.subtract(x, y)))),
                           ['x', 'y', 'A'], 'N', [Vector, Vector, Matrix], "The squared Mahalanobis distance (x-y)^T A (x-y).")
mahalanobis_distance = _F('mahalanobis_distance', lambda x, y, A: float(np.sqrt(np.dot(np.subtract(x, y), np.dot(A, np.subtract(x, y))))),
                          ['x', 'y', 'A'], 'N', [Vector, Vector, Matrix], "The Mahalanobis distance sqrt((x-y)^T A (x-y)).")
bound_contains = _F('bound_contains', _bound_contains, ['xmin', 'xmax', 'x'], 'B', [Vector] * 3, "True if xmin <= x <= xmax elementwise.")
bound_overlaps = _F('bound_overlaps', _bound_overlaps, ['xmin', 'xmax', 'ymin', 'ymax'], 'B', [Vector] * 4,
                    "True if the boxes [xmin,xmax] and [ymin,ymax] overlap.")
bound_margin = _F('bound_margin', _bound_margin, ['xmin', 'xmax', 'x'], 'N', [Vector] * 3,
                  "The distance from x to the boundary of the box [xmin,xmax] (positive inside, negative outside).")

for _f in (norm, norm2, norm_L1, norm_Linf, norm_fro, norm2_fro, distance, distance2, distance_L1, distance_Linf,
           mahalanobis_distance, mahalanobis_distance2):
    _f.properties['nonnegative'] = True

norm.setJacobian(0, lambda x: div(x, norm(x)), asExpr=True)
norm2.setJacobian(0, lambda x: mul(2, x), asExpr=True)
norm_L1.setJacobian(0, lambda x: sign(x), asExpr=True)
norm_Linf.setJacobian(0, _linf_jac)
norm_fro.setJacobian(0, lambda A: div(A, norm_fro(A)), asExpr=True)
norm2_fro.setJacobian(0, lambda A: mul(2, A), asExpr=True)
distance.setJacobian(0, lambda x, y: div(sub(x, y), distance(x, y)), asExpr=True)
distance.setJacobian(1, lambda x, y: div(sub(y, x), distance(x, y)), asExpr=True)
distance2.setJacobian(0, lambda x, y: mul(2, sub(x, y)), asExpr=True)
distance2.setJacobian(1, lambda x, y: mul(2, sub(y, x)), asExpr=True)
distance_L1.setJacobian(0, lambda x, y: sign(sub(x, y)), asExpr=True)
distance_L1.setJacobian(1, lambda x, y: neg(sign(sub(x, y))), asExpr=True)
distance_Linf.setJacobian(0, lambda x, y: _linf_jac(np.subtract(x, y)))
distance_Linf.setJacobian(1, lambda x, y: -_linf_jac(np.subtract(x, y)))
unit.setJacobian(0, lambda x: div(sub(eye(len_(x)), outer(unit(x), unit(x))), norm(x)), asExpr=True)
inv.setJacobian(0, _inv_jac)
pinv.setDeriv(0, _pinv_jvp)
linear.setJacobian(0, lambda x, A: A, asExpr=True)
linear.setJacobian(1, _linear_jac_A)
quadratic.setJacobian(0, lambda x, A: dot(x, add(A, transpose(A))), asExpr=True)
quadratic.setJacobian(1, lambda x, A: outer(x, x), asExpr=True)
bilinear.setJacobian(0, lambda x, A, y: dot(A, y), asExpr=True)
bilinear.setJacobian(1, lambda x, A, y: outer(x, y), asExpr=True)
bilinear.setJacobian(2, lambda x, A, y: dot(x, A), asExpr=True)
mahalanobis_distance2.setJacobian(0, lambda x, y, A: dot(sub(x, y), add(A, transpose(A))), asExpr=True)
mahalanobis_distance2.setJacobian(1, lambda x, y, A: dot(sub(y, x), add(A, transpose(A))), asExpr=True)
mahalanobis_distance2.setJacobian(2, lambda x, y, A: outer(sub(x, y), sub(x, y)), asExpr=True)
for _i in range(3):
    mahalanobis_distance.setJacobian(
        _i, (lambda i: lambda x, y, A: div(_md2_jac(i, x, y, A), mul(2, sqrt(mahalanobis_distance2(x, y, A)))))(_i), asExpr=True)
bound_margin.setJacobian(0, lambda xmin, xmax, x: _margin_jacs(xmin, xmax, x)[0])
bound_margin.setJacobian(1, lambda xmin, xmax, x: _margin_jacs(xmin, xmax, x)[1])
bound_margin.setJacobian(2, lambda xmin, xmax, x: _margin_jacs(xmin, xmax, x)[2])


def _md2_jac(i, x, y, A):
    return [dot(sub(x, y), add(A, transpose(A))), dot(sub(y, x), add(A, transpose(A))), outer(sub(x, y), sub(x, y))][i]


inv.printers['str'] = lambda e, astr: astr[0] + '^-1'
pinv.printers['str'] = lambda e, astr: astr[0] + '^+'
inv.addSimplifier(['neg'], lambda x: neg(inv(x.args[0])))
inv.addSimplifier(['inv'], lambda x: x.args[0])
pinv.addSimplifier(['neg'], lambda x: neg(pinv(x.args[0])))
for _f in (norm, norm2, norm_L1, norm_Linf):
    _f.addSimplifier(['zero'], lambda x: 0)
norm.addSimplifier(['unit'], lambda x: 1)
dot.addSimplifier(['inv', 'inv'], lambda Ainv, Binv: inv(dot(Binv.args[0], Ainv.args[0])))

_ALL = ['norm', 'norm2', 'norm_L1', 'norm_Linf', 'norm_fro', 'norm2_fro', 'distance', 'distance2', 'distance_L1',
        'distance_Linf', 'unit', 'linear', 'bilinear', 'quadratic', 'mahalanobis_distance', 'mahalanobis_distance2',
        'inv', 'pinv', 'bound_contains', 'bound_overlaps', 'bound_margin']


class LinAlgContext(Context):
    """A Context declaring the linear algebra functions, each also an
    attribute (``ctx.norm``, ...)."""

    def __init__(self):
        Context.__init__(self)
        for name in _ALL:
            setattr(self, name, self.declare(globals()[name]))
