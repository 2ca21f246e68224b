"""Autodiff geometry queries.

 ======================  ==========  ========================================
 Function                Derivative  Value
 ======================  ==========  ========================================
 BoxPointMargin          1           margin[bmin,bmax](x) -> R
 BoxPointDistance        1           D[bmin,bmax](x) -> R
 BoxPointClosest         1           CP[bmin,bmax](x) -> R^n
 sphere_point_distance   1           D(c,r,x) -> R
 sphere_point_closest    1           CP(c,r,x) -> R^n
 sphere_sphere_distance  1           D(c1,r1,c2,r2) -> R
 sphere_sphere_closest   1           CP(c1,r1,c2,r2) -> R^2n
 GeomPointDistance       1           D[geom](Tgeom,x) -> R
 GeomSphereDistance      1           D[geom](Tgeom,c,r) -> R
 GeomPointClosest        1           CP[geom](Tgeom,x) -> R^3
 GeomGeomDistance        1           D[geom1,geom2](Tgeom1,Tgeom2) -> R
 GeomRayCast             1           RC[geom](Tgeom,s,d) -> R
 MinDistance             1           the least of several distances
 ======================  ==========  ========================================

Geometry transforms are 12-element se3_ad arrays; the rotation part is used
as its nearest rotation, as in :mod:`so3_ad`, and the geometry moves
rigidly with it.  Distance derivatives are exact wherever the closest points
are unique: to first order, a distance changes only through the motion of
the closest points with their geometries (the envelope theorem).  The
closest point on a geometry also moves along its surface as the query point
moves; that shape-dependent term is measured with central differences of the
geometry's own closest-point query.  Ray casts treat the surface at the hit
point as its tangent plane, found from two neighbouring casts.
"""

import numpy as np

from .ad import ADFunctionInterface, function, minimum, maximum, stack, _jacobian  # noqa: F401 (exported)
from . import math_ad, so3_ad, se3_ad
from .. import vectorops, so3, se3  # noqa: F401 (exported)
from ...robotsim import Geometry3D, DistanceQuerySettings

_PROBE = 1e-6


class _Box(ADFunctionInterface):
    def __init__(self, bmin, bmax):
        self.bmin = np.asarray(bmin, dtype=float)
        self.bmax = np.asarray(bmax, dtype=float)
        if self.bmin.ndim != 1 or self.bmin.shape != self.bmax.shape:
            raise ValueError("bmin and bmax must be vectors of the same size")

    def __str__(self):
        return "geometry.%s[%s,%s]" % (self.__class__.__name__, self.bmin.tolist(), self.bmax.tolist())

    def n_args(self):
        return 1

    def n_in(self, arg):
        return self.bmin.shape[0]

    def n_out(self):
        return 1

    def _margin_gradient(self, x):
        """Gradient of the margin min(x - bmin, bmax - x)."""
        lo, hi = x - self.bmin, self.bmax - x
        g = np.zeros(x.shape[0])
        i, j = int(np.argmin(lo)), int(np.argmin(hi))
        if lo[i] <= hi[j]:
            g[i] = 1.0
        else:
            g[j] = -1.0
        return g


class BoxPointMargin(_Box):
    """The inner margin of the point x in the box [bmin, bmax]: its least
    distance to the box's faces, positive inside and negative outside."""

    def eval(self, x):
        return float(min((x - self.bmin).min(), (self.bmax - x).min()))

    def derivative(self, arg, x):
        return self._margin_gradient(np.asarray(x, dtype=float))[np.newaxis, :]

    def gen_derivative(self, arg, x):
        return self.derivative(0, x) if len(arg) == 1 else 0


class BoxPointDistance(_Box):
    """The signed distance from the box [bmin, bmax] to the point x:
    positive outside, minus the margin inside."""

    def eval(self, x):
        close = np.clip(x, self.bmin, self.bmax)
        if np.array_equal(close, x):
            return -float(min((x - self.bmin).min(), (self.bmax - x).min()))
        return float(np.linalg.norm(x - close))

    def derivative(self, arg, x):
        x = np.asarray(x, dtype=float)
        close = np.clip(x, self.bmin, self.bmax)
        if np.array_equal(close, x):
            return -self._margin_gradient(x)[np.newaxis, :]
        d = x - close
        return (d / np.linalg.norm(d))[np.newaxis, :]


