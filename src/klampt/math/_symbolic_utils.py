"""Questions asked of symbolic values, built on the expression layer: whether
a value is a scalar, zero, a variable, sparse, an expression or an operator
(``is_*``), its scalar or Variable (``to_*``), its monomial and polynomial
forms, and the :func:`deriv` and :func:`simplify` shortcuts.
"""

import math

import numpy as np

from ._symbolic_types import _NUMERIC_TYPES
from ._symbolic_variable import Variable
from ._symbolic_expressions import (Expression, ConstantExpression, OperatorExpression, VariableExpression, expr,
                                    to_const)


def is_scalar(v, value=None):
    """True if v evaluates to a scalar (equal to ``value`` if given)."""
    if isinstance(v, Variable):
        if not v.type.is_scalar():
            return False
        return value is None or (v.value is not None and v.value == value)
    if isinstance(v, ConstantExpression):
        return is_scalar(v.value, value)
    if isinstance(v, Expression):
        return v.returnType().is_scalar() and value is None
    if isinstance(v, (bool, np.bool_) + _NUMERIC_TYPES) or (isinstance(v, np.ndarray) and v.shape == ()):
        return value is None or bool(v == value)
    return False


def to_scalar(v):
    """The value of v if it is a constant scalar, otherwise None."""
    if isinstance(v, ConstantExpression):
        return to_scalar(v.value)
    if isinstance(v, (Expression, Variable)):
        return None
    if isinstance(v, (bool, np.bool_) + _NUMERIC_TYPES) or (isinstance(v, np.ndarray) and v.shape == ()):
        return v
    return None


def is_zero(v):
    """True if v is a zero(...) expression or a constant equal to 0."""
    if is_op(v, 'zero'):
        return True
    if isinstance(v, ConstantExpression):
        v = v.value
    elif isinstance(v, (Expression, Variable)):
        return False
    if isinstance(v, (bool, str)):
        return False
    try:
        arr = np.asarray(v)
        return arr.dtype.kind in 'iuf' and bool(np.all(arr == 0))
    except (ValueError, TypeError):
        return False


def is_var(v):
    """True if v is a Variable or a VariableExpression."""
    return isinstance(v, (Variable, VariableExpression))


def to_var(v):
    """The Variable of a Variable / VariableExpression, otherwise None."""
    if isinstance(v, Variable):
        return v
    if isinstance(v, VariableExpression):
        return v.var
    return None


def is_sparse(v, threshold='auto'):
    """True if the constant array v has fewer nonzeros than ``threshold``
    ('auto': 3*sqrt(size), a number, or a function of the shape)."""
    if isinstance(v, ConstantExpression):
        v = v.value
    if isinstance(v, (Expression, Variable)):
        raise ValueError("is_sparse can only be run on constants")
    arr = np.asarray(v)
    nnz = np.count_nonzero(arr)
    if callable(threshold):
        threshold = threshold(arr.shape)
    elif threshold == 'auto':
        threshold = 3 * math.sqrt(arr.size)
    return nnz < threshold



def is_expr(x):
    """True if x is an Expression."""
    return isinstance(x, Expression)


def is_op(x, opname=None):
    """True if x is an OperatorExpression (of the function named ``opname``
    if given)."""
    if not isinstance(x, OperatorExpression):
        return False
    return opname is None or x.functionInfo.name == opname


def deriv(e, var):
    """The derivative of e with respect to var; see :meth:`Expression.deriv`."""
    return expr(e).deriv(var)


def simplify(e, context=None, depth=None):
    """A simplified version of e; see :meth:`Expression.simplify`."""
    return expr(e).simplify(context, depth)


def to_monomial(v):
    """``(x, d)`` if v is the monomial x**d of a single Variable x, else None."""
    if isinstance(v, Variable):
        return (v, 1)
    if isinstance(v, VariableExpression):
        return (v.var, 1)
    if is_op(v, 'pow'):
        res = to_monomial(v.args[0])
        d = to_const(v.args[1])
        if res is None or d is None:
            return None
        return (res[0], res[1] * d)
    if is_op(v, 'mul') and len(v.args) == 2:
        r1, r2 = to_monomial(v.args[0]), to_monomial(v.args[1])
        if r1 is None or r2 is None or r1[0].name != r2[0].name:
            return None
        return (r1[0], r1[1] + r2[1])
    return None


def to_polynomial(e, x=None, const_only=True):
    """``(x, [c1..cn], [d1..dn])`` with e = sum ci x**di if e is a polynomial
    with constant coefficients in a single Variable (x if given), else
    None."""
    if not const_only:
        raise NotImplementedError("Polynomials with non-constant coefficients are not extracted")
    e = expr(e)
    c = to_const(e)
    if c is not None:
        return None if x is None else (x, [c], [0])
    mon = to_monomial(e)
    if mon is not None:
        if x is None or mon[0].name == x.name:
            return (mon[0], [1], [mon[1]])
        return None
    uvars = e.vars()
    if len(uvars) != 1 or (x is not None and uvars[0].name != x.name):
        return None
    x = uvars[0]
    if not is_op(e) or e.functionInfo.name not in ('add', 'sum', 'sub', 'neg', 'mul'):
        return None
    polys = []
    for a in e.args:
        p = to_polynomial(a, x)
        if p is None:
            return None
        polys.append(dict(zip(p[2], p[1])))
    name = e.functionInfo.name
    if name == 'neg':
        res = dict((d, -c) for d, c in polys[0].items())
    elif name in ('add', 'sum', 'sub'):
        res = {}
        for i, p in enumerate(polys):
            sgn = -1 if (name == 'sub' and i == 1) else 1
            for d, c in p.items():
                res[d] = res.get(d, 0) + sgn * c
    else:
        res = {0: 1}
        for p in polys:
            nres = {}
            for d1, c1 in res.items():
                for d2, c2 in p.items():
                    nres[d1 + d2] = nres.get(d1 + d2, 0) + c1 * c2
            res = nres
    ds = sorted(res.keys())
    return (x, [res[d] for d in ds], ds)
