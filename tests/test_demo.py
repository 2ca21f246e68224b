"""The main demo runs on the project's data and prints what it promises."""
import os
import re
import subprocess
import sys

from conftest import REPO


def test_demo_runs_and_reports():
    demo = os.path.join(REPO, "examples", "demo.py")
    out = subprocess.run([sys.executable, demo], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "robot   arm6" in text
    assert text.count("collisions with the environment:") == 5
    assert "forearm-table" in text                     # the low reach hits the table
    residual = float(re.search(r"IK to the config-2 pose: solved, max residual (\S+)", text).group(1))
    assert residual < 1e-5
    moved = float(re.search(r"moved (\S+) m", text).group(1))
    assert moved > 0.05                                 # the arm pushed the block
    assert "status: normal" in text