class BoxPointClosest(_Box):
    """The point of the box [bmin, bmax] closest to x."""

    def n_out(self):
        return self.bmin.shape[0]

    def eval(self, x):
        return np.clip(x, self.bmin, self.bmax)

    def derivative(self, arg, x):
        x = np.asarray(x, dtype=float)
        return np.diag(((x > self.bmin) & (x < self.bmax)).astype(float))

    def gen_derivative(self, arg, x):
        return self.derivative(0, x) if len(arg) == 1 else 0


def sphere_point_distance(c, r, x):
    """Autodiff expression of the signed distance from the sphere (center c,
    radius r) to the point x."""
    return math_ad.distance(c, x) - r


def sphere_point_closest(c, r, x):
    """Autodiff expression of the point of the solid sphere (center c,
    radius r) closest to x."""
    d = math_ad.distance(x, c)
    return c + minimum(d, r) / d * (x - c)


def sphere_sphere_distance(c1, r1, c2, r2):
    """Autodiff expression of the signed distance between two spheres."""
    return math_ad.distance(c1, c2) - r1 - r2


def sphere_sphere_closest(c1, r1, c2, r2):
    """Autodiff expression of the closest points of two solid spheres,
    stacked into one vector (the point on sphere 1, then on sphere 2)."""
    d = math_ad.distance(c1, c2)
    return stack(c1 + minimum(d, r1) / d * (c2 - c1), c2 + minimum(d, r2) / d * (c1 - c2))


def _geom_str(geom):
    gtype = geom.type()
    if gtype == 'GeometricPrimitive':
        return geom.getGeometricPrimitive().type
    if gtype in ('TriangleMesh', 'PointCloud', 'Group'):
        return '%s with %d elements' % (gtype, geom.numElements())
    return gtype


def _settings(relErr, absErr, upperBound):
    if relErr is None and absErr is None and upperBound is None:
        return None
    s = DistanceQuerySettings()
    if relErr is not None:
        s.relErr = relErr
    if absErr is not None:
        s.absErr = absErr
    if upperBound is not None:
        s.upperBound = upperBound
    return s


def _place(geom, T):
    """Sets geom's transform to T (rotation projected to SO(3))."""
    T = np.asarray(T, dtype=float)
    R = so3_ad._vec(so3_ad._polar(T[:9]))
    geom.setCurrentTransform(R.tolist(), T[9:].tolist())


def _rigid_motion(T, p):
    """3 x 12 derivative of a point p attached to a geometry with transform T
    with respect to T (rigid motion with the rotation's nearest rotation)."""
    T = np.asarray(T, dtype=float)
    arm = np.asarray(p, dtype=float) - T[9:]
    return np.hstack((-so3_ad._skew(arm) @ so3_ad._world_rate(T[:9]), np.eye(3)))


class _GeomQuery(ADFunctionInterface):
    def _init_geom(self, geom, name, what):
        if not isinstance(geom, Geometry3D):
            raise ValueError("%s expects a Geometry3D" % what)
        return name if name is not None else _geom_str(geom)

    def _point_query(self, geom, T, x, settings=None):
        _place(geom, T)
        x = np.asarray(x, dtype=float).tolist()
        return geom.distance_point(x) if settings is None else geom.distance_point_ext(x, settings)


def _point_gradient(res, x):
    """d distance / d x of a point query result."""
    if res.hasGradients:
        return np.array(res.grad2)
    if not res.hasClosestPoints or res.d == 0:
        raise NotImplementedError()
    return (np.asarray(x, dtype=float) - np.array(res.cp1)) / res.d


