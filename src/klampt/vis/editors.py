"""Compatibility module: Klamp't's ``klampt.vis.editors``, the visual
editors of :func:`klampt.io.resource.edit`: each shows its value in a
window (over the world, when given) with the widgets to drag it (a robot's
links, a point's axes, a transform's axes and rings, a box's faces and
corners, a sphere's ring), the description and instructions, OK and
Cancel. :func:`run` shows one and returns ``(accepted, value)``: in a Qt
dialog (``pip install klampt[qt]``), or in a GLFW window whose panel holds
OK, Cancel and the editor's controls. Both need a display; importing this module loads no Qt or GLFW."""
from ..robotsim import (AABBPoser, Appearance, BoxPoser, Geometry3D, IKObjective,  # noqa: F401  (Klamp't's module has them)
                        ObjectPoser, PointPoser, RigidObjectModel, RobotModel,
                        RobotModelLink, RobotPoser, SpherePoser, TerrainModel,
                        TransformPoser, WidgetSet, WorldModel)
import copy

from klampt.math import se3, vectorops

from ._editor_dialog import panel_widget as _panel_widget, choose_gui, make_window, run_glfw, run_qt
from .glinterface import GLPluginInterface
from .backends.qt_platform import choose_binding
from klampt import GeometricPrimitive
from ._render.gl import gl
from klampt.model import sensing


class VisualEditorBase(GLPluginInterface):
    """An editor of one value, shown by :func:`run`; a plugin of the window
    it is shown in (its mouse and key hooks come before the scene's).

    Attributes:
        name (str): what is edited (shown in the title).
        value: the value; after an accepted edit, the edited value.
        description (str or None): shown above the view.
        world (WorldModel or None): drawn around the value.
        window (Window): the vis window of the dialog (made by :func:`run`).
    """

    def __init__(self, name, value, description, world):
        super().__init__()
        self.name = name
        self.value = value
        self.description = description
        self.world = world
        self.window = None
        self._saved = None

    def instructions(self):
        """A line telling how to edit (or None)."""
        return None

    def setup(self, scene):
        """Adds the world and the edited item to the dialog's scene."""
        if self.world is not None:
            self._saved = _world_state(self.world)
            scene.add('world', self.world)

    def addDialogItems(self, parent, ui='qt'):
        """Adds the editor's controls: with ui='qt', Qt widgets (under the
        view) to the QWidget ``parent``; with ui='glfw', widgets of the JSON
        GUI (the panel) to the Window ``parent``. None by default."""

    def editedValue(self):
        """The value as edited now."""
        return self.value

    def finish(self, accepted):
        """Called when the dialog closes: keeps the edited value if accepted,
        and puts the world back as it was."""
        if accepted:
            self.value = self.editedValue()
        if self._saved is not None:
            _restore_world(self.world, self._saved)

    def _edit(self, scene, name, item, **attributes):
        scene.add(name, item, hide_label=True, **attributes)
        app = scene.getItem(name)
        app.make_editor(scene.world())
        return app


def _world_state(world):
    return ([world.robot(i).getConfig() for i in range(world.numRobots())],
            [world.rigidObject(i).getTransform() for i in range(world.numRigidObjects())])


def _restore_world(world, state):
    configs, transforms = state
    for i, q in enumerate(configs):
        world.robot(i).setConfig(q)
    for i, T in enumerate(transforms):
        world.rigidObject(i).setTransform(*T)


def _robot_index(world, robot):
    if robot is None:
        return 0
    for i in range(world.numRobots()):
        if world.robot(i).getName() == robot.getName():
            return i
    raise ValueError("the robot is not in the world")


class ConfigEditor(VisualEditorBase):
    """Edits a robot configuration: drag the robot's links.

    Args:
        robot (RobotModel, optional): the world's robot to pose (its first
            by default).
    """

    def __init__(self, name, value, description, world, robot=None):
        if world is None or world.numRobots() == 0:
            raise ValueError("editing a Config needs a world with a robot")
        super().__init__(name, list(value), description, world)
        self.robot_index = _robot_index(world, robot)
        self.app = None

    def instructions(self):
        return "Drag the robot's links to pose it"

    def setup(self, scene):
        super().setup(scene)
        self.app = self._edit(scene, 'value', list(self.value), type='Config', robot=self.robot_index)

    def editedValue(self):
        self.app.update_editor(False)
        return list(self.app.item)


