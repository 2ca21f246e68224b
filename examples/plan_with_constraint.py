"""A robot motion with a constraint of your own: swing the demo arm from one
side of the table to the other while keeping its end effector out of a
no-go zone above the middle of the table (say, where a person reaches in).
The straight motion would sweep through the zone. The constraint is a
feasibility test passed as extraConstraints; the planner calls it with the
robot set to the configuration being tested.

Run:  python examples/plan_with_constraint.py
"""
import os
import warnings

import klampt
from klampt.plan import motionplanning, robotplanning

HERE = os.path.dirname(os.path.abspath(__file__))
WORLD = os.path.join(HERE, "..", "data", "worlds", "arm_table.xml")
START = [0, -1.0, 0.4, 0.8, 0, 1.2, 0]
GOAL = [0, 1.0, 0.4, 0.8, 0, 1.2, 0]
ZONE = ([0.4, -0.25, 0.75], [1.0, 0.25, 1.6])  # lower and upper corners (m)


def in_zone(p):
    return all(lo <= x <= hi for x, lo, hi in zip(p, ZONE[0], ZONE[1]))


def entries(robot, link, path, step=0.01):
    """How many configurations every `step` rad along the path put the link in the zone."""
    saved = robot.getConfig()
    count = 0
    for a, b in zip(path[:-1], path[1:]):
        n = max(1, int(robot.distance(a, b) / step))
        for k in range(n + 1):
            robot.setConfig(robot.interpolate(a, b, k / n))
            count += in_zone(link.getTransform()[1])
    robot.setConfig(saved)
    return count


def main():
    world = klampt.WorldModel()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        world.readFile(WORLD)
    robot = world.robot(0)
    ee = robot.link(robot.numLinks() - 1)
    print("straight motion: %d configurations in the zone" % entries(robot, ee, [START, GOAL]))

    def outside_zone(q):
        return not in_zone(ee.getTransform()[1])

    motionplanning.set_random_seed(0)
    robot.setConfig(START)
    # Start and goal differ in the base joint only: by default ('auto') only
    # it would move. Let the whole arm move.
    plan = robotplanning.plan_to_config(world, robot, GOAL, extraConstraints=[outside_zone],
                                        movingSubset=[1, 2, 3, 4, 5, 6],
                                        **robotplanning.preferred_plan_options(robot))
    iterations = 0
    while plan.getPath() is None and iterations < 5000:
        plan.planMore(10)
        iterations += 10
    path = plan.getPath()
    print("solved in %d iterations, %d milestones" % (iterations, len(path)))
    print("planned motion: %d configurations in the zone" % entries(robot, ee, path))


if __name__ == "__main__":
    main()
