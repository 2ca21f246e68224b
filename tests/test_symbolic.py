"""klampt.math.symbolic: the documented examples, derivatives against central
finite differences and SymPy, simplification keeping values, and the
string / JSON forms round-tripping."""
import math

import numpy as np
import pytest
import sympy

from klampt.math import symbolic as S
from symbolic_helpers import central_jacobian, assert_jacobian
from klampt.math import symbolic_io as sio
from klampt.math import symbolic_sympy as ssy
from klampt.math.symbolic import (Context, Function, Type, expr, const, deriv, simplify, flatten, dot, sin, cos,
                                  exp, sqrt, ln, arctan, arctan2, abs_, if_, max_, summation, map_, subs, array,
                                  getattr_, range_, transpose, outer, reshape, setitem, weightedsum, tan, pow_)


# ----------------------------------------------------------------------------
# documented behaviour
# ----------------------------------------------------------------------------

def test_basic_usage_from_module_docs():
    ctx = Context()
    x = ctx.addVar("x", 'N')
    y = ctx.addVar("y", 'N')
    assert str(x + y) == "x + y"
    assert (x + y).eval({'x': 5, 'y': 3}) == 8
    assert list((flatten(x, y)).eval({'x': 5, 'y': 3})) == [5, 3]
    partial = flatten(x, y).eval({'y': [1, 2]})
    assert isinstance(partial, S.Expression)
    assert list(partial.eval({'x': 7})) == [7, 1, 2]
    x.bind(5)
    y.bind(3)
    assert (x + y).evalf() == 8
    x.unbind()
    y.unbind()
    with pytest.raises(ValueError):
        (x + y).evalf()


def test_function_docs_examples():
    ctx = Context()

    def _f(x, y):
        return 2 * x * y
    f = ctx.declare(_f, "f")
    assert str(f(3, 4)) == "f(3,4)"
    assert f(3, 4).evalf() == 24
    assert deriv(f(3, 4), ctx.addVar('t', 'N')) == 0
    t = ctx.variableDict['t']
    assert deriv(f(t, t), t) is None  # no derivative declared yet
    f.setDeriv("x", (lambda x, y, dx: 2 * dx * y))
    f.setDeriv("y", (lambda x, y, dy: 2 * x * dy))
    assert expr(deriv(f(t, t ** 2), t)).evalf({'t': 2.0}) == pytest.approx(6 * 4.0)
    g = ctx.declare(const(2) * expr("x") * expr("y"), "g", ["x", "y"])
    assert g(3, 4).evalf() == 24
    assert expr(deriv(g(t, t ** 2), t)).evalf({'t': 2.0}) == pytest.approx(24.0)
    with pytest.raises(ValueError):
        Function("h", 2 * expr("x") * expr("y"))  # an Expression function needs its argument names
    # Function from an Expression of Variables, as in the Function docstring
    a, b, c = ctx.addVar("a", 'N'), ctx.addVar("b", 'N'), ctx.addVar("c", 'N')
    symfunc2 = Function("f2", a + 2 * b, ["a", "b"])
    assert str(symfunc2(c, 4)) == "f2(c,4)"
    assert symfunc2(c, 4).eval({'c': 5}) == 13
    f.setJacobian("x", lambda x, y: 2 * y)
    f.setJacobian("y", lambda x, y: 2 * x)
    assert expr(deriv(f(t, t ** 2), t)).evalf({'t': 2.0}) == pytest.approx(24.0)
    f.setArgType(0, 'N')
    f.setReturnType('N')
    assert f.getArgType(0).char == 'N'
    with pytest.raises(ValueError):
        f(ctx.addVar('v', 'V', 3), 2)


