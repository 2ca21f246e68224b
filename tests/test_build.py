"""The installed package: the extension resolves every shared library, and
importing klampt needs no OpenGL, display or optional package."""
import os
import shutil
import subprocess
import sys

import pytest

import klampt
import klampt._robotsim as ext


def test_extension_resolves_all_shared_libraries():
    if not shutil.which("ldd"):
        pytest.skip("ldd is not available")
    out = subprocess.run(["ldd", ext.__file__], capture_output=True, text=True, check=True).stdout
    assert "not found" not in out, out
    # The native dependencies come from the cmeel wheels through the RPATH.
    for lib in ("libassimp", "libtinyxml2", "libode"):
        assert lib in out, "%s is not linked:\n%s" % (lib, out)


def test_native_libraries_report_versions():
    versions = klampt._robotsim.native_library_versions()
    assert set(versions) >= {"ode", "coal", "assimp", "tinyxml2", "qhull", "eigen"}
    assert versions["ode"].startswith("ODE")


def test_import_needs_no_opengl_or_display():
    code = (
        "import sys, klampt, klampt.math, klampt.robotsim\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('OpenGL', 'PyQt5', 'PyQt6', 'matplotlib')]\n"
        "assert not bad, bad\n"
        "assert klampt.robotsim.WorldModel is klampt.WorldModel\n"
    )
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=os.path.dirname(__file__))


def test_reference_names_are_reexported():
    for name in ("WorldModel", "RobotModel", "RobotModelLink", "RobotModelDriver", "RigidObjectModel",
                 "TerrainModel", "Mass", "ContactParameters", "Geometry3D", "Appearance", "set_random_seed"):
        assert getattr(klampt, name) is getattr(klampt.robotsim, name)
