"""Attribute-style access to the elements of a world::

    from klampt.model import access
    w = access.map(world)
    w.robots[0].config            # world.robot(0).getConfig()
    w.robots['arm6'].config[4] = 3.5   # sets one entry of the configuration
    w['block'].transform = T       # world.rigidObject('block').setTransform(*T)

Supported attributes (``*`` read-only, ``#`` whose entries can be set one at
a time):

- WorldModel: \\*robots, \\*rigidObjects, \\*terrains (sequences indexable by
  position or name), \\*elements (by world ID), ``[name]`` for any element.
- RobotModel: \\*name, \\*id, \\*links, #config, #velocity, #jointLimits,
  velocityLimits, accelerationLimits, torqueLimits, ``[name]`` for links.
- RobotModelLink: \\*name, \\*id, \\*robot, parent, geometry, appearance, mass,
  #parentTransform, #transform, #axis.
- RigidObjectModel: \\*name, \\*id, geometry, appearance, mass,
  contactParameters, #transform, #velocity.
- TerrainModel: \\*name, \\*id, geometry, appearance.
- Simulator: \\*world, \\*time, \\*controllers, \\*robots (simulated robots:
  \\*actualConfig, \\*actualVelocity, \\*actualTorques, with aliases \\*config,
  \\*velocity, \\*torques, and \\*links, their SimBodys), \\*rigidObjects
  (#transform and #velocity of the object frame), \\*terrains, \\*bodies
  (by world ID), ``[name]`` for any element.
- SimBody: enabled, collisionPadding, surface, #transform, #objectTransform,
  #velocity.
- SimRobotController: \\*commandedConfig, \\*commandedVelocity,
  \\*sensedConfig, \\*sensedVelocity, \\*sensors (by position or name).

:func:`get_item` / :func:`set_item` read and write items by path, e.g.
``'robots[0].links[2].transform'`` (paths are parsed, never evaluated).
"""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
import re

# attribute -> (getter, setter or None); setters take (object, value)
_ROBOT = {
    'name': (lambda o: o.getName(), None),
    'id': (lambda o: o.getID(), None),
    'links': (lambda o: _Elements([o.link(i) for i in range(o.numLinks())]), None),
    'config': (lambda o: list(o.getConfig()), lambda o, v: o.setConfig(list(v))),
    'velocity': (lambda o: list(o.getVelocity()), lambda o, v: o.setVelocity(list(v))),
    'jointLimits': (lambda o: [list(x) for x in o.getJointLimits()], lambda o, v: o.setJointLimits(list(v[0]), list(v[1]))),
    'velocityLimits': (lambda o: list(o.getVelocityLimits()), lambda o, v: o.setVelocityLimits(list(v))),
    'accelerationLimits': (lambda o: list(o.getAccelerationLimits()), lambda o, v: o.setAccelerationLimits(list(v))),
    'torqueLimits': (lambda o: list(o.getTorqueLimits()), lambda o, v: o.setTorqueLimits(list(v))),
}
_LINK = {
    'name': (lambda o: o.getName(), None),
    'id': (lambda o: o.getID(), None),
    'robot': (lambda o: o.robot(), None),
    'parent': (lambda o: o.getParent(), lambda o, v: o.setParent(v)),
    'geometry': (lambda o: o.geometry(), None),
    'appearance': (lambda o: o.appearance(), None),
    'mass': (lambda o: o.getMass(), lambda o, v: o.setMass(v)),
    'parentTransform': (lambda o: [list(x) for x in o.getParentTransform()], lambda o, v: o.setParentTransform(list(v[0]), list(v[1]))),
    'transform': (lambda o: [list(x) for x in o.getTransform()], lambda o, v: o.setTransform(list(v[0]), list(v[1]))),
    'axis': (lambda o: list(o.getAxis()), lambda o, v: o.setAxis(list(v))),
}
_OBJECT = {
    'name': (lambda o: o.getName(), None),
    'id': (lambda o: o.getID(), None),
    'geometry': (lambda o: o.geometry(), None),
    'appearance': (lambda o: o.appearance(), None),
    'mass': (lambda o: o.getMass(), lambda o, v: o.setMass(v)),
    'contactParameters': (lambda o: o.getContactParameters(), lambda o, v: o.setContactParameters(v)),
    'transform': (lambda o: [list(x) for x in o.getTransform()], lambda o, v: o.setTransform(list(v[0]), list(v[1]))),
    'velocity': (lambda o: [list(x) for x in o.getVelocity()], lambda o, v: o.setVelocity(list(v[0]), list(v[1]))),
}
_TERRAIN = {
    'name': (lambda o: o.getName(), None),
    'id': (lambda o: o.getID(), None),
    'geometry': (lambda o: o.geometry(), None),
    'appearance': (lambda o: o.appearance(), None),
}


