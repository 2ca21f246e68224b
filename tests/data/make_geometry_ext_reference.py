# Run with the reference python (Klamp't 0.10.1) from this folder:
#   python make_geometry_ext_reference.py geometry_ext_reference.json
# Records contains_point answers and the results of merge on the cases of
# geometry_ext_cases.py, and an ImplicitSurface merge: the grid's values
# before and after merging a sphere. (Not collides_ext / withinDistance_ext:
# the reference's pairs disagree with its own collides, e.g. [] for a box
# mesh that collides with a sphere.)
import json
import sys

import numpy as np
from geometry_ext_cases import contains_cases, merge_cases, primitive

out = {"contains": {}, "merge": {}}
for name, (g, pts) in contains_cases().items():
    out["contains"][name] = [bool(g.contains_point(list(p))) for p in pts]
for name, (a, b) in merge_cases().items():
    a.merge(b)
    entry = {"type": a.type(), "bb": a.getBBTight(), "transform": a.getCurrentTransform()}
    if a.type() == "TriangleMesh":
        m = a.getTriangleMesh()
        entry.update(vertices=np.asarray(m.getVertices()).tolist(), indices=np.asarray(m.getIndices()).tolist())
    elif a.type() == "PointCloud":
        pc = a.getPointCloud()
        entry.update(points=np.asarray(pc.getPoints()).tolist(), properties=np.asarray(pc.getProperties()).tolist(),
                     names=[pc.getPropertyName(i) for i in range(pc.numProperties())])
    out["merge"][name] = entry
grid = primitive("Sphere", [0, 0, 0], 0.3).convert("ImplicitSurface", 0.05)
surface = grid.getImplicitSurface()
before = np.asarray(surface.getValues()).tolist()
grid.merge(primitive("Sphere", [0.4, 0, 0], 0.2))
out["implicit"] = {"bbox": list(surface.bmin) + list(surface.bmax), "before": before,
                   "after": np.asarray(grid.getImplicitSurface().getValues()).tolist()}
with open(sys.argv[1], "w") as f:
    json.dump(out, f)
