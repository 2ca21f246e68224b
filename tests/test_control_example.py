"""examples/control_pick.py drives the demo arm through its pick motion:
the tool descends and lifts 8 cm, the arm ends home, and the tracking
errors it prints are those of a servo that follows (not hard-coded)."""
import os
import re
import subprocess
import sys

import pytest

from conftest import REPO

PHASE = re.compile(r"^(\S+)\s+(\S+) s  max joint error (\S+) rad  max tool error (\S+) mm  tool at "
                   r"\((\S+), (\S+), (\S+)\)$", re.M)


def test_pick_example_runs_and_reports_tracking():
    out = subprocess.run([sys.executable, os.path.join(REPO, "examples", "control_pick.py")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    phases = {m.group(1): [float(x) for x in m.groups()[1:]] for m in PHASE.finditer(out.stdout)}
    assert list(phases) == ['pre-grasp', 'descend', 'close', 'lift', 'home']
    z = {name: p[5] for name, p in phases.items()}
    assert z['pre-grasp'] - z['descend'] == pytest.approx(0.08, abs=2e-3)
    assert z['lift'] - z['descend'] == pytest.approx(0.08, abs=2e-3)
    # a straight-line move at speed 0.5 lasts 2 s (plus 0.3 s of settling)
    assert phases['descend'][0] == pytest.approx(2.3, abs=0.05)
    for name, (t, joint, tool, *_) in phases.items():
        assert 0 < joint < 0.15 and 0 < tool < 30, name
    # slow Cartesian phases track more closely than the fast joint moves
    assert phases['descend'][2] < phases['pre-grasp'][2]
    final = re.search(r"Final distance from home (\S+) rad, status (\S+)", out.stdout)
    assert float(final.group(1)) < 0.02 and final.group(2) == 'ok'
