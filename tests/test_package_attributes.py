"""``import <package>`` alone makes the klampt submodules and functions its
attributes that it makes in Klamp't 0.10.1 and 0.9.2 (recorded by
tests/data/make_package_attributes_reference.py), but for the documented
differences of tests/data/public_name_differences.txt."""
import json
import os
import subprocess
import sys

import pytest

from test_public_names import DATA, RELEASES, matches, read_differences

sys.path.insert(0, DATA)
from make_package_attributes_reference import PACKAGES, PROBE  # noqa: E402


def reference(release):
    with open(os.path.join(DATA, "package_attributes_%s.json" % release)) as f:
        return json.load(f)["packages"]


@pytest.fixture(scope="module")
def package_attributes():
    out = {}
    for package in PACKAGES:
        r = subprocess.run([sys.executable, "-c", PROBE, package], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (package, r.stderr[-2000:])
        out[package] = json.loads(r.stdout.strip().splitlines()[-1])
    return out


@pytest.mark.parametrize("release", RELEASES)
def test_importing_a_package_gives_the_reference_attributes(package_attributes, release):
    patterns = [p for p, _, _ in read_differences()]
    missing = []
    for package, attributes in reference(release).items():
        for kind in ("modules", "functions"):
            for name in sorted(set(attributes[kind]) - set(package_attributes[package][kind])):
                if not any(matches(p, "%s:%s" % (package, name)) for p in patterns):
                    missing.append("%s:%s (%s)" % (package, name, kind[:-1]))
    assert not missing, "\n".join(missing)


def test_import_klampt_loads_no_vis_or_opengl():
    r = subprocess.run([sys.executable, "-c", "import sys, klampt, klampt.io, klampt.model\n"
                        "print(sorted(m for m in sys.modules if m.startswith(('OpenGL', 'klampt.vis'))))"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr
