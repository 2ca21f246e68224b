"""Named coordinate frames with points and directions attached to them,
similar to ROS's tf: :class:`Frame`, :class:`Transform`, :class:`Point`,
:class:`Direction`, collected in a :class:`Group` (with a 'root' frame and
nested sub-groups addressed as ``group:item``) or a :class:`Manager` (whose
root is also called 'world').

The module has a default Manager: ``coordinates.addFrame(...)`` and the
other module-level functions call the method of the same name on it
(:func:`manager` returns it, :func:`setManager` replaces it).

A frame stores both its world coordinates and its coordinates relative to
its parent; :meth:`Group.setFrameCoordinates` keeps the frames below it up
to date.  Frames made from a world (:meth:`Group.setWorldModel`) remember
their robot link or rigid object, so :meth:`Group.updateFromWorld` and
:meth:`Group.updateToWorld` copy poses between the frames and the world.
"""
from ..robotsim import (IKObjective, RigidObjectModel, RobotModelLink,  # noqa: F401  (Klamp't's module has them)
                        SimRobotController)
from typing import Optional

from .. import robotsim
from ..math import se3, so3, vectorops


class Frame(object):
    """A coordinate frame: a name, world coordinates (R, t) and an optional
    parent frame with the coordinates relative to it.  If
    relativeCoordinates is given it defines the frame, otherwise
    worldCoordinates does."""

    def __init__(self, name: str, worldCoordinates=se3.identity(), parent: 'Frame' = None, relativeCoordinates=None):
        self._name = name
        self._parent = parent
        self._data = None
        if relativeCoordinates is None:
            self._worldCoordinates = _copy_transform(worldCoordinates)
            if parent is None:
                self._relativeCoordinates = _copy_transform(worldCoordinates)
            else:
                self._relativeCoordinates = se3.mul(se3.inv(parent._worldCoordinates), worldCoordinates)
        else:
            self._relativeCoordinates = _copy_transform(relativeCoordinates)
            if parent is None:
                self._worldCoordinates = _copy_transform(relativeCoordinates)
            else:
                self._worldCoordinates = se3.mul(parent._worldCoordinates, relativeCoordinates)

    def name(self) -> str:
        """The frame's name."""
        return self._name

    def data(self):
        """The world element attached to this frame (robot link, rigid
        object, terrain, simulation body), or None."""
        return self._data

    def worldOrigin(self):
        """The frame's origin in world coordinates (m).

        Returns:
            list of 3 floats: the translation part of worldCoordinates() (a copy).
        """
        return list(self._worldCoordinates[1])

    def relativeOrigin(self):
        """The frame's origin in its parent's coordinates (m); the world origin
        if the frame has no parent.

        Returns:
            list of 3 floats: the translation part of relativeCoordinates() (a
            copy).
        """
        return list(self._relativeCoordinates[1])

    def worldRotation(self):
        """The frame's orientation in world coordinates.

        Returns:
            list of 9 floats: the column-major rotation matrix of
            worldCoordinates() (a copy).
        """
        return list(self._worldCoordinates[0])

    def relativeRotation(self):
        """The frame's orientation relative to its parent (the world rotation if
        the frame has no parent).

        Returns:
            list of 9 floats: the column-major rotation matrix of
            relativeCoordinates() (a copy).
        """
        return list(self._relativeCoordinates[0])

    def worldCoordinates(self):
        """The transform from this frame to world coordinates."""
        return _copy_transform(self._worldCoordinates)

    def relativeCoordinates(self):
        """The transform from this frame to its parent's coordinates."""
        return _copy_transform(self._relativeCoordinates)

    def parent(self) -> Optional['Frame']:
        """The parent frame, or None for a frame given in world
        coordinates."""
        return self._parent

    def _update_world(self):
        if self._parent is None:
            self._worldCoordinates = _copy_transform(self._relativeCoordinates)
        else:
            self._worldCoordinates = se3.mul(self._parent._worldCoordinates, self._relativeCoordinates)

    def _update_relative(self):
        if self._parent is None:
            self._relativeCoordinates = _copy_transform(self._worldCoordinates)
        else:
            self._relativeCoordinates = se3.mul(se3.inv(self._parent._worldCoordinates), self._worldCoordinates)


