"""RobotInterfaceCompleter on the simulated tx90l: where the arm ends and
when, for every kind of base (acceptance criteria 1, 2, 3, 6, 9, 13)."""
import warnings

import pytest

from conftest import load_shared_world
from control_helpers import (BASES, MOVE_TIME, TARGET, TOL, driver_limits, make_base, max_abs_diff, run, run_until, step,
                             tx90)

import klampt
from klampt.control.robotinterfaceutils import RobotInterfaceCompleter
from klampt.control.simrobotinterface import KinematicSimControlInterface


@pytest.mark.parametrize('kind', BASES)
def test_move_to_position_arrives_when_predicted(kind):
    c, w, sim = tx90(kind)
    assert c.numJoints() == 6
    assert c.controlRate() == (200.0 if kind == 'Kinematic' else 100.0)
    if kind != 'Kinematic':
        assert c.klamptModel().getName() == w.robot(0).getName()

    def command(c):
        c.moveToPosition(TARGET)
        return c.isMoving(), c.destinationTime() - c.clock(), c.destinationPosition()
    moving, remaining, dest = step(c, command)
    assert moving
    assert remaining == pytest.approx(MOVE_TIME, abs=1e-4)
    assert dest == pytest.approx(TARGET, abs=1e-12)
    took = run_until(c, lambda c: not c.isMoving(), 2.0)
    assert took == pytest.approx(0.76, abs=0.02)
    assert max_abs_diff(step(c, lambda c: c.commandedPosition()), TARGET) < 1e-9
    run(c, 2.0)
    sensed = step(c, lambda c: c.sensedPosition())
    assert all(abs(a - b) <= tol for a, b, tol in zip(sensed, TARGET, TOL)), sensed
    assert step(c, lambda c: c.status()) == 'ok'
    c.close()


def test_move_to_position_at_half_speed_takes_twice_as_long():
    c, w, sim = tx90('Position')
    remaining = step(c, lambda c: (c.moveToPosition(TARGET, speed=0.5), c.destinationTime() - c.clock())[1])
    assert remaining == pytest.approx(2 * MOVE_TIME, abs=2e-4)
    with pytest.raises(ValueError, match="speed"):
        step(c, lambda c: c.moveToPosition(TARGET, speed=0))


@pytest.mark.parametrize('kind', ['Position', 'Kinematic'])
def test_velocity_command_on_a_position_base(kind):
    c, w, sim = tx90(kind)
    v = [0.5, 0, 0, 0, 0, -0.3]
    q0 = step(c, lambda c: c.commandedPosition())

    def command(c):
        c.setVelocity(v, 1.0)
        return c.isMoving(), c.destinationTime() - c.clock(), c.destinationPosition()
    moving, remaining, dest = step(c, command)
    t0 = step(c, lambda c: c.clock()) - 1.0 / c.controlRate()
    assert moving and remaining == pytest.approx(1.0, abs=1e-12)
    assert dest == pytest.approx([a + b for a, b in zip(q0, v)], abs=1e-12)
    run(c, 0.5 - 2.0 / c.controlRate())
    t, qc, vc, vs = step(c, lambda c: (c.clock(), c.commandedPosition(), c.commandedVelocity(), c.sensedVelocity()))
    assert t - t0 == pytest.approx(0.5, abs=1e-9)
    assert qc[0] - q0[0] == pytest.approx(0.25, abs=1e-6)
    assert qc[5] - q0[5] == pytest.approx(-0.15, abs=1e-6)
    assert vc[0] == pytest.approx(0.5, abs=1e-9)
    # the sensed velocity is measured (finite differences), not the emulator's own output
    assert vs[0] == pytest.approx(0.5, abs=0.05)
    run(c, 0.5)
    qc, vc, moving = step(c, lambda c: (c.commandedPosition(), c.commandedVelocity(), c.isMoving()))
    assert qc[0] - q0[0] == pytest.approx(0.5, abs=1e-6)
    assert vc[0] == 0 and not moving
    run(c, 1.0)
    qs = step(c, lambda c: c.sensedPosition())
    assert qs[0] - q0[0] == pytest.approx(0.5, abs=0.01)


