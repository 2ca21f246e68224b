"""Online linear system identification as blocks."""
from .core import Block
from ..system_id import LinearSystemID


class LinearSystemIDBlock(Block):
    """Fits y ~= A x + B u + C online; inputs y, x, u; outputs A, B, C."""

    def __init__(self, m, n):
        self.estimator = LinearSystemID(m, n)
        Block.__init__(self, ['y', 'x', 'u'], ['A', 'B', 'C'])

    def advance(self, y, x, u):
        self.estimator.add(x, u, y)
        return self.estimator.getModel()


class LinearSystemIDPredictionBlock(Block):
    """Predicts y from (x, u) with the model fitted so far; the observed
    ylast of the previous step updates the model first."""

    def __init__(self, m, n):
        Block.__init__(self, ['x', 'u', 'ylast'], ['y'])
        self.xlast = None
        self.ulast = None
        self.estimator = LinearSystemID(m, n)

    def advance(self, x, u, ylast):
        if self.xlast is not None:
            self.estimator.add(self.xlast, self.ulast, ylast)
        ypred = self.estimator.getOutput(x, u)
        self.xlast = x
        self.ulast = u
        return ypred
