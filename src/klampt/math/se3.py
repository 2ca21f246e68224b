"""Operations for rigid transformations in Klamp't.

A transform is a pair ``T = (R, t)`` where R is an :mod:`so3` rotation (a
column-major 9-list) and t is a 3-list translation, representing the map
``x -> R*x + t``.  ``T[0]`` is the rotation and ``T[1]`` the translation.

Arguments may use lists, tuples or numpy arrays.
"""

from . import so3

__all__ = ['identity', 'inv', 'apply', 'apply_rotation', 'rotation',
           'from_rotation', 'translation', 'from_translation', 'homogeneous',
           'from_homogeneous', 'ndarray', 'from_ndarray', 'mul', 'distance',
           'error', 'interpolate', 'interpolator']


def identity():
    """Returns the identity transformation."""
    return ([1., 0., 0., 0., 1., 0., 0., 0., 1.], [0., 0., 0.])


def inv(T):
    """Returns the inverse of the transformation, (R^T, -R^T*t)."""
    R, t = T
    Rinv = so3.inv(R)
    x, y, z = t[0], t[1], t[2]
    return (Rinv, [-(R[0] * x + R[1] * y + R[2] * z),
                   -(R[3] * x + R[4] * y + R[5] * z),
                   -(R[6] * x + R[7] * y + R[8] * z)])


def apply(T, point):
    """Applies the transform T to the given point: R*point + t."""
    R, t = T
    x, y, z = point[0], point[1], point[2]
    return [R[0] * x + R[3] * y + R[6] * z + t[0],
            R[1] * x + R[4] * y + R[7] * z + t[1],
            R[2] * x + R[5] * y + R[8] * z + t[2]]


def apply_rotation(T, point):
    """Applies only the rotation part of T (e.g., to a direction)."""
    return so3.apply(T[0], point)


def rotation(T):
    """Returns the 3x3 rotation matrix (list of rows) of T's rotation."""
    return so3.matrix(T[0])


def from_rotation(mat):
    """Returns a transform with the 3x3 rotation matrix mat and zero
    translation."""
    return (so3.from_matrix(mat), [0., 0., 0.])


def translation(T):
    """Returns the translation vector of T."""
    return T[1]


def from_translation(t):
    """Returns a transformation that translates points by t."""
    return (so3.identity(), list(t))


def homogeneous(T):
    """Returns the 4x4 homogeneous matrix (list of rows) of T."""
    R, t = T
    return [[R[0], R[3], R[6], t[0]],
            [R[1], R[4], R[7], t[1]],
            [R[2], R[5], R[8], t[2]],
            [0., 0., 0., 1.]]


def from_homogeneous(mat):
    """Returns the transform corresponding to a 4x4 homogeneous matrix (list
    of rows or 2-D array)."""
    t = [mat[0][3], mat[1][3], mat[2][3]]
    R = [mat[0][0], mat[1][0], mat[2][0],
         mat[0][1], mat[1][1], mat[2][1],
         mat[0][2], mat[1][2], mat[2][2]]
    return (R, t)


def ndarray(T):
    """Returns the 4x4 numpy homogeneous matrix of T."""
    import numpy
    return numpy.array(homogeneous(T))


def from_ndarray(mat):
    """Returns the transform corresponding to a 4x4 numpy homogeneous
    matrix."""
    import numpy
    return from_homogeneous(numpy.asarray(mat, dtype=float).tolist())


def mul(T1, T2):
    """Composes two transformations: (T1*T2)(x) = T1(T2(x))."""
    if len(T1) != 2:
        raise ValueError("T1 is not a transform")
    if len(T2) != 2:
        raise ValueError("T2 is not a transform (did you mean to use apply())?")
    R1, t1 = T1
    R2, t2 = T2
    return (so3.mul(R1, R2), apply(T1, t2))


def distance(T1, T2, Rweight=1.0, tweight=1.0) -> float:
    """Returns a distance between two transforms: Rweight times the rotation
    angle between them plus tweight times the translation distance."""
    R1, t1 = T1
    R2, t2 = T2
    dx, dy, dz = t1[0] - t2[0], t1[1] - t2[1], t1[2] - t2[2]
    return (Rweight * so3.distance(R1, R2)
            + tweight * (dx * dx + dy * dy + dz * dz) ** 0.5)


def error(T1, T2):
    """Returns a 6D "difference vector" describing how far T1 is from T2:
    so3.error(R1,R2) followed by t1-t2."""
    R1, t1 = T1
    R2, t2 = T2
    return so3.error(R1, R2) + [t1[0] - t2[0], t1[1] - t2[1], t1[2] - t2[2]]


def interpolate(T1, T2, u):
    """Interpolates between T1 (u=0) and T2 (u=1): geodesic for the rotation,
    linear for the translation."""
    t1 = T1[1]
    t2 = T2[1]
    return (so3.interpolate(T1[0], T2[0], u),
            [a + u * (b - a) for a, b in zip(t1, t2)])


def interpolator(T1, T2):
    """Returns a function f(u) equivalent to interpolate(T1,T2,u), faster
    for repeated evaluation."""
    R1, t1 = T1
    R2, t2 = T2
    fR = so3.interpolator(R1, R2)
    t1 = list(t1)
    dt = [b - a for a, b in zip(t1, t2)]

    def f(u):
        return (fR(u), [a + u * d for a, d in zip(t1, dt)])
    return f
