"""The ``offscreen`` backend (also 'EGL', 'OSMesa'): the default with no
display. Nothing is shown; frames are rendered on demand into an FBO of the
process's offscreen context (:mod:`klampt.vis._context`)."""
# render_offscreen is defined in base, whose Backend.render uses it
from .base import Backend, render_offscreen  # noqa: F401
from .._context import choose_platform
from .._render.gl import gl


class OffscreenBackend(Backend):
    """Headless rendering through EGL or OSMesa."""

    name = 'offscreen'

    def __init__(self):
        choose_platform(requested_offscreen=True)
        gl()  # PyOpenGL present, or RuntimeError with the install hint
