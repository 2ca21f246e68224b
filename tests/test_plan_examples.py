"""The planning examples run and report what they promise."""
import os
import re
import subprocess
import sys

from conftest import REPO


def run_example(name):
    out = subprocess.run([sys.executable, os.path.join(REPO, "examples", name)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_plan_arm_plans_times_and_simulates():
    text = run_example("plan_arm.py")
    assert "straight motion collision-free: False" in text
    assert "robot configuration unchanged by planning: True" in text
    timed = float(re.search(r"timed path: (\S+) s", text).group(1))
    queued = float(re.search(r"controller's queued motion: (\S+) s", text).group(1))
    assert abs(timed - queued) < 1e-6  # the same ramps
    deviation, final = map(float, re.search(r"max deviation from the timed path (\S+) rad, final error (\S+) rad",
                                            text).groups())
    assert deviation < 0.1 and final < 0.01
    assert "arm touched the table or an object: False" in text


def test_point_robot_example():
    text = run_example("plan_point_robot.py")
    lengths = [float(x) for x in re.findall(r"length (\S+)", text)]
    assert len(lengths) == 4 and all(1.6 < x < 5 for x in lengths)  # the straight line is 1.13, walls in the way


def test_constraint_example():
    text = run_example("plan_with_constraint.py")
    assert int(re.search(r"straight motion: (\d+) configurations in the zone", text).group(1)) > 0
    assert "planned motion: 0 configurations in the zone" in text
