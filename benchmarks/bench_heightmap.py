"""Heightmap queries, as medians in microseconds per call: a shared terrain
mesh (terrains/fractal_terrain_1.off) rasterized into a heightmap of about
128 x 128 samples, against a sphere, a box mesh and a point cloud placed just
above it (apart) and pressed into it (overlapping): collides, distance (n/a
where the klampt has none) and a batch of 100 vertical and oblique ray casts.

    python benchmarks/bench_heightmap.py                  # this interpreter's klampt
    python benchmarks/bench_heightmap.py --compare PY     # also PY's klampt (e.g. Klamp't 0.10.1), with ratios

Each cell shows this/other time and the speed-up other/this (2.0x: this
klampt is twice as fast).
"""
import os
import random

from bench_geometry_matrix import timed
from benchcommon import data_dir, run

OTHERS = ["sphere", "box", "cloud"]
PLACEMENTS = ["apart", "overlapping"]


def build():
    import klampt

    terrain = klampt.Geometry3D()
    if not terrain.loadFile(os.path.join(data_dir(), "terrains", "fractal_terrain_1.off")):
        raise RuntimeError("cannot load the terrain")
    lo, hi = terrain.getBB()
    res = max(hi[0] - lo[0], hi[1] - lo[1]) / 127
    hm = terrain.convert("Heightmap", res)
    return hm, lo, hi, res


def other(kind, centre, size):
    import klampt

    if kind == "sphere":
        p = klampt.GeometricPrimitive()
        p.setSphere(centre, size)
        return klampt.Geometry3D(p)
    if kind == "box":
        p = klampt.GeometricPrimitive()
        p.setAABB([c - size for c in centre], [c + size for c in centre])
        return klampt.Geometry3D(p).convert("TriangleMesh")
    import numpy as np

    rng = np.random.default_rng(2)
    pc = klampt.PointCloud()
    pc.setPoints(np.array(centre) + rng.uniform(-size, size, (500, 3)))
    return klampt.Geometry3D(pc)


def measure():
    hm, lo, hi, res = build()
    cx, cy = (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2
    size = 4 * res
    _, top = hm.rayCast([cx, cy, hi[2] + 1], [0, 0, -1])
    out = {}
    for kind in OTHERS:
        for place in PLACEMENTS:
            z = top[2] + (3 * size if place == "apart" else 0.0)
            g = other(kind, [cx, cy, z], size)
            out["collides %s %s" % (kind, place)] = timed(lambda: hm.collides(g))
            out["distance %s %s" % (kind, place)] = timed(lambda: hm.distance(g))
    rng = random.Random(3)
    rays = []
    for k in range(100):
        s = [rng.uniform(lo[0], hi[0]), rng.uniform(lo[1], hi[1]), hi[2] + 1]
        d = [0, 0, -1] if k % 2 else [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), -1]
        rays.append((s, d))

    def cast_all():
        for s, d in rays:
            hm.rayCast(s, d)

    out["rayCast x100"] = timed(cast_all)
    return out


def cell(mine, other):
    if mine is None:
        return "n/a"
    if other is None:
        return "%.1f / n/a" % mine
    return "%.1f / %.1f (%.1fx)" % (mine, other, other / mine)


def print_table(mine, other):
    print("%-28s %s" % ("query", "this / other us (speed-up)" if other else "this us"))
    for key, value in mine.items():
        print("%-28s %s" % (key, cell(value, other.get(key) if other else None) if other else
                            ("n/a" if value is None else "%.1f" % value)))


def main():
    run(__file__, __doc__, measure, print_table)


if __name__ == "__main__":
    main()
