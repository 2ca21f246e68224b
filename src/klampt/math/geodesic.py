"""Geodesic spaces: the interpolation, difference and integration rules that
:mod:`klampt.model.trajectory` uses for non-Euclidean configurations.

Every space maps an element ``a`` and a base ``b`` to a tangent vector
``difference(a, b)`` such that ``integrate(b, difference(a, b)) == a``.

For SO(3) the tangent is the 9-D cross-product matrix ``[w]`` of the
world-frame angular velocity ``w`` that rotates ``b`` onto ``a`` in unit time
(``a = e^[w] b``); integrating ``[w]`` from ``x`` gives ``e^[w] x``.
"""
import math

from . import vectorops, so2, so3


class GeodesicSpace(object):
    """Base class: a Euclidean space of any dimension (``a - b`` is the
    difference).  Subclasses override the methods for curved spaces."""

    def intrinsicDimension(self):
        raise NotImplementedError()

    def extrinsicDimension(self):
        raise NotImplementedError()

    def distance(self, a, b):
        return vectorops.distance(a, b)

    def interpolate(self, a, b, u):
        return vectorops.interpolate(a, b, u)

    def difference(self, a, b):
        """Tangent vector at b that integrates to a."""
        return vectorops.sub(a, b)

    def integrate(self, x, d):
        """The element reached from x by following the tangent d."""
        return vectorops.add(x, d)


class CartesianSpace(GeodesicSpace):
    """The Euclidean space R^d."""

    def __init__(self, d):
        self.d = d

    def intrinsicDimension(self):
        return self.d

    def extrinsicDimension(self):
        return self.d


class MultiGeodesicSpace(GeodesicSpace):
    """The Cartesian product of several geodesic spaces; elements and tangents
    are the concatenations of the components' elements and tangents."""

    def __init__(self, *components):
        self.components = list(components)
        self.componentWeights = [1.0] * len(components)

    def intrinsicDimension(self):
        return sum(c.intrinsicDimension() for c in self.components)

    def extrinsicDimension(self):
        return sum(c.extrinsicDimension() for c in self.components)

    def split(self, x):
        """Splits an element into the list of its components' elements."""
        res = []
        k = 0
        for c in self.components:
            d = c.extrinsicDimension()
            res.append(list(x[k:k + d]))
            k += d
        if k != len(x):
            raise ValueError("Element of size %d does not match the space's dimension %d" % (len(x), k))
        return res

    def join(self, xs):
        """Concatenates the components' elements into one element."""
        res = []
        for x in xs:
            res += list(x)
        return res

    def distance(self, a, b):
        total = 0.0
        for c, w, ai, bi in zip(self.components, self.componentWeights, self.split(a), self.split(b)):
            total += w * c.distance(ai, bi) ** 2
        return math.sqrt(total)

    def interpolate(self, a, b, u):
        return self.join(c.interpolate(ai, bi, u) for c, ai, bi in zip(self.components, self.split(a), self.split(b)))

    def difference(self, a, b):
        return self.join(c.difference(ai, bi) for c, ai, bi in zip(self.components, self.split(a), self.split(b)))

    def integrate(self, x, diff):
        return self.join(c.integrate(xi, di) for c, xi, di in zip(self.components, self.split(x), self.split(diff)))


class SO2Space(GeodesicSpace):
    """Planar rotations, stored as 1-element lists [angle]."""

    def intrinsicDimension(self):
        return 1

    def extrinsicDimension(self):
        return 1

    def distance(self, a, b):
        return abs(so2.diff(a[0], b[0]))

    def interpolate(self, a, b, u):
        return [so2.interp(a[0], b[0], u)]

    def difference(self, a, b):
        return [so2.diff(a[0], b[0])]

    def integrate(self, x, d):
        return [so2.normalize(x[0] + d[0])]


class SO3Space(GeodesicSpace):
    """3D rotations as 9-element column-major matrices (:mod:`klampt.math.so3`).
    Tangents are 9-element cross-product matrices of world-frame angular
    velocities (see the module docstring)."""

    def intrinsicDimension(self):
        return 3

    def extrinsicDimension(self):
        return 9

    def distance(self, a, b):
        return so3.distance(a, b)

    def interpolate(self, a, b, u):
        return so3.interpolate(a, b, u)

    def difference(self, a, b):
        return so3.cross_product(so3.error(a, b))

    def integrate(self, x, d):
        return so3.mul(so3.from_rotation_vector(so3.deskew(d)), x)


class SE3Space(GeodesicSpace):
    """Rigid transforms as 12-element lists R + t (R column-major).  Tangents
    are the SO(3) tangent (9 elements) followed by the translation change."""

    def intrinsicDimension(self):
        return 6

    def extrinsicDimension(self):
        return 12

    def to_se3(self, x):
        return (list(x[:9]), list(x[9:]))

    def from_se3(self, T):
        return list(T[0]) + list(T[1])

    def distance(self, a, b):
        return math.sqrt(so3.distance(a[:9], b[:9]) ** 2 + vectorops.distanceSquared(a[9:], b[9:]))

    def interpolate(self, a, b, u):
        return so3.interpolate(a[:9], b[:9], u) + vectorops.interpolate(a[9:], b[9:], u)

    def difference(self, a, b):
        return SO3Space().difference(a[:9], b[:9]) + vectorops.sub(a[9:], b[9:])

    def integrate(self, x, d):
        return SO3Space().integrate(x[:9], d[:9]) + vectorops.add(x[9:], d[9:])
