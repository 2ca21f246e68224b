"""The filter pipeline of the emulator: installed filters, their operands,
command filters run on every command issued and sent, state filters run
each step into virtual sensors, and the joint limit and collision filters
(:class:`_FilterPipeline`, mixed into
:class:`~klampt.control._emulator.RobotInterfaceEmulator`)."""
import math
import warnings

from . import _checks
from ._filters import BrakeLimitFilter, CollisionFilter, LimitFilter, SelfCollisionFilter
from .blocks.core import Block
from .blocks.utils import BlockSignal

#: Filter operands that are commands (the others are states or sensors).
COMMAND_OPERANDS = ('positionCommand', 'velocityCommand', 'accelerationCommand', 'torqueCommand')
STATE_OPERANDS = ('sensedPosition', 'sensedVelocity', 'sensedTorque', 'commandedPosition', 'commandedVelocity',
                  'commandedTorque', 'destinationPosition', 'destinationVelocity', 'status')


class _Filter:
    """A filter installed on some DOFs."""

    def __init__(self, name, indices, func, inputs, outputs):
        self.name = name
        self.indices = tuple(indices)
        self.func = func
        self.inputs = inputs
        self.outputs = outputs
        self.warned = False

    @property
    def isCommandFilter(self):
        """Reads a command and outputs only commands (or nothing): runs
        when commands are issued and sent."""
        return any(i in COMMAND_OPERANDS for i in self.inputs) and all(o in COMMAND_OPERANDS for o in self.outputs)



class _Dropped(Exception):
    """A filter dropped the command."""