def test_looping_examples():
    assert subs(const(2) * "i", "i", 3.5).eval() == 7.0
    ctx = Context()
    x = ctx.addVar('x', 'N')
    lst = map_(x ** "i", "i", range_(3))
    assert list(lst.eval({'x': 2})) == [1, 2, 4]
    assert summation(summation(expr("x") ** "y", "x", [1, 2]), "y", [0, 1]).eval() == 5
    assert S.forall(expr("i") >= 0, "i", [0, 1, 2]).eval() is True
    assert S.forsome(expr("i") >= 2, "i", [0, 1]).eval() is False
    # lazy multiplexer and if_: the unselected branch is not evaluated
    bad = sqrt(const(-1.0)) * getattr_("missing", const("x"))
    assert array(x, bad)[0].eval({'x': 3}) == 3
    assert if_(x >= 0, x, bad).eval({'x': 2}) == 2


def test_common_subexpression_tags():
    ctx = Context()
    x, y = ctx.addVar('x', 'N'), ctx.addVar('y', 'N')
    e = sio.exprFromStr(ctx, "(x+y)#1*@1")
    assert e.eval({'x': 2, 'y': 1}) == 9
    s = sio.exprToStr((x + y) * (x + y))
    assert '#' not in s
    shared = x + y
    tagged = sio.exprToStr(shared * shared)
    assert tagged == "(x + y)#1*@1"
    again = sio.exprFromStr(ctx, tagged)
    assert again.args[0] is again.args[1]


def test_user_data_attributes():
    class Point:
        def __init__(self):
            self.x = 3.0
            self.y = 4.0

        def norm(self):
            return math.hypot(self.x, self.y)
    ctx = Context()
    p = ctx.addUserData("p", Point())
    assert expr("p").x.eval(ctx) == 3.0
    assert (p.x * p.y).eval(ctx) == 12.0
    assert getattr_("p", const("norm")).eval(ctx) == 5.0
    S.setattr_("p", const("x"), 6.0).eval(ctx)
    assert ctx.userData["p"].x == 6.0


def test_truth_value_and_errors():
    ctx = Context()
    x = ctx.addVar('x', 'N')
    with pytest.raises(ValueError):
        bool(x + 1 == 2)
    with pytest.raises(ValueError):
        ctx.addVar('x', 'N')
    with pytest.raises(ValueError):
        S.add(1, 2, 3)
    with pytest.raises(ValueError):
        (expr(x) + const([1.0, 2.0])[3]).evalf({'x': 1.0})
    with pytest.raises(TypeError):
        Type(5)
    with pytest.raises(ValueError):
        deriv(expr(x) * 2, ctx.addVar('unsized', 'V'))


def test_types():
    assert Type('V', 3).match(Type('A', (3,)))
    assert not Type('V', 3).match(Type('V', 4))
    assert Type('N').match(Type('I'))
    assert S.type_of(np.zeros((2, 3))).char == 'M'
    assert S.type_of([1, 2]).size == 2
    assert Type('M', (2, 3)).count() == 6
    assert S.supertype([Type('I'), Type('N')]).char == 'N'
    ctx = Context()
    x = ctx.addVar('x', 'V', 3)
    A = ctx.addVar('A', 'M', (2, 3))
    assert S.type_of(dot(A, x)).size == 2
    assert S.type_of(x * 2).char == 'V'
    assert S.type_of(transpose(A)).size == (3, 2)


def test_context_functions_and_flattening():
    ctx = Context()
    a, b = ctx.addVar('a', 'N'), ctx.addVar('b', 'V', 2)
    e = a * dot(b, b)
    f, order = ctx.makeFlatFunction(e)
    assert [v.name for v in order] == ['a', 'b']
    assert f(np.array([2.0, 1.0, 3.0])) == pytest.approx(20.0)
    df, order = ctx.makeFlatFunctionDeriv(e)
    assert np.allclose(df(np.array([2.0, 1.0, 3.0])), [10.0, 4.0, 12.0])
    assert ctx.getFlatVarRanges(order) == [0, 1, 3]
    # the arguments win over values the variables are bound to (e.g. a seed)
    a.bind(7.0)
    b.bind(np.zeros(2))
    assert f(np.array([2.0, 1.0, 3.0])) == pytest.approx(20.0)
    assert np.allclose(ctx.getFlatVector(order), [7.0, 0.0, 0.0])
    a.unbind()
    b.unbind()
    sub = Context()
    sub.addVar('q', 'N')
    sub.addExpr('q2', expr(sub.variableDict['q']) ** 2)
    ctx.include(sub, 'robot')
    assert 'robot.q' in ctx.variableDict
    assert ctx.expressions['robot.q2'].eval({'robot.q': 3}) == 9
    polynomial = S.to_polynomial(3 * expr(a) ** 2 - 2 * expr(a) + 1)
    assert polynomial[1:] == ([1, -2, 3], [0, 1, 2])


