"""IK target tolerances: ``None`` is the backend default, 0 is exact (down to the solver's floor), never the default.

A planar 3R arm (three z-axis revolute joints) can neither leave its plane nor tilt its flange, so a target
lifted 1e-7 m out of the plane, or tilted 1e-7 rad out of it, is missed by exactly that much at best: inside the
1e-6 default tolerances, outside exact ones.
"""
import math

import pytest

pytest.importorskip("compas_fab")

from compas.geometry import Frame, Rotation, Transformation  # noqa: E402
from compas_fab.backends import InverseKinematicsError  # noqa: E402
from compas_fab.robots import FrameTarget, PointAxisTarget, RobotCell, RobotCellState, RobotSemantics, TargetMode  # noqa: E402
from compas_robots import RobotModel  # noqa: E402

from .fab_cells import frame_error, state_at, use  # noqa: E402

_PLANAR_URDF = """<?xml version="1.0"?>
<robot name="planar3r">
  <link name="base"/><link name="l1"/><link name="l2"/><link name="flange"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.3 0 0"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="j3" type="revolute"><parent link="l2"/><child link="flange"/>
    <origin xyz="0.25 0 0"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>"""

#: The configuration whose flange frame the targets derive from, and the one the solver starts at.
GOAL = [0.4, 0.9, -0.5]
START = [-0.3, 0.2, 0.6]
#: How far the near-miss targets lie out of the arm's reach (m or rad).
MISS = 1e-7
NO_COLLISION = {"check_collision": False, "max_restarts": 10}


@pytest.fixture
def planar(planner):
    """The planar 3R cell set on the planner: (cell, state at START, flange frame at GOAL)."""
    model = RobotModel.from_urdf_string(_PLANAR_URDF)
    semantics = RobotSemantics(groups={"arm": {"links": ["base", "l1", "l2", "flange"], "joints": ["j1", "j2", "j3"]}},
                               main_group_name="arm")
    cell = RobotCell(model, semantics)
    state = RobotCellState.from_robot_cell(cell)
    use(planner, cell)
    goal_frame = cell.forward_kinematics_target_frame(state_at(cell, state, GOAL), TargetMode.ROBOT)
    return cell, state_at(cell, state, START), goal_frame


def _angle(f1, f2):
    """The rotation angle between two frames' orientations, precise near 0 (atan2, not acos)."""
    m = (Transformation.from_frame(f1).inverse() * Transformation.from_frame(f2)).matrix
    s = 0.5 * math.hypot(m[2][1] - m[1][2], m[0][2] - m[2][0], m[1][0] - m[0][1])
    return math.atan2(s, 0.5 * (m[0][0] + m[1][1] + m[2][2] - 1))


def _axis_angle(u, v):
    """The angle between two vectors, precise near 0."""
    return math.atan2(u.cross(v).length, u.dot(v))


def _lifted(frame):
    """``frame`` moved MISS out of the arm's plane."""
    return Frame([frame.point[0], frame.point[1], frame.point[2] + MISS], frame.xaxis, frame.yaxis)


def _tilted(frame):
    """``frame`` turned MISS about its x axis, out of the arm's plane."""
    R = Rotation.from_axis_and_angle(frame.xaxis, MISS, point=frame.point)
    return Frame.from_transformation(R * Transformation.from_frame(frame))


def _solved_frame(planner, cell, state, target):
    cfg = planner.inverse_kinematics(target, state, options=NO_COLLISION)
    solved = state.copy()
    solved.robot_configuration = solved.robot_configuration.merged(cfg)
    return cell.forward_kinematics_target_frame(solved, TargetMode.ROBOT)


def test_zero_position_tolerance_is_exact_not_the_default(planner, planar):
    cell, state, goal = planar
    lifted = _lifted(goal)
    assert abs(frame_error(lifted, goal)[0] - MISS) < 1e-12
    # None: the 1e-6 default accepts the best the arm can do, MISS away
    frame = _solved_frame(planner, cell, state, FrameTarget(lifted, TargetMode.ROBOT))
    assert abs(frame_error(frame, lifted)[0] - MISS) < 1e-9
    with pytest.raises(InverseKinematicsError):
        planner.inverse_kinematics(FrameTarget(lifted, TargetMode.ROBOT, tolerance_position=0), state, options=NO_COLLISION)
    with pytest.raises(InverseKinematicsError):
        planner.inverse_kinematics(PointAxisTarget(lifted.point, lifted.zaxis, TargetMode.ROBOT, tolerance_position=0),
                                   state, options=NO_COLLISION)


def test_zero_orientation_tolerance_is_exact_not_the_default(planner, planar):
    cell, state, goal = planar
    tilted = _tilted(goal)
    assert abs(_angle(tilted, goal) - MISS) < 1e-12
    frame = _solved_frame(planner, cell, state, FrameTarget(tilted, TargetMode.ROBOT))
    assert abs(_angle(frame, tilted) - MISS) < 1e-9
    with pytest.raises(InverseKinematicsError):
        planner.inverse_kinematics(FrameTarget(tilted, TargetMode.ROBOT, tolerance_orientation=0), state, options=NO_COLLISION)
    with pytest.raises(InverseKinematicsError):
        planner.inverse_kinematics(PointAxisTarget(tilted.point, tilted.zaxis, TargetMode.ROBOT, tolerance_orientation=0),
                                   state, options=NO_COLLISION)
    # an explicit tolerance above the miss accepts it
    frame = _solved_frame(planner, cell, state, FrameTarget(tilted, TargetMode.ROBOT, tolerance_orientation=2 * MISS))
    assert _angle(frame, tilted) <= 2 * MISS


def test_zero_tolerances_reach_a_reachable_target_to_the_solver_floor(planner, planar):
    cell, state, goal = planar
    floor = planner.IK_TOLERANCE_FLOOR
    assert 0 < floor < MISS
    frame = _solved_frame(planner, cell, state, FrameTarget(goal, TargetMode.ROBOT, tolerance_position=0, tolerance_orientation=0))
    p, _ = frame_error(frame, goal)
    assert p <= floor and _angle(frame, goal) <= floor
    frame = _solved_frame(planner, cell, state, PointAxisTarget(goal.point, goal.zaxis, TargetMode.ROBOT,
                                                                tolerance_position=0, tolerance_orientation=0))
    assert math.dist(frame.point, goal.point) <= floor
    assert _axis_angle(frame.zaxis, goal.zaxis) <= floor


def test_negative_tolerances_are_rejected_by_name(planner, planar):
    cell, state, goal = planar
    with pytest.raises(ValueError, match="tolerance_position"):
        planner.inverse_kinematics(FrameTarget(goal, TargetMode.ROBOT, tolerance_position=-1e-3), state, options=NO_COLLISION)
    with pytest.raises(ValueError, match="tolerance_orientation"):
        planner.inverse_kinematics(PointAxisTarget(goal.point, goal.zaxis, TargetMode.ROBOT, tolerance_orientation=-1e-3),
                                   state, options=NO_COLLISION)
