"""``inverse_kinematics`` / ``iter_inverse_kinematics``: klampt's IK solver with random restarts."""

import math
import random
import time
from typing import Iterator, List, Optional

from compas.geometry import Transformation
from compas_fab.backends import CollisionCheckError, InverseKinematicsError
from compas_fab.backends.interfaces import InverseKinematics
from compas_fab.robots import FrameTarget, PointAxisTarget, RobotCellState, TargetMode
from compas_robots.model import Joint

from ...io import compas_fab as convert
from ...math import so3, vectorops
from ...robotsim import IKObjective, IKSolver
from ._constraints import ConstraintSet
from ._options import aliased, check_options

__all__ = ["KlamptInverseKinematics"]


class KlamptInverseKinematics(InverseKinematics):
    """Mixin: inverse kinematics for the klampt backend.

    A FrameTarget is a fixed-transform objective on the group's end effector
    link (the target converted to the planner frame for TOOL and WORKPIECE
    modes); a PointAxisTarget is the exact 5-DOF objective "this point of
    the tool (or workpiece) at the target point, its z axis along the target
    axis", not a scan of rotations. Only the group's joints move. The first
    attempt starts at the state's configuration, later ones at uniformly
    random configurations of the group.
    """

    #: Position tolerance (m) when the target gives none (``None``).
    DEFAULT_TARGET_TOLERANCE_POSITION = 1e-6
    #: Orientation tolerance (rad) when the target gives none (``None``).
    DEFAULT_TARGET_TOLERANCE_ORIENTATION = 1e-6
    #: The residual at which the Newton solver stops.
    SOLVER_TOLERANCE = 1e-10
    #: The smallest error (m or rad) a solution is held to: a target tolerance of 0 (exact) means this one. It sits
    #: above ``SOLVER_TOLERANCE`` by the rounding of measuring the error again from the link transform.
    IK_TOLERANCE_FLOOR = 1e-9

    def inverse_kinematics(self, target, robot_cell_state: Optional[RobotCellState] = None, group: Optional[str] = None,
                           options: Optional[dict] = None):
        """The next IK solution of ``target`` (see :meth:`iter_inverse_kinematics` for the options).

        Repeated identical calls return the next distinct solution of the same
        search, as in every COMPAS FAB backend.

        Raises:
            InverseKinematicsError: no solution.
            CollisionCheckError: with ``max_results=1``, the solution collides.
        """
        group = group or self.client.robot_cell.main_group_name
        return super().inverse_kinematics(target, robot_cell_state, group, options)

    #: The options of :meth:`iter_inverse_kinematics`.
    IK_OPTIONS = ("max_results", "max_restarts", "attempts", "check_collision", "allow_collision",
                  "return_full_configuration", "solution_uniqueness_threshold_prismatic",
                  "solution_uniqueness_threshold_revolute", "max_descend_iterations", "seed", "verbose",
                  "semi-constrained", "timeout", "constraints")

    def iter_inverse_kinematics(self, target, robot_cell_state: Optional[RobotCellState] = None,
                                group: Optional[str] = None, options: Optional[dict] = None) -> Iterator:
        """Yields distinct IK solutions of a FrameTarget or PointAxisTarget (world frame).

        The world is set to ``robot_cell_state`` before every attempt that
        follows another planner call, so that solutions taken later from the
        generator are still solved and checked at this state.

        A solution is within the target's ``tolerance_position`` (m) and
        ``tolerance_orientation`` (rad) of it: ``None`` is the
        ``DEFAULT_TARGET_TOLERANCE_*`` default, 0 is exact, that is within
        ``IK_TOLERANCE_FLOOR``, the solver's own precision.

        Options:
            max_results (int): solutions to yield at most (100).
            max_restarts (int): IK attempts at most (``max(100, max_results)``);
                ``attempts`` (MoveIt before Noetic) is its synonym.
            check_collision (bool): skip colliding solutions (True). With
                ``max_results=1`` a colliding solution raises CollisionCheckError.
                ``allow_collision`` (MoveIt's legacy key) is its negation.
            return_full_configuration (bool): every configurable joint instead of
                the group's (False).
            solution_uniqueness_threshold_prismatic (float): 3e-4 m.
            solution_uniqueness_threshold_revolute (float): 1e-3 rad.
            max_descend_iterations (int): Newton iterations per attempt (100).
            seed (int): seed of the random restarts (0): the same query with
                the same seed yields the same solutions in the same order.
            semi-constrained (bool): PyBullet's meaning: only the target's
                position is solved for: the origin of the frame the target
                mode names (robot flange, tool or workpiece), or the point of a
                PointAxisTarget (False).
            timeout (float): MoveIt's meaning: seconds allowed to find each
                solution; once spent, the search stops (InverseKinematicsError
                if nothing was found).
            constraints (list of Constraint): MoveIt's meaning: joint, position
                and orientation constraints every solution also satisfies.
            verbose (bool): print skipped solutions.

        Raises:
            PlanningGroupNotExistsError, TargetModeMismatchError, InverseKinematicsError,
            ValueError (an unknown option, a negative tolerance).
        """
        robot_cell = self.client.robot_cell
        group = group or robot_cell.main_group_name
        options = check_options(options, self.IK_OPTIONS, "iter_inverse_kinematics")
        super().iter_inverse_kinematics(target, robot_cell_state, group, options)
        target = target.normalized_to_meters()
        if isinstance(target, (FrameTarget, PointAxisTarget)):
            return self._iter_ik(target, robot_cell_state, group, options)
        raise NotImplementedError("{} is not supported by KlamptInverseKinematics".format(type(target).__name__))

    # -- the search ----------------------------------------------------------

    def _ik_objective(self, target, robot_cell_state, group, position_only=False):
        """The klampt objective of a (meter-normalized) target and a function measuring its error."""
        client = self.client
        robot_cell = client.robot_cell
        link = client.link_index[robot_cell.get_end_effector_link_name(group)]
        obj = IKObjective()
        if isinstance(target, FrameTarget) and not position_only:
            target_pcf = robot_cell.target_frames_to_pcf(robot_cell_state, target.target_frame, target.target_mode, group)
            R, t = convert.frame_to_se3(target_pcf)
            obj.setFixedTransform(link, R, t)

            def error():
                Rc, tc = client.robot.link(link).getTransform()
                return vectorops.distance(tc, t), so3.distance(Rc, R)
            return obj, error, target_pcf
        # PointAxisTarget, or only the point of a FrameTarget: the tool / workpiece frame's origin
        # (and z axis) in the link frame
        if target.target_mode == TargetMode.TOOL:
            T_local = robot_cell.t_pcf_tcf(robot_cell_state, robot_cell_state.get_attached_tool_id(group))
        elif target.target_mode == TargetMode.WORKPIECE:
            workpiece_ids = robot_cell_state.get_attached_workpiece_ids(group)
            T_local = robot_cell.t_pcf_ocf(robot_cell_state, workpiece_ids[0])
        else:
            T_local = Transformation()
        R_l, p_l = convert.transformation_to_se3(T_local)
        z_l = R_l[6:9]
        if isinstance(target, FrameTarget):
            p_w, z_w = list(target.target_frame.point), None
        else:
            p_w, z_w = list(target.target_point), vectorops.unit(list(target.target_z_axis))
        obj.setFixedPoint(link, p_l, p_w)
        if not position_only:
            obj.setAxialRotConstraint(z_l, z_w)

        def error():
            Rc, tc = client.robot.link(link).getTransform()
            p = vectorops.add(so3.apply(Rc, p_l), tc)
            if position_only:
                return vectorops.distance(p, p_w), 0.0
            z = so3.apply(Rc, z_l)
            # atan2 stays precise near 0, where acos loses half the digits
            return vectorops.distance(p, p_w), math.atan2(vectorops.norm(vectorops.cross(z, z_w)), vectorops.dot(z, z_w))
        return obj, error, None

    def _target_tolerance(self, target, attribute: str, default: float) -> float:
        """The target's tolerance ``attribute``: ``default`` for ``None``, at least ``IK_TOLERANCE_FLOOR``."""
        value = getattr(target, attribute)
        if value is None:
            return default
        if not value >= 0:
            raise ValueError("{}.{} must be >= 0 (0 is exact) or None (the default), got {!r}".format(
                type(target).__name__, attribute, value))
        return max(float(value), self.IK_TOLERANCE_FLOOR)

    def _group_dofs(self, group: str):
        client = self.client
        names = client.robot_cell.get_configurable_joint_names(group)
        return names, [client.joint_dof[n] for n in names]

    def _iter_ik(self, target, robot_cell_state: RobotCellState, group: str, options: dict):
        client = self.client
        robot_cell = client.robot_cell
        max_results = options.get("max_results", 100)
        max_restarts = aliased(options, "max_restarts", "attempts", int, max(100, max_results))
        check_collision = aliased(options, "check_collision", "allow_collision", lambda v: not v, True)
        return_full = options.get("return_full_configuration", False)
        thresholds = (options.get("solution_uniqueness_threshold_prismatic", 3e-4),
                      options.get("solution_uniqueness_threshold_revolute", 1e-3))
        verbose = options.get("verbose", False)
        timeout = options.get("timeout")
        if timeout is not None and not timeout > 0:
            raise ValueError("the 'timeout' option must be > 0 seconds; got {!r}".format(timeout))
        # a fixed default seed: the same query gives the same solutions in the same order
        rng = random.Random(options.get("seed", 0))
        tol_pos = self._target_tolerance(target, "tolerance_position", self.DEFAULT_TARGET_TOLERANCE_POSITION)
        tol_ori = self._target_tolerance(target, "tolerance_orientation", self.DEFAULT_TARGET_TOLERANCE_ORIENTATION)

        self.set_robot_cell_state(robot_cell_state)
        serial = client._state_serial
        robot = client.robot
        constraints = ConstraintSet(client, options.get("constraints"))
        obj, error, target_pcf = self._ik_objective(target, robot_cell_state, group, options.get("semi-constrained", False))
        names, dofs = self._group_dofs(group)
        solver = IKSolver(robot)
        solver.add(obj)
        solver.setActiveDofs(dofs)
        solver.setTolerance(self.SOLVER_TOLERANCE)
        solver.setMaxIters(options.get("max_descend_iterations", 100))
        qmin, qmax = robot.getJointLimits()
        bounds = [(qmin[d], qmax[d]) if math.isfinite(qmin[d]) and math.isfinite(qmax[d]) else (-math.pi, math.pi)
                  for d in dofs]
        prismatic = [client.mapping.joint_type[n] == Joint.PRISMATIC for n in names]
        all_names = robot_cell.get_all_configurable_joint_names()
        start_configuration = robot_cell_state.robot_configuration
        q_start = robot.getConfig()
        collision_options = {"_skip_set_robot_cell_state": True}

        found: List[List[float]] = []
        t_search = time.time()
        for attempt in range(max_restarts):
            if len(found) >= max_results:
                return
            if timeout is not None and time.time() - t_search > timeout:
                break
            if client.robot is not robot:
                raise RuntimeError("iter_inverse_kinematics: the robot cell was replaced while the generator was in use")
            if client._state_serial != serial:
                # another planner call posed the world: pose it at this query's state again
                self.set_robot_cell_state(robot_cell_state)
                serial = client._state_serial
            q = list(q_start)
            if attempt > 0:
                for d, (lo, hi) in zip(dofs, bounds):
                    q[d] = rng.uniform(lo, hi)
            for dof, src, mult, off in client.mimic:
                q[dof] = mult * q[src] + off
            robot.setConfig(q)
            solver.solve()
            e_pos, e_ori = error()
            if not (e_pos <= tol_pos and e_ori <= tol_ori):
                continue
            q = robot.getConfig()
            values = [q[d] for d in dofs]
            if any(all(abs(v - w) <= thresholds[0] if p else abs(v - w) <= thresholds[1]
                       for v, w, p in zip(values, old, prismatic)) for old in found):
                continue
            if constraints and not constraints.satisfied():
                if verbose:
                    print("Constraints violated. Skipping this solution: " + "; ".join(constraints.violations()))
                continue
            if check_collision:
                self._place_objects(robot_cell_state)
                try:
                    self.check_collision(robot_cell_state, collision_options)
                except CollisionCheckError as e:
                    if verbose:
                        print("Collision detected. Skipping this solution.\n" + e.message)
                    if max_results == 1:
                        raise
                    continue
            found.append(values)
            configuration = self._build_configuration(
                [q[client.joint_dof[n]] for n in all_names], all_names, group, return_full, start_configuration)
            yield configuration
            t_search = time.time()
        if not found:
            why = "within the {} s timeout".format(timeout) if timeout is not None and time.time() - t_search > timeout \
                else "after {} attempts (max_restarts)".format(max_restarts)
            raise InverseKinematicsError("No solution found {}.".format(why), target_pcf=target_pcf)
