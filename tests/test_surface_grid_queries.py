"""Meshes, primitives and hulls against volume grids (implicit surfaces):
the distance is the grid's least value over the other's surface. Checked
against brute force (the grid's value at dense samples of the surface,
through distance_point) and against the closed-form sphere distance."""
import numpy as np
import pytest

import klampt
from klampt.math import so3
from conftest import aabb_geometry, sphere_geometry


def sphere_sdf(radius=0.3, resolution=0.02):
    return sphere_geometry((0, 0, 0), radius).convert("ImplicitSurface", resolution)


def box_mesh(size=0.2):
    return aabb_geometry([-size / 2] * 3, [size / 2] * 3, mesh=True)


def surface_samples(g, n=24):
    """Points on every triangle of g's mesh (world frame), on a barycentric lattice."""
    mesh = g.convert("TriangleMesh").getTriangleMesh()
    V, T = mesh.getVertices(), mesh.getIndices()
    R, t = g.getCurrentTransform()
    V = V @ np.array(R).reshape(3, 3) + np.array(t)
    uv = [(i / n, j / n) for i in range(n + 1) for j in range(n + 1 - i)]
    return np.array([V[a] + u * (V[b] - V[a]) + v * (V[c] - V[a]) for a, b, c in T for u, v in uv])


@pytest.mark.parametrize("offset", [0.5, 0.42, 0.38, 0.3, 0.1])
def test_mesh_to_grid_distance_is_the_least_grid_value_on_the_surface(offset):
    sdf = sphere_sdf()
    box = box_mesh()
    box.setCurrentTransform(so3.rotation([0.3, 0.5, 0.8], 0.7), [offset, 0.05, -0.02])
    brute = min(sdf.distance_point(p).d for p in surface_samples(box))
    res = box.distance(sdf)
    # Never above a sampled value; below it only by what the samples miss.
    assert res.d <= brute + 1e-9
    assert res.d >= brute - 0.01
    # The grid approximates the sphere's signed distance to within a cell.
    corners = np.array(surface_samples(box, 8))
    exact = np.linalg.norm(corners, axis=1).min() - 0.3
    assert res.d == pytest.approx(exact, abs=0.03)
    assert box.collides(sdf) == (res.d <= 0) and sdf.collides(box) == (res.d <= 0)
    assert box.withinDistance(sdf, max(res.d, 0) + 1e-6)
    assert sdf.distance(box).d == pytest.approx(res.d, abs=1e-9)
    # The closest points: on the box and on the grid's level set, d apart.
    assert np.linalg.norm(np.array(res.cp1) - np.array(res.cp2)) == pytest.approx(abs(res.d), abs=0.02)


def test_primitives_hulls_and_occupancy_grids_against_a_grid():
    sdf = sphere_sdf()
    g = aabb_geometry([0.25, -0.05, -0.05], [0.45, 0.05, 0.05])
    assert g.collides(sdf) and sdf.collides(g)
    far = aabb_geometry([0.35, -0.05, -0.05], [0.55, 0.05, 0.05])
    assert not far.collides(sdf)
    assert far.distance(sdf).d == pytest.approx(0.05, abs=0.02)
    hull = far.convert("ConvexHull")
    assert hull.distance(sdf).d == pytest.approx(far.distance(sdf).d, abs=1e-6)
    occ = far.convert("OccupancyGrid", 0.05)
    assert not occ.collides(sdf) and occ.withinDistance(sdf, 0.1)
    occ.setCurrentTransform(so3.identity(), [-0.1, 0, 0])
    assert occ.collides(sdf)


def test_heightmap_against_a_grid():
    hm = klampt.Heightmap()
    hm.resize(11, 11)
    hm.setSize(1.0, 1.0)
    hm.heights[:] = 0.0
    g = klampt.Geometry3D(hm)
    sdf = sphere_sdf(0.2)
    for z, hit in ((0.25, False), (0.15, True), (-0.1, True)):
        sdf.setCurrentTransform(so3.identity(), [0.1, -0.05, z])
        assert g.collides(sdf) == hit, z
        if not hit:
            assert g.distance(sdf).d == pytest.approx(z - 0.2, abs=0.02)


@pytest.mark.parametrize("gap", [0.25, 0.1, -0.1])
def test_two_grids_by_the_closed_form_sphere_distance(gap):
    a, b = sphere_sdf(0.3), sphere_sdf(0.2, 0.02)
    b.setCurrentTransform(so3.identity(), [0.5 + gap, 0.03, -0.02])
    exact = np.linalg.norm([0.5 + gap, 0.03, -0.02]) - 0.5
    assert a.collides(b) == (exact <= 0) and b.collides(a) == (exact <= 0)
    res = a.distance(b)
    if exact > 0:
        assert res.d == pytest.approx(exact, abs=0.03)
        assert a.withinDistance(b, exact + 0.03) and not a.withinDistance(b, exact - 0.03)
    else:
        assert res.d <= 0


def test_contacts_and_support_of_grids():
    sdf = sphere_sdf()
    box = box_mesh()
    box.setCurrentTransform(so3.identity(), [0.35, 0.0, 0.0])
    res = box.contacts(sdf, 0.0, 0.0)
    d = box.distance(sdf).d
    assert d < 0 and len(res.depths) == 1
    assert res.depths[0] == pytest.approx(-d, abs=1e-9)
    # The normal points from the box into the grid's solid, towards the sphere's centre.
    assert np.dot(res.normals[0], [-1, 0, 0]) > 0.9
    far = box_mesh()
    far.setCurrentTransform(so3.identity(), [0.6, 0.0, 0.0])
    assert len(far.contacts(sdf, 0.0, 0.0).depths) == 0
    assert len(far.contacts(sdf, 0.1, 0.1).depths) == 1
    other = sphere_sdf(0.2, 0.02)
    other.setCurrentTransform(so3.identity(), [0.45, 0, 0])
    assert len(sdf.contacts(other, 0.0, 0.0).depths) == 1
    # The support point of an implicit surface: its solid's farthest cell centre.
    for direction in ([1, 0, 0], [0, -1, 0], [0.6, 0.8, 0]):
        p = np.array(sdf.support(direction))
        assert np.dot(p, direction) == pytest.approx(0.3, abs=0.02)
