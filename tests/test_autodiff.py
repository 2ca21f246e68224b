"""klampt.math.autodiff: the expression framework (ad), vector math
(math_ad) and rotations / transforms (so3_ad, se3_ad).

Every derivative is compared with central finite differences of the
function's own value, and reverse mode (jacobian / vjp / gradient) with
forward mode (derivative), on random inputs including rotations near the
identity and near pi.  Values of so3_ad / se3_ad are compared with
klampt.math.so3 / se3.
"""
import math

import numpy as np
import pytest

from klampt.math import se3, so3
from klampt.math.autodiff import ad, math_ad, se3_ad, so3_ad
from klampt.math.autodiff.ad import (check_derivatives, finite_differences, function, stack, sum_,
                                     var)


def fd_jacobian(expr, name, values, h=1e-6):
    """Central differences of expr.eval with respect to one variable."""
    def f(y):
        kw = dict(values)
        kw[name] = y
        return expr.eval(**kw)
    return finite_differences(f, values[name], h)


def assert_expression_derivatives(expr, values, tol=1e-5):
    """Forward mode = finite differences = reverse mode, for every variable."""
    for name in values:
        fd = fd_jacobian(expr, name, values)
        fwd = expr.derivative(name, **values)
        rev = expr.jacobian(name, **values)
        assert fwd.shape == fd.shape
        np.testing.assert_allclose(fwd, fd, rtol=tol, atol=tol, err_msg="forward vs fd, " + name)
        np.testing.assert_allclose(rev, fwd, rtol=1e-10, atol=1e-10, err_msg="reverse vs forward, " + name)
    w = np.linspace(-1.0, 1.0, np.size(expr.eval(**values)))
    vjps = expr.vjp(w, **values)
    for name in values:
        np.testing.assert_allclose(vjps[name], w @ expr.derivative(name, **values), rtol=1e-10, atol=1e-10)


def assert_function_derivatives(func, args, tol=1e-5):
    """A library function applied to variables: all derivatives agree."""
    names = ["a%d" % i for i in range(len(args))]
    expr = func(*[var(n) for n in names])
    assert_expression_derivatives(expr, dict(zip(names, args)), tol)
    assert check_derivatives(func, list(args), rtol=tol, atol=tol)


def random_rotation(rng, angle):
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    return np.array(so3.from_rotation_vector(list(axis * angle)))


ROTATION_ANGLES = [0.8, 1e-3, math.pi - 1e-3, 2.6]


# ---- the ad module: examples of its documentation --------------------------

def test_variables_evaluate_elementwise():
    assert np.array_equal(ad.mul('x', 'y').eval(x=2, y=np.array([3.0, 4.0])), [6.0, 8.0])
    assert (3 * var('x') ** 2 - 2 * var('x')).eval(x=1.5) == pytest.approx(3.75)


def test_shared_subexpressions_are_printed_once_and_differentiated():
    x, y = var('x'), var('y')
    diff = x ** 2 - y ** 2
    poly = diff ** 3 - 2.0 * diff ** 2 + 4.0 * diff - 6
    # d = 4: 64 - 32 + 16 - 6
    assert poly.eval(x=2.5, y=1.5) == pytest.approx(42.0)
    text = str(poly)
    assert text.count('pow(x,2)') == 1 and '#0' in text and '@0' in text
    # dp/dd = 3d^2 - 4d + 4 = 36; dd/dx = 2x = 5, dd/dy = -2y = -3
    assert poly.derivative('x', x=2.5, y=1.5)[0, 0] == pytest.approx(180.0)
    assert poly.gradient(x=2.5, y=1.5)['y'][0] == pytest.approx(-108.0)
    # second derivatives: p''(d) = 6d - 4 = 20
    assert poly.gen_derivative(['x', 'y'], x=2.5, y=1.5)[0, 0, 0] == pytest.approx(20 * 5 * -3)
    assert poly.gen_derivative(['x', 'x'], x=2.5, y=1.5)[0, 0, 0] == pytest.approx(20 * 25 + 36 * 2)
    assert poly.terminals() == ['x', 'y']


