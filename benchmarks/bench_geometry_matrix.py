"""Every geometry type pair against every query, as medians in microseconds
per call: collides, withinDistance(0.05), distance and contacts(0.01, 0.01)
between two shapes made from the two largest link meshes of a shared robot
(tx90l by default), each as a box primitive (its bounding box), the mesh, a
point cloud (the mesh's vertices, the same in every klampt), its convex hull,
a volume grid (32 cells along its longest side) and a group (the mesh and the
box); the second shape is turned a quarter turn about z and placed apart (half
its width beyond the first) or overlapping; and a ray cast on each type.
With --compare, the cells whose answers differ between the two klampts are
listed after the tables (a boolean, a distance, contacts or none and a group's
members they are on, a ray's hit).

A second table times point cloud-mesh queries on tx90l, kinova gen3 and
baxter as users meet them: the cloud of a link's mesh made by
convert('PointCloud', 0) (whose size each klampt chooses: both sizes are
printed) or from its vertices, with and without a collision margin of 1 cm,
apart or overlapping the other link.

    python benchmarks/bench_geometry_matrix.py                 # this interpreter's klampt
    python benchmarks/bench_geometry_matrix.py --compare PY    # also PY's klampt, with ratios

With --compare, the same script runs under the other interpreter (for example
a virtual environment holding the reference Klamp't 0.9.2). Each cell shows
this/other time and the speed-up other/this: 2.0x means this klampt is twice
as fast. A pair the klampt does not support shows n/a.
"""
import os
import sys
import tempfile
import time

from benchcommon import data_dir, median_us, run

TYPES = ["Primitive", "TriangleMesh", "PointCloud", "ConvexHull", "VolumeGrid", "Group"]
QUERIES = ["collides", "within", "distance", "contacts"]
CLOUD_ROBOTS = ["robots/tx90l.rob", "robots/kinova_gen3_7dof.urdf", "robots/baxter.rob"]
QUARTER_TURN = [0, 1, 0, -1, 0, 0, 0, 0, 1]
IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1]