def test_velocity_ttl_none_lasts_one_second():
    c, w, sim = tx90('Position')
    remaining = step(c, lambda c: (c.setVelocity([0.1] * 6), c.destinationTime() - c.clock())[1])
    assert remaining == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize('kind', ['Position', 'Kinematic'])
def test_teleoperation_moves_continuously_and_coasts_one_ttl(kind):
    c, w, sim = tx90(kind)
    q0 = step(c, lambda c: c.commandedPosition())[0]
    run(c, 1.0, lambda c: c.setVelocity([0.5, 0, 0, 0, 0, 0], 0.1))
    q1 = step(c, lambda c: c.commandedPosition())[0]
    assert q1 - q0 == pytest.approx(0.5, abs=0.01)
    run(c, 0.5)
    q2, moving = step(c, lambda c: (c.commandedPosition()[0], c.isMoving()))
    assert 0 <= q2 - q1 <= 0.05 + 1e-6 and not moving


def test_velocity_stops_short_of_the_joint_limit():
    c, w, sim = tx90('Kinematic')
    qmin, qmax = driver_limits(w.robot(0))
    step(c, lambda c: c.setPosition([0, qmax[1] - 0.1, 0, 0, 0, 0]))
    remaining = step(c, lambda c: (c.setVelocity([0, 1.0, 0, 0, 0, 0]), c.destinationTime() - c.clock())[1])
    assert remaining == pytest.approx(0.1 - 1e-3, abs=1e-9)
    run(c, 0.5)
    assert step(c, lambda c: c.commandedPosition()[1]) == pytest.approx(qmax[1] - 1e-3, abs=1e-9)
    step(c, lambda c: c.setPosition([0, qmax[1] + 0.01, 0, 0, 0, 0]))
    # the Kinematic base refuses the out-of-limit position, so the Completer is stopped
    assert step(c, lambda c: c.status()).startswith('joint 1 limit violation')


def test_velocity_base_tracks_a_move_within_limits():
    c, w, sim = tx90('Velocity')
    robot = w.robot(0)
    qmin, qmax = driver_limits(robot)
    dest = step(c, lambda c: (c.moveToPosition(TARGET), c.destinationTime())[1])
    worst = [0.0]

    def watch(c):
        qc = c._base.commandedPosition()
        worst[0] = max([worst[0]] + [a - q for a, q in zip(qmin, qc)] + [q - b for b, q in zip(qmax, qc)])
    while step(c, lambda c: (watch(c), c.clock())[1]) < dest + 0.5 - 1e-9:
        pass
    sensed = step(c, lambda c: c.sensedPosition())
    assert max_abs_diff(sensed[:5], TARGET[:5]) < 0.01
    assert abs(sensed[5] - TARGET[5]) < 0.1
    q0 = step(c, lambda c: c.commandedPosition())
    step(c, lambda c: c.setVelocity([0.5, 0, 0, 0, 0, 0], 1.0))
    run(c, 1.5, watch)
    qc, qs = step(c, lambda c: (c.commandedPosition(), c.sensedPosition()))
    assert qc[0] - q0[0] == pytest.approx(0.5, abs=0.01)
    assert qs[0] - q0[0] == pytest.approx(0.5, abs=0.01)
    assert worst[0] <= 0.0


def test_velocity_base_commands_stay_inside_the_limits_at_a_limit():
    c, w, sim = tx90('Velocity')
    qmin, qmax = driver_limits(w.robot(0))
    step(c, lambda c: c.moveToPosition([0, qmax[1] - 0.05, 0, 0, 0, 0]))
    run(c, 1.5)
    outside = []

    def watch(c):
        qc = c._base.commandedPosition()
        outside.append(max(qc[1] - qmax[1], qmin[1] - qc[1]))
    step(c, lambda c: c.setVelocity([0, 1.0, 0, 0, 0, 0], 1.0))
    run(c, 1.5, watch)
    assert max(outside) <= 1e-12
    assert step(c, lambda c: c.sensedPosition()[1]) == pytest.approx(qmax[1], abs=0.01)


