"""Shared fixtures and helpers: where the shared Klamp't data and golden
files live, loading worlds, comparing numbers, drawing configurations.

The shared data (real robots, worlds and the reference's computed values)
is found through KLAMPT_DATA_DIR (default ../shared/klampt-data next to the
repository); the golden files sit in the folder `golden` beside it.  In CI
(`CI` set) missing data is an error, never a silent skip.

A helper that more than one test file uses lives here or in a helper module
(control_helpers, vis_helpers, geometry_oracles, ...), never copied into the
files: test_helpers_defined_once.py checks it.
"""
import functools
import json
import math
import os
import sys
import warnings

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
PROJECT_DATA = os.path.join(REPO, "data")

# tests/data holds the scripts that recorded the reference files with the
# reference Klamp't, and the modules each shares with the test that checks
# its recording (goal_set_runs, ik_success_problems, xml_mistakes_cases): the
# tests import those by name, as the scripts do.
TEST_DATA = os.path.join(TESTS, "data")
if TEST_DATA not in sys.path:
    sys.path.append(TEST_DATA)


def _shared_data_dir():
    """KLAMPT_DATA_DIR, or ../shared/klampt-data beside the repository."""
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
    """The golden JSON file `name` (skips or fails without the shared data)."""
    require_shared_data()
    with open(os.path.join(GOLDEN, name)) as f:
        return json.load(f)


def golden_files(suffixes):
    """The sorted names of the golden files ending with `suffixes` ([] without them)."""
    if not os.path.isdir(GOLDEN):
        return []
    return sorted(f for f in os.listdir(GOLDEN) if f.endswith(suffixes))


@functools.lru_cache(maxsize=None)
def python_trees(root=TESTS):
    """{path below root ('/'-separated): parsed module (ast)} of every .py file
    under root, subfolders included (hidden and __pycache__ folders skipped);
    parsed once per run (so not to be changed) for the tests that read the
    test suite's code."""
    import ast

    trees = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    trees[os.path.relpath(path, root).replace(os.sep, "/")] = ast.parse(f.read(), path)
    return trees


@pytest.fixture
def shared_data():
    """The shared data folder (skips or fails without it)."""
    require_shared_data()
    return SHARED_DATA


def assert_close(actual, expected, rtol=1e-8, atol=1e-8, what="", equal_inf=True):
    """Elementwise comparison of nested lists / arrays: same shape, and
    |actual - expected| <= atol + rtol * |expected| everywhere (NaN never
    matches).  Infinities of the same sign match unless equal_inf is False,
    which makes rtol=0 the plain test |actual - expected| <= atol."""
    import numpy as np

    a = np.asarray(actual, dtype=float)
    e = np.asarray(expected, dtype=float)
    assert a.shape == e.shape, "%s: shape %s != expected %s" % (what, a.shape, e.shape)
    same_inf = np.isinf(a) & np.isinf(e) & (np.sign(a) == np.sign(e))
    ok = np.isclose(a, e, rtol=rtol, atol=atol)
    # np.isclose itself takes equal infinities as close.
    ok = (ok | same_inf) if equal_inf else (ok & ~same_inf)
    if not ok.all():
        idx = np.argwhere(~ok)[0]
        raise AssertionError("%s: mismatch at %s: %r != expected %r" % (what, tuple(idx), a[tuple(idx)], e[tuple(idx)]))


def load_world(path, quiet=False):
    """A WorldModel read from `path` (a world, robot or object file); the
    test fails if it cannot be read.  quiet: the loader's warnings are
    silenced."""
    if quiet:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return load_world(path)
    import klampt

    w = klampt.WorldModel()
    assert w.readFile(path), path
    return w


def load_shared_world(relpath, quiet=False):
    """load_world of the shared data file `relpath` (skips or fails without
    the shared data)."""
    require_shared_data()
    return load_world(os.path.join(SHARED_DATA, relpath), quiet)


def load_robot(path, quiet=True):
    """(world, robot) of a robot file, its loading warnings silenced unless
    quiet is False."""
    w = load_world(path, quiet)
    return w, w.robot(0)


def arm_table_world():
    """The project's demo world: the arm6 robot, a table and objects."""
    return load_world(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))


def arm6_world():
    """A world holding only the project's 7-link arm6 robot."""
    return load_world(os.path.join(PROJECT_DATA, "robots", "arm6.rob"))


def tx90blocks_world():
    """The shared tx90blocks.xml world: the tx90l arm among blocks on a table."""
    return load_shared_world("tx90blocks.xml")


@pytest.fixture
def arm_table():
    """A fresh arm_table_world() for each test."""
    return arm_table_world()


