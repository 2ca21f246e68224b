"""IK success rates on seeded random reachable targets.

For each shared robot, 200 problems (a target made by forward kinematics of a
random configuration, and a random start) are regenerated exactly as
tests/data/make_ik_success_reference.py made them under the reference
Klamp't 0.9.2, which recorded which ones its klampt.model.ik solved. The
solver must solve at least as many of the same problems: position only and
position + orientation from the same starts, and solve_global with 10 random
restarts. Every reported success is checked by forward kinematics and joint
limits."""
import json
import os

import pytest

import klampt
from klampt.math import so3, vectorops
from conftest import SHARED_DATA, assert_close, require_shared_data
from ik_success_problems import seeded_problems, solve

with open(os.path.join(os.path.dirname(__file__), "data", "ik_success_reference.json")) as f:
    REFERENCE = json.load(f)

TOL = 1e-3  # ik.solve's default: on each residual entry


@pytest.fixture(scope="module", params=sorted(REFERENCE["robots"]))
def case(request):
    require_shared_data()
    name = request.param
    entry = REFERENCE["robots"][name]
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(SHARED_DATA, "robots", name))
    robot = world.robot(0)
    link = robot.link(entry["link"])
    problems = seeded_problems(robot, link, REFERENCE["problems"], REFERENCE["seed"])
    # Same problems as the reference's (its forward kinematics gave these).
    assert_close([t for _, (R, t) in problems], entry["targets"], atol=2e-6, rtol=0, what=name + " targets")
    return world, robot, link, problems, entry


@pytest.mark.parametrize("mode", ["position", "pose", "global10"])
def test_solves_at_least_as_many_as_reference(case, mode):
    world, robot, link, problems, entry = case
    qmin, qmax = robot.getJointLimits()
    klampt.set_random_seed(11)
    solved = []
    for k, (start, (R, t)) in enumerate(problems):
        robot.setConfig(start)
        ok = solve(link, mode, R, t)
        if not ok:
            continue
        Ra, ta = link.getTransform()
        # A max-norm residual <= TOL puts the point within sqrt(3) TOL.
        assert vectorops.distance(ta, t) <= 3 ** 0.5 * TOL + 1e-9, "problem %d: position off" % k
        if mode != "position":
            assert so3.distance(Ra, R) <= 3 ** 0.5 * TOL + 1e-9, "problem %d: rotation off" % k
        q = robot.getConfig()
        assert all(lo - 1e-9 <= v <= hi + 1e-9 for lo, v, hi in zip(qmin, q, qmax)), "problem %d: limits" % k
        solved.append(k)
    expected = entry[mode].count("1")
    assert len(solved) >= expected, "%d of %d solved, the reference solved %d" % (len(solved), len(problems),
                                                                                  expected)
