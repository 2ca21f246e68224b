"""The elementary autodiff operators exported by :mod:`klampt.math.autodiff.ad`
(arithmetic, reductions, indexing, stacking, min/max and conditionals).

Scalars broadcast against vectors as in numpy; vectors combine elementwise.
"""

import numpy as np

from . import _ad_graph
from ._ad_graph import ADFunctionInterface, _scalar, _size


def _broadcast_jacobian(diag, arg_value, out_size):
    """Jacobian of an elementwise op with partial derivatives diag (scalar or
    per-entry) with respect to an argument that may be a broadcast scalar."""
    diag = np.broadcast_to(np.asarray(diag, dtype=float), (out_size,))
    if _scalar(arg_value):
        return diag.reshape((out_size, 1))
    return np.diag(diag)


def _out_size(*args):
    return max(_size(a) for a in args)


def _reduce_to(arg_value, vec):
    """Adjoint of broadcasting: sums vec if the argument was a scalar."""
    vec = np.asarray(vec, dtype=float)
    if _scalar(arg_value):
        return np.atleast_1d(np.sum(vec))
    return np.broadcast_to(vec, (_size(arg_value),)).copy()


class _Elementwise(ADFunctionInterface):
    """An elementwise function of broadcast arguments defined by its value
    and its partial derivatives (and, optionally, second partials)."""
    name = ''
    names = None

    def __str__(self):
        return self.name

    def argname(self, arg):
        return self.names[arg] if self.names else "Arg %d" % arg

    def n_in(self, arg):
        return -1

    def n_out(self):
        return -1

    def partial(self, arg, *args):
        """Elementwise partial derivative with respect to argument arg."""
        raise NotImplementedError()

    def partial2(self, i, j, *args):
        """Elementwise second partial derivative, or 0."""
        raise NotImplementedError()

    def derivative(self, arg, *args):
        return _broadcast_jacobian(self.partial(arg, *args), args[arg], _out_size(*args))

    def jvp(self, arg, darg, *args):
        return self.partial(arg, *args) * darg

    def vjp(self, arg, dout, *args):
        return _reduce_to(args[arg], self.partial(arg, *args) * dout)

    def gen_derivative(self, arg, *args):
        if len(arg) == 1:
            return self.derivative(arg[0], *args)
        if len(arg) != 2:
            raise NotImplementedError()
        d2 = self.partial2(arg[0], arg[1], *args)
        if isinstance(d2, int) and d2 == 0:
            return 0
        n = _out_size(*args)
        d2 = np.broadcast_to(np.asarray(d2, dtype=float), (n,))
        res = np.zeros((n, _size(args[arg[0]]), _size(args[arg[1]])))
        for k in range(n):
            res[k, 0 if _scalar(args[arg[0]]) else k, 0 if _scalar(args[arg[1]]) else k] = d2[k]
        return res


class _ADAdd(_Elementwise):
    name = 'add'

    def n_args(self):
        return 2

    def eval(self, x, y):
        return x + y

    def partial(self, arg, x, y):
        return 1.0

    def partial2(self, i, j, x, y):
        return 0


class _ADSub(_Elementwise):
    name = 'sub'

    def n_args(self):
        return 2

    def eval(self, x, y):
        return x - y

    def partial(self, arg, x, y):
        return 1.0 if arg == 0 else -1.0

    def partial2(self, i, j, x, y):
        return 0


class _ADMul(_Elementwise):
    name = 'mul'

    def n_args(self):
        return 2

    def eval(self, x, y):
        return x * y

    def partial(self, arg, x, y):
        return y if arg == 0 else x

    def partial2(self, i, j, x, y):
        return 0 if i == j else 1.0


class _ADDiv(_Elementwise):
    name = 'div'

    def n_args(self):
        return 2

    def eval(self, x, y):
        return x / y

    def partial(self, arg, x, y):
        return 1.0 / y if arg == 0 else -x / y ** 2

    def partial2(self, i, j, x, y):
        if i == 0 and j == 0:
            return 0
        if i != j:
            return -1.0 / y ** 2
        return 2.0 * x / y ** 3


