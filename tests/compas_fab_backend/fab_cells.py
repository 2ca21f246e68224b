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
