"""Inverse kinematics: IKObjective, IKSolver, GeneralizedIK and klampt.model.ik.

Solutions are checked by forward kinematics of the answer, Jacobians against
finite differences of the residual, and the golden `ikProblems` targets (made
by the reference's forward kinematics, so reachable) must be reached."""
import math
import os

import numpy as np
import pytest

import klampt
from klampt.math import se3, so3, vectorops
from klampt.model import ik
from klampt.model.subrobot import SubRobotModel
from conftest import PROJECT_DATA, SHARED_DATA, assert_close, golden_files, load_golden, load_robot

ROBOT_GOLDEN = golden_files((".rob.json", ".urdf.json"))


def shared_robot(name):
    return load_robot(os.path.join(SHARED_DATA, "robots", name))


def rotation_error(Ra, Rb):
    return so3.distance(Ra, Rb)


def check_limits_and_drivers(robot, q, tol=1e-9):
    qmin, qmax = robot.getJointLimits()
    for i, (lo, v, hi) in enumerate(zip(qmin, q, qmax)):
        assert lo - tol <= v <= hi + tol, "DOF %d = %g outside [%g, %g]" % (i, v, lo, hi)
    for d in range(robot.numDrivers()):
        drv = robot.driver(d)
        if drv.getType() != "affine":
            continue
        links = drv.getAffectedLinks()
        scale, offset = drv.getAffineCoeffs()
        values = [(q[l] - o) / s for l, s, o in zip(links, scale, offset) if s != 0]
        assert max(values) - min(values) < 1e-8, "affine driver %d violated: %s" % (d, values)


# ---------------------------------------------------------------- golden targets

@pytest.mark.parametrize("name", ROBOT_GOLDEN or ["<missing>"])
def test_golden_ik_problems_solved_globally(name):
    gold = load_golden(name)
    world, robot = load_robot(os.path.join(SHARED_DATA, gold["file"]))
    klampt.set_random_seed(1)
    for prob in gold["ikProblems"]:
        robot.setConfig(gold["initialConfig"])
        R, t = prob["target"]
        link = robot.link(prob["link"])
        goal = ik.objective(link, R=R, t=t)
        assert ik.solve_global(goal, tol=1e-5, numRestarts=100), (name, prob["label"])
        Ra, ta = link.getTransform()
        assert vectorops.distance(ta, t) < 1e-4, (name, prob["label"])
        assert rotation_error(Ra, R) < 1e-4, (name, prob["label"])
        check_limits_and_drivers(robot, robot.getConfig())
        # The reference point on the link lands where the reference's FK put it.
        p = link.getWorldPosition(prob["localPoint"])
        assert vectorops.distance(p, t) < 1e-4


# ---------------------------------------------------------------- constraint kinds

@pytest.fixture(scope="module")
def ur5():
    return shared_robot("ur5.rob")


def _solve_kind(robot, goal, seed=3):
    klampt.set_random_seed(seed)
    robot.setConfig([0.0] * robot.numLinks())
    assert ik.solve_global(goal, tol=1e-6, numRestarts=50)
    check_limits_and_drivers(robot, robot.getConfig())


def test_point_constraint(ur5):
    world, robot = ur5
    ee = robot.link(7)
    goal = ik.objective(ee, local=[0, 0, 0.1], world=[0.3, 0.2, 0.4])
    _solve_kind(robot, goal)
    assert_close(ee.getWorldPosition([0, 0, 0.1]), [0.3, 0.2, 0.4], atol=1e-6)


def test_multiple_point_constraint_fixes_transform(ur5):
    world, robot = ur5
    ee = robot.link(7)
    Rt = so3.rotation([1, 2, 0.5], 2.0)
    T = (Rt, [0.35, -0.1, 0.3])
    local = [[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0]]
    goal = ik.objective(ee, local=local, world=[se3.apply(T, p) for p in local])
    assert goal.numPosDims() == 3 and goal.numRotDims() == 3
    _solve_kind(robot, goal)
    for p in local:
        assert_close(ee.getWorldPosition(p), se3.apply(T, p), atol=1e-5)


