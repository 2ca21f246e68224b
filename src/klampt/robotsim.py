"""The core classes of klampt, as the reference's SWIG module ``klampt.robotsim``.

The classes are implemented in C++ (``klampt._robotsim``); this module gives
them their historical home so that ``from klampt.robotsim import RobotModel``
keeps working.
"""
from klampt._robotsim import *  # noqa: F401,F403
from klampt._robotsim import __doc__  # noqa: F401
