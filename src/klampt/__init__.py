"""klampt: robot modelling, geometry, kinematics, dynamics and simulation.

The core classes (``WorldModel``, ``RobotModel``, ``Geometry3D``, ...) live in
:mod:`klampt.robotsim` and are re-exported here, as in Klamp't.
"""
from .robotsim import *  # noqa: F401,F403
from . import robotsim  # noqa: F401

__version__ = "0.9.2.dev0"