def test_planar_constraint(ur5):
    world, robot = ur5
    ee = robot.link(7)
    goal = klampt.IKObjective()
    goal.robot = robot
    goal.setLinks(7)
    n = [0.0, 0.6, 0.8]
    goal.setPlanarPosConstraint([0, 0, 0.05], n, 0.25)
    assert goal.numPosDims() == 1 and goal.numRotDims() == 0
    _solve_kind(robot, goal)
    assert abs(vectorops.dot(n, ee.getWorldPosition([0, 0, 0.05])) - 0.25) < 1e-6


def test_linear_constraint(ur5):
    world, robot = ur5
    ee = robot.link(7)
    goal = klampt.IKObjective()
    goal.robot = robot
    goal.setLinks(7)
    s, d = [0.3, -0.2, 0.3], [1.0, 1.0, 0.0]
    goal.setLinearPosConstraint([0, 0, 0], s, d)
    assert goal.numPosDims() == 2
    _solve_kind(robot, goal)
    off = vectorops.sub(ee.getWorldPosition([0, 0, 0]), s)
    dn = vectorops.unit(d)
    perp = vectorops.sub(off, vectorops.mul(dn, vectorops.dot(off, dn)))
    assert vectorops.norm(perp) < 1e-6


def test_axis_constraint(ur5):
    world, robot = ur5
    ee = robot.link(7)
    goal = klampt.IKObjective()
    goal.robot = robot
    goal.setLinks(7)
    goal.setFixedPosConstraint([0, 0, 0], [0.3, 0.3, 0.3])
    goal.setAxialRotConstraint([0, 0, 1], [0, 0, -1])
    assert goal.numRotDims() == 2
    _solve_kind(robot, goal)
    R, t = ee.getTransform()
    assert_close(so3.apply(R, [0, 0, 1]), [0, 0, -1], atol=1e-6)
    assert_close(t, [0.3, 0.3, 0.3], atol=1e-6)


def test_fixed_rotation_constraint(ur5):
    world, robot = ur5
    ee = robot.link(7)
    Rt = so3.rotation([0.2, -1, 0.4], 1.1)
    goal = klampt.IKObjective()
    goal.robot = robot
    goal.setLinks(7)
    goal.setFixedRotConstraint(Rt)
    assert goal.numPosDims() == 0 and goal.numRotDims() == 3
    _solve_kind(robot, goal)
    assert rotation_error(ee.getTransform()[0], Rt) < 1e-6


def test_relative_constraint_between_links(ur5):
    world, robot = ur5
    ee, elbow = robot.link(7), robot.link(3)
    # A reachable relative pose: measured at another configuration (links 4-6
    # give only 3 DOFs relative to the elbow).
    robot.setConfig([0, 0.2, -0.7, 0.4, 1.0, -0.8, 0.3, 0])
    Trel = se3.mul(se3.inv(elbow.getTransform()), ee.getTransform())
    goal = ik.objective(ee, ref=elbow, R=Trel[0], t=Trel[1])
    assert goal.destLink() == 3
    _solve_kind(robot, goal)
    T = se3.mul(se3.inv(elbow.getTransform()), ee.getTransform())
    assert vectorops.distance(T[1], Trel[1]) < 1e-6
    assert rotation_error(T[0], Trel[0]) < 1e-6


def test_fixed_objective_and_rotation_objective_hold_current_pose(ur5):
    world, robot = ur5
    robot.setConfig([0, 0.3, -1.0, 1.2, 0.4, 0.8, -0.2, 0])
    ee = robot.link(7)
    T0 = ee.getTransform()
    fixed = ik.fixed_objective(ee)
    rot = ik.fixed_rotation_objective(ee, local_axis=[1, 0, 0])
    assert max(abs(x) for x in ik.residual([fixed, rot])) < 1e-12
    robot.setConfig([0, 0.5, -0.8, 1.0, 0.2, 0.5, 0.3, 0])
    assert ik.solve(fixed, tol=1e-8)
    assert vectorops.distance(ee.getTransform()[1], T0[1]) < 1e-7
    assert rotation_error(ee.getTransform()[0], T0[0]) < 1e-7
    pts = ik.fixed_objective(ee, world=[[0.1, 0.2, 0.3]])
    assert_close(pts.getPosition()[1], [0.1, 0.2, 0.3])