def _copy_transform(T):
    return (list(T[0]), list(T[1]))


def _world(frame):
    return se3.identity() if frame is None else frame._worldCoordinates


class Transform(object):
    """The transform from a source frame to a destination frame (the world
    if destination is None); its coordinates follow the frames."""

    def __init__(self, source: Frame, destination: Frame = None):
        self._source = source
        self._destination = destination

    def source(self) -> Frame:
        """The frame whose coordinates the transform maps from."""
        return self._source

    def destination(self) -> Frame:
        """The frame the transform maps into, or None for the world."""
        return self._destination

    def coordinates(self):
        """The transform taking source coordinates to destination
        coordinates."""
        return se3.mul(se3.inv(_world(self._destination)), _world(self._source))

    def translationCoordinates(self):
        """The translation of :meth:`coordinates`: the source origin in
        destination coordinates (m).

        Returns:
            list of 3 floats
        """
        return list(self.coordinates()[1])

    def rotationCoordinates(self):
        """The rotation of :meth:`coordinates`: the source orientation relative
        to the destination.

        Returns:
            list of 9 floats: a column-major rotation matrix.
        """
        return list(self.coordinates()[0])

    def toWorld(self) -> 'Transform':
        """A new Transform from the same source frame to the world."""
        return Transform(self._source, None)

    def to(self, frame) -> 'Transform':
        """A new Transform from the same source frame to another destination.

        Args:
            frame (Frame or None): the new destination (None: the world).
        """
        return Transform(self._source, frame)


class Point(object):
    """A point with coordinates in a frame (the world if frame is None)."""

    def __init__(self, localCoordinates=[0, 0, 0], frame: Frame = None, name: str = None):
        self._name = name
        self._localCoordinates = list(localCoordinates)
        self._frame = frame

    def localCoordinates(self):
        """The point's coordinates in its frame (m), a 3-element copy."""
        return list(self._localCoordinates)

    def worldCoordinates(self):
        """The point's coordinates in the world frame (m), a 3-element list."""
        return list(se3.apply(_world(self._frame), self._localCoordinates))

    def frame(self) -> Frame:
        """The frame of the local coordinates, or None for the world."""
        return self._frame

    def toWorld(self) -> 'Point':
        """A new Point at the same place with world coordinates (frame None) and
        the same name."""
        return Point(self.worldCoordinates(), None, self._name)

    def to(self, newframe) -> 'Point':
        """The same point in space with coordinates in newframe."""
        return Point(list(se3.apply(se3.inv(_world(newframe)), self.worldCoordinates())), newframe, self._name)

    def localOffset(self, dir) -> None:
        """Moves the point by dir given in its frame."""
        self._localCoordinates = vectorops.add(self._localCoordinates, dir)

    def worldOffset(self, dir) -> None:
        """Moves the point by dir given in world coordinates."""
        self._localCoordinates = vectorops.add(self._localCoordinates, so3.apply(so3.inv(_world(self._frame)[0]), dir))


