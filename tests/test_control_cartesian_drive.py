"""CartesianDriveSolver on the tx90l: the tool moves exactly v*t from a
regular pose, reports no progress at a singularity (acceptance
criterion 5)."""
import math

import pytest

from conftest import load_shared_world

from klampt.control.cartesian_drive import CartesianDriveSolver, axis_rotation_magnitude, normalize_rotation
from klampt.math import so3, vectorops

Q_REGULAR = [0, 0, -0.3, 1.2, 0, 0.8, 0]


@pytest.fixture
def robot():
    return load_shared_world('robots/tx90l.rob', quiet=True).robot(0)


def tool(robot, q):
    robot.setConfig(q)
    return robot.link(6).getTransform()


def drive(solver, q, w, v, n, dt=0.01):
    progress = []
    for _ in range(n):
        p, q = solver.drive(q, w, v, dt)
        progress.append(p)
    return q, progress


@pytest.mark.parametrize('v', [[0, 0, 0.1], [0.1, 0, 0]])
def test_drive_moves_the_tool_by_v_t(robot, v):
    solver = CartesianDriveSolver(robot)
    solver.start(Q_REGULAR, 6)
    R0, t0 = tool(robot, Q_REGULAR)
    q, progress = drive(solver, Q_REGULAR, [0, 0, 0], v, 100)
    R1, t1 = tool(robot, q)
    assert vectorops.sub(t1, t0) == pytest.approx(v, abs=1e-4)
    assert so3.distance(R0, R1) < 1e-4
    assert min(progress) > 0.999 and max(progress) <= 1.0


def test_drive_with_free_orientation(robot):
    solver = CartesianDriveSolver(robot)
    solver.start(Q_REGULAR, 6)
    t0 = tool(robot, Q_REGULAR)[1]
    q, progress = drive(solver, Q_REGULAR, None, [0, 0, 0.1], 100)
    assert vectorops.sub(tool(robot, q)[1], t0) == pytest.approx([0, 0, 0.1], abs=1e-4)


def test_drive_rotation_about_an_axis(robot):
    solver = CartesianDriveSolver(robot)
    solver.start(Q_REGULAR, 6)
    R0, t0 = tool(robot, Q_REGULAR)
    q, progress = drive(solver, Q_REGULAR, [0, 0, 0.2], [0, 0, 0], 50)
    R1, t1 = tool(robot, q)
    assert vectorops.distance(t0, t1) < 1e-4
    assert axis_rotation_magnitude(so3.mul(R1, so3.inv(R0)), [0, 0, 1]) == pytest.approx(0.1, abs=1e-4)


def test_drive_reaches_a_goal_with_proportional_velocity(robot):
    solver = CartesianDriveSolver(robot)
    solver.start(Q_REGULAR, 6)
    goal = vectorops.add(tool(robot, Q_REGULAR)[1], [0.1, -0.05, 0.1])
    q, dt = Q_REGULAR, 0.01
    for k in range(200):
        p = tool(robot, q)[1]
        err = vectorops.sub(goal, p)
        d = vectorops.norm(err)
        if d < 1e-4:
            break
        progress, q = solver.drive(q, [0, 0, 0], vectorops.div(err, max(d / 0.1, dt)), dt)
    assert vectorops.distance(tool(robot, q)[1], goal) < 1e-4


def test_drive_at_a_singularity_makes_no_progress(robot):
    q0 = [0.0] * 7
    solver = CartesianDriveSolver(robot)
    solver.start(q0, 6)
    t0 = tool(robot, q0)[1]
    q = q0
    progress = []
    for _ in range(50):
        p, qn = solver.drive(q, [0, 0, 0], [0, 0, 0.1], 0.01)
        progress.append(p)
        if p < 0:
            assert qn == q
        q = qn
    assert min(progress[-10:]) <= 0
    assert vectorops.distance(tool(robot, q)[1], t0) < 2e-3


def test_settings_and_trajectory(robot):
    solver = CartesianDriveSolver(robot)
    solver.setTolerance(1e-3)
    assert solver.positionTolerance == 1e-3 and solver.rotationTolerance == 1e-3
    solver.start(Q_REGULAR, 6)
    before = [list(T[0]) + list(T[1]) for T in solver.driveTransforms]
    traj = solver.getTrajectory(Q_REGULAR, None, [0, 0, 0.1], 0.01, 10)
    assert len(traj.milestones) == 11
    assert traj.times[-1] == pytest.approx(0.1)
    assert [list(T[0]) + list(T[1]) for T in solver.driveTransforms] == before
    z = [tool(robot, m)[1][2] for m in traj.milestones]
    assert z[-1] - z[0] == pytest.approx(0.01, abs=1e-4)
    with pytest.raises(ValueError, match="7 entries"):
        solver.drive([0] * 6, None, [0, 0, 0.1], 0.01)
    assert solver.drive(Q_REGULAR, None, None, 0.01) == (1.0, Q_REGULAR)


def test_rotation_helpers():
    R = so3.from_axis_angle(([0, 0, 1], 0.7))
    assert axis_rotation_magnitude(R, [0, 0, 1]) == pytest.approx(0.7)
    assert axis_rotation_magnitude(R, [0, 1, 0]) == pytest.approx(0.0, abs=1e-12)
    noisy = [x + 1e-4 * math.sin(7 * i) for i, x in enumerate(R)]
    assert so3.is_rotation(normalize_rotation(noisy))
    assert so3.distance(normalize_rotation(noisy), R) < 1e-3
