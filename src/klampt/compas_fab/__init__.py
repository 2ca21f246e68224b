"""A COMPAS FAB 2.x planning backend powered by klampt.

Use it like COMPAS FAB's PyBullet backend::

    from compas_fab.robots import RobotCellLibrary, TargetMode, FrameTarget
    from klampt.compas_fab import KlamptClient, KlamptPlanner

    with KlamptClient() as client:
        planner = KlamptPlanner(client)
        cell, state = RobotCellLibrary.ur5_cone_tool()
        planner.set_robot_cell(cell, state)
        frame = planner.forward_kinematics(state, TargetMode.TOOL)
        cfg = planner.inverse_kinematics(FrameTarget(frame, TargetMode.TOOL), state)

Collisions are exact triangle-mesh tests (or PyBullet's convex hulls,
``KlamptClient(collision_geometry="convex_hull")``), forward kinematics
follows the compas_robots model exactly (the robot base frame applied once),
IK is klampt's Newton solver with random restarts, ``plan_motion`` plans on
the native robot C-space of :mod:`klampt.plan`, and trajectories are timed
within the robot's limits. Options mean what they mean for COMPAS FAB's
PyBullet or MoveIt backend; unknown ones raise ``ValueError``.
:meth:`KlamptPlanner.plan_action_chain` plans a whole sequence of
:class:`Motion` and :class:`StateChange` steps (see :mod:`.steps`) into an
``ActionChain``. Needs ``pip install "klampt[compas_fab]"``.
"""

try:
    import compas_fab  # noqa: F401
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError('klampt.compas_fab needs COMPAS FAB: pip install "klampt[compas_fab]"') from e

from .client import KlamptClient
from .planner import KlamptPlanner
from .steps import Motion, StateChange, attach_workpiece, release_workpiece

__all__ = ["KlamptClient", "KlamptPlanner", "Motion", "StateChange", "attach_workpiece", "release_workpiece"]
