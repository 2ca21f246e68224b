"""RobotModel, links and drivers on the project's own robots: handles and
lifetime, argument checking, driver conversions, and kinematic identities
(finite differences, frame round trips)."""
import gc
import math
import os
import random

import numpy as np
import pytest

import klampt
from klampt.math import se3, so3, vectorops
from conftest import PROJECT_DATA, assert_close, load_robot, random_config

ROBOTS = os.path.join(PROJECT_DATA, "robots")


def load(name):
    """(world, robot) of the project's robot file `name`."""
    return load_robot(os.path.join(ROBOTS, name), quiet=False)


@pytest.fixture
def arm():
    return load("arm6.rob")


def test_handle_outlives_world():
    world, robot = load("arm6.rob")
    link = robot.link(3)
    del world
    gc.collect()
    robot.setConfig([0.1] * robot.numLinks())
    assert link.getTransform()[1] == robot.link(3).getWorldPosition([0, 0, 0])


def test_removed_robot_raises(arm):
    world, robot = arm
    link = robot.link(2)
    world.remove(robot)
    assert world.numRobots() == 0
    with pytest.raises(RuntimeError, match="removed"):
        robot.getConfig()
    with pytest.raises(RuntimeError, match="removed"):
        link.getTransform()


def test_indices_and_sizes_are_checked(arm):
    world, robot = arm
    n = robot.numLinks()
    with pytest.raises(IndexError):
        robot.link(n)
    with pytest.raises(IndexError):
        robot.link(-1)
    with pytest.raises(IndexError):
        robot.driver(99)
    with pytest.raises(KeyError):
        robot.link("no such link")
    with pytest.raises(ValueError):
        robot.setConfig([0.0] * (n + 1))
    with pytest.raises(ValueError):
        robot.setConfig([float("nan")] * n)
    with pytest.raises(TypeError):
        robot.setConfig(["a"] * n)
    with pytest.raises(ValueError):
        robot.link(1).getJacobian([0, 0])
    with pytest.raises(IndexError):
        world.robot(5)
    with pytest.raises(IndexError):
        world.getName(world.numIDs())


def test_vectors_accept_lists_tuples_and_arrays(arm):
    _, robot = arm
    q = [0.1 * i for i in range(robot.numLinks())]
    for form in (q, tuple(q), np.array(q), np.array(q, dtype=np.float32)):
        robot.setConfig(form)
        assert_close(robot.getConfig(), q, atol=1e-6)


def test_ids_and_names(arm):
    world, robot = arm
    assert robot.getID() == world.numTerrains() + world.numRigidObjects()
    for i in range(robot.numLinks()):
        link = robot.link(i)
        assert link.getID() == robot.getID() + 1 + i
        assert world.getName(link.getID()) == "%s[%s]" % (robot.getName(), link.getName())
        assert robot.link(link.getName()).getIndex() == i


def test_jacobian_matches_finite_differences(arm):
    _, robot = arm
    rng = random.Random(1)
    plocal = [0.05, -0.02, 0.1]
    h = 1e-6
    for _ in range(5):
        q = random_config(robot, rng)
        robot.setConfig(q)
        link = robot.link(robot.numLinks() - 1)
        J = link.getJacobian(plocal)
        R0, _ = link.getTransform()
        p0 = link.getWorldPosition(plocal)
        for j in range(robot.numLinks()):
            dq = list(q)
            dq[j] += h
            robot.setConfig(dq)
            dp = vectorops.div(vectorops.sub(link.getWorldPosition(plocal), p0), h)
            dw = vectorops.div(so3.error(link.getTransform()[0], R0), h)
            assert_close(J[3:, j], dp, atol=1e-5, what="position column %d" % j)
            assert_close(J[:3, j], dw, atol=1e-5, what="orientation column %d" % j)
        robot.setConfig(q)
        assert_close(link.getPositionJacobian(plocal), J[3:], atol=1e-12)
        assert_close(link.getOrientationJacobian(), J[:3], atol=1e-12)
        cols = [1, 3, 5]
        assert_close(link.getJacobianCols(plocal, cols), J[:, cols], atol=1e-12)
        assert_close(link.getPositionJacobianCols(plocal, cols), J[3:, cols], atol=1e-12)
        assert_close(link.getOrientationJacobianCols(cols), J[:3, cols], atol=1e-12)


