"""Klampt-examples' demos/vis/mouse_capture.py without its window: the
plugin's ``self.view.click_ray(x, y)`` ray cast into the world with
WorldCollider, checked against the rendered depth at the clicked pixels."""
import os

import numpy as np
import pytest

from conftest import SHARED_DATA, require_shared_data

from klampt import WorldModel, vis
from klampt.model.collide import WorldCollider
from klampt.vis.glinterface import GLPluginInterface


class MouseCapture(GLPluginInterface):
    def __init__(self, world):
        GLPluginInterface.__init__(self)
        self.world = world
        self.hits = []

    def click(self, x, y):
        vp = self.view
        src, dest = vp.click_ray(x, y)
        res = WorldCollider(self.world).rayCast(src, dest)
        self.hits.append(None if res is None else (res[0].getName(), res[1]))
        return res


def test_clicked_points_are_the_rendered_surfaces():
    require_shared_data()
    world = WorldModel()
    assert world.readFile(os.path.join(SHARED_DATA, 'tx90blocks.xml'))
    vis.init('offscreen')
    vis.createWindow('examples_mouse_capture')  # a fresh scene: windows outlive vis.kill()
    try:
        plugin = MouseCapture(world)
        vis.add("world", world)
        vis.pushPlugin(plugin)
        img, depth = vis.screenshot('numpy', True)
        view = plugin.view = vis.getViewport()
        rng = np.random.default_rng(3)
        checked = 0
        for _ in range(80):
            col, row = int(rng.integers(5, view.w - 5)), int(rng.integers(5, view.h - 5))
            near = depth[row - 1:row + 2, col - 1:col + 2]
            if near.max() >= view.f * 0.99 or near.max() - near.min() > 0.1 * near.min() or \
                    abs(near.mean() - depth[row, col]) > 0.002 * depth[row, col]:
                continue  # the background or an edge
            res = plugin.click(col + 0.5, row + 0.5)
            assert res is not None, (col, row)
            u, v, d = view.project(res[1])
            assert (u, v) == pytest.approx((col + 0.5, row + 0.5), abs=1e-6)
            assert d == pytest.approx(depth[row, col], abs=0.01 + 0.002 * d)
            checked += 1
        assert checked > 20
        # the robot and at least one block were clicked
        names = {h[0] for h in plugin.hits if h}
        assert any(world.rigidObject(i).getName() in names for i in range(world.numRigidObjects())) or \
            any(world.robot(0).link(i).getName() in names for i in range(world.robot(0).numLinks()))
    finally:
        vis.kill()
