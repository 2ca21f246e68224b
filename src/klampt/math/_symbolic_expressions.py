"""The expression layer of :mod:`klampt.math.symbolic`: :class:`Expression`
and its subclasses, their evaluation, and the conversions they are built with
(:func:`expr`, :func:`const`, :func:`is_const`, :func:`to_const`).

It builds on the types and on :mod:`._symbolic_variable` only. Function
calls go through the registry of builtin Functions, and differentiation,
simplification and printing through the services registered by the modules
above.
"""

import numpy as np

from ._symbolic_types import Type, _Typed, _NUMERIC_TYPES, _builtin_functions, _builtin, _services, type_of
from ._symbolic_variable import Variable, _install_operators


# ---------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------

class _Env:
    """Evaluation environment: a Context / dict / None plus substitutions.
    A Context is read through its ``userData`` and ``variableDict``."""

    def __init__(self, context=None, overrides=None):
        if isinstance(context, _Env):
            self.context = context.context
            self.overrides = dict(context.overrides)
        else:
            self.context = context
            self.overrides = {}
        if overrides:
            self.overrides.update(overrides)

    def lookup(self, name):
        if name in self.overrides:
            return True, self.overrides[name]
        if isinstance(self.context, dict):
            if name in self.context:
                return True, self.context[name]
        elif self.context is not None:  # a Context
            if name in self.context.userData:
                return True, self.context.userData[name]
            v = self.context.variableDict.get(name)
            if v is not None and v.value is not None:
                return True, v.value
        return False, None


def _env(context):
    return context if isinstance(context, _Env) else _Env(context)


class Expression(_Typed):
    """Base class of symbolic expressions.  Operators (``+``, ``-``, ``*``,
    ``/``, ``**``, ``[]``, comparisons, ``&``, ``|``, ``~``) build new
    expressions; use :meth:`eval` / :meth:`evalf` to evaluate them."""

    def returnType(self):
        """The :class:`Type` of the expression's value."""
        raise NotImplementedError()

    def isConstant(self):
        """True if the expression is identically a constant."""
        raise NotImplementedError()

    def _type(self):
        return self.returnType()

    def returnConstant(self, context=None):
        """True if evaluating in ``context`` gives a constant."""
        return not any(True for _ in self.vars(context, bound=False)) and not self._has_free_userdata(context)

    def _has_free_userdata(self, context):
        return False

    def eval(self, context=None):
        """Evaluates the expression, substituting bound Variables and the
        values in ``context`` (a dict of names to values, or a Context).
        Returns a constant, or an Expression if something stays free."""
        return _evaluate(self, _env(context), {})

    def evalf(self, context=None):
        """Like :meth:`eval`, but raises ValueError unless the result is a
        constant."""
        r = self.eval(context)
        if isinstance(r, ConstantExpression):
            return r.value
        if isinstance(r, Expression):
            raise ValueError("Expression.evalf: result of %s is not a constant, result is %s" % (str(self), str(r)))
        return r

    def deriv(self, var, context=None):
        """The derivative (Jacobian) of this expression with respect to
        ``var`` (a Variable or variable name), or None if it is undefined.
        ``var`` may also be a dict {name: dvalue}, giving the directional
        derivative sum_i df/dx_i * dx_i."""
        return _services['derivative'](self, var, context)

    def vars(self, context=None, bound=False):
        """The free Variables under this expression (also those bound to a
        value if ``bound``)."""
        res, seen, memo = [], set(), set()

        def rec(node):
            if id(node) in memo:
                return
            memo.add(id(node))
            if isinstance(node, VariableExpression):
                v = node.var
                if v.name in seen:
                    return
                if not bound:
                    if v.value is not None:
                        return
                    if context is not None and _env(context).lookup(v.name)[0]:
                        return
                seen.add(v.name)
                res.append(v)
            elif isinstance(node, OperatorExpression):
                for a in node.args:
                    rec(a)
        rec(self)
        return res

    def depth(self, cache=True):
        """The height of the expression tree (1 for a leaf)."""
        memo = {}

        def rec(node):
            if id(node) not in memo:
                kids = node.args if isinstance(node, OperatorExpression) else []
                memo[id(node)] = 1 + max((rec(a) for a in kids), default=0)
            return memo[id(node)]
        return rec(self)

    def match(self, val):
        """True if self is syntactically the same expression as ``val``."""
        return isinstance(val, Wildcard)

    def find(self, val):
        """The sub-expression matching ``val``, or None."""
        if self.match(val):
            return self
        if isinstance(self, OperatorExpression):
            for a in self.args:
                r = a.find(val)
                if r is not None:
                    return r
        return None

    def replace(self, val, valReplace, error_no_match=False):
        """A copy with every sub-expression matching ``val`` replaced by
        ``valReplace``."""
        found = [False]
        valReplace = expr(valReplace)
        memo = {}

        def rec(node):
            if id(node) in memo:
                return memo[id(node)]
            if node.match(val):
                found[0] = True
                res = valReplace
            elif isinstance(node, OperatorExpression):
                nargs = [rec(a) for a in node.args]
                res = node if all(a is b for a, b in zip(nargs, node.args)) else OperatorExpression(node.functionInfo, nargs, node.op)
            else:
                res = node
            memo[id(node)] = res
            return res
        res = rec(self)
        if error_no_match and not found[0]:
            raise ValueError("Unable to find term %s in expression %s" % (str(val), str(self)))
        return res

    def simplify(self, context=None, depth=None):
        """A simplified expression of the same value (constant folding,
        identities such as x+0, x*1, --x, and the functions' simplifiers).
        Names in ``context`` are substituted by their values."""
        return _services['simplify'](self, None if context is None else _env(context), depth)

    def _signature(self):
        return ()

    def __bool__(self):
        raise ValueError("Can't test the truth value of an Expression; did you mean to use if_(...)?")

    __hash__ = object.__hash__

    def __str__(self):
        return _services['exprToStr'](self, parseCompatible=False)

    def __repr__(self):
        return _services['exprToStr'](self, parseCompatible=True)

    def __getattr__(self, attr):
        if attr == 'T':
            return _builtin('transpose', self)
        if attr == 'shape':
            return _builtin('shape', self)
        raise AttributeError("'%s' object has no attribute '%s'" % (self.__class__.__name__, attr))