class ConfigsEditor(ConfigEditor):
    """Edits a list of configurations: one at a time (Index), with Insert
    (a copy after the current one) and Delete."""

    def __init__(self, name, value, description, world, robot=None):
        configs = [list(q) for q in value]
        first = configs[0] if configs else world.robot(_robot_index(world, robot)).getConfig()
        super().__init__(name, first, description, world, robot)
        self.configs = configs or [list(first)]
        self.index = 0
        self.spin = None
        self.panel = None

    def instructions(self):
        return "Drag the robot's links to pose it; Index picks the configuration"

    def _store(self):
        self.configs[self.index] = ConfigEditor.editedValue(self)

    def select(self, index):
        """Edits configuration ``index``."""
        self._store()
        self.index = max(0, min(int(index), len(self.configs) - 1))
        self.app.item[:] = self.configs[self.index]
        self.app.update_editor(True)
        if self.window is not None:
            self.window.refresh()

    def insert(self):
        """Inserts a copy of the current configuration after it."""
        self._store()
        self.configs.insert(self.index + 1, list(self.configs[self.index]))
        self._changed(self.index + 1)

    def delete(self):
        """Deletes the current configuration (one always stays)."""
        if len(self.configs) > 1:
            del self.configs[self.index]
            self.index = min(self.index, len(self.configs) - 1)
            self.app.item[:] = self.configs[self.index]
            self.app.update_editor(True)
        self._changed(self.index)

    def _changed(self, index):
        if self.spin is not None:
            self.spin.setRange(0, len(self.configs) - 1)
            self.spin.setValue(index)
        self.select(index)
        if self.panel is not None:
            self.panel.widgets['Index']['state'] = self.index

    def addDialogItems(self, parent, ui='qt'):
        if ui == 'glfw':
            self.panel = parent
            _panel_widget(parent, {'type': 'number', 'text': 'Index', 'state': self.index, 'step': 1},
                          lambda v: self._changed(int(v)))
            _panel_widget(parent, {'type': 'button', 'text': 'Insert'}, self.insert)
            _panel_widget(parent, {'type': 'button', 'text': 'Delete'}, self.delete)
            return
        QtWidgets = choose_binding().QtWidgets
        layout = QtWidgets.QHBoxLayout(parent)
        layout.addWidget(QtWidgets.QLabel("Index"))
        self.spin = QtWidgets.QSpinBox()
        self.spin.setRange(0, len(self.configs) - 1)
        self.spin.valueChanged.connect(self.select)
        layout.addWidget(self.spin)
        for text, slot in (("Insert", self.insert), ("Delete", self.delete)):
            button = QtWidgets.QPushButton(text)
            button.clicked.connect(lambda *args, slot=slot: slot())
            layout.addWidget(button)

    def editedValue(self):
        self._store()
        return [list(q) for q in self.configs]


class TrajectoryEditor(ConfigsEditor):
    """Edits a Trajectory's milestones as :class:`ConfigsEditor` does; an
    inserted milestone comes one second after the current one (times after
    it shift)."""

    def __init__(self, name, value, description, world, robot=None):
        self.trajectory = copy.deepcopy(value)
        super().__init__(name, self.trajectory.milestones, description, world, robot)
        self.times = list(self.trajectory.times) or [0.0]

    def insert(self):
        t = self.times[self.index]
        self.times = self.times[:self.index + 1] + [t + 1.0] + [s + 1.0 for s in self.times[self.index + 1:]]
        super().insert()

    def delete(self):
        if len(self.configs) > 1:
            del self.times[self.index]
        super().delete()

    def editedValue(self):
        self.trajectory.milestones = super().editedValue()
        self.trajectory.times = list(self.times)
        return self.trajectory


class PointEditor(VisualEditorBase):
    """Edits a 3D point: drag its axes. With ``frame`` (an se3 element)
    the point is given and returned in that frame's coordinates."""

    def __init__(self, name, value, description, world, frame=None):
        super().__init__(name, list(value), description, world)
        self.frame = frame
        self.app = None

    def instructions(self):
        return "Drag the point's axes to move it"

    def setup(self, scene):
        super().setup(scene)
        p = self.value if self.frame is None else se3.apply(self.frame, self.value)
        self.app = self._edit(scene, 'value', list(p), type='Vector3')

    def editedValue(self):
        self.app.update_editor(False)
        p = list(self.app.item)
        return p if self.frame is None else se3.apply(se3.inv(self.frame), p)