@pytest.mark.parametrize('kind', ['Position', 'Full', 'Kinematic'])
def test_soft_stop_freezes_until_reset(kind):
    c, w, sim = tx90(kind)
    step(c, lambda c: c.moveToPosition(TARGET))
    run(c, 0.3)
    status = step(c, lambda c: (c.softStop(), c.status())[1])
    assert status == 'softStop'
    frozen = step(c, lambda c: c.commandedPosition())
    run(c, 0.5)
    assert max_abs_diff(step(c, lambda c: c.commandedPosition()), frozen) < 1e-12
    with pytest.warns(RuntimeWarning, match="stopped"):
        step(c, lambda c: c.moveToPosition([0] * 6))
    run(c, 0.5)
    assert max_abs_diff(step(c, lambda c: c.commandedPosition()), frozen) < 1e-12
    assert step(c, lambda c: c.reset()) is True
    assert step(c, lambda c: c.status()) == 'ok'
    step(c, lambda c: c.moveToPosition(TARGET))
    run_until(c, lambda c: not c.isMoving(), 3.0)
    assert max_abs_diff(step(c, lambda c: c.commandedPosition()), TARGET) < 1e-9
    assert step(c, lambda c: (c.estop(), c.status())[1]) == 'estop'
    assert step(c, lambda c: c.reset()) is True
    assert step(c, lambda c: c.status()) == 'ok'


def test_soft_stop_brake_mode_decelerates():
    c, w, sim = tx90('Kinematic')
    step(c, lambda c: c.setSetting('softStopMode', 'brake'))
    step(c, lambda c: c.setVelocity([1.0, 0, 0, 0, 0, 0], 2.0))
    run(c, 0.5)
    v0 = step(c, lambda c: c.commandedVelocity()[0])
    q0 = step(c, lambda c: (c.softStop(), c.commandedPosition()[0])[1])
    assert v0 == pytest.approx(1.0)
    run_until(c, lambda c: not c.isMoving(), 2.0)
    q1 = step(c, lambda c: c.commandedPosition()[0])
    amax = w.robot(0).driver(0).getAccelerationLimits()[1]
    # stopping from 1 rad/s at full deceleration covers v^2 / (2 a)
    assert q1 - q0 == pytest.approx(1.0 / (2 * amax), abs=0.02)


def test_kinematic_base_limit_violation():
    from klampt.control.simrobotinterface import KinematicSimControlInterface
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    k = KinematicSimControlInterface(w.robot(0))
    assert k.initialize()
    q0 = k.sensedPosition()
    k.setPosition([0, 10, 0, 0, 0, 0])
    assert k.status().startswith('joint 1 limit violation')
    assert k.sensedPosition() == q0
    k.setPosition([0.1] * 6)
    assert k.sensedPosition() == q0
    assert k.reset() and k.status() == 'ok'
    k.setPosition([0.1] * 6)
    assert k.sensedPosition() == pytest.approx([0.1] * 6)
    assert isinstance(k.commandedPosition(), list)