def test_com_jacobian_matches_finite_differences(arm):
    _, robot = arm
    rng = random.Random(2)
    q = random_config(robot, rng)
    robot.setConfig(q)
    J = robot.getComJacobian()
    c0 = robot.getCom()
    h = 1e-6
    for j in range(robot.numLinks()):
        dq = list(q)
        dq[j] += h
        robot.setConfig(dq)
        assert_close(J[:, j], vectorops.div(vectorops.sub(robot.getCom(), c0), h), atol=1e-5)
    robot.setConfig(q)
    assert_close(robot.getComJacobianCols([2, 4]), J[:, [2, 4]], atol=1e-12)


def test_velocities_are_jacobian_times_dq(arm):
    _, robot = arm
    rng = random.Random(3)
    robot.setConfig(random_config(robot, rng))
    dq = [rng.uniform(-1, 1) for _ in range(robot.numLinks())]
    robot.setVelocity(dq)
    link = robot.link(5)
    p = [0.01, 0.02, 0.03]
    J = link.getJacobian(p)
    assert_close(link.getPointVelocity(p), J[3:] @ dq, atol=1e-12)
    assert_close(link.getAngularVelocity(), J[:3] @ dq, atol=1e-12)
    assert_close(robot.getComVelocity(), robot.getComJacobian() @ dq, atol=1e-12)


def test_revolute_link_rotations_are_sine_and_cosine_to_the_last_bits(arm):
    _, robot = arm
    # The shoulder turns about z from the base, whose frame is the world's:
    # its rotation's first column is exactly (cos q, sin q, 0). Against sin
    # and cos in extended precision (80-bit long double on x86-64; the C
    # library's, itself within an ulp, where there is none): 1.5 units in the
    # last place for every joint angle below 100, 2.5 up to 1e5, and the C
    # library's own values beyond.
    extended = np.finfo(np.longdouble).nmant >= 63
    rng = np.random.default_rng(2)
    q = robot.getConfig()
    for bound, ulps in ((4.0, 1.5), (100.0, 1.5), (1e5, 2.5)):
        worst = 0.0
        for x in rng.uniform(-bound, bound, 3000):
            q[1] = x
            robot.setConfig(q)
            R = robot.link(1).getTransform()[0]
            assert R[2] == 0.0 and R[5] == 0.0 and R[8] == 1.0
            for got, f, g in ((R[0], np.cos, math.cos), (R[1], np.sin, math.sin)):
                truth = f(np.longdouble(x)) if extended else g(x)
                worst = max(worst, float(abs(np.longdouble(got) - truth)) / np.spacing(abs(float(truth))))
        assert worst <= ulps + (0.0 if extended else 1.0), (bound, worst)
    for x in (0.0, 1e5, -3e7, 1e300):
        q[1] = x
        robot.setConfig(q)
        R = robot.link(1).getTransform()[0]
        assert (R[0], R[1]) == (math.cos(x), math.sin(x))


def test_world_local_round_trips(arm):
    _, robot = arm
    robot.setConfig(random_config(robot, random.Random(4)))
    link = robot.link(4)
    p = [0.3, -0.2, 0.7]
    assert_close(link.getWorldPosition(link.getLocalPosition(p)), p, atol=1e-12)
    assert_close(link.getWorldDirection(link.getLocalDirection(p)), p, atol=1e-12)
    assert_close(link.getWorldPosition(p), se3.apply(link.getTransform(), p), atol=1e-12)


