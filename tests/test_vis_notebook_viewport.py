"""vis.getViewport() in a notebook is the camera dict Klamp't's notebook
code edits (Klampt-examples' BasicKlamptDemo: ``cam['position']['x'] +=
1.5; vis.setViewport(cam)``), run by nbclient; other backends keep
returning a GLViewport."""
import json
import os
import textwrap

import numpy as np
import pytest

from conftest import REPO

NOTEBOOK_CELLS = [
    """
    import json, os
    import numpy as np
    from klampt import WorldModel, vis
    world = WorldModel()
    assert world.readFile(os.path.join(%r, 'data', 'worlds', 'arm_table.xml'))
    vis.add('world', world)
    vis.show()
    before = vis.screenshot()
    """ % REPO,
    """
    cam = vis.getViewport()
    print(cam)
    start = json.loads(json.dumps(cam))
    cam['position']['x'] += 1.5
    vis.setViewport(cam)
    """,
    """
    after = vis.getViewport()
    image = vis.screenshot()
    widget = vis.nativeWindow()
    np.save(%r, before)
    np.save(%r, image)
    print('RESULT ' + json.dumps({'start': start, 'after': after, 'widget': dict(widget.camera),
                                  'type': type(after).__name__}))
    """,
]


def test_notebook_edits_the_camera_dict(tmp_path):
    nbformat = pytest.importorskip('nbformat')
    nbclient = pytest.importorskip('nbclient')
    pytest.importorskip('anywidget')
    cells = [textwrap.dedent(c) for c in NOTEBOOK_CELLS]
    cells[2] = cells[2] % (str(tmp_path / 'before.npy'), str(tmp_path / 'after.npy'))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(nb, timeout=300, kernel_name='python3').execute()
    text = ''.join(o.get('text', '') for c in nb.cells for o in c.get('outputs', []) if o.get('output_type') == 'stream')
    result = json.loads(text.split('RESULT ', 1)[1].splitlines()[0])
    start, after = result['start'], result['after']
    assert result['type'] == 'dict'
    assert set(start) == {'position', 'target', 'up', 'near', 'far'}
    assert set(start['position']) == {'x', 'y', 'z'}
    assert after['position']['x'] == pytest.approx(start['position']['x'] + 1.5, abs=1e-9)
    for k in ('y', 'z'):
        assert after['position'][k] == pytest.approx(start['position'][k], abs=1e-9)
        assert after['target'][k] == pytest.approx(start['target'][k], abs=1e-9)
    # the viewer got the moved camera
    assert result['widget']['position'] == pytest.approx([after['position'][k] for k in 'xyz'], abs=1e-9)
    # the rendered view moved: the pictures differ, and neither is one colour
    before, image = np.load(tmp_path / 'before.npy'), np.load(tmp_path / 'after.npy')
    for img in (before, image):
        assert len(np.unique(img.reshape(-1, 3), axis=0)) > 50
    assert np.abs(before.astype(int) - image.astype(int)).mean() > 2


def test_other_backends_return_a_glviewport_and_take_a_camera_dict():
    from klampt import WorldModel, vis
    from klampt.vis.glviewport import GLViewport
    world = WorldModel()
    assert world.readFile(os.path.join(REPO, 'data', 'worlds', 'arm_table.xml'))
    vis.init('offscreen')
    vis.createWindow('vis_notebook_viewport')  # a fresh scene: windows outlive vis.kill()
    try:
        vis.add('world', world)
        vp = vis.getViewport()
        assert isinstance(vp, GLViewport)
        R, t = vp.camera.matrix()
        cam = {'position': {'x': t[0] + 1.5, 'y': t[1], 'z': t[2]}, 'target': dict(zip('xyz', vp.camera.tgt)),
               'up': dict(zip('xyz', R[3:6]))}
        vis.setViewport(cam)
        moved = vis.getViewport()
        assert moved.camera.matrix()[1] == pytest.approx([t[0] + 1.5, t[1], t[2]], abs=1e-9)
        assert moved.camera.tgt == pytest.approx(vp.camera.tgt, abs=1e-9)
    finally:
        vis.kill()
