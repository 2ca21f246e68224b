"""Immediate-mode drawing helpers (the reference's ``klampt.vis.gldraw``):
points, polylines, coordinate axes, boxes, curves. All draw into the
current context with the current modelview."""
import math

from klampt.math import spline, vectorops

from .gl import column_major, gl, set_surface_color


def point(p, size=None, color=None):
    """An unlit point (size in pixels)."""
    GL = gl()
    GL.glDisable(GL.GL_LIGHTING)
    if size is not None:
        GL.glPointSize(float(size))
    if color is not None:
        GL.glColor4f(*_rgba(color))
    GL.glBegin(GL.GL_POINTS)
    GL.glVertex3d(*[float(v) for v in (list(p) + [0.0] * 3)[:3]])
    GL.glEnd()


def polyline(points, width=None, color=None, closed=False):
    """Unlit connected line segments through 2D or 3D points."""
    GL = gl()
    GL.glDisable(GL.GL_LIGHTING)
    if width is not None:
        GL.glLineWidth(float(width))
    if color is not None:
        GL.glColor4f(*_rgba(color))
    GL.glBegin(GL.GL_LINE_LOOP if closed else GL.GL_LINE_STRIP)
    for p in points:
        GL.glVertex3d(*[float(v) for v in (list(p) + [0.0] * 3)[:3]])
    GL.glEnd()
    if width is not None:
        GL.glLineWidth(1.0)


def points(pts, size=None, color=None):
    """Unlit points."""
    GL = gl()
    GL.glDisable(GL.GL_LIGHTING)
    if size is not None:
        GL.glPointSize(float(size))
    if color is not None:
        GL.glColor4f(*_rgba(color))
    GL.glBegin(GL.GL_POINTS)
    for p in pts:
        GL.glVertex3d(*[float(v) for v in (list(p) + [0.0] * 3)[:3]])
    GL.glEnd()


def _rgba(color):
    c = [float(v) for v in color]
    return c + [1.0] if len(c) == 3 else c[:4]


def box(bmin, bmax, lighting=True, filled=True):
    """An axis-aligned box from bmin to bmax (lit faces, or edges)."""
    GL = gl()
    (x0, y0, z0), (x1, y1, z1) = [float(v) for v in bmin], [float(v) for v in bmax]
    if not filled:
        corners = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
                   (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
        GL.glBegin(GL.GL_LINES)
        for a, b in ((0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6),
                     (3, 7)):
            GL.glVertex3d(*corners[a])
            GL.glVertex3d(*corners[b])
        GL.glEnd()
        return
    if lighting:
        GL.glEnable(GL.GL_LIGHTING)
    faces = [((0, 0, -1), [(x0, y0, z0), (x0, y1, z0), (x1, y1, z0), (x1, y0, z0)]),
             ((0, 0, 1), [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]),
             ((0, -1, 0), [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)]),
             ((0, 1, 0), [(x0, y1, z0), (x0, y1, z1), (x1, y1, z1), (x1, y1, z0)]),
             ((-1, 0, 0), [(x0, y0, z0), (x0, y0, z1), (x0, y1, z1), (x0, y1, z0)]),
             ((1, 0, 0), [(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)])]
    GL.glBegin(GL.GL_QUADS)
    for n, quad in faces:
        GL.glNormal3d(*n)
        for v in quad:
            GL.glVertex3d(*v)
    GL.glEnd()


def centered_box(dims):
    """A lit box of the given side lengths centred at the origin."""
    half = [0.5 * float(d) for d in dims]
    box([-h for h in half], half)


