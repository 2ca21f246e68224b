"""The C++ core's areas depend downward only: an area's headers and sources
include the areas of lower rank, never one of its own rank or above (so
geometry does not know robots and planning does not reach into simulation).
The order is the one docs/architecture.md gives."""
import os
import re

import pytest

CPP = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cpp")
RANK = {"math": 0, "geometry": 1, "model": 2, "dynamics": 3, "ik": 3, "io": 4, "plan": 4, "sim": 5, "batch": 6}
INCLUDE = re.compile(r'^\s*#\s*include\s+"klampt/([a-z_]+)/', re.M)


def _files(area):
    for top in (os.path.join(CPP, "include", "klampt", area), os.path.join(CPP, "src", area)):
        for d, _, names in os.walk(top):
            yield from (os.path.join(d, n) for n in names if n.endswith((".h", ".cpp")))


def test_every_area_is_ranked():
    areas = {n for n in os.listdir(os.path.join(CPP, "src")) if os.path.isdir(os.path.join(CPP, "src", n))}
    assert areas <= set(RANK), "rank the new areas in RANK and docs/architecture.md: %s" % (areas - set(RANK))


@pytest.mark.parametrize("area", sorted(RANK))
def test_area_includes_only_lower_areas(area):
    upward = []
    for path in _files(area):
        with open(path, encoding="utf-8") as f:
            for used in INCLUDE.findall(f.read()):
                if used != area and used in RANK and RANK[used] >= RANK[area]:
                    upward.append("%s includes klampt/%s/" % (os.path.relpath(path, CPP), used))
    assert not upward, "\n".join(upward)
