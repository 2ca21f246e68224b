"""Optimization problems over a robot's configuration (and other Klamp't
objects): IK objectives, joint limits, active DOFs, collision-free tests and
arbitrary symbolic costs and constraints, built on
:mod:`klampt.math.optimize` and :mod:`klampt.math.symbolic_klampt`.

Example::

    problem = RobotOptimizationProblem(robot, world)
    problem.addIKObjective(ik.objective(robot.link(6), local=[0,0,0], world=[0.8,0,0.9]))
    problem.addCollisionFreeTest()
    q = problem.solve(OptimizerParams(numRestarts=20))   # None on failure
"""

import random
import time

import numpy as np

from ..model import types
from ..robotsim import IKSolver, IKObjective, RobotModelLink
from ..io import loader
from ..math import optimize, symbolic, symbolic_klampt, so3

_ROTATION_ENCODINGS = {
    'rotation_vector': ('_rv', so3.rotation_vector, so3.from_rotation_vector, 'from_rotation_vector', 3),
    'quaternion': ('_q', so3.quaternion, so3.from_quaternion, 'from_quaternion', 4),
    'rpy': ('_rpy', so3.rpy, so3.from_rpy, 'from_rpy', 3),
}


class KlamptVariable:
    """A Klamp't item (configuration(s), vector, rotation, rigid transform)
    encoded by symbolic Variables of an optimization problem.

    Attributes:
        name (str): the Klamp't item's name.
        type (str): the Klamp't item's type.
        encoding (str): how the item is encoded in the optimization.
        variables (list of Variable): the Variables encoding the item.
        expr (Expression): the Expression giving the item from the Variables.
        constraints, encoder, decoder: the constraints added for the item and
            the functions mapping the item to / from its parameters.
    """

    def __init__(self, name, type):
        self.name = name
        self.type = type
        self.encoding = None
        self.variables = None
        self.expr = None
        self.constraints = []
        self.encoder = None
        self.decoder = None

    def bind(self, obj):
        """Binds the Variables to the encoding of the Klamp't object obj."""
        if self.type in ['Config', 'Vector', 'Vector3', 'Point', 'Rotation']:
            self.variables[0].bind(np.asarray(self.encode(obj), dtype=float))
        elif self.type == 'Configs':
            if len(obj) != len(self.variables):
                raise ValueError("Invalid number of configs in Configs object")
            for v, q in zip(self.variables, obj):
                v.bind(np.asarray(q, dtype=float))
        elif self.type == 'RigidTransform':
            T = self.encode(obj)
            self.variables[0].bind(np.asarray(T[0], dtype=float))
            self.variables[1].bind(np.asarray(T[1], dtype=float))
        else:
            raise ValueError("Unsupported object type " + self.type)

    def getParams(self):
        """The values bound to the Variables (a list if there are several)."""
        if len(self.variables) > 1:
            return [v.value for v in self.variables]
        return self.variables[0].value

    def getValue(self):
        """The Klamp't value of the currently bound parameters."""
        return self.decode(self.getParams())

    def unbind(self):
        """Unbinds the Variables."""
        for v in self.variables:
            v.unbind()

    def encode(self, obj):
        """The parameters encoding the Klamp't object obj."""
        return obj if self.encoder is None else self.encoder(obj)

    def decode(self, params):
        """The Klamp't object encoded by params."""
        return params if self.decoder is None else self.decoder(params)


