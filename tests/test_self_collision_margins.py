"""Robot self-collision with collision margins on the links, checked against
the mesh-mesh distance of every enabled link pair (a separate traversal of
the trees; Geometry3D.distance subtracts both margins): a configuration
self-collides exactly when some pair's surfaces are within the sum of the
two margins."""
import os
import random

import klampt

from conftest import SHARED_DATA, require_shared_data


def pairs_within(robot, margins):
    """Enabled pairs within their margins, those whose surfaces also touch,
    and whether any distance is within 1e-6 of a decision edge."""
    pairs, touching, borderline = [], [], False
    for i in range(robot.numLinks()):
        for j in range(i + 1, robot.numLinks()):
            a, b = robot.link(i).geometry(), robot.link(j).geometry()
            if not robot.selfCollisionEnabled(i, j) or a.empty() or b.empty():
                continue
            d = a.distance(b).d  # surface distance minus both margins
            surface = d + margins[i] + margins[j]
            # (mesh surfaces that cross are at distance 0)
            borderline |= abs(d) < 1e-6 or 1e-9 < surface < 1e-6
            if d <= 0:
                pairs.append((i, j))
            if surface <= 1e-9:
                touching.append((i, j))
    return pairs, touching, borderline


def test_self_collides_with_margins_matches_distances():
    require_shared_data()
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(SHARED_DATA, "robots", "ur5.rob"))
    robot = world.robot(0)
    rng = random.Random(7)
    margins = [rng.choice([0.0, 0.006, 0.012]) for _ in range(robot.numLinks())]
    for i, m in enumerate(margins):
        robot.link(i).geometry().setCollisionMargin(m)
    qmin, qmax = robot.getJointLimits()
    checked = collided = by_margin_only = 0
    for _ in range(40):
        robot.setConfig([rng.uniform(max(a, -3.0), min(b, 3.0)) for a, b in zip(qmin, qmax)])
        expected, touching, borderline = pairs_within(robot, margins)
        if borderline:
            continue
        checked += 1
        collided += bool(expected)
        by_margin_only += bool(expected) and not touching
        assert robot.selfCollides() == bool(expected)
    assert checked >= 30
    assert 0 < collided < checked, "the configurations should include both outcomes"
    assert by_margin_only > 0, "some configurations should collide only through the margins"
