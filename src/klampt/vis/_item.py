"""One item of the scene (:class:`VisAppearance`): the drawn object held by
reference, its attributes cascading over its type's defaults, its sub-items
(a world's robots and objects, a robot's links), its bounds and centre, its
animation and its editor. No OpenGL here."""
import math
import warnings

from klampt.math import vectorops

from ._types import default_attributes, objectToVisType
from klampt.model import coordinates, config
from klampt.model.contact import Hold
from ._plot import VisPlot
from klampt import Geometry3D
from . import _posers


def is_transform(x):
    """An se3 element (R, t) with a 9-element R and a 3-element t."""
    return (isinstance(x, (list, tuple)) and len(x) == 2 and isinstance(x[0], (list, tuple))
            and isinstance(x[1], (list, tuple)) and len(x[0]) == 9 and len(x[1]) == 3)

class _CascadingDict:
    """A dict whose missing keys are read from a parent dict; writes and
    deletes touch this level only."""

    def __init__(self, rhs=None, parent=None):
        self.overrides = dict(rhs) if rhs is not None else {}
        self.parent = parent

    def setParent(self, parent):
        """Sets the dict that missing keys are read from."""
        self.parent = parent

    def __getitem__(self, item):
        try:
            return self.overrides[item]
        except KeyError:
            if self.parent is None:
                raise
            return self.parent[item]

    def __setitem__(self, key, value):
        self.overrides[key] = value

    def __delitem__(self, key):
        del self.overrides[key]

    def get(self, item, default=None):
        """The value of ``item``, or ``default``."""
        try:
            return self[item]
        except KeyError:
            return default

    def flatten(self):
        """A plain dict of this level over its parents."""
        out = self.parent.flatten() if isinstance(self.parent, _CascadingDict) else dict(self.parent or {})
        out.update(self.overrides)
        return out

    def __contains__(self, item):
        return item in self.overrides or (self.parent is not None and item in self.parent)

    def __repr__(self):
        return repr(self.flatten())


def is_world(item):
    """Whether item is a WorldModel."""
    return type(item).__name__ == 'WorldModel'


def _is_robot(item):
    return type(item).__name__ == 'RobotModel'