# ---------------------------------------------------------------- Jacobians

def _fd_check(solver, robot, h=1e-6, atol=2e-5):
    dofs = solver.getActiveDofs()
    J = solver.getJacobian()
    q0 = robot.getConfig()
    assert J.shape == (len(solver.getResidual()), len(dofs))
    for c, d in enumerate(dofs):
        qp, qm = list(q0), list(q0)
        qp[d] += h
        qm[d] -= h
        robot.setConfig(qp)
        fp = np.array(solver.getResidual())
        robot.setConfig(qm)
        fm = np.array(solver.getResidual())
        robot.setConfig(q0)
        assert_close(J[:, c], (fp - fm) / (2 * h), rtol=1e-4, atol=atol, what="Jacobian column %d" % d)


@pytest.mark.parametrize("kind", ["transform", "relative", "axis", "planar", "linear", "points2", "scaled"])
def test_jacobian_matches_finite_differences(ur5, kind):
    world, robot = ur5
    robot.setConfig([0, 0.4, -1.1, 0.9, 0.3, -0.6, 1.2, 0])
    goal = klampt.IKObjective()
    if kind == "transform":
        goal.setFixedTransform(7, so3.rotation([1, 1, 0], 2.5), [0.1, 0.4, 0.2])
    elif kind == "relative":
        goal.setRelativeTransform(7, 2, so3.rotation([0, 0, 1], -2.0), [0.3, 0.1, -0.1])
    elif kind == "axis":
        goal.setLinks(7)
        goal.setAxialRotConstraint([0, 1, 0], [0.3, -0.5, 0.8])
    elif kind == "planar":
        goal.setLinks(7)
        goal.setPlanarPosConstraint([0.02, 0, 0.1], [1, 2, 3], 0.4)
    elif kind == "linear":
        goal.setLinks(7)
        goal.setLinearPosConstraint([0.02, 0, 0.1], [0.1, 0.2, 0.3], [0, 1, 1])
    elif kind == "points2":
        goal.setRelativePoints(7, 4, [[0, 0, 0], [0, 0, 0.2]], [[0.1, 0.1, 0], [0.1, 0.3, 0]])
        assert goal.numRotDims() == 2
    else:
        goal.setFixedTransform(7, so3.rotation([0, 1, 1], 1.0), [0.1, 0.4, 0.2])
        goal.positionScale = 3.0
        goal.rotationScale = 0.25
    s = klampt.IKSolver(robot)
    s.add(goal)
    _fd_check(s, robot)


def test_jacobian_branched_robot_relative_links():
    world, robot = shared_robot("atlas.rob")
    klampt.set_random_seed(5)
    robot.randomizeConfig()
    goal = klampt.IKObjective()
    goal.setRelativeTransform(robot.numLinks() - 1, 20, so3.rotation([1, 0, 1], 0.3), [0.2, 0.1, 0])
    s = klampt.IKSolver(robot)
    s.add(goal)
    active = s.getActiveDofs()
    assert {6, 7, 8, 15, 19, 40, 45} <= set(active) and 20 not in active  # 20: weld
    _fd_check(s, robot)


def test_scales_weight_the_residual(ur5):
    world, robot = ur5
    robot.setConfig([0, 0.4, -1.1, 0.9, 0.3, -0.6, 1.2, 0])
    goal = klampt.IKObjective()
    goal.setFixedTransform(7, so3.rotation([1, 1, 0], 0.5), [0.1, 0.4, 0.2])
    s = klampt.IKSolver(robot)
    s.add(goal)
    f = s.getResidual()
    goal.positionScale, goal.rotationScale = 2.0, 0.5
    s.set(0, goal)
    g = s.getResidual()
    assert_close(g[:3], [2 * x for x in f[:3]])
    assert_close(g[3:], [0.5 * x for x in f[3:]])
    # Residual of a fixed transform: position difference, then the rotation
    # vector of R * Rtarget^T.
    R, t = robot.link(7).getTransform()
    assert_close(f[:3], vectorops.sub(t, [0.1, 0.4, 0.2]), atol=1e-12)
    assert_close(f[3:], so3.moment(so3.mul(R, so3.inv(goal.getRotation()))), atol=1e-9)


