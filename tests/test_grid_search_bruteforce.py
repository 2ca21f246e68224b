"""The searches of a volume grid (an implicit surface) against other shapes,
checked by brute force on real links: tx90l's two largest link meshes, one
converted to a grid, the other as a mesh, box, hull and group, at random
poses straddling contact.

The grid's value is defined as the trilinear interpolation of its cell
values (cell centres, clamped to the grid) plus the distance to the grid's
box outside it; that definition is written here in numpy. A surface's
distance to the grid is the least value over the surface: the search's
answer must be a value the field takes at its closest point on the surface,
and no larger than the value at any of ~100,000 sample points spread over
every triangle, and on the surface. Two grids are compared over both grids' cell centres."""
import numpy as np
import pytest

import klampt
from klampt.math import so3
from conftest import load_shared_world


def two_largest_links():
    world = load_shared_world("robots/tx90l.rob", quiet=True)
    robot = world.robot(0)
    sizes = sorted(((len(robot.link(i).geometry().getTriangleMesh().getIndices()), i)
                    for i in range(robot.numLinks()) if robot.link(i).geometry().type() == "TriangleMesh"),
                   reverse=True)
    out = []
    for _, i in sizes[:2]:
        g = robot.link(i).geometry().clone()
        g.setCurrentTransform(so3.identity(), [0, 0, 0])
        out.append(g)
    return world, out


@pytest.fixture(scope="module")
def links():
    world, (first, second) = two_largest_links()
    lo, hi = first.getBBTight()
    grid = first.convert("VolumeGrid", max(h - l for l, h in zip(lo, hi)) / 32)
    yield grid, second
    del world


def field(grid_geom):
    """The grid's value at world points, by its definition."""
    vg = grid_geom.getVolumeGrid()
    values = np.array(vg.getValues())
    n = np.array(values.shape)
    bmin, bmax = np.array(vg.bmin), np.array(vg.bmax)
    h = (bmax - bmin) / n
    R, t = grid_geom.getCurrentTransform()
    R = np.array(R).reshape(3, 3).T  # column-major storage

    def value(world_points):
        p = (np.asarray(world_points) - np.array(t)) @ R  # into the grid's frame
        q = np.clip(p, bmin, bmax)
        u = np.clip((q - bmin) / h - 0.5, 0, n - 1)
        i0 = np.minimum(np.floor(u).astype(int), n - 1)
        f = u - i0
        i1 = np.minimum(i0 + 1, n - 1)
        out = np.zeros(len(p))
        for di in (0, 1):
            for dj in (0, 1):
                for dk in (0, 1):
                    w = ((f[:, 0] if di else 1 - f[:, 0]) * (f[:, 1] if dj else 1 - f[:, 1])
                         * (f[:, 2] if dk else 1 - f[:, 2]))
                    idx = [(i1 if d else i0)[:, a] for a, d in enumerate((di, dj, dk))]
                    out += w * values[idx[0], idx[1], idx[2]]
        return out + np.linalg.norm(p - q, axis=1)

    return value


def lipschitz(grid_geom):
    """A bound on the field's slope: its cells' steepest differences per
    axis, plus 1 for the distance added outside the grid's box."""
    vg = grid_geom.getVolumeGrid()
    values = np.array(vg.getValues())
    h = (np.array(vg.bmax) - np.array(vg.bmin)) / np.array(values.shape)
    steep = [np.abs(np.diff(values, axis=k)).max() / h[k] for k in range(3)]
    return float(np.linalg.norm(steep)) + 1.0


def least_value(value, L, triangles, finest=2e-4, most=300000):
    """Branch and bound by the slope alone over (A, B, C) triangles: the
    least value found and a lower bound of the true least value. Pieces are
    split in four until they are `finest` small (or too many)."""
    A, B, C = triangles
    best, lower = np.inf, -np.inf
    while len(A):
        m = (A + B + C) / 3
        v = value(m)
        r = np.max([np.linalg.norm(P - m, axis=1) for P in (A, B, C)], axis=0)
        best = min(best, v.min())
        keep = v - L * r < best
        if not keep.any():
            return best, best
        if r[keep].max() < finest or 4 * keep.sum() > most:
            return best, (v - L * r)[keep].min()
        A, B, C = A[keep], B[keep], C[keep]
        ab, bc, ca = (A + B) / 2, (B + C) / 2, (C + A) / 2
        A, B, C = (np.vstack(x) for x in ((A, ab, ca, ab), (ab, B, bc, bc), (ca, bc, C, ca)))
    return best, lower


def surface_triangles(g):
    """The corners of g's surface triangles (world frame), as three arrays."""
    if g.type() == "Group":
        R, t = g.getCurrentTransform()
        parts = []
        for i in range(g.numElements()):
            e = g.getElement(i).clone()
            Re, te = e.getCurrentTransform()
            e.setCurrentTransform(so3.mul(R, Re), list(np.array(so3.apply(R, te)) + np.array(t)))
            parts.append(surface_triangles(e))
        return tuple(np.vstack([p[k] for p in parts]) for k in range(3))
    mesh = g.convert("TriangleMesh").getTriangleMesh()
    V, T = np.array(mesh.getVertices()), np.array(mesh.getIndices())
    R, t = g.getCurrentTransform()
    V = V @ np.array(R).reshape(3, 3) + np.array(t)
    return V[T[:, 0]], V[T[:, 1]], V[T[:, 2]]


