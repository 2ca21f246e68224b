"""``KlamptPlanner``: every COMPAS FAB backend feature, on klampt."""

from compas_fab.backends.interfaces import PlannerInterface

from .backend_features import (
    KlamptCheckCollision,
    KlamptForwardKinematics,
    KlamptInverseKinematics,
    KlamptPlanActionChain,
    KlamptPlanCartesianMotion,
    KlamptPlanMotion,
    KlamptSetRobotCell,
    KlamptSetRobotCellState,
)
from .client import KlamptClient

__all__ = ["KlamptPlanner"]


class KlamptPlanner(
    KlamptSetRobotCell,
    KlamptSetRobotCellState,
    KlamptCheckCollision,
    KlamptForwardKinematics,
    KlamptInverseKinematics,
    KlamptPlanCartesianMotion,
    KlamptPlanMotion,
    KlamptPlanActionChain,
    PlannerInterface,
):
    """A COMPAS FAB planner backed by a :class:`KlamptClient`.

    Features: ``set_robot_cell``, ``set_robot_cell_state``,
    ``check_collision``, ``forward_kinematics``,
    ``forward_kinematics_to_link``, ``inverse_kinematics``,
    ``iter_inverse_kinematics``, ``plan_cartesian_motion``,
    ``plan_motion`` and, beyond COMPAS FAB's interfaces,
    ``plan_action_chain`` (a whole pick-and-place, backtracking over IK
    choices; steps from :mod:`klampt.compas_fab.steps`).
    """

    def __init__(self, client: KlamptClient):
        super().__init__()
        self._client = client
