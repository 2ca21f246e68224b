# Run with the reference python: how often the reference's sbl planner,
# with the settings the shared api_behaviour.py script's goal-pair case runs
# with (perturbationRadius 0.1 and the connectionThreshold 0.1 that persists
# from its prm case), reaches a goal set on the 2-D circle-obstacle space
# within 500 iterations, over seeds 0..29.
# Usage: python make_goal_set_success_reference.py goal_set_success_reference.json
import json
import sys

from goal_set_runs import solved_runs

from klampt.plan import motionplanning

runs = solved_runs(motionplanning, seeds=range(30), iterations=500)
with open(sys.argv[1], "w") as f:
    json.dump({"planner": "sbl", "perturbationRadius": 0.1, "connectionThreshold": 0.1, "iterations": 500,
               "seeds": 30, "solved": runs}, f, indent=1)
