"""GLViewport, the camera view of ``klampt.vis`` (horizontal field of view
30 degrees, orbit camera at distance 6 looking along +y, z up)."""
from ..robotsim import Viewport  # noqa: F401  (Klamp't's module has them)
from klampt.model._glviewport import GLViewport, orbit  # noqa: F401