class RigidTransformEditor(VisualEditorBase):
    """Edits a rigid transform (R, t), or with ``translation=False`` a
    rotation (a 9-list): drag the axes to move, the rings to rotate. With
    ``frame``, the value is relative to that frame."""

    def __init__(self, name, value, description, world, frame=None, translation=True):
        self.translation = translation
        T = (list(value[0]), list(value[1])) if translation else (list(value), [0.0, 0.0, 0.0])
        super().__init__(name, T, description, world)
        self.transform = T
        self.frame = frame
        self.app = None

    def instructions(self):
        return "Drag the axes to move, the rings to rotate" if self.translation else "Drag the rings to rotate"

    def setup(self, scene):
        super().setup(scene)
        T = self.transform if self.frame is None else se3.mul(self.frame, self.transform)
        self.app = self._edit(scene, 'value', [list(T[0]), list(T[1])], type='RigidTransform', length=0.3)

    def editedValue(self):
        self.app.update_editor(False)
        R, t = self.app.item
        T = (list(R), list(t))
        if self.frame is not None:
            T = se3.mul(se3.inv(self.frame), T)
        return (list(T[0]), list(T[1])) if self.translation else list(T[0])

    def finish(self, accepted):
        super().finish(accepted)
        if not accepted and not self.translation:
            self.value = self.value[0]


class WorldEditor(VisualEditorBase):
    """Edits a world in place: drag the robots' links and the rigid
    objects; Cancel puts them back."""

    def __init__(self, name, value, description):
        super().__init__(name, value, description, value)

    def instructions(self):
        return "Drag the robots' links and the objects"

    def setup(self, scene):
        super().setup(scene)
        world = self.world
        for i in range(world.numRobots()):
            scene.getItem(('world', world.robot(i).getName())).make_editor(world)
        for i in range(world.numRigidObjects()):
            scene.getItem(('world', world.rigidObject(i).getName())).make_editor(world)

    def finish(self, accepted):
        if not accepted:
            _restore_world(self.world, self._saved)


def _primitive(kind, *args):
    prim = GeometricPrimitive()
    getattr(prim, 'set' + kind)(*args)
    return prim