# ----------------------------------------------------------------------------
# derivatives
# ----------------------------------------------------------------------------

def _random_scalar_expr(rng, leaves, depth):
    if depth == 0:
        if rng.random() < 0.25:
            return const(float(np.round(rng.uniform(0.5, 2.0), 2)))
        return leaves[rng.integers(len(leaves))]
    a = _random_scalar_expr(rng, leaves, depth - 1)
    b = _random_scalar_expr(rng, leaves, depth - 1)
    op = rng.integers(12)
    return [lambda: a + b, lambda: a - b, lambda: a * b, lambda: a / (2 + b ** 2), lambda: sin(a), lambda: cos(a) * b,
            lambda: exp(a * 0.3), lambda: sqrt(1 + a ** 2), lambda: ln(1 + a ** 2), lambda: arctan(a) - b,
            lambda: arctan2(a, 2 + b ** 2), lambda: pow_(a, 3) + tan(b * 0.2)][op]()


def test_scalar_derivatives_match_central_differences_and_sympy():
    rng = np.random.default_rng(5)
    ctx = Context()
    y, z = ctx.addVar('y', 'N'), ctx.addVar('z', 'N')
    sy, sz = sympy.symbols('y z')
    for trial in range(40):
        e = _random_scalar_expr(rng, [expr(y), expr(z)], 3)
        values = {'y': float(rng.uniform(-1, 1)), 'z': float(rng.uniform(-1, 1))}
        se = ssy.exprToSympy(e)
        for var, svar in ((y, sy), (z, sz)):
            d = deriv(e, var)
            assert d is not None, str(e)
            got = float(np.asarray(expr(d).evalf(values)))
            fd = central_jacobian(e, var, values)[0, 0]
            assert got == pytest.approx(fd, rel=1e-5, abs=1e-6), (str(e), str(d))
            ref = float(sympy.diff(se, svar).subs({sy: values['y'], sz: values['z']}).evalf())
            assert got == pytest.approx(ref, rel=1e-9, abs=1e-10), (str(e), str(d))


def test_second_derivatives_match_sympy():
    ctx = Context()
    y = ctx.addVar('y', 'N')
    e = sin(y) * y ** 3 + exp(y * 0.5) / (1 + y ** 2)
    d2 = deriv(deriv(e, y), y)
    sy = sympy.Symbol('y')
    ref = sympy.diff(ssy.exprToSympy(e), sy, 2)
    for v in (-0.7, 0.2, 1.3):
        assert float(expr(d2).evalf({'y': v})) == pytest.approx(float(ref.subs(sy, v)), rel=1e-9)


def test_documented_derivative_forms():
    ctx = Context()
    y = ctx.addVar('y', 'N')
    assert str(deriv(sin(y) * y, y)) in ("cos(y)*y + sin(y)", "y*cos(y) + sin(y)")
    assert str(deriv(y ** 3, y)) == "3*y**2"
    x = ctx.addVar('x', 'V', 3)
    M = ctx.addVar('M', 'M', (2, 3))
    assert str(deriv(dot(M, x), x)) == "M"
    assert np.array_equal(deriv(sin(y), x), np.zeros(3))
    J = deriv(x * y, x)
    assert np.allclose(expr(J).evalf({'x': [1, 2, 3], 'y': 2}), 2 * np.eye(3))


