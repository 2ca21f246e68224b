"""The symbolic problem builder of :mod:`klampt.math.optimize`:
objectives and constraints as :mod:`~klampt.math.symbolic` Expressions over a
Context's variables, turned into an :class:`OptimizationProblem`, solved, and
saved to / loaded from JSON.
"""

import warnings

import numpy as np

from . import symbolic, symbolic_io, symbolic_linalg
from ._optimization_problem import OptimizationProblem
from ._optimizers import OptimizerParams, sample_range


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
