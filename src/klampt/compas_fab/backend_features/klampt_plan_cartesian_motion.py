"""``plan_cartesian_motion``: IK along interpolated frames or point-axes, seeded by the previous point."""

from math import pi
from typing import Optional

from compas_fab.backends import (
    CollisionCheckError,
    InverseKinematicsError,
    MPInterpolationInCollisionError,
    MPMaxJumpError,
    MPNoIKSolutionError,
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

__all__ = ["KlamptPlanCartesianMotion"]


class KlamptPlanCartesianMotion(PlanCartesianMotion):
    """Mixin: Cartesian motion planning for the klampt backend."""

    def plan_cartesian_motion(self, waypoints, start_state: RobotCellState, group: Optional[str] = None,
                              options: Optional[dict] = None) -> JointTrajectory:
        """A joint trajectory whose target frame moves linearly through ``waypoints``.

        The path from the current frame through every waypoint is cut into
        steps of at most ``max_step_distance`` / ``max_step_angle``; each
        step is solved by IK seeded at the previous point. For
        FrameWaypoints a joint jump above ``max_jump_revolute`` /
        ``max_jump_prismatic`` halves the step, down to ``min_step_distance``
        / ``min_step_angle``; for PointAxisWaypoints the solver tries other
        rotations about the axis. The trajectory starts at the start
        configuration and has ``fraction=1.0``.

        Options: max_step_distance (0.01 m), max_step_angle (0.1 rad),
        min_step_distance (1e-4 m), min_step_angle (1e-4 rad),
        max_jump_prismatic (0.1 m), max_jump_revolute (pi/2),
        check_collision (True), skip_preplanning_collision_check (False),
        verbose (False).

        Raises:
            MPStartStateInCollisionError, MPTargetInCollisionError,
            MPNoIKSolutionError, MPInterpolationInCollisionError,
            MPMaxJumpError (each but the first two with ``partial_trajectory``).
        """
        robot_cell = self.client.robot_cell
        group = group or robot_cell.main_group_name
        waypoints = waypoints.normalized_to_meters()
        start_state.assert_target_mode_match(waypoints.target_mode, group)
        if not start_state.robot_configuration:
            raise ValueError("start_state.robot_configuration must be provided.")
        if not start_state.robot_configuration.joint_names:
            raise ValueError("start_state.robot_configuration.joint_names must be provided.")
        robot_cell.assert_cell_state_match(start_state)
        if not isinstance(waypoints, (FrameWaypoints, PointAxisWaypoints)):
            raise NotImplementedError("Only PointAxisWaypoints and FrameWaypoints are supported.")

        options = dict(options or {})
        options.setdefault("max_step_distance", 0.01)
        options.setdefault("max_step_angle", 0.1)
        options.setdefault("min_step_distance", 1e-4)
        options.setdefault("min_step_angle", 1e-4)
        options.setdefault("max_jump_prismatic", 0.1)
        options.setdefault("max_jump_revolute", pi / 2)
        options.setdefault("check_collision", True)
        options.setdefault("skip_preplanning_collision_check", False)
        verbose = options.setdefault("verbose", False)

        self.set_robot_cell_state(start_state)
        if options["check_collision"]:
            try:
                self.check_collision(start_state, dict(options, _skip_set_robot_cell_state=True))
            except CollisionCheckError as e:
                raise MPStartStateInCollisionError(
                    "plan_cartesian_motion: The start_state for plan_cartesian_motion is in collision. \n  - " + e.message,
                    start_state=start_state, collision_pairs=e.collision_pairs)
            if not options["skip_preplanning_collision_check"] and isinstance(waypoints, FrameWaypoints):
                pcf_frames = robot_cell.target_frames_to_pcf(start_state, waypoints.target_frames, waypoints.target_mode, group)
                for pcf_frame in pcf_frames:
                    try:
                        self.check_collision_for_attached_objects_in_planning_group(start_state, group, pcf_frame, options)
                    except CollisionCheckError as e:
                        raise MPTargetInCollisionError(
                            "plan_cartesian_motion: The target frame for plan_cartesian_motion is in collision. \n  - " + e.message,
                            target=pcf_frame, collision_pairs=e.collision_pairs)
                self.set_robot_cell_state(start_state)

        joint_names = robot_cell.get_configurable_joint_names(group)
        joint_types = robot_cell.get_configurable_joint_types(group)
        trajectory = JointTrajectory(joint_names=joint_names, start_state=start_state)
        trajectory.points.append(JointTrajectoryPoint(
            joint_values=[start_state.robot_configuration[n] for n in joint_names],
            joint_types=joint_types, joint_names=joint_names))
        # IK runs on a private copy of the state whose group joints follow the trajectory
        intermediate_state = start_state.copy()
        ik_options = dict(options, max_results=1, return_full_configuration=False)
        start_frame = self.forward_kinematics(start_state, waypoints.target_mode, group)

        def solve(target, max_results=1):
            for name, value in zip(joint_names, trajectory.points[-1].joint_values):
                intermediate_state.robot_configuration[name] = value
            return self._iter_ik(target, intermediate_state, group, dict(ik_options, max_results=max_results))

        if isinstance(waypoints, FrameWaypoints):
            self._cartesian_frames(waypoints, start_frame, solve, trajectory, joint_names, joint_types, options, verbose)
        else:
            self._cartesian_point_axes(waypoints, start_frame, solve, trajectory, joint_names, joint_types, options)
        trajectory.fraction = 1.0
        return trajectory

    def _cartesian_frames(self, waypoints, start_frame, solve, trajectory, joint_names, joint_types, options, verbose):
        n = len(waypoints.target_frames)
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
                    check_max_jump(joint_names, joint_types, trajectory.points[-1].joint_values, values, options)
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

    def _cartesian_point_axes(self, waypoints, start_frame, solve, trajectory, joint_names, joint_types, options):
        previous = (start_frame.point, start_frame.zaxis)
        for i, point_axis in enumerate(waypoints.target_points_and_axes):
            interpolator = PointAxisInterpolator(previous, point_axis, max_step_distance=options["max_step_distance"],
                                                 max_step_angle=options["max_step_angle"])
            steps = interpolator.regular_interpolation_steps
            for j in range(1, steps + 1):
                point, axis = interpolator.get_interpolated_point_axis(j / steps)
                target = PointAxisTarget(point, axis, waypoints.target_mode,
                                         tolerance_position=waypoints.tolerance_position,
                                         tolerance_orientation=waypoints.tolerance_orientation)
                prefix = "plan_cartesian_motion(): Segment {}, Inverse Kinematics failed at t={}.\n".format(i, j / steps)
                last = trajectory.points[-1].joint_values
                jump_error = None
                try:
                    # the first solution is seeded at the previous point; later ones restart at random
                    for configuration in solve(target, max_results=10):
                        values = [configuration[name] for name in joint_names]
                        try:
                            check_max_jump(joint_names, joint_types, last, values, options)
                        except MPMaxJumpError as e:
                            jump_error = e
                            continue
                        trajectory.points.append(JointTrajectoryPoint(joint_values=values, joint_types=joint_types, joint_names=joint_names))
                        break
                    else:
                        jump_error.partial_trajectory = trajectory
                        raise jump_error
                except InverseKinematicsError as e:
                    raise MPNoIKSolutionError(message=prefix + e.message, target=target, partial_trajectory=trajectory)
                except CollisionCheckError as e:
                    raise MPInterpolationInCollisionError(message=prefix + e.message, target=target,
                                                          collision_pairs=e.collision_pairs, partial_trajectory=trajectory)
            previous = point_axis