VECTOR_CASES = [
    lambda x, y, M: dot(x, x) * y,
    lambda x, y, M: x * y + sin(x),
    lambda x, y, M: dot(M, x) * y,
    lambda x, y, M: dot(M, sin(x)) + dot(M, x) * dot(x, x),
    lambda x, y, M: flatten(x * 2, y, x[1]),
    lambda x, y, M: x[0] * x[2] - x[1:3] * y,
    lambda x, y, M: outer(x, x)[1] + x / (2 + dot(x, x)),
    lambda x, y, M: transpose(M) * y,
    lambda x, y, M: reshape(dot(M, x), [2, 1]),
    lambda x, y, M: setitem(x, 1, y * x[0]),
    lambda x, y, M: weightedsum(x, sin(x), y, 2.0),
    lambda x, y, M: max_(x[0], x[1] * y) + abs_(x[2] - y),
    lambda x, y, M: if_(y >= 0, x * y, -x),
    lambda x, y, M: summation(expr(x)[expr("i")] * "i", "i", range_(3)),
    lambda x, y, M: dot(x, dot(transpose(M), dot(M, x))) + sqrt(1 + dot(x, x)),
    lambda x, y, M: array(x[0] * y, x[1] ** 2, dot(M[1], x)),
]


@pytest.mark.parametrize("case", range(len(VECTOR_CASES)))
def test_vector_and_matrix_jacobians_match_central_differences(case):
    rng = np.random.default_rng(case)
    ctx = Context()
    x, y, M = ctx.addVar('x', 'V', 3), ctx.addVar('y', 'N'), ctx.addVar('M', 'M', (2, 3))
    e = expr(VECTOR_CASES[case](x, y, M))
    for _ in range(3):
        values = {'x': rng.normal(size=3), 'y': float(rng.uniform(0.2, 1)) * rng.choice([-1, 1]),
                  'M': rng.normal(size=(2, 3))}
        for var in (x, y, M):
            assert_jacobian(e, var, values)


def test_vector_jacobian_matches_sympy():
    ctx = Context()
    x, y = ctx.addVar('x', 'V', 3), ctx.addVar('y', 'N')
    e = sin(x) * dot(x, x) + x * y
    sx = sympy.Matrix(sympy.symbols('x_0 x_1 x_2'))
    ref = ssy.exprToSympy(e).jacobian(sx)
    values = {'x': np.array([0.3, -0.4, 1.1]), 'y': 0.7}
    subsd = dict(zip(list(sx), values['x']))
    subsd[sympy.Symbol('y')] = values['y']
    expected = np.array(ref.subs(subsd).evalf(), dtype=float)
    assert np.allclose(expr(deriv(e, x)).evalf(values), expected)


def test_directional_derivative():
    ctx = Context()
    x, y = ctx.addVar('x', 'V', 2), ctx.addVar('y', 'N')
    e = dot(x, x) * y
    d = deriv(e, {'x': np.array([1.0, 0.0]), 'y': 1.0})
    values = {'x': np.array([2.0, 3.0]), 'y': 2.0}
    assert expr(d).evalf(values) == pytest.approx(2 * 2.0 * 2.0 + 13.0)


# ----------------------------------------------------------------------------
# simplification and IO
# ----------------------------------------------------------------------------

def test_simplification_preserves_values():
    rng = np.random.default_rng(11)
    ctx = Context()
    y, z = ctx.addVar('y', 'N'), ctx.addVar('z', 'N')
    zero, one = const(0), const(1)
    for trial in range(40):
        e = _random_scalar_expr(rng, [expr(y), expr(z), zero, one], 3)
        s = simplify(e)
        for _ in range(3):
            values = {'y': float(rng.uniform(-1, 1)), 'z': float(rng.uniform(-1, 1))}
            assert float(np.asarray(expr(s).evalf(values))) == pytest.approx(float(np.asarray(e.evalf(values))), rel=1e-12, abs=1e-12), (str(e), str(s))
    assert str(simplify(expr(y) * 1 + 0)) == "y"
    assert str(simplify(S.neg(S.neg(y)))) == "y"
    assert simplify(expr(y) * 0).eval() == 0
    assert simplify(sin(const(0.5)) * 2).value == pytest.approx(2 * math.sin(0.5))
    assert simplify(expr(y) + expr(z), {'z': 2}).eval({'y': 1}) == 3


