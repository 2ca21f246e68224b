"""The committed type stubs of the extension match the installed build
(regenerate them with scripts/gen_stubs.py)."""
import os
import subprocess
import sys

from conftest import REPO


def test_committed_stubs_are_current():
    script = os.path.join(REPO, "scripts", "gen_stubs.py")
    result = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