def surface_samples(g, per_side=12):
    """Points on every triangle of g's surface (world frame): a barycentric lattice."""
    A, B, C = surface_triangles(g)
    steps = per_side  # the finest lattice within about 200,000 points
    while steps > 1 and len(A) * (steps + 1) * (steps + 2) / 2 > 200000:
        steps -= 1
    uv = np.array([(i / steps, j / steps) for i in range(steps + 1) for j in range(steps + 1 - i)])
    pts = A[:, None, :] + uv[None, :, 0, None] * (B - A)[:, None, :] + uv[None, :, 1, None] * (C - A)[:, None, :]
    return pts.reshape(-1, 3)


def shapes(second):
    lo, hi = second.getBBTight()
    box = klampt.GeometricPrimitive()
    box.setAABB(lo, hi)
    group = klampt.Geometry3D()
    group.setGroup()
    group.setElement(0, second.clone())
    group.setElement(1, klampt.Geometry3D(box))
    return {"mesh": second, "box": klampt.Geometry3D(box), "hull": second.convert("ConvexHull"), "group": group}


def box_centre(g):
    lo, hi = g.getBBTight()
    return (np.array(lo) + np.array(hi)) / 2


def random_poses(grid, other, n, seed):
    """Rotations at random, the grid placed so that its box centre lies at a
    random offset from the other shape's: in contact, grazing, apart."""
    rng = np.random.default_rng(seed)
    grid.setCurrentTransform(so3.identity(), [0, 0, 0])
    centre = box_centre(grid)
    for _ in range(n):
        R = so3.from_moment(list(rng.normal(size=3)))
        direction = rng.normal(size=3)
        offset = direction / np.linalg.norm(direction) * rng.uniform(0.05, 0.4)
        yield R, list(box_centre(other) + offset - np.array(so3.apply(R, centre)))


@pytest.mark.parametrize("kind", ["mesh", "box", "hull", "group"])
def test_surface_to_grid_distance_is_the_least_value_on_the_surface(links, kind):
    grid, second = links
    other = shapes(second)[kind]
    checked = {"overlap": 0, "apart": 0}
    for R, t in random_poses(grid, other, 8, seed=len(kind)):
        grid.setCurrentTransform(R, t)
        value, L = field(grid), lipschitz(grid)
        res = other.distance(grid)
        brute = value(surface_samples(other)).min()
        # No sample lies below the answer: the search pruned nothing it should not have.
        assert res.d <= brute + 1e-12
        # Nor does any point a slope-only search finds, and the answer is
        # above that search's lower bound.
        found, lower = least_value(value, L, surface_triangles(other))
        assert lower - 1e-12 <= res.d <= found + 1e-12
        # The answer is the field's value at the closest point the search reports.
        assert value([res.cp1])[0] == pytest.approx(res.d, abs=1e-9)
        # That point is on the surface.
        assert abs(other.distance_point(res.cp1).d) < 1e-9
        assert grid.distance(other).d == pytest.approx(res.d, abs=1e-12)
        # The yes-or-no searches agree with the distance, either order.
        assert other.collides(grid) == (res.d <= 0) and grid.collides(other) == (res.d <= 0)
        for tol in (res.d - 1e-4, res.d + 1e-4):
            if tol >= 0:
                assert other.withinDistance(grid, tol) == (tol >= res.d), tol
                assert grid.withinDistance(other, tol) == (tol >= res.d), tol
        checked["overlap" if res.d <= 0 else "apart"] += 1
    assert checked["overlap"] and checked["apart"], checked


def test_two_grids_over_both_grids_cell_centres(links):
    grid, second = links
    lo, hi = second.getBBTight()
    other = second.convert("VolumeGrid", max(h - l for l, h in zip(lo, hi)) / 24)

    def centres(g):
        vg = g.getVolumeGrid()
        n = np.array(np.array(vg.getValues()).shape)
        h = (np.array(vg.bmax) - np.array(vg.bmin)) / n
        idx = np.stack(np.meshgrid(*[np.arange(k) for k in n], indexing="ij"), -1).reshape(-1, 3)
        local = np.array(vg.bmin) + (idx + 0.5) * h
        R, t = g.getCurrentTransform()
        return local @ np.array(R).reshape(3, 3) + np.array(t)

    kinds = set()
    for R, t in random_poses(grid, other, 10, seed=7):
        grid.setCurrentTransform(R, t)
        fa, fb = field(grid), field(other)
        pts = np.vstack([centres(grid), centres(other)])
        a, b = fa(pts), fb(pts)
        deepest, gap = np.maximum(a, b).min(), (a + b).min()
        expected = deepest if deepest <= 0 else gap
        res = grid.distance(other)
        assert res.d == pytest.approx(expected, abs=1e-12)
        assert grid.collides(other) == (expected <= 0) and other.collides(grid) == (expected <= 0)
        for tol in (expected - 1e-4, expected + 1e-4):
            if tol >= 0:
                assert grid.withinDistance(other, tol) == (tol >= expected), tol
        kinds.add(expected <= 0)
    assert kinds == {True, False}
