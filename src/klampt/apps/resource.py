"""``klampt_resource``: operations on Klamp't resource files, one
subcommand each: ``thumbnail`` (a PNG image), ``extract`` (one milestone
of a path or list of configurations), ``timescale`` (scale, reverse or
shift a path's timing), ``combine`` (concatenate paths, configurations or
geometries), ``convert`` (to another type, or JSON) and ``info``."""
import copy
import json
import os
import sys

from klampt import Geometry3D, WorldModel
from klampt.io import loader, resource
from klampt.model import types
from klampt.model.trajectory import Trajectory

from . import _cli

EPILOG = """examples:
  klampt_resource thumbnail data/worlds/arm_table.xml                 (arm_table_thumb.png)
  klampt_resource thumbnail --world data/worlds/arm_table.xml home.config home.png
  klampt_resource extract wave.path -1 last.config
  klampt_resource timescale wave.path 2 slow.path                     (twice as long)
  klampt_resource timescale wave.path -1 back.path                    (reversed)
  klampt_resource combine a.path b.path ab.path
  klampt_resource convert poses.configs Trajectory poses.path
  klampt_resource convert wave.path json
  klampt_resource info wave.path
The reference's options work too: --thumbnails, --extract INDEX, --timescale SCALE,
--timeshift SHIFT, --convert TYPE, --combine, --info, -w WORLD, --stdout."""

PATH_TYPES = ('Configs', 'Trajectory', 'SE3Trajectory', 'SO3Trajectory', 'MultiPath')
"""The types extract and timescale accept."""


# The reference's spelling: one option names the operation (its argument
# first), then INPUT [OUTPUT].
UPSTREAM_OPERATIONS = {'--thumbnails': 'thumbnail', '--info': 'info', '--combine': 'combine',
                       '--convert': 'convert', '--extract': 'extract', '--timescale': 'timescale',
                       '--timeshift': 'timescale'}


def from_upstream_options(argv):
    """The reference's command line (``--thumbnails INPUT``, ``--extract
    INDEX INPUT``, ``--timescale SCALE [--timeshift SHIFT] INPUT``,
    ``--convert TYPE INPUT``, ``--combine``, ``--info``, ``-w WORLD``, with
    an optional OUTPUT) in this program's subcommand form; other command
    lines are returned unchanged. ValueError for the reference's
    ``--transfer``/``-r``, which this program does not offer."""
    if not any(a in UPSTREAM_OPERATIONS or a == '--transfer' for a in argv):
        return argv
    options, rest, values = [], [], {}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('--transfer', '-r', '--robot'):
            raise ValueError("klampt_resource: %s (moving paths to another robot) is not offered" % a)
        if a in ('-w', '--world'):
            options += ['--world', argv[i + 1]]
            i += 2
        elif a == '--stdout':
            options.append(a)
            i += 1
        elif a in ('--convert', '--extract', '--timescale', '--timeshift'):
            values[a] = argv[i + 1]
            i += 2
        elif a in UPSTREAM_OPERATIONS:
            values[a] = None
            i += 1
        else:
            rest.append(a)
            i += 1
    commands = {UPSTREAM_OPERATIONS[a] for a in values}
    if len(commands) != 1:
        raise ValueError("klampt_resource: give one operation of " + ", ".join(sorted(UPSTREAM_OPERATIONS)))
    command = commands.pop()
    if command == 'extract':
        rest = rest[:1] + [values['--extract']] + rest[1:]
    elif command == 'convert':
        rest = rest[:1] + [values['--convert']] + rest[1:]
    elif command == 'timescale':
        rest = rest[:1] + [values.get('--timescale') or '1'] + rest[1:]
        if values.get('--timeshift') is not None:
            options += ['--shift', values['--timeshift']]
    return [command] + rest + options


