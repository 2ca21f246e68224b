"""Re-entrancy guards for Python objects whose methods run user callbacks
(the simulator's hooks and controllers, the visualization's callbacks): a
callback that calls back into the call running it raises RuntimeError at
once, naming both calls, instead of recursing without end or waiting for
itself. The compiled planners, C-spaces and IK solvers guard themselves the
same way."""
import threading
from contextlib import contextmanager

_local = threading.local()


def _running():
    if not hasattr(_local, 'calls'):
        _local.calls = []
    return _local.calls


def check(obj, kind: str, call: str) -> None:
    """Raises RuntimeError if ``obj`` is running a call of ``kind`` in this
    thread (``call`` names the attempted call)."""
    for o, k, c in _running():
        if o is obj and k == kind:
            raise RuntimeError("%s was called from inside a callback of %s on the same object: a callback "
                               "cannot re-enter the call that runs it" % (call, c))


@contextmanager
def running(obj, kind: str, call: str):
    """Marks ``obj`` as running ``call`` (of ``kind``) in this thread while
    the block runs; RuntimeError if it already runs a call of that kind."""
    check(obj, kind, call)
    calls = _running()
    calls.append((obj, kind, call))
    try:
        yield
    finally:
        calls.pop()
