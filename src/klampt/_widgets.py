"""The widget classes of ``klampt`` (Widget, WidgetSet, PointPoser,
TransformPoser, ObjectPoser, RobotPoser): the poses and configurations they
edit, and their interaction by ray casting from a :class:`klampt.Viewport`
(``hover`` / ``beginDrag`` / ``drag`` / ``endDrag`` with pixel
coordinates, no OpenGL picking). ``drawGL`` draws the handles into the
current OpenGL context (RuntimeError when there is none)."""
import itertools
import math

from .math import so3, vectorops

_indices = itertools.count()

#: handle sizes in pixels
_ARROW_PIXELS = 60.0
_PICK_PIXELS = 6.0


def _camera(viewport):
    """(R, t, focal length in pixels) of a klampt.Viewport."""
    R, t = viewport.getRigidTransform()
    return R, t, max(1e-9, float(viewport.scale) * float(viewport.w))


def _ray(viewport, x, y):
    """World ray (source, unit direction) through pixel (x, y)."""
    R, t, f = _camera(viewport)
    u = float(x) - (viewport.x + viewport.w * 0.5)
    v = (viewport.y + viewport.h * 0.5) - float(y)
    return list(t), vectorops.unit(so3.apply(R, [u / f, v / f, -1.0]))


def _project(viewport, p):
    """Pixel (x, y) and depth of a world point, or None behind the camera."""
    R, t, f = _camera(viewport)
    local = so3.apply(so3.inv(R), vectorops.sub(p, t))
    if local[2] >= -1e-9:
        return None
    depth = -local[2]
    return (viewport.x + viewport.w * 0.5 + f * local[0] / depth,
            viewport.y + viewport.h * 0.5 - f * local[1] / depth, depth)


def _pixel_size(viewport, p):
    """World length of one pixel at point p."""
    proj = _project(viewport, p)
    _, _, f = _camera(viewport)
    return (proj[2] if proj else 1.0) / f


def _ray_segment_distance(s, d, a, b):
    """(distance between the ray and segment ab, ray parameter)."""
    u = vectorops.sub(b, a)
    w0 = vectorops.sub(s, a)
    A, B, C = vectorops.dot(d, d), vectorops.dot(d, u), vectorops.dot(u, u)
    D, E = vectorops.dot(d, w0), vectorops.dot(u, w0)
    den = A * C - B * B
    if abs(den) < 1e-12:
        sc, tc = 0.0, (E / C if C > 0 else 0.0)
    else:
        sc, tc = (B * E - C * D) / den, (A * E - B * D) / den
    tc = min(1.0, max(0.0, tc))
    sc = max(0.0, (vectorops.dot(vectorops.sub(vectorops.madd(a, u, tc), s), d)) / A)
    return vectorops.distance(vectorops.madd(s, d, sc), vectorops.madd(a, u, tc)), sc


def _ray_point_distance(s, d, p):
    t = max(0.0, vectorops.dot(vectorops.sub(p, s), d))
    return vectorops.distance(vectorops.madd(s, d, t), p), t


def _needs_gl(what):
    from klampt.vis._render.gl import require_context  # OpenGL: loaded by the first draw
    return require_context(what)


