"""The wheel of scripts/build_wheel.sh installs into a fresh virtual
environment with numpy and scipy only (none of the native libraries' wheels)
and runs there: every shared library the extension loads resolves inside the
wheel or is a base system library, ODE's included."""
import glob
import os
import subprocess
import sys

import pytest

from conftest import REPO

# What a manylinux wheel may take from the system.
SYSTEM_LIBS = ("linux-vdso", "ld-linux", "libc.so", "libm.so", "libdl.so", "librt.so", "libpthread.so",
               "libstdc++.so", "libgcc_s.so", "libz.so")

SIMULATE = """
import klampt
w = klampt.WorldModel()
box = w.makeRigidObject("box")
p = klampt.GeometricPrimitive()
p.setBox([-0.05, -0.05, -0.05], [1, 0, 0, 0, 1, 0, 0, 0, 1], [0.1, 0.1, 0.1])
box.geometry().setGeometricPrimitive(p)
box.setTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 1.0])
sim = klampt.Simulator(w)
sim.simulate(0.3)
z = box.getTransform()[1][2]
# Free fall, stepped by semi-implicit Euler at 1 ms: 1 - g dt^2 n (n + 1) / 2.
assert abs(z - (1 - 0.5 * 9.8 * 1e-6 * 300 * 301)) < 1e-9, z
print(klampt._robotsim.__file__)
"""


@pytest.fixture(scope="module")
def wheel():
    found = glob.glob(os.path.join(REPO, "wheelhouse", "klampt-*.whl"))
    if not found:
        subprocess.run(["bash", os.path.join(REPO, "scripts", "build_wheel.sh"), sys.executable], check=True)
        found = glob.glob(os.path.join(REPO, "wheelhouse", "klampt-*.whl"))
    assert len(found) == 1, found
    return found[0]


def test_the_wheel_carries_its_native_libraries(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    subprocess.run([py, "-m", "pip", "install", "-q", "--no-deps", wheel], check=True)
    subprocess.run([py, "-m", "pip", "install", "-q", "numpy", "scipy"], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    run = subprocess.run([py, "-c", SIMULATE], capture_output=True, text=True, cwd=str(tmp_path), env=env)
    assert run.returncode == 0, run.stderr
    extension = run.stdout.strip().splitlines()[-1]
    assert extension.startswith(str(venv)), extension
    out = subprocess.run(["ldd", extension], capture_output=True, text=True, check=True, env=env).stdout
    assert "not found" not in out, out
    libs = [line.split() for line in out.splitlines() if line.strip()]
    outside = [parts[0] for parts in libs
               if "=>" in parts and not parts[2].startswith(str(venv)) and not parts[0].startswith(SYSTEM_LIBS)]
    assert not outside, "loaded from outside the wheel: %s\n%s" % (outside, out)
    ode = [parts for parts in libs if parts[0].startswith("libode")]
    assert ode and ode[0][2].startswith(str(venv / "lib")), out
