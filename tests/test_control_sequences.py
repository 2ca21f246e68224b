"""Klampt-examples ``controller_test.py`` ``test_completer``: a
RobotInterfaceCompleter over each of the five simulated bases, built as
that test builds them (the kinematic base on ``sim.controller(0).model()``),
runs MoveSequence 1 (and, for T7, sequences 0 and 3), with the assertions
the original lacks: where the arm is at each stage of the sequence, that
``isMoving()`` ends when ``destinationTime()`` said, where the tool ends,
and that no command leaves the driver limits (acceptance criterion 12,
T7).

The original's second world, ``robots/jaco.rob``, is not in the shared
data; ``robots/tx90pr2.rob`` (the arm with a one-driver gripper, so the
Cartesian link is the gripper's) takes its place, as the spec allows."""
import warnings

import pytest

from conftest import load_shared_world
from control_helpers import BASES, TOL, driver_limits, max_abs_diff

import klampt
from klampt.control import simrobotinterface as sri
from klampt.control.robotinterfaceutils import RobotInterfaceCompleter, StepContext
from klampt.math import so3, vectorops

GOAL = [0.5, 0, 1.0]
WORLDS = ['tx90scenario0.xml', 'robots/tx90pr2.rob']


class MoveSequence:
    """controller_test's MoveSequence: commands issued at given clock
    times, each once, when the clock passes its trigger."""

    def __init__(self, controller, index):
        c = controller
        q = c.commandedPosition()
        self.q = q
        self.up = up = q[:2] + [q[2] + 1.0] + q[3:]
        self.down = down = q[:2] + [q[2] - 1.0] + q[3:]
        self.q2 = q2 = list(q)
        q2[2] -= 1.0
        q2[3] -= 1.0
        if index == 0:
            moves = [(1.0, lambda: c.setPiecewiseLinear([1], [up]))]
        elif index == 1:
            moves = [(0.5, lambda: c.setVelocity([0] * 2 + [1.0] + [0] * (len(q) - 3), 1.0)),
                     (0.6, lambda: c.moveToCartesianPosition((so3.identity(), GOAL))),
                     (1.0, lambda: c.setPiecewiseLinear([1], [up])),
                     (3.0, lambda: c.setPiecewiseCubic([1], [q], [[0] * len(q)])),
                     (3.5, lambda: c.moveToPosition(down)),
                     (5.0, lambda: c.moveToPosition(q, 0.1)),
                     (5.5, lambda: c.moveToPosition(q2, 1.0)),
                     (8.0, lambda: c.moveToCartesianPosition((so3.identity(), GOAL))),
                     (10.0, lambda: c.setCartesianVelocity([0, 0, 0.2], 3.0)),
                     (11.0, lambda: c.moveToCartesianPosition((so3.identity(), GOAL)))]
        elif index == 2:
            moves = [(0.5, lambda: c.moveToCartesianPosition((so3.identity(), GOAL))),
                     (2.0, lambda: c.setCartesianVelocity([0, 0, 0.1], 5.0)),
                     (3.0, lambda: c.moveToCartesianPosition((so3.identity(), GOAL)))]
        elif index == 3:
            moves = [(0.5, lambda: c.moveToCartesianPosition((so3.identity(), GOAL))),
                     (2.0, lambda: c.setCartesianVelocity([0, 0, 0.1], 5.0))]
        else:
            raise ValueError("Invalid move index")
        self.moves = moves
        self.controller = c
        self.start_clock = self.last_clock = c.clock()
        self.fired = []

    def done(self):
        return self.last_clock - self.start_clock >= self.moves[-1][0] + 2.0

    def update(self):
        t = self.controller.clock()
        for trigger, callback in self.moves:
            if t > trigger and self.last_clock <= trigger:
                callback()
                self.fired.append(trigger)
        self.last_clock = t


def make_controller(world, kind):
    """test_completer's set-up: world, simulator, base, Completer."""
    w = load_shared_world(world, quiet=True)
    sim = klampt.Simulator(w)
    if kind == 'Kinematic':
        base = sri.KinematicSimControlInterface(sim.controller(0).model())
    else:
        base = getattr(sri, 'Sim%sControlInterface' % kind)(sim.controller(0), sim)
    c = RobotInterfaceCompleter(base)
    if not c.initialize():
        raise RuntimeError("There was some problem initializing controller " + str(c))
    c.setToolCoordinates([0, 0, 0])
    return c, w, sim


def scenario(kind, world='tx90scenario0.xml'):
    c, w, sim = make_controller(world, kind)
    return c, w


class Record:
    """What every step of a run saw: clock, commanded and sensed positions,
    commanded tool pose, isMoving(), destinationTime(), and the triggers
    fired in the step."""

    def __init__(self):
        self.rows = []

    def __call__(self, c, fired):
        self.rows.append(dict(t=c.clock(), qcmd=c.commandedPosition(), qsns=c.sensedPosition(),
                              T=c.commandedCartesianPosition(), moving=c.isMoving(),
                              dest=c.destinationTime(), fired=fired))

    def before(self, t):
        """The last step whose clock was at most t (before a trigger at t
        fired)."""
        return [r for r in self.rows if r['t'] <= t][-1]


