"""Named resources stored as files in a resource directory (by default
``resources/`` under the current working directory): :func:`get` loads one,
:func:`set` saves one.  Files are read and written with
:mod:`klampt.io.loader`, so a resource's type follows from its file
extension (``.config``, ``.path``, ``.xform``, ``.json`` ...).

Editing resources on the console is supported (:func:`console_edit`);
visual editing opens the Qt dialogs of :mod:`klampt.vis.editors`, and
:func:`load` and :func:`save` ask for a file name in a Qt file dialog
(both need ``pip install klampt[qt]`` and a display, else raise
RuntimeError); :func:`get` opens the editor for a missing resource only
when Qt can show it. Thumbnails render offscreen. The dialogs and
thumbnails are drawn by klampt.vis, which this module reaches through
:func:`klampt._providers.provider` (io imports nothing from vis).

Don't use ``from klampt.io.resource import *``: it would hide the builtin
``set``.
"""
from ..robotsim import (IKObjective, RigidObjectModel, RobotModel, RobotModelLink,  # noqa: F401  (Klamp't's module has them)
                        WorldModel)
import builtins
import os

from .. import _providers
from ..model import types
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
    for extension_types in loader.EXTENSION_TO_TYPES.values():
        res += extension_types
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
        t = types.object_to_type(value)
        if t is not None:
            return t
    raise RuntimeError("Can't determine the type of resource %r; give a file extension or a type" % name)


def get(name, type='auto', directory=None, default=None, doedit='auto', description=None, editor='visual',
        world=None, referenceObject=None, frame=None):
    """Loads the resource ``name`` from the resource directory (or
    ``directory``).

    If it does not exist: with doedit=False, RuntimeError; with
    doedit='auto' and the visual editor, the editor opens when Qt can show
    it and the type is one of :func:`visual_edit_types`, else default is
    returned; otherwise the value (default, or a default of the type, sized
    for ``referenceObject`` or the world's first robot) is edited with
    :func:`edit` and saved if the edit is accepted. If the resource exists
    and doedit is True, it is edited before being returned (and saved if
    accepted).

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
        if doedit == 'auto' and editor == 'visual' and not (rtype in visual_edit_types() and _gui_usable()):
            return default
        value = default
        if value is None and rtype not in ('json', 'xml'):
            reference = referenceObject
            if reference is None and world is not None and world.numRobots() > 0:
                reference = world.robot(0)
            value = types.make(rtype, reference)
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
    """A file dialog of the Qt backend of klampt.vis.

    Attributes:
        title (str): the dialog's title.
        directory (str): the folder it shows first.
        filetypes (list): (description, [extensions]) pairs offered as
            filters (an "All files" filter is always added).
        result (str or None): the chosen path after :meth:`getOpen` or
            :meth:`getSave`, None after Cancel.
    """

    def __init__(self, title='Open file'):
        self.title = title
        self.directory = ''
        self.filetypes = []
        self.result = None

    def _filters(self):
        filters = ["%s (%s)" % (desc, " ".join("*" + ext for ext in exts)) for desc, exts in self.filetypes]
        return filters + ["All files (*)"]

    def _ask(self, save):
        suffix = next((exts[0] for _, exts in self.filetypes if exts), None)
        dialog = _providers.provider('resource.file_dialog')
        self.result = dialog(save, self.title, self.directory, self._filters(), suffix)
        return self.result

    def getOpen(self):
        """Asks for an existing file; returns (and keeps in ``result``) its
        path, or None on Cancel. RuntimeError without a usable Qt GUI."""
        return self._ask(False)

    def getSave(self):
        """Asks for a file to write; returns (and keeps in ``result``) its
        path, or None on Cancel. RuntimeError without a usable Qt GUI."""
        return self._ask(True)


def _gui_usable():
    try:
        _providers.provider('resource.gui_binding')('The visual editor')
    except RuntimeError:
        return False
    return True


def _file_types(type):
    return [(type, loader.TYPE_TO_EXTENSIONS.get(type, []) + ['.json'])]


def load(type=None, directory=None):
    """Asks the user for a resource file in a Qt file dialog, starting in
    the resource directory (or ``directory``), and loads it.

    Args:
        type (str, optional): the type to read; the dialog offers its file
            extensions and .json. If None, the type follows from the
            extension of the chosen file.

    Returns:
        (file name, value), or None if the dialog was cancelled.
        RuntimeError when no Qt GUI can be shown.
    """
    getter = FileGetter('Open resource')
    getter.directory = directory if directory is not None else _directory
    if type is not None:
        getter.filetypes = _file_types(type)
    fn = getter.getOpen()
    if fn is None:
        return None
    if os.path.splitext(fn)[1].lower() == '.json':
        type = 'json'
    return fn, get(fn, type if type is not None else 'auto', directory='', doedit=False)


def save(value, type='auto', directory=None):
    """Asks the user in a Qt file dialog where to save a resource, starting
    in the resource directory (or ``directory``), and saves it there.

    Args:
        value: the object.
        type (str): its type, or 'auto' to find it from the value; the
            dialog offers the type's file extensions and .json.

    Returns:
        the file name, or None if the dialog was cancelled.
        RuntimeError when no Qt GUI can be shown.
    """
    typelist = types.object_to_types(value) if type == 'auto' else type
    if isinstance(typelist, str):
        typelist = [typelist]
    getter = FileGetter('Save resource')
    getter.directory = directory if directory is not None else _directory
    for t in typelist:
        getter.filetypes += _file_types(t)
    fn = getter.getSave()
    if fn is None:
        return None
    if os.path.splitext(fn)[1].lower() == '.json':
        type = 'json'
    return fn if set(fn, value, type, directory='') else None


def thumbnail(value, size, type='auto', world=None, frame=None):
    """An image of the resource, rendered offscreen at ``size`` (w, h):
    a PIL RGB image (a uint8 h x w x 3 array without Pillow). The value is
    drawn in ``world`` when given (configurations pose its robot), in
    ``frame`` (an se3 element) when given, with the camera fitted to it."""
    return _providers.provider('resource.thumbnail')(value, size, type, world, frame)


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
        type = types.object_to_type(value)
    if editor == 'console':
        return console_edit(name, value, type, description, world, frame)
    if editor == 'visual':
        visual_edit = _providers.provider('resource.visual_edit')
        return visual_edit(name, value, type, description, world, referenceObject, frame)
    raise ValueError("editor must be 'visual' or 'console'")


getDirectory = get_directory
setDirectory = set_directory
knownExtensions = known_extensions
knownTypes = known_types
visualEditTypes = visual_edit_types
