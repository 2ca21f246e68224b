"""The guard of the blocking vis calls (loop, run, dialog, spin): made from
inside a vis callback (a loop callback, an action, a widget's or picker's
callback, a plugin hook) they would wait for the loop that runs the callback,
so they raise RuntimeError naming the call instead."""
from contextlib import contextmanager

from .. import _reentry
from ._state import manager


@contextmanager
def blocking(call: str):
    """The block of the blocking call ``call`` ('vis.loop', ...)."""
    in_gui_thread = getattr(manager.backend, '_in_gui_thread', None)
    if in_gui_thread is not None and in_gui_thread():
        raise RuntimeError("%s was called from inside a vis callback, in the GUI thread: it would wait for the "
                           "GUI loop that runs the callback" % call)
    with _reentry.running(manager, 'blocking', call):
        yield
