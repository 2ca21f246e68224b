"""Physics of the ODE simulator against closed forms: free fall, a pendulum's
period and energy, resting contact, friction on a slope, restitution."""
import math

import pytest

from klampt import ContactParameters, GeometricPrimitive, Geometry3D, Simulator, WorldModel

G = 9.8
DT = 0.001  # the default simulation step

PENDULUM_ROB = """links base arm
parents -1 0
jointtype r r
TParent 1 0 0  0 1 0  0 0 1  0 0 2 \\
        1 0 0  0 1 0  0 0 1  0 0 0
axis 0 0 1  0 1 0
q 0 {q0}
qmin 0 -inf
qmax 0 inf
torquemax 0 100
mass 1 {mass}
com 0 0 0  0 0 -{length}
inertia 0.01 0 0 0 0.01 0 0 0 0.01  1e-6 0 0 0 1e-6 0 0 0 1e-6
joint weld 0
joint normal 1
driver normal 1
servoP 0
servoI 0
servoD 0
"""


def pendulum_world(tmp_path, q0=0.1, length=1.0, mass=1.0):
    path = tmp_path / "pendulum.rob"
    path.write_text(PENDULUM_ROB.format(q0=q0, length=length, mass=mass))
    w = WorldModel()
    assert w.loadRobot(str(path)).index == 0
    return w


def box_geometry(size, mesh=True):
    g = Geometry3D()
    p = GeometricPrimitive()
    p.setBox([-s / 2 for s in size], [1, 0, 0, 0, 1, 0, 0, 0, 1], list(size))
    g.setGeometricPrimitive(p)
    return g.convert("TriangleMesh") if mesh else g


def add_ground(w, rotation=None, mesh=True):
    """A 10 x 10 m slab whose top face is the plane z = 0 (before rotation)."""
    t = w.makeTerrain("ground")
    g = Geometry3D()
    p = GeometricPrimitive()
    p.setAABB([-5, -5, -1], [5, 5, 0])
    g.setGeometricPrimitive(p)
    if mesh:
        g = g.convert("TriangleMesh")
    if rotation is not None:
        g.transform(rotation, [0, 0, 0])
    t.geometry().set(g)
    return t


def add_box(w, name, center, size=(0.1, 0.1, 0.1), mass=1.0, mesh=True):
    o = w.makeRigidObject(name)
    o.geometry().set(box_geometry(size, mesh))
    m = o.getMass()
    m.setMass(mass)
    m.setCom([0, 0, 0])
    a, b, c = size
    m.setInertia([mass * (b * b + c * c) / 12, mass * (a * a + c * c) / 12, mass * (a * a + b * b) / 12])
    o.setMass(m)
    o.setTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], list(center))
    return o


def test_free_fall_matches_closed_form():
    w = WorldModel()
    o = add_box(w, "box", [0, 0, 5.0])
    sim = Simulator(w)
    t = 0.5
    sim.simulate(t)
    z = o.getTransform()[1][2]
    v = o.getVelocity()[1][2]
    assert sim.getTime() == pytest.approx(t, abs=1e-9)
    assert v == pytest.approx(-G * t, abs=1e-9)
    # Semi-implicit Euler lags the parabola by g*dt*t/2 at most.
    assert abs(z - (5.0 - 0.5 * G * t * t)) <= 0.5 * G * DT * t + 1e-9
    assert sim.getStatus() == Simulator.STATUS_NORMAL


def test_pendulum_small_angle_period(tmp_path):
    length, amplitude = 1.0, 0.1
    w = pendulum_world(tmp_path, q0=amplitude, length=length)
    sim = Simulator(w)
    sim.controller(0).setTorque([0])
    crossings, prev = [], sim.getActualConfig(0)[1]
    for _ in range(4500):
        sim.simulate(DT)
        q = sim.getActualConfig(0)[1]
        if prev > 0 >= q:
            crossings.append(sim.getTime() - DT * q / (q - prev))
        prev = q
    assert len(crossings) >= 2
    period = crossings[1] - crossings[0]
    # Point mass on a massless rod, with the first finite-amplitude correction.
    expected = 2 * math.pi * math.sqrt(length / G) * (1 + amplitude**2 / 16)
    assert period == pytest.approx(expected, rel=5e-3)


def test_frictionless_pendulum_keeps_its_energy(tmp_path):
    w = pendulum_world(tmp_path, q0=0.8)
    sim = Simulator(w)
    sim.controller(0).setTorque([0])

    def energy():
        q, dq = sim.getActualConfig(0)[1], sim.getActualVelocity(0)[1]
        return 0.5 * dq * dq - G * math.cos(q)

    e0 = energy()
    worst = 0.0
    for _ in range(100):
        sim.simulate(0.1)
        worst = max(worst, abs(energy() - e0))
    assert sim.getTime() == pytest.approx(10.0, abs=1e-6)
    assert worst < 0.01 * abs(e0)


