"""``vis.edit``: the klampt widget that edits an item (PointPoser for points,
TransformPoser for transforms and frames, RobotPoser for robots and
configurations, ObjectPoser for rigid objects, and for GeometricPrimitives
PointPoser, SpherePoser, AABBPoser or BoxPoser by their type) and the
copying between the widget and the item."""
from klampt.math import se3, so3
from klampt import ObjectPoser, PointPoser, RobotPoser, TransformPoser, AABBPoser, BoxPoser, SpherePoser
from klampt.model import coordinates
from ._types import objectToVisType


def _names(item):
    return {c.__name__ for c in type(item).__mro__}


def make_editor(app, world):
    """A widget for the item, or None (with a warning) when it cannot be
    edited."""
    import warnings
    item = app.item
    names = _names(item)
    if 'RobotModel' in names:
        editor = RobotPoser(item)
    elif 'RigidObjectModel' in names:
        editor = ObjectPoser(item)
    elif isinstance(item, coordinates.Point):
        editor = PointPoser()
        editor.set(item.worldCoordinates())
    elif isinstance(item, coordinates.Frame):
        editor = TransformPoser()
        editor.set(*item.worldCoordinates())
    elif 'GeometricPrimitive' in names:
        editor = _primitive_poser(item)
        if editor is None:
            warnings.warn("klampt.vis.edit(): cannot edit GeometricPrimitives of type %s" % item.type)
            return None
    else:
        itype = app.attributes.get('type') or objectToVisType(item, world)
        if itype == 'Vector3':
            editor = PointPoser()
            editor.set(item)
        elif itype == 'RigidTransform':
            editor = TransformPoser()
            editor.set(*item)
        elif itype == 'Config' and world is not None and world.numRobots() > 0:
            robot = world.robot(int(app.attributes.get('robot', 0)))
            saved = robot.getConfig()
            robot.setConfig(list(item))
            editor = RobotPoser(robot)
            robot.setConfig(saved)
        else:
            warnings.warn("klampt.vis.edit(): cannot edit items of type %s" % (itype or type(item).__name__))
            return None
    editor._vis_item = app
    return editor


#: the widgets that draw the shape they edit
_SHAPE_POSERS = {'SpherePoser', 'AABBPoser', 'BoxPoser'}


def _primitive_poser(prim):
    """The widget editing a GeometricPrimitive of type Point, Sphere, AABB
    or Box (None for other types)."""
    poser = {'Point': PointPoser, 'Sphere': SpherePoser, 'AABB': AABBPoser, 'Box': BoxPoser}.get(prim.type)
    if poser is None:
        return None
    editor = poser()
    _primitive_to_poser(prim, editor)
    return editor


def _primitive_to_poser(prim, editor):
    p = list(prim.properties)
    if prim.type == 'Point':
        editor.set(p[:3])
    elif prim.type == 'Sphere':
        editor.set(p[:4])
    elif prim.type == 'AABB':
        editor.set(p[:3], p[3:6])
    else:
        editor.set(p[3:12], p[:3], p[12:15])


def _poser_to_primitive(editor, prim):
    if prim.type == 'Point':
        prim.setPoint(editor.get())
    elif prim.type == 'Sphere':
        cr = editor.get()
        prim.setSphere(cr[:3], cr[3])
    elif prim.type == 'AABB':
        prim.setAABB(*editor.get())
    else:
        R, t = editor.getTransform()
        prim.setBox(t, R, editor.getDims())


def sync(app, item_to_editor):
    """Copies the item's value into the editor (item_to_editor) or the
    editor's value into the item."""
    editor, item = app.editor, app.item
    names = _names(editor)
    if 'GeometricPrimitive' in _names(item):
        if item_to_editor:
            _primitive_to_poser(item, editor)
        else:
            _poser_to_primitive(editor, item)
        return
    if 'RobotPoser' in names:
        if isinstance(item, list):
            if item_to_editor:
                editor.set(item)
            else:
                item[:] = editor.get()
        elif item_to_editor:
            editor.set(item.getConfig())
        return
    if 'ObjectPoser' in names:
        return  # the poser moves the object itself
    if 'PointPoser' in names:
        if isinstance(item, coordinates.Point):
            if item_to_editor:
                editor.set(item.worldCoordinates())
            else:
                item._localCoordinates = _to_local(item.frame().worldCoordinates(), editor.get())
            return
        if item_to_editor:
            editor.set(item)
        elif isinstance(item, list):
            item[:] = editor.get()
        return
    if 'TransformPoser' in names:
        R, t = editor.get()
        if isinstance(item, coordinates.Frame):
            if item_to_editor:
                editor.set(*item.worldCoordinates())
            else:
                parent = item.parent()
                item._worldCoordinates = (list(R), list(t))
                item._relativeCoordinates = se3.mul(se3.inv(parent.worldCoordinates()), (R, t)) \
                    if parent is not None else (list(R), list(t))
            return
        if item_to_editor:
            editor.set(*item)
        elif isinstance(item, list) and len(item) == 2 and isinstance(item[0], list):
            item[0][:] = R
            item[1][:] = t
        else:
            app.item = (R, t)


def _to_local(T, p):
    R, t = T
    return so3.apply(so3.inv(R), [a - b for a, b in zip(p, t)])


def draws_item(app):
    """True if the editor draws the item itself (a robot poser draws the
    robot at the edited configuration, the shape posers their shape)."""
    return bool(_names(app.editor) & ({'RobotPoser'} | _SHAPE_POSERS))


def draw(app, world, view):
    """Draws the editor (with the item, for robot posers, in the item's
    color when it has one)."""
    if 'RobotPoser' in _names(app.editor):
        color = app.attributes.get('color')
        app.editor.color = list(color) if color is not None else None
    app.editor.drawGL(view.to_viewport())
