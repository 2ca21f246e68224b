"""The builtin Function library of :mod:`klampt.math.symbolic`: evaluation,
return types, lazy evaluation, derivative rules and simplifiers."""

import numpy as np

from ._symbolic_types import Type, supertype, type_of, _INT_TYPES, _builtin_functions
from ._symbolic_variable import Variable
from ._symbolic_expressions import (Expression, ConstantExpression, OperatorExpression, VariableExpression,
                                    UserDataExpression, _Env, _evaluate, _as_expr, expr, to_const)
from ._symbolic_utils import is_op
from ._symbolic_function import Function

__all__ = ['range_', 'len_', 'count', 'shape', 'reshape', 'transpose', 'transpose2', 'dims', 'eye', 'basis',
           'zero', 'diag', 'eq', 'ne', 'le', 'ge', 'not_', 'or_', 'and_', 'neg', 'abs_', 'sign', 'add', 'sub',
           'mul', 'div', 'pow_', 'dot', 'outer', 'tensordot', 'if_', 'max_', 'min_', 'argmax', 'argmin', 'cos',
           'sin', 'tan', 'arccos', 'arcsin', 'arctan', 'arctan2', 'sqrt', 'exp', 'log', 'ln', 'sum_', 'any_',
           'all_', 'getitem', 'setitem', 'getattr_', 'setattr_', 'flatten', 'row_stack', 'column_stack', 'array',
           'list_', 'tuple_', 'zip_', 'weightedsum', 'subs', 'map_', 'forall', 'forsome', 'summation',
           'dotshape', 'dottype', 'dot_setitem_simplifier1', 'dot_setitem_simplifier2']


# ---------------------------------------------------------------------------
# numeric implementations
# ---------------------------------------------------------------------------

def _ravel(obj):
    if isinstance(obj, np.ndarray):
        return obj.ravel()
    if isinstance(obj, (list, tuple)):
        parts = [_ravel(v) for v in obj]
        parts = [p for p in parts if p.size > 0]
        return np.concatenate(parts) if parts else np.zeros(0)
    return np.array([obj])


def _hyper_shape(obj):
    if isinstance(obj, np.ndarray):
        return obj.shape
    if isinstance(obj, (list, tuple)):
        subs_ = [_hyper_shape(v) for v in obj]
        if not subs_:
            return (0,)
        if all(isinstance(s, tuple) and s == subs_[0] for s in subs_):
            return (len(obj),) + subs_[0]
        return dict(enumerate(subs_))
    return ()


def _count(x):
    if isinstance(x, np.ndarray):
        return int(x.size)
    if isinstance(x, (list, tuple)):
        return sum(_count(v) for v in x)
    return 1


def _len(x):
    return len(x) if hasattr(x, '__len__') and not isinstance(x, str) else 0


def _dims(x):
    if isinstance(x, np.ndarray):
        return x.ndim
    sh = _hyper_shape(x)
    if isinstance(sh, dict):
        return 1 + max(_dims(v) for v in x)
    return len(sh)


def _shape(x):
    sh = _hyper_shape(x)
    return np.array(sh, dtype=int) if isinstance(sh, tuple) else sh


def _to_shape(s):
    if isinstance(s, np.ndarray):
        s = s.tolist()
    if isinstance(s, (list, tuple)):
        return tuple(int(v) for v in s)
    return (int(s),)


def _unravel(flat, sh):
    if isinstance(sh, dict):
        res, ofs = [], 0
        for _, s in sorted(sh.items()):
            n = int(np.prod(s)) if not isinstance(s, dict) else _count(_zero(s))
            res.append(_unravel(flat[ofs:ofs + n], s))
            ofs += n
        return res
    sh = _to_shape(sh)
    return flat[0] if sh == () else flat[:int(np.prod(sh))].reshape(sh)


def _reshape(x, s):
    if isinstance(s, dict):
        return _unravel(_ravel(x), s)
    s = _to_shape(s)
    if np.ndim(x) == 0 and not isinstance(x, (list, tuple)):
        return np.full(s, x, dtype=float) if s != () else x
    try:
        return np.asarray(x).reshape(s)
    except ValueError:
        return _ravel(x).reshape(s)


