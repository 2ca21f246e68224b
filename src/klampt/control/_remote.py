"""Interfaces that run another interface elsewhere (a thread, a process, a
server) and talk to it through commands and state snapshots.

:class:`_Runner` drives the real interface: each cycle it executes the
queued commands inside a step and captures every query into a plain
snapshot (lists, floats, strings: it pickles and marshals).
:class:`RemoteRobotInterface` is the caller's side: queries read the latest
snapshot, commands are queued and return a :class:`~.utils.Promise` that
resolves with the command's return value once the worker executed it.
"""
import copy
import threading
import warnings

from . import _cartesian, _checks
from ..robotsim import WorldModel
from .robotinterface import RobotInterfaceBase
from .utils import Promise

#: Queries captured in each snapshot, for the robot and each part.
STATE_QUERIES = ('status', 'clock', 'isMoving', 'sensedPosition', 'sensedVelocity', 'sensedTorque',
                 'commandedPosition', 'commandedVelocity', 'commandedTorque', 'destinationPosition',
                 'destinationVelocity', 'destinationTime', 'queuedTrajectory', 'getPIDGains', 'getToolCoordinates',
                 'getGravityCompensation')
ROOT_QUERIES = ('enabledSensors', 'getSettings')

#: The part None in plain (string-keyed) dictionaries.
ROOT_KEY = '__'


def plain_exception(e):
    """An exception that survives pickling: itself if it can, else a
    RuntimeError with its text."""
    import pickle
    try:
        pickle.loads(pickle.dumps(e))
        return e
    except Exception:
        return RuntimeError("%s: %s" % (e.__class__.__name__, e))


class _Runner:
    """Steps an interface: executes commands and captures snapshots."""

    def __init__(self, interface):
        self.iface = interface
        self.parts = []

    def _target(self, part):
        return self.iface if part is None else self.iface.partInterface(part)

    def start(self):
        """Initializes the interface; returns (structure, snapshot)."""
        iface = self.iface
        if not iface.initialize():
            raise RuntimeError("%s did not initialize" % iface)
        parts = dict(iface.parts())
        self.parts = [p for p in parts if p is not None]
        n = iface.numJoints()
        names = []
        for i in range(n):
            try:
                names.append(iface.jointName(i))
            except NotImplementedError:
                names.append('Joint %d' % i)
        sensors = []
        try:
            sensors = list(iface.sensors())
        except NotImplementedError:
            pass
        structure = {
            'numJoints': n,
            'parts': [[ROOT_KEY if k is None else k, list(v)] for k, v in parts.items()],
            'jointNames': names,
            'controlRate': float(iface.controlRate()),
            'sensors': sensors,
            'properties': _checks.to_plain(dict((k, v) for k, v in iface.properties.items()
                                                if isinstance(v, (str, int, float, bool, list, tuple, dict))
                                                or v is None)),
        }
        results, state = self.step([])
        return structure, state

    def step(self, commands):
        """One cycle: beginStep, the commands (seq, part, method, args,
        kwargs), the snapshot, endStep.  Returns (results, snapshot) with
        results (seq, ok, value or exception)."""
        iface = self.iface
        iface.beginStep()
        results = []
        try:
            for seq, part, method, args, kwargs in commands:
                try:
                    value = getattr(self._target(part), method)(*args, **kwargs)
                    results.append((seq, True, _checks.to_plain(value)))
                except Exception as e:
                    results.append((seq, False, plain_exception(e)))
            state = self.capture()
        finally:
            iface.endStep()
        return results, state

    def capture(self):
        """The snapshot of every query the interface implements."""
        snap = {}
        for part in [None] + self.parts:
            target = self._target(part)
            d = {}
            for q in STATE_QUERIES + (ROOT_QUERIES if part is None else ()):
                try:
                    d[q] = _checks.to_plain(getattr(target, q)())
                except NotImplementedError:
                    pass
            if part is None:
                try:
                    d['cartesianError'] = float(target.stateValue('cartesianError'))
                except (NotImplementedError, KeyError, TypeError, ValueError):
                    pass
                sensors = {}
                for s in d.get('enabledSensors', []):
                    try:
                        value = _checks.to_plain(target.sensorMeasurements(s))
                    except NotImplementedError:
                        continue
                    try:
                        t = float(target.sensorUpdateTime(s))
                    except NotImplementedError:
                        t = d.get('clock')
                    sensors[s] = [t, value]
                d['sensors'] = sensors
            snap[ROOT_KEY if part is None else part] = d
        return snap

    def close(self):
        self.iface.close()


