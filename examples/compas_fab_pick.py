"""A COMPAS FAB pick with the klampt backend: on the UR5 cone-tool cell, plan a
free approach to a point above a pick frame (plan_motion), a straight
insertion down to it and a straight retreat (plan_cartesian_motion), then
print the joint trajectory.

Needs the compas_fab extra:  pip install "klampt[compas_fab]"
Run:  python examples/compas_fab_pick.py
"""
from compas.geometry import Frame
from compas_fab.robots import FrameTarget, FrameWaypoints, RobotCellLibrary, TargetMode

from klampt.compas_fab import KlamptClient, KlamptPlanner

# The cone points down onto the pick frame (tool z axis along -z of the world).
PICK = Frame([0.45, 0.25, 0.05], [1, 0, 0], [0, -1, 0])
APPROACH_HEIGHT = 0.15
HOME = [0.0, -1.6, 1.6, -1.6, -1.6, 0.0]


def at(state, trajectory, index):
    """``state`` with the group joints at one trajectory point."""
    s = state.copy()
    for name, value in zip(trajectory.joint_names, trajectory.points[index].joint_values):
        s.robot_configuration[name] = value
    return s


def print_trajectory(title, trajectory):
    print("%s: %d points" % (title, len(trajectory.points)))
    for i, point in enumerate(trajectory.points):
        print("  %3d  %s" % (i, "  ".join("%7.3f" % v for v in point.joint_values)))


def main():
    cell, state = RobotCellLibrary.ur5_cone_tool()
    for name, value in zip(cell.get_configurable_joint_names(), HOME):
        state.robot_configuration[name] = value
    above = Frame(PICK.point + [0, 0, APPROACH_HEIGHT], PICK.xaxis, PICK.yaxis)

    with KlamptClient() as client:
        planner = KlamptPlanner(client)
        planner.set_robot_cell(cell, state)
        planner.check_collision(state)

        approach = planner.plan_motion(FrameTarget(above, TargetMode.TOOL), state, options={"seed": 1})
        above_state = at(state, approach, -1)
        insert = planner.plan_cartesian_motion(FrameWaypoints([PICK], TargetMode.TOOL), above_state)
        pick_state = at(state, insert, -1)
        retreat = planner.plan_cartesian_motion(FrameWaypoints([above], TargetMode.TOOL), pick_state)

        print("joints: " + ", ".join(approach.joint_names))
        print_trajectory("approach (plan_motion)", approach)
        print_trajectory("insertion (plan_cartesian_motion)", insert)
        print_trajectory("retreat (plan_cartesian_motion)", retreat)
        reached = planner.forward_kinematics(pick_state, TargetMode.TOOL)
        print("tool at the pick: (%.4f, %.4f, %.4f), asked (%.4f, %.4f, %.4f)" % (tuple(reached.point) + tuple(PICK.point)))


if __name__ == "__main__":
    main()
