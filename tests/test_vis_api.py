"""klampt.vis without pixels: import hygiene, item types and defaults, the
scene model's semantics (attributes, paths, animation, text, plots, JSON
config), and the headless behaviour of the window functions in
subprocesses (show / shown bounded by KLAMPT_VIS_HEADLESS_TIMEOUT, dialog,
run, loop, screenshots written to KLAMPT_VIS_SCREENSHOT_DIR)."""
import json
import os

import pytest

import klampt
from klampt.math import se3, so3
from klampt.model.trajectory import Trajectory
from klampt.vis import objectToVisType
from klampt.vis._scene import VisualizationScene

from conftest import PROJECT_DATA
from vis_helpers import run_python

HEAVY = ('OpenGL', 'glfw', 'PyQt5', 'PyQt6', 'PySide6', 'IPython', 'ipywidgets', 'anywidget', 'viser', 'rerun')


def test_imports_load_no_gui_or_opengl():
    r = run_python("""
        import sys, os
        before = dict(os.environ)
        import klampt, klampt.vis, klampt.vis.glinterface, klampt.vis.ipython, klampt.vis.glprogram
        import klampt.vis.glcommon, klampt.vis.glrobotprogram, klampt.vis.gldraw, klampt.vis.glviewport
        import klampt.vis.camera, klampt.vis.glinit, klampt.vis.colorize, klampt.vis.editors
        from klampt import *
        assert vis is klampt.vis
        bad = [m for m in sys.modules if m.split('.')[0] in %r]
        assert not bad, bad
        assert dict(os.environ) == before
        vis.add('p', [0, 0, 0])
        print('ok')
        """ % (HEAVY,))
    assert r.returncode == 0 and r.stdout.strip() == 'ok', r.stderr
    assert r.stderr == ''


def test_star_import_brings_vis():
    r = run_python("from klampt import *\nvis.add('world', WorldModel())\nprint(type(vis.scene()).__name__)")
    assert r.returncode == 0 and r.stdout.strip() == 'VisualizationScene', r.stderr


def test_object_to_vis_type():
    world = klampt.WorldModel()
    world.loadRobot(os.path.join(PROJECT_DATA, 'robots', 'arm6.rob'))
    n = world.robot(0).numLinks()
    assert objectToVisType([1, 2, 3], world) == 'Vector3'
    assert objectToVisType(se3.identity(), world) == 'RigidTransform'
    with pytest.warns(UserWarning):
        assert objectToVisType(so3.identity(), world) is None
    assert objectToVisType([0.0] * n, world) == 'Config'
    assert objectToVisType([[0, 0, 0], [1, 1, 1]], world) == 'Configs'
    assert objectToVisType('hello', world) == 'StringArray'
    assert objectToVisType(Trajectory([0, 1], [[0, 0, 0], [1, 1, 1]]), world) == 'Trajectory'
    assert objectToVisType(world, world) == 'WorldModel'
    with pytest.raises(ValueError):
        objectToVisType(world.robot(0).link(0), world)


def test_default_attributes_and_cascading():
    scene = VisualizationScene()
    world = klampt.WorldModel()
    world.loadRobot(os.path.join(PROJECT_DATA, 'robots', 'arm6.rob'))
    robot = world.robot(0)
    scene.add('world', world)
    scene.add('p', [1, 2, 3])
    scene.add('t', Trajectory([0, 1], [[0, 0, 0], [1, 1, 1]]))
    scene.add('T', se3.identity())
    assert scene.getAttributes('p') == {'size': 5.0, 'color': (0, 0, 0, 1), 'type': 'Vector3',
                                        'hidden': False, 'hide_label': False, 'label': 'p'}
    assert scene.getAttribute('t', 'color') == (1, 0.5, 0, 1) and scene.getAttribute('t', 'width') == 3
    assert scene.getAttribute('T', 'length') == 0.1 and scene.getAttribute('T', 'fancy') is False
    # colors cascade to every link; labels and hidden do not
    scene.setColor('world', 1, 0, 0, 0.5)
    link = robot.link(robot.numLinks() - 1)
    path = ('world', robot.getName(), link.getName())
    assert scene.getAttribute(path, 'color') == [1, 0, 0, 0.5]
    assert scene.getItem('world').transparent() is True
    scene.setAttribute('world', 'label', 'W')
    assert scene.getAttribute(path, 'label') == link.getName()
    scene.setAttribute('p', 'size', None)
    assert scene.getAttribute('p', 'size') == 5.0  # back to the default
    assert scene.getItemName(link) == path
    assert scene.getItemName(robot) == ('world', robot.getName())