# ---------------------------------------------------------------- solver settings

def test_solver_defaults_and_attributes(ur5):
    world, robot = ur5
    goal = ik.objective(robot.link(7), local=[0, 0, 0], world=[0.3, 0.2, 0.4])
    s = ik.solver(goal)
    assert s.getTolerance() == 1e-3 and s.tol == 1e-3
    assert s.getMaxIters() == 100 and s.maxIters == 100
    assert s.useJointLimits
    assert s.getActiveDofs() == [1, 2, 3, 4, 5, 6]
    qmin, qmax = s.getJointLimits()
    assert_close(qmin, robot.getJointLimits()[0])
    assert s.getBiasConfig() == []
    assert len(s.objectives) == 1 and s.objectives[0].saveString() == goal.saveString()
    assert s.robot.getName() == robot.getName()
    s.setJointLimits([], [])
    assert s.getJointLimits() == ([], []) and not s.useJointLimits
    c = s.copy()
    c.setMaxIters(7)
    assert s.getMaxIters() == 100 and c.getMaxIters() == 7
    s.clear()
    assert s.objectives == []


def test_active_dofs_restrict_motion(ur5):
    world, robot = ur5
    robot.setConfig([0, 0.1, -0.5, 0.7, 0.2, 0.3, 0.1, 0])
    q0 = robot.getConfig()
    goal = ik.objective(robot.link(7), local=[0, 0, 0], world=[0.3, 0.3, 0.3])
    ik.solve(goal, activeDofs=[1, 2, 3])
    q = robot.getConfig()
    assert q[4:] == q0[4:]
    s = ik.solver(goal)
    s.setActiveDofs([2, 3])
    assert s.getActiveDofs() == [2, 3]
    assert s.getJacobian().shape == (3, 2)


def test_joint_limits_respected_and_custom_limits(ur5):
    world, robot = ur5
    qmin, qmax = robot.getJointLimits()
    goal = ik.objective(robot.link(7), local=[0, 0, 0], world=[0.3, 0.2, 0.4])
    s = ik.solver(goal)
    lo, hi = list(qmin), list(qmax)
    lo[1], hi[1] = -0.2, 0.2
    s.setJointLimits(lo, hi)
    klampt.set_random_seed(2)
    for _ in range(20):
        s.sampleInitial()
        assert -0.2 <= robot.getConfig()[1] <= 0.2
        s.solve()
        assert -0.2 - 1e-12 <= robot.getConfig()[1] <= 0.2 + 1e-12
    robot.setConfig([0, 3.0, 0, 0, 0, 0, 0, 0])  # starts outside: clamped first
    s.solve()
    assert -0.2 <= robot.getConfig()[1] <= 0.2


def test_solve_nearby_bounds_deviation(ur5):
    world, robot = ur5
    robot.setConfig([0, 0.1, -0.5, 0.7, 0.2, 0.3, 0.1, 0])
    q0 = robot.getConfig()
    p = robot.link(7).getWorldPosition([0, 0, 0])
    goal = ik.objective(robot.link(7), local=[0, 0, 0], world=vectorops.add(p, [0.02, 0.0, 0.01]))
    assert ik.solve_nearby(goal, 0.2)
    assert max(abs(a - b) for a, b in zip(robot.getConfig(), q0)) <= 0.2 + 1e-12
    far = ik.objective(robot.link(7), local=[0, 0, 0], world=vectorops.add(p, [0.5, 0.0, 0.0]))
    robot.setConfig(q0)
    assert not ik.solve_nearby(far, 0.01)
    assert max(abs(a - b) for a, b in zip(robot.getConfig(), q0)) <= 0.01 + 1e-12


