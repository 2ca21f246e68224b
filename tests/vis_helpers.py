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


def run_python(args, timeout=120, **env_changes):
    """This interpreter run in tests/ with the arguments `args` (a list), or
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
                          cwd=os.path.dirname(os.path.abspath(__file__)))


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
