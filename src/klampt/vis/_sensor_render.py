"""Camera sensors rendered with OpenGL (colors lit by the scene's lights,
:mod:`klampt.vis._lighting`; depth from the depth buffer) while klampt.vis
is started, as the reference renders them when it has a GL context;
otherwise, or where no offscreen context can be made, the core ray casts
(flat appearance colors).

:func:`install` / :func:`uninstall` are called by the visualization when a
backend starts and stops."""
import math

import numpy as np
from ._context import offscreen_available
from ._window import Window
from .backends.offscreen import render_offscreen
from klampt import _robotsim

#: The reference's camera background, 0x96AAFF.
BACKGROUND = (0x96 / 255.0, 0xAA / 255.0, 0xFF / 255.0, 1.0)
_installed = False


def render_camera(world, T, xres, yres, xfov, zmin, zmax, robot_index, link):
    """(colors 0xRRGGBB, depths along the view axis, far plane) of a camera
    at world transform T (z forward, y down), rows from the top; the
    camera's own link is not drawn. None (ray cast instead) when no
    offscreen context can be made."""
    if xres <= 0 or yres <= 0 or not offscreen_available():
        return None
    window = Window('camera')
    window.width, window.height = int(xres), int(yres)
    scene = window.scene
    scene.backgroundColor = list(BACKGROUND)
    scene.add('world', world)
    if robot_index >= 0 and link >= 0:
        robot = world.robot(robot_index)
        scene.setAttribute(('world', robot.getName(), robot.link(link).getName()), 'hidden', True)
    view = scene.view
    view.w, view.h = int(xres), int(yres)
    view.fov = math.degrees(xfov)
    far = max(zmax * 4.0, zmin * 10.0)
    view.clippingplanes = (zmin, far)
    view.camera.dist = 1.0
    view.set_transform(T, 'standard')
    try:
        rgb, depth = render_offscreen(window, want_depth=True)
    finally:
        scene.clear()  # the world handle lives only during this call
    rgb = rgb.astype(np.int64)
    colors = ((rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]).astype(np.float64).ravel()
    depths = depth.astype(np.float64).ravel()
    # the far plane where nothing was drawn
    return colors, np.where(depths >= far * (1 - 1e-4), far, depths), far


def install():
    """Camera sensors render through :func:`render_camera`."""
    global _installed
    _robotsim._set_camera_renderer(render_camera)
    _installed = True


def uninstall():
    """Camera sensors ray cast again."""
    global _installed
    if _installed:
        _robotsim._set_camera_renderer(None)
        _installed = False
