"""Creating geometric primitives, world bodies made of them, moving-base and
planar robots, and arrangements of objects in a container."""
from .primitives import box, sphere, bbox  # noqa: F401
from ...math import vectorops  # noqa: F401  (an attribute in Klamp't too)
from ...robotsim import GeometricPrimitive, Geometry3D, Mass  # noqa: F401  (Klamp't's module has them too)
from . import primitives, moving_base_robot, planar_robot, pile  # noqa: F401,E402
