"""Newton-Raphson root finding for vector fields f(x) = 0, as Klamp't's
``rootfind`` module: set the field (a
:class:`~klampt.math.vectorfield.VectorFieldFunction`) with
:func:`setVectorField`, then call :func:`findRoots` or
:func:`findRootsBounded`.

Each iteration takes the least-squares Newton step (the minimum-norm
solution of J dx = -f, so fields with more or fewer functions than
variables work), halved until the norm of f decreases, and projected onto the bounds.
The settings are module-wide, as in Klamp't.

The step is NumPy's (LAPACK's) least-squares solve; the iteration is written
here because SciPy's solvers do not serve this contract: MINPACK's (``root``,
``least_squares(method='lm')``) need at least as many functions as
variables, and the trust-region ``least_squares(method='trf')``, on the
tests' fields, took 15 evaluations where one minimum-norm step lands on the
root, and left robot configurations off a one-constraint manifold.
"""
import math

import numpy as np

_DEFAULT_TOLF = 1e-4
_DEFAULT_TOLX = 1e-7
_state = {"field": None, "tolf": _DEFAULT_TOLF, "tolx": _DEFAULT_TOLX}

#: findRoots' status codes.
CONVERGED_X, CONVERGED_F, DIVERGED, LOCAL_MINIMUM, MAX_ITERATIONS, NUMERICAL_ERROR = range(6)


def setFTolerance(tolf: float) -> None:
    """Stops when every component of f(x) is within tolf of 0 (default 1e-4)."""
    _state["tolf"] = _positive(tolf, "tolf")


def setXTolerance(tolx: float) -> None:
    """Stops when a step changes no component of x by more than tolx (default 1e-7)."""
    _state["tolx"] = _positive(tolx, "tolx")


def _positive(value, name):
    value = float(value)
    if not value >= 0 or math.isinf(value):
        raise ValueError("%s must be a finite number >= 0, got %r" % (name, value))
    return value


def setVectorField(pVFObj) -> int:
    """Sets the vector field to solve (an object with num_vars(), num_fns(),
    eval(x) and jacobian(x), such as a VectorFieldFunction). Returns 0 when
    it is None (the field is cleared), 1 otherwise."""
    if pVFObj is None:
        _state["field"] = None
        return 0
    for method in ("num_vars", "num_fns", "eval", "jacobian"):
        if not callable(getattr(pVFObj, method, None)):
            raise TypeError("a vector field needs a %s() method (see klampt.math.vectorfield)" % method)
    _state["field"] = pVFObj
    return 1


def destroy() -> None:
    """Clears the vector field."""
    _state["field"] = None


def _field():
    field = _state["field"]
    if field is None:
        raise RuntimeError("rootfind: no vector field set (call setVectorField first)")
    return field


def _vector(values, n, what):
    try:
        x = np.array([float(v) for v in values])
    except (TypeError, ValueError):
        raise TypeError("rootfind: %s must be a sequence of numbers" % what) from None
    if x.shape != (n,):
        raise ValueError("rootfind: %s has %d values, the field has %d variables" % (what, len(x), n))
    return x


def _evaluate(field, x, m):
    f = np.asarray(field.eval([float(v) for v in x]), dtype=float).reshape(-1)
    if f.shape != (m,):
        raise ValueError("rootfind: the field's eval gave %d values, num_fns() is %d" % (f.size, m))
    return f


def findRoots(startVals, iter: int):
    """Solves f(x) = 0 from startVals for up to iter iterations. Returns
    (status, x, iterations) with status 0: converged in x (a step below the
    x tolerance), 1: converged in f, 2: diverged, 3: the gradient of ``|f|^2``
    vanished away from a root (a local minimum or saddle), 4: iter
    iterations reached, 5: a numerical error (a non-finite value)."""
    return _solve(startVals, None, iter)


def findRootsBounded(startVals, boundVals, iter: int):
    """As :func:`findRoots`, keeping x within boundVals, a (xmin, xmax) pair
    per variable."""
    n = _field().num_vars()
    try:
        pairs = [tuple(float(v) for v in pair) for pair in boundVals]
    except (TypeError, ValueError):
        raise TypeError("rootfind: the bounds must be (xmin, xmax) pairs of numbers") from None
    if len(pairs) != n or any(len(p) != 2 for p in pairs):
        raise ValueError("rootfind: the bounds need one (xmin, xmax) pair per variable (%d)" % n)
    lo, hi = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    if np.any(lo > hi):
        raise ValueError("rootfind: a bound's xmin is above its xmax")
    return _solve(startVals, (lo, hi), iter)


def _solve(startVals, bounds, iterations):
    field = _field()
    n, m = int(field.num_vars()), int(field.num_fns())
    x = _vector(startVals, n, "the start")
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 0:
        raise ValueError("rootfind: the iteration count must be an int >= 0, got %r" % (iterations,))
    tolf, tolx = _state["tolf"], _state["tolx"]
    project = (lambda v: np.clip(v, *bounds)) if bounds else (lambda v: v)
    x = project(x)
    f = _evaluate(field, x, m)
    for k in range(int(iterations)):
        if not np.all(np.isfinite(f)):
            return NUMERICAL_ERROR, x.tolist(), k
        if np.max(np.abs(f), initial=0.0) <= tolf:
            return CONVERGED_F, x.tolist(), k
        J = np.asarray(field.jacobian(x.tolist()), dtype=float).reshape(m, n)
        if not np.all(np.isfinite(J)):
            return NUMERICAL_ERROR, x.tolist(), k
        gradient = J.T @ f
        if np.linalg.norm(gradient) <= 1e-14 * max(1.0, np.linalg.norm(f)):
            return LOCAL_MINIMUM, x.tolist(), k
        step = np.linalg.lstsq(J, -f, rcond=None)[0]
        # halve the step until |f| decreases (a full step when it does)
        norm = f @ f
        for _ in range(30):
            candidate = project(x + step)
            fc = _evaluate(field, candidate, m)
            if np.all(np.isfinite(fc)) and fc @ fc < norm:
                break
            step = step * 0.5
        else:
            # no step along the Newton direction decreases |f|
            return (CONVERGED_X if np.max(np.abs(step)) <= tolx else LOCAL_MINIMUM), x.tolist(), k + 1
        moved = np.max(np.abs(candidate - x), initial=0.0)
        x, f = candidate, fc
        if np.max(np.abs(x)) > 1e100:
            return DIVERGED, x.tolist(), k + 1
        if moved <= tolx:
            return (CONVERGED_F if np.max(np.abs(f), initial=0.0) <= tolf else CONVERGED_X), x.tolist(), k + 1
    if np.all(np.isfinite(f)) and np.max(np.abs(f), initial=0.0) <= tolf:
        return CONVERGED_F, x.tolist(), int(iterations)
    return MAX_ITERATIONS, x.tolist(), int(iterations)
