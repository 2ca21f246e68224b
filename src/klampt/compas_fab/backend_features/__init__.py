"""The backend features of :class:`~klampt.compas_fab.KlamptPlanner`, one mixin per module."""

from .klampt_set_robot_cell import KlamptSetRobotCell
from .klampt_set_robot_cell_state import KlamptSetRobotCellState
from .klampt_check_collision import KlamptCheckCollision
from .klampt_forward_kinematics import KlamptForwardKinematics
from .klampt_inverse_kinematics import KlamptInverseKinematics
from .klampt_plan_cartesian_motion import KlamptPlanCartesianMotion
from .klampt_plan_motion import KlamptPlanMotion
from .klampt_plan_action_chain import KlamptPlanActionChain

__all__ = [
    "KlamptSetRobotCell",
    "KlamptSetRobotCellState",
    "KlamptCheckCollision",
    "KlamptForwardKinematics",
    "KlamptInverseKinematics",
    "KlamptPlanCartesianMotion",
    "KlamptPlanMotion",
    "KlamptPlanActionChain",
]
