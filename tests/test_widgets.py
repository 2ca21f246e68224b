"""The widget classes as data holders (values as Klamp't 0.9.2 reports them
for the same calls), their ray-cast interaction, and a clear error when
drawing without an OpenGL context."""
import math

import pytest

import klampt
from klampt.math import so3

from conftest import assert_close


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


def test_object_and_robot_posers(arm_table):
    obj = arm_table.rigidObject(0)
    op = klampt.ObjectPoser(obj)
    assert op.get() == tuple(list(x) for x in obj.getTransform())
    R = so3.rotation([0, 0, 1], 0.3)
    op.set(R, [1, 2, 3])
    assert_close(obj.getTransform()[1], [1, 2, 3])
    assert_close(obj.getTransform()[0], R)
    robot = arm_table.robot(0)
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
    with pytest.raises(RuntimeError, match="OpenGL"):
        b.drawGL(vp)


def _view():
    """The default vis camera (at (0, -6, 0) looking along +y) as a klampt.Viewport."""
    from klampt.vis.glviewport import GLViewport
    view = GLViewport()
    view.camera.dist = 6.0
    return view, view.to_viewport()


def test_point_poser_drags_along_the_picked_axis():
    view, vp = _view()
    p = klampt.PointPoser()
    p.set([0, 0, 0])
    # a pixel on the x arrow (60 px long from the centre, to the right)
    x, y, _ = view.project([0, 0, 0])
    assert not p.hover(x + 200, y, vp)
    assert p.hover(x + 40, y, vp) and p.hasHighlight()
    assert p.beginDrag(x + 40, y, vp) and p.hasFocus()
    p.drag(25, 7, vp)  # the vertical motion is ignored along the x axis
    p.endDrag()
    moved = p.get()
    pixel = 6.0 / (vp.scale * vp.w)  # world length of a pixel at depth 6
    assert moved[0] == pytest.approx(25 * pixel, rel=1e-6)
    assert moved[1] == pytest.approx(0, abs=1e-12) and moved[2] == pytest.approx(0, abs=1e-12)


def test_transform_poser_centre_drag_moves_in_the_image_plane():
    view, vp = _view()
    T = klampt.TransformPoser()
    T.set(so3.identity(), [0, 0, 0])
    x, y, _ = view.project([0, 0, 0])
    assert T.beginDrag(x, y, vp)
    T.drag(10, -20, vp)
    R, t = T.get()
    pixel = 6.0 / (vp.scale * vp.w)
    # image right is +x, image up is +z for this camera
    assert t == pytest.approx([10 * pixel, 0, 20 * pixel], abs=1e-9)
    assert R == pytest.approx(so3.identity())


def test_robot_poser_drag_turns_the_hovered_link(arm_table):
    robot = arm_table.robot(0)
    view, _ = _view()
    from klampt.vis import autoFitViewport
    autoFitViewport(view, [arm_table])
    vp = view.to_viewport()
    poser = klampt.RobotPoser(robot)
    q0 = robot.getConfig()
    # find a pixel on some movable link by scanning the image centre row and column
    hit = None
    for x in range(0, vp.w, 4):
        for y in range(0, vp.h, 8):
            if poser.hover(x, y, vp) and poser._highlight[1] > 0:
                hit = (x, y, poser._highlight[1])
                break
        if hit:
            break
    assert hit is not None
    assert poser.beginDrag(hit[0], hit[1], vp)
    poser.drag(10, 0, vp)
    poser.endDrag()
    q = poser.get()
    changed = [i for i in range(len(q)) if abs(q[i] - q0[i]) > 1e-12]
    assert changed == [hit[2]]
    assert robot.getConfig() == pytest.approx(q)