class Direction(object):
    """A direction (free vector) with coordinates in a frame (the world if
    frame is None); only the frame's rotation affects it."""

    def __init__(self, localCoordinates=[0, 0, 0], frame: Frame = None, name: str = None):
        self._name = name
        self._localCoordinates = list(localCoordinates)
        self._frame = frame

    def localCoordinates(self):
        """The direction's coordinates in its frame, a 3-element copy."""
        return list(self._localCoordinates)

    def worldCoordinates(self):
        """The direction rotated into the world frame (the frame's translation
        does not apply), a 3-element list."""
        return list(so3.apply(_world(self._frame)[0], self._localCoordinates))

    def frame(self) -> Frame:
        """The frame of the local coordinates, or None for the world."""
        return self._frame

    def toWorld(self) -> 'Direction':
        """A new Direction with the same world coordinates, in the world frame
        (frame None), with the same name."""
        return Direction(self.worldCoordinates(), None, self._name)

    def to(self, newframe) -> 'Direction':
        """The same direction with coordinates in newframe."""
        return Direction(list(so3.apply(so3.inv(_world(newframe)[0]), self.worldCoordinates())), newframe, self._name)

    def scale(self, amount) -> None:
        """Multiplies the direction's coordinates by the scalar amount, in
        place."""
        self._localCoordinates = vectorops.mul(self._localCoordinates, amount)

    def localOffset(self, dir) -> None:
        """Adds the vector dir, given in the direction's frame, to the
        direction."""
        self._localCoordinates = vectorops.add(self._localCoordinates, dir)

    def worldOffset(self, dir) -> None:
        """Adds the vector dir, given in world coordinates, to the direction (dir
        is rotated into the direction's frame first)."""
        self._localCoordinates = vectorops.add(self._localCoordinates, so3.apply(so3.inv(_world(self._frame)[0]), dir))


