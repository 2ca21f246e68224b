"""Helpers of the klampt.vis tests: a fresh offscreen window per test, and
the rule that rendering tests skip only when no OpenGL context can be made
outside CI (in CI, a missing EGL fails)."""
import math
import os

import numpy as np
import pytest

BACKGROUND = np.array([204, 204, 229])  # (0.8, 0.8, 0.9): Mesa rounds 0.9 * 255 to 229 or 230


def require_offscreen():
    """Makes sure an offscreen context can be created."""
    from klampt.vis._context import offscreen_available
    if offscreen_available():
        return
    from klampt.vis import _context
    message = "no offscreen OpenGL context: %s" % (_context._failure,)
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def vis(monkeypatch):
    """klampt.vis on the offscreen backend with a fresh 320 x 240 window."""
    monkeypatch.delenv("KLAMPT_VIS_HEADLESS_TIMEOUT", raising=False)
    monkeypatch.delenv("KLAMPT_VIS_SCREENSHOT_DIR", raising=False)
    from klampt import vis as v
    require_offscreen()
    v.init('offscreen')
    v.createWindow('test')
    v.resizeWindow(320, 240)
    yield v
    v.kill()


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
