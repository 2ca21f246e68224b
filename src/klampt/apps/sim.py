"""``klampt_sim``: simulates a world with its robots' controllers, in a
window (or a browser through viser) in real time, or for ``--duration``
seconds headless, saving the view as PNG frames (``--record``) and the
state as a CSV log (``--log``)."""
import importlib.util
import os
import sys
import time

from klampt import WorldModel
from klampt.control.blocks.trajectory_tracking import TrajectoryPositionController
from klampt.io import loader
from klampt.model.robotinfo import RobotInfo
from klampt.model.trajectory import RobotTrajectory
from klampt.sim.simulation import SimpleSimulator

from . import _cli

EPILOG = """examples:
  klampt_sim data/worlds/arm_table.xml
  klampt_sim data/worlds/arm_table.xml wave.path        (the first robot follows the path)
  klampt_sim world.xml my_controller.py                 (make(robot) returns the first robot's controller)
  klampt_sim --duration 5 --record frames data/worlds/arm_table.xml
  klampt_sim --duration 5 --log state.csv data/worlds/arm_table.xml
  klampt_sim --backend viser data/worlds/arm_table.xml

keys: s pauses or resumes, space steps once when paused, l starts or stops logging,
f fits the camera, q quits."""


def parse_args(argv):
    """The parser and the parsed arguments."""
    parser = _cli.make_parser('klampt_sim', "Simulates a world and its robots' controllers.", EPILOG)
    parser.add_argument('files', nargs='+', metavar='FILE',
                        help="world (.xml), robot, object or terrain files and RobotInfo (.json) files, then one "
                             "controller per robot, in order: a path (.path, .traj) the robot follows, or a Python "
                             "file whose make(robot) returns a function of the robot's SimRobotController or an "
                             "object with advance(**inputs) returning commands")
    parser.add_argument('--duration', type=float, metavar='T',
                        help="simulate T seconds, then quit; unless --backend names a window or viser, this runs "
                             "offscreen as fast as it can")
    parser.add_argument('--dt', type=float, default=0.01, help="control step in seconds (default 0.01)")
    parser.add_argument('--record', metavar='DIR', help="save the view as PNG frames DIR/frame_00000.png, ...")
    parser.add_argument('--fps', type=float, default=30.0, help="recorded frames per simulated second (default 30)")
    parser.add_argument('--log', metavar='CSV', help="log the state at each step to CSV (see klampt.sim.simlog), "
                                                     "the contacts to CSV's name with _contacts added")
    parser.add_argument('--paused', action='store_true', help="start paused (press s to run)")
    _cli.add_size_option(parser)
    _cli.add_display_options(parser)
    args = parser.parse_args(argv)
    _cli.parse_size(parser, args)
    if args.dt <= 0 or args.fps <= 0:
        parser.error("--dt and --fps must be positive")
    if args.duration is not None and args.duration < 0:
        parser.error("--duration must not be negative")
    return parser, args


def _load_python(fn):
    name = os.path.splitext(os.path.basename(fn))[0]
    folder = os.path.dirname(os.path.abspath(fn))
    if folder not in sys.path:
        sys.path.append(folder)
    spec = importlib.util.spec_from_file_location(name, fn)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_controller(fn, robot):
    """The controller a path or Python file gives ``robot``."""
    ext = os.path.splitext(fn)[1].lower()
    if ext in ('.path', '.traj'):
        traj = loader.load('Trajectory', fn)
        if not traj.milestones or len(traj.milestones[0]) != robot.numLinks():
            raise ValueError("%s: the milestones are not configurations of robot %s (%d links)"
                             % (fn, robot.getName(), robot.numLinks()))
        return TrajectoryPositionController(RobotTrajectory(robot, traj.times, traj.milestones))
    if ext not in ('.py', '.pyc'):
        raise ValueError("%s: not a world, robot, object, terrain, RobotInfo, path or Python file" % fn)
    module = _load_python(fn)
    if not hasattr(module, 'make'):
        raise ValueError("%s has no make(robot) function" % fn)
    return module.make(robot)


def build(files):
    """(world, simulator) of the command line's files: world elements and
    RobotInfo robots are loaded, then the controllers set in order."""
    world = WorldModel()
    infos, controllers = {}, []
    for fn in files:
        if not os.path.exists(fn):
            raise ValueError("%s: no such file" % fn)
        ext = os.path.splitext(fn)[1].lower()
        if ext == '.json':
            info = RobotInfo.load(fn)
            infos[world.numRobots()] = info
            world.add(info.name, info.klamptModel())
        elif _cli.is_world_file(fn):
            _cli.load_world_files(world, [fn])
        else:
            controllers.append(fn)
    if len(controllers) > world.numRobots():
        raise ValueError("%d controllers for %d robots" % (len(controllers), world.numRobots()))
    sim = SimpleSimulator(world)
    for index, info in infos.items():
        info.configureSimulator(sim, index)
    for i, fn in enumerate(controllers):
        sim.setController(i, make_controller(fn, world.robot(i)))
    return world, sim