class Widget:
    """Base class of the widgets."""

    def __init__(self):
        self._index = next(_indices)
        self._redraw = True
        self._highlight = None
        self._focus = None

    @property
    def index(self) -> int:
        """A number identifying the widget (widgets are numbered in creation order)."""
        return self._index

    @index.setter
    def index(self, value: int) -> None:
        self._index = int(value)

    def hover(self, x: int, y: int, viewport) -> bool:
        """Highlights the handle under pixel (x, y); True if there is one."""
        self._highlight = self._pick(x, y, viewport)
        return self._highlight is not None

    def beginDrag(self, x: int, y: int, viewport) -> bool:
        """Starts dragging the handle under pixel (x, y); True if there is one."""
        self._focus = self._pick(x, y, viewport)
        self._highlight = self._focus
        return self._focus is not None

    def drag(self, dx: int, dy: int, viewport) -> None:
        """Moves the dragged handle by (dx, dy) pixels."""
        if self._focus is not None:
            self._drag(self._focus, float(dx), float(dy), viewport)
            self._redraw = True

    def endDrag(self) -> None:
        """Ends a drag."""
        self._focus = None

    def keypress(self, c: str) -> None:
        """Handles a key press (the widgets have no key bindings)."""

    def drawGL(self, viewport) -> None:
        """Draws the widget's handles in the current OpenGL context."""
        GL = _needs_gl(type(self).__name__ + ".drawGL")
        GL.glPushAttrib(GL.GL_ENABLE_BIT | GL.GL_CURRENT_BIT | GL.GL_LINE_BIT | GL.GL_POINT_BIT)
        try:
            self._draw(GL, viewport)
        finally:
            GL.glPopAttrib()
        self._redraw = False

    def idle(self) -> None:
        """Idle-time processing (nothing to do)."""

    def wantsRedraw(self) -> bool:
        """True when the widget changed since it was last drawn."""
        return self._redraw

    def hasHighlight(self) -> bool:
        """Whether the mouse hovers over one of the widget's handles."""
        return self._highlight is not None

    def hasFocus(self) -> bool:
        """Whether the widget is being dragged."""
        return self._focus is not None

    def _pick(self, x, y, viewport):
        return None

    def _drag(self, handle, dx, dy, viewport):
        pass

    def _draw(self, GL, viewport):
        pass


class WidgetSet(Widget):
    """A group of widgets, each of which can be enabled or disabled."""

    def __init__(self):
        super().__init__()
        self._widgets = []
        self._enabled = []

    def add(self, subwidget: Widget) -> None:
        """Adds a widget (enabled)."""
        if not isinstance(subwidget, Widget):
            raise TypeError("WidgetSet.add needs a Widget")
        self._widgets.append(subwidget)
        self._enabled.append(True)
        self._redraw = True

    def remove(self, subwidget: Widget) -> None:
        """Removes a widget; raises ValueError if it is not in the set."""
        for i, w in enumerate(self._widgets):
            if w is subwidget:
                del self._widgets[i]
                del self._enabled[i]
                self._redraw = True
                return
        raise ValueError("the widget is not in this WidgetSet")

    def enable(self, subwidget: Widget, enabled: bool) -> None:
        """Enables or disables a widget of the set."""
        for i, w in enumerate(self._widgets):
            if w is subwidget:
                self._enabled[i] = bool(enabled)
                self._redraw = True
                return
        raise ValueError("the widget is not in this WidgetSet")

    def wantsRedraw(self) -> bool:
        return self._redraw or any(w.wantsRedraw() for w, on in zip(self._widgets, self._enabled) if on)

    def _active(self):
        return [w for w, on in zip(self._widgets, self._enabled) if on]

    def hover(self, x: int, y: int, viewport) -> bool:
        self._highlight = None
        for w in self._active():
            if w.hover(x, y, viewport) and self._highlight is None:
                self._highlight = w
        return self._highlight is not None

    def beginDrag(self, x: int, y: int, viewport) -> bool:
        for w in self._active():
            if w.beginDrag(x, y, viewport):
                self._focus = w
                return True
        return False

    def drag(self, dx: int, dy: int, viewport) -> None:
        if self._focus is not None:
            self._focus.drag(dx, dy, viewport)

    def endDrag(self) -> None:
        if self._focus is not None:
            self._focus.endDrag()
        self._focus = None

    def keypress(self, c: str) -> None:
        for w in self._active():
            w.keypress(c)

    def _draw(self, GL, viewport):
        for w in self._active():
            w.drawGL(viewport)


def _vector(v, n, what):
    values = [float(x) for x in v]
    if len(values) != n:
        raise ValueError("%s needs %d values, got %d" % (what, n, len(values)))
    return values


_AXIS_COLORS = ((1.0, 0.0, 0.0, 1.0), (0.0, 0.8, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0))
_HIGHLIGHT = (1.0, 1.0, 0.0, 1.0)


def _axes_of(R):
    return [R[0:3], R[3:6], R[6:9]]


