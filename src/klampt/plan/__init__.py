"""Motion planning, with the API of Klamp't's ``klampt.plan``:
:mod:`~klampt.plan.motionplanning` holds the native time-scaling functions.
"""
from . import motionplanning

__all__ = ['motionplanning']