@pytest.mark.parametrize('kind', ['Position', 'Full'])
def test_parts_take_commands_independently(kind):
    c, w, sim = tx90(kind)
    c.addPart('a', [0, 1, 2])
    c.addPart('b', [3, 4, 5])
    a, b = c.partInterface('a'), c.partInterface('b')
    assert a.indices() == [0, 1, 2] and c.indices('b') == [3, 4, 5]
    qa, qb = [0.3, -0.4, 0.5], [0.2, 0.4, -0.3]
    step(c, lambda c: (a.moveToPosition(qa), b.setPosition(qb)))
    run_until(c, lambda c: not c.isMoving(), 2.0)
    assert max_abs_diff(step(c, lambda c: c.commandedPosition()), qa + qb) < 1e-9
    qa2, qb2 = [0, 0, 0], [0, 0, 0]
    step(c, lambda c: (b.setPosition(qb2), a.moveToPosition(qa2)))
    run_until(c, lambda c: not c.isMoving(), 2.0)
    assert max_abs_diff(step(c, lambda c: c.commandedPosition()), qa2 + qb2) < 1e-9
    step(c, lambda c: (a.setVelocity([0.2, 0, 0], 1.0), b.moveToPosition(qb)))
    vel = step(c, lambda c: a.commandedVelocity())
    assert vel == pytest.approx([0.2, 0, 0])
    run_until(c, lambda c: not c.isMoving(), 2.0)
    assert max_abs_diff(step(c, lambda c: c.commandedPosition()), [0.2, 0, 0] + qb) < 1e-9
    run(c, 1.0)
    sensed = step(c, lambda c: c.sensedPosition())
    assert all(abs(x - y) <= t for x, y, t in zip(sensed, [0.2, 0, 0] + qb, TOL))
    q = w.robot(0).getConfig()
    qk = c.configToKlampt([0.7, 0.8, 0.9], klamptConfig=q, part='a')
    assert qk[1:4] == pytest.approx([0.7, 0.8, 0.9]) and qk[4:] == pytest.approx(q[4:])


def test_errors_are_clear():
    c, w, sim = tx90('Position')
    with pytest.raises(ValueError, match="setPosition.*6 entries"):
        step(c, lambda c: c.setPosition([0] * 5))
    with pytest.raises(ValueError, match=r"^setPosition: q must not be NaN, got nan \(element 0\)$"):
        step(c, lambda c: c.setPosition([float('nan')] * 6))
    with pytest.raises(KeyError, match="no part 'arm'"):
        c.partInterface('arm')
    with pytest.raises(IndexError):
        c.indices(None, 6)
    with pytest.raises(RuntimeError, match="between beginStep"):
        c.setPosition([0] * 6)
    c.beginStep()
    with pytest.raises(RuntimeError, match="twice"):
        c.beginStep()
    c.endStep()
    with pytest.raises(RuntimeError, match="without beginStep"):
        c.endStep()
    with pytest.raises(ValueError, match="already"):
        type(c)(c)
    with pytest.raises(ValueError):
        c.addPart('bad', [0, 9])
    part = c.partInterface(None, 2)
    with pytest.raises(RuntimeError, match="part interface"):
        part.beginStep()
    with pytest.raises(ValueError, match="frame"):
        step(c, lambda c: c.commandedCartesianPosition(frame='moon'))
    with pytest.raises(NotImplementedError):
        step(c, lambda c: c.sensedTorque())
    assert c.close()
    with pytest.raises(RuntimeError, match="twice"):
        c.close()
    with pytest.raises(RuntimeError, match="closed"):
        c.beginStep()


@pytest.mark.parametrize('kind', ['Position', 'Velocity', 'MoveTo', 'Full'])
def test_raw_sim_bases_check_their_use(kind):
    """A simulated base used directly: commands before initialize() or
    after close(), unpaired beginStep()/endStep(), unknown sensors and
    wrong sizes raise, naming the interface and the method."""
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    sim = klampt.Simulator(w)
    base = make_base(kind, w, sim)
    command = {'Position': lambda b, q: b.setPosition(q), 'Velocity': lambda b, q: b.setVelocity(q, 0.1),
               'MoveTo': lambda b, q: b.moveToPosition(q), 'Full': lambda b, q: b.setPosition(q)}[kind]
    assert base.status() == 'disconnected'
    with pytest.raises(RuntimeError, match="Sim%sControlInterface.*call initialize" % kind):
        command(base, [0.0] * 6)
    assert base.initialize()
    with pytest.raises(ValueError, match="6 entries, got 5"):
        command(base, [0.0] * 5)
    with pytest.raises(RuntimeError, match="endStep\\(\\) called without beginStep"):
        base.endStep()
    base.beginStep()
    with pytest.raises(RuntimeError, match="beginStep\\(\\) called twice"):
        base.beginStep()
    command(base, [0.0] * 6)
    base.endStep()
    assert sim.getTime() == pytest.approx(0.01)
    assert base.sensorMeasurements('q') == pytest.approx([0.0] * 7, abs=1e-3)
    with pytest.raises(KeyError, match="no sensor 'camera'"):
        base.sensorMeasurements('camera')
    assert base.close()
    with pytest.raises(RuntimeError, match="closed"):
        command(base, [0.0] * 6)
    with pytest.raises(RuntimeError, match="twice"):
        base.close()


