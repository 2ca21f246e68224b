"""ThreadedRobotInterface and MultiprocessingRobotInterface: a synchronous
interface run at its control rate by a worker thread or process, used
asynchronously by the caller (no beginStep/endStep needed)."""
import multiprocessing
import queue as queue_module
import threading
import time
import warnings

from ._remote import _RemoteRoot, _Runner, plain_exception, warn_async
from .utils import TimedLooper


def _wait_ready(event, what, log):
    """Waits for the worker's first snapshot, reporting every 5 s."""
    t0 = time.monotonic()
    while not event.wait(5.0):
        log("%s: initialization is taking %.0f s..." % (what, time.monotonic() - t0))


class ThreadedRobotInterface(_RemoteRoot):
    """Runs interface (typically a RobotInterfaceCompleter) in a daemon
    thread at its control rate.  Queries return the state of the worker's
    last cycle; commands are queued for its next cycle and return a
    :class:`~klampt.control.utils.Promise` resolved with the command's
    return value; ``isMoving()`` is True while commands wait, so ``wait()``
    returns after the motion.  :meth:`close` stops the thread, then closes
    the interface.  The caller's :meth:`klamptModel` is its own copy.

    Commands return Promises that resolve with the base's return value (or its
    exception); the reference never resolves them.
    """

    def __init__(self, interface):
        warn_async(interface, 'ThreadedRobotInterface')
        _RemoteRoot.__init__(self, dict(interface.properties))
        self.properties['asynchronous'] = True
        self._interface = interface
        self._thread = None
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._initError = None

    def __str__(self):
        return "Threaded(%s)" % (self._interface,)

    def log(self, msg):
        """Reports worker messages (a RuntimeWarning); override to redirect."""
        warnings.warn(msg, RuntimeWarning)

    def initialize(self):
        """Starts the worker; returns when it has run its first cycle (True)
        or failed (False, with a warning).

        Returns once the first state is available (the reference marks itself
        initialized before the first state copy, and on failure calls input(),
        hanging unattended runs)."""
        if self._closed:
            raise RuntimeError("%s was closed" % self)
        if self._thread is not None:
            raise RuntimeError("%s.initialize() can only be called once" % self)
        self._thread = threading.Thread(target=self._threadMain, name=str(self), daemon=True)
        self._thread.start()
        _wait_ready(self._ready, str(self), self.log)
        if self._initError is not None:
            warnings.warn("%s: initialization failed: %s" % (self, self._initError), RuntimeWarning)
            self._thread.join()
            return False
        return True

    def _threadMain(self):
        runner = _Runner(self._interface)
        try:
            structure, state = runner.start()
            self._callerModel = self._copyModel(self._interface.klamptModel())
        except Exception as e:
            self._initError = e
            self._ready.set()
            return
        self._setStructure(structure, state)
        self._ready.set()
        looper = TimedLooper(1.0 / structure['controlRate'], warning_printer=self.log, name=str(self))
        try:
            while looper and not self._stop.is_set():
                results, state = runner.step(self._takeCommands())
                self._deliver(results, state)
        except Exception as e:
            self._fail(plain_exception(e))
        finally:
            try:
                runner.close()
            except Exception as e:
                self.log("%s: closing the interface failed: %s" % (self, e))

    def close(self):
        """Stops and joins the worker, which closes the interface.  Does
        nothing before initialize(); a second close raises RuntimeError.

        The reference raises when closed before initialize()."""
        if self._closed:
            raise RuntimeError("%s.close() called twice" % self)
        self._closed = True
        if self._thread is None:
            return True
        self._stop.set()
        self._thread.join()
        self._structure = None
        return True