ROUND_TRIP_CASES = [
    lambda x, y, M: dot(x, x) * y,
    lambda x, y, M: -(x + y) / 2 - y ** -1,
    lambda x, y, M: x[1:3] * M[1, 2] + x[0],
    lambda x, y, M: if_(y >= 0, sin(y), cos(y)) + max_(y, 1, x[0]),
    lambda x, y, M: (y >= 1) | ~(y <= 0),
    lambda x, y, M: flatten(x, [1.0, 2.0], y) * 2,
    lambda x, y, M: summation(expr("i") * y, "i", range_(4)),
    lambda x, y, M: getattr_("p", const("val")) * y,
    lambda x, y, M: (y - (y - 1)) - ((y * 2) / (y / 3)),
    lambda x, y, M: y ** (y ** 2) + (y ** y) ** 2,
]


@pytest.mark.parametrize("case", range(len(ROUND_TRIP_CASES)))
def test_string_and_json_round_trips(case):
    class Holder:
        val = 1.5
    ctx = Context()
    x, y, M = ctx.addVar('x', 'V', 3), ctx.addVar('y', 'N'), ctx.addVar('M', 'M', (2, 3))
    ctx.addUserData('p', Holder())
    e = expr(ROUND_TRIP_CASES[case](x, y, M))
    values = {'x': np.array([0.5, -1.0, 2.0]), 'y': 1.25, 'M': np.arange(6.0).reshape(2, 3), 'p': Holder()}
    expected = e.evalf(values)
    for form in (sio.exprToStr(e), sio.exprToStr(e, expandSubexprs=True)):
        back = sio.exprFromStr(ctx, form)
        assert np.allclose(back.evalf(values), expected), form
        assert back.match(e), (form, str(back))
    js = sio.exprToJson(e)
    import json
    back = sio.exprFromJson(ctx, json.loads(json.dumps(js)))
    assert back.match(e)
    assert np.allclose(back.evalf(values), expected)


def test_context_json_round_trip():
    ctx = Context()
    x, y = ctx.addVar('x', 'V', 3), ctx.addVar('y', 'N')
    shared = dot(x, x)
    ctx.addExpr('cost', shared * y + shared)
    js = sio.contextToJson(ctx)
    ctx2 = sio.contextFromJson(Context(), js)
    assert [v.name for v in ctx2.variables] == ['x', 'y']
    assert ctx2.variableDict['x'].type.size == 3
    cost = ctx2.expressions['cost']
    assert cost.evalf({'x': [1, 2, 3], 'y': 2}) == 42
    assert cost.args[0].args[0] is cost.args[1]
    assert sio.typeFromJson(sio.typeToJson(Type('M', (2, 3)))) == Type('M', (2, 3))


def test_sympy_round_trip_and_functions():
    ctx = Context()
    x, y, A = ctx.addVar('x', 'V', 3), ctx.addVar('y', 'N'), ctx.addVar('A', 'M', (2, 3))
    values = {'x': np.array([0.3, 0.5, 0.7]), 'y': 0.8, 'A': np.arange(6.0).reshape(2, 3)}
    for e in [sin(y) * y ** 2 + exp(y) / y, dot(x, x) * y, dot(A, x), x * y + 1, flatten(x, y), if_(y >= 0, y, -y),
              arctan2(y, 2.0), abs_(y - 1), transpose(A), outer(x, x), summation(y ** "i", "i", range_(4)),
              max_(y, x[0]), A[1]]:
        back = ssy.exprFromSympy(ctx, ssy.exprToSympy(e))
        assert np.allclose(np.asarray(expr(e).evalf(values), float), np.asarray(expr(back).evalf(values), float)), str(e)
    twoxy = ssy.SympyFunction("twoxy", 2 * sympy.Symbol('x') * sympy.Symbol('y'))
    assert twoxy(3, 4).evalf() == 24
    assert expr(deriv(twoxy(y, y ** 2), y)).evalf({'y': 2.0}) == pytest.approx(24.0)
    heaviside = ssy.SympyFunctionAdaptor("heaviside", sympy.Heaviside, ["x"])
    assert heaviside(y).eval({'y': 2.0}) == 1.0 and heaviside(y).eval({'y': -2.0}) == 0.0
    assert sio.latex(sin(y) / y) == sympy.latex(sympy.sin(sympy.Symbol('y')) / sympy.Symbol('y'))
    [(cname, ccode), (hname, hcode)] = sio.codegen(("f", sin(y) * 2 + 1), "C")
    assert cname == "f.c" and "double f(double y)" in ccode and "2*sin(y) + 1" in ccode
    g = ctx.declare(sin(expr('a')) * 2, 'g', ['a'])
    assert "Derivatives: defined" in g.__doc__ and "g(a)" in g.__doc__


