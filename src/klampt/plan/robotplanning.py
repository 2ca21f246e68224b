"""Planning for a robot in a world in one call: :func:`plan_to_config`,
:func:`plan_to_set`, :func:`plan_to_cartesian_objective`, and the space
they plan in (:func:`make_space`).

Example::

    plan = robotplanning.plan_to_config(world, robot, target, **robotplanning.preferred_plan_options(robot))
    while plan.getPath() is None:
        plan.planMore(10)
    path = plan.getPath()      # robot configurations, start to target

The spaces are checked natively (see :mod:`klampt.plan.robotcspace`), so
``planMore`` runs without the interpreter lock and leaves the robot's
configuration as it was. Other robots of the world are obstacles unless
listed in ``ignoreCollisions``.
"""
import warnings
from typing import Callable, List, Optional, Union

from .._deprecation import deprecated_alias
from ..model import collide
from ..model.typing import Config
from ..robotsim import IKObjective, RobotModel, WorldModel
from . import robotcspace
from .cspace import CSpace, MotionPlan
from .cspaceutils import AffineEmbeddedCSpace, EmbeddedMotionPlan
# Klamp't's module star-imports cspace, and imports EmbeddedCSpace
from .cspace import *  # noqa: F401,F403,E402
from .cspaceutils import EmbeddedCSpace  # noqa: F401,E402


def preferred_plan_options(robot: RobotModel, movingSubset=None, optimizing: bool = False) -> dict:
    """Planner settings that work well for robot arms: SBL with shortcutting
    for a first path, or restarting bidirectional RRT when optimizing."""
    if optimizing:
        return {'type': "rrt", 'perturbationRadius': 0.5, 'bidirectional': 1, 'shortcut': 1, 'restart': 1,
                'restartTermCond': "{foundSolution:1,maxIters:1000}"}
    return {'type': "sbl", 'perturbationRadius': 0.5, 'randomizeFrequency': 1000, 'shortcut': 1}


def _expand_ignores(ignoreCollisions) -> list:
    """Ignore items with robots replaced by their links (WorldCollider takes
    links, objects and terrains)."""
    def bodies(x):
        if isinstance(x, RobotModel):
            # (links without geometry are in no collision pair)
            return [x.link(i) for i in range(x.numLinks()) if x.link(i).geometry().type() != ""]
        return [x]
    out = []
    for item in ignoreCollisions:
        if isinstance(item, (tuple, list)):
            a, b = item
            out += [(x, y) for x in bodies(a) for y in bodies(b)]
        else:
            out += bodies(item)
    return out


