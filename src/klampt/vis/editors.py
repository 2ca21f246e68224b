"""The dialog editors of :func:`klampt.io.resource.edit`, as the reference's:
each shows its value in a Qt dialog (over the world, when given) with the
widget ``vis.edit`` uses to drag it (the robot's links, a point's axes, a
transform's axes and rings), the description and instructions, and OK /
Cancel. :func:`run` shows one and returns ``(accepted, value)``.

They need the Qt backend (``pip install klampt[qt]`` and a display);
importing this module loads no Qt."""
import copy

from klampt.math import se3


class VisualEditorBase:
    """An editor of one value, shown by :func:`run`.

    Attributes:
        name (str): what is edited (shown in the title).
        value: the value; after an accepted edit, the edited value.
        description (str or None): shown above the view.
        world (WorldModel or None): drawn around the value.
        window (Window): the vis window of the dialog (made by :func:`run`).
    """

    def __init__(self, name, value, description, world):
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
        """Adds Qt widgets (under the view) to ``parent``; none by default."""

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

    def addDialogItems(self, parent, ui='qt'):
        from .backends.qt_window import choose_binding
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
        self.frame = frame
        self.app = None

    def instructions(self):
        return "Drag the axes to move, the rings to rotate" if self.translation else "Drag the rings to rotate"

    def setup(self, scene):
        super().setup(scene)
        T = self.value if self.frame is None else se3.mul(self.frame, self.value)
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


def run(editorObject, binding=None):
    """Shows an editor in a Qt dialog until OK, Cancel or close; returns
    (True, edited value) for OK, else (False, the value given)."""
    if not isinstance(editorObject, VisualEditorBase):
        raise ValueError("vis.editors.run needs a VisualEditorBase")
    from ._window import Window
    from .backends.qt_window import run_dialog, usable_binding
    qt = usable_binding(binding)
    editor = editorObject
    window = Window("Editing %s" % (editor.name if editor.name is not None else 'a value'))
    editor.window = window
    editor.setup(window.scene)
    if editor.world is not None:
        window.scene.autoFitCamera()
    else:
        window.scene.view.camera.dist = 2.0
    outcome = []

    def make_dialog(glwidget):
        QtWidgets = qt.QtWidgets
        dialog = QtWidgets.QDialog()
        dialog.setWindowTitle(window.title)
        layout = QtWidgets.QVBoxLayout(dialog)
        for text in (editor.description, editor.instructions()):
            if text:
                layout.addWidget(QtWidgets.QLabel(text))
        layout.addWidget(glwidget, 1)
        extra = QtWidgets.QWidget()
        editor.addDialogItems(extra, 'qt')
        if extra.layout() is not None:
            layout.addWidget(extra)
        box = QtWidgets.QDialogButtonBox(qt.enum(QtWidgets.QDialogButtonBox, 'StandardButton', 'Ok')
                                         | qt.enum(QtWidgets.QDialogButtonBox, 'StandardButton', 'Cancel'))
        box.accepted.connect(lambda: (outcome.append(True), dialog.accept()))
        box.rejected.connect(dialog.reject)
        layout.addWidget(box)
        dialog.buttons = box
        return dialog
    window.qt_custom_ui = make_dialog
    run_dialog(window, qt.name)
    accepted = bool(outcome)
    editor.finish(accepted)
    return accepted, editor.value
