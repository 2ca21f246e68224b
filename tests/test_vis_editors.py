"""The editors of klampt.vis.editors driven through their window's event
handling (no display: mouse presses, moves and keys as the GLFW and Qt
windows pass them on), with the edited values checked against the camera
geometry; what their windows draw, rendered offscreen; and run() refusing
backends that cannot edit. The same editors under real X input in GLFW and
Qt windows are in test_vis_editors_windows.py."""
import math

import pytest

import klampt
from klampt.math import se3, so3
from klampt.vis import editors
from klampt.vis._editor_dialog import make_window

from conftest import require_offscreen
from vis_helpers import focal_pixels



def _drag(window, start, end, button=0, steps=4):
    """A press at ``start``, moves to ``end`` in steps, a release, as the
    window gets them from the mouse."""
    window.motion(*start)
    window.mouse_button(button, 0, *start)
    for k in range(1, steps + 1):
        window.motion(start[0] + (end[0] - start[0]) * k // steps, start[1] + (end[1] - start[1]) * k // steps)
    window.mouse_button(button, 1, *end)


def _front_view(window, dist=2.0):
    """Puts the window's camera at (0, -dist, 0) looking along +y (image
    right is +x, image up is +z) and returns its view."""
    view = window.view
    view.camera.tgt = [0.0, 0.0, 0.0]
    view.camera.rot = [0.0, 0.0, 0.0]
    view.camera.dist = dist
    return view


def _pixel(view, p):
    x, y, _ = view.project(p)
    return int(round(x)), int(round(y))


def test_run_refuses_backends_that_cannot_edit(vis):
    with pytest.raises(RuntimeError, match="GLFW or Qt.*offscreen"):
        editors.run(editors.PointEditor('p', [0, 0, 0], None, None))
    vis.init('HTML')
    with pytest.raises(RuntimeError, match="GLFW or Qt.*HTML"):
        editors.run(editors.SphereEditor('s', ([0, 0, 0], 1.0), None, None))


def _drag_up(editor, p, pixels):
    """Drags the world point p up by ``pixels`` in the editor's window, seen
    from the front; (the view, p's depth)."""
    window = make_window(editor)
    view = _front_view(window)
    x, y = _pixel(view, p)
    depth = view.project(p)[2]
    _drag(window, (x, y), (x, y - pixels))
    return view, depth


def test_aabb_editor_face_drag_moves_the_top_face():
    e = editors.AABBEditor('box', ([-0.3, -0.3, -0.5], [0.3, 0.3, -0.2]), 'a box', None)
    view, depth = _drag_up(e, [0.2, 0.1, -0.2], 20)
    bmin, bmax = e.editedValue()
    assert bmax[2] == pytest.approx(-0.2 + 20 * depth / focal_pixels(view.w, view.fov), rel=0.02)
    assert bmin == [-0.3, -0.3, -0.5] and bmax[:2] == [0.3, 0.3]
    e.finish(True)
    assert e.value == (bmin, bmax)


def test_aabb_editor_in_a_frame_returns_frame_coordinates():
    frame = (so3.identity(), [0.0, 0.0, 0.3])
    e = editors.AABBEditor('box', ([-0.3, -0.3, -0.8], [0.3, 0.3, -0.5]), None, None, frame=frame)
    window = make_window(e)
    view = _front_view(window)
    x, y = _pixel(view, [0.2, 0.1, -0.2])     # the top face, in world coordinates
    _drag(window, (x, y), (x, y + 10))
    bmin, bmax = e.editedValue()
    assert bmax[2] < -0.5 - 0.005 and bmin[2] == -0.8


def test_sphere_editor_ring_drag_grows_the_radius_in_its_frame():
    frame = (so3.rotation([0, 0, 1], 0.7), [0.1, 0.0, 0.0])
    local = se3.apply(se3.inv(frame), [0.0, 0.0, 0.0])   # the centre at the world's origin
    e = editors.SphereEditor('ball', (local, 0.25), None, None, frame=frame)
    window = make_window(e)
    view = _front_view(window)
    x, y = _pixel(view, [0.25, 0.0, 0.0])
    _drag(window, (x, y), (x + 30, y))
    center, radius = e.editedValue()
    assert radius == pytest.approx(0.25 + 30 * 2.0 / focal_pixels(view.w, view.fov), rel=0.02)
    assert center == pytest.approx(local, abs=1e-9)


def test_geometric_primitive_editor_box_keeps_the_given_primitive():
    prim = klampt.GeometricPrimitive()
    prim.setBox([-0.3, -0.3, -0.5], so3.identity(), [0.6, 0.6, 0.3])
    e = editors.GeometricPrimitiveEditor('prim', prim, None, None)
    view, depth = _drag_up(e, [0.2, 0.1, -0.2], 20)
    e.finish(True)
    edited = e.value
    assert edited.type == 'Box' and edited is not prim
    props = list(edited.properties)
    assert props[:3] == pytest.approx([-0.3, -0.3, -0.5]) and props[12:14] == pytest.approx([0.6, 0.6])
    assert props[14] == pytest.approx(0.3 + 20 * depth / focal_pixels(view.w, view.fov), rel=0.02)
    assert list(prim.properties)[14] == 0.3
    with pytest.raises(ValueError, match="Segment"):
        seg = klampt.GeometricPrimitive()
        seg.setSegment([0, 0, 0], [1, 0, 0])
        editors.GeometricPrimitiveEditor('s', seg, None, None)


def test_object_transform_editor_moves_the_object_and_puts_it_back(arm_table):
    obj = arm_table.rigidObject(0)
    T0 = obj.getTransform()
    e = editors.ObjectTransformEditor('T', T0, None, arm_table, obj)
    window = make_window(e)
    view = window.view
    x, y = _pixel(view, T0[1])
    depth = view.project(T0[1])[2]
    _drag(window, (x, y), (x + 20, y))         # the centre: moves in the image plane
    R, t = e.editedValue()
    right = so3.apply(view.camera.matrix()[0], [1, 0, 0])
    moved = [a - b for a, b in zip(t, T0[1])]
    assert sum(m * r for m, r in zip(moved, right)) == pytest.approx(20 * depth / focal_pixels(view.w, view.fov), rel=0.02)
    assert R == pytest.approx(T0[0])
    e.finish(True)
    assert e.value[1] == pytest.approx(t) and obj.getTransform()[1] == pytest.approx(T0[1])


def _link_pixel(e, view, wanted=None):
    for y in range(0, view.h, 6):
        for x in range(0, view.w, 6):
            i = e.pickItem(x, y)
            if i is not None and (wanted is None or i == wanted) and i > 0:
                return x, y, i
    return None


def test_selection_editor_right_clicks_keys_and_highlight(arm_table):
    require_offscreen()
    from klampt.vis.backends.base import render_offscreen
    robot = arm_table.robot(0)
    e = editors.SelectionEditor('links', [], None, arm_table, robot)
    window = make_window(e)
    before = render_offscreen(window)[0].astype(int)
    x, y, i = _link_pixel(e, window.view)
    window.mouse_button(2, 0, x, y)
    window.mouse_button(2, 1, x, y)
    assert e.editedValue() == [i]
    shown = render_offscreen(window)[0].astype(int)
    # the last clicked and selected link is drawn orange where it was grey
    assert before[y, x, 0] - before[y, x, 2] < 30 and shown[y, x, 0] > 150 and shown[y, x, 2] < 80, \
        (before[y, x], shown[y, x])
    window.keyboard('>', x, y)
    assert e.editedValue() == [i, i + 1]
    window.keyboard('<', x, y)
    assert e.editedValue() == [i]
    window.mouse_button(2, 0, x, y)
    assert e.editedValue() == []
    e.selectAll()
    assert e.editedValue() == list(range(robot.numLinks()))
    e.finish(False)
    assert e.value == []
    with pytest.raises(ValueError):
        editors.SelectionEditor('links', [99], None, arm_table, robot)


def test_selection_editor_of_world_ids(arm_table):
    e = editors.SelectionEditor('ids', [1], None, arm_table)
    window = make_window(e)
    hit = _link_pixel(e, window.view)
    assert hit is not None
    x, y, i = hit
    window.mouse_button(2, 0, x, y)
    assert e.editedValue() == [1, i] if i != 1 else e.editedValue() == []
    assert arm_table.getName(i)


def test_sensor_editor_moves_the_sensor_on_its_link_and_cancel_restores_it(arm_table):
    require_offscreen()
    from klampt.model import sensing
    from klampt.vis.backends.base import render_offscreen
    robot = arm_table.robot(0)
    sensor = robot.addSensor('cam', 'CameraSensor')
    link = robot.numLinks() - 1
    sensor.setSetting('link', str(link))
    sensor.setSetting('xres', '32')
    sensor.setSetting('yres', '24')
    T0 = sensing.get_sensor_xform(sensor)
    e = editors.SensorEditor('cam', sensor, None, arm_table)
    window = make_window(e)
    view = window.view
    origin = robot.link(link).getTransform()[1]
    x, y = _pixel(view, origin)
    depth = view.project(origin)[2]
    _drag(window, (x, y), (x, y - 20))
    render_offscreen(window)                 # draws the sensor where it is now, with its measurements
    T = e._edited_transform()
    up = so3.apply(view.camera.matrix()[0], [0, 1, 0])
    moved_world = so3.apply(robot.link(link).getTransform()[0], [a - b for a, b in zip(T[1], T0[1])])
    assert sum(m * u for m, u in zip(moved_world, up)) == pytest.approx(20 * depth / focal_pixels(view.w, view.fov), rel=0.02)
    assert e.measurements is not None and len(e.measurements) > 0
    assert e.setSetting('xfov', '1.2') and sensor.getSetting('xfov') == '1.2'
    e.finish(False)
    assert sensing.get_sensor_xform(sensor) == T0 and sensor.getSetting('xfov') != '1.2'
    assert e.value is sensor


def test_editor_window_draws_the_box(vis):
    from klampt.vis.backends.base import render_offscreen
    e = editors.AABBEditor('box', ([-0.3, -0.3, -0.3], [0.3, 0.3, 0.3]), None, None)
    window = make_window(e)
    window.reshape(320, 240)
    _front_view(window)
    img = render_offscreen(window)[0].astype(int)
    x, y = _pixel(window.view, [-0.2, -0.3, 0.2])
    corner = img[5, 5]
    assert img[y, x, 0] > img[y, x, 1] + 40 and abs(corner[0] - 204) <= 2, (img[y, x], corner)


def test_panel_controls_of_the_editors(arm_table):
    """The controls run() puts in a GLFW window's panel, used as the panel
    uses them (Window.set_widget_state)."""
    robot = arm_table.robot(0)
    sel = editors.SelectionEditor('links', [1], None, arm_table, robot)
    window = make_window(sel)
    sel.addDialogItems(window, 'glfw')
    window.set_widget_state('Select all', None)
    assert sel.editedValue() == list(range(robot.numLinks()))
    window.set_widget_state('Clear', None)
    assert sel.editedValue() == []

    q0 = robot.getConfig()
    configs = editors.ConfigsEditor('qs', [q0], None, arm_table)
    window = make_window(configs)
    configs.addDialogItems(window, 'glfw')
    window.set_widget_state('Insert', None)
    assert len(configs.editedValue()) == 2 and window.widgets['Index']['state'] == 1
    window.set_widget_state('Index', 0)
    assert configs.index == 0

    sensor = robot.addSensor('cam', 'CameraSensor')
    sensor.setSetting('link', str(robot.numLinks() - 1))
    e = editors.SensorEditor('cam', sensor, None, arm_table)
    window = make_window(e)
    e.addDialogItems(window, 'glfw')
    assert window.widgets['Setting']['options'] == e.settingsOrder and 'Tsensor' not in e.settingsOrder
    window.set_widget_state('Setting', 'xres')
    assert window.widgets['Value']['state'] == sensor.getSetting('xres')
    window.set_widget_state('Value', '40')
    assert sensor.getSetting('xres') == '40'
    e.finish(True)
    assert e.value is sensor and sensor.getSetting('xres') == '40'


def test_vis_edit_of_a_geometric_primitive_item(vis):
    prim = klampt.GeometricPrimitive()
    prim.setSphere([0.0, 0.0, 0.0], 0.3)
    vis.add('ball', prim)
    poser = vis.edit('ball')
    assert isinstance(poser, klampt.SpherePoser) and poser.get() == [0, 0, 0, 0.3]
    view = vis.getViewport()
    view.camera.tgt, view.camera.rot, view.camera.dist = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 3.0
    vis.setViewport(view)
    window = vis.nativeWindow()
    c = 0.3 / math.sqrt(2)
    x, y = _pixel(window.view, [c, 0.0, c])     # the ring, up and right (clear of the centre's arrows)
    _drag(window, (x, y), (x - 15, y + 15))    # inward
    radius = list(vis.scene().getItem('ball').item.properties)[3]
    assert radius == pytest.approx(0.3 - 15 * math.sqrt(2) * 3.0 / focal_pixels(window.view.w, window.view.fov), rel=0.03)
    segment = klampt.GeometricPrimitive()
    segment.setSegment([0, 0, 0], [1, 0, 0])
    vis.add('seg', segment)
    with pytest.warns(UserWarning, match="Segment"):
        assert vis.edit('seg') is None


@pytest.mark.parametrize('alpha', [1.0, 0.5])
def test_vis_edit_of_a_ghost_keeps_its_color(vis, arm_table, alpha):
    """An edited configuration is drawn by its RobotPoser in the ghost's
    color, opaque or translucent (a translucent one was not drawn at all)."""
    robot = arm_table.robot(0)
    q = robot.getConfig()
    q[1] += 0.8
    vis.add('world', arm_table)
    vis.add('target', q, color=(0, 1, 0, alpha))
    vis.autoFitCamera()
    vis.hide('world')

    def green(img):
        img = img.astype(int)
        return (img[..., 1] > img[..., 0] + 40) & (img[..., 1] > img[..., 2] + 40)
    ghost = green(vis.screenshot())
    assert ghost.mean() > 0.02
    vis.edit('target')
    edited = green(vis.screenshot())
    assert (edited & ghost).sum() > 0.9 * ghost.sum()
    assert robot.getConfig() != q
