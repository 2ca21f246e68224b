"""Expression graphs with forward- and reverse-mode automatic differentiation.

Calling an :class:`ADFunctionInterface` object on arguments does not compute
anything: it builds an :class:`ADFunctionCall` node of an expression DAG.
Arguments may be constants (scalars or 1D numpy arrays), variables (strings
or :func:`var` terminals) or other expressions.  The DAG is evaluated with
``expr.eval(x=...)`` and differentiated with ``expr.derivative('x', x=...)``
(forward mode) or ``expr.jacobian('x', x=...)`` / ``expr.gradient(x=...)`` /
``expr.vjp(w, x=...)`` (reverse mode: one backward sweep gives the
derivatives with respect to every variable).  Example::

    from klampt.math.autodiff.ad import var, mul
    import numpy as np
    mul('x', 'y').eval(x=2.0, y=np.array([3.0, 4.0]))   # array([6., 8.])

Every value is a scalar or a 1D array.  A derivative always has shape
``(size(f), size(x))``, with the size of a scalar being 1.  Shared
subexpressions (the same Python object used several times) are evaluated
once per call.

Python operators (+, -, *, /, **, unary -, abs, []) on terminals and
expressions build :data:`add`, :data:`sub`, :data:`mul`, :data:`div`,
:data:`pow_`, :data:`neg`, :data:`abs_` and :func:`getitem` nodes.  Vectors
are built from pieces with :data:`stack`.  :data:`sum_`, :data:`minimum` and
:data:`maximum` reduce a single array or combine several elementwise;
:data:`cond` and :data:`cond3` select values by the sign of a predicate, and
:func:`setitem` returns a copy of an array with some entries replaced.

New functions are made with :func:`function` (wrapping a Python callable and
optional derivatives) or by subclassing :class:`ADFunctionInterface`.  A
function may provide any of ``derivative`` (Jacobian), ``jvp``
(Jacobian-vector product), ``vjp`` (vector-Jacobian product) and
``gen_derivative`` (higher order); whatever is missing is derived from the
others, and central finite differences with step
:data:`FINITE_DIFFERENCE_RES` are the last resort.  :func:`check_derivatives`
compares all provided derivatives with finite differences.
"""


import inspect

import numpy as np

from ._ad_graph import (FINITE_DIFFERENCE_RES, ADFunctionInterface, ADTerminal, ADFunctionCall,  # noqa: F401
                        finite_differences, _size, _scalar, _is_zero, _as_vector, _like, _known, _jacobian,
                        _jvp)
# the operators are defined in their own module and exported from here
from ._ad_ops import (add, sub, mul, div, neg, sum_, pow_, abs_, stack,  # noqa: F401
                      getitem, setitem, minimum, maximum, cond, cond3)


class _ExpressionFunction(ADFunctionInterface):
    """A function whose value and derivatives are those of an expression in
    the variables argnames (used to define composite library functions)."""

    def __init__(self, name, expr, argnames, argsizes, outsize):
        self.name = name
        self.expr = expr
        self.argnames = list(argnames)
        self.argsizes = list(argsizes)
        self.outsize = outsize

    def __str__(self):
        return self.name

    def argname(self, arg):
        return self.argnames[arg]

    def n_args(self):
        return len(self.argnames)

    def n_in(self, arg):
        return self.argsizes[arg]

    def n_out(self):
        return self.outsize

    def _bind(self, args):
        return dict(zip(self.argnames, args))

    def eval(self, *args):
        return self.expr.eval(**self._bind(args))

    def derivative(self, arg, *args):
        return self.expr.derivative(self.argnames[arg], **self._bind(args))

    def gen_derivative(self, arg, *args):
        if len(arg) == 1:
            return self.derivative(arg[0], *args)
        if len(arg) != 2:
            raise NotImplementedError()
        names = [self.argnames[a] for a in arg]
        return self.expr._second_derivative(names[0], names[1], self._bind(args))


def var(x):
    """Creates a variable symbol named x."""
    return ADTerminal(x)


