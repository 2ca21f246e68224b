"""The optimization problem of :mod:`klampt.math.optimize`: objective,
bounds, equalities, inequalities and feasibility tests as Python functions
(or symbolic Expressions turned into them), with their evaluation.
"""

import warnings

import numpy as np

from . import symbolic


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
