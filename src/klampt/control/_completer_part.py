"""The interface to some DOFs of a RobotInterfaceCompleter
(:class:`_CompleterPart`, see RobotInterfaceCompleter.partInterface): the
shared commands and queries on its DOFs; structure, settings and sensors
are the Completer's."""
import inspect

from . import _checks
from ._completer_api import _CompleterAPI
from .robotinterface import RobotInterfaceBase


def _forwardToRoot(name):
    """The method `name` of a part interface: the Completer's method of that
    name (the signature is RobotInterfaceBase's, without annotations)."""
    sig = inspect.signature(getattr(RobotInterfaceBase, name))
    sig = sig.replace(parameters=[p.replace(annotation=p.empty) for p in sig.parameters.values()],
                      return_annotation=sig.empty)

    def forward(self, *args, **kwargs):
        sig.bind(self, *args, **kwargs)
        return getattr(self._root, name)(*args, **kwargs)
    forward.__name__ = name
    forward.__qualname__ = '_CompleterPart.' + name
    forward.__signature__ = sig
    return forward


def _rootOnly(name, verb):
    """The method `name` of a part interface, which only the Completer may
    call (to `verb` it)."""
    def refuse(self):
        raise RuntimeError("%s() may not be called on a part interface; %s %s" % (name, verb, self._root))
    refuse.__name__ = name
    refuse.__qualname__ = '_CompleterPart.' + name
    return refuse


class _CompleterPart(_CompleterAPI):
    """The interface to some DOFs of a Completer (see partInterface)."""

    def __init__(self, root, part, joint_idx, dofs):
        RobotInterfaceBase.__init__(self, **dict(root.properties))
        name = str(part) if joint_idx is None else '%s[%d]' % (part, joint_idx)
        self.properties['name'] = name
        self.properties['part'] = True
        self._root = root
        self._dofs = list(dofs)
        self._partName = part
        self._jointIdx = joint_idx
        self._partBase = None
        if len(root._physical) == 1:
            try:
                self._partBase = root._physical[0].iface.partInterface(part, joint_idx)
            except (NotImplementedError, KeyError, IndexError, RuntimeError, ValueError):
                self._partBase = None

    def __str__(self):
        return '%s[%s]' % (self._root, self.properties['name'])

    def _basePart(self):
        return self._partBase

    initialize = _rootOnly('initialize', 'initialize')
    beginStep = _rootOnly('beginStep', 'step')
    endStep = _rootOnly('endStep', 'step')
    close = _rootOnly('close', 'close')

    def addPart(self, name, indices):
        raise RuntimeError("Parts of a part interface are not supported")

    def numJoints(self, part=None):
        return len(self.indices(part))

    def parts(self):
        if self._partsCache is None:
            self._partsCache = {None: list(range(len(self._dofs)))}
        return self._partsCache

    def jointName(self, joint_idx):
        return self._root.jointName(self._dofs[self._jointIndex(joint_idx)])

    def klamptModel(self):
        """The whole robot's model (RIL DOFs of this part are its drivers
        self._dofs)."""
        return self._root.klamptModel()

    def status(self, joint_idx=None):
        if joint_idx is not None:
            self._jointIndex(joint_idx)
        if self._partBase is not None:
            s = self._partBase.status()
            if s != 'ok':
                return s
        return self._root.status()

    def reset(self):
        if self._partBase is not None:
            try:
                self._partBase.reset()
            except NotImplementedError:
                pass
        return self._root.reset()

    getSettings = _forwardToRoot('getSettings')
    getSetting = _forwardToRoot('getSetting')
    setSetting = _forwardToRoot('setSetting')
    sensors = _forwardToRoot('sensors')
    enabledSensors = _forwardToRoot('enabledSensors')
    hasSensor = _forwardToRoot('hasSensor')
    enableSensor = _forwardToRoot('enableSensor')
    sensorMeasurements = _forwardToRoot('sensorMeasurements')
    sensorUpdateTime = _forwardToRoot('sensorUpdateTime')
    controlRate = _forwardToRoot('controlRate')
    clock = _forwardToRoot('clock')

    def _toRoot(self, part, joint_idx):
        if part is not None or joint_idx is not None:
            return [self._dofs[i] for i in self.indices(part, joint_idx)]
        return self._dofs

    def _fromKlampt(self, method, value, part, joint_idx):
        full = getattr(self._root, method)(value)
        return [full[i] for i in self._toRoot(part, joint_idx)]

    def configFromKlampt(self, klamptConfig, part=None, joint_idx=None):
        return self._fromKlampt('configFromKlampt', klamptConfig, part, joint_idx)

    def velocityFromKlampt(self, klamptVelocity, part=None, joint_idx=None):
        return self._fromKlampt('velocityFromKlampt', klamptVelocity, part, joint_idx)

    def _toKlampt(self, kind, value, argName, klamptValue, part, joint_idx):
        """value (of this part's DOFs) written into the model's drivers at
        klamptValue (default: the model's current one); kind is 'config'
        or 'velocity'."""
        Kind = kind.capitalize()
        method = kind + 'ToKlampt'
        dofs = self._toRoot(part, joint_idx)
        value = _checks.vector(value, len(dofs), method, argName)
        model = self.klamptModel()
        if model is None:
            return value
        if klamptValue is not None:
            getattr(model, 'set' + Kind)(klamptValue)
        drivers = list(getattr(model, kind + 'ToDrivers')(getattr(model, 'get' + Kind)()))
        for i, x in zip(dofs, value):
            drivers[i] = x
        return list(getattr(model, kind + 'FromDrivers')(drivers))

    def configToKlampt(self, config, klamptConfig=None, part=None, joint_idx=None):
        return self._toKlampt('config', config, 'config', klamptConfig, part, joint_idx)

    def velocityToKlampt(self, velocity, klamptVelocity=None, part=None, joint_idx=None):
        return self._toKlampt('velocity', velocity, 'velocity', klamptVelocity, part, joint_idx)

    def partInterface(self, part, joint_idx=None):
        if part is not None:
            raise KeyError("A part interface has only the part None")
        if joint_idx is None:
            return self
        return _CompleterPart(self._root, self._partName, joint_idx, [self._dofs[self._jointIndex(joint_idx)]])

    def setFilter(self, name, filter, input='auto', output='auto'):
        """A filter on this part's DOFs."""
        self._root._requireInitialized().setFilter(self._dofs, name, filter, input, output)

    def setJointLimits(self, qmin='auto', qmax='auto', op='clamp'):
        """A joint limit filter on this part's DOFs."""
        self._root._requireInitialized().setJointLimits(self._dofs, qmin, qmax, op)

    def wait(self, timeout=None, condition=None, pollRate=None):
        """Runs the Completer's steps until this part stops moving."""
        if condition is None:
            def condition():
                return not self.isMoving()
        return self._root.wait(timeout, condition, pollRate)
