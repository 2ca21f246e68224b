"""klampt.vis: see worlds, robots, geometry, trajectories and more, in a
desktop window, headless (offscreen rendering and screenshots), or in
Jupyter. See :mod:`klampt.vis.visualization` for the functions.

Importing it loads no OpenGL, GLFW, Qt or IPython; the backend is chosen
at the first call that needs one.
"""
from .glinterface import GLPluginInterface  # noqa: F401
from .glprogram import GLProgram, GLNavigationProgram, GLRealtimeProgram, GLPluginProgram  # noqa: F401
from .glrobotprogram import GLWorldPlugin, GLSimulationPlugin  # noqa: F401
from .visualization import *  # noqa: F401,F403
