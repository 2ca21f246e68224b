"""Classes to set up and solve nonlinear, constrained optimization problems,
locally or globally.  Wraps scipy (and, when installed, pyOpt or DIRECT).

Works well with the :mod:`klampt.math.symbolic` module: see
:class:`OptimizationProblem` for plain Python functions and
:class:`OptimizationProblemBuilder` for symbolic problems that can be saved
to JSON.

Example::

    p = OptimizationProblem()
    p.setObjective(lambda x: (1 - x[0])**2 + 100*(x[1] - x[0]**2)**2)
    opt = LocalOptimizer('scipy.Nelder-Mead')
    opt.setSeed([-1.0, 1.0])
    success, x = opt.solve(p, numIters=1000)    # True, x close to [1, 1]
"""

from ._optimization_problem import OptimizationProblem
from ._optimizers import GlobalOptimizer, LocalOptimizer, OptimizerParams, sample_range
from ._optimization_builder import OptimizationObjective, OptimizationProblemBuilder

__all__ = ['OptimizationProblem', 'LocalOptimizer', 'GlobalOptimizer', 'OptimizerParams', 'sample_range',
           'OptimizationObjective', 'OptimizationProblemBuilder']

# Documented, printed and pickled as this module's, as in Klamp't.
for _obj in (OptimizationProblem, LocalOptimizer, GlobalOptimizer, OptimizerParams, sample_range,
             OptimizationObjective, OptimizationProblemBuilder):
    _obj.__module__ = __name__
del _obj
