"""``plan_motion``: collision-free joint paths with klampt's planners on the native robot C-space."""

import math
import random
import time
from typing import List, Optional

from compas_fab.backends import (
    BackendTargetNotSupportedError,
    CollisionCheckError,
    InverseKinematicsError,
    MPNoIKSolutionError,
    MPNoPlanFoundError,
    MPSearchTimeOutError,
    MPStartStateInCollisionError,
    MPTargetInCollisionError,
)
from compas_fab.backends.interfaces import PlanMotion
from compas_fab.robots import (
    ConfigurationTarget,
    ConstraintSetTarget,
    FrameTarget,
    JointTrajectory,
    JointTrajectoryPoint,
    PointAxisTarget,
    RobotCellState,
)
from compas_robots.model import Joint

from ...io import compas_fab as convert
from ...math import se3
from ...plan import motionplanning
from ...plan.cspace import CSpace, MotionPlan
from ...robotsim import IKSolver
from ._constraints import ConstraintSet
from ._options import check_options
from ._timing import TIMING_OPTIONS, time_trajectory

__all__ = ["KlamptPlanMotion", "PLANNERS"]

#: ``planner_id`` -> (klampt planner type, bidirectional). MoveIt's OMPL names and klampt's own.
PLANNERS = {
    "RRTConnect": ("rrt", True), "RRT": ("rrt", False), "PRM": ("prm", False), "SBL": ("sbl", False),
    "RRTstar": ("rrt*", False), "PRMstar": ("prm*", False), "LazyPRMstar": ("lazyprm*", False),
    "rrt": ("rrt", True), "prm": ("prm", False), "sbl": ("sbl", False), "sblprt": ("sblprt", False),
    "rrt*": ("rrt*", False), "prm*": ("prm*", False), "lazyprm*": ("lazyprm*", False), "lazyrrg*": ("lazyrrg*", False),
}


class _GroupCSpace(CSpace):
    """The C-space of a planning group's joints on klampt's native robot C-space.

    Joint limits, self collision and collision with the cell's stationary
    tools and bodies are all tested natively, on ``planning_robot``: a copy of
    the cell's robot holding the carried tools and workpieces as links of
    its own (see ``KlamptClient._carrying_robot``), whose self-collision pairs
    are the cell's. Only path constraints, when given, are tested in Python.
    """

    def __init__(self, robot, planning_robot, dofs, q0, mimic, object_pairs, constraints, eps):
        CSpace.__init__(self)
        self.robot = robot
        self.planning_robot = planning_robot
        self.dofs = dofs
        self.q0 = list(q0)
        self.mimic = mimic
        self.object_pairs = object_pairs
        self.constraints = constraints
        qmin, qmax = robot.getJointLimits()
        self.setBounds([(qmin[d], qmax[d]) for d in dofs])
        self.eps = eps

    def lift(self, x) -> List[float]:
        """The configuration of the cell's robot at group coordinates ``x``."""
        q = list(self.q0)
        for d, v in zip(self.dofs, x):
            q[d] = v
        for dof, src, mult, off in self.mimic:
            q[dof] = mult * q[src] + off
        return q

    def _constraints_test(self, x) -> bool:
        return self.constraints.satisfied(self.lift(x))

    def _make_native(self):
        slot = {d: i for i, d in enumerate(self.dofs)}
        terms = [(i, d, 1.0) for i, d in enumerate(self.dofs)]
        # the carried objects' welded links sit at 0
        offset = list(self.q0) + [0.0] * (self.planning_robot.numLinks() - len(self.q0))
        for d in self.dofs:
            offset[d] = 0.0
        for dof, src, mult, off in self.mimic:
            if src in slot:
                terms.append((slot[src], dof, mult))
                offset[dof] = off
        native = motionplanning.robot_cspace(self.planning_robot, offset, terms, self.object_pairs, collider=True,
                                             collisionMargin=0.0, edgeCheck="bisection", eps=self.eps)
        if self.constraints:
            native.addFeasibilityTest("path constraints", self._constraints_test)
        return native

    def feasible(self, x) -> bool:
        return self.cspace.isFeasible(x)