def _pick_translation(p, R, enabled, x, y, viewport):
    """'center' or ('axis', i) under pixel (x, y) for translation handles at p."""
    s, d = _ray(viewport, x, y)
    px = _pixel_size(viewport, p)
    if _ray_point_distance(s, d, p)[0] <= 2 * _PICK_PIXELS * px:
        return 'center'
    best = None
    for i, axis in enumerate(_axes_of(R)):
        if not enabled[i]:
            continue
        dist, t = _ray_segment_distance(s, d, p, vectorops.madd(p, axis, _ARROW_PIXELS * px))
        if dist <= _PICK_PIXELS * px and (best is None or t < best[0]):
            best = (t, ('axis', i))
    return best[1] if best else None


def _translate(p, R, handle, dx, dy, viewport):
    """The point p moved by a drag of (dx, dy) pixels on a translation handle."""
    if handle == 'center':
        Rc, _, f = _camera(viewport)
        depth = _project(viewport, p)
        depth = depth[2] if depth else 1.0
        return vectorops.add(p, so3.apply(Rc, [dx * depth / f, -dy * depth / f, 0.0]))
    axis = _axes_of(R)[handle[1]]
    a, b = _project(viewport, p), _project(viewport, vectorops.madd(p, axis, _pixel_size(viewport, p)))
    if a is None or b is None:
        return p
    sx, sy = b[0] - a[0], b[1] - a[1]  # pixels per pixel-length along the axis
    n2 = sx * sx + sy * sy
    if n2 < 1e-12:
        return p
    t = (dx * sx + dy * sy) / n2 * _pixel_size(viewport, p)
    return vectorops.madd(p, axis, t)


def _draw_translation(GL, p, R, enabled, highlight, viewport):
    L = _ARROW_PIXELS * _pixel_size(viewport, p)
    GL.glDisable(GL.GL_LIGHTING)
    GL.glDisable(GL.GL_DEPTH_TEST)
    GL.glLineWidth(3.0)
    GL.glBegin(GL.GL_LINES)
    for i, axis in enumerate(_axes_of(R)):
        if enabled[i]:
            GL.glColor4f(*(_HIGHLIGHT if highlight == ('axis', i) else _AXIS_COLORS[i]))
            GL.glVertex3f(*p)
            GL.glVertex3f(*vectorops.madd(p, axis, L))
    GL.glEnd()
    GL.glPointSize(2 * _PICK_PIXELS)
    GL.glColor4f(*(_HIGHLIGHT if highlight == 'center' else (0.8, 0.8, 0.8, 1.0)))
    GL.glBegin(GL.GL_POINTS)
    GL.glVertex3f(*p)
    GL.glEnd()
    GL.glLineWidth(1.0)
    GL.glEnable(GL.GL_DEPTH_TEST)


def _ring(p, R, i, radius, n=48):
    axes = _axes_of(R)
    u, v = axes[(i + 1) % 3], axes[(i + 2) % 3]
    return [vectorops.add(p, vectorops.add(vectorops.mul(u, radius * math.cos(2 * math.pi * k / n)),
                                           vectorops.mul(v, radius * math.sin(2 * math.pi * k / n))))
            for k in range(n + 1)]


def _pick_rotation(p, R, enabled, x, y, viewport):
    s, d = _ray(viewport, x, y)
    px = _pixel_size(viewport, p)
    best = None
    for i in range(3):
        if not enabled[i]:
            continue
        ring = _ring(p, R, i, 0.8 * _ARROW_PIXELS * px)
        for a, b in zip(ring[:-1], ring[1:]):
            dist, t = _ray_segment_distance(s, d, a, b)
            if dist <= _PICK_PIXELS * px and (best is None or t < best[0]):
                best = (t, ('ring', i))
    return best[1] if best else None


def _rotate(R, handle, dx, dy):
    axis = _axes_of(R)[handle[1]]
    return so3.mul(so3.rotation(axis, (dx - dy) * 0.01), R)