def test_bias_configuration_picks_redundant_solution():
    world, robot = shared_robot("kinova_gen3_7dof.urdf")
    n = robot.numLinks()
    robot.setConfig([0.0] * n)
    ee = robot.link(n - 1)
    p = ee.getWorldPosition([0, 0, 0])
    goal = ik.objective(ee, local=[0, 0, 0], world=vectorops.add(p, [0.05, 0.05, -0.1]))
    # Without bias and with a bias: both solve; the bias pulls toward it in the null space.
    s = ik.solver(goal)
    assert s.solve()
    q_free = robot.getConfig()
    robot.setConfig([0.0] * n)
    bias = [0.0] * n
    dofs = s.getActiveDofs()
    bias[dofs[0]] = 0.8
    s.setBiasConfig(bias)
    assert s.getBiasConfig() == bias
    for _ in range(3):
        assert s.solve()
    q_bias = robot.getConfig()
    assert abs(q_bias[dofs[0]] - 0.8) < abs(q_free[dofs[0]] - 0.8)


def test_affine_driver_and_weld_constrain_solution():
    world, robot = load_robot(os.path.join(PROJECT_DATA, "robots", "gripper2f.rob"))
    finger = robot.link(1)
    # Target a right-finger point: only reachable by moving the shared driver.
    robot.setConfig([0, 0.0, 0.0])
    goal = ik.objective(robot.link(2), local=[0, 0, 0], world=[0, -0.008 - 0.03, 0.06])
    s = ik.solver(goal)
    assert 0 not in s.getActiveDofs()  # palm: welded
    assert s.solve()
    q = robot.getConfig()
    assert_close(q, [0, 0.03, -0.03], atol=2e-3)
    assert ik.solve(goal, tol=1e-9)
    q = robot.getConfig()
    assert_close(q, [0, 0.03, -0.03], atol=1e-8)
    check_limits_and_drivers(robot, q)
    assert finger.getWorldPosition([0, 0, 0])[1] > 0


def test_affine_inconsistent_start_is_made_consistent():
    world, robot = load_robot(os.path.join(PROJECT_DATA, "robots", "gripper2f.rob"))
    robot.setConfig([0, 0.04, -0.0])
    goal = ik.objective(robot.link(1), local=[0, 0, 0], world=[0, 0.008 + 0.01, 0.06])
    assert ik.solve(goal)
    check_limits_and_drivers(robot, robot.getConfig())


def test_spin_and_lastSolveIters(ur5):
    world, robot = ur5
    robot.setConfig([0, 0.4, -1.1, 0.9, 0.3, -0.6, 1.2, 0])
    goal = ik.objective(robot.link(7), local=[0, 0, 0], world=[0.3, 0.2, 0.4])
    s = ik.solver(goal)
    assert not s.isSolved()
    assert s.solve()
    assert s.isSolved()
    assert 0 < s.lastSolveIters() <= 100
    assert s.lastIters == s.lastSolveIters()


# ---------------------------------------------------------------- minimize / secondary

def test_minimize_reaches_closest_point_of_unreachable_target(ur5):
    world, robot = ur5
    robot.setConfig([0, 0.4, -1.1, 0.9, 0.3, -0.6, 1.2, 0])
    goal = ik.objective(robot.link(7), local=[0, 0, 0], world=[3.0, 0.0, 0.5])
    s = ik.solver(goal)
    assert not s.minimize()
    # At the least-squares optimum the residual's gradient J^T f vanishes.
    f = np.array(s.getResidual())
    J = s.getJacobian()
    assert np.linalg.norm(J.T @ f) < 1e-4 * np.linalg.norm(f)
    assert np.linalg.norm(f) > 2.0


def test_minimize_secondary_objective_on_solution_manifold(ur5):
    world, robot = ur5
    robot.setConfig([0, 0.4, -1.1, 0.9, 0.3, -0.6, 1.2, 0])
    primary = ik.objective(robot.link(7), local=[0, 0, 0], world=[0.3, 0.2, 0.4])
    secondary = klampt.IKObjective()
    secondary.setLinks(7)
    secondary.setAxialRotConstraint([0, 0, 1], [0, 0, -1])
    s = ik.solver(primary, secondary=secondary)
    before = np.linalg.norm(s.getSecondaryResidual())
    assert s.minimize()
    assert max(abs(x) for x in s.getResidual()) <= 1e-3
    assert np.linalg.norm(s.getSecondaryResidual()) < min(1e-3, before)


