"""A Simulator with per-robot Python controllers, sensor and actuator
emulators, and hooks called at every physics sub-step."""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
import traceback
import weakref
from typing import Callable, Union

from .. import _reentry
from ..robotsim import RigidObjectModel, RobotModel, RobotModelLink, Simulator, TerrainModel, WorldModel
from . import simlog


class SensorEmulator(object):
    """Turns the simulation's state into named inputs of a Python controller.

    A controller is either a function of the robot's
    :class:`SimRobotController` or an object with an ``advance(**inputs)``
    method returning a dict of commands (the reference's
    ``RobotControllerBlock`` convention)."""

    def update(self) -> dict:
        """The named readings of this emulator."""
        return {}

    def drawGL(self) -> None:
        """Optional debugging drawing."""
        return


class DefaultSensorEmulator(SensorEmulator):
    """Gives a controller the commanded configuration and velocity (in PID
    mode) and the measurements of every sensor of the robot, by name."""

    def __init__(self, sim, controller):
        self.sim = sim
        self.controller = controller

    def update(self) -> dict:
        readings = {}
        if self.controller.getControlType() == "PID":
            readings['qcmd'] = self.controller.getCommandedConfig()
            readings['dqcmd'] = self.controller.getCommandedVelocity()
        for sensor in simlog.controller_sensors(self.controller):
            readings[sensor.name()] = sensor.getMeasurements()
        return readings


class ActuatorEmulator(object):
    """Turns the commands a Python controller outputs into actions on the
    simulation. ``process`` is called once per control step; ``substep`` at
    every physics sub-step."""

    def process(self, commands: dict, dt: float) -> None:
        """Handles (and removes from ``commands``) the commands this emulator
        understands. ``dt`` is the control time step."""
        pass

    def substep(self, dt: float) -> None:
        """Called every simulation sub-step of length dt."""
        pass

    def drawGL(self) -> None:
        """Optional debugging drawing."""
        return


class DefaultActuatorEmulator(ActuatorEmulator):
    """Understands ``qcmd`` (with optional ``dqcmd`` and ``torquecmd``): a PID
    command; ``dqcmd`` with ``tcmd``: a velocity command held for tcmd
    seconds; ``torquecmd`` alone: a torque command. Other commands that don't
    name a sensor are sent to the low-level controller with ``sendCommand``."""

    _HANDLED = frozenset(['t', 'dt', 'torquecmd', 'qcmd', 'dqcmd', 'tcmd'])

    def __init__(self, sim, controller):
        self.sim = sim
        self.controller = controller

    def process(self, commands, dt):
        if commands is None:
            return
        c = self.controller
        if 'qcmd' in commands:
            dqcmd = commands.get('dqcmd', [0.0] * len(commands['qcmd']))
            if 'torquecmd' in commands:
                c.setPIDCommand(commands['qcmd'], dqcmd, commands['torquecmd'])
            else:
                c.setPIDCommand(commands['qcmd'], dqcmd)
        elif 'dqcmd' in commands:
            if 'tcmd' not in commands:
                raise ValueError("A 'dqcmd' command needs a 'tcmd' duration")
            c.setVelocity(commands['dqcmd'], commands['tcmd'])
        elif 'torquecmd' in commands:
            c.setTorque(commands['torquecmd'])
        for name, value in commands.items():
            if name in self._HANDLED or c.model().sensor(name).type() != '':
                continue
            c.sendCommand(name, str(value))