def test_user_functions_with_jacobians_jvps_or_nothing():
    def my_func(x, y):
        return x ** 2 - y ** 2
    plain = function(my_func)
    with_jac = function(my_func, 'auto', [1, 1], 1,
                        derivative=[lambda x, y: np.array([[2.0 * x]]), lambda x, y: np.array([[-2.0 * y]])])
    with_jvp = function(my_func, 'auto', [1, 1], 1,
                        jvp=[lambda dx, x, y: 2 * x * dx, lambda dy, x, y: -2 * y * dy])
    x = var('x')
    for f in (plain, with_jac, with_jvp):
        assert f(x, x).derivative('x', x=2.0)[0, 0] == pytest.approx(0.0, abs=1e-6)
        assert f(x, 2.0).derivative('x', x=2.0)[0, 0] == pytest.approx(4.0, abs=1e-6)
        assert f(x, 2.0).jacobian('x', x=2.0)[0, 0] == pytest.approx(4.0, abs=1e-6)
    assert str(plain) == 'my_func'
    assert check_derivatives(with_jac, [2.0, 3.0])
    assert check_derivatives(with_jvp, [2.0, 3.0])


def test_check_derivatives_catches_a_wrong_derivative():
    wrong = function(lambda x: x ** 3, 'cube', [1], 1, derivative=[lambda x: np.array([[2.0 * x ** 2]])])
    with pytest.raises(AssertionError):
        check_derivatives(wrong, [1.5])
    wrong_hessian = function(lambda x: x ** 3, 'cube', [1], 1,
                             derivative=[lambda x: np.array([[3.0 * x ** 2]])],
                             gen_derivative=[lambda x: np.array([[[3.0 * x]]])])
    with pytest.raises(AssertionError):
        check_derivatives(wrong_hessian, [1.5])
    with pytest.raises(AssertionError):
        check_derivatives(wrong(var('x')) + var('y'), {'x': 1.5, 'y': 2.0})


def test_operators_reductions_indexing_and_conditionals():
    x, y = var('x'), var('y')
    v = np.array([1.0, -2.0, 3.0])
    expr = stack(sum_(x * v), ad.minimum(x * v), ad.maximum(x * v, y), ad.cond(x - 1, x ** 2, y),
                 ad.setitem(x * v, 1, y), (x * v)[[0, 2]], abs(x * v), v / x, ad.cond3(v - 1, v * x, y, x * x),
                 y ** x, -x, ad.sum_(x, y, v))
    values = {'x': 1.5, 'y': 0.3}
    got = expr.eval(**values)
    want = np.hstack([3.0, -3.0, [1.5, 0.3, 4.5], 2.25, [1.5, 0.3, 4.5], [1.5, 4.5], [1.5, 3.0, 4.5],
                      v / 1.5, [0.3, 2.25, 4.5], 0.3 ** 1.5, -1.5, v + 1.8])
    np.testing.assert_allclose(got, want)
    assert_expression_derivatives(expr, values)
    assert check_derivatives(expr, values)


def test_vector_variables_and_second_derivatives():
    a = var('a')
    expr = sum_(a * a) * a / (1 + a[0] ** 2)
    values = {'a': np.array([0.5, 1.2, -0.7])}
    assert_expression_derivatives(expr, values)
    H = expr.gen_derivative(['a', 'a'], **values)
    H_fd = ad.finite_differences_hessian(lambda z: expr.eval(a=z), values['a'], 1e-4)
    np.testing.assert_allclose(H, H_fd, atol=1e-5)


def test_replace_and_multiple_expressions_share_work():
    x = var('x')
    shared = x ** 2
    e1, e2 = shared + 1, shared * 3
    assert ad.eval_multiple([e1, e2], x=2.0) == [5.0, 12.0]
    d1, d2 = ad.derivative_multiple([e1, e2], 'x', x=2.0)
    assert d1[0, 0] == pytest.approx(4.0) and d2[0, 0] == pytest.approx(12.0)
    replaced = (var('x') ** 2 + var('y')).replace(x=var('z'), y=3.0)
    assert replaced.terminals() == ['z'] and replaced.eval(z=2.0) == pytest.approx(7.0)


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError, match="not present"):
        (var('x') + 1).eval(y=2.0)
    with pytest.raises(ValueError, match="Invalid number of arguments"):
        so3_ad.mul(var('x'))
    with pytest.raises(ValueError, match="size"):
        so3_ad.inv(np.zeros(4))
    with pytest.raises(ValueError, match="1D"):
        (var('x') + 1).eval(x=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="scalar expression"):
        (var('x') * np.ones(2)).gradient(x=1.0)