class RemoteRobotInterface(RobotInterfaceBase):
    """The caller's side of an interface run by a worker.  Subclasses start
    the worker in :meth:`initialize`, send queued commands with
    :meth:`_takeCommands` and report results and snapshots with
    :meth:`_deliver`.  Queries return the worker's last snapshot; commands
    return Promises; isMoving() is True while commands wait for the
    worker."""

    def __init__(self, properties):
        RobotInterfaceBase.__init__(self, **properties)
        self._lock = threading.RLock()
        self._structure = None
        self._state = None
        self._queue = []
        self._promises = dict()
        self._seq = 0
        self._executed = 0
        self._failure = None
        self._closed = False
        self._partInterfaces = dict()
        self._callerModel = None

    # ------------------------------------------------------------ plumbing
    def _require(self):
        if self._structure is None:
            if self._closed:
                raise RuntimeError("%s was closed" % self)
            raise RuntimeError("%s: call initialize() first" % self)

    def _setStructure(self, structure, state):
        with self._lock:
            self._structure = structure
            self._parts = dict((None if k == ROOT_KEY else k, v) for k, v in structure['parts'])
            self._state = state

    def _command(self, part, method, *args, **kwargs):
        """Queues a command; returns its Promise."""
        self._require()
        if self._failure is not None:
            raise RuntimeError("%s: the worker stopped: %s" % (self, self._failure))
        with self._lock:
            self._seq += 1
            promise = Promise(method)
            self._promises[self._seq] = promise
            self._queue.append((self._seq, part, method, _checks.to_plain(list(args)), _checks.to_plain(kwargs)))
            if len(self._queue) > 1000:
                raise RuntimeError("%s: more than 1000 commands wait for the worker" % self)
        return promise

    def _takeCommands(self):
        with self._lock:
            cmds, self._queue = self._queue, []
        return cmds

    def _deliver(self, results, state):
        """Resolves the promises of executed commands and installs a new
        snapshot."""
        with self._lock:
            self._state = state
            done = []
            for seq, ok, value in results:
                self._executed = max(self._executed, seq)
                promise = self._promises.pop(seq, None)
                if promise is not None:
                    done.append((promise, ok, value))
        for promise, ok, value in done:
            if ok:
                promise.callback(value)
            else:
                promise.errback(value)

    def _fail(self, error):
        """The worker died: the status reports it; pending promises fail."""
        with self._lock:
            self._failure = error
            pending = list(self._promises.values())
            self._promises.clear()
            self._queue = []
            self._executed = self._seq
        for p in pending:
            p.errback(RuntimeError("the worker stopped: %s" % error))

    def _get(self, part, name):
        self._require()
        key = ROOT_KEY if part is None else part
        with self._lock:
            d = self._state.get(key, {})
            if name not in d:
                raise NotImplementedError("%s() is not implemented by %s" % (name, self))
            return copy.deepcopy(d[name])

    def _pending(self):
        with self._lock:
            return bool(self._queue) or self._executed < self._seq

    # ------------------------------------------------------------ structure
    def numJoints(self, part=None):
        self._require()
        if part is None:
            return self._structure['numJoints']
        return len(self.indices(part))

    def parts(self):
        self._require()
        return self._parts

    def jointName(self, joint_idx):
        self._require()
        names = self._structure['jointNames']
        if not isinstance(joint_idx, int) or not 0 <= joint_idx < len(names):
            raise IndexError("Joint index %r out of range" % (joint_idx,))
        return names[joint_idx]

    def controlRate(self):
        self._require()
        return self._structure['controlRate']

    def sensors(self):
        self._require()
        return list(self._structure['sensors'])

    def partInterface(self, part, joint_idx=None):
        """The part's interface (same worker)."""
        self._require()
        if joint_idx is not None:
            raise NotImplementedError("Single-joint interfaces of %s are not available" % self)
        if part is None:
            return self
        if part not in self._parts:
            raise KeyError("%s has no part %r" % (self, part))
        if part not in self._partInterfaces:
            self._partInterfaces[part] = _RemotePart(self, part)
        return self._partInterfaces[part]

    def klamptModel(self):
        """The caller's own model: loaded from klamptModelFile, else a copy
        of the worker's (never the object the worker uses).

        The reference shares the worker's model with the caller (with a
        warning), which races with the worker."""
        if self._klamptModel is not None:
            return self._klamptModel
        model = RobotInterfaceBase.klamptModel(self)
        if model is None and self._callerModel is not None:
            self._klamptModel = self._callerModel
            model = self._callerModel
        return model

    @staticmethod
    def _copyModel(model):
        """A copy of model in a new world (safe to use in another thread)."""
        if model is None:
            return None
        world = WorldModel()
        return world.add(model.getName(), model)

    # ------------------------------------------------------------ state
    def status(self, joint_idx=None):
        """The worker's status; 'exception (...)' once the worker died."""
        if self._failure is not None:
            return 'exception (%s)' % (self._failure,)
        return self._get(None, 'status')

    def isMoving(self, joint_idx=None):
        """True while commands wait for the worker or a motion runs.

        Commands still pending count as moving, so wait() right after a command
        returns on arrival (the reference's wait() returned at once)."""
        if self._pending():
            return True
        return self._get(None, 'isMoving')

    def getSettings(self):
        return self._get(None, 'getSettings')

    def getSetting(self, name):
        with self._lock:
            for seq, part, method, args, kwargs in reversed(self._queue):
                if method == 'setSetting' and args[0] == name:
                    return copy.deepcopy(args[1])
        try:
            settings = self._get(None, 'getSettings')
        except NotImplementedError:
            raise KeyError(name + " isn't a valid setting")
        if name not in settings:
            raise KeyError(name + " isn't a valid setting")
        return settings[name]

    def setSetting(self, name, value):
        return self._command(None, 'setSetting', name, value)

    def enabledSensors(self):
        return self._get(None, 'enabledSensors')

    def enableSensor(self, sensor, enabled=True):
        return self._command(None, 'enableSensor', sensor, enabled)

    def sensorMeasurements(self, name):
        sensors = self._get(None, 'sensors')
        if name not in sensors:
            raise ValueError("Sensor %r is not enabled on %s" % (name, self))
        return sensors[name][1]

    def sensorUpdateTime(self, name):
        sensors = self._get(None, 'sensors')
        if name not in sensors:
            raise ValueError("Sensor %r is not enabled on %s" % (name, self))
        return sensors[name][0]

    def stateValue(self, name):
        if name == 'cartesianError':
            return self._get(None, 'cartesianError')
        raise NotImplementedError(name + " is not a valid state query")

    def close(self):
        """Stops the worker and closes the interface; a second close
        raises RuntimeError; before initialize() it does nothing."""
        raise NotImplementedError("close() is implemented by the subclasses")


