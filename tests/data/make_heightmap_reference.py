# Run with the reference python (Klamp't 0.10.1):
#   python make_heightmap_reference.py heightmap_reference.json
# Records heightmap vertex positions, meshes, bounds, height images and a
# rasterized conversion, on inputs where the reference behaves as its
# documentation says (no missing samples, explicit vertical fields of view).
# Its ray casts and the first point of its point cloud conversion are not
# recorded: they return uninitialized memory.
import json
import os
import sys

import klampt

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from heightmap_maps import ortho_map, perspective_map  # noqa: E402


def describe(hm):
    vp = hm.viewport
    g = klampt.Geometry3D(hm)
    mesh = g.convert('TriangleMesh').getTriangleMesh()
    bb = g.getBB()
    return {
        'heights': hm.heights.tolist(),
        'viewport': {'w': vp.w, 'h': vp.h, 'perspective': bool(vp.perspective),
                     'fx': vp.fx, 'fy': vp.fy, 'cx': vp.cx, 'cy': vp.cy},
        'points': g.convert('PointCloud').getPointCloud().points.tolist(),
        'mesh_vertices': mesh.vertices.tolist(),
        'mesh_indices': mesh.indices.tolist(),
        'bb': [list(bb[0]), list(bb[1])],
        'height_image': hm.getHeightImage().tolist(),
        'height_image_b': [hm.getHeightImage_b()[0].tolist(), float(hm.getHeightImage_b()[1])],
        'height_image_s': [hm.getHeightImage_s()[0].tolist(), float(hm.getHeightImage_s()[1])],
    }


out = {}
hm = ortho_map()
out['ortho'] = describe(hm)
posed = ortho_map()
vp = posed.viewport
vp.setPose([0, 1, 0, -1, 0, 0, 0, 0, 1], [1.0, 2.0, 0.5])
posed.viewport = vp
out['ortho_posed'] = describe(posed)
out['perspective'] = describe(perspective_map())

box = klampt.GeometricPrimitive()
box.setAABB([0, 0, 0], [1, 2, 0.5])
raster = klampt.Geometry3D(box).convert('TriangleMesh').convert('Heightmap', 0.25)
rhm = raster.getHeightmap()
rvp = rhm.viewport
out['mesh_to_heightmap'] = {'heights': rhm.heights.tolist(),
                            'viewport': {'w': rvp.w, 'h': rvp.h, 'fx': rvp.fx, 'fy': rvp.fy, 'cx': rvp.cx, 'cy': rvp.cy,
                                         'pose': [list(x) for x in rvp.getPose()]},
                            'bb': [list(x) for x in raster.getBB()]}
json.dump(out, open(sys.argv[1], 'w'), indent=0)
