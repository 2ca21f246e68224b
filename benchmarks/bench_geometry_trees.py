"""The project's collision trees against Coal's own BVHModel<OBBRSS>, on the
benchmark meshes (the mug of the pile scenes and the two largest link meshes
of each benchmark robot) and the same poses, as medians in microseconds:

- build: the tree of a fresh copy of the mesh (klampt: the first collides
  query on a new Geometry3D, less the copy; Coal: beginModel, addVertices,
  addTriangles, endModel);
- collides: a boolean collision test, cycling through 16 relative poses at
  offsets that mix touching and separated pairs;
- distance: the exact distance between separated meshes, 16 orientations;
- distanceNear: the same a few centimetres apart;
- within: "closer than 2.5 mm?" (klampt withinDistance, Coal collide with a
  security margin), at the touching poses.

    python benchmarks/bench_geometry_trees.py

Both sides are called from Python; the klampt columns exclude the
setCurrentTransform calls that move the second mesh (Coal takes prebuilt
transforms). The agreement columns count poses where the two libraries give
different answers (collides, within) and the largest distance difference.
Needs Coal's Python bindings: pip install coal==3.0.3 (they load the same
libcoal as klampt).
"""
import os
import random

from benchcommon import data_dir, median_us

ROBOTS = ["robots/tx90l.rob", "robots/ur5.rob", "robots/kinova_gen3_7dof.urdf", "robots/baxter.rob", "robots/atlas.rob"]
OPS = ["build", "collides", "distance", "distanceNear", "within"]
MARGIN = 0.0025


def mesh_pairs():
    """(name, geometry a, geometry b) for the mug and each robot's two largest link meshes."""
    import klampt
    mug = klampt.Geometry3D()
    if not mug.loadFile(os.path.join(data_dir(), "objects", "srimugsmooth.off")):
        raise RuntimeError("cannot load the mug")
    pairs = [("mug-mug", mug, mug.clone())]
    for rel in ROBOTS:
        world = klampt.WorldModel()
        if not world.readFile(os.path.join(data_dir(), rel)):
            raise RuntimeError("cannot load " + rel)
        robot = world.robot(0)
        sizes = sorted(((robot.link(i).geometry().getTriangleMesh().getIndices().shape[0], i)
                        for i in range(robot.numLinks()) if robot.link(i).geometry().type() == "TriangleMesh"),
                       reverse=True)
        a, b = (robot.link(i).geometry().clone() for _, i in sizes[:2])
        pairs.append((os.path.basename(rel), a, b))
    return pairs


def coal_model(geom):
    import coal
    import numpy as np
    tm = geom.getTriangleMesh()
    verts = np.asarray(tm.getVertices(), dtype=float)
    tris = np.asarray(tm.getIndices(), dtype=np.int64)
    m = coal.BVHModelOBBRSS()
    m.beginModel(len(tris), len(verts))
    m.addVertices(verts)
    m.addTriangles(tris)
    m.endModel()
    return m


def poses(a, rng, offsets):
    """Rotations and translations of the second mesh, relative to the first at the origin."""
    from klampt.math import so3
    lo, hi = a.getBBTight()
    width = max(hi[k] - lo[k] for k in range(3))
    centre = [(lo[k] + hi[k]) / 2 for k in range(3)]
    out = []
    for k in range(16):
        R = so3.from_rotation_vector([rng.uniform(-3, 3) for _ in range(3)])
        f = offsets[k % len(offsets)]
        out.append((R, [centre[0] + f * width, centre[1] + 0.01, centre[2] + 0.02]))
    return out


