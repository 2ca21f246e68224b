"""Vector fields f(x) for :mod:`klampt.math.rootfind`: subclass
:class:`VectorFieldFunction` (set ``n`` and ``m``, override ``eval`` and
usually ``jacobian``), or stack several with
:class:`CompositeVectorFieldFunction`."""


class VectorFieldFunction:
    """A function f from R^n to R^m, whose roots f(x) = 0
    :func:`klampt.math.rootfind.findRoots` solves for.

    Subclasses set ``self.n`` (variables) and ``self.m`` (functions) and
    override :meth:`eval`; :meth:`jacobian` defaults to centered differences.
    """

    def __init__(self):
        self.n = 0
        self.m = 0

    def eval(self, x):
        """f(x), a list of m floats."""
        raise NotImplementedError("%s must override eval(x)" % type(self).__name__)

    def eval_i(self, x, i):
        """The i'th component of f(x)."""
        return self.eval(x)[i]

    def jacobian(self, x):
        """The m x n Jacobian of f at x, as a list of rows (one per function).
        By default, centered differences with step 1e-6."""
        return self.jacobian_numeric(x, 1e-6)

    def jacobian_ij(self, x, i, j):
        """The derivative of f's i'th component with respect to x[j]."""
        return self.jacobian(x)[i][j]

    def num_vars(self):
        """n, the dimension of x."""
        return self.n

    def num_fns(self):
        """m, the dimension of f(x)."""
        return self.m

    def jacobian_numeric(self, x, delta):
        """The centered-difference m x n Jacobian at x with step delta (a list
        of rows, as :meth:`jacobian`)."""
        x = [float(v) for v in x]
        columns = []
        for j, xj in enumerate(x):
            x[j] = xj - delta
            lo = self.eval(x)
            x[j] = xj + delta
            hi = self.eval(x)
            x[j] = xj
            columns.append([(b - a) / (2.0 * delta) for a, b in zip(lo, hi)])
        return [list(row) for row in zip(*columns)]


class CompositeVectorFieldFunction(VectorFieldFunction):
    """The functions of a list stacked into one: f(x) = (f1(x), f2(x), ...),
    all of the same variables."""

    def __init__(self, fns):
        if not fns:
            raise ValueError("a composite needs at least one function")
        self.fns = list(fns)
        self.n = self.fns[0].num_vars()
        for f in self.fns:
            if f.num_vars() != self.n:
                raise ValueError("the functions of a composite must take the same number of variables")
        self.m = sum(f.num_fns() for f in self.fns)

    def _locate(self, i):
        if 0 <= i < self.m:
            for f in self.fns:
                if i < f.num_fns():
                    return f, i
                i -= f.num_fns()
        raise IndexError("function index must be in [0, %d), got %d" % (self.m, i))

    def eval(self, x):
        """The stacked values of the functions."""
        out = []
        for f in self.fns:
            out += list(f.eval(x))
        return out

    def eval_i(self, x, i):
        """The i'th stacked component."""
        f, k = self._locate(i)
        return f.eval_i(x, k)

    def jacobian(self, x):
        """The stacked Jacobian rows of the functions."""
        out = []
        for f in self.fns:
            out += [list(row) for row in f.jacobian(x)]
        return out

    def jacobian_ij(self, x, i, j):
        """The derivative of the i'th stacked component with respect to x[j]."""
        f, k = self._locate(i)
        return f.jacobian_ij(x, k, j)