def parse_args(argv):
    """The parser and the parsed arguments (the reference's option form is
    accepted too, see :func:`from_upstream_options`)."""
    parser = _cli.make_parser('klampt_resource', "Operates on Klamp't resource files.", EPILOG)
    try:
        argv = from_upstream_options(list(sys.argv[1:] if argv is None else argv))
    except ValueError as e:
        parser.error(str(e))
    sub = parser.add_subparsers(dest='command', metavar='COMMAND', required=True)

    def command(name, help):
        p = sub.add_parser(name, help=help, description=help)
        p.add_argument('--world', metavar='WORLD', help="reference world, robot, object or terrain file")
        p.add_argument('--stdout', action='store_true', help="print the result instead of saving it")
        return p

    p = command('thumbnail', "render an image of a world, robot, object or resource (a configuration poses the "
                             "reference world's first robot)")
    p.add_argument('input', metavar='INPUT')
    p.add_argument('output', metavar='OUTPUT', nargs='?', help="PNG file (default INPUT_thumb.png)")
    p.add_argument('--size', default='128x96', metavar='WxH', help="image size (default 128x96)")
    p = command('extract', "save milestone INDEX of a path or list of configurations (negative: from the end)")
    p.add_argument('input', metavar='INPUT')
    p.add_argument('index', metavar='INDEX', type=int)
    p.add_argument('output', metavar='OUTPUT', nargs='?', help="default INPUT_extracted with the type's extension")
    p = command('timescale', "scale the timing of a path about its start time (SCALE < 0 also reverses it), then "
                             "shift it by --shift")
    p.add_argument('input', metavar='INPUT')
    p.add_argument('scale', metavar='SCALE', type=float)
    p.add_argument('output', metavar='OUTPUT', nargs='?', help="default INPUT_timescaled with the type's extension")
    p.add_argument('--shift', type=float, default=0.0, help="seconds added to every time (default 0)")
    p = command('combine', "concatenate paths or lists of configurations, collect configurations into a list, or "
                           "group geometries")
    p.add_argument('files', metavar='FILE', nargs='+', help="the inputs, then the output")
    p = command('convert', "convert to another type (e.g. Configs <-> Trajectory, geometry types) or to JSON")
    p.add_argument('input', metavar='INPUT')
    p.add_argument('type', metavar='TYPE', help="a type name, or json")
    p.add_argument('output', metavar='OUTPUT', nargs='?', help="default INPUT with the type's extension")
    p = command('info', "print what a resource holds")
    p.add_argument('input', metavar='INPUT')
    return parser, parser.parse_args(argv)


def read(fn, world=None):
    """The object in a file: robots, objects and terrains as elements of a
    world (``world``, else a new one), world files as a WorldModel, others
    through klampt.io.loader."""
    if not os.path.exists(fn):
        raise IOError("%s: no such file" % fn)
    ext = os.path.splitext(fn)[1].lower()
    if ext in _cli.WORLD_ELEMENT_EXTENSIONS:
        world = world if world is not None else WorldModel()
        index = world.loadElement(fn)
        if index < 0:
            raise IOError("%s: could not be read" % fn)
        return world
    if ext == '.json':
        return loader.load('json', fn)
    return loader.load('auto', fn)


def _type(obj, world=None):
    return types.object_to_type(obj, world=world)


def thumbnail(obj, size, world):
    """A PIL image of obj, drawn in world when given; a configuration of
    the world's first robot poses that robot."""
    if isinstance(obj, WorldModel):
        return resource.thumbnail(obj, size)
    if world is not None and world.numRobots() > 0 and _type(obj, world) == 'Config' and \
            len(obj) == world.robot(0).numLinks():
        world.robot(0).setConfig(list(obj))
        return resource.thumbnail(world, size)
    return resource.thumbnail(obj, size, world=world)


def extract(obj, index):
    """Milestone ``index`` of a path-like object."""
    t = _type(obj)
    if t not in PATH_TYPES:
        raise ValueError("extract needs a path or a list of configurations, not a %s" % t)
    milestones = obj if t == 'Configs' else (obj.getTrajectory().milestones if t == 'MultiPath' else obj.milestones)
    if not -len(milestones) <= index < len(milestones):
        raise ValueError("index %d is out of range: there are %d milestones" % (index, len(milestones)))
    return list(milestones[index])


def _scaled(times, scale, shift):
    t0, t1 = times[0], times[-1]
    if scale >= 0:
        return [t0 + shift + scale * (t - t0) for t in times]
    return [t0 + shift - scale * (t1 - t) for t in reversed(times)]


def timescale(obj, scale, shift):
    """A copy of a path-like object whose times t become t0 + shift +
    scale (t - t0) (t0: the start time); a negative scale also reverses
    the path. A list of configurations gets the times 0, 1, 2 ... first
    (unless scale is -1 and there is no shift: then it is just reversed)."""
    t = _type(obj)
    if t not in PATH_TYPES:
        raise ValueError("timescale needs a path or a list of configurations, not a %s" % t)
    if scale == 0:
        raise ValueError("SCALE must not be 0")
    if t == 'Configs':
        if scale == -1 and shift == 0:
            return [list(q) for q in reversed(obj)]
        obj = Trajectory(list(range(len(obj))), [list(q) for q in obj])
    obj = copy.deepcopy(obj)
    if t == 'MultiPath':
        if not obj.hasTiming():
            raise ValueError("the MultiPath has no timing to scale")
        if scale < 0:
            raise ValueError("reversing a MultiPath is not supported")
        start = obj.startTime()
        for s in obj.sections:
            s.times = [start + shift + scale * (x - start) for x in s.times]
        return obj
    if not obj.times:
        raise ValueError("the path is empty")
    milestones = obj.milestones if scale >= 0 else obj.milestones[::-1]
    obj.times, obj.milestones = _scaled(obj.times, scale, shift), [list(m) for m in milestones]
    return obj


