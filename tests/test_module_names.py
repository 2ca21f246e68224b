"""The module-level names of Klamp't 0.10.1 and 0.9.2 that this package
provides in Python: the version, set_log_level, the 0.9.2 camel-case
functions, klampt.io's functions, what star imports give, and the SWIG
container classes (whose behaviour was read from the reference's)."""
import logging
import os
import re
import subprocess
import sys
import warnings

import pytest

import klampt
from klampt import robotsim
from conftest import REPO


def test_version_parts_are_integers_and_match_klampt_version_module():
    import klampt.version
    parts = [int(p) for p in klampt.__version__.split(".")]
    assert len(parts) == 3 and tuple(parts) >= (0, 10, 1)
    assert klampt.version.__version__ == klampt.__version__
    with open(os.path.join(REPO, "pyproject.toml")) as f:
        assert re.search(r'^version = "([^"]+)"$', f.read(), re.M).group(1) == klampt.__version__


def test_set_log_level_sets_the_klampt_logger_level(caplog):
    log = logging.getLogger("klampt.model.calibrate")
    old = logging.getLogger("klampt").level
    try:
        robotsim.set_log_level("ERROR")
        with caplog.at_level(logging.NOTSET):
            logging.getLogger("klampt").setLevel(logging.ERROR)
            log.warning("dropped")
            log.error("kept")
        assert [r.getMessage() for r in caplog.records] == ["kept"]
        klampt.set_log_level("debug")
        assert logging.getLogger("klampt").getEffectiveLevel() == logging.DEBUG
        klampt.set_log_level("WARN")
        assert log.getEffectiveLevel() == logging.WARNING
        klampt.set_log_level("FATAL")
        assert log.getEffectiveLevel() == logging.CRITICAL
        with pytest.raises(ValueError, match="unknown log level"):
            klampt.set_log_level("LOUD")
        with pytest.raises(TypeError):
            klampt.set_log_level(3)
    finally:
        logging.getLogger("klampt").setLevel(old)


def test_camelcase_functions_warn_and_give_the_snake_case_result():
    contacts = [[0, 0, 0, 0, 0, 1, 0.5], [1, 0, 0, 0, 0, 1, 0.5], [0, 1, 0, 0, 0, 1, 0.5]]
    with pytest.warns(DeprecationWarning, match="use support_polygon"):
        old = robotsim.supportPolygon(contacts)
    assert old == robotsim.support_polygon(contacts)
    with pytest.warns(DeprecationWarning, match="use com_equilibrium"):
        f = klampt.comEquilibrium(contacts, [0, 0, -9.8], [0.3, 0.3, 0.5])
    assert f is not None and f == robotsim.com_equilibrium(contacts, [0, 0, -9.8], [0.3, 0.3, 0.5])
    with pytest.warns(DeprecationWarning):
        assert klampt.comEquilibrium(contacts, [0, 0, -9.8], [2.0, 2.0, 0.5]) is None


def test_sample_transform_satisfies_the_objective():
    from klampt.math import se3, vectorops
    obj = klampt.IKObjective()
    obj.setFixedPoint(0, [0.5, 0, 0], [1, 2, 3])
    with pytest.warns(DeprecationWarning):
        T = robotsim.SampleTransform(obj)
    assert vectorops.distance(se3.apply(T, [0.5, 0, 0]), [1, 2, 3]) < 1e-9
    with pytest.raises(TypeError):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            robotsim.SampleTransform("not an objective")


def test_io_package_has_the_loader_functions(tmp_path):
    import klampt.io
    assert klampt.io.load is klampt.io.loader.load and klampt.io.to_json is klampt.io.loader.to_json
    fn = str(tmp_path / "q.config")
    klampt.io.save([1.0, 2.0, 3.5], "Config", fn)
    assert klampt.io.load("Config", fn) == [1.0, 2.0, 3.5]
    assert klampt.io.read("Vector", klampt.io.write([4.0, 5.0], "Vector")) == [4.0, 5.0]
    assert klampt.io.from_json(klampt.io.to_json([0.25, 1.0], "Vector"), "Vector") == [0.25, 1.0]


def test_star_imports_give_the_reference_names():
    ns = {}
    exec("from klampt.model.create import *", ns)
    assert ns["GeometricPrimitive"] is robotsim.GeometricPrimitive
    exec("from klampt.control.simrobotinterface import *", ns)
    from klampt.model.robotinfo import RobotInfo
    assert ns["RobotInfo"] is RobotInfo
    # (klampt.model.ik and klampt.vis.visualization list their own API in __all__, which the API docs follow)
    for module in ("klampt.vis", "klampt.sim", "klampt.model.collide", "klampt.io.loader"):
        ns = {}
        exec("from %s import *" % module, ns)
        assert ns["WorldModel"] is robotsim.WorldModel and ns["set_log_level"] is robotsim.set_log_level, module
        assert "motionplanning" not in ns and "_gl_methods" not in ns


# The SWIG containers: expectations read from the reference's behaviour.

