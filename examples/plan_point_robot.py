"""A configuration space defined in Python: a point robot in the unit square
with two rectangular walls, planned with several planners (how to build a
C-space for a custom problem: subclass CSpace, give bounds and feasible()).

Run:  python examples/plan_point_robot.py
"""
import math
import random

from klampt.plan import motionplanning
from klampt.plan.cspace import CSpace, MotionPlan

WALLS = [((0.3, 0.0), (0.35, 0.7)), ((0.65, 0.3), (0.7, 1.0))]  # (lower corner, upper corner)


class PointInMaze(CSpace):
    """The free space: inside the unit square and outside the walls."""

    def __init__(self):
        CSpace.__init__(self)
        self.setBounds([(0.0, 1.0), (0.0, 1.0)])
        self.eps = 1e-3  # edges are checked every millimetre

    def feasible(self, q):
        if not self.inBounds(q):
            return False
        return not any(lo[0] <= q[0] <= hi[0] and lo[1] <= q[1] <= hi[1] for lo, hi in WALLS)


def main():
    start, goal = [0.1, 0.1], [0.9, 0.9]
    for settings in ({"type": "rrt", "perturbationRadius": 0.1, "bidirectional": 1},
                     {"type": "prm", "knn": 10}, {"type": "sbl", "perturbationRadius": 0.1},
                     {"type": "lazyprm*"}):
        motionplanning.set_random_seed(0)
        random.seed(0)
        space = PointInMaze()
        plan = MotionPlan(space, **settings)
        plan.setEndpoints(start, goal)
        iterations = 0
        while plan.getPath() is None and iterations < 10000:
            plan.planMore(10)
            iterations += 10
        path = plan.getPath()
        length = sum(math.dist(a, b) for a, b in zip(path[:-1], path[1:]))
        print("%-9s solved in %4d iterations: %2d milestones, length %.3f" % (
            settings["type"], iterations, len(path), length))
        plan.close()
        space.close()
        motionplanning.set_plan_json_string('{"type":"any"}')  # the next planner starts from the defaults


if __name__ == "__main__":
    main()