def test_setDOFPosition_matches_setConfig(arm):
    _, robot = arm
    q = random_config(robot, random.Random(5))
    robot.setConfig(q)
    q2 = list(q)
    q2[2] += 0.3
    robot.setDOFPosition(2, q2[2])
    transforms = [robot.link(i).getTransform() for i in range(robot.numLinks())]
    robot.setConfig(q2)
    # The same bits: one link's frame takes its sine and cosine alone, a
    # whole configuration's take theirs together in vector registers.
    assert transforms == [robot.link(i).getTransform() for i in range(robot.numLinks())]
    assert robot.getDOFPosition(2) == q2[2]
    assert robot.getDOFPosition(robot.link(2).getName()) == q2[2]


def test_affine_driver_of_gripper():
    _, robot = load("gripper2f.rob")
    drivers = [robot.driver(i) for i in range(robot.numDrivers())]
    affine = [d for d in drivers if d.getType() == "affine"]
    assert len(affine) == 1
    d = affine[0]
    scale, offset = d.getAffineCoeffs()
    links = d.getAffectedLinks()
    assert len(scale) == len(offset) == len(links) >= 2
    d.setValue(0.02)
    q = robot.getConfig()
    for k, link in enumerate(links):
        assert q[link] == pytest.approx(scale[k] * 0.02 + offset[k])
    assert d.getValue() == pytest.approx(0.02)
    values = robot.configToDrivers(q)
    assert_close(robot.configFromDrivers(values), q, atol=1e-12)
    d.setVelocity(0.5)
    dq = robot.getVelocity()
    assert_close(robot.velocityToDrivers(dq), [0.5 if x is d else x.getVelocity() for x in drivers], atol=1e-12)


def test_limits_setters(arm):
    _, robot = arm
    n = robot.numLinks()
    qmin, qmax = [-1.0] * n, [1.0] * n
    robot.setJointLimits(qmin, qmax)
    assert list(robot.getJointLimits()) == [qmin, qmax]
    robot.setVelocityLimits([2.0] * n)
    assert robot.getVelocityLimits() == [2.0] * n
    robot.setAccelerationLimits([3.0] * n)
    assert robot.getAccelerationLimits() == [3.0] * n
    robot.setTorqueLimits([4.0] * n)
    assert robot.getTorqueLimits() == [4.0] * n
    assert list(robot.driver(0).getLimits()) == [-1.0, 1.0]
    with pytest.raises(ValueError):
        robot.setTorqueLimits([1.0])


def test_link_structure_edits(arm):
    _, robot = arm
    link = robot.link(3)
    R = so3.rotation([1, 0, 0], 0.3)
    link.setParentTransform(R, [0.1, 0.2, 0.3])
    Rg, tg = link.getParentTransform()
    assert_close(Rg, R, atol=1e-15)
    assert_close(tg, [0.1, 0.2, 0.3])
    link.setAxis([0, 0, 2])
    assert_close(link.getAxis(), [0, 0, 1])
    link.setPrismatic(True)
    assert link.isPrismatic() and not link.isRevolute()
    q = [0.0] * robot.numLinks()
    q[3] = 0.25
    robot.setConfig(q)
    # A prismatic joint moves the link along its axis in the parent frame.
    parent_T = robot.link(2).getTransform()
    expected = se3.mul(parent_T, se3.mul((R, [0.1, 0.2, 0.3]), (so3.identity(), [0, 0, 0.25])))
    assert_close(link.getTransform()[1], expected[1], atol=1e-12)
    with pytest.raises(ValueError):
        link.setParent(5)


def test_interpolate_and_distance_identities(arm):
    _, robot = arm
    rng = random.Random(6)
    a, b = random_config(robot, rng), random_config(robot, rng)
    assert_close(robot.interpolate(a, b, 0), a, atol=1e-12)
    assert_close(robot.interpolate(a, b, 1), b, atol=1e-12)
    assert robot.distance(a, a) == 0
    assert robot.distance(a, b) == pytest.approx(robot.distance(b, a))
    m = robot.interpolate(a, b, 0.5)
    assert robot.distance(a, m) == pytest.approx(0.5 * robot.distance(a, b))
    assert_close(robot.interpolateDeriv(a, b), vectorops.sub(b, a), atol=1e-12)


