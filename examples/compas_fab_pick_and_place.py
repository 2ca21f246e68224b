"""A whole COMPAS FAB pick-and-place planned in one call with the klampt backend.

On the UR5 cone-tool cell, a 4 cm cube lies on the floor. ``plan_action_chain``
plans eight steps: a free approach above the cube, a straight contact down to
it, the grasp (the cube becomes attached to the cone), a straight retract, a
free transfer, a straight placement, the release and a straight retreat. It
returns a COMPAS FAB ``ActionChain`` whose trajectories are timed within the
robot's limits. The approach ends in whichever IK posture lets the contact
after it succeed: the search backtracks over the postures when one fails.

Needs the compas_fab extra:  pip install "klampt[compas_fab]"
Run:  python examples/compas_fab_pick_and_place.py
"""
from compas.datastructures import Mesh
from compas.geometry import Box, Frame
from compas_fab.robots import FrameTarget, RigidBody, RigidBodyState, RobotCellLibrary, TargetMode

from klampt.compas_fab import KlamptClient, KlamptPlanner, Motion, attach_workpiece, release_workpiece

SIZE = 0.04  # the cube's edge (m)
PICK = (0.45, 0.25)
PLACE = (0.2, 0.5)
LIFT = 0.1  # approach and retreat height above the cube (m)
HOME = [0.0, -1.6, 1.6, -1.6, -1.6, 0.0]


def down(x, y, z):
    """The cone's frame at (x, y, z), its axis pointing down."""
    return Frame([x, y, z], [1, 0, 0], [0, -1, 0])


def cell_with_cube():
    cell, state = RobotCellLibrary.ur5_cone_tool()
    cell.rigid_body_models["cube"] = RigidBody.from_mesh(Mesh.from_shape(Box(SIZE, SIZE, SIZE)))
    # 1 mm above the floor, so that carrying it is checked against the floor; the cone may touch it
    state.rigid_body_states["cube"] = RigidBodyState(Frame([PICK[0], PICK[1], SIZE / 2 + 0.001], [1, 0, 0], [0, 1, 0]),
                                                     touch_bodies=["cone"])
    for name, value in zip(cell.get_configurable_joint_names(), HOME):
        state.robot_configuration[name] = value
    return cell, state


def steps():
    top = SIZE + 0.001  # the cone's tip on the cube

    def at(xy, dz=0.0):
        return FrameTarget(down(xy[0], xy[1], top + dz), TargetMode.TOOL)
    return [
        Motion("approach", at(PICK, LIFT)),
        Motion("contact", at(PICK), "linear"),
        attach_workpiece("grasp", "cube", tool_id="cone"),
        Motion("retract", at(PICK, LIFT), "linear"),
        Motion("transfer", at(PLACE, LIFT)),
        Motion("place", at(PLACE, 0.001), "linear"),
        release_workpiece("release", "cube"),
        Motion("retreat", at(PLACE, LIFT), "linear"),
    ]


def main():
    cell, state = cell_with_cube()
    with KlamptClient() as client:
        planner = KlamptPlanner(client)
        planner.set_robot_cell(cell, state)
        planner.check_collision(state)
        chain = planner.plan_action_chain(state, steps(), name="pick and place")
        for action in chain.actions:
            if action.is_trajectory:
                print("%-8s %-7s %3d points, %.3f s" % (action.name, action.tags[0], len(action.trajectory.points),
                                                        action.duration))
            else:
                print("%-8s %-7s state change" % (action.name, action.tags[0]))
        cube = chain.end_state.rigid_body_states["cube"]
        print("total: %.3f s; the cube ends at (%.4f, %.4f, %.4f), attached to %s" % (
            (chain.duration,) + tuple(cube.frame.point) + (cube.attached_to_tool or cube.attached_to_link,)))


if __name__ == "__main__":
    main()
