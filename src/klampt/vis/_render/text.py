"""Text in the current OpenGL context, rasterized with Pillow and blitted with
``glDrawPixels`` at a window position: one function serves labels, the
console, plot captions and ``GLPluginInterface.draw_text``. Never GLUT
(freeglut exits the process when used without ``glutInit``)."""
import functools
import warnings

import numpy as np

from .gl import gl

_warned = False


@functools.lru_cache(maxsize=16)
def _font(size):
    from PIL import ImageFont
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: the fixed bitmap font
        return ImageFont.load_default()


@functools.lru_cache(maxsize=512)
def rasterize(text, size=12, color=(0.0, 0.0, 0.0, 1.0)):
    """RGBA uint8 image (rows top first) of one line of text, or None when
    Pillow is missing (warned once)."""
    global _warned
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        if not _warned:
            warnings.warn("klampt.vis draws text with Pillow: pip install pillow")
            _warned = True
        return None
    font = _font(int(round(size)))
    left, top, right, bottom = font.getbbox(text or ' ')
    w, h = max(1, right - min(0, left)), max(1, int(round(size * 1.25)))
    mask = Image.new('L', (w, h), 0)
    ImageDraw.Draw(mask).text((-min(0, left), 0), text, font=font, fill=255)
    coverage = np.asarray(mask, dtype=np.float32) / 255.0
    rgba = np.empty((h, w, 4), dtype=np.uint8)
    rgba[..., :3] = np.clip(np.asarray(color[:3], dtype=np.float32) * 255.0 + 0.5, 0, 255).astype(np.uint8)
    alpha = float(color[3]) if len(color) > 3 else 1.0
    rgba[..., 3] = np.clip(coverage * alpha * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return rgba


def text_size(text, size=12):
    """(width, height) in pixels of a line of text."""
    image = rasterize(str(text), float(size))
    return (0, 0) if image is None else (image.shape[1], image.shape[0])


def draw_text_window(x, y, text, size=12, color=(0.0, 0.0, 0.0, 1.0), window_height=None):
    """Draws text with its top-left corner at pixel (x, y) of the current
    viewport (y down); ``window_height`` is the height of the drawable."""
    GL = gl()
    image = rasterize(str(text), float(size), tuple(float(c) for c in color))
    if image is None:
        return
    if window_height is None:
        window_height = GL.glGetIntegerv(GL.GL_VIEWPORT)[3]
    h = image.shape[0]
    bottom = window_height - (y + h)
    # glWindowPos rejects negative positions: clip rows / columns that leave the window
    skip_cols = int(max(0, -x))
    skip_rows = int(max(0, -bottom))
    image = image[:h - skip_rows if skip_rows else h, skip_cols:]
    if image.size == 0:
        return
    GL.glPushAttrib(GL.GL_ENABLE_BIT | GL.GL_COLOR_BUFFER_BIT)
    GL.glDisable(GL.GL_LIGHTING)
    GL.glDisable(GL.GL_DEPTH_TEST)
    GL.glDisable(GL.GL_TEXTURE_2D)
    GL.glEnable(GL.GL_BLEND)
    GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
    GL.glPixelStorei(GL.GL_UNPACK_ALIGNMENT, 1)
    GL.glWindowPos2d(max(0.0, float(x)), max(0.0, float(bottom)))
    flipped = np.ascontiguousarray(image[::-1])
    GL.glDrawPixels(flipped.shape[1], flipped.shape[0], GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, flipped)
    GL.glPopAttrib()
