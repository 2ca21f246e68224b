"""COMPAS FAB's ReachabilityMap.calculate with the klampt planner."""
import math

import pytest

pytest.importorskip("compas_fab")

from compas.geometry import Frame  # noqa: E402
from compas_fab.robots import ReachabilityMap, TargetMode  # noqa: E402

from .fab_cells import down_frame, frame_angle, library_cell, use  # noqa: E402

#: The UR5's reach from its shoulder, about 0.85 m: rings well inside and well beyond it.
RADII = [0.35, 0.5, 1.4]


def rings():
    """A 2D frame generator: per radius, 6 frames around the robot at 0.3 m height, pointing down."""
    for r in RADII:
        yield [down_frame(r * math.cos(a), r * math.sin(a), 0.3) for a in [k * math.pi / 3 for k in range(6)]]


def test_reachability_map_of_the_ur5(planner):
    cell, state = library_cell("ur5_cone_tool")
    use(planner, cell)
    rmap = ReachabilityMap()
    rmap.calculate(rings(), planner, state, TargetMode.TOOL, ik_options={"max_results": 4})
    assert rmap.shape == (3, 6)
    for r, frames, configurations in zip(RADII, rmap.frames, rmap.configurations):
        for frame, solutions in zip(frames, configurations):
            if r > 1.0:
                assert solutions == []
                continue
            assert 1 <= len(solutions) <= 4
            for cfg in solutions:
                s = state.copy()
                s.robot_configuration = s.robot_configuration.merged(cfg)
                planner.check_collision(s)
                reached = planner.forward_kinematics(s, TargetMode.TOOL)
                assert math.dist(list(reached.point), list(frame.point)) < 1e-5 and frame_angle(reached, frame) < 1e-4
    assert rmap.score == [sum(len(c) for c in row) for row in rmap.configurations]
    assert rmap.score[2] == 0 and min(rmap.score[:2]) >= 6
    assert isinstance(rmap.frames[0][0], Frame)