def _state_query(name):
    def query(self):
        return self._get(self._partKey, name)
    query.__name__ = name
    query.__doc__ = "The worker's last %s()." % name
    return query


def _size_checked_command(name, vector_args):
    """A command whose first vector_args arguments are vectors of the
    interface's size (checked here, before queueing)."""
    def command(self, *args, **kwargs):
        n = self.numJoints()
        args = list(args)
        for k in range(min(vector_args, len(args))):
            if args[k] is not None:
                args[k] = _checks.vector(args[k], n, name, 'argument %d' % k)
        return self._root._command(self._partKey, name, *args, **kwargs)
    command.__name__ = name
    command.__doc__ = "Queues %s(); returns a Promise of its result." % name
    return command


def _plain_command(name):
    def command(self, *args, **kwargs):
        return self._root._command(self._partKey, name, *args, **kwargs)
    command.__name__ = name
    command.__doc__ = "Queues %s(); returns a Promise of its result." % name
    return command


class _RemoteAPI:
    """Queries and commands of a remote interface or of one of its parts."""

    _partKey = None

    def _kin(self):
        model = self.klamptModel()
        if model is None:
            raise NotImplementedError("Cartesian queries of %s need a Klamp't model" % self)
        indices = self._root.indices(self._partKey)
        link = self._root.properties.get('klamptModelCartesianLink') if self._partKey is None else None
        kin = _cartesian.PartKinematics(model, indices, link)
        try:
            kin.toolCoordinates = self._get(self._partKey, 'getToolCoordinates')
        except NotImplementedError:
            pass
        return kin

    def _whole(self, q, reference):
        root = self._root
        n = root.numJoints()
        if len(q) == n:
            return _checks.vector(q, n, 'cartesian', 'q')
        inds = root.indices(self._partKey)
        q = _checks.vector(q, len(inds), 'cartesian', 'q')
        full = list(reference)
        for i, x in zip(inds, q):
            full[i] = x
        return full

    def cartesianPosition(self, q, frame='world'):
        """The tool pose at q, from the caller's model and the worker's
        tool coordinates.

        Uses the part's tool link; the reference's wrappers omit
        tool_link_index, so frame lands in its place and Cartesian queries of
        parts fail."""
        return self._kin().position(self._whole(q, self._root.commandedPosition()), frame)

    def cartesianVelocity(self, q, dq, frame='world'):
        return self._kin().velocity(self._whole(q, self._root.commandedPosition()),
                                    self._whole(dq, [0.0] * self._root.numJoints()), frame)

    def cartesianForce(self, q, t, frame='world'):
        """The tool force (torque, force) balanced by joint torques t, from the
        caller's model and the worker's tool coordinates.  The reference's
        wrapper calls cartesianPosition here, and omits the tool link."""
        return self._kin().force(self._whole(q, self._root.commandedPosition()),
                                 self._whole(t, [0.0] * self._root.numJoints()), frame)

    def sensedCartesianPosition(self, frame='world'):
        return self._kin().position(self._root.sensedPosition(), frame)

    def commandedCartesianPosition(self, frame='world'):
        return self._kin().position(self._root.commandedPosition(), frame)

    def destinationCartesianPosition(self, frame='world'):
        return self._kin().position(self._root.destinationPosition(), frame)

    sensedPosition = _state_query('sensedPosition')
    sensedVelocity = _state_query('sensedVelocity')
    sensedTorque = _state_query('sensedTorque')
    commandedPosition = _state_query('commandedPosition')
    commandedVelocity = _state_query('commandedVelocity')
    commandedTorque = _state_query('commandedTorque')
    destinationPosition = _state_query('destinationPosition')
    destinationVelocity = _state_query('destinationVelocity')
    destinationTime = _state_query('destinationTime')
    queuedTrajectory = _state_query('queuedTrajectory')
    getToolCoordinates = _state_query('getToolCoordinates')
    getGravityCompensation = _state_query('getGravityCompensation')

    def getPIDGains(self):
        return tuple(self._get(self._partKey, 'getPIDGains'))

    def clock(self):
        return self._get(None, 'clock')

    setPosition = _size_checked_command('setPosition', 1)
    setVelocity = _size_checked_command('setVelocity', 1)
    setTorque = _size_checked_command('setTorque', 1)
    setPID = _size_checked_command('setPID', 3)
    moveToPosition = _size_checked_command('moveToPosition', 1)
    setPiecewiseLinear = _plain_command('setPiecewiseLinear')
    setPiecewiseCubic = _plain_command('setPiecewiseCubic')
    setPIDGains = _plain_command('setPIDGains')
    setToolCoordinates = _plain_command('setToolCoordinates')
    setGravityCompensation = _plain_command('setGravityCompensation')
    setCartesianPosition = _plain_command('setCartesianPosition')
    moveToCartesianPosition = _plain_command('moveToCartesianPosition')
    moveToCartesianPositionLinear = _plain_command('moveToCartesianPositionLinear')
    setCartesianVelocity = _plain_command('setCartesianVelocity')
    setCartesianForce = _plain_command('setCartesianForce')
    setControlMode = _plain_command('setControlMode')
    functionCall = _plain_command('functionCall')
    softStop = _plain_command('softStop')
    estop = _plain_command('estop')
    reset = _plain_command('reset')


