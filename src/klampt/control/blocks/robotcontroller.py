"""Robot controllers as blocks.

A :class:`RobotControllerBlock` receives, as keyword inputs, ``t`` (clock,
s), ``dt`` (time step), ``q`` and ``dq`` (sensed configuration and
velocity, link space), ``torque`` (sensed, if any), ``qcmd`` and ``dqcmd``
(the commanded ones) and one entry per robot sensor; it returns a dict with
some of:

- ``qcmd`` (with optional ``dqcmd`` and feedforward ``torquecmd``): a PID
  command (desired velocity 0 without ``dqcmd``);
- ``dqcmd`` with ``tcmd``: a velocity command lasting ``tcmd`` seconds;
- ``torquecmd`` alone: a torque command.

Run one on a Robot Interface Layer interface with
:class:`klampt.control.interop.RobotControllerBlockToInterface`, or in a
simulation with :meth:`klampt.sim.simulation.SimpleSimulator.setController`.
:class:`RobotControllerIO` reads the inputs and builds the outputs.
"""
import warnings

from .core import Block


class RobotControllerBlock(Block):
    """The base of robot controllers: declares the standard inputs (plus
    the names of ``robotModel``'s sensors) and outputs ``qcmd``, ``dqcmd``,
    ``tcmd``, ``torquecmd``.  Subclasses implement ``advance(**inputs)``."""

    def __init__(self, robotModel=None):
        self.robotModel = robotModel
        inputs = ['t', 'dt', 'q', 'dq', 'torque', 'qcmd', 'dqcmd']
        if robotModel is not None:
            i = 0
            while True:
                s = robotModel.sensor(i)
                i += 1
                if s.name() == '':
                    break
                if s.name() not in inputs:
                    inputs.append(s.name())
        Block.__init__(self, inputs, ['qcmd', 'dqcmd', 'tcmd', 'torquecmd'])


class RobotControllerIO:
    """Object-oriented access to a RobotControllerBlock's input dict, and a
    builder for its output dict::

        api = RobotControllerIO(inputs)
        api.setJointPositionCommand(5, 0.5)
        return api.makeCommand()
    """

    def __init__(self, kwargs):
        self.inputs = kwargs
        self.retval = dict()

    def time(self):
        """The robot clock."""
        return self.inputs['t']

    def timeStep(self):
        """The control time step."""
        return self.inputs['dt']

    def commandedConfiguration(self):
        """The commanded configuration, or None."""
        return self.inputs.get('qcmd')

    def commandedVelocity(self):
        """The commanded velocity, or None."""
        return self.inputs.get('dqcmd')

    def sensedConfiguration(self):
        """The sensed configuration, or None."""
        return self.inputs.get('q')

    def sensedVelocity(self):
        """The sensed velocity, or None."""
        return self.inputs.get('dq')

    def sensedTorque(self):
        """The sensed torque, or None."""
        return self.inputs.get('torque')

    def sensorNames(self):
        """The names of all inputs (clock and time step included)."""
        return self.inputs.keys()

    def sensorValue(self, sensor):
        """The value of the named input, or None."""
        return self.inputs.get(sensor)

    def makePositionCommand(self, q):
        """{'qcmd': q}"""
        return {'qcmd': q}

    def makePIDCommand(self, q, dq):
        """{'qcmd': q, 'dqcmd': dq}"""
        return {'qcmd': q, 'dqcmd': dq}

    def makeFeedforwardPIDCommand(self, q, dq, torque):
        """{'qcmd': q, 'dqcmd': dq, 'torquecmd': torque}"""
        return {'qcmd': q, 'dqcmd': dq, 'torquecmd': torque}

    def makeVelocityCommand(self, dq, t):
        """{'dqcmd': dq, 'tcmd': t}"""
        return {'dqcmd': dq, 'tcmd': t}

    def makeTorqueCommand(self, torque):
        """{'torquecmd': torque}"""
        return {'torquecmd': torque}

    def setPositionCommand(self, value):
        """Sets the output qcmd."""
        self.retval['qcmd'] = value

    def setPIDCommand(self, q, dq):
        """Sets the outputs qcmd and dqcmd."""
        self.retval['qcmd'] = q
        self.retval['dqcmd'] = dq

    def setFeedforwardPIDCommand(self, q, dq, torque):
        """Sets the outputs qcmd, dqcmd and torquecmd."""
        self.retval['qcmd'] = q
        self.retval['dqcmd'] = dq
        self.retval['torquecmd'] = torque

    def setVelocityCommand(self, v, dt):
        """Sets the outputs dqcmd and tcmd."""
        self.retval['dqcmd'] = v
        self.retval['tcmd'] = dt

    def setTorqueCommand(self, torque):
        """Sets the output torquecmd."""
        self.retval['torquecmd'] = torque

    def setJointPositionCommand(self, index, value):
        """Commands one joint's position, keeping the command type already
        set (a velocity command reaches the position in one time step)."""
        if 'qcmd' in self.retval:
            self.retval['qcmd'][index] = value
        elif 'dqcmd' in self.retval:
            self.retval['dqcmd'][index] = (value - self.inputs['qcmd'][index]) / self.inputs['dt']
            self.retval['tcmd'] = self.inputs['dt']
        elif 'torquecmd' in self.retval:
            warnings.warn("Cannot combine joint position commands with joint torque commands", RuntimeWarning)
        else:
            self.retval['qcmd'] = list(self.inputs['qcmd'])
            self.retval['qcmd'][index] = value

    def setJointVelocityCommand(self, index, value):
        """Commands one joint's velocity, keeping the command type already
        set (a position command moves by value*dt)."""
        if 'qcmd' in self.retval:
            self.retval['qcmd'][index] = self.inputs['qcmd'][index] + value * self.inputs['dt']
            if 'dqcmd' not in self.retval:
                self.retval['dqcmd'] = list(self.inputs['dqcmd'])
            self.retval['dqcmd'][index] = value
        elif 'dqcmd' in self.retval:
            self.retval['dqcmd'][index] = value
            self.retval['tcmd'] = self.inputs['dt']
        elif 'torquecmd' in self.retval:
            warnings.warn("Cannot combine joint velocity commands with joint torque commands", RuntimeWarning)
        else:
            self.retval['dqcmd'] = list(self.inputs['dqcmd'])
            self.retval['dqcmd'][index] = value
            self.retval['tcmd'] = self.inputs['dt']

    def makeCommand(self):
        """The output dict built by the set*Command calls."""
        return self.retval