def _eye(n):
    n = int(n)
    return 1 if n == 0 else np.eye(n)


def _basis(i, n):
    if not 0 <= int(i) < int(n):
        raise ValueError("basis index %d out of range for dimension %d" % (i, n))
    res = np.zeros(int(n))
    res[int(i)] = 1.0
    return res


def _zero(s):
    if isinstance(s, dict):
        return [_zero(v) for _, v in sorted(s.items())]
    if isinstance(s, (list, tuple, np.ndarray)):
        s = _to_shape(s)
        return 0 if len(s) == 0 else np.zeros(s)
    return 0 if int(s) == 0 else np.zeros(int(s))


def _transpose(x):
    return np.transpose(x) if hasattr(x, '__len__') else x


def _diag(x):
    return np.diag(x) if hasattr(x, '__len__') else x


def _add(*args):
    if not args:
        return 0
    res = args[0]
    for v in args[1:]:
        res = np.add(res, v)
    return res


def _mul(*args):
    if not args:
        raise ValueError("mul needs at least one argument")
    res = args[0]
    for v in args[1:]:
        res = np.multiply(res, v)
    return res


def _weightedsum(*args):
    if len(args) % 2:
        raise ValueError("weightedsum needs values followed by as many weights")
    n = len(args) // 2
    if n == 0:
        return 0.0
    return _add(*[np.multiply(w, v) for v, w in zip(args[:n], args[n:])])


def _index(index):
    if isinstance(index, slice):
        return slice(*[to_const(v) if isinstance(v, Expression) else v for v in (index.start, index.stop, index.step)])
    return index


def _getitem(vec, index):
    index = _index(index)
    if isinstance(index, (list, np.ndarray)) and not isinstance(vec, np.ndarray):
        return [vec[int(i)] for i in index]
    if isinstance(index, (list, np.ndarray)):
        return vec[np.asarray(index, dtype=int)]
    if isinstance(index, tuple) and not isinstance(vec, np.ndarray):
        return np.asarray(vec)[index]
    if isinstance(index, (float, np.floating)) and float(index).is_integer():
        index = int(index)
    return vec[index]


def _setitem(x, index, val):
    index = _index(index)
    if isinstance(x, (list, tuple)) and isinstance(index, _INT_TYPES):
        res = list(x)
    else:
        res = np.array(x, dtype=np.result_type(np.asarray(x).dtype, np.asarray(val).dtype))
    if isinstance(index, list):
        index = np.asarray(index, dtype=int)
    res[index] = val
    return res


def _getattr(obj, attr):
    res = getattr(obj, attr)
    return res() if callable(res) else res


def _setattr(obj, attr, val):
    cur = getattr(obj, attr)
    if callable(cur):
        cur(val)
    else:
        setattr(obj, attr, val)
    return obj


def _flatten(*args):
    return _ravel(list(args)) if args else np.zeros(0)


def _stacker(f):
    def stack(*args):
        if not args:
            return np.zeros((0, 0))
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and not np.isscalar(args[0][0] if len(args[0]) else 0):
            args = args[0]
        return f([np.asarray(a) for a in args])
    return stack


def _array(*args):
    if not args:
        return []
    try:
        arr = np.array(args)
    except ValueError:
        return list(args)
    if arr.dtype.kind == 'O':
        return list(args)
    return arr


def _argext(better):
    def f(*args):
        if not args:
            raise ValueError("needs at least one argument")
        best = 0
        for i, v in enumerate(args):
            if better(v, args[best]):
                best = i
        return best
    return f


def _ext(better):
    def f(*args):
        if not args:
            raise ValueError("needs at least one argument")
        best = args[0]
        for v in args[1:]:
            if better(v, best):
                best = v
        return best
    return f


# ---------------------------------------------------------------------------
# return types
# ---------------------------------------------------------------------------

