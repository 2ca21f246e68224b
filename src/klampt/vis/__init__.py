"""klampt.vis: see worlds, robots, geometry, trajectories and more, in a
desktop window, headless (offscreen rendering and screenshots), or in
Jupyter. See :mod:`klampt.vis.visualization` for the functions.

Importing it loads no OpenGL, GLFW, Qt or IPython; the backend is chosen
at the first call that needs one.

The package, by job:

- the API: :mod:`klampt.vis.visualization` (its functions are also
  ``klampt.vis``'s), :mod:`klampt.vis.colorize`, :mod:`klampt.vis.ipython`;
- compatibility modules, Klamp't's names kept for its programs (each says
  so in its first line): ``camera``, ``editors``, ``glcommon``, ``gldraw``,
  ``glinit``, ``glinterface``, ``glprogram``, ``glrobotprogram``,
  ``glviewport`` (cameras and views live in :mod:`klampt._viewport`);
- the scene as data, the same for every backend: ``_scene`` (the items,
  animation, clock), ``_item`` (one item and its attributes), ``_window``,
  ``_json_gui`` (its widgets), ``_types``, ``_plot``, ``_framing``
  (choosing and following the camera), ``_pick``, ``_posers`` (``vis.edit``),
  ``_panel_layout`` (the GL windows' widget panel), ``_lighting``;
- drawing with OpenGL: ``_render/`` (one frame, items, overlays, the panel),
  ``_context/`` (offscreen contexts), ``_sensor_render``, ``_gl_limits``;
- the backends: ``backends/`` (``base`` with the headless behaviour, GLFW,
  the ``qt_*`` modules, offscreen, null, HTML, Jupyter, viser, Rerun),
  chosen by :func:`klampt.vis.visualization.init`, which shares the windows
  with them through ``_state``; ``_launcher`` and ``_blocking`` decide
  where GUI loops run;
- the web viewer: ``_web/`` (the scene as JSON, the page) and ``web/``
  (``viewer.js``); ``_editor_dialog`` holds the editors' windows, and
  ``_resource_windows`` the windows that lower layers' reference names open
  (``klampt.io.resource``'s editors, dialogs and thumbnails), reached
  through :mod:`klampt._providers`.
"""
from .glinterface import GLPluginInterface  # noqa: F401
from .glprogram import GLProgram, GLNavigationProgram, GLRealtimeProgram, GLPluginProgram  # noqa: F401
from .glrobotprogram import GLWorldPlugin, GLSimulationPlugin  # noqa: F401
from .visualization import *  # noqa: F401,F403
from ..robotsim import *  # noqa: F401,F403  (Klamp't's klampt.vis has the core classes through its visualization module)
# The names Klamp't's klampt.vis has through its visualization module's imports.
from ..math import vectorops, so2, so3, se3, spline  # noqa: F401
from ..math.geodesic import CartesianSpace, GeodesicSpace, MultiGeodesicSpace, SO2Space, SO3Space, SE3Space  # noqa: F401
from ..model import collide, config, coordinates, types  # noqa: F401
from ..model.collide import bb_create, bb_empty, bb_union  # noqa: F401
from ..model.contact import ContactPoint, Hold  # noqa: F401
from ..model.multipath import MultiPath  # noqa: F401
from ..model.subrobot import SubRobotModel  # noqa: F401
from ..model.trajectory import (Trajectory, RobotTrajectory, GeodesicTrajectory, SO3Trajectory,  # noqa: F401
                                SE3Trajectory, HermiteTrajectory, GeodesicHermiteTrajectory, SO3HermiteTrajectory,
                                SE3HermiteTrajectory, path_to_trajectory, execute_path, execute_trajectory)
from . import camera, glcommon, gldraw, glinit, glviewport  # noqa: F401
from .glprogram import GLProgramAction  # noqa: F401
from .glviewport import GLViewport  # noqa: F401
from ._plot import VisPlot, VisPlotItem  # noqa: F401
from ..sim.simulation import SimpleSimulator  # noqa: F401