def test_kinematic_base_and_completer_check_their_use():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    k = KinematicSimControlInterface(w.robot(0))
    with pytest.raises(KeyError, match="no sensor 'nope'"):
        k.sensorMeasurements('nope')
    c = RobotInterfaceCompleter(k)
    assert c.initialize()
    with pytest.raises(IndexError, match="Joint index 6"):
        step(c, lambda c: c.status(6))
    assert step(c, lambda c: c.status(5)) == 'ok'
    with pytest.raises(KeyError, match="no sensor 'nope'"):
        step(c, lambda c: c.sensorMeasurements('nope'))
    assert c.close()
    with pytest.raises(RuntimeError, match="closed"):
        k.setPosition([0.0] * 6)


def test_settings_and_gains():
    c, w, sim = tx90('Full')
    step(c, lambda c: c.setPIDGains(100.0, 1.0, 5.0))
    kp, ki, kd = step(c, lambda c: c.getPIDGains())
    assert kp == [100.0] * 6 and ki == [1.0] * 6 and kd == [5.0] * 6
    assert sim.controller(0).getPIDGains()[1] == [1.0] * 6
    step(c, lambda c: c.setGravityCompensation([0, 0, -9.81], 1.5, [0, 0, 0.1]))
    assert step(c, lambda c: c.getGravityCompensation()) == ([0, 0, -9.81], 1.5, [0, 0, 0.1])
    assert c.getSetting('velocityFeedforward') == 1.0
    c.setSetting('velocityTrackingGain', 4.0)
    assert c.getSettings()['velocityTrackingGain'] == 4.0
    with pytest.raises(KeyError):
        c.getSetting('no such setting')
    with pytest.raises(ValueError):
        c.setPIDGains([1.0] * 5, 0, 0)


def test_piecewise_commands_keep_the_callers_lists_and_check_times():
    c, w, sim = tx90('Kinematic')
    ts, qs = [0.5, 1.0], [[0.1] * 6, [0.2] * 6]
    step(c, lambda c: c.setPiecewiseLinear(ts, qs))
    assert ts == [0.5, 1.0] and qs == [[0.1] * 6, [0.2] * 6]
    run(c, 0.25 - 1.0 / c.controlRate())
    assert step(c, lambda c: c.commandedPosition()[0]) == pytest.approx(0.05, abs=1e-9)
    with pytest.raises(ValueError, match="relative"):
        step(c, lambda c: c.setPiecewiseLinear([-1.0], [[0] * 6]))
    with pytest.raises(ValueError, match="clock"):
        step(c, lambda c: c.setPiecewiseCubic([0.0], [[0] * 6], [[0] * 6], relative=False))
    t = step(c, lambda c: c.clock())
    step(c, lambda c: c.setPiecewiseCubic([t + 0.5], [[0.3] * 6], [[0] * 6], relative=False))
    run_until(c, lambda c: not c.isMoving(), 1.0)
    assert step(c, lambda c: c.commandedPosition()) == pytest.approx([0.3] * 6, abs=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        step(c, lambda c: c.setPiecewiseLinear([], []))
