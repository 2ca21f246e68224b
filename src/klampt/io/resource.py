"""Named resources stored as files in a resource directory (by default
``resources/`` under the current working directory): :func:`get` loads one,
:func:`set` saves one.  Files are read and written with
:mod:`klampt.io.loader`, so a resource's type follows from its file
extension (``.config``, ``.path``, ``.xform``, ``.json`` ...).

Editing resources on the console is supported (:func:`console_edit`);
visual editing opens the Qt dialogs of :mod:`klampt.vis.editors` (it needs
``pip install klampt[qt]`` and a display, else raises RuntimeError);
thumbnails render offscreen; the file dialogs of :func:`load` and
:func:`save` are not available and raise RuntimeError.

Don't use ``from klampt.io.resource import *``: it would hide the builtin
``set``.
"""
import builtins
import os

from . import loader

_directory = 'resources'


def get_directory():
    """The current resource directory."""
    return _directory


def set_directory(value):
    """Changes the resource directory."""
    global _directory
    _directory = value


def known_extensions():
    """All known resource file extensions."""
    return list(loader.EXTENSION_TO_TYPES.keys())


def known_types():
    """All known resource types."""
    res = []
    for types in loader.EXTENSION_TO_TYPES.values():
        res += types
    return res + ['Point', 'Rotation', 'Matrix3', 'ContactPoint']


def visual_edit_types():
    """Types that the visual editor of klampt.vis can edit."""
    return ['Config', 'Configs', 'Trajectory', 'Vector3', 'Point', 'RigidTransform', 'Rotation', 'WorldModel']


def _path(name, directory):
    return os.path.join(directory if directory is not None else _directory, name)


def _resolve_type(name, type, value=None):
    if type != 'auto':
        return type
    ext = os.path.splitext(name)[1].lower()
    if ext == '.json':
        return 'json'
    if ext in loader.EXTENSION_TO_TYPES:
        return loader.filename_to_type(name)
    if value is not None:
        from ..model import types
        t = types.object_to_type(value)
        if t is not None:
            return t
    raise RuntimeError("Can't determine the type of resource %r; give a file extension or a type" % name)


def get(name, type='auto', directory=None, default=None, doedit='auto', description=None, editor='visual',
        world=None, referenceObject=None, frame=None):
    """Loads the resource ``name`` from the resource directory (or
    ``directory``).

    If it does not exist: with doedit=False, RuntimeError; with
    doedit='auto' and the visual editor (unavailable without klampt.vis),
    default is returned; otherwise the value (default, or a default of the
    type) is edited with :func:`edit` and saved if the edit is accepted.  If the resource exists
    and doedit is True, it is edited before being returned.

    Returns:
        the object, or default if the resource doesn't exist and the edit
        was cancelled.
    """
    fn = _path(name, directory)
    rtype = _resolve_type(name, type)
    if os.path.exists(fn):
        value = loader.load(rtype, fn)
        if doedit is not True:
            return value
    else:
        if doedit is False:
            raise RuntimeError("Resource %s does not exist" % fn)
        if doedit == 'auto' and editor == 'visual':
            return default
        value = default
        if value is None and rtype not in ('json', 'xml'):
            from ..model import types
            value = types.make(rtype, referenceObject)
    ok, result = edit(name, value, rtype if rtype not in ('json', 'xml') else 'auto', description, editor, world,
                      referenceObject, frame)
    if ok:
        set(name, result, type, directory)
        return result
    return default if not os.path.exists(fn) else value


def set(name, value, type='auto', directory=None):
    """Saves value as the resource ``name`` (creating directories as
    needed).  The type comes from the file extension, else from the value.
    Returns True on success."""
    fn = _path(name, directory)
    rtype = _resolve_type(name, type, value)
    folder = os.path.dirname(fn)
    if folder and not os.path.isdir(folder):
        os.makedirs(folder)
    return loader.save(value, rtype, fn)


class FileGetter(object):
    """A file dialog (needs the Qt backend of klampt.vis)."""

    def __init__(self, title='Open file'):
        self.title = title
        self.directory = ''
        self.filetypes = []
        self.result = None

    def getOpen(self):
        """The open-file dialog: always raises RuntimeError, as file dialogs
        need a klampt.vis GUI that this implementation does not provide."""
        _need_gui('file dialogs')

    def getSave(self):
        """The save-file dialog: always raises RuntimeError, as file dialogs
        need a klampt.vis GUI that this implementation does not provide."""
        _need_gui('file dialogs')


