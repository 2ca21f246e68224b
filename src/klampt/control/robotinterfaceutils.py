"""Utilities of the Robot Interface Layer.

- :class:`RobotInterfaceCompleter`: completes a partial interface (motion
  queues, Cartesian control, filters, stops) from what its base implements.
- :class:`OmniRobotInterface`: one robot from several physical interfaces.
- :class:`ThreadedRobotInterface`, :class:`MultiprocessingRobotInterface`:
  a synchronous interface run by a worker thread or process, used
  asynchronously.
- :class:`RobotInterfaceEmulator`: the software motion controller behind
  the Completer.
- Filters: :class:`LimitFilter`, :class:`BrakeLimitFilter`,
  :class:`CartesianLimitFilter`, :class:`SelfCollisionFilter`,
  :class:`CollisionFilter`, :class:`DifferenceFilter`,
  :class:`LoggingFilter`.
- :class:`StepContext` (a ``with`` block around beginStep/endStep),
  :func:`make_from_file`, :class:`RobotInterfaceLogger`,
  :class:`RobotInterfaceRecorder`, the ``klamptCartesian*`` helpers and the
  method-category constants.
"""
from ..robotsim import RobotModel, WorldModel  # noqa: F401  (Klamp't's module has them)
import csv
import json
import logging
import traceback

from ._cartesian import klamptCartesianForce, klamptCartesianPosition, klamptCartesianVelocity
from ._checks import to_plain
from ..model.robotinfo import _load_code
from ._completer import RobotInterfaceCompleter
from ._omni import PART_NAME_SEPARATOR, OmniRobotInterface
from ._emulator import RobotInterfaceEmulator
from ._filters import (BrakeLimitFilter, CartesianLimitFilter, CollisionFilter, DifferenceFilter, LimitFilter,
                       LoggingFilter, SelfCollisionFilter)
from ._workers import MultiprocessingRobotInterface, ThreadedRobotInterface
from .robotinterface import RobotInterfaceBase

__all__ = ['StepContext', 'make_from_file', 'RobotInterfaceCompleter', 'OmniRobotInterface',
           'ThreadedRobotInterface', 'MultiprocessingRobotInterface', 'RobotInterfaceEmulator', 'LimitFilter',
           'BrakeLimitFilter', 'CartesianLimitFilter', 'SelfCollisionFilter', 'CollisionFilter', 'DifferenceFilter',
           'LoggingFilter', 'klamptCartesianPosition', 'klamptCartesianVelocity', 'klamptCartesianForce',
           'RobotInterfaceLogger', 'RobotInterfaceRecorder', 'PART_NAME_SEPARATOR', 'SETTING_COMMAND_METHODS',
           'MOTION_COMMAND_METHODS', 'STRUCTURE_QUERY_METHODS', 'SETTING_QUERY_METHODS', 'SENSOR_QUERY_METHODS',
           'MOTION_QUERY_METHODS', 'UTILITY_METHODS', 'COMMAND_METHODS', 'QUERY_METHODS', 'CUSTOM_METHODS',
           'ALL_METHODS']

SETTING_COMMAND_METHODS = ['reset', 'enableSensor', 'setPIDGains', 'setToolCoordinates', 'setGravityCompensation']
MOTION_COMMAND_METHODS = ['estop', 'softStop', 'setPosition', 'setVelocity', 'setTorque', 'setPID', 'moveToPosition',
                          'setPiecewiseLinear', 'setPiecewiseCubic', 'setCartesianPosition',
                          'moveToCartesianPosition', 'moveToCartesianPositionLinear', 'setCartesianVelocity',
                          'setCartesianForce', 'setControlMode']
STRUCTURE_QUERY_METHODS = ['numJoints', 'parts', 'controlRate', 'jointName', 'sensors', 'hasSensor', 'klamptModel']
SETTING_QUERY_METHODS = ['status', 'clock', 'getPIDGains', 'getToolCoordinates', 'getGravityCompensation']
SENSOR_QUERY_METHODS = ['enabledSensors', 'sensorMeasurements', 'sensorUpdateTime']
MOTION_QUERY_METHODS = ['isMoving', 'sensedPosition', 'sensedVelocity', 'sensedTorque', 'commandedPosition',
                        'commandedVelocity', 'commandedTorque', 'destinationPosition', 'destinationVelocity',
                        'destinationTime', 'queuedTrajectory', 'sensedCartesianPosition', 'sensedCartesianVelocity',
                        'sensedCartesianForce', 'commandedCartesianPosition', 'commandedCartesianVelocity',
                        'commandedCartesianForce', 'destinationCartesianPosition', 'destinationCartesianVelocity',
                        'queuedCartesianTrajectory']