def test_vector_is_a_list_with_cpp_methods():
    v = robotsim.doubleVector([1, 2, 3])
    assert list(v) == [1.0, 2.0, 3.0] and v.size() == 3 and v.back() == 3.0 and v.front() == 1.0
    assert isinstance(v[0:2], robotsim.doubleVector) and list(v[0:2]) == [1.0, 2.0]
    assert v.pop() == 3.0 and list(v) == [1.0, 2.0]
    v.push_back(5)
    v.append(6)
    v.insert(v.begin(), 9)
    assert list(v) == [9.0, 1.0, 2.0, 5.0, 6.0]
    v.resize(6)
    v.resize(7, 1.5)
    assert list(v) == [9.0, 1.0, 2.0, 5.0, 6.0, 0.0, 1.5]
    v.assign(3, 2.0)
    v.erase(v.begin())
    assert list(v) == [2.0, 2.0] and not v.empty()
    w = robotsim.doubleVector()
    v.swap(w)
    assert list(v) == [] and list(w) == [2.0, 2.0] and v.empty()
    assert list(robotsim.doubleVector(2)) == [0.0, 0.0] and list(robotsim.doubleVector(2, 3.0)) == [3.0, 3.0]
    assert list(robotsim.stringVector(["a", "b"])) == ["a", "b"]
    assert robotsim.doubleMatrix([[1, 2], [3]])[0] == (1.0, 2.0)
    with pytest.raises(TypeError):
        robotsim.intVector([1.5])
    with pytest.raises(TypeError):
        robotsim.stringVector([1])
    with pytest.raises(IndexError):
        v[10]


def test_iterators_walk_like_cpp_iterators():
    v = robotsim.doubleVector([1, 2, 3])
    it = v.begin()
    assert it.value() == 1.0 and it.incr().value() == 2.0
    assert v.end().distance(it) == -2 and it.distance(v.end()) == 2
    it = v.begin()
    assert (it.next(), it.next(), it.previous()) == (1.0, 2.0, 2.0)
    assert not it.equal(v.begin()) and it.copy() == it and it.copy() is not it
    assert v.rbegin().value() == 3.0 and list(v.iterator()) == [1.0, 2.0, 3.0]
    end = v.end()
    with pytest.raises(StopIteration):
        end.next()
    with pytest.raises(TypeError):
        it.distance(robotsim.doubleVector([1]).begin())


def test_string_map_is_an_ordered_dict_of_strings():
    m = robotsim.stringMap({"b": "2", "a": "1"})
    assert m.keys() == ["a", "b"] and m.values() == ["1", "2"] and m.items() == [("a", "1"), ("b", "2")]
    assert m.asdict() == {"a": "1", "b": "2"} and m.has_key("a") and m.count("a") == 1 and len(m) == 2
    m["c"] = "3"
    assert list(m.iterkeys()) == ["a", "b", "c"] and list(m.itervalues()) == ["1", "2", "3"]
    assert m.find("b").value() == ("b", "2") and m.find("z") == m.end()
    assert m.lower_bound("b").value() == ("b", "2") and m.upper_bound("b").value() == ("c", "3")
    m.erase("a")
    assert m.keys() == ["b", "c"] and m.begin().value() == ("b", "2") and m.rbegin().value() == ("c", "3")
    with pytest.raises(IndexError, match="key not found"):
        m["zz"]
    with pytest.raises(KeyError):
        m["zz"]
    with pytest.raises(TypeError):
        robotsim.stringMap({"a": 1})


def test_arrays_share_their_elements_through_frompointer():
    a = robotsim.doubleArray(3)
    a[0] = 1.5
    b = robotsim.doubleArray.frompointer(a.cast())
    assert b[0] == 1.5
    b[2] = 4
    assert a[2] == 4.0 and robotsim.doubleArray_frompointer(a)[2] == 4.0
    i = robotsim.intArray(2)
    i[1] = 3
    assert robotsim.intArray_frompointer(i.cast())[1] == 3
    with pytest.raises(IndexError):
        a[3]
    with pytest.raises(TypeError):
        i[0] = 0.5


def test_html_helpers_round_and_read_package_files():
    from klampt.io.html import make_fixed_precision, read_resource_contents
    data = {"a": [1.23456, (2.34567, "s")], "b": 3}
    out = make_fixed_precision(data, 2)
    assert out is data and data == {"a": [1.23, [2.35, "s"]], "b": 3}
    assert make_fixed_precision(0.123456, 3) == 0.123
    assert '__version__ = "%s"' % klampt.__version__ in read_resource_contents("klampt", "version.py")


def test_module_constants_of_the_reference():
    from klampt.vis.camera import basis_vectors, orientation_matrix
    from klampt.math import so3
    assert basis_vectors["-z"] == [0.0, 0.0, -1.0]
    R = orientation_matrix("x", "-z", "y")
    assert so3.matrix(R) == [basis_vectors["x"], basis_vectors["-z"], basis_vectors["y"]]
    from klampt.control.robotinterfaceutils import PART_NAME_SEPARATOR
    assert PART_NAME_SEPARATOR == "__"


@pytest.mark.parametrize("app", ["browser", "sim", "resource", "control"])
def test_reference_app_module_names_run_the_apps(app):
    r = subprocess.run([sys.executable, "-m", "klampt.apps.klampt_" + app, "--help"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and "usage: klampt_" + app in r.stdout, r.stdout + r.stderr


def test_klampt_sim_module_simulates_a_world(tmp_path):
    world = os.path.join(REPO, "data", "worlds", "arm_table.xml")
    r = subprocess.run([sys.executable, "-m", "klampt.apps.klampt_sim", "--duration", "0.1", world],
                       capture_output=True, text=True, timeout=180, cwd=str(tmp_path),
                       env={k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")})
    assert r.returncode == 0 and "klampt_sim: simulated 0.100 s" in r.stdout, r.stdout + r.stderr