class GeomPointDistance(_GeomQuery):
    """The signed distance D(Tgeom, x) from the geometry placed at Tgeom to
    the point x (``Geometry3D.distance_point``).  relErr, absErr and
    upperBound set the query's DistanceQuerySettings; beyond upperBound
    the value is upperBound and the derivative 0."""

    def __init__(self, geom, name=None, relErr=None, absErr=None, upperBound=None):
        self.name = self._init_geom(geom, name, "GeomPointDistance")
        self.geom = geom
        self.settings = _settings(relErr, absErr, upperBound)

    def __str__(self):
        return "geometry.GeomPointDistance[%s]" % (self.name,)

    def argname(self, arg):
        return ['T', 'x'][arg]

    def n_args(self):
        return 2

    def n_in(self, arg):
        return se3_ad.SIZE if arg == 0 else 3

    def n_out(self):
        return 1

    def eval(self, T, x):
        return float(self._point_query(self.geom, T, x, self.settings).d)

    def derivative(self, arg, T, x):
        res = self._point_query(self.geom, T, x, self.settings)
        if self.settings is not None and res.d >= self.settings.upperBound:
            return np.zeros((1, self.n_in(arg)))
        g = _point_gradient(res, x)
        if arg == 1:
            return g[np.newaxis, :]
        # the geometry's closest point moves rigidly with T
        return -(g @ _rigid_motion(T, res.cp1))[np.newaxis, :]


class GeomSphereDistance(_GeomQuery):
    """The signed distance D(Tgeom, c, r) from the geometry placed at Tgeom
    to the sphere of center c and radius r."""

    def __init__(self, geom, name=None, relErr=None, absErr=None, upperBound=None):
        self.geom_point = GeomPointDistance(geom, name, relErr, absErr, upperBound)

    def __str__(self):
        return "geometry.GeomSphereDistance[%s]" % (self.geom_point.name,)

    def argname(self, arg):
        return ['T', 'c', 'r'][arg]

    def n_args(self):
        return 3

    def n_in(self, arg):
        return [se3_ad.SIZE, 3, 1][arg]

    def n_out(self):
        return 1

    def eval(self, T, c, r):
        return self.geom_point.eval(T, c) - float(r)

    def derivative(self, arg, T, c, r):
        if arg == 2:
            return -np.ones((1, 1))
        return self.geom_point.derivative(arg, T, c)


class GeomPointClosest(_GeomQuery):
    """The point CP(Tgeom, x) of the geometry placed at Tgeom closest to x."""

    def __init__(self, geom, name=None):
        self.name = self._init_geom(geom, name, "GeomPointClosest")
        self.geom = geom

    def __str__(self):
        return "geometry.GeomPointClosest[%s]" % (self.name,)

    def argname(self, arg):
        return ['T', 'x'][arg]

    def n_args(self):
        return 2

    def n_in(self, arg):
        return se3_ad.SIZE if arg == 0 else 3

    def n_out(self):
        return 3

    def eval(self, T, x):
        res = self._point_query(self.geom, T, x)
        if not res.hasClosestPoints:
            raise RuntimeError("Geometry type %s has no closest point query" % (self.geom.type(),))
        return np.array(res.cp1)

    def _dx(self, T, x):
        x = np.asarray(x, dtype=float)
        cols = []
        for e in np.eye(3) * _PROBE:
            cols.append((self.eval(T, x + e) - self.eval(T, x - e)) / (2 * _PROBE))
        return np.column_stack(cols)

    def derivative(self, arg, T, x):
        D = self._dx(T, x)
        if arg == 1:
            return D
        cp = self.eval(T, x)
        # cp(T, x) = T cp_local(T^-1 x): rigid motion of cp, minus the
        # surface motion of the relative query point
        return _rigid_motion(T, cp) - D @ _rigid_motion(T, x)