def test_box_resting_on_plane_stays_put():
    w = WorldModel()
    add_ground(w)
    o = add_box(w, "box", [0.3, -0.2, 0.06])
    sim = Simulator(w)
    sim.simulate(1.0)
    start = o.getTransform()[1]
    # It rests on its boundary layer: half height plus the object padding.
    assert start[2] == pytest.approx(0.05 + sim.body(o).getCollisionPadding(), abs=5e-4)
    sim.simulate(10.0)
    end = o.getTransform()[1]
    assert math.dist(start, end) < 1e-3
    assert sim.getStatus() in (Simulator.STATUS_NORMAL, Simulator.STATUS_ADAPTIVE_TIME_STEPPING)


@pytest.mark.parametrize("tan_slope,slides", [(0.25, False), (0.6, True)])
def test_box_on_slope_slides_iff_friction_is_exceeded(tan_slope, slides):
    # Both surfaces have mu = 0.5. The reference's pyramid cone scales mu by
    # 0.707 along its axes, so the sliding threshold lies in [0.354, 0.5]:
    # slopes are chosen outside that band.
    angle = math.atan(tan_slope)
    c, s = math.cos(angle), math.sin(angle)
    rot_y = [c, 0, -s, 0, 1, 0, s, 0, c]  # column-major rotation about y by +angle
    w = WorldModel()
    ground = add_ground(w, rot_y)
    normal = [s, 0, c]
    box = add_box(w, "box", [0.0525 * n for n in normal])
    box.setTransform(rot_y, [0.0525 * n for n in normal])
    sim = Simulator(w)
    for body in (sim.body(box), sim.body(ground)):
        p = body.getSurface()
        p.kFriction = 0.5
        body.setSurface(p)
    sim.simulate(2.0)
    moved = math.dist(box.getTransform()[1], [0.0525 * n for n in normal])
    if slides:
        # Down the slope with acceleration at least g (sin - mu cos).
        assert moved > 0.5 * G * (s - 0.5 * c) * 2.0**2 * 0.9
    else:
        assert moved < 2e-3


@pytest.mark.parametrize("restitution", [0.3, 0.6, 0.9])
def test_restitution_sets_bounce_height(restitution):
    w = WorldModel()
    ground = add_ground(w)
    ball = w.makeRigidObject("ball")
    g = Geometry3D()
    p = GeometricPrimitive()
    p.setSphere([0, 0, 0], 0.05)
    g.setGeometricPrimitive(p)
    ball.geometry().set(g)
    m = ball.getMass()
    m.setMass(0.5)
    m.setInertia([0.0005] * 3)
    ball.setMass(m)
    drop = 0.5
    ball.setTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0.05 + drop])
    sim = Simulator(w)
    params = ContactParameters()
    params.kFriction = 0.5
    params.kRestitution = restitution
    sim.body(ball).setSurface(params)
    sim.body(ground).setSurface(params)  # stiffness and damping infinite: rigid contact
    rest = 0.05 + sim.body(ball).getCollisionPadding()
    heights, z_prev, rising = [], None, False
    for _ in range(1500):
        sim.simulate(DT)
        z = ball.getTransform()[1][2]
        if z_prev is not None:
            if z > z_prev:
                rising = True
            elif rising and z < z_prev:
                heights.append(z_prev - rest)
                rising = False
        z_prev = z
    assert heights, "the ball never bounced"
    fall = 0.05 + drop - rest
    assert heights[0] == pytest.approx(restitution**2 * fall, rel=0.1)


def test_floating_base_is_one_free_body():
    import os

    from conftest import PROJECT_DATA

    w = WorldModel()
    r = w.loadRobot(os.path.join(PROJECT_DATA, "robots", "floating_body.rob"))
    r.setConfig([0.1, 0.2, 2.0, 0.3, 0.2, 0.1])
    sim = Simulator(w)
    assert sim.getActualConfig(0) == pytest.approx([0.1, 0.2, 2.0, 0.3, 0.2, 0.1], abs=1e-12)
    body = sim.body(r.link(5))
    body.setVelocity([0, 0, 1.0], [1.0, 0, 0])
    with pytest.raises(RuntimeError):
        sim.body(r.link(2))  # a virtual link of the floating joint
    t = 0.5
    sim.simulate(t)
    q = sim.getActualConfig(0)
    # Ballistic flight of the centre of mass (at the body origin).
    assert q[0] == pytest.approx(0.1 + 1.0 * t, abs=1e-9)
    assert q[2] == pytest.approx(2.0 - 0.5 * G * t * t, abs=0.5 * G * DT * t + 1e-9)
    # The configuration read back reproduces the body's pose through the
    # robot's own forward kinematics.
    r.setConfig(q)
    R, p = r.link(5).getTransform()
    Rb, pb = body.getObjectTransform()
    assert R == pytest.approx(Rb, abs=1e-9) and p == pytest.approx(pb, abs=1e-9)
