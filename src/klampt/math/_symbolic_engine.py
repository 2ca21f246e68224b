"""Symbolic differentiation and simplification for :mod:`klampt.math.symbolic`.

Internally the Jacobian of an expression f with respect to a variable v is a
tensor of shape shape(f) + shape(v); chain rules combine those, and the
public result flattens f and v to at most one dimension each.
"""

import numpy as np

from ._symbolic_types import type_of, _services
from ._symbolic_variable import Variable
from ._symbolic_expressions import (Expression, ConstantExpression, OperatorExpression, VariableExpression,
                                    UserDataExpression, _Env, _evaluate, _env, expr)
from ._symbolic_function import Function
from ._symbolic_library import subs, list_


class _NoDeriv(Exception):
    """Raised when some function has no derivative."""


# --- runtime helpers used inside derivative expressions -----------------------

def _jmul_f(s, J, k):
    s, J = np.asarray(s), np.asarray(J)
    return s.reshape(s.shape + (1,) * int(k)) * J


def _jdot_f(Ja, b, k):
    """d dot(a,b) from da (shape(a)+V) at fixed b."""
    Ja, b, k = np.asarray(Ja), np.asarray(b), int(k)
    an = Ja.ndim - k
    if b.ndim == 0 or an == 0:
        return _jmul_f(b, Ja, k) if an == 0 else Ja * b
    bax = 0 if b.ndim == 1 else b.ndim - 2
    r = np.tensordot(Ja, b, axes=([an - 1], [bax]))
    return np.moveaxis(r, list(range(an - 1, an - 1 + k)), list(range(r.ndim - k, r.ndim)))


def _jdotr_f(a, Jb, k):
    """d dot(a,b) from db (shape(b)+V) at fixed a."""
    a, Jb, k = np.asarray(a), np.asarray(Jb), int(k)
    bn = Jb.ndim - k
    if a.ndim == 0:
        return a * Jb
    if bn == 0:
        return _jmul_f(a, Jb, k)
    bax = 0 if bn == 1 else bn - 2
    return np.tensordot(a, Jb, axes=([a.ndim - 1], [bax]))


def _jbroadcast_f(J, ref, k):
    J, k = np.asarray(J), int(k)
    R = np.shape(ref)
    vsh = J.shape[J.ndim - k:]
    ash = J.shape[:J.ndim - k]
    Jr = J.reshape((1,) * (len(R) - len(ash)) + J.shape)
    return np.broadcast_to(Jr, tuple(R) + vsh).copy()


def _japply_f(Jf, Ja, k):
    """Contracts the argument dimensions of Jf (shape(f)+shape(a)) with Ja
    (shape(a)+V)."""
    Jf, Ja, k = np.asarray(Jf), np.asarray(Ja), int(k)
    an = Ja.ndim - k
    return np.tensordot(Jf, Ja, axes=an)


def _jflat_f(J, k):
    J, k = np.asarray(J), int(k)
    fsh, vsh = J.shape[:J.ndim - k], J.shape[J.ndim - k:]
    out = ((int(np.prod(fsh)),) if len(fsh) > 0 else ()) + ((int(np.prod(vsh)),) if k > 0 else ())
    return J.reshape(out)


def _jvp_f(dirderiv, vshape, *rest):
    """Applies the directional derivative column by column; zero Jacobians
    are passed as the scalar 0 (detected by their missing dimensions)."""
    vshape = tuple(int(v) for v in vshape)
    n = len(rest) // 2
    args, Js = rest[:n], rest[n:]
    ncols = int(np.prod(vshape))
    outs = []
    for c in range(ncols):
        dargs = []
        for a, J in zip(args, Js):
            J = np.asarray(J, dtype=float)
            if J.ndim < len(vshape) or (J.ndim == 0 and not _nonzero(J)):
                dargs.append(None)
            else:
                # shape(a) for numeric arguments; a user data argument (e.g. a
                # robot) carries the derivative of its configuration
                dargs.append(J.reshape(J.shape[:J.ndim - len(vshape)] + (-1,))[..., c])
        outs.append(np.asarray(dirderiv(list(args), dargs), dtype=float))
    return np.stack(outs, axis=-1).reshape(outs[0].shape + vshape)


def _nonzero(J):
    return bool(np.any(np.asarray(J) != 0))