def _world_elements(w):
    res = {}
    for i in range(w.numTerrains()):
        res[w.terrain(i).getID()] = w.terrain(i)
    for i in range(w.numRigidObjects()):
        res[w.rigidObject(i).getID()] = w.rigidObject(i)
    for i in range(w.numRobots()):
        robot = w.robot(i)
        res[robot.getID()] = robot
        for j in range(robot.numLinks()):
            res[robot.link(j).getID()] = robot.link(j)
    return res


_WORLD = {
    'robots': (lambda o: _Elements([o.robot(i) for i in range(o.numRobots())]), None),
    'rigidObjects': (lambda o: _Elements([o.rigidObject(i) for i in range(o.numRigidObjects())]), None),
    'terrains': (lambda o: _Elements([o.terrain(i) for i in range(o.numTerrains())]), None),
    'elements': (lambda o: _world_elements(o), None),
}


class _SimRobot(object):
    """A robot as the simulator sees it."""

    def __init__(self, sim, index):
        self.sim = sim
        self.index = index

    def getName(self):
        return self.sim.world.robot(self.index).getName()


class _SimObjectBody(object):
    """A rigid object's SimBody, read and written in the object's frame."""

    def __init__(self, body, name):
        self.body = body
        self.name = name

    def getName(self):
        return self.name


def _controller_sensors(c):
    sensors = []
    while True:
        s = c.sensor(len(sensors))
        if s.type() == '':
            return _Elements(sensors, [x.name() for x in sensors])
        sensors.append(s)


def _sim_bodies(sim):
    w = sim.world
    res = {}
    for i in range(w.numTerrains()):
        res[w.terrain(i).getID()] = sim.body(w.terrain(i))
    for i in range(w.numRigidObjects()):
        res[w.rigidObject(i).getID()] = sim.body(w.rigidObject(i))
    for i in range(w.numRobots()):
        robot = w.robot(i)
        for j in range(robot.numLinks()):
            res[robot.link(j).getID()] = sim.body(robot.link(j))
    return res


def _robot_names(w):
    return [w.robot(i).getName() for i in range(w.numRobots())]


_SIMULATOR = {
    'world': (lambda o: o.world, None),
    'time': (lambda o: o.getTime(), None),
    'controllers': (lambda o: _Elements([o.controller(i) for i in range(o.world.numRobots())], _robot_names(o.world)), None),
    'robots': (lambda o: _Elements([_SimRobot(o, i) for i in range(o.world.numRobots())], _robot_names(o.world)), None),
    'rigidObjects': (lambda o: _Elements([_SimObjectBody(o.body(o.world.rigidObject(i)), o.world.rigidObject(i).getName())
                                       for i in range(o.world.numRigidObjects())],
                                      [o.world.rigidObject(i).getName() for i in range(o.world.numRigidObjects())]), None),
    'terrains': (lambda o: _Elements([o.body(o.world.terrain(i)) for i in range(o.world.numTerrains())],
                                  [o.world.terrain(i).getName() for i in range(o.world.numTerrains())]), None),
    'bodies': (lambda o: _sim_bodies(o), None),
}
_SIM_ROBOT = {
    'actualConfig': (lambda o: list(o.sim.getActualConfig(o.index)), None),
    'actualVelocity': (lambda o: list(o.sim.getActualVelocity(o.index)), None),
    'actualTorques': (lambda o: list(o.sim.getActualTorques(o.index)), None),
    'config': (lambda o: list(o.sim.getActualConfig(o.index)), None),
    'velocity': (lambda o: list(o.sim.getActualVelocity(o.index)), None),
    'torques': (lambda o: list(o.sim.getActualTorques(o.index)), None),
    'links': (lambda o: _Elements([o.sim.body(o.sim.world.robot(o.index).link(j))
                                for j in range(o.sim.world.robot(o.index).numLinks())],
                               [o.sim.world.robot(o.index).link(j).getName()
                                for j in range(o.sim.world.robot(o.index).numLinks())]), None),
}
_SIM_OBJECT = {
    'transform': (lambda o: [list(x) for x in o.body.getObjectTransform()],
                  lambda o, v: o.body.setObjectTransform(list(v[0]), list(v[1]))),
    'velocity': (lambda o: [list(x) for x in o.body.getVelocity()],
                 lambda o, v: o.body.setVelocity(list(v[0]), list(v[1]))),
}
_SIM_BODY = {
    'enabled': (lambda o: o.isEnabled(), lambda o, v: o.enable(bool(v))),
    'collisionPadding': (lambda o: o.getCollisionPadding(), lambda o, v: o.setCollisionPadding(float(v))),
    'surface': (lambda o: o.getSurface(), lambda o, v: o.setSurface(v)),
    'transform': (lambda o: [list(x) for x in o.getTransform()], lambda o, v: o.setTransform(list(v[0]), list(v[1]))),
    'objectTransform': (lambda o: [list(x) for x in o.getObjectTransform()],
                        lambda o, v: o.setObjectTransform(list(v[0]), list(v[1]))),
    'velocity': (lambda o: [list(x) for x in o.getVelocity()], lambda o, v: o.setVelocity(list(v[0]), list(v[1]))),
}
_CONTROLLER = {
    'commandedConfig': (lambda o: list(o.getCommandedConfig()), None),
    'commandedVelocity': (lambda o: list(o.getCommandedVelocity()), None),
    'sensedConfig': (lambda o: list(o.getSensedConfig()), None),
    'sensedVelocity': (lambda o: list(o.getSensedVelocity()), None),
    'sensors': (lambda o: _controller_sensors(o), None),
}