_install_operators(Expression)


class Wildcard(Expression):
    """Matches any expression in :meth:`Expression.match` / find / replace."""

    def __init__(self, name="*"):
        self.name = name

    def match(self, val):
        return True

    def returnType(self):
        return Type(None)

    def isConstant(self):
        return False


class ConstantExpression(Expression):
    """A constant value (number, bool, string, list, Numpy array, slice,
    or any object)."""

    def __init__(self, value):
        if value is None:
            raise ValueError("Can't initialize a ConstantExpression with None")
        if isinstance(value, ConstantExpression):
            value = value.value
        elif isinstance(value, (Expression, Variable)):
            raise ValueError("Can't initialize a ConstantExpression with a non-constant Expression")
        self.value = value

    def returnType(self):
        return type_of(self.value)

    def isConstant(self):
        return True

    def returnConstant(self, context=None):
        return True

    def match(self, val):
        if isinstance(val, Wildcard):
            return True
        if isinstance(val, ConstantExpression):
            val = val.value
        elif isinstance(val, Expression):
            return False
        try:
            return _same_value(self.value, val)
        except (ValueError, TypeError):
            return False

    def __len__(self):
        return len(self.value)

    def _signature(self):
        if isinstance(self.value, np.ndarray):
            return tuple(self.value.flatten())
        return (self.value,)

    def __bool__(self):
        return bool(self.value)

    def _do_binary(self, rhs, fname):
        f = _builtin_functions[fname]
        if isinstance(rhs, ConstantExpression):
            return ConstantExpression(f.func(self.value, rhs.value))
        if isinstance(rhs, (Expression, Variable)):
            return f(self, rhs)
        return ConstantExpression(f.func(self.value, rhs))

    def __eq__(self, rhs):
        return self._do_binary(rhs, 'eq')

    def __ne__(self, rhs):
        return self._do_binary(rhs, 'ne')

    def __le__(self, rhs):
        return self._do_binary(rhs, 'le')

    def __ge__(self, rhs):
        return self._do_binary(rhs, 'ge')

    def __neg__(self):
        return ConstantExpression(-self.value)

    __hash__ = Expression.__hash__

    def __getattr__(self, attr):
        if attr.startswith('_'):
            raise AttributeError(attr)
        if attr in ('T', 'shape') or not hasattr(self.value, attr):
            return Expression.__getattr__(self, attr)
        return getattr(self.value, attr)


