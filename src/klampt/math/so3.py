"""Operations for 3D rotations in Klamp't.

A rotation is a 9-list holding the entries of its 3x3 matrix in column-major
order: the matrix::

    [a11,a12,a13]
    [a21,a22,a23]
    [a31,a32,a33]

is represented as ``[a11,a21,a31,a12,a22,a32,a13,a23,a33]``.

Arguments may be lists, tuples or numpy arrays.  Quaternions are ``(w,x,y,z)``
and rotation vectors ("moments") are ``axis*angle``.
"""

import math

__all__ = ['identity', 'inv', 'apply', 'matrix', 'from_matrix', 'ndarray',
           'from_ndarray', 'mul', 'trace', 'angle', 'rpy', 'from_rpy',
           'rotation_vector', 'from_rotation_vector', 'moment', 'from_moment',
           'axis_angle', 'from_axis_angle', 'quaternion', 'from_quaternion',
           'distance', 'error', 'cross_product', 'diag', 'deskew', 'rotation',
           'canonical', 'align', 'interpolate', 'interpolator', 'det',
           'is_rotation', 'sample']

_TWOPI = 2.0 * math.pi


def __str__(R) -> str:
    """Converts a rotation to a string (its matrix, one row per line)."""
    return '\n'.join([' '.join([str(ri) for ri in r]) for r in matrix(R)])


def identity():
    """Returns the identity rotation."""
    return [1., 0., 0., 0., 1., 0., 0., 0., 1.]


def inv(R):
    """Inverts the rotation (i.e., returns its transpose)."""
    return [R[0], R[3], R[6], R[1], R[4], R[7], R[2], R[5], R[8]]


def apply(R, point):
    """Applies the rotation to a 3D point.  Returns a 3-tuple."""
    x, y, z = point[0], point[1], point[2]
    return (R[0] * x + R[3] * y + R[6] * z,
            R[1] * x + R[4] * y + R[7] * z,
            R[2] * x + R[5] * y + R[8] * z)


def matrix(R):
    """Returns the 3x3 matrix (list of rows) corresponding to R."""
    return [[R[0], R[3], R[6]],
            [R[1], R[4], R[7]],
            [R[2], R[5], R[8]]]


def from_matrix(mat):
    """Returns the rotation corresponding to a 3x3 matrix given as a list of
    rows (or a 2-D array)."""
    return [mat[0][0], mat[1][0], mat[2][0],
            mat[0][1], mat[1][1], mat[2][1],
            mat[0][2], mat[1][2], mat[2][2]]


def ndarray(R):
    """Returns the 3x3 numpy matrix corresponding to R."""
    import numpy
    return numpy.array(matrix(R))


def from_ndarray(mat):
    """Returns the rotation corresponding to a 3x3 numpy matrix."""
    import numpy
    return numpy.asarray(mat, dtype=float).T.flatten().tolist()


def mul(R1, R2):
    """Multiplies two rotations: returns R1*R2."""
    if len(R1) != 9:
        raise ValueError("R1 is not a rotation matrix")
    if len(R2) != 9:
        raise ValueError("R2 is not a rotation matrix (did you mean to use apply())?")
    a0, a1, a2, a3, a4, a5, a6, a7, a8 = R1
    b0, b1, b2, b3, b4, b5, b6, b7, b8 = R2
    return [a0 * b0 + a3 * b1 + a6 * b2,
            a1 * b0 + a4 * b1 + a7 * b2,
            a2 * b0 + a5 * b1 + a8 * b2,
            a0 * b3 + a3 * b4 + a6 * b5,
            a1 * b3 + a4 * b4 + a7 * b5,
            a2 * b3 + a5 * b4 + a8 * b5,
            a0 * b6 + a3 * b7 + a6 * b8,
            a1 * b6 + a4 * b7 + a7 * b8,
            a2 * b6 + a5 * b7 + a8 * b8]


def trace(R) -> float:
    """Returns the trace of the rotation matrix."""
    return R[0] + R[4] + R[8]


