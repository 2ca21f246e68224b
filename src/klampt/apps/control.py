"""``klampt_control``: drives a Robot Interface Layer controller
(:mod:`klampt.control`) from a view of the robot: a target configuration
posed joint by joint, keys to move there, stop and reset, and ghosts of the
sensed, commanded and destination configurations. ``--server`` serves the
controller over XML-RPC instead, ``--client`` drives a served one."""
import os
import sys
import threading
import time

from klampt import WorldModel
from klampt.control.interop import RobotInterfacetoVis
from klampt.control.networkrobotinterface import XMLRPCRobotInterfaceClient, XMLRPCRobotInterfaceServer
from klampt.control.robotinterfaceutils import StepContext, make_from_file
from klampt.io import loader
from klampt.model.robotinfo import RobotInfo

from . import _cli

EPILOG = """examples:
  klampt_control --sim data/robots/arm6.rob          (a kinematically simulated arm)
  klampt_control --sim --target reach.config data/robots/arm6.rob
  klampt_control data/robots/arm6.rob my_robot.py    (make(robotModel) returns the interface)
  klampt_control data/robots/arm6.rob package.module
  klampt_control --server 0.0.0.0:7881 --sim data/robots/arm6.rob
  klampt_control --client http://127.0.0.1:7881 data/robots/arm6.rob
  klampt_control --backend viser --sim data/robots/arm6.rob

keys: the target is the orange robot: [ and ] select one of its joints, - and =
turn it; m moves the robot to the target, c sets the target to the robot's
position, s stops softly, e stops at once (emergency), r resets after a stop or
a fault, q quits."""

FILE_EXTENSIONS = ('.xml', '.json', '.py', '.pyc') + _cli.WORLD_ELEMENT_EXTENSIONS
"""Extensions of the arguments that must be files (others may be module names)."""


def parse_args(argv):
    """The parser and the parsed arguments."""
    parser = _cli.make_parser('klampt_control', "Drives a Klamp't Robot Interface Layer controller.", EPILOG)
    parser.add_argument('files', nargs='*', metavar='FILE',
                        help="robot (.rob, .urdf), world (.xml), object or terrain files; a RobotInfo (.json) "
                             "file; a Python file (.py) or module (package.module) whose make(robotModel) returns "
                             "a RobotInterfaceBase")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument('--sim', action='store_true',
                      help="control a kinematic simulation of the robot (klampt.control.simrobotinterface)")
    mode.add_argument('--client', metavar='URL', help="drive the controller served at URL, e.g. "
                                                      "http://127.0.0.1:7881")
    parser.add_argument('--target', metavar='CONFIG', help="the initial target: a configuration file (.config)")
    parser.add_argument('--server', metavar='HOST:PORT',
                        help="serve the controller over XML-RPC (e.g. 0.0.0.0:7881) instead of showing it")
    _cli.add_size_option(parser)
    _cli.add_display_options(parser)
    args = parser.parse_args(argv)
    _cli.parse_size(parser, args)
    if args.server and args.client:
        parser.error("--server and --client exclude each other")
    if args.server:
        host, _, port = args.server.rpartition(':')
        if not port.isdigit() or int(port) > 65535:
            parser.error("--server must be HOST:PORT, e.g. 0.0.0.0:7881 (port 0: any free port)")
        args.server = (host or '127.0.0.1', int(port))
    return parser, args


def build(args):
    """(world, interface) of the command line; args.model_file is set to
    the file the robot came from."""
    world = WorldModel()
    info = None
    args.model_file = None
    source = 'klampt.control.simrobotinterface' if args.sim else None
    for fn in args.files:
        ext = os.path.splitext(fn)[1].lower()
        if ext in FILE_EXTENSIONS and not os.path.exists(fn):
            raise ValueError("%s: no such file" % fn)
        if ext == '.json':
            info = RobotInfo.load(fn)
        elif _cli.is_world_file(fn):
            robots = world.numRobots()
            _cli.load_world_files(world, [fn])
            if robots == 0 and world.numRobots() > 0:
                args.model_file = os.path.abspath(fn)
        elif ext in ('.py', '.pyc') or not os.path.exists(fn):
            if source is not None:
                raise ValueError("two controllers given: %s and %s" % (source, fn))
            source = fn
        else:
            raise ValueError("%s: not a robot, world, RobotInfo or Python file, nor a module name" % fn)
    if world.numRobots() == 0 and info is not None and info.modelFile is not None:
        world.add(info.name, info.klamptModel())
        args.model_file = info.modelFile
    if world.numRobots() == 0:
        raise ValueError("no robot: give a robot or world file, or a RobotInfo file naming the model")
    robot = world.robot(0)
    if info is not None:
        info.robotModel = robot
        RobotInfo.register(info)
    if args.client:
        return world, XMLRPCRobotInterfaceClient(args.client)
    if source is None and info is not None and info.controllerFile is not None:
        return world, info.controller()
    if source is None:
        raise ValueError("no controller: give --sim, --client URL, a Python file or module, or a RobotInfo file "
                         "with a controllerFile")
    return world, make_from_file(source, robot)