class _FilterPipeline:
    """The filters of RobotInterfaceEmulator."""

    def setFilter(self, indices, name, filter, input='auto', output='auto'):
        """Installs (or removes, filter=None) a filter on the DOFs (see
        RobotInterfaceCompleter.setFilter).

        A filter raising an unknown BlockSignal raises ValueError (the
        reference reads a nonexistent e.type)."""
        indices = tuple(self._all() if indices is None else indices)
        if filter is None:
            self.commandFilters.pop(name, None)
            self.stateFilters.pop(name, None)
            self.virtualSensorMeasurements.pop(name, None)
            return
        if input == 'auto':
            input = {'joint_limit': 'positionCommand', 'self_collision': 'positionCommand',
                     'obstacle_collision': 'positionCommand', 'velocity_limit': 'velocityCommand',
                     'acceleration_limit': 'accelerationCommand', 'torque_limit': 'torqueCommand',
                     'tracking_monitor': ['commandedPosition', 'sensedPosition']}.get(name, name)
        if output == 'auto':
            output = {'joint_limit': 'positionCommand', 'self_collision': 'positionCommand',
                      'obstacle_collision': 'positionCommand', 'velocity_limit': 'velocityCommand',
                      'acceleration_limit': 'accelerationCommand', 'torque_limit': 'torqueCommand',
                      'tracking_monitor': []}.get(name, name)
        inputs = list(input) if isinstance(input, (list, tuple)) else [input]
        outputs = [] if output is None else (list(output) if isinstance(output, (list, tuple)) else [output])
        for o in outputs:
            if o in STATE_OPERANDS and o != 'status':
                raise ValueError("Filter %s: output %s is a state, not a command or a virtual sensor" % (name, o))
        if any(o in COMMAND_OPERANDS for o in outputs) and not all(o in COMMAND_OPERANDS for o in outputs):
            raise NotImplementedError("Filter %s mixes command and state outputs" % name)
        if any(o in COMMAND_OPERANDS for o in outputs) and not any(i in COMMAND_OPERANDS for i in inputs):
            raise NotImplementedError("Filter %s outputs commands but reads no command" % name)
        if isinstance(filter, Block):
            func = filter.advance
        elif callable(filter):
            func = filter
        elif hasattr(filter, 'advance'):
            func = filter.advance
        else:
            raise ValueError("Filter %s must be callable or a Block" % name)
        f = _Filter(name, indices, func, inputs, outputs)
        self.commandFilters.pop(name, None)
        self.stateFilters.pop(name, None)
        if f.isCommandFilter:
            self.commandFilters[name] = f
        else:
            self.stateFilters[name] = f
            for o in outputs:
                if o != 'status':
                    self.virtualSensorMeasurements.setdefault(o, (None, None))

    def _filterInput(self, f, name, items):
        if name in items:
            return items[name]
        if name == 'status':
            return self.status
        if name in ('sensedPosition', 'sensedVelocity', 'commandedPosition', 'commandedVelocity',
                    'commandedTorque', 'destinationPosition', 'destinationVelocity'):
            return getattr(self, name)(f.indices)
        if name in COMMAND_OPERANDS:
            # a command not being issued: the current commanded value
            base = {'positionCommand': 'commandedPosition', 'velocityCommand': 'commandedVelocity',
                    'torqueCommand': 'commandedTorque'}.get(name)
            if base is None:
                raise KeyError(name)
            return getattr(self, base)(f.indices)
        if name in self.virtualSensorMeasurements:
            return self.virtualSensorMeasurements[name][1]
        if self.sensorReader is not None:
            return self.sensorReader(name)
        raise ValueError("Filter %s: unknown input %s" % (f.name, name))

    def _runFilter(self, f, args):
        """Runs f; returns its results as a list, or raises _Dropped."""
        try:
            res = f.func(*args)
        except BlockSignal as e:
            if e.signal == 'softStop':
                self.softStop()
                raise _Dropped()
            if e.signal == 'warn':
                if not f.warned:
                    warnings.warn("Filter %s: %s; command ignored" % (f.name, e), RuntimeWarning, stacklevel=5)
                    f.warned = True
                raise _Dropped()
            raise ValueError("Filter %s raised the unknown signal %r" % (f.name, e.signal))
        if len(f.outputs) == 0:
            return []
        if len(f.outputs) == 1:
            return [res]
        if res is None or len(res) != len(f.outputs):
            raise ValueError("Filter %s must return %d outputs" % (f.name, len(f.outputs)))
        return list(res)

    def _runCommandFilters(self, indices, items, streaming=False):
        """Runs the command filters whose command inputs are among items
        (values for the DOFs indices); returns the filtered items, or None
        if a filter dropped the command."""
        if not self.commandFilters:
            return items
        items = dict(items)
        pos = dict((i, k) for k, i in enumerate(indices))
        for f in list(self.commandFilters.values()):
            needed = [i for i in f.inputs if i in COMMAND_OPERANDS]
            if not all(i in items for i in needed) or not any(i in pos for i in f.indices):
                continue
            full = {}
            for name in needed:
                cur = self._filterInput(f, name, {})
                vals = list(cur)
                for k, i in enumerate(f.indices):
                    if i in pos:
                        vals[k] = items[name][pos[i]]
                full[name] = vals
            args = [full[i] if i in full else self._filterInput(f, i, {}) for i in f.inputs]
            try:
                results = self._runFilter(f, args)
            except _Dropped:
                return None
            for name, value in zip(f.outputs, results):
                if value is None or name not in items:
                    continue
                if len(value) != len(f.indices):
                    raise ValueError("Filter %s returned %d values for %d DOFs" % (f.name, len(value), len(f.indices)))
                vals = list(items[name])
                for k, i in enumerate(f.indices):
                    if i in pos:
                        vals[pos[i]] = float(value[k])
                items[name] = vals
        return items

    def commandFilter(self, indices, item, value):
        """value (a command of kind item for the DOFs) through the command
        filters; None if a filter dropped it."""
        res = self._runCommandFilters(list(indices), {item: list(value)})
        return None if res is None else res[item]

    def runStateFilters(self):
        """Runs the state filters; their outputs become virtual sensor
        measurements (or the status)."""
        for f in list(self.stateFilters.values()):
            try:
                args = [self._filterInput(f, i, {}) for i in f.inputs]
            except (KeyError, NotImplementedError):
                continue
            try:
                results = self._runFilter(f, args)
            except _Dropped:
                continue
            for name, value in zip(f.outputs, results):
                if name == 'status':
                    if value and value != 'ok':
                        self.status = value
                else:
                    self.virtualSensorMeasurements[name] = (self.curClock, value)

    def setJointLimits(self, indices, qmin='auto', qmax='auto', op='clamp', hw_qmin=None, hw_qmax=None,
                       vmax=None, amax=None):
        """Installs the 'joint_limit' filter ('auto': the model's driver
        limits, spin joints [0, 2 pi]), intersected with hardware limits;
        optionally 'velocity_limit' (vmax) and a braking filter (amax)."""
        indices = self._all() if indices is None else list(indices)
        joints = self._joints(indices)
        if qmin == 'auto' or qmax == 'auto':
            if self.klamptModel is None and hw_qmin is None:
                raise ValueError("setJointLimits('auto') needs a Klamp't model or hardware jointLimits")
            mq = [(0.0, 2 * math.pi) if j.spin else (j.qmin, j.qmax) for j in joints]
            if self.klamptModel is None:
                mq = list(zip(hw_qmin, hw_qmax))
            if qmin == 'auto':
                qmin = [a for a, b in mq]
            if qmax == 'auto':
                qmax = [b for a, b in mq]
        qmin = _checks.vector(qmin, len(indices), 'setJointLimits', 'qmin')
        qmax = _checks.vector(qmax, len(indices), 'setJointLimits', 'qmax')
        if hw_qmin is not None:
            qmin = [max(a, b) for a, b in zip(qmin, hw_qmin)]
            qmax = [min(a, b) for a, b in zip(qmax, hw_qmax)]
        self.setFilter(indices, 'joint_limit', LimitFilter(op, qmin, qmax))
        if vmax is not None:
            if vmax == 'auto':
                vmax = [j.vmax for j in joints]
            vmax = _checks.vector(vmax, len(indices), 'setJointLimits', 'vmax')
            self.setFilter(indices, 'velocity_limit', LimitFilter(op, [-v for v in vmax], vmax))
        if amax is not None:
            if amax == 'auto':
                amax = [j.amax for j in joints]
            amax = _checks.vector(amax, len(indices), 'setJointLimits', 'amax')
            self.setFilter(indices, 'brake_limit', BrakeLimitFilter(op, qmin, qmax, [-a for a in amax], amax),
                           input=['positionCommand', 'velocityCommand'], output=['positionCommand', 'velocityCommand'])

    def setCollisionFilter(self, world=None, op='warn'):
        """Installs 'self_collision', plus 'obstacle_collision' against the
        world's terrains and rigid objects when world is given."""
        robot = self.klamptModel
        if robot is None:
            raise ValueError("setCollisionFilter needs a Klamp't model")
        self.setFilter(self._all(), 'self_collision', SelfCollisionFilter(op, robot))
        if world is not None:
            obstacles = [world.terrain(i) for i in range(world.numTerrains())]
            obstacles += [world.rigidObject(i) for i in range(world.numRigidObjects())]
            self.setFilter(self._all(), 'obstacle_collision', CollisionFilter(op, robot, obstacles))