class RobotOptimizationProblem(optimize.OptimizationProblemBuilder):
    """An :class:`~klampt.math.optimize.OptimizationProblemBuilder` over a
    robot's configuration ``q``, with IK constraints, joint limits and active
    DOFs.

    Attributes:
        robot (RobotModel): the robot whose configuration is optimized.
        world (WorldModel, optional): the world holding obstacles.
        context (KlamptContext): holds the variable q and user data "robot"
            (and "world").
        q (Variable): the configuration variable.
        activeDofs (list): the active DOFs, or None for all.
        autoLoad (dict): user data name -> file name, loaded on fromJson.
        managedVariables (dict of KlamptVariable): Klamp't items such as
            rotations and rigid transforms added by :meth:`addKlamptVar`.

    IK objectives added with a weight (or all of them after
    :meth:`enableSoftIK`) are soft: the squared residual is part of the
    cost, so solve returns the configuration closest to meeting them.
    """

    def __init__(self, robot=None, world=None, *ikgoals):
        if world is not None and robot is None and world.numRobots() > 0:
            robot = world.robot(0)
        if robot is None:
            raise ValueError("RobotOptimizationProblem needs a robot (or a world with a robot)")
        self.robot = robot
        self.world = world
        context = symbolic_klampt.KlamptContext()
        # the names "robot" / "world" are also KlamptContext functions (robot(world,i)), which addUserData refuses
        context.userData["robot"] = robot
        if world is not None:
            context.userData["world"] = world
        optimize.OptimizationProblemBuilder.__init__(self, context)
        self.activeDofs = None
        self.autoLoad = dict()
        self.q = self.context.addVar('q', 'V', robot.numLinks())
        self.managedVariables = dict()
        self.optimizationVariables = [self.q]
        self.setJointLimits()
        for goal in ikgoals:
            self.addIKObjective(goal)

    def isIKObjective(self, index):
        """True if the indexed objective is an IK constraint."""
        obj = self.objectives[index]
        return obj.type == 'eq' and symbolic.is_op(obj.expr) and obj.expr.functionInfo.name == 'ik.residual'

    def getIKObjective(self, index):
        """The IKObjective of the indexed objective (ValueError if it is not
        one)."""
        if not self.isIKObjective(index):
            raise ValueError("Not an IK objective: " + str(self.objectives[index].expr))
        return symbolic.to_const(self.objectives[index].expr.args[0])

    def enableSoftIK(self, enabled=True):
        """Makes the IK constraints soft (their squared residual is
        minimized as part of the cost) or hard again."""
        for i, o in enumerate(self.objectives):
            if self.isIKObjective(i):
                o.soft = enabled

    def addIKObjective(self, obj, weight=None):
        """Adds an IKObjective (a hard constraint, or soft with a weight)."""
        if not isinstance(obj, IKObjective):
            raise TypeError("addIKObjective needs an IKObjective, got " + type(obj).__name__)
        own = getattr(obj, 'robot', None)
        if own is not None and own.index != self.robot.index:
            raise ValueError("All objectives must be on the same robot")
        expr = self.context.ik.residual(symbolic.const(obj), self.context.setConfig("robot", self.q))
        return self.addEquality(expr, weight)

    def addCollisionFreeTest(self, selfCollision=False):
        """Adds a feasibility test that the robot does not collide with the
        world's other objects (and, if selfCollision, with itself).  Needs a
        world."""
        if self.world is None:
            raise ValueError("Collision tests need the problem's world")
        if 'collisionContext' not in self.context.userData:
            self.context.addUserData('collisionContext', {'world': self.world, 'robot': self.robot})
        self.addFeasibilityTest(self.context.collide.robotCollisionFree(self.q, 'collisionContext'))
        if selfCollision:
            self.addFeasibilityTest(self.context.collide.robotSelfCollisionFree(self.q, 'collisionContext'))

    def addUserData(self, name, fn):
        """Adds user data ``name`` loaded from the file fn (with
        loader.load), reloaded automatically by fromJson."""
        if not isinstance(fn, str):
            raise TypeError("addUserData needs a file name")
        self.context.addUserData(name, loader.load(fn))
        self.autoLoad[name] = fn

    def addKlamptVar(self, name, type=None, initialValue=None, encoding='auto', constraints=True, optimize=True):
        """Adds a variable of a Klamp't type ("Config", "Configs", "Vector",
        "Vector3"/"Point", "Rotation", "RigidTransform"), with its default
        constraints (joint limits, quaternion unit norm, ...) if
        ``constraints``, and adds its Variables to the optimization
        variables if ``optimize``.

        Rotations are encoded by ``encoding``: 'rotation_vector' (also
        'auto'), 'quaternion' (with a unit norm constraint), 'rpy', or None
        (the 9 matrix entries, with an orthogonality constraint).  Returns
        the KlamptVariable; encoded Variables are named name+'_rv', '_q',
        '_rpy' or '_R' (for the 9 matrix entries), and the item is the named
        expression ``name`` (or the Variable ``name`` for configurations and
        vectors).
        """
        if type is None:
            if initialValue is None:
                raise ValueError("Either type or initialValue must be provided")
            type = types.object_to_type(initialValue)
        if name in self.managedVariables:
            raise ValueError("Klamp't variable name " + name + " already defined")
        if type in ['Vector3', 'Point']:
            initialValue = [0.0] * 3 if initialValue is None else initialValue
            if len(initialValue) != 3:
                raise ValueError("A %s needs 3 entries" % type)
            type = 'Vector'

        def newvar(vname, value):
            v = self.context.addVar(vname, 'V', len(value))
            v.value = np.asarray(value, dtype=float)
            return v
        kv = KlamptVariable(name, type)
        if type == 'Config':
            v = newvar(name, self.robot.getConfig() if initialValue is None else initialValue)
            if constraints:
                self.setBounds(v.name, *self.robot.getJointLimits())
                kv.constraints = [self.robot.getJointLimits()]
            kv.variables = [v]
        elif type == 'Vector':
            if initialValue is None:
                raise ValueError("Need an initialValue for Vector variables")
            kv.variables = [newvar(name, initialValue)]
        elif type == 'Configs':
            if initialValue is None:
                raise ValueError("Need an initialValue for Configs variables")
            kv.variables = [newvar(name + "_" + str(i), q) for i, q in enumerate(initialValue)]
            if constraints:
                for v in kv.variables:
                    self.setBounds(v.name, *self.robot.getJointLimits())
                    kv.constraints.append(self.robot.getJointLimits())
            kv.expr = symbolic.list_(*kv.variables)
        elif type == 'Rotation':
            self._rotation_var(kv, initialValue, encoding, constraints)
        elif type == 'RigidTransform':
            Ri, ti = (None, [0.0] * 3) if initialValue is None else initialValue
            kR = KlamptVariable(name + '_R', 'Rotation')
            self._rotation_var(kR, Ri, encoding, constraints, prefix=name)
            t = newvar(name + '_t', ti)
            kv.variables = kR.variables + [t]
            kv.constraints = kR.constraints
            kv.expr = symbolic.list_(kR.expr, t)
            kv.encoding = kR.encoding
            if kR.encoder is not None:
                kv.encoder = lambda T: (kR.encoder(T[0]), T[1])
                kv.decoder = lambda T: (kR.decoder(T[0]), T[1])
        else:
            raise ValueError("Unsupported object type " + str(type))
        if kv.expr is None:
            kv.expr = symbolic.expr(kv.variables[0])
        if name not in self.context.variableDict:   # directly encoded items are the Variable itself
            self.context.addExpr(name, kv.expr)
        if optimize:
            self.optimizationVariables += kv.variables
        self.managedVariables[name] = kv
        return kv

    def _rotation_var(self, kv, initialValue, encoding, constraints, prefix=None):
        prefix = kv.name if prefix is None else prefix
        if encoding == 'auto':
            encoding = 'rotation_vector'
        R = so3.identity() if initialValue is None else initialValue
        if encoding is None:
            v = self.context.addVar(prefix + '_R', 'V', 9)
            v.value = np.asarray(R, dtype=float)
            if constraints:
                f = self.addEquality(symbolic.flatten(self.context.so3.eq_constraint(v) - np.eye(3)))
                f.name = prefix + "_constraint"
                kv.constraints = [f]
            kv.expr = symbolic.expr(v)
        elif encoding in _ROTATION_ENCODINGS:
            suffix, encoder, decoder, fname, _ = _ROTATION_ENCODINGS[encoding]
            v = self.context.addVar(prefix + suffix, 'V', 3 if encoding != 'quaternion' else 4)
            v.value = np.asarray(encoder(R), dtype=float)
            kv.expr = getattr(self.context.so3, fname)(v)
            kv.encoder, kv.decoder = encoder, decoder
            if encoding == 'quaternion' and constraints:
                f = self.addEquality(self.context.so3.quaternion_constraint(v))
                f.name = prefix + "_q_constraint"
                kv.constraints = [f]
        else:
            raise ValueError("Invalid rotation encoding " + str(encoding))
        kv.encoding = encoding
        kv.variables = [v]

    def get(self, name, defaultValue=None):
        """A managed KlamptVariable, or the context's Variable or user data
        named ``name`` (defaultValue if there is none)."""
        if name in self.managedVariables:
            return self.managedVariables[name]
        return self.context.get(name, defaultValue)

    def rename(self, itemname, newname):
        """Renames a Variable, user data, or managed KlamptVariable (and the
        Variables encoding it)."""
        if itemname in self.managedVariables:
            item = self.managedVariables.pop(itemname)
            item.name = newname
            self.context.expressions[newname] = self.context.expressions.pop(itemname)
            for var in item.variables:
                self._rename_var(var, newname + var.name[len(itemname):])
            self.managedVariables[newname] = item
        elif itemname in self.context.userData:
            self.context.renameUserData(itemname, newname)
        else:
            self._rename_var(self.context.variableDict[itemname], newname)

    def _rename_var(self, var, newname):
        if var.name in self.variableBounds:
            self.variableBounds[newname] = self.variableBounds.pop(var.name)
        self.context.renameVar(var, newname)

    def _dof_index(self, link):
        if isinstance(link, str):
            return self.robot.link(link).index
        if isinstance(link, RobotModelLink):
            return link.index
        if isinstance(link, (int, np.integer)) and 0 <= link < self.robot.numLinks():
            return int(link)
        raise ValueError("Invalid DOF %r" % (link,))

    def setActiveDofs(self, links):
        """Sets the active DOFs: indices, RobotModelLinks or link names."""
        self.activeDofs = [self._dof_index(v) for v in links]

    def enableDof(self, link):
        """Adds an active DOF (the first call makes it the only active one;
        by default all DOFs are active)."""
        link = self._dof_index(link)
        if self.activeDofs is None:
            self.activeDofs = [link]
        elif link not in self.activeDofs:
            self.activeDofs.append(link)

    def disableJointLimits(self):
        """Removes the joint limits (by default the robot's are used)."""
        self.setBounds("q", None, None)

    def setJointLimits(self, qmin=None, qmax=None):
        """Sets the joint limits (default: the robot's); empty lists remove
        them."""
        if qmin is None:
            self.setBounds("q", *self.robot.getJointLimits())
            return
        if len(qmin) != len(qmax):
            raise ValueError("qmin and qmax must have the same length")
        if len(qmin) == 0:
            self.setBounds("q", None, None)
            return
        if len(qmin) != self.robot.numLinks():
            raise ValueError("Joint limits need %d entries" % self.robot.numLinks())
        self.setBounds("q", list(qmin), list(qmax))

    def inJointLimits(self, q):
        """True if the configuration q is within the current joint limits."""
        bounds = self.variableBounds.get('q')
        if bounds is None:
            return True
        return all(a <= v <= b for v, a, b in zip(q, bounds[0], bounds[1]))

    def toJson(self, saveContextFunctions=False, prettyPrintExprs=False):
        """A JSON object of the problem (see
        OptimizationProblemBuilder.toJson), with the active DOFs, managed
        variables and auto-loaded user data."""
        res = optimize.OptimizationProblemBuilder.toJson(self, saveContextFunctions, prettyPrintExprs)
        if self.activeDofs is not None:
            res['activeDofs'] = self.activeDofs
        if self.managedVariables:
            res['managedVariables'] = [{'name': v.name, 'type': v.type, 'encoding': v.encoding}
                                       for v in self.managedVariables.values()]
        if self.autoLoad:
            res['autoLoad'] = self.autoLoad
        return res

    def fromJson(self, obj, doAutoLoad=True):
        """Loads the problem from a JSON object; with doAutoLoad, the
        auto-loaded user data is loaded (IOError if it can't be)."""
        if doAutoLoad:
            self.autoLoad = dict(obj.get('autoLoad', {}))
            for name, fn in self.autoLoad.items():
                try:
                    data = loader.load(fn)
                except Exception as e:
                    raise IOError("Auto-load item " + name + ": " + fn + " could not be loaded") from e
                if name not in self.context.userData:
                    self.context.addUserData(name, data)
                else:
                    self.context.userData[name] = data
        if 'managedVariables' in obj:
            raise NotImplementedError("Loading managed Klamp't variables is not supported")
        optimize.OptimizationProblemBuilder.fromJson(self, obj, self.context)
        self.activeDofs = obj.get('activeDofs')
        self.q = self.context.variableDict['q']

    def _ik_solver(self, qmin, qmax, activeDofs):
        solver = IKSolver(self.robot)
        for i, o in enumerate(self.objectives):
            if self.isIKObjective(i) and not o.soft:
                solver.add(self.getIKObjective(i))
        solver.setJointLimits(list(qmin), list(qmax))
        if activeDofs is not None:
            solver.setActiveDofs(list(activeDofs))
        return solver

    def _accept(self, q, tol):
        self.q.bind(np.asarray(q, dtype=float))
        return (self.inJointLimits(q) and self.satisfiesEqualities(tol) and self.satisfiesInequalities(-tol)
                and self.feasibilityTestsPass())

    def solve(self, params=None):
        """Solves the problem, starting from the robot's configuration (or a
        random one if params.startRandom), and returns the solution
        configuration, or None on failure.  The solution is also bound to q.

        Hard IK constraints (and no other equalities / inequalities, no
        globalMethod) are solved by random-restart Newton-Raphson
        (params.numRestarts restarts of params.numIters iterations, within
        params.timeout seconds); solutions that fail the feasibility tests
        are rejected.  If there are costs, the best solution is kept and,
        with params.localMethod, polished by a local optimizer.  Other
        problems go to :meth:`OptimizerParams.solve` over the active DOFs.
        """
        if params is None:
            params = optimize.OptimizerParams()
        if not self.objectives:
            return self.robot.getConfig()
        n = self.robot.numLinks()
        qmin, qmax = self.variableBounds.get('q', ([-float('inf')] * n, [float('inf')] * n))
        hardIK = [i for i in range(len(self.objectives)) if self.isIKObjective(i) and not self.objectives[i].soft]
        otherConstraints = [i for i, o in enumerate(self.objectives)
                            if o.type in ('eq', 'ineq') and not o.soft and i not in hardIK]
        anyCosts = any(o.type == 'cost' or o.soft for o in self.objectives)
        extraVars = len(self.optimizationVariables) > 1
        if params.startRandom:
            self.randomVarBinding()
        elif self.q.value is None:
            self.q.bind(np.asarray(self.robot.getConfig(), dtype=float))
        if hardIK and not otherConstraints and params.globalMethod is None and not extraVars:
            return self._solve_ik(params, qmin, qmax, anyCosts)
        return self._solve_general(params, qmin, qmax)

    def _solve_ik(self, params, qmin, qmax, anyCosts):
        robot = self.robot
        solver = self._ik_solver(qmin, qmax, self.activeDofs)
        solver.setMaxIters(params.numIters)
        solver.setTolerance(params.tol)
        robot.setConfig(list(self.q.value))
        if params.startRandom:
            solver.sampleInitial()
        best, bestCost = None, float('inf')
        t0 = time.time()
        for restart in range(max(1, params.numRestarts)):
            if time.time() - t0 > params.timeout:
                break
            if restart > 0:
                solver.sampleInitial()
            if not solver.solve():
                continue
            q = robot.getConfig()
            if not self._accept(q, params.tol):
                continue
            if not anyCosts:
                return q
            if params.localMethod is not None:
                q = self._polish(params, q)
            cost = self.cost()
            if cost < bestCost:
                best, bestCost = q, cost
        if best is None:
            self.q.unbind()
            return None
        self.q.bind(np.asarray(best, dtype=float))
        return list(best)

    def _polish(self, params, q):
        """Locally optimizes the cost from the feasible q, keeping q if the
        result is worse or infeasible."""
        self.q.bind(np.asarray(q, dtype=float))
        cost = self.cost()
        problem = self.getProblem()
        opt = optimize.LocalOptimizer(params.localMethod)
        opt.setSeed(list(q))
        succ, x = opt.solve(problem, params.numIters, params.tol)
        if succ and self._accept(x, params.tol) and self.cost() < cost:
            return list(x)
        self.q.bind(np.asarray(q, dtype=float))
        return q

    def _solve_general(self, params, qmin, qmax):
        qmin, qmax = list(qmin), list(qmax)
        saved = self.variableBounds.get('q')
        if self.activeDofs is not None:
            q = list(self.q.value) if self.q.value is not None else self.robot.getConfig()
            for i in set(range(len(q))) - set(self.activeDofs):
                qmin[i] = qmax[i] = q[i]
            self.setBounds('q', qmin, qmax)
        if params.localMethod is None and params.globalMethod is None:
            params = optimize.OptimizerParams(**dict(params.toJson(), localMethod='scipy'))
        try:
            p, pToSelf, _ = self.preprocess()
        finally:
            self.setBounds('q', *(saved if saved is not None else (None, None)))
        problem = p.getProblem()
        seed = None
        if all(v.value is not None for v in p.optimizationVariables):
            seed = p.getVarVector()
        t0 = time.time()
        for _ in range(max(1, params.numRestarts if params.globalMethod is None else 1)):
            if time.time() - t0 > params.timeout:
                break
            succ, x = optimize.OptimizerParams(**dict(params.toJson(), numRestarts=1)).solve(problem, seed)
            if succ and x is not None:
                p.setVarVector(x)
                if p is not self:
                    for v, e in zip(self.optimizationVariables, pToSelf):
                        v.bind(np.asarray(symbolic.expr(e).evalf(p.context), dtype=float))
                if self._accept(self.q.value, params.tol):
                    return [float(v) for v in self.q.value]
            seed = list(np.array([optimize.sample_range(a, b) for a, b in zip(*problem.bounds)])) if problem.bounds is not None else [
                v + random.gauss(0, 0.1) for v in seed]
        return None
