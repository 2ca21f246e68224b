"""Inverse kinematics helpers on top of :class:`~klampt.IKObjective` and
:class:`~klampt.IKSolver`, as in Klamp't.

The solver is a Newton-Raphson method (a local optimizer): it starts from the
robot's current configuration and leaves the result in the robot. Solutions
respect joint limits, affine drivers and weld joints. Basic use::

    link = robot.link("name")
    goal = ik.objective(link, local=[p1, p2, p3], world=[r1, r2, r3])
    if ik.solve(goal):
        print("solved:", robot.getConfig())

:func:`solve_global` adds random restarts (run inside the C++ library, without
the GIL, unless a Python ``feasibilityCheck`` or secondary cost is given) and
:func:`solve_nearby` bounds the deviation from the start configuration.
Objectives between links of different robots or rigid objects are
:class:`~klampt.GeneralizedIKObjective` instances, solved by
:class:`~klampt.GeneralizedIKSolver`.
"""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
from typing import Callable, List, Optional, Union

from ..math import se3, so3, vectorops
from ..robotsim import (GeneralizedIKObjective, GeneralizedIKSolver, IKObjective, IKSolver, RigidObjectModel,
                        RobotModelLink)
from .subrobot import SubRobotModel

__all__ = ['objective', 'fixed_objective', 'fixed_rotation_objective', 'objects', 'solver', 'solve',
           'solve_global', 'solve_nearby', 'residual', 'jacobian', 'SubRobotIKSolver']


def _is_point_list(x) -> bool:
    return len(x) > 0 and hasattr(x[0], '__iter__')


def _full_index(link) -> int:
    """Index of a link in its full robot (sub-robot links are re-indexed)."""
    inner = getattr(link, '_link', None)
    return inner.index if inner is not None else link.index


def _same_robot(a, b) -> bool:
    ra, rb = a.robot(), b.robot()
    ra = getattr(ra, '_robot', ra)
    rb = getattr(rb, '_robot', rb)
    return ra.getID() == rb.getID() and ra.getName() == rb.getName()


def objective(body: Union[RobotModelLink, RigidObjectModel],
              ref: Union[None, RobotModelLink, RigidObjectModel] = None,
              local=None, world=None, R=None, t=None):
    """Returns an IKObjective for a given body.

    1. If ``local`` and ``world`` are given, the local point(s) on ``body``
       are matched to the world point(s) (given in ``ref``'s frame if ``ref``
       is given).
    2. If ``R`` and ``t`` are given, the body's transform (relative to
       ``ref``) is fixed to (R,t); ``local`` may then be a single point that
       is placed at ``t`` instead of the origin.

    If ``body`` is a rigid object, or ``ref`` is on another robot or a rigid
    object, a :class:`GeneralizedIKObjective` is returned.
    """
    generalized = not hasattr(body, 'robot') or (ref is not None and (not hasattr(ref, 'robot')
                                                                       or not _same_robot(body, ref)))
    if generalized:
        obj = GeneralizedIKObjective(body, ref) if ref is not None else GeneralizedIKObjective(body)
        if local is not None and world is not None:
            if len(local) != len(world):
                raise ValueError("local and world must have the same length")
            if _is_point_list(local):
                obj.setPoints(local, world)
            else:
                obj.setPoint(local, world)
        elif R is not None and t is not None:
            if local is not None:
                t = vectorops.sub(t, so3.apply(R, local))
            obj.setTransform(R, t)
        else:
            raise RuntimeError("Need to specify either local and world or R and t")
        return obj

    obj = IKObjective()
    obj.robot = body.robot()
    index = _full_index(body)
    refindex = _full_index(ref) if ref is not None else -1
    if local is not None and world is not None:
        if len(local) != len(world):
            raise ValueError("local and world must have the same length")
        if _is_point_list(local):
            for pt in list(local) + list(world):
                if len(pt) != 3:
                    raise ValueError("points must have 3 coordinates")
            if ref is not None:
                obj.setRelativePoints(index, refindex, local, world)
            else:
                obj.setFixedPoints(index, local, world)
        elif ref is not None:
            obj.setRelativePoint(index, refindex, local, world)
        else:
            obj.setFixedPoint(index, local, world)
    elif R is not None and t is not None:
        if local is not None:
            if len(local) != 3 or hasattr(local[0], '__iter__'):
                raise ValueError("If local is provided with R,t arguments, it must be a 3-vector")
            t = vectorops.sub(t, so3.apply(R, local))
        if ref is not None:
            obj.setRelativeTransform(index, refindex, R, t)
        else:
            obj.setFixedTransform(index, R, t)
    else:
        raise RuntimeError("Need to specify either local and world or R and t")
    return obj


