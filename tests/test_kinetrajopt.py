"""klampt.plan.kinetrajopt: trajectories optimised around the obstacles of
a shared world come out collision-free by independent dense collision
checks of the links' meshes (whereas their straight-line guesses collide),
with fixed ends and joint limits kept; the task-space constraint reaches its
link pose; the pieces (rotation-vector derivative, constraint Jacobians,
custom costs, bad input) against finite differences and closed forms."""
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from conftest import PROJECT_DATA, SHARED_DATA, TEST_DATA, load_world, require_shared_data

try:
    import cvxpy  # noqa: F401
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("cvxpy is not installed (it is in the test extra)", allow_module_level=True)

from klampt.math import so3
from klampt.plan.kinetrajopt import ConstrInterface, CostInterface, KineTrajOpt, TrajOptSettings
from klampt.plan.kinetrajopt.kinetrajopt import QPException  # noqa: F401  (public name)
from klampt.plan.kinetrajopt.trajopt_task_space import (DirectionConstraint, MomentDerivative, OrientationConstraint,
                                                         PoseConstraint, PositionConstraint)
from klampt.plan.kinetrajopt.utils import ConstrContainer, JointLimitsConstr, MaskedRobot

ACTIVE = [1, 2, 3, 4, 5, 6]  # the TX90's arm joints (0 is the fixed base, 7.. the gripper)


@pytest.fixture
def world():
    require_shared_data()
    return load_world(os.path.join(SHARED_DATA, "tx90obstacles.xml"), quiet=True)


def arm_config(yaw):
    """The TX90 reaching forward at shoulder height 1.4 rad, turned by yaw:
    at yaw 1.0 and -1.3 it is clear of the posts, in between it sweeps
    through them."""
    q = np.zeros(6)
    q[0], q[1], q[4] = yaw, 1.4, 0.8
    return q


def colliding_pairs(world, robot):
    """(link, terrain) pairs whose meshes collide at the robot's current
    configuration (the base, link 0, stands on the ground)."""
    return [(j, t) for j in range(1, robot.numLinks()) if not robot.link(j).geometry().empty()
            for t in range(world.numTerrains()) if robot.link(j).geometry().collides(world.terrain(t).geometry())]


def dense_collisions(world, robot, traj, steps=12, active=ACTIVE):
    """The (segment, fraction, pairs) of collisions along a piecewise-linear
    trajectory of the active joints, checked at `steps` fractions per segment."""
    full = np.array(robot.getConfig())
    bad = []
    for i in range(len(traj) - 1):
        for s in np.linspace(0.0, 1.0, steps):
            full[active] = (1 - s) * traj[i] + s * traj[i + 1]
            robot.setConfig(full.tolist())
            pairs = colliding_pairs(world, robot)
            if pairs:
                bad.append((i, s, pairs))
    return bad


def check_limits(robot, traj):
    qmin, qmax = (np.array(v)[ACTIVE] for v in robot.getJointLimits())
    assert np.all(traj >= qmin - 1e-6) and np.all(traj <= qmax + 1e-6)


def test_joint_space_trajectory_goes_around_the_posts(world):
    robot = world.robot(0)
    q0, qf = arm_config(1.0), arm_config(-1.3)
    guess = np.linspace(q0, qf, 10)
    assert len(dense_collisions(world, robot, guess, steps=3)) > 5
    before = robot.getConfig()
    t = time.time()
    opt = KineTrajOpt(world, robot, q0=q0, qf=qf, link_index=ACTIVE)
    res = opt.optimize(guess)
    elapsed = time.time() - t
    assert robot.getConfig() == before
    assert res["success"], res
    sol = res["sol"]
    assert sol.shape == guess.shape
    assert np.array_equal(sol[0], q0) and np.array_equal(sol[-1], qf)
    check_limits(robot, sol)
    assert dense_collisions(world, robot, sol) == []
    # the trajectory cost is the sum of squared steps
    assert res["cost"] == pytest.approx(np.sum(np.diff(sol, axis=0) ** 2))
    # the result keeps dsafe between the links' hulls and the obstacles at every point
    for k in range(len(opt.geom_cache["link"])):
        for q in sol:
            assert min(opt.distance_with_one_link(q, k)) >= opt.config.dsafe - 1e-3
    assert elapsed < 60
    # Klamp't 0.10.1's KineTrajOpt on this problem (make_kinetrajopt_reference.py):
    # its trajectory is collision-free too, and ours is about as short
    with open(os.path.join(TEST_DATA, "kinetrajopt_reference.json")) as f:
        ref = json.load(f)
    assert ref["success"] and np.allclose(ref["q0"], q0) and np.allclose(ref["qf"], qf) and ref["N"] == len(guess)
    assert dense_collisions(world, robot, np.array(ref["sol"])) == []
    assert res["cost"] <= 1.05 * ref["cost"]


