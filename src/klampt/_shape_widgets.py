"""The shape widgets of ``klampt``: AABBPoser (an axis-aligned box in a
frame), BoxPoser (a box with its own pose) and SpherePoser (a centre and a
radius). Their handles follow the reference's: the translation arrows (and
for boxes the rotation rings) at the centre move the whole shape; dragging a
box's face moves that face along its normal; dragging a corner moves that
corner in the view plane while the opposite corner stays; dragging the ring
around a sphere's silhouette changes its radius. Interaction is by ray
casting from a :class:`klampt.Viewport` with pixel coordinates."""
import math

from .math import so3, vectorops
from ._widgets import (_HIGHLIGHT, _PICK_PIXELS, Widget, _camera, _draw_rotation, _draw_translation,
                       _pick_rotation, _pick_translation, _pixel_size, _project, _ray, _rotate, _translate,
                       _vector)

_FILL = (1.0, 0.0, 0.0, 0.25)
_FACE_HIGHLIGHT = (1.0, 0.5, 0.0, 0.5)
_EDGE = (0.8, 0.0, 0.0, 1.0)
#: corner handles' pick radius, in pixels
_CORNER_PIXELS = 8.0
_ALL = [True, True, True]


def _view_shift(viewport, p, dx, dy):
    """The world displacement of point p that moves its image by (dx, dy)
    pixels, parallel to the image plane."""
    Rc, _, f = _camera(viewport)
    proj = _project(viewport, p)
    depth = proj[2] if proj else 1.0
    return so3.apply(Rc, [dx * depth / f, -dy * depth / f, 0.0])


def _closest_on_line(a, u, s, d):
    """Parameter along the line a + t u (u unit) of its point closest to
    the line s + r d."""
    w0 = vectorops.sub(a, s)
    b, dd = vectorops.dot(u, d), vectorops.dot(d, d)
    den = dd - b * b
    if abs(den) < 1e-12:
        return 0.0
    return (b * vectorops.dot(d, w0) - dd * vectorops.dot(u, w0)) / den


def _ray_box(s, d, bmin, bmax):
    """(distance, (axis, side)) of the face through which a ray enters the
    box (side 0: the bmin face, 1: the bmax face), or None (a miss, or a
    ray starting inside)."""
    tmin, tmax, face = 0.0, math.inf, None
    for i in range(3):
        if abs(d[i]) < 1e-12:
            if not bmin[i] <= s[i] <= bmax[i]:
                return None
            continue
        t1, t2 = (bmin[i] - s[i]) / d[i], (bmax[i] - s[i]) / d[i]
        s1 = 0
        if t1 > t2:
            t1, t2, s1 = t2, t1, 1
        if t1 > tmin:
            tmin, face = t1, (i, s1)
        tmax = min(tmax, t2)
        if tmin > tmax:
            return None
    return None if face is None else (tmin, face)