def first_call(f):
    """Time of one call of f in seconds, or None if the klampt refuses it: it
    raises, or (the reference) prints that it cannot and returns a dummy."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 1)
        try:
            t0 = time.perf_counter()
            f()
            once = time.perf_counter() - t0
        except Exception:  # an unsupported pair
            once = None
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        captured.seek(0)
        said = captured.read().decode(errors="replace").lower()
    if any(w in said for w in ("not yet able", "not supported", "cannot", "unable")):
        return None
    return once


def timed(f):
    """Median time of f in microseconds, or None if this klampt refuses it.
    Calls longer than 20 ms (after the first) are timed three times."""
    if first_call(f) is None:
        return None
    # The first call builds the shapes' trees: the second tells how long a
    # call takes, and more calls bring the caches back before timing.
    t0 = time.perf_counter()
    f()
    once = time.perf_counter() - t0
    warm_until = time.perf_counter() + 0.03
    while once <= 0.02 and time.perf_counter() < warm_until:
        f()
    if once > 0.02:
        return median_us(f, repeat=3, number=1)
    return median_us(f, repeat=11)


def load_robot(rel):
    import klampt

    world = klampt.WorldModel()
    if not world.readFile(os.path.join(data_dir(), rel)):
        raise RuntimeError("cannot load " + rel)
    return world


def two_largest_meshes(world):
    """Copies of the two largest link meshes of the world's robot, at the
    origin (the world must outlive them under the reference klampt)."""
    robot = world.robot(0)
    sizes = []
    for i in range(robot.numLinks()):
        g = robot.link(i).geometry()
        if g.type() == "TriangleMesh":
            sizes.append((len(g.getTriangleMesh().getIndices()), i))
    out = []
    for _, i in sorted(sizes, reverse=True)[:2]:
        g = robot.link(i).geometry().clone()
        g.setCurrentTransform(IDENTITY, [0, 0, 0])
        out.append(g)
    return out


def vertex_cloud(mesh):
    import klampt

    pc = klampt.PointCloud()
    pc.setPoints(mesh.getTriangleMesh().getVertices())
    return klampt.Geometry3D(pc)


def shapes_of(mesh):
    """The mesh as each geometry type, keyed by type name."""
    import klampt

    lo, hi = mesh.getBBTight()
    box = klampt.GeometricPrimitive()
    box.setAABB(lo, hi)
    group = klampt.Geometry3D()
    group.setGroup()
    group.setElement(0, mesh.clone())
    group.setElement(1, klampt.Geometry3D(box))
    res = max(h - l for l, h in zip(lo, hi)) / 32
    return {
        "Primitive": klampt.Geometry3D(box),
        "TriangleMesh": mesh.clone(),
        "PointCloud": vertex_cloud(mesh),
        "ConvexHull": mesh.convert("ConvexHull"),
        "VolumeGrid": mesh.convert("VolumeGrid", res),
        "Group": group,
    }


def center(geom):
    lo, hi = geom.getBBTight()
    return [(l + h) / 2 for l, h in zip(lo, hi)], [h - l for l, h in zip(lo, hi)]


def poses(first, second):
    """Translations of `second` (turned a quarter turn about z) that put its
    box centre on the first's, shifted along x by 30% of the first's width
    (overlap) or by half of both boxes' diagonals plus 5 cm (apart)."""
    (c1, s1), (c2, s2) = center(first), center(second)
    turned = [-c2[1], c2[0], c2[2]]  # QUARTER_TURN applied to c2
    base = [a - b for a, b in zip(c1, turned)]
    reach = 0.5 * (sum(x * x for x in s1) ** 0.5 + sum(x * x for x in s2) ** 0.5) + 0.05
    return {"apart": [base[0] + reach, base[1], base[2]], "overlap": [base[0] + 0.3 * s1[0], base[1], base[2]]}


def query_calls(a, b):
    return {
        "collides": lambda: a.collides(b),
        "within": lambda: a.withinDistance(b, 0.05),
        "distance": lambda: a.distance(b),
        "contacts": lambda: a.contacts(b, 0.01, 0.01),
    }


def answer(q, f, groups=(False, False)):
    """What query `q` answers, reduced to compare two klampts: the boolean,
    the distance (5 decimals), whether there are contacts and, on each side
    that is a group (`groups`), which of its elements they are on (a group's
    contacts name its elements, and cover every element that touches), the
    ray's hit point (None if refused)."""
    try:
        v = f()
    except Exception:  # an unsupported pair
        return None
    if q == "distance":
        return round(v.d, 5)
    if q == "contacts":
        if not len(v.depths):
            return "none"
        sides = [(name, sorted(set(elems))) for name, elems, group in
                 (("first", v.elems1, groups[0]), ("second", v.elems2, groups[1])) if group]
        shown = ["%s's elements %s%s" % (name, e[:4], " and %d more" % (len(e) - 4) if len(e) > 4 else "")
                 for name, e in sides]
        return "some" + (" (%s)" % "; ".join(shown) if shown else "")
    if q == "rayCast":
        return [round(x, 5) for x in v[1]] if v[0] else "miss"
    return bool(v)


def measure_matrix(rel):
    world = load_robot(rel)
    first, second = two_largest_meshes(world)
    sa, sb = shapes_of(first), shapes_of(second)
    out, answers = {}, {}
    for i, ta in enumerate(TYPES):
        for tb in TYPES[i:]:
            a, b = sa[ta], sb[tb]
            for pose, t in poses(first, second).items():
                b.setCurrentTransform(QUARTER_TURN, t)
                for q, f in query_calls(a, b).items():
                    key = "%s-%s/%s/%s" % (ta, tb, pose, q)
                    out[key] = timed(f)
                    if out[key] is not None:
                        answers[key] = answer(q, f, (ta == "Group", tb == "Group"))
    c, _ = center(first)
    for ta in TYPES:
        a = sa[ta]
        key = "%s/ray/rayCast" % ta
        out[key] = timed(lambda: a.rayCast([c[0] - 10, c[1], c[2]], [1, 0, 0]))
        answers[key] = answer("rayCast", lambda: a.rayCast([c[0] - 10, c[1], c[2]], [1, 0, 0]))
    return out, answers


