"""The expression graph of :mod:`klampt.math.autodiff.ad`: the function
interface, terminals and function calls, with their evaluation and forward-
and reverse-mode derivatives (finite differences where a function gives
none)."""

import types

import numpy as np

FINITE_DIFFERENCE_RES = 1e-6
"""The step used for finite differences when a function has no derivative."""


def _size(a):
    """Number of entries of a scalar (1) or 1D array."""
    if isinstance(a, (list, tuple)):
        raise ValueError("Can't pass a list as an argument. Try wrapping args with np.array.")
    if np.ndim(a) == 0:
        return 1
    return np.shape(a)[0]


def _scalar(a):
    """True if a is a scalar (0-dimensional)."""
    return np.ndim(a) == 0


def _is_zero(d):
    """Functions may return the integer 0 for an all-zero derivative."""
    return isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d == 0


def _as_vector(v):
    """A scalar or 1D value as a float 1D array."""
    return np.atleast_1d(np.asarray(v, dtype=float))


def _like(value, template):
    """value (1D) shaped like template: a scalar if template is a scalar."""
    if _scalar(template):
        return float(np.asarray(value).reshape(-1)[0])
    return np.asarray(value, dtype=float).reshape(np.shape(template))


def _context_equal(a, b):
    if a.keys() != b.keys():
        return False
    return all(a[k] is b[k] or np.array_equal(a[k], b[k]) for k in a)


class ADFunctionInterface:
    """Base class of an auto-differentiable function
    :math:`f(x_0,\\ldots,x_k)` whose arguments and value are scalars or 1D
    numpy arrays.

    Subclasses implement :meth:`n_args` and :meth:`eval`, and optionally
    :meth:`n_in`, :meth:`n_out`, :meth:`argname` and any of the derivative
    methods :meth:`derivative`, :meth:`jvp`, :meth:`vjp` and
    :meth:`gen_derivative`.  Unimplemented methods raise NotImplementedError,
    which the expression machinery handles by falling back to the others.

    Instances are called like functions to build expressions; by convention
    CapitalizedNames are classes to instantiate with data (e.g.
    ``WorldPosition(link, localPos)``) and lowercase names are ready-made
    instances (e.g. ``math_ad.sin``).
    """

    def __str__(self):
        """A descriptive name of this function."""
        return self.__class__.__name__

    def argname(self, arg):
        """A descriptive name of argument #arg."""
        return "Arg %d" % (arg,)

    def n_args(self):
        """The number of arguments, or -1 for a variable number."""
        raise NotImplementedError()

    def n_in(self, arg):
        """The size of argument #arg (1 may be a scalar), or -1 if any size
        is accepted."""
        raise NotImplementedError()

    def n_out(self):
        """The size of the result, or -1 if it varies."""
        raise NotImplementedError()

    def eval(self, *args):
        """Evaluates the function on instantiated (numeric) arguments."""
        raise NotImplementedError()

    def derivative(self, arg, *args):
        """The Jacobian with respect to argument #arg, an array of shape
        ``(n_out, n_in(arg))`` (2D even for scalars), or 0 if it is zero."""
        raise NotImplementedError()

    def jvp(self, arg, darg, *args):
        """The Jacobian-vector product ``df/dx_arg . darg``, where darg has
        the shape of argument #arg; returns a value of the result's size."""
        raise NotImplementedError()

    def vjp(self, arg, dout, *args):
        """The vector-Jacobian product ``dout^T . df/dx_arg`` (reverse mode),
        where dout is a 1D array of the result's size; returns a 1D array of
        the size of argument #arg, or 0 if it is zero."""
        raise NotImplementedError()

    def gen_derivative(self, arg, *args):
        """Higher-order derivative: arg is a list of argument indices, e.g.
        ``[0, 1]`` for :math:`\\partial^2 f / \\partial x_0 \\partial x_1`.
        Returns a tensor of shape ``(n_out, n_in(arg[0]), ..., n_in(arg[-1]))``
        or 0 if it is zero."""
        raise NotImplementedError()

    def __call__(self, *args):
        """Builds the expression node applying this function to args."""
        try:
            na = self.n_args()
        except NotImplementedError:
            na = -1
        if na >= 0 and len(args) != na:
            raise ValueError("Invalid number of arguments to function %s, wanted %d, got %d"
                             % (str(self), na, len(args)))
        return ADFunctionCall(self, args)


def _known(method, *args):
    """Calls a size query, mapping NotImplementedError to -1 (unknown)."""
    try:
        return method(*args)
    except NotImplementedError:
        return -1