def test_an_end_too_close_to_an_obstacle_is_no_success(world):
    """At yaw -1.0 the upper arm's hull is within dsafe of a post: with that
    fixed end no trajectory keeps dsafe, and the result says so."""
    robot = world.robot(0)
    q0, qf = arm_config(1.0), arm_config(-1.0)
    opt = KineTrajOpt(world, robot, q0=q0, qf=qf, link_index=ACTIVE,
                      config=TrajOptSettings(max_iter=5, max_merit_coeff_increase=2))
    closest = min(min(opt.distance_with_one_link(qf, k)) for k in range(len(opt.geom_cache["link"])))
    assert 0 < closest < opt.config.dsafe
    res = opt.optimize(np.linspace(q0, qf, 6))
    assert not res["success"]
    assert np.array_equal(res["sol"][-1], qf)


def test_task_space_pose_is_reached_around_the_posts(world):
    robot = world.robot(0)
    q0, qgoal = arm_config(1.0), arm_config(-1.3)
    full = np.array(robot.getConfig())
    full[ACTIVE] = qgoal
    robot.setConfig(full.tolist())
    target = robot.link(6).getTransform()
    # the guess ends with the wrist turned away from the target pose
    guess = np.linspace(q0, qgoal + np.array([0.0, 0.0, 0.0, 0.4, -0.3, 0.5]), 10)
    opt = KineTrajOpt(world, robot, q0=q0, link_index=ACTIVE)
    opt.add_pose_constraint(-1, 6, target)
    res = opt.optimize(guess)
    assert res["success"], res
    sol = res["sol"]
    assert np.array_equal(sol[0], q0)
    full[ACTIVE] = sol[-1]
    robot.setConfig(full.tolist())
    R, t = robot.link(6).getTransform()
    assert np.linalg.norm(np.subtract(t, target[1])) < 1e-3
    assert so3.distance(R, target[0]) < 1e-3
    check_limits(robot, sol)
    assert dense_collisions(world, robot, sol) == []


