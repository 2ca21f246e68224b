"""Every public name of Klamp't 0.10.1 and 0.9.2 exists here, or is a
documented difference.

The reference names were recorded by tests/data/make_public_names.py (the
`robotsim` classes with their members, and per module the names that are
Klamp't's own: its functions and classes, the `robotsim` names it
re-exports, its klampt submodules). Here each is looked up as an attribute,
in a fresh interpreter that imports every module first, so a package's
submodules count once they exist (what ``import klampt.model`` alone gives
is tested in test_package_attributes.py).

A name is written ``Class.member`` (a `robotsim` class member),
``module:name`` (a module's name) or ``module:`` (the module itself, when it
does not import here). tests/data/public_name_differences.txt lists the names
this package does not have, each pattern with its reason; an entry that no
longer matches a missing name fails the test, so the list only shrinks.
"""
import fnmatch
import json
import os
import subprocess
import sys

import pytest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
RELEASES = ("0.10.1", "0.9.2")
DIFFERENCES = os.path.join(DATA, "public_name_differences.txt")

# Imports every module of this klampt, then records its classes' members and
# its modules' public attributes (a reference name counts as present when the
# attribute exists, whatever it holds); a module that does not import is read
# from its source with the recorder's function.
PROBE = r"""
import importlib, io, json, pkgutil, sys, warnings
from contextlib import redirect_stdout, redirect_stderr
sys.path.insert(0, sys.argv[1])
import make_public_names as recorder
import klampt
from klampt import robotsim
warnings.simplefilter("ignore")
modules, failed = {"klampt": klampt}, {}
for info in pkgutil.walk_packages(klampt.__path__, "klampt.", onerror=lambda n: None):
    if any(part.startswith("_") for part in info.name.split(".")[1:]):
        continue
    try:
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            modules[info.name] = importlib.import_module(info.name)
    except BaseException as e:
        spec = info.module_finder.find_spec(info.name.rsplit(".", 1)[-1])
        failed[info.name] = sorted(recorder.top_level_assignments(spec.origin))
classes = {name: sorted(n for n in dir(obj) if not n.startswith("_") and n != "thisown")
           for name, obj in vars(robotsim).items()
           if not name.startswith("_") and isinstance(obj, type) and obj.__module__.startswith("klampt")}
json.dump({"robotsim": classes, "modules": {n: sorted(k for k in dir(m) if not k.startswith("_"))
                                             for n, m in modules.items()},
           "failed": failed}, sys.stdout)
"""


def load_reference(release):
    with open(os.path.join(DATA, "public_names_%s.json" % release)) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def ours():
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", PROBE, DATA], capture_output=True, text=True, env=env, timeout=600,
                       cwd=os.path.dirname(os.path.abspath(__file__)))
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def missing_names(reference, ours):
    """The names of a reference record that ours lacks, in the notation above."""
    out = set()
    for cls, members in reference["robotsim"].items():
        have = set(ours["robotsim"].get(cls, ()))
        out.update("%s.%s" % (cls, m) for m in members if m not in have)
    read_from_source = set(reference["read_from_source"])
    for module, names in reference["modules"].items():
        if module in ours["modules"]:
            have = set(ours["modules"][module])
        elif module in ours["failed"] and module in read_from_source:
            # neither imports it (an optional dependency both lack): compare the sources
            have = set(ours["failed"][module])
        else:
            out.add(module + ":")
            have = set()
        out.update("%s:%s" % (module, n) for n in names if n not in have)
    return out


def read_differences(path=DIFFERENCES):
    """[(pattern, section, reason)] of the differences file. A line is
    ``pattern reason...``; ``[section]`` lines head the sections; ``#`` starts
    a comment line."""
    entries, section = [], None
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1]
                continue
            pattern, _, reason = line.partition(" ")
            assert section and reason.strip(), "%s:%d: an entry needs a section and a reason" % (path, number)
            entries.append((pattern, section, reason.strip()))
    return entries


def matches(pattern, name):
    """Whether a differences pattern covers a name: a pattern with ':' covers
    module names, one without covers class members."""
    return (":" in pattern) == (":" in name) and fnmatch.fnmatchcase(name, pattern)


def test_differences_file_is_well_formed():
    entries = read_differences()
    patterns = [p for p, _, _ in entries]
    assert len(patterns) == len(set(patterns)), "an entry is listed twice"
    assert {s for _, s, _ in entries} <= {"pending", "differences"}
    assert matches("klampt.io.ros:*", "klampt.io.ros:") and matches("klampt.io.ros:*", "klampt.io.ros:to_msg")
    assert matches("Heightmap.*", "Heightmap.getSize") and not matches("Heightmap.*", "klampt.vis:Heightmap.x")
    assert not matches("*:Heightmap", "klampt.vis:HeightmapX")


def test_the_comparison_finds_a_missing_name_and_module():
    reference = {"robotsim": {"A": ["f", "g"]}, "read_from_source": ["m.q"],
                 "modules": {"m": ["x", "y"], "m.n": ["z"], "m.q": ["w"]}}
    ours = {"robotsim": {"A": ["f"]}, "modules": {"m": ["x"]}, "failed": {"m.n": ["z"], "m.q": ["w"]}}
    # m.n imports in the reference but not here; m.q imports in neither, and its source has w
    assert missing_names(reference, ours) == {"A.g", "m:y", "m.n:", "m.n:z"}


@pytest.mark.parametrize("release", RELEASES)
def test_every_reference_name_exists_or_is_a_documented_difference(ours, release):
    missing = missing_names(load_reference(release), ours)
    patterns = [p for p, _, _ in read_differences()]
    undocumented = sorted(n for n in missing if not any(matches(p, n) for p in patterns))
    assert not undocumented, "%d names of Klamp't %s are missing here:\n%s" % (
        len(undocumented), release, "\n".join(undocumented))


def test_no_difference_entry_is_stale(ours):
    missing = set()
    for release in RELEASES:
        missing |= missing_names(load_reference(release), ours)
    stale = [p for p, _, _ in read_differences() if not any(matches(p, n) for n in missing)]
    assert not stale, "these names exist now; remove them from %s:\n%s" % (DIFFERENCES, "\n".join(stale))