class GeomGeomDistance(_GeomQuery):
    """The signed distance D(T1, T2) between two geometries placed at T1 and
    T2 (``Geometry3D.distance``)."""

    def __init__(self, geom1, geom2, name1=None, name2=None, relErr=None, absErr=None, upperBound=None):
        self.name1 = self._init_geom(geom1, name1, "GeomGeomDistance")
        self.name2 = self._init_geom(geom2, name2, "GeomGeomDistance")
        self.geom1, self.geom2 = geom1, geom2
        self.settings = _settings(relErr, absErr, upperBound)

    def __str__(self):
        return "geometry.GeomGeomDistance[%s,%s]" % (self.name1, self.name2)

    def argname(self, arg):
        return ['T1', 'T2'][arg]

    def n_args(self):
        return 2

    def n_in(self, arg):
        return se3_ad.SIZE

    def n_out(self):
        return 1

    def _query(self, T1, T2):
        _place(self.geom1, T1)
        _place(self.geom2, T2)
        if self.settings is None:
            return self.geom1.distance(self.geom2)
        return self.geom1.distance_ext(self.geom2, self.settings)

    def eval(self, T1, T2):
        return float(self._query(T1, T2).d)

    def derivative(self, arg, T1, T2):
        res = self._query(T1, T2)
        if self.settings is not None and res.d >= self.settings.upperBound:
            return np.zeros((1, se3_ad.SIZE))
        if not res.hasClosestPoints:
            raise NotImplementedError()
        cp1, cp2 = np.array(res.cp1), np.array(res.cp2)
        if res.hasGradients:
            g1 = np.array(res.grad1)
        elif res.d != 0:
            g1 = (cp1 - cp2) / res.d
        else:
            raise NotImplementedError()
        if arg == 0:
            return (g1 @ _rigid_motion(T1, cp1))[np.newaxis, :]
        g2 = np.array(res.grad2) if res.hasGradients else -g1
        return (g2 @ _rigid_motion(T2, cp2))[np.newaxis, :]


class GeomRayCast(_GeomQuery):
    """RC(Tgeom, s, d): the ray parameter ``d . (hit - s)`` of the first hit
    of the ray from s along d on the geometry placed at Tgeom (the distance
    to the hit for a unit d), or inf if the ray misses."""

    def __init__(self, geom, name=None):
        self.name = self._init_geom(geom, name, "GeomRayCast")
        self.geom = geom

    def __str__(self):
        return "geometry.GeomRayCast[%s]" % (self.name,)

    def argname(self, arg):
        return ['T', 's', 'd'][arg]

    def n_args(self):
        return 3

    def n_in(self, arg):
        return se3_ad.SIZE if arg == 0 else 3

    def n_out(self):
        return 1

    def _cast(self, T, s, d):
        _place(self.geom, T)
        hit, pt = self.geom.rayCast(np.asarray(s, dtype=float).tolist(), np.asarray(d, dtype=float).tolist())
        return np.array(pt) if hit else None

    def eval(self, T, s, d):
        hit = self._cast(T, s, d)
        if hit is None:
            return float('inf')
        return float(np.dot(d, hit - s))

    def _normal(self, T, s, d, hit):
        """Normal of the surface's tangent plane at the hit, from two
        neighbouring parallel casts."""
        frame = so3_ad._mat(so3.canonical(np.asarray(d, dtype=float).tolist()))
        others = []
        for axis in (frame[:, 1], frame[:, 2]):
            p = self._cast(T, s + _PROBE * axis, d)
            if p is None:
                raise NotImplementedError()
            others.append(p - hit)
        n = np.cross(others[0], others[1])
        norm = np.linalg.norm(n)
        if norm == 0:
            raise NotImplementedError()
        return n / norm

    def derivative(self, arg, T, s, d):
        s, d = np.asarray(s, dtype=float), np.asarray(d, dtype=float)
        hit = self._cast(T, s, d)
        if hit is None:
            return np.zeros((1, self.n_in(arg)))
        n = self._normal(T, s, d, hit)
        nd = np.dot(n, d)
        dd = np.dot(d, d)
        # hit = s + t d on the plane n.(p - hit) = 0; value = t |d|^2
        t = np.dot(n, hit - s) / nd
        if arg == 1:
            return (-dd * n / nd)[np.newaxis, :]
        if arg == 2:
            return (t * (2 * d - dd * n / nd))[np.newaxis, :]
        # the plane moves rigidly: n' = w x n, hit' = w x (hit - t0) + v
        W = so3_ad._world_rate(np.asarray(T, dtype=float)[:9])
        dn = -so3_ad._skew(n) @ W  # 3 x 9
        dnum = n @ _rigid_motion(T, hit)
        dnum[:9] += (hit - s) @ dn
        dden = np.zeros(12)
        dden[:9] = d @ dn
        return (dd * (dnum / nd - t * dden / nd))[np.newaxis, :]


