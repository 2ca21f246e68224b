"""klampt.math.autodiff.geometry_ad: box, sphere and Geometry3D queries.

Values agree with closed forms (a box mesh against the box functions, a
sphere primitive against sphere formulas, a ray against a box face), and
every derivative (point, sphere, transform, ray source and direction) agrees
with central finite differences of the value, forward with reverse mode.
"""
import numpy as np
import pytest

from conftest import sphere_geometry
from klampt.math import so3
from klampt.math.autodiff import geometry_ad as G
from klampt.math.autodiff import se3_ad
from klampt.math.autodiff.ad import check_derivatives, finite_differences, var
from klampt.model.create import primitives

BMIN, BMAX = np.array([-1.0, -1.0, -1.0]), np.array([1.0, 2.0, 1.0])
OUTSIDE = np.array([1.5, 0.3, -1.4])
INSIDE = np.array([0.2, 0.3, -0.4])


def transform(seed, angle, offset=(0.0, 0.0, 0.0)):
    rng = np.random.default_rng(seed)
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    R = so3.from_rotation_vector(list(axis * angle))
    return np.hstack([R, rng.normal(size=3) * 0.3 + offset])


def assert_derivatives(func, args, tol=1e-4):
    assert check_derivatives(func, list(args), rtol=tol, atol=tol)
    names = ["a%d" % i for i in range(len(args))]
    expr = func(*[var(n) for n in names])
    values = dict(zip(names, args))
    for i, name in enumerate(names):
        def f(y, i=i):
            a = list(args)
            a[i] = y
            return func.eval(*a)
        fd = finite_differences(f, args[i])
        np.testing.assert_allclose(expr.derivative(name, **values), fd, rtol=tol, atol=tol, err_msg=str(func))
        np.testing.assert_allclose(expr.jacobian(name, **values), expr.derivative(name, **values), atol=1e-12)


def test_box_functions():
    margin = G.BoxPointMargin(BMIN, BMAX)
    dist = G.BoxPointDistance(BMIN, BMAX)
    closest = G.BoxPointClosest(BMIN, BMAX)
    assert margin.eval(INSIDE) == pytest.approx(0.6)  # 1 - |-0.4|
    assert margin.eval(OUTSIDE) == pytest.approx(-0.5)
    assert dist.eval(INSIDE) == pytest.approx(-0.6)
    assert dist.eval(OUTSIDE) == pytest.approx(np.hypot(0.5, 0.4))
    np.testing.assert_allclose(closest.eval(OUTSIDE), [1.0, 0.3, -1.0])
    for func in (margin, dist, closest):
        for x in (INSIDE, OUTSIDE):
            assert_derivatives(func, [x])


def test_sphere_expressions():
    c, r, x = np.array([0.1, 0.2, 0.0]), 0.5, OUTSIDE
    values = {'c': c, 'r': r, 'x': x}
    d = np.linalg.norm(x - c)
    cp = c + r * (x - c) / d
    cases = [(G.sphere_point_distance(var('c'), var('r'), var('x')), d - r),
             (G.sphere_point_closest(var('c'), var('r'), var('x')), cp),
             (G.sphere_sphere_distance(var('c'), var('r'), var('x'), 0.3), d - r - 0.3),
             (G.sphere_sphere_closest(var('c'), var('r'), var('x'), 0.3),
              np.hstack([cp, x + 0.3 * (c - x) / d]))]
    for expr, want in cases:
        np.testing.assert_allclose(expr.eval(**values), want)
        assert check_derivatives(expr, values, rtol=1e-5, atol=1e-5)
    # a point inside the solid sphere is its own closest point
    np.testing.assert_allclose(cases[1][0].eval(c=c, r=r, x=c + 0.1), c + 0.1)


def test_geometry_point_queries_match_closed_forms():
    box = primitives.box(2.0, 3.0, 2.0, center=((BMIN + BMAX) / 2).tolist())
    identity = se3_ad.identity()
    gd = G.GeomPointDistance(box)
    assert gd.eval(identity, OUTSIDE) == pytest.approx(G.BoxPointDistance(BMIN, BMAX).eval(OUTSIDE))
    np.testing.assert_allclose(gd.derivative(1, identity, OUTSIDE),
                               G.BoxPointDistance(BMIN, BMAX).derivative(0, OUTSIDE), atol=1e-9)
    np.testing.assert_allclose(G.GeomPointClosest(box).eval(identity, OUTSIDE), [1.0, 0.3, -1.0], atol=1e-12)
    # a sphere moved by T: distance |x - T(c)| - r
    T = transform(1, 0.7)
    sphere = sphere_geometry([0.1, 0.0, 0.0], 0.5)
    center = np.array(so3.apply(list(T[:9]), [0.1, 0.0, 0.0])) + T[9:]
    x = np.array([1.5, 0.7, 0.2])
    assert G.GeomPointDistance(sphere).eval(T, x) == pytest.approx(np.linalg.norm(x - center) - 0.5)
    assert G.GeomSphereDistance(sphere).eval(T, x, 0.2) == pytest.approx(np.linalg.norm(x - center) - 0.7)