def test_finite_difference_helpers_on_known_functions():
    J = finite_differences(lambda x: np.array([x[0] * x[1], np.sin(x[0])]), np.array([0.3, 2.0]))
    np.testing.assert_allclose(J, [[2.0, 0.3], [math.cos(0.3), 0.0]], atol=1e-8)
    H = ad.finite_differences_hessian2(lambda x, y: x * y ** 2, 2.0, 3.0, 1e-4)
    assert H[0, 0, 0] == pytest.approx(6.0, abs=1e-5)


# ---- math_ad -----------------------------------------------------------------

def math_cases():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=3), rng.normal(size=3)
    A, M = rng.normal(size=(3, 3)), rng.normal(size=(2, 3))
    pos = np.abs(a) + 0.5
    return [
        (math_ad.exp, [a], np.exp(a)), (math_ad.log, [pos], np.log(pos)),
        (math_ad.sqrt, [pos], np.sqrt(pos)), (math_ad.sin, [a], np.sin(a)), (math_ad.cos, [a], np.cos(a)),
        (math_ad.dot, [a, b], a @ b), (math_ad.dot, [1.5, b], 1.5 * b),
        (math_ad.norm, [a], np.linalg.norm(a)), (math_ad.normSquared, [a], a @ a),
        (math_ad.distance, [a, b], np.linalg.norm(a - b)),
        (math_ad.distanceSquared, [a, b], (a - b) @ (a - b)),
        (math_ad.unit, [a], a / np.linalg.norm(a)), (math_ad.cross, [a, b], np.cross(a, b)),
        (math_ad.interpolate, [a, b, 0.3], 0.7 * a + 0.3 * b),
        (math_ad._ADLinear(M), [a], M @ a), (math_ad._ADQuadratic(A), [a], a @ A @ a),
        (math_ad._ADBilinear(A), [a, b], a @ A @ b),
        (math_ad.ShapedDot((2, 3)), [M.flatten(), a], M @ a),
        (math_ad.ShapedDot(None, (3, 2)), [a, M.T.flatten()], a @ M.T),
    ]


@pytest.mark.parametrize("func,args,want", math_cases(), ids=[str(case[0]) for case in math_cases()])
def test_math_ad_values_and_derivatives(func, args, want):
    np.testing.assert_allclose(func.eval(*args), want, rtol=1e-12, atol=1e-12)
    assert_function_derivatives(func, args)


def test_math_ad_constructors():
    A = np.array([[1.0, 2.0], [3.0, 4.0]])
    x, y = np.array([1.0, -1.0]), np.array([2.0, 0.5])
    assert np.allclose(math_ad.linear(A, 'x').eval(x=x), A @ x)
    assert math_ad.quadratric(A, 'x').eval(x=x) == pytest.approx(x @ A @ x)
    assert math_ad.bilinear('x', A, 'y').eval(x=x, y=y) == pytest.approx(x @ A @ y)
    H = math_ad.quadratric(A, 'x').gen_derivative(['x', 'x'], x=x)
    np.testing.assert_allclose(H[0], A + A.T)


# ---- so3_ad / se3_ad ---------------------------------------------------------

def so3_cases(angle):
    rng = np.random.default_rng(int(angle * 1000))
    R1, R2 = random_rotation(rng, angle), random_rotation(rng, 1.3)
    x, w, q = rng.normal(size=3), rng.normal(size=3) * 0.5, rng.normal(size=4)
    L1, L2 = list(R1), list(R2)
    return [
        (so3_ad.inv, [R1], so3.inv(L1)), (so3_ad.mul, [R1, R2], so3.mul(L1, L2)),
        (so3_ad.apply, [R1, x], so3.apply(L1, list(x))), (so3_ad.trace, [R1], so3.trace(L1)),
        (so3_ad.det, [R1], so3.det(L1)), (so3_ad.diag, [R1], so3.diag(L1)),
        (so3_ad.deskew, [R1], so3.deskew(L1)), (so3_ad.cross_product, [x], so3.cross_product(list(x))),
        (so3_ad.from_rpy, [x], so3.from_rpy(list(x))),
        (so3_ad.from_rotation_vector, [w], so3.from_rotation_vector(list(w))),
        (so3_ad.from_rotation_vector, [w * 1e-5], so3.from_rotation_vector(list(w * 1e-5))),
        (so3_ad.from_quaternion, [q], so3.from_quaternion(list(q))),
        (so3_ad.from_axis_angle, [x, 0.4], so3.from_axis_angle((list(x), 0.4))),
        (so3_ad.rotation_vector, [R1], so3.rotation_vector(L1)), (so3_ad.angle, [R1], so3.angle(L1)),
        (so3_ad.axis, [R1], so3.axis_angle(L1)[0]),
        (so3_ad.error, [R1, R2], so3.error(L1, L2)), (so3_ad.error, [R2, R1], so3.error(L2, L1)),
        (so3_ad.distance, [R1, R2], so3.distance(L1, L2)), (so3_ad.rpy, [R2], so3.rpy(L2)),
        (so3_ad.quaternion, [R1], so3.quaternion(L1)), (so3_ad.canonical, [x], so3.canonical(list(x))),
        (so3_ad.interpolate, [R2, R1, 0.3], so3.interpolate(L2, L1, 0.3)),
    ]


