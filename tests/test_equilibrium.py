"""Contact mechanics module functions of klampt (klampt/equilibrium.py)
against hand-solved statics: a box on four corner contacts, tipping
points, friction cone limits, force closure of grasps, a 2D beam on two
supports, gravity torques of the arm against its potential energy."""
import math

import numpy as np
import pytest

import klampt
from klampt import (com_equilibrium, com_equilibrium_2d, equilibrium_torques, force_closure, force_closure_2d,
                    support_polygon, support_polygon_2d, set_friction_cone_approximation_edges)

from conftest import arm6_world, assert_close

G = 9.8
MU = 0.5
BOX = [[x, y, 0, 0, 0, 1, MU] for x in (-0.5, 0.5) for y in (-0.5, 0.5)]


@pytest.fixture(autouse=True)
def default_edges():
    set_friction_cone_approximation_edges(4)
    yield
    set_friction_cone_approximation_edges(4)


def check_statics(contacts, forces, fext, com, mu_scale=1.0):
    """Forces balance fext and its moment, and lie in the friction cones."""
    p = np.array(contacts)[:, :3]
    f = np.array(forces)
    assert_close(f.sum(axis=0) + fext, np.zeros(3), atol=1e-7)
    moment = np.cross(p, f).sum(axis=0) + np.cross(com, fext)
    assert_close(moment, np.zeros(3), atol=1e-7)
    for c, fi in zip(contacts, f):
        n = np.array(c[3:6]) / np.linalg.norm(c[3:6])
        fn = fi @ n
        assert fn >= -1e-9
        assert np.linalg.norm(fi - fn * n) <= c[6] * fn * mu_scale + 1e-7


def test_box_support_polygon_is_the_footprint():
    planes = support_polygon(np.array(BOX))
    assert_close(planes, [(0, -1, 0.5), (1, 0, 0.5), (0, 1, 0.5), (-1, 0, 0.5)], atol=1e-7)
    # the same with explicit friction cone inequalities
    cone = []
    for ax, ay in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        cone += [ax, ay, -MU, 0]
    cone += [0, 0, -1, 0]
    assert_close(support_polygon([c[:3] for c in BOX], [cone] * 4), planes, atol=1e-7)
    # a triangle of contacts
    tri = [[0, 0, 0, 0, 0, 1, 0.3], [2, 0, 0, 0, 0, 1, 0.3], [0, 1, 0, 0, 0, 1, 0.3]]
    planes = support_polygon(tri)
    assert len(planes) == 3
    hyp = [p for p in planes if p[0] > 0.1 and p[1] > 0.1][0]
    assert_close(hyp, (1 / math.sqrt(5), 2 / math.sqrt(5), 2 / math.sqrt(5)), atol=1e-7)