def _draw_rotation(GL, p, R, enabled, highlight, viewport):
    radius = 0.8 * _ARROW_PIXELS * _pixel_size(viewport, p)
    GL.glDisable(GL.GL_LIGHTING)
    GL.glLineWidth(2.0)
    for i in range(3):
        if enabled[i]:
            GL.glColor4f(*(_HIGHLIGHT if highlight == ('ring', i) else _AXIS_COLORS[i]))
            GL.glBegin(GL.GL_LINE_STRIP)
            for q in _ring(p, R, i, radius):
                GL.glVertex3f(*q)
            GL.glEnd()
    GL.glLineWidth(1.0)


class PointPoser(Widget):
    """Edits a point, moving along enabled axes of a frame."""

    def __init__(self):
        super().__init__()
        self._point = [0.0, 0.0, 0.0]
        self._axes = so3.identity()
        self._enabled_axes = [True, True, True]

    def set(self, t) -> None:
        self._point = _vector(t, 3, "PointPoser.set")
        self._redraw = True

    def get(self):
        return list(self._point)

    def setAxes(self, R) -> None:
        """Sets the frame whose axes the point moves along."""
        self._axes = _vector(R, 9, "PointPoser.setAxes")

    def enableAxes(self, x: bool, y: bool, z: bool) -> None:
        self._enabled_axes = [bool(x), bool(y), bool(z)]

    def _pick(self, x, y, viewport):
        return _pick_translation(self._point, self._axes, self._enabled_axes, x, y, viewport)

    def _drag(self, handle, dx, dy, viewport):
        self._point = _translate(self._point, self._axes, handle, dx, dy, viewport)

    def _draw(self, GL, viewport):
        _draw_translation(GL, self._point, self._axes, self._enabled_axes, self._highlight, viewport)


class TransformPoser(Widget):
    """Edits a rigid transform (R, t)."""

    def __init__(self):
        super().__init__()
        self._R = so3.identity()
        self._t = [0.0, 0.0, 0.0]
        self._translation = True
        self._rotation = True
        self._translation_axes = [True, True, True]
        self._rotation_axes = [True, True, True]

    def set(self, R, t) -> None:
        self._R = _vector(R, 9, "TransformPoser.set rotation")
        self._t = _vector(t, 3, "TransformPoser.set translation")
        self._redraw = True

    def get(self):
        return (list(self._R), list(self._t))

    def enableTranslation(self, arg2: bool) -> None:
        self._translation = bool(arg2)

    def enableRotation(self, arg2: bool) -> None:
        self._rotation = bool(arg2)

    def enableTranslationAxes(self, x: bool, y: bool, z: bool) -> None:
        self._translation_axes = [bool(x), bool(y), bool(z)]

    def enableRotationAxes(self, x: bool, y: bool, z: bool) -> None:
        self._rotation_axes = [bool(x), bool(y), bool(z)]

    def _pose(self):
        return self._R, self._t

    def _set_pose(self, R, t):
        self._R, self._t = list(R), list(t)

    def _pick(self, x, y, viewport):
        R, t = self._pose()
        handle = _pick_translation(t, R, self._translation_axes, x, y, viewport) if self._translation else None
        if handle is None and self._rotation:
            handle = _pick_rotation(t, R, self._rotation_axes, x, y, viewport)
        return handle

    def _drag(self, handle, dx, dy, viewport):
        R, t = self._pose()
        if isinstance(handle, tuple) and handle[0] == 'ring':
            self._set_pose(_rotate(R, handle, dx, dy), t)
        else:
            self._set_pose(R, _translate(t, R, handle, dx, dy, viewport))

    def _draw(self, GL, viewport):
        R, t = self._pose()
        if self._translation:
            _draw_translation(GL, t, R, self._translation_axes, self._highlight, viewport)
        if self._rotation:
            _draw_rotation(GL, t, R, self._rotation_axes, self._highlight, viewport)