class MinDistance(ADFunctionInterface):
    """The least distance over pairs of objects, each a Geometry3D (whose
    argument is its 12-entry transform), a point (given as a 3-vector; its
    argument is the point) or a sphere (given as a (center, radius) pair; its
    argument is the 4-vector center + radius).  Equivalent to the minimum of
    the pairwise Geom*/sphere distance functions, with each query bounded
    by the least distance found so far.

    Args:
        geometries (list): the objects.
        pairs ('all' or list of (int, int)): the pairs of indices tested.
        names (list of str, optional): names for printing.
        relErr, absErr (float, optional): query tolerances.
        upperBound (float, optional): distances above it are reported as it.
    """

    def __init__(self, geometries, pairs='all', names=None, relErr=None, absErr=None, upperBound=None):
        self.kinds = []
        for g in geometries:
            if isinstance(g, Geometry3D):
                self.kinds.append(g)
            elif hasattr(g, '__len__') and len(g) == 3 and not hasattr(g[0], '__len__'):
                self.kinds.append('point')
            elif (hasattr(g, '__len__') and len(g) == 2 and hasattr(g[0], '__len__')
                  and len(g[0]) == 3 and not hasattr(g[1], '__len__')):
                self.kinds.append('sphere')
            else:
                raise ValueError("Geometry list item %r is not a Geometry3D, point, or sphere" % (g,))
        if names is not None and len(names) != len(geometries):
            raise ValueError("Invalid number of names provided")
        self.names = list(names) if names is not None else [None] * len(geometries)
        n = len(self.kinds)
        if isinstance(pairs, str) and pairs == 'all':
            pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        self.pairs = []
        for i, j in pairs:
            if not (0 <= i < n and 0 <= j < n) or i == j:
                raise ValueError("Invalid pair (%d,%d)" % (i, j))
            self.pairs.append((i, j))
        if not self.pairs:
            raise ValueError("MinDistance needs at least one pair")
        self.relErr, self.absErr = relErr, absErr
        self.upperBound = float('inf') if upperBound is None else float(upperBound)
        self.queries = [self._make_query(i, j) for i, j in self.pairs]

    def _make_query(self, i, j):
        """(function, flipped): the distance function of the pair, taking
        the two objects' arguments (in reverse order if flipped)."""
        a, b = self.kinds[i], self.kinds[j]
        opts = (self.relErr, self.absErr, float('inf'))
        geom_a, geom_b = isinstance(a, Geometry3D), isinstance(b, Geometry3D)
        if geom_a and geom_b:
            return GeomGeomDistance(a, b, self.names[i], self.names[j], *opts), False
        if geom_a or geom_b:
            g, other, flipped = (a, b, False) if geom_a else (b, a, True)
            name = self.names[i] if geom_a else self.names[j]
            if other == 'point':
                return GeomPointDistance(g, name, *opts), flipped
            return _SphereArgs(GeomSphereDistance(g, name, *opts)), flipped
        if a == 'point' and b == 'point':
            return math_ad.distance, False
        if a == 'sphere' and b == 'sphere':
            return _SPHERE_SPHERE, False
        return _SPHERE_POINT, a == 'point'

    def __str__(self):
        if self.names[0] is None:
            label = '%d geometries, %d queries' % (len(self.kinds), len(self.pairs))
        else:
            label = ','.join(self.names)
        return "geometry.MinDistance[%s]" % (label,)

    def n_args(self):
        return len(self.kinds)

    def n_in(self, arg):
        kind = self.kinds[arg]
        if isinstance(kind, Geometry3D):
            return se3_ad.SIZE
        return 3 if kind == 'point' else 4

    def n_out(self):
        return 1

    def argname(self, arg):
        kind = self.kinds[arg]
        base = 'T' if isinstance(kind, Geometry3D) else ('x' if kind == 'point' else 'cr')
        return base + '_' + (self.names[arg] if self.names[arg] is not None else str(arg))

    def _query_args(self, q, args):
        i, j = self.pairs[q]
        func, flipped = self.queries[q]
        return func, flipped, ([args[j], args[i]] if flipped else [args[i], args[j]])

    def _closest(self, args):
        """(distance, index of the closest pair or None)."""
        best, which = self.upperBound, None
        for q in range(len(self.pairs)):
            func, _, qargs = self._query_args(q, args)
            settings = _query_settings(func)
            if settings is not None:
                # a sphere query bounds the distance to its center
                settings.upperBound = best + (qargs[1][3] if isinstance(func, _SphereArgs) else 0.0)
            d = func.eval(*qargs)
            if d < best:
                best, which = d, q
        return best, which

    def eval(self, *args):
        return float(self._closest(args)[0])

    def derivative(self, arg, *args):
        _, q = self._closest(args)
        res = np.zeros((1, self.n_in(arg)))
        if q is None:
            return res
        i, j = self.pairs[q]
        if arg not in (i, j):
            return res
        func, flipped, qargs = self._query_args(q, args)
        settings = _query_settings(func)
        if settings is not None:
            settings.upperBound = float('inf')
        return _jacobian(func, 0 if (arg == i) != flipped else 1, qargs)