class SimpleSimulator(Simulator):
    """A Simulator that runs Python controllers, sensor / actuator emulators
    and hooks, and can log to CSV.

    ``simulate(dt)`` advances the controllers once by dt, then takes physics
    sub-steps of at most ``substep_dt`` seconds, calling the actuator
    emulators' ``substep`` and the hooks before each. Apply forces to bodies
    from hooks or emulators only: a force applied from outside lasts for the
    first sub-step alone.

    Args:
        world (WorldModel): the world to simulate.
    """

    def __init__(self, world: WorldModel):
        Simulator.__init__(self, world)
        n = world.numRobots()
        me = weakref.proxy(self)
        self.robotControllers = [None] * n
        self.sensorEmulators = [[DefaultSensorEmulator(me, self.controller(i))] for i in range(n)]
        self.actuatorEmulators = [[DefaultActuatorEmulator(me, self.controller(i))] for i in range(n)]
        self.hooks = []        # type: List[Callable]
        self.hook_args = []    # type: List[List[Any]]
        #: physics sub-step at which hooks and emulators run (at least the sim step)
        self.substep_dt = 0.001
        self.worst_status = Simulator.STATUS_NORMAL
        self.logging = False
        self.logger = None
        self.log_state_fn = "simulation_state.csv"
        self.log_contact_fn = "simulation_contact.csv"
        # World state after the last control step, restored before the next
        # one so that controllers never see the physics state directly.
        self.robotStates = []
        self.objectStates = []

    def getStatus(self):
        """The worst status reached during the last ``simulate`` call."""
        return self.worst_status

    def getStatusString(self, status=-1):
        """The name of status ``status`` (by default, of :meth:`getStatus`)."""
        if status >= 0:
            return Simulator.getStatusString(self, status)
        return Simulator.getStatusString(self, self.getStatus())

    def beginLogging(self):
        """Starts logging to the CSV files ``log_state_fn`` and
        ``log_contact_fn`` (overwritten), with contact feedback enabled for
        every pair of bodies.  Each later :meth:`simulate` call first logs the
        current state (see :meth:`klampt.sim.simlog.SimLogger.saveStep`).

        Writing the header row advances the simulation by a zero-length step,
        so the controllers and hooks run once.
        """
        self.logging = True
        self.logger = simlog.SimLogger(weakref.proxy(self), self.log_state_fn, self.log_contact_fn)

    def endLogging(self):
        """Stops logging and closes the log files."""
        self.logging = False
        if self.logger is not None:
            self.logger.close()
        self.logger = None

    def pauseLogging(self, paused=True):
        """Pauses logging (paused=True) or resumes it (paused=False) without
        closing the log files."""
        self.logging = not paused

    def toggleLogging(self):
        """Pauses logging if it is running; otherwise resumes it, or starts it
        with :meth:`beginLogging` if no log is open."""
        if self.logging:
            self.pauseLogging()
        elif self.logger is None:
            self.beginLogging()
        else:
            self.pauseLogging(False)

    def _robotIndex(self, robot):
        if isinstance(robot, int):
            return robot
        if isinstance(robot, str):
            return self.world.robot(robot).index
        if isinstance(robot, RobotModel):
            return robot.index
        raise ValueError("Invalid robot specified: expected an index, a name or a RobotModel")

    def setController(self, robot: Union[int, str, RobotModel], function) -> None:
        """Sets a robot's controller: a function of the robot's
        :class:`SimRobotController`, or an object with an ``advance(**inputs)``
        method returning a dict of commands."""
        index = self._robotIndex(robot)
        if not callable(function) and not hasattr(function, 'advance'):
            raise ValueError("setController takes a 1-argument function or an object with an advance method")
        self.robotControllers += [None] * (self.world.numRobots() - len(self.robotControllers))
        self.robotControllers[index] = function

    def addEmulator(self, robot: Union[int, str, RobotModel], e) -> None:
        """Adds a SensorEmulator (after the others) or an ActuatorEmulator
        (before the others, so it sees the commands first)."""
        index = self._robotIndex(robot)
        if isinstance(e, SensorEmulator):
            self.sensorEmulators[index].append(e)
        elif isinstance(e, ActuatorEmulator):
            self.actuatorEmulators[index].insert(0, e)
        else:
            raise ValueError("Invalid emulator type: expected a SensorEmulator or an ActuatorEmulator")

    def addHook(self, objects, function: Callable) -> None:
        """Calls ``function(o1, ..., on)`` at every sub-step.

        Each object is resolved once: 'time' and 'dt' become the simulation
        time and the sub-step length at each call; links, rigid objects and
        terrains (or their names) become their SimBody; robots become their
        SimRobotController; anything else is passed as is."""
        if isinstance(objects, str) or not hasattr(objects, '__iter__'):
            objects = [objects]
        args = []
        for o in objects:
            if isinstance(o, (RobotModelLink, RigidObjectModel, TerrainModel)):
                args.append(self.body(o))
            elif isinstance(o, RobotModel):
                args.append(self.controller(o))
            elif isinstance(o, str):
                args.append(o if o in ('time', 'dt') else self._named(o))
            else:
                args.append(o)
        self.hooks.append(function)
        self.hook_args.append(args)

    def _named(self, name):
        w = self.world
        for i in range(w.numRobots()):
            if w.robot(i).getName() == name:
                return self.controller(i)
        for i in range(w.numRigidObjects()):
            if w.rigidObject(i).getName() == name:
                return self.body(w.rigidObject(i))
        for i in range(w.numTerrains()):
            if w.terrain(i).getName() == name:
                return self.body(w.terrain(i))
        raise ValueError("No world element named %r" % name)

    def drawGL(self) -> None:
        """Draws the simulated world with OpenGL: copies the simulation state
        into the world model (``updateWorld``), draws the world, then the
        emulators' and controllers' debugging drawings."""
        self.updateWorld()
        self.world.drawGL()
        self.drawEmulatorsGL()
        self.drawControllersGL()

    def drawEmulatorsGL(self) -> None:
        """Calls drawGL of every sensor and actuator emulator."""
        for emulators in self.sensorEmulators + self.actuatorEmulators:
            for e in emulators:
                e.drawGL()

    def drawControllersGL(self) -> None:
        """Calls drawGL of every robot controller that has one."""
        for c in self.robotControllers:
            if c is not None and hasattr(c, 'drawGL'):
                c.drawGL()

    def simulate(self, dt: float) -> None:
        """Advances the controllers by dt, then the physics by dt in sub-steps
        of at most ``substep_dt``. RuntimeError when called from one of this
        simulator's hooks, emulators or controllers."""
        with _reentry.running(self, 'step', 'SimpleSimulator.simulate'):
            self._step(dt)

    def _step(self, dt):
        if self.substep_dt <= 0:
            raise ValueError("substep_dt must be positive")
        if self.logger is not None and self.logging:
            self.logger.saveStep()
        self.worst_status = Simulator.STATUS_NORMAL
        w = self.world
        for i, (q, dq) in enumerate(self.robotStates):
            w.robot(i).setConfig(q)
            w.robot(i).setVelocity(dq)
        for i, T in enumerate(self.objectStates):
            w.rigidObject(i).setTransform(*T)
        self.controlStep(dt)
        self.robotStates = [(w.robot(i).getConfig(), w.robot(i).getVelocity()) for i in range(w.numRobots())]
        self.objectStates = [w.rigidObject(i).getTransform() for i in range(w.numRigidObjects())]

        t = 0.0
        while True:
            substep = min(self.substep_dt, dt - t)
            for emulators in self.actuatorEmulators:
                for e in emulators:
                    e.substep(substep)
            for hook, args in zip(self.hooks, self.hook_args):
                resolved = [self.getTime() if a == 'time' else substep if a == 'dt' else a
                            for a in args]
                try:
                    hook(*resolved)
                except Exception:
                    traceback.print_exc()
                    raise
            Simulator.simulate(self, substep)
            self.worst_status = max(self.worst_status, Simulator.getStatus(self))
            t += self.substep_dt
            if t >= dt:
                break

    def controlStep(self, dt: float) -> None:
        """Runs each robot's controller once and hands its commands to the
        actuator emulators (RuntimeError from inside one of its callbacks)."""
        with _reentry.running(self, 'control', 'SimpleSimulator.controlStep'):
            self._control(dt)

    def _control(self, dt):
        for i in range(self.world.numRobots()):
            c = self.robotControllers[i] if i < len(self.robotControllers) else None
            if hasattr(c, 'advance'):
                inputs = {'t': self.getTime(), 'dt': dt}
                for e in self.sensorEmulators[i]:
                    inputs.update(e.update())
                commands = c.advance(**inputs)
                for e in self.actuatorEmulators[i]:
                    e.process(commands, dt)
            elif callable(c):
                c(self.controller(i))