class _ADNeg(_Elementwise):
    name = 'neg'

    def n_args(self):
        return 1

    def eval(self, x):
        return -x

    def partial(self, arg, x):
        return -1.0

    def partial2(self, i, j, x):
        return 0


class _ADPow(_Elementwise):
    name = 'pow'
    names = ['base', 'exp']

    def n_args(self):
        return 2

    def eval(self, base, exp):
        return np.power(base, exp)

    def partial(self, arg, base, exp):
        if arg == 0:
            return exp * np.power(base, exp - 1)
        return np.power(base, exp) * np.log(base)

    def partial2(self, i, j, base, exp):
        if i == 0 and j == 0:
            return exp * (exp - 1) * np.power(base, exp - 2)
        if i == 1 and j == 1:
            return np.power(base, exp) * np.log(base) ** 2
        return np.power(base, exp - 1) * (1 + exp * np.log(base))


class _ADAbs(_Elementwise):
    name = 'abs'

    def n_args(self):
        return 1

    def eval(self, x):
        return np.abs(x)

    def partial(self, arg, x):
        return np.sign(x)

    def partial2(self, i, j, x):
        return 0


class _ADSum(ADFunctionInterface):
    def __str__(self):
        return 'sum'

    def n_args(self):
        return -1

    def n_in(self, arg):
        return -1

    def n_out(self):
        return -1

    def eval(self, *args):
        if len(args) == 0:
            raise ValueError("sum_ needs at least one argument")
        if len(args) == 1:
            return np.sum(args[0])
        total = args[0]
        for a in args[1:]:
            total = total + a
        return total

    def derivative(self, arg, *args):
        if len(args) == 1:
            return np.ones((1, _size(args[0])))
        return _broadcast_jacobian(1.0, args[arg], _out_size(*args))

    def jvp(self, arg, darg, *args):
        if len(args) == 1:
            return np.sum(darg)
        return np.broadcast_to(np.asarray(darg, dtype=float), (_out_size(*args),)).copy() \
            if _scalar(args[arg]) else darg

    def vjp(self, arg, dout, *args):
        if len(args) == 1:
            return np.full(_size(args[0]), np.asarray(dout).reshape(-1)[0])
        return _reduce_to(args[arg], dout)

    def gen_derivative(self, arg, *args):
        if len(arg) == 1:
            return self.derivative(arg[0], *args)
        return 0


class _ADGetItem(ADFunctionInterface):
    def __init__(self, indices):
        self.indices = indices

    def __str__(self):
        return 'getitem[' + str(self.indices) + ']'

    def n_args(self):
        return 1

    def n_in(self, arg):
        return -1

    def n_out(self):
        return -1

    def _selection(self, size):
        return np.arange(size)[self.indices]

    def eval(self, x):
        if _scalar(x):
            raise ValueError("Can't index a scalar")
        return x[self.indices]

    def derivative(self, arg, x):
        sel = np.atleast_1d(self._selection(_size(x)))
        res = np.zeros((sel.shape[0], _size(x)))
        res[np.arange(sel.shape[0]), sel] = 1.0
        return res

    def jvp(self, arg, dx, x):
        return dx[self.indices]

    def vjp(self, arg, dout, x):
        res = np.zeros(_size(x))
        np.add.at(res, np.atleast_1d(self._selection(_size(x))), np.asarray(dout, dtype=float).reshape(-1))
        return res

    def gen_derivative(self, arg, x):
        if len(arg) == 1:
            return self.derivative(arg[0], x)
        return 0


class _ADSetItem(ADFunctionInterface):
    def __init__(self, indices):
        self.indices = indices

    def __str__(self):
        return 'setitem[' + str(self.indices) + ']'

    def argname(self, arg):
        return ['x', 'v'][arg]

    def n_args(self):
        return 2

    def n_in(self, arg):
        if arg == 1 and isinstance(self.indices, (int, np.integer)):
            return 1
        if arg == 1 and isinstance(self.indices, (list, tuple, np.ndarray)):
            return len(self.indices)
        return -1

    def n_out(self):
        return -1

    def eval(self, x, v):
        res = np.array(x, dtype=float, copy=True)
        res[self.indices] = v
        return res

    def _mask(self, x):
        keep = np.ones(_size(x))
        keep[self.indices] = 0.0
        return keep

    def derivative(self, arg, x, v):
        if arg == 0:
            return np.diag(self._mask(x))
        sel = np.atleast_1d(np.arange(_size(x))[self.indices])
        res = np.zeros((_size(x), _size(v)))
        if _scalar(v):
            res[sel, 0] = 1.0
        else:
            res[sel, np.arange(sel.shape[0])] = 1.0
        return res

    def jvp(self, arg, darg, x, v):
        if arg == 0:
            return self._mask(x) * darg
        res = np.zeros(_size(x))
        res[self.indices] = darg
        return res

    def gen_derivative(self, arg, x, v):
        if len(arg) == 1:
            return self.derivative(arg[0], x, v)
        return 0


