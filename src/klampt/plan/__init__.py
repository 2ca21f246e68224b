"""Motion planning: configuration spaces, sampling-based planners and time
scaling, with the API of Klamp't's ``klampt.plan``.

- :mod:`~klampt.plan.motionplanning`: the native module (``CSpaceInterface``,
  ``PlannerInterface``, planner settings, ``interpolate_*`` time scaling).
- :mod:`~klampt.plan.cspace`: ``CSpace`` and ``MotionPlan``, the Python way to
  define a space and plan in it.
- :mod:`~klampt.plan.robotcspace`, :mod:`~klampt.plan.robotplanning`: robot
  spaces (checked natively) and one-call planning for robots in worlds.
- :mod:`~klampt.plan.cspaceutils`, :mod:`~klampt.plan.rigidobjectcspace`,
  :mod:`~klampt.plan.contactcspace`: embeddings, rigid bodies, stances.
"""
import atexit

from . import motionplanning
from . import cspace
from . import robotcspace
from . import robotplanning

__all__ = ['cspace', 'robotcspace', 'robotplanning']

atexit.register(motionplanning.destroy)