def angle(R) -> float:
    """Returns the absolute rotation angle of R (its deviation from the
    identity), in [0, pi]."""
    sx = R[5] - R[7]
    sy = R[6] - R[2]
    sz = R[1] - R[3]
    # |deskew(R)| = sin(theta), (tr-1)/2 = cos(theta)
    return math.atan2(0.5 * math.hypot(sx, sy, sz),
                      0.5 * (R[0] + R[4] + R[8] - 1.0))


def rpy(R):
    """Converts a rotation to a (roll, pitch, yaw) triple in radians, such
    that ``R = Rz(yaw)*Ry(pitch)*Rx(roll)``.

    As in Klamp't, roll and yaw are returned in [0, 2pi) and pitch in
    [-pi/2, pi/2].  At the gimbal lock (pitch = +/-pi/2), roll is set to 0.
    Guarantees ``from_rpy(rpy(R)) == R`` to rounding error, even near the
    gimbal lock.
    """
    m00, m10, m20, m01, m11, m21, m02, m12, m22 = R
    cb = math.hypot(m00, m10)  # cos(pitch) >= 0
    b = math.atan2(-m20, cb)
    if cb > 1e-12:
        c = math.atan2(m21, m22)
    else:
        c = 0.0  # gimbal lock: only yaw-roll (or yaw+roll) is determined
    # yaw from R*Rx(roll)^T = Rz(yaw)*Ry(pitch), whose 2nd column is
    # (-sin(yaw), cos(yaw), 0); stays consistent with roll near gimbal lock
    sc, cc = math.sin(c), math.cos(c)
    a = math.atan2(sc * m02 - cc * m01, cc * m11 - sc * m12)
    a %= _TWOPI
    c %= _TWOPI
    if a >= _TWOPI:
        a = 0.0
    if c >= _TWOPI:
        c = 0.0
    return (c, b, a)


def from_rpy(rollpitchyaw):
    """Converts a (roll, pitch, yaw) triple in radians to the rotation
    ``Rz(yaw)*Ry(pitch)*Rx(roll)``: roll is about x, pitch about y and yaw
    about z."""
    roll, pitch, yaw = rollpitchyaw
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return [cy * cp, sy * cp, -sp,
            cy * sp * sr - sy * cr, sy * sp * sr + cy * cr, cp * sr,
            cy * sp * cr + sy * sr, sy * sp * cr - cy * sr, cp * cr]


def rotation_vector(R):
    """Returns the rotation vector w (exponential-map / "moment"
    representation) of R, such that e^[w] = R, with ``|w|`` in [0, pi].
    Equivalent to axis-angle with axis = ``w/|w|``, angle = ``|w|``.

    Numerically robust near angles 0 and pi.  At exactly pi the sign is
    arbitrary; the largest-magnitude component is then made positive.
    """
    m00, m10, m20, m01, m11, m21, m02, m12, m22 = R
    # sin(theta)*axis
    sx = 0.5 * (m21 - m12)
    sy = 0.5 * (m02 - m20)
    sz = 0.5 * (m10 - m01)
    s = math.hypot(sx, sy, sz)
    c = 0.5 * (m00 + m11 + m22 - 1.0)
    theta = math.atan2(s, c)
    if c >= 0.0:
        # theta <= pi/2: the antisymmetric part is well conditioned
        if s == 0.0:
            return [0.0, 0.0, 0.0]
        scale = theta / s
        return [sx * scale, sy * scale, sz * scale]
    # theta > pi/2: use the symmetric part (R+R^T)/2 - cI = (1-c) a a^T
    k = 1.0 / (1.0 - c)
    b00 = (m00 - c) * k
    b11 = (m11 - c) * k
    b22 = (m22 - c) * k
    if b00 >= b11 and b00 >= b22:
        i, d2 = 0, b00
    elif b11 >= b22:
        i, d2 = 1, b11
    else:
        i, d2 = 2, b22
    if d2 <= 0.0:  # not a rotation matrix
        return [0.0, 0.0, 0.0]
    d = math.sqrt(d2)
    kd = 0.5 * k / d
    if i == 0:
        x, y, z = d, (m10 + m01) * kd, (m20 + m02) * kd
    elif i == 1:
        x, y, z = (m10 + m01) * kd, d, (m21 + m12) * kd
    else:
        x, y, z = (m20 + m02) * kd, (m21 + m12) * kd, d
    n = math.hypot(x, y, z)
    scale = theta / n
    if x * sx + y * sy + z * sz < 0.0:
        scale = -scale
    return [x * scale, y * scale, z * scale]