class Recorder:
    """Saves the view as numbered PNG frames, ``fps`` per simulated second."""

    def __init__(self, folder, fps):
        os.makedirs(folder, exist_ok=True)
        self.folder = folder
        self.period = 1.0 / fps
        self.count = 0
        self.saved = []  # the frames saved (a window delivers them after drawing, in its thread)
        self.next_time = 0.0

    def capture(self, t):
        """Saves a frame if one is due at simulation time t."""
        from klampt import vis  # loads OpenGL: only when the app opens a window
        if t + 1e-9 < self.next_time:
            return
        path = os.path.join(self.folder, 'frame_%05d.png' % self.count)

        def save(image):
            image.save(path)
            self.saved.append(path)
        vis.screenshotCallback(save, 'Image')
        self.count += 1
        while self.next_time <= t + 1e-9:
            self.next_time += self.period


class SimRunner:
    """Steps the simulation, keeps the view's status text and records."""

    def __init__(self, sim, dt, duration, recorder):
        self.sim = sim
        self.dt = dt
        self.duration = duration
        self.recorder = recorder
        self.status = None
        self.show_status()
        if recorder is not None:
            recorder.capture(sim.getTime())

    def finished(self):
        """Whether --duration is reached."""
        return self.duration is not None and self.sim.getTime() >= self.duration - 1e-9

    def step(self):
        """One control step, then the view follows the simulation."""
        self.sim.simulate(self.dt)
        self.sim.updateWorld()
        self.show_status()
        if self.recorder is not None:
            self.recorder.capture(self.sim.getTime())

    def show_status(self):
        """The simulation time (and a bad status) at the view's top left."""
        from klampt import vis  # loads OpenGL: only when the app opens a window
        text = "t = %.2f s" % self.sim.getTime()
        if self.sim.getStatus() != 0:
            text += "  (%s)" % self.sim.getStatusString()
        if text != self.status:
            self.status = text
            vis.addText('status', text, position=(10, 10))


def run_headless(runner):
    """Steps as fast as possible until the duration is reached."""
    while not runner.finished():
        runner.step()


def run_window(runner, paused):
    """Steps in real time in the shown window until it is closed or the
    duration is reached; s pauses, space steps, l toggles the log."""
    from klampt import vis  # loads OpenGL: only when the app opens a window
    state = {'paused': paused, 'last': None, 'owed': 0.0, 'finished_at': None}

    def toggle_pause():
        state['paused'] = not state['paused']
        print("klampt_sim:", "paused" if state['paused'] else "running")

    def single_step():
        if state['paused']:
            runner.step()

    vis.addAction(toggle_pause, 'Pause/resume', 's', 'pause or resume the simulation')
    vis.addAction(single_step, 'Step', ' ', 'advance one step when paused')
    vis.addAction(runner.sim.toggleLogging, 'Toggle logging', 'l', 'start, pause or resume the CSV log')
    vis.addAction(vis.autoFitCamera, 'Fit camera', 'f', 'aim the camera at the world')
    _cli.add_quit_key()

    def callback():
        now = time.time()
        elapsed = 0.0 if state['last'] is None else min(now - state['last'], 0.1)
        state['last'] = now
        if state['paused']:
            return
        state['owed'] += elapsed
        while state['owed'] >= runner.dt and not runner.finished():
            runner.step()
            state['owed'] -= runner.dt
        if runner.finished():  # closes once the recorded frames are saved (at most 2 s later)
            state['finished_at'] = state['finished_at'] or now
            recorder = runner.recorder
            if recorder is None or len(recorder.saved) >= recorder.count or now - state['finished_at'] > 2:
                vis.show(False)
    print("klampt_sim: s pauses or resumes, space steps when paused, l toggles logging, q quits")
    _cli.run_window(callback)


def main(argv=None):
    """Runs klampt_sim with the command line ``argv`` (default
    sys.argv[1:]); returns the exit status."""
    parser, args = parse_args(argv)
    from klampt import vis  # loads OpenGL: only when the app opens a window
    try:
        world, sim = build(args.files)
    except (IOError, ValueError, RuntimeError) as e:
        parser.error(str(e))
    backend = 'offscreen' if args.duration is not None and args.backend == 'auto' else None
    backend = _cli.start_vis(args, "Klamp't simulation", backend)
    headless = _cli.is_headless(backend)
    if headless and args.duration is None:
        vis.kill()
        parser.error("there is no display to show the simulation: give --duration, or use --backend viser (and "
                     "open the printed address)")
    vis.resizeWindow(args.width, args.height)
    vis.add('world', world)
    vis.autoFitCamera()
    if args.log:
        sim.log_state_fn = args.log
        sim.log_contact_fn = os.path.splitext(args.log)[0] + '_contacts.csv'
        sim.beginLogging()
    recorder = Recorder(args.record, args.fps) if args.record else None
    runner = SimRunner(sim, args.dt, args.duration, recorder)
    try:
        if headless:
            run_headless(runner)
        else:
            run_window(runner, args.paused)
    finally:
        sim.endLogging()
        vis.kill()
    message = "klampt_sim: simulated %.3f s" % sim.getTime()
    if recorder is not None:
        message += ", %d frames in %s" % (recorder.count, args.record)
    print(message)
    return 0


if __name__ == '__main__':
    sys.exit(main())
