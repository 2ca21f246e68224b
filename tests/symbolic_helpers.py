"""Helpers shared by the klampt.math.symbolic tests: Jacobians by central
differences and their comparison with symbolic derivatives."""
import numpy as np

from klampt.math.symbolic import expr, deriv


def central_jacobian(e, var, values, h=1e-6):
    """d flatten(e) / d flatten(var) at values (a dict of names to values) by
    central differences, as a (count(e), count(var)) matrix."""
    base = np.asarray(values[var.name], dtype=float)
    cols = []
    for i in range(base.size):
        d = np.zeros(base.size)
        d[i] = h
        vp, vm = dict(values), dict(values)
        vp[var.name] = (base.reshape(-1) + d).reshape(base.shape) if base.ndim else float(base + h)
        vm[var.name] = (base.reshape(-1) - d).reshape(base.shape) if base.ndim else float(base - h)
        fp = np.asarray(expr(e).evalf(vp), dtype=float).reshape(-1)
        fm = np.asarray(expr(e).evalf(vm), dtype=float).reshape(-1)
        cols.append((fp - fm) / (2 * h))
    return np.array(cols).T


def assert_jacobian(e, var, values, atol=1e-5):
    """deriv(e, var) evaluated at values equals the central differences; a
    zero derivative of an expression whose shape is only known after
    evaluation may be the scalar 0."""
    d = deriv(e, var)
    assert d is not None, (str(e), var.name)
    got = np.asarray(expr(d).evalf(values), dtype=float)
    fd = central_jacobian(e, var, values)
    if got.shape == () and got == 0 and expr(e).returnType().size is None:
        assert np.all(fd == 0), (str(e), var.name)
        return
    assert got.size == fd.size, (str(e), var.name, got.shape, fd.shape)
    assert np.allclose(got.reshape(fd.shape), fd, atol=atol), (str(e), var.name, got, fd)