def _need_gui(what):
    raise RuntimeError("%s need the klampt.vis GUI, which is not available in this installation" % what.capitalize())


def load(type=None, directory=None):
    """Asks the user for a resource file in a dialog (needs klampt.vis)."""
    _need_gui('file dialogs')


def save(value, type='auto', directory=None):
    """Asks the user where to save a resource in a dialog (needs
    klampt.vis)."""
    _need_gui('file dialogs')


def thumbnail(value, size, type='auto', world=None, frame=None):
    """An image of the resource, rendered offscreen at ``size`` (w, h):
    a PIL RGB image (a uint8 h x w x 3 array without Pillow). The value is
    drawn in ``world`` when given (configurations pose its robot), in
    ``frame`` (an se3 element) when given, with the camera fitted to it."""
    from ..vis._window import Window
    from ..vis.backends.offscreen import render_offscreen
    window = Window('thumbnail')
    window.width, window.height = int(size[0]), int(size[1])
    scene = window.scene
    if world is not None:
        scene.add('world', world)
    kwargs = {} if type == 'auto' else {'type': type}
    if frame is not None and type in ('Vector3', 'Point'):
        from ..math import se3
        value = se3.apply(frame, value)
    scene.add('thumbnail', value, hide_label=True, **kwargs)
    scene.autoFitCamera()
    rgb, _ = render_offscreen(window)
    scene.clear()
    try:
        from PIL import Image
    except ImportError:
        return rgb
    return Image.fromarray(rgb, 'RGB')


def console_edit(name, value, type, description=None, world=None, frame=None):
    """Edits a value on the console: prints it in its text format and reads
    a replacement line (empty keeps the value).  Returns (True, value)."""
    print("*** Editing %s %s ***" % (type, name if name is not None else 'Anonymous'))
    if description is not None:
        print(description)
    if value is not None:
        print("Current value:", loader.write(value, type))
    text = builtins.input("New value (empty to keep): ").strip()
    if not text:
        return True, value
    return True, loader.read(type, text)


def edit(name, value, type='auto', description=None, editor='visual', world=None, referenceObject=None, frame=None):
    """Edits a value; returns (accepted, value): accepted is True when the
    user pressed OK, and value is then the edited value (else the value
    given).  editor='console' reads it from the console; 'visual' shows a
    Qt dialog (:mod:`klampt.vis.editors`) over ``world``: configurations
    (of ``referenceObject``, a robot of the world, or its first robot),
    lists of them, trajectories, points and transforms (relative to
    ``frame``, an se3 element, when given), rotations and worlds."""
    if type == 'auto':
        if value is None:
            raise ValueError("edit needs a value or a type")
        from ..model import types
        type = types.object_to_type(value)
    if editor == 'console':
        return console_edit(name, value, type, description, world, frame)
    if editor == 'visual':
        return _visual_edit(name, value, type, description, world, referenceObject, frame)
    raise ValueError("editor must be 'visual' or 'console'")


def _visual_edit(name, value, type, description, world, referenceObject, frame):
    from ..vis import editors
    if type in ('Config', 'Configs', 'Trajectory') and (world is None or world.numRobots() == 0):
        raise ValueError("Visual editing of a %s needs a world with a robot" % type)
    if type == 'Config':
        e = editors.ConfigEditor(name, value, description, world, referenceObject)
    elif type == 'Configs':
        e = editors.ConfigsEditor(name, value, description, world, referenceObject)
    elif type == 'Trajectory':
        e = editors.TrajectoryEditor(name, value, description, world, referenceObject)
    elif type in ('Vector3', 'Point'):
        e = editors.PointEditor(name, value, description, world, frame)
    elif type in ('RigidTransform', 'Rotation'):
        e = editors.RigidTransformEditor(name, value, description, world, frame, translation=type != 'Rotation')
    elif type == 'WorldModel':
        e = editors.WorldEditor(name, value, description)
    else:
        raise ValueError("Visual editing of objects of type %s is not supported" % type)
    from ..vis.backends import qt_window
    try:
        qt_window.usable_binding()
    except (ImportError, RuntimeError) as error:
        raise RuntimeError("Visual editing needs the klampt.vis GUI (Qt windows), not usable here: %s"
                           % error) from None
    return editors.run(e)


getDirectory = get_directory
setDirectory = set_directory
knownExtensions = known_extensions
knownTypes = known_types
visualEditTypes = visual_edit_types