class _BoxHandles(Widget):
    """A box [bmin, bmax] in the local coordinates of a frame (R, t), with
    centre, face and corner handles."""

    def __init__(self, rotation):
        super().__init__()
        self._R = so3.identity()
        self._t = [0.0, 0.0, 0.0]
        self._bmin = [0.0, 0.0, 0.0]
        self._bmax = [1.0, 1.0, 1.0]
        self._rotation = rotation
        self._cursor = None
        self._click_local = None
        self._click_depth = None

    def _to_world(self, p):
        return vectorops.add(so3.apply(self._R, p), self._t)

    def _to_local(self, p):
        return so3.apply(so3.inv(self._R), vectorops.sub(p, self._t))

    def _centre(self):
        return self._to_world(vectorops.interpolate(self._bmin, self._bmax, 0.5))

    def _corner(self, sides):
        return [self._bmax[i] if sides[i] else self._bmin[i] for i in range(3)]

    def _local_ray(self, x, y, viewport):
        s, d = _ray(viewport, x, y)
        return self._to_local(s), so3.apply(so3.inv(self._R), d)

    def _pick(self, x, y, viewport):
        c = self._centre()
        handle = _pick_translation(c, self._R, _ALL, x, y, viewport)
        if handle is None and self._rotation:
            handle = _pick_rotation(c, self._R, _ALL, x, y, viewport)
        if handle is not None:
            return ('move', handle)
        best = None
        for k in range(8):
            sides = ((k >> 0) & 1, (k >> 1) & 1, (k >> 2) & 1)
            proj = _project(viewport, self._to_world(self._corner(sides)))
            if proj is None:
                continue
            if math.hypot(proj[0] - x, proj[1] - y) <= _CORNER_PIXELS and (best is None or proj[2] < best[0]):
                best = (proj[2], sides)
        if best is not None:
            self._click_depth = best[0]
            return ('corner', best[1])
        s, d = self._local_ray(x, y, viewport)
        hit = _ray_box(s, d, self._bmin, self._bmax)
        if hit is None:
            return None
        self._click_local = vectorops.madd(s, d, hit[0])
        return ('face',) + hit[1]

    def beginDrag(self, x: int, y: int, viewport) -> bool:
        """Starts dragging the handle under pixel (x, y); True if there is one."""
        if not super().beginDrag(x, y, viewport):
            return False
        self._cursor = [float(x), float(y)]
        return True

    def _drag(self, handle, dx, dy, viewport):
        self._cursor[0] += dx
        self._cursor[1] += dy
        kind = handle[0]
        if kind == 'move':
            self._move(handle[1], dx, dy, viewport)
        elif kind == 'face':
            self._drag_face(handle[1], handle[2], viewport)
        else:
            self._drag_corner(handle[1], dx, dy, viewport)
        self._normalize()

    def _move(self, handle, dx, dy, viewport):
        c = self._centre()
        if handle[0] == 'ring':
            local_c = vectorops.interpolate(self._bmin, self._bmax, 0.5)
            self._R = _rotate(self._R, handle, dx, dy)
            self._t = vectorops.sub(c, so3.apply(self._R, local_c))
            return
        delta = so3.apply(so3.inv(self._R), vectorops.sub(_translate(c, self._R, handle, dx, dy, viewport), c))
        self._shift(delta)

    def _shift(self, delta):
        self._bmin = vectorops.add(self._bmin, delta)
        self._bmax = vectorops.add(self._bmax, delta)

    def _drag_face(self, axis, side, viewport):
        s, d = self._local_ray(self._cursor[0], self._cursor[1], viewport)
        u = [0.0, 0.0, 0.0]
        u[axis] = 1.0
        value = self._click_local[axis] + _closest_on_line(self._click_local, u, s, d)
        if side:
            self._bmax[axis] = max(value, self._bmin[axis])
        else:
            self._bmin[axis] = min(value, self._bmax[axis])

    def _drag_corner(self, sides, dx, dy, viewport):
        corner = self._corner(sides)
        opposite = self._corner([1 - v for v in sides])
        Rc, _, f = _camera(viewport)
        v = so3.apply(so3.inv(self._R), so3.apply(Rc, [dx * self._click_depth / f, -dy * self._click_depth / f, 0.0]))
        moved = vectorops.add(corner, v)
        self._bmin = [min(a, b) for a, b in zip(moved, opposite)]
        self._bmax = [max(a, b) for a, b in zip(moved, opposite)]
        # the grabbed corner may have crossed the opposite one: keep holding it
        self._focus = self._highlight = ('corner', tuple(int(m > o) for m, o in zip(moved, opposite)))

    def _normalize(self):
        pass

    def _draw(self, GL, viewport):
        corners = [self._to_world(self._corner(((k >> 0) & 1, (k >> 1) & 1, (k >> 2) & 1))) for k in range(8)]
        GL.glDisable(GL.GL_LIGHTING)
        GL.glDisable(GL.GL_CULL_FACE)
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        GL.glDepthMask(GL.GL_FALSE)
        hl = self._highlight
        for axis in range(3):
            a, b = (axis + 1) % 3, (axis + 2) % 3
            for side in (0, 1):
                GL.glColor4f(*(_FACE_HIGHLIGHT if hl == ('face', axis, side) else _FILL))
                GL.glBegin(GL.GL_QUADS)
                for sa, sb in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    k = (side << axis) | (sa << a) | (sb << b)
                    GL.glVertex3f(*corners[k])
                GL.glEnd()
        GL.glDepthMask(GL.GL_TRUE)
        GL.glDisable(GL.GL_BLEND)
        GL.glColor4f(*_EDGE)
        GL.glLineWidth(2.0)
        GL.glBegin(GL.GL_LINES)
        for k in range(8):
            for axis in range(3):
                if not (k >> axis) & 1:
                    GL.glVertex3f(*corners[k])
                    GL.glVertex3f(*corners[k | (1 << axis)])
        GL.glEnd()
        if hl is not None and hl[0] == 'corner':
            GL.glPointSize(2 * _CORNER_PIXELS)
            GL.glColor4f(*_HIGHLIGHT)
            GL.glBegin(GL.GL_POINTS)
            GL.glVertex3f(*self._to_world(self._corner(hl[1])))
            GL.glEnd()
        move = hl[1] if hl is not None and hl[0] == 'move' else None
        c = self._centre()
        _draw_translation(GL, c, self._R, _ALL, move, viewport)
        if self._rotation:
            _draw_rotation(GL, c, self._R, _ALL, move, viewport)