def from_rotation_vector(w):
    """Converts a rotation vector (moment) w to a rotation, R = e^[w]."""
    wx, wy, wz = w[0], w[1], w[2]
    t2 = wx * wx + wy * wy + wz * wz
    if t2 < 1e-12:
        # Taylor expansions of sin(t)/t and (1-cos(t))/t^2
        A = 1.0 - t2 / 6.0
        B = 0.5 - t2 / 24.0
    else:
        t = math.sqrt(t2)
        A = math.sin(t) / t
        h = math.sin(0.5 * t) / t
        B = 2.0 * h * h
    C = 1.0 - B * t2  # cos(t)
    Bxy = B * wx * wy
    Bxz = B * wx * wz
    Byz = B * wy * wz
    return [C + B * wx * wx, Bxy + A * wz, Bxz - A * wy,
            Bxy - A * wz, C + B * wy * wy, Byz + A * wx,
            Bxz + A * wy, Byz - A * wx, C + B * wz * wz]


#aliases, as in Klamp't
moment = rotation_vector
from_moment = from_rotation_vector


def axis_angle(R):
    """Returns the (axis, angle) pair representing R, with angle in [0,pi].
    For the identity this is ([0,0,0], 0.0)."""
    m = rotation_vector(R)
    n = math.hypot(m[0], m[1], m[2])
    if n == 0.0:
        return ([0.0, 0.0, 0.0], 0.0)
    x, y, z = m[0] / n, m[1] / n, m[2] / n
    if n < 1e-150:  # subnormal components: renormalize the axis
        k = math.hypot(x, y, z)
        x, y, z = x / k, y / k, z / k
    return ([x, y, z], min(n, math.pi))


def from_axis_angle(aa):
    """Converts an (axis, angle) pair to a rotation."""
    return rotation(aa[0], aa[1])


def rotation(axis, angle):
    """Returns the rotation about the given axis by angle radians.  The axis
    should be a unit vector; a non-unit axis is normalized (a zero axis gives
    the identity)."""
    x, y, z = axis[0], axis[1], axis[2]
    n = math.hypot(x, y, z)
    if n != 1.0:
        if n == 0.0:
            return identity()
        x /= n
        y /= n
        z /= n
    c = math.cos(angle)
    s = math.sin(angle)
    h = math.sin(0.5 * angle)
    t = 2.0 * h * h  # 1-cos(angle), without cancellation
    txy = t * x * y
    txz = t * x * z
    tyz = t * y * z
    return [c + t * x * x, txy + s * z, txz - s * y,
            txy - s * z, c + t * y * y, tyz + s * x,
            txz + s * y, tyz - s * x, c + t * z * z]


def from_quaternion(q):
    """Converts a quaternion (w,x,y,z) to a rotation.  A non-unit quaternion
    is normalized; a zero quaternion raises ValueError."""
    w, x, y, z = q
    n = math.hypot(w, x, y, z)
    if n == 0:
        raise ValueError("Zero quaternion")
    if n != 1.0:
        w, x, y, z = w / n, x / n, y / n, z / n
    xs, ys, zs = x + x, y + y, z + z
    xx, xy, xz = x * xs, x * ys, x * zs
    yy, yz, zz = y * ys, y * zs, z * zs
    wx, wy, wz = w * xs, w * ys, w * zs
    return [1.0 - (yy + zz), xy + wz, xz - wy,
            xy - wz, 1.0 - (xx + zz), yz + wx,
            xz + wy, yz - wx, 1.0 - (xx + yy)]