def run_sequence(c, index, watch=None):
    """test_completer's loop; watch(c, triggers fired this step) runs at the
    end of every step."""
    moves = MoveSequence(c, index)
    steps = 0
    while c.status() == 'ok' and not moves.done():
        with StepContext(c):
            n = len(moves.fired)
            moves.update()
            if watch is not None:
                watch(c, moves.fired[n:])
        steps += 1
    return moves, steps


@pytest.mark.parametrize('kind', BASES)
@pytest.mark.parametrize('world', WORLDS)
def test_completer(world, kind):
    c, w, sim = make_controller(world, kind)
    r = w.robot(0)
    assert c.numJoints() == r.numDrivers()
    assert c.klamptModel() is not None
    assert c.klamptModel().numLinks() == r.numLinks()
    dt = 1.0 / c.controlRate()
    assert dt == (0.005 if kind == 'Kinematic' else 0.01)
    qmin, qmax = driver_limits(r)
    rec = Record()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        moves, steps = run_sequence(c, 1, rec)
    # every target of the sequence is reachable: no best-effort warning
    assert not [m for m in caught if 'not reached' in str(m.message)]
    assert c.status() == 'ok'
    assert moves.done()
    assert moves.fired == [t for t, _ in moves.moves]
    # 13 s of simulated time, one step per control period
    duration = rec.rows[-1]['t'] - moves.start_clock
    assert 13.0 - 1e-9 <= duration <= 13.0 + 2 * dt
    assert steps == pytest.approx(13.0 / dt, abs=2)
    # no command ever left the driver limits
    for row in rec.rows:
        for a, x, b in zip(qmin, row['qcmd'], qmax):
            assert a - 1e-9 <= x <= b + 1e-9, (row['t'], x, a, b)

    # where the arm is before each new command: the linear move of 1.0 s
    # ended at the raised elbow, the move at 5.5 s at q2, the Cartesian
    # move of 8.0 s at the goal, the 0.2 m/s Cartesian velocity raised the
    # tool for 1 s
    row = rec.before(3.0)
    assert max_abs_diff(row['qcmd'], moves.up) < 1e-9 and not row['moving']
    row = rec.before(8.0)
    assert max_abs_diff(row['qcmd'], moves.q2) < 1e-9 and not row['moving']
    at_goal = rec.before(10.0)
    assert vectorops.distance(at_goal['T'][1], GOAL) < 1e-3
    assert so3.distance(at_goal['T'][0], so3.identity()) < 2e-3
    assert not at_goal['moving']
    row = rec.before(11.0)
    rise = vectorops.sub(row['T'][1], at_goal['T'][1])
    assert rise[2] == pytest.approx(0.2, abs=0.01)
    assert abs(rise[0]) < 1e-3 and abs(rise[1]) < 1e-3
    assert row['moving']

    # when: after each command, isMoving() ends at the destinationTime()
    # it reported, unless the next command came first
    triggers = [t for t, _ in moves.moves]
    checked = []
    for k, row in enumerate(rec.rows):
        if not row['fired']:
            continue
        trigger = row['fired'][-1]
        nxt = triggers[triggers.index(trigger) + 1] if trigger != triggers[-1] else float('inf')
        dest = row['dest']
        assert row['moving'], trigger
        assert dest > row['t'], trigger
        if dest >= nxt:
            continue
        later = [r for r in rec.rows[k:] if r['t'] < nxt + 1e-9]
        stopped = next(r['t'] for r in later if not r['moving'])
        assert dest - 1e-9 <= stopped <= dest + dt + 1e-9, (trigger, dest, stopped)
        checked.append(trigger)
    # the linear move, the moves at 5.5 s and both Cartesian moves to the
    # goal ran to their end
    assert {1.0, 5.5, 8.0, 11.0} <= set(checked), checked
    # the last command: back to the goal, ended, sensed on it
    end = rec.rows[-1]
    assert not end['moving']
    assert vectorops.distance(end['T'][1], GOAL) < 1e-3
    assert so3.distance(end['T'][0], so3.identity()) < 2e-3
    tol = TOL + [0.01] * (len(end['qcmd']) - len(TOL))
    for x, y, e in zip(end['qcmd'], end['qsns'], tol):
        assert abs(x - y) <= e


def test_sequence_0_is_one_exact_linear_move():
    c, w = scenario('Position')
    rec = Record()
    moves, steps = run_sequence(c, 0, rec)
    assert c.status() == 'ok'
    # the move starts after 1.0 s and lasts 1 s
    assert max_abs_diff(rec.before(1.0)['qcmd'], moves.q) < 1e-12
    assert rec.before(1.5)['moving']
    assert rec.before(1.5)['qcmd'][2] == pytest.approx(moves.q[2] + 0.5, abs=0.011)
    assert max_abs_diff(rec.rows[-1]['qcmd'], moves.up) < 1e-9
    assert not rec.before(2.02)['moving']


def test_sequence_3_drives_upward_until_the_workspace_ends():
    c, w = scenario('Position')
    rec = Record()
    moves, steps = run_sequence(c, 3, rec)
    assert c.status() == 'ok'
    z = [r['T'][1][2] for r in rec.rows]
    start = int(round(2.1 * c.controlRate()))
    rise = [b - a for a, b in zip(z[start:], z[start + 1:])]
    assert min(rise) >= -1e-6
    assert 0.1 < z[-1] - z[start] <= 0.5 + 1e-6