def _propagate_returnType(*args):
    types = [type_of(a) for a in args]
    types = [t for t in types if t.char != 'U'] or types
    nonscalar = [t for t in types if not t.is_scalar()]
    if nonscalar:
        return supertype(nonscalar)
    return supertype(types)


def _promote_returnType(*args):
    types = [type_of(a) for a in args]
    if any(t.char in (None, 'U') for t in types):
        return Type(None)
    nonscalar = [t for t in types if not t.is_scalar()]
    if not nonscalar:
        if all(t.char in 'IB' for t in types):
            return Type('I')
        return Type('N')
    if any(t.char is None for t in types):
        return Type(None)
    return supertype(nonscalar)


def _float_returnType(*args):
    rt = _promote_returnType(*args)
    return Type('N') if (rt.char or '?') in 'IB' else rt


def _returnType1(*args):
    return type_of(args[0])


def _if_returnType(cond, t, f):
    return supertype([type_of(t), type_of(f)])


def _array_returnType(*args):
    if not args:
        return Type('L', 0)
    types = [type_of(a) for a in args]
    st = supertype(types)
    if st.is_scalar():
        return Type('V', len(args))
    if (st.char or '?') in 'VMA' and st.size is not None:
        sh = (len(args),) + (st.size if isinstance(st.size, tuple) else (st.size,))
        return Type('M', sh) if len(sh) == 2 else Type('A', sh)
    return Type('L', len(args), types)


def _list_returnType(*args):
    return Type('L', len(args), [type_of(a) for a in args])


def _flatten_returnType(*args):
    try:
        return Type('V', sum(type_of(a).count() for a in args))
    except (TypeError, ValueError):
        return Type('V')


def _shape_of_type(t):
    try:
        sh = t.shape()
    except ValueError:
        return None
    return sh if isinstance(sh, tuple) else None


def _type_of_shape(sh):
    if sh is None:
        return Type('A')
    sh = tuple(sh)
    if len(sh) == 0:
        return Type('N')
    if len(sh) == 1:
        return Type('V', sh[0])
    if len(sh) == 2:
        return Type('M', sh)
    return Type('A', sh)


def dotshape(x, y):
    """The shape (a tuple) of ``dot(x, y)`` from the types of x and y, or None
    if it cannot be determined before evaluation."""
    sx, sy = _shape_of_type(type_of(x)), _shape_of_type(type_of(y))
    if sx is None or sy is None:
        return None
    if len(sx) == 0 or len(sy) == 0:
        return sx + sy
    ax = 0 if len(sy) == 1 else len(sy) - 2
    if sx[-1] != sy[ax]:
        raise ValueError("Error forming dot product: dimensions %s and %s don't match" % (sx, sy))
    return sx[:-1] + sy[:ax] + sy[ax + 1:]


def dottype(x, y):
    """The :class:`Type` of ``dot(x, y)``."""
    sh = dotshape(x, y)
    if sh is None:
        tx, ty = type_of(x), type_of(y)
        if tx.is_scalar() and ty.is_scalar():
            return Type('N')
        return Type('A')
    return _type_of_shape(sh)


def _transpose_returnType(x):
    t = type_of(x)
    if t.is_scalar():
        return t
    if t.char == 'V':
        return t
    sh = _shape_of_type(t)
    return _type_of_shape(None if sh is None else sh[::-1]) if sh is not None else Type(t.char)


def _reshape_returnType(x, s):
    sc = to_const(s)
    if sc is None or isinstance(sc, dict):
        return Type(None)
    return _type_of_shape(_to_shape(sc))


def _getitem_returnType(x, index):
    t = type_of(x)
    ic = to_const(index)
    if ic is None:
        it = type_of(index)
        if (it.char or '?') in 'IN' and (t.char or '?') in 'VM':
            return t.itemtype()
        return Type(None)
    if isinstance(ic, _INT_TYPES):
        it = t.itemtype(int(ic))
        return Type(None) if it is None else it
    sh = _shape_of_type(t)
    if sh is not None:
        try:
            return _type_of_shape(np.zeros(sh)[_index(ic) if not isinstance(ic, list) else np.asarray(ic, int)].shape)
        except (IndexError, TypeError, ValueError):
            return Type(None)
    return Type(None)


