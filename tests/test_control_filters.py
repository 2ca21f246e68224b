"""Command and state filters of the Completer: joint limits (clamp, stop,
warn), collisions with the world, virtual sensors (acceptance
criterion 6)."""
import math

import pytest

from conftest import load_shared_world, sphere_geometry
from control_helpers import driver_limits, make_base, run, run_until, step, tx90

import klampt
from klampt.control.blocks.utils import BlockSignal, LambdaBlock
from klampt.control.robotinterfaceutils import (BrakeLimitFilter, CartesianLimitFilter, DifferenceFilter,
                                                LimitFilter, LoggingFilter, RobotInterfaceCompleter)
from klampt.math import so3
from klampt.plan import motionplanning


def test_clamp_filter():
    c, w, sim = tx90('Position')
    qmin, qmax = driver_limits(w.robot(0))
    c.setJointLimits(op='clamp')
    step(c, lambda c: c.setPosition([0, 10, 0, 0, 0, 0]))
    assert step(c, lambda c: c.commandedPosition())[1] == pytest.approx(2.268928, abs=1e-6)
    assert qmax[1] == pytest.approx(2.268928, abs=1e-6)
    assert step(c, lambda c: c.status()) == 'ok'


def test_stop_filter():
    c, w, sim = tx90('Position')
    c.setJointLimits(op='stop')
    step(c, lambda c: c.setPosition([0, 10, 0, 0, 0, 0]))
    assert step(c, lambda c: c.status()) == 'softStop'
    assert step(c, lambda c: c.commandedPosition())[1] == pytest.approx(0.0)


def test_warn_filter_drops_the_command():
    c, w, sim = tx90('Position')
    qmin, qmax = driver_limits(w.robot(0))
    c.setJointLimits(op='warn')
    with pytest.warns(RuntimeWarning, match="outside its limits"):
        step(c, lambda c: c.setPosition([0, 10, 0, 0, 0, 0]))
    run(c, 0.2)
    assert max(sim.controller(0).getCommandedConfig()) <= qmax[1]
    assert step(c, lambda c: c.commandedPosition()) == pytest.approx([0.0] * 6)
    assert step(c, lambda c: c.status()) == 'ok'
    # a valid command still goes through
    step(c, lambda c: c.setPosition([0, 1.0, 0, 0, 0, 0]))
    assert step(c, lambda c: c.commandedPosition())[1] == pytest.approx(1.0)


def test_filters_set_before_initialize_work():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    sim = klampt.Simulator(w)
    c = RobotInterfaceCompleter(make_base('Kinematic', w, sim))
    c.setJointLimits(op='clamp')
    c.setFilter('doubled', LambdaBlock(lambda sensedPosition: [2 * x for x in sensedPosition]),
                input='sensedPosition', output='doubled')
    assert c.initialize()
    step(c, lambda c: c.setPosition([0.1, 10, 0, 0, 0, 0]))
    assert step(c, lambda c: c.commandedPosition())[1] == pytest.approx(2.268928, abs=1e-6)
    assert 'doubled' in c.sensors() and c.hasSensor('doubled')
    assert step(c, lambda c: c.sensorMeasurements('doubled'))[0] == pytest.approx(0.2)


def test_collision_filter_stops_before_the_obstacle():
    w = load_shared_world('tx90scenario0.xml', quiet=True)
    robot = w.robot(0)
    start = [0, 1.0, 0.5, 0, 0.5, 0]
    target = [start[0] + 1.5] + list(start[1:])

    def tool_at(q):
        robot.setConfig(robot.configFromDrivers(q))
        return robot.link(6).getWorldPosition([0, 0, 0])
    # a ball where the tool passes halfway through the move
    ball = w.makeTerrain('ball')
    ball.geometry().set(sphere_geometry(tool_at([start[0] + 0.75] + list(start[1:])), 0.15))

    def hits(q):
        robot.setConfig(robot.configFromDrivers(q))
        return [i for i in range(1, robot.numLinks()) if ball.geometry().collides(robot.link(i).geometry())]
    assert not hits(start) and not hits(target)
    robot.setConfig(robot.configFromDrivers(start))
    sim = klampt.Simulator(w)
    c = RobotInterfaceCompleter(make_base('Position', w, sim))
    assert c.initialize()
    c.setCollisionFilter(w, 'stop')
    arrival = step(c, lambda c: (c.moveToPosition(target), c.destinationTime())[1])
    run_until(c, lambda c: c.status() != 'ok' or not c.isMoving(), 5.0)
    stopped_at = step(c, lambda c: c.clock())
    assert step(c, lambda c: c.status()) == 'softStop'
    assert stopped_at < arrival
    q = step(c, lambda c: c.commandedPosition())
    assert q[0] - start[0] > 0.2 and not hits(q)
    run(c, 0.5)
    sim.updateWorld()
    assert not [i for i in range(1, robot.numLinks()) if ball.geometry().collides(robot.link(i).geometry())]


