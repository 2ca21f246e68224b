"""klampt.math.optimize: local and global solvers on Python functions and on
symbolic problems, checked against closed-form optima and scipy run
directly on the same problems."""
import numpy as np
import pytest
from scipy import optimize as sciopt

from klampt.math import optimize, symbolic


def rosenbrock(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


def rosenbrock_grad(x):
    return np.array([-2 * (1 - x[0]) - 400 * x[0] * (x[1] - x[0] ** 2), 200 * (x[1] - x[0] ** 2)])


@pytest.mark.parametrize("method", ["scipy", "scipy.BFGS", "scipy.L-BFGS-B", "scipy.Nelder-Mead"])
def test_local_rosenbrock_matches_scipy(method):
    p = optimize.OptimizationProblem()
    p.setObjective(rosenbrock, rosenbrock_grad)
    opt = optimize.LocalOptimizer(method)
    opt.setSeed([-1.2, 1.0])
    success, x = opt.solve(p, numIters=5000, tol=1e-10)
    assert success
    assert np.allclose(x, [1.0, 1.0], atol=1e-3)
    scipy_method = method.split('.')[1] if '.' in method else 'SLSQP'
    jac = None if scipy_method == 'Nelder-Mead' else rosenbrock_grad
    ref = sciopt.minimize(rosenbrock, [-1.2, 1.0], jac=jac, method=scipy_method, tol=1e-10, options={'maxiter': 5000})
    assert np.allclose(x, ref.x, atol=1e-6)


def qp_problem():
    """min |x-(2,1)|^2 s.t. x0+x1=1, x1>=0.25: the projection of (2,1) onto
    the line is (1,0), which violates x1>=0.25, so the optimum is
    (0.75,0.25)."""
    p = optimize.OptimizationProblem()
    c = np.array([2.0, 1.0])
    p.setObjective(lambda x: float(np.dot(x - c, x - c)), lambda x: 2 * (np.asarray(x) - c))
    p.addEquality(lambda x: [x[0] + x[1] - 1], lambda x: [[1.0, 1.0]])
    p.addInequality(lambda x: [0.25 - x[1]], lambda x: [[0.0, -1.0]])
    return p


def test_constrained_qp_closed_form():
    p = qp_problem()
    opt = optimize.LocalOptimizer('scipy.SLSQP')
    opt.setSeed([0.0, 0.0])
    success, x = opt.solve(p)
    assert success
    assert np.allclose(x, [0.75, 0.25], atol=1e-6)
    assert p.feasible(x)
    assert not p.feasible([1.0, 0.0])
    assert p.objectiveValue(x) == pytest.approx(1.25 ** 2 + 0.75 ** 2)
    assert np.allclose(p.equalityResidual(x), [0.0], atol=1e-8)
    assert p.inequalityResidual(x)[0] <= 1e-8


def test_bounds_limit_the_solution():
    p = optimize.OptimizationProblem()
    p.setObjective(lambda x: (x[0] - 3) ** 2 + (x[1] + 2) ** 2)
    p.setBounds([-1, -1], [1, 1])
    opt = optimize.LocalOptimizer('scipy.L-BFGS-B')
    opt.setSeed([0.0, 0.0])
    success, x = opt.solve(p)
    assert success and np.allclose(x, [1.0, -1.0], atol=1e-6)


def test_constraints_refused_by_unconstrained_method():
    opt = optimize.LocalOptimizer('scipy.BFGS')
    opt.setSeed([0.0, 0.0])
    with pytest.raises(ValueError, match="constraints"):
        opt.solve(qp_problem())
    with pytest.raises(ValueError):
        optimize.LocalOptimizer('matlab')
    with pytest.raises(RuntimeError, match="seed"):
        optimize.LocalOptimizer('scipy').solve(qp_problem())


def test_methods_appropriate():
    assert 'scipy.SLSQP' in optimize.LocalOptimizer.methodsAppropriate(qp_problem())
    assert 'scipy.BFGS' not in optimize.LocalOptimizer.methodsAppropriate(qp_problem())
    assert 'scipy.BFGS' in optimize.LocalOptimizer.methodsAvailable()


def test_global_methods_find_the_global_minimum():
    # Rastrigin-like: many local minima, the global one at x=(0.5,-0.5)
    def f(x):
        y = np.asarray(x) - [0.5, -0.5]
        return float(10 * len(y) + np.sum(y ** 2 - 10 * np.cos(2 * np.pi * y)))
    p = optimize.OptimizationProblem()
    p.setObjective(f)
    p.setBounds([-3, -3], [3, 3])
    # scipy's global methods draw from numpy's global generator: seeded, a run repeats
    np.random.seed(0)
    for method, iters in [('scipy.differential_evolution', 300), ('scipy.dual_annealing', 300)]:
        success, x = optimize.GlobalOptimizer(method).solve(p, iters)
        assert success, method
        assert np.allclose(x, [0.5, -0.5], atol=1e-3), method
    np.random.seed(0)
    import random
    random.seed(1)
    success, x = optimize.GlobalOptimizer('random-restart.scipy.L-BFGS-B').solve(p, [60, 200])
    assert success and f(x) < 1e-6


def test_cascade_and_constrained_global():
    p = qp_problem()
    p.setBounds([-2, -2], [2, 2])
    success, x = optimize.GlobalOptimizer(['scipy.differential_evolution', 'scipy.SLSQP']).solve(p, [100, 100])
    assert success and np.allclose(x, [0.75, 0.25], atol=1e-6)


def test_missing_optional_packages_named():
    p = optimize.OptimizationProblem()
    p.setObjective(rosenbrock)
    p.setBounds([-2, -2], [2, 2])
    try:
        import DIRECT  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="DIRECT"):
            optimize.GlobalOptimizer('DIRECT').solve(p)
    try:
        import pyOpt  # noqa: F401
    except ImportError:
        opt = optimize.LocalOptimizer('pyOpt.SLSQP')
        opt.setSeed([0, 0])
        with pytest.raises(ImportError, match="pyOpt"):
            opt.solve(p)


