"""Conversion of symbolic expressions to and from SymPy (requires sympy).

Scalar Variables become SymPy Symbols; a vector Variable ``x`` of size n
becomes the column Matrix of the symbols ``x_0 .. x_{n-1}`` and a matrix
Variable ``A`` the Matrix of ``A_i_j`` (their size must be known).  Array
operations become SymPy Matrix operations (entrywise), so they come back as
scalar entries rather than as dot(...) etc.  Functions without a SymPy
equivalent become adaptors (:func:`exprToSympy`) and SymPy functions without
a symbolic equivalent become :class:`SympyFunctionAdaptor` Functions
(:func:`exprFromSympy`).
"""

import warnings

import numpy as np
import sympy

from .symbolic import (Function, Expression, ConstantExpression, VariableExpression, UserDataExpression,
                       OperatorExpression, Variable, expr, is_const, to_const)
from ._symbolic_library import _builtin_functions, array, getitem, if_, not_, ge, le, neg, div, sum_, mul, summation

__all__ = ['exprToSympy', 'exprFromSympy', 'SympyFunction', 'SympyFunctionAdaptor']


def _is_mat(v):
    return isinstance(v, sympy.MatrixBase)


def _ew(f):
    """Applies a scalar SymPy function entrywise to matrices."""
    def apply(*args):
        mats = [a for a in args if _is_mat(a)]
        if not mats:
            return f(*args)
        shape = mats[0].shape
        return sympy.Matrix(shape[0], shape[1],
                            lambda i, j: f(*[a[i, j] if _is_mat(a) else a for a in args]))
    return apply


def _dot(a, b):
    if not _is_mat(a) or not _is_mat(b):
        return a * b
    if a.shape[1] == 1 and b.shape[1] == 1:
        return (a.T * b)[0]
    if b.shape[1] == 1 and a.shape[1] == b.shape[0]:
        return a * b
    if a.shape[1] == 1:
        return (a.T * b).T
    return a * b


def _getitem(v, index):
    if isinstance(index, sympy.Basic) and not index.is_Integer:
        raise ValueError("Can't convert a symbolic index to SymPy")
    if not _is_mat(v):
        raise ValueError("Can't index a SymPy scalar")
    if isinstance(index, tuple):
        res = v[index]
        return sympy.Matrix(res) if _is_mat(res) else res
    if v.shape[1] == 1:
        res = v[int(index)] if not isinstance(index, (slice, list)) else (
            sympy.Matrix(list(v)[index]) if isinstance(index, slice) else sympy.Matrix([v[int(i)] for i in index]))
        return res
    if isinstance(index, slice):
        return v[index, :]
    return v.row(int(index)).T


def _flatten(*args):
    entries = []
    for a in args:
        if _is_mat(a):
            entries.extend(a[i, j] for i in range(a.shape[0]) for j in range(a.shape[1]))
        else:
            entries.append(a)
    return sympy.Matrix(entries)


def _array(*args):
    if all(not _is_mat(a) for a in args):
        return sympy.Matrix(list(args))
    if all(_is_mat(a) and a.shape[1] == 1 for a in args):
        return sympy.Matrix([list(a) for a in args])
    raise ValueError("Can't convert an array of matrices to SymPy")


def _sum(*args):
    res = args[0]
    for a in args[1:]:
        res = _ew(lambda x, y: x + y)(res, a)
    return res


def _mul(*args):
    res = args[0]
    for a in args[1:]:
        res = _ew(lambda x, y: x * y)(res, a)
    return res


