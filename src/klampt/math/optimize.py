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

import math
import random
import warnings

import numpy as np

from . import symbolic, symbolic_io, symbolic_linalg

_SCIPY_LOCAL_METHODS = ['Nelder-Mead', 'Powell', 'CG', 'BFGS', 'TNC', 'COBYLA', 'L-BFGS-B', 'SLSQP']
_SCIPY_CONSTRAINED_METHODS = ['SLSQP', 'COBYLA', 'trust-constr']
_PYOPT_METHODS = ['SLSQP', 'PSQP', 'SNOPT', 'COBYLA', 'NLPQL', 'NLPQLP', 'MMA', 'GCMMA', 'KSOPT']


def _import_optional(name, purpose):
    try:
        return __import__(name)
    except ImportError as e:
        raise ImportError("%s needs the %r package, which is not installed" % (purpose, name)) from e


class OptimizationProblem:
    """A holder for optimization problem data.  All attributes are optional,
    and some solvers can't handle certain types of constraints and costs.

    The objective function returns a float; equality and inequality functions
    return lists (vectors) of floats.

    Attributes:
        objective (function): the objective f(x).
        objectiveGrad (function): its gradient df/dx(x), or None.
        bounds (tuple): a pair (xmin,xmax) of lower and upper bounds, or None.
        equalities (list of functions): functions g(x) with g(x)=0 at a
            feasible solution (up to the solver's tolerance).
        equalityGrads (list of functions): their Jacobians (or None each).
        inequalities (list of functions): functions h(x) with h(x) <= 0 at a
            feasible solution.
        inequalityGrads (list of functions): their Jacobians (or None each).
        feasibilityTests (list of functions): black-box predicates that must
            be true of a solution.

    :meth:`setSymbolicObjective` and :meth:`addSymbolicConstraint` take
    :mod:`~klampt.math.symbolic` Expressions and turn them into flat Python
    functions of x (with ``context.makeFlatFunction``).
    """

    def __init__(self):
        self.objective = None
        self.objectiveGrad = None
        self.bounds = None
        self.equalities = []
        self.inequalities = []
        self.equalityGrads = []
        self.inequalityGrads = []
        self.feasibilityTests = []

    def setObjective(self, func, funcGrad=None):
        """Sets the objective f(x) and optionally its gradient."""
        self.objective = func
        self.objectiveGrad = funcGrad

    def addEquality(self, func, funcGrad=None):
        """Adds an equality constraint g(x)=0 and optionally its Jacobian."""
        self.equalities.append(func)
        self.equalityGrads.append(funcGrad)

    def addInequality(self, func, funcGrad=None):
        """Adds an inequality constraint h(x)<=0 and optionally its Jacobian."""
        self.inequalities.append(func)
        self.inequalityGrads.append(funcGrad)

    def setBounds(self, xmin, xmax):
        """Sets the lower and upper bounds on x."""
        if len(xmin) != len(xmax):
            raise ValueError("xmin and xmax must have the same length")
        self.bounds = (xmin, xmax)

    def setFeasibilityTest(self, test):
        """Replaces the feasibility tests with the single predicate test(x)."""
        self.feasibilityTests = [test]

    def addFeasibilityTest(self, test):
        """Adds a black-box predicate test(x) that must be true."""
        self.feasibilityTests.append(test)

    def setSymbolicObjective(self, func, context, varorder=None):
        """Sets the objective from a symbolic Function or Expression.  The
        optimization vector x is the flattened Variables of ``varorder``
        (default: all of the context's variables)."""
        if varorder is None:
            varorder = context.variables
        fpy, varorder = context.makeFlatFunction(func, varorder)
        dfpy, varorder = context.makeFlatFunctionDeriv(func, varorder)
        self.setObjective(fpy, dfpy)

    def _tighten_bounds(self, var, context, varorder, xmin=None, xmax=None):
        indices = context.getFlatVarRanges(varorder)
        names = [v.name for v in varorder]
        if var.name not in names:
            raise ValueError("Variable %s is not an optimization variable" % var.name)
        k = names.index(var.name)
        a, b = indices[k], indices[k + 1]
        n = indices[-1]
        if self.bounds is None:
            self.bounds = (np.full(n, -np.inf), np.full(n, np.inf))
        else:
            self.bounds = (np.asarray(self.bounds[0], dtype=float).copy(), np.asarray(self.bounds[1], dtype=float).copy())
        if xmin is not None:
            self.bounds[0][a:b] = np.maximum(self.bounds[0][a:b], xmin)
        if xmax is not None:
            self.bounds[1][a:b] = np.minimum(self.bounds[1][a:b], xmax)

    def _add_residual(self, lhs, rhs, context, varorder, adder):
        r = symbolic.simplify(lhs - rhs)
        if symbolic.expr(lhs).returnType().is_scalar() and symbolic.expr(rhs).returnType().is_scalar():
            r = symbolic.flatten(r)
        rpy, _ = context.makeFlatFunction(r, varorder)
        drpy, _ = context.makeFlatFunctionDeriv(r, varorder)
        adder(rpy, drpy)

    def addSymbolicConstraint(self, func, context, varorder=None, blackbox=False):
        """Adds a constraint from a symbolic Function or Expression: ``and``
        Expressions become several constraints, ``a <= b`` / ``a >= b``
        inequalities (or bounds, when one side is a Variable and the other a
        constant), ``a == b`` equalities, ``bound_contains(xmin,xmax,x)``
        bounds, and anything else a black-box feasibility test (with a
        warning unless ``blackbox`` is True)."""
        if varorder is None:
            varorder = context.variables
        if symbolic.is_op(func, "and"):
            for a in func.args:
                self.addSymbolicConstraint(a, context, varorder, blackbox)
        elif symbolic.is_op(func, "le"):
            lhs, rhs = func.args
            if symbolic.is_var(lhs) and symbolic.is_const(rhs):
                self._tighten_bounds(symbolic.to_var(lhs), context, varorder, xmax=symbolic.to_const(rhs))
            elif symbolic.is_var(rhs) and symbolic.is_const(lhs):
                self._tighten_bounds(symbolic.to_var(rhs), context, varorder, xmin=symbolic.to_const(lhs))
            else:
                self._add_residual(lhs, rhs, context, varorder, self.addInequality)
        elif symbolic.is_op(func, "ge"):
            self.addSymbolicConstraint(symbolic.le(func.args[1], func.args[0]), context, varorder, blackbox)
        elif symbolic.is_op(func, "eq"):
            self._add_residual(func.args[0], func.args[1], context, varorder, self.addEquality)
        elif (symbolic.is_op(func) and func.functionInfo.name.split('.')[-1] == 'bound_contains'
              and symbolic.is_const(func.args[0]) and symbolic.is_const(func.args[1]) and symbolic.is_var(func.args[2])):
            self._tighten_bounds(symbolic.to_var(func.args[2]), context, varorder,
                                 symbolic.to_const(func.args[0]), symbolic.to_const(func.args[1]))
        else:
            if not blackbox:
                warnings.warn("OptimizationProblem.addSymbolicConstraint(): turning %s into a black-box test" % (str(func),))
            fpy, _ = context.makeFlatFunction(func, varorder)
            self.addFeasibilityTest(fpy)

    def objectiveValue(self, x):
        """Returns the objective function value f(x)."""
        if self.objective is None:
            raise RuntimeError("No objective function set")
        return self.objective(x)

    def feasible(self, x, equalityTol=1e-6):
        """Returns True if x is within the bounds, meets the equalities to
        equalityTol and the inequalities, and passes the feasibility tests."""
        if self.bounds is not None:
            if any(v < a or v > b for v, a, b in zip(x, self.bounds[0], self.bounds[1])):
                return False
        for g in self.equalities:
            if any(abs(v) > equalityTol for v in np.atleast_1d(g(x))):
                return False
        for h in self.inequalities:
            if any(v > 0 for v in np.atleast_1d(h(x))):
                return False
        return all(f(x) for f in self.feasibilityTests)

    def equalityResidual(self, x):
        """Returns the stacked vector g(x) of the equality constraints."""
        if len(self.equalities) == 0:
            return []
        return np.hstack([g(x) for g in self.equalities])

    def inequalityResidual(self, x):
        """Returns the stacked vector h(x) of the inequality constraints."""
        if len(self.inequalities) == 0:
            return []
        return np.hstack([h(x) for h in self.inequalities])

    def makeUnconstrained(self, objective_scale, keep_bounds=True):
        """Returns a problem whose objective is the sum of the equality
        errors (max abs of each), the positive parts of the inequality
        residuals, and objective_scale*f(x); infeasible points (by the
        feasibility tests) score infinity.  For a small objective_scale the
        minimum is approximately a feasible minimum of this problem.  Returns
        self if the problem has no constraints other than bounds."""
        if not keep_bounds:
            raise NotImplementedError("Removing the bounds is not supported")
        if not self.feasibilityTests and not self.inequalities and not self.equalities:
            return self
        res = OptimizationProblem()
        res.bounds = self.bounds
        if not self.inequalities and not self.equalities:
            def feasObjective(x):
                if not all(f(x) for f in self.feasibilityTests):
                    return float('inf')
                return self.objective(x)
            res.setObjective(feasObjective, self.objectiveGrad)
            return res

        def flatObjective(x):
            if not all(f(x) for f in self.feasibilityTests):
                return float('inf')
            f = 0.0
            for g in self.equalities:
                f += float(np.max(np.abs(np.atleast_1d(g(x)))))
            for h in self.inequalities:
                f += float(np.sum(np.maximum(np.atleast_1d(h(x)), 0)))
            if self.objective is not None:
                f += objective_scale * self.objective(x)
            return f
        res.setObjective(flatObjective, None)
        return res