_TABLES = {'WorldModel': _WORLD, 'RobotModel': _ROBOT, 'RobotModelLink': _LINK, 'RigidObjectModel': _OBJECT,
           'TerrainModel': _TERRAIN, 'Simulator': _SIMULATOR, '_SimRobot': _SIM_ROBOT,
           '_SimObjectBody': _SIM_OBJECT, 'SimBody': _SIM_BODY, 'SimRobotController': _CONTROLLER}


def _table(obj):
    # by class name, so that subclasses (e.g. SimpleSimulator) are covered
    for cls in type(obj).__mro__:
        table = _TABLES.get(cls.__name__)
        if table is not None:
            return table
    return None


class _Elements(object):
    """A read-only sequence of elements indexable by position or name;
    items are wrapped in :class:`map`."""

    def __init__(self, items, names=None):
        self._items = items
        self._names = names if names is not None else [x.getName() for x in items]

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return (map(x) for x in self._items)

    def __getitem__(self, key):
        if isinstance(key, str):
            for name, x in zip(self._names, self._items):
                if name == key:
                    return map(x)
            raise KeyError("No element named %r" % key)
        return map(self._items[key])


class _Entries(list):
    """A list value whose entries write back to the element when set."""

    def __init__(self, values, write):
        list.__init__(self, values)
        self._write = write

    def __setitem__(self, key, value):
        list.__setitem__(self, key, value)
        self._write(list(self))


class map(object):
    """Attribute-style access to a WorldModel, RobotModel, RobotModelLink,
    RigidObjectModel or TerrainModel (see the module docstring).  Other
    objects are wrapped transparently (their own attributes are used)."""

    def __init__(self, obj, setter=None):
        object.__setattr__(self, 'obj', obj)
        object.__setattr__(self, 'setter', setter)

    def __getattr__(self, name):
        obj = object.__getattribute__(self, 'obj')
        table = _table(obj)
        if table is not None and name in table:
            getter, setter = table[name]
            value = getter(obj)
            if isinstance(value, list) and setter is not None:
                if value and isinstance(value[0], list):
                    # nested values (transforms, limits): setting an entry of a row writes the whole value
                    def row_writer(i):
                        def write(row):
                            current = getter(obj)
                            current[i] = row
                            setter(obj, current)
                        return write
                    rows = [_Entries(row, row_writer(i)) for i, row in enumerate(value)]
                    return _Entries(rows, lambda v: setter(obj, [list(r) for r in v]))
                return _Entries(value, lambda v: setter(obj, v))
            if table is not _WORLD and name == 'robot':
                return map(value)
            return value
        if table is not None:
            raise AttributeError("%s has no attribute %r" % (type(obj).__name__, name))
        return getattr(obj, name)

    def __setattr__(self, name, value):
        obj = object.__getattribute__(self, 'obj')
        table = _table(obj)
        if table is None:
            setattr(obj, name, value)
            return
        if name not in table:
            raise AttributeError("%s has no attribute %r" % (type(obj).__name__, name))
        setter = table[name][1]
        if setter is None:
            raise AttributeError("%s.%s is read-only" % (type(obj).__name__, name))
        setter(obj, value)

    def __getitem__(self, name):
        """World elements (or robot links) by name."""
        obj = object.__getattribute__(self, 'obj')
        kind = type(obj).__name__
        if kind == 'WorldModel':
            for group in ('robots', 'rigidObjects', 'terrains'):
                for x in _WORLD[group][0](obj)._items:
                    if x.getName() == name:
                        return map(x)
            raise KeyError("No world element named %r" % name)
        if kind == 'RobotModel':
            return self.links[name]
        if _table(obj) is _SIMULATOR:
            for group in ('robots', 'rigidObjects', 'terrains'):
                elements = _SIMULATOR[group][0](obj)
                if name in elements._names:
                    return elements[name]
            raise KeyError("No simulated element named %r" % name)
        raise TypeError("%s elements can't be accessed by name" % kind)


