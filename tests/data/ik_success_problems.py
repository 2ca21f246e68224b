"""The seeded IK problems that make_ik_success_reference.py recorded the
reference's successes on and test_ik_success.py solves again, and how each
mode solves them (public API only: both the reference's Python and this
package's run it)."""
import random

from klampt.model import ik


def _random_config(rng, qmin, qmax):
    """A configuration drawn by rng within the limits qmin..qmax cut to
    [-3, 3]; a joint whose qmin is not below its qmax gets qmin, without a
    draw."""
    return [rng.uniform(max(a, -3.0), min(b, 3.0)) if a < b else a for a, b in zip(qmin, qmax)]


def seeded_problems(robot, link, count, seed):
    """`count` problems (start configuration, target transform of `link`), all
    drawn from random.Random(seed): each target is the link's transform at a
    random configuration, drawn just before the start.  Leaves the robot at
    the last target's configuration."""
    qmin, qmax = robot.getJointLimits()
    rng = random.Random(seed)
    problems = []
    for _ in range(count):
        robot.setConfig(_random_config(rng, qmin, qmax))
        target = link.getTransform()
        problems.append((_random_config(rng, qmin, qmax), target))
    return problems


def solve(link, mode, R, t):
    """ik's answer for `link` to reach the target (R, t): its position only
    ("position"), the whole transform ("pose"), or the whole transform with
    solve_global's 10 random restarts ("global10")."""
    if mode == "position":
        return ik.solve(ik.objective(link, local=[0, 0, 0], world=t))
    if mode == "pose":
        return ik.solve(ik.objective(link, R=R, t=t))
    return ik.solve_global(ik.objective(link, R=R, t=t), numRestarts=10)
