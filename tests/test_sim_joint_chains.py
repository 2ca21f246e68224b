"""Multi-DOF joints in simulation: a ball-and-socket pendulum (its three
angles read back from the body, its DOFs torque-driven), a floating-planar
base (held in its plane) and a translation-only floating chain (held
unrotated)."""
import math

import pytest

from klampt import Simulator, WorldModel

G = 9.8

# A bob hanging 1 m below a ball-and-socket pivot 2 m up. The ball's three
# virtual DOFs turn about x, then y, then z (not the loaders' z-y-x order).
BALL_ROB = """links base v1 v2 bob
parents -1 0 1 2
jointtype r r r r
TParent 1 0 0  0 1 0  0 0 1  0 0 2 \\
        1 0 0  0 1 0  0 0 1  0 0 0 \\
        1 0 0  0 1 0  0 0 1  0 0 0 \\
        1 0 0  0 1 0  0 0 1  0 0 0
axis 0 0 1  1 0 0  0 1 0  0 0 1
q 0 {qx} {qy} 0
qmin 0 -inf -inf -inf
qmax 0 inf inf inf
torquemax 0 100 100 100
mass 1 0 0 1
com 0 0 0  0 0 0  0 0 0  0 0 -1
inertia 0.01 0 0 0 0.01 0 0 0 0.01  0 0 0 0 0 0 0 0 0  0 0 0 0 0 0 0 0 0  0.01 0 0 0 0.01 0 0 0 0.02
joint weld 0
joint ballandsocket 3 0
driver normal 1
driver normal 2
driver normal 3
servoP 0 0 0
servoI 0 0 0
servoD 0 0 0
"""

# A body moving in the plane z = 1: x and y slides, then a turn about z.
PLANAR_ROB = """links x y body
parents -1 0 1
jointtype p p r
TParent 1 0 0  0 1 0  0 0 1  0 0 1 \\
        1 0 0  0 1 0  0 0 1  0 0 0 \\
        1 0 0  0 1 0  0 0 1  0 0 0
axis 1 0 0  0 1 0  0 0 1
q 0 0 0
qmin -inf -inf -inf
qmax inf inf inf
mass 0 0 2
com 0 0 0  0 0 0  0 0 0
inertia 0 0 0 0 0 0 0 0 0  0 0 0 0 0 0 0 0 0  0.1 0 0 0 0.2 0 0 0 0.5
joint floatingplanar 2 -1
"""

# Three slides only, as in robots/3pointhand.rob: the body never turns.
SLIDES_ROB = PLANAR_ROB.replace("jointtype p p r", "jointtype p p p")


def load(tmp_path, text, name):
    path = tmp_path / name
    path.write_text(text)
    w = WorldModel()
    assert w.loadRobot(str(path)).index == 0
    return w


def test_ball_and_socket_angles_reproduce_the_simulated_pose(tmp_path):
    w = load(tmp_path, BALL_ROB.format(qx=0.4, qy=-0.3), "ball.rob")
    robot = w.robot(0)
    sim = Simulator(w)
    sim.controller(0).setTorque([0, 0, 0])  # swing freely
    bob = sim.body(robot.link(3))
    for _ in range(80):
        sim.simulate(0.01)
        q = sim.getActualConfig(0)
        robot.setConfig(q)
        R, t = robot.link(3).getTransform()
        Rs, ts = bob.getObjectTransform()
        assert R == pytest.approx(Rs, abs=1e-9)
        assert t == pytest.approx(ts, abs=1e-5)  # ODE holds the ball joint to its error correction
    # Swinging from a tilt, the angles really change.
    assert abs(q[1] - 0.4) + abs(q[2] + 0.3) > 0.1


def test_ball_and_socket_pendulum_period(tmp_path):
    amplitude = 0.05
    w = load(tmp_path, BALL_ROB.format(qx=amplitude, qy=0), "ball.rob")
    sim = Simulator(w)
    sim.controller(0).setTorque([0, 0, 0])
    crossings, last, t = [], amplitude, 0.0
    while len(crossings) < 3 and t < 10:
        sim.simulate(0.001)
        t += 0.001
        qx = sim.getActualConfig(0)[1]
        if last > 0 >= qx:
            crossings.append(t)
        last = qx
    # Small swings of a compound pendulum: 2 pi sqrt((I + m L^2) / (m g L)).
    period = 2 * math.pi * math.sqrt((0.01 + 1.0) / G)
    assert crossings[2] - crossings[1] == pytest.approx(period, rel=0.01)


def test_gravity_compensation_holds_a_tilted_ball_and_socket_pendulum(tmp_path):
    # The controller's gravity torques on the three DOFs become one moment on
    # the bob: exactly the one that cancels gravity's.
    w = load(tmp_path, BALL_ROB.format(qx=0.4, qy=-0.3), "ball.rob")
    sim = Simulator(w)
    sim.simulate(1.0)
    assert sim.getActualConfig(0) == pytest.approx([0, 0.4, -0.3, 0], abs=1e-6)
    tau = sim.getActualTorque(0)
    assert tau[0] != 0 and tau[1] != 0


def test_ball_and_socket_dof_torque_spins_the_bob(tmp_path):
    w = load(tmp_path, BALL_ROB.format(qx=0, qy=0), "ball.rob")
    sim = Simulator(w)
    tau = 0.02
    sim.controller(0).setTorque([0, 0, tau])
    sim.simulate(0.1)
    # Hanging straight down, the bob turns about its own vertical axis: Izz.
    dq = sim.getActualVelocity(0)
    assert dq[3] == pytest.approx(tau * 0.1 / 0.02, rel=0.02)
    assert abs(dq[1]) < 1e-6 and abs(dq[2]) < 1e-6


def test_floating_planar_body_stays_in_its_plane(tmp_path):
    w = load(tmp_path, PLANAR_ROB, "planar.rob")
    robot = w.robot(0)
    sim = Simulator(w)
    body = sim.body(robot.link(2))
    mass, izz, force, torque = 2.0, 0.5, 2.0, 0.5
    for _ in range(50):
        # Gravity and the x/y torques push out of the plane; the joint holds.
        body.applyWrench([force, 0, 0], [1.0, -1.0, torque])
        sim.simulate(0.01)
    R, t = body.getObjectTransform()
    assert t[2] == pytest.approx(1.0, abs=1e-6)
    assert R[8] == pytest.approx(1.0, abs=1e-9)  # z axis still vertical
    q = sim.getActualConfig(0)
    # Constant accelerations (to the integrator's first order over 500 steps).
    assert q[0] == pytest.approx(0.5 * force / mass * 0.5**2, rel=3e-3)
    assert q[2] == pytest.approx(0.5 * torque / izz * 0.5**2, rel=3e-3)
    assert q[1] == pytest.approx(0.0, abs=1e-9)


def test_sliding_only_chain_never_turns(tmp_path):
    w = load(tmp_path, SLIDES_ROB, "slides.rob")
    robot = w.robot(0)
    sim = Simulator(w)
    body = sim.body(robot.link(2))
    for _ in range(50):
        body.applyWrench([0, 0, 2.0 * G + 4.0], [0.3, 0.2, 0.1])
        sim.simulate(0.01)
    R, t = body.getObjectTransform()
    assert R == pytest.approx([1, 0, 0, 0, 1, 0, 0, 0, 1], abs=1e-9)
    # Net 4 N up on 2 kg for 0.5 s.
    assert t[2] == pytest.approx(1.0 + 0.5 * 2.0 * 0.5**2, rel=3e-3)
    assert sim.getActualConfig(0)[2] == pytest.approx(t[2] - 1.0, abs=1e-9)