@pytest.mark.parametrize("angle", ROTATION_ANGLES)
def test_so3_ad_matches_so3_and_finite_differences(angle):
    for func, args, want in so3_cases(angle):
        np.testing.assert_allclose(func.eval(*args), want, rtol=1e-9, atol=1e-9, err_msg=str(func))
        assert_function_derivatives(func, args, tol=1e-4)


def test_so3_ad_chain_through_exponential_map():
    """log(exp(w)) = w: the chained Jacobian is the identity, also near pi."""
    for scale in (1e-4, 1.0, math.pi - 1e-3):
        w = np.array([0.6, -0.48, 0.64]) * scale
        expr = so3_ad.rotation_vector(so3_ad.from_rotation_vector('w'))
        np.testing.assert_allclose(expr.derivative('w', w=w), np.eye(3), atol=1e-6)
        np.testing.assert_allclose(expr.jacobian('w', w=w), np.eye(3), atol=1e-6)


def se3_cases(angle):
    rng = np.random.default_rng(int(angle * 1000) + 7)
    T1 = np.hstack([random_rotation(rng, angle), rng.normal(size=3)])
    T2 = np.hstack([random_rotation(rng, 1.1), rng.normal(size=3)])
    x = rng.normal(size=3)
    K1, K2 = se3_ad.to_klampt(T1), se3_ad.to_klampt(T2)
    flat = se3_ad.from_klampt
    return [
        (se3_ad.join, [T1[:9], T1[9:]], T1), (se3_ad.rotation, [T1], K1[0]),
        (se3_ad.translation, [T1], K1[1]), (se3_ad.from_rotation, [T1[:9]], flat((K1[0], [0.0, 0.0, 0.0]))),
        (se3_ad.from_translation, [x], flat(se3.from_translation(list(x)))),
        (se3_ad.apply, [T1, x], se3.apply(K1, list(x))),
        (se3_ad.apply_rotation, [T1, x], se3.apply_rotation(K1, list(x))),
        (se3_ad.mul, [T1, T2], flat(se3.mul(K1, K2))), (se3_ad.inv, [T1], flat(se3.inv(K1))),
        (se3_ad.error, [T1, T2], se3.error(K1, K2)), (se3_ad.distance, [T1, T2], se3.distance(K1, K2)),
        (se3_ad.interpolate, [T1, T2, 0.3], flat(se3.interpolate(K1, K2, 0.3))),
    ]


@pytest.mark.parametrize("angle", [0.8, 1e-3, math.pi - 1e-3])
def test_se3_ad_matches_se3_and_finite_differences(angle):
    for func, args, want in se3_cases(angle):
        np.testing.assert_allclose(func.eval(*args), want, rtol=1e-9, atol=1e-9, err_msg=str(func))
        assert_function_derivatives(func, args, tol=1e-4)


def test_se3_ad_conversions_and_identity():
    T = ([0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 2.0, 3.0])
    assert se3_ad.to_klampt(se3_ad.from_klampt(T)) == T
    assert np.array_equal(se3_ad.identity(), np.hstack([np.eye(3).flatten(), np.zeros(3)]))
    assert np.array_equal(so3_ad.identity(), np.eye(3).flatten())
    assert se3_ad.SIZE == 12 and so3_ad.SIZE == 9
    with pytest.raises(ValueError):
        se3_ad.to_klampt(np.zeros(9))