class SelectionEditor(VisualEditorBase):
    """Edits a list of indices: links of ``robot``, or with no robot the
    IDs of the world's objects (``world.numIDs()``). A right click toggles
    what is under the mouse; '<' (or ',') deselects the last one clicked
    and steps back, '>' (or '.') steps forward and selects; Clear and Select
    all buttons and (in Qt) a list of the names. The selected are drawn in
    yellow, the last clicked in orange (selected) or red (not)."""

    def __init__(self, name, value, description, world, robot=None):
        if world is None and robot is None:
            raise ValueError("SelectionEditor needs a world or a robot")
        super().__init__(name, [int(i) for i in value], description, world)
        self.robot = robot
        self.selection = list(self.value)
        self.lastClicked = -1
        self.selectionList = None
        self._updating_list = False
        count = self.count()
        if any(i < 0 or i >= count for i in self.selection):
            raise ValueError("selection indices must be in [0, %d)" % count)

    def count(self):
        """The number of selectable items."""
        return self.robot.numLinks() if self.robot is not None else self.world.numIDs()

    def itemName(self, i):
        """The name of selectable item ``i``."""
        return self.robot.link(i).getName() if self.robot is not None else self.world.getName(i)

    def instructions(self):
        return ("Right-click to toggle the selection of robot links / objects in the world; "
                "keys < and > deselect the previous / select the next")

    def setup(self, scene):
        super().setup(scene)
        if self.world is None:
            scene.add('robot', self.robot)

    def _geometry(self, i):
        if self.robot is not None:
            geom = self.robot.link(i).geometry()
        else:
            try:
                geom = self.world.geometry(i)
            except ValueError:  # a robot's own ID has no geometry
                return None
        return None if geom is None or geom.empty() else geom

    def _appearance(self, i):
        return self.robot.link(i).appearance() if self.robot is not None else self.world.appearance(i)

    def pickItem(self, x, y):
        """The selectable item under pixel (x, y) (the nearest), or None."""
        s, d = self.click_ray(x, y)
        best = None
        for i in range(self.count()):
            geom = self._geometry(i)
            if geom is None:
                continue
            hit, pt = geom.rayCast(s, d)
            if hit:
                t = vectorops.dot(vectorops.sub(pt, s), d)
                if best is None or t < best[0]:
                    best = (t, i)
        return None if best is None else best[1]

    def toggle(self, i):
        """Selects item ``i`` if it is not, else deselects it."""
        if i in self.selection:
            self.selection.remove(i)
        else:
            self.selection.append(i)
        self._selection_changed()

    def clear(self):
        """Deselects everything."""
        self.selection = []
        self._selection_changed()

    def selectAll(self):
        """Selects everything."""
        self.selection = list(range(self.count()))
        self._selection_changed()

    def _selection_changed(self):
        if self.selectionList is not None:
            self._updating_list = True
            try:
                for row in range(self.selectionList.count()):
                    self.selectionList.item(row).setSelected(row in self.selection)
            finally:
                self._updating_list = False
        self.refresh()

    def _list_changed(self):
        if not self._updating_list:
            self.selection = sorted(self.selectionList.row(item) for item in self.selectionList.selectedItems())
            self.refresh()

    def mousefunc(self, button, state, x, y):
        if button == 2 and state == 0:
            i = self.pickItem(x, y)
            if i is not None:
                self.toggle(i)
                self.lastClicked = i
            return True
        return False

    def keyboardfunc(self, c, x, y):
        if c in (',', '<'):
            if self.lastClicked >= 0:
                if self.lastClicked in self.selection:
                    self.toggle(self.lastClicked)
                self.lastClicked -= 1
            self.refresh()
            return True
        if c in ('.', '>'):
            if self.lastClicked + 1 < self.count():
                self.lastClicked += 1
                if self.lastClicked not in self.selection:
                    self.toggle(self.lastClicked)
            self.refresh()
            return True
        return False

    def display(self):
        GL = gl()
        GL.glEnable(GL.GL_POLYGON_OFFSET_FILL)
        GL.glPolygonOffset(-1.0, -1.0)
        shown = list(self.selection) + ([self.lastClicked] if self.lastClicked >= 0 else [])
        for i in dict.fromkeys(shown):
            geom = self._geometry(i)
            if geom is None:
                continue
            if i == self.lastClicked:
                color = (1.0, 0.5, 0.0) if i in self.selection else (1.0, 0.0, 0.0)
            else:
                color = (1.0, 1.0, 0.0)
            app = self._appearance(i).clone()
            app.setColor(*color)
            app.drawWorldGL(geom)
        GL.glDisable(GL.GL_POLYGON_OFFSET_FILL)
        return False

    def addDialogItems(self, parent, ui='qt'):
        if ui == 'glfw':
            _panel_widget(parent, {'type': 'button', 'text': 'Clear'}, self.clear)
            _panel_widget(parent, {'type': 'button', 'text': 'Select all'}, self.selectAll)
            return
        qt = choose_binding()
        QtWidgets = qt.QtWidgets
        layout = QtWidgets.QHBoxLayout(parent)
        for text, slot in (("Clear", self.clear), ("Select all", self.selectAll)):
            button = QtWidgets.QPushButton(text)
            button.clicked.connect(lambda *args, slot=slot: slot())
            layout.addWidget(button)
        self.selectionList = QtWidgets.QListWidget()
        self.selectionList.setSelectionMode(qt.enum(QtWidgets.QAbstractItemView, 'SelectionMode', 'MultiSelection'))
        for i in range(self.count()):
            self.selectionList.addItem(self.itemName(i))
        self._selection_changed()
        self.selectionList.itemSelectionChanged.connect(self._list_changed)
        layout.addWidget(self.selectionList)

    def editedValue(self):
        return list(self.selection)


class AABBEditor(VisualEditorBase):
    """Edits an axis-aligned box ``(bmin, bmax)``: drag its faces, corners
    and centre. With ``frame`` (an se3 element) the box is given and
    returned in that frame's coordinates (and drawn there)."""

    def __init__(self, name, value, description, world, frame=None):
        bmin, bmax = [float(v) for v in value[0]], [float(v) for v in value[1]]
        if len(bmin) != 3 or len(bmax) != 3:
            raise ValueError("AABBEditor needs (bmin, bmax), two 3-vectors")
        super().__init__(name, (bmin, bmax), description, world)
        self.frame = frame
        self.app = None

    def instructions(self):
        return "Drag the box's faces and corners to resize it, its centre's arrows to move it"

    def setup(self, scene):
        super().setup(scene)
        self.app = self._edit(scene, 'value', _primitive('AABB', *self.value))
        if self.frame is not None:
            self.app.editor.setFrame(*self.frame)

    def editedValue(self):
        bmin, bmax = self.app.editor.get()
        return (bmin, bmax)


