"""State estimators as blocks: :class:`Differentiator` (finite differences)
and :class:`Integrator` (trapezoidal rule), for scalars or vectors."""
from .core import Block


def _scale(x, c):
    return [v * c for v in x] if hasattr(x, '__iter__') else x * c


def _add(a, b):
    return [u + v for u, v in zip(a, b)] if hasattr(a, '__iter__') else a + b


class Differentiator(Block):
    """dx = (x - xlast) / dt; with a robot, configuration differences use
    ``robot.interpolateDeriv`` (correct for spin joints).  The first output
    is zero.

    Accepts scalars as well as vectors (the reference raises TypeError for
    scalars and calls a misspelled interpolate_deriv)."""

    def __init__(self, robot=None):
        self.robot = robot
        self.xlast = None
        Block.__init__(self, ['dt', 'x'], ['dx'])

    def __getstate__(self):
        return {'last': self.xlast}

    def __setstate__(self, state):
        self.xlast = state['last']

    def advance(self, dt, x):
        vector = hasattr(x, '__iter__')
        if vector and len(x) == 0:
            return None
        if self.xlast is None:
            dx = [0.0] * len(x) if vector else 0.0
        elif self.robot is not None and vector:
            if len(self.xlast) != len(x):
                raise ValueError("Differentiator: input size changed from %d to %d" % (len(self.xlast), len(x)))
            dx = _scale(list(self.robot.interpolateDeriv(self.xlast, x)), 1.0 / dt)
        else:
            dx = _scale(_add(x, _scale(self.xlast, -1.0)), 1.0 / dt)
        self.xlast = list(x) if vector else x
        return dx

    def signal(self, type, *args):
        if type == 'reset':
            self.xlast = None


class Integrator(Block):
    """The trapezoidal integral of x over time (dt per step)."""

    def __init__(self):
        self.integral = None
        self.xlast = None
        Block.__init__(self, ['dt', 'x'], ['Ix'])

    def __getstate__(self):
        return {'integral': self.integral, 'last': self.xlast}

    def __setstate__(self, state):
        self.integral = state['integral']
        self.xlast = state['last']

    def advance(self, dt, x):
        vector = hasattr(x, '__iter__')
        if vector and len(x) == 0:
            return None
        if self.integral is None:
            self.integral = [0.0] * len(x) if vector else 0.0
        else:
            self.integral = _add(self.integral, _scale(_add(x, self.xlast), 0.5 * dt))
        self.xlast = list(x) if vector else x
        return self.integral

    def signal(self, type, *args):
        if type == 'reset':
            self.integral = None
            self.xlast = None