def _zero_returnType(s):
    sc = to_const(s)
    if sc is None:
        return Type('A')
    if isinstance(sc, dict):
        return Type('L', sc)
    sh = _to_shape(sc)
    if sh == (0,):
        return Type('N')
    return _type_of_shape(sh)


def _eye_returnType(n):
    nc = to_const(n)
    return Type('M') if nc is None else (Type('N') if nc == 0 else Type('M', (int(nc), int(nc))))


def _basis_returnType(i, n):
    nc = to_const(n)
    return Type('V') if nc is None else Type('V', int(nc))


def _dot_returnType(x, y):
    try:
        return dottype(x, y)
    except ValueError:
        raise


def _outer_returnType(x, y):
    n, m = type_of(x).len(), type_of(y).len()
    return Type('M', None if n is None or m is None else (n, m))


def _tensordot_returnType(x, y, axes):
    sx, sy = _shape_of_type(type_of(x)), _shape_of_type(type_of(y))
    ac = to_const(axes)
    if sx is None or sy is None or ac is None:
        return Type('A')
    return _type_of_shape(np.tensordot(np.zeros(sx), np.zeros(sy), ac).shape)


def _stack_returnType(*args):
    return Type('M')


def _summation_returnType(e, var, values):
    return type_of(e)


# ---------------------------------------------------------------------------
# lazy (custom) evaluation
# ---------------------------------------------------------------------------

def _var_name(v, env, memo):
    if isinstance(v, VariableExpression):
        return v.var.name
    if isinstance(v, UserDataExpression):
        return v.name
    raise ValueError("The var argument must be a Variable or user data reference, not " + str(v))


def _values_list(values, env, memo):
    if is_op(values, 'array') or is_op(values, 'list'):
        return list(values.args), True
    vals = _evaluate(values, env, memo)
    if isinstance(vals, Expression):
        return vals, False
    if isinstance(vals, np.ndarray) and vals.ndim == 0:
        vals = [vals]
    return [ConstantExpression(v) for v in vals], True


def _sub_eval(e, name, value, env, memo):
    """Evaluates e with name bound to the (evaluated) value expression."""
    val = _evaluate(value, env, memo)
    if isinstance(val, Expression):
        return _evaluate(e.replace(_ref_for(e, name), val), env, {})
    return _evaluate(e, _Env(env, {name: val}), {})


def _ref_for(e, name):
    r = e.find(UserDataExpression(name))
    if r is None:
        r = e.find(VariableExpression(Variable(name, None)))
    return r if r is not None else UserDataExpression(name)


def _subs_eval(env, memo, e, var, value):
    if is_op(var, 'array') or is_op(var, 'list') or (isinstance(var, ConstantExpression) and isinstance(var.value, (list, tuple))):
        vars_ = var.args if isinstance(var, OperatorExpression) else [expr(v) for v in var.value]
        if is_op(value, 'array') or is_op(value, 'list'):
            values = value.args
        else:
            vv = _evaluate(value, env, memo)
            if isinstance(vv, Expression):
                raise ValueError("subs: the list of values must have a known length")
            values = [ConstantExpression(v) for v in vv]
        if len(vars_) != len(values):
            raise ValueError("subs: %d variables but %d values" % (len(vars_), len(values)))
        overrides, symbolic = {}, []
        for v, x in zip(vars_, values):
            xv = _evaluate(x, env, memo)
            if isinstance(xv, Expression):
                symbolic.append((v, xv))
            else:
                overrides[_var_name(v, env, memo)] = xv
        e2 = e
        for v, x in symbolic:
            e2 = e2.replace(v, x)
        return _evaluate(e2, _Env(env, overrides), {})
    return _sub_eval(e, _var_name(var, env, memo), value, env, memo)


