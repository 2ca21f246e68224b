"""The main demo runs on the project's data and prints what it promises."""
import os
import re
import subprocess
import sys

from conftest import REPO


def test_demo_runs_and_reports(tmp_path):
    demo = os.path.join(REPO, "examples", "demo.py")
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    out = subprocess.run([sys.executable, demo], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
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
    # the picture of the end of the push shows the grey arm over the floor
    import numpy as np
    from PIL import Image
    assert "drawn by klampt.vis: %s" % (tmp_path / "demo.png") in text
    img = np.asarray(Image.open(tmp_path / "demo.png").convert("RGB")).astype(int)
    grey = (img.max(axis=2) - img.min(axis=2) < 12) & (img.max(axis=2) > 40)
    assert grey.mean() > 0.05
    from vis_helpers import one_colour_share
    assert one_colour_share(img) < 0.5