class Group(object):
    """A collection of frames, points, directions and sub-groups with a
    'root' frame.  Items of sub-groups are named ``group:item``.

    Attributes:
        frames (dict): frame name -> Frame
        childLists (dict): frame name -> list of child frame names
        points (dict): point name -> Point
        directions (dict): direction name -> Direction
        subgroups (dict): group name -> Group
    """

    def __init__(self):
        self._name = None
        self.destroy()

    def rootFrame(self) -> Optional[Frame]:
        """The group's 'root' frame (for a sub-group, the frame attached to
        its parent frame in the enclosing group)."""
        return self.frames.get('root', None)

    def destroy(self) -> None:
        """Removes every item and sub-group."""
        self.frames = {'root': Frame('root')}
        self.childLists = {'root': []}
        self.points = {}
        self.directions = {}
        self.subgroups = {}

    # ------------------------------------------------------------ worlds
    def setWorldModel(self, worldModel) -> None:
        """Adds a sub-group per robot (its links, see setRobotModel) and a
        frame per rigid object and terrain, named after them."""
        for i in range(worldModel.numRobots()):
            robot = worldModel.robot(i)
            self.addGroup(robot.getName()).setRobotModel(robot)
        for i in range(worldModel.numRigidObjects()):
            obj = worldModel.rigidObject(i)
            self._addDataFrame(obj.getName(), i, obj.getTransform(), obj)
        for i in range(worldModel.numTerrains()):
            terrain = worldModel.terrain(i)
            self._addDataFrame(terrain.getName(), i, se3.identity(), terrain)

    def _addDataFrame(self, name, index, T, data):
        if name in self.frames:
            name = "%s[%d]" % (name, index)
        f = self.addFrame(name, worldCoordinates=T)
        f._data = data
        return f

    def setRobotModel(self, robotModel) -> None:
        """Adds a frame per link of the robot, named after the link and
        parented like the links."""
        for i in range(robotModel.numLinks()):
            link = robotModel.link(i)
            p = link.getParent()
            parent = self.frames[robotModel.link(p).getName()] if p >= 0 else self.frames['root']
            f = self.addFrame(link.getName(), worldCoordinates=link.getTransform(), parent=parent)
            f._data = link

    def setController(self, controller) -> None:
        """Adds sub-groups 'commanded' and 'sensed' holding the robot's link
        frames at the controller's commanded and sensed configurations."""
        robot = controller.model()
        q0 = robot.getConfig()
        try:
            for name, q in (('commanded', controller.getCommandedConfig()), ('sensed', controller.getSensedConfig())):
                robot.setConfig(list(q))
                group = self.addGroup(name)
                group.setRobotModel(robot)
                # these frames are snapshots, not the live links
                for f in group.frames.values():
                    f._data = None
        finally:
            robot.setConfig(q0)

    def setSimBody(self, name, simBody) -> None:
        """Adds (or updates) a frame attached to a simulation body."""
        if name not in self.frames:
            self.addFrame(name, worldCoordinates=simBody.getTransform())
        self.frames[name]._data = simBody
        self.setFrameCoordinates(name, simBody.getTransform(), 'world')

    def updateFromWorld(self) -> None:
        """Copies the poses of the attached world elements into their frames
        (and updates the frames below them)."""
        for name, f in self.frames.items():
            if f._data is not None and hasattr(f._data, 'getTransform'):
                f._worldCoordinates = _copy_transform(f._data.getTransform())
                f._update_relative()
                self.updateDependentFrames(f)
        for g in self.subgroups.values():
            g.frames['root']._update_world()
            g.updateDependentFrames('root')
            g.updateFromWorld()

    def updateToWorld(self) -> None:
        """Sets the poses of the attached world elements (links, rigid
        objects, simulation bodies) from their frames.  This does not solve
        inverse kinematics: links are placed directly."""
        for f in self.frames.values():
            if f._data is not None and hasattr(f._data, 'setTransform'):
                f._data.setTransform(*f._worldCoordinates)
        for g in self.subgroups.values():
            g.updateToWorld()

    # ------------------------------------------------------------ items
    def addFrame(self, name: str, worldCoordinates=None, parent=None, relativeCoordinates=None) -> Frame:
        """Adds a frame under parent (a name or Frame; default root), placed
        by worldCoordinates or relativeCoordinates (one must be given)."""
        if name in self.frames:
            raise ValueError("Frame %s already exists" % name)
        if worldCoordinates is None and relativeCoordinates is None:
            raise ValueError("addFrame needs worldCoordinates or relativeCoordinates")
        parentFrame = self.frame(parent if parent is not None else 'root')
        f = Frame(name, worldCoordinates if worldCoordinates is not None else se3.identity(), parentFrame,
                  relativeCoordinates)
        self.frames[name] = f
        self.childLists[name] = []
        self.childLists.setdefault(parentFrame._name, [])
        if parentFrame is self.frames.get(parentFrame._name):
            self.childLists[parentFrame._name].append(name)
        return f

    def addPoint(self, name: str, coordinates=[0, 0, 0], frame='root') -> Point:
        """Adds a named point with coordinates in frame."""
        if name in self.points:
            raise ValueError("Point %s already exists" % name)
        p = self.point(coordinates, frame)
        p._name = name
        self.points[name] = p
        return p

    def addDirection(self, name: str, coordinates=[0, 0, 0], frame='root') -> Direction:
        """Adds a named direction with coordinates in frame."""
        if name in self.directions:
            raise ValueError("Direction %s already exists" % name)
        d = self.direction(coordinates, frame)
        d._name = name
        self.directions[name] = d
        return d

    def addGroup(self, name: str, group: 'Group' = None, parentFrame='root') -> 'Group':
        """Adds a sub-group (a new one if group is None) whose root is
        attached to parentFrame."""
        if name in self.subgroups:
            raise ValueError("Subgroup %s already exists" % name)
        if group is None:
            group = Group()
        group._name = name
        self.subgroups[name] = group
        root = group.frames['root']
        root._parent = self.frame(parentFrame)
        root._update_world()
        group.updateDependentFrames('root')
        return group

    def deleteFrame(self, name: str) -> None:
        """Deletes a frame; frames, points and directions that referred to it
        keep their world coordinates and become relative to root."""
        if name == 'root':
            raise ValueError("Can't delete the root frame")
        f = self.frame(name)
        root = self.frames['root']
        for child in self.childLists.pop(name, []):
            c = self.frames[child]
            c._parent = root
            c._update_relative()
            self.childLists['root'].append(child)
        for items in (self.points, self.directions):
            for item in items.values():
                if item._frame is f:
                    moved = item.to(root)
                    item._localCoordinates, item._frame = moved._localCoordinates, root
        for children in self.childLists.values():
            if name in children:
                children.remove(name)
        del self.frames[name]

    def deletePoint(self, name: str) -> None:
        """Removes the point named name from this group (not from sub-groups).

        Raises:
            KeyError: if the group has no such point.
        """
        del self.points[name]

    def deleteDirection(self, name: str) -> None:
        """Removes the direction named name from this group (not from
        sub-groups).

        Raises:
            KeyError: if the group has no such direction.
        """
        del self.directions[name]

    def deleteGroup(self, name: str) -> None:
        """Removes the sub-group named name and everything in it.

        Raises:
            KeyError: if the group has no such sub-group.
        """
        del self.subgroups[name]

    def setFrameCoordinates(self, name: str, coordinates, parent='relative') -> None:
        """Sets a frame's pose: relative to its parent ('relative'), in world
        coordinates ('world'), or relative to another frame (a name or
        Frame; None means root); frames below it follow."""
        f = self.frame(name)
        if parent == 'relative':
            f._relativeCoordinates = _copy_transform(coordinates)
            f._update_world()
        else:
            if parent == 'world':
                world = coordinates
            else:
                ref = self.frame(parent if parent is not None else 'root')
                world = se3.mul(ref._worldCoordinates, coordinates)
            f._worldCoordinates = _copy_transform(world)
            f._update_relative()
        self.updateDependentFrames(f)

    def updateDependentFrames(self, frame) -> None:
        """Recomputes the world coordinates of the frames below frame (and of
        sub-groups attached to them)."""
        f = self.frame(frame)
        stack = list(self.childLists.get(f._name, [])) if self.frames.get(f._name) is f else []
        while stack:
            child = self.frames[stack.pop()]
            child._update_world()
            stack += self.childLists.get(child._name, [])
        for g in self.subgroups.values():
            root = g.frames['root']
            if root._parent is not None:
                root._update_world()
                g.updateDependentFrames('root')

    def _split(self, name):
        if ':' in name:
            group, rest = name.split(':', 1)
            if group not in self.subgroups:
                raise ValueError("Subgroup %s does not exist" % group)
            return self.subgroups[group], rest
        return None, name

    def frame(self, name) -> Frame:
        """A frame by name ('group:name' for sub-groups; 'world' is the
        root)."""
        if isinstance(name, Frame):
            return name
        if name in self.frames:
            return self.frames[name]
        if name == 'world':
            return self.frames['root']
        group, rest = self._split(name)
        if group is None:
            raise ValueError("Frame %s does not exist" % name)
        return group.frame(rest)

    def getPoint(self, name: str) -> Point:
        """A named point ('group:name' for a sub-group's point).

        Raises:
            ValueError: if there is no such point or sub-group.
        """
        if name in self.points:
            return self.points[name]
        group, rest = self._split(name)
        if group is None:
            raise ValueError("Point %s does not exist" % name)
        return group.getPoint(rest)

    def getDirection(self, name: str) -> Direction:
        """A named direction ('group:name' for a sub-group's direction).

        Raises:
            ValueError: if there is no such direction or sub-group.
        """
        if name in self.directions:
            return self.directions[name]
        group, rest = self._split(name)
        if group is None:
            raise ValueError("Direction %s does not exist" % name)
        return group.getDirection(rest)

    # ------------------------------------------------------------ conversions
    def toWorld(self, object):
        """A Transform, Point or Direction expressed in world coordinates."""
        return object.toWorld()

    def to(self, object, frame):
        """A Transform, Point or Direction expressed in frame."""
        return object.to(self.frame(frame))

    def transform(self, sourceFrame, destFrame='root'):
        """The Transform from sourceFrame to destFrame."""
        return Transform(self.frame(sourceFrame), self.frame(destFrame))

    def point(self, coordinates=[0, 0, 0], frame='root'):
        """A Point (not added to the group) with coordinates in frame."""
        return Point(coordinates, self.frame(frame))

    def direction(self, coordinates=[0, 0, 0], frame='root'):
        """A Direction (not added to the group) with coordinates in frame."""
        return Direction(coordinates, self.frame(frame))

    def pointFromWorld(self, worldCoordinates=[0, 0, 0], frame='root'):
        """The point at worldCoordinates, expressed in frame."""
        return self.to(Point(worldCoordinates, None), frame)

    def directionFromWorld(self, worldCoordinates=[0, 0, 0], frame='world'):
        """The direction worldCoordinates, expressed in frame."""
        return self.to(Direction(worldCoordinates, None), frame)

    def listFrames(self, indent=0):
        """Prints the frames as a tree, then those of sub-groups."""
        def show(name, depth):
            print(' ' * (indent + 2 * depth) + name)
            for child in self.childLists.get(name, []):
                show(child, depth + 1)
        show('root', 0)
        for name, g in self.subgroups.items():
            print(' ' * indent + 'Group ' + name + ':')
            g.listFrames(indent + 2)

    def listItems(self, indent=0):
        """Prints the frames, points, directions and sub-groups."""
        print(' ' * indent + 'Frames: ' + ', '.join(self.frames))
        if self.points:
            print(' ' * indent + 'Points: ' + ', '.join(self.points))
        if self.directions:
            print(' ' * indent + 'Directions: ' + ', '.join(self.directions))
        for name, g in self.subgroups.items():
            print(' ' * indent + 'Group ' + name + ':')
            g.listItems(indent + 2)