class SphereEditor(VisualEditorBase):
    """Edits a sphere ``(center, radius)``: drag the ring around it to set
    the radius, the centre's arrows to move it. With ``frame`` the centre is
    given and returned in that frame's coordinates."""

    def __init__(self, name, value, description, world, frame=None):
        center, radius = [float(v) for v in value[0]], float(value[1])
        if len(center) != 3 or radius < 0:
            raise ValueError("SphereEditor needs (center, radius >= 0)")
        super().__init__(name, (center, radius), description, world)
        self.frame = se3.identity() if frame is None else frame
        self.app = None

    def instructions(self):
        return "Drag the ring around the sphere to set its radius, the centre's arrows to move it"

    def setup(self, scene):
        super().setup(scene)
        center, radius = self.value
        self.app = self._edit(scene, 'value', _primitive('Sphere', se3.apply(self.frame, center), radius))

    def editedValue(self):
        cr = self.app.editor.get()
        return (se3.apply(se3.inv(self.frame), cr[:3]), cr[3])


class GeometricPrimitiveEditor(VisualEditorBase):
    """Edits a GeometricPrimitive of type Point, Sphere, AABB or Box (with
    the widget of each: a point's axes, a sphere's ring, a box's faces,
    corners, arrows and, for Box, rings). With ``frame`` the primitive is
    given and returned in that frame's coordinates. An accepted edit returns
    a new primitive; the one given is not changed."""

    TYPES = ('Point', 'Sphere', 'AABB', 'Box')

    def __init__(self, name, value, description, world, frame=None):
        if value.type not in self.TYPES:
            raise ValueError("GeometricPrimitiveEditor edits %s primitives, not %s"
                             % (', '.join(self.TYPES), value.type))
        super().__init__(name, value, description, world)
        self.frame = se3.identity() if frame is None else frame
        self.app = None

    def instructions(self):
        return "Drag the widget to edit the primitive"

    def setup(self, scene):
        super().setup(scene)
        kind, p = self.value.type, list(self.value.properties)
        if kind == 'Point':
            prim = _primitive('Point', se3.apply(self.frame, p[:3]))
        elif kind == 'Sphere':
            prim = _primitive('Sphere', se3.apply(self.frame, p[:3]), p[3])
        elif kind == 'AABB':
            prim = _primitive('AABB', p[:3], p[3:6])
        else:
            R, t = se3.mul(self.frame, (p[3:12], p[:3]))
            prim = _primitive('Box', t, R, p[12:15])
        self.app = self._edit(scene, 'value', prim)
        if kind == 'Point':
            self.app.editor.setAxes(self.frame[0])
        elif kind == 'AABB':
            self.app.editor.setFrame(*self.frame)

    def editedValue(self):
        poser, kind = self.app.editor, self.value.type
        inv = se3.inv(self.frame)
        if kind == 'Point':
            return _primitive('Point', se3.apply(inv, poser.get()))
        if kind == 'Sphere':
            cr = poser.get()
            return _primitive('Sphere', se3.apply(inv, cr[:3]), cr[3])
        if kind == 'AABB':
            return _primitive('AABB', *poser.get())
        R, t = se3.mul(inv, poser.getTransform())
        return _primitive('Box', t, R, poser.getDims())


class ObjectTransformEditor(VisualEditorBase):
    """Edits the transform ``value`` (an se3 element) of the rigid object
    ``object``: the object is shown there and dragged by its axes and
    rings. The object (and the world) are put back afterwards."""

    def __init__(self, name, value, description, world, object):
        if not hasattr(object, 'getTransform') or not hasattr(object, 'setTransform'):
            raise TypeError("ObjectTransformEditor needs a RigidObjectModel")
        super().__init__(name, (list(value[0]), list(value[1])), description, world)
        self.object = object
        self.app = None
        self._object_saved = None

    def instructions(self):
        return "Drag the object's axes to move it, its rings to rotate it"

    def setup(self, scene):
        super().setup(scene)
        self._object_saved = self.object.getTransform()
        self.object.setTransform(*self.value)
        if self.world is None:
            scene.add('object', self.object)
            self.app = scene.getItem('object')
        else:
            self.app = scene.getItem(('world', self.object.getName()))
        self.app.make_editor(self.world)

    def editedValue(self):
        R, t = self.object.getTransform()
        return (list(R), list(t))

    def finish(self, accepted):
        super().finish(accepted)
        self.object.setTransform(*self._object_saved)


