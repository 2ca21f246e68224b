"""Compatibility module: Klamp't's ``klampt.vis.glviewport`` (GLViewport, the
camera view of ``klampt.vis``: horizontal field of view 30 degrees, orbit
camera at distance 6 looking along +y, z up), re-exported from
:mod:`klampt._viewport`, where cameras and views live."""
from klampt._viewport import GLViewport, Viewport, orbit  # noqa: F401