class Manager(Group):
    """A Group whose root frame is also named 'world'."""

    def __init__(self):
        Group.__init__(self)

    def worldFrame(self) -> Frame:
        """The world frame: the root frame, under its other name 'world'."""
        return self.frames['world']

    def destroy(self):
        Group.destroy(self)
        self.frames['world'] = self.frames['root']
        self.childLists['world'] = self.childLists['root']

    def deleteFrame(self, name: str):
        if name in ('world', 'root'):
            raise ValueError("Can't delete the world frame")
        Group.deleteFrame(self, name)

    def setFrameCoordinates(self, name: str, coordinates, parent='relative'):
        if self.frame(name) is self.frames['world']:
            raise ValueError("Can't change the coordinates of the world frame")
        Group.setFrameCoordinates(self, name, coordinates, parent)


_manager = Manager()


def manager() -> Manager:
    """The default Manager of the module-level functions."""
    return _manager


def setManager(manager: Manager) -> None:
    """Replaces the default Manager."""
    global _manager
    if not isinstance(manager, Manager):
        raise ValueError("setManager needs a Manager")
    _manager = manager


def _delegate(name):
    def f(*args, **kwargs):
        return getattr(_manager, name)(*args, **kwargs)
    f.__name__ = name
    f.__doc__ = "Calls %s on the default Manager: %s" % (name, getattr(Manager, name).__doc__ or '')
    return f