class SensorEditor(RigidTransformEditor):
    """Edits a SimRobotSensor: its transform on its link (drag the axes and
    rings; the sensor is drawn where it is, with what it measures there)
    and its settings (a list of them and a field for the selected one's
    value). Assumes the sensor is on the world's first robot. An accepted
    edit returns the sensor, changed; Cancel puts it back."""

    def __init__(self, name, value, description, world):
        if not hasattr(value, 'getSetting') or not hasattr(value, 'settings'):
            raise TypeError("SensorEditor needs a SimRobotSensor")
        link_frame = None
        link = int(value.getSetting('link'))
        if world is not None and world.numRobots() > 0 and link >= 0:
            link_frame = world.robot(0).link(link).getTransform()
        super().__init__(name, sensing.get_sensor_xform(value), description, world, frame=link_frame)
        self.value = value
        self.settingsOrder = sorted(k for k in value.settings() if k not in ('Tsensor', 'rate'))
        self._saved_settings = {k: value.getSetting(k) for k in value.settings()}
        self.measurements = None
        self._measured_at = None
        self.current = None  # the selected setting
        self.editBox = None

    def instructions(self):
        return "Drag the axes to move the sensor, the rings to rotate it"

    def _edited_transform(self):
        return RigidTransformEditor.editedValue(self)

    def display(self):
        T = self._edited_transform()
        sensing.set_sensor_xform(self.value, T)
        if self._measured_at != T:
            self._measure()
            self._measured_at = T
        self.value.drawGL(self.measurements)
        return False

    def _measure(self):
        try:
            if self.world is not None:
                self.value.kinematicSimulate(self.world, 0.01)
            else:
                self.value.kinematicSimulate(0.01)
            self.measurements = self.value.getMeasurements()
        except Exception:  # a sensor that cannot simulate kinematically is still drawn
            self.measurements = None

    def setSetting(self, item, text):
        """Sets a setting of the sensor (and measures again); False if the
        sensor refuses the value."""
        try:
            self.value.setSetting(item, str(text))
        except Exception:
            return False
        self._measured_at = None
        self.refresh()
        return True

    def addDialogItems(self, parent, ui='qt'):
        if not self.settingsOrder:
            return
        self.current = self.settingsOrder[0]
        if ui == 'glfw':
            def select(item):
                self.current = item
                parent.widgets['Value']['state'] = self.value.getSetting(item)

            def edited(text):
                if not self.setSetting(self.current, text):
                    parent.widgets['Value']['state'] = self.value.getSetting(self.current)
            _panel_widget(parent, {'type': 'select', 'text': 'Setting', 'options': list(self.settingsOrder),
                                   'state': self.current, 'multiple': False}, select)
            _panel_widget(parent, {'type': 'text', 'text': 'Value', 'state': self.value.getSetting(self.current)},
                          edited)
            return
        QtWidgets = choose_binding().QtWidgets
        layout = QtWidgets.QHBoxLayout(parent)
        settings = QtWidgets.QListWidget()
        for k in self.settingsOrder:
            settings.addItem(k)
        self.editBox = QtWidgets.QLineEdit(self.value.getSetting(self.current))

        def select(row):
            if row >= 0:
                self.current = self.settingsOrder[row]
                self.editBox.setText(self.value.getSetting(self.current))

        def edited():
            if not self.setSetting(self.current, self.editBox.text()):
                self.editBox.setText(self.value.getSetting(self.current))
        settings.currentRowChanged.connect(select)
        self.editBox.editingFinished.connect(edited)
        layout.addWidget(settings)
        layout.addWidget(self.editBox)

    def editedValue(self):
        sensing.set_sensor_xform(self.value, self._edited_transform())
        return self.value

    def finish(self, accepted):
        super().finish(accepted)
        if not accepted:
            for k, v in self._saved_settings.items():
                self.value.setSetting(k, v)


def run(editorObject, binding=None):
    """Shows an editor until OK, Cancel or close; returns (True, edited
    value) for OK, else (False, the value given). In a Qt dialog when the
    vis backend is Qt, a Qt binding is loaded or ``binding`` names one; in
    a GLFW window when the vis backend is GLFW (or, with none started yet,
    when GLFW can open windows here). Other backends (offscreen, HTML,
    IPython, viser, null) cannot edit: RuntimeError."""
    if not isinstance(editorObject, VisualEditorBase):
        raise ValueError("vis.editors.run needs a VisualEditorBase")
    gui, qt = choose_gui(binding)
    editor = editorObject
    window = make_window(editor)
    accepted = run_qt(editor, window, qt) if gui == 'PyQt' else run_glfw(editor, window)
    editor.finish(accepted)
    return accepted, editor.value