def quaternion(R):
    """Converts a rotation to a unit quaternion [w,x,y,z] with w >= 0."""
    m00, m10, m20, m01, m11, m21, m02, m12, m22 = R
    tr = m00 + m11 + m22
    # Shepperd's method: divide by the largest of 4w^2, 4x^2, 4y^2, 4z^2
    if tr >= m00 and tr >= m11 and tr >= m22:
        s = 2.0 * math.sqrt(max(1.0 + tr, 0.0))
        if s == 0.0:
            raise ValueError("Could not solve for quaternion... Invalid rotation matrix?")
        w = 0.25 * s
        x = (m21 - m12) / s
        y = (m02 - m20) / s
        z = (m10 - m01) / s
    elif m00 >= m11 and m00 >= m22:
        s = 2.0 * math.sqrt(max(1.0 + m00 - m11 - m22, 0.0))
        if s == 0.0:
            raise ValueError("Could not solve for quaternion... Invalid rotation matrix?")
        w = (m21 - m12) / s
        x = 0.25 * s
        y = (m01 + m10) / s
        z = (m02 + m20) / s
    elif m11 >= m22:
        s = 2.0 * math.sqrt(max(1.0 + m11 - m00 - m22, 0.0))
        if s == 0.0:
            raise ValueError("Could not solve for quaternion... Invalid rotation matrix?")
        w = (m02 - m20) / s
        x = (m01 + m10) / s
        y = 0.25 * s
        z = (m12 + m21) / s
    else:
        s = 2.0 * math.sqrt(max(1.0 + m22 - m00 - m11, 0.0))
        if s == 0.0:
            raise ValueError("Could not solve for quaternion... Invalid rotation matrix?")
        w = (m10 - m01) / s
        x = (m02 + m20) / s
        y = (m12 + m21) / s
        z = 0.25 * s
    n = math.hypot(w, x, y, z)
    if w < 0.0:
        n = -n
    return [w / n, x / n, y / n, z / n]


def distance(R1, R2) -> float:
    """Returns the absolute angle one would need to rotate in order to get
    from R1 to R2 (the geodesic distance), in [0, pi]."""
    return angle(mul(R1, inv(R2)))


def error(R1, R2):
    """Returns a 3D "difference vector" describing how far R1 is from R2:
    the rotation vector of R1*R2^T (so that R1 = from_moment(w)*R2).
    ``norm(error(R1,R2)) == distance(R1,R2)``."""
    return rotation_vector(mul(R1, inv(R2)))


def cross_product(w):
    """Returns the cross-product matrix [w] (as a column-major 9-list), such
    that apply([w],v) = w x v."""
    return [0., w[2], -w[1], -w[2], 0., w[0], w[1], -w[0], 0.]


def diag(R):
    """Returns the diagonal of the 3x3 matrix R."""
    return [R[0], R[4], R[8]]


def deskew(R):
    """Returns w such that cross_product(w) = (R-R^T)/2.  If R is itself a
    cross-product matrix, this recovers its vector."""
    return [0.5 * (R[5] - R[7]), 0.5 * (R[6] - R[2]), 0.5 * (R[1] - R[3])]


def canonical(v):
    """Returns a rotation whose first column (x axis) is v normalized, with
    the other two columns an orthonormal completion.  It is the minimal
    rotation taking [1,0,0] to v.  Raises RuntimeError if v is zero."""
    if len(v) != 3:
        raise ValueError("canonical() requires a 3-vector")
    x, y, z = v[0], v[1], v[2]
    n = math.hypot(x, y, z)
    if n == 0.0:
        raise RuntimeError("Zero vector supplied to canonical()")
    if n != 1.0:
        x /= n
        y /= n
        z /= n
    if x >= 0.0:
        s = 1.0 / (1.0 + x)
        szz, syz, syy = s * z * z, s * y * z, s * y * y
    else:
        r = math.hypot(y, z)
        if r == 0.0:
            # v = -x: rotate by pi about z
            return [-1., 0., 0., 0., -1., 0., 0., 0., 1.]
        # 1/(1+x) = (1-x)/(y^2+z^2) for a unit vector; avoids cancellation
        yn, zn = y / r, z / r
        if r < 1e-150:  # subnormal components: renormalize
            k = math.hypot(yn, zn)
            yn, zn = yn / k, zn / k
        k = 1.0 - x
        szz, syz, syy = k * zn * zn, k * yn * zn, k * yn * yn
    return [x, y, z,
            -y, x + szz, -syz,
            -z, -syz, x + syy]