jmul = Function('_jmul', _jmul_f, ['s', 'J', 'k'])
jdot = Function('_jdot', _jdot_f, ['J', 'b', 'k'])
jdotr = Function('_jdotr', _jdotr_f, ['a', 'J', 'k'])
jbroadcast = Function('_jbroadcast', _jbroadcast_f, ['J', 'ref', 'k'])
japply = Function('_japply', _japply_f, ['Jf', 'J', 'k'])
jflat = Function('_jflat', _jflat_f, ['J', 'k'])


def _zd(a, da):
    return np.zeros(np.shape(a)) if da is None else da


jmul._dirderiv = lambda a, d: _jmul_f(_zd(a[0], d[0]), a[1], a[2]) + _jmul_f(a[0], _zd(a[1], d[1]), a[2])
jdot._dirderiv = lambda a, d: _jdot_f(_zd(a[0], d[0]), a[1], a[2]) + _jdot_f(a[0], _zd(a[1], d[1]), a[2])
jdotr._dirderiv = lambda a, d: _jdotr_f(_zd(a[0], d[0]), a[1], a[2]) + _jdotr_f(a[0], _zd(a[1], d[1]), a[2])
jbroadcast._dirderiv = lambda a, d: _jbroadcast_f(_zd(a[0], d[0]), a[1], a[2])
japply._dirderiv = lambda a, d: _japply_f(_zd(a[0], d[0]), a[1], a[2]) + _japply_f(a[0], _zd(a[1], d[1]), a[2])
jflat._dirderiv = lambda a, d: _jflat_f(_zd(a[0], d[0]), a[1])

_derivative_functions = dict((f.name, f) for f in (jmul, jdot, jdotr, jbroadcast, japply, jflat))


def _jvp_function(f):
    if getattr(f, '_jvpfunc', None) is None:
        f._jvpfunc = Function('d' + f.name, lambda vshape, *rest: _jvp_f(f._dirderiv, vshape, *rest), '...')
    return f._jvpfunc


# --- Jacobian tensors ---------------------------------------------------------

def _var_shape(var):
    t = var.type
    if t.is_scalar():
        return ()
    try:
        sh = t.shape()
    except ValueError:
        raise ValueError("Can only take derivatives with respect to variables of known size (%s has type %s)" % (var.name, t))
    if not isinstance(sh, tuple):
        raise ValueError("Can't take derivatives with respect to list variables")
    return sh


def _identity(vshape):
    if vshape == ():
        return 1
    n = int(np.prod(vshape))
    return np.eye(n).reshape(vshape + vshape)


def _known_scalar(e):
    return type_of(e).is_scalar()


class _Jac:
    """Computes Jacobian tensors of sub-expressions with respect to one
    variable (memoized over the expression DAG)."""

    def __init__(self, var):
        self.var = var
        self.vshape = _var_shape(var)
        self.k = len(self.vshape)
        self.memo = {}

    def jac(self, node):
        key = id(node)
        if key in self.memo:
            return self.memo[key]
        res = self._jac(node)
        self.memo[key] = res
        return res

    def _jac(self, node):
        if isinstance(node, VariableExpression):
            if node.var.name == self.var.name and node.var.value is None:
                return ConstantExpression(_identity(self.vshape))
            return None
        if not isinstance(node, OperatorExpression):
            return None
        f = node.functionInfo
        if f.deriv == 0 and f._symderiv is None:
            return None
        dargs = [self.jac(a) for a in node.args]
        if all(d is None for d in dargs):
            return None
        if f._symderiv is not None:
            return f._symderiv(node, node.args, dargs, self)
        if f.jacobian is not None or isinstance(f.deriv, list):
            return self._declared(node, f, dargs)
        if isinstance(f.func, Expression):
            return self._expression_function(node, f, dargs)
        if f._dirderiv is not None:
            return self.generic(node, f, dargs)
        raise _NoDeriv(f.name)

    def mul(self, s, J):
        """The Jacobian of s*a from the Jacobian J of a (s at fixed value)."""
        if self.k == 0:
            return s * J
        return jmul(s, J, self.k)

    def generic(self, node, f, dargs):
        jf = _jvp_function(f)
        Js = [ConstantExpression(0) if d is None else d for d in dargs]
        return OperatorExpression(jf, [ConstantExpression(self.vshape)] + list(node.args) + Js)

    def _declared(self, node, f, dargs):
        terms = []
        numeric = []
        for i, d in enumerate(dargs):
            if d is None:
                continue
            jac = f.jacobian[i] if f.jacobian is not None else None
            if jac is not None:
                if not _zeroish(jac):
                    terms.append(japply(_call_declared(jac, node.args, None), d, self.k))
                continue
            dd = f.deriv[i] if isinstance(f.deriv, list) else None
            if dd is None:
                raise _NoDeriv(f.name)
            if _zeroish(dd):
                continue
            if self.k == 0:
                terms.append(_as_e(_call_declared(dd, node.args, d)))
            else:
                numeric.append(i)
        if numeric:
            derivs = [f.deriv[i] for i in numeric]

            def dirderiv(args, dargs_, derivs=derivs, numeric=numeric):
                total = 0
                for i, dd in zip(numeric, derivs):
                    if dargs_[i] is not None:
                        total = total + np.asarray(_to_value(_call_declared(dd, args, dargs_[i])), dtype=float)
                return total
            jf = Function('d' + f.name, lambda vshape, *rest: _jvp_f(dirderiv, vshape, *rest), '...')
            Js = [ConstantExpression(0) if (d is None or i not in numeric) else d for i, d in enumerate(dargs)]
            terms.append(OperatorExpression(jf, [ConstantExpression(self.vshape)] + list(node.args) + Js))
        return _sum_terms(terms)

    def _expression_function(self, node, f, dargs):
        """Chain rule through an Expression-based Function; user data
        arguments are differentiated as Variables of the call's argument
        types."""
        func, refs = f.func, list(f.exprArgRefs)
        if not all(type_of(a).is_scalar() or ((type_of(a).char or '?') in 'VMA' and type_of(a).size is not None)
                   for a, d in zip(node.args, dargs) if d is not None):
            return self.jac(_inline(func, refs, node.args))
        for i, ref in enumerate(refs):
            t = type_of(node.args[i])
            if t.char is None or not (t.is_scalar() or t.char in 'VMA'):
                continue
            tmp = VariableExpression(Variable(ref.name if isinstance(ref, UserDataExpression) else ref.var.name, t))
            func = func.replace(ref, tmp)
            refs[i] = tmp
        terms = []
        for i, d in enumerate(dargs):
            if d is None:
                continue
            Ji = _jacobian_tensor(func, refs[i].var)
            if Ji is None:
                continue
            Jsub = subs(Ji, list_(*refs), list_(*node.args))
            terms.append(japply(Jsub, d, self.k))
        return _sum_terms(terms)


