"""klampt.control.utils: TimedLooper paces loops on the monotonic clock and
reports overruns; Promises resolve once, from any thread, with callbacks
for values and errors."""
import threading
import time

import pytest

from klampt.control.utils import Promise, PromiseError, PromiseTimeout, TimedLooper


def test_timed_looper_paces_and_stops():
    looper = TimedLooper(dt=0.01)
    t0 = time.monotonic()
    n = 0
    while looper and n < 10:
        n += 1
    # ticks at 0, 0.01, ..., 0.10 s
    assert time.monotonic() - t0 >= 0.1 - 1e-3
    assert looper.iters() == 11 and looper.time_elapsed() >= 0.1 - 1e-3
    looper.stop()
    assert not looper
    assert TimedLooper(rate=50).dt == pytest.approx(0.02)
    for bad in (dict(dt=0), dict(dt=-1), dict(rate=0), dict()):
        with pytest.raises(ValueError):
            TimedLooper(**bad)


def test_timed_looper_reports_overruns():
    messages = []
    looper = TimedLooper(dt=0.001, warning_frequency=2, warning_printer=messages.append, name='slow loop')
    for _ in range(5):
        assert looper
        time.sleep(0.005)
    assert messages and all('slow loop' in m for m in messages)


def test_promise_value_callbacks_and_errors():
    p = Promise()
    assert not p and not p.available()
    with pytest.raises(RuntimeError):
        p.value()
    got = []
    p.setCallback(got.append)
    threading.Timer(0.02, p.callback, args=(42,)).start()
    assert p.wait(timeout=5) == 42
    assert got == [42] and p.available() and p.error() is None
    with pytest.raises(RuntimeError, match="already"):
        p.callback(1)
    late = []
    p.setErrback(late.append)
    assert late == []

    e = Promise()
    errors, values = [], []
    e.setErrback(errors.append)
    e.errback(ValueError("bad size"))
    e.setCallback(values.append)
    # no value callback after an error (the reference fires it anyway)
    assert values == [] and isinstance(errors[0], ValueError)
    with pytest.raises(PromiseError) as info:
        e.value()
    assert isinstance(info.value.error, ValueError) and 'bad size' in str(info.value)
    with pytest.raises(PromiseTimeout):
        Promise().wait(timeout=0.01)
