"""Where a window's GUI loop runs, and ``python -m klampt.vis script.py``.

macOS draws windows only from the main thread: a GUI started in a thread
by ``vis.show()`` dies there with ``NSInternalInconsistencyException``. The
launcher (as MuJoCo's ``mjpython``) runs the user's script in a worker
thread and keeps the main thread for the GUI loops the script starts.
Without it, blocking calls made from the main thread (``loop``, ``dialog``,
``run``, ``spin``) run the GUI in that thread, and ``show()`` hands the
scene to the viser backend, or raises an error naming the launcher.
:func:`gui_mode` makes that decision; the platform is a parameter so that
every case can be checked on any system."""
import queue
import sys
import threading
import traceback

from ._state import importable, manager

LAUNCHER_HINT = "use vis.loop(...) or python -m klampt.vis script.py"

PLATFORM = sys.platform  # what the decisions below assume by default
_runner = None  # the MainThreadRunner while the launcher runs


def needs_main_thread(platform=None):
    """Whether windows must be driven from the main thread (macOS)."""
    return (platform or PLATFORM) == 'darwin'


def gui_mode(blocking, platform=None, launcher=None, main_thread=None, viser_available=None):
    """Where a GUI loop about to start should run:

    - 'main': handed to the launcher's main thread;
    - 'thread': a vis thread (Linux, Windows);
    - 'inline': in the calling thread, the main one, for a blocking call
      (``loop``, ``dialog``, ``run``, ``spin``) on macOS;
    - 'viser': ``show()`` on macOS without the launcher, with viser installed.

    Raises RuntimeError (naming the launcher) when a window cannot be shown.
    The arguments default to this process's state."""
    if launcher is None:
        launcher = _runner is not None
    if launcher:
        return 'main'
    if not needs_main_thread(platform):
        return 'thread'
    if main_thread is None:
        main_thread = threading.current_thread() is threading.main_thread()
    if blocking and main_thread:
        return 'inline'
    if viser_available is None:
        viser_available = importable('viser')
    if not blocking and viser_available:
        return 'viser'
    where = "vis.show()" if not blocking else "a window outside the main thread"
    raise RuntimeError("klampt.vis: on macOS %s cannot open a window (windows need the main thread): %s"
                       % (where, LAUNCHER_HINT))


class GuiLoop:
    """A GUI loop running on the launcher's main thread, seen as a thread
    (``is_alive``, ``join``)."""

    def __init__(self, target, name):
        self.target = target
        self.name = name
        self.finished = threading.Event()

    def is_alive(self):
        """True until the loop returned."""
        return not self.finished.is_set()

    def join(self, timeout=None):
        """Waits for the loop to return."""
        self.finished.wait(timeout)


class MainThreadRunner:
    """Runs the GUI loops other threads hand over, on the main thread,
    until :meth:`stop`."""

    def __init__(self):
        self.jobs = queue.Queue()
        self.stopped = threading.Event()

    def submit(self, target, name):
        """Queues ``target()`` for the main thread; returns its GuiLoop."""
        loop = GuiLoop(target, name)
        if self.stopped.is_set():
            loop.finished.set()
        else:
            self.jobs.put(loop)
        return loop

    def serve(self):
        """Runs queued loops until stopped (call it on the main thread)."""
        while not self.stopped.is_set():
            try:
                loop = self.jobs.get(timeout=0.05)
            except queue.Empty:
                continue
            try:
                loop.target()
            finally:
                loop.finished.set()
        while True:  # loops queued after the script ended never run
            try:
                self.jobs.get_nowait().finished.set()
            except queue.Empty:
                return

    def stop(self):
        """Makes :meth:`serve` return once the running loop returned."""
        self.stopped.set()


def start_gui_loop(target, name):
    """Starts ``target`` as a GUI loop: on the launcher's main thread when
    it runs, else in a daemon thread. Returns a thread-like object."""
    if _runner is not None:
        return _runner.submit(target, name)
    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()
    return thread


USAGE = "usage: python -m klampt.vis script.py [arguments...]"


def main(argv=None):
    """``python -m klampt.vis script.py [args]``: runs the script in a
    worker thread with ``sys.argv = [script, args...]`` while the main
    thread serves its GUI loops; returns the exit status (the script's
    ``sys.exit`` code, 1 and the traceback on an exception, 130 on Ctrl-C)."""
    import os
    import runpy
    global _runner
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ('-h', '--help'):
        print(USAGE)
        return 0 if argv else 2
    script = argv[0]
    if not os.path.isfile(script):
        print("klampt.vis: no script %r\n%s" % (script, USAGE), file=sys.stderr)
        return 2
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runner = MainThreadRunner()
    _runner = runner
    status = []

    def run_script():
        try:
            runpy.run_path(script, run_name='__main__')
            status.append(0)
        except SystemExit as e:
            code = e.code
            if code is None or isinstance(code, int):
                status.append(code or 0)
            else:
                print(code, file=sys.stderr)
                status.append(1)
        except BaseException:
            traceback.print_exc()
            status.append(1)
        finally:
            manager.stop()  # ends the GUI loop the script left running
            runner.stop()
    worker = threading.Thread(target=run_script, name='klampt.vis script', daemon=True)
    worker.start()
    try:
        runner.serve()
        worker.join()
    except KeyboardInterrupt:
        runner.stop()
        print("klampt.vis: interrupted", file=sys.stderr)
        return 130
    finally:
        _runner = None
    return status[0] if status else 1