def _process_main(interface, commands, states):
    """The worker process: initialize, then cycle until told to quit."""
    runner = _Runner(interface)
    try:
        structure, state = runner.start()
    except Exception as e:
        states.put(('error', plain_exception(e)))
        return
    states.put(('ready', structure, state))
    looper = TimedLooper(1.0 / structure['controlRate'], warning_printer=lambda msg: None)
    quit = False
    try:
        while not quit and looper:
            batch = []
            while True:
                try:
                    msg = commands.get_nowait()
                except queue_module.Empty:
                    break
                if msg[0] == 'quit':
                    quit = True
                    break
                batch.append(msg[1])
            results, state = runner.step(batch)
            states.put(('state', results, state))
    except Exception as e:
        states.put(('error', plain_exception(e)))
    finally:
        try:
            runner.close()
        finally:
            states.put(('closed',))


class MultiprocessingRobotInterface(_RemoteRoot):
    """Runs interface in a child process (the default start method) at its
    control rate; otherwise as :class:`ThreadedRobotInterface`.  Commands
    and state travel through two multiprocessing queues as plain lists
    and numbers, so their arguments must pickle.  The caller's model is
    loaded from properties['klamptModelFile'], else it is the interface's
    model in this process (the child has its own copy)."""

    def __init__(self, interface):
        warn_async(interface, 'MultiprocessingRobotInterface')
        _RemoteRoot.__init__(self, dict(interface.properties))
        self.properties['asynchronous'] = True
        self._name = str(interface)
        self._interface = interface
        self._commands = multiprocessing.Queue()
        self._states = multiprocessing.Queue()
        self._process = multiprocessing.Process(target=_process_main, name=self._name,
                                                args=(interface, self._commands, self._states), daemon=True)
        self._receiver = None
        self._ready = threading.Event()
        self._initError = None
        self._started = False

    def __str__(self):
        return "Multiprocessing(%s)" % (self._name,)

    def log(self, msg):
        """Reports worker messages (a RuntimeWarning); override to redirect."""
        warnings.warn(msg, RuntimeWarning)

    def initialize(self):
        """Starts the child process; returns once it ran its first cycle."""
        if self._closed:
            raise RuntimeError("%s was closed" % self)
        if self._started:
            raise RuntimeError("%s.initialize() can only be called once" % self)
        self._started = True
        self._process.start()
        self._receiver = threading.Thread(target=self._receive, name=str(self) + ' receiver', daemon=True)
        self._receiver.start()
        _wait_ready(self._ready, str(self), self.log)
        if self._initError is not None:
            warnings.warn("%s: initialization failed: %s" % (self, self._initError), RuntimeWarning)
            self._process.join(5.0)
            return False
        return True

    def _receive(self):
        """Parent-side thread: forwards commands, installs snapshots."""
        while True:
            try:
                msg = self._states.get(timeout=0.5)
            except queue_module.Empty:
                if not self._process.is_alive():
                    if not self._ready.is_set():
                        self._initError = RuntimeError("the worker process exited with code %s"
                                                       % self._process.exitcode)
                        self._ready.set()
                    elif self._failure is None and not self._closed:
                        self._fail(RuntimeError("the worker process exited with code %s" % self._process.exitcode))
                    return
                continue
            kind = msg[0]
            if kind == 'ready':
                self._callerModel = self._interface.klamptModel()
                self._setStructure(msg[1], msg[2])
                self._ready.set()
            elif kind == 'state':
                self._deliver(msg[1], msg[2])
            elif kind == 'error':
                if not self._ready.is_set():
                    self._initError = msg[1]
                    self._ready.set()
                else:
                    self._fail(msg[1])
            elif kind == 'closed':
                return
            for cmd in self._takeCommands():
                self._commands.put(('cmd', cmd))

    def close(self):
        """Stops the child (which closes the interface) and joins it.  Does
        nothing before initialize(); a second close raises RuntimeError."""
        if self._closed:
            raise RuntimeError("%s.close() called twice" % self)
        self._closed = True
        if not self._started:
            return True
        self._commands.put(('quit',))
        self._process.join(10.0)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join()
        self._receiver.join(5.0)
        self._structure = None
        return True
