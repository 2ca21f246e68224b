# Run with Klamp't 0.10.1's python: records what its members added since 0.9.2
# answer on the project's demo world and on small hand-made geometries.
# Usage: python make_names_0_10_reference.py names_0_10_reference.json
import json
import math
import os
import sys

import numpy as np
import klampt

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORLD = os.path.join(REPO, "data", "worlds", "arm_table.xml")


def floats(a):
    return [float(x) if math.isfinite(x) else str(x) for x in np.asarray(a, dtype=float).reshape(-1)]


def world_part():
    w = klampt.WorldModel()
    assert w.loadFile(WORLD)
    r = w.robot(0)
    out = {
        'links': [l.name for l in r.links],
        'linksDict': sorted(r.linksDict),
        'drivers': [d.name for d in r.drivers],
        'sensors': [s.name for s in r.sensors],
        'sensorTypes': [s.type for s in r.sensors],
        'numSensors': r.numSensors(),
        'robots': [x.name for x in w.robots],
        'rigidObjects': [o.name for o in w.rigidObjects],
        'rigidObjectIds': [o.id for o in w.rigidObjects],
        'rigidObjectMasses': [o.mass.getMass() for o in w.rigidObjects],
        'rigidObjectTransforms': [floats(o.transform[0]) + floats(o.transform[1]) for o in w.rigidObjects],
        'terrains': [t.name for t in w.terrains],
        'terrainIds': [t.id for t in w.terrains],
        'parents': [l.getParentIndex() for l in r.links],
    }
    # Re-parenting link 3 onto link 1 (skipping link 2), at a bent configuration.
    q = [0.0, 0.3, 0.5, -0.7, 0.2, 0.4, 0.1]
    r.setConfig(q)
    r.link(3).setParentIndex(1)
    r.setConfig(q)
    out['reparented'] = {'q': q, 'link': 3, 'parent': 1,
                         'transforms': [floats(r.link(i).getTransform()[1]) for i in range(r.numLinks())]}
    sim = klampt.Simulator(w)
    c = sim.controller(0)
    out['controller'] = {'rate': c.rate, 'numSensors': c.numSensors(), 'sensors': [s.name for s in c.sensors]}
    return out


def mesh_part():
    m = klampt.TriangleMesh()
    # A unit square (two triangles of different sizes) and a tilted triangle.
    m.setVertices(np.array([[0, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0.5]], dtype=float))
    m.setIndices(np.array([[0, 1, 2], [0, 2, 3], [0, 5, 4], [1, 5, 0]], dtype=np.int32))
    return {'vertices': floats(m.getVertices()), 'indices': np.asarray(m.getIndices()).reshape(-1).tolist(),
            'triangleNormals': floats(m.triangleNoormals()),
            'vertexNormalsArea': floats(m.vertexNormals()),
            'vertexNormalsSimple': floats(m.vertexNormals(False)),
            'triangle2': [floats(v) for v in m.triangle(2)]}


def primitive_part():
    out = {}
    p = klampt.GeometricPrimitive()
    out['empty'] = p.getType()
    cases = [('setPoint', ([1, 2, 3],)), ('setSphere', ([1, 2, 3], 0.5)), ('setSegment', ([0, 0, 0], [1, 1, 1])),
             ('setTriangle', ([0, 0, 0], [1, 0, 0], [0, 1, 0])), ('setAABB', ([0, 0, 0], [1, 2, 3])),
             ('setBox', ([0, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 2, 3]))]
    for name, args in cases:
        getattr(p, name)(*args)
        out[name] = {'type': p.getType(), 'properties': floats(p.getProperties())}
    return out


def point_cloud_part():
    pc = klampt.PointCloud()
    pc.setPoints(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=float))
    pc.setColors(np.array([[1.0, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 0.0, 1.0]]), ('r', 'g', 'b'))
    return {'propertyNames': pc.getPropertyNames(), 'rgbIndex': pc.propertyIndex('rgb'),
            'missingIndex': pc.propertyIndex('nope'),
            'rgb': [int(x) for x in pc.getColors('rgb')],
            'channels': [floats(c) for c in pc.getColors(('r', 'g', 'b'))],
            'properties': floats(pc.getProperties())}


def appearance_part():
    a = klampt.Appearance()
    out = {'noTexture': [a.getTexture1D_format(), a.getTexture2D_format()],
           'defaultTexgenWorld': a.isTexgenWorld(),
           'facesNone': floats(a.getColors(klampt.Appearance.FACES)),
           'verticesNone': floats(a.getColors(klampt.Appearance.VERTICES))}
    tex = np.arange(2 * 2 * 3, dtype=np.uint8).reshape(2, 2, 3)
    a.setTexture2D_channels('rgb8', tex)
    out['tex2D'] = {'format': a.getTexture2D_format(), 'data': a.getTexture2D_channels().reshape(-1).tolist()}
    a.setTexture2D_channels('rgb8', tex, False)
    out['tex2DBottomUp'] = a.getTexture2D_channels().reshape(-1).tolist()
    a.setTexcoords2D(np.array([[0.1, 0.2], [0.3, 0.4]]))
    out['texcoords2D'] = floats(a.getTexcoords2D())
    tex1 = np.arange(8, dtype=np.uint8).reshape(2, 4)
    a.setTexture1D_channels('rgba8', tex1)
    out['tex1D'] = {'format': a.getTexture1D_format(), 'data': a.getTexture1D_channels().reshape(-1).tolist()}
    a.setTexcoords1D(np.array([0.1, 0.2, 0.3]))
    out['texcoords1D'] = floats(a.getTexcoords1D())
    a.setTexgen(np.array([[1, 0, 0, 0.5], [0, 1, 0, 0]]), True)
    out['texgen'] = {'matrix': floats(a.getTexgenMatrix()), 'world': a.isTexgenWorld()}
    a.setColors(klampt.Appearance.FACES, np.array([[1, 0, 0, 1], [0, 1, 0, 0.5]], dtype=np.float32))
    out['faceColors'] = floats(a.getColors(klampt.Appearance.FACES))
    return out


def implicit_surface_part():
    g = klampt.ImplicitSurface()
    out = {'defaultTruncation': str(g.getTruncationDistance())}
    g.resize(2, 3, 4)
    g.set(1.5)
    g.scale(2.0)
    g.shift(-1.0)
    out['scaledShifted'] = g.get(1, 2, 3)
    g.bmin = [-1, -2, -3]
    g.bmax = [1, 2, 3]
    out['bounds'] = floats(g.getBounds())
    g.setBounds([0, 0, 0, 2, 4, 6])
    out['bmin'] = floats(g.getBmin())
    out['bmax'] = floats(g.getBmax())
    return out


if __name__ == '__main__':
    import warnings
    warnings.simplefilter('ignore')
    record = {'version': klampt.__version__, 'world': world_part(), 'mesh': mesh_part(),
              'primitive': primitive_part(), 'pointCloud': point_cloud_part(),
              'appearance': appearance_part(), 'implicitSurface': implicit_surface_part()}
    with open(sys.argv[1], 'w') as f:
        json.dump(record, f, indent=1)
