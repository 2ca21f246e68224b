"""klampt.control.blocks (T16): the diagram machinery, the utility
blocks, estimators against calculus (derivatives and integrals of known
functions), the FIR filter against its convolution, state machines
switching at their times."""
import math

import pytest

from conftest import load_shared_world

from klampt.control.blocks import core
from klampt.control.blocks.core import Add, Block, Counter, Min, SuperBlock, ValueSource
from klampt.control.blocks.estimators import Differentiator, Integrator
from klampt.control.blocks.filters import FIRFilter
from klampt.control.blocks.state_machine import TimedSequenceBlock
from klampt.control.blocks.utils import (BlockSignal, Clamp, Concatenate, Distance, If, LambdaBlock,
                                         LimitExceeded, LinearBlock, Mux, SignalBlock, WorldCollision)


def test_self_test_is_a_moving_average_clipped_by_the_input():
    res = core.self_test()
    xs = [x for x, _ in res]
    for k, (x, y) in enumerate(res):
        window = xs[max(0, k - 3):k + 1]
        assert y == pytest.approx(min(0.25 * sum(window), x), abs=1e-15)


def test_utility_blocks():
    assert Clamp().advance([2, -2], [-1, -1], [1, 1]) == [1, -1]
    assert Clamp().advance(3.0, 0.0, 1.0) == 1.0
    assert LimitExceeded().advance([0.5, 2], [0, 0], [1, 1]) == 1
    assert LimitExceeded().advance([0.5, 0.5], [0, 0], [1, 1]) == 0
    assert Distance().advance([3, 4], [0, 0]) == 4
    assert Distance(2).advance([3, 4], [0, 0]) == pytest.approx(5.0)
    assert LinearBlock([[1, 2], [3, 4]], [1, 1]).advance([1, 1]) == pytest.approx([4, 8])
    assert list(Concatenate(2).advance([1, 2], [3])) == [1, 2, 3]
    assert If().advance(True, 'a', 'b') == 'a' and If().advance(False, 'a', 'b') == 'b'
    assert Mux(3).advance(2, 'x', 'y', 'z') == 'z'
    assert LambdaBlock(lambda a, b: a * b).advance(3, 4) == 12
    with pytest.raises(BlockSignal) as e:
        SignalBlock('softStop', 'too far').advance(True)
    assert e.value.signal == 'softStop'
    SignalBlock('softStop', 'too far').advance(False)


def test_world_collision_block_agrees_with_pairwise_checks():
    w = load_shared_world('tx90scenario0.xml', quiet=True)
    block = WorldCollision(w)
    robot = w.robot(0)
    obstacles = [w.terrain(i).geometry() for i in range(w.numTerrains())]
    obstacles += [w.rigidObject(i).geometry() for i in range(w.numRigidObjects())]
    seen = set()
    for q1 in [0.0, 0.8, 1.6, 2.2]:
        for q2 in [-1.5, 0.0, 1.5, 2.5]:
            q = [0, q1, q2, 0, 0, 0]
            robot.setConfig(robot.configFromDrivers(q))
            expected = robot.selfCollides() or any(o.collides(robot.link(k).geometry())
                                                   for o in obstacles for k in range(1, robot.numLinks()))
            assert block.advance(q) is expected, q
            seen.add(expected)
    assert seen == {True, False}


def test_differentiator_and_integrator_agree_with_calculus():
    dt = 0.001
    d, s = Differentiator(), Integrator()
    dv, sv = Differentiator(), Integrator()
    for k in range(1001):
        t = k * dt
        dx = d.advance(dt, math.sin(t))
        ix = s.advance(dt, math.cos(t))
        dxv = dv.advance(dt, [t * t, 1.0])
        ixv = sv.advance(dt, [t, 2.0])
    # backward difference of sin at 1: cos(1) within dt/2 sin(1)
    assert dx == pytest.approx(math.cos(1.0), abs=dt)
    assert ix == pytest.approx(math.sin(1.0), abs=1e-6)
    assert dxv == pytest.approx([2.0 - dt, 0.0], abs=1e-9)
    assert ixv == pytest.approx([0.5, 2.0], abs=1e-9)
    d.signal('reset')
    assert d.advance(dt, 5.0) == 0.0


def test_differentiator_with_a_robot_uses_joint_geometry():
    w = load_shared_world('robots/tx90l.rob', quiet=True)
    robot = w.robot(0)
    d = Differentiator(robot)
    q0 = robot.getConfig()
    q1 = list(q0)
    q1[2] += 0.01
    d.advance(0.01, q0)
    assert d.advance(0.01, q1)[2] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        d.advance(0.01, [0.0])


def test_fir_filter_is_a_convolution():
    b = [0.5, 0.3, 0.2]
    f = FIRFilter(b)
    xs = [1.0, 0.0, 0.0, 2.0, 4.0, -1.0]
    ys = [f.advance(x) for x in xs]
    for k in range(len(xs)):
        assert ys[k] == pytest.approx(sum(b[j] * xs[k - j] for j in range(len(b)) if k - j >= 0))
    fv = FIRFilter([0.5, 0.5])
    assert fv.advance([2, 4]) == [1, 2] and fv.advance([4, 0]) == [3, 2]
    with pytest.raises(ValueError):
        FIRFilter([])


def test_wiring_by_calling_and_super_blocks():
    a, b = ValueSource(2.0), ValueSource(5.0)
    total = Add()(a, b)
    smallest = Min()(total.output, ValueSource(4.0))
    diagram = SuperBlock([a])
    diagram.advance()
    assert total.output.read() == 7.0 and smallest.output.read() == 4.0
    a.write(-3.0)
    diagram.advance()
    assert total.output.read() == 2.0 and smallest.output.read() == 2.0
    counter = Counter(10, 5)
    assert [counter.advance() for _ in range(3)] == [10, 15, 20]
    with pytest.raises(ValueError, match="inputs"):
        Add()(a)


class Recorder(Block):
    """A source block that logs its name each time it runs."""

    def __init__(self, name, log):
        Block.__init__(self, 0, 0)
        self.name = name
        self.log = log

    def advance(self):
        self.log.append(self.name)


def test_timed_sequence_switches_at_its_times():
    log = []
    seq = TimedSequenceBlock([Recorder('a', log), Recorder('b', log), Recorder('c', log)], [1.0, 2.0, 3.0])
    states = [seq.advance(t) for t in [0.0, 0.5, 0.99, 1.0, 1.5, 2.5, 3.5, 4.0]]
    # each step runs the current block, then switches once its time has come
    assert states == [0, 0, 0, 1, 1, 2, -1, -1]
    assert log == ['a', 'a', 'a', 'a', 'b', 'b', 'c']
    # a late step crosses several switching times at once
    log.clear()
    seq.signal('reset')
    assert seq.advance(2.5) == 2 and log == ['a']