def test_expectations_stated_in_klampt_self_tests():
    """The results Klamp't's symbolic self-tests state ("should be ...")."""
    ctx = Context()
    vs = ctx.addVars("v", 5, 'N')
    assert np.array_equal(flatten(*vs).deriv(vs[3]), [0, 0, 0, 1, 0])
    x, y, z = ctx.addVar("x", 'V', 5), ctx.addVar("y", 'V', 3), ctx.addVar("z", 'N')
    s = flatten(x, y, z)
    values = {'x': [1, 2, 3, 4, 5], 'y': [6, 7, 8], 'z': 9}
    assert list(s.eval(values)) == list(range(1, 10))
    assert np.array_equal(s.deriv(z), [0] * 8 + [1])
    Jy = expr(s.deriv(y)).evalf(values)
    assert Jy.shape == (9, 3) and np.array_equal(Jy[5:8], np.eye(3)) and not Jy[:5].any() and not Jy[8].any()
    dp1 = dot([[1, 2, 3], [4, 5, 6]], dot(S.eye(3), y))
    assert np.array_equal(expr(dp1.deriv(y)).evalf(values), [[1, 2, 3], [4, 5, 6]])
    assert np.array_equal(dp1.deriv(vs[0]), [0, 0])
    dp2 = dot(flatten(vs[0], vs[1]), dp1)
    got = expr(dp2.deriv(y)).evalf({'v1': 2.0, 'v2': 3.0})
    assert np.allclose(got, [2 + 4 * 3, 2 * 2 + 5 * 3, 3 * 2 + 6 * 3])
    A = np.zeros((5, 3))
    A[0, 0] = 1
    A[3, 1] = 2
    xAy = dot(x, dot(A, dot(S.eye(3), y)))
    vals = {'x': np.arange(1.0, 6.0), 'y': np.array([7.0, 8.0, 9.0])}
    assert np.allclose(expr(xAy.deriv(x)).evalf(vals), A @ vals['y'])
    assert np.allclose(expr(xAy.deriv(y)).evalf(vals), vals['x'] @ A)
    assert np.allclose(expr(dot(x, x).deriv(x)).evalf(vals), 2 * vals['x'])
    M = ctx.addVar("M", 'M', (3, 3))
    assert np.allclose(expr(dot(y, dot(M, y)).deriv(M)).evalf({'y': [1, 2, 3], 'M': np.zeros((3, 3))}),
                       np.outer([1, 2, 3], [1, 2, 3]).reshape(-1))
    somelist = array(z, y)
    assert np.array_equal(somelist[1][2].deriv(y), [0, 0, 1])
    assert S.dotshape(np.zeros(3), np.zeros(3)) == () and S.dotshape(np.zeros(2), np.zeros((2, 3))) == (3,)
    assert S.dotshape(np.zeros((2, 3)), np.zeros((3, 4))) == (2, 4)
    w = ctx.addVar("w", 'N')
    assert str(simplify(expr(w) * 1)) == "w" and simplify(expr(w) * 0).eval() == 0
    assert str(simplify(S.neg(S.neg(w)))) == "w"
    assert str(simplify(cos(-expr(w)).deriv(w))) == "-sin(w)"
    assert list(range_(10)[3:6].eval()) == [3, 4, 5]
    big = const(1)
    for _ in range(20):
        big = big + big
    assert big.depth() == 21 and big.eval() == 2 ** 20
