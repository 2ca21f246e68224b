"""Every module of the package imports on its own in a fresh interpreter: no
import cycle makes one module need another to be imported first. A module
may only fail for an optional dependency that is not installed."""
import concurrent.futures
import os
import pkgutil
import subprocess
import sys

import klampt

# Packages of the optional extras (vis, jupyter, compas_fab, distributed).
OPTIONAL = {"OpenGL", "glfw", "PyQt5", "PyQt6", "PySide2", "PySide6", "IPython", "ipywidgets", "anywidget",
            "compas", "compas_fab", "compas_robots", "pybullet", "dask", "distributed", "open3d"}
# Reference modules that are deliberately unavailable: importing them raises
# ImportError saying why (docs/differences.md).
UNAVAILABLE = {"klampt.plan.kinetrajopt", "klampt.plan.robotoptimize"}

PROBE = """
import importlib, sys
optional = set(sys.argv[2].split(","))
try:
    importlib.import_module(sys.argv[1])
except ImportError as e:
    # Missing itself, or named by the module's own message.
    if (e.name or "").split(".")[0] not in optional and not any("'%s'" % o in str(e) for o in optional):
        raise
    print("optional dependency missing:", e)
"""


def modules():
    names = ["klampt"]
    for info in pkgutil.walk_packages(klampt.__path__, "klampt."):
        if info.name not in UNAVAILABLE:
            names.append(info.name)
    return sorted(names)


def import_alone(name):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    r = subprocess.run([sys.executable, "-c", PROBE, name, ",".join(sorted(OPTIONAL))], capture_output=True,
                       text=True, cwd=os.path.dirname(os.path.abspath(__file__)), env=env, timeout=120)
    return name, r.returncode, r.stderr.strip().splitlines()[-1:] if r.returncode else []


def test_every_module_imports_in_a_fresh_interpreter():
    names = modules()
    assert "klampt.model._timing" in names and "klampt.model.trajectory" in names
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        failed = [(n, err) for n, code, err in pool.map(import_alone, names) if code != 0]
    assert not failed, "\n".join("%s: %s" % (n, " ".join(err)) for n, err in failed)


def test_unavailable_modules_say_why():
    for name in sorted(UNAVAILABLE):
        _, code, err = import_alone(name)
        assert code != 0 and err and "ImportError" in err[0] and "not available" in err[0], (name, err)
