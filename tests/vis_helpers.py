"""Helpers of the klampt.vis tests: test geometry, the background color and
the camera's focal length (the ``vis`` fixture and ``require_offscreen`` are
in conftest)."""
import math

import numpy as np

BACKGROUND = np.array([204, 204, 229])  # (0.8, 0.8, 0.9): Mesa rounds 0.9 * 255 to 229 or 230


def sphere(radius=0.5, center=(0, 0, 0)):
    import klampt
    p = klampt.GeometricPrimitive()
    p.setSphere(list(center), radius)
    return klampt.Geometry3D(p)


def box(bmin, bmax):
    import klampt
    p = klampt.GeometricPrimitive()
    p.setAABB(list(bmin), list(bmax))
    return klampt.Geometry3D(p)


def background_mask(img, tol=3):
    """True where a pixel is the background color."""
    return (np.abs(img.astype(int) - BACKGROUND).max(axis=2) <= tol + 1)


def focal_pixels(width, fov_deg=30.0):
    """Focal length in pixels of the horizontal field of view."""
    return (width / 2.0) / math.tan(math.radians(fov_deg / 2.0))


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