def fixed_objective(link: RobotModelLink, ref=None, local=None, world=None):
    """An objective fixing ``link`` where it is now (relative to ``ref`` or
    the world): the whole frame if neither ``local`` nor ``world`` is given,
    else the given local points (or the link points now at the given world
    points) at their current positions."""
    refcoords = ref.getTransform() if ref is not None else se3.identity()
    Trel = se3.mul(se3.inv(refcoords), link.getTransform())
    if local is not None and not hasattr(local[0], '__iter__'):
        local = [local]
    if world is not None and not hasattr(world[0], '__iter__'):
        world = [world]
    if local is None and world is None:
        return objective(link, ref, R=Trel[0], t=Trel[1])
    if local is None:
        Tinv = se3.inv(Trel)
        return objective(link, ref, local=[se3.apply(Tinv, p) for p in world], world=world)
    if world is None:
        return objective(link, ref, local=local, world=[se3.apply(Trel, p) for p in local])
    raise ValueError("ik.fixed_objective does not accept both local and world keyword arguments")


def fixed_rotation_objective(link: RobotModelLink, ref=None, local_axis=None, world_axis=None) -> IKObjective:
    """An objective fixing the orientation of ``link`` as it is now (relative
    to ``ref``), or only the direction of ``local_axis`` (or of the link axis
    now along ``world_axis``)."""
    refR = ref.getTransform()[0] if ref is not None else so3.identity()
    Rrel = so3.mul(so3.inv(refR), link.getTransform()[0])
    if ref is not None and (not hasattr(ref, 'robot') or not _same_robot(link, ref)):
        raise ValueError("fixed_rotation_objective: ref must be a link of the same robot")
    obj = IKObjective()
    obj.robot = link.robot()
    obj.setLinks(_full_index(link), -1 if ref is None else _full_index(ref))
    if local_axis is None and world_axis is None:
        obj.setFixedRotConstraint(Rrel)
    elif local_axis is None:
        obj.setAxialRotConstraint(so3.apply(so3.inv(Rrel), world_axis), world_axis)
    elif world_axis is None:
        obj.setAxialRotConstraint(local_axis, so3.apply(Rrel, local_axis))
    else:
        raise ValueError("ik.fixed_rotation_objective does not accept both local_axis and world_axis "
                         "keyword arguments")
    return obj


def objects(objectives) -> list:
    """The bodies (RobotModelLink / RigidObjectModel) the given objective(s)
    constrain, constrained bodies and reference bodies alike, without
    duplicates, in order of appearance."""
    if not hasattr(objectives, '__iter__'):
        objectives = [objectives]
    res, seen = [], set()

    def add(body):
        if isinstance(body, RigidObjectModel):
            key = ('object', body.world, body.index)
        else:
            robot = body.robot()
            key = ('link', robot.getID(), robot.getName(), body.index)
        if key not in seen:
            seen.add(key)
            res.append(body)

    for obj in objectives:
        if isinstance(obj, GeneralizedIKObjective):
            add(obj.obj1 if obj.isObj1 else obj.link1)
            if obj.isObj2:
                add(obj.obj2)
            elif obj.link2 is not None:
                add(obj.link2)
        elif isinstance(obj, IKObjective):
            if not hasattr(obj, 'robot'):
                raise ValueError("IKObjective objects must have a 'robot' attribute (use ik.objective)")
            add(obj.robot.link(obj.link()))
            if obj.destLink() >= 0:
                add(obj.robot.link(obj.destLink()))
        else:
            raise TypeError("Objective is of wrong type")
    return res