def combine(objs, world=None):
    """Concatenated paths (each following the previous one's end) or lists
    of configurations, configurations collected in a list, or geometries
    grouped in one Geometry3D."""
    kinds = [_type(o, world) for o in objs]
    if len(set(kinds)) != 1:
        raise ValueError("can't combine objects of different types: %s" % ', '.join(kinds))
    kind = kinds[0]
    if kind == 'Geometry3D':
        return Geometry3D([o.copy() for o in objs])
    if kind in ('Config', 'Vector3', 'Vector2'):
        return [list(o) for o in objs]
    if kind == 'Configs':
        res = [list(q) for q in objs[0]]
        for o in objs[1:]:
            res += [list(q) for q in (o[1:] if list(o[0]) == res[-1] else o)]
        return res
    if kind in ('Trajectory', 'SE3Trajectory', 'SO3Trajectory'):
        res = objs[0]
        for o in objs[1:]:
            res = res.concat(o, relative=True, jumpPolicy='jump')
        return res
    if kind == 'MultiPath':
        res = copy.deepcopy(objs[0])
        for o in objs[1:]:
            res.concat(o)
        return res
    raise ValueError("can't combine objects of type %s" % kind)


def convert(obj, type):
    """obj converted to ``type`` (a type name; 'json' keeps it as is, for
    saving as JSON)."""
    if type.lower() == 'json':
        return obj
    return types.convert(obj, type)


def default_output(input, suffix, obj, world=None, type=None):
    """INPUT's name with ``suffix`` and the extension of obj's type."""
    base = os.path.splitext(input)[0]
    if type is not None and type.lower() == 'json':
        return base + suffix + '.json'
    kind = type or _type(obj, world)
    extensions = loader.TYPE_TO_EXTENSIONS.get(kind)
    if not extensions:
        raise ValueError("there is no file extension for a %s: give OUTPUT" % kind)
    return base + suffix + extensions[0]


def write(obj, fn, as_json=False):
    """Saves obj to fn (as JSON if asked or if fn ends with .json)."""
    folder = os.path.dirname(fn)
    if folder:
        os.makedirs(folder, exist_ok=True)
    loader.save(obj, 'json' if as_json or fn.lower().endswith('.json') else 'auto', fn)


def run(args):
    """Performs the subcommand; returns the exit status."""
    world = None
    if args.world:
        world = WorldModel()
        _cli.load_world_files(world, [args.world])
    if args.command == 'thumbnail':
        image = thumbnail(read(args.input), (args.width, args.height), world)
        out = args.output or os.path.splitext(args.input)[0] + '_thumb.png'
        image.save(out)
        print("klampt_resource: saved the thumbnail of %s to %s" % (args.input, out))
        return 0
    if args.command == 'info':
        for key, value in types.info(read(args.input, world), world).items():
            print("%s: %s" % (key, value))
        return 0
    as_json = False
    if args.command == 'extract':
        res = extract(read(args.input), args.index)
        out = args.output or default_output(args.input, '_extracted', res, world)
    elif args.command == 'timescale':
        res = timescale(read(args.input), args.scale, args.shift)
        out = args.output or default_output(args.input, '_timescaled', res, world)
    elif args.command == 'combine':
        if len(args.files) < 3 and not args.stdout:
            raise ValueError("combine needs at least two inputs and an output")
        inputs = args.files if args.stdout else args.files[:-1]
        res = combine([read(f) for f in inputs], world)
        out = None if args.stdout else args.files[-1]
    else:
        res = convert(read(args.input), args.type)
        as_json = args.type.lower() == 'json'
        out = args.output or default_output(args.input, '', res, world, args.type)
        if os.path.abspath(out) == os.path.abspath(args.input):
            out = default_output(args.input, '_converted', res, world, args.type)
    if args.stdout:
        kind = _type(res, world)
        if as_json or kind not in loader.writers:
            print(json.dumps(loader.to_json(res)))
        else:
            print(loader.write(res, kind))
        return 0
    write(res, out, as_json)
    print("klampt_resource: saved the result to", out)
    return 0


def main(argv=None):
    """Runs klampt_resource with the command line ``argv`` (default
    sys.argv[1:]); returns the exit status."""
    parser, args = parse_args(argv)
    if args.command == 'thumbnail':
        _cli.parse_size(parser, args)
    try:
        return run(args)
    except (IOError, ValueError, RuntimeError) as e:
        print("klampt_resource %s: %s" % (args.command, e), file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