@pytest.mark.parametrize("angle", [0.7, 1e-3, np.pi - 1e-3])
def test_geometry_query_derivatives(angle):
    T1 = transform(2, angle)
    T2 = transform(3, 2.0, offset=(2.5, 0.0, 0.0))
    box = primitives.box(1.0, 0.8, 0.6, center=(0.0, 0.0, 0.0))
    small = primitives.box(0.4, 0.4, 0.4, center=(0.0, 0.0, 0.0))
    sphere = sphere_geometry([0.1, 0.0, 0.0], 0.5)
    x = np.array([1.5, 0.7, 0.2])
    s, d = np.array([3.0, 0.2, 0.1]), np.array([-1.0, 0.05, 0.02])
    cases = [(G.GeomPointDistance(sphere), [T1, x]), (G.GeomPointDistance(sphere), [T1, T1[9:] + 0.1]),
             (G.GeomPointDistance(box), [T1, x]), (G.GeomSphereDistance(box), [T1, x, 0.2]),
             (G.GeomPointClosest(box), [T1, x]), (G.GeomPointClosest(sphere), [T1, x]),
             (G.GeomGeomDistance(box, small), [T1, T2]), (G.GeomGeomDistance(sphere, small), [T1, T2]),
             (G.GeomRayCast(box), [T1, s, d]), (G.GeomRayCast(sphere), [T1, s, 1.3 * d])]
    for func, args in cases:
        assert_derivatives(func, args)


def test_ray_cast_on_a_box_face():
    box = primitives.box(2.0, 3.0, 2.0, center=((BMIN + BMAX) / 2).tolist())
    rc = G.GeomRayCast(box)
    s, d = np.array([3.0, 0.2, 0.1]), np.array([-2.0, 0.1, 0.0])
    # hits the face x = 1 at parameter 1: the value is d.(hit - s) = |d|^2
    assert rc.eval(se3_ad.identity(), s, d) == pytest.approx(d @ d)
    assert rc.eval(se3_ad.identity(), s, -d) == float('inf')
    np.testing.assert_allclose(rc.derivative(1, se3_ad.identity(), s, d), [[d @ d / 2.0, 0.0, 0.0]], atol=1e-6)


def test_min_distance_picks_the_closest_pair():
    T1 = transform(4, 0.7)
    T2 = transform(5, 2.0, offset=(2.5, 0.0, 0.0))
    box = primitives.box(1.0, 0.8, 0.6, center=(0.0, 0.0, 0.0))
    small = primitives.box(0.4, 0.4, 0.4, center=(0.0, 0.0, 0.0))
    objects = [box, small, [2.0, 2.0, 2.0], ([0.0, -2.0, 0.0], 0.3)]
    args = [T1, T2, np.array([2.0, 2.0, 2.0]), np.array([0.0, -2.0, 0.0, 0.3])]
    md = G.MinDistance(objects, names=['box', 'small', 'point', 'ball'])
    pairwise = [G.GeomGeomDistance(box, small).eval(T1, T2), G.GeomPointDistance(box).eval(T1, args[2]),
                G.GeomSphereDistance(box).eval(T1, args[3][:3], 0.3),
                G.GeomPointDistance(small).eval(T2, args[2]),
                G.GeomSphereDistance(small).eval(T2, args[3][:3], 0.3),
                np.linalg.norm(args[2] - args[3][:3]) - 0.3]
    assert md.eval(*args) == pytest.approx(min(pairwise))
    assert_derivatives(md, args)
    bounded = G.MinDistance(objects, upperBound=0.1)
    assert bounded.eval(*args) == pytest.approx(0.1)
    np.testing.assert_array_equal(bounded.derivative(0, *args), np.zeros((1, 12)))
    with pytest.raises(ValueError):
        G.MinDistance([box, "not a geometry"])
    with pytest.raises(ValueError):
        G.GeomPointDistance("not a geometry")