class KlamptPlanMotion(PlanMotion):
    """Mixin: free-space motion planning for the klampt backend (PyBullet 2.0.1 has none)."""

    #: The options of :meth:`plan_motion`.
    MOTION_OPTIONS = ("allowed_planning_time", "smoothing_iterations", "num_goal_samples", "resolution", "seed",
                      "planner_id", "num_planning_attempts", "max_iterations", "path_constraints", "check_collision",
                      "time_step", "verbose") + TIMING_OPTIONS
    #: Joint tolerance of a ConfigurationTarget that gives none (rad or m), MoveIt's default.
    DEFAULT_TOLERANCE_JOINT = 0.01

    def plan_motion(self, target, start_state: RobotCellState, group: Optional[str] = None,
                    options: Optional[dict] = None) -> JointTrajectory:
        """A collision-free, timed joint trajectory of ``group`` from ``start_state`` to ``target``.

        Targets:

        - ConfigurationTarget: the group's joints by name. The goal region is
          ``[value - tolerance_below, value + tolerance_above]`` per joint
          (lists with one entry per target joint; ``None`` is
          ``DEFAULT_TOLERANCE_JOINT``, 0 is exact); the plan ends at the
          target value, clamped into the joint limits, or at a collision-free
          configuration of the region when that one collides.
        - FrameTarget / PointAxisTarget: up to ``num_goal_samples``
          collision-free IK solutions, tried nearest first.
        - ConstraintSetTarget: MoveIt's joint, position and orientation
          constraints (see ``_constraints``) as a goal region: goals are
          sampled by IK at the centre of the regions and kept when every
          constraint holds and they are collision-free.

        The path is planned on klampt's native robot C-space over the group's
        joints (``planner_id``; bidirectional RRT by default), shortcut, and
        every edge is checked at ``resolution``; it starts exactly at the start
        configuration and ends exactly at the goal. Collision checking is that
        of :meth:`check_collision` at the start state, with tools and bodies
        attached to the robot moving along. The trajectory stops at each
        path vertex (so it never leaves the checked straight edges), with
        samples every ``time_step`` in between, timed within the robot's
        velocity and acceleration limits.

        Options:
            allowed_planning_time (float): seconds (10).
            planner_id (str): one of :data:`PLANNERS` ("RRTConnect").
            num_planning_attempts (int): MoveIt's meaning: that many plans share
                the time and the shortest is returned (1).
            max_iterations (int): planner iterations per goal and attempt;
                exhausting them before the time is up raises MPNoPlanFoundError
                (no limit).
            smoothing_iterations (int): shortcutting iterations after a path is found (50).
            num_goal_samples (int): IK goals for Frame / PointAxis / ConstraintSet targets (5).
            resolution (float): edge-check step in the robot's C-space metric (0.01).
            path_constraints (list of Constraint): MoveIt's meaning: every
                configuration of the path satisfies them.
            check_collision (bool): False plans in the joint limits only: the
                straight joint path (True).
            max_velocity_scaling_factor, max_acceleration_scaling_factor
                (float): MoveIt's meaning: factors in (0, 1] on the limits.
            time_step (float): spacing of the samples between path vertices (0.1 s; 0: vertices only).
            seed (int): makes the plan reproducible.
            verbose (bool): print the planning steps.

        Raises:
            MPStartStateInCollisionError (also: the start violates the path
            constraints), MPTargetInCollisionError (also: every goal violates
            them), MPNoIKSolutionError, MPSearchTimeOutError (``time_elapsed``),
            MPNoPlanFoundError (``max_iterations`` spent),
            BackendTargetNotSupportedError (other targets), ValueError (an
            unknown or bad option, a target outside the joint limits).
        """
        client = self.client
        robot_cell = client.robot_cell
        group = group or robot_cell.main_group_name
        options = check_options(options, self.MOTION_OPTIONS, "plan_motion")
        allowed_time = float(options.get("allowed_planning_time", 10.0))
        smoothing = int(options.get("smoothing_iterations", 50))
        resolution = float(options.get("resolution", 0.01))
        planner_id = options.get("planner_id", "RRTConnect")
        if planner_id not in PLANNERS:
            raise ValueError("plan_motion: unknown planner_id {!r}; use one of {}".format(planner_id, ", ".join(PLANNERS)))
        attempts = int(options.get("num_planning_attempts", 1))
        max_iterations = options.get("max_iterations")
        if attempts < 1 or (max_iterations is not None and max_iterations < 1):
            raise ValueError("plan_motion: num_planning_attempts and max_iterations must be >= 1")
        check = bool(options.get("check_collision", True))
        verbose = bool(options.get("verbose", False))
        if not isinstance(target, (ConfigurationTarget, FrameTarget, PointAxisTarget, ConstraintSetTarget)):
            raise BackendTargetNotSupportedError("plan_motion of the klampt backend does not support {}".format(type(target).__name__))
        if not start_state.robot_configuration:
            raise ValueError("start_state.robot_configuration must be provided.")
        robot_cell.assert_cell_state_match(start_state)
        path_constraints = ConstraintSet(client, options.get("path_constraints"))
        if "seed" in options:
            random.seed(options["seed"])
            motionplanning.set_random_seed(int(options["seed"]))
        t0 = time.time()

        self.set_robot_cell_state(start_state)
        if check:
            try:
                self.check_collision(start_state, {"_skip_set_robot_cell_state": True})
            except CollisionCheckError as e:
                raise MPStartStateInCollisionError("plan_motion: the start state is in collision.\n  - " + e.message,
                                                   start_state=start_state, collision_pairs=e.collision_pairs)
        if path_constraints and not path_constraints.satisfied():
            raise MPStartStateInCollisionError("plan_motion: the start state violates the path constraints: "
                                               + "; ".join(path_constraints.violations()), start_state=start_state)

        names = robot_cell.get_configurable_joint_names(group)
        dofs = [client.joint_dof[n] for n in names]
        robot = client.robot
        q0 = robot.getConfig()
        qmin, qmax = robot.getJointLimits()
        bounds = [(qmin[d], qmax[d]) if math.isfinite(qmin[d]) and math.isfinite(qmax[d]) else (-math.pi, math.pi)
                  for d in dofs]
        start = [q0[d] for d in dofs]
        goals = self._motion_goals(target, start_state, group, names, bounds, options, check)
        if path_constraints:
            goals = [g for g in goals if path_constraints.satisfied(self._with_group(q0, dofs, g))]
            robot.setConfig(q0)
            if not goals:
                raise MPTargetInCollisionError("plan_motion: every goal violates the path constraints", target=target)
        if verbose:
            print("plan_motion: {} goal(s), planner {}, {} attempt(s)".format(len(goals), planner_id, attempts))

        # the start may lie outside the joint limits by rounding: plan from its clamped copy
        start_in = [min(max(v, lo), hi) for v, (lo, hi) in zip(start, bounds)]
        path, exhausted = None, False
        if not check and not path_constraints:
            path = [list(start_in), list(goals[0])]
        else:
            space = self._group_space(start_state, dofs, q0, path_constraints, resolution, check)
            try:
                for i, goal in enumerate(goals):
                    # each remaining goal gets an equal share of the remaining time, split among the attempts
                    goal_deadline = time.time() + (t0 + allowed_time - time.time()) / (len(goals) - i)
                    for k in range(attempts):
                        deadline = time.time() + (goal_deadline - time.time()) / (attempts - k)
                        found, spent = self._plan(space, start_in, goal, deadline, smoothing, planner_id, max_iterations)
                        exhausted = exhausted or spent
                        if verbose:
                            print("plan_motion: goal {} attempt {}: {}".format(i, k, "path of {} vertices".format(len(found))
                                                                           if found else "no path"))
                        if found is not None and (path is None or self._length(found) < self._length(path)):
                            path = found
                    if path is not None:
                        break
            finally:
                space.close()
        robot.setConfig(q0)
        self._place_objects(start_state)
        elapsed = time.time() - t0
        if path is None:
            if exhausted and elapsed < allowed_time:
                raise MPNoPlanFoundError("plan_motion: no path found in {} iterations per goal (max_iterations)".format(max_iterations))
            raise MPSearchTimeOutError("plan_motion: no path found within {:.3f} s".format(allowed_time), time_elapsed=elapsed)
        path[0] = start
        joint_types = robot_cell.get_configurable_joint_types(group)
        trajectory = JointTrajectory(joint_names=names, start_state=start_state, fraction=1.0)
        for x in path:
            trajectory.points.append(JointTrajectoryPoint(joint_values=list(x), joint_types=joint_types, joint_names=names))
        trajectory.planning_time = elapsed
        time_trajectory(client, trajectory, options, stop_at_every_point=True, time_step=float(options.get("time_step", 0.1)))
        return trajectory

    @staticmethod
    def _with_group(q, dofs, values):
        q = list(q)
        for d, v in zip(dofs, values):
            q[d] = v
        return q

    def _length(self, path) -> float:
        return sum(math.dist(a, b) for a, b in zip(path, path[1:]))

    def _group_space(self, state, dofs, q0, path_constraints, resolution, check) -> _GroupCSpace:
        """The native group C-space at ``state`` (the world already posed there).

        Without ``check``, only the joint limits (and path constraints) are
        tested. With it, the tested pairs are those of :meth:`check_collision`
        at ``state``: a link, or a carried tool or body (a link of the planning
        robot), against another as a self-collision pair; against a
        stationary tool or body as a link-object pair. Pairs between two
        stationary objects cannot change and are left to the start check.
        """
        client = self.client
        carried = self._attached_offsets(state) if check else []
        world, robot, carried_links = client._carrying_robot(carried)
        link_of = {obj.index: link for (obj, _, _), link in zip(carried, carried_links)}

        def bodies(key):
            if key[0] == "link":
                return [("link", client.link_index[key[1]])]
            return [("link", link_of[o.index]) if o.index in link_of else ("object", o.index) for o in self._objects_of(key)]

        object_pairs = []
        if not check:
            n = robot.numLinks()
            for i in range(n):
                for j in range(i + 1, n):
                    robot.enableSelfCollision(i, j, False)
        else:
            for c in self._cell_checks(state):
                if c.skip:
                    continue
                for kind_a, a in bodies(c.key_a):
                    for kind_b, b in bodies(c.key_b):
                        if kind_a == "link" and kind_b == "link":
                            robot.enableSelfCollision(a, b, True)
                        elif kind_a == "link":
                            object_pairs.append((a, "object", b, -1))
                        elif kind_b == "link":
                            object_pairs.append((b, "object", a, -1))
        space = _GroupCSpace(client.robot, robot, dofs, q0, client.mimic, object_pairs, path_constraints, resolution)
        space.planning_world = world  # the robot's world lives as long as the space
        return space

    def _objects_of(self, key):
        client = self.client
        if key[0] == "tool":
            return [p.obj for p in client.tool_parts[key[1]]]
        return client.rigid_body_objects[key[1]]

    def _plan(self, space, start, goal, deadline, smoothing, planner_id, max_iterations):
        """``(path or None, whether max_iterations ran out)`` from ``start`` to ``goal`` before ``deadline``."""
        kind, bidirectional = PLANNERS[planner_id]
        plan = MotionPlan(space, type=kind, bidirectional=bidirectional, shortcut=True, perturbationRadius=0.5)
        try:
            plan.setEndpoints(start, goal)
            if space.isVisible(start, goal):
                return [list(start), list(goal)], False
            path = None
            iterations = 0
            while path is None:
                if time.time() >= deadline:
                    return None, False
                if max_iterations is not None and iterations >= max_iterations:
                    return None, True
                step = 20 if max_iterations is None else min(20, max_iterations - iterations)
                plan.planMore(step)
                iterations += step
                path = plan.getPath()
                if path is not None and len(path) == 0:
                    path = None
            plan.planMore(smoothing)
            path = plan.getPath() or path
            return [list(x) for x in path], False
        finally:
            plan.close()

    def _goal_state(self, start_state, names, values):
        state = start_state.copy()
        for n, v in zip(names, values):
            state.robot_configuration[n] = v
        return state

    def _is_free(self, state) -> Optional[CollisionCheckError]:
        """``None`` when ``state`` is collision-free, else the error."""
        try:
            self.check_collision(state)
            return None
        except CollisionCheckError as e:
            return e

    def _motion_goals(self, target, start_state, group, names, bounds, options, check) -> List[List[float]]:
        """The goal configurations of the group, nearest to the start first; collision-free when ``check``."""
        try:
            if isinstance(target, ConfigurationTarget):
                return [self._configuration_goal(target, start_state, group, names, bounds, check)]
            if isinstance(target, ConstraintSetTarget):
                solutions = self._constraint_goals(target, start_state, group, names, bounds, options, check)
            else:
                ik_options = {"max_results": int(options.get("num_goal_samples", 5)), "check_collision": check}
                if "seed" in options:
                    ik_options["seed"] = options["seed"]
                try:
                    solutions = [[s[n] for n in names] for s in self.iter_inverse_kinematics(target, start_state, group, ik_options)]
                except InverseKinematicsError as e:
                    raise MPNoIKSolutionError("plan_motion: no collision-free IK solution for the target.\n" + e.message,
                                              target=target)
        finally:
            self.set_robot_cell_state(start_state)
        start = [start_state.robot_configuration[n] for n in names]
        # a revolute joint at v or v + 2 pi is the same posture: take the one nearest the start
        turns = [self.client.mapping.joint_type[n] != Joint.PRISMATIC for n in names]
        goals = [[self._nearest_turn(v, v0, lo, hi) if turn else v
                  for v, v0, (lo, hi), turn in zip(s, start, bounds, turns)] for s in solutions]
        goals.sort(key=lambda g: sum((a - b) ** 2 for a, b in zip(g, start)))
        return goals

    def _configuration_goal(self, target, start_state, group, names, bounds, check) -> List[float]:
        cfg = target.target_configuration
        missing = [n for n in names if n not in cfg.joint_names]
        if missing:
            raise ValueError("the target configuration lacks the group's joints {}".format(missing))
        tolerances = {}
        for attribute in ("tolerance_above", "tolerance_below"):
            tol = getattr(target, attribute)
            if tol is None:
                tol = [self.DEFAULT_TOLERANCE_JOINT] * len(cfg.joint_names)
            if not isinstance(tol, (list, tuple)) or len(tol) != len(cfg.joint_names):
                raise ValueError("ConfigurationTarget.{} must list one value per target joint ({}), got {!r}".format(
                    attribute, len(cfg.joint_names), tol))
            if any(t < 0 for t in tol):
                raise ValueError("ConfigurationTarget.{} must be >= 0, got {!r}".format(attribute, tol))
            tolerances[attribute] = dict(zip(cfg.joint_names, tol))
        above, below = tolerances["tolerance_above"], tolerances["tolerance_below"]
        for n in cfg.joint_names:
            if n not in names and abs(cfg[n] - start_state.robot_configuration[n]) > max(above[n], below[n]):
                raise ValueError("plan_motion: joint '{}' of the target is not in group '{}', whose joints alone move".format(n, group))
        goal, region = [], []
        for n, (lo, hi) in zip(names, bounds):
            v = cfg[n]
            region_lo, region_hi = max(v - below[n], lo), min(v + above[n], hi)
            if region_lo > region_hi:
                raise ValueError("plan_motion: the target value {} of joint '{}' is outside its limits [{}, {}] "
                                 "(tolerance -{} / +{})".format(v, n, lo, hi, below[n], above[n]))
            goal.append(min(max(v, region_lo), region_hi))
            region.append((region_lo, region_hi))
        if not check:
            return goal
        error = self._is_free(self._goal_state(start_state, names, goal))
        if error is None:
            return goal
        rng = random.Random(0)
        for _ in range(200):
            sample = [rng.uniform(lo, hi) for lo, hi in region]
            if self._is_free(self._goal_state(start_state, names, sample)) is None:
                return sample
        raise MPTargetInCollisionError("plan_motion: the target configuration is in collision.\n  - " + error.message,
                                       target=target, collision_pairs=error.collision_pairs)

    def _constraint_goals(self, target, start_state, group, names, bounds, options, check) -> List[List[float]]:
        """Collision-free configurations of the group meeting every constraint, by IK at the regions' centres."""
        client = self.client
        constraints = ConstraintSet(client, target.constraint_set)
        if not constraints:
            raise ValueError("plan_motion: the ConstraintSetTarget has no constraints")
        dofs = [client.joint_dof[n] for n in names]
        for dof, lo, hi, name in constraints.joints:
            if dof not in dofs and not lo <= start_state.robot_configuration[name] <= hi:
                raise ValueError("plan_motion: joint '{}' of the constraints is not in group '{}'".format(name, group))
        wanted = int(options.get("num_goal_samples", 5))
        rng = random.Random(options.get("seed", 0))
        robot = client.robot
        self.set_robot_cell_state(start_state)
        q_start = robot.getConfig()
        solver = None
        objectives = constraints.objectives()
        if objectives:
            solver = IKSolver(robot)
            for obj in objectives:
                solver.add(obj)
            solver.setActiveDofs(dofs)
            solver.setTolerance(1e-10)
            solver.setMaxIters(100)
        joint_ranges = {dof: (max(lo, bounds[dofs.index(dof)][0]), min(hi, bounds[dofs.index(dof)][1]))
                        for dof, lo, hi, _ in constraints.joints if dof in dofs}
        goals, met, collision = [], False, None
        for attempt in range(200):
            if len(goals) >= wanted:
                break
            q = list(q_start)
            if attempt > 0:
                for d, (lo, hi) in zip(dofs, bounds):
                    q[d] = rng.uniform(lo, hi)
            for d, (lo, hi) in joint_ranges.items():
                if not lo <= q[d] <= hi:
                    q[d] = rng.uniform(lo, hi) if lo <= hi else q[d]
            robot.setConfig(q)
            if solver is not None:
                solver.solve()
            if not constraints.satisfied():
                continue
            met = True
            values = [robot.getConfig()[d] for d in dofs]
            if any(max(abs(a - b) for a, b in zip(values, g)) < 1e-3 for g in goals):
                continue
            if check:
                error = self._is_free(self._goal_state(start_state, names, values))
                robot.setConfig(q_start)
                if error is not None:
                    collision = error
                    continue
            goals.append(values)
        if goals:
            return goals
        if met and collision is not None:
            raise MPTargetInCollisionError("plan_motion: every configuration found meeting the constraints collides.\n  - "
                                           + collision.message, target=target, collision_pairs=collision.collision_pairs)
        raise MPNoIKSolutionError("plan_motion: no configuration of group '{}' meets the constraints".format(group),
                                  target=target)

    @staticmethod
    def _nearest_turn(v: float, reference: float, lo: float, hi: float) -> float:
        """``v`` shifted by whole turns to the value within [lo, hi] nearest ``reference`` (the same posture)."""
        best = v
        for k in (-2, -1, 1, 2):
            w = v + 2 * math.pi * k
            if lo <= w <= hi and abs(w - reference) < abs(best - reference):
                best = w
        return best

    def _attached_offsets(self, state: RobotCellState):
        """``(object, link, T_link_object)`` for every visible tool part and body that moves with the robot."""
        client = self.client
        robot_cell = client.robot_cell
        result = []
        tool_links = {}
        for tool_id, ts in state.tool_states.items():
            if ts.is_hidden or not ts.attached_to_group:
                continue
            link = client.robot.link(client.link_index[robot_cell.get_end_effector_link_name(ts.attached_to_group)])
            T_base = convert.frame_to_se3(ts.attachment_frame)
            tool_links[tool_id] = (link, T_base)
            tool_model = robot_cell.tool_models[tool_id]
            for part in client.tool_parts[tool_id]:
                T = part.T_base_link if ts.configuration is None else \
                    convert.tool_link_transform(tool_model, part.link_name, ts.configuration)
                result.append((part.obj, link, se3.mul(T_base, T)))
        for body_id, bs in state.rigid_body_states.items():
            if bs.is_hidden:
                continue
            if bs.attached_to_tool in tool_links:
                link, T_base = tool_links[bs.attached_to_tool]
                T = convert.workpiece_transform(T_base, robot_cell.tool_models[bs.attached_to_tool], bs)
            elif bs.attached_to_link:
                link = client.robot.link(client.link_index[bs.attached_to_link])
                T = convert.frame_to_se3(bs.attachment_frame)
            else:
                continue
            result += [(obj, link, T) for obj in client.rigid_body_objects[body_id]]
        return result
