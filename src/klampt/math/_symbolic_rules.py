"""Derivative rules and simplifiers of the builtin symbolic functions."""

import numpy as np

from ._symbolic_types import type_of
from ._symbolic_expressions import (Expression, ConstantExpression, OperatorExpression, VariableExpression,
                                    UserDataExpression, to_const)
from ._symbolic_utils import is_op
from . import _symbolic_library as L
from ._symbolic_engine import _inline, _NoDeriv, jdot, jdotr, jbroadcast, jmul, japply


def _zd(a, da):
    return np.zeros(np.shape(a)) if da is None else da


def _sum(terms):
    terms = [t for t in terms if t is not None]
    if not terms:
        return None
    res = terms[0]
    for t in terms[1:]:
        res = L.add(res, t)
    return res


def _is_scalar_type(e):
    return type_of(e).is_scalar()


def _d_add(node, args, dargs, jac):
    signs = [1] * len(args)
    if node.functionInfo.name == 'sub':
        signs[1] = -1
    terms = [None if d is None else (d if s > 0 else L.neg(d)) for d, s in zip(dargs, signs)]
    res = _sum(terms)
    if any(d is None for d in dargs) or jac.k > 0:
        if not (all(_is_scalar_type(a) for a in args)):
            res = jbroadcast(res, node, jac.k)
    return res


def _d_mul(node, args, dargs, jac):
    terms = []
    for i, d in enumerate(dargs):
        if d is None:
            continue
        others = [a for j, a in enumerate(args) if j != i]
        factor = others[0] if len(others) == 1 else (L.mul(*others) if others else ConstantExpression(1))
        terms.append(jac.mul(factor, d))
    return _sum(terms)


def _d_div(node, args, dargs, jac):
    a, b = args
    da, db = dargs
    terms = []
    if da is not None:
        terms.append(jac.mul(L.div(1, b), da))
    if db is not None:
        terms.append(jac.mul(L.neg(L.div(a, L.pow_(b, 2))), db))
    return _sum(terms)


def _d_pow(node, args, dargs, jac):
    a, b = args
    da, db = dargs
    terms = []
    if da is not None:
        terms.append(jac.mul(L.mul(b, L.pow_(a, L.sub(b, 1))), da))
    if db is not None:
        terms.append(jac.mul(L.mul(node, L.ln(a)), db))
    return _sum(terms)


def _unary(factor):
    def rule(node, args, dargs, jac):
        return jac.mul(factor(args[0], node), dargs[0])
    return rule


def _d_arctan2(node, args, dargs, jac):
    y, x = args
    r2 = L.add(L.pow_(x, 2), L.pow_(y, 2))
    terms = []
    if dargs[0] is not None:
        terms.append(jac.mul(L.div(x, r2), dargs[0]))
    if dargs[1] is not None:
        terms.append(jac.mul(L.neg(L.div(y, r2)), dargs[1]))
    return _sum(terms)


def _d_dot(node, args, dargs, jac):
    a, b = args
    da, db = dargs
    terms = []
    if jac.k == 0:
        if da is not None:
            terms.append(L.dot(da, b))
        if db is not None:
            terms.append(L.dot(a, db))
    else:
        if da is not None:
            terms.append(jdot(da, b, jac.k))
        if db is not None:
            terms.append(jdotr(a, db, jac.k))
    return _sum(terms)


def _d_getitem(node, args, dargs, jac):
    if dargs[0] is None:
        return None
    vec, index = args
    ic = to_const(index)
    while isinstance(vec, OperatorExpression) and isinstance(vec.functionInfo.func, Expression):
        vec = _inline(vec.functionInfo.func, vec.functionInfo.exprArgRefs, vec.args)
    if isinstance(ic, (int, np.integer)) and any(is_op(vec, n) for n in ('array', 'list', 'tuple')) and -len(vec.args) <= ic < len(vec.args):
        return jac.jac(vec.args[int(ic)])
    return L.getitem(dargs[0], index)