def _bb_union(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return ([min(x, y) for x, y in zip(a[0], b[0])], [max(x, y) for x, y in zip(a[1], b[1])])


def _bb_of_points(pts):
    pts = [list(p) for p in pts]
    if not pts:
        return None
    return ([min(p[i] for p in pts) for i in range(3)], [max(p[i] for p in pts) for i in range(3)])


def _finite_bb(bb):
    return bb is not None and all(math.isfinite(v) for v in list(bb[0]) + list(bb[1])) and \
        all(lo <= hi for lo, hi in zip(bb[0], bb[1]))


class VisAppearance:
    """How one item of the scene is drawn: the item (held by reference),
    its attributes (cascading over the type's defaults), sub-items (the
    robots, objects and terrains of a world; the links of a robot; ...),
    animation state and an optional editor.

    Attributes:
        name: the item's name.
        item: the drawn object.
        attributes (_CascadingDict): 'color', 'size', 'hidden', 'label', ...
        subAppearances (dict): key -> VisAppearance.
        useDefaultAppearance (bool): False once a color or appearance is set.
        customAppearance: an Appearance set with ``setAppearance``.
        customDrawFunc: ``func(item)`` replacing the drawing.
        animation: a Trajectory animating the item, or None.
        drawConfig: the animated configuration swapped in while drawing.
        editor: a klampt Widget editing the item, or None.
        version (int): bumped whenever the item or its attributes change.
    """

    def __init__(self, item, name=None, type=None):
        self.name = name
        self.useDefaultAppearance = True
        self.customAppearance = None
        self.customDrawFunc = None
        self.subAppearances = {}
        self.animation = None
        self.animationStartTime = 0
        self.animationSpeed = 1.0
        self.animationEndBehavior = 'loop'
        attributes = default_attributes(item, type)
        if attributes is None:
            warnings.warn("Couldn't determine type of item %s" % (name,))
            attributes = {}
        self.attributes = _CascadingDict(parent=attributes)
        if 'hide_label' not in self.attributes:
            self.attributes['hide_label'] = False
        if 'hidden' not in self.attributes:
            self.attributes['hidden'] = False
        self.attributes['label'] = name
        self.editor = None
        self.drawConfig = None
        self.version = 0
        self.appearance = None  # the standalone Appearance of a geometry item, made when drawn
        self.setItem(item)

    def setItem(self, item):
        """Replaces the item, rebuilding the sub-items."""
        self.item = item
        self.subAppearances = {}
        if is_world(item):
            for i in range(item.numRobots()):
                self.subAppearances[('Robot', i)] = VisAppearance(item.robot(i), item.robot(i).getName())
            for i in range(item.numRigidObjects()):
                self.subAppearances[('RigidObject', i)] = VisAppearance(item.rigidObject(i),
                                                                         item.rigidObject(i).getName())
            for i in range(item.numTerrains()):
                self.subAppearances[('Terrain', i)] = VisAppearance(item.terrain(i), item.terrain(i).getName())
        elif _is_robot(item):
            for i in range(item.numLinks()):
                self.subAppearances[('Link', i)] = VisAppearance(item.link(i), item.link(i).getName())
        elif isinstance(item, coordinates.Group):
            for n, f in item.frames.items():
                self.subAppearances[('Frame', n)] = VisAppearance(f, n)
            for n, p in item.points.items():
                self.subAppearances[('Point', n)] = VisAppearance(p, n)
            for n, d in item.directions.items():
                self.subAppearances[('Direction', n)] = VisAppearance(d, n)
            for n, g in item.subgroups.items():
                self.subAppearances[('Subgroup', n)] = VisAppearance(g, n)
        elif isinstance(item, Hold):
            if item.ikConstraint is not None:
                self.subAppearances['ikConstraint'] = VisAppearance(item.ikConstraint, 'ik')
            for n, c in enumerate(item.contacts):
                self.subAppearances[('contact', n)] = VisAppearance(c, n)
        self.markChanged()

    def markChanged(self, config=True, appearance=True):
        """Notes a change (bumps ``version``, here and in sub-items)."""
        self.version += 1
        for a in self.subAppearances.values():
            a.markChanged(config, appearance)
        if config:
            self.update_editor(True)

    def destroy(self):
        """Forgets the sub-items and editor."""
        for a in self.subAppearances.values():
            a.destroy()
        self.subAppearances = {}
        self.editor = None

    def getSubItem(self, path):
        """The VisAppearance at a path of names below this one."""
        if len(path) == 0:
            return self
        for k, v in self.subAppearances.items():
            if v.name == path[0] or k == path[0]:
                return v.getSubItem(path[1:])
        for k, v in self.subAppearances.items():
            if str(v.name) == str(path[0]):
                return v.getSubItem(path[1:])
        raise ValueError("Invalid sub-path specified " + str(path) + " at " + str(self.name))

    def updateAnimation(self, t):
        """Sets ``drawConfig`` from the animation at scene time t."""
        if not self.animation:
            self.drawConfig = None
        else:
            u = self.animationSpeed * (t - self.animationStartTime)
            q = self.animation.eval(u, self.animationEndBehavior)
            self.drawConfig = list(config.getConfig(q)) if not isinstance(q, (list, tuple)) or \
                (len(q) == 2 and not isinstance(q[0], (int, float))) else list(q)
            if isinstance(q, tuple) and len(q) == 2:  # an se3 element from an SE3Trajectory
                self.drawConfig = list(q[0]) + list(q[1])
            self.version += 1
        for app in self.subAppearances.values():
            app.updateAnimation(t)

    def updateTime(self, t):
        """Advances time-dependent items (plots) to scene time t."""
        if isinstance(self.item, VisPlot):
            for plotitem in self.item.items:
                if plotitem.linkitem:
                    plotitem.linkitem.swapDrawConfig()
            self.item.update(t, self.attributes['duration'], self.attributes['compress'])
            for plotitem in self.item.items:
                if plotitem.linkitem:
                    plotitem.linkitem.swapDrawConfig()

    def swapDrawConfig(self):
        """Swaps the item's configuration with ``drawConfig`` (called around
        drawing an animated item, so the user's object keeps its own
        configuration between frames)."""
        if self.drawConfig:
            try:
                current = config.getConfig(self.item)
                if len(current) != len(self.drawConfig):
                    raise ValueError("animation of %d values for an item of %d" % (len(self.drawConfig),
                                                                                   len(current)))
                if isinstance(self.item, tuple) or (isinstance(self.item, list) and len(self.item) == 2
                                                    and isinstance(self.item[0], tuple)):
                    raise ValueError("a tuple cannot be animated")
                config.setConfig(self.item, self.drawConfig)
                self.drawConfig = list(current)
            except Exception as e:
                warnings.warn("klampt.vis: animation of %s stopped: %s" % (self.name, e))
                self.animation = None
                self.drawConfig = None
        for app in self.subAppearances.values():
            app.swapDrawConfig()

    def transparent(self):
        """True if the item is entirely transparent, None if partly, else False."""
        if self.subAppearances:
            flags = [app.transparent() for app in self.subAppearances.values()]
            if any(f is None for f in flags) or (any(flags) and not all(flags)):
                return None
            return bool(flags) and all(flags)
        if hasattr(self.item, 'appearance') and callable(self.item.appearance):
            if self.useDefaultAppearance or 'color' not in self.attributes:
                return self.item.appearance().getColor()[3] < 1.0
        try:
            return self.attributes['color'][3] < 1.0
        except (KeyError, TypeError, IndexError):
            return False

    def getAttributes(self):
        """The item's attributes as a plain dict ({} for items with sub-items)."""
        if self.subAppearances:
            return {}
        return self.attributes.flatten()

    def getBounds(self):
        """A bounding box (bmin, bmax) of what is drawn, or None."""
        if self.subAppearances:
            bb = None
            for app in self.subAppearances.values():
                bb = _bb_union(bb, app.getBounds())
            return bb
        item = self.item
        names = {c.__name__ for c in type(item).__mro__}
        try:
            if names & {'RobotModelLink', 'RigidObjectModel', 'TerrainModel'}:
                bb = item.geometry().getBB()
                return bb if _finite_bb(bb) else None
            if 'Geometry3D' in names:
                bb = item.getBB()
                return bb if _finite_bb(bb) else None
            if names & {'TriangleMesh', 'PointCloud', 'GeometricPrimitive', 'ConvexHull', 'VolumeGrid'}:
                bb = Geometry3D(item).getBB()
                return bb if _finite_bb(bb) else None
            if isinstance(item, str):
                pos = self.attributes.get('position')
                return _bb_of_points([pos]) if pos is not None and len(pos) == 3 else None
            if 'Point' in names and hasattr(item, 'worldCoordinates'):
                return _bb_of_points([item.worldCoordinates()])
            if 'Frame' in names and hasattr(item, 'worldCoordinates'):
                return _bb_of_points([item.worldCoordinates()[1]])
            if 'ContactPoint' in names:
                return _bb_of_points([item.x])
            if 'Trajectory' in {c.__name__ for c in type(item).__mro__}:
                pts = []
                for m in item.milestones:
                    if len(m) in (2, 3):
                        pts.append(list(m) + [0.0] * (3 - len(m)))
                    elif len(m) == 12:
                        pts.append(m[9:12])
                return _bb_of_points(pts)
            itype = self.attributes.get('type') or objectToVisType(item, None)
            if itype == 'Vector3':
                return _bb_of_points([item])
            if itype == 'RigidTransform':
                return _bb_of_points([item[1]])
            if itype == 'Configs' and item and len(item[0]) in (2, 3):
                return _bb_of_points([list(p) + [0.0] * (3 - len(p)) for p in item])
        except Exception:
            return None
        return None

    def getCenter(self):
        """The centre of the item's bounds (the origin if unknown)."""
        bb = self.getBounds()
        if bb is None:
            return [0.0, 0.0, 0.0]
        return vectorops.mul(vectorops.add(bb[0], bb[1]), 0.5)

    def make_editor(self, world=None):
        """Creates the widget that edits this item (see ``vis.edit``)."""
        self.editor = _posers.make_editor(self, world)
        return self.editor

    def update_editor(self, item_to_editor=False):
        """Copies between the item and its editor (item_to_editor: the
        editor follows the item, else the item takes the editor's value)."""
        if self.editor is None:
            return
        _posers.sync(self, item_to_editor)
