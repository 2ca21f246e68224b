# Run with the reference python: records the motion queue of the reference's
# SimRobotController (remaining time, commanded configuration and velocity
# after every control period) after setMilestone / addMilestone /
# addMilestoneLinear / setLinear / addLinear / setCubic / setVelocity calls.
# Usage: python make_motion_queue_reference.py KLAMPT_DATA_DIR motion_queue_reference.json
import json
import os
import sys
import klampt

data = sys.argv[1]
STEP = 0.01  # sampling period of the commanded state: the control period


def rounded(x):
    """12 significant digits: far below the tests' tolerance, and a smaller file."""
    if isinstance(x, (list, tuple)):
        return [rounded(v) for v in x]
    return float("%.12g" % x)


def run(robot_file, calls, duration):
    """calls: list of (time, method, args). Samples the commanded state every STEP."""
    w = klampt.WorldModel()
    assert w.readFile(os.path.join(data, robot_file))
    sim = klampt.Simulator(w)
    c = sim.controller(0)
    samples, remaining = [], []
    pending = sorted(calls, key=lambda x: x[0])
    t = 0.0
    while t < duration - 1e-9:
        while pending and pending[0][0] <= t + 1e-9:
            _, method, args = pending.pop(0)
            getattr(c, method)(*args)
            remaining.append(rounded(c.remainingTime()))
        sim.simulate(STEP)
        t = sim.getTime()
        samples.append({"t": round(t, 12), "remaining": rounded(c.remainingTime()),
                        "q": rounded(c.getCommandedConfig()), "dq": rounded(c.getCommandedVelocity())})
    return {"robot": robot_file, "calls": calls, "remaining": remaining, "samples": samples}


TX = "robots/tx90l.rob"
UR = "robots/ur5.rob"
cases = {
    "from_rest": run(TX, [(0.0, "setMilestone", [[0, 0.6, -0.4, 0.5, 0.7, -0.5, 0.8]])], 1.2),
    "short_move": run(TX, [(0.0, "setMilestone", [[0, 0.01, 0.3, 0, 0, 0, -0.02]])], 0.8),
    "redirect_while_moving": run(TX, [(0.0, "setMilestone", [[0, 0.6, -0.4, 0.5, 0.7, -0.5, 0.8]]),
                                      (0.3, "setMilestone", [[0, -0.3, 0.2, 0.1, -0.4, 0.6, -0.5]])], 1.6),
    "end_velocity": run(TX, [(0.0, "setMilestone", [[0, 0.5, 0.2, -0.3, 0.1, 0.4, 0.3], [0, 0.2, -0.1, 0.3, 0, 0.1, 0.2]])], 1.2),
    "append": run(TX, [(0.0, "setMilestone", [[0, 0.4, -0.2, 0.3, 0.2, -0.1, 0.5]]),
                       (0.0, "addMilestone", [[0, -0.2, 0.3, 0.1, 0.5, 0.2, -0.4]])], 2.0),
    "append_linear": run(TX, [(0.0, "setMilestone", [[0, 0.4, -0.2, 0.3, 0.2, -0.1, 0.5]]),
                              (0.0, "addMilestoneLinear", [[0, -0.2, 0.3, 0.1, 0.5, 0.2, -0.4]])], 2.0),
    "ur5_long_move": run(UR, [(0.0, "setMilestone", [[0, 2.0, -1.5, 1.0, 0.5, -2.5, 1.0, 0]])], 3.0),
    "linear": run(TX, [(0.0, "setLinear", [[0, 0.3, 0, 0, 0, 0, 0], 0.5])], 0.7),
    "linear_appended": run(TX, [(0.0, "setLinear", [[0, 0.3, 0, 0, 0, 0, 0], 0.5]),
                                (0.0, "addLinear", [[0, 0.3, 0.3, 0, 0, 0, 0], 0.3])], 1.0),
    "cubic": run(TX, [(0.0, "setCubic", [[0, 0.3, 0.1, 0, 0, 0, 0], [0, 0.2, 0, 0, 0, 0, 0], 0.5])], 0.7),
    "velocity": run(TX, [(0.05, "setVelocity", [[0, 0.5, -0.2, 0, 0, 0, 0], 0.3])], 0.5),
    "milestone_then_linear": run(TX, [(0.0, "setMilestone", [[0, 0.3, 0, 0, 0, 0, 0]]),
                                      (0.2, "setLinear", [[0, 0.0, 0.2, 0, 0, 0, 0], 0.4])], 0.8),
}
with open(sys.argv[2], "w") as f:
    json.dump({"klamptVersion": klampt.__version__, "step": STEP, "cases": cases}, f)