def read_target(fn, robot):
    """The configuration in file fn, checked against the robot."""
    if not os.path.exists(fn):
        raise ValueError("%s: no such file" % fn)
    q = loader.load('Config', fn)
    if len(q) != robot.numLinks():
        raise ValueError("%s: %d values, but robot %s has %d links" % (fn, len(q), robot.getName(), robot.numLinks()))
    return q


def name_model_file(interface, fn):
    """Names the robot's file in the interface's properties when they name
    none: an interface without a model then converts its configurations
    to and from the robot's links with it, and a served one's clients get it."""
    if fn and not interface.properties.get('klamptModelFile'):
        interface.properties['klamptModelFile'] = fn


def serve(interface, address):
    """Serves the interface over XML-RPC at address (host, port) until Ctrl-C."""
    server = XMLRPCRobotInterfaceServer(interface, *address)
    if not server.initialize():
        raise RuntimeError("the controller %s could not be initialized" % interface)
    print("klampt_control: serving %s on %s:%d (Ctrl+C stops)" % (interface, server.ip, server.port), flush=True)
    try:
        server.serve()
    except KeyboardInterrupt:
        pass


class ControlLoop:
    """Steps the interface at its control rate in a thread, runs the
    commands the keys queue, and shows its state in the view."""

    VIEW_PERIOD = 0.05

    def __init__(self, interface, robot):
        self.interface = interface
        self.robot = robot
        self.view = RobotInterfacetoVis(interface)
        self.view.text_y = 30
        self.commands = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.last_error = None
        self.thread = threading.Thread(target=self._run, name='klampt_control', daemon=True)

    def queue(self, command):
        """Calls ``command(interface)`` in the next step."""
        with self.lock:
            self.commands.append(command)

    def sensed_klampt(self):
        """The robot's configuration (sensed, else commanded) as a model
        configuration; call inside a step."""
        try:
            q = self.interface.sensedPosition()
        except NotImplementedError:
            q = self.interface.commandedPosition()
        return self.interface.configToKlampt(q)

    def _step(self, show):
        from klampt import vis  # loads OpenGL: only when the app opens a window
        with self.lock:
            commands, self.commands = self.commands, []
        with StepContext(self.interface):
            for command in commands:
                command(self.interface)
            if show:
                q = self.sensed_klampt()
                vis.lock()
                try:
                    self.robot.setConfig(q)
                    self.view.update()
                finally:
                    vis.unlock()

    def _run(self):
        period = 1.0 / self.interface.controlRate()
        next_view = 0.0
        while not self.stop.is_set():
            start = time.time()
            try:
                self._step(start >= next_view)
            except Exception as e:  # reported once; the controller's status shows in the view
                if str(e) != self.last_error:
                    self.last_error = str(e)
                    print("klampt_control: %s" % e, file=sys.stderr)
            if start >= next_view:
                next_view = start + self.VIEW_PERIOD
            self.stop.wait(max(0.0, period - (time.time() - start)))


