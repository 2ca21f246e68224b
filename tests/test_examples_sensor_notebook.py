"""Klampt-examples' Jupyter/SensorTest.ipynb's first part, run by nbclient:
the world shown in the notebook widget, the robot edited, the camera
simulated, its images converted and drawn by matplotlib inline, the camera
transform added, its settings listed and the resolution raised."""
import json
import os
import textwrap

import pytest

from conftest import SHARED_DATA, require_shared_data

CELLS = [
    """
    import time
    from klampt import *
    from klampt.math import vectorops,so3,se3
    from klampt import vis
    from klampt.vis.ipython import EditConfig,EditPoint,EditTransform

    world = WorldModel()
    world.loadFile(%r)
    vis.add("world",world)

    robot = world.robot(0)
    q = robot.getConfig()
    q[3] = -1.6
    robot.setConfig(q)
    cam = robot.sensor('rgbd_camera')

    vis.show()
    """,
    """
    vis.edit(("world",robot.getName()))
    """,
    """
    cam.kinematicSimulate(world,0.01)
    from klampt.model import sensing
    rgb,depth = sensing.camera_to_images(cam)
    """,
    """
    %matplotlib inline
    from matplotlib import pyplot as plt
    fig,axs = plt.subplots(1,2,figsize=(14,4))
    axs[0].imshow(rgb)
    axs[1].imshow(depth)
    plt.show()
    """,
    """
    xform = cam.getTransformWorld()
    vis.add("cam_xform",xform)
    """,
    """
    settings = cam.settings()
    for k in settings:
        try:
            print(k,":",cam.getSetting(k))
        except Exception:
            pass
    """,
    """
    cam.setSetting('xres',str(640))
    cam.setSetting('yres',str(480))
    t0 = time.time()
    cam.kinematicSimulate(world,0.01)
    t1 = time.time()
    print("Rendered 640 x 480 image in time",t1-t0)
    rgb,depth = sensing.camera_to_images(cam)
    print("RESULT", json.dumps([list(rgb.shape), str(rgb.dtype), list(depth.shape), str(depth.dtype),
                                 float(depth.min()), float(depth.max())]))
    """,
]


def test_sensor_notebook_runs_and_plots_the_images():
    require_shared_data()
    nbformat = pytest.importorskip('nbformat')
    nbclient = pytest.importorskip('nbclient')
    pytest.importorskip('anywidget')
    cells = [textwrap.dedent(c).strip() for c in CELLS]
    cells[0] = cells[0] % os.path.join(SHARED_DATA, 'simulation_test_worlds', 'sensortest.xml')
    cells[-1] = "import json\n" + cells[-1]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(nb, timeout=300, kernel_name='python3').execute()
    outputs = [o for c in nb.cells for o in c.get('outputs', [])]
    assert not [o for o in outputs if o.get('output_type') == 'error']
    # the widget, the editor and the matplotlib figure were displayed
    assert any('application/vnd.jupyter.widget-view+json' in o.get('data', {}) for o in outputs)
    pngs = [o for o in nb.cells[3].get('outputs', []) if 'image/png' in o.get('data', {})]
    assert len(pngs) == 1
    text = ''.join(o.get('text', '') for o in outputs if o.get('output_type') == 'stream')
    assert 'xfov : 1.05' in text
    shape, dtype, dshape, ddtype, dmin, dmax = json.loads(text.split('RESULT ', 1)[1].splitlines()[0])
    assert (shape, dtype, dshape, ddtype) == ([480, 640, 3], 'uint8', [480, 640], 'float64')
    # the floor and the sphere are nearer than the far depth
    assert dmin < dmax