def function(func, name='auto', argspec='auto', outspec=None, argnames=None,
             derivative=None, jvp=None, gen_derivative=None, order=None, vjp=None):
    """Makes an :class:`ADFunctionInterface` instance that calls the Python
    function func.

    Args:
        func (callable): the function, taking scalars / 1D arrays.
        name (str): the printed name; 'auto' uses ``func.__name__``.
        argspec (list of int or 'auto'): the argument sizes (-1 for any);
            'auto' takes the number of arguments from func's signature.
        outspec (int, optional): the result's size.
        argnames (list of str, optional): argument names for messages.
        derivative (callable or list): either ``J(arg, *args)`` or a list
            of ``J_i(*args)``, each returning a Jacobian (or None entries).
        jvp (callable or list): either ``Jdx(arg, darg, *args)`` or a list
            of ``Jdx_i(darg, *args)``.
        gen_derivative (callable, list or dict): higher-order derivatives:
            a callable ``(arg_list, *args)``; for a one-argument function a
            list ``[second, third, ...]`` of callables ``(*args)``; or a
            dict from index tuples to callables ``(*args)``.
        order (int, optional): derivatives above this order are zero.
        vjp (callable or list): either ``(arg, dout, *args)`` or a list of
            ``(dout, *args)`` vector-Jacobian products.
    """
    if name == 'auto':
        name = getattr(func, '__name__', None)
        if name is None:
            raise ValueError("Could not get the name of the function; pass name=")
    if argspec == 'auto':
        params = inspect.signature(func).parameters.values()
        if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            raise ValueError("Can't handle a variable number of arguments with argspec='auto'")
        argspec = [-1] * len(params)
    argspec = list(argspec)
    if argnames is not None and len(argnames) != len(argspec):
        raise ValueError("Invalid number of argument names provided")

    def from_list(lst):
        def call(arg, *rest):
            f = lst[arg] if arg < len(lst) else None
            if f is None:
                raise NotImplementedError()
            return f(*rest)
        return call
    if derivative is not None and not callable(derivative):
        derivative = from_list(list(derivative))
    if jvp is not None and not callable(jvp):
        jvp = from_list(list(jvp))
    if vjp is not None and not callable(vjp):
        vjp = from_list(list(vjp))

    def first_order(arg, *args):
        if derivative is None:
            raise NotImplementedError()
        return derivative(arg, *args)
    gen = gen_derivative
    if isinstance(gen_derivative, dict):
        table = dict(gen_derivative)

        def gen(arg, *args):
            if len(arg) == 1:
                return first_order(arg[0], *args)
            if tuple(arg) in table:
                return table[tuple(arg)](*args)
            if order is not None and len(arg) > order:
                return 0
            raise NotImplementedError()
    elif gen_derivative is not None and not callable(gen_derivative):
        if len(argspec) > 1:
            raise ValueError("A list of higher-order derivatives needs a single-argument function")
        higher = list(gen_derivative)

        def gen(arg, *args):
            if len(arg) == 1:
                return first_order(arg[0], *args)
            k = len(arg) - 2
            if k < len(higher) and higher[k] is not None:
                return higher[k](*args)
            if order is not None and len(arg) > order:
                return 0
            raise NotImplementedError()
    elif gen_derivative is None and order is not None:
        def gen(arg, *args):
            if len(arg) > order:
                return 0
            if len(arg) == 1:
                return first_order(arg[0], *args)
            raise NotImplementedError()

    def toarray(res):
        return res if _scalar(res) else np.asarray(res, dtype=float)

    members = {
        '__doc__': func.__doc__ or "Autodiff wrapper of %s." % name,
        '__str__': lambda self: name,
        'eval': lambda self, *args: toarray(func(*args)),
        'n_args': lambda self: len(argspec),
        'n_in': lambda self, arg: argspec[arg],
    }
    if outspec is not None:
        members['n_out'] = lambda self: outspec
    if derivative is not None:
        members['derivative'] = lambda self, arg, *args: toarray(derivative(arg, *args))
    if jvp is not None:
        members['jvp'] = lambda self, arg, darg, *args: toarray(jvp(arg, darg, *args))
    if vjp is not None:
        members['vjp'] = lambda self, arg, dout, *args: toarray(vjp(arg, dout, *args))
    if gen is not None:
        members['gen_derivative'] = lambda self, arg, *args: toarray(gen(arg, *args))
    if argnames is not None:
        members['argname'] = lambda self, arg: argnames[arg]
    cls = type("_ad_" + str(name).replace('.', '_'), (ADFunctionInterface,), members)
    return cls()


def _fd_mixed(g, nx, ny, hx, hy):
    """Central mixed second differences of g(dx, dy) at dx = dy = 0."""
    res = None
    for i in range(nx):
        ei = np.zeros(nx)
        ei[i] = hx
        for j in range(ny):
            ej = np.zeros(ny)
            ej[j] = hy
            d = (g(ei, ej) - g(ei, -ej) - g(-ei, ej) + g(-ei, -ej)) / (4 * hx * hy)
            if res is None:
                res = np.empty((d.shape[0], nx, ny))
            res[:, i, j] = d
    return res


def finite_differences_hessian(f, x, h):
    """Central-difference approximation of the second derivative of f at x,
    of shape ``(size(f(x)), size(x), size(x))``."""
    xv = _as_vector(x)
    n = xv.shape[0]
    return _fd_mixed(lambda a, b: _as_vector(f(_like(xv + a + b, x))), n, n, h, h)


