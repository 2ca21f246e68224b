"""klampt.model.workspace: gridding closed-form point sets and values, and
the reachable workspace of a planar 2R arm (a disk of radius L1 + L2 in its
plane), with fixed links, feasibility tests and a manipulability field
checked against the 2R closed form."""
import math
import random

import numpy as np
import pytest

import klampt
from klampt.model import ik, workspace
from klampt.model.create import planar_robot

from conftest import assert_close


def grid_cells(grid):
    b = list(grid.bbox)
    lower, upper = np.array(b[:3]), np.array(b[3:])
    dims = np.array(list(grid.dims))
    return lower, (upper - lower) / dims, np.asarray(grid.getValues())


def test_occupancy_grid_with_bounds():
    pts = [[0.05, 0.05, 0.05], [0.06, 0.04, 0.01], [0.95, 0.5, 0.5], [2, 2, 2]]
    g = workspace.compute_occupancy_grid(pts, resolution=None, dimensions=[10, 10, 10],
                                         bounds=([0, 0, 0], [1, 1, 1]), value='count')
    lower, cell, values = grid_cells(g)
    assert list(g.dims) == [10, 10, 10]
    assert_close(cell, [0.1, 0.1, 0.1])
    assert values[0, 0, 0] == 2 and values[9, 5, 5] == 1 and values.sum() == 3
    p = workspace.compute_occupancy_grid(pts, dimensions=[10, 10, 10], bounds=([0, 0, 0], [1, 1, 1]),
                                         value='probability')
    assert np.asarray(p.getValues())[0, 0, 0] == pytest.approx(0.5)
    o = workspace.compute_occupancy_grid(pts, dimensions=[10, 10, 10], bounds=([0, 0, 0], [1, 1, 1]))
    assert np.asarray(o.getValues()).max() == 1.0
    with pytest.raises(ValueError):
        workspace.compute_occupancy_grid([], resolution=0.1)


def test_occupancy_grid_auto_layout():
    rng = np.random.default_rng(0)
    pts = rng.uniform([0, 0, 0], [1.0, 0.5, 0.25], size=(500, 3))
    g = workspace.compute_occupancy_grid(pts, resolution=0.1)
    lower, cell, values = grid_cells(g)
    assert_close(cell, [0.1, 0.1, 0.1], atol=1e-12)
    upper = lower + cell * np.array(list(g.dims))
    assert np.all(lower < pts.min(axis=0) - 0.1 + 1e-9) and np.all(upper > pts.max(axis=0) + 0.1 - 1e-9)
    # an empty border cell on every side
    assert values[0].sum() == 0 and values[-1].sum() == 0
    assert values[:, 0].sum() == 0 and values[:, :, -1].sum() == 0
    # every point's cell is occupied
    idx = np.floor((pts - lower) / cell).astype(int)
    assert np.all(values[tuple(idx.T)] == 1)


def test_field_grid_aggregators():
    pts = [[0.1, 0.1, 0.1], [0.15, 0.12, 0.11], [0.9, 0.9, 0.9]]
    vals = [1.0, 3.0, -2.0]
    kw = dict(resolution=None, dimensions=[2, 2, 2], bounds=([0, 0, 0], [1, 1, 1]))
    get = lambda agg, init='auto': np.asarray(workspace.compute_field_grid(pts, vals, aggregator=agg,
                                                                          initial_value=init, **kw).getValues())
    # empty cells hold 0 by default (a VolumeGrid holds finite values only)
    assert get('max')[0, 0, 0] == 3 and get('max')[1, 1, 1] == -2 and get('max')[0, 1, 0] == 0
    assert get('min')[0, 0, 0] == 1 and get('min')[0, 1, 0] == 0 and get('min', 5.0)[0, 1, 0] == 5
    assert get('sum')[0, 0, 0] == 4 and get('sum', 7.0)[0, 1, 1] == 7.0
    assert get('average')[0, 0, 0] == 2 and get('average')[0, 1, 1] == 0
    assert get('average', (10.0, 2))[0, 0, 0] == pytest.approx((20 + 4) / 4)
    counted = get((lambda x, v: (x or 0) + 1, lambda x: float(x or 0)))
    assert counted[0, 0, 0] == 2 and counted[1, 1, 1] == 1 and counted[1, 0, 0] == 0
    with pytest.raises(ValueError):
        get('median')


@pytest.fixture
def arm2r():
    world = klampt.WorldModel()
    robot = planar_robot.make(2, world, link_length=0.5)
    return world, robot