def test_support_polygon_of_force_closure_is_the_whole_plane():
    # the reference's stability test: a square of floor contacts plus one
    # pressing down from above holds any COM, so no edge constrains it
    from klampt.model.contact import ContactPoint, support_polygon as contact_support_polygon
    square = [ContactPoint([x, y, 0], [0, 0, 1], 0.5) for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    fc = square + [ContactPoint([0, 0, 1], [0, 0, -1], 0.5)]
    assert force_closure([c.tolist() for c in fc]) is True
    assert contact_support_polygon(fc) == []
    # ... and indeed a COM far outside the square is in equilibrium
    assert com_equilibrium([c.tolist() for c in fc], [0, 0, -1], [30.0, -40.0, 0.5]) is not None
    square_planes = contact_support_polygon(square)
    assert_close(square_planes, [[0, -1, 1], [1, 0, 1], [0, 1, 1], [-1, 0, 1]], atol=1e-7)
    unstable = [ContactPoint([-1, -1, 0], [0, 1, 0], 0.5), ContactPoint([1, 1, 0], [1, 0, 0], 0.5)]
    assert contact_support_polygon(unstable) == [[0.0, 0.0, -1.0]]
    assert com_equilibrium([c.tolist() for c in unstable], [0, 0, -1], None) is False


def test_support_polygon_with_a_side_contact_matches_equilibrium():
    # a triangle of floor contacts and a pusher from the side, whose LPs
    # reach the bounding box in some directions (the reference gives the same
    # five edges)
    contacts = [[0, 0, 0, 0, 0, 1, 0.5], [2, 0, 0, 0, 0, 1, 0.5], [0, 1, 0, 0, 0, 1, 0.5], [0, 0, 1, 1, 0, 0, 0.3]]
    planes = support_polygon(contacts)
    assert len(planes) == 5 and max(abs(p[2]) for p in planes) < 1
    # the planes say exactly which COMs are in equilibrium, far out too
    inside = outside = 0
    for x in np.linspace(-2, 4, 25):
        for y in np.linspace(-1, 2, 13):
            margins = [p[0] * x + p[1] * y - p[2] for p in planes]
            if min(abs(m) for m in margins) < 1e-3:
                continue
            expected = max(margins) < 0
            assert (com_equilibrium(contacts, [0, 0, -1], [x, y, 0.5]) is not None) == expected, (x, y)
            inside += expected
            outside += not expected
    assert inside > 10 and outside > 10


def test_box_com_equilibrium_and_tipping_point():
    fext = np.array([0, 0, -G])
    com = np.array([0.1, 0.2, 1.0])
    forces = com_equilibrium(BOX, fext, com)
    assert len(forces) == 4
    check_statics(BOX, forces, fext, com)
    assert com_equilibrium(BOX, fext, [0.6, 0.2, 1.0]) is None
    # tipping point: the edge of the footprint is the limit
    assert com_equilibrium(BOX, fext, [0.5, 0.0, 1.0]) is not None
    assert com_equilibrium(BOX, fext, [0.5 + 1e-6, 0.0, 1.0]) is None
    assert com_equilibrium(BOX, fext, None) is True
    # a sideways push F at height h tips the box when F*h > m*g*0.5 = 4.9,
    # and slides it when F > mu*m*g = 4.9
    assert com_equilibrium(BOX, [4.8, 0, -G], [0, 0, 1.1]) is None  # tips: 5.28 > 4.9
    assert com_equilibrium(BOX, [4.8, 0, -G], [0, 0, 1.0]) is not None  # 4.8 < 4.9
    assert com_equilibrium(BOX, [4.95, 0, -G], [0, 0, 0.1]) is None  # slides
    # upward force: nothing holds the box down
    assert com_equilibrium(BOX, [0, 0, 1.0], None) is False


def test_friction_cone_limits_and_edges():
    one = [[0, 0, 0, 0, 0, 1, MU]]
    com = [0, 0, 0]
    assert com_equilibrium(one, [4.8, 0, -G], com) is not None
    assert com_equilibrium(one, [5.0, 0, -G], com) is None
    # the inscribed 4-edge pyramid only allows mu*cos(45deg) along a diagonal
    assert com_equilibrium(one, [3.4, 3.4, -G], com) is None
    set_friction_cone_approximation_edges(8)
    forces = com_equilibrium(one, [3.4, 3.4, -G], com)
    check_statics(one, forces, np.array([3.4, 3.4, -G]), com)
    assert com_equilibrium(one, [3.5, 3.5, -G], com) is None  # |ft| = 4.95 > 4.9
    with pytest.raises(ValueError):
        set_friction_cone_approximation_edges(2)
    # tilted contact normal: a slope of angle a holds a block iff tan(a) <= mu
    for a, ok in ((0.4, True), (0.5, False)):
        n = [math.sin(a), 0, math.cos(a)]
        assert (com_equilibrium([[0, 0, 0] + n + [MU]], [0, 0, -G], [0, 0, 0]) is not None) == ok


def test_force_closure():
    assert force_closure(BOX) is False
    cube = []
    for axis in range(3):
        for sign in (1, -1):
            p = [0, 0, 0]
            p[axis] = 0.5 * sign
            n = [0, 0, 0]
            n[axis] = -sign
            cube.append(p + n + [MU])
    assert force_closure(cube) is True
    frictionless = [c[:6] + [0.0] for c in cube]
    assert force_closure(frictionless) is False
    with pytest.raises(ValueError):
        force_closure([[0, 0, 0, 0, 0, 1]])
    with pytest.raises(ValueError, match=r"^contacts must be finite, got nan \(element 6\)$"):
        force_closure([[0, 0, 0, 0, 0, 1, float('nan')]])


def test_2d_beam_on_two_supports():
    c2 = [[0, 0, math.pi / 2, MU], [1, 0, math.pi / 2, MU]]
    lo, hi = support_polygon_2d(c2)
    assert lo == pytest.approx(0.0, abs=1e-9) and hi == pytest.approx(1.0, abs=1e-9)
    forces = com_equilibrium_2d(c2, [0, -G], [0.25, 1.0])
    # vertical reactions by the lever rule: 0.75 and 0.25 of the weight
    assert forces[0][1] == pytest.approx(0.75 * G) and forces[1][1] == pytest.approx(0.25 * G)
    assert forces[0][0] + forces[1][0] == pytest.approx(0.0, abs=1e-9)
    assert com_equilibrium_2d(c2, [0, -G], [1.5, 1.0]) is None
    assert support_polygon_2d([[0, 0, -math.pi / 2, MU]]) == (math.inf, math.inf)
    # fancy form: cone inequalities (ax, ay, b)
    cone = [1, -MU, 0, -1, -MU, 0, 0, -1, 0]
    assert support_polygon_2d([[0, 0], [2, 0]], [cone, cone]) == pytest.approx((0.0, 2.0), abs=1e-9)
    pinch = [[0, 0, 0, MU], [1, 0, math.pi, MU]]
    assert force_closure_2d(pinch) is True
    assert force_closure_2d([c[:3] + [0.0] for c in pinch]) is False
    assert force_closure_2d(c2) is False


@pytest.fixture
def arm():
    w = arm6_world()
    robot = w.robot(0)
    robot.setConfig([0, 0.3, 0.6, -0.4, 0.2, 0.5, 0.1])
    return w, robot


def potential_gradient(robot, fext, h=1e-6):
    """dV/dq of V(q) = -M fext . com(q) by central differences."""
    q0 = robot.getConfig()
    M = sum(robot.link(i).getMass().getMass() for i in range(robot.numLinks()))
    grad = []
    for j in range(len(q0)):
        vals = []
        for d in (h, -h):
            q = list(q0)
            q[j] += d
            robot.setConfig(q)
            vals.append(-M * np.dot(fext, robot.getCom()))
        grad.append((vals[0] - vals[1]) / (2 * h))
    robot.setConfig(q0)
    return np.array(grad)


def test_equilibrium_torques_without_contacts_is_gravity(arm):
    w, robot = arm
    fext = [0, 0, -G]
    t, f = equilibrium_torques(robot, np.zeros((0, 7)), [], fext)
    assert f == []
    assert_close(t, potential_gradient(robot, fext), atol=1e-5)
    t1, _ = equilibrium_torques(robot, np.zeros((0, 7)), [], fext, norm=1)
    assert_close(t1, t, atol=1e-9)
    robot.setTorqueLimits([1.0] * robot.numLinks())
    assert equilibrium_torques(robot, np.zeros((0, 7)), [], fext) is None


def test_equilibrium_torques_with_support(arm):
    w, robot = arm
    fext = np.array([0, 0, -G])
    n = robot.numLinks()
    ee = robot.link(n - 1)
    p = np.array(ee.getWorldPosition([0, 0, 0.05]))
    contacts = np.array([list(p) + [0, 0, 1, 0.8]])
    tfree, _ = equilibrium_torques(robot, np.zeros((0, 7)), [], fext)
    internal = [0.1 * i for i in range(n)]
    for norm in (0, 1, 2):
        res = equilibrium_torques(robot, contacts, [n - 1], fext, internal, norm=norm)
        assert res is not None
        t, forces = res
        # torque balance: t_int + G = t + J^T f
        J = np.asarray(ee.getPositionJacobian([0, 0, 0.05]))
        lhs = np.array(internal) + potential_gradient(robot, fext)
        assert_close(np.array(t) + J.T @ np.array(forces[0]), lhs, atol=1e-4)
        fz = forces[0][2]
        assert fz >= -1e-9 and math.hypot(forces[0][0], forces[0][1]) <= 0.8 * fz + 1e-6
    # the support lowers the largest torque
    t0, _ = equilibrium_torques(robot, contacts, [n - 1], fext)
    assert max(abs(v) for v in t0) < max(abs(v) for v in tfree) - 1e-3
    with pytest.raises(ValueError):
        equilibrium_torques(robot, contacts, [], fext)


def test_streams_need_ros():
    for call in (lambda: klampt.subscribe_to_stream(klampt.Geometry3D(), 'ros', '/points'),
                 lambda: klampt.detach_from_stream('ros', '/points'),
                 lambda: klampt.process_streams(),
                 lambda: klampt.wait_for_stream('ros', '/points', 1.0)):
        with pytest.raises(RuntimeError, match='ROS is not available'):
            call()
    klampt.destroy()
