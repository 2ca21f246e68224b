"""The installed package: the extension resolves every shared library, and
importing klampt needs no OpenGL, display or optional package."""
import json
import os
import shutil
import subprocess
import sys
import warnings

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
        "bad = [m for m in sys.modules if m.split('.')[0] in\n"
        "       ('OpenGL', 'PyQt5', 'PyQt6', 'PySide2', 'PySide6', 'IPython', 'matplotlib')]\n"
        "assert not bad, bad\n"
        # klampt.model is an attribute of klampt, as in Klamp't, through its light typing module only.
        "assert not [m for m in sys.modules if m.startswith('klampt.') and m.split('.')[1] in\n"
        "            ('model', 'io', 'plan', 'sim', 'vis', 'control') and m not in ('klampt.model', 'klampt.model.typing')]\n"
        "assert klampt.robotsim.WorldModel is klampt.WorldModel\n"
    )
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=os.path.dirname(__file__))


def test_reference_names_are_reexported():
    for name in ("WorldModel", "RobotModel", "RobotModelLink", "RobotModelDriver", "RigidObjectModel",
                 "TerrainModel", "Mass", "ContactParameters", "Geometry3D", "Appearance", "set_random_seed"):
        assert getattr(klampt, name) is getattr(klampt.robotsim, name)


# klampt.__all__ of the reference: Klamp't 0.9.2's core classes and those 0.10.1's
# adds, then subpackages.
REFERENCE_ALL_CLASSES = [
    'WorldModel', 'RobotModel', 'RobotModelLink', 'RigidObjectModel', 'TerrainModel', 'Mass', 'ContactParameters',
    'SimRobotController', 'SimRobotSensor', 'SimBody', 'SimJoint', 'Simulator',
    'Geometry3D', 'Appearance', 'DistanceQuerySettings', 'DistanceQueryResult', 'ContactQueryResult',
    'TriangleMesh', 'PointCloud', 'GeometricPrimitive', 'ConvexHull', 'VolumeGrid',
    'IKObjective', 'IKSolver', 'GeneralizedIKObjective', 'GeneralizedIKSolver', 'SensorModel', 'ImplicitSurface',
    'Heightmap', 'OccupancyGrid']
REFERENCE_ALL_SUBPACKAGES = ['model', 'io', 'plan', 'sim', 'vis', 'control']


def test_star_import_gives_the_reference_names():
    """Every subpackage of the reference's list that this package has must come
    with `*`; the ones it does not have yet are reported as a warning."""
    code = ("import json\n"
            "ns = {}\n"
            "exec('from klampt import *', ns)\n"
            "print(json.dumps({k: getattr(v, '__name__', None) for k, v in ns.items() if k != '__builtins__'}))\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                         cwd=os.path.dirname(__file__)).stdout
    names = json.loads(out.strip().splitlines()[-1])
    present = [p for p in REFERENCE_ALL_SUBPACKAGES
               if any(os.path.isfile(os.path.join(d, p, "__init__.py")) for d in klampt.__path__)]
    assert set(names) == set(REFERENCE_ALL_CLASSES) | set(present)
    for cls in REFERENCE_ALL_CLASSES:
        # 0.10's SensorModel and ImplicitSurface are SimRobotSensor and VolumeGrid under another name
        assert names[cls] == getattr(klampt.robotsim, cls).__name__ and getattr(klampt, cls) is getattr(klampt.robotsim, cls)
    for p in present:
        assert names[p] == "klampt." + p
    missing = [p for p in REFERENCE_ALL_SUBPACKAGES if p not in present]
    if missing:
        warnings.warn("subpackages of the reference's klampt.__all__ not provided yet: " + ", ".join(missing))