def test_sample_range():
    import random
    random.seed(3)
    assert all(-1 <= optimize.sample_range(-1, 2) <= 2 for _ in range(200))
    assert all(optimize.sample_range(5, float('inf')) >= 5 for _ in range(200))
    assert all(optimize.sample_range(-float('inf'), -5) <= -5 for _ in range(200))
    both = [optimize.sample_range(-float('inf'), float('inf')) for _ in range(400)]
    assert min(both) < 0 < max(both)
    with pytest.raises(ValueError):
        optimize.sample_range(2, 1)


def symbolic_qp():
    ctx = symbolic.Context()
    x = ctx.addVar('x', 'V', 2)
    b = optimize.OptimizationProblemBuilder(ctx)
    b.optimizationVariables = [x]
    c = np.array([2.0, 1.0])
    b.addCost(symbolic.dot(x - c, x - c))
    b.addEquality(x[0] + x[1] - 1)
    b.addInequality(0.25 - x[1])
    b.setBounds('x', [-5, -5], [5, 5])
    return ctx, x, b


def test_builder_solves_qp():
    ctx, x, b = symbolic_qp()
    x.bind(np.array([0.0, 0.0]))
    assert not b.isFeasible()
    assert b.solve(optimize.OptimizerParams(localMethod='scipy', tol=1e-8))
    assert np.allclose(x.value, [0.75, 0.25], atol=1e-6)
    assert b.isFeasible()
    assert b.cost() == pytest.approx(1.25 ** 2 + 0.75 ** 2, abs=1e-6)
    assert b.satisfiesEqualities() and b.satisfiesInequalities()
    assert b.score() == pytest.approx(b.cost(), abs=1e-6)


def test_builder_symbolic_residuals_and_problem():
    ctx, x, b = symbolic_qp()
    x.bind(np.array([1.0, 0.0]))
    assert np.allclose(b.equalityResidual(), [0.0])
    assert np.allclose(b.inequalityResidual(), [0.25])
    p = b.getProblem()
    assert p.objective([1.0, 0.0]) == pytest.approx(2.0)
    assert np.allclose(p.objectiveGrad([1.0, 0.0]), [-2.0, -2.0])
    assert np.allclose(p.bounds[0], [-5, -5]) and np.allclose(p.bounds[1], [5, 5])
    assert len(p.equalities) == 1 and len(p.inequalities) == 1
    x.unbind()
    assert b.isFeasibleSymbolic().eval({'x': np.array([0.75, 0.25])})
    assert not b.isFeasibleSymbolic().eval({'x': np.array([1.0, 0.0])})


