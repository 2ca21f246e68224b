"""The web viewer: the scene JSON (the three.js subset klampt exports),
transform updates, the self-contained HTML export, and both the export and
the Jupyter widget's module rendered by a real headless Chromium (pixel
checks of its screenshots)."""
import json
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import klampt

from conftest import sphere_geometry


def _strip_uuids(value):
    if isinstance(value, dict):
        return {k: _strip_uuids(v) for k, v in value.items() if k not in ('uuid', 'geometry', 'material')}
    if isinstance(value, list):
        return [_strip_uuids(v) for v in value]
    return value


def _node_names(node, out):
    out.append(node.get('name'))
    for c in node.get('children', []):
        _node_names(c, out)
    return out


def test_scene_json_is_the_threejs_export_with_unique_names(tx90blocks):
    from klampt.vis._scene import VisualizationScene
    from klampt.vis._web.serialize import SceneSerializer
    scene = VisualizationScene()
    scene.add('world', tx90blocks)
    ours = SceneSerializer(scene).build()
    reference = json.loads(klampt.threejs_get_scene(tx90blocks))
    assert set(ours) >= {'metadata', 'geometries', 'materials', 'object', 'extras', 'camera', 'background', 'lights',
                         'checker'}
    from klampt.vis import _lighting
    assert ours['lights'] == _lighting.as_json()
    terrains = {tx90blocks.terrain(i).getName() for i in range(tx90blocks.numTerrains())}
    assert terrains and set(ours['checker']['nodes']) == terrains
    assert len(ours['geometries']) == len(reference['geometries'])
    names = _node_names(ours['object'], [])
    ref_names = _node_names(reference['object'], [])
    assert len(names) == len(set(names)) == len(ref_names)
    assert len(set(ref_names)) < len(ref_names)  # the reference repeats the blocks' names
    # apart from the renamed duplicates, the same tree, matrices and geometry data
    renamed = [re.sub('#[0-9]+$', '', n) for n in names]
    assert renamed == ref_names
    ours_tree = _strip_uuids(ours['object'])
    ref_tree = _strip_uuids(reference['object'])

    def unname(node):
        node['name'] = re.sub('#[0-9]+$', '', node['name'])
        for c in node.get('children', []):
            unname(c)
        return node
    assert unname(ours_tree) == ref_tree
    assert [g['data'] for g in ours['geometries']] == [g['data'] for g in reference['geometries']]


def test_transforms_follow_the_robot(tx90blocks):
    from klampt.vis._scene import VisualizationScene
    from klampt.vis._web.serialize import SceneSerializer
    scene = VisualizationScene()
    scene.add('world', tx90blocks)
    ser = SceneSerializer(scene)
    ser.build()
    before = ser.transforms()
    robot = tx90blocks.robot(0)
    q = robot.getConfig()
    q[1] += 0.5
    robot.setConfig(q)
    after = ser.transforms()
    changed = [n for n in before if before[n] != after[n]]
    assert robot.link(1).getName() in changed
    # the matrix of a root link is its world transform, column-major
    T = robot.link(0).getTransform()
    assert after[robot.link(0).getName()] == pytest.approx(T[0][0:3] + [0] + T[0][3:6] + [0] + T[0][6:9] + [0]
                                                         + list(T[1]) + [1], abs=1e-5)


def test_widget_scene_and_update(tx90blocks):
    pytest.importorskip('anywidget')
    from klampt.vis.ipython import KlamptWidget
    w = KlamptWidget(tx90blocks)
    names = [c['name'] for c in w.scene['object']['children']]
    assert tx90blocks.robot(0).getName() in names and 'Light 1' in names
    assert w.scene['camera']['fov'] == 30
    before = dict(w.transforms)
    robot = tx90blocks.robot(0)
    q = robot.getConfig()
    q[2] += 0.4
    robot.setConfig(q)
    w.update()
    assert w.transforms != before
    w.setCamera({'position': [3, -3, 2], 'target': [0, 0, 0.5], 'up': [0, 0, 1], 'fov': 30})
    cam = w._vis_scene.view.camera
    assert cam.dist == pytest.approx(np.linalg.norm([3, -3, 1.5]))
    assert cam.matrix()[1] == pytest.approx([3, -3, 2])