def _inline(func, refs, args):
    """The body of an Expression-based function with its argument
    references replaced by the call's arguments."""
    table = {}
    for ref, a in zip(refs, args):
        table[('u', ref.name) if isinstance(ref, UserDataExpression) else ('v', ref.var.name)] = a
    memo = {}

    def rec(node):
        if id(node) in memo:
            return memo[id(node)]
        if isinstance(node, UserDataExpression):
            res = table.get(('u', node.name), node)
        elif isinstance(node, VariableExpression):
            res = table.get(('v', node.var.name), node)
        elif isinstance(node, OperatorExpression):
            nargs = [rec(a) for a in node.args]
            res = node if all(a is b for a, b in zip(nargs, node.args)) else OperatorExpression(node.functionInfo, nargs, node.op)
        else:
            res = node
        memo[id(node)] = res
        return res
    return rec(func)


def _zeroish(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0


def _to_value(v):
    if isinstance(v, Expression):
        return v.evalf()
    return v


def _as_e(v):
    return v if isinstance(v, Expression) else expr(v)


def _call_declared(d, args, darg):
    allargs = list(args) + ([] if darg is None else [darg])
    if isinstance(d, Function):
        return d(*allargs)
    if isinstance(d, tuple) and d[0] == 'expr':
        return subs(d[1], list_(*d[2][:len(allargs)]), list_(*allargs))
    if isinstance(d, tuple) and d[0] == 'asexpr':
        return d[1](*allargs)
    if callable(d):
        return d(*allargs)
    raise _NoDeriv("declared derivative")


def _sum_terms(terms):
    terms = [t for t in terms if t is not None]
    if not terms:
        return None
    res = terms[0]
    for t in terms[1:]:
        res = res + t
    return res


def _jacobian_tensor(e, var):
    """The Jacobian tensor (shape(e)+shape(var)) of e w.r.t. the Variable
    var, None if identically zero; raises _NoDeriv if undefined."""
    return _Jac(var).jac(expr(e))


def _resolve_var(e, var, context):
    if isinstance(var, Variable):
        return var
    if isinstance(var, VariableExpression):
        return var.var
    if isinstance(var, str):
        for v in e.vars(None, bound=True):
            if v.name == var:
                return v
        if context is not None and hasattr(context, 'variableDict') and var in context.variableDict:
            return context.variableDict[var]
        return Variable(var, 'N')
    raise ValueError("Can't take the derivative of an expression w.r.t. anything except a str, Variable, or dict")


def _derivative(e, var, context=None):
    e = expr(e)
    if context is not None:
        e = _simplify(e, _env(context), None)
    if isinstance(var, dict):
        total = None
        for name, dv in var.items():
            v = _resolve_var(e, name, context)
            try:
                J = _jacobian_tensor(e, v)
            except _NoDeriv:
                return None
            if J is None:
                continue
            k = len(_var_shape(v))
            term = J * dv if k == 0 else OperatorExpression(_contract_all, [J, dv, ConstantExpression(k)])
            total = term if total is None else total + term
        if total is None:
            return 0
        total = _simplify(total, None, None)
        return total.value if isinstance(total, ConstantExpression) else total
    v = _resolve_var(e, var, context)
    vshape = _var_shape(v)
    try:
        J = _jacobian_tensor(e, v)
    except _NoDeriv:
        return None
    rt = e.returnType()
    if J is None:
        try:
            fsh = rt.shape()
        except ValueError:
            fsh = None
        if isinstance(fsh, tuple):
            out = ((int(np.prod(fsh)),) if fsh else ()) + ((int(np.prod(vshape)),) if vshape else ())
            return 0 if out == () else np.zeros(out)
        return 0
    if len(vshape) > 1 or (rt.char is not None and rt.char in 'MAL'):
        J = jflat(J, len(vshape))
    J = _simplify(J, None, None)
    return J.value if isinstance(J, ConstantExpression) else J


_contract_all = Function('_jcontract', lambda J, dv, k: np.tensordot(np.asarray(J), np.asarray(dv), axes=int(k)), ['J', 'dv', 'k'])
_derivative_functions['_jcontract'] = _contract_all


# --- simplification -----------------------------------------------------------

_CONST_LEAF_TYPES = (int, float, bool, np.number, np.bool_, np.ndarray, list, tuple, str, slice)


def _simplify(e, env, depth):
    memo = {}

    def rec(node, d):
        key = id(node)
        if key in memo:
            return memo[key]
        res = _simplify_node(node, env, d, rec)
        memo[key] = res
        return res
    return rec(expr(e), depth)


def _simplify_node(node, env, depth, rec):
    if isinstance(node, VariableExpression):
        if node.var.value is not None:
            return ConstantExpression(node.var.value)
        if env is not None:
            found, val = env.lookup(node.var.name)
            if found:
                return ConstantExpression(val)
        return node
    if isinstance(node, UserDataExpression):
        if env is not None:
            found, val = env.lookup(node.name)
            if found and isinstance(val, _CONST_LEAF_TYPES):
                return ConstantExpression(val)
        return node
    if not isinstance(node, OperatorExpression):
        return node
    f = node.functionInfo
    if depth is not None and depth <= 0:
        return node
    pre = f.simplify(node.args, pre=True)
    if pre is not None:
        return _finish(pre, env, depth, rec)
    lazy = f.custom_eval is not None and f.name not in ('getitem', 'any', 'all', 'if')
    if lazy:
        args = [_simplify(a, None, None if depth is None else depth - 1) for a in node.args]
        try:
            val = _evaluate(OperatorExpression(f, args, node.op), _Env(None), {})
        except (ValueError, TypeError, IndexError, KeyError):
            val = None
        if val is not None and not isinstance(val, Expression):
            return ConstantExpression(val)
    else:
        args = [rec(a, None if depth is None else depth - 1) for a in node.args]
    if not f.properties.get('impure', False) and all(isinstance(a, ConstantExpression) for a in args):
        try:
            val = _evaluate(OperatorExpression(f, args, node.op), _Env(None), {})
        except ValueError:
            val = None
        if val is not None and not isinstance(val, Expression):
            return ConstantExpression(val)
        if isinstance(val, Expression):
            return val
    res = f.simplify(args)
    if res is not None:
        return _finish(res, env, depth, rec)
    if all(a is b for a, b in zip(args, node.args)):
        return node
    return OperatorExpression(f, args, node.op)


_SIMPLIFY_NESTING = [0]


def _finish(res, env, depth, rec):
    """Simplifies the result of a rule again (a bounded number of times, in
    case rules undo each other)."""
    res = expr(res)
    if depth is not None or _SIMPLIFY_NESTING[0] > 50:
        return res
    _SIMPLIFY_NESTING[0] += 1
    try:
        return _simplify(res, env, None)
    finally:
        _SIMPLIFY_NESTING[0] -= 1


_services.update(derivative=_derivative, jacobian_tensor=_jacobian_tensor, simplify=_simplify)