def test_builder_fixed_entries_are_preprocessed_away():
    ctx, x, b = symbolic_qp()
    b.setBounds('x', [-5, 0.5], [5, 0.5])
    x.bind(np.array([0.0, 0.5]))
    p, toSelf, toP = b.preprocess()
    assert p is not b and p.optimizationVariables[0].type.size == 1
    assert b.solve(optimize.OptimizerParams(localMethod='scipy', tol=1e-8))
    assert np.allclose(x.value, [0.5, 0.5], atol=1e-6)


def test_soft_equality_is_penalized():
    ctx = symbolic.Context()
    x = ctx.addVar('x', 'N')
    b = optimize.OptimizationProblemBuilder(ctx)
    b.optimizationVariables = [x]
    b.addCost(x * x)
    b.addEquality(x - 1, weight=3.0)     # min x^2 + 3(x-1)^2 -> x = 3/4
    x.bind(0.0)
    assert b.solve(optimize.OptimizerParams(localMethod='scipy.BFGS', tol=1e-10))
    assert x.value == pytest.approx(0.75, abs=1e-5)


def test_symbolic_constraint_conversion():
    ctx = symbolic.Context()
    x = ctx.addVar('x', 'V', 2)
    p = optimize.OptimizationProblem()
    p.setSymbolicObjective(symbolic.dot(x, x), ctx)
    p.addSymbolicConstraint(symbolic.and_(x <= np.array([3.0, 3.0]), symbolic.ge(x[0] + x[1], 1.0)), ctx)
    assert np.allclose(p.bounds[1], [3, 3]) and np.all(np.isinf(p.bounds[0]))
    assert len(p.inequalities) == 1
    opt = optimize.LocalOptimizer('scipy')
    opt.setSeed([2.0, 0.0])
    success, sol = opt.solve(p, tol=1e-10)
    assert success and np.allclose(sol, [0.5, 0.5], atol=1e-6)


def test_params_json_and_builder_json_round_trip():
    params = optimize.OptimizerParams(numIters=7, localMethod='scipy')
    other = optimize.OptimizerParams()
    other.fromJson(params.toJson())
    assert other.numIters == 7 and other.localMethod == 'scipy'
    ctx, x, b = symbolic_qp()
    loaded = optimize.OptimizationProblemBuilder()
    loaded.fromJson(b.toJson())
    y = loaded.optimizationVariables[0]
    y.bind(np.array([0.0, 0.0]))
    assert loaded.solve(optimize.OptimizerParams(localMethod='scipy', tol=1e-8))
    assert np.allclose(y.value, [0.75, 0.25], atol=1e-6)
    with pytest.raises(ValueError):
        loaded.fromJson({'type': 'Other'})
    with pytest.raises(ValueError):
        optimize.OptimizationObjective(x, 'maybe')


def test_module_docstring_example():
    code = optimize.__doc__.split("Example::")[1]
    namespace = vars(optimize).copy()
    exec(compile("\n".join(line[4:] for line in code.splitlines()), "example", "exec"), namespace)
    assert namespace['success'] and np.allclose(namespace['x'], [1, 1], atol=1e-4)


def test_global_auto_and_params_random_restart():
    import random
    random.seed(5)
    p = qp_problem()
    p.setBounds([-2, -2], [2, 2])
    success, x = optimize.GlobalOptimizer('auto').solve(p, [3, 100])
    assert success and np.allclose(x, [0.75, 0.25], atol=1e-6)
    params = optimize.OptimizerParams(numRestarts=3, localMethod='scipy', tol=1e-8)
    success, x = params.solve(p)
    assert success and np.allclose(x, [0.75, 0.25], atol=1e-6)