destroy = _delegate('destroy')
setWorldModel = _delegate('setWorldModel')
setRobotModel = _delegate('setRobotModel')
setController = _delegate('setController')
setSimBody = _delegate('setSimBody')
updateFromWorld = _delegate('updateFromWorld')
updateToWorld = _delegate('updateToWorld')
addFrame = _delegate('addFrame')
addPoint = _delegate('addPoint')
addDirection = _delegate('addDirection')
addGroup = _delegate('addGroup')
deleteFrame = _delegate('deleteFrame')
deletePoint = _delegate('deletePoint')
deleteDirection = _delegate('deleteDirection')
deleteGroup = _delegate('deleteGroup')
setFrameCoordinates = _delegate('setFrameCoordinates')
frame = _delegate('frame')
getPoint = _delegate('getPoint')
getDirection = _delegate('getDirection')
toWorld = _delegate('toWorld')
to = _delegate('to')
transform = _delegate('transform')
point = _delegate('point')
direction = _delegate('direction')
pointFromWorld = _delegate('pointFromWorld')
directionFromWorld = _delegate('directionFromWorld')
listFrames = _delegate('listFrames')
listItems = _delegate('listItems')


def _link_ancestor(frame):
    """(link, T) for the nearest ancestor frame attached to a robot link,
    T the frame's pose in that link's coordinates; (None, None) if none."""
    f = frame
    while f is not None:
        data = f._data
        if data is not None and hasattr(data, 'getJacobian') and hasattr(data, 'robot'):
            return data, se3.mul(se3.inv(f._worldCoordinates), frame._worldCoordinates)
        f = f._parent
    return None, None