def finite_differences_hessian2(f, x, y, hx, hy=None):
    """Central-difference approximation of the mixed second derivative of
    f(x, y), of shape ``(size(f), size(x), size(y))``."""
    hy = hx if hy is None else hy
    xv, yv = _as_vector(x), _as_vector(y)
    return _fd_mixed(lambda a, b: _as_vector(f(_like(xv + a, x), _like(yv + b, y))),
                     xv.shape[0], yv.shape[0], hx, hy)


def _assert_close(what, got, want, rtol, atol):
    got = np.zeros(np.shape(want)) if _is_zero(got) else np.asarray(got, dtype=float)
    if got.size == np.size(want):
        got = got.reshape(np.shape(want))
    if got.shape != np.shape(want):
        raise AssertionError("%s did not produce the correct shape: %s vs %s" % (what, got.shape, np.shape(want)))
    if not np.allclose(got, want, rtol=rtol, atol=atol):
        raise AssertionError("%s has an error of size %g (finite differences %s, computed %s)"
                             % (what, np.linalg.norm(got - want), want, got))


def check_derivatives(f, x, h=1e-6, rtol=1e-2, atol=1e-3):
    """Checks derivatives against central finite differences; raises
    AssertionError on a mismatch and returns True otherwise.

    If f is an :class:`ADFunctionCall`, x is a dict of variable values and
    the forward-mode derivative and reverse-mode Jacobian with respect to
    every variable are checked.  If f is an :class:`ADFunctionInterface`, x
    is the list of its arguments and every implemented derivative, jvp, vjp
    and second-order gen_derivative is checked.
    """
    if isinstance(f, ADFunctionCall):
        if not isinstance(x, dict):
            raise ValueError("If a function call is provided to check_derivatives, then x must be a dict of keyword arguments")
        for k, v in x.items():
            def replaced(y, k=k):
                kw = dict(x)
                kw[k] = y
                return f.eval(**kw)
            fd = finite_differences(replaced, v, h)
            _assert_close("derivative of %s w.r.t. %s" % (f, k), f.derivative(k, **x), fd, rtol, atol)
            _assert_close("reverse-mode jacobian of %s w.r.t. %s" % (f, k), f.jacobian(k, **x), fd, rtol, atol)
        return True
    if not isinstance(f, ADFunctionInterface):
        raise ValueError("f must be a ADFunctionCall or ADFunctionInterface")
    x = list(x)
    na = _known(f.n_args)
    if na >= 0 and na != len(x):
        raise AssertionError("Invalid number of arguments provided to %s: %d != %d" % (str(f), len(x), na))

    def with_arg(i, y):
        return x[:i] + [y] + x[i + 1:]
    rng = np.random.default_rng(0)
    for i, v in enumerate(x):
        fd = finite_differences(lambda y: f.eval(*with_arg(i, y)), v, h)
        name = "%s w.r.t. %s" % (str(f), f.argname(i))
        try:
            _assert_close("derivative of " + name, f.derivative(i, *x), fd, rtol, atol)
        except NotImplementedError:
            pass
        direction = rng.uniform(-1, 1, _size(v))
        try:
            _assert_close("Jacobian-vector product of " + name,
                          _jvp(f, i, direction, x), fd @ direction, rtol, atol)
        except NotImplementedError:
            pass
        w = rng.uniform(-1, 1, fd.shape[0])
        try:
            got = f.vjp(i, w, *x)
            _assert_close("vector-Jacobian product of " + name, got, w @ fd, rtol, atol)
        except NotImplementedError:
            pass
        for j, u in enumerate(x):
            try:
                got = f.gen_derivative([i, j], *x)
            except NotImplementedError:
                continue
            if i == j:
                want = finite_differences_hessian(lambda y: f.eval(*with_arg(i, y)), v, 1e-4)
            else:
                def g(a, b, i=i, j=j):
                    args = list(x)
                    args[i] = a
                    args[j] = b
                    return f.eval(*args)
                want = finite_differences_hessian2(g, v, u, 1e-4)
            _assert_close("second derivative of %s w.r.t. %s,%s" % (str(f), f.argname(i), f.argname(j)),
                          got, want, rtol, atol)
    return True


def eval_multiple(exprs, **kwargs):
    """Evaluates several expressions at once, sharing common
    subexpressions; returns the list of values."""
    values, argvals = {}, {}
    for e in exprs:
        e._evaluate_all(kwargs, values, argvals)
    return [values[id(e)] for e in exprs]


def derivative_multiple(exprs, arg, **kwargs):
    """Forward-mode derivatives of several expressions with respect to the
    variable arg, sharing common subexpressions; returns a list of
    Jacobians."""
    values, argvals, tangents = {}, {}, {}
    for e in exprs:
        e._evaluate_all(kwargs, values, argvals)
    res = []
    for e in exprs:
        t = e._forward(arg, kwargs, values, argvals, tangents)[id(e)]
        res.append(np.zeros((_size(values[id(e)]), _size(kwargs[arg]))) if t is None else t)
    return res