def _known_shape(e):
    t = type_of(e)
    if t.is_scalar():
        return ()
    if (t.char or '?') in 'VMA' and t.size is not None:
        return tuple(t.shape())
    return None


def _d_flatten(node, args, dargs, jac):
    """Stacks the arguments' Jacobians (zero blocks for constant arguments)
    when the argument shapes are known; otherwise the generic rule."""
    shapes = [_known_shape(a) for a in args]
    if any(s is None for s in shapes) or jac.k > 1:
        return jac.generic(node, node.functionInfo, dargs)
    if jac.k == 0:
        return L.flatten(*[d if d is not None else ConstantExpression(np.zeros(s) if s else 0.0)
                           for d, s in zip(dargs, shapes)])
    n = jac.vshape[0]
    blocks = []
    for d, s in zip(dargs, shapes):
        count = int(np.prod(s)) if s else 1
        blocks.append(ConstantExpression(np.zeros((count, n))) if d is None else L.reshape(d, ConstantExpression([count, n])))
    return L.row_stack(*blocks)


def _d_loop(node, args, dargs, jac):
    e, var, values = args
    if dargs[2] is not None:
        raise _NoDeriv(node.functionInfo.name)
    Je = jac.jac(e)
    if Je is None:
        return None
    return node.functionInfo(Je, var, values)


def _linear(f):
    """Directional derivative of a function linear in all its arguments."""
    return lambda a, d: f(*[_zd(x, dx) for x, dx in zip(a, d)])


def _linear_first(f):
    """Linear in the first argument, the others are parameters."""
    return lambda a, d: f(_zd(a[0], d[0]), *a[1:])


def _bilinear(f, nextra=0):
    def dd(a, d):
        x, y = a[0], a[1]
        extra = a[2:2 + nextra]
        res = 0
        if d[0] is not None:
            res = res + np.asarray(f(d[0], y, *extra))
        if d[1] is not None:
            res = res + np.asarray(f(x, d[1], *extra))
        return res
    return dd


def _dd_setitem(a, d):
    x, index, val = a
    return L._setitem(np.asarray(_zd(x, d[0]), dtype=float), index, _zd(val, d[2]))


def _dd_weightedsum(a, d):
    n = len(a) // 2
    res = 0
    for i in range(n):
        v, w = a[i], a[n + i]
        if d[i] is not None:
            res = res + np.multiply(w, d[i])
        if d[n + i] is not None:
            res = res + np.multiply(d[n + i], v)
    return res


def _dd_select(pick):
    def dd(a, d):
        i = pick(*a)
        return _zd(a[i], d[i])
    return dd


def _dd_if(a, d):
    return _zd(a[1], d[1]) if a[0] else _zd(a[2], d[2])


# --- simplifiers ---------------------------------------------------------------

def _const_scalar(e, value=None):
    c = to_const(e) if isinstance(e, ConstantExpression) else None
    if c is None or np.ndim(c) != 0 or isinstance(c, (str, bool, np.bool_)):
        return False
    return value is None or c == value


def _s_add(*args):
    keep = [a for a in args if not _const_scalar(a, 0)]
    if len(keep) == len(args):
        return None
    if not keep:
        return ConstantExpression(0)
    if len(keep) == 1:
        return keep[0]
    return L.sum_(*keep)


def _s_sub(x, y):
    if _const_scalar(y, 0):
        return x
    if _const_scalar(x, 0):
        return L.neg(y)
    return None


def _s_mul(*args):
    if any(_const_scalar(a, 0) for a in args) and all(_is_scalar_type(a) for a in args):
        return ConstantExpression(0)
    minus = [i for i, a in enumerate(args) if _const_scalar(a, -1)]
    if len(minus) == 1 and len(args) > 1:
        rest = [a for i, a in enumerate(args) if i != minus[0]]
        return L.neg(rest[0] if len(rest) == 1 else L.mul(*rest))
    keep = [a for a in args if not _const_scalar(a, 1)]
    if len(keep) == len(args):
        return None
    if not keep:
        return ConstantExpression(1)
    if len(keep) == 1:
        return keep[0]
    return L.mul(*keep)