class Target:
    """The target configuration, drawn as an orange ghost of the robot;
    one joint at a time is selected and turned."""

    STEP = 0.05

    def __init__(self, robot, q):
        self.robot = robot
        self.q = list(q)
        lo, hi = robot.getJointLimits()
        self.joints = [i for i in range(robot.numLinks()) if lo[i] < hi[i]] or list(range(robot.numLinks()))
        self.selected = 0
        self.show()

    def show(self):
        """Updates the ghost and the line naming the selected joint."""
        from klampt import vis  # loads OpenGL: only when the app opens a window
        vis.add('target', list(self.q), color=(1, 0.5, 0, 0.5), hide_label=True)
        i = self.joints[self.selected]
        vis.addText('target joint', "target: %s = %.2f" % (self.robot.link(i).getName(), self.q[i]),
                    position=(10, 50))

    def set(self, q):
        """Sets the whole target."""
        self.q = list(q)
        self.show()

    def select(self, step):
        """Selects the next (step 1) or previous (-1) joint."""
        self.selected = (self.selected + step) % len(self.joints)
        self.show()

    def turn(self, sign):
        """Turns the selected joint by STEP radians (sign +1 or -1), within its limits."""
        i = self.joints[self.selected]
        lo, hi = self.robot.getJointLimits()
        self.q[i] = min(hi[i], max(lo[i], self.q[i] + sign * self.STEP))
        self.show()


def run_gui(world, interface, target=None):
    """Shows the robot and drives the interface until the window closes;
    the target starts at ``target`` (default: the robot's configuration)."""
    from klampt import vis  # loads OpenGL: only when the app opens a window
    robot = world.robot(0)
    loop = ControlLoop(interface, robot)
    vis.add('world', world)
    goal = Target(robot, target or robot.getConfig())
    vis.autoFitCamera()

    def move_to_target():
        q = list(goal.q)
        loop.queue(lambda c: c.moveToPosition(c.configFromKlampt(q)))

    vis.addAction(move_to_target, 'Move to target', 'm', 'move the robot to the target configuration')
    vis.addAction(lambda: loop.queue(lambda c: goal.set(loop.sensed_klampt())), 'Target from robot', 'c',
                  "set the target to the robot's configuration")
    vis.addAction(lambda: goal.select(1), 'Next joint', ']', 'select the next joint of the target')
    vis.addAction(lambda: goal.select(-1), 'Previous joint', '[', 'select the previous joint of the target')
    vis.addAction(lambda: goal.turn(1), 'Joint +', '=', "turn the target's selected joint up")
    vis.addAction(lambda: goal.turn(-1), 'Joint -', '-', "turn the target's selected joint down")
    vis.addAction(lambda: loop.queue(lambda c: c.softStop()), 'Soft stop', 's', 'stop the motion smoothly')
    vis.addAction(lambda: loop.queue(lambda c: c.estop()), 'Emergency stop', 'e', 'stop at once')
    vis.addAction(lambda: loop.queue(lambda c: c.reset()), 'Reset', 'r', 'reset after a stop or a fault')
    _cli.add_quit_key()
    print("klampt_control: [ and ] select a joint of the target, - and = turn it, m moves to the target, "
          "c sets the target to the robot, s stops softly, e stops at once, r resets, q quits")
    loop.thread.start()
    try:
        _cli.run_window()
    finally:
        loop.stop.set()
        loop.thread.join(5.0)


def main(argv=None):
    """Runs klampt_control with the command line ``argv`` (default
    sys.argv[1:]); returns the exit status."""
    parser, args = parse_args(argv)
    try:
        world, interface = build(args)
        target = read_target(args.target, world.robot(0)) if args.target else None
    except (IOError, ImportError, ValueError, RuntimeError) as e:
        parser.error(str(e))
    if args.server:
        name_model_file(interface, args.model_file)
        try:
            serve(interface, args.server)
        except (OSError, RuntimeError) as e:
            print("klampt_control: %s" % e, file=sys.stderr)
            return 1
        return 0
    if not interface.initialize():
        print("klampt_control: the controller %s could not be initialized" % interface, file=sys.stderr)
        return 1
    name_model_file(interface, args.model_file)
    try:
        backend = _cli.start_vis(args, "klampt_control %s" % world.robot(0).getName())
        if _cli.is_headless(backend):
            from klampt import vis  # loads OpenGL: only when the app opens a window
            vis.kill()
            parser.error("there is no display to show the robot: use --backend viser (and open the printed "
                         "address), or --server to serve the controller")
        from klampt import vis  # loads OpenGL: only when the app opens a window
        vis.resizeWindow(args.width, args.height)
        run_gui(world, interface, target)
    finally:
        interface.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