_TOKEN = re.compile(r"\s*(?:\.?([A-Za-z_]\w*)|\[\s*(-?\d+)\s*\]|\[\s*'([^']*)'\s*\]|\[\s*\"([^\"]*)\"\s*\])")


def _parse_path(name):
    tokens = []
    pos = 0
    while pos < len(name):
        m = _TOKEN.match(name, pos)
        if not m or m.end() == pos:
            raise ValueError("Invalid item path %r at position %d" % (name, pos))
        attr, index, s1, s2 = m.groups()
        if attr is not None:
            tokens.append(('attr', attr))
        elif index is not None:
            tokens.append(('index', int(index)))
        else:
            tokens.append(('index', s1 if s1 is not None else s2))
        pos = m.end()
    if not tokens:
        raise ValueError("Empty item path")
    return tokens


def _step(value, token):
    kind, key = token
    if kind == 'attr':
        return getattr(value, key)
    return value[key]


def get_item(obj, name):
    """The value of an item path such as 'robots[2].links[4].name' in a
    world (or any element :class:`map` supports)."""
    value = map(obj)
    for token in _parse_path(name):
        value = _step(value, token)
    return value.obj if isinstance(value, map) else value


def set_item(obj, name, value):
    """Sets the item at a path such as 'robots[0].config' or
    'rigidObjects["block"].transform'."""
    tokens = _parse_path(name)
    target = map(obj)
    for token in tokens[:-1]:
        target = _step(target, token)
    kind, key = tokens[-1]
    if kind == 'attr':
        setattr(target, key, value)
    else:
        target[key] = value


def get_dict(world, items):
    """A dict from each item path to its value."""
    return dict((item, get_item(world, item)) for item in items)


def set_dict(world, config):
    """Sets every item path of the dict config to its value."""
    for item, value in config.items():
        set_item(world, item, value)


def flatten(value):
    """The numbers of a nested structure of lists and tuples, in order."""
    if isinstance(value, (list, tuple)):
        res = []
        for v in value:
            res += flatten(v)
        return res
    return [value]


def _unflatten(template, values, pos):
    if isinstance(template, (list, tuple)):
        res = []
        for t in template:
            v, pos = _unflatten(t, values, pos)
            res.append(v)
        return res, pos
    return values[pos], pos + 1


class Vectorizer(object):
    """Reads items of a world into one flat vector and writes a vector back
    (the item structures are those the items have when the Vectorizer is
    made)."""

    def __init__(self, world, items):
        self.world = world
        self.items = list(items)
        self._templates = [get_item(world, item) for item in self.items]
        self._sizes = [len(flatten(t)) for t in self._templates]

    def getVector(self):
        """The concatenated numbers of the items."""
        res = []
        for item in self.items:
            res += flatten(get_item(self.world, item))
        return res

    def setVector(self, v):
        """Sets the items from a vector of getVector's layout."""
        if len(v) != sum(self._sizes):
            raise ValueError("Vector has %d entries, expected %d" % (len(v), sum(self._sizes)))
        pos = 0
        for item, template in zip(self.items, self._templates):
            value, pos = _unflatten(template, list(v), pos)
            set_item(self.world, item, value)
