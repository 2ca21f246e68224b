"""klampt: robot modelling, geometry, kinematics, dynamics and simulation.

The core classes (``WorldModel``, ``RobotModel``, ``Geometry3D``, ...) live in
:mod:`klampt.robotsim` and are re-exported here, as in Klamp't.
``from klampt import *`` gives the names Klamp't's ``__all__`` gives: the core
classes and the subpackages of that list that this installation has (each is
imported then, not by ``import klampt``).
"""
import importlib.util as _importlib_util

from .version import __version__  # noqa: F401
from .robotsim import *  # noqa: F401,F403
from . import robotsim  # noqa: F401
from .model import typing as _typing  # noqa: F401  (makes klampt.model an attribute, as in Klamp't)

#: The classes of Klamp't's ``__all__`` (0.10.1's and 0.9.2's names; those
#: this installation has).
_CORE_NAMES = [name for name in
               ['WorldModel', 'RobotModel', 'RobotModelLink', 'RigidObjectModel', 'TerrainModel', 'SensorModel',
                'Mass', 'ContactParameters',
                'SimRobotController', 'SimRobotSensor', 'SimBody', 'SimJoint', 'Simulator',
                'Geometry3D', 'Appearance', 'DistanceQuerySettings', 'DistanceQueryResult', 'ContactQueryResult',
                'TriangleMesh', 'PointCloud', 'GeometricPrimitive', 'ConvexHull', 'ImplicitSurface', 'VolumeGrid',
                'OccupancyGrid', 'Heightmap',
                'IKObjective', 'IKSolver', 'GeneralizedIKObjective', 'GeneralizedIKSolver']
               if name in globals()]
#: The subpackages of Klamp't's ``__all__``.
_SUBPACKAGES = ['model', 'io', 'plan', 'sim', 'vis', 'control']

# Only the subpackages that exist: looking one up finds its folder without
# importing it.
__all__ = _CORE_NAMES + [name for name in _SUBPACKAGES if _importlib_util.find_spec(__name__ + '.' + name)]
