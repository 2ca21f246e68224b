"""Utilities for control loops: :class:`TimedLooper` paces a loop at a fixed
rate, :class:`Promise` carries the result of an asynchronous command.
"""
import threading
import time
import warnings


class TimedLooper:
    """Runs a loop at a fixed rate::

        looper = TimedLooper(dt=0.01)
        while looper:
            ... do stuff ...
            if need_to_stop:
                looper.stop()

    Each ``bool(looper)`` sleeps until the next tick and returns True, or
    False once :meth:`stop` was called.  When the loop body takes longer
    than ``dt``, an overrun report goes to ``warning_printer`` every
    ``warning_frequency`` overruns (default ``int(2/dt)``; 0 disables them).

    Do not construct the looper in the loop condition (``while
    TimedLooper(0.01):``): a new looper never sleeps.

    Args:
        dt (float, optional): the period, in seconds (> 0).
        rate (float, optional): the rate in Hz, if dt is not given.
        warning_frequency (int or 'auto'): overruns between reports.
        warning_printer (callable or 'auto'): receives the report text;
            'auto' issues a :class:`RuntimeWarning`.
        name (str, optional): names the loop in the reports.
    """

    def __init__(self, dt=None, rate=None, warning_frequency='auto', warning_printer='auto', name=None):
        if dt is None:
            if rate is None:
                raise ValueError("TimedLooper needs dt or rate")
            if not rate > 0:
                raise ValueError("TimedLooper rate must be > 0, got %r" % (rate,))
            dt = 1.0 / rate
        if not dt > 0:
            raise ValueError("TimedLooper dt must be > 0, got %r" % (dt,))
        self.dt = float(dt)
        if warning_frequency == 'auto':
            warning_frequency = max(1, int(2.0 / self.dt))
        if warning_printer == 'auto':
            def warning_printer(msg):
                warnings.warn(msg, RuntimeWarning)
        self.warning_frequency = warning_frequency
        self.warning_printer = warning_printer
        self.name = name
        self._iters = 0
        self._num_overruns = 0
        self._overruns_since_report = 0
        self._overrun_time_since_report = 0.0
        self._iters_at_report = 0
        self._tstart = None
        self._tnext = None
        self._exit = False

    def stop(self):
        """Makes the next ``bool(looper)`` return False."""
        self._exit = True

    def __bool__(self):
        if self._exit:
            return False
        now = time.monotonic()
        if self._tnext is None:
            self._tstart = now
            self._tnext = now
        else:
            late = now - self._tnext
            if late > self.dt:
                self._report_overrun(late - self.dt)
                self._tnext = now
            else:
                self._tnext += self.dt
        self._iters += 1
        delay = self._tnext - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        return True

    def _report_overrun(self, amount):
        self._num_overruns += 1
        self._overruns_since_report += 1
        self._overrun_time_since_report += amount
        if self.warning_frequency and self._num_overruns % self.warning_frequency == 0:
            self.warning_printer("%s: exceeded loop time budget %.4fs on %d/%d iters, by %fs on average" % (
                self.name or "TimedLooper", self.dt, self._overruns_since_report,
                self._iters - self._iters_at_report,
                self._overrun_time_since_report / self._overruns_since_report))
            self._iters_at_report = self._iters
            self._overruns_since_report = 0
            self._overrun_time_since_report = 0.0

    def time_elapsed(self):
        """Seconds since the first tick (0 before it)."""
        return time.monotonic() - self._tstart if self._tstart is not None else 0.0

    def iters(self):
        """The number of ticks so far."""
        return self._iters


class PromiseTimeout(Exception):
    """Raised by :meth:`Promise.wait` when the timeout passes first."""

    def __init__(self, promise):
        Exception.__init__(self)
        self.promise = promise

    def __str__(self):
        if self.promise._name is not None:
            return "Promise %s timed out" % (self.promise._name,)
        return "Promise timed out"


class PromiseError(Exception):
    """Raised by :meth:`Promise.value` when the provider reported an error;
    ``error`` is that error."""

    def __init__(self, promise, error):
        Exception.__init__(self)
        self.promise = promise
        self.error = error

    def __str__(self):
        if self.promise._name is not None:
            return "Promise %s encountered exception %s" % (self.promise._name, self.error)
        return "Promise encountered exception %s" % (self.error,)


class Promise:
    """A placeholder for the result of an asynchronous call, safe to share
    between threads.

    Receivers poll (``if promise: promise.value()``), register
    :meth:`setCallback` / :meth:`setErrback`, or block with :meth:`wait`.
    Providers call :meth:`callback` with the value or :meth:`errback` with
    an exception, exactly once.
    """

    def __init__(self, name=None):
        self._name = name
        self._done = False
        self._value = None
        self._error = None
        self._callback = None
        self._errback = None
        self._lock = threading.Lock()
        self._event = threading.Event()

    def setCallback(self, fn):
        """fn(value) is called when a value arrives (at once if it already
        has); never after an error."""
        if not callable(fn):
            raise ValueError("setCallback needs a callable")
        with self._lock:
            if self._callback is not None:
                raise RuntimeError("Callback already set to %r" % (self._callback,))
            self._callback = fn
            fire = self._done and self._error is None
        if fire:
            fn(self._value)

    def setErrback(self, fn):
        """fn(error) is called when an error arrives (at once if it already
        has)."""
        if not callable(fn):
            raise ValueError("setErrback needs a callable")
        with self._lock:
            self._errback = fn
            fire = self._done and self._error is not None
        if fire:
            fn(self._error)

    def __bool__(self):
        return self._done

    def available(self):
        """True once the provider responded with a value or an error."""
        return self._done

    def error(self):
        """The error the provider reported, or None."""
        return self._error

    def value(self):
        """The value; RuntimeError if not available yet, PromiseError if
        the provider reported an error."""
        if not self._done:
            raise RuntimeError("Promise value is not available yet")
        if self._error is not None:
            raise PromiseError(self, self._error)
        return self._value

    def wait(self, timeout=None, resolution=0.01):
        """Blocks until the response arrives and returns the value
        (PromiseTimeout after `timeout` seconds, PromiseError on error).
        `resolution` is kept for compatibility; waiting is event-driven."""
        if not self._event.wait(timeout):
            raise PromiseTimeout(self)
        return self.value()

    def callback(self, value):
        """Provider: sets the value."""
        self._resolve(value, None)

    def errback(self, error):
        """Provider: reports an error (an exception)."""
        if error is None:
            raise ValueError("errback needs an error")
        self._resolve(None, error)

    def _resolve(self, value, error):
        with self._lock:
            if self._done:
                raise RuntimeError("Promise already resolved")
            self._value = value
            self._error = error
            self._done = True
            fn = self._callback if error is None else self._errback
        self._event.set()
        if fn is not None:
            fn(value if error is None else error)