UTILITY_METHODS = ['indices', 'cartesianPosition', 'cartesianVelocity', 'cartesianForce', 'partToRobotConfig',
                   'robotToPartConfig', 'configFromKlampt', 'velocityFromKlampt', 'configToKlampt',
                   'velocityToKlampt']
COMMAND_METHODS = SETTING_COMMAND_METHODS + MOTION_COMMAND_METHODS
QUERY_METHODS = STRUCTURE_QUERY_METHODS + SETTING_QUERY_METHODS + SENSOR_QUERY_METHODS + MOTION_QUERY_METHODS
CUSTOM_METHODS = ['functionCall', 'setSetting', 'getSetting', 'setFilter', 'stateValue']
ALL_METHODS = COMMAND_METHODS + QUERY_METHODS + CUSTOM_METHODS


class StepContext:
    """``with StepContext(interface):`` runs beginStep() on entry and
    endStep() on exit, also when the body raises.

    Args:
        interface (RobotInterfaceBase): the interface to step.
        ignore (bool): if True, exceptions of the body and of endStep() are
            counted in numExceptions, logged (unless silent) and suppressed;
            otherwise they propagate (after endStep()).
        silent (bool): with ignore, don't log them.

    An exception from beginStep() propagates at once (without endStep())
    unless ignore is set.
    """

    def __init__(self, interface: RobotInterfaceBase, ignore=False, silent=False):
        self.interface = interface
        self.ignore = ignore
        self.silent = silent
        self.numExceptions = 0
        self._began = False

    def _report(self, what, exc):
        if not self.silent:
            logging.getLogger(__name__).error("Exception %s %s: %s\n%s", what, self.interface, exc,
                                              ''.join(traceback.format_exception(type(exc), exc, exc.__traceback__)))

    def __enter__(self):
        try:
            self.interface.beginStep()
            self._began = True
        except Exception as e:
            self._began = False
            if not self.ignore:
                raise
            self.numExceptions += 1
            self._report('in beginStep() of', e)
        return self

    def __exit__(self, type, value, tb):
        if type is not None:
            self.numExceptions += 1
            if self.ignore:
                self._report('between beginStep() and endStep() of', value)
        if self._began:
            self._began = False
            try:
                self.interface.endStep()
            except Exception as e:
                self.numExceptions += 1
                if not self.ignore:
                    if type is None:
                        raise
                    self._report('in endStep() of', e)
                else:
                    self._report('in endStep() of', e)
        return bool(self.ignore)


def make_from_file(fn: str, robotModel, *args, **kwargs) -> RobotInterfaceBase:
    """The interface returned by ``make(robotModel, *args, **kwargs)`` of a
    Python file (``.py``/``.pyc`` path) or module (e.g.
    ``'klampt.control.simrobotinterface'``)."""
    if fn.endswith('.pyc'):
        import importlib.machinery
        import importlib.util
        import os
        name = os.path.splitext(os.path.basename(fn))[0]
        loader = importlib.machinery.SourcelessFileLoader(name, fn)
        spec = importlib.util.spec_from_loader(name, loader)
        mod = importlib.util.module_from_spec(spec)
        loader.exec_module(mod)
    else:
        mod = _load_code(fn, [])
    if not hasattr(mod, 'make'):
        raise RuntimeError("Module %s has no make(robotModel) function" % fn)
    return mod.make(robotModel, *args, **kwargs)


class RobotInterfaceLogger:
    """Writes the state of an interface as CSV, one row per :meth:`step`
    (call it inside a step).  The first step writes a comment line with
    the structure (``# controlRate=...``) and a header with one column per
    vector entry (``sensedPosition[0]``, ...); queries the interface lacks
    are empty cells.

    The reference rewrites the header every step and its rows grow."""

    TEST_PROPERTIES = ['controlRate', 'parts', 'sensors', 'enabledSensors', 'numJoints', 'indices']
    TEST_METHODS = ['clock', 'status', 'isMoving', 'sensedPosition', 'sensedVelocity', 'sensedTorque',
                    'commandedPosition', 'commandedVelocity', 'commandedTorque', 'destinationPosition',
                    'destinationVelocity', 'destinationTime']
    _VECTORS = ('sensedPosition', 'sensedVelocity', 'sensedTorque', 'commandedPosition', 'commandedVelocity',
                'commandedTorque', 'destinationPosition', 'destinationVelocity')

    def __init__(self, interface: RobotInterfaceBase, file):
        self._interface = interface
        self._ownsFile = isinstance(file, str)
        self._file = open(file, 'w', newline='') if self._ownsFile else file
        self._writer = csv.writer(self._file)
        self._first_time = True
        self._n = None

    def step(self):
        """Writes one row (and, the first time, the header)."""
        if self._file is None:
            raise RuntimeError("RobotInterfaceLogger.step() called after stop()")
        iface = self._interface
        if self._first_time:
            info = []
            for prop in self.TEST_PROPERTIES:
                try:
                    info.append('%s=%s' % (prop, getattr(iface, prop)()))
                except Exception as e:
                    info.append('%s=error %s' % (prop, e))
            self._file.write('# ' + '; '.join(info) + '\n')
            self._n = iface.numJoints()
            header = []
            for m in self.TEST_METHODS:
                if m in self._VECTORS:
                    header += ['%s[%d]' % (m, i) for i in range(self._n)]
                else:
                    header.append(m)
            self._writer.writerow(header)
            self._first_time = False
        row = []
        for m in self.TEST_METHODS:
            try:
                value = getattr(iface, m)()
            except NotImplementedError:
                value = None
            if m in self._VECTORS:
                row += [''] * self._n if value is None else [repr(float(v)) for v in value]
            else:
                row.append('' if value is None else str(value))
        self._writer.writerow(row)

    def stop(self):
        """Closes the file (if the logger opened it)."""
        if self._file is None:
            return
        if self._ownsFile:
            self._file.close()
        else:
            self._file.flush()
        self._file = None
        self._writer = None