def test_spin_and_floating_joints_interpolate_on_the_shortest_path():
    _, body = load("floating_body.rob")
    n = body.numLinks()
    assert [body.getJointType(i) for i in range(n)] == ["floating"] * n
    a = [0, 0, 0, 3.0, 0.2, 0.1]
    b = [1, 0, 0, -3.0, 0.2, 0.1]
    mid = body.interpolate(a, b, 0.5)
    # Yaw crosses the +-pi seam instead of sweeping through 0.
    assert abs(abs(mid[3]) - math.pi) < 0.2
    assert body.distance(a, b) == pytest.approx(math.hypot(1.0, 2 * math.pi - 6.0), rel=1e-6)
    # The derivative points along the geodesic: a small step reduces the distance.
    d = body.interpolateDeriv(a, b)
    step = vectorops.madd(a, d, 1e-4)
    assert body.distance(step, b) < body.distance(a, b)


def test_randomize_config_respects_limits(arm):
    _, robot = arm
    klampt.set_random_seed(3)
    qmin, qmax = robot.getJointLimits()
    for _ in range(50):
        robot.randomizeConfig()
        q = robot.getConfig()
        assert all(lo - 1e-12 <= x <= hi + 1e-12 for x, lo, hi in zip(q, qmin, qmax))


def test_mount_and_reduce(arm):
    world, robot = arm
    _, gripper = load("gripper2f.rob")
    n0, ng = robot.numLinks(), gripper.numLinks()
    robot.mount(n0 - 1, gripper, so3.identity(), [0, 0, 0.05])
    assert robot.numLinks() == n0 + ng
    assert robot.link(n0).getName() == gripper.getName() + ":" + gripper.link(0).getName()
    assert robot.link(n0).getParent() == n0 - 1
    robot.setConfig([0.0] * robot.numLinks())
    T = se3.mul(robot.link(n0 - 1).getTransform(), (so3.identity(), [0, 0, 0.05]))
    T = se3.mul(T, gripper.link(0).getParentTransform())
    assert_close(robot.link(n0).getTransform()[1], T[1], atol=1e-12)
    assert world.numIDs() == 1 + robot.numLinks()

    reduced = klampt.RobotModel()
    mapping = reduced.reduce(robot)
    qmin, qmax = robot.getJointLimits()
    fixed = [i for i in range(robot.numLinks()) if qmin[i] == qmax[i]]
    assert reduced.numLinks() == robot.numLinks() - len(fixed)
    assert all(mapping[i] == -1 for i in fixed)
    # The reduced robot places the kept links where the original does.
    rng = random.Random(7)
    q = random_config(robot, rng)
    for i in fixed:
        q[i] = qmin[i]
    robot.setConfig(q)
    qr = [q[i] for i in range(robot.numLinks()) if mapping[i] >= 0]
    reduced.setConfig(qr)
    for i in range(robot.numLinks()):
        if mapping[i] >= 0:
            assert_close(reduced.link(mapping[i]).getTransform()[1], robot.link(i).getTransform()[1], atol=1e-12)


def test_world_copy_shares_geometry_but_not_state(arm):
    world, robot = arm
    copy = world.copy()
    r2 = copy.robot(0)
    q = [0.2] * robot.numLinks()
    r2.setConfig(q)
    assert robot.getConfig() != q
    assert r2.link(2).geometry().type() == robot.link(2).geometry().type()


def test_add_make_and_remove_elements(arm):
    world, robot = arm
    copy = world.add("second", robot)
    assert world.numRobots() == 2 and copy.getName() == "second"
    assert copy.getID() == robot.getID() + robot.numLinks() + 1
    obj = world.makeRigidObject("thing")
    terrain = world.makeTerrain("floor")
    assert world.numIDs() == 2 + 2 * (robot.numLinks() + 1)
    assert terrain.getID() == 0 and obj.getID() == 1
    world.remove(obj)
    with pytest.raises(RuntimeError):
        obj.getTransform()
    with pytest.raises(ValueError):
        world.remove(obj)
    assert world.numRigidObjects() == 0
    with pytest.raises(KeyError):
        world.rigidObject("thing")
