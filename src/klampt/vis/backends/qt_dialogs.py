"""Qt dialogs outside ``vis``'s windows: a vis Window shown until closed
(:func:`run_dialog`, the editors' dialogs) and a file chooser
(:func:`file_dialog`, ``resource.load`` / ``save``)."""
import time

from .base import LOOP_PERIOD
from .qt_gui import ensure_gui
from .qt_platform import usable_binding
from .qt_widgets import guarded


def run_dialog(window, binding=None):
    """Shows a vis Window (not one of ``vis``'s) as a modal-like dialog
    until it is closed; with ``window.qt_custom_ui`` the widgets around the
    GL view (OK / Cancel for the resource editors). Runs in the main thread,
    or waits for the Qt thread."""
    qt = usable_binding(binding)
    gui = ensure_gui(qt, blocking=True)
    window.shown = True
    window.closed = False
    gui.dialogs.add(window)
    alive = lambda: window.shown and not window.closed  # noqa: E731
    try:
        if gui.in_owner():
            gui.serve(lambda: not alive())
        else:
            while alive() and gui.serving > 0:
                time.sleep(LOOP_PERIOD)
    finally:
        window.shown = False
        if gui.in_owner():
            gui.service()
            gui.app.processEvents()
        gui.dialogs.discard(window)


def file_dialog(save, title, directory='', filters=(), suffix=None, binding=None):
    """Asks the user for a file in a QFileDialog (the system's own where Qt
    has one) and returns its path, or None on Cancel.

    Args:
        save (bool): True to name a file to write (it may not exist yet),
            False to pick an existing file to read.
        title (str): the dialog's title.
        directory (str): the folder it shows first.
        filters (list of str): Qt name filters, as "Config (*.config *.json)".
        suffix (str, optional): added to a typed name without extension.
        binding (str, optional): the Qt binding when none is imported yet.

    Runs in the main thread, or waits for the Qt thread; other windows keep
    updating meanwhile."""
    qt = usable_binding(binding)
    gui = ensure_gui(qt, blocking=True)
    chosen = []
    dialogs = []  # the wrapper must outlive open_dialog: collecting it deletes the dialog

    def open_dialog():
        QFileDialog = qt.QtWidgets.QFileDialog
        dialog = QFileDialog(None, title, directory or '', ";;".join(filters))
        dialog.setAcceptMode(qt.enum(QFileDialog, 'AcceptMode', 'AcceptSave' if save else 'AcceptOpen'))
        dialog.setFileMode(qt.enum(QFileDialog, 'FileMode', 'AnyFile' if save else 'ExistingFile'))
        if suffix:
            dialog.setDefaultSuffix(suffix.lstrip('.'))

        def finished(result):
            files = dialog.selectedFiles()
            chosen.append(files[0] if result and files else None)
            dialog.deleteLater()
        dialog.finished.connect(guarded(finished))
        dialogs.append(dialog)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
    if gui.in_owner():
        open_dialog()
        gui.serve(lambda: bool(chosen))
    elif gui.running_elsewhere():
        gui.call(open_dialog)
        while not chosen and gui.serving > 0:
            time.sleep(LOOP_PERIOD)
    else:
        raise RuntimeError("klampt.vis: Qt belongs to another thread, which runs no event loop now")
    return chosen[0] if chosen else None
