"""Kinematic trajectory optimisation (TrajOpt) by sequential convex
programming on `cvxpy <https://www.cvxpy.org>`_, which has to be installed
(``pip install cvxpy``, or the ``kinetrajopt`` extra of klampt).

:class:`KineTrajOpt` optimises a robot's trajectory for smoothness, away from
the world's obstacles and under task-space constraints
(:mod:`~klampt.plan.kinetrajopt.trajopt_task_space`); costs and constraints
of one's own subclass :class:`CostInterface` and :class:`ConstrInterface`.
"""
try:
    import cvxpy  # noqa: F401
except ImportError as e:
    raise ImportError("klampt.plan.kinetrajopt needs cvxpy: pip install cvxpy (%s)" % e, name="cvxpy") from e

from . import utils, trajopt_task_space, kinetrajopt  # noqa: E402
from .utils import CostInterface, ConstrInterface  # noqa: E402
from .kinetrajopt import TrajOptSettings, KineTrajOpt  # noqa: E402

__all__ = ["CostInterface", "ConstrInterface", "TrajOptSettings", "KineTrajOpt", "kinetrajopt",
           "trajopt_task_space", "utils"]
