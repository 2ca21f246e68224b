"""The steps of :meth:`KlamptPlanner.plan_action_chain`: motions to targets and changes of the cell state.

A :class:`Motion` moves the planning group to a target, ``"free"`` (``plan_motion``) or ``"linear"``
(``plan_cartesian_motion`` to the target's frame or point-axis). A :class:`StateChange` turns the state
reached so far into the next one; :func:`attach_workpiece` and :func:`release_workpiece` make the usual ones.
"""

from typing import Callable, List, Optional

from compas.geometry import Frame, Transformation
from compas_fab.robots import FrameTarget, PointAxisTarget, RobotCellState, TargetMode

__all__ = ["Motion", "StateChange", "attach_workpiece", "release_workpiece"]

MOTION_KINDS = ("free", "linear")


class Motion:
    """A motion of the planning group to ``target``.

    Args:
        name: the action's name in the chain (unique).
        target: a ConfigurationTarget, FrameTarget, PointAxisTarget or
            ConstraintSetTarget for ``"free"``; a FrameTarget or
            PointAxisTarget for ``"linear"``.
        motion: ``"free"`` or ``"linear"``.
        options: options of ``plan_motion`` / ``plan_cartesian_motion``.
        tags: the action's tags (default ``[motion]``).

    Raises:
        ValueError: an unknown motion kind or a target a linear motion cannot follow.
    """

    def __init__(self, name: str, target, motion: str = "free", options: Optional[dict] = None,
                 tags: Optional[List[str]] = None):
        if motion not in MOTION_KINDS:
            raise ValueError("Motion {!r}: motion must be one of {}; got {!r}".format(name, MOTION_KINDS, motion))
        if motion == "linear" and not isinstance(target, (FrameTarget, PointAxisTarget)):
            raise ValueError("Motion {!r}: a linear motion needs a FrameTarget or PointAxisTarget, got {}".format(
                name, type(target).__name__))
        self.name = name
        self.target = target
        self.motion = motion
        self.options = dict(options or {})
        self.tags = list(tags) if tags is not None else [motion]

    @property
    def has_choices(self) -> bool:
        """Whether the planner chooses among IK solutions of the target (a free motion to a frame or point-axis)."""
        return self.motion == "free" and isinstance(self.target, (FrameTarget, PointAxisTarget))


class StateChange:
    """A discrete change of the cell state: ``change(state, planner)`` returns the new state (a copy).

    Args:
        name: the action's name in the chain (unique).
        change: the function; it may read the robot through ``planner``
            (e.g. forward kinematics) but must not modify ``state``.
        tags: the action's tags (default ``["state_change"]``).
    """

    def __init__(self, name: str, change: Callable[[RobotCellState, object], RobotCellState],
                 tags: Optional[List[str]] = None):
        self.name = name
        self.change = change
        self.tags = list(tags) if tags is not None else ["state_change"]


def _pose(frame) -> Transformation:
    return Transformation.from_frame(frame)


def _body_world_pose(state: RobotCellState, body_id: str, planner) -> Transformation:
    """The world pose of a rigid body at ``state``."""
    bs = state.rigid_body_states[body_id]
    if bs.attached_to_tool:
        group = state.tool_states[bs.attached_to_tool].attached_to_group
        tcf = planner.forward_kinematics(state, TargetMode.TOOL, group)
        return _pose(tcf) * _pose(bs.attachment_frame or Frame.worldXY())
    if bs.attached_to_link:
        link = planner.forward_kinematics_to_link(state, bs.attached_to_link)
        return _pose(link) * _pose(bs.attachment_frame or Frame.worldXY())
    return _pose(bs.frame)


def attach_workpiece(name: str, body_id: str, tool_id: Optional[str] = None, link_name: Optional[str] = None,
                     touch_links: Optional[List[str]] = None, tags: Optional[List[str]] = None) -> StateChange:
    """A grasp: the rigid body ``body_id`` becomes attached where it is, to the tool ``tool_id`` (its tool
    coordinate frame) or to the robot link ``link_name``; ``touch_links`` replace the body's when given.

    Raises:
        ValueError: neither or both of ``tool_id`` and ``link_name``.
    """
    if (tool_id is None) == (link_name is None):
        raise ValueError("attach_workpiece {!r}: give exactly one of tool_id and link_name".format(name))

    def change(state: RobotCellState, planner) -> RobotCellState:
        T_body = _body_world_pose(state, body_id, planner)
        new = state.copy()
        bs = new.rigid_body_states[body_id]
        if tool_id is not None:
            group = state.tool_states[tool_id].attached_to_group
            if not group:
                raise ValueError("attach_workpiece {!r}: tool '{}' is not attached to a group".format(name, tool_id))
            T_parent = _pose(planner.forward_kinematics(state, TargetMode.TOOL, group))
            bs.attached_to_tool, bs.attached_to_link = tool_id, None
        else:
            T_parent = _pose(planner.forward_kinematics_to_link(state, link_name))
            bs.attached_to_link, bs.attached_to_tool = link_name, None
        bs.attachment_frame = Frame.from_transformation(T_parent.inverse() * T_body)
        if touch_links is not None:
            bs.touch_links = list(touch_links)
        return new

    return StateChange(name, change, tags if tags is not None else ["grasp"])


def release_workpiece(name: str, body_id: str, touch_links: Optional[List[str]] = None,
                      tags: Optional[List[str]] = None) -> StateChange:
    """A release: the rigid body ``body_id`` is detached and stays where it is; ``touch_links`` replace its own when given."""

    def change(state: RobotCellState, planner) -> RobotCellState:
        T_body = _body_world_pose(state, body_id, planner)
        new = state.copy()
        bs = new.rigid_body_states[body_id]
        bs.frame = Frame.from_transformation(T_body)
        bs.attached_to_tool = bs.attached_to_link = None
        bs.attachment_frame = None
        if touch_links is not None:
            bs.touch_links = list(touch_links)
        return new

    return StateChange(name, change, tags if tags is not None else ["release"])