def centers_in_plane(grid):
    """Centres (x, z) of the cells that contain the y = 0 plane, and their values."""
    lower, cell, values = grid_cells(grid)
    j = int(math.floor((0 - lower[1]) / cell[1]))
    xs = lower[0] + (np.arange(values.shape[0]) + 0.5) * cell[0]
    zs = lower[2] + (np.arange(values.shape[2]) + 0.5) * cell[2]
    X, Z = np.meshgrid(xs, zs, indexing='ij')
    return X, Z, values[:, j, :], cell


def test_planar_arm_workspace_is_a_disk(arm2r):
    random.seed(0)
    np.random.seed(0)
    klampt.set_random_seed(0)
    _, robot = arm2r
    tip = [0.5, 0, 0]
    grid = workspace.compute_workspace(robot.link(1), tip, Nsamples=3000, resolution=0.1, all_tests=False,
                                       self_collision=False)
    X, Z, occ, cell = centers_in_plane(grid)
    r = np.hypot(X, Z)
    half_diag = 0.5 * math.hypot(cell[0], cell[2])
    assert np.all(occ[r < 1.0 - half_diag] == 1), "cells well inside the disk are reached"
    assert np.all(occ[r > 1.0 + half_diag] == 0), "cells outside the disk are not"
    values = np.asarray(grid.getValues())
    assert values.sum() == occ.sum(), "only the plane of the arm is reached"


def test_fixed_links_and_feasibility_tests(arm2r):
    klampt.set_random_seed(1)
    _, robot = arm2r
    robot.setConfig([0.0, 0.0])
    tip = [0.5, 0, 0]
    grid = workspace.compute_workspace(robot.link(1), tip, Nsamples=1000, resolution=0.1, fixed_links=[0],
                                       all_tests=False, self_collision=False)
    X, Z, occ, cell = centers_in_plane(grid)
    # the tip moves on the circle of radius 0.5 around the elbow at (0.5, 0, 0)
    d = np.hypot(X - 0.5, Z)
    half_diag = 0.5 * math.hypot(cell[0], cell[2])
    assert np.all(np.abs(d[occ == 1] - 0.5) <= half_diag + 1e-9)
    assert robot.getJointLimits()[0] == [0, 0], "the original limits are restored"

    grids = workspace.compute_workspace(robot.link(1), tip, Nsamples=2000, resolution=0.1, self_collision=False,
                                        feasibility_test={'above': lambda q: (robot.setConfig(q) or True) and
                                                          robot.link(1).getWorldPosition(tip)[2] >= 0})
    assert set(grids) == {'above', 'workspace'}
    X, Z, occ, cell = centers_in_plane(grids['workspace'])
    assert np.all(Z[occ == 1] > -cell[2])
    assert occ.sum() > 0


def test_ik_constrained_workspace(arm2r):
    klampt.set_random_seed(2)
    _, robot = arm2r
    obj = ik.objective(robot.link(1), local=[0.5, 0, 0], world=[0.5, 0, 0.5])
    grid = workspace.compute_workspace(robot.link(1), obj, Nsamples=500, resolution=0.2, all_tests=False,
                                       self_collision=False)
    X, Z, occ, cell = centers_in_plane(grid)
    r = np.hypot(X, Z)
    assert occ.sum() > 0 and np.all(r[occ == 1] <= 1.0 + 1e-6)


def test_manipulability_field_matches_the_2r_formula(arm2r):
    klampt.set_random_seed(3)
    _, robot = arm2r
    tip = [0.5, 0, 0]
    field = workspace.compute_workspace_field(robot.link(1), tip, 'manipulability', Nsamples=4000, resolution=0.1,
                                              self_collision=False)
    X, Z, vals, cell = centers_in_plane(field)
    r = np.hypot(X, Z)
    # planar 2R, unit-free: sqrt(det(J J^T)) = L1 L2 |sin q2| with r^2 = L1^2 + L2^2 + 2 L1 L2 cos q2
    cos_q2 = np.clip((r ** 2 - 0.5) / 0.5, -1, 1)
    expected = 0.25 * np.sqrt(1 - cos_q2 ** 2)
    inside = (r > 0.15) & (r < 0.85)
    assert inside.sum() > 10
    # cell values are the maximum over the cell; the formula at the centre is within one cell's variation
    assert np.all(np.abs(vals[inside] - expected[inside]) < 0.08)
    f = workspace.compute_workspace_field(robot.link(1), tip, lambda q: q[1], Nsamples=300, resolution=0.2,
                                          self_collision=False, default_value=-1.0)
    values = np.asarray(f.getValues())
    assert values.min() == -1.0 and values.max() <= 2 * math.pi
