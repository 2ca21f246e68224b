"""Collision timings on the shared robots and meshes, as medians in
microseconds: selfCollides on random configurations, the first query on a
link mesh (firstQuery: a point distance, which builds the structure of point
queries; firstCollides: a mesh-mesh collision test, which builds the
mesh's collision tree), mesh-mesh collides and distance between two link
meshes (meshDistanceRot: the distance's median averaged over 12 random
relative orientations; meshDistanceNear: at close range with a new
orientation on every call), a ray cast, and point cloud-mesh collides.

    python benchmarks/bench_collision.py                 # this interpreter's klampt
    python benchmarks/bench_collision.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2) and the table shows
other/this: a ratio of 3 means this implementation is 3x faster.
"""
import os
import random

from benchcommon import data_dir, median_us, run

ROBOTS = ["robots/tx90l.rob", "robots/ur5.rob", "robots/kinova_gen3_7dof.urdf", "robots/baxter.rob", "robots/atlas.rob"]
COLUMNS = ["selfCollides", "firstQuery", "firstCollides", "meshCollides", "meshDistance", "meshDistanceRot",
           "meshDistanceNear", "rayCast", "cloudCollides"]




def largest_links(robot, k):
    """Indices of the k links with the most triangles."""
    sizes = []
    for i in range(robot.numLinks()):
        g = robot.link(i).geometry()
        if g.type() == "TriangleMesh":
            sizes.append((len(g.getTriangleMesh().getIndices()), i))
    return [i for _, i in sorted(sizes, reverse=True)[:k]]


def measure():
    import klampt
    from klampt.math import so3

    results = {}
    for rel in ROBOTS:
        path = os.path.join(data_dir(), rel)
        name = os.path.basename(rel)

        def load():
            w = klampt.WorldModel()
            if not w.readFile(path):
                raise RuntimeError("cannot load " + path)
            return w

        world = load()
        robot = world.robot(0)
        qmin, qmax = robot.getJointLimits()
        rng = random.Random(0)
        configs = [[rng.uniform(max(a, -3.0), min(b, 3.0)) for a, b in zip(qmin, qmax)] for _ in range(16)]
        state = {"k": 0}

        def self_collides():
            state["k"] = (state["k"] + 1) & 15
            robot.setConfig(configs[state["k"]])
            robot.selfCollides()

        def set_only():
            state["k"] = (state["k"] + 1) & 15
            robot.setConfig(configs[state["k"]])

        self_collides()  # builds every link's structure first
        row = {"selfCollides": max(median_us(self_collides) - median_us(set_only), 0.01)}

        big = largest_links(robot, 2)
        # First query on a fresh copy of the largest link mesh: builds its structure.
        src = robot.link(big[0]).geometry()
        fresh = []

        def first_query():
            g = klampt.Geometry3D()
            g.setTriangleMesh(src.getTriangleMesh())
            g.distance_point([10.0, 0.0, 0.0])
            fresh.append(g)

        row["firstQuery"] = median_us(first_query, repeat=5, number=1)

        a = robot.link(big[0]).geometry().clone()
        far = robot.link(big[1]).geometry().clone()
        far.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [5.0, 0.0, 0.0])
        far.collides(far)

        def first_collides():
            g = klampt.Geometry3D()
            g.setTriangleMesh(src.getTriangleMesh())
            g.collides(far)
            fresh.append(g)

        row["firstCollides"] = median_us(first_collides, repeat=5, number=1)
        b = robot.link(big[1]).geometry().clone()
        a.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0])
        (lo, hi) = a.getBBTight()
        width = hi[0] - lo[0]
        b.setCurrentTransform([0, 1, 0, -1, 0, 0, 0, 0, 1], [width * 0.3, 0.01, 0.02])
        a.collides(b)
        row["meshCollides"] = median_us(lambda: a.collides(b))
        b.setCurrentTransform([0, 1, 0, -1, 0, 0, 0, 0, 1], [width * 1.5 + 0.05, 0.01, 0.02])
        row["meshDistance"] = median_us(lambda: a.distance(b))
        rng = random.Random(1)
        total = 0.0
        for _ in range(12):
            rot = so3.from_rotation_vector([rng.uniform(-3, 3) for _ in range(3)])
            b.setCurrentTransform(rot, [width * 1.5 + 0.05, 0.01, 0.02])
            total += median_us(lambda: a.distance(b), repeat=7)
        row["meshDistanceRot"] = total / 12
        # Close range (a few cm apart), a new orientation on every call: no
        # previous answer to start from.
        rots = [so3.from_rotation_vector([rng.uniform(-3, 3) for _ in range(3)]) for _ in range(16)]
        near = [width * 0.5 + 0.02, 0.01, 0.02]
        env = {"a": a, "b": b, "rots": rots, "near": near, "k": [0]}
        moved = "k[0] = (k[0] + 1) & 15; b.setCurrentTransform(rots[k[0]], near)"
        row["meshDistanceNear"] = max(median_us(moved + "; a.distance(b)", env=env) - median_us(moved, env=env), 0.01)
        b.setCurrentTransform([0, 1, 0, -1, 0, 0, 0, 0, 1], [width * 1.5 + 0.05, 0.01, 0.02])
        c = [(lo[k] + hi[k]) / 2 for k in range(3)]
        row["rayCast"] = median_us(lambda: a.rayCast([c[0] - 10, c[1], c[2]], [1, 0, 0]))
        cloud = b.convert("PointCloud", 0.02)
        cloud.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [width * 0.2, 0, 0])
        a.collides(cloud)
        row["cloudCollides"] = median_us(lambda: a.collides(cloud))
        row["links"] = robot.numLinks()
        results[name] = row
    return results


def print_table(mine, other=None):
    print("median time per call, microseconds" + (" (this / other = speed-up)" if other else ""))
    print("%-26s %5s " % ("robot", "links") + " ".join("%23s" % c for c in COLUMNS))
    for name, row in mine.items():
        cells = []
        for c in COLUMNS:
            if other and name in other and c in other[name]:
                o = other[name][c]
                cells.append("%9.2f/%-8.2f %4.1fx" % (row[c], o, o / row[c]))
            else:
                cells.append("%23.2f" % row[c])
        print("%-26s %5d " % (name, row["links"]) + " ".join(cells))


def main():
    run(__file__, __doc__, measure, print_table)

if __name__ == "__main__":
    main()