def make_space(world: WorldModel, robot: RobotModel, edgeCheckResolution: float = 1e-2,
               extraConstraints: List[Callable] = [], equalityConstraints: List[Union[Callable, IKObjective]] = [],
               equalityTolerance: float = 1e-3, ignoreCollisions=[], movingSubset=None,
               collisionMargin: float = 0.0, edgeCheck: str = 'bisection') -> CSpace:
    """The C-space of a robot moving in a world, set up for planning.

    Args:
        world (WorldModel): the world; its terrains, rigid objects and other
            robots are obstacles.
        robot (RobotModel): the moving robot.
        edgeCheckResolution (float): edge-check resolution (C-space units:
            radians for revolute joints).
        extraConstraints (list): functions f(q) -> bool that must hold.
        equalityConstraints (list): IKObjectives to keep during the motion.
        equalityTolerance (float): how closely they must hold.
        ignoreCollisions (list): bodies (links, objects, terrains, robots) or
            pairs of bodies not to test.
        movingSubset: None, 'all' or 'auto' for all DOFs, else a list of DOFs.
        collisionMargin (float): clearance (m) from other bodies below which
            the robot counts as colliding with them.
        edgeCheck (str): 'bisection' or 'conservative' (see robotcspace).

    Returns:
        CSpace: a RobotCSpace, ClosedLoopRobotCSpace, EmbeddedRobotCSpace
        (a subset moves) or AffineEmbeddedCSpace (the robot has affine
        drivers). Plan in an embedded space with EmbeddedMotionPlan.
    """
    if movingSubset in ('auto', 'all', None):
        subset = None
    else:
        subset = list(movingSubset)
    collider = collide.WorldCollider(world, ignore=_expand_ignores(ignoreCollisions))
    implicit = [c for c in equalityConstraints if not isinstance(c, IKObjective)]
    if len(equalityConstraints) == 0:
        space = robotcspace.RobotCSpace(robot, collider)
    else:
        if implicit:
            raise NotImplementedError("General inequality constraints")
        space = robotcspace.ClosedLoopRobotCSpace(robot, equalityConstraints, collider)
        space.tol = equalityTolerance
        if subset is not None and len(subset) < robot.numLinks():
            space.setIKActiveDofs(subset)
    space.eps = edgeCheckResolution
    space.collisionMargin = collisionMargin
    space.edgeCheck = edgeCheck
    for c in extraConstraints:
        space.addConstraint(c)

    partial = subset is not None and len(subset) < robot.numLinks()
    affected = set(range(robot.numLinks())) if subset is None else set(subset)
    has_affine = any(robot.driver(d).getType() == 'affine' and (not partial or any(
        l in affected for l in robot.driver(d).getAffectedLinks())) for d in range(robot.numDrivers()))
    if has_affine:
        if not isinstance(space, robotcspace.RobotCSpace) or isinstance(space, robotcspace.ClosedLoopRobotCSpace):
            raise ValueError("Robot is affected by affine links, but closed-chain constraints are specified. Can't handle this combination of constraints yet")
        drivers = [d for d in range(robot.numDrivers()) if any(l in affected for l in robot.driver(d).getAffectedLinks())]
        embedded = AffineEmbeddedCSpace.fromRobotDrivers(robot, space, drivers)
        robotcspace._disable_inactive(robot, collider, robotcspace._moving_links(robot, affected))
        embedded.setup()
        return embedded
    if partial:
        sspace = robotcspace.EmbeddedRobotCSpace(space, subset, xinit=robot.getConfig())
        sspace.disableInactiveCollisions()
        space = sspace
    space.setup()
    return space


def _report_failures(space, plan, robot: RobotModel, q, which: str) -> list:
    """Warns with the tests q fails (and prints colliding link pairs)."""
    x = plan.space.project(q) if hasattr(plan.space, 'project') else q
    failures = space.cspace.feasibilityFailures(x)
    if failures:
        warnings.warn("{} configuration fails {}".format(which, failures))
        if 'self collision' in failures:
            saved = robot.getConfig()
            robot.setConfig(q)
            for i in range(robot.numLinks()):
                for j in range(i):
                    if robot.selfCollisionEnabled(i, j) and robot.link(i).geometry().collides(robot.link(j).geometry()):
                        print("  Links {} and {} collide".format(robot.link(i).getName(), robot.link(j).getName()))
            robot.setConfig(saved)
    return failures


def _make_plan(space, q0, planOptions):
    if hasattr(space, 'lift'):
        return EmbeddedMotionPlan(space, q0, **planOptions)
    return MotionPlan(space, **planOptions)


