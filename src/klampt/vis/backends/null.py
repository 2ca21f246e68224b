"""The ``null`` backend: no OpenGL available. The scene works (items,
attributes, animation, camera); screenshots raise RuntimeError with the
install hint."""
from .base import Backend
from .._context import offscreen_context
from .offscreen import render_offscreen


class NullBackend(Backend):
    """Scene-only visualization."""

    name = 'null'

    def render(self, window, want_depth=False):
        offscreen_context()  # raises with the reason and the install hint
        return render_offscreen(window, want_depth)

    def save_screenshot(self, window, reason):
        try:
            return super().save_screenshot(window, reason)
        except RuntimeError:
            return None
