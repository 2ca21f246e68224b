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