class ObjectPoser(TransformPoser):
    """Edits the transform of a RigidObjectModel; setting the pose (or
    dragging) moves the object (rotation and translation; the reference
    keeps the old rotation)."""

    def __init__(self, object):
        super().__init__()
        if not hasattr(object, 'getTransform') or not hasattr(object, 'setTransform'):
            raise TypeError("ObjectPoser needs a RigidObjectModel")
        self._object = object

    def set(self, R, t) -> None:
        self._object.setTransform(_vector(R, 9, "ObjectPoser.set rotation"),
                                  _vector(t, 3, "ObjectPoser.set translation"))
        self._redraw = True

    def get(self):
        R, t = self._object.getTransform()
        return (list(R), list(t))

    def _pose(self):
        return self.get()

    def _set_pose(self, R, t):
        self._object.setTransform(list(R), list(t))


class RobotPoser(Widget):
    """Edits a robot's configuration: setting it configures the robot.

    Attributes:
        color (list of 3 or 4 floats, or None): when set, the robot is drawn
            in this color (a ghost) rather than its own appearance.
    """

    def __init__(self, robot):
        super().__init__()
        if not hasattr(robot, 'getConfig') or not hasattr(robot, 'setConfig'):
            raise TypeError("RobotPoser needs a RobotModel")
        self.color = None
        self._robot = robot
        self._config = list(robot.getConfig())
        self._active = list(range(len(self._config)))
        self._constraints = []

    def setActiveDofs(self, dofs) -> None:
        """Restricts editing to these joints."""
        dofs = [int(d) for d in dofs]
        if any(d < 0 or d >= len(self._config) for d in dofs):
            raise IndexError("active DOF out of range [0, %d)" % len(self._config))
        self._active = dofs

    def set(self, q) -> None:
        q = _vector(q, len(self._config), "RobotPoser.set")
        self._config = q
        self._robot.setConfig(q)
        self._redraw = True

    def get(self):
        return list(self._config)

    def getConditioned(self, qref):
        """The configuration with each spin joint's angle replaced by the
        equivalent angle (modulo 2 pi) closest to ``qref``."""
        qref = _vector(qref, len(self._config), "RobotPoser.getConditioned")
        q = list(self._config)
        for i in range(len(q)):
            if self._robot.getJointType(i) == 'spin':
                q[i] = qref[i] + math.remainder(q[i] - qref[i], 2 * math.pi)
        return q

    def addIKConstraint(self, obj) -> None:
        """Adds an IK objective that dragging keeps satisfied."""
        self._constraints.append(obj)

    def clearIKConstraints(self) -> None:
        self._constraints = []

    def _pick(self, x, y, viewport):
        s, d = _ray(viewport, x, y)
        best = None
        saved = self._robot.getConfig()
        self._robot.setConfig(self._config)
        try:
            for i in self._active:
                geometry = self._robot.link(i).geometry()
                if geometry.empty():  # links without geometry (tx90's virtual links) cannot be grabbed
                    continue
                hit, pt = geometry.rayCast(s, d)
                if hit:
                    t = vectorops.dot(vectorops.sub(pt, s), d)
                    if best is None or t < best[0]:
                        best = (t, i)
        finally:
            self._robot.setConfig(saved)
        return None if best is None else ('link', best[1])

    def _drag(self, handle, dx, dy, viewport):
        i = handle[1]
        qmin, qmax = self._robot.getJointLimits()
        q = list(self._config)
        q[i] = min(qmax[i], max(qmin[i], q[i] + (dx - dy) * 0.01))
        self.set(q)

    def _draw(self, GL, viewport):
        saved = self._robot.getConfig()
        self._robot.setConfig(self._config)
        try:
            color = self.color
            if color is None:
                self._robot.drawGL()
            else:
                # a ghost's color (klampt.vis gives the edited item's), blended when translucent
                GL.glColor4f(*color)
                if len(color) > 3 and color[3] < 1:
                    GL.glEnable(GL.GL_BLEND)
                    GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
                self._robot.drawGL(False)
            if self._highlight is not None:
                link = self._robot.link(self._highlight[1])
                GL.glDisable(GL.GL_LIGHTING)
                GL.glColor4f(*_HIGHLIGHT)
                GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_LINE)
                link.drawWorldGL(False)
                GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_FILL)
        finally:
            self._robot.setConfig(saved)
