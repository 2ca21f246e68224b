"""The command sequences of the reference's controller test
(Klampt-examples ``controller_test.py``, MoveSequence) on every base, with
the assertions they lack: where the tool ends, limits respected on every
step (acceptance criterion 12)."""
import pytest

from control_helpers import BASES, driver_limits, make_base, max_abs_diff

import klampt
from klampt.control.robotinterfaceutils import RobotInterfaceCompleter, StepContext
from klampt.math import so3, vectorops

from control_helpers import load_world

GOAL = [0.5, 0, 1.0]


class MoveSequence:
    """Commands issued at given clock times (the reference's sequences)."""

    def __init__(self, controller, index):
        c = controller
        q = c.commandedPosition()
        self.q = q
        up = q[:2] + [q[2] + 1.0] + q[3:]
        q2 = list(q)
        q2[2] -= 1.0
        q2[3] -= 1.0
        if index == 0:
            moves = [(1.0, lambda: c.setPiecewiseLinear([1], [up]))]
        elif index == 1:
            moves = [(0.5, lambda: c.setVelocity([0] * 2 + [1.0] + [0] * (len(q) - 3), 1.0)),
                     (0.6, lambda: c.moveToCartesianPosition((so3.identity(), GOAL))),
                     (1.0, lambda: c.setPiecewiseLinear([1], [up])),
                     (3.0, lambda: c.setPiecewiseCubic([1], [q], [[0] * len(q)])),
                     (3.5, lambda: c.moveToPosition(q[:2] + [q[2] - 1.0] + q[3:])),
                     (5.0, lambda: c.moveToPosition(q, 0.1)),
                     (5.5, lambda: c.moveToPosition(q2, 1.0)),
                     (8.0, lambda: c.moveToCartesianPosition((so3.identity(), GOAL))),
                     (10.0, lambda: c.setCartesianVelocity([0, 0, 0.2], 3.0)),
                     (11.0, lambda: c.moveToCartesianPosition((so3.identity(), GOAL)))]
        elif index == 3:
            moves = [(0.5, lambda: c.moveToCartesianPosition((so3.identity(), GOAL))),
                     (2.0, lambda: c.setCartesianVelocity([0, 0, 0.1], 5.0))]
        self.moves = moves
        self.controller = c
        self.start_clock = self.last_clock = c.clock()

    def done(self):
        return self.last_clock - self.start_clock >= self.moves[-1][0] + 2.0

    def update(self):
        t = self.controller.clock()
        for trigger, callback in self.moves:
            if t > trigger and self.last_clock <= trigger:
                callback()
        self.last_clock = t


def scenario(kind):
    w = load_world('tx90scenario0.xml')
    sim = klampt.Simulator(w)
    c = RobotInterfaceCompleter(make_base(kind, w, sim))
    assert c.initialize()
    c.setToolCoordinates([0, 0, 0])
    return c, w


def run_sequence(c, index, watch=None):
    moves = MoveSequence(c, index)
    steps = 0
    while c.status() == 'ok' and not moves.done():
        with StepContext(c):
            moves.update()
            if watch is not None:
                watch(c)
        steps += 1
    return moves, steps


@pytest.mark.parametrize('kind', BASES)
def test_sequence_1_ends_at_the_cartesian_goal(kind):
    c, w = scenario(kind)
    assert c.numJoints() == w.robot(0).numDrivers()
    qmin, qmax = driver_limits(w.robot(0))
    outside = [0.0]

    def watch(c):
        qc = c.commandedPosition()
        outside[0] = max([outside[0]] + [a - x for a, x in zip(qmin, qc)] + [x - b for b, x in zip(qmax, qc)])
    moves, steps = run_sequence(c, 1, watch)
    assert c.status() == 'ok'
    assert moves.done()
    assert outside[0] <= 1e-9
    with StepContext(c):
        T = c.commandedCartesianPosition()
    assert vectorops.distance(T[1], GOAL) < 1e-3
    assert so3.distance(T[0], so3.identity()) < 2e-3


def test_sequence_0_is_one_exact_linear_move():
    c, w = scenario('Position')
    moves, steps = run_sequence(c, 0)
    assert c.status() == 'ok'
    with StepContext(c):
        qc = c.commandedPosition()
    q = moves.q
    assert max_abs_diff(qc, q[:2] + [q[2] + 1.0] + q[3:]) < 1e-9


def test_sequence_3_drives_upward_until_the_workspace_ends():
    c, w = scenario('Position')
    z = []
    moves, steps = run_sequence(c, 3, lambda c: z.append(c.commandedCartesianPosition()[1][2]))
    assert c.status() == 'ok'
    start = int(round(2.1 * c.controlRate()))
    rise = [b - a for a, b in zip(z[start:], z[start + 1:])]
    assert min(rise) >= -1e-6
    assert 0.1 < z[-1] - z[start] <= 0.5 + 1e-6
