"""vis.drawTrajectory and vis.drawRobotTrajectory drawn by a plugin, and
vis.scene().setBackgroundImage behind the scene, checked on offscreen
renders: colours where the camera's projection puts the path, its
milestones and the image, the scene hidden behind a nearer depth image."""
import numpy as np
import pytest

import klampt
from klampt.model.trajectory import HermiteTrajectory, SE3Trajectory, Trajectory
from klampt.math import so3

from conftest import sphere_geometry
from vis_helpers import background_mask

W, H = 320, 240


def _front_camera(vis, dist=6.0):
    """The camera at (0, -dist, 0) looking along +y; returns the view."""
    view = vis.getViewport()
    view.camera.tgt, view.camera.rot, view.camera.dist = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], dist
    vis.setViewport(view)
    return vis.getViewport()


def _draw(vis, func):
    from klampt.vis.glinterface import GLPluginInterface

    class Draw(GLPluginInterface):
        def display(self):
            func()
    vis.pushPlugin(Draw())
    return vis.screenshot().astype(int)


def _at(img, view, p):
    x, y, _ = view.project(p, clip=False)
    return img[int(round(y)), int(round(x))]


def _blue_dot(img, view, p):
    """Whether a dot drawn blue covers most of the 9 x 9 pixels around p's
    image (a line may cross it)."""
    x, y, _ = view.project(p, clip=False)
    x, y = int(round(x)), int(round(y))
    patch = img[y - 4:y + 5, x - 4:x + 5].reshape(-1, 3)
    return sum(_blue(c) for c in patch) >= 50


def _red(c):
    return c[0] > 200 and c[1] < 60 and c[2] < 60


def _blue(c):
    return c[2] > 200 and c[0] < 60 and c[1] < 60


def test_draw_trajectory_line_and_milestone_dots(vis):
    view = _front_camera(vis)
    pts = [[-1.0, 0.0, 0.0], [0.0, 0.0, 0.6], [1.0, 0.0, 0.0]]
    img = _draw(vis, lambda: vis.drawTrajectory(pts, 4, (1, 0, 0, 1), pointSize=10, pointColor=(0, 0, 1, 1)))
    assert _red(_at(img, view, [-0.5, 0.0, 0.3])) and _red(_at(img, view, [0.6, 0.0, 0.24]))
    for p in pts:
        assert _blue(_at(img, view, p))
    bg = background_mask(img)
    assert bg[int(view.project([0, 0, 0])[1]), int(view.project([0, 0, 0])[0])]   # under the apex
    assert 0.002 < (~bg).mean() < 0.05
    with pytest.raises(RuntimeError, match="OpenGL context"):
        vis.drawTrajectory(pts, 4, (1, 0, 0, 1))


def test_draw_trajectory_follows_a_hermite_curve_and_2d_and_se3_paths(vis):
    view = _front_camera(vis)
    # from (-1, 0, 0) up and over to (1, 0, 0): at t = 1/2 the Hermite basis gives z = (3 + 3) / 8
    h = HermiteTrajectory([0, 1], [[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]], [[0.0, 0.0, 3.0], [0.0, 0.0, -3.0]])
    img = _draw(vis, lambda: vis.drawTrajectory(h, 3, (1, 0, 0, 1), pointSize=0))
    assert _red(_at(img, view, [0.0, 0.0, 0.75]))
    assert background_mask(img)[int(view.project([0, 0, 0])[1]), int(view.project([0, 0, 0])[0])]  # not the chord
    vis.popPlugin()
    # 2D points lie at z = 0; an SE3 path draws its positions
    planar = Trajectory([0, 1], [[-1.0, 0.5], [1.0, 0.5]])
    frames = SE3Trajectory([0, 1], [(so3.identity(), [-1.0, 0.0, 0.5]), (so3.identity(), [1.0, 0.0, 0.5])])

    def both():
        vis.drawTrajectory(planar, 3, (1, 0, 0, 1), pointSize=0)
        vis.drawTrajectory(frames, 3, (0, 0, 1, 1), pointSize=0)
    img = _draw(vis, both)
    # the planar path is the line y = 0.5 in the z = 0 plane, seen edge-on at the image's middle row
    assert _red(_at(img, view, [0.3, 0.5, 0.0])) and _blue(_at(img, view, [0.3, 0.0, 0.5]))
    with pytest.raises(ValueError, match="2D or 3D"):
        vis.drawTrajectory(Trajectory([0, 1], [[0.0] * 4, [1.0] * 4]), 1, (1, 0, 0, 1))


def test_draw_robot_trajectory_dots_the_end_effector(vis, arm_table):
    robot = arm_table.robot(0)
    q0 = robot.getConfig()
    q1 = list(q0)
    q1[1] += 0.5
    path = Trajectory([0, 1], [q0, q1])
    ends = []
    for q in (q0, q1):
        robot.setConfig(q)
        ends.append(robot.link(robot.numLinks() - 1).getTransform()[1])
    robot.setConfig(q0)
    view = vis.getViewport()
    view.fit([(a + b) / 2 for a, b in zip(*ends)], 1.0)
    vis.setViewport(view)
    view = vis.getViewport()
    img = _draw(vis, lambda: vis.drawRobotTrajectory(path, robot, [-1], width=2, color=(1, 0, 0, 1),
                                                     pointSize=12, pointColor=(0, 0, 1, 1)))
    for p in ends:
        assert _blue_dot(img, view, p)
    assert _red(_at(img, view, [(a + b) / 2 for a, b in zip(*ends)])) or \
        _red(_at(img, view, [0.25 * a + 0.75 * b for a, b in zip(*ends)]))
    assert robot.getConfig() == q0
    with pytest.raises(ValueError):
        vis.drawRobotTrajectory(path, robot, [99])