def _same_value(a, b):
    if isinstance(a, (np.ndarray, list, tuple)) or isinstance(b, (np.ndarray, list, tuple)):
        try:
            a2, b2 = np.asarray(a), np.asarray(b)
        except ValueError:
            return False
        return a2.shape == b2.shape and a2.dtype.kind != 'O' and bool(np.all(a2 == b2))
    if type(a) is not type(b) and not (isinstance(a, _NUMERIC_TYPES) and isinstance(b, _NUMERIC_TYPES)):
        return False
    return bool(a == b)


class UserDataExpression(Expression):
    """A reference, by name, to a user data object of a Context."""

    def __init__(self, name):
        self.name = name

    def returnType(self):
        return Type('U')

    def isConstant(self):
        return False

    def returnConstant(self, context=None):
        return context is not None and _env(context).lookup(self.name)[0]

    def _has_free_userdata(self, context):
        return not self.returnConstant(context)

    def match(self, val):
        if isinstance(val, Wildcard):
            return True
        if isinstance(val, str):
            return val == self.name
        return isinstance(val, UserDataExpression) and val.name == self.name

    def _signature(self):
        return ('$' + self.name,)

    def __getattr__(self, attr):
        if attr.startswith('_'):
            raise AttributeError("UserData object has no attribute '%s'" % attr)
        if attr in ('T', 'shape'):
            return Expression.__getattr__(self, attr)
        return _builtin('getattr', self, const(attr))


class VariableExpression(Expression):
    """A reference to a :class:`Variable`."""

    def __init__(self, var):
        if not isinstance(var, Variable):
            raise TypeError("VariableExpression needs a Variable")
        self.var = var

    def returnType(self):
        return self.var.type

    def isConstant(self):
        return False

    def returnConstant(self, context=None):
        return self.var.value is not None or (context is not None and _env(context).lookup(self.var.name)[0])

    def match(self, val):
        if isinstance(val, Wildcard):
            return True
        if isinstance(val, Variable):
            return val.name == self.var.name
        return isinstance(val, VariableExpression) and val.var.name == self.var.name

    def _signature(self):
        return (self.var.name,)

    def __len__(self):
        return len(self.var)


class OperatorExpression(Expression):
    """The application of a :class:`Function` to argument expressions."""

    def __init__(self, finfo, args, op=None):
        self.functionInfo = finfo
        self.op = finfo.func if op is None else op
        self.args = [expr(a) for a in args]
        self._rtype = None

    def _do(self, constargs):
        """Applies the function to constant argument values."""
        try:
            return self.op(*constargs)
        except Exception as e:
            raise ValueError("Error evaluating %s(%s): %s" % (self.functionInfo.name, ','.join(_short(v) for v in constargs), e)) from e

    def returnType(self):
        if self._rtype is None:
            f = self.functionInfo
            rt = None
            if f.returnTypeFunc is not None:
                try:
                    rt = f.returnTypeFunc(*self.args)
                except (ValueError, TypeError, IndexError):
                    rt = None
            if rt is None:
                rt = f.returnType if f.returnType is not None else Type(None)
            self._rtype = Type(rt) if not isinstance(rt, Type) else rt
        return self._rtype

    def isConstant(self):
        return all(a.isConstant() for a in self.args) and not self.functionInfo.properties.get('impure', False)

    def returnConstant(self, context=None):
        return all(a.returnConstant(context) for a in self.args)

    def match(self, val):
        if isinstance(val, Wildcard):
            return True
        if not isinstance(val, OperatorExpression) or val.functionInfo.name != self.functionInfo.name:
            return False
        return len(val.args) == len(self.args) and all(a.match(b) for a, b in zip(self.args, val.args))

    def _signature(self):
        return (self.functionInfo.name,) + tuple(a._signature() for a in self.args)

    def __len__(self):
        n = self.returnType().len() if self.returnType().char is not None else None
        if n is None:
            raise ValueError("Length of %s is not known before evaluation" % self.functionInfo.name)
        return n


