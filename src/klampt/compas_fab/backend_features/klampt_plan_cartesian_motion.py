"""``plan_cartesian_motion``: IK along interpolated frames (subdivided on joint jumps) or point-axes (depth-first)."""

import math
from math import pi
from typing import Callable, Iterator, Optional

from compas.geometry import Frame, Plane, Rotation
from compas_fab.backends import (
    CollisionCheckError,
    InverseKinematicsError,
    MPInterpolationInCollisionError,
    MPMaxJumpError,
    MPNoIKSolutionError,
    MPNoPlanFoundError,
    MPStartStateInCollisionError,
    MPTargetInCollisionError,
)
from compas_fab.backends.interfaces import PlanCartesianMotion
from compas_fab.backends.pybullet.backend_features.helpers import check_max_jump
from compas_fab.robots import (
    FrameInterpolator,
    FrameTarget,
    FrameWaypoints,
    JointTrajectory,
    JointTrajectoryPoint,
    PointAxisInterpolator,
    PointAxisTarget,
    PointAxisWaypoints,
    RobotCellState,
)

from ._constraints import ConstraintSet
from ._options import aliased, check_options
from ._timing import TIMING_OPTIONS, time_trajectory

__all__ = ["KlamptPlanCartesianMotion", "depth_first_search"]

#: Spins of the tool about a point-axis target tried by the pre-planning collision check.
PREPLANNING_SPINS = 24


def depth_first_search(num_steps: int, candidates: Callable[[int, object], Iterator], accept: Callable[[object, object], bool]):
    """A sequence ``c_1 .. c_n`` with ``c_k`` drawn from ``candidates(k, c_{k-1})`` and ``accept(c_{k-1}, c_k)`` true.

    ``candidates(0, None)`` gives the first step's choices (accepted without
    ``accept``). Steps are tried depth first: when step k has no acceptable
    candidate left, the search backtracks to the next candidate of step
    k - 1. Candidates are drawn lazily, so a path that goes straight through
    costs one draw per step.

    Returns:
        ``(path, longest)``: the full path (``None`` when the search is
        exhausted) and the longest partial path met. An exception raised by
        ``candidates`` propagates with the longest partial path as its
        ``longest`` attribute.
    """
    path: list = []
    longest: list = []
    try:
        return _depth_first(num_steps, candidates, accept, path, longest)
    except Exception as e:
        e.longest = longest
        raise


def _depth_first(num_steps, candidates, accept, path, longest):
    stack = [candidates(0, None)]
    while stack:
        prev = path[-1] if path else None
        for c in stack[-1]:
            if len(path) == 0 or accept(prev, c):
                break
        else:
            stack.pop()
            if path:
                path.pop()
            continue
        path.append(c)
        if len(path) > len(longest):
            longest[:] = path
        if len(path) == num_steps:
            return path, longest
        stack.append(candidates(len(path), c))
    return None, longest


def _jump_options(options: dict) -> dict:
    """The max-jump thresholds for ``check_max_jump``; 0 disables a check (as PyBullet documents)."""
    return {"max_jump_prismatic": options["max_jump_prismatic"] or math.inf,
            "max_jump_revolute": options["max_jump_revolute"] or math.inf}