def _map_eval(env, memo, e, var, values):
    name = _var_name(var, env, memo)
    vals, known = _values_list(values, env, memo)
    if not known:
        return map_(e, var, vals)
    res = [_sub_eval(e, name, v, env, memo) for v in vals]
    if any(isinstance(r, Expression) for r in res):
        return array(*[_as_expr(r) for r in res])
    return _array(*res)


def _loop_eval(combine, wrap):
    def f(env, memo, e, var, values):
        name = _var_name(var, env, memo)
        vals, known = _values_list(values, env, memo)
        if not known:
            return wrap(e, var, vals)
        return combine([_sub_eval(e, name, v, env, memo) for v in vals])
    return f


def _combine_all(res):
    if any(not isinstance(r, Expression) and not r for r in res):
        return False
    rest = [r for r in res if isinstance(r, Expression)]
    return all_(*rest) if rest else True


def _combine_any(res):
    if any(not isinstance(r, Expression) and r for r in res):
        return True
    rest = [r for r in res if isinstance(r, Expression)]
    return any_(*rest) if rest else False


def _combine_sum(res):
    if any(isinstance(r, Expression) for r in res):
        return sum_(*[_as_expr(r) for r in res])
    return _add(*res)


def _lazy_logic(stop):
    def f(env, memo, *args):
        rest = []
        for a in args:
            v = _evaluate(a, env, memo)
            if isinstance(v, Expression):
                rest.append(v)
            elif bool(v) == stop:
                return stop
        if rest:
            return (any_ if stop else all_)(*rest)
        return not stop
    return f


def _if_eval(env, memo, cond, t, f):
    c = _evaluate(cond, env, memo)
    if isinstance(c, Expression):
        return if_(c, _as_expr(_evaluate(t, env, memo)), _as_expr(_evaluate(f, env, memo)))
    return _evaluate(t if c else f, env, memo)


def _getitem_eval(env, memo, vec, index):
    idx = _evaluate(index, env, memo)
    if is_op(vec, 'array') and not isinstance(idx, Expression) and isinstance(idx, _INT_TYPES):
        return _evaluate(vec.args[int(idx)], env, memo)
    v = _evaluate(vec, env, memo)
    if isinstance(v, Expression) or isinstance(idx, Expression):
        return getitem(_as_expr(v), _as_expr(idx))
    try:
        return _getitem(v, idx)
    except (IndexError, TypeError, ValueError) as e:
        raise ValueError("Error evaluating getitem(%s,%s): %s" % (v, idx, e)) from e


# ---------------------------------------------------------------------------
# Function objects
# ---------------------------------------------------------------------------

def _F(name, func, args, rt=None, desc=None):
    f = Function(name, func, args, rt)
    f.description = desc
    return f