def _check_solution(problem, x, tol):
    """Clamps x to the bounds and returns (feasible, x): the equalities and
    inequalities must hold to max(tol,1e-6), as solvers meet them only up to
    a tolerance."""
    x = np.array(x, dtype=float)
    if problem.bounds is not None:
        x = np.minimum(np.maximum(x, np.asarray(problem.bounds[0], dtype=float)), np.asarray(problem.bounds[1], dtype=float))
    tol = max(tol, 1e-6)
    feasible = (all(np.all(np.abs(np.atleast_1d(g(x))) <= tol) for g in problem.equalities)
                and all(np.all(np.atleast_1d(h(x)) <= tol) for h in problem.inequalities)
                and all(f(x) for f in problem.feasibilityTests))
    return feasible, x


class LocalOptimizer:
    """A wrapper around local optimization libraries (minimization only).

    The method string can be:

    - 'auto': pyOpt if installed, else scipy.
    - 'scipy': scipy.optimize.minimize with SLSQP.
    - 'scipy.METHOD': scipy.optimize.minimize with method=METHOD.
    - 'pyOpt': pyOpt with SLSQP.
    - 'pyOpt.METHOD': pyOpt with the given method.
    """

    def __init__(self, method='auto'):
        if method == 'auto':
            try:
                import pyOpt  # noqa: F401
                method = 'pyOpt'
            except ImportError:
                method = 'scipy'
        if not isinstance(method, str) or method.split('.')[0] not in ('scipy', 'pyOpt'):
            raise ValueError("Invalid local optimization method %r" % (method,))
        self.method = method
        self.seed = None

    @staticmethod
    def methodsAvailable():
        """Returns the list of methods available on this system."""
        methods = []
        try:
            import pyOpt
            methods.append('pyOpt')
            methods += ['pyOpt.' + m for m in _PYOPT_METHODS if hasattr(pyOpt, m)]
        except ImportError:
            pass
        try:
            import scipy  # noqa: F401
            methods.append('scipy')
            methods += ['scipy.' + m for m in _SCIPY_LOCAL_METHODS]
        except ImportError:
            pass
        return methods

    @staticmethod
    def methodsAppropriate(problem):
        """Returns the available methods appropriate for the problem
        (constrained problems need SQP-type methods, bounded problems
        bound-handling ones)."""
        allmethods = LocalOptimizer.methodsAvailable()
        if problem.inequalities or problem.equalities:
            return [m for m in allmethods if m in ('scipy', 'pyOpt') or m.endswith('SQP') or m.endswith('SNOPT')]
        if problem.bounds is not None:
            return [m for m in allmethods if m in ('scipy', 'pyOpt')
                    or not any(m.endswith(x) for x in ['Nelder-Mead', 'Powell', 'CG', 'BFGS'])]
        return allmethods

    def setSeed(self, x):
        """Sets the starting point of the optimization."""
        self.seed = x

    def solve(self, problem, numIters=100, tol=1e-6):
        """Minimizes from the seed.  Returns a tuple (success,x): success is
        True if the solver converged to a point that is feasible (equalities
        met to max(tol,1e-6)), x is the final point (clamped to the
        bounds), as a list."""
        if self.seed is None:
            raise RuntimeError("Need to provide a seed state")
        if problem.objective is None:
            raise RuntimeError("Need to provide an objective function")
        if self.method.startswith('scipy'):
            return self._solve_scipy(problem, numIters, tol)
        return self._solve_pyopt(problem, numIters, tol)

    def _solve_scipy(self, problem, numIters, tol):
        from scipy import optimize
        items = self.method.split('.', 1)
        method = items[1] if len(items) > 1 else 'SLSQP'
        bounds = None
        if problem.bounds is not None:
            bounds = [(None if math.isinf(a) else a, None if math.isinf(b) else b) for a, b in zip(*problem.bounds)]
        constraints = []
        for g, dg in zip(problem.equalities, problem.equalityGrads):
            constraints.append({'type': 'eq', 'fun': g})
            if dg is not None:
                constraints[-1]['jac'] = dg
        for h, dh in zip(problem.inequalities, problem.inequalityGrads):
            # scipy's inequalities are c(x) >= 0
            constraints.append({'type': 'ineq', 'fun': (lambda x, h=h: -np.asarray(h(x), dtype=float))})
            if dh is not None:
                constraints[-1]['jac'] = (lambda x, dh=dh: -np.asarray(dh(x), dtype=float))
        if constraints and method not in _SCIPY_CONSTRAINED_METHODS:
            raise ValueError("scipy method %s can't handle constraints; use one of %s" % (method, _SCIPY_CONSTRAINED_METHODS))
        jac = problem.objectiveGrad if problem.objectiveGrad is not None and method not in ('Nelder-Mead', 'Powell', 'COBYLA') else None
        kwargs = {}
        if constraints:
            kwargs['constraints'] = constraints
        if bounds is not None and method not in ('CG', 'BFGS', 'COBYLA'):
            kwargs['bounds'] = bounds
        res = optimize.minimize(problem.objective, x0=np.asarray(self.seed, dtype=float), method=method, jac=jac,
                                tol=tol, options={'maxiter': numIters}, **kwargs)
        feasible, x = _check_solution(problem, res.x, tol)
        return bool(res.success) and feasible, x.tolist()

    def _solve_pyopt(self, problem, numIters, tol):
        pyOpt = _import_optional('pyOpt', "LocalOptimizer method %r" % self.method)
        items = self.method.split('.', 1)
        method = items[1] if len(items) > 1 else 'SLSQP'
        n = len(self.seed)
        bmin = np.full(n, -1e20)
        bmax = np.full(n, 1e20)
        if problem.bounds is not None:
            bmin = np.where(np.isinf(problem.bounds[0]), -1e20, problem.bounds[0])
            bmax = np.where(np.isinf(problem.bounds[1]), 1e20, problem.bounds[1])

        def constraints(x):
            parts = [np.atleast_1d(g(x)) for g in problem.equalities] + [np.atleast_1d(h(x)) for h in problem.inequalities]
            return np.hstack(parts).tolist() if parts else []
        neq = sum(len(np.atleast_1d(g(self.seed))) for g in problem.equalities)
        nineq = sum(len(np.atleast_1d(h(self.seed))) for h in problem.inequalities)

        def objfunc(x):
            fail = 0 if all(f(x) for f in problem.feasibilityTests) else 1
            return problem.objective(x), constraints(x), fail
        prob = pyOpt.Optimization('', objfunc)
        prob.addObj('f')
        for i in range(n):
            prob.addVar('x' + str(i), 'c', lower=bmin[i], upper=bmax[i], value=self.seed[i])
        if neq:
            prob.addConGroup('eq', neq, 'e')
        if nineq:
            prob.addConGroup('ineq', nineq, 'i')
        opt = getattr(pyOpt, method)()
        opt.setOption('IPRINT', -1)
        opt.setOption('MAXIT', numIters)
        opt.setOption('ACC', tol)
        sens = 'FD'
        grads = problem.equalityGrads + problem.inequalityGrads
        if problem.objectiveGrad is not None and all(g is not None for g in grads):
            def sens(x, f, g):
                rows = [np.atleast_2d(dg(x)) for dg in grads]
                return [np.asarray(problem.objectiveGrad(x)).tolist()], (np.vstack(rows).tolist() if rows else []), 0
        fstr, xstr, inform = opt(prob, sens_type=sens)
        feasible, x = _check_solution(problem, xstr, tol)
        return inform.get('value', 0) == 0 and feasible, x.tolist()