class _ADStack(ADFunctionInterface):
    def __str__(self):
        return 'stack'

    def n_args(self):
        return -1

    def n_in(self, arg):
        return -1

    def n_out(self):
        return -1

    def eval(self, *args):
        return np.hstack([np.atleast_1d(a) for a in args]).astype(float)

    def _offset(self, arg, args):
        return sum(_size(a) for a in args[:arg])

    def derivative(self, arg, *args):
        total = sum(_size(a) for a in args)
        start = self._offset(arg, args)
        res = np.zeros((total, _size(args[arg])))
        res[start:start + _size(args[arg]), :] = np.eye(_size(args[arg]))
        return res

    def jvp(self, arg, darg, *args):
        res = np.zeros(sum(_size(a) for a in args))
        start = self._offset(arg, args)
        res[start:start + _size(args[arg])] = darg
        return res

    def vjp(self, arg, dout, *args):
        start = self._offset(arg, args)
        return np.asarray(dout, dtype=float)[start:start + _size(args[arg])]

    def gen_derivative(self, arg, *args):
        if len(arg) == 1:
            return self.derivative(arg[0], *args)
        return 0


class _ADSelect(ADFunctionInterface):
    """Shared machinery of functions whose value picks, entry by entry, one
    of their arguments (min, max, conditionals): the derivative with respect
    to an argument is 1 on the entries it supplied."""

    def n_in(self, arg):
        return -1

    def n_out(self):
        return -1

    def chosen(self, *args):
        """Per output entry, the index of the argument supplying it."""
        raise NotImplementedError()

    def derivative(self, arg, *args):
        choice = np.atleast_1d(self.chosen(*args))
        n = choice.shape[0]
        x = args[arg]
        res = np.zeros((n, _size(x)))
        for k in range(n):
            if choice[k] == arg:
                res[k, 0 if _scalar(x) else k] = 1.0
        return res

    def jvp(self, arg, darg, *args):
        choice = np.atleast_1d(self.chosen(*args))
        d = np.broadcast_to(np.asarray(darg, dtype=float), choice.shape)
        return np.where(choice == arg, d, 0.0)

    def gen_derivative(self, arg, *args):
        if len(arg) == 1:
            return self.derivative(arg[0], *args)
        return 0


class _ADExtremum(_ADSelect):
    def __init__(self, name, better):
        self.name = name
        self.better = better

    def __str__(self):
        return self.name

    def n_args(self):
        return -1

    def eval(self, *args):
        if len(args) == 0:
            raise ValueError("Can't take a %s with 0 arguments" % self.name)
        if len(args) == 1:
            if _scalar(args[0]):
                raise ValueError("Can't take a %s over a single scalar" % self.name)
            return args[0][self._single_index(args[0])]
        res = args[0]
        for a in args[1:]:
            res = np.where(self.better(a, res), a, res)
        return res if np.ndim(res) else float(res)

    def _single_index(self, x):
        return int(np.argmin(x)) if self.name == 'minimum' else int(np.argmax(x))

    def chosen(self, *args):
        if len(args) == 1:
            return 0
        n = _out_size(*args)
        res = np.zeros(n, dtype=int)
        best = np.broadcast_to(np.asarray(args[0], dtype=float), (n,)).copy()
        for i, a in enumerate(args[1:], 1):
            a = np.broadcast_to(np.asarray(a, dtype=float), (n,))
            better = self.better(a, best)
            res[better] = i
            best = np.where(better, a, best)
        return res

    def derivative(self, arg, *args):
        if len(args) == 1:
            res = np.zeros((1, _size(args[0])))
            res[0, self._single_index(args[0])] = 1.0
            return res
        return _ADSelect.derivative(self, arg, *args)

    def jvp(self, arg, darg, *args):
        if len(args) == 1:
            return darg[self._single_index(args[0])]
        return _ADSelect.jvp(self, arg, darg, *args)