def test_arm_swings_over_the_table():
    """The project's demo world: the arm's straight swing from one side of
    the table to the other, low, goes through the table; the optimised one
    clears the terrains (the table and the ground)."""
    world = load_world(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"), quiet=True)
    robot = world.robot(0)
    active = [1, 2, 3, 4, 5, 6]
    q0 = np.array([1.3, 1.2, 0.5, 0.0, 0.0, 0.0])
    qf = q0 * [-1, 1, 1, 1, 1, 1]
    guess = np.linspace(q0, qf, 10)
    assert len(dense_collisions(world, robot, guess, steps=3, active=active)) > 3
    res = KineTrajOpt(world, robot, q0=q0, qf=qf, link_index=active).optimize(guess)
    assert res["success"]
    assert np.array_equal(res["sol"][0], q0) and np.array_equal(res["sol"][-1], qf)
    assert dense_collisions(world, robot, res["sol"], active=active) == []


def test_without_cvxpy_the_import_error_names_it():
    code = ("import sys; sys.modules['cvxpy'] = None\n"
            "try:\n    import klampt.plan.kinetrajopt\n"
            "except ImportError as e:\n    print(e.name, '|', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("cvxpy |") and "pip install cvxpy" in out.stdout


def test_moment_derivative_matches_finite_differences():
    rng = np.random.default_rng(3)
    for angle in (0.0, 0.3, 1.5, 2.9, np.pi - 1e-3):
        axis = rng.normal(size=3)
        m = angle * axis / np.linalg.norm(axis)
        R = so3.from_moment(m.tolist())
        z = rng.normal(size=3)
        h = 1e-6
        R2 = so3.mul(so3.from_moment((h * z).tolist()), R)  # turned by z for time h (world frame)
        fd = (np.array(so3.moment(R2)) - m) / h
        assert np.allclose(MomentDerivative(m, R, z), fd, atol=1e-4)


def finite_difference_jacobian(con, q, h=1e-6):
    cols = []
    for i in range(len(q)):
        dq = np.zeros(len(q))
        dq[i] = h
        cols.append((con.compute(q + dq)[0] - con.compute(q - dq)[0]) / (2 * h))
    return np.column_stack(cols)


def test_task_space_constraint_jacobians(world):
    robot = world.robot(0)
    masked = MaskedRobot(robot, ACTIVE)
    q = np.array([0.3, 0.9, -0.5, 0.7, 0.6, -0.4])
    masked.setConfig(q)
    R, t = robot.link(6).getTransform()
    target = (so3.mul(so3.rotation([0, 0, 1], 0.4), R), [t[0] + 0.1, t[1], t[2] - 0.05])
    constraints = [PoseConstraint(masked, 6, target), OrientationConstraint(masked, 6, target[0]),
                   PositionConstraint(masked, 6, [0.0, 0.0, 0.1], target[1]),
                   DirectionConstraint(masked, 6, [1, 0, 0], [0, 0, -1])]
    for con in constraints:
        val, jac = con.compute(q, grad_level=1)
        assert np.allclose(con.compute(q)[0], val)
        assert jac.shape == (len(val), 6)
        assert np.allclose(jac, finite_difference_jacobian(con, q), atol=1e-5), type(con).__name__
    # residuals vanish at the target
    masked.setConfig(q)
    assert np.allclose(PoseConstraint(masked, 6, robot.link(6).getTransform()).compute(q)[0], 0, atol=1e-9)
    d = so3.apply(robot.link(6).getTransform()[0], [1, 0, 0])
    assert np.allclose(DirectionConstraint(masked, 6, [2, 0, 0], d).compute(q)[0], 0, atol=1e-9)


class DeviationCost(CostInterface):
    """||x - c||^2, with its gradient and Hessian."""

    def __init__(self, c):
        self.c = c

    def compute(self, x, grad_level=0):
        r = x - self.c
        out = (float(r @ r), 2 * r, 2 * np.eye(len(x)))
        return out[:grad_level + 1]


def test_custom_loss_and_inequality_away_from_obstacles(world):
    robot = world.robot(0)
    q0, qf = arm_config(1.0), arm_config(0.6)
    rng = np.random.default_rng(0)
    c = (np.linspace(q0, qf, 5) + 0.2 * rng.normal(size=(5, 6))).ravel()
    opt = KineTrajOpt(world, robot, q0=q0, qf=qf, link_index=ACTIVE, obs_index=[], losses=DeviationCost(c),
                      config=TrajOptSettings(trust_box_size=1.0))
    res = opt.optimize(np.linspace(q0, qf, 5))
    assert res["success"]
    expected = c.reshape((5, 6)).copy()
    expected[0], expected[-1] = q0, qf
    assert np.allclose(res["sol"], expected, atol=1e-4)

    # an inequality of one's own: the shoulder joint stays <= 1.2 at every point
    class ShoulderAtMost(ConstrInterface):
        def compute(self, x, grad_level=0):
            return (np.array([x[1] - 1.2]), np.eye(6)[1:2])[:grad_level + 1]

    constrs = ConstrContainer()
    constrs.add_ineq(None, ShoulderAtMost())
    opt = KineTrajOpt(world, robot, link_index=ACTIVE, obs_index=[], constrs=constrs, losses=[DeviationCost(c)])
    res = opt.optimize(c)
    assert res["success"]
    expected = c.reshape((5, 6)).copy()
    expected[:, 1] = np.minimum(expected[:, 1], 1.2)
    assert np.allclose(res["sol"], expected, atol=1e-4)


def test_bad_input_raises_clear_errors(world):
    robot = world.robot(0)
    with pytest.raises(TypeError, match="unknown TrajOptSettings"):
        TrajOptSettings(dsave=0.1)
    with pytest.raises(ValueError, match="q0 has 3 entries"):
        KineTrajOpt(world, robot, q0=[0, 0, 0], link_index=ACTIVE)
    opt = KineTrajOpt(world, robot, link_index=ACTIVE, obs_index=[])
    with pytest.raises(ValueError, match="multiple of 6"):
        opt.optimize(np.zeros(7))
    with pytest.raises(ValueError, match="N >= 2"):
        opt.optimize(np.zeros((1, 6)))
    with pytest.raises(TypeError, match="ConstrInterface"):
        ConstrContainer().add_eq(0, "not a constraint")
    with pytest.raises(TypeError, match="MaskedRobot"):
        PositionConstraint(robot, 6, [0, 0, 0], [0, 0, 0])
    limits = JointLimitsConstr([0, -1], [1, 1])
    val, jac = limits.compute(np.array([2.0, 0.0]), grad_level=1)
    assert np.allclose(val, [-2, -1, 1, -1]) and np.allclose(jac, [[-1, 0], [0, -1], [1, 0], [0, 1]])
