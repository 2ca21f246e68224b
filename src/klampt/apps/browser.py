"""``klampt_browser``: opens Klamp't worlds, robots, objects, terrains,
geometries, paths and configurations in one view, where the camera can be
moved around and paths play on the first robot. ``--screenshot`` renders
the view to a PNG without a window."""
import os
import sys

from klampt import WorldModel
from klampt.io import loader
from klampt.model.multipath import MultiPath
from klampt.model.trajectory import RobotTrajectory, SE3Trajectory, Trajectory

from . import _cli

EPILOG = """examples:
  klampt_browser data/worlds/arm_table.xml
  klampt_browser data/robots/arm6.rob home.config wave.path
  klampt_browser --backend viser data/worlds/arm_table.xml   (then open the printed address)
  klampt_browser --screenshot view.png data/worlds/arm_table.xml

keys: p plays or pauses the paths, r restarts them, f fits the camera, q quits,
? lists the keys; drag rotates, ctrl+drag pans, shift+drag or the wheel zooms."""


def parse_args(argv):
    """The parser and the parsed arguments."""
    parser = _cli.make_parser(
        'klampt_browser', "Shows Klamp't worlds, robots, objects, terrains, geometries, paths and configurations; "
        "paths whose milestones match the first robot play on it.", EPILOG)
    parser.add_argument('files', nargs='*', metavar='FILE',
                        help="world (.xml), robot (.rob, .urdf), object (.obj), terrain (.env) or resource file "
                             "(.config, .configs, .path, .xform, .vector3, geometry, MultiPath .xml, .json ...)")
    parser.add_argument('--screenshot', metavar='PNG', help="render the view to PNG offscreen and quit")
    _cli.add_size_option(parser)
    _cli.add_display_options(parser)
    args = parser.parse_args(argv)
    _cli.parse_size(parser, args)
    return parser, args


def load_resource(fn):
    """The object in a resource file (RuntimeError, IOError or ValueError
    if it cannot be read)."""
    if not os.path.exists(fn):
        raise IOError("%s: no such file" % fn)
    if os.path.splitext(fn)[1].lower() == '.json':
        return loader.load('json', fn)
    return loader.load('auto', fn)


def load_files(world, files):
    """Reads world element files into ``world``; returns [(name, object)]
    of the other files, named by their base names."""
    resources = []
    for fn in files:
        if _cli.is_world_file(fn):
            _cli.load_world_files(world, [fn])
            continue
        name = os.path.basename(fn)
        while any(name == n for n, _ in resources):
            name += "'"
        resources.append((name, load_resource(fn)))
    return resources


def show_resources(world, resources):
    """Adds the world and the resources to the view: configurations as
    ghosts of the first robot, paths drawn and played (on the first robot
    when their milestones are its configurations, else on a point or a
    frame)."""
    from klampt import vis  # loads OpenGL: only when the app opens a window
    vis.add('world', world)
    robot = world.robot(0) if world.numRobots() > 0 else None
    for name, obj in resources:
        if isinstance(obj, MultiPath):
            if robot is None:
                raise ValueError("%s: a MultiPath needs a robot; give a robot or world file first" % name)
            vis.animate(('world', robot.getName()), obj)
            continue
        if isinstance(obj, Trajectory) and obj.milestones:
            d = len(obj.milestones[0])
            if robot is not None and d == robot.numLinks():
                obj = RobotTrajectory(robot, obj.times, obj.milestones)
                vis.add(name, obj)
                vis.animate(('world', robot.getName()), obj)
            elif d in (3, 12):
                path = obj if d == 3 else SE3Trajectory(obj.times, obj.milestones)
                vis.add(name, path)
                marker = name + ' (now)'
                vis.add(marker, path.eval(path.startTime()), hide_label=True)
                vis.animate(marker, path)
            else:
                print("klampt_browser: %s has %d-element milestones: not a configuration of the first robot, a "
                      "point or a transform; drawn only" % (name, d))
                vis.add(name, obj)
            continue
        if robot is not None and _is_configuration(obj, robot):
            vis.add(name, obj, color=(0.2, 0.8, 0.2, 0.5))
        else:
            vis.add(name, obj)


def _is_configuration(obj, robot):
    return isinstance(obj, (list, tuple)) and len(obj) == robot.numLinks() and \
        all(isinstance(v, (int, float)) for v in obj)


def add_keys():
    """The browser's key bindings (buttons in viser's panel)."""
    from klampt import vis  # loads OpenGL: only when the app opens a window
    playing = [True]

    def play_pause():
        playing[0] = not playing[0]
        vis.pauseAnimation(not playing[0])

    vis.addAction(play_pause, 'Play/pause paths', 'p', 'play or pause the paths')
    vis.addAction(lambda: vis.animationTime(0), 'Restart paths', 'r', 'play the paths from their start')
    vis.addAction(vis.autoFitCamera, 'Fit camera', 'f', 'aim the camera at everything shown')
    _cli.add_quit_key()


def main(argv=None):
    """Runs klampt_browser with the command line ``argv`` (default
    sys.argv[1:]); returns the exit status."""
    parser, args = parse_args(argv)
    from klampt import vis  # loads OpenGL: only when the app opens a window
    world = WorldModel()
    try:
        resources = load_files(world, args.files)
    except (IOError, ValueError, RuntimeError) as e:
        parser.error(str(e))
    backend = _cli.start_vis(args, "Klamp't browser", 'offscreen' if args.screenshot else None)
    if args.screenshot is None and _cli.is_headless(backend):
        vis.kill()
        parser.error("there is no display to show the view: use --backend viser (and open the printed address) "
                     "or --screenshot FILE")
    vis.resizeWindow(args.width, args.height)
    try:
        show_resources(world, resources)
    except ValueError as e:
        vis.kill()
        parser.error(str(e))
    vis.autoFitCamera()
    if args.screenshot:
        vis.screenshot('Image').save(args.screenshot)
        vis.kill()
        print("klampt_browser: saved the view to", args.screenshot)
        return 0
    add_keys()
    print("klampt_browser: p plays or pauses the paths, r restarts them, f fits the camera, q quits")
    _cli.run_window()
    return 0


if __name__ == '__main__':
    sys.exit(main())
