"""sensing.camera_to_images on a real camera render (the shared
sensortest.xml world, as Klampt-examples' SensorTest notebook uses it):
numeric arrays that matplotlib's imshow draws, showing the sphere in
front of the camera in both images."""
import os

import numpy as np
import pytest

from conftest import SHARED_DATA, require_shared_data

from klampt import WorldModel
from klampt.model import sensing


@pytest.fixture(scope='module')
def sensortest():
    require_shared_data()
    world = WorldModel()
    assert world.loadFile(os.path.join(SHARED_DATA, 'simulation_test_worlds', 'sensortest.xml'))
    return world


def test_images_are_numeric_and_matplotlib_draws_them(sensortest, tmp_path):
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot as plt
    robot = sensortest.robot(0)
    q = robot.getConfig()
    q[3] = -1.6  # as the notebook does: the camera then sees the sphere and the floor
    robot.setConfig(q)
    cam = robot.sensor('rgbd_camera')
    # nothing sensed yet: no images, as in the reference
    assert sensing.camera_to_images(cam) == (None, None)
    cam.kinematicSimulate(sensortest, 0.01)
    rgb, depth = sensing.camera_to_images(cam)
    h, w = int(cam.getSetting('yres')), int(cam.getSetting('xres'))
    assert rgb.dtype == np.uint8 and rgb.shape == (h, w, 3)
    assert depth.dtype == np.float64 and depth.shape == (h, w)
    # the sphere and floor ahead are nearer than zmax and coloured unlike the sky
    zmax = float(cam.getSetting('zmax'))
    near = depth < zmax * 0.99
    assert 0.02 < near.mean() < 0.6
    sky = rgb[~near].reshape(-1, 3)
    assert (np.abs(rgb[near].astype(int) - sky[0]).sum(axis=1) > 30).mean() > 0.9
    packed = sensing.camera_to_images(cam, color_format='rgb')[0]
    assert packed.dtype == np.uint32 and packed[0, 0] == (int(sky[0][0]) << 16 | int(sky[0][1]) << 8 | int(sky[0][2]))
    fig, axs = plt.subplots(1, 2, figsize=(8, 3))
    axs[0].imshow(rgb)
    axs[1].imshow(depth)
    fn = tmp_path / 'images.png'
    fig.savefig(str(fn))
    plt.close(fig)
    drawn = plt.imread(str(fn))
    # the figure holds the camera's colours (the sky's, within PNG rounding)
    assert (np.abs(drawn[:, :, :3] * 255 - sky[0]).sum(axis=2) < 6).sum() > 1000