class RobotInterfaceRecorder:
    """Records the commands sent to an interface, or plays them back.

    Recording wraps the interface's command methods: each call is kept with
    the interface's clock and written by :meth:`step` as a JSON line
    ``{"time": t, "command": {"func": name, "args": [...], "kwargs": {...}}}``.
    Playback reads such a file and, at each :meth:`step`, issues the
    commands whose time has come (shifted by playback_delay - the first
    command's time when playback_delay is given).  Call step() inside a
    step, after issuing commands.

    Args:
        interface (RobotInterfaceBase): any interface.
        file (str or file): the recording.
        playback (bool): play back instead of recording.
        playback_delay (float, optional): the clock time of the first
            played command (default: as recorded).

    Commands are JSON lines {"time", "command"} played back by clock; any
    interface can be recorded.  The reference rejects a Completer and cannot
    read its own files.
    """

    RECORDED_METHODS = MOTION_COMMAND_METHODS + SETTING_COMMAND_METHODS + ["setSetting"]

    def __init__(self, interface: RobotInterfaceBase, file, playback=False, playback_delay=None):
        self._interface = interface
        self._playback = playback
        self._ownsFile = isinstance(file, str)
        if playback:
            self._file = open(file, 'r') if self._ownsFile else file
            self._commands = []
            for line in self._file:
                line = line.strip()
                if line:
                    obj = json.loads(line)
                    self._commands.append((float(obj['time']), obj['command']))
            if self._ownsFile:
                self._file.close()
            self._timewarp = 0.0
            if self._commands and playback_delay is not None:
                self._timewarp = playback_delay - self._commands[0][0]
            self._index = 0
        else:
            self._file = open(file, 'w') if self._ownsFile else file
            self._buffer = []
            self._originals = {}
            for name in self.RECORDED_METHODS:
                original = getattr(interface, name, None)
                if original is None:
                    continue
                self._originals[name] = original
                setattr(interface, name, self._recording(name, original))

    def _recording(self, name, original):
        def recorded(*args, **kwargs):
            try:
                t = self._interface.clock()
            except NotImplementedError:
                t = None
            self._buffer.append({'time': t, 'command': {'func': name, 'args': to_plain(list(args)),
                                                        'kwargs': to_plain(kwargs)}})
            return original(*args, **kwargs)
        recorded.__name__ = name
        return recorded

    def step(self) -> None:
        """Writes the recorded commands, or issues the due ones."""
        if self._file is None:
            return
        if self._playback:
            t = self._interface.clock()
            while self._index < len(self._commands) and t + 1e-9 >= self._commands[self._index][0] + self._timewarp:
                cmd = self._commands[self._index][1]
                getattr(self._interface, cmd['func'])(*cmd.get('args', []), **cmd.get('kwargs', {}))
                self._index += 1
            return
        for item in self._buffer:
            self._file.write(json.dumps(item) + '\n')
        self._buffer = []
        self._file.flush()

    def stop(self) -> None:
        """Ends recording (restoring the interface's methods) or playback."""
        if self._file is None:
            return
        if not self._playback:
            self.step()
            for name, original in self._originals.items():
                try:
                    delattr(self._interface, name)
                except AttributeError:
                    setattr(self._interface, name, original)
            if self._ownsFile:
                self._file.close()
        self._file = None

    def done(self) -> bool:
        """True when stopped or all commands were played back."""
        if self._file is None:
            return True
        if self._playback:
            return self._index >= len(self._commands)
        return False