def test_minimize_with_callable_cost(ur5):
    world, robot = ur5
    robot.setConfig([0, 0.4, -1.1, 0.9, 0.3, -0.6, 1.2, 0])
    goal = ik.objective(robot.link(7), local=[0, 0, 0], world=[0.3, 0.2, 0.4])
    target = 0.5

    def f(q):
        return (q[6] - target) ** 2

    def grad(q):
        g = [0.0] * len(q)
        g[6] = 2 * (q[6] - target)
        return g

    assert ik.solve(goal, secondary=(f, grad))
    # The wrist's last joint does not move the flange origin: it goes to 0.5.
    assert abs(robot.getConfig()[6] - target) < 1e-3
    assert max(abs(x) for x in ik.residual(goal)) <= 1e-3


# ---------------------------------------------------------------- restarts

def test_solve_global_honours_feasibility_check(ur5):
    world, robot = ur5
    goal = ik.objective(robot.link(7), local=[0, 0, 0], world=[0.3, 0.2, 0.4])
    calls = []

    def feasible():
        calls.append(robot.getConfig())
        return robot.getConfig()[2] > 0.5

    klampt.set_random_seed(9)
    robot.setConfig([0.0] * 8)
    assert ik.solve_global(goal, numRestarts=200, feasibilityCheck=feasible)
    assert robot.getConfig()[2] > 0.5
    assert len(calls) >= 1
    assert ik.solve_global(goal, numRestarts=5, feasibilityCheck=lambda: False) is False


def test_solve_global_is_reproducible_with_seed(ur5):
    world, robot = ur5
    goal = ik.objective(robot.link(7), R=so3.rotation([1, 0, 0], 3.0), t=[0.3, -0.2, 0.3])
    results = []
    for _ in range(2):
        klampt.set_random_seed(42)
        robot.setConfig([0.0] * 8)
        assert ik.solve_global(goal, numRestarts=20, startRandom=True)
        results.append(robot.getConfig())
    assert results[0] == results[1]


# ---------------------------------------------------------------- error cases

def test_error_cases(ur5):
    world, robot = ur5
    s = klampt.IKSolver(robot)
    with pytest.raises(ValueError):
        s.solve()  # no objectives
    with pytest.raises(ValueError):
        ik.solve([])
    goal = klampt.IKObjective()
    with pytest.raises(ValueError):
        goal.setFixedPoint(7, [0, 0, 0], [float("nan"), 0, 0])
    with pytest.raises(ValueError):
        goal.setFixedTransform(7, so3.identity(), [0, float("inf"), 0])
    with pytest.raises(IndexError):
        goal.setFixedPoint(-1, [0, 0, 0], [0, 0, 0])
    # A link index of another (bigger) robot.
    w2, atlas = shared_robot("atlas.rob")
    other = ik.objective(atlas.link(40), local=[0, 0, 0], world=[0, 0, 1])
    with pytest.raises(IndexError):
        s.add(other)
    other.robot = robot
    with pytest.raises(IndexError):
        ik.solve(other)
    with pytest.raises(ValueError):
        s.setBiasConfig([0.0] * 3)
    with pytest.raises(ValueError):
        s.setJointLimits([0.0] * 3, [1.0] * 3)
    with pytest.raises(IndexError):
        s.setActiveDofs([0, 99])
    with pytest.raises(IndexError):
        s.set(0, goal)
    with pytest.raises(TypeError):
        ik.solve(["not an objective"])


def test_impossible_target_fails_cleanly(ur5):
    world, robot = ur5
    robot.setConfig([0.0] * 8)
    goal = ik.objective(robot.link(7), local=[0, 0, 0], world=[100.0, 0, 0])
    klampt.set_random_seed(0)
    assert ik.solve_global(goal, numRestarts=5) is False
    check_limits_and_drivers(robot, robot.getConfig())
    assert all(math.isfinite(x) for x in robot.getConfig())


# ---------------------------------------------------------------- IKObjective