def _query_settings(func):
    """The DistanceQuerySettings of a Geom* query, or None."""
    if isinstance(func, _SphereArgs):
        func = func.query
    if isinstance(func, GeomSphereDistance):
        func = func.geom_point
    return getattr(func, 'settings', None)


class _SphereSphere(ADFunctionInterface):
    """Distance between spheres given as 4-vectors (center, radius)."""

    def __str__(self):
        return 'sphere_sphere_distance'

    def n_args(self):
        return 2

    def n_in(self, arg):
        return 4

    def n_out(self):
        return 1

    def eval(self, a, b):
        return float(np.linalg.norm(a[:3] - b[:3]) - a[3] - b[3])

    def derivative(self, arg, a, b):
        u = (a[:3] - b[:3]) / np.linalg.norm(a[:3] - b[:3])
        return np.hstack((u if arg == 0 else -u, -1.0))[np.newaxis, :]


class _SpherePoint(ADFunctionInterface):
    """Distance from a sphere given as a 4-vector (center, radius) to a
    point."""

    def __str__(self):
        return 'sphere_point_distance'

    def n_args(self):
        return 2

    def n_in(self, arg):
        return 4 if arg == 0 else 3

    def n_out(self):
        return 1

    def eval(self, cr, x):
        return float(np.linalg.norm(x - cr[:3]) - cr[3])

    def derivative(self, arg, cr, x):
        u = (x - cr[:3]) / np.linalg.norm(x - cr[:3])
        return (np.hstack((-u, -1.0)) if arg == 0 else u)[np.newaxis, :]


_SPHERE_SPHERE = _SphereSphere()
_SPHERE_POINT = _SpherePoint()


class _SphereArgs(ADFunctionInterface):
    """Adapts a (T, c, r) sphere query to a (T, cr) one."""

    def __init__(self, query):
        self.query = query

    def __str__(self):
        return str(self.query)

    def n_args(self):
        return 2

    def eval(self, T, cr):
        return self.query.eval(T, cr[:3], cr[3])

    def derivative(self, arg, T, cr):
        if arg == 0:
            return self.query.derivative(0, T, cr[:3], cr[3])
        return np.hstack((self.query.derivative(1, T, cr[:3], cr[3]), -np.ones((1, 1))))