# The operator functions (add, mul, getitem, ...) that expressions' Python
# operators call. They are ADFunctionInterface subclasses' instances defined
# in _ad_ops, which builds on this module, so _ad_ops fills this table in when
# it is imported (klampt.math.autodiff.ad imports it).
operators = types.SimpleNamespace()

class _Operators:
    """Python operator overloads shared by terminals and function calls."""

    # makes numpy arrays defer to the reflected operators (array * expr)
    __array_ufunc__ = None

    def __neg__(self):
        return operators.neg(self)

    def __add__(self, rhs):
        return operators.add(self, rhs)

    def __sub__(self, rhs):
        return operators.sub(self, rhs)

    def __mul__(self, rhs):
        return operators.mul(self, rhs)

    def __truediv__(self, rhs):
        return operators.div(self, rhs)

    def __pow__(self, rhs):
        return operators.pow_(self, rhs)

    def __radd__(self, lhs):
        return operators.add(lhs, self)

    def __rsub__(self, lhs):
        return operators.sub(lhs, self)

    def __rmul__(self, lhs):
        return operators.mul(lhs, self)

    def __rtruediv__(self, lhs):
        return operators.div(lhs, self)

    def __rpow__(self, lhs):
        return operators.pow_(lhs, self)

    def __getitem__(self, index):
        return operators.getitem(self, index)

    def __abs__(self):
        return operators.abs_(self)