_TO_SYMPY = {
    'neg': _ew(lambda x: -x), 'add': _sum, 'sum': _sum, 'sub': _ew(lambda x, y: x - y), 'mul': _mul,
    'div': _ew(lambda x, y: x / y), 'pow': _ew(lambda x, y: x ** y),
    'sin': _ew(sympy.sin), 'cos': _ew(sympy.cos), 'tan': _ew(sympy.tan), 'exp': _ew(sympy.exp),
    'log': _ew(sympy.log), 'ln': _ew(sympy.log), 'sqrt': _ew(sympy.sqrt), 'abs': _ew(sympy.Abs),
    'sign': _ew(sympy.sign), 'arcsin': _ew(sympy.asin), 'arccos': _ew(sympy.acos), 'arctan': _ew(sympy.atan),
    'arctan2': _ew(sympy.atan2), 'max': sympy.Max, 'min': sympy.Min,
    'eq': sympy.Eq, 'ne': sympy.Ne, 'le': sympy.Le, 'ge': sympy.Ge,
    'and': sympy.And, 'or': sympy.Or, 'not': sympy.Not,
    'dot': _dot, 'outer': lambda a, b: a * b.T, 'transpose': lambda a: a.T if _is_mat(a) else a,
    'getitem': _getitem, 'flatten': _flatten, 'array': _array, 'list': _array,
    'if': lambda c, t, f: sympy.Piecewise((t, c), (f, True)),
    'weightedsum': lambda *a: _sum(*[_mul(v, w) for v, w in zip(a[:len(a) // 2], a[len(a) // 2:])]),
    'row_stack': lambda *a: sympy.Matrix.vstack(*[x.T if _is_mat(x) and x.shape[1] == 1 else x for x in a]),
    'column_stack': lambda *a: sympy.Matrix.hstack(*a),
}


def _symbols_of(var):
    t = var.type
    if t.is_scalar():
        return sympy.Symbol(var.name)
    if (t.char or '?') in 'VMA' and t.size is not None:
        sh = t.shape()
        if len(sh) == 1:
            return sympy.Matrix([sympy.Symbol('%s_%d' % (var.name, i)) for i in range(sh[0])])
        if len(sh) == 2:
            return sympy.Matrix(sh[0], sh[1], lambda i, j: sympy.Symbol('%s_%d_%d' % (var.name, i, j)))
    raise ValueError("Can't convert variable %s of type %s to SymPy (arrays need a known size)" % (var.name, t))


def _const_to_sympy(v):
    if isinstance(v, (bool, np.bool_)):
        return sympy.true if v else sympy.false
    if isinstance(v, (int, np.integer)):
        return sympy.Integer(int(v))
    if isinstance(v, (float, np.floating)):
        return sympy.Float(float(v))
    if isinstance(v, (list, tuple, np.ndarray)):
        arr = np.asarray(v)
        if arr.ndim == 1:
            return sympy.Matrix([_const_to_sympy(x) for x in arr.tolist()])
        if arr.ndim == 2:
            return sympy.Matrix([[_const_to_sympy(x) for x in row] for row in arr.tolist()])
        raise ValueError("SymPy conversion can't handle tensors")
    if isinstance(v, (slice, str)):
        return v
    return sympy.sympify(v)


def exprToSympy(expr):
    """A SymPy expression (or Matrix) equal to a symbolic Expression,
    Variable or constant."""
    memo = {}

    def rec(node):
        if id(node) in memo:
            return memo[id(node)]
        if isinstance(node, Variable):
            res = _symbols_of(node)
        elif isinstance(node, VariableExpression):
            res = _symbols_of(node.var)
        elif isinstance(node, UserDataExpression):
            res = sympy.Symbol(node.name)
        elif isinstance(node, ConstantExpression):
            res = _const_to_sympy(node.value)
        elif isinstance(node, OperatorExpression):
            res = _op_to_sympy(node, rec)
        elif isinstance(node, Expression):
            raise ValueError("Can't convert %s to SymPy" % node.__class__.__name__)
        else:
            res = _const_to_sympy(node)
        memo[id(node)] = res
        return res
    return rec(expr)


def _op_to_sympy(node, rec):
    f = node.functionInfo
    name = f.name
    if f.properties.get('impure', False):
        raise ValueError("Can't convert %s to SymPy" % name)
    if name == 'summation':
        return _summation(node, rec)
    if name in ('subs', 'map', 'forall', 'forsome') or (is_const(node) and name not in _TO_SYMPY):
        val = node.eval()
        if isinstance(val, Expression):
            if val is node:
                raise ValueError("Can't convert %s to SymPy" % name)
            return rec(val)
        return _const_to_sympy(val)
    if name in _TO_SYMPY:
        args = [a.value if isinstance(a, ConstantExpression) and isinstance(a.value, (slice, tuple, list)) and name == 'getitem' and i == 1
                else rec(a) for i, a in enumerate(node.args)]
        return _TO_SYMPY[name](*args)
    if isinstance(f.func, Expression):
        inner = exprToSympy(f.func)
        pairs = []
        for ref, a in zip(f.exprArgRefs, node.args):
            sa = rec(a)
            sr = sympy.Symbol(ref.name) if isinstance(ref, UserDataExpression) else _symbols_of(ref.var)
            if _is_mat(sr):
                pairs.extend(zip(list(sr), list(sa)))
            else:
                pairs.append((sr, sa))
        return inner.subs(pairs, simultaneous=True) if not _is_mat(inner) else inner.subs(pairs)
    if name in _builtin_functions:
        raise ValueError("Builtin function %s has no SymPy equivalent" % name)
    warnings.warn("exprToSympy: Function %s does not have a SymPy equivalent, returning an adaptor" % name)
    args = [rec(a) for a in node.args]
    return _make_sympy_adaptor(f)(*args)


def _summation(node, rec):
    e, var, values = node.args
    vals = to_const(values)
    if vals is None:
        if len(values.args) == 1 and isinstance(values, OperatorExpression) and values.functionInfo.name == 'range':
            n = rec(values.args[0])
            return sympy.Sum(rec(e), (rec(var), 0, n - 1))
        raise ValueError("Can't convert a summation over a non-constant range to SymPy")
    vals = list(np.asarray(vals).tolist())
    sv = rec(var)
    se = rec(e)
    if vals and all(isinstance(v, int) for v in vals) and vals == list(range(vals[0], vals[0] + len(vals))):
        return sympy.Sum(se, (sv, vals[0], vals[-1]))
    return sympy.Add(*[se.subs(sv, _const_to_sympy(v)) for v in vals])


def _make_sympy_adaptor(func):
    """A SymPy Function class that evaluates the symbolic Function numerically
    and differentiates with its declared Jacobians."""
    def _eval_evalf(self, prec):
        vals = [float(a.evalf(prec)) for a in self.args]
        return sympy.Float(float(np.asarray(func(*vals).evalf())))

    def fdiff(self, argindex=1):
        from sympy.core.function import ArgumentIndexError
        i = argindex - 1
        jac = func.jacobian[i] if func.jacobian is not None else None
        if isinstance(jac, Function):
            return _make_sympy_adaptor(jac)(*self.args)
        raise ArgumentIndexError(self, argindex)
    attrs = {'_symbolic_func': func, '_eval_evalf': _eval_evalf, 'fdiff': fdiff}
    if func.argNames is not None:
        attrs['nargs'] = len(func.argNames)
    return type(func.name.replace('.', '_'), (sympy.Function,), attrs)


class SympyFunction(Function):
    """A Function evaluating a SymPy expression, with Jacobians from SymPy's
    derivatives.

    Example::

        x, y = sympy.symbols("x y")
        twoxy = SympyFunction("twoxy", 2*x*y)

    Args:
        name (str): the Function name.
        expr (sympy.Expr or Matrix): the expression.
        symbol_order (list of str, optional): the argument order (by default
            the free symbols sorted by name).
    """

    def __init__(self, name, expr, symbol_order=None):
        names = sorted(s.name for s in expr.free_symbols)
        if symbol_order is None:
            symbol_order = names
        elif not set(names) <= set(symbol_order):
            raise ValueError("symbol_order does not contain some free variables: %s vs %s" % (symbol_order, names))
        symbols = [sympy.Symbol(n) for n in symbol_order]
        lam = sympy.lambdify(symbols, expr, modules='numpy')
        is_matrix = _is_mat(expr)

        def f(*args):
            res = lam(*args)
            if is_matrix:
                res = np.asarray(res, dtype=float)
                return res.reshape(-1) if res.ndim == 2 and res.shape[1] == 1 else res
            return float(res) if np.ndim(res) == 0 else np.asarray(res, dtype=float)
        Function.__init__(self, name, f, list(symbol_order))
        self.sympy_expr = expr
        self.sympy_jacobian = [sympy.diff(expr, s) for s in symbols]
        self.sympy_jacobian_funcs = [None] * len(symbols)
        for i in range(len(symbols)):
            self.setJacobian(i, self._jacobian_builder(i), asExpr=True)

    def _jacobian_builder(self, i):
        def build(*args):
            if self.sympy_jacobian_funcs[i] is None:
                self.sympy_jacobian_funcs[i] = SympyFunction(self.name + "_jac_" + self.argNames[i], self.sympy_jacobian[i], self.argNames)
            return self.sympy_jacobian_funcs[i](*args)
        return build


class SympyFunctionAdaptor(Function):
    """A Function applying a SymPy function class, with Jacobians from
    SymPy's derivatives.

    Example::

        heaviside = SympyFunctionAdaptor("heaviside", sympy.Heaviside, ["x"])
    """

    def __init__(self, name, func, argnames=None):
        if not isinstance(func, sympy.FunctionClass):
            raise TypeError("SympyFunctionAdaptor needs a SymPy function class")
        nargs = 1
        if hasattr(func, 'nargs') and len(func.nargs) >= 1 and all(isinstance(n, (int, sympy.Integer)) for n in func.nargs):
            nargs = int(min(func.nargs))
        if argnames is None:
            argnames = ['x', 'y', 'z'][:nargs] if nargs <= 3 else ['arg%d' % (i + 1) for i in range(nargs)]
        xs = sympy.symbols(' '.join('_a%d' % i for i in range(len(argnames))) + ' ')
        xs = list(xs) if isinstance(xs, (tuple, list)) else [xs]
        fexpr = func(*xs)

        def f(*args):
            return float(fexpr.subs(dict(zip(xs, args))).evalf())
        Function.__init__(self, name, f, list(argnames))
        self.sympy_func = func
        self.sympy_jacobian = [fexpr.diff(x) for x in xs]
        self.sympy_jacobian_funcs = [None] * len(xs)
        for i in range(len(xs)):
            self.setJacobian(i, self._jacobian_builder(i, xs), asExpr=True)

    def _jacobian_builder(self, i, xs):
        def build(*args):
            if self.sympy_jacobian_funcs[i] is None:
                jexpr = self.sympy_jacobian[i].subs(dict((x, sympy.Symbol(n)) for x, n in zip(xs, self.argNames)))
                self.sympy_jacobian_funcs[i] = SympyFunction(self.name + "_jac_" + self.argNames[i], jexpr, self.argNames)
            return self.sympy_jacobian_funcs[i](*args)
        return build


_FROM_SYMPY = {'sin': 'sin', 'cos': 'cos', 'tan': 'tan', 'exp': 'exp', 'log': 'ln', 'Abs': 'abs', 'sign': 'sign',
               'asin': 'arcsin', 'acos': 'arccos', 'atan': 'arctan', 'atan2': 'arctan2', 'Max': 'max', 'Min': 'min',
               'And': 'and', 'Or': 'or', 'Not': 'not'}


def _symbol_from_sympy(context, s):
    name = s.name
    if context is not None and name in context.variableDict:
        return VariableExpression(context.variableDict[name])
    parts = name.split('_')
    if context is not None:
        for nidx, chars in ((1, 'V'), (2, 'MA')):
            if len(parts) > nidx and all(p.isdigit() for p in parts[-nidx:]):
                base = '_'.join(parts[:-nidx])
                v = context.variableDict.get(base)
                if v is not None and v.type.char in chars:
                    idx = tuple(int(p) for p in parts[-nidx:])
                    return getitem(v, idx[0] if nidx == 1 else idx)
    return UserDataExpression(name)


def exprFromSympy(context, sexpr, addFuncs=True):
    """A symbolic Expression (or constant) from a SymPy expression.

    Args:
        context (Context or None): resolves symbols to Variables (also the
            entries ``x_i`` / ``A_i_j`` of vector / matrix Variables) and
            functions; other symbols become user data references.
        sexpr: the SymPy expression or Matrix.
        addFuncs (bool): declare adaptors for unknown SymPy functions in the
            context.
    """
    rec = lambda s: exprFromSympy(context, s, addFuncs)
    if isinstance(sexpr, sympy.Symbol):
        return _symbol_from_sympy(context, sexpr)
    if _is_mat(sexpr):
        rows, cols = sexpr.shape
        if cols == 1:
            entries = [expr(rec(sexpr[i, 0])) for i in range(rows)]
            return array(*entries) if any(not isinstance(e, ConstantExpression) for e in entries) else np.array([e.value for e in entries], dtype=float)
        return array(*[array(*[expr(rec(sexpr[i, j])) for j in range(cols)]) for i in range(rows)])
    if sexpr is sympy.true or sexpr is sympy.false:
        return bool(sexpr)
    if isinstance(sexpr, sympy.Integer):
        return int(sexpr)
    if isinstance(sexpr, sympy.Number) or (isinstance(sexpr, sympy.Basic) and sexpr.is_number and not sexpr.free_symbols):
        return float(sexpr)
    if isinstance(sexpr, sympy.Add):
        args = [rec(a) for a in sexpr.args]
        return sum_(*args) if len(args) > 2 else _builtin_functions['add'](*args)
    if isinstance(sexpr, sympy.Mul):
        args = list(sexpr.args)
        if args[0] == -1:
            rest = args[1:]
            return neg(rec(sympy.Mul(*rest)) if len(rest) > 1 else rec(rest[0]))
        return mul(*[rec(a) for a in args])
    if isinstance(sexpr, sympy.Pow):
        b, e = sexpr.args
        if e == -1:
            return div(1.0, rec(b))
        if e == sympy.Rational(1, 2):
            return _builtin_functions['sqrt'](rec(b))
        return _builtin_functions['pow'](rec(b), rec(e))
    if isinstance(sexpr, sympy.Piecewise):
        res = None
        for val, cond in reversed(sexpr.args):
            if res is None:
                if cond is not sympy.true:
                    raise ValueError("Can't convert a Piecewise without a default branch")
                res = rec(val)
            else:
                res = if_(rec(cond), rec(val), res)
        return res
    if isinstance(sexpr, sympy.Sum) and len(sexpr.limits) == 1:
        i, lo, hi = sexpr.limits[0]
        if not (lo.is_Integer and hi.is_Integer):
            raise ValueError("Can't convert a SymPy Sum with symbolic limits")
        return summation(expr(rec(sexpr.function)), UserDataExpression(i.name), list(range(int(lo), int(hi) + 1)))
    rel = {sympy.Eq: 'eq', sympy.Ne: 'ne', sympy.Le: 'le', sympy.Ge: 'ge'}
    for cls, fname in rel.items():
        if isinstance(sexpr, cls):
            return _builtin_functions[fname](rec(sexpr.args[0]), rec(sexpr.args[1]))
    if isinstance(sexpr, sympy.StrictLessThan):
        return not_(ge(rec(sexpr.args[0]), rec(sexpr.args[1])))
    if isinstance(sexpr, sympy.StrictGreaterThan):
        return not_(le(rec(sexpr.args[0]), rec(sexpr.args[1])))
    if isinstance(sexpr, sympy.Function) or getattr(sexpr.func, '__name__', None) in _FROM_SYMPY:
        sname = sexpr.func.__name__
        args = [rec(a) for a in sexpr.args]
        if sname in _FROM_SYMPY:
            f = _builtin_functions[_FROM_SYMPY[sname]]
            if f.argNames is not None and len(args) > len(f.argNames):
                res = f(args[0], args[1])
                for a in args[2:]:
                    res = f(res, a)
                return res
            return f(*args)
        fname = sname.lower()
        sf = getattr(sexpr.func, '_symbolic_func', None)
        if sf is not None:
            return sf(*args)
        if context is not None:
            try:
                return context.function(fname)(*args)
            except KeyError:
                pass
        elif fname in _builtin_functions:
            return _builtin_functions[fname](*args)
        warnings.warn("exprFromSympy: SymPy function %s has no symbolic equivalent, creating an adaptor %s" % (sname, fname))
        f = SympyFunctionAdaptor(fname, sexpr.func, ['arg%d' % (i + 1) for i in range(len(args))] if len(args) > 3 else None)
        if addFuncs and context is not None:
            f = context.declare(f)
        return f(*args)
    raise ValueError("Can't convert SymPy object %s (%s) to a symbolic expression" % (sexpr, type(sexpr).__name__))
