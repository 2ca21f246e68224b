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
