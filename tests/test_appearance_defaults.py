"""Default appearances of new and loaded elements, as Klamp't 0.9.2 gives them
(values recorded from the reference on the project's own data files)."""
import os

import klampt
import pytest
from conftest import PROJECT_DATA

GREY = [0.5, 0.5, 0.5, 1.0]
WHITE = [1.0, 1.0, 1.0, 1.0]
BLACK = [0.0, 0.0, 0.0, 1.0]
TERRAIN_ORANGE = [0.8, 0.6, 0.2, 1.0]
OBJECT_GREY = [0.6, 0.6, 0.6, 1.0]


def features(a):
    return [a.getColor(f) for f in (a.ALL, a.VERTICES, a.EDGES, a.FACES, a.EMISSIVE, a.SPECULAR)]


def check(a, face, specular, shininess):
    colors = features(a)
    assert all(isinstance(c, list) for c in colors)
    expected = [face, WHITE, WHITE, face, BLACK, [specular] * 3 + [1.0]]
    for got, want in zip(colors, expected):
        assert got == pytest.approx(want, abs=1e-7)
    assert a.getShininess() == shininess


def test_new_appearance():
    a = klampt.Appearance()
    check(a, GREY, 0.1, 0.0)
    assert a.getTintColor() == pytest.approx(BLACK)


@pytest.mark.parametrize("robot_file", ["arm6.rob", "arm6.urdf"])
def test_loaded_robot_links_have_a_highlight(robot_file):
    world = klampt.WorldModel()
    robot = world.loadRobot(os.path.join(PROJECT_DATA, "robots", robot_file))
    a = robot.link(1).appearance()
    assert a.getShininess() == 20.0
    assert a.getColor(a.SPECULAR) == pytest.approx([0.2, 0.2, 0.2, 1.0], abs=1e-7)
    assert a.getColor(a.VERTICES) == WHITE


def test_loaded_object_and_terrain_colors():
    world = klampt.WorldModel()
    obj = world.loadRigidObject(os.path.join(PROJECT_DATA, "objects", "block.obj"))
    check(obj.appearance(), OBJECT_GREY, 0.1, 0.0)
    mesh_obj = world.loadRigidObject(os.path.join(PROJECT_DATA, "meshes", "box_unit.off"))
    check(mesh_obj.appearance(), TERRAIN_ORANGE, 0.1, 0.0)
    terrain = world.loadTerrain(os.path.join(PROJECT_DATA, "terrains", "ground.env"))
    check(terrain.appearance(), TERRAIN_ORANGE, 0.1, 0.0)


def test_world_file_object_colors():
    world = klampt.WorldModel()
    assert world.readFile(os.path.join(PROJECT_DATA, "worlds", "arm_table.xml"))
    colors = dict((world.rigidObject(i).getName(), world.rigidObject(i).appearance().getColor())
                  for i in range(world.numRigidObjects()))
    assert colors["block"] == pytest.approx([0.9, 0.2, 0.2, 1.0])     # <display color>
    assert colors["cylinder"] == pytest.approx(OBJECT_GREY)           # from cylinder.obj
    assert colors["flat_box"] == pytest.approx([0.2, 0.6, 0.9, 1.0])
