"""examples/compas_fab_pick.py runs and reaches its pick frame."""
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("compas_fab")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_pick_example_plans_approach_insertion_and_retreat():
    out = subprocess.run([sys.executable, os.path.join(REPO, "examples", "compas_fab_pick.py")], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    counts = {name: int(n) for name, n in re.findall(r"^(approach|insertion|retreat) .*: (\d+) points", text, re.M)}
    assert set(counts) == {"approach", "insertion", "retreat"}
    # 0.15 m straight down and back in steps of at most 1 cm
    assert counts["insertion"] >= 16 and counts["retreat"] >= 16 and counts["approach"] >= 2
    reached, asked = re.search(r"tool at the pick: \(([^)]*)\), asked \(([^)]*)\)", text).groups()
    assert max(abs(float(a) - float(b)) for a, b in zip(reached.split(","), asked.split(","))) < 1e-3
    rows = [list(map(float, line.split()[1:])) for line in text.splitlines() if re.match(r"^\s+\d+\s+-?\d", line)]
    assert rows and all(len(r) == 6 for r in rows)


def test_pick_and_place_example_plans_the_whole_chain():
    out = subprocess.run([sys.executable, os.path.join(REPO, "examples", "compas_fab_pick_and_place.py")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    names = [line.split()[0] for line in lines[:-1]]
    assert names == ["approach", "contact", "grasp", "retract", "transfer", "place", "release", "retreat"]
    durations = [float(d) for d in re.findall(r"points, ([\d.]+) s$", out.stdout, re.M)]
    assert len(durations) == 6 and all(d > 0 for d in durations)
    total, x, y, z, attached = re.search(r"total: ([\d.]+) s; the cube ends at \(([-\d.]+), ([-\d.]+), ([-\d.]+)\), "
                                         r"attached to (\w+)", lines[-1]).groups()
    assert float(total) == pytest.approx(sum(durations), abs=2e-3)
    # placed 1 mm above where it lay (its centre at half its edge + 1 mm), at the place position, released
    assert (float(x), float(y), float(z)) == pytest.approx((0.2, 0.5, 0.022), abs=2e-4) and attached == "None"
