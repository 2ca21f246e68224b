"""SimBody.setCollisionPreshrink: contacts use the shape shrunk by the
collision padding, so a body rests on its original surface rather than on
its boundary layer."""
import pytest

from klampt import GeometricPrimitive, Geometry3D, Simulator, WorldModel

from conftest import SHARED_DATA, require_shared_data
from test_sim_physics import add_box, add_ground, box_geometry

HALF = 0.05  # half the box side
PADDING = 0.0025  # a rigid object's default collision padding


def primitive(kind, *args):
    g = Geometry3D()
    p = GeometricPrimitive()
    getattr(p, "set" + kind)(*args)
    g.setGeometricPrimitive(p)
    return g


def world_with(shape):
    """A unit-mass body of the given shape (inertia of a 10 cm box) 20 cm
    above a primitive floor."""
    w = WorldModel()
    add_ground(w, mesh=False)
    add_box(w, "body", [0, 0, 0.2], mesh=False).geometry().set(shape)
    return w


def box_shape(mesh):
    return box_geometry([2 * HALF] * 3, mesh)


def rest_height(w, preshrink, padding=None, seconds=1.5):
    sim = Simulator(w)
    body = sim.body(w.rigidObject(0))
    if padding is not None:
        body.setCollisionPadding(padding)
    if preshrink:
        body.setCollisionPreshrink()
    for _ in range(int(seconds / 0.01)):
        sim.simulate(0.01)
    return w.rigidObject(0).getTransform()[1][2]


@pytest.mark.parametrize("mesh", [False, True], ids=["primitive box", "mesh box"])
def test_preshrunk_box_rests_on_its_original_surface(mesh):
    # Without preshrink the box rests on its boundary layer, a padding higher.
    assert rest_height(world_with(box_shape(mesh)), False) == pytest.approx(HALF + PADDING, abs=5e-4)
    assert rest_height(world_with(box_shape(mesh)), True) == pytest.approx(HALF, abs=5e-4)


def test_preshrink_follows_a_later_padding_change():
    w = world_with(box_shape(mesh=True))
    sim = Simulator(w)
    body = sim.body(w.rigidObject(0))
    body.setCollisionPreshrink()
    body.setCollisionPadding(0.01)
    for _ in range(150):
        sim.simulate(0.01)
    assert body.getCollisionPadding() == 0.01
    assert w.rigidObject(0).getTransform()[1][2] == pytest.approx(HALF, abs=1e-3)


def test_preshrunk_sphere_rests_at_its_radius():
    w = world_with(primitive("Sphere", [0, 0, 0], 0.04))
    assert rest_height(w, True) == pytest.approx(0.04, abs=5e-4)


def test_shrink_visualization_shrinks_the_world_geometry_by_the_padding():
    w = world_with(box_shape(mesh=True))
    sim = Simulator(w)
    geometry = w.rigidObject(0).geometry()
    geometry.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0])
    sim.body(w.rigidObject(0)).setCollisionPreshrink()  # contacts only
    assert geometry.getBBTight()[1] == pytest.approx([HALF] * 3, abs=1e-12)
    sim.body(w.rigidObject(0)).setCollisionPreshrink(True)
    geometry = w.rigidObject(0).geometry()
    geometry.setCurrentTransform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0])
    lo, hi = geometry.getBBTight()
    # Each face plane moves in by the padding: the corners move along (1, 1, 1).
    assert lo == pytest.approx([-HALF + PADDING] * 3, abs=1e-12)
    assert hi == pytest.approx([HALF - PADDING] * 3, abs=1e-12)
    verts = geometry.getTriangleMesh().getVertices()
    assert abs(verts).max() == pytest.approx(HALF - PADDING, abs=1e-12)
    assert abs(verts).min() == pytest.approx(HALF - PADDING, abs=1e-12)


XML_WORLD = """<?xml version="1.0"?>
<world>
  <terrain file="{data}/terrains/block.off"/>
  <rigidObject name="cube" position="0 0 0.3">
     <geometry mesh="{data}/objects/cube.off" scale="0.1 0.1 0.1" translation="-0.05 -0.05 -0.05"/>
     <physics mass="1" automass="1" kFriction="0.5" kStiffness="inf" kDamping="inf"/>
  </rigidObject>
  <simulation>
    <object index="0">
       <geometry padding="0.005" {shrink}/>
    </object>
  </simulation>
</world>
"""


@pytest.mark.parametrize("shrink, shrunk, shown", [("", False, False), ('preshrink="1"', True, False),
                                                    ('preshrink="2"', True, True)])
def test_world_file_preshrink_attribute(tmp_path, shrink, shrunk, shown):
    require_shared_data()
    path = tmp_path / "world.xml"
    path.write_text(XML_WORLD.format(data=SHARED_DATA, shrink=shrink))
    w = WorldModel()
    assert w.readFile(str(path))
    sim = Simulator(w)
    for _ in range(150):
        sim.simulate(0.01)
    top = w.terrain(0).geometry().getBBTight()[1][2]
    z = w.rigidObject(0).getTransform()[1][2]
    # A 10 cm cube with a 5 mm padding rests on its layer unless preshrunk.
    assert z - top == pytest.approx(HALF if shrunk else HALF + 0.005, abs=5e-4)
    lo, hi = w.rigidObject(0).geometry().getBBTight()
    assert hi[0] - lo[0] == pytest.approx(0.1 - 0.01 if shown else 0.1, abs=1e-5)