def sample_range(a, b):
    """Samples x in the range [a,b].

    * If the range is bounded, x ~ U(a,b).
    * If a=-inf and b is finite, x ~ b + log(y) with y ~ U(0,1) (similarly
      a - log(y) for a finite and b=inf).
    * If a=-inf and b=inf, x ~ s*log(y) with a random sign s in {-1,1}.
    """
    if a > b:
        raise ValueError("sample_range: empty range [%s,%s]" % (a, b))
    ainf, binf = math.isinf(a), math.isinf(b)
    if not ainf and not binf:
        return random.uniform(a, b)
    y = 1.0 - random.random()   # in (0,1], so log(y) is finite
    if ainf and binf:
        return random.choice((-1, 1)) * math.log(y)
    if ainf:
        return b + math.log(y)
    return a - math.log(y)


def _split_iters(numIters, default_local=100):
    if hasattr(numIters, '__iter__'):
        numIters = list(numIters)
        return numIters[0], numIters[1]
    return numIters, default_local


class GlobalOptimizer:
    """A wrapper around global optimization methods (minimization only).

    The method string can be:

    * 'auto': 'random-restart.scipy'.
    * 'random-restart.METHOD': random restarts of the local optimizer METHOD.
    * 'DIRECT': the DIRECT global optimizer (needs the DIRECT package).
    * 'scipy.differential_evolution' or 'scipy.dual_annealing': scipy's
      global methods.
    * 'scipy', 'scipy.METHOD', 'pyOpt', 'pyOpt.METHOD': a local optimizer
      from the seed (see :class:`LocalOptimizer`).

    The method can also be a list: a cascade in which each solver starts
    from the previous one's solution (feasible or not), e.g.
    ['DIRECT','auto']; the last solver's result is returned.

    Random restarts sample each component of the seed with
    :func:`sample_range` over the bounds; for random restarts numIters may
    be a pair (number of restarts, local iterations).  DIRECT,
    random-restart and scipy's global methods need a bounded search space.
    """

    def __init__(self, method='auto'):
        if method == 'auto':
            method = 'random-restart.scipy'
        self.method = method
        self.seed = None

    def setSeed(self, x):
        """Sets the starting point (used by local and random-restart methods)."""
        self.seed = x

    def solve(self, problem, numIters=100, tol=1e-6):
        """Returns a pair (solved,x) where solved is True if the solver
        found a valid solution, and x is the solution vector."""
        if isinstance(self.method, (list, tuple)):
            return self._solve_cascade(problem, numIters, tol)
        if self.method in ('scipy.differential_evolution', 'scipy.dual_annealing'):
            from scipy import optimize
            self._need_bounds(problem)
            flat = problem.makeUnconstrained(objective_scale=1e-5)
            bounds = list(zip(*flat.bounds))
            if self.method == 'scipy.differential_evolution':
                res = optimize.differential_evolution(flat.objective, bounds, maxiter=numIters, tol=tol)
            else:
                res = optimize.dual_annealing(flat.objective, bounds, maxiter=numIters, x0=self.seed)
            feasible, x = _check_solution(problem, res.x, tol)
            return feasible, x.tolist()
        if self.method == 'DIRECT':
            DIRECT = _import_optional('DIRECT', "GlobalOptimizer method 'DIRECT'")
            self._need_bounds(problem)
            flat = problem.makeUnconstrained(objective_scale=1e-5)
            best = [float('inf'), None]

            def objfunc(x, userdata):
                v = flat.objective(x)
                if v < userdata[0]:
                    userdata[0] = v
                    userdata[1] = [float(xi) for xi in x]
                return v
            DIRECT.solve(objfunc, problem.bounds[0], problem.bounds[1], eps=tol, maxT=numIters, maxf=40000,
                         algmethod=1, user_data=best)
            if best[1] is None:
                return False, None
            feasible, x = _check_solution(problem, best[1], tol)
            return feasible, x.tolist()
        if self.method.startswith('random-restart'):
            return self._solve_random_restart(problem, numIters, tol)
        if self.seed is None:
            raise RuntimeError("Local optimization method %s needs a seed" % (self.method,))
        opt = LocalOptimizer(self.method)
        opt.setSeed(self.seed)
        return opt.solve(problem, numIters, tol)

    def _need_bounds(self, problem):
        if problem.bounds is None:
            raise RuntimeError("Cannot use method %s without a bounded search space" % (self.method,))

    def _solve_cascade(self, problem, numIters, tol):
        seed = self.seed
        for i, m in enumerate(self.method):
            itersi = numIters[i] if hasattr(numIters, '__iter__') else numIters
            toli = tol[i] if hasattr(tol, '__iter__') else tol
            opt = LocalOptimizer(m) if m == 'auto' else GlobalOptimizer(m)
            opt.setSeed(seed)
            succ, xsol = opt.solve(problem, itersi, toli)
            if xsol is None:
                return False, None
            seed = list(xsol)
        return succ, seed

    def _solve_random_restart(self, problem, numIters, tol):
        self._need_bounds(problem)
        restarts, localIters = _split_iters(numIters)
        localmethod = self.method[len('random-restart.'):] or 'auto'
        lopt = LocalOptimizer(localmethod)
        seed = self.seed
        best = None
        fbest = float('inf')
        for _ in range(restarts):
            if seed is not None:
                x, seed = seed, None
            else:
                x = [sample_range(a, b) for a, b in zip(*problem.bounds)]
            lopt.setSeed(x)
            succ, x = lopt.solve(problem, localIters, tol)
            if succ:
                fx = problem.objective(x)
                if fx < fbest:
                    fbest, best = fx, x
        return best is not None, best


