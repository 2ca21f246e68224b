"""The windows :func:`klampt.vis.editors.run` shows an editor in: which GUI
can (:func:`choose_gui`), a Qt dialog with the description, instructions,
the view, the editor's widgets and OK / Cancel (:func:`run_qt`), or a GLFW
window with the description and instructions over the view and the
editor's controls, OK and Cancel in its panel (:func:`run_glfw`)."""
import sys
import textwrap

from ._scene import global_lock
from ._state import importable, manager
from .backends.qt_platform import BINDINGS, usable_binding
from . import visualization
from ._context import has_display
from ._window import Window
from .backends.qt_dialogs import run_dialog


def panel_widget(window, widget, callback):
    """Adds a JSON GUI widget (id: its text) to a Window's panel."""
    widget.setdefault('id', widget['text'])
    window.widgets[widget['id']] = widget
    window.widget_callbacks[widget['id']] = callback


def choose_gui(binding=None):
    """('PyQt', the Qt binding) or ('GLFW', None): the active vis backend if
    it is one of them; Qt when a binding is asked for or already loaded;
    with no backend started, GLFW when it can open windows here, else Qt.
    RuntimeError naming the backends that can edit otherwise."""
    backend = manager.backend
    if binding is not None:
        return 'PyQt', usable_binding(binding)
    if backend is not None:
        if not backend.can_edit:
            raise RuntimeError("klampt.vis.editors need a window of the GLFW or Qt backend; the %s backend cannot "
                               "edit (call vis.init('GLFW') or vis.init('PyQt') first)" % backend.name)
        return backend.edit_gui, (usable_binding() if backend.edit_gui == 'PyQt' else None)
    if any(b + '.QtCore' in sys.modules for b in BINDINGS):
        return 'PyQt', usable_binding()
    if has_display() and importable('glfw') and importable('OpenGL'):
        return visualization.init('GLFW'), None
    try:
        return 'PyQt', usable_binding()
    except (ImportError, RuntimeError) as e:
        raise RuntimeError("klampt.vis.editors need a window of the GLFW or Qt backend (a display and "
                           "pip install glfw or klampt[qt]): %s" % e) from None


def make_window(editor):
    """A Window showing the editor: its scene set up by the editor, the
    editor a plugin over it, the camera on the world (or on the edited
    item, which the scene frames when it is added)."""
    window = Window("Editing %s" % (editor.name if editor.name is not None else 'a value'))
    editor.window = window
    editor.setup(window.scene)
    window.push_plugin(editor)
    if editor.world is not None:
        window.scene.autoFitCamera()
    return window


def run_qt(editor, window, qt):
    """Shows the editor's window in a Qt dialog; True if OK was pressed."""
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
    return bool(outcome)


def run_glfw(editor, window):
    """Shows the editor's window through the GLFW backend until OK, Cancel
    or close; True if OK was pressed. The window joins vis's windows while
    it is shown (the current window stays current)."""
    outcome = []

    def close(accepted):
        if accepted:
            outcome.append(True)
        window.shown = False
    editor.addDialogItems(window, 'glfw')
    panel_widget(window, {'type': 'button', 'text': 'OK'}, lambda: close(True))
    panel_widget(window, {'type': 'button', 'text': 'Cancel'}, lambda: close(False))
    lines = [line for text in (editor.description, editor.instructions()) if text
             for line in textwrap.wrap(text, 50)]
    for i, text in enumerate(lines):
        window.scene.addText('editor_text%d' % i, text, position=(10, 10 + 18 * i), color=(0, 0, 0, 1))
    with global_lock:
        manager.windows.append(window)
    try:
        manager.backend.dialog(window)
    finally:
        with global_lock:
            manager.windows.remove(window)
    return bool(outcome)
