# Run with Klamp't 0.10.1's python (with cvxpy): records the reference
# KineTrajOpt's result for the TX90's swing around the posts of
# tx90obstacles.xml, the problem of test_kinetrajopt.py (the reference needs
# geom_index to skip the flange, which has no geometry, and obs_index to skip
# the ground).
#   /work/ref010/bin/python make_kinetrajopt_reference.py KLAMPT_DATA_DIR kinetrajopt_reference.json
import json
import sys
import numpy as np
import klampt
import klampt.plan.kinetrajopt as kt
data = sys.argv[1]
w = klampt.WorldModel()
assert w.readFile(data + '/tx90obstacles.xml')
r = w.robot(0)
active = [1, 2, 3, 4, 5, 6]
# test_kinetrajopt's arm_config(1.0) and arm_config(-1.3)
q0 = np.array([1.0, 1.4, 0.0, 0.0, 0.8, 0.0])
qf = np.array([-1.3, 1.4, 0.0, 0.0, 0.8, 0.0])
opt = kt.KineTrajOpt(w, r, q0=q0, qf=qf, link_index=active, geom_index=[1, 2, 3, 4, 5, 7, 8, 9, 10, 11],
                     obs_index=list(range(1, w.numTerrains())))
res = opt.optimize(np.linspace(q0, qf, 10))
out = {'klampt': klampt.__version__, 'q0': q0.tolist(), 'qf': qf.tolist(), 'N': 10,
       'success': bool(res['success']), 'cost': float(res['cost']), 'sol': np.asarray(res['sol']).tolist()}
json.dump(out, open(sys.argv[2], 'w'), indent=0)
