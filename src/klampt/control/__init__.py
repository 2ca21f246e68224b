"""The Robot Interface Layer (RIL): one API to drive robots, simulated or
real.  :class:`RobotInterfaceBase` is the API,
:class:`RobotInterfaceCompleter` completes partial implementations,
:class:`OmniRobotInterface` assembles several, :class:`StepContext` and
:class:`TimedLooper` run control loops.  See :mod:`.simrobotinterface`
for simulated robots.  Importing it loads no visualization code."""
__all__ = ['RobotInterfaceBase', 'StepContext', 'TimedLooper', 'RobotInterfaceCompleter', 'OmniRobotInterface']
from .utils import TimedLooper
from .robotinterfaceutils import StepContext, RobotInterfaceCompleter, OmniRobotInterface
from .robotinterface import RobotInterfaceBase
from . import cartesian_drive  # noqa: F401,E402  (imported by Klamp't's klampt.control too)