def plan_to_config(world: WorldModel, robot: RobotModel, target: Config, edgeCheckResolution: float = 1e-2,
                   extraConstraints: List[Callable] = [], equalityConstraints: List[Union[Callable, IKObjective]] = [],
                   equalityTolerance: float = 1e-3, ignoreCollisions=[], movingSubset='auto', verbose: bool = True,
                   **planOptions) -> Optional[MotionPlan]:
    """A plan from the robot's current configuration to ``target``.

    Args:
        movingSubset: 'auto' (default): the DOFs where target differs from
            the start; None or 'all': every DOF; or a list of DOFs (target
            must equal the start elsewhere: ValueError).
        planOptions: planner settings (see MotionPlan.setOptions), and
            make_space's collisionMargin and edgeCheck.
        Other arguments: as :func:`make_space`.

    Returns:
        MotionPlan: call planMore until getPath() returns the path (robot
        configurations); ``plan.space`` is the space. None (with a
        UserWarning naming the failed tests) if start or target is infeasible.
    """
    q0 = robot.getConfig()
    assert len(q0) == len(target), "target configuration must be of correct size for robot"
    if movingSubset == 'auto':
        subset = [i for i, (a, b) in enumerate(zip(q0, target)) if a != b]
    elif movingSubset in ('all', None):
        subset = list(range(len(q0)))
    else:
        subset = list(movingSubset)
        for i in range(len(q0)):
            if i not in subset and q0[i] != target[i]:
                raise ValueError("Error: target configuration value differs from start configuration along a fixed DOF: %s (link %d): %g vs %g"
                                 % (robot.link(i).getName(), i, q0[i], target[i]))
    spaceOptions = {k: planOptions.pop(k) for k in ('collisionMargin', 'edgeCheck') if k in planOptions}
    space = make_space(world=world, robot=robot, edgeCheckResolution=edgeCheckResolution,
                       extraConstraints=extraConstraints, equalityConstraints=equalityConstraints,
                       equalityTolerance=equalityTolerance, ignoreCollisions=ignoreCollisions, movingSubset=subset,
                       **spaceOptions)
    plan = _make_plan(space, q0, planOptions)
    try:
        plan.setEndpoints(q0, target)
    except RuntimeError:
        _report_failures(space, plan, robot, q0, "Start")
        _report_failures(space, plan, robot, target, "Goal")
        return None
    return plan


def _as_goal(target):
    """A goal test, (test, sampler) pair, or CSpace as what setEndpoints takes."""
    if isinstance(target, CSpace):
        return [(lambda x: target.feasible(x)), (lambda: target.sample())]
    if callable(target):
        return target
    if isinstance(target, (tuple, list)) and len(target) == 2 and callable(target[0]) and callable(target[1]):
        return target
    raise TypeError("target must be a predicate function or CSpace object")


def plan_to_set(world: WorldModel, robot: RobotModel, target, edgeCheckResolution: float = 1e-2,
                extraConstraints: List[Callable] = [], equalityConstraints: List[Union[Callable, IKObjective]] = [],
                equalityTolerance: float = 1e-3, ignoreCollisions=[], movingSubset=None,
                **planOptions) -> MotionPlan:
    """A plan from the robot's current configuration to a goal set.

    Args:
        target: a test f(q) -> bool, a (test, sampler) pair, or a CSpace whose
            feasible() and sample() define the set (full robot configurations).
        movingSubset: None, 'auto' or 'all' for every DOF, or a list of DOFs.
        Other arguments: as :func:`plan_to_config`.

    Raises:
        TypeError: for a target of another kind.
        RuntimeError: if the start is infeasible (after a UserWarning naming
            the failed tests).
    """
    q0 = robot.getConfig()
    if movingSubset in ('auto', 'all', None):
        subset = list(range(len(q0)))
    else:
        subset = list(movingSubset)
    goal = _as_goal(target)
    spaceOptions = {k: planOptions.pop(k) for k in ('collisionMargin', 'edgeCheck') if k in planOptions}
    space = make_space(world=world, robot=robot, edgeCheckResolution=edgeCheckResolution,
                       extraConstraints=extraConstraints, equalityConstraints=equalityConstraints,
                       equalityTolerance=equalityTolerance, ignoreCollisions=ignoreCollisions, movingSubset=subset,
                       **spaceOptions)
    plan = _make_plan(space, q0, planOptions)
    try:
        plan.setEndpoints(q0, goal)
    except RuntimeError:
        _report_failures(space, plan, robot, q0, "Start")
        raise
    return plan


def _chain_dofs(robot: RobotModel, iktargets) -> List[int]:
    """DOFs that move the constrained links: their ancestors, and themselves."""
    dofs = set()
    for obj in iktargets:
        link = obj.link()
        while link >= 0:
            dofs.add(link)
            link = robot.link(link).getParent()
    qmin, qmax = robot.getJointLimits()
    return sorted(i for i in dofs if qmin[i] != qmax[i])