@pytest.fixture(scope="module")
def module_arm_table():
    """One arm_table_world() for all the tests of a module: what a test
    changes in it, the next one sees."""
    return arm_table_world()


@pytest.fixture
def tx90blocks():
    """A fresh tx90blocks_world() for each test."""
    return tx90blocks_world()


def wait_for(condition, timeout=10.0, what=""):
    """Polls condition() until it is true; fails after timeout seconds."""
    import time
    deadline = time.time() + timeout
    while not condition():
        assert time.time() < deadline, "timed out waiting for " + what
        time.sleep(0.02)


@pytest.fixture(scope="session")
def ros_node(tmp_path_factory):
    """A roscore on a free port, and this process as a ROS node talking to it
    (one for the whole session: rospy starts one node per process)."""
    import signal
    import socket
    import subprocess
    import time
    import rosgraph
    import rospy
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    home = tmp_path_factory.mktemp("ros_home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ROS_MASTER_URI", "http://127.0.0.1:%d" % port)
        mp.setenv("ROS_HOME", str(home))
        mp.setenv("ROS_LOG_DIR", str(home / "log"))
        mp.setenv("ROS_IP", "127.0.0.1")
        proc = subprocess.Popen(["roscore", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            master = rosgraph.Master("/klampt_test")
            deadline = time.time() + 20
            while not master.is_online():
                assert proc.poll() is None, "roscore exited: " + proc.stderr.read().decode()
                assert time.time() < deadline, "roscore did not answer"
                time.sleep(0.1)
            rospy.init_node("klampt_test", anonymous=True, disable_signals=True)
            yield
        finally:
            rospy.signal_shutdown("tests done")
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def random_config(robot, rng):
    """A configuration of `robot` drawn uniformly by `rng` (a random.Random)
    within its joint limits cut to [-pi, pi]; a joint whose cut range is
    empty (limits all beyond pi, or all below -pi) gets its cut lower limit,
    without a draw."""
    q = []
    for lo, hi in zip(*robot.getJointLimits()):
        lo, hi = max(lo, -math.pi), min(hi, math.pi)
        q.append(rng.uniform(lo, hi) if lo <= hi else lo)
    return q


def random_config_array(robot, n, seed=0, scale=1.0):
    """n configurations of `robot` (an n x numLinks array) drawn uniformly by
    np.random.RandomState(seed) from the middle `scale` of each joint's range
    (finite limits needed)."""
    import numpy as np

    lo, hi = (np.array(v) for v in robot.getJointLimits())
    mid = 0.5 * (lo + hi)
    return mid + scale * (np.random.RandomState(seed).rand(n, len(lo)) - 0.5) * (hi - lo)


def sphere_geometry(center=(0, 0, 0), radius=0.5):
    """A Geometry3D holding a Sphere primitive."""
    import klampt

    p = klampt.GeometricPrimitive()
    p.setSphere(list(center), radius)
    return klampt.Geometry3D(p)


def kinova_link_mesh():
    """A copy of the link mesh of kinova gen3 nearest 3,000 triangles in size,
    at the origin."""
    import klampt

    require_shared_data()
    w = klampt.WorldModel()
    assert w.readFile(os.path.join(SHARED_DATA, "robots", "kinova_gen3_7dof.urdf"))
    robot = w.robot(0)
    sizes = [(abs(len(robot.link(i).geometry().getTriangleMesh().getIndices()) - 3000), i)
             for i in range(robot.numLinks()) if robot.link(i).geometry().type() == "TriangleMesh"]
    g = robot.link(min(sizes)[1]).geometry().clone()
    g.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0])
    return g


def aabb_geometry(bmin, bmax, mesh=False):
    """A Geometry3D holding the AABB primitive bmin..bmax, or (mesh=True)
    that box converted to a TriangleMesh."""
    import klampt

    p = klampt.GeometricPrimitive()
    p.setAABB(list(bmin), list(bmax))
    g = klampt.Geometry3D(p)
    return g.convert("TriangleMesh") if mesh else g


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
    """klampt.vis on the offscreen backend with a fresh 320 x 240 window
    whose camera is fixed to the default view (so that the first ``add``
    does not frame the item: the tests check the default camera's
    conventions)."""
    monkeypatch.delenv("KLAMPT_VIS_HEADLESS_TIMEOUT", raising=False)
    monkeypatch.delenv("KLAMPT_VIS_SCREENSHOT_DIR", raising=False)
    from klampt import vis as v
    require_offscreen()
    v.init('offscreen')
    v.createWindow('test')
    v.resizeWindow(320, 240)
    v.setViewport(v.getViewport())
    yield v
    v.kill()
