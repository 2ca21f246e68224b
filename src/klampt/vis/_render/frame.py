"""One frame: clear, camera and lights, the scene's opaque then transparent
items, plugins' ``display``, labels, then the screen overlays and plugins'
``display_screen``; and the framebuffer object every frame is drawn into and
read back from (never the front buffer)."""
import numpy as np

from . import gl as glmod, items, overlay
from .gl import gl


class Framebuffer:
    """An RGBA8 + 24-bit depth FBO in the current context, resized on demand."""

    def __init__(self):
        self.fbo = None
        self.buffers = None
        self.size = (0, 0)

    def bind(self, width, height):
        """Binds the FBO (made or resized to width x height)."""
        GL = gl()
        width, height = max(1, int(width)), max(1, int(height))
        if self.fbo is None:
            self.fbo = GL.glGenFramebuffers(1)
            self.buffers = GL.glGenRenderbuffers(2)
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, self.fbo)
        if self.size != (width, height):
            GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, self.buffers[0])
            GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_RGBA8, width, height)
            GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER,
                                         self.buffers[0])
            GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, self.buffers[1])
            GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_DEPTH_COMPONENT24, width, height)
            GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_DEPTH_ATTACHMENT, GL.GL_RENDERBUFFER,
                                         self.buffers[1])
            status = GL.glCheckFramebufferStatus(GL.GL_FRAMEBUFFER)
            if status != GL.GL_FRAMEBUFFER_COMPLETE:
                raise RuntimeError("klampt.vis: framebuffer incomplete (0x%x)" % status)
            self.size = (width, height)

    def read(self, want_depth=False, near=0.2, far=100.0):
        """(rgb, depth): uint8 (h, w, 3) top row first, and float32 (h, w)
        metric depth along the view axis (the far plane where nothing was
        drawn), or None."""
        GL = gl()
        w, h = self.size
        GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, self.fbo)
        GL.glReadBuffer(GL.GL_COLOR_ATTACHMENT0)
        GL.glPixelStorei(GL.GL_PACK_ALIGNMENT, 1)
        data = GL.glReadPixels(0, 0, w, h, GL.GL_RGB, GL.GL_UNSIGNED_BYTE)
        rgb = np.ascontiguousarray(np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)[::-1])
        depth = None
        if want_depth:
            raw = GL.glReadPixels(0, 0, w, h, GL.GL_DEPTH_COMPONENT, GL.GL_FLOAT)
            d = np.frombuffer(raw, dtype=np.float32).reshape(h, w)[::-1].astype(np.float64)
            depth = np.ascontiguousarray((near * far / (far - d * (far - near))).astype(np.float32))
        return rgb, depth

    def release(self):
        """Deletes the FBO (its context must be current)."""
        if self.fbo is not None:
            GL = gl()
            GL.glDeleteFramebuffers(1, [self.fbo])
            GL.glDeleteRenderbuffers(2, self.buffers)
            self.fbo = self.buffers = None
            self.size = (0, 0)


def prepare_world(view, background, window_height):
    """Viewport, scissor, clear, default state, camera and lights."""
    GL = gl()
    s = float(getattr(view, 'screenDeviceScale', 1) or 1)
    y = window_height - view.y - view.h
    box = [int(view.x * s), int(y * s), int(view.w * s), int(view.h * s)]
    GL.glViewport(*box)
    GL.glScissor(*box)
    GL.glEnable(GL.GL_SCISSOR_TEST)
    GL.glClearColor(*[float(c) for c in background])
    GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
    GL.glEnable(GL.GL_DEPTH_TEST)
    GL.glDepthMask(GL.GL_TRUE)
    GL.glEnable(GL.GL_LIGHTING)
    GL.glEnable(GL.GL_NORMALIZE)
    GL.glEnable(GL.GL_COLOR_MATERIAL)
    GL.glColorMaterial(GL.GL_FRONT_AND_BACK, GL.GL_AMBIENT_AND_DIFFUSE)
    GL.glShadeModel(GL.GL_FLAT)
    GL.glDisable(GL.GL_BLEND)
    GL.glDisable(GL.GL_CULL_FACE)
    # state a plugin or the user's own drawing may have left in the context
    for cap in (GL.GL_TEXTURE_1D, GL.GL_TEXTURE_2D, GL.GL_TEXTURE_GEN_S, GL.GL_TEXTURE_GEN_T, GL.GL_TEXTURE_GEN_R,
                GL.GL_TEXTURE_GEN_Q, GL.GL_POLYGON_OFFSET_FILL, GL.GL_ALPHA_TEST, GL.GL_STENCIL_TEST):
        GL.glDisable(cap)
    for i in range(8):
        GL.glDisable(GL.GL_LIGHT0 + i)
    for array in (GL.GL_COLOR_ARRAY, GL.GL_NORMAL_ARRAY, GL.GL_TEXTURE_COORD_ARRAY, GL.GL_VERTEX_ARRAY):
        GL.glDisableClientState(array)
    GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_FILL)
    GL.glColorMask(GL.GL_TRUE, GL.GL_TRUE, GL.GL_TRUE, GL.GL_TRUE)
    GL.glPointSize(1.0)
    GL.glLineWidth(1.0)
    glmod.set_camera(view)
    glmod.set_lights()


def draw_scene_world(scene, view):
    """The scene's items: opaque pass, transparent pass, then labels."""
    world = scene.world()
    scene.labels = []
    delayed = []
    for app in list(scene.items.values()):
        transparent = app.transparent()
        if transparent is not False:
            delayed.append(app)
            if transparent is True:
                continue
        app.swapDrawConfig()
        try:
            items.draw_item(app, scene, world, view, draw_transparent=False)
        finally:
            app.swapDrawConfig()
    for app in delayed:
        app.swapDrawConfig()
        try:
            items.draw_item(app, scene, world, view, draw_transparent=True)
        finally:
            app.swapDrawConfig()
    overlay.draw_labels(scene, view)


def draw_scene_screen(scene, view):
    """The scene's screen overlays: plots and text."""
    overlay.draw_screen(scene, view)
