"""``forward_kinematics`` and ``forward_kinematics_to_link`` read from the klampt robot."""

from typing import Optional

from compas_fab.backends import PlanningGroupNotExistsError
from compas_fab.backends.interfaces import ForwardKinematics
from compas_fab.robots import RobotCellState, TargetMode

from ...io import compas_fab as convert
from ._options import check_options

__all__ = ["KlamptForwardKinematics"]


class KlamptForwardKinematics(ForwardKinematics):
    """Mixin: forward kinematics for the klampt backend."""

    def forward_kinematics(self, robot_cell_state: RobotCellState, target_mode: TargetMode, group: Optional[str] = None,
                           native_scale: Optional[float] = None, options: Optional[dict] = None):
        """The world frame of the group's planner (ROBOT), tool (TOOL) or workpiece (WORKPIECE) frame.

        Equals ``RobotCell.forward_kinematics_target_frame``: the robot base
        frame is applied once. ``native_scale`` divides the point (e.g. 0.001
        returns millimeters). ``options`` takes none (as PyBullet's).

        Raises:
            TargetModeMismatchError: TOOL without an attached tool, or
                WORKPIECE without an attached workpiece.
            PlanningGroupNotExistsError: unknown ``group``.
            ValueError: an option.
        """
        options = check_options(options, (), "forward_kinematics")
        client = self.client
        robot_cell = client.robot_cell
        group = group or robot_cell.main_group_name
        robot_cell_state.assert_target_mode_match(target_mode, group)
        if group not in robot_cell.group_names:
            raise PlanningGroupNotExistsError("Planning group '{}' is not supported by the klampt planner.".format(group))
        if not options.get("_skip_set_robot_cell_state", False):
            self.set_robot_cell_state(robot_cell_state)
        link_name = robot_cell.get_end_effector_link_name(group)
        pcf = convert.se3_to_frame(client._link_transform(link_name))
        if target_mode != TargetMode.ROBOT:
            pcf = robot_cell.pcf_to_target_frames(robot_cell_state, pcf, target_mode, group)
        return convert.scale_frame(pcf, native_scale)

    def forward_kinematics_to_link(self, robot_cell_state: RobotCellState, link_name: Optional[str] = None,
                                   native_scale: Optional[float] = None, options: Optional[dict] = None):
        """The world frame of a robot link (default: the main group's end effector link).

        ``options`` takes none (as PyBullet's).

        Raises:
            ValueError: unknown link name, or an option.
        """
        options = check_options(options, (), "forward_kinematics_to_link")
        client = self.client
        robot_cell = client.robot_cell
        if link_name is None:
            link_name = robot_cell.get_end_effector_link_name(robot_cell.main_group_name)
        if link_name not in client.link_index:
            raise ValueError("Link '{}' is not a link of the robot".format(link_name))
        if not options.get("_skip_set_robot_cell_state", False):
            self.set_robot_cell_state(robot_cell_state)
        return convert.scale_frame(convert.se3_to_frame(client._link_transform(link_name)), native_scale)
