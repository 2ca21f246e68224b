"""The core classes of klampt, as the reference's SWIG module ``klampt.robotsim``.

The classes are implemented in C++ (``klampt._robotsim``); this module gives
them their historical home so that ``from klampt.robotsim import RobotModel``
keeps working.
"""
from klampt._robotsim import *  # noqa: F401,F403
from klampt._robotsim import __doc__  # noqa: F401
from klampt.equilibrium import (com_equilibrium, com_equilibrium_2d, equilibrium_torques, force_closure,  # noqa: F401,E402
                                force_closure_2d, support_polygon, support_polygon_2d,
                                set_friction_cone_approximation_edges, destroy)
from klampt.streams import subscribe_to_stream, detach_from_stream, process_streams, wait_for_stream  # noqa: F401,E402
from klampt._viewport import Viewport  # noqa: F401,E402
from klampt._threejs import threejs_get_scene, threejs_get_transforms  # noqa: F401,E402
from klampt._widgets import (Widget, WidgetSet, PointPoser, TransformPoser, ObjectPoser,  # noqa: F401,E402
                             RobotPoser)
from klampt._shape_widgets import AABBPoser, BoxPoser, SpherePoser  # noqa: F401,E402
from klampt._logging import set_log_level  # noqa: F401,E402
from klampt._camelcase import (comEquilibrium, comEquilibrium2D, equilibriumTorques, forceClosure,  # noqa: F401,E402
                               forceClosure2D, supportPolygon, supportPolygon2D, setFrictionConeApproximationEdges,
                               setRandomSeed, SubscribeToStream, DetachFromStream, ProcessStreams, WaitForStream,
                               ThreeJSGetScene, ThreeJSGetTransforms, SampleTransform)
from klampt._containers import (SwigPyIterator, stringMap, stringVector, intVector, floatVector,  # noqa: F401,E402
                                doubleVector, doubleMatrix, intArray, floatArray, doubleArray,
                                intArray_frompointer, floatArray_frompointer, doubleArray_frompointer)
from klampt import _gl_methods as _gl_methods  # noqa: E402

# The drawGL family is Python (it draws through klampt.vis's renderer), so
# that the extension links no OpenGL.
_gl_methods.attach({name: globals()[name] for name in ('Appearance', 'RobotModelLink', 'RobotModel',
                                                      'RigidObjectModel', 'TerrainModel', 'WorldModel',
                                                      'SimRobotSensor')})

# The planning extension is klampt.plan.motionplanning; Klamp't's robotsim has
# no such name, so that ``from klampt.robotsim import *`` gives only the public
# classes and functions.
del motionplanning  # noqa: F821  (bound by the star import of the extension)
