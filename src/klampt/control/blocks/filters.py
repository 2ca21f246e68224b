"""Signal filters as blocks: :class:`FIRFilter`."""
from collections import deque

from .core import Block


class FIRFilter(Block):
    """A finite impulse response filter with coefficients b:
    ``y[t] = b[0] x[t] + ... + b[k-1] x[t-k+1]`` (scalars or vectors);
    ``[1/k]*k`` is a moving average."""

    def __init__(self, b):
        if not hasattr(b, '__iter__') or len(b) == 0:
            raise ValueError("FIRFilter needs a non-empty coefficient list")
        Block.__init__(self, 1, 1)
        self.b = list(b)
        self.history = deque()

    def advance(self, x):
        vector = hasattr(x, '__iter__')
        samples = [x] + list(self.history)
        if vector:
            res = [0.0] * len(x)
            for c, s in zip(self.b, samples):
                res = [r + c * v for r, v in zip(res, s)]
        else:
            res = sum(c * s for c, s in zip(self.b, samples))
        self.history.appendleft(list(x) if vector else x)
        while len(self.history) >= len(self.b):
            self.history.pop()
        return res

    def __getstate__(self):
        return {'history': list(self.history), 'b': self.b}

    def __setstate__(self, state):
        self.history = deque(state['history'])
        self.b = state['b']

    def signal(self, type, *args):
        if type == 'reset':
            self.history = deque()
