"""Cubic Hermite and Bezier curve helpers.

A Hermite segment is given by its end points x1, x2 and end tangents v1, v2
with respect to the curve parameter u in [0,1]; its Bezier control points are
x1, x1 + v1/3, x2 - v2/3, x2.
"""
from . import vectorops


def hermite_eval(x1, v1, x2, v2, u):
    """Returns the point of the Hermite curve at parameter u."""
    u2 = u * u
    u3 = u2 * u
    cx1 = 2.0 * u3 - 3.0 * u2 + 1.0
    cx2 = -2.0 * u3 + 3.0 * u2
    cv1 = u3 - 2.0 * u2 + u
    cv2 = u3 - u2
    return [cx1 * a + cx2 * b + cv1 * c + cv2 * d for a, c, b, d in zip(x1, v1, x2, v2)]


def hermite_deriv(x1, v1, x2, v2, u, order=1):
    """Returns the order-th derivative (1, 2 or 3) of the Hermite curve with
    respect to u."""
    u2 = u * u
    if order == 1:
        cx1 = 6.0 * u2 - 6.0 * u
        cx2 = -cx1
        cv1 = 3.0 * u2 - 4.0 * u + 1.0
        cv2 = 3.0 * u2 - 2.0 * u
    elif order == 2:
        cx1 = 12.0 * u - 6.0
        cx2 = -cx1
        cv1 = 6.0 * u - 4.0
        cv2 = 6.0 * u - 2.0
    elif order == 3:
        cx1 = 12.0
        cx2 = -12.0
        cv1 = 6.0
        cv2 = 6.0
    elif order == 0:
        return hermite_eval(x1, v1, x2, v2, u)
    else:
        return [0.0] * len(x1)
    return [cx1 * a + cx2 * b + cv1 * c + cv2 * d for a, c, b, d in zip(x1, v1, x2, v2)]


def hermite_subdivide(x1, v1, x2, v2, u=0.5):
    """Splits a Hermite curve at u into two Hermite curves, each
    reparameterized on [0,1].  Returns ((x1,v1,xm,vm),(xm,vm2,x2,v2))."""
    xm = hermite_eval(x1, v1, x2, v2, u)
    vm = hermite_deriv(x1, v1, x2, v2, u)
    return ((list(x1), vectorops.mul(v1, u), xm, vectorops.mul(vm, u)),
            (xm, vectorops.mul(vm, 1.0 - u), list(x2), vectorops.mul(v2, 1.0 - u)))


def hermite_length_bound(x1, v1, x2, v2):
    """Upper bound on the arc length: the length of the Bezier control
    polygon."""
    return bezier_length_bound(*hermite_to_bezier(x1, v1, x2, v2))


def hermite_to_bezier(x1, v1, x2, v2):
    """Returns the 4 Bezier control points of a Hermite curve."""
    return (list(x1), vectorops.madd(x1, v1, 1.0 / 3.0), vectorops.madd(x2, v2, -1.0 / 3.0), list(x2))


def bezier_to_hermite(x1, x2, x3, x4):
    """Returns the Hermite representation (x1,v1,x4,v4) of a cubic Bezier
    curve."""
    return (list(x1), vectorops.mul(vectorops.sub(x2, x1), 3.0), list(x4), vectorops.mul(vectorops.sub(x4, x3), 3.0))


def bezier_subdivide(x1, x2, x3, x4, u=0.5):
    """Splits a Bezier curve at u (de Casteljau); returns the two sets of 4
    control points."""
    a = vectorops.interpolate(x1, x2, u)
    b = vectorops.interpolate(x2, x3, u)
    c = vectorops.interpolate(x3, x4, u)
    ab = vectorops.interpolate(a, b, u)
    bc = vectorops.interpolate(b, c, u)
    m = vectorops.interpolate(ab, bc, u)
    return ((list(x1), a, ab, m), (m, bc, c, list(x4)))


def bezier_length_bound(x1, x2, x3, x4):
    """Upper bound on the arc length: the length of the control polygon."""
    return vectorops.distance(x1, x2) + vectorops.distance(x2, x3) + vectorops.distance(x3, x4)


def bezier_discretize(x1, x2, x3, x4, res, return_params=False):
    """Subdivides the curve at halves until each piece's length bound is at
    most res, and returns the concatenated control points of the pieces
    (shared end points once).  If return_params is True, also returns the
    curve parameters of the pieces' end points."""
    if res <= 0:
        raise ValueError("Resolution must be positive")
    pieces = [((list(x1), list(x2), list(x3), list(x4)), 0.0, 1.0)]
    done = []
    while pieces:
        ctrl, u0, u1 = pieces.pop()
        if bezier_length_bound(*ctrl) <= res or u1 - u0 < 1e-9:
            done.append((ctrl, u0, u1))
        else:
            a, b = bezier_subdivide(*ctrl)
            um = 0.5 * (u0 + u1)
            pieces.append((b, um, u1))
            pieces.append((a, u0, um))
    points = [done[0][0][0]]
    params = [0.0]
    for ctrl, u0, u1 in done:
        points += [ctrl[1], ctrl[2], ctrl[3]]
        params.append(u1)
    if return_params:
        return points, params
    return points
