"""Helper blocks: signals (:class:`BlockSignal`, :class:`SignalBlock`),
fixed functions (:class:`LambdaBlock`, :class:`LinearBlock`,
:class:`Concatenate`), limits (:class:`Clamp`, :class:`LimitExceeded`),
:class:`Distance`, :class:`WorldCollision`, :class:`If` and :class:`Mux`.
"""
import inspect
import math

from .core import Block
from ...math import vectorops
from ...model.collide import WorldCollider


class BlockSignal(RuntimeError):
    """Raised by a block to signal its parent; ``signal`` names it (e.g.
    'softStop', 'warn', 'change_state')."""

    def __init__(self, signal, text):
        RuntimeError.__init__(self, text)
        self.signal = signal
        self.text = text

    @property
    def type(self):
        """The signal name (older spelling)."""
        return self.signal


class SignalBlock(Block):
    """Raises BlockSignal(type, text) when its input is nonzero."""

    def __init__(self, type, text):
        self.type = type
        self.text = text
        Block.__init__(self, ['signal'], 0)

    def advance(self, signal):
        if signal:
            raise BlockSignal(self.type, self.text)


class LambdaBlock(Block):
    """Evaluates f on its inputs.  inputs='auto' names them after f's
    positional arguments; outputs='auto' is one output."""

    def __init__(self, f, inputs='auto', outputs='auto'):
        self.f = f
        if inputs == 'auto':
            spec = inspect.getfullargspec(f)
            inputs = list(spec.args)
            if inspect.ismethod(f) and inputs:
                inputs = inputs[1:]
        if outputs == 'auto':
            outputs = 1
        Block.__init__(self, inputs, outputs)

    def advance(self, *args, **kwargs):
        return self.f(*args, **kwargs)


class LinearBlock(Block):
    """output = A x + b (numpy)."""

    def __init__(self, A, b=None):
        Block.__init__(self, 1, 1)
        self.A = A
        self.b = b

    def advance(self, x):
        import numpy as np
        y = np.dot(self.A, x)
        return y + self.b if self.b is not None else y


class Concatenate(Block):
    """Concatenates its inputs (a count or names) into one vector."""

    def __init__(self, inputs):
        Block.__init__(self, inputs, 1)

    def advance(self, *args, **kwargs):
        import numpy as np
        if kwargs:
            args = [kwargs[k] for k, _ in sorted(self._inputs._names.items(), key=lambda kv: kv[1])]
        return np.hstack(args)


class Clamp(Block):
    """x restricted to [minimum, maximum] (scalars or vectors)."""

    def __init__(self):
        Block.__init__(self, ['x', 'minimum', 'maximum'], 1)

    def advance(self, x, minimum, maximum):
        if hasattr(x, '__iter__'):
            n = len(x)
            lo = minimum if hasattr(minimum, '__iter__') else [minimum] * n
            hi = maximum if hasattr(maximum, '__iter__') else [maximum] * n
            if len(lo) != n or len(hi) != n:
                raise ValueError("Clamp: x has %d entries, limits %d and %d" % (n, len(lo), len(hi)))
            return [min(max(v, a), b) for v, a, b in zip(x, lo, hi)]
        return min(max(x, minimum), maximum)


class LimitExceeded(Block):
    """1 if x leaves [minimum, maximum] anywhere, else 0."""

    def __init__(self):
        Block.__init__(self, ['x', 'minimum', 'maximum'], 1)

    def advance(self, x, minimum, maximum):
        if not hasattr(x, '__iter__'):
            return int(x < minimum or x > maximum)
        if len(x) != len(minimum) or len(x) != len(maximum):
            raise ValueError("LimitExceeded: x has %d entries, limits %d and %d" % (len(x), len(minimum), len(maximum)))
        for v, a, b in zip(x, minimum, maximum):
            if v < a or v > b:
                return 1
        return 0


class Distance(Block):
    """The L1, L2 or Linf distance between two vectors."""

    def __init__(self, metric=float('inf')):
        if metric not in (1, 2, math.inf):
            raise ValueError("Distance supports the L1, L2 and Linf metrics, got %r" % (metric,))
        self.metric = {1: vectorops.norm_L1, 2: vectorops.norm, math.inf: vectorops.norm_Linf}[metric]
        Block.__init__(self, 2, 1)

    def advance(self, x1, x2):
        if len(x1) != len(x2):
            raise ValueError("Distance: inputs have %d and %d entries" % (len(x1), len(x2)))
        return self.metric(vectorops.sub(x1, x2))


class WorldCollision(Block):
    """True if the world's robot 0 at driver values q collides with
    anything (a world or a WorldCollider)."""

    def __init__(self, world_or_collider):
        if isinstance(world_or_collider, WorldCollider):
            self.collider = world_or_collider
        else:
            self.collider = WorldCollider(world_or_collider)
        Block.__init__(self, ['q'], 1)

    def advance(self, q) -> bool:
        robot = self.collider.world.robot(0)
        robot.setConfig(robot.configFromDrivers(q))
        for _ in self.collider.collisions():
            return True
        return False


class If(Block):
    """truebranch if cond else falsebranch."""

    def __init__(self):
        Block.__init__(self, ['cond', 'truebranch', 'falsebranch'], 1)

    def advance(self, cond, truebranch, falsebranch):
        return truebranch if cond else falsebranch


class Mux(Block):
    """(index, case0, ..., case(k-1)) -> case[index]."""

    def __init__(self, k):
        Block.__init__(self, k + 1, 1)

    def advance(self, *args):
        index = int(args[0])
        if index < 0 or index >= len(args) - 1:
            raise IndexError("Mux index %d out of range [0, %d)" % (index, len(args) - 1))
        return args[index + 1]
