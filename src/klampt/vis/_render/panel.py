"""Draws a window's GUI panel (:mod:`klampt.vis._panel_layout`) over the
frame in the current context: flat rectangles and the project's text."""
from .._panel_layout import ARROW_WIDTH, slider_track
from .gl import gl, set_screen_projection
from .text import draw_text_window, text_size

BACKGROUND = (0.12, 0.12, 0.15, 0.88)
CONTROL = (0.30, 0.30, 0.38, 1.0)
ACCENT = (0.30, 0.55, 0.90, 1.0)
EDITING = (0.95, 0.95, 0.80, 1.0)
TEXT = (1.0, 1.0, 1.0, 1.0)
DARK_TEXT = (0.0, 0.0, 0.0, 1.0)
TEXT_SIZE = 12


def _rect(GL, x, y, w, h, color):
    GL.glColor4f(*color)
    GL.glBegin(GL.GL_QUADS)
    GL.glVertex2f(x, y)
    GL.glVertex2f(x + w, y)
    GL.glVertex2f(x + w, y + h)
    GL.glVertex2f(x, y + h)
    GL.glEnd()


def draw_panel(panel, width, height, scale=1.0):
    """Draws the panel of a window of width x height window pixels into the
    bound framebuffer, which has ``scale`` framebuffer pixels per window
    pixel."""
    rows = panel.rows(width)
    if not rows:
        return
    GL = gl()
    fb_height = int(round(height * scale))
    GL.glPushAttrib(GL.GL_ALL_ATTRIB_BITS)
    try:
        GL.glViewport(0, 0, int(round(width * scale)), fb_height)
        GL.glDisable(GL.GL_SCISSOR_TEST)
        set_screen_projection(width, height)
        GL.glDisable(GL.GL_LIGHTING)
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glDisable(GL.GL_TEXTURE_2D)
        GL.glDisable(GL.GL_CULL_FACE)
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        x0, y0 = rows[0].rect[:2]
        bottom = rows[-1].rect[1] + rows[-1].rect[3]
        _rect(GL, x0, y0, rows[0].rect[2], bottom - y0, BACKGROUND)
        for row in rows:
            _draw_row(GL, row, fb_height, scale)
    finally:
        GL.glPopAttrib()


def _text(x, y, h, text, fb_height, scale, color=TEXT):
    th = text_size(text, TEXT_SIZE)[1]
    draw_text_window(x * scale, (y + (h - th) / 2.0) * scale, text, TEXT_SIZE, color, fb_height)


def _draw_row(GL, row, fb_height, scale):
    x, y, w, h = row.rect
    kind = row.kind
    if kind == 'header':
        _text(x + 8, y, h, '%s  %s' % ('+' if row.value else '-', row.text), fb_height, scale)
    elif kind in ('action', 'button'):
        _rect(GL, x + 4, y + 2, w - 8, h - 4, CONTROL)
        _text(x + 12, y, h, row.text, fb_height, scale)
    elif kind in ('checkbox', 'option'):
        indent = 18 if kind == 'option' else 0
        bx, by, bs = x + 8 + indent, y + 5, h - 10
        _rect(GL, bx, by, bs, bs, CONTROL)
        if row.value:
            _rect(GL, bx + 3, by + 3, bs - 6, bs - 6, ACCENT)
        _text(bx + bs + 8, y, h, row.text, fb_height, scale)
    elif kind == 'slider':
        _text(x + 8, y, h, row.text, fb_height, scale)
        tx, tw = slider_track(row)
        _rect(GL, tx, y + h / 2.0 - 2, tw, 4, CONTROL)
        _rect(GL, tx, y + h / 2.0 - 2, tw * row.value, 4, ACCENT)
        kx = tx + tw * row.value
        _rect(GL, kx - 4, y + 5, 8, h - 10, ACCENT)
    elif kind == 'select':
        _rect(GL, x + 4, y + 2, w - 8, h - 4, CONTROL)
        _text(x + 8, y, h, '<', fb_height, scale)
        _text(x + ARROW_WIDTH + 4, y, h, row.text + '  >', fb_height, scale)
    elif kind == 'label':
        _text(x + 8, y, h, row.text, fb_height, scale)
    elif kind == 'input':
        label_w = min(w // 2, text_size(row.text, TEXT_SIZE)[0] + 16)
        _text(x + 8, y, h, row.text, fb_height, scale)
        editing = row.extra.get('editing')
        _rect(GL, x + label_w, y + 3, w - label_w - 6, h - 6, EDITING if editing else CONTROL)
        shown = str(row.value) + ('|' if editing else '')
        _text(x + label_w + 4, y, h, shown, fb_height, scale, DARK_TEXT if editing else TEXT)