def _halves(h=48, w=64):
    """An image red on the left, blue on the right, with a yellow top band."""
    img = np.zeros((h, w, 3), np.uint8)
    img[:, :w // 2] = (255, 0, 0)
    img[:, w // 2:] = (0, 0, 255)
    img[:h // 6] = (255, 255, 0)
    return img


def test_background_image_behind_the_scene(vis):
    vis.add('s', sphere_geometry(radius=0.5), color=(0, 1, 0, 1))
    view = _front_camera(vis)
    vis.scene().setBackgroundImage(_halves())
    img = vis.screenshot().astype(int)
    centre = img[H // 2, W // 2]
    assert centre[1] > 120 and centre[0] < 60 and centre[2] < 60          # the green sphere, in front
    assert _red(img[H // 2, 10]) and _blue(img[H // 2, W - 10])         # stretched over the view
    assert img[5, W // 2].tolist() == [255, 255, 0] and _red(img[H - 3, 3])
    assert _red(img[int(H * 0.6), W // 2 - 95]) and _blue(img[int(H * 0.6), W // 2 + 95])
    # a depth image nearer than the sphere (3 m against 5.5 m) hides it; a farther one does not
    x = W // 2 - 20
    vis.scene().setBackgroundImage(_halves(), depth=np.full((48, 64), 3.0))
    assert _red(vis.screenshot()[H // 2, x])
    vis.scene().setBackgroundImage(_halves(), depth=np.full((48, 64), 10.0))
    assert vis.screenshot()[H // 2, x][1] > 120
    vis.scene().setBackgroundImage(None)
    assert background_mask(vis.screenshot()[:5, :5]).all()
    assert view.camera.dist == 6.0


def test_background_image_formats_and_modes(vis):
    _front_camera(vis)
    packed = np.full((10, 10), 0x00ff0000, np.uint32)        # 0x00rrggbb: red
    vis.scene().setBackgroundImage(packed)
    assert _red(vis.screenshot()[H // 2, W // 2])
    vis.scene().setBackgroundImage(packed, format='bgr')      # 0x00bbggrr: the same number is blue
    assert _blue(vis.screenshot()[H // 2, W // 2])
    vis.scene().setBackgroundImage(bytes([0, 0, 255] * 20), format='rgb', rows=4)
    assert _blue(vis.screenshot()[H // 2, W // 2])
    vis.scene().setBackgroundImage(np.ones((4, 4, 3)) * [1.0, 0.0, 0.0])
    assert _red(vis.screenshot()[H // 2, W // 2])
    # 'center': the image at its own size in the middle, the background colour around it
    vis.scene().setBackgroundImage(np.full((20, 40, 3), 255, np.uint8) * np.array([1, 0, 0], np.uint8),
                                   mode='center')
    img = vis.screenshot()
    assert _red(img[H // 2, W // 2 + 18]) and background_mask(img[H // 2:H // 2 + 1, W // 2 + 22:W // 2 + 30]).all()
    assert background_mask(img[H // 2 + 12:H // 2 + 13, W // 2:W // 2 + 1]).all()
    with pytest.raises(ValueError, match="mode"):
        vis.scene().setBackgroundImage(packed, mode='sideways')
    with pytest.raises(ValueError, match="rows"):
        vis.scene().setBackgroundImage(bytes(12))
    with pytest.raises(ValueError, match="depth"):
        vis.scene().setBackgroundImage(_halves(), depth=np.ones((3, 3)))


def test_widget_keywords_of_the_reference(vis):
    calls = []
    assert vis.addCheckbox('A', lambda s: calls.append(s), checked=True) == 'A'
    assert vis.getWidgetState('A') is True
    vis.addCheckbox('B', None, True, 'b-id')
    assert vis.getWidgetState('b-id') is True
    vis.addCheckbox('C', value=True)                          # the older keyword still works
    assert vis.getWidgetState('C') is True
    assert vis.getWidgetState(vis.addCheckbox('D')) is False
    vis.addSelect('S', ['a', 'b', 'c'], selection='b')
    assert vis.getWidgetState('S') == 'b'
    vis.addSelect('M', ['a', 'b', 'c'], None, ['a', 'c'], 'multi', True)
    assert vis.getWidgetState('multi') == ['a', 'c']
    vis.addSelect('V', ['x', 'y'], value='y')
    assert vis.getWidgetState('V') == 'y'
    with pytest.raises(ValueError, match="not among"):
        vis.addSelect('Z', ['a', 'b'], selection='z')
    window = vis.nativeWindow()
    vis.addButton('Go', None, icon='aWNvbg==', iconformat='image/png', style={'color': 'red'})
    assert window.widgets['Go']['icon'] == 'aWNvbg==' and window.widgets['Go']['style'] == {'color': 'red'}
    vis.addInput('N', 5, lambda s: calls.append(('N', s)), min=0, max=10)
    window.set_widget_state('N', 42)                          # as a GUI would: the number stays within max
    assert vis.getWidgetState('N') == 10 and calls[-1] == ('N', 10)
    window.set_widget_state('A', False)
    assert calls[-1] is False
    with pytest.raises(ValueError, match="number"):
        vis.addInput('T', 'text', min=0)
    assert klampt.vis.addInput('F', 0.5)
    assert window.widgets['F']['step'] == 'any'