def test_html_export_is_self_contained_and_plays_frames(tx90blocks):
    from klampt import vis
    from klampt.model.trajectory import Trajectory
    vis.init('HTML')
    try:
        vis.createWindow('export')
        vis.add('world', tx90blocks)
        robot = tx90blocks.robot(0)
        q0 = robot.getConfig()
        q1 = list(q0)
        q1[1] += 1.0
        vis.animate(('world', robot.getName()), Trajectory([0, 1], [q0, q1]))
        for _ in range(10):
            vis.stepAnimation(0.1)
        out = vis.nativeWindow()
        page = out.page()
        assert str(out) == page and '<iframe srcdoc=' in out.iframe(400, 300)
    finally:
        vis.kill()
    assert not re.search(r'<script[^>]+src=', page)
    assert 'http://' not in page and 'https://' not in page
    data = json.loads(re.search(r'var data = (.*);\n  var frames', page).group(1))
    frames = json.loads(re.search(r'var frames = (.*);\n  var viewer', page).group(1))
    assert len(frames) == 10
    names = _node_names(data['object'], [])
    assert len(names) == len(set(names))
    link1 = robot.link(1).getName()
    assert frames[0]['transforms'][link1] != frames[-1]['transforms'][link1]
    assert robot.getConfig() == q0


def _chromium():
    for name in ('chromium-headless-shell', 'chromium'):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get('CI'):
        pytest.fail('no headless Chromium (apt-get install chromium-headless-shell)')
    pytest.skip('no headless Chromium')


def _browser_screenshot(tmp_path, html_text):
    page = tmp_path / 'page.html'
    page.write_text(html_text, encoding='utf-8')
    out = tmp_path / 'shot.png'
    cmd = [_chromium(), '--no-sandbox', '--headless', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
           '--window-size=640,480', '--virtual-time-budget=8000', '--screenshot=%s' % out, page.as_uri()]
    subprocess.run(cmd, capture_output=True, timeout=120)
    assert out.exists(), 'Chromium wrote no screenshot'
    from PIL import Image
    return np.asarray(Image.open(out).convert('RGB')).astype(int)


def _sphere_scene():
    from klampt.vis._scene import VisualizationScene
    from klampt.vis.glviewport import GLViewport
    scene = VisualizationScene()
    scene.setViewport(GLViewport())  # the default camera, which _check_sphere_render assumes
    scene.add('s', sphere_geometry(), color=(1, 0, 0, 1), hide_label=True)
    scene.add('p', [1.5, 0, 0], color=(0, 0, 1, 1), size=12, hide_label=True)
    return scene


def _check_sphere_render(img):
    h, w, _ = img.shape
    r, g, b = img[240, 320]
    assert r > 100 and r > 2 * g and r > 2 * b, img[240, 320]
    assert np.abs(img[10, 600] - [204, 204, 229]).max() <= 3, img[10, 600]
    # the blue point 1.5 to the right: focal length (320 / tan 15deg) * 1.5 / 6 pixels right of centre
    x = int(round(320 + 320 / np.tan(np.radians(15)) * 1.5 / 6))
    patch = img[236:245, x - 4:x + 5]
    assert ((patch[..., 2] > 200) & (patch[..., 0] < 60)).any()


def test_exported_page_in_a_real_browser(tmp_path):
    from klampt.vis._web.page import page
    from klampt.vis._web.serialize import SceneSerializer
    html_text = page(SceneSerializer(_sphere_scene()).build(), width=640, height=480)
    _check_sphere_render(_browser_screenshot(tmp_path, html_text))


def test_widget_module_in_a_real_browser(tmp_path):
    """The widget's ES module rendered through a model object shaped like
    anywidget's (get / on / set / save_changes), then updated."""
    from klampt.vis._web.page import _inline_json
    from klampt.vis._web.serialize import SceneSerializer
    from klampt.vis.ipython.widgets import widget_esm
    scene = _sphere_scene()
    ser = SceneSerializer(scene)
    data = ser.build()
    html_text = """<!DOCTYPE html><html><body style="margin:0;overflow:hidden"><div id="w"></div>
<script type="module">
const source = %s;
const mod = await import(URL.createObjectURL(new Blob([source], {type: "text/javascript"})));
const state = {scene: %s, transforms: {}, camera: {}, width: 640, height: 480};
const handlers = {};
const model = {get: (k) => state[k], set: (k, v) => { state[k] = v; }, save_changes: () => {},
               on: (ev, f) => { handlers[ev] = f; }};
mod.default.render({model, el: document.getElementById("w")});
</script></body></html>""" % (_inline_json(widget_esm()), _inline_json(data))
    _check_sphere_render(_browser_screenshot(tmp_path, html_text))


def test_html_share_path_records_a_simulation(tmp_path, tx90blocks):
    from klampt.io.html import HTMLSharePath
    sim = klampt.Simulator(tx90blocks)
    sharer = HTMLSharePath(str(tmp_path / 'path.html'), name='falling blocks')
    sharer.start(sim)
    for _ in range(5):
        sim.simulate(0.02)
        sharer.animate()
    sharer.end()
    text = (tmp_path / 'path.html').read_text()
    assert '<title>falling blocks</title>' in text and 'https://' not in text
    frames = json.loads(re.search(r'var frames = (.*);\n  var viewer', text).group(1))
    assert len(frames) == 6
    assert sharer.dt == pytest.approx(0.02)