def align(a, b):
    """Returns the minimal-angle rotation R such that apply(R, a) points in
    the direction of b.  If either vector is zero, returns the identity.
    For antiparallel vectors, a rotation by pi about an axis orthogonal to a
    is returned."""
    ax, ay, az = a[0], a[1], a[2]
    bx, by, bz = b[0], b[1], b[2]
    an = math.hypot(ax, ay, az)
    bn = math.hypot(bx, by, bz)
    if an == 0.0 or bn == 0.0:
        return identity()
    ax, ay, az = ax / an, ay / an, az / an
    bx, by, bz = bx / bn, by / bn, bz / bn
    vx = ay * bz - az * by
    vy = az * bx - ax * bz
    vz = ax * by - ay * bx
    c = ax * bx + ay * by + az * bz
    vn = math.hypot(vx, vy, vz)
    if vn < 1e-12:
        if c > 0.0:
            return identity()
        # antiparallel: rotate by pi about an axis perpendicular to a
        k = (ay, -ax, 0.0)  # a x [0,0,1]
        if ax * ax + ay * ay < 0.01:
            k = (-az, 0.0, ax)  # a x [0,1,0]
        return rotation(k, math.pi)
    # make the axis exactly orthogonal to a
    d = vx * ax + vy * ay + vz * az
    kx, ky, kz = vx - d * ax, vy - d * ay, vz - d * az
    return rotation((kx, ky, kz), math.atan2(vn, c))


def interpolate(R1, R2, u):
    """Interpolates along the geodesic from R1 (u=0) to R2 (u=1).  u outside
    [0,1] extrapolates."""
    m = rotation_vector(mul(inv(R1), R2))
    if m[0] == 0.0 and m[1] == 0.0 and m[2] == 0.0:
        return list(R1)
    return mul(R1, from_rotation_vector([m[0] * u, m[1] * u, m[2] * u]))


def interpolator(R1, R2):
    """Returns a function f(u) equivalent to interpolate(R1,R2,u), faster
    for repeated evaluation."""
    R1 = list(R1)
    m = rotation_vector(mul(inv(R1), R2))
    mx, my, mz = m

    def f(u):
        return mul(R1, from_rotation_vector([mx * u, my * u, mz * u]))
    return f


def det(R) -> float:
    """Returns the determinant of the 3x3 matrix R."""
    a0, a1, a2, a3, a4, a5, a6, a7, a8 = R
    return (a0 * (a4 * a8 - a7 * a5)
            - a3 * (a1 * a8 - a7 * a2)
            + a6 * (a1 * a5 - a4 * a2))


def is_rotation(R, tol=1e-5) -> bool:
    """Returns True if R is a rotation matrix: orthogonal to within tol
    (elementwise on R^T*R - I) and with positive determinant."""
    if len(R) != 9:
        return False
    a0, a1, a2, a3, a4, a5, a6, a7, a8 = R
    # dot products between columns
    if (abs(a0 * a0 + a1 * a1 + a2 * a2 - 1.0) > tol
            or abs(a3 * a3 + a4 * a4 + a5 * a5 - 1.0) > tol
            or abs(a6 * a6 + a7 * a7 + a8 * a8 - 1.0) > tol
            or abs(a0 * a3 + a1 * a4 + a2 * a5) > tol
            or abs(a0 * a6 + a1 * a7 + a2 * a8) > tol
            or abs(a3 * a6 + a4 * a7 + a5 * a8) > tol):
        return False
    return det(R) > 0


def sample():
    """Returns a uniformly distributed random rotation (uses the `random`
    module)."""
    import random
    gauss = random.gauss
    while True:
        q = (gauss(0, 1), gauss(0, 1), gauss(0, 1), gauss(0, 1))
        if q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-12:
            return from_quaternion(q)
