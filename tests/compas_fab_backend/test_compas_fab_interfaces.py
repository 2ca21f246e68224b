"""KlamptClient / KlamptPlanner follow COMPAS FAB's backend interfaces."""
import pytest

pytest.importorskip("compas_fab")

from compas_fab.backends import BackendTargetNotSupportedError  # noqa: E402
from compas_fab.backends.interfaces import (  # noqa: E402
    CheckCollision,
    ClientInterface,
    ForwardKinematics,
    InverseKinematics,
    PlanCartesianMotion,
    PlanMotion,
    PlannerInterface,
    SetRobotCell,
    SetRobotCellState,
)
from compas_fab.robots import ConstraintSetTarget, TargetMode  # noqa: E402

from klampt.compas_fab import KlamptClient, KlamptPlanner  # noqa: E402

from .fab_cells import frame_error, library_cell  # noqa: E402


def test_planner_implements_every_feature_interface():
    with KlamptClient() as client:
        planner = KlamptPlanner(client)
        assert isinstance(client, ClientInterface)
        for interface in (PlannerInterface, SetRobotCell, SetRobotCellState, CheckCollision, ForwardKinematics,
                          InverseKinematics, PlanCartesianMotion, PlanMotion):
            assert isinstance(planner, interface)
        assert planner.client is client


def test_context_manager_builds_and_releases_the_world():
    cell, state = library_cell("ur5", load_geometry=False)
    with KlamptClient() as client:
        planner = KlamptPlanner(client)
        planner.set_robot_cell(cell, state)
        assert client.robot_cell is cell and planner.robot_cell is cell
        assert client.robot_cell_state is state
        assert client.world.numRobots() == 1
        frame = planner.forward_kinematics(state, TargetMode.ROBOT)
        p, a = frame_error(frame, cell.forward_kinematics_target_frame(state, TargetMode.ROBOT))
        assert p < 1e-9 and a < 1e-9
    assert client.world is None and client.robot is None and client.robot_cell is None


def test_bad_inputs():
    with KlamptClient() as client:
        planner = KlamptPlanner(client)
        with pytest.raises(TypeError):
            planner.set_robot_cell("not a cell")
        cell, state = library_cell("ur5", load_geometry=False)
        planner.set_robot_cell(cell, state)
        with pytest.raises(ValueError, match="no constraints"):
            planner.plan_motion(ConstraintSetTarget([]), state)
        with pytest.raises(BackendTargetNotSupportedError):
            planner.plan_motion("not a target", state)
        with pytest.raises(ValueError):
            planner.forward_kinematics_to_link(state, "no_such_link")
    with pytest.raises(ValueError, match="collision_geometry"):
        KlamptClient(collision_geometry="spheres")
