"""The image behind a scene (``vis.scene().setBackgroundImage``): the
accepted image formats, turned into RGB(A) rows once, and the drawing of
the image (and of its optional depth, so that the scene's geometry behind
the image's surfaces is hidden) over the view's rectangle after the clear,
before the scene."""
import numpy as np
from .gl import clip_planes, gl

MODES = ('stretch', 'scale', 'fixed', 'center', 'tile')


def _to_rgb(img, format, rows):
    """(h, w, 3 or 4) uint8, top row first, from the reference's formats."""
    if hasattr(img, 'shape'):
        a = np.asarray(img)
        if a.ndim == 3:
            if a.shape[2] not in (3, 4):
                raise ValueError("a background image needs 3 (RGB) or 4 (RGBA) channels, got %d" % a.shape[2])
            if a.dtype != np.uint8:
                a = (np.clip(a.astype(np.float64), 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)
            return np.ascontiguousarray(a[:, :, ::-1] if format in ('bgr', 'bgra') else a)
        if a.ndim != 2:
            raise ValueError("a background image needs shape (h, w, 3), (h, w, 4) or (h, w), got %s" % (a.shape,))
        v = a.astype(np.uint32)
        channels = [(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff]  # 0x00rrggbb
        if format == 'bgr':
            channels.reverse()
        return np.ascontiguousarray(np.stack(channels, axis=2).astype(np.uint8))
    if not isinstance(rows, int) or rows <= 0:
        raise ValueError("an image given as bytes needs rows, an integer > 0")
    size = {'auto': 3, 'rgb': 3, 'bgr': 3, 'rgba': 4, 'bgra': 4}.get(format)
    if size is None:
        raise ValueError("format must be 'auto', 'rgb', 'bgr', 'rgba' or 'bgra', not %r" % (format,))
    data = np.frombuffer(bytes(img), dtype=np.uint8)
    if rows * size == 0 or len(data) % (rows * size):
        raise ValueError("%d bytes are not %d rows of %d-byte pixels" % (len(data), rows, size))
    a = data.reshape(rows, -1, size)
    return np.ascontiguousarray(a[:, :, [2, 1, 0] + ([3] if size == 4 else [])] if format in ('bgr', 'bgra') else a)


class BackgroundImage:
    """An image to draw behind a scene.

    Attributes:
        rgb (ndarray): (h, w, 3 or 4) uint8, top row first.
        depth (ndarray or None): (h, w) float32 metric depth along the view
            axis (0, negative or not finite: nothing there).
        mode (str): how the image fits the view, one of :data:`MODES`.
    """

    def __init__(self, img, format='auto', rows='auto', mode='stretch', depth=None):
        if mode not in MODES:
            raise ValueError("mode must be one of %s, not %r" % (', '.join(MODES), mode))
        self.rgb = _to_rgb(img, format, rows)
        self.mode = mode
        self.depth = None
        if depth is not None:
            d = np.asarray(depth, dtype=np.float32)
            if d.shape != self.rgb.shape[:2]:
                raise ValueError("the depth image has shape %s, the image %s" % (d.shape, self.rgb.shape[:2]))
            if mode == 'tile':
                raise ValueError("a background depth image cannot be tiled")
            self.depth = np.ascontiguousarray(d)

    def placements(self, w, h):
        """Where the image goes in a w x h view: (x, y, width, height)
        rectangles in view pixels, y down."""
        rows, cols = self.rgb.shape[:2]
        if self.mode == 'stretch':
            return [(0.0, 0.0, float(w), float(h))]
        if self.mode == 'scale':
            s = min(w / float(cols), h / float(rows))
            return [((w - cols * s) / 2.0, (h - rows * s) / 2.0, cols * s, rows * s)]
        if self.mode == 'fixed':
            return [(0.0, 0.0, float(cols), float(rows))]
        if self.mode == 'center':
            return [((w - cols) / 2.0, (h - rows) / 2.0, float(cols), float(rows))]
        return [(float(x), float(y), float(cols), float(rows)) for y in range(0, h, rows) for x in range(0, w, cols)]


def draw(image, view):
    """Draws the image (then its depth) over the view's rectangle in the
    bound framebuffer; the GL state is left as found."""
    GL = gl()
    s = float(getattr(view, 'screenDeviceScale', 1) or 1)
    window_height = getattr(view, '_window_height', view.h)
    rows, cols = image.rgb.shape[:2]
    flipped = np.ascontiguousarray(image.rgb[::-1])
    pixel_format = GL.GL_RGBA if image.rgb.shape[2] == 4 else GL.GL_RGB
    GL.glPushAttrib(GL.GL_ENABLE_BIT | GL.GL_DEPTH_BUFFER_BIT | GL.GL_COLOR_BUFFER_BIT | GL.GL_PIXEL_MODE_BIT)
    GL.glPushClientAttrib(GL.GL_CLIENT_PIXEL_STORE_BIT)
    try:
        GL.glPixelStorei(GL.GL_UNPACK_ALIGNMENT, 1)
        for cap in (GL.GL_LIGHTING, GL.GL_TEXTURE_2D, GL.GL_BLEND, GL.GL_FOG):
            GL.glDisable(cap)
        placements = []
        for x, y, w, h in image.placements(view.w, view.h):
            fx = (view.x + x) * s
            fy = (window_height - (view.y + y + h)) * s
            placements.append((fx, fy, w * s / cols, h * s / rows))
        GL.glDisable(GL.GL_DEPTH_TEST)
        GL.glDepthMask(GL.GL_FALSE)
        for fx, fy, zx, zy in placements:
            GL.glWindowPos2f(fx, fy)
            GL.glPixelZoom(zx, zy)
            GL.glDrawPixels(cols, rows, pixel_format, GL.GL_UNSIGNED_BYTE, flipped)
        if image.depth is not None:
            near, far = clip_planes(view)
            d = image.depth[::-1].astype(np.float64)
            with np.errstate(divide='ignore', invalid='ignore'):
                z = far / (far - near) * (1.0 - near / d)
            z = np.where(np.isfinite(d) & (d > 0), np.clip(z, 0.0, 1.0), 1.0).astype(np.float32)
            GL.glEnable(GL.GL_DEPTH_TEST)
            GL.glDepthFunc(GL.GL_ALWAYS)
            GL.glDepthMask(GL.GL_TRUE)
            GL.glColorMask(GL.GL_FALSE, GL.GL_FALSE, GL.GL_FALSE, GL.GL_FALSE)
            for fx, fy, zx, zy in placements:
                GL.glWindowPos2f(fx, fy)
                GL.glPixelZoom(zx, zy)
                GL.glDrawPixels(cols, rows, GL.GL_DEPTH_COMPONENT, GL.GL_FLOAT, np.ascontiguousarray(z))
    finally:
        GL.glPopClientAttrib()
        GL.glPopAttrib()