def _check_sizes(name, pred, *values):
    for v in values:
        if not _scalar(v) and _size(v) != _size(pred):
            raise ValueError("%s: an array predicate needs values of its size (or scalars)" % name)


class _ADCond(_ADSelect):
    def __str__(self):
        return 'cond'

    def argname(self, arg):
        return ['pred', 'posval', 'negval'][arg]

    def n_args(self):
        return 3

    def chosen(self, pred, posval, negval):
        n = _out_size(pred, posval, negval)
        return np.where(np.broadcast_to(np.asarray(pred, dtype=float), (n,)) > 0, 1, 2)

    def eval(self, pred, posval, negval):
        if _scalar(pred):
            return posval if pred > 0 else negval
        _check_sizes('cond', pred, posval, negval)
        return np.where(pred > 0, posval, negval)


class _ADCond3(_ADSelect):
    def __str__(self):
        return 'cond3'

    def argname(self, arg):
        return ['pred', 'posval', 'zeroval', 'negval'][arg]

    def n_args(self):
        return 4

    def chosen(self, pred, posval, zeroval, negval):
        n = _out_size(pred, posval, zeroval, negval)
        p = np.broadcast_to(np.asarray(pred, dtype=float), (n,))
        return np.where(p > 0, 1, np.where(p == 0, 2, 3))

    def eval(self, pred, posval, zeroval, negval):
        if _scalar(pred):
            return posval if pred > 0 else (zeroval if pred == 0 else negval)
        _check_sizes('cond3', pred, posval, zeroval, negval)
        return np.where(pred > 0, posval, np.where(pred == 0, zeroval, negval))


add = _ADAdd()
"""Autodiff addition, also made by the + operator on expressions."""

sub = _ADSub()
"""Autodiff subtraction, also made by the - operator on expressions."""

mul = _ADMul()
"""Autodiff elementwise multiplication, also made by the * operator."""

div = _ADDiv()
"""Autodiff elementwise division, also made by the / operator."""

neg = _ADNeg()
"""Autodiff negation, also made by the unary - operator."""

sum_ = _ADSum()
"""Autodiff sum: like np.sum with one argument, otherwise the elementwise
sum of all arguments (like the builtin sum)."""

pow_ = _ADPow()
"""Autodiff np.power, also made by the ** operator."""

abs_ = _ADAbs()
"""Autodiff absolute value, also made by abs() on expressions."""

stack = _ADStack()
"""Autodiff concatenation of scalars and 1D arrays into one 1D array."""

minimum = _ADExtremum('minimum', lambda a, b: a < b)
"""Autodiff minimum: the smallest entry of a single array, or the
elementwise np.minimum of several arguments, applied sequentially."""

maximum = _ADExtremum('maximum', lambda a, b: a > b)
"""Autodiff maximum: the largest entry of a single array, or the
elementwise np.maximum of several arguments, applied sequentially."""

cond = _ADCond()
"""Autodiff conditional ``cond(pred, posval, negval)``: posval where
pred > 0, negval otherwise (elementwise for an array pred)."""

cond3 = _ADCond3()
"""Autodiff conditional ``cond3(pred, posval, zeroval, negval)``: posval
where pred > 0, zeroval where pred == 0, negval otherwise."""


def getitem(a, index):
    """Autodiff indexing ``a[index]`` (index is a constant int, slice or
    list), also made by [] on expressions."""
    return _ADGetItem(index)(a)


def setitem(x, index, v):
    """Autodiff copy of x with ``x[index] = v``; x itself is not modified.
    The index is a constant."""
    return _ADSetItem(index)(x, v)


_ad_graph.operators.__dict__.update(neg=neg, add=add, sub=sub, mul=mul, div=div, pow_=pow_, getitem=getitem,
                                    abs_=abs_)