class SubRobotIKSolver(IKSolver):
    """An IKSolver for a :class:`~klampt.model.subrobot.SubRobotModel`:
    active DOFs, joint limits, bias configurations and Jacobian columns use
    the sub-robot's indices."""

    def __init__(self, r: SubRobotModel):
        if not isinstance(r, SubRobotModel):
            raise TypeError("SubRobotIKSolver needs a SubRobotModel")
        IKSolver.__init__(self, r._robot)
        IKSolver.setActiveDofs(self, r._links)
        self.subrobot = r

    def copy(self) -> "SubRobotIKSolver":
        s = SubRobotIKSolver(self.subrobot)
        for o in self.objectives:
            s.add(o)
        for o in self.secondary_objectives:
            s.addSecondary(o)
        s.setMaxIters(self.getMaxIters())
        s.setTolerance(self.getTolerance())
        IKSolver.setActiveDofs(s, IKSolver.getActiveDofs(self))
        qmin, qmax = IKSolver.getJointLimits(self)
        IKSolver.setJointLimits(s, qmin, qmax)
        IKSolver.setBiasConfig(s, IKSolver.getBiasConfig(self))
        return s

    def setActiveDofs(self, active) -> None:
        """Sets the active DOFs (sub-robot indices)."""
        IKSolver.setActiveDofs(self, [self.subrobot._links[x] for x in active])

    def getActiveDofs(self) -> List[int]:
        """The active DOFs (sub-robot indices)."""
        return [self.subrobot._inv_links[i] for i in IKSolver.getActiveDofs(self)]

    def setJointLimits(self, qmin, qmax) -> None:
        """Sets the limits of the sub-robot's DOFs."""
        full_min, full_max = IKSolver.getJointLimits(self)
        if len(full_min) == 0:
            full_min, full_max = self.subrobot._robot.getJointLimits()
        full_min, full_max = list(full_min), list(full_max)
        for n, lo, hi in zip(self.subrobot._links, qmin, qmax):
            full_min[n] = lo
            full_max[n] = hi
        IKSolver.setJointLimits(self, full_min, full_max)

    def getJointLimits(self):
        """(qmin, qmax) of the sub-robot's DOFs."""
        qmin, qmax = IKSolver.getJointLimits(self)
        if len(qmin) == 0:
            return [], []
        return [qmin[i] for i in self.subrobot._links], [qmax[i] for i in self.subrobot._links]

    def setBiasConfig(self, bias_config) -> None:
        """Sets the bias of the sub-robot's DOFs (others keep the robot's
        current values)."""
        if len(bias_config) == 0:
            IKSolver.setBiasConfig(self, [])
            return
        full = list(IKSolver.getBiasConfig(self)) or list(self.subrobot._robot.getConfig())
        for n, x in zip(self.subrobot._links, bias_config):
            full[n] = x
        IKSolver.setBiasConfig(self, full)

    def getBiasConfig(self):
        """The bias of the sub-robot's DOFs (empty if none)."""
        full = IKSolver.getBiasConfig(self)
        return [full[i] for i in self.subrobot._links] if len(full) else []

    def getJacobian(self):
        """The Jacobian with respect to the active DOFs, in getActiveDofs() order."""
        return IKSolver.getJacobian(self)


def _robot_of(obj):
    if not hasattr(obj, 'robot'):
        raise ValueError("IKObjective objects must have a 'robot' attribute for use in ik.solver; set it or use "
                         "ik.objective")
    return obj.robot


def _make_solver(robot):
    return SubRobotIKSolver(robot) if isinstance(robot, SubRobotModel) else IKSolver(robot)


def _generalized_solver(objs):
    first = objs[0]
    world = first.obj1.world if first.isObj1 else first.link1.world
    s = GeneralizedIKSolver(world)
    for o in objs:
        s.add(o)
    return s


def solver(objectives, iters: Optional[int] = None, tol: Optional[float] = None, secondary=None):
    """Returns a solver for the given objective(s) (made by :func:`objective`,
    or IKObjectives with a ``robot`` attribute set). Objectives on different
    robots give a list of independent solvers; generalized objectives a
    GeneralizedIKSolver. ``secondary`` objective(s) are added with
    addSecondary (use ``minimize()`` to optimize them)."""
    if type(objectives) is IKObjective and secondary is None:
        # The common case, without the grouping below.
        s = _make_solver(_robot_of(objectives))
        s.add(objectives)
        if iters is not None:
            s.setMaxIters(iters)
        if tol is not None:
            s.setTolerance(tol)
        return s
    if isinstance(objectives, (IKObjective, GeneralizedIKObjective)):
        objectives = [objectives]
    objectives = list(objectives)
    if len(objectives) == 0:
        raise ValueError("ik.solver: no objectives given")
    generalized = [o for o in objectives if isinstance(o, GeneralizedIKObjective)]
    for o in objectives:
        if not isinstance(o, (IKObjective, GeneralizedIKObjective)):
            raise TypeError("Objective is of wrong type")
    if generalized:
        if len(generalized) != len(objectives):
            raise ValueError("ik.solver: cannot mix IKObjective and GeneralizedIKObjective")
        result = [_generalized_solver(generalized)]
    else:
        groups = {}
        for o in objectives:
            robot = _robot_of(o)
            base = getattr(robot, '_robot', robot)
            key = (base.getName(), base.getID(), id(robot) if isinstance(robot, SubRobotModel) else 0)
            groups.setdefault(key, [robot, []])[1].append(o)
        result = []
        for robot, objs in groups.values():
            s = _make_solver(robot)
            for o in objs:
                s.add(o)
            result.append(s)
    if secondary is not None:
        if not hasattr(secondary, '__iter__'):
            secondary = [secondary]
        for s in result:
            for o in secondary:
                s.addSecondary(o)
    for s in result:
        if iters is not None:
            s.setMaxIters(iters)
        if tol is not None:
            s.setTolerance(tol)
    return result[0] if len(result) == 1 else result


