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
        """The dimension of the space as a manifold (the number of degrees
        of freedom of an element), e.g. 3 for SO(3).

        Returns:
            int
        """
        raise NotImplementedError()

    def extrinsicDimension(self):
        """The number of coordinates of an element as it is stored, e.g. 9
        for SO(3) (a column-major matrix).  Tangent vectors have this size
        too.

        Returns:
            int
        """
        raise NotImplementedError()

    def distance(self, a, b):
        """The geodesic distance between the elements a and b: ``||a - b||``
        in this Euclidean base class; each subclass's docstring names its
        metric.

        Args:
            a (list of float): an element of extrinsicDimension() coordinates.
            b (list of float): an element of extrinsicDimension() coordinates.

        Returns:
            float: a nonnegative distance.
        """
        return vectorops.distance(a, b)

    def interpolate(self, a, b, u):
        """The point at parameter u on the geodesic from a (u=0) to b (u=1):
        the straight line ``a + u (b - a)`` in this Euclidean base class;
        subclasses follow their own geodesics.

        Args:
            a (list of float): the start element.
            b (list of float): the end element.
            u (float): the parameter; values outside [0, 1] extrapolate.

        Returns:
            list of float: an element of extrinsicDimension() coordinates.
        """
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
    are the concatenations of the components' elements and tangents.

    Interpolation is componentwise; the distance is
    ``sqrt(sum_i componentWeights[i] * d_i(a_i, b_i)**2)`` (weights 1 by
    default).

    Args:
        *components (GeodesicSpace): the factor spaces, in order.
    """

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
    """Planar rotations, stored as 1-element lists [angle] (rad).

    The distance is the absolute shortest-arc angle difference, in [0, pi]
    rad; interpolation follows the shortest arc and does not normalize the
    result.
    """

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
    velocities (see the module docstring).

    The distance is the angle of the relative rotation, in [0, pi] rad;
    interpolation follows the great arc (:func:`klampt.math.so3.interpolate`).
    """

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
    are the SO(3) tangent (9 elements) followed by the translation change.

    The rotation and the translation are treated separately: the distance is
    ``sqrt(angle**2 + ||t_a - t_b||**2)`` (rad and m added as numbers), and
    interpolation moves the rotation along its great arc and the translation
    along a straight line.
    """

    def intrinsicDimension(self):
        return 6

    def extrinsicDimension(self):
        return 12

    def to_se3(self, x):
        """Converts an element to a :mod:`klampt.math.se3` transform.

        Args:
            x (list of float): 12 elements, R (column-major) then t.

        Returns:
            tuple: (R, t), R a 9-element list, t a 3-element list (m).
        """
        return (list(x[:9]), list(x[9:]))

    def from_se3(self, T):
        """Converts a :mod:`klampt.math.se3` transform (R, t) to an element:
        the 12-element list R + t.  Inverse of :meth:`to_se3`."""
        return list(T[0]) + list(T[1])

    def distance(self, a, b):
        return math.sqrt(so3.distance(a[:9], b[:9]) ** 2 + vectorops.distanceSquared(a[9:], b[9:]))

    def interpolate(self, a, b, u):
        return so3.interpolate(a[:9], b[:9], u) + vectorops.interpolate(a[9:], b[9:], u)

    def difference(self, a, b):
        return SO3Space().difference(a[:9], b[:9]) + vectorops.sub(a[9:], b[9:])

    def integrate(self, x, d):
        return SO3Space().integrate(x[:9], d[:9]) + vectorops.add(x[9:], d[9:])
