"""``set_robot_cell_state``: poses the robot, tools and rigid bodies of the klampt world."""

from typing import Optional

from compas_fab.backends.interfaces import SetRobotCellState
from compas_fab.robots import RobotCellState

from ...io import compas_fab as convert
from ._options import check_options

__all__ = ["KlamptSetRobotCellState"]


class KlamptSetRobotCellState(SetRobotCellState):
    """Mixin: ``set_robot_cell_state`` for the klampt backend."""

    def set_robot_cell_state(self, robot_cell_state: RobotCellState, options: Optional[dict] = None):
        """Poses the klampt world as ``robot_cell_state`` says.

        Joints are set by name (mimic joints follow their source); the robot
        base frame becomes the root's parent transform, so link transforms
        are in the world frame. An attached tool sits at its group's end
        effector link times ``attachment_frame``; a body attached to a tool at
        tool base * ``tool.frame`` * ``attachment_frame``; a body attached to a
        link at link * ``attachment_frame``; everything else at its ``frame``.
        The state is kept by reference as ``client.robot_cell_state``.
        ``options`` takes none (PyBullet's has no options).

        Raises:
            ValueError: the state's tools or bodies do not match the cell, a
                body is attached to a missing or hidden tool, or an option.
        """
        check_options(options, (), "set_robot_cell_state")
        client = self.client
        robot_cell = client.robot_cell
        if robot_cell is None:
            raise ValueError("set_robot_cell() must be called before set_robot_cell_state()")
        robot_cell.assert_cell_state_match(robot_cell_state)
        for body_id, body_state in robot_cell_state.rigid_body_states.items():
            tool_id = body_state.attached_to_tool
            if tool_id:
                if tool_id not in robot_cell_state.tool_states:
                    raise ValueError("State inconsistency: Rigid body {} is attached to a non-existent tool {}".format(body_id, tool_id))
                if robot_cell_state.tool_states[tool_id].is_hidden:
                    raise ValueError("State inconsistency: Rigid body {} is attached to a hidden tool {}".format(body_id, tool_id))
        if client.robot is not None:
            client._set_base(robot_cell_state.robot_base_frame)
            q = client.robot.getConfig()
            if robot_cell_state.robot_configuration:
                q = convert.configuration_to_config(robot_cell_state.robot_configuration, client.mapping, q)
            client.robot.setConfig(q)
        self._place_objects(robot_cell_state)
        client._robot_cell_state = robot_cell_state
        client._state_serial += 1

    def _place_objects(self, robot_cell_state: RobotCellState) -> None:
        """Poses the tools and rigid bodies from the robot's current link transforms."""
        client = self.client
        robot_cell = client.robot_cell
        has_robot_configuration = bool(robot_cell_state.robot_configuration) and client.robot is not None
        tool_bases = {}
        for tool_id, tool_state in robot_cell_state.tool_states.items():
            if tool_state.is_hidden:
                continue
            if tool_state.attached_to_group:
                if not has_robot_configuration:
                    continue
                link = robot_cell.get_end_effector_link_name(tool_state.attached_to_group)
                T = convert.tool_base_transform(client._link_transform(link), tool_state)
            else:
                T = convert.frame_to_se3(tool_state.frame)
            tool_bases[tool_id] = T
            client._place_tool(tool_id, T, tool_state.configuration)
        for body_id, body_state in robot_cell_state.rigid_body_states.items():
            if body_state.is_hidden:
                continue
            if body_state.attached_to_tool:
                if body_state.attached_to_tool not in tool_bases:
                    continue
                tool_model = robot_cell.tool_models[body_state.attached_to_tool]
                T = convert.workpiece_transform(tool_bases[body_state.attached_to_tool], tool_model, body_state)
            elif body_state.attached_to_link:
                if not has_robot_configuration:
                    continue
                T = convert.link_attachment_transform(client._link_transform(body_state.attached_to_link), body_state)
            else:
                T = convert.frame_to_se3(body_state.frame)
            client._place_rigid_body(body_id, T)

    def set_attached_tool_and_rigid_body_state(self, state: RobotCellState, group: str, planner_coordinate_frame) -> None:
        """Poses the tool attached to ``group`` and the bodies on it as if the group's end effector were at
        ``planner_coordinate_frame`` (a compas ``Frame`` in the world frame)."""
        client = self.client
        robot_cell = client.robot_cell
        T_pcf = convert.frame_to_se3(planner_coordinate_frame)
        tool_bases = {}
        for tool_id, tool_state in state.tool_states.items():
            if tool_state.attached_to_group == group:
                T = convert.tool_base_transform(T_pcf, tool_state)
                tool_bases[tool_id] = T
                client._place_tool(tool_id, T, tool_state.configuration)
        for body_id, body_state in state.rigid_body_states.items():
            if body_state.attached_to_tool in tool_bases:
                tool_model = robot_cell.tool_models[body_state.attached_to_tool]
                client._place_rigid_body(body_id, convert.workpiece_transform(tool_bases[body_state.attached_to_tool], tool_model, body_state))