range_ = _F('range', lambda n: np.arange(int(n)), ['n'], 'V', "Equivalent to Python's range(n) function.")
len_ = _F('len', _len, ['x'], 'I', "len(x); 0 for scalars, the first dimension of arrays.")
count = _F('count', _count, ['x'], 'I', "The number of numeric entries of x (1 for scalars; lists recursively).")
shape = _F('shape', _shape, ['x'], 'V', "x.shape for arrays, () for scalars, a hyper-shape for lists of items of different shapes.")
reshape = _F('reshape', _reshape, ['x', 's'], _reshape_returnType, "x reshaped to the shape s (a scalar gives a constant array).")
transpose = _F('transpose', _transpose, ['x'], _transpose_returnType, "np.transpose(x) (shortcut: x.T).")
transpose2 = _F('transpose2', lambda x, axes: np.transpose(x, axes), ['x', 'axes'], 'A', "np.transpose(x, axes).")
dims = _F('dims', _dims, ['x'], 'I', "The number of dimensions of x, len(shape(x)).")
eye = _F('eye', _eye, ['n'], _eye_returnType, "np.eye(n) if n > 0, otherwise 1.")
basis = _F('basis', _basis, ['i', 'n'], _basis_returnType, "The i'th elementary basis vector of dimension n.")
zero = _F('zero', _zero, ['n'], _zero_returnType, "np.zeros(s) for a shape or positive size s, otherwise 0.")
diag = _F('diag', _diag, ['x'], 'M', "np.diag(x).")
eq = _F('eq', lambda lhs, rhs: _cmp(np.equal, lhs, rhs), ['lhs', 'rhs'], 'B', "lhs == rhs (all entries for arrays).")
ne = _F('ne', lambda lhs, rhs: not _cmp(np.equal, lhs, rhs), ['lhs', 'rhs'], 'B', "lhs != rhs.")
le = _F('le', lambda lhs, rhs: _cmp(np.less_equal, lhs, rhs), ['lhs', 'rhs'], 'B', "lhs <= rhs (all entries for arrays).")
ge = _F('ge', lambda lhs, rhs: _cmp(np.greater_equal, lhs, rhs), ['lhs', 'rhs'], 'B', "lhs >= rhs (all entries for arrays).")
not_ = _F('not', lambda x: not x, ['x'], 'B', "not x.")
or_ = _F('or', lambda x, y: bool(x or y), ['x', 'y'], 'B', "x or y.")
and_ = _F('and', lambda x, y: bool(x and y), ['x', 'y'], 'B', "x and y.")
neg = _F('neg', np.negative, ['x'], _propagate_returnType, "-x.")
abs_ = _F('abs', np.abs, ['x'], _propagate_returnType, "abs(x), elementwise.")
sign = _F('sign', np.sign, ['x'], _propagate_returnType, "The sign of x, elementwise.")
add = _F('add', lambda x, y: np.add(x, y), ['x', 'y'], _promote_returnType, "x + y, with Numpy broadcasting.")
sub = _F('sub', lambda x, y: np.subtract(x, y), ['x', 'y'], _promote_returnType, "x - y, with Numpy broadcasting.")
mul = _F('mul', _mul, '...', _promote_returnType, "The elementwise product x * y * ..., with Numpy broadcasting.")
div = _F('div', lambda x, y: np.divide(x, y), ['x', 'y'], _float_returnType, "x / y, elementwise.")
pow_ = _F('pow', lambda x, y: np.power(x, y) if not (isinstance(x, _INT_TYPES) and isinstance(y, _INT_TYPES) and y < 0) else float(x) ** y,
          ['x', 'y'], _promote_returnType, "x ** y, elementwise.")
dot = _F('dot', np.dot, ['x', 'y'], _dot_returnType, "np.dot(x, y).")
outer = _F('outer', np.outer, ['x', 'y'], _outer_returnType, "np.outer(x, y).")
tensordot = _F('tensordot', np.tensordot, ['x', 'y', 'axes'], _tensordot_returnType, "np.tensordot(x, y, axes).")
if_ = _F('if', lambda cond, trueval, falseval: trueval if cond else falseval, ['cond', 'trueval', 'falseval'], _if_returnType,
         "trueval if cond else falseval (only the selected branch is evaluated).")
