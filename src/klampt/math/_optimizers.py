"""The solvers of :mod:`klampt.math.optimize`: local optimizers (scipy,
pyOpt), global optimizers (random restarts, DIRECT, scipy's global methods)
and the parameters that choose between them.
"""

import math
import random

import numpy as np


_SCIPY_LOCAL_METHODS = ['Nelder-Mead', 'Powell', 'CG', 'BFGS', 'TNC', 'COBYLA', 'L-BFGS-B', 'SLSQP']
_SCIPY_CONSTRAINED_METHODS = ['SLSQP', 'COBYLA', 'trust-constr']
_PYOPT_METHODS = ['SLSQP', 'PSQP', 'SNOPT', 'COBYLA', 'NLPQL', 'NLPQLP', 'MMA', 'GCMMA', 'KSOPT']


def _import_optional(name, purpose):
    try:
        return __import__(name)
    except ImportError as e:
        raise ImportError("%s needs the %r package, which is not installed" % (purpose, name)) from e


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
