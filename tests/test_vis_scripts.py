"""Whole programs using klampt.vis headless: the vis calls of a typical
desktop script (its shown() loop bounded by KLAMPT_VIS_HEADLESS_TIMEOUT),
the screenshot example, and the example notebook executed by nbclient."""
import os
import textwrap

import numpy as np
import pytest

from conftest import REPO
from vis_helpers import run_python

EXAMPLES = os.path.join(REPO, 'examples')


def test_typical_script_runs_headless_and_ends(tmp_path):
    script = tmp_path / 'script.py'
    script.write_text(textwrap.dedent("""
        import os, time
        import klampt
        from klampt import vis
        from klampt.model.trajectory import RobotTrajectory
        world = klampt.WorldModel()
        assert world.readFile(os.path.join(%r, 'data', 'worlds', 'arm_table.xml'))
        robot = world.robot(0)
        vis.add('world', world)
        vis.setColor(('world', world.rigidObject(0).getName()), 0, 0, 1)
        q0 = robot.getConfig(); q1 = list(q0); q1[1] += 1.0
        vis.animate(('world', robot.getName()), RobotTrajectory(robot, [0, 1, 2], [q0, q1, q0]))
        vis.addText('status', 'running')
        vis.setWindowTitle('typical script')
        vis.show()
        t0 = time.time()
        frames = 0
        while vis.shown():
            vis.lock()
            frames += 1
            vis.addText('status', 'frame %%d' %% frames)
            vis.unlock()
            time.sleep(0.05)
        img = vis.screenshot()
        vis.kill()
        print(frames > 5, round(time.time() - t0), img.shape, robot.getConfig() == q0)
        """ % (REPO,)))
    r = run_python([str(script)], timeout=180, KLAMPT_VIS_HEADLESS_TIMEOUT='2', KLAMPT_VIS_SCREENSHOT_DIR=str(tmp_path))
    assert r.returncode == 0, r.stderr
    ok, seconds = r.stdout.split()[0], int(r.stdout.split()[1])
    assert ok == 'True' and 2 <= seconds <= 4
    assert r.stdout.strip().endswith('(480, 640, 3) True')
    # the frame shown when the timeout ended was written
    from PIL import Image
    pngs = list(tmp_path.glob('*.png'))
    assert len(pngs) == 1
    img = np.asarray(Image.open(pngs[0]))
    assert (np.abs(img.astype(int) - [204, 204, 229]).max(axis=2) > 3).mean() > 0.05


def test_screenshot_example(tmp_path):
    out = tmp_path / 'demo.png'
    r = run_python([os.path.join(EXAMPLES, 'vis_screenshot.py'), os.path.join(REPO, 'data', 'worlds', 'arm_table.xml'),
                    str(out)], timeout=180)
    assert r.returncode == 0, r.stderr
    from PIL import Image
    img = np.asarray(Image.open(out))
    assert img.shape == (480, 640, 3)
    assert (np.abs(img.astype(int) - [204, 204, 229]).max(axis=2) > 3).mean() > 0.05
    assert (img[5:30, 10:200].max(axis=2) < 90).any()  # the title text


def test_example_notebook_runs_and_shows_the_widget():
    nbformat = pytest.importorskip('nbformat')
    nbclient = pytest.importorskip('nbclient')
    pytest.importorskip('anywidget')
    nb = nbformat.read(os.path.join(EXAMPLES, 'vis_notebook.ipynb'), as_version=4)
    env_before = os.environ.get('KLAMPT_EXAMPLES_DATA')
    os.environ['KLAMPT_EXAMPLES_DATA'] = os.path.join(REPO, 'data')
    try:
        client = nbclient.NotebookClient(nb, timeout=180, kernel_name='python3',
                                         resources={'metadata': {'path': EXAMPLES}})
        client.execute()
    finally:
        if env_before is None:
            os.environ.pop('KLAMPT_EXAMPLES_DATA', None)
        else:
            os.environ['KLAMPT_EXAMPLES_DATA'] = env_before
    outputs = [o for c in nb.cells if c.cell_type == 'code' for o in c.get('outputs', [])]
    assert not [o for o in outputs if o.get('output_type') == 'error']
    views = [o for o in outputs if 'application/vnd.jupyter.widget-view+json' in o.get('data', {})]
    assert views, "vis.show() displayed no widget"
    text = ''.join(o.get('text', '') for o in outputs if o.get('output_type') == 'stream')
    assert "(480, 640, 3) uint8" in text
    assert "'block'" in text


def test_readme_vis_example_shows_the_robot(tmp_path):
    """The README's two Python examples run as written (headless), then the
    robot, painted blue, is a recognisable part of the same camera's
    picture."""
    import re
    with open(os.path.join(REPO, 'README.md')) as f:
        readme = f.read()
    blocks = re.findall(r'```python\n(.*?)```', readme, re.S)
    using = next(b for b in blocks if 'readFile("data/worlds/arm_table.xml")' in b)
    seeing = next(b for b in blocks if 'vis.autoFitCamera()' in b)
    out = tmp_path / 'painted.npy'
    script = tmp_path / 'readme.py'
    script.write_text(using + seeing + textwrap.dedent("""
        import numpy
        assert img.shape == (480, 640, 3)
        vis.setColor(("world", robot.getName()), 0, 0, 1)
        numpy.save(%r, vis.screenshot())
        vis.kill()
        """ % (str(out),)))
    r = run_python([str(script)], timeout=180, cwd=REPO, KLAMPT_VIS_HEADLESS_TIMEOUT='1')
    assert r.returncode == 0, r.stderr
    from vis_helpers import assert_recognisable
    assert_recognisable(np.load(out), min_robot_share=0.03)

