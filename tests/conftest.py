"""Shared fixtures: where the shared Klamp't data and golden files live.

The shared data (real robots, worlds and the reference's computed values)
is found through KLAMPT_DATA_DIR (default ../shared/klampt-data next to the
repository); the golden files sit in the folder `golden` beside it.  In CI
(`CI` set) missing data is an error, never a silent skip.
"""
import json
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


def load_world(path):
    """A WorldModel read from `path` (a world, robot or object file); the
    test fails if it cannot be read."""
    import klampt

    w = klampt.WorldModel()
    assert w.readFile(path), path
    return w


def load_robot(path):
    """(world, robot) of a robot file, its loading warnings silenced."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w = load_world(path)
    return w, w.robot(0)


def arm_table_world():
    """The project's demo world: the arm6 robot, a table and objects."""
    return load_world(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))


def arm6_world():
    """A world holding only the project's 7-link arm6 robot."""
    return load_world(os.path.join(PROJECT_DATA, "robots", "arm6.rob"))


def sphere_geometry(center=(0, 0, 0), radius=0.5):
    """A Geometry3D holding a Sphere primitive."""
    import klampt

    p = klampt.GeometricPrimitive()
    p.setSphere(list(center), radius)
    return klampt.Geometry3D(p)


def assert_transform(actual, expected, atol=1e-12):
    """Both halves of two (R, t) transforms agree within atol."""
    assert_close(actual[0], expected[0], atol=atol)
    assert_close(actual[1], expected[1], atol=atol)


# ---------------------------------------------------------------- klampt.vis

def require_offscreen():
    """Makes sure an offscreen context can be created."""
    from klampt.vis._context import offscreen_available
    if offscreen_available():
        return
    from klampt.vis import _context
    message = "no offscreen OpenGL context: %s" % (_context._failure,)
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def xvfb_command(*cmd, needs="glfw"):
    """``cmd`` run under a fresh virtual X server (1024 x 768 x 24) for
    window tests; fails in CI and skips elsewhere when xvfb-run is missing,
    and skips when the module ``needs`` (glfw by default; None: nothing) is
    not installed.
    ``-noreset``: by default the server resets when its last client
    disconnects and refuses connections meanwhile, so a script that closes
    its window and opens another could not reach the display."""
    import shutil
    path = shutil.which("xvfb-run")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("xvfb-run is missing (apt-get install xvfb xauth)")
        pytest.skip("xvfb-run is missing")
    if needs:
        pytest.importorskip(needs)
    return [path, "-a", "-s", "-screen 0 1024x768x24 -noreset", *cmd]


@pytest.fixture
def vis(monkeypatch):
    """klampt.vis on the offscreen backend with a fresh 320 x 240 window."""
    monkeypatch.delenv("KLAMPT_VIS_HEADLESS_TIMEOUT", raising=False)
    monkeypatch.delenv("KLAMPT_VIS_SCREENSHOT_DIR", raising=False)
    from klampt import vis as v
    require_offscreen()
    v.init('offscreen')
    v.createWindow('test')
    v.resizeWindow(320, 240)
    yield v
    v.kill()