def _s_div(x, y):
    if _const_scalar(y, 1):
        return x
    return None


def _s_pow(x, y):
    if _const_scalar(y, 1):
        return x
    if _const_scalar(y, 0) and _is_scalar_type(x):
        return ConstantExpression(1)
    return None


def _s_neg(x):
    if is_op(x, 'neg'):
        return x.args[0]
    return None


def _s_getitem_array(v, index):
    if isinstance(index, (int, np.integer)) and -len(v.args) <= index < len(v.args):
        return v.args[int(index)]
    return None


def _s_if(cond, t, f):
    if t.match(f):
        return t
    return None


def _is_identity(J):
    if not isinstance(J, ConstantExpression):
        return False
    v = np.asarray(J.value)
    return v.ndim == 2 and v.shape[0] == v.shape[1] and v.dtype.kind in 'biuf' and np.array_equal(v, np.eye(v.shape[0]))


def _const_2d(J):
    return isinstance(J, ConstantExpression) and np.ndim(J.value) == 2


def _s_jdot(J, b, k):
    if _const_scalar(k, 1) and type_of(b).char == 'V':
        if _is_identity(J):
            return b
        if _const_2d(J):
            return L.dot(b, J)
    return None


def _s_jmul(s, J, k):
    if _is_scalar_type(s):
        return L.mul(s, J)
    return None


def _s_jdotr(a, J, k):
    if _const_scalar(k, 1) and (type_of(a).char or '?') in 'VM':
        if _is_identity(J):
            return a
        if _const_2d(J):
            return L.dot(a, J)
    return None


def _s_dot(x, y):
    if _is_identity(x) and (type_of(y).char or '?') in 'VM':
        return y
    if _is_identity(y) and (type_of(x).char or '?') in 'VM':
        return x
    return None


def _s_japply(Jf, J, k):
    if _const_scalar(k, 0) and _is_scalar_type(Jf) and _is_scalar_type(J):
        return L.mul(Jf, J)
    if _const_scalar(k, 1) and _is_identity(J):
        return Jf
    return None


def _leaf_key(e):
    if isinstance(e, VariableExpression):
        return ('v', e.var.name)
    if isinstance(e, UserDataExpression):
        return ('u', e.name)
    return None


def _s_subs(e, var, value):
    """subs of leaves by expressions: a simultaneous replacement."""
    if (is_op(var, 'list') or is_op(var, 'array')) and (is_op(value, 'list') or is_op(value, 'array')):
        pairs = list(zip(var.args, value.args))
        if len(var.args) != len(value.args):
            return None
    elif _leaf_key(var) is not None and not (is_op(value, 'list') or is_op(value, 'array')):
        pairs = [(var, value)]
    else:
        return None
    table = {}
    for v, x in pairs:
        key = _leaf_key(v)
        if key is None:
            return None
        table[key] = x
    memo = {}

    def rec(node):
        if id(node) in memo:
            return memo[id(node)]
        key = _leaf_key(node)
        if key is not None and key in table:
            res = table[key]
        elif isinstance(node, OperatorExpression):
            if node.functionInfo.custom_eval is not None and node.functionInfo.name in ('subs', 'map', 'forall', 'forsome', 'summation'):
                inner = _leaf_key(node.args[1])
                if inner is not None and inner in table:
                    return None
            args = [rec(a) for a in node.args]
            if any(a is None for a in args):
                res = None
            else:
                res = node if all(a is b for a, b in zip(args, node.args)) else OperatorExpression(node.functionInfo, args, node.op)
        else:
            res = node
        memo[id(node)] = res
        return res
    return rec(e)


