"""klampt.math.symbolic_linalg: values against numpy and Jacobians against
central differences (non-symmetric matrices included)."""
import numpy as np
import pytest

from klampt.math import symbolic_linalg as la
from klampt.math.symbolic import Context, expr, dot, transpose
from symbolic_helpers import assert_jacobian


@pytest.fixture
def setup():
    ctx = Context()
    x, y = ctx.addVar('x', 'V', 3), ctx.addVar('y', 'V', 3)
    A, t = ctx.addVar('A', 'M', (3, 3)), ctx.addVar('t', 'N')
    rng = np.random.default_rng(3)
    values = {'x': rng.normal(size=3), 'y': rng.normal(size=3), 'A': rng.normal(size=(3, 3)), 't': 0.3}
    return x, y, A, t, values


def test_values_match_numpy(setup):
    x, y, A, t, v = setup
    X, Y, M = v['x'], v['y'], v['A']
    checks = [(la.norm(x), np.linalg.norm(X)), (la.norm2(x), X @ X), (la.norm_L1(x), np.abs(X).sum()),
              (la.norm_Linf(x), np.abs(X).max()), (la.norm_fro(A), np.linalg.norm(M)), (la.norm2_fro(A), (M ** 2).sum()),
              (la.distance(x, y), np.linalg.norm(X - Y)), (la.distance2(x, y), (X - Y) @ (X - Y)),
              (la.distance_L1(x, y), np.abs(X - Y).sum()), (la.distance_Linf(x, y), np.abs(X - Y).max()),
              (la.unit(x), X / np.linalg.norm(X)), (la.inv(A), np.linalg.inv(M)), (la.pinv(A), np.linalg.pinv(M)),
              (la.linear(x, A), M @ X), (la.quadratic(x, A), X @ M @ X), (la.bilinear(x, A, y), X @ M @ Y),
              (la.mahalanobis_distance2(x, y, A), (X - Y) @ M @ (X - Y)),
              (la.bound_margin(y - 3, y + 3, x), np.min(np.minimum(X - Y + 3, Y + 3 - X)))]
    for e, ref in checks:
        assert np.allclose(e.evalf(v), ref), str(e)
    assert la.bound_contains(y - 3, y + 3, x).evalf(v) == bool(np.all(np.abs(X - Y) <= 3))
    assert la.bound_overlaps([0, 0], [1, 1], [0.5, 2], [3, 3]).evalf() is False
    assert la.bound_overlaps([0, 0], [1, 1], [0.5, 0.5], [3, 3]).evalf() is True


def test_jacobians_match_central_differences(setup):
    x, y, A, t, v = setup
    exprs = [la.norm(x), la.norm2(x * t), la.norm_L1(x), la.norm_Linf(x), la.norm_fro(A), la.norm2_fro(A * t),
             la.distance(x, y), la.distance2(x, y), la.distance_L1(x, y), la.distance_Linf(x, y), la.unit(x),
             la.inv(A), la.pinv(A), la.linear(x, A), la.quadratic(x, A), la.bilinear(x, A, y),
             la.mahalanobis_distance2(x, y, A), la.mahalanobis_distance(x, y, dot(transpose(A), A)),
             la.bound_margin(y - 3, y + 3, x), la.unit(x * t)]
    for e in exprs:
        for var in (x, y, A, t):
            assert_jacobian(e, var, v)


def test_linalg_context():
    ctx = Context()
    ctx.include(la.LinAlgContext(), 'linalg')
    assert 'linalg.norm' in ctx.customFunctions
    x = ctx.addVar('x', 'V', 2)
    e = ctx.linalg.norm(x)
    assert e.evalf({'x': [3.0, 4.0]}) == 5.0
    B = ctx.addVar("B", "M", (2, 2))
    assert str(la.inv(B)) == "B^-1"
    assert la.inv(la.inv(B)).simplify().match(expr(B))
