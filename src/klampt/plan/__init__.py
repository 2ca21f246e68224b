"""Motion planning: configuration spaces, sampling-based planners and time
scaling, with the API of Klamp't's ``klampt.plan``.

- :mod:`~klampt.plan.motionplanning`: the native module (``CSpaceInterface``,
  ``PlannerInterface``, planner settings, ``interpolate_*`` time scaling).
- :mod:`~klampt.plan.cspace`: ``CSpace`` and ``MotionPlan``, the Python way to
  define a space and plan in it.
- :mod:`~klampt.plan.cspaceutils`: products, embeddings, plans in embeddings.
"""
import atexit

from . import motionplanning
from . import cspace

__all__ = ['cspace']

atexit.register(motionplanning.destroy)
