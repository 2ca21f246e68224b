# Run with the reference python: records WorldCollider answers on shared worlds.
import json
import sys
import random
import klampt
from klampt.model import collide
data = sys.argv[1]
out = {}
random.seed(3)
for wname in ['tx90blocks.xml', 'tx90cuptable.xml', 'tx90obstacles.xml', 'tx90scenario0.xml']:
    w = klampt.WorldModel()
    assert w.readFile(data + '/' + wname)
    r = w.robot(0)
    qmin, qmax = r.getJointLimits()
    wc = collide.WorldCollider(w)
    cases = []
    for k in range(12):
        q = [random.uniform(a if a > -7 else -3.1, b if b < 7 else 3.1) for a, b in zip(qmin, qmax)]
        if k == 0:
            q = r.getConfig()
        r.setConfig(q)
        def names(pairs):
            return sorted([[a.getName(), b.getName(), a.getID() == b.getID()] for a, b in pairs])
        case = {'q': q,
                'collisions': names(wc.collisions()),
                'self': names(wc.robotSelfCollisions(0)),
                'terrain': names(wc.robotTerrainCollisions(0)),
                'object': names(wc.robotObjectCollisions(0))}
        s = [0.0, 0.0, 2.0]
        d = [random.uniform(-0.3, 0.3), random.uniform(-0.3, 0.3), -1.0]
        n = sum(x * x for x in d) ** 0.5
        d = [x / n for x in d]
        hit = wc.rayCast(s, d)
        case['ray'] = [s, d, None if hit is None else [hit[0].getName(), list(hit[1])]]
        hit = wc.rayCastRobot(0, [2.0, 0.1, 0.6], [-1, 0, 0])
        case['ray_robot'] = None if hit is None else [hit[0].getName(), list(hit[1])]
        cases.append(case)
    out[wname] = {'geomList': [b.getName() for b, g in wc.geomList], 'mask_sizes': [len(m) for m in wc.mask], 'cases': cases}
json.dump(out, open(sys.argv[2], 'w'), indent=0)