def measure_clouds():
    out, sizes = {}, {}
    for rel in CLOUD_ROBOTS:
        name = os.path.splitext(os.path.basename(rel))[0]
        world = load_robot(rel)
        first, second = two_largest_meshes(world)
        clouds = {"convert": second.convert("PointCloud", 0), "vertices": vertex_cloud(second)}
        for kind, cloud in clouds.items():
            sizes["%s/%s" % (name, kind)] = cloud.getPointCloud().numPoints()
            for margin in (0.0, 0.01):
                cloud.setCollisionMargin(margin)
                for pose, t in poses(first, second).items():
                    cloud.setCurrentTransform(QUARTER_TURN, t)
                    for q, f in query_calls(cloud, first).items():
                        if q == "contacts":
                            continue
                        out["%s %s m=%g/%s/%s" % (name, kind, margin, pose, q)] = timed(f)
    return out, sizes


def measure():
    clouds, sizes = measure_clouds()
    matrix, answers = measure_matrix("robots/tx90l.rob")
    return {"matrix": matrix, "answers": answers, "clouds": clouds, "sizes": sizes}


def differing_answers(mine, other):
    """Cells whose two klampts answer differently, as (cell, this, other)."""
    theirs = other.get("answers", {})
    return [(k, v, theirs[k]) for k, v in sorted(mine["answers"].items())
            if theirs.get(k) is not None and theirs[k] != v]


def cell(mine, other, key):
    m = mine.get(key)
    o = other.get(key) if other is not None else None
    if m is None:
        return "n/a" if o is None or other is None else "n/a (%.4g)" % o
    if other is None:
        return "%.4g" % m
    if o is None:
        return "%.4g / n/a" % m
    return "%.4g / %.4g  %.2fx" % (m, o, o / m)


def table(title, mine, other, rows, columns):
    print("\n" + title)
    print("| %s | %s |" % ("pair / pose", " | ".join(columns)))
    print("|---" * (len(columns) + 1) + "|")
    for r in rows:
        print("| %s | %s |" % (r, " | ".join(cell(mine, other, "%s/%s" % (r, c)) for c in columns)))


def print_table(mine, other=None):
    unit = "median time per call, microseconds" + (" (this / other  speed-up other/this)" if other else "")
    om = other["matrix"] if other else None
    rows = sorted({k.rsplit("/", 1)[0] for k in mine["matrix"] if "/ray/" not in k}, key=lambda r: r.split("/"))
    table("Geometry pairs on tx90l's two largest links, " + unit, mine["matrix"], om, rows, QUERIES)
    table("Ray casts", mine["matrix"], om, ["%s/ray" % t for t in TYPES], ["rayCast"])
    if other:
        print("\nCells answered differently (this / other):")
        for key, m, o in differing_answers(mine, other):
            print("- %s: %s / %s" % (key, m, o))
    oc = other["clouds"] if other else None
    rows = sorted({k.rsplit("/", 1)[0] for k in mine["clouds"]})
    table("Point cloud-mesh, " + unit, mine["clouds"], oc, rows, ["collides", "within", "distance"])
    print("\ncloud sizes (points): " + ", ".join(
        "%s %d%s" % (k, v, " / %d" % other["sizes"][k] if other else "") for k, v in mine["sizes"].items()))


def main():
    run(__file__, __doc__, measure, print_table)


if __name__ == "__main__":
    main()