def install():
    """Attaches the derivative rules and simplifiers to the builtin
    Functions."""
    for f in (L.add, L.sub, L.sum_):
        f._symderiv = _d_add
    L.neg._symderiv = lambda node, args, dargs, jac: L.neg(dargs[0])
    L.mul._symderiv = _d_mul
    L.div._symderiv = _d_div
    L.pow_._symderiv = _d_pow
    L.dot._symderiv = _d_dot
    L.getitem._symderiv = _d_getitem
    L.flatten._symderiv = _d_flatten
    L.arctan2._symderiv = _d_arctan2
    for f in (L.summation, L.subs):
        f._symderiv = _d_loop
    unary = {
        L.sin: lambda x, n: L.cos(x),
        L.cos: lambda x, n: L.neg(L.sin(x)),
        L.tan: lambda x, n: L.div(1, L.pow_(L.cos(x), 2)),
        L.exp: lambda x, n: n,
        L.ln: lambda x, n: L.div(1, x),
        L.log: lambda x, n: L.div(1, x),
        L.sqrt: lambda x, n: L.div(0.5, n),
        L.abs_: lambda x, n: L.sign(x),
        L.arcsin: lambda x, n: L.div(1, L.sqrt(L.sub(1, L.pow_(x, 2)))),
        L.arccos: lambda x, n: L.neg(L.div(1, L.sqrt(L.sub(1, L.pow_(x, 2))))),
        L.arctan: lambda x, n: L.div(1, L.add(1, L.pow_(x, 2))),
    }
    for f, factor in unary.items():
        f._symderiv = _unary(factor)
    for f in (L.sign, L.shape, L.range_, L.eye, L.basis, L.zero, L.len_, L.count, L.dims):
        f.deriv = 0
    L.flatten._dirderiv = _linear(L._flatten)
    L.array._dirderiv = _linear(lambda *a: np.array(a, dtype=float))
    L.list_._dirderiv = _linear(lambda *a: np.array(a, dtype=float))
    L.tuple_._dirderiv = _linear(lambda *a: np.array(a, dtype=float))
    L.row_stack._dirderiv = _linear(L.row_stack.func)
    L.column_stack._dirderiv = _linear(L.column_stack.func)
    L.transpose._dirderiv = _linear_first(L._transpose)
    L.transpose2._dirderiv = _linear_first(lambda x, axes: np.transpose(x, axes))
    L.reshape._dirderiv = _linear_first(L._reshape)
    L.diag._dirderiv = _linear_first(L._diag)
    L.setitem._dirderiv = _dd_setitem
    L.outer._dirderiv = _bilinear(np.outer)
    L.tensordot._dirderiv = _bilinear(np.tensordot, 1)
    L.weightedsum._dirderiv = _dd_weightedsum
    L.max_._dirderiv = _dd_select(L.argmax.func)
    L.min_._dirderiv = _dd_select(L.argmin.func)
    L.if_._dirderiv = _dd_if

    for f in (L.add, L.sum_):
        f.simplifier = _s_add
    L.sub.simplifier = _s_sub
    L.mul.simplifier = _s_mul
    L.div.simplifier = _s_div
    L.pow_.simplifier = _s_pow
    L.neg.simplifier = _s_neg
    L.dot.simplifier = _s_dot
    L.if_.simplifier = _s_if
    for name in ('array', 'list', 'tuple'):
        L.getitem.addSimplifier([name, '_scalar'], _s_getitem_array, pre=True)
    L.dot.addSimplifier(['setitem', None], L.dot_setitem_simplifier1)
    L.dot.addSimplifier([None, 'setitem'], L.dot_setitem_simplifier2)
    L.abs_.addSimplifier(['abs'], lambda x: x)
    L.abs_.addSimplifier(['neg'], lambda x: L.abs_(x.args[0]))
    L.cos.addSimplifier(['neg'], lambda x: L.cos(x.args[0]))
    L.sin.addSimplifier(['neg'], lambda x: L.neg(L.sin(x.args[0])))
    L.transpose.addSimplifier(['transpose'], lambda x: x.args[0])
    jdot.simplifier = _s_jdot
    jmul.simplifier = _s_jmul
    japply.simplifier = _s_japply
    L.subs.simplifier = _s_subs
    jdotr.simplifier = _s_jdotr