_PARAM_ATTRS = ['numIters', 'tol', 'startRandom', 'numRestarts', 'timeout', 'globalMethod', 'localMethod']


class OptimizerParams:
    """Parameters of an optimization run: numIters, tol, startRandom,
    numRestarts, timeout (seconds), globalMethod and localMethod (method
    strings of :class:`GlobalOptimizer` / :class:`LocalOptimizer`)."""

    def __init__(self, numIters=50, tol=1e-3, startRandom=False, numRestarts=1, timeout=10,
                 globalMethod=None, localMethod=None):
        self.numIters = numIters
        self.tol = tol
        self.startRandom = startRandom
        self.numRestarts = numRestarts
        self.timeout = timeout
        self.globalMethod = globalMethod
        self.localMethod = localMethod

    def toJson(self):
        """Returns a JSON-compatible dict of the parameters."""
        return dict((attr, getattr(self, attr)) for attr in _PARAM_ATTRS)

    def fromJson(self, obj):
        """Sets the parameters present in the dict obj."""
        for attr in _PARAM_ATTRS:
            if attr in obj:
                setattr(self, attr, obj[attr])

    def solve(self, optProblem, seed=None):
        """Globally or locally solves an :class:`OptimizationProblem` with
        these parameters, optionally from a seed, through
        :class:`GlobalOptimizer`.

        Returns:
            tuple: (success,x).
        """
        method = self.globalMethod
        numIters = self.numIters
        if self.globalMethod == 'random-restart' or (self.globalMethod is None and (self.numRestarts > 1 or not self.startRandom)):
            local = self.localMethod if self.localMethod is not None else 'auto'
            method = 'random-restart.' + local
            numIters = [self.numRestarts, self.numIters]
            if self.globalMethod is None and self.numRestarts <= 1 and seed is not None:
                method = local if local != 'auto' else LocalOptimizer('auto').method
                numIters = self.numIters
        elif self.localMethod is not None:
            if self.globalMethod is None:
                method = self.localMethod
            else:
                method = [self.globalMethod, self.localMethod]
                numIters = [self.numRestarts, self.numIters]
        elif method is None:
            method = 'auto'
        opt = GlobalOptimizer(method=method)
        if seed is not None:
            opt.setSeed(seed)
        return opt.solve(optProblem, numIters=numIters, tol=self.tol)


