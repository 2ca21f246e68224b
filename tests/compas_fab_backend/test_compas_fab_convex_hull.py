"""KlamptClient(collision_geometry="convex_hull"): PyBullet's solid convex hulls instead of exact surfaces."""
import math
import random

import numpy as np
import pytest

pytest.importorskip("compas_fab")

from compas.datastructures import Mesh  # noqa: E402
from compas.geometry import Box, Frame  # noqa: E402
from compas_fab.backends import CollisionCheckError  # noqa: E402
from compas_fab.robots import ConfigurationTarget, RigidBody, RigidBodyState, TargetMode  # noqa: E402
from scipy.spatial import ConvexHull  # noqa: E402

from geometry_oracles import hulls_overlap  # noqa: E402
from klampt.compas_fab import KlamptClient, KlamptPlanner  # noqa: E402
from klampt.io import compas_fab as convert  # noqa: E402

from .fab_cells import dense_recheck, library_cell, state_at  # noqa: E402

START = [0, -1.2, 1.5, -1.9, -1.57, 0]


@pytest.fixture(scope="module")
def hull_planner():
    with KlamptClient(collision_geometry="convex_hull") as client:
        yield KlamptPlanner(client)


@pytest.fixture(scope="module")
def boxed_cone_cell():
    """ur5_cone_tool with a closed 0.3 m box around the cone at START, touching every link (only the cone is checked)."""
    cell, state = library_cell("ur5_cone_tool")
    cell = cell.copy()
    tip = cell.forward_kinematics_target_frame(state_at(cell, state, START), TargetMode.TOOL)
    cell.rigid_body_models["crate"] = RigidBody.from_mesh(Mesh.from_shape(Box(0.3, 0.3, 0.3)))
    state = cell.default_cell_state()
    state.set_tool_attached_to_group("cone", cell.main_group_name, Frame([0, 0, 0], [0, 0, 1], [1, 0, 0]), ["wrist_3_link"])
    state.rigid_body_states["floor"].touch_links = ["base_link_inertia"]
    state.rigid_body_states["crate"] = RigidBodyState(Frame(tip.point, [1, 0, 0], [0, 1, 0]),
                                                      touch_links=[link.name for link in cell.robot_model.iter_links()])
    return cell, state_at(cell, state, START)


def test_a_tool_inside_a_closed_body_collides_only_as_hulls(planner, hull_planner, boxed_cone_cell):
    cell, state = boxed_cone_cell
    planner.set_robot_cell(cell)
    planner.check_collision(state)  # surfaces: the cone is inside the crate, their surfaces apart
    hull_planner.set_robot_cell(cell)
    with pytest.raises(CollisionCheckError, match="CC.5 between tool 'cone' and rigid body 'crate'"):
        hull_planner.check_collision(state)


def _world_hulls(planner, cell):
    """Per link with geometry: its collision meshes' vertices (hull vertices only) in the world."""
    client = planner.client
    out = {}
    for link in cell.robot_model.iter_links():
        parts = convert.link_collision_parts(link)
        if not parts:
            continue
        R, t = client.robot.link(client.link_index[link.name]).getTransform()
        Rm = np.array(R).reshape(3, 3).T
        out[link.name] = [(V[ConvexHull(V).vertices] @ Rm.T + t) for V, _ in parts]
    return out


def test_self_collision_of_hulls_agrees_with_a_linear_program(hull_planner):
    cell, state = library_cell("ur5")
    hull_planner.set_robot_cell(cell)
    pairs = hull_planner.client.self_collision_pairs
    random.seed(7)
    hits = 0
    for _ in range(8):
        s = state.copy()
        s.robot_configuration = s.robot_configuration.merged(cell.random_configuration())
        hull_planner.set_robot_cell_state(s)
        hulls = _world_hulls(hull_planner, cell)
        expected = {(a, b) for a, b in pairs if any(hulls_overlap(P, Q) for P in hulls[a] for Q in hulls[b])}
        try:
            hull_planner.check_collision(s, {"full_report": True, "_skip_cc2": True, "_skip_cc3": True,
                                             "_skip_cc4": True, "_skip_cc5": True})
            got = set()
        except CollisionCheckError as e:
            got = {(p[0].name, p[1].name) for p in e.collision_pairs}
        assert got == expected
        hits += bool(got)
    assert hits >= 2


def test_plan_motion_with_hulls(hull_planner):
    cell, state = library_cell("ur5_cone_tool")
    hull_planner.set_robot_cell(cell)
    start = state_at(cell, state, START)
    goal = state_at(cell, state, [1.2, -1.4, 1.2, -1.4, -1.57, 0.4])
    trajectory = hull_planner.plan_motion(ConfigurationTarget(goal.robot_configuration), start, options={"seed": 1})
    assert trajectory.points[-1].joint_values == [goal.robot_configuration[n] for n in trajectory.joint_names]
    dense_recheck(hull_planner, start, trajectory)
    assert math.isclose(trajectory.points[0].time_from_start.seconds, 0.0)
