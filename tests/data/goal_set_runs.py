"""The goal-set runs of the 2-D circle-obstacle space that
make_goal_set_success_reference.py records on the reference and
test_plan_api_behaviour.py repeats here (public API only)."""
import math
import random

from klampt.plan.cspace import CSpace, MotionPlan


class CircleObstacleSpace(CSpace):
    """A point in the unit square outside the disc of radius 0.36 at its centre."""

    def __init__(self):
        CSpace.__init__(self)
        self.bound = [(0.0, 1.0), (0.0, 1.0)]
        self.eps = 1e-3

    def feasible(self, q):
        return CSpace.feasible(self, q) and math.hypot(q[0] - 0.5, q[1] - 0.5) > 0.36


def solved_runs(motionplanning, seeds, iterations):
    """The seeds whose sbl plan from (0.06, 0.5) to the set x > 0.9 (goals
    drawn in [0.9, 1] x [0, 1]) is solved within `iterations`."""
    solved = []
    for seed in seeds:
        motionplanning.set_random_seed(seed)
        random.seed(seed)
        space = CircleObstacleSpace()
        space.setup(reinit=True)
        plan = MotionPlan(space, "sbl", perturbationRadius=0.1, connectionThreshold=0.1, knn=10)
        plan.setEndpoints([0.06, 0.5], (lambda q: q[0] > 0.9, lambda: [random.uniform(0.9, 1.0), random.uniform(0, 1)]))
        plan.planMore(iterations)
        if plan.getPath() is not None:
            solved.append(seed)
        plan.close()
        space.close()
    return solved
