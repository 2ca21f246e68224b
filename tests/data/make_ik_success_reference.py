# Run with the reference python: records which of 200 seeded IK problems per
# shared robot klampt.model.ik solves (position only, position + orientation,
# solve_global with 10 restarts). tests/test_ik_success.py regenerates the same
# problems and checks that at least as many are solved.
#   python make_ik_success_reference.py KLAMPT_DATA_DIR ik_success_reference.json
import json
import os
import sys
import klampt

from ik_success_problems import seeded_problems, solve

ROBOTS = [("tx90l.rob", "Link_6"), ("ur5.rob", "ee_link"), ("kinova_gen3_7dof.urdf", None),
          ("baxter.rob", "right_gripper"), ("atlas.rob", "r_hand")]
PROBLEMS, SEED = 200, 2026


out = {"problems": PROBLEMS, "seed": SEED, "robots": {}}
for name, ee in ROBOTS:
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(sys.argv[1], "robots", name))
    robot = world.robot(0)
    link = robot.link(ee if ee is not None else robot.numLinks() - 1)
    problems = seeded_problems(robot, link, PROBLEMS, SEED)
    entry = {"link": link.getName(), "targets": [[round(v, 6) for v in t] for _, (R, t) in problems]}
    for mode in ["position", "pose", "global10"]:
        solved = ""
        for start, (R, t) in problems:
            robot.setConfig(start)
            solved += "1" if solve(link, mode, R, t) else "0"
        entry[mode] = solved
    out["robots"][name] = entry
json.dump(out, open(sys.argv[2], "w"))