def test_self_collision_filter_warns():
    c, w, sim = tx90('Kinematic')
    c.setCollisionFilter(None, 'warn')
    robot = w.robot(0)
    folded = [0, 0, 2.5, 0, 2.0, 0]
    robot.setConfig(robot.configFromDrivers(folded))
    assert robot.selfCollides()
    with pytest.warns(RuntimeWarning, match="collision"):
        step(c, lambda c: c.setPosition(folded))
    assert step(c, lambda c: c.commandedPosition()) == pytest.approx([0.0] * 6)


def test_tracking_monitor_soft_stops():
    c, w, sim = tx90('Position')
    c.setFilter('tracking_monitor', DifferenceFilter('stop', 0.05))
    step(c, lambda c: c.setPosition([0, 0.5, 0, 0, 0, 0]))
    run(c, 0.1)
    assert step(c, lambda c: c.status()) == 'softStop'


def test_limit_filter_ops():
    f = LimitFilter('clamp', [0, 0], [1, 1])
    assert f([2, -1]) == [1, 0]
    with pytest.raises(BlockSignal) as e:
        LimitFilter('stop', [0], [1])([2])
    assert e.value.signal == 'softStop'
    with pytest.raises(BlockSignal) as e:
        LimitFilter('warn', [0], [1])([2])
    assert e.value.signal == 'warn'
    with pytest.raises(ValueError):
        LimitFilter('explode', [0], [1])


def test_brake_limit_filter_agrees_with_brake_1d():
    f = BrakeLimitFilter('clamp', [-1.0], [1.0], [-2.0], [2.0])
    for x, v in [(0.0, 1.0), (0.5, 1.0), (-0.5, -1.5), (0.9, 3.0)]:
        ts, xs, vs = motionplanning.brake_1d(x, v, 2.0)
        stop = xs[-1]
        (q,), (dq,) = f([x], [v])
        if -1 <= stop <= 1:
            assert (q, dq) == (x, v)
        else:
            # clamped to the fastest velocity that still stops at the limit
            ts, xs, vs = motionplanning.brake_1d(q, dq, 2.0)
            assert xs[-1] == pytest.approx(math.copysign(1.0, v), abs=1e-9)
    with pytest.raises(BlockSignal):
        BrakeLimitFilter('stop', [-1.0], [1.0], [-2.0], [2.0])([0.9], [3.0])


def test_cartesian_limit_filter_clamps_translation():
    f = CartesianLimitFilter('clamp', None, None, None, [0, 0, 0], [1, 1, 1])
    R, t = f((so3.identity(), [2, -1, 0.5]))
    assert t == [1, 0, 0.5]
    with pytest.raises(BlockSignal):
        CartesianLimitFilter('stop', None, None, None, [0, 0, 0], [1, 1, 1])((so3.identity(), [2, 0, 0]))
    g = CartesianLimitFilter('clamp', so3.identity(), [-0.1] * 3, [0.1] * 3, None, None)
    R, t = g((so3.from_axis_angle(([0, 0, 1], 0.5)), [0, 0, 0]))
    assert so3.angle(R) == pytest.approx(0.1, abs=1e-9)


def test_logging_filter(tmp_path):
    fn = str(tmp_path / 'log.csv')
    f = LoggingFilter(fn, ['q', 't'])
    f.advance([1, 2], 0.5)
    f.advance([3, 4], 0.6)
    f.close()
    lines = open(fn).read().splitlines()
    assert lines == ['q[0],q[1],t', '1,2,0.5', '3,4,0.6']


def test_unknown_signal_is_an_error():
    c, w, sim = tx90('Kinematic')

    def odd(q):
        raise BlockSignal('explode', 'boom')
    c.setFilter('joint_limit', odd)
    with pytest.raises(ValueError, match="unknown signal"):
        step(c, lambda c: c.setPosition([0.1] * 6))
