"""The widget classes as data holders (values as Klamp't 0.9.2 reports them
for the same calls), and clear errors for the interactive/drawing methods."""
import math

import pytest

import klampt
from klampt.math import so3

from conftest import arm_table_world, assert_close


@pytest.fixture
def world():
    return arm_table_world()


def test_point_and_transform_posers():
    pp = klampt.PointPoser()
    assert pp.get() == [0, 0, 0]
    pp.set([1, 2, 3])
    assert pp.get() == [1, 2, 3]
    pp.setAxes(so3.identity())
    pp.enableAxes(True, False, True)
    with pytest.raises(ValueError):
        pp.set([1, 2])
    tp = klampt.TransformPoser()
    assert tp.get() == (so3.identity(), [0, 0, 0])
    R = so3.rotation([0, 0, 1], 0.3)
    tp.set(R, [1, 1, 1])
    assert_close(tp.get()[0], R)
    assert tp.get()[1] == [1, 1, 1]
    tp.enableTranslation(False)
    tp.enableRotationAxes(True, True, False)
    assert isinstance(tp, klampt.Widget)


def test_object_and_robot_posers(world):
    obj = world.rigidObject(0)
    op = klampt.ObjectPoser(obj)
    assert op.get() == tuple(list(x) for x in obj.getTransform())
    R = so3.rotation([0, 0, 1], 0.3)
    op.set(R, [1, 2, 3])
    assert_close(obj.getTransform()[1], [1, 2, 3])
    assert_close(obj.getTransform()[0], R)
    robot = world.robot(0)
    rp = klampt.RobotPoser(robot)
    assert rp.get() == robot.getConfig()
    q = [0.1] * robot.numLinks()
    rp.set(q)
    assert rp.get() == q and robot.getConfig() == q
    assert rp.getConditioned([0.0] * robot.numLinks()) == q
    rp.setActiveDofs([1, 2])
    with pytest.raises(IndexError):
        rp.setActiveDofs([99])
    rp.addIKConstraint(klampt.IKObjective())
    rp.clearIKConstraints()


def test_robot_poser_conditions_spin_joints():
    from klampt.model.create import planar_robot
    w = klampt.WorldModel()
    robot = planar_robot.make(2, w)
    rp = klampt.RobotPoser(robot)
    rp.set([6.0, 0.5])
    assert_close(rp.getConditioned([0.0, 0.0]), [6.0 - 2 * math.pi, 0.5], atol=1e-12)


def test_widget_set_and_state():
    ws = klampt.WidgetSet()
    a, b = klampt.PointPoser(), klampt.TransformPoser()
    ws.add(a)
    ws.add(b)
    ws.enable(a, False)
    ws.remove(a)
    with pytest.raises(ValueError):
        ws.remove(a)
    assert len({ws.index, a.index, b.index}) == 3
    assert b.wantsRedraw() and not b.hasHighlight() and not b.hasFocus()
    b.keypress('a')
    b.idle()
    b.endDrag()
    vp = klampt.Viewport()
    for call in (lambda: b.hover(1, 1, vp), lambda: b.beginDrag(1, 1, vp), lambda: b.drag(1, 1, vp),
                 lambda: b.drawGL(vp)):
        with pytest.raises(RuntimeError, match="OpenGL"):
            call()
