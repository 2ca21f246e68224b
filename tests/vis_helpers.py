"""Helpers of the klampt.vis tests: the background color, the camera's focal
length, and Python run headless in a subprocess (the ``vis`` fixture,
``require_offscreen`` and the test geometries are in conftest)."""
import math
import os
import subprocess
import sys
import textwrap

import numpy as np

BACKGROUND = np.array([204, 204, 229])  # (0.8, 0.8, 0.9): Mesa rounds 0.9 * 255 to 229 or 230


def background_mask(img, tol=3):
    """True where a pixel is the background color."""
    return (np.abs(img.astype(int) - BACKGROUND).max(axis=2) <= tol + 1)


def focal_pixels(width, fov_deg=30.0):
    """Focal length in pixels of the horizontal field of view."""
    return (width / 2.0) / math.tan(math.radians(fov_deg / 2.0))


def run_python(args, timeout=120, cwd=None, **env_changes):
    """This interpreter run in `cwd` (default tests/) with the arguments `args` (a list), or
    on the code `args` (a string, dedented, run with -c), without a display
    (DISPLAY and WAYLAND_DISPLAY unset) and with the environment variables
    env_changes set (None: unset); the CompletedProcess, output as text."""
    if isinstance(args, str):
        args = ['-c', textwrap.dedent(args)]
    env = dict(os.environ)
    env.pop('DISPLAY', None)
    env.pop('WAYLAND_DISPLAY', None)
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return subprocess.run([sys.executable] + args, capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=cwd or os.path.dirname(os.path.abspath(__file__)))


# The start of a window test's script: the X display through libX11, and
# XTest to send it pointer and key events (x11, xtst, dpy).
XTEST_PREAMBLE = """import ctypes
x11 = ctypes.CDLL('libX11.so.6')
xtst = ctypes.CDLL('libXtst.so.6')
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XStringToKeysym.restype = ctypes.c_ulong
x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
for f in (xtst.XTestFakeMotionEvent, xtst.XTestFakeButtonEvent, xtst.XTestFakeKeyEvent, x11.XFlush):
    f.argtypes = None
dpy = ctypes.c_void_p(x11.XOpenDisplay(None))
assert dpy.value, 'no X display'
"""


# What a person accepts in a picture of a scene whose robots are painted
# pure blue (vis.setColor(..., 0, 0, 1)): chosen by looking at the renders of
# every bundled world (docs/gallery.md), where the smallest robot share is a
# 1 cm sphere beside a 10 cm block (0.5 %) and the largest single colour is
# the background around a lone Baxter (88 %).
PAINT = (0, 0, 1)
MIN_ROBOT_SHARE = 0.004
MAX_ONE_COLOUR_SHARE = 0.9


def painted_share(img):
    """Share of the pixels that are the lit pure blue of PAINT: blue clearly
    above red and green, whatever the lighting's brightness."""
    img = img.astype(int)
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    return float(((b > 50) & (r < 0.4 * b) & (g < 0.4 * b)).mean())


def one_colour_share(img):
    """Share of the pixels of the most frequent colour (within 4 levels)."""
    q = (img.astype(int) // 8).reshape(-1, 3)
    codes = q[:, 0] * 1024 + q[:, 1] * 32 + q[:, 2]
    return float(np.bincount(codes).max() / len(codes))


def assert_recognisable(img, min_robot_share=MIN_ROBOT_SHARE, max_one_colour=MAX_ONE_COLOUR_SHARE):
    """Fails on what a person would reject: the painted robot missing or a
    few pixels, or one colour (a black, blank or floor-only frame) filling
    the picture (a lone item with no floor may leave more background:
    ``max_one_colour``)."""
    share = painted_share(img)
    assert share >= min_robot_share, "the robot covers %.2f %% of the image" % (100 * share)
    one = one_colour_share(img)
    assert one <= max_one_colour, "one colour fills %.1f %% of the image" % (100 * one)