def _cartesian_goal(robot: RobotModel, iktargets, iktolerance: float, subset: List[int]):
    """The (test, sampler) goal of IK objectives for plans moving ``subset``:
    IK over the subset's DOFs that move the constrained links, seeded at the
    robot's current configuration with those DOFs drawn at random, so every
    other DOF keeps its current value (issue #216)."""
    import math
    import random
    q0 = robot.getConfig()
    active = [i for i in _chain_dofs(robot, iktargets) if i in set(subset)]
    if not active:
        raise ValueError("No moving DOF moves the constrained links")
    goalset = robotcspace.ClosedLoopRobotCSpace(robot, iktargets, None)
    goalset.tol = iktolerance
    goalset.setIKActiveDofs(active)
    qmin, qmax = robot.getJointLimits()
    fixed = [i for i in range(len(q0)) if i not in set(subset)]
    counts = {'drawn': 0, 'valid': 0}

    def test(q):
        saved = robot.getConfig()
        try:
            return all(q[i] == q0[i] for i in fixed) and goalset.closedLoop(q)
        finally:
            robot.setConfig(saved)

    def sample():
        # IK from a random seed converges only part of the time: a few restarts.
        saved = robot.getConfig()
        for _ in range(20):
            seed = list(q0)
            for i in active:
                lo, hi = qmin[i], qmax[i]
                seed[i] = random.uniform(lo, hi) if math.isfinite(lo) and math.isfinite(hi) else random.uniform(0, 2 * math.pi)
            q = goalset.solveConstraints(seed)
            ok = test(q)
            if ok:
                break
        robot.setConfig(saved)
        counts['drawn'] += 1
        counts['valid'] += ok
        if counts['drawn'] == 100 and counts['valid'] == 0:
            warnings.warn("goal sampler produced no valid goal in the first 100 samples (is the objective reachable?)",
                          RuntimeWarning)
        return q

    return test, sample


def plan_to_cartesian_objective(world: WorldModel, robot: RobotModel, iktargets: List[IKObjective],
                                iktolerance: float = 1e-3, edgeCheckResolution: float = 1e-2,
                                extraConstraints: List[Callable] = [],
                                equalityConstraints: List[Union[Callable, IKObjective]] = [],
                                equalityTolerance: float = 1e-3, ignoreCollisions=[], movingSubset=None,
                                **planOptions) -> MotionPlan:
    """A plan to a configuration that meets IK objectives to ``iktolerance``.

    Goals are drawn by IK over the moving DOFs that move the constrained
    links, seeded at the robot's current configuration with those DOFs
    randomized, so the other DOFs keep their start values. A RuntimeWarning
    says so if none of the first 100 candidates meets the objectives.

    Args:
        iktargets (list of IKObjective): the objectives.
        movingSubset: None (default): the DOFs that move the constrained
            links; 'all': every DOF; or a list of DOFs.
        Other arguments: as :func:`plan_to_config`.
    """
    if movingSubset is None or movingSubset == 'auto':
        subset = _chain_dofs(robot, iktargets)
    elif movingSubset == 'all':
        subset = list(range(robot.numLinks()))
    else:
        subset = sorted(movingSubset)
    goal = _cartesian_goal(robot, iktargets, iktolerance, subset)
    return plan_to_set(world, robot, goal, edgeCheckResolution=edgeCheckResolution,
                       extraConstraints=extraConstraints, equalityConstraints=equalityConstraints,
                       equalityTolerance=equalityTolerance, ignoreCollisions=ignoreCollisions, movingSubset=subset,
                       **planOptions)


def wizard(world_or_space_or_plan, moving_object=None, draw_end_effectors=None, draw_infeasible=False,
           debug_plan_time=30):
    """The reference's interactive planning wizard needs its Qt GUI, which
    this package does not include: raises NotImplementedError."""
    raise NotImplementedError("robotplanning.wizard needs the reference's Qt GUI, which is not available; "
                              "configure plans with make_space / plan_to_config instead")


preferredPlanOptions = deprecated_alias('preferredPlanOptions', preferred_plan_options, 'preferred_plan_options',
                                        __name__)
makeSpace = deprecated_alias('makeSpace', make_space, 'make_space', __name__)
planToConfig = deprecated_alias('planToConfig', plan_to_config, 'plan_to_config', __name__)
planToSet = deprecated_alias('planToSet', plan_to_set, 'plan_to_set', __name__)
planToCartesianObjective = deprecated_alias('planToCartesianObjective', plan_to_cartesian_objective,
                                            'plan_to_cartesian_objective', __name__)