class OptimizationObjective:
    """An optimization cost function or constraint.

    Attributes:
        expr (symbolic.Expression): the function f(x).
        type (str): 'cost' (added to the cost, scalar), 'eq' (f(x)=0), 'ineq'
            (f(x)<=0) or 'feas' (a black-box test f(x) = True).
        soft (bool): if True, penalized in the cost: w*||f(x)||^2 for 'eq',
            w*I[f(x) != True] for 'feas'.
        weight (float): the weight of a cost or soft objective.
        name (str, optional): a name for this objective.
    """

    def __init__(self, expr, type, weight=None):
        if type not in ('cost', 'eq', 'ineq', 'feas'):
            raise ValueError("Objective type must be 'cost', 'eq', 'ineq' or 'feas', got %r" % (type,))
        self.expr = expr
        self.type = type
        self.weight = weight
        self.name = None
        if weight is None or type == 'cost':
            self.weight = 1 if weight is None else weight
            self.soft = False
        else:
            self.soft = True


def _as_expression(f, what):
    if isinstance(f, symbolic.Variable):
        return symbolic.expr(f)
    if not isinstance(f, symbolic.Expression):
        raise TypeError("%s must be a symbolic Expression or Function, got %s" % (what, type(f).__name__))
    return f


class OptimizationProblemBuilder:
    """A generalized optimization problem over symbolic Variables that can be
    saved to / loaded from JSON: lists of objectives, feasibility tests and
    costs, several optimization variables at once.

    Attributes:
        context (symbolic.Context): holds the optimization variables and any
            user data.
        objectives (list of OptimizationObjective): all costs and constraints.
        optimizationVariables (list of Variable): the optimized Variables.
        variableBounds (dict): variable name -> (xmin,xmax).

    Objectives given as :class:`symbolic.Function` are bound to the
    optimization variables (``context.bindFunction``).
    """

    def __init__(self, context=None):
        if context is None:
            context = symbolic.Context()
        self.context = context
        self.objectives = []
        self.optimizationVariables = []
        self.variableBounds = {}

    def _add(self, f, type, weight, what):
        if isinstance(f, symbolic.Function):
            if not self.optimizationVariables:
                raise ValueError("To add functions as objectives, optimizationVariables must be set")
            f = self.context.bindFunction(f, self.optimizationVariables)
        self.objectives.append(OptimizationObjective(_as_expression(f, what), type, weight))
        return self.objectives[-1]

    def addEquality(self, f, weight=None):
        """Adds f(x)=0 (f a Function of the optimization variables or an
        Expression).  With a weight it is soft: weight*||f(x)||^2 is added
        to the cost.  Returns the OptimizationObjective."""
        return self._add(f, 'eq', weight, "An equality")

    def addInequality(self, f, weight=None):
        """Adds an inequality f(x) <= 0.  Returns the OptimizationObjective."""
        return self._add(f, 'ineq', weight, "An inequality")

    def addCost(self, f, weight=1):
        """Adds weight*f(x) to the cost.  Returns the OptimizationObjective."""
        return self._add(f, 'cost', weight, "A cost")

    def addFeasibilityTest(self, f, weight=None):
        """Adds a black-box feasibility test f(x) (soft with a weight).
        Returns the OptimizationObjective."""
        return self._add(f, 'feas', weight, "A feasibility test")

    def setBounds(self, var, xmin=None, xmax=None):
        """Bounds the optimization variable var (a Variable or name); with
        no bounds given, removes its bounds."""
        if isinstance(var, symbolic.Variable):
            var = var.name
        if xmin is None and xmax is None:
            self.variableBounds.pop(var, None)
        else:
            self.variableBounds[var] = (xmin, xmax)

    def bind(self, **kwargs):
        """Binds the variables named by the keyword arguments."""
        for k, v in kwargs.items():
            self.context.variableDict[k].bind(v)

    def unbind(self, *args, **kwargs):
        """Unbinds the variables named by the arguments or keyword arguments."""
        for k in list(args) + list(kwargs.keys()):
            self.context.variableDict[k].unbind()

    def bindVars(self, *args):
        """Binds the optimization variables to the given values, in order."""
        for x, v in zip(self.optimizationVariables, args):
            x.bind(v)

    def unbindVars(self):
        """Unbinds all optimization variables."""
        for x in self.optimizationVariables:
            x.unbind()

    def getVarValues(self):
        """Returns the values bound to the optimization variables."""
        return [v.value for v in self.optimizationVariables]

    def setVarValues(self, s):
        """Binds the optimization variables to the values in s."""
        for v, var in zip(s, self.optimizationVariables):
            if v is None:
                var.unbind()
            else:
                var.bind(v)

    def getVarVector(self):
        """Returns the flattened values of the optimization variables."""
        return symbolic._flatten(*[v.value for v in self.optimizationVariables])

    def setVarVector(self, x):
        """Binds the optimization variables from a flat vector x."""
        ranges = self.context.getFlatVarRanges(self.optimizationVariables)
        for i, v in enumerate(self.optimizationVariables):
            seg = np.asarray(x[ranges[i]:ranges[i + 1]], dtype=float)
            if v.type.is_scalar():
                v.bind(float(seg[0]))
            elif v.type.char in 'AM':
                v.bind(seg.reshape(v.type.size))
            else:
                v.bind(seg)

    def randomVarBinding(self):
        """Samples values of all optimization variables uniformly within
        their bounds (see :func:`sample_range` for unbounded ones)."""
        inf = float('inf')
        for var in self.optimizationVariables:
            bnds = self.variableBounds.get(var.name)
            if var.type.is_scalar():
                var.bind(sample_range(*(bnds if bnds is not None else (-inf, inf))))
            else:
                if var.type.char != 'V' or var.type.size is None:
                    raise ValueError("Can only sample scalar or sized vector variables, not " + str(var.type))
                if bnds is None:
                    bnds = ([-inf] * var.type.size, [inf] * var.type.size)
                var.bind(np.array([sample_range(a, b) for a, b in zip(*bnds)]))

    def _need_bound(self):
        for v in self.optimizationVariables:
            if v.value is None:
                raise ValueError("All optimization variables must be bound (%s is not)" % v.name)

    def cost(self):
        """Evaluates the cost (including soft objectives) at the currently
        bound variables."""
        self._need_bound()
        csum = 0.0
        for obj in self.objectives:
            if obj.type == 'cost':
                csum += obj.weight * obj.expr.evalf(self.context)
            elif obj.soft:
                if obj.type == 'eq':
                    r = np.asarray(obj.expr.evalf(self.context), dtype=float)
                    csum += obj.weight * float(np.dot(r.ravel(), r.ravel()))
                elif obj.type == 'feas':
                    if not obj.expr.evalf(self.context):
                        csum += obj.weight
                else:
                    raise NotImplementedError("Soft inequalities")
        return csum

    def _residual(self, type, soft):
        self._need_bound()
        parts = [np.asarray(obj.expr.evalf(self.context), dtype=float).ravel() * obj.weight
                 for obj in self.objectives if obj.type == type and (not obj.soft or soft)]
        return np.hstack(parts) if parts else np.zeros(0)

    def equalityResidual(self, soft=True):
        """The stacked equality residuals at the currently bound state (0 at
        a feasible solution); includes soft equalities if soft is True."""
        return self._residual('eq', soft)

    def satisfiesEqualities(self, tol=1e-3):
        """True if every entry of the hard equality residual is within tol."""
        return all(abs(r) <= tol for r in self._residual('eq', False))

    def inequalityResidual(self, soft=False):
        """The stacked inequality residuals at the currently bound state
        (<= 0 at a feasible solution)."""
        return self._residual('ineq', soft)

    def satisfiesInequalities(self, margin=0):
        """True if every hard inequality residual is <= -margin."""
        return all(r <= -margin for r in self.inequalityResidual())

    def feasibilityTestsPass(self, soft=False):
        """True if the currently bound state passes the black-box tests."""
        self._need_bound()
        for obj in self.objectives:
            if obj.type == 'feas' and (not obj.soft or soft):
                if not obj.expr.evalf(self.context):
                    return False
        return True

    def inBounds(self):
        """True if all bounded variables are within their ranges."""
        for k, (xmin, xmax) in self.variableBounds.items():
            var = self.context.variableDict[k]
            if var.value is None:
                raise ValueError("All optimization variables must be bound (%s is not)" % k)
            x = np.asarray(var.value, dtype=float)
            if (xmin is not None and np.any(x < np.asarray(xmin))) or (xmax is not None and np.any(x > np.asarray(xmax))):
                return False
        return True

    def isFeasible(self, eqTol=1e-3):
        """True if the currently bound state is within bounds, meets the
        equalities (to eqTol) and inequalities, and passes the tests."""
        if not self.inBounds():
            return False
        if any(abs(r) > eqTol for r in self._residual('eq', False)):
            return False
        if any(r > 0 for r in self.inequalityResidual()):
            return False
        return self.feasibilityTestsPass()

    def _simplified(self, e):
        old = self.getVarValues()
        self.unbindVars()
        try:
            return symbolic.simplify(e, self.context)
        finally:
            self.setVarValues(old)

    def costSymbolic(self):
        """An Expression evaluating to the cost (None if there is none)."""
        components, weights = [], []
        for obj in self.objectives:
            if obj.type == 'cost':
                components.append(obj.expr)
            elif obj.soft and obj.type == 'eq':
                components.append(symbolic.dot(obj.expr, obj.expr))
            elif obj.soft and obj.type == 'feas':
                components.append(symbolic.if_(obj.expr, 0, 1))
            elif obj.soft:
                raise NotImplementedError("Soft inequalities")
            else:
                continue
            weights.append(obj.weight)
        if not components:
            return None
        return self._simplified(symbolic.weightedsum(*(components + weights)))

    def _residual_symbolic(self, type, soft):
        components = [obj.expr * obj.weight for obj in self.objectives if obj.type == type and (not obj.soft or soft)]
        if not components:
            return None
        return self._simplified(symbolic.flatten(*components))

    def equalityResidualSymbolic(self, soft=False):
        """An Expression evaluating to the equality residual (or None)."""
        return self._residual_symbolic('eq', soft)

    def inequalityResidualSymbolic(self, soft=False):
        """An Expression evaluating to the inequality residual (or None)."""
        return self._residual_symbolic('ineq', soft)

    def equalitySatisfiedSymbolic(self, tol=1e-3, soft=False):
        """An Expression, true if the equalities hold to tol (or None)."""
        res = self.equalityResidualSymbolic(soft)
        if res is None:
            return None
        return symbolic.le(symbolic.max_(symbolic.abs_(res)), tol)

    def inequalitySatisfiedSymbolic(self, soft=False):
        """An Expression, true if the inequalities hold (or None)."""
        res = self.inequalityResidualSymbolic(soft)
        if res is None:
            return None
        return symbolic.le(symbolic.max_(res), 0)

    def feasibilityTestsPassSymbolic(self, soft=False):
        """An Expression, true if the black-box tests pass (or None)."""
        components = [obj.expr for obj in self.objectives if obj.type == 'feas' and (not obj.soft or soft)]
        if not components:
            return None
        return self._simplified(symbolic.all_(*components))

    def inBoundsSymbolic(self):
        """An Expression, true if the bounded variables are in bounds."""
        exprs = [symbolic_linalg.bound_contains(bmin, bmax, self.context.get(k))
                 for k, (bmin, bmax) in self.variableBounds.items()]
        return symbolic.all_(*exprs)

    def isFeasibleSymbolic(self, eqTol=1e-3):
        """An Expression, true if the variables meet all constraints."""
        tests = [self.inBoundsSymbolic(), self.equalitySatisfiedSymbolic(eqTol), self.inequalitySatisfiedSymbolic(),
                 self.feasibilityTestsPassSymbolic()]
        return symbolic.all_(*[t for t in tests if t is not None])

    def score(self, eqWeight=1.0, ineqWeight=1.0, infeasWeight=1.0):
        """An error score at the currently bound state: the cost plus
        weighted norms of the equality residual and the violated part of the
        inequality residual, plus infeasWeight per failed test or bound."""
        c = self.cost()
        if eqWeight != 0:
            res = self._residual('eq', False)
            if len(res):
                c += eqWeight * np.linalg.norm(res)
        if ineqWeight != 0:
            res = self.inequalityResidual()
            if len(res):
                c += ineqWeight * np.linalg.norm(np.maximum(res, 0))
        if infeasWeight != 0:
            for obj in self.objectives:
                if obj.type == 'feas' and not obj.soft and not obj.expr.evalf(self.context):
                    c += infeasWeight
            if not self.inBounds():
                c += infeasWeight
        return c

    def pprint(self, indent=0):
        """Prints the problem."""
        istring = " " * indent
        names = ",".join(v.name for v in self.optimizationVariables)
        cost = self.costSymbolic()
        if cost is None:
            print("%sfind[%s]" % (istring, names))
        else:
            print("%smin[%s] %s" % (istring, names, str(cost)))
        hard = [o for o in self.objectives if not (o.type == 'cost' or o.soft)]
        if hard or self.variableBounds:
            print("%s    such that" % istring)
        for obj in hard:
            suffix = {'eq': " = 0", 'ineq': " <= 0"}.get(obj.type, " holds")
            print("%s%s%s%s" % (istring, "" if obj.name is None else obj.name + ": ", str(obj.expr), suffix))
        for k, (a, b) in self.variableBounds.items():
            print("%s%s <= %s <= %s" % (istring, a, k, b))

    def toJson(self, saveContextFunctions=False, prettyPrintExprs=False):
        """A JSON object representing this problem.

        Args:
            saveContextFunctions (bool, optional): also save the context's
                custom functions (the problem must then be loaded in the same
                context).
            prettyPrintExprs (bool, optional): save expressions as
                human-readable strings rather than JSON objects.
        """
        objectives = []
        for o in self.objectives:
            e = symbolic_io.exprToStr(o.expr, parseCompatible=True) if prettyPrintExprs else symbolic_io.exprToJson(o.expr)
            objectives.append({'expr': e, 'type': o.type, 'soft': o.soft, 'weight': o.weight, 'name': o.name})

        def jsonable(b):
            return None if b is None else (np.asarray(b).tolist() if hasattr(b, '__iter__') else b)
        return {'type': 'OptimizationProblemBuilder',
                'context': symbolic_io.contextToJson(self.context, saveFunctions=saveContextFunctions),
                'objectives': objectives,
                'optimizationVariables': [v.name for v in self.optimizationVariables],
                'variableBounds': dict((k, [jsonable(a), jsonable(b)]) for k, (a, b) in self.variableBounds.items())}

    def fromJson(self, object, context=None):
        """Loads the problem from a JSON object (ValueError if it is not an
        OptimizationProblemBuilder)."""
        if object.get('type') != 'OptimizationProblemBuilder':
            raise ValueError("Object must have type OptimizationProblemBuilder")
        if context is not None:
            self.context = context
        else:
            symbolic_io.contextFromJson(self.context, object['context'])
        self.objectives = []
        for ojson in object['objectives']:
            if isinstance(ojson['expr'], str):
                e = symbolic_io.exprFromStr(self.context, ojson['expr'])
            else:
                e = symbolic_io.exprFromJson(self.context, ojson['expr'])
            obj = OptimizationObjective(e, ojson['type'], ojson['weight'] if ojson['soft'] else None)
            if ojson['type'] == 'cost':
                obj.weight = ojson['weight']
            obj.name = ojson['name']
            self.objectives.append(obj)
        self.optimizationVariables = []
        for n in object['optimizationVariables']:
            if n not in self.context.variableDict:
                raise ValueError("Context does not contain optimization variable " + n)
            self.optimizationVariables.append(self.context.variableDict[n])
        self.variableBounds = dict((k, tuple(v)) for k, v in object['variableBounds'].items())

    def getBounds(self):
        """The optimization variables' bounds as a list of (xmin,xmax)
        pairs, or None if no optimization variable is bounded."""
        inf = float('inf')
        if not any(v.name in self.variableBounds for v in self.optimizationVariables):
            return None
        res = []
        for v in self.optimizationVariables:
            default = (-inf, inf) if v.type.is_scalar() else ([-inf] * v.type.size, [inf] * v.type.size)
            a, b = self.variableBounds.get(v.name, default)
            res.append((default[0] if a is None else a, default[1] if b is None else b))
        return res

    def preprocess(self, steps='all'):
        """Simplifies the problem for solving.

        Returns:
            tuple: (opt,optToSelf,selfToOpt): opt is the simplified problem
            (self if nothing simplifies, with the maps None); optToSelf is a
            list of Expressions over opt's context giving each of self's
            optimization variables, selfToOpt the converse.

        Steps: objectives with 0 weight are dropped, and vector variables
        with equal lower and upper bounds on some entries are reduced to
        their free entries (fully fixed variables are removed).
        """
        fixed = []
        for v in self.optimizationVariables:
            if v.name in self.variableBounds and not v.type.is_scalar():
                xmin, xmax = self.variableBounds[v.name]
                if xmin is not None and xmax is not None and any(a == b for a, b in zip(xmin, xmax)):
                    fixed.append(v.name)
        dropWeights = any(o.weight == 0 for o in self.objectives)
        if not fixed and not dropWeights:
            return self, None, None
        result = OptimizationProblemBuilder(self.context.copy())
        optToSelf, selfToOpt = [], []
        for v in self.optimizationVariables:
            vnew = result.context.variableDict[v.name]
            if v.name not in fixed:
                result.optimizationVariables.append(vnew)
                if v.name in self.variableBounds:
                    result.variableBounds[v.name] = self.variableBounds[v.name]
                optToSelf.append(symbolic.expr(vnew))
                selfToOpt.append(symbolic.expr(v))
                continue
            xmin, xmax = self.variableBounds[v.name]
            active = [i for i in range(len(xmin)) if xmin[i] != xmax[i]]
            if not active:
                vnew.bind(np.asarray(xmin, dtype=float))
                optToSelf.append(symbolic.expr(np.asarray(xmin, dtype=float)))
                selfToOpt.append(None)
                continue
            vnew.type = symbolic.Type('V', len(active))
            if v.value is not None:
                vnew.value = np.asarray([v.value[d] for d in active], dtype=float)
            else:
                vnew.value = None
            result.optimizationVariables.append(vnew)
            result.variableBounds[v.name] = ([xmin[d] for d in active], [xmax[d] for d in active])
            optToSelf.append(symbolic.setitem(np.asarray(xmin, dtype=float), active, vnew))
            selfToOpt.append(symbolic.getitem(v, active))
        lifted = dict((v.name, e) for v, e in zip(self.optimizationVariables, optToSelf))
        for obj in self.objectives:
            if obj.weight == 0:
                continue
            e = obj.expr
            for name in fixed:
                e = e.replace(symbolic.expr(self.context.variableDict[name]), lifted[name])
            e = _rename_to(e, result.context)
            o = OptimizationObjective(e, obj.type, obj.weight)
            o.soft, o.name = obj.soft, obj.name
            result.objectives.append(o)
        return result, optToSelf, selfToOpt

    def getProblem(self):
        """Returns an :class:`OptimizationProblem` over the flattened
        optimization variables."""
        if not self.optimizationVariables:
            if 'x' not in self.context.variableDict:
                raise ValueError("No optimization variables set")
            self.optimizationVariables = [self.context.variableDict['x']]
        prob = OptimizationProblem()
        old = self.getVarValues()
        self.unbindVars()
        try:
            varorder = self.optimizationVariables
            for obj in self.objectives:
                if obj.soft:
                    continue
                if obj.type == 'eq':
                    e = symbolic.simplify(obj.expr * obj.weight, self.context)
                    e = symbolic.flatten(e) if e.returnType().is_scalar() else e
                    self._add_flat(prob.addEquality, e, varorder)
                elif obj.type == 'ineq':
                    e = symbolic.simplify(obj.expr * obj.weight, self.context)
                    e = symbolic.flatten(e) if e.returnType().is_scalar() else e
                    self._add_flat(prob.addInequality, e, varorder)
                elif obj.type == 'feas':
                    f, _ = self.context.makeFlatFunction(obj.expr, varorder)
                    prob.addFeasibilityTest(f)
        finally:
            self.setVarValues(old)
        cost = self.costSymbolic()
        self.unbindVars()
        try:
            if cost is not None:
                prob.setSymbolicObjective(cost, self.context, self.optimizationVariables)
            else:
                prob.setObjective(lambda x: 0.0, lambda x: np.zeros(len(x)))
        finally:
            self.setVarValues(old)
        vbounds = self.getBounds()
        if vbounds is not None:
            prob.setBounds(np.asarray(symbolic._flatten(*[b[0] for b in vbounds]), dtype=float),
                           np.asarray(symbolic._flatten(*[b[1] for b in vbounds]), dtype=float))
        return prob

    def _add_flat(self, adder, e, varorder):
        f, _ = self.context.makeFlatFunction(e, varorder)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            df, _ = self.context.makeFlatFunctionDeriv(e, varorder)
        adder(f, df)

    def solve(self, params=None, preprocess=True, cache=False):
        """Solves the problem with :class:`OptimizerParams` (default
        OptimizerParams()); the result is bound to the optimization
        variables.  Local methods start from the variables' bound values.
        With cache=True the converted problem is reused by later calls
        (only valid if the objectives and bounds are unchanged).  Returns
        True on success."""
        if params is None:
            params = OptimizerParams()
        if cache and getattr(self, '_cached_problem', None) is not None:
            p, pToSelf, optp = self._cached_problem
        else:
            p, pToSelf, _ = self.preprocess() if preprocess else (self, None, None)
            optp = p.getProblem()
            if cache:
                self._cached_problem = (p, pToSelf, optp)
        seed = None
        vseed = [v.value for v in p.optimizationVariables]
        if all(v is not None for v in vseed):
            seed = symbolic._flatten(*vseed)
        elif params.globalMethod is None and (params.localMethod is not None or not params.startRandom):
            if any(v is not None for v in vseed) or optp.bounds is None:
                raise ValueError("Local optimization needs values bound to all optimization variables as a seed")
        success, res = params.solve(optp, seed)
        if res is not None:
            p.setVarVector(res)
            if p is not self:
                for v, e in zip(self.optimizationVariables, pToSelf):
                    v.bind(np.asarray(symbolic.expr(e).evalf(p.context)) if not v.type.is_scalar() else e.evalf(p.context))
        return success


def _rename_to(e, context):
    """Rebuilds e with its Variables replaced by the same-named Variables of
    context."""
    for v in symbolic.expr(e).vars():
        if v.name in context.variableDict and context.variableDict[v.name] is not v:
            e = e.replace(symbolic.expr(v), symbolic.expr(context.variableDict[v.name]))
    return e
