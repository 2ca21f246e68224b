"""Shared fixtures: where the shared Klamp't data and golden files live.

The shared data (real robots, worlds and the reference's computed values)
is found through KLAMPT_DATA_DIR (default ../shared/klampt-data next to the
repository); the golden files sit in the folder `golden` beside it.  In CI
(`CI` set) missing data is an error, never a silent skip.
"""
import json
import math
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROJECT_DATA = os.path.join(REPO, "data")


def _shared_data_dir():
    default = os.path.join(REPO, "..", "shared", "klampt-data")
    return os.path.abspath(os.environ.get("KLAMPT_DATA_DIR", default))


SHARED_DATA = _shared_data_dir()
GOLDEN = os.path.join(os.path.dirname(SHARED_DATA), "golden")


def require_shared_data():
    """Skip (locally) or fail (in CI) when the shared data is absent."""
    if os.path.isdir(SHARED_DATA) and os.path.isdir(GOLDEN):
        return
    message = "shared Klamp't data not found at %s (set KLAMPT_DATA_DIR)" % SHARED_DATA
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def load_golden(name):
    require_shared_data()
    with open(os.path.join(GOLDEN, name)) as f:
        return json.load(f)


def golden_files(suffixes):
    if not os.path.isdir(GOLDEN):
        return []
    return sorted(f for f in os.listdir(GOLDEN) if f.endswith(suffixes))


@pytest.fixture
def shared_data():
    require_shared_data()
    return SHARED_DATA


def assert_close(actual, expected, rtol=1e-8, atol=1e-8, what=""):
    """Elementwise comparison of nested lists / arrays with inf handling."""
    import numpy as np

    a = np.asarray(actual, dtype=float)
    e = np.asarray(expected, dtype=float)
    assert a.shape == e.shape, "%s: shape %s != expected %s" % (what, a.shape, e.shape)
    same_inf = np.isinf(a) & np.isinf(e) & (np.sign(a) == np.sign(e))
    ok = same_inf | np.isclose(a, e, rtol=rtol, atol=atol)
    if not ok.all():
        idx = np.argwhere(~ok)[0]
        raise AssertionError("%s: mismatch at %s: %r != expected %r" % (what, tuple(idx), a[tuple(idx)], e[tuple(idx)]))