class KlamptPlanCartesianMotion(PlanCartesianMotion):
    """Mixin: Cartesian motion planning for the klampt backend."""

    #: The options of :meth:`plan_cartesian_motion`.
    CARTESIAN_OPTIONS = ("max_step_distance", "max_step", "max_step_angle", "min_step_distance", "min_step_angle",
                         "max_jump_prismatic", "max_jump_revolute", "jump_threshold", "check_collision",
                         "avoid_collisions", "skip_preplanning_collision_check", "path_constraints",
                         "sample_start_configuration", "max_results_per_step", "verbose") + TIMING_OPTIONS

    def plan_cartesian_motion(self, waypoints, start_state: RobotCellState, group: Optional[str] = None,
                              options: Optional[dict] = None) -> JointTrajectory:
        """A timed joint trajectory whose target frame moves linearly through ``waypoints``.

        The path from the current frame through every waypoint is cut into
        steps of at most ``max_step_distance`` / ``max_step_angle``, each
        solved by IK seeded at the previous point.

        - FrameWaypoints (PyBullet's algorithm): a joint jump above
          ``max_jump_revolute`` / ``max_jump_prismatic`` halves the step, down
          to ``min_step_distance`` / ``min_step_angle`` (then MPMaxJumpError).
        - PointAxisWaypoints: a depth-first search over the IK solutions of
          every step (the one seeded at the previous point first, then up to
          ``max_results_per_step`` others), backtracking when a step has no
          solution within the jump limits of the previous one, as PyBullet.

        The trajectory starts at the start configuration (or, with
        ``sample_start_configuration``, at a sampled one), has
        ``fraction=1.0`` and is timed (``time_from_start``, velocities,
        accelerations) by a spline through its points within the robot's
        velocity and acceleration limits, at rest at both ends.

        Options:
            max_step_distance (float): 0.01 m; ``max_step`` is MoveIt's synonym.
            max_step_angle (float): 0.1 rad.
            min_step_distance, min_step_angle (float): 1e-4 m, 1e-4 rad (FrameWaypoints).
            max_jump_prismatic (float): 0.1 m; 0 disables the check.
            max_jump_revolute (float): pi/2 rad; 0 disables the check;
                ``jump_threshold`` is MoveIt's synonym.
            check_collision (bool): True; ``avoid_collisions`` is MoveIt's synonym.
            skip_preplanning_collision_check (bool): skip checking the attached
                tool and workpieces at every waypoint before planning (False
                for FrameWaypoints; True for PointAxisWaypoints, where the check
                passes when one of ``PREPLANNING_SPINS`` spins of the tool
                about the axis is free).
            path_constraints (list of Constraint): MoveIt's meaning: every
                point satisfies them (an IK solution that does not is skipped).
            sample_start_configuration (bool): PyBullet's meaning
                (PointAxisWaypoints only): the start is any IK solution of the
                start point-axis, the start state's configuration only seeds it.
            max_results_per_step (int): IK solutions tried per point-axis step (10).
            max_velocity_scaling_factor, max_acceleration_scaling_factor
                (float): MoveIt's meaning: factors in (0, 1] on the limits.
            verbose (bool): print the subdivisions and the search.

        Raises:
            MPStartStateInCollisionError, MPTargetInCollisionError,
            MPNoIKSolutionError (a step without any IK solution),
            MPInterpolationInCollisionError (a step whose IK solutions all
            collide), MPMaxJumpError (FrameWaypoints: no subdivision helps),
            MPNoPlanFoundError (PointAxisWaypoints: every branch of the search
            ends in a jump), each but the first two with ``partial_trajectory``;
            ValueError (an unknown or inconsistent option).
        """
        robot_cell = self.client.robot_cell
        group = group or robot_cell.main_group_name
        options = check_options(options, self.CARTESIAN_OPTIONS, "plan_cartesian_motion")
        waypoints = waypoints.normalized_to_meters()
        start_state.assert_target_mode_match(waypoints.target_mode, group)
        if not start_state.robot_configuration:
            raise ValueError("start_state.robot_configuration must be provided.")
        if not start_state.robot_configuration.joint_names:
            raise ValueError("start_state.robot_configuration.joint_names must be provided.")
        robot_cell.assert_cell_state_match(start_state)
        if not isinstance(waypoints, (FrameWaypoints, PointAxisWaypoints)):
            raise NotImplementedError("Only PointAxisWaypoints and FrameWaypoints are supported.")
        point_axes = isinstance(waypoints, PointAxisWaypoints)

        options["max_step_distance"] = aliased(options, "max_step_distance", "max_step", float, 0.01)
        options["max_jump_revolute"] = aliased(options, "max_jump_revolute", "jump_threshold", float, pi / 2)
        options["check_collision"] = aliased(options, "check_collision", "avoid_collisions", bool, True)
        options.setdefault("max_step_angle", 0.1)
        options.setdefault("min_step_distance", 1e-4)
        options.setdefault("min_step_angle", 1e-4)
        options.setdefault("max_jump_prismatic", 0.1)
        options.setdefault("skip_preplanning_collision_check", point_axes)
        options.setdefault("max_results_per_step", 10)
        verbose = options.setdefault("verbose", False)
        if options.get("sample_start_configuration") and not point_axes:
            raise ValueError("the option 'sample_start_configuration' applies to PointAxisWaypoints only")
        ConstraintSet(self.client, options.get("path_constraints"))  # reports bad constraints before planning

        self.set_robot_cell_state(start_state)
        if options["check_collision"]:
            if not options.get("sample_start_configuration"):
                try:
                    self.check_collision(start_state, {"_skip_set_robot_cell_state": True})
                except CollisionCheckError as e:
                    raise MPStartStateInCollisionError(
                        "plan_cartesian_motion: The start_state for plan_cartesian_motion is in collision. \n  - " + e.message,
                        start_state=start_state, collision_pairs=e.collision_pairs)
            if not options["skip_preplanning_collision_check"]:
                self._preplanning_check(waypoints, start_state, group)
                self.set_robot_cell_state(start_state)

        joint_names = robot_cell.get_configurable_joint_names(group)
        joint_types = robot_cell.get_configurable_joint_types(group)
        trajectory = JointTrajectory(joint_names=joint_names, start_state=start_state)
        trajectory.points.append(JointTrajectoryPoint(
            joint_values=[start_state.robot_configuration[n] for n in joint_names],
            joint_types=joint_types, joint_names=joint_names))
        ik_options = {"max_results": 1, "return_full_configuration": False, "check_collision": options["check_collision"],
                      "constraints": options.get("path_constraints")}
        start_frame = self.forward_kinematics(start_state, waypoints.target_mode, group)

        if point_axes:
            self._cartesian_point_axes(waypoints, start_state, start_frame, trajectory, group, joint_names, joint_types,
                                       ik_options, options)
        else:
            intermediate_state = start_state.copy()

            def solve(target):
                for name, value in zip(joint_names, trajectory.points[-1].joint_values):
                    intermediate_state.robot_configuration[name] = value
                return self._iter_ik(target, intermediate_state, group, ik_options)

            self._cartesian_frames(waypoints, start_frame, solve, trajectory, joint_names, joint_types, options, verbose)
        trajectory.fraction = 1.0
        time_trajectory(self.client, trajectory, options, stop_at_every_point=False)
        return trajectory

    def _preplanning_check(self, waypoints, start_state, group):
        """Raises MPTargetInCollisionError when the attached tool and workpieces collide at a waypoint
        (for a point-axis: at every spin about the axis)."""
        robot_cell = self.client.robot_cell
        if isinstance(waypoints, FrameWaypoints):
            frames_per_target = [[f] for f in waypoints.target_frames]
        else:
            frames_per_target = []
            for point, axis in waypoints.target_points_and_axes:
                base = Frame.from_plane(Plane(point, axis))
                spins = []
                for k in range(PREPLANNING_SPINS):
                    f = base.copy()
                    f.transform(Rotation.from_axis_and_angle(axis, 2 * pi * k / PREPLANNING_SPINS, point))
                    spins.append(f)
                frames_per_target.append(spins)
        for frames in frames_per_target:
            pcf_frames = robot_cell.target_frames_to_pcf(start_state, frames, waypoints.target_mode, group)
            error = None
            for pcf_frame in pcf_frames:
                try:
                    self.check_collision_for_attached_objects_in_planning_group(start_state, group, pcf_frame)
                    error = None
                    break
                except CollisionCheckError as e:
                    error = (pcf_frame, e)
            if error is not None:
                raise MPTargetInCollisionError(
                    "plan_cartesian_motion: The target frame for plan_cartesian_motion is in collision. \n  - " + error[1].message,
                    target=error[0], collision_pairs=error[1].collision_pairs)

    def _cartesian_frames(self, waypoints, start_frame, solve, trajectory, joint_names, joint_types, options, verbose):
        n = len(waypoints.target_frames)
        jump_options = _jump_options(options)
        for i, end_frame in enumerate(waypoints.target_frames):
            interpolator = FrameInterpolator(
                start_frame, end_frame,
                max_step_distance=options["max_step_distance"], max_step_angle=options["max_step_angle"],
                min_step_distance=options["min_step_distance"], min_step_angle=options["min_step_angle"])
            steps = interpolator.regular_interpolation_steps
            ts = [j / steps for j in range(steps + 1)]
            j = 1
            while j < len(ts):
                target = FrameTarget(interpolator.get_interpolated_frame(ts[j]), waypoints.target_mode,
                                     tolerance_position=waypoints.tolerance_position,
                                     tolerance_orientation=waypoints.tolerance_orientation)
                prefix = "plan_cartesian_motion(): Segment {}, Inverse Kinematics failed at t={}.\n".format(i, ts[j])
                try:
                    configuration = next(solve(target))
                except InverseKinematicsError as e:
                    raise MPNoIKSolutionError(message=prefix + e.message, target=target, partial_trajectory=trajectory)
                except CollisionCheckError as e:
                    raise MPInterpolationInCollisionError(message=prefix + e.message, target=target,
                                                          collision_pairs=e.collision_pairs, partial_trajectory=trajectory)
                values = [configuration[name] for name in joint_names]
                try:
                    check_max_jump(joint_names, joint_types, trajectory.points[-1].joint_values, values, jump_options)
                except MPMaxJumpError as e:
                    delta_distance, delta_angle, possible = interpolator.check_if_subdivision_possible(ts[j - 1], ts[j])
                    if not possible:
                        e.message = ("plan_cartesian_motion(): Segment {} of {}, Joint jump between t={} and t={} is too large.\n"
                                     "  -  {}\nCannot subdivide further, delta_distance={} (limit={}), delta_angle={} (limit={})."
                                     .format(i + 1, n, ts[j - 1], ts[j], e.message, delta_distance,
                                             options["min_step_distance"], delta_angle, options["min_step_angle"]))
                        e.partial_trajectory = trajectory
                        raise e
                    ts.insert(j, (ts[j - 1] + ts[j]) / 2)
                    if verbose:
                        print("Segment {} of {}: subdivided at t={:.5f} after a joint jump".format(i + 1, n, ts[j]))
                    continue
                trajectory.points.append(JointTrajectoryPoint(joint_values=values, joint_types=joint_types, joint_names=joint_names))
                j += 1
            start_frame = end_frame

    def _cartesian_point_axes(self, waypoints, start_state, start_frame, trajectory, group, joint_names, joint_types,
                              ik_options, options):
        """Fills ``trajectory`` by a depth-first search over the IK solutions of every interpolated point-axis."""
        verbose = options["verbose"]
        tolerances = dict(tolerance_position=waypoints.tolerance_position,
                          tolerance_orientation=waypoints.tolerance_orientation)
        targets = [PointAxisTarget(start_frame.point, start_frame.zaxis, waypoints.target_mode, **tolerances)]
        previous = (start_frame.point, start_frame.zaxis)
        for point_axis in waypoints.target_points_and_axes:
            interpolator = PointAxisInterpolator(previous, point_axis, max_step_distance=options["max_step_distance"],
                                                 max_step_angle=options["max_step_angle"])
            steps = interpolator.regular_interpolation_steps
            for j in range(1, steps + 1):
                point, axis = interpolator.get_interpolated_point_axis(j / steps)
                targets.append(PointAxisTarget(point, axis, waypoints.target_mode, **tolerances))
            previous = point_axis
        sample_start = bool(options.get("sample_start_configuration"))
        start_values = [start_state.robot_configuration[n] for n in joint_names]
        jump_options = _jump_options(options)
        per_step = int(options["max_results_per_step"])
        search_options = dict(ik_options, max_results=per_step, check_collision=False)
        check = ik_options["check_collision"]
        blocked = {}  # step -> (kind, exception) of a step no predecessor can pass

        def candidates(k, prev_values):
            if k == 0 and not sample_start:
                return iter([start_values])
            state = start_state.copy()
            for name, value in zip(joint_names, prev_values or start_values):
                state.robot_configuration[name] = value
            return self._step_solutions(k, targets[k], state, group, joint_names, search_options, check, blocked, verbose)

        def accept(prev_values, values):
            try:
                check_max_jump(joint_names, joint_types, prev_values, values, jump_options)
                return True
            except MPMaxJumpError:
                return False

        def partial(values_list):
            partial_trajectory = JointTrajectory(joint_names=joint_names, start_state=start_state)
            partial_trajectory.points = [JointTrajectoryPoint(joint_values=list(v), joint_types=joint_types,
                                                              joint_names=joint_names) for v in values_list or [start_values]]
            return partial_trajectory

        try:
            path, longest = depth_first_search(len(targets), candidates, accept)
        except (InverseKinematicsError, CollisionCheckError) as e:
            k, longest = e.step, e.longest
            message = "plan_cartesian_motion(): point-axis step {} of {}: ".format(k, len(targets) - 1)
            if isinstance(e, InverseKinematicsError):
                raise MPNoIKSolutionError(message=message + "no IK solution.\n" + e.message, target=targets[k],
                                          partial_trajectory=partial(longest))
            raise MPInterpolationInCollisionError(message=message + "every IK solution collides.\n" + e.message,
                                                  target=targets[k], collision_pairs=e.collision_pairs,
                                                  partial_trajectory=partial(longest))
        if path is None:
            raise MPNoPlanFoundError(
                "plan_cartesian_motion(): no trajectory through the {} interpolated point-axes within the joint jump limits; "
                "the longest covered {} of them.".format(len(targets), len(longest)), partial(longest))
        if verbose:
            print("plan_cartesian_motion(): point-axis search complete, {} points".format(len(path)))
        trajectory.points = partial(path).points
        if sample_start:
            trajectory.start_state = start_state.copy()
            for name, value in zip(joint_names, path[0]):
                trajectory.start_state.robot_configuration[name] = value

    def _step_solutions(self, k, target, state, group, joint_names, search_options, check, blocked, verbose):
        """The collision-free IK solutions of one point-axis step, seeded at ``state`` (a generator).

        Raises InverseKinematicsError / CollisionCheckError (with ``step``) when the
        step has no solution at all / only colliding ones: no backtracking can help.
        """
        if k in blocked:
            raise blocked[k]
        collided = None
        yielded = 0
        try:
            for configuration in self._iter_ik(target, state, group, search_options):
                values = [configuration[n] for n in joint_names]
                if check:
                    probe = state.copy()
                    for name, value in zip(joint_names, values):
                        probe.robot_configuration[name] = value
                    try:
                        self.check_collision(probe)
                    except CollisionCheckError as e:
                        collided = e
                        continue
                yielded += 1
                yield values
        except InverseKinematicsError as e:
            e.step = k
            blocked[k] = e
            raise
        if yielded == 0 and collided is not None:
            collided.step = k
            blocked[k] = collided
            if verbose:
                print("plan_cartesian_motion(): every IK solution of step {} collides".format(k))
            raise collided
