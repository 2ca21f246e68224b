"""OmniRobotInterface: one robot made of several physical interfaces,
completed like a RobotInterfaceCompleter."""
import warnings

from ._completer import COMPLETER_SETTINGS, RobotInterfaceCompleter
from ._physical import _Physical
from .robotinterface import RobotInterfaceBase

#: Separates a physical part's name from its own parts' names.
PART_NAME_SEPARATOR = '__'


class OmniRobotInterface(RobotInterfaceCompleter):
    """One robot made of several physical interfaces (e.g. an arm and a
    gripper with separate controllers), completed like a
    RobotInterfaceCompleter::

        omni = OmniRobotInterface(model)
        omni.addPhysicalPart('arm', arm_interface, list(range(6)))
        omni.addPhysicalPart('gripper', gripper_interface)   # next DOFs
        omni.addVirtualPart('wrist', [3, 4, 5])
        omni.initialize()

    Every DOF must belong to exactly one physical part.  Parts are the
    physical parts, their own parts (named 'PARENT__CHILD') and the
    virtual parts; each part interface has full emulated control.  PID
    gains and settings reach the physical part owning the DOFs.

    Args:
        klamptModel (RobotModel, optional): the model of the whole robot
            (its drivers are the DOFs).
    """

    def __init__(self, klamptModel=None):
        self._setup({'name': 'OmniRobotInterface'})
        self._physical = []
        self._has = dict()
        self._model = klamptModel
        self._base = None
        self._baseInitialized = False
        self._numAssigned = klamptModel.numDrivers() if klamptModel is not None else 0
        self._nextIndex = 0

    def __str__(self):
        return "OmniRobotInterface(%s)" % ', '.join(p.name for p in self._physical)

    def addPhysicalPart(self, name, interface, indices=None):
        """Adds a physical interface controlling DOFs indices (default: the
        next interface.numJoints() DOFs after the previous parts).

        With indices=None the next drivers are taken even with a model (the
        reference raises ValueError then, e.g. in Klampt-examples'
        mirobot_ril.py)."""
        if self._initialized:
            raise RuntimeError("Physical parts must be added before initialize()")
        if name is None or any(p.name == name for p in self._physical) or name in self._addedParts:
            raise ValueError("Part %r already exists" % (name,))
        if not isinstance(interface, RobotInterfaceBase):
            raise ValueError("addPhysicalPart needs a RobotInterfaceBase, got %r" % (interface,))
        if indices is None:
            try:
                ni = interface.numJoints()
            except NotImplementedError:
                raise ValueError("addPhysicalPart(%r): give the indices, %s does not implement numJoints()"
                                 % (name, interface))
            indices = list(range(self._nextIndex, self._nextIndex + ni))
        indices = [int(i) for i in indices]
        if self._model is not None:
            for i in indices:
                if i < 0 or i >= self._model.numDrivers():
                    raise ValueError("Part %r index %d outside [0, %d)" % (name, i, self._model.numDrivers()))
        for p in self._physical:
            common = set(p.indices) & set(indices)
            if common:
                raise ValueError("Part %r shares DOFs %s with part %r" % (name, sorted(common), p.name))
        self._physical.append(_Physical(name, interface, indices))
        self._nextIndex = max(self._nextIndex, max(indices) + 1 if indices else 0)

    def addVirtualPart(self, name, indices):
        """Adds a named group of DOFs with full emulated control."""
        if any(p.name == name for p in self._physical):
            raise ValueError("Part %r already exists" % (name,))
        self.addPart(name, indices)

    def klamptModel(self):
        if self._klamptModel is not None:
            return self._klamptModel
        return self._model

    def _initializeBases(self):
        if not self._physical:
            warnings.warn("OmniRobotInterface: no physical parts", RuntimeWarning)
            return None
        n = self._declaredJoints()
        covered = [0] * n
        for p in self._physical:
            for i in p.indices:
                if i < n:
                    covered[i] += 1
        missing = [i for i, c in enumerate(covered) if c == 0]
        if missing:
            warnings.warn("OmniRobotInterface: DOFs %s belong to no physical part" % missing, RuntimeWarning)
            return None
        for p in self._physical:
            if not p.iface.initialize():
                warnings.warn("OmniRobotInterface: part %r (%s) did not initialize" % (p.name, p.iface),
                              RuntimeWarning)
                return None
        return n

    def _baseParts(self, n):
        parts = {None: list(range(n))}
        for p in self._physical:
            parts[p.name] = list(p.indices)
            try:
                sub = p.iface.parts()
            except NotImplementedError:
                sub = {}
            for k, inds in sub.items():
                if k is not None:
                    parts[p.name + PART_NAME_SEPARATOR + str(k)] = [p.indices[i] for i in inds]
        return parts

    def _declaredJoints(self):
        return self._model.numDrivers() if self._model is not None else self._nextIndex

    def parts(self):
        if self._parts is None:
            parts = self._baseParts(self._declaredJoints())
            parts.update(self._addedParts)
            return parts
        return self._parts

    def numJoints(self, part=None):
        if self._n is None:
            return self._declaredJoints() if part is None else len(self.indices(part))
        return RobotInterfaceCompleter.numJoints(self, part)

    def getSetting(self, name):
        if name in COMPLETER_SETTINGS:
            return self._requireInitialized().settings[name]
        for p in self._physical:
            try:
                return p.iface.getSetting(name)
            except (KeyError, NotImplementedError):
                continue
        raise KeyError(name + " isn't a valid setting")

    def setSetting(self, name, value):
        if name in COMPLETER_SETTINGS:
            return RobotInterfaceCompleter.setSetting(self, name, value)
        for p in self._physical:
            try:
                p.iface.setSetting(name, value)
                return
            except (KeyError, NotImplementedError):
                continue
        raise KeyError(name + " isn't a valid setting")

    def setPartFilter(self, part, name, filter, input='auto', output='auto'):
        """A filter on the DOFs of a part."""
        if not self._deferOrRun('setPartFilter', (part, name, filter, input, output), {}):
            self._emulator.setFilter(self.indices(part), name, filter, input, output)

    def setPartJointLimits(self, part, qmin='auto', qmax='auto', op='clamp'):
        """A joint limit filter on the DOFs of a part."""
        if not self._deferOrRun('setPartJointLimits', (part, qmin, qmax, op), {}):
            inds = self.indices(part)
            hw = self.properties.get('jointLimits', (None, None))
            hwmin = None if hw[0] is None else [hw[0][i] for i in inds]
            hwmax = None if hw[1] is None else [hw[1][i] for i in inds]
            self._emulator.setJointLimits(inds, qmin, qmax, op, hwmin, hwmax)

    def partInterface(self, part, joint_idx=None):
        """The interface of a physical, child or virtual part (None: this
        interface), with emulated control of its DOFs."""
        if part is not None and part not in self.parts():
            raise KeyError("%s has no part %r" % (self, part))
        return RobotInterfaceCompleter.partInterface(self, part, joint_idx)

    def sensorMeasurements(self, name):
        if self._emulator is not None and name in self._emulator.virtualSensorMeasurements:
            return self._emulator.virtualSensorMeasurements[name][1]
        for p in self._physical:
            if p.call('hasSensor', name) is True:
                return p.iface.sensorMeasurements(name)
        raise NotImplementedError("No part of %s has the sensor %r" % (self, name))

    def stateValue(self, name):
        em = self._requireInitialized()
        if name in em.stateValues:
            return em.stateValues[name]
        for p in self._physical:
            try:
                return p.iface.stateValue(name)
            except NotImplementedError:
                continue
        raise NotImplementedError(name + " is not a valid state query")