def _ik():
    if not hasattr(robotsim, 'IKObjective'):
        raise RuntimeError("IK objectives need klampt.IKObjective, which is not available in this installation")
    return robotsim


def _objective(obj, ref, target):
    """The IK objective fixing obj (a Point, Frame or Transform) at target
    (world coordinates, or coordinates in ref's link frame)."""
    robotsim = _ik()
    if isinstance(obj, Transform):
        return _objective(obj.source(), obj.destination(), target)
    if isinstance(obj, Direction):
        raise ValueError("IK objectives for Directions are not supported")
    frame = obj.frame() if isinstance(obj, Point) else obj
    if frame is None:
        return None
    link, T = _link_ancestor(frame)
    if link is None:
        return None
    reflink, Tref = (None, None) if ref is None else _link_ancestor(ref)
    if ref is not None and reflink is None:
        return None
    goal = robotsim.IKObjective()
    if isinstance(obj, Point):
        local = list(se3.apply(T, obj.localCoordinates()))
        if reflink is None:
            goal.setFixedPoint(link.index, local, list(target))
        else:
            goal.setRelativePoint(link.index, reflink.index, local, list(se3.apply(Tref, target)))
    else:
        # the link pose that puts the frame at target
        Tlink = se3.mul(target, se3.inv(T))
        if reflink is None:
            goal.setFixedTransform(link.index, Tlink[0], Tlink[1])
        else:
            Tl = se3.mul(Tref, Tlink)
            goal.setRelativeTransform(link.index, reflink.index, Tl[0], Tl[1])
    return goal


def ik_objective(obj, target):
    """An IKObjective fixing a Point, Frame or Transform at target: a Point
    or Frame target is matched in its own frame's coordinates, a Transform
    target is an se3 element.  An ancestor frame of obj (and of target's
    frame) must be attached to a robot link, otherwise None is returned."""
    if isinstance(obj, Transform):
        return _objective(obj, obj.destination(), target)
    if isinstance(obj, Point):
        return _objective(obj, target.frame(), target.localCoordinates())
    if isinstance(obj, Frame):
        return _objective(obj, target.parent(), target.relativeCoordinates())
    raise ValueError("ik_objective needs a Point, Frame or Transform")


def ik_fixed_objective(obj, ref=None):
    """An IKObjective fixing a Point, Frame or Transform at its current
    pose, in world coordinates or relative to the frame ref (a Transform
    is fixed relative to its destination)."""
    if isinstance(obj, Transform):
        return _objective(obj, obj.destination(), obj.coordinates())
    if isinstance(obj, Point):
        return _objective(obj, ref, obj.to(ref).localCoordinates() if ref is not None else obj.worldCoordinates())
    if isinstance(obj, Frame):
        T = obj.worldCoordinates() if ref is None else se3.mul(se3.inv(ref.worldCoordinates()), obj.worldCoordinates())
        return _objective(obj, ref, T)
    raise ValueError("ik_fixed_objective needs a Point, Frame or Transform")