def test_objective_text_format_matches_reference():
    o = klampt.IKObjective()
    o.setLinks(3)
    o.setLinearPosConstraint([1, 2, 3], [0, 0, 2], [1, 1, 0])
    o.setAxialRotConstraint([1, 0, 0], [0, 2, 0])
    # Text the reference (Klamp't 0.9.2) writes for this objective.
    assert o.saveString() == "3 -1\nL 1 2 3   0 0 2   1 1 0\nA 1 0 0   0 2 0\n"
    assert klampt.IKObjective().saveString() == "0 -1\nN\nN\n"
    o.setFixedTransform(2, so3.rotation([0, 0, 1], math.pi / 2), [0.1, 1e-7, 3.123456789012])
    text = o.saveString()
    assert text.startswith("2 -1\nF 0 0 0   0.1 1e-07 3.123456789012\nF 0 0 1.5707963267948")
    o2 = klampt.IKObjective()
    assert o2.loadString(text)
    assert o2.saveString() == text
    R, t = o2.getTransform()
    assert_close(R, so3.rotation([0, 0, 1], math.pi / 2), atol=1e-15)
    assert o2.loadString("3 -1\nF 1 2 3   4 5 6\nN\n")
    assert o2.getPosition() == ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]) and o2.numRotDims() == 0
    assert not o2.loadString("junk")
    assert not o2.loadString("3 3\nN\nN\n")  # a link relative to itself
    assert o2.link() == 3  # unchanged by the failed load


def test_objective_transform_helpers():
    klampt.set_random_seed(4)
    T = (so3.rotation([0.3, 1, -0.2], 0.9), [0.2, -0.4, 1.0])
    o = klampt.IKObjective()
    o.setFixedTransform(1, so3.rotation([1, 0, 0], 0.5), [1, 2, 3])
    Tgoal = o.getTransform()
    # transform: the target moves by T.
    o.transform(*T)
    Tn = o.getTransform()
    assert_close(Tn[1], se3.mul(T, Tgoal)[1], atol=1e-12)
    assert rotation_error(Tn[0], se3.mul(T, Tgoal)[0]) < 1e-12
    # transformLocal: the constraint then holds for link * T at the old target,
    # i.e. the link itself at target * T^-1.
    o = klampt.IKObjective()
    o.setFixedTransform(1, so3.rotation([1, 0, 0], 0.5), [1, 2, 3])
    o.transformLocal(*T)
    expected = se3.mul(Tgoal, se3.inv(T))
    match = o.closestMatch(*se3.identity())
    assert_close(match[1], expected[1], atol=1e-12)
    assert rotation_error(match[0], expected[0]) < 1e-12
    # matchDestination: zero error at the given transform.
    o = klampt.IKObjective()
    o.setLinks(1)
    o.setPlanarPosConstraint([0.1, 0, 0], [0, 0, 1], 0.0)
    o.setAxialRotConstraint([0, 1, 0], [1, 0, 0])
    o.matchDestination(*T)
    Tc = o.closestMatch(*T)
    assert_close(Tc[1], T[1], atol=1e-12)
    assert rotation_error(Tc[0], T[0]) < 1e-9
    # sampleTransform satisfies the constraints; closestMatch projects onto them.
    for _ in range(5):
        Ts = o.sampleTransform()
        p = se3.apply(Ts, [0.1, 0, 0])
        assert abs(p[2] - se3.apply(T, [0.1, 0, 0])[2]) < 1e-12
        assert_close(so3.apply(Ts[0], [0, 1, 0]), so3.apply(T[0], [0, 1, 0]), atol=1e-9)
    Tc = o.closestMatch(so3.rotation([1, 1, 1], 2.0), [5, 5, 5])
    assert_close(so3.apply(Tc[0], [0, 1, 0]), so3.apply(T[0], [0, 1, 0]), atol=1e-9)
    assert abs(se3.apply(Tc, [0.1, 0, 0])[2] - se3.apply(T, [0.1, 0, 0])[2]) < 1e-12


def test_objective_copy_and_getters():
    o = ik.objective
    world, robot = shared_robot("ur5.rob")
    g = o(robot.link(7), local=[[0, 0, 0], [0, 0, 1]], world=[[1, 0, 0], [1, 0, 1]])
    assert g.numPosDims() == 3 and g.numRotDims() == 2
    assert_close(g.getRotationAxis()[0], [0, 0, 1])
    c = g.copy()
    assert c.robot is g.robot and c.saveString() == g.saveString()
    c.setFreePosConstraint()
    assert g.numPosDims() == 3
    with pytest.raises(ValueError):
        g.getTransform()
    assert g.positionScale == 1.0 and g.rotationScale == 1.0