def _split_secondary(secondary):
    """(IK secondary objectives or None, (f, grad) callables or None)."""
    if (isinstance(secondary, tuple) and len(secondary) == 2 and callable(secondary[0])
            and callable(secondary[1])):
        return None, secondary
    return secondary, None


def _set_active(s, activeDofs):
    if activeDofs is None:
        return
    if isinstance(s, list):
        raise ValueError("activeDofs cannot be given for objectives on several robots")
    links = [s.robot.link(l).getIndex() if isinstance(l, str) else l for l in activeDofs]
    s.setActiveDofs(links)


def _run(s, secondary, cost) -> bool:
    if isinstance(s, GeneralizedIKSolver):
        return s.solve()[0]
    if cost is not None:
        return s.minimize(*cost)
    if secondary is not None:
        return s.minimize()
    return s.solve()


def solve(objectives, iters: int = 1000, tol: float = 1e-3, activeDofs: Optional[list] = None,
          secondary=None) -> bool:
    """Solves the objective(s) from the robot's current configuration.

    Args:
        objectives: an IKObjective or a list of them.
        iters: maximum number of iterations.
        tol: residual tolerance.
        activeDofs: link indices or names of the DOFs to move (default: the
            ancestors of the constrained links).
        secondary: IKObjective(s), or a pair (f, grad) of callables of the
            configuration, to minimize on the solution set of the objectives.

    Returns True if every objective is met; the robot is left at the result
    (the best found configuration on failure)."""
    secondary, cost = _split_secondary(secondary)
    s = solver(objectives, iters, tol, secondary)
    _set_active(s, activeDofs)
    if isinstance(s, list):
        return all([_run(si, secondary, cost) for si in s])
    return _run(s, secondary, cost)


def residual(objectives) -> list:
    """The residual of the objective(s) at the robot's current configuration."""
    return solver(objectives).getResidual()


def jacobian(objectives):
    """The Jacobian of the objective(s) residual with respect to the default
    active DOFs."""
    return solver(objectives).getJacobian()


def solve_global(objectives, iters: int = 1000, tol: float = 1e-3, activeDofs: Optional[list] = None,
                 secondary=None, numRestarts: int = 100, feasibilityCheck: Optional[Callable[[], bool]] = None,
                 startRandom: bool = False) -> bool:
    """Like :func:`solve`, with up to ``numRestarts`` random restarts.

    Args:
        feasibilityCheck: if given, a function ``feasible()`` of the robot's
            current configuration; a solution counts only if it returns True.
        startRandom: start from a random configuration instead of the
            robot's current one.

    Returns True if a (feasible) solution was found. Without a feasibility
    check or a secondary cost, the restarts run inside the library (without
    the GIL); on failure the robot is left at the attempt with the smallest
    residual."""
    secondary, cost = _split_secondary(secondary)
    s = solver(objectives, iters, tol, secondary)
    _set_active(s, activeDofs)
    if feasibilityCheck is None and cost is None and secondary is None and isinstance(s, IKSolver):
        return s._solveGlobal(numRestarts, startRandom)
    solvers = s if isinstance(s, list) else [s]
    if startRandom:
        for si in solvers:
            si.sampleInitial()
    for attempt in range(numRestarts + 1):
        if attempt > 0:
            for si in solvers:
                si.sampleInitial()
        if all([_run(si, secondary, cost) for si in solvers]):
            if feasibilityCheck is None or feasibilityCheck():
                return True
    return False


def solve_nearby(objectives, maxDeviation: float, iters: int = 1000, tol: float = 1e-3,
                 activeDofs: Optional[list] = None, secondary=None, numRestarts: int = 0,
                 feasibilityCheck: Optional[Callable[[], bool]] = None) -> bool:
    """Solves without moving any active DOF more than ``maxDeviation`` from
    the robot's current configuration (which also biases the solver).
    Single-robot objectives only; other arguments as :func:`solve_global`."""
    if not (maxDeviation >= 0):
        raise ValueError("maxDeviation must be >= 0")
    secondary, cost = _split_secondary(secondary)
    s = solver(objectives, iters, tol, secondary)
    if not isinstance(s, IKSolver):
        raise NotImplementedError("solve_nearby: currently only supports single-robot objectives")
    _set_active(s, activeDofs)
    robot = s.robot
    dofs = IKSolver.getActiveDofs(s)
    q = robot.getConfig()
    qmin, qmax = robot.getJointLimits()
    for d in dofs:
        qmin[d] = max(qmin[d], q[d] - maxDeviation)
        qmax[d] = min(qmax[d], q[d] + maxDeviation)
    IKSolver.setJointLimits(s, qmin, qmax)
    IKSolver.setBiasConfig(s, q)
    for attempt in range(numRestarts + 1):
        if attempt > 0:
            s.sampleInitial()
        if _run(s, secondary, cost) and (feasibilityCheck is None or feasibilityCheck()):
            return True
    return False