class AABBPoser(_BoxHandles):
    """Edits an axis-aligned box (bmin, bmax), by default [0, 1]^3, given
    in the coordinates of a frame (the world's unless :meth:`setFrame`).
    The centre's arrows move the box, its faces and corners resize it."""

    def __init__(self):
        super().__init__(rotation=False)

    def set(self, bmin, bmax) -> None:
        """Sets the box's lower and upper corners (in the frame)."""
        bmin = _vector(bmin, 3, "AABBPoser.set bmin")
        bmax = _vector(bmax, 3, "AABBPoser.set bmax")
        if any(a > b for a, b in zip(bmin, bmax)):
            raise ValueError("AABBPoser.set needs bmin <= bmax")
        self._bmin, self._bmax = bmin, bmax
        self._redraw = True

    def setFrame(self, R, t) -> None:
        """Sets the frame (R, t) the box is given in."""
        self._R = _vector(R, 9, "AABBPoser.setFrame rotation")
        self._t = _vector(t, 3, "AABBPoser.setFrame translation")
        self._redraw = True

    def get(self):
        """The box as (bmin, bmax), in the frame's coordinates."""
        return (list(self._bmin), list(self._bmax))


class BoxPoser(_BoxHandles):
    """Edits a box given by a pose (R, t) of its corner and its dimensions
    along R's axes, by default the unit cube at the origin. The centre's
    arrows move it, its rings turn it, its faces and corners resize it."""

    def __init__(self):
        super().__init__(rotation=True)

    def set(self, R, t, dims) -> None:
        """Sets the pose (R, t) of the box's corner and its dimensions."""
        self.setTransform(R, t)
        self.setDims(dims)

    def setTransform(self, R, t) -> None:
        """Sets the pose (R, t) of the box's corner (dimensions unchanged)."""
        self._R = _vector(R, 9, "BoxPoser rotation")
        self._t = _vector(t, 3, "BoxPoser translation")
        self._redraw = True

    def setDims(self, dims) -> None:
        """Sets the box's dimensions (the corner stays)."""
        dims = _vector(dims, 3, "BoxPoser.setDims")
        if any(v < 0 for v in dims):
            raise ValueError("BoxPoser.setDims needs dimensions >= 0")
        self._bmin, self._bmax = [0.0, 0.0, 0.0], dims
        self._redraw = True

    def getTransform(self):
        """The pose (R, t) of the box's corner."""
        return (list(self._R), list(self._t))

    def getDims(self):
        """The box's dimensions along the pose's axes."""
        return vectorops.sub(self._bmax, self._bmin)

    def _normalize(self):
        # the corner of the box is its pose: keep bmin at the local origin
        self._t = self._to_world(self._bmin)
        self._bmax = vectorops.sub(self._bmax, self._bmin)
        if self._click_local is not None and self._focus is not None and self._focus[0] == 'face':
            self._click_local = vectorops.sub(self._click_local, self._bmin)
        self._bmin = [0.0, 0.0, 0.0]