def test_animation_clock_and_config_swap():
    scene = VisualizationScene()
    point = [0.0, 0.0, 0.0]
    scene.add('p', point)
    scene.animate('p', Trajectory([0, 2], [[0, 0, 0], [2, 4, 6]]), endBehavior='halt')
    scene.stepAnimation(0.5)
    app = scene.getItem('p')
    assert app.drawConfig == pytest.approx([0.5, 1, 1.5])
    app.swapDrawConfig()
    assert point == pytest.approx([0.5, 1, 1.5])
    app.swapDrawConfig()
    assert point == [0.0, 0.0, 0.0]
    scene.animationTime(5.0)
    assert scene.animationTime() == 5.0 and app.drawConfig == pytest.approx([2, 4, 6])
    # milestones one second apart
    scene.animate('p', [[0, 0, 0], [1, 1, 1], [3, 3, 3]])
    scene.animationTime(6.5)
    assert app.drawConfig == pytest.approx([2, 2, 2])
    # a controlled clock
    clock = [100.0]
    scene.animate('p', Trajectory([0, 1], [[0, 0, 0], [1, 0, 0]]))
    scene.setTimeCallback(lambda: clock[0])
    scene.updateTime()
    clock[0] += 0.25
    scene.updateTime()
    assert scene.t == pytest.approx(0.25)
    assert app.drawConfig[0] == pytest.approx(0.25)


def test_item_config_plots_and_json_config(tmp_path):
    from klampt import vis
    vis.init('null')
    vis.createWindow('api')
    vp = vis.getViewport()
    assert (vp.w, vp.h, vp.fov, vp.camera.dist) == (640, 480, 30.0, 6.0)
    vis.add('T', ([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0]))
    vis.setItemConfig('T', so3.identity() + [1, 2, 3])
    assert vis.getItemConfig('T') == so3.identity() + [1, 2, 3]
    vis.addPlot('plot')
    vis.logPlot('plot', 'v', 1.0)
    vis.scene().t = 1.0
    vis.logPlot('plot', 'v', 3.0)
    vis.logPlotEvent('plot', 'hit', (1, 0, 0))
    vis.savePlot('plot', str(tmp_path / 'p.csv'))
    lines = (tmp_path / 'p.csv').read_text().splitlines()
    assert lines[0] == 'time,v' and lines[1:] == ['0,1.0', '1.0,3.0']
    vis.setColor('T', 0, 1, 0)
    saved = vis.saveJsonConfig(str(tmp_path / 'c.json'))
    assert json.loads((tmp_path / 'c.json').read_text())['T']['color'] == [0, 1, 0, 1.0]
    vis.setColor('T', 1, 1, 1)
    vis.loadJsonConfig(saved)
    assert vis.getAttribute('T', 'color') == [0, 1, 0, 1.0]
    vis.addButton('Go', lambda: None)
    states = []
    vis.addCheckbox('Flag', lambda s: states.append(s))
    vis.nativeWindow().set_widget_state('Flag', True)
    assert vis.getWidgetState('Flag') is True and states == [True]
    vis.kill()


def test_actions_fire_from_keys_and_by_name():
    from klampt import vis
    vis.init('null')
    vis.createWindow('actions')
    fired = []
    vis.addAction(lambda: fired.append('d'), 'Do it', 'd')
    window = vis.nativeWindow()
    window.keyboard('d', 0, 0)
    window.triggerAction('Do it')
    assert fired == ['d', 'd']
    vis.kill()


def test_show_and_shown_end_with_the_headless_timeout():
    r = run_python("""
        import time, warnings
        from klampt import vis
        t0 = time.time()
        vis.add('p', [0, 0, 0])
        vis.show()
        while vis.shown():
            vis.lock(); vis.unlock(); time.sleep(0.05)
        elapsed = time.time() - t0
        vis.dialog(); vis.run()
        calls = []
        vis.loop(setup=vis.show, callback=lambda: calls.append(1))
        vis.spin(10)
        print(round(elapsed, 1), len(calls) > 3)
        vis.kill()
        """, KLAMPT_VIS_HEADLESS_TIMEOUT='1')
    assert r.returncode == 0, r.stderr
    elapsed, looped = r.stdout.split()
    assert 0.9 <= float(elapsed) <= 3.0 and looped == 'True'
    assert r.stderr.count('UserWarning: klampt.vis: no display') == 1  # one warning, however often show() is called


def test_headless_dialog_writes_the_frame(tmp_path):
    r = run_python("""
        import klampt
        from klampt import vis
        p = klampt.GeometricPrimitive(); p.setSphere([0, 0, 0], 0.5)
        vis.add('s', klampt.Geometry3D(p), color=(1, 0, 0, 1))
        img = vis.screenshot()
        vis.dialog()
        vis.debug(klampt.Geometry3D(p), title='dbg')
        print(img.shape)
        """, KLAMPT_VIS_SCREENSHOT_DIR=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == '(480, 640, 3)'
    from PIL import Image
    import numpy as np
    pngs = sorted(tmp_path.glob('*.png'))
    assert len(pngs) == 2
    img = np.asarray(Image.open(pngs[0]))
    assert img[240, 320, 0] > 100 and img[240, 320, 1] < 50


def test_kill_then_show_again_and_threadcall():
    from klampt import vis
    vis.init('null')
    for _ in range(3):
        vis.show()
        assert vis.shown()
        vis.kill()
        assert not vis.shown()
    out = []
    vis.threadCall(lambda: out.append(1))
    assert out == [1]
    vis.kill()
