"""``plan_action_chain``: a whole sequence of motions and state changes, backtracking over IK choices."""

import math
from typing import List, Optional, Sequence

from compas_fab.backends import InverseKinematicsError, MotionPlanningError, MPNoPlanFoundError
from compas_fab.robots import ActionChain, ConfigurationTarget, FrameWaypoints, PointAxisWaypoints, RobotCellState
from compas_robots import Configuration
from compas_robots.model import Joint

from ..steps import Motion, StateChange
from ._options import check_options
from .klampt_plan_cartesian_motion import depth_first_search

__all__ = ["KlamptPlanActionChain"]


class _Outcome:
    """One planned step: its trajectory (or ``None`` for a state change) and the state after it."""

    def __init__(self, step, trajectory, post_state: RobotCellState):
        self.step = step
        self.trajectory = trajectory
        self.post_state = post_state


def _after(state: RobotCellState, trajectory) -> RobotCellState:
    """``state`` with the trajectory's joints at its last point (``ActionChain``'s post-state rule)."""
    new = state.copy()
    last = trajectory.points[-1]
    for name, value in zip(trajectory.joint_names, last.joint_values):
        new.robot_configuration[name] = value
    return new


class KlamptPlanActionChain:
    """Mixin: planning a whole :class:`~compas_fab.robots.ActionChain` (no COMPAS FAB backend does)."""

    #: The options of :meth:`plan_action_chain`.
    CHAIN_OPTIONS = ("num_choices", "verbose")

    def plan_action_chain(self, start_state: RobotCellState, steps: Sequence, group: Optional[str] = None,
                          name: str = "action chain", options: Optional[dict] = None) -> ActionChain:
        """Plans ``steps`` one after the other from ``start_state`` and returns the filled ``ActionChain``.

        Each step is a :class:`~klampt.compas_fab.steps.Motion` (free:
        :meth:`plan_motion`; linear: :meth:`plan_cartesian_motion` to the
        target's frame or point-axis) or a
        :class:`~klampt.compas_fab.steps.StateChange` (e.g.
        :func:`~klampt.compas_fab.steps.attach_workpiece`). A free motion to a
        FrameTarget or PointAxisTarget is where the chain chooses: its goal is
        one of up to ``num_choices`` collision-free IK solutions, nearest to
        the current configuration first. When a later step cannot be planned
        from what came before, the search backtracks to the latest choice
        with alternatives left (depth first), so e.g. an approach ends in the
        arm posture from which the straight insertion after it is feasible.

        Every action's ``start_state`` is the previous one's ``post_state``;
        trajectories are timed (see :meth:`plan_motion`).

        Options:
            num_choices (int): IK solutions tried per choice (8).
            verbose (bool): print the search.

        Raises:
            MPNoPlanFoundError: no sequence of choices plans every step; the
                message names the furthest step reached and its last error.
            ValueError: an unknown step type, a duplicate name or an unknown option.
        """
        options = check_options(options, self.CHAIN_OPTIONS, "plan_action_chain")
        robot_cell = self.client.robot_cell
        group = group or robot_cell.main_group_name
        for s in steps:
            if not isinstance(s, (Motion, StateChange)):
                raise ValueError("plan_action_chain: {!r} is neither a Motion nor a StateChange".format(s))
        names = [s.name for s in steps]
        if len(set(names)) != len(names):
            raise ValueError("plan_action_chain: step names must be unique: {}".format(names))
        num_choices = int(options.get("num_choices", 8))
        verbose = bool(options.get("verbose", False))
        failures = {}  # step index -> last error

        def candidates(k, previous: Optional[_Outcome]):
            state = start_state if previous is None else previous.post_state
            return self._step_outcomes(steps[k], k, state, group, num_choices, failures, verbose)

        path, longest = depth_first_search(len(steps), candidates, lambda a, b: True)
        if path is None:
            k = len(longest)
            error = failures.get(k)
            raise MPNoPlanFoundError("plan_action_chain: step {} ('{}') could not be planned after any earlier choice; "
                                     "last error: {}".format(k, steps[k].name, getattr(error, "message", error)))
        chain = ActionChain(name, start_state, robot_cell)
        for outcome in path:
            if outcome.trajectory is not None:
                chain.append_trajectory(outcome.step.name, outcome.trajectory, tags=outcome.step.tags)
            else:
                chain.append_state_change(outcome.step.name, outcome.post_state, tags=outcome.step.tags)
        return chain

    def _step_outcomes(self, step, k, state, group, num_choices, failures, verbose):
        """The ways step ``k`` can be planned from ``state`` (a generator; one for all but free motions to frames)."""
        if isinstance(step, StateChange):
            yield _Outcome(step, None, step.change(state, self))
            return
        names = self.client.robot_cell.get_configurable_joint_names(group)
        if step.motion == "linear":
            target = step.target.normalized_to_meters()
            tolerances = dict(tolerance_position=target.tolerance_position, tolerance_orientation=target.tolerance_orientation)
            if hasattr(target, "target_frame"):
                waypoints = FrameWaypoints([target.target_frame], target.target_mode, **tolerances)
            else:
                waypoints = PointAxisWaypoints([(target.target_point, target.target_z_axis)], target.target_mode, **tolerances)
            attempts = [lambda: self.plan_cartesian_motion(waypoints, state, group, step.options)]
        elif step.has_choices:
            attempts = [lambda goal=goal: self.plan_motion(self._exact_target(goal, names, state), state, group, step.options)
                        for goal in self._choices(step, state, group, names, num_choices, failures, k)]
        else:
            attempts = [lambda: self.plan_motion(step.target, state, group, step.options)]
        for i, attempt in enumerate(attempts):
            try:
                trajectory = attempt()
            except MotionPlanningError as e:
                failures[k] = e
                if verbose:
                    print("plan_action_chain: step {} '{}' option {} failed: {}".format(k, step.name, i, e.message.splitlines()[0]))
                continue
            if verbose:
                print("plan_action_chain: step {} '{}' option {} planned".format(k, step.name, i))
            yield _Outcome(step, trajectory, _after(state, trajectory))

    def _choices(self, step, state, group, names, num_choices, failures, k) -> List[List[float]]:
        """Collision-free IK solutions of a free motion's target, nearest to ``state`` first."""
        try:
            solutions = list(self.iter_inverse_kinematics(step.target, state, group,
                                                          {"max_results": num_choices, "check_collision": True}))
        except InverseKinematicsError as e:
            failures[k] = e
            return []
        client = self.client
        start = [state.robot_configuration[n] for n in names]
        qmin, qmax = client.robot.getJointLimits()
        goals = []
        for s in solutions:
            goal = []
            for n, v0 in zip(names, start):
                d = client.joint_dof[n]
                v = s[n]
                if client.mapping.joint_type[n] != Joint.PRISMATIC and math.isfinite(qmin[d]) and math.isfinite(qmax[d]):
                    v = self._nearest_turn(v, v0, qmin[d], qmax[d])
                goal.append(v)
            goals.append(goal)
        return sorted(goals, key=lambda g: math.dist(g, start))

    def _exact_target(self, values, names, state) -> ConfigurationTarget:
        types = [state.robot_configuration.joint_types[state.robot_configuration.joint_names.index(n)] for n in names]
        return ConfigurationTarget(Configuration(list(values), types, list(names)), [0.0] * len(names), [0.0] * len(names))