max_ = _F('max', _ext(lambda a, b: a > b), '...', _propagate_returnType, "The maximum of the arguments.")
min_ = _F('min', _ext(lambda a, b: a < b), '...', _propagate_returnType, "The minimum of the arguments.")
argmax = _F('argmax', _argext(lambda a, b: a > b), '...', 'I', "The index of the largest argument.")
argmin = _F('argmin', _argext(lambda a, b: a < b), '...', 'I', "The index of the smallest argument.")
cos = _F('cos', np.cos, ['x'], _float_returnType, "np.cos(x).")
sin = _F('sin', np.sin, ['x'], _float_returnType, "np.sin(x).")
tan = _F('tan', np.tan, ['x'], _float_returnType, "np.tan(x).")
arccos = _F('arccos', np.arccos, ['x'], _float_returnType, "np.arccos(x).")
arcsin = _F('arcsin', np.arcsin, ['x'], _float_returnType, "np.arcsin(x).")
arctan = _F('arctan', np.arctan, ['x'], _float_returnType, "np.arctan(x).")
arctan2 = _F('arctan2', np.arctan2, ['y', 'x'], _float_returnType, "np.arctan2(y, x).")
sqrt = _F('sqrt', np.sqrt, ['x'], _float_returnType, "np.sqrt(x).")
exp = _F('exp', np.exp, ['x'], _float_returnType, "np.exp(x).")
log = _F('log', np.log, ['x'], _float_returnType, "The natural logarithm np.log(x) (as in Klamp't, despite its old 'base 10' note).")
ln = _F('ln', np.log, ['x'], _float_returnType, "The natural logarithm of x.")
sum_ = _F('sum', _add, '...', _promote_returnType, "The sum of the arguments (vectors and matrices add entrywise).")
any_ = _F('any', lambda *args: any(bool(a) for a in args), '...', 'B', "any(args), lazily evaluated.")
all_ = _F('all', lambda *args: all(bool(a) for a in args), '...', 'B', "all(args), lazily evaluated.")
getitem = _F('getitem', _getitem, ['vec', 'index'], _getitem_returnType,
             "vec[index]; also slices, tuples and lists of indices (shortcut: vec[index]).")
setitem = _F('setitem', _setitem, ['vec', 'index', 'val'], _returnType1, "A copy of vec with vec[index] = val.")
getattr_ = _F('getattr', _getattr, ['object', 'attr'], None,
              "object.attr of a user data object; a method is called with no arguments.")
setattr_ = _F('setattr', _setattr, ['object', 'attr', 'val'], None,
              "Sets object.attr = val (or calls the method attr(val)) and returns the object.")
flatten = _F('flatten', _flatten, '...', _flatten_returnType, "All arguments raveled and concatenated into one vector.")
row_stack = _F('row_stack', _stacker(np.vstack), '...', _stack_returnType, "The arguments stacked as rows of a matrix.")
column_stack = _F('column_stack', _stacker(np.column_stack), '...', _stack_returnType, "The arguments stacked as columns of a matrix.")
array = _F('array', _array, '...', _array_returnType, "A Numpy array of the arguments, or a list if they don't form one.")
list_ = _F('list', lambda *args: list(args), '...', _list_returnType, "A list of the arguments.")
tuple_ = _F('tuple', lambda *args: tuple(args), '...', _list_returnType, "A tuple of the arguments.")
zip_ = _F('zip', lambda *args: list(zip(*args)), '...', 'L', "Python's zip(*args) as a list of tuples.")
weightedsum = _F('weightedsum', _weightedsum, '...', _propagate_returnType, "w1*v1 + ... + wn*vn for arguments v1..vn,w1..wn.")
subs = _F('subs', None, ['expr', 'var', 'value'], _returnType1, "expr with var (or a list of vars) substituted by value.")
map_ = _F('map', None, ['expr', 'var', 'values'], 'L', "[expr with var = v for v in values].")
forall = _F('forall', None, ['expr', 'var', 'values'], 'B', "True if expr holds with var = v for every v in values.")
forsome = _F('forsome', None, ['expr', 'var', 'values'], 'B', "True if expr holds with var = v for some v in values.")
summation = _F('summation', None, ['expr', 'var', 'values'], _summation_returnType, "The sum of expr with var = v over v in values.")

for _f in (getattr_, setattr_):
    _f.properties['impure'] = True
for _f in (add, mul, sum_, and_, or_):
    _f.properties['associative'] = True


def _cmp(f, a, b):
    return bool(np.all(f(a, b)))


getitem.custom_eval = _getitem_eval
any_.custom_eval = _lazy_logic(True)
all_.custom_eval = _lazy_logic(False)
if_.custom_eval = _if_eval
subs.custom_eval = _subs_eval
map_.custom_eval = _map_eval
forall.custom_eval = _loop_eval(_combine_all, lambda e, v, vals: forall(e, v, vals))
forsome.custom_eval = _loop_eval(_combine_any, lambda e, v, vals: forsome(e, v, vals))
summation.custom_eval = _loop_eval(_combine_sum, lambda e, v, vals: summation(e, v, vals))