class ADTerminal(_Operators):
    """A named variable whose value is bound when an expression is evaluated.
    Usually made with :func:`var`."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name

    def __repr__(self):
        return "var(%r)" % (self.name,)


class ADFunctionCall(_Operators):
    """A node of an expression DAG: func applied to args (constants,
    :class:`ADTerminal` variables or other calls)."""

    def __init__(self, func, args):
        self.func = func
        self.args = list(args)
        for i, arg in enumerate(self.args):
            if isinstance(arg, str):
                self.args[i] = ADTerminal(arg)
            elif isinstance(arg, ADTerminal):
                pass
            elif isinstance(arg, ADFunctionInterface):
                raise ValueError("Can't pass a ADFunctionInterface directly as an argument")
            elif isinstance(arg, ADFunctionCall):
                nin = _known(func.n_in, i)
                narg = _known(arg.func.n_out)
                if nin >= 0 and narg >= 0 and nin != narg:
                    raise ValueError("Invalid size of argument %s=%s to function %s: %d != %d"
                                     % (func.argname(i), str(arg), str(func), narg, nin))
            else:
                if isinstance(arg, (list, tuple)):
                    self.args[i] = arg = np.asarray(arg, dtype=float)
                if np.ndim(arg) > 1:
                    raise ValueError("Argument %s of %s must be a scalar or 1D array"
                                     % (func.argname(i), str(func)))
                nin = _known(func.n_in, i)
                if nin >= 0 and _size(arg) != nin:
                    raise ValueError("Function %s expected %s to have size %d, instead got %d"
                                     % (str(func), func.argname(i), nin, _size(arg)))

    def __str__(self):
        order = self._topological()
        uses = {}
        for node in order:
            for a in node.args:
                if isinstance(a, ADFunctionCall):
                    uses[id(a)] = uses.get(id(a), 0) + 1
        labels = {}
        printed = set()

        def text(node):
            if id(node) in printed:
                return '@' + str(labels[id(node)])
            parts = []
            for a in node.args:
                parts.append(text(a) if isinstance(a, ADFunctionCall) else str(a))
            s = str(node.func) + '(' + ','.join(parts) + ')'
            printed.add(id(node))
            if uses.get(id(node), 0) > 1:
                labels[id(node)] = len(labels)
                s += '#' + str(labels[id(node)])
            return s
        return text(self)

    def __repr__(self):
        return str(self)

    # ---- graph traversal -------------------------------------------------

    def _topological(self):
        """Nodes of the DAG below and including self, children first."""
        order, seen = [], set()
        todo = [(self, False)]
        while todo:
            node, done = todo.pop()
            if done:
                order.append(node)
                continue
            if id(node) in seen:
                continue
            seen.add(id(node))
            todo.append((node, True))
            for a in reversed(node.args):
                if isinstance(a, ADFunctionCall) and id(a) not in seen:
                    todo.append((a, False))
        return order

    def terminals(self, sort=False):
        """Names of the variables of this expression, in order of first
        appearance (alphabetical if sort=True)."""
        res = []
        for node in self._topological():
            for a in node.args:
                if isinstance(a, ADTerminal) and a.name not in res:
                    res.append(a.name)
        return sorted(res) if sort else res

    def replace(self, **kwargs):
        """Returns an expression with the named variables replaced by the
        given values or expressions, e.g.
        ``(var('x')**2 + var('y')).replace(x=var('z'), y=3)``."""
        memo = {}
        for node in self._topological():
            changed = False
            newargs = []
            for a in node.args:
                if isinstance(a, ADTerminal) and a.name in kwargs:
                    newargs.append(kwargs[a.name])
                    changed = True
                elif isinstance(a, ADFunctionCall):
                    newargs.append(memo[id(a)])
                    changed = changed or newargs[-1] is not a
                else:
                    newargs.append(a)
            memo[id(node)] = ADFunctionCall(node.func, newargs) if changed else node
        return memo[id(self)]

    # ---- evaluation -------------------------------------------------------

    def _arg_values(self, values, kwargs):
        res = []
        for i, a in enumerate(self.args):
            if isinstance(a, ADTerminal):
                if a.name not in kwargs:
                    raise ValueError("Function argument " + a.name + " not present in arguments")
                v = kwargs[a.name]
                if isinstance(v, (list, tuple)):
                    v = np.asarray(v, dtype=float)
                if np.ndim(v) > 1:
                    raise ValueError("Variable %s is an array with more than 1 dimension; only scalars and 1D arrays are supported" % a.name)
            elif isinstance(a, ADFunctionCall):
                v = values[id(a)]
            else:
                v = a
            nin = _known(self.func.n_in, i)
            if nin >= 0 and _size(v) != nin:
                raise ValueError("Error evaluating %s: argument %d has expected size %d, instead got %d"
                                 % (str(self.func), i, nin, _size(v)))
            res.append(v)
        return res

    def _evaluate_all(self, kwargs, values=None, argvals=None):
        """Evaluates every node; returns dicts id -> value and id -> args."""
        values = {} if values is None else values
        argvals = {} if argvals is None else argvals
        for node in self._topological():
            if id(node) in values:
                continue
            args = node._arg_values(values, kwargs)
            try:
                res = node.func.eval(*args)
            except Exception as e:
                raise RuntimeError("Error running function %s: %s" % (str(node.func), e)) from e
            if isinstance(res, (list, tuple)):
                res = np.asarray(res, dtype=float)
            if np.ndim(res) > 1:
                raise ValueError("Function %s returned an array with more than 1 dimension" % str(node.func))
            no = _known(node.func.n_out)
            if no >= 0 and _size(res) != no:
                raise ValueError("Error evaluating %s: return value has expected size %d, instead got %d"
                                 % (str(node.func), no, _size(res)))
            values[id(node)] = res
            argvals[id(node)] = args
        return values, argvals

    def eval(self, **kwargs):
        """Evaluates the expression with variables bound by keyword, e.g.
        ``(3*var('x')**2 - 2*var('x')).eval(x=1.5)``."""
        values, _ = self._evaluate_all(kwargs)
        return values[id(self)]

    # ---- forward mode -----------------------------------------------------

    def _forward(self, arg, kwargs, values, argvals, tangents):
        """Propagates d(node)/d(arg) for every node (None means zero)."""
        if arg not in kwargs:
            raise ValueError("Variable %s is not given a value" % arg)
        nvar = _size(kwargs[arg])
        for node in self._topological():
            if id(node) in tangents:
                continue
            args = argvals[id(node)]
            total = None
            for i, a in enumerate(node.args):
                if isinstance(a, ADTerminal):
                    if a.name != arg:
                        continue
                    inc = _jacobian(node.func, i, args)
                elif isinstance(a, ADFunctionCall):
                    t = tangents[id(a)]
                    if t is None:
                        continue
                    inc = _jacobian_times(node.func, i, t, args)
                else:
                    continue
                total = inc if total is None else total + inc
            if total is not None:
                total = np.asarray(total, dtype=float).reshape((_size(values[id(node)]), nvar))
            tangents[id(node)] = total
        return tangents

    def derivative(self, arg, **kwargs):
        """The Jacobian of this expression with respect to the variable named
        arg, an array of shape ``(size(self), size(kwargs[arg]))``, computed
        in forward mode."""
        values, argvals = self._evaluate_all(kwargs)
        t = self._forward(arg, kwargs, values, argvals, {})[id(self)]
        if t is None:
            return np.zeros((_size(values[id(self)]), _size(kwargs[arg])))
        return t

    # ---- reverse mode -----------------------------------------------------

    def _reverse(self, seed, kwargs):
        """Backward sweep from an adjoint seed of shape (m, size(self));
        returns (value, {variable: adjoint of shape (m, size(variable))})."""
        values, argvals = self._evaluate_all(kwargs)
        order = self._topological()
        adjoints = {id(self): seed}
        result = {}
        for node in reversed(order):
            adj = adjoints.pop(id(node), None)
            if adj is None:
                continue
            args = argvals[id(node)]
            for i, a in enumerate(node.args):
                if not isinstance(a, (ADTerminal, ADFunctionCall)):
                    continue
                inc = _times_jacobian(node.func, i, adj, args)
                if inc is None:
                    continue
                if isinstance(a, ADTerminal):
                    result[a.name] = inc if a.name not in result else result[a.name] + inc
                else:
                    prev = adjoints.get(id(a))
                    adjoints[id(a)] = inc if prev is None else prev + inc
        return values[id(self)], result

    def jacobian(self, arg, /, **kwargs):
        """The same Jacobian as :meth:`derivative`, computed in reverse mode
        (one backward sweep seeded with the identity)."""
        if arg not in kwargs:
            raise ValueError("Variable %s is not given a value" % arg)
        value = self.eval(**kwargs)
        n = _size(value)
        _, adj = self._reverse(np.eye(n), kwargs)
        if arg not in adj:
            return np.zeros((n, _size(kwargs[arg])))
        return adj[arg]

    def vjp(self, w, /, **kwargs):
        """Reverse mode: returns a dict mapping each variable name to the
        vector-Jacobian product ``w^T . d(self)/d(variable)`` (a 1D array of
        the variable's size).  w has the size of this expression's value."""
        w = _as_vector(w)
        _, adj = self._reverse(w.reshape((1, -1)), kwargs)
        res = {}
        for name in self.terminals():
            if name in adj:
                res[name] = adj[name][0]
            else:
                res[name] = np.zeros(_size(kwargs[name]))
        return res

    def gradient(self, arg=None, /, **kwargs):
        """Gradient of a scalar expression by reverse mode: a 1D array for
        the variable arg, or a dict over all variables if arg is None."""
        value = self.eval(**kwargs)
        if _size(value) != 1:
            raise ValueError("gradient needs a scalar expression; use jacobian for %s" % str(self))
        res = self.vjp(np.ones(1), **kwargs)
        return res if arg is None else res.get(arg, np.zeros(_size(kwargs[arg])))

    # ---- higher order -----------------------------------------------------

    def gen_derivative(self, args, **kwargs):
        """Generalized derivative with respect to the list of variable names
        args: ``[]`` evaluates, ``['x']`` is :meth:`derivative`, and
        ``['x','y']`` gives the tensor :math:`\\partial^2 f/\\partial x\\partial y`
        of shape ``(size(f), size(x), size(y))``.  Second derivatives use the
        functions' ``gen_derivative`` where every node has one and central
        differences of the first derivative otherwise."""
        if len(args) == 0:
            return self.eval(**kwargs)
        if len(args) == 1:
            return self.derivative(args[0], **kwargs)
        if len(args) > 2:
            raise NotImplementedError("Derivatives above second order are not supported")
        u, v = args
        try:
            return self._second_derivative(u, v, kwargs)
        except NotImplementedError:
            pass
        x0 = kwargs[u]

        def deriv_v(x):
            kw = dict(kwargs)
            kw[u] = x
            return self.derivative(v, **kw).reshape(-1)
        fd = finite_differences(deriv_v, x0, FINITE_DIFFERENCE_RES)
        nf = _size(self.eval(**kwargs))
        return fd.reshape((nf, _size(kwargs[v]), _size(x0))).transpose((0, 2, 1))

    def _second_derivative(self, u, v, kwargs):
        values, argvals = self._evaluate_all(kwargs)
        tu = self._forward(u, kwargs, values, argvals, {})
        tv = self._forward(v, kwargs, values, argvals, {}) if v != u else tu
        nu, nv = _size(kwargs[u]), _size(kwargs[v])
        hess = {}

        def first(node, i, name, tang):
            a = node.args[i]
            if isinstance(a, ADTerminal):
                return np.eye(_size(argvals[id(node)][i])) if a.name == name else None
            if isinstance(a, ADFunctionCall):
                return tang[id(a)]
            return None
        for node in self._topological():
            args = argvals[id(node)]
            no = _size(values[id(node)])
            total = np.zeros((no, nu, nv))
            nonzero = False
            for i, a in enumerate(node.args):
                if isinstance(a, ADFunctionCall) and hess[id(a)] is not None:
                    h = hess[id(a)]
                    flat = h.reshape((h.shape[0], nu * nv))
                    total += _jacobian_times(node.func, i, flat, args).reshape((no, nu, nv))
                    nonzero = True
            for i in range(len(node.args)):
                di = first(node, i, u, tu)
                if di is None:
                    continue
                for j in range(len(node.args)):
                    dj = first(node, j, v, tv)
                    if dj is None:
                        continue
                    d2 = node.func.gen_derivative([i, j], *args)
                    if _is_zero(d2):
                        continue
                    d2 = np.asarray(d2, dtype=float).reshape((no, _size(args[i]), _size(args[j])))
                    total += np.einsum('oab,au,bv->ouv', d2, di, dj)
                    nonzero = True
            hess[id(node)] = total if nonzero else None
        res = hess[id(self)]
        return np.zeros((_size(values[id(self)]), nu, nv)) if res is None else res


def _fd_direction(func, i, args, direction):
    """Central difference of func along direction in argument i."""
    h = FINITE_DIFFERENCE_RES
    x = args[i]
    plus = list(args)
    minus = list(args)
    plus[i] = _like(_as_vector(x) + h * direction, x)
    minus[i] = _like(_as_vector(x) - h * direction, x)
    return (_as_vector(func.eval(*plus)) - _as_vector(func.eval(*minus))) / (2 * h)


def _jacobian(func, i, args):
    """Full Jacobian of func w.r.t. argument i, shape (size(out), size(arg))."""
    n = _size(args[i])
    try:
        d = func.derivative(i, *args)
        if _is_zero(d):
            return np.zeros((_size(func.eval(*args)), n))
        d = np.asarray(d, dtype=float)
        return d.reshape((-1, n))
    except NotImplementedError:
        pass
    cols = []
    try:
        for k in range(n):
            e = np.zeros(n)
            e[k] = 1.0
            cols.append(_jvp(func, i, e, args))
        return np.column_stack(cols)
    except NotImplementedError:
        pass
    try:
        return _vjp_jacobian(func, i, args)
    except NotImplementedError:
        pass
    cols = []
    for k in range(n):
        e = np.zeros(n)
        e[k] = 1.0
        cols.append(_fd_direction(func, i, args, e))
    return np.column_stack(cols)


def _jvp(func, i, direction, args):
    r = func.jvp(i, _like(direction, args[i]), *args)
    if _is_zero(r):
        return np.zeros(_size(func.eval(*args)))
    return _as_vector(r)


def _vjp_jacobian(func, i, args):
    """Jacobian assembled row by row from func.vjp."""
    m = _size(func.eval(*args))
    rows = []
    for k in range(m):
        e = np.zeros(m)
        e[k] = 1.0
        r = func.vjp(i, e, *args)
        rows.append(np.zeros(_size(args[i])) if _is_zero(r) else _as_vector(r))
    return np.vstack(rows)


def _jacobian_times(func, i, mat, args):
    """(df/dx_i) @ mat for a tangent matrix mat of shape (size(x_i), k)."""
    if mat.shape[1] == 1:
        try:
            return _jvp(func, i, mat[:, 0], args).reshape((-1, 1))
        except NotImplementedError:
            pass
        try:
            return _jacobian(func, i, args) @ mat
        except NotImplementedError:
            pass
        return _fd_direction(func, i, args, mat[:, 0]).reshape((-1, 1))
    return _jacobian(func, i, args) @ mat


def _times_jacobian(func, i, adj, args):
    """adj @ (df/dx_i) for an adjoint matrix adj of shape (m, size(f))."""
    n = _size(args[i])
    try:
        rows = []
        for r in adj:
            v = func.vjp(i, r, *args)
            rows.append(np.zeros(n) if _is_zero(v) else _as_vector(v))
        return np.vstack(rows)
    except NotImplementedError:
        pass
    return adj @ _jacobian(func, i, args)


def finite_differences(f, x, h=1e-6):
    """Central-difference approximation of the derivative of f at x (f and x
    scalar or 1D).  Returns an array of shape ``(size(f(x)), size(x))``."""
    xv = _as_vector(x)
    cols = []
    for i in range(xv.shape[0]):
        xp = xv.copy()
        xm = xv.copy()
        xp[i] += h
        xm[i] -= h
        cols.append((_as_vector(f(_like(xp, x))) - _as_vector(f(_like(xm, x)))) / (2 * h))
    return np.column_stack(cols)