# ---------------------------------------------------------------- sub-robots and generalized IK

def test_subrobot_solver(ur5):
    world, robot = ur5
    sub = SubRobotModel(robot, [1, 2, 3, 4, 5, 6, 7])
    goal = ik.objective(sub.link(6), local=[0, 0, 0], world=[0.3, 0.2, 0.4])
    s = ik.solver(goal)
    assert isinstance(s, ik.SubRobotIKSolver)
    assert s.getActiveDofs() == [0, 1, 2, 3, 4, 5, 6]
    s.setActiveDofs([0, 1, 2])
    assert s.getActiveDofs() == [0, 1, 2]
    robot.setConfig([0.0] * 8)
    assert s.solve()
    assert_close(robot.link(7).getWorldPosition([0, 0, 0]), [0.3, 0.2, 0.4], atol=1e-3)
    assert robot.getConfig()[4:7] == [0.0, 0.0, 0.0]


def test_generalized_ik_link_to_object():
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(SHARED_DATA, "robots", "ur5.rob"))
    robot = world.robot(0)
    obj = world.makeRigidObject("block")
    obj.setTransform(so3.identity(), [0.4, 0.1, 0.3])
    robot.setConfig([0, 0.4, -1.1, 0.9, 0.3, -0.6, 1.2, 0])
    goal = ik.objective(robot.link(7), ref=obj, local=[0, 0, 0], world=[0, 0, 0.05])
    assert isinstance(goal, klampt.GeneralizedIKObjective)
    assert not goal.isObj1 and goal.isObj2
    s = ik.solver(goal)
    assert isinstance(s, klampt.GeneralizedIKSolver)
    J = s.getJacobian()
    f0 = np.array(s.getResidual())
    assert J.shape[0] == 3 and len(f0) == 3
    ok, iters = s.solve()
    assert ok and iters >= 1
    p = robot.link(7).getWorldPosition([0, 0, 0])
    assert_close(p, se3.apply(obj.getTransform(), [0, 0, 0.05]), atol=1e-3)
    check_limits_and_drivers(robot, robot.getConfig())


def test_generalized_ik_jacobian_matches_finite_differences():
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(SHARED_DATA, "robots", "ur5.rob"))
    robot = world.robot(0)
    obj = world.makeRigidObject("block")
    obj.setTransform(so3.rotation([0, 1, 0], 0.4), [0.4, 0.1, 0.3])
    robot.setConfig([0, 0.4, -1.1, 0.9, 0.3, -0.6, 1.2, 0])
    goal = klampt.GeneralizedIKObjective(obj, robot.link(7))
    goal.setTransform(so3.rotation([1, 0, 0], 1.0), [0.05, 0.0, 0.1])
    s = klampt.GeneralizedIKSolver(world)
    s.add(goal)
    J = s.getJacobian()
    dofs = [1, 2, 3, 4, 5, 6]
    assert J.shape == (6, len(dofs) + 6)
    q0 = robot.getConfig()
    h = 1e-6
    for c, d in enumerate(dofs):
        qp, qm = list(q0), list(q0)
        qp[d] += h
        qm[d] -= h
        robot.setConfig(qp)
        fp = np.array(s.getResidual())
        robot.setConfig(qm)
        fm = np.array(s.getResidual())
        robot.setConfig(q0)
        assert_close(J[:, c], (fp - fm) / (2 * h), rtol=1e-4, atol=2e-5)
    # Object translation columns.
    R0, t0 = obj.getTransform()
    for i in range(3):
        tp, tm = list(t0), list(t0)
        tp[i] += h
        tm[i] -= h
        obj.setTransform(R0, tp)
        fp = np.array(s.getResidual())
        obj.setTransform(R0, tm)
        fm = np.array(s.getResidual())
        obj.setTransform(R0, t0)
        assert_close(J[:, len(dofs) + i], (fp - fm) / (2 * h), rtol=1e-4, atol=2e-5)
    ok, _ = s.solve()
    assert ok
    T = se3.mul(se3.inv(robot.link(7).getTransform()), obj.getTransform())
    assert vectorops.distance(T[1], [0.05, 0.0, 0.1]) < 1e-3