def measure_pair(name, a, b):
    import coal
    import numpy as np
    import klampt
    from klampt.math import so3

    ident = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    a.setCurrentTransform(ident, [0, 0, 0])
    rng = random.Random(0)
    touching = poses(a, rng, [0.3, 0.5, 0.7, 0.9, 1.1])
    separated = poses(a, rng, [1.5])
    near = poses(a, rng, [0.5])
    for R, t in near:  # push "near" poses apart until they are separated by a few cm
        while True:
            b.setCurrentTransform(R, t)
            if a.distance(b).d > 0.02:
                break
            t[0] += 0.01

    def coal_tf(R, t):
        return coal.Transform3s(np.array(so3.matrix(R)), np.array(t, dtype=float))

    row = {}
    agree = {}
    # build
    src = b.getTriangleMesh()
    far = a.clone()
    far.setCurrentTransform(ident, [100.0, 0, 0])
    far.collides(far)
    kept = []

    def copy_only():
        g = klampt.Geometry3D()
        g.setTriangleMesh(src)
        kept.append(g)

    def copy_and_build():
        g = klampt.Geometry3D()
        g.setTriangleMesh(src)
        g.collides(far)
        kept.append(g)

    row["build"] = (max(median_us(copy_and_build, repeat=5, number=1) - median_us(copy_only, repeat=5, number=1), 0.01),
                    median_us(lambda: kept.append(coal_model(b)), repeat=5, number=1))
    kept.clear()

    ma, mb = coal_model(a), coal_model(b)
    Ta = coal.Transform3s()
    creq, cres = coal.CollisionRequest(), coal.CollisionResult()
    wreq = coal.CollisionRequest()
    wreq.security_margin = MARGIN
    dreq, dres = coal.DistanceRequest(), coal.DistanceResult()
    env = {"a": a, "b": b, "coal": coal, "ma": ma, "mb": mb, "Ta": Ta, "k": [0], "creq": creq, "cres": cres,
           "wreq": wreq, "dreq": dreq, "dres": dres, "MARGIN": MARGIN}

    def both(op, pose_list, klampt_call, coal_call):
        env["P"] = pose_list
        env["T"] = [coal_tf(R, t) for R, t in pose_list]
        moved = "k[0] = (k[0] + 1) & 15; b.setCurrentTransform(*P[k[0]])"
        ours = max(median_us(moved + "; " + klampt_call, env=env) - median_us(moved, env=env), 0.01)
        theirs = median_us("k[0] = (k[0] + 1) & 15; " + coal_call, env=env)
        row[op] = (ours, theirs)

    both("collides", touching, "a.collides(b)", "cres.clear(); coal.collide(ma, Ta, mb, T[k[0]], creq, cres)")
    both("distance", separated, "a.distance(b)", "dres.clear(); coal.distance(ma, Ta, mb, T[k[0]], dreq, dres)")
    both("distanceNear", near, "a.distance(b)", "dres.clear(); coal.distance(ma, Ta, mb, T[k[0]], dreq, dres)")
    both("within", touching, "a.withinDistance(b, MARGIN)",
         "cres.clear(); coal.collide(ma, Ta, mb, T[k[0]], wreq, cres)")

    # agreement on the same poses
    def coal_collides(T, req):
        res = coal.CollisionResult()
        coal.collide(ma, Ta, mb, T, req, res)
        return res.isCollision()

    def coal_distance(T):
        res = coal.DistanceResult()
        coal.distance(ma, Ta, mb, T, coal.DistanceRequest(), res)
        return res.min_distance

    differ = within_differ = 0
    for R, t in touching:
        b.setCurrentTransform(R, t)
        differ += a.collides(b) != coal_collides(coal_tf(R, t), creq)
        within_differ += a.withinDistance(b, MARGIN) != coal_collides(coal_tf(R, t), wreq)
    gap = 0.0
    for R, t in separated + near:
        b.setCurrentTransform(R, t)
        gap = max(gap, abs(a.distance(b).d - coal_distance(coal_tf(R, t))))
    agree = {"collidesDiffer": differ, "withinDiffer": within_differ, "distanceGap": gap,
             "triangles": (a.getTriangleMesh().getIndices().shape[0], b.getTriangleMesh().getIndices().shape[0])}
    return row, agree


def main():
    print("median time per call, microseconds: klampt / Coal BVHModel<OBBRSS> (ratio = Coal / klampt)")
    print("%-24s %13s " % ("meshes", "triangles") + " ".join("%24s" % c for c in OPS) + "  differ(c,w)  max|d gap|")
    for name, a, b in mesh_pairs():
        row, agree = measure_pair(name, a, b)
        cells = ["%9.1f/%8.1f %4.1fx" % (row[op][0], row[op][1], row[op][1] / row[op][0]) for op in OPS]
        print("%-24s %13s " % (name, "%d+%d" % agree["triangles"]) + " ".join("%24s" % c for c in cells)
              + "  %5d %5d  %10.2e" % (agree["collidesDiffer"], agree["withinDiffer"], agree["distanceGap"]))


if __name__ == "__main__":
    main()