def xform_widget(T, length, width, lighting=False, fancy=False):
    """Coordinate axes of T: x red, y green, z blue; lines of ``length``, or
    with ``fancy`` lit boxes ``width`` thick."""
    GL = gl()
    GL.glPushMatrix()
    GL.glMultMatrixd(column_major(T))
    colors = ((1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1))
    if fancy:
        GL.glEnable(GL.GL_LIGHTING)
        tracking = GL.glIsEnabled(GL.GL_COLOR_MATERIAL)
        w = float(width) * 0.5
        for axis, c in enumerate(colors):
            set_surface_color(c)
            lo, hi = [-w, -w, -w], [w, w, w]
            hi[axis] = float(length)
            box(lo, hi)
        if tracking:
            GL.glEnable(GL.GL_COLOR_MATERIAL)
    else:
        GL.glDisable(GL.GL_LIGHTING)
        GL.glBegin(GL.GL_LINES)
        for axis, c in enumerate(colors):
            GL.glColor4f(*c)
            tip = [0.0, 0.0, 0.0]
            tip[axis] = float(length)
            GL.glVertex3d(0.0, 0.0, 0.0)
            GL.glVertex3d(*tip)
        GL.glEnd()
    GL.glPopMatrix()
    if not lighting:
        GL.glDisable(GL.GL_LIGHTING)


def hermite_curve(x1, v1, x2, v2, res=0.01):
    """The cubic Hermite curve from x1 (tangent v1) to x2 (tangent v2),
    sampled every ``res`` units of chord length."""
    d = vectorops.distance(x1, x2)
    n = max(2, min(1000, int(math.ceil(d / max(res, 1e-6)))))
    polyline([spline.hermite_eval(x1, v1, x2, v2, float(i) / n) for i in range(n + 1)])


def bezier_curve(x1, x2, x3, x4, res=0.01):
    """The cubic Bezier curve with control points x1..x4."""
    d = vectorops.distance(x1, x4)
    n = max(2, min(1000, int(math.ceil(d / max(res, 1e-6)))))
    pts = []
    for i in range(n + 1):
        u = float(i) / n
        a, b, c, e = (1 - u) ** 3, 3 * u * (1 - u) ** 2, 3 * u * u * (1 - u), u ** 3
        pts.append([a * p + b * q + c * r + e * s for p, q, r, s in zip(x1, x2, x3, x4)])
    polyline(pts)


def circle(center, radius, res=0.01, filled=True):
    """A 2D circle in the z = 0 plane."""
    GL = gl()
    n = max(8, min(1000, int(math.ceil(2 * math.pi * radius / max(res, 1e-6)))))
    GL.glBegin(GL.GL_TRIANGLE_FAN if filled else GL.GL_LINE_LOOP)
    if filled:
        GL.glVertex2d(center[0], center[1])
    for i in range(n + (1 if filled else 0)):
        a = 2 * math.pi * i / n
        GL.glVertex2d(center[0] + radius * math.cos(a), center[1] + radius * math.sin(a))
    GL.glEnd()


def triangle(a, b, c, lighting=True, filled=True):
    """A triangle (normal from its winding when lit)."""
    GL = gl()
    if lighting:
        n = vectorops.cross(vectorops.sub(b, a), vectorops.sub(c, a))
        if vectorops.norm(n) > 0:
            GL.glNormal3d(*vectorops.unit(n))
    GL.glBegin(GL.GL_TRIANGLES if filled else GL.GL_LINE_LOOP)
    for p in (a, b, c):
        GL.glVertex3d(*[float(v) for v in (list(p) + [0.0])[:3]])
    GL.glEnd()


def quad(a, b, c, d, lighting=True, filled=True):
    """A quadrilateral (normal from its first three corners when lit)."""
    GL = gl()
    if lighting:
        n = vectorops.cross(vectorops.sub(b, a), vectorops.sub(c, a))
        if vectorops.norm(n) > 0:
            GL.glNormal3d(*vectorops.unit(n))
    GL.glBegin(GL.GL_QUADS if filled else GL.GL_LINE_LOOP)
    for p in (a, b, c, d):
        GL.glVertex3d(*[float(v) for v in (list(p) + [0.0])[:3]])
    GL.glEnd()
