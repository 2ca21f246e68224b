"""The interactive windows that the reference's API offers from lower
layers, written with klampt.vis: :mod:`klampt.io.resource`'s visual editors,
file dialogs and thumbnails, and
:meth:`klampt.model.calibrate.RobotExtrinsicCalibration.visualize`. The
lower modules reach them through :func:`klampt._providers.provider`."""
from .. import vis  # the package, whose functions users (and tests) may replace
from ..math import se3
from . import editors
from ._window import Window
from .backends.qt_dialogs import file_dialog as qt_file_dialog
from .backends.qt_platform import usable_binding
from .backends.offscreen import render_offscreen


def gui_binding(what):
    """The Qt binding the GUI dialogs use; RuntimeError saying that
    ``what`` needs it when Qt cannot open windows here."""
    try:
        return usable_binding()
    except (ImportError, RuntimeError) as error:
        raise RuntimeError("%s needs the klampt.vis GUI (Qt windows), not usable here: %s"
                           % (what, error)) from None


def file_dialog(save, title, directory, filters, suffix):
    """A Qt file dialog (see :func:`klampt.vis.backends.qt_dialogs.file_dialog`):
    the chosen path, or None on Cancel. RuntimeError without a usable Qt GUI."""
    binding = gui_binding('A file dialog')
    return qt_file_dialog(save, title, directory, filters, suffix, binding.name)


def thumbnail(value, size, type='auto', world=None, frame=None):
    """See :func:`klampt.io.resource.thumbnail`."""
    window = Window('thumbnail')
    window.width, window.height = int(size[0]), int(size[1])
    scene = window.scene
    if world is not None:
        scene.add('world', world)
    kwargs = {} if type == 'auto' else {'type': type}
    if frame is not None and type in ('Vector3', 'Point'):
        value = se3.apply(frame, value)
    scene.add('thumbnail', value, hide_label=True, **kwargs)
    scene.autoFitCamera()
    rgb, _ = render_offscreen(window)
    scene.clear()
    try:
        from PIL import Image  # optional: without Pillow the array is the thumbnail
    except ImportError:
        return rgb
    return Image.fromarray(rgb, 'RGB')


def visual_edit(name, value, type, description, world, referenceObject, frame):
    """The visual branch of :func:`klampt.io.resource.edit`: (accepted, value)."""
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
    gui_binding('Visual editing')
    return editors.run(e)


def show_and_edit(items, editable):
    """Shows ``items`` (name -> object, in order) in klampt.vis until the
    window closes, the ``editable`` names with a pose widget; returns the
    editable items' values after the user moved them (transforms as (R, t),
    points as lists)."""
    for name, value in items.items():
        vis.add(name, value)
        if name in editable:
            vis.edit(name)
    vis.loop()
    out = {}
    for name in editable:
        # vis gives transforms as 12 numbers (R then t), points as 3
        x = list(vis.getItemConfig(name))
        out[name] = (x[:9], x[9:]) if len(x) == 12 else x
    return out
