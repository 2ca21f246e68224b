"""The cases of Geometry3D.contains_point and merge that
make_geometry_ext_reference.py records with the reference and
test_geometry_ext.py replays: plain Klamp't calls that both releases share."""
import numpy as np
import klampt

IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1]
ROT_Z = [0, 1, 0, -1, 0, 0, 0, 0, 1]  # 90 degrees about z, column-major


def primitive(kind, *args):
    p = klampt.GeometricPrimitive()
    getattr(p, "set" + kind)(*args)
    return klampt.Geometry3D(p)


def cloud(points, radii=None):
    pc = klampt.PointCloud()
    pc.setPoints(np.asarray(points, dtype=float))
    if radii is not None:
        pc.addProperty("radius", list(radii))
    return klampt.Geometry3D(pc)


def mesh(vertices, indices):
    m = klampt.TriangleMesh()
    m.setVertices(np.asarray(vertices, dtype=float))
    m.setIndices(np.asarray(indices, dtype=np.int32))
    return klampt.Geometry3D(m)


TETRA = ([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])


def placed(g, R, t):
    g.setCurrentTransform(R, t)
    return g


def contains_cases():
    """name -> (geometry, points)."""
    pts = np.array([[x, y, z] for x in (-0.45, -0.1, 0.2, 0.55) for y in (-0.3, 0.05, 0.4) for z in (-0.2, 0.1, 0.45)])
    hull = primitive("AABB", [-0.3, -0.2, -0.1], [0.4, 0.3, 0.2]).convert("ConvexHull")
    return {
        "sphere": (primitive("Sphere", [0.1, 0, 0], 0.45), pts),
        "aabb": (primitive("AABB", [-0.3, -0.2, -0.1], [0.4, 0.3, 0.2]), pts),
        "hull_rotated": (placed(hull, ROT_Z, [0.05, 0, 0]), pts),
        "cloud_radii": (cloud([[0, 0, 0], [0.2, 0.05, 0.1]], [0.3, 0.2]), pts),
    }


def merge_cases():
    """name -> (geometry, other): merged in place by the caller."""
    rng = np.random.RandomState(4)
    a_pts, b_pts = rng.rand(12, 3), rng.rand(9, 3)
    return {
        "mesh_mesh": (placed(mesh(*TETRA), IDENTITY, [1, 0, 0]),
                      placed(mesh(np.asarray(TETRA[0]) * 0.5 + 0.2, TETRA[1][:3]), ROT_Z, [0, 2, 0.5])),
        "cloud_cloud": (placed(cloud(a_pts, 0.1 + a_pts[:, 0]), IDENTITY, [1, 0, 0]),
                        placed(cloud(b_pts, 0.2 + b_pts[:, 1]), ROT_Z, [0, 0, 2])),
        "hull_hull": (placed(cloud(a_pts).convert("ConvexHull"), ROT_Z, [0.5, 0, 0]),
                      placed(cloud(b_pts + [1.5, 0, 0]).convert("ConvexHull"), IDENTITY, [0, 1, 0])),
    }


def implicit_grid(bbox, values):
    """A VolumeGrid geometry over bbox (xmin, ymin, zmin, xmax, ymax, zmax) with the given 3D values."""
    vg = klampt.VolumeGrid()
    vg.setBounds(bbox[:3], bbox[3:])
    vg.setValues(np.asarray(values, dtype=float))
    return klampt.Geometry3D(vg)