def _short(v):
    s = str(v)
    return s if len(s) < 60 else s[:57] + '...'


def _evaluate(node, env, memo):
    """Evaluates node in env; returns a plain constant or an Expression."""
    key = id(node)
    if key in memo:
        return memo[key]
    if isinstance(node, ConstantExpression):
        res = node.value
    elif isinstance(node, VariableExpression):
        if node.var.name in env.overrides:
            res = env.overrides[node.var.name]
        elif node.var.value is not None:
            res = node.var.value
        else:
            found, val = env.lookup(node.var.name)
            res = val if found else node
    elif isinstance(node, UserDataExpression):
        found, val = env.lookup(node.name)
        res = val if found else node
    elif isinstance(node, OperatorExpression):
        f = node.functionInfo
        if f.custom_eval is not None:
            res = f.custom_eval(env, memo, *node.args)
        else:
            vals = [_evaluate(a, env, memo) for a in node.args]
            if any(isinstance(v, Expression) for v in vals):
                if all(v is a for v, a in zip(vals, node.args)):
                    res = node
                else:
                    res = OperatorExpression(f, [_as_expr(v) for v in vals], node.op)
            else:
                res = node._do(vals)
    elif isinstance(node, Wildcard):
        raise ValueError("Can't evaluate Wildcard expressions")
    else:
        raise TypeError("Unknown expression class " + node.__class__.__name__)
    if isinstance(res, ConstantExpression):
        res = res.value
    memo[key] = res
    return res


def _as_expr(v):
    """Wraps an evaluated value (which may be a string constant) as an
    Expression."""
    if isinstance(v, Expression):
        return v
    if isinstance(v, Variable):
        return VariableExpression(v)
    return ConstantExpression(v)


# ---------------------------------------------------------------------------
# Conversions
# ---------------------------------------------------------------------------

def const(v):
    """A ConstantExpression of v (also for strings)."""
    return ConstantExpression(v)


def is_const(v, context=None, shallow=False):
    """True if v is a constant value or constant expression (in ``context``,
    bound Variables and given names count as constants)."""
    if isinstance(v, Variable):
        return v.value is not None
    if isinstance(v, Expression):
        if isinstance(v, ConstantExpression):
            return True
        if shallow and isinstance(v, OperatorExpression):
            return False
        if context is None:
            return v.isConstant()
        return v.isConstant() or v.returnConstant(context)
    if isinstance(v, (list, tuple)):
        return all(is_const(x, context) for x in v)
    if isinstance(v, dict):
        return all(is_const(x, context) for x in v.values())
    return True


def to_const(v, context=None, shallow=False):
    """The constant value of v if :func:`is_const`, otherwise None."""
    if isinstance(v, Variable):
        return v.value
    if isinstance(v, ConstantExpression):
        return v.value
    if isinstance(v, Expression):
        if not is_const(v, context, shallow):
            return None
        return v.evalf(context)
    if isinstance(v, (list, tuple)):
        vc = [to_const(x, context, shallow) for x in v]
        if any(x is None for x in vc):
            return None
        return v.__class__(vc)
    return v


def expr(x):
    """Converts x to an Expression: Variables to VariableExpressions,
    strings to UserDataExpressions (references to user data), lists holding
    expressions to ``array(...)`` expressions, other values to
    ConstantExpressions; Expressions are returned as they are."""
    if isinstance(x, Expression):
        return x
    if isinstance(x, Variable):
        return VariableExpression(x)
    if isinstance(x, str):
        return UserDataExpression(x)
    if isinstance(x, list):
        if any(isinstance(v, (Expression, Variable, str)) and not isinstance(v, ConstantExpression) for v in _walk(x)):
            return _builtin('array', *[expr(v) for v in x])
        return ConstantExpression([to_const(v) for v in x])
    return ConstantExpression(x)


def _walk(x):
    for v in x:
        if isinstance(v, list):
            yield from _walk(v)
        else:
            yield v
