"""``plan_motion``: collision-free joint paths with klampt's bidirectional RRT (:mod:`klampt.plan`)."""

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

__all__ = ["KlamptPlanMotion"]


class _GroupSpace(CSpace):
    """The C-space of a planning group's joints; feasible = collision-free (every pair the backend checks)."""

    def __init__(self, robot, dofs, bounds, q_template, mimic, attached, pairs, eps, weights):
        CSpace.__init__(self)
        self.robot = robot
        self.dofs = dofs
        self.q = list(q_template)
        self.mimic = mimic
        self.attached = attached
        self.pairs = pairs
        self.setBounds(bounds)
        self.eps = eps
        self.properties["metricWeights"] = weights

    def set_config(self, x):
        q = self.q
        for d, v in zip(self.dofs, x):
            q[d] = v
        for dof, src, mult, off in self.mimic:
            q[dof] = mult * q[src] + off
        self.robot.setConfig(q)
        for obj, link, T in self.attached:
            obj.setTransform(*se3.mul(link.getTransform(), T))

    def feasible(self, x) -> bool:
        if not CSpace.feasible(self, x):
            return False
        self.set_config(x)
        for a, b in self.pairs:
            if a.collides(b):
                return False
        return True


class KlamptPlanMotion(PlanMotion):
    """Mixin: free-space motion planning for the klampt backend (PyBullet 2.0.1 has none)."""

    def plan_motion(self, target, start_state: RobotCellState, group: Optional[str] = None,
                    options: Optional[dict] = None) -> JointTrajectory:
        """A collision-free joint trajectory of ``group`` from ``start_state`` to ``target``.

        ``target`` is a ConfigurationTarget (the group's joints by name,
        clamped into the joint limits within ``tolerance_above/below``), or a
        FrameTarget / PointAxisTarget (up to ``num_goal_samples``
        collision-free IK solutions, tried nearest first). The path is found
        by a bidirectional RRT with straight-line connections over the group's
        joints, shortcut, and every edge is checked at ``resolution``; the
        trajectory starts exactly at the start configuration and ends exactly
        at the goal. Collision checking is that of :meth:`check_collision`
        at the start state, with tools and bodies attached to the robot
        moving along.

        Options:
            allowed_planning_time (float): seconds (10).
            smoothing_iterations (int): shortcutting iterations after a path is found (50).
            num_goal_samples (int): IK goals for Frame / PointAxis targets (5).
            resolution (float): edge-check step in radians; prismatic joints
                are checked at half of it in meters (0.01).
            seed (int): makes the plan reproducible.

        Raises:
            MPStartStateInCollisionError, MPTargetInCollisionError,
            MPNoIKSolutionError, MPSearchTimeOutError (``time_elapsed``),
            MPNoPlanFoundError, BackendTargetNotSupportedError (other targets).
        """
        client = self.client
        robot_cell = client.robot_cell
        group = group or robot_cell.main_group_name
        options = dict(options or {})
        allowed_time = float(options.get("allowed_planning_time", 10.0))
        smoothing = int(options.get("smoothing_iterations", 50))
        resolution = float(options.get("resolution", 0.01))
        if not isinstance(target, (ConfigurationTarget, FrameTarget, PointAxisTarget)):
            raise BackendTargetNotSupportedError("plan_motion of the klampt backend does not support {}".format(type(target).__name__))
        if not start_state.robot_configuration:
            raise ValueError("start_state.robot_configuration must be provided.")
        robot_cell.assert_cell_state_match(start_state)
        if "seed" in options:
            random.seed(options["seed"])
            motionplanning.set_random_seed(int(options["seed"]))
        t0 = time.time()

        self.set_robot_cell_state(start_state)
        try:
            self.check_collision(start_state, {"_skip_set_robot_cell_state": True})
        except CollisionCheckError as e:
            raise MPStartStateInCollisionError("plan_motion: the start state is in collision.\n  - " + e.message,
                                               start_state=start_state, collision_pairs=e.collision_pairs)

        names = robot_cell.get_configurable_joint_names(group)
        dofs = [client.joint_dof[n] for n in names]
        robot = client.robot
        q0 = robot.getConfig()
        qmin, qmax = robot.getJointLimits()
        bounds = [(qmin[d], qmax[d]) if math.isfinite(qmin[d]) and math.isfinite(qmax[d]) else (-math.pi, math.pi)
                  for d in dofs]
        prismatic = [client.mapping.joint_type[n] == Joint.PRISMATIC for n in names]
        start = [q0[d] for d in dofs]
        goals = self._motion_goals(target, start_state, group, names, bounds, options)

        space = _GroupSpace(robot, dofs, bounds, q0, client.mimic, self._attached_offsets(start_state),
                            self._moving_pairs(start_state), resolution, [2.0 if p else 1.0 for p in prismatic])
        # the start may lie outside the joint limits by rounding: plan from its clamped copy
        start_in = [min(max(v, lo), hi) for v, (lo, hi) in zip(start, bounds)]
        try:
            path = None
            for i, goal in enumerate(goals):
                # each remaining goal gets an equal share of the remaining time
                deadline = time.time() + (t0 + allowed_time - time.time()) / (len(goals) - i)
                path = self._plan(space, start_in, goal, deadline, smoothing)
                if path is not None:
                    break
        finally:
            space.close()
        robot.setConfig(q0)
        self._place_objects(start_state)
        elapsed = time.time() - t0
        if path is None:
            if elapsed >= allowed_time:
                raise MPSearchTimeOutError("plan_motion: no path found within {:.3f} s".format(allowed_time), time_elapsed=elapsed)
            raise MPNoPlanFoundError("plan_motion: no path found")
        path[0] = start
        joint_types = robot_cell.get_configurable_joint_types(group)
        trajectory = JointTrajectory(joint_names=names, start_state=start_state, fraction=1.0)
        for x in path:
            trajectory.points.append(JointTrajectoryPoint(joint_values=list(x), joint_types=joint_types, joint_names=names))
        return trajectory

    def _plan(self, space, start, goal, deadline, smoothing) -> Optional[List[List[float]]]:
        """A path from ``start`` to ``goal`` or ``None`` once ``deadline`` passes."""
        plan = MotionPlan(space, type="rrt", bidirectional=True, shortcut=True, perturbationRadius=0.5)
        try:
            plan.setEndpoints(start, goal)
            if space.isVisible(start, goal):
                return [list(start), list(goal)]
            path = None
            while path is None:
                if time.time() >= deadline:
                    return None
                plan.planMore(20)
                path = plan.getPath()
                if path is not None and len(path) == 0:
                    path = None
            plan.planMore(smoothing)
            path = plan.getPath() or path
            return [list(x) for x in path]
        finally:
            plan.close()

    def _motion_goals(self, target, start_state, group, names, bounds, options) -> List[List[float]]:
        """The goal configurations of the group, nearest to the start first; checked collision-free."""
        if isinstance(target, ConfigurationTarget):
            cfg = target.target_configuration
            missing = [n for n in names if n not in cfg.joint_names]
            if missing:
                raise ValueError("the target configuration lacks the group's joints {}".format(missing))
            above = target.tolerance_above or [0.0] * len(names)
            below = target.tolerance_below or [0.0] * len(names)
            tol = dict(zip(cfg.joint_names, zip(above, below))) if len(above) == len(cfg.joint_names) else {}
            goal = []
            for n, (lo, hi) in zip(names, bounds):
                v = cfg[n]
                ta, tb = tol.get(n, (0.0, 0.0))
                if lo - tb <= v < lo:
                    v = lo
                elif hi < v <= hi + ta:
                    v = hi
                if not lo <= v <= hi:
                    raise ValueError("plan_motion: the target value {} of joint '{}' is outside its limits [{}, {}]".format(v, n, lo, hi))
                goal.append(v)
            goal_state = start_state.copy()
            for n, v in zip(names, goal):
                goal_state.robot_configuration[n] = v
            try:
                self.check_collision(goal_state)
            except CollisionCheckError as e:
                raise MPTargetInCollisionError("plan_motion: the target configuration is in collision.\n  - " + e.message,
                                               target=target, collision_pairs=e.collision_pairs)
            finally:
                self.set_robot_cell_state(start_state)
            return [goal]
        ik_options = {"max_results": int(options.get("num_goal_samples", 5)), "check_collision": True}
        if "seed" in options:
            ik_options["seed"] = options["seed"]
        try:
            solutions = list(self.iter_inverse_kinematics(target, start_state, group, ik_options))
        except InverseKinematicsError as e:
            raise MPNoIKSolutionError("plan_motion: no collision-free IK solution for the target.\n" + e.message, target=target)
        finally:
            self.set_robot_cell_state(start_state)
        start = [start_state.robot_configuration[n] for n in names]
        # a revolute joint at v or v + 2 pi is the same posture: take the one nearest the start
        turns = [self.client.mapping.joint_type[n] != Joint.PRISMATIC for n in names]
        goals = [[self._nearest_turn(s[n], v0, lo, hi) if turn else s[n]
                  for n, v0, (lo, hi), turn in zip(names, start, bounds, turns)] for s in solutions]
        goals.sort(key=lambda g: sum((a - b) ** 2 for a, b in zip(g, start)))
        return goals

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

    def _moving_pairs(self, state: RobotCellState):
        """The checked geometry pairs of which at least one side moves with the robot."""
        moving = {("tool", t) for t, ts in state.tool_states.items() if ts.attached_to_group}
        moving.update(("body", b) for b, bs in state.rigid_body_states.items()
                      if bs.attached_to_link or (bs.attached_to_tool and ("tool", bs.attached_to_tool) in moving))
        return [(a, b) for a, b, ka, kb in self._collision_geometry_pairs(state)
                if ka[0] == "link" or kb[0] == "link" or ka in moving or kb in moving]
