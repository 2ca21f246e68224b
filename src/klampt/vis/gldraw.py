"""Compatibility module: Klamp't's ``klampt.vis.gldraw``, immediate-mode
drawing helpers (drawn by :mod:`klampt.vis._render.primitives`):
``point``, ``circle``, ``triangle``, ``quad``, ``box``, ``centered_box``,
``setcolor``, ``xform_widget``, ``hermite_curve``, ``bezier_curve`` and
``glutBitmapString`` (drawn with klampt's text renderer, never GLUT).
OpenGL is imported when a function is called."""
from ._render.primitives import bezier_curve, box, centered_box, circle, hermite_curve, point, quad, triangle  # noqa: F401
from ._render.primitives import xform_widget as _xform_widget
from ._render.gl import gl
from ._render.text import draw_text_window


def setcolor(r, g, b, a=1.0, lighting=True):
    """Sets the current color (and material, when lit)."""
    GL = gl()
    if lighting:
        GL.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_AMBIENT_AND_DIFFUSE, [r, g, b, a])
    GL.glColor4f(r, g, b, a)


def xform_widget(T, length, width, lighting=True, fancy=False):
    """Coordinate axes of transform T (x red, y green, z blue)."""
    _xform_widget(T, length, width, lighting=lighting, fancy=fancy)


def glutBitmapString(font, string):
    """Draws text at the current raster position (``glRasterPos``), as
    GLUT's bitmap fonts would; ``font`` is ignored (12 px text)."""
    GL = gl()
    valid = GL.glGetBooleanv(GL.GL_CURRENT_RASTER_POSITION_VALID)
    if not valid:
        return
    x, y = GL.glGetFloatv(GL.GL_CURRENT_RASTER_POSITION)[:2]
    height = GL.glGetIntegerv(GL.GL_VIEWPORT)[3]
    draw_text_window(x, height - y - 12, string, 12, GL.glGetFloatv(GL.GL_CURRENT_RASTER_COLOR), height)


__all__ = ['point', 'circle', 'triangle', 'quad', 'box', 'centered_box', 'setcolor', 'xform_widget',
           'hermite_curve', 'bezier_curve', 'glutBitmapString']
