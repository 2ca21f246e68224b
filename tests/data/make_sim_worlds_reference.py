# Run with the reference python: where the rigid objects of the shared
# simulation test worlds are (and the robots' configurations) every 0.5 s
# over 3 s of simulation with each world's own settings.
# Usage: python make_sim_worlds_reference.py KLAMPT_DATA_DIR sim_worlds_reference.json
import glob
import json
import os
import sys
import klampt

data = sys.argv[1]
out = {}
for path in sorted(glob.glob(os.path.join(data, "simulation_test_worlds", "*.xml"))):
    w = klampt.WorldModel()
    if not w.readFile(path):
        continue
    sim = klampt.Simulator(w)
    samples = []
    for _ in range(6):
        sim.simulate(0.5)
        samples.append({"objects": [[round(x, 9) for x in sim.body(w.rigidObject(i)).getTransform()[1]]
                                    for i in range(w.numRigidObjects())],
                        "robots": [[round(x, 9) for x in sim.getActualConfig(r)] for r in range(w.numRobots())]})
    out[os.path.basename(path)] = samples
with open(sys.argv[2], "w") as f:
    json.dump({"klamptVersion": klampt.__version__, "period": 0.5, "worlds": out}, f)
