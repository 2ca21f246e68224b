"""The widget classes of ``klampt`` (Widget, WidgetSet, PointPoser,
TransformPoser, ObjectPoser, RobotPoser) as data holders: the poses and
configurations they edit can be set and read, but hovering, dragging and
drawing need an OpenGL visualization, which this package does not provide,
and raise RuntimeError."""
import itertools
import math

from .math import so3

_indices = itertools.count()


def _needs_gl(what):
    raise RuntimeError("%s needs an OpenGL visualization (klampt.vis), which is not available" % what)


class Widget:
    """Base class of the widgets.

    Attributes:
        index (int): a number identifying the widget (widgets are numbered in
            creation order).
    """

    def __init__(self):
        self.index = next(_indices)
        self._redraw = True

    def hover(self, x: int, y: int, viewport) -> bool:
        _needs_gl(type(self).__name__ + ".hover")

    def beginDrag(self, x: int, y: int, viewport) -> bool:
        _needs_gl(type(self).__name__ + ".beginDrag")

    def drag(self, dx: int, dy: int, viewport) -> None:
        _needs_gl(type(self).__name__ + ".drag")

    def endDrag(self) -> None:
        """Ends a drag (nothing is ever being dragged here)."""

    def keypress(self, c: str) -> None:
        """Handles a key press (the widgets have no key bindings)."""

    def drawGL(self, viewport) -> None:
        _needs_gl(type(self).__name__ + ".drawGL")

    def idle(self) -> None:
        """Idle-time processing (nothing to do)."""

    def wantsRedraw(self) -> bool:
        """True when the widget changed since it was last drawn."""
        return self._redraw

    def hasHighlight(self) -> bool:
        """Whether the mouse hovers over the widget (never, without a GUI)."""
        return False

    def hasFocus(self) -> bool:
        """Whether the widget is being dragged (never, without a GUI)."""
        return False


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


def _vector(v, n, what):
    values = [float(x) for x in v]
    if len(values) != n:
        raise ValueError("%s needs %d values, got %d" % (what, n, len(values)))
    return values


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


class ObjectPoser(Widget):
    """Edits the transform of a RigidObjectModel; setting the pose moves the
    object (rotation and translation; the reference keeps the old rotation)."""

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


class RobotPoser(Widget):
    """Edits a robot's configuration: setting it configures the robot."""

    def __init__(self, robot):
        super().__init__()
        if not hasattr(robot, 'getConfig') or not hasattr(robot, 'setConfig'):
            raise TypeError("RobotPoser needs a RobotModel")
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