class SpherePoser(Widget):
    """Edits a sphere [cx, cy, cz, r], by default the unit sphere at the
    origin: the centre's arrows move it, the ring around its silhouette
    changes its radius."""

    def __init__(self):
        super().__init__()
        self._c = [0.0, 0.0, 0.0]
        self._r = 1.0
        self._cursor = None
        self._click = None
        self._click_radius = None

    def set(self, cr) -> None:
        """Sets the centre and radius as [cx, cy, cz, r]."""
        cr = _vector(cr, 4, "SpherePoser.set")
        if cr[3] < 0:
            raise ValueError("SpherePoser.set needs a radius >= 0")
        self._c, self._r = cr[:3], cr[3]
        self._redraw = True

    def get(self):
        """The centre and radius as [cx, cy, cz, r]."""
        return list(self._c) + [self._r]

    def _plane_point(self, x, y, viewport):
        """Where the ray through (x, y) meets the plane through the centre
        facing the camera (None if it does not)."""
        s, d = _ray(viewport, x, y)
        Rc, _, _ = _camera(viewport)
        n = so3.apply(Rc, [0.0, 0.0, 1.0])
        den = vectorops.dot(d, n)
        if abs(den) < 1e-12:
            return None
        t = vectorops.dot(vectorops.sub(self._c, s), n) / den
        return vectorops.madd(s, d, t) if t > 0 else None

    def _pick(self, x, y, viewport):
        handle = _pick_translation(self._c, so3.identity(), _ALL, x, y, viewport)
        if handle is not None:
            return ('move', handle)
        p = self._plane_point(x, y, viewport)
        if p is None:
            return None
        if abs(vectorops.distance(p, self._c) - self._r) <= _PICK_PIXELS * _pixel_size(viewport, self._c):
            self._click = p
            return ('ring',)
        return None

    def beginDrag(self, x: int, y: int, viewport) -> bool:
        """Starts dragging the handle under pixel (x, y); True if there is one."""
        if not super().beginDrag(x, y, viewport):
            return False
        self._cursor = [float(x), float(y)]
        self._click_radius = self._r
        return True

    def _drag(self, handle, dx, dy, viewport):
        self._cursor[0] += dx
        self._cursor[1] += dy
        if handle[0] == 'move':
            self._c = _translate(self._c, so3.identity(), handle[1], dx, dy, viewport)
            return
        s, d = _ray(viewport, *self._cursor)
        t = vectorops.dot(vectorops.sub(self._c, s), d)
        distance = vectorops.distance(vectorops.madd(s, d, t), self._c)
        self._r = max(0.0, distance - vectorops.distance(self._click, self._c) + self._click_radius)

    def _draw(self, GL, viewport):
        GL.glDisable(GL.GL_LIGHTING)
        GL.glDisable(GL.GL_CULL_FACE)
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        GL.glDepthMask(GL.GL_FALSE)
        GL.glColor4f(*_FILL)
        stacks, slices = 12, 24
        for i in range(stacks):
            a0, a1 = math.pi * i / stacks - math.pi / 2, math.pi * (i + 1) / stacks - math.pi / 2
            GL.glBegin(GL.GL_QUAD_STRIP)
            for j in range(slices + 1):
                b = 2 * math.pi * j / slices
                for a in (a0, a1):
                    GL.glVertex3f(*vectorops.madd(self._c, [math.cos(a) * math.cos(b), math.cos(a) * math.sin(b),
                                                             math.sin(a)], self._r))
            GL.glEnd()
        GL.glDepthMask(GL.GL_TRUE)
        GL.glDisable(GL.GL_BLEND)
        ring = self._highlight == ('ring',)
        Rc, _, _ = _camera(viewport)
        u, v = so3.apply(Rc, [1.0, 0.0, 0.0]), so3.apply(Rc, [0.0, 1.0, 0.0])
        GL.glColor4f(*(_HIGHLIGHT if ring else _EDGE))
        GL.glLineWidth(4.0 if ring else 2.0)
        GL.glBegin(GL.GL_LINE_LOOP)
        for k in range(64):
            b = 2 * math.pi * k / 64
            GL.glVertex3f(*vectorops.add(self._c, vectorops.add(vectorops.mul(u, self._r * math.cos(b)),
                                                                 vectorops.mul(v, self._r * math.sin(b)))))
        GL.glEnd()
        GL.glLineWidth(1.0)
        move = self._highlight[1] if self._highlight is not None and self._highlight[0] == 'move' else None
        _draw_translation(GL, self._c, so3.identity(), _ALL, move, viewport)