_builtin_functions.update({'dims': dims, 'len': len_, 'count': count, 'shape': shape, 'reshape': reshape,
                           'transpose': transpose, 'transpose2': transpose2, 'range': range_,
                           'eye': eye, 'basis': basis, 'zero': zero, 'diag': diag,
                           'eq': eq, 'ne': ne, 'ge': ge, 'le': le, 'not': not_, 'or': or_, 'and': and_,
                           'neg': neg, 'abs': abs_, 'sign': sign, 'add': add, 'sub': sub, 'mul': mul, 'div': div,
                           'pow': pow_, 'dot': dot, 'outer': outer, 'tensordot': tensordot, 'if': if_,
                           'max': max_, 'min': min_, 'argmax': argmax, 'argmin': argmin,
                           'cos': cos, 'sin': sin, 'tan': tan, 'sqrt': sqrt, 'exp': exp, 'log': log, 'ln': ln,
                           'arccos': arccos, 'arcsin': arcsin, 'arctan': arctan, 'arctan2': arctan2,
                           'sum': sum_, 'any': any_, 'all': all_, 'getitem': getitem, 'setitem': setitem,
                           'getattr': getattr_, 'setattr': setattr_, 'flatten': flatten, 'row_stack': row_stack,
                           'column_stack': column_stack, 'array': array, 'list': list_, 'tuple': tuple_, 'zip': zip_,
                           'weightedsum': weightedsum, 'subs': subs, 'map': map_, 'forall': forall, 'forsome': forsome,
                           'summation': summation})
_infix_operators = {'and': ' and ', 'or': ' or ', 'sub': ' - ', 'div': '/', 'pow': '**', 'ge': '>=', 'le': '<=',
                    'eq': '==', 'ne': '!=', 'add': ' + ', 'sum': ' + ', 'mul': '*'}
_prefix_operators = {'not': 'not ', 'neg': '-'}
_python_naming_changes = {'and': 'and_', 'or': 'or_', 'not': 'not_', 'len': 'len_', 'abs': 'abs_', 'if': 'if_',
                          'pow': 'pow_', 'sum': 'sum_', 'any': 'any_', 'max': 'max_', 'min': 'min_', 'all': 'all_',
                          'list': 'list_', 'tuple': 'tuple_', 'zip': 'zip_', 'range': 'range_', 'map': 'map_',
                          'getattr': 'getattr_', 'setattr': 'setattr_'}


# ---------------------------------------------------------------------------
# dot simplifiers of setitem arguments (public in Klamp't)
# ---------------------------------------------------------------------------

def _complement(indices, n):
    s = set(int(i) for i in indices)
    return [i for i in range(n) if i not in s]


def dot_setitem_simplifier1(x, y):
    """dot(setitem(x0, I, v), y) = dot(x0[not I], y[not I]) + dot(v, y[I]) for
    constant index lists I and a vector x0 of known length; else None."""
    x0, indices, v = x.args
    ic, n = to_const(indices), type_of(x0).len() if type_of(x0).char == 'V' else None
    if ic is None or n is None or not isinstance(ic, (list, tuple, np.ndarray)):
        return None
    rest = _complement(ic, n)
    return dot(getitem(x0, rest), getitem(y, rest)) + dot(v, getitem(y, list(ic)))


def dot_setitem_simplifier2(x, y):
    """dot(x, setitem(y0, I, v)) = dot(x[not I], y0[not I]) + dot(x[I], v) for
    constant index lists I and a vector y0 of known length; else None."""
    y0, indices, v = y.args
    ic, n = to_const(indices), type_of(y0).len() if type_of(y0).char == 'V' else None
    if ic is None or n is None or not isinstance(ic, (list, tuple, np.ndarray)):
        return None
    rest = _complement(ic, n)
    return dot(getitem(x, rest), getitem(y0, rest)) + dot(getitem(x, list(ic)), v)

