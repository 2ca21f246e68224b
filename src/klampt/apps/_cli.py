"""What the Klamp't apps share: their argument parsers and display options
(``--backend``, ``--port``), starting :mod:`klampt.vis` on the chosen
backend, the quit key, the window loop, and reading world element files."""
import argparse
import os

BACKENDS = {'auto': None, 'glfw': 'GLFW', 'qt': 'PyQt', 'viser': 'viser', 'offscreen': 'offscreen'}
"""``--backend`` choices and the klampt.vis backend each asks for (auto:
a window when there is a display, else offscreen)."""

WORLD_ELEMENT_EXTENSIONS = ('.rob', '.urdf', '.obj', '.env')
"""Extensions of the files a WorldModel loads as robots, objects and terrains."""


def make_parser(prog, description, epilog=None):
    """An ArgumentParser for an app, with its description and examples
    shown as written."""
    return argparse.ArgumentParser(prog=prog, description=description, epilog=epilog,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def add_display_options(parser):
    """Adds ``--backend`` and ``--port`` to an app's parser."""
    group = parser.add_argument_group('display')
    group.add_argument('--backend', choices=list(BACKENDS), default='auto',
                       help="where to show the view: a GLFW or Qt window, a browser through viser (for use over "
                            "SSH: forward the port), or offscreen (no view); default: a window when there is a "
                            "display, else offscreen")
    group.add_argument('--port', type=int, default=None,
                       help="port of the viser server on 127.0.0.1 (default $KLAMPT_VIS_PORT, else 8080 or the "
                            "next free one; 0: any free port)")


def add_size_option(parser):
    """Adds ``--size WxH`` (the view's size in pixels) to an app's parser."""
    parser.add_argument('--size', default='640x480', metavar='WxH', help="view size in pixels (default 640x480)")


def parse_size(parser, args):
    """Sets args.width and args.height from ``--size`` (a usage error if it
    is not WIDTHxHEIGHT with positive numbers)."""
    try:
        args.width, args.height = (int(v) for v in args.size.lower().split('x'))
        if args.width <= 0 or args.height <= 0:
            raise ValueError
    except ValueError:
        parser.error("--size must be WIDTHxHEIGHT, e.g. 640x480")


def start_vis(args, title, backend=None):
    """Initializes klampt.vis on ``backend`` (default: the one ``--backend``
    asks for) with a window titled ``title``; returns the backend's name."""
    if args.port is not None:
        if not 0 <= args.port < 65536:
            raise SystemExit("%s: --port must be in 0..65535" % title)
        os.environ['KLAMPT_VIS_PORT'] = str(args.port)
    from klampt import vis  # loads OpenGL: only when the app opens a window
    name = vis.init(backend if backend is not None else BACKENDS[args.backend])
    vis.setWindowTitle(title)
    return name


def is_headless(backend):
    """True for the backends that show nothing (offscreen, null)."""
    return backend in ('offscreen', 'null')


def add_quit_key():
    """Binds 'q' to closing the window (a 'Quit' button in viser's panel)."""
    from klampt import vis  # loads OpenGL: only when the app opens a window
    vis.addAction(lambda: vis.show(False), 'Quit', 'q', 'close the window and quit')


def run_window(callback=None):
    """Shows the window and calls ``callback()`` about 30 times a second
    until the user closes it (or presses q), then closes the visualization."""
    from klampt import vis  # loads OpenGL: only when the app opens a window
    try:
        vis.loop(callback=callback)  # loop shows the window (Qt: in this, the main, thread)
    finally:
        vis.kill()


def is_world_file(fn):
    """True for a file a WorldModel reads: a world XML file or a robot,
    object or terrain file (a .xml file is a world when its root element
    is <world>)."""
    ext = os.path.splitext(fn)[1].lower()
    if ext in WORLD_ELEMENT_EXTENSIONS:
        return True
    if ext != '.xml':
        return False
    import xml.etree.ElementTree as ET
    try:
        return ET.parse(fn).getroot().tag.lower() == 'world'
    except (ET.ParseError, OSError):
        return False


def load_world_files(world, files):
    """Reads each world, robot, object or terrain file into ``world``;
    raises ValueError naming a file that cannot be read."""
    for fn in files:
        if not os.path.exists(fn):
            raise ValueError("%s: no such file" % fn)
        if not world.loadFile(fn):
            raise ValueError("%s: could not be read as a world, robot, object or terrain file" % fn)
