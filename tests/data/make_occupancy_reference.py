# Run with the reference python (Klamp't 0.10.1):
#   python make_occupancy_reference.py occupancy_reference.json
# Records an occupancy grid built through the 0.10 API (the grid of
# test_occupancy_grid.grid): its values, bounding box, point cloud and mesh
# conversions, and a ray cast from above. The cloud's first point is
# uninitialized memory in the reference (as for heightmaps); the rest are the
# occupied cells' centres in cell order.
import json
import sys

import numpy as np
import klampt

occ = klampt.OccupancyGrid()
occ.resize(4, 3, 2)
occ.setBmin([-0.4, -0.3, 0.0])
occ.setBmax([0.4, 0.3, 0.4])
values = np.zeros((4, 3, 2))
values[0, 0, 0] = values[1, 0, 0] = values[3, 2, 1] = values[2, 1, 0] = 1.0
values[2, 2, 0] = 0.4
occ.setValues(values)
g = klampt.Geometry3D(occ)
mesh = np.asarray(g.convert('TriangleMesh').getTriangleMesh().vertices)
hit, pt = g.rayCast([0.3, 0.25, 2.0], [0, 0, -1])
out = {'bb': [list(x) for x in g.getBB()], 'values': np.asarray(occ.getValues()).tolist(),
       'threshold': occ.getOccupancyThreshold(),
       'cloud': np.asarray(g.convert('PointCloud').getPointCloud().getPoints()).tolist(),
       'mesh_bb': [mesh.min(axis=0).tolist(), mesh.max(axis=0).tolist()],
       'ray': [bool(hit), list(pt)]}
json.dump(out, open(sys.argv[1], 'w'), indent=0)