class _RemoteRoot(_RemoteAPI, RemoteRobotInterface):
    """A remote interface (the part None)."""

    @property
    def _root(self):
        return self


class _RemotePart(_RemoteAPI, RobotInterfaceBase):
    """A part of a remote interface."""

    def __init__(self, root, part):
        RobotInterfaceBase.__init__(self, **dict(root.properties))
        self.properties['name'] = str(part)
        self.properties['part'] = True
        self._root = root
        self._partKey = part

    def __str__(self):
        return '%s[%s]' % (self._root, self._partKey)

    def _get(self, part, name):
        return self._root._get(part, name)

    def numJoints(self, part=None):
        return len(self.indices(part))

    def parts(self):
        return {None: list(range(len(self._root.indices(self._partKey))))}

    def klamptModel(self):
        return self._root.klamptModel()

    def status(self, joint_idx=None):
        return self._root.status()

    def isMoving(self, joint_idx=None):
        if self._root._pending():
            return True
        return self._get(self._partKey, 'isMoving')

    def controlRate(self):
        return self._root.controlRate()

    def _checkPart(self, part):
        """A part's interface has no parts of its own: part must be None
        (KeyError otherwise, instead of silently converting the whole
        part)."""
        if part is not None:
            raise KeyError("%s has no part %r (parts: None)" % (self, part))
        return self._partKey

    def configToKlampt(self, config, klamptConfig=None, part=None, joint_idx=None):
        return self._root.configToKlampt(config, klamptConfig, self._checkPart(part), joint_idx)

    def configFromKlampt(self, klamptConfig, part=None, joint_idx=None):
        return self._root.configFromKlampt(klamptConfig, self._checkPart(part), joint_idx)

    def velocityToKlampt(self, velocity, klamptVelocity=None, part=None, joint_idx=None):
        return self._root.velocityToKlampt(velocity, klamptVelocity, self._checkPart(part), joint_idx)

    def velocityFromKlampt(self, klamptVelocity, part=None, joint_idx=None):
        return self._root.velocityFromKlampt(klamptVelocity, self._checkPart(part), joint_idx)


def warn_async(interface, what):
    """Warns when an already asynchronous interface is wrapped again."""
    if interface.properties.get('asynchronous', False):
        warnings.warn("%s: %s is already asynchronous" % (what, interface), RuntimeWarning, stacklevel=3)
