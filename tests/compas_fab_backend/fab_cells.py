"""What the COMPAS FAB backend tests share: library cells loaded once per run, state draws, frame comparisons."""
import math
import random

import pytest

pytest.importorskip("compas_fab")

from compas.geometry import Frame, Transformation  # noqa: E402
from compas_fab.robots import RobotCellLibrary  # noqa: E402


#: The base frame of the moved-base tests (rotated 90 degrees about z and translated).
MOVED_BASE = Frame([1, 2, 0.5], [0, 1, 0], [-1, 0, 0])

_CELLS = {}


def library_cell(name, load_geometry=True):
    """``RobotCellLibrary.<name>()`` loaded once per run; returns ``(cell, fresh copy of its default state)``."""
    key = (name, load_geometry)
    if key not in _CELLS:
        _CELLS[key] = getattr(RobotCellLibrary, name)(load_geometry=load_geometry)
    cell, state = _CELLS[key]
    return cell, state.copy()


def use(planner, cell, state=None):
    """Loads ``cell`` unless it is already the planner's cell."""
    if planner.client.robot_cell is not cell:
        planner.set_robot_cell(cell)
    if state is not None:
        planner.set_robot_cell_state(state)
    return planner


def random_state(cell, state, rng_seed=None, group=None):
    """A copy of ``state`` with the group's joints drawn by ``RobotCell.random_configuration``."""
    if rng_seed is not None:
        random.seed(rng_seed)
    s = state.copy()
    s.robot_configuration = s.robot_configuration.merged(cell.random_configuration(group))
    return s


def frame_error(f1, f2):
    """(position error, largest axis-vector difference) between two compas frames."""
    p = math.dist(list(f1.point), list(f2.point))
    a = max(max(abs(x - y) for x, y in zip(f1.xaxis, f2.xaxis)), max(abs(x - y) for x, y in zip(f1.yaxis, f2.yaxis)))
    return p, a


def frame_angle(f1, f2):
    """The rotation angle between two frames' orientations."""
    T = Transformation.from_frame(f1).inverse() * Transformation.from_frame(f2)
    m = T.matrix
    c = (m[0][0] + m[1][1] + m[2][2] - 1) / 2
    return math.acos(max(-1.0, min(1.0, c)))


def moved(frame, base):
    """``frame`` (in the robot's coordinates) expressed in the world when the robot stands at ``base``."""
    return Frame.from_transformation(Transformation.from_frame(base) * Transformation.from_frame(frame))


def state_at(cell, state, values, group=None):
    """A copy of ``state`` with the group's joints (in order) at ``values``."""
    s = state.copy()
    for n, v in zip(cell.get_configurable_joint_names(group), values):
        s.robot_configuration[n] = v
    return s


def point_state(state, point, joint_names=None):
    """A copy of ``state`` with the joints of a trajectory point set."""
    s = state.copy()
    for n, v in zip(joint_names or point.joint_names, point.joint_values):
        s.robot_configuration[n] = v
    return s


def dense_recheck(planner, start_state, trajectory, resolution=0.005):
    """Every configuration every ``resolution`` rad (or m) along the trajectory is collision free at ``start_state``."""
    s = start_state.copy()
    names = trajectory.joint_names
    for p, q in zip(trajectory.points, trajectory.points[1:]):
        n = max(1, int(math.ceil(max(abs(a - b) for a, b in zip(p.joint_values, q.joint_values)) / resolution)))
        for i in range(n + 1):
            u = i / n
            for name, a, b in zip(names, p.joint_values, q.joint_values):
                s.robot_configuration[name] = a + u * (b - a)
            planner.check_collision(s)


#: Edge of the cube the pick-and-place cells move.
BLOCK = 0.04


def down_frame(x, y, z):
    """A frame at (x, y, z) whose z axis points down (a tool or hand over a table)."""
    return Frame([x, y, z], [1, 0, 0], [0, -1, 0])


_PICK_CELLS = {}


def _cached(build):
    """``build()`` once per run; each call returns the cell and a fresh copy of its state."""
    def cached():
        if build.__name__ not in _PICK_CELLS:
            _PICK_CELLS[build.__name__] = build()
        cell, state, xy, z = _PICK_CELLS[build.__name__]
        return cell, state.copy(), xy, z
    cached.__doc__ = build.__doc__
    return cached


@_cached
def cone_pick_cell():
    """``ur5_cone_tool`` with a cube on the floor that the cone may touch: ``(cell, state, pick xy, top of the cube)``."""
    from compas.datastructures import Mesh
    from compas.geometry import Box
    from compas_fab.robots import RigidBody, RigidBodyState

    cell, state = RobotCellLibrary.ur5_cone_tool()
    cell.rigid_body_models["block"] = RigidBody.from_mesh(Mesh.from_shape(Box(BLOCK, BLOCK, BLOCK)))
    state.rigid_body_states["block"] = RigidBodyState(Frame([0.45, 0.25, BLOCK / 2 + 0.001], [1, 0, 0], [0, 1, 0]),
                                                      touch_bodies=["cone"])
    for n, v in zip(cell.get_configurable_joint_names(), [0.0, -1.6, 1.6, -1.6, -1.6, 0.0]):
        state.robot_configuration[n] = v
    return cell, state, (0.45, 0.25), BLOCK + 0.001


@_cached
def panda_pick_cell():
    """``panda`` with a table and a cube on it between the open fingers' reach: ``(cell, state, pick xy, cube centre z)``."""
    from compas.datastructures import Mesh
    from compas.geometry import Box
    from compas_fab.robots import RigidBody, RigidBodyState

    cell, _ = RobotCellLibrary.panda()
    cell.rigid_body_models["table"] = RigidBody.from_mesh(Mesh.from_shape(Box(0.6, 1.0, 0.02)))
    cell.rigid_body_models["block"] = RigidBody.from_mesh(Mesh.from_shape(Box(BLOCK, BLOCK, BLOCK)))
    state = cell.default_cell_state()
    state.rigid_body_states["table"] = RigidBodyState(Frame([0.5, 0, 0.19], [1, 0, 0], [0, 1, 0]))
    centre = 0.2 + 0.001 + BLOCK / 2
    state.rigid_body_states["block"] = RigidBodyState(Frame([0.45, -0.2, centre], [1, 0, 0], [0, 1, 0]),
                                                      touch_links=["panda_leftfinger", "panda_rightfinger", "panda_hand"])
    for n, v in zip(cell.get_configurable_joint_names(), [0, -0.785, 0, -2.356, 0, 1.571, 0.785]):
        state.robot_configuration[n] = v
    state.robot_configuration["panda_finger_joint1"] = 0.04  # open
    return cell, state, (0.45, -0.2), centre
