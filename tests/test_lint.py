"""The Python code meets the ruff rules configured in pyproject.toml."""
import os
import shutil
import subprocess
import sys

from conftest import REPO


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff") or os.path.join(os.path.dirname(sys.executable), "ruff")
    r = subprocess.run([ruff, "check", "--no-cache", "src", "tests", "benchmarks", "examples", "scripts"], cwd=REPO,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
