"""The one door to OpenGL: PyOpenGL imported on first use, the "is a context
current?" check, and the camera and light set-up every frame shares.

Nothing here creates a context (see :mod:`klampt.vis._context`); drawing code
calls :func:`require_context` and then uses the module :func:`gl` returns.
"""
from klampt.math import se3

from .._lighting import AMBIENT, LIGHTS

_GL = None

NO_PYOPENGL = "drawGL needs PyOpenGL: pip install klampt[vis]"
NO_CONTEXT = "needs a current OpenGL context (use klampt.vis, or make one current)"

def gl():
    """The ``OpenGL.GL`` module; RuntimeError with the install hint when
    PyOpenGL is missing."""
    global _GL
    if _GL is None:
        try:
            from OpenGL import GL
        except ImportError as e:
            raise RuntimeError(NO_PYOPENGL) from e
        _GL = GL
    return _GL


def pointer(array):
    """A ctypes pointer to a contiguous numpy array, for the raw array
    functions of :func:`arrays` (the caller keeps the array alive until the
    draw call)."""
    import ctypes
    return array.ctypes.data_as(ctypes.c_void_p)


_RAW = None


def arrays():
    """The raw (unwrapped) client-array functions: glVertexPointer,
    glNormalPointer, glColorPointer, glTexCoordPointer, glDrawElements.
    PyOpenGL's wrappers keep the arrays in per-context data, which fails
    when the context was made outside PyOpenGL's platform (an EGL context
    while PyOpenGL runs on GLX)."""
    global _RAW
    if _RAW is None:
        from OpenGL.raw.GL.VERSION import GL_1_1
        _RAW = GL_1_1
    return _RAW


def context_current() -> bool:
    """True if an OpenGL context is current in this thread (glGetString
    returns NULL when none is)."""
    GL = gl()
    try:
        return bool(GL.glGetString(GL.GL_VERSION))
    except Exception:
        return False


def require_context(what="drawGL"):
    """``OpenGL.GL``, after checking that a context is current; RuntimeError
    naming ``what`` otherwise."""
    GL = gl()
    if not context_current():
        raise RuntimeError("%s %s" % (what, NO_CONTEXT))
    return GL


def set_surface_color(color):
    """Makes the RGBA ``color`` the current color and the front and back
    ambient and diffuse material, and leaves GL_COLOR_MATERIAL off (the
    caller turns it back on if it wants it). The material is written rather
    than tracked from the color: after nested glPushAttrib / glPopAttrib
    with a color set in between, Mesa can keep a stale tracked material, and
    a later glColor of that same color no longer reaches it (the surface is
    then lit in the color from before the push, in every later frame)."""
    GL = gl()
    GL.glDisable(GL.GL_COLOR_MATERIAL)
    GL.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_AMBIENT_AND_DIFFUSE, color)
    GL.glColor4f(*color)


def column_major(T):
    """The 16 column-major entries of the homogeneous matrix of an se3
    element (R column-major, t)."""
    R, t = T
    return [R[0], R[1], R[2], 0.0, R[3], R[4], R[5], 0.0, R[6], R[7], R[8], 0.0, t[0], t[1], t[2], 1.0]


def projection_matrix(view):
    """The column-major perspective matrix of a GLViewport: the frustum of
    its intrinsics (fx, fy, cx, cy; by default its horizontal field of view
    ``view.fov``, square pixels, centred), its clipping planes (the far plane
    grows to 1.05 camera distances, as the reference's does)."""
    n, f = clip_planes(view)
    left, bottom, right, top = view.viewRectangle(1.0)
    return [2.0 / (right - left), 0.0, 0.0, 0.0,
            0.0, 2.0 / (top - bottom), 0.0, 0.0,
            (right + left) / (right - left), (top + bottom) / (top - bottom), (f + n) / (n - f), -1.0,
            0.0, 0.0, 2.0 * f * n / (n - f), 0.0]


def clip_planes(view):
    """(near, far) as :func:`projection_matrix` uses them."""
    n, f = view.clippingplanes
    return n, max(f, view.camera.dist * 1.05)


def view_matrix(view):
    """The column-major modelview matrix of a GLViewport's camera."""
    return column_major(se3.inv(view.camera.matrix()))


def set_camera(view):
    """Loads a GLViewport's projection and modelview into the current context."""
    GL = gl()
    GL.glMatrixMode(GL.GL_PROJECTION)
    GL.glLoadMatrixd(projection_matrix(view))
    GL.glMatrixMode(GL.GL_MODELVIEW)
    GL.glLoadMatrixd(view_matrix(view))


def set_lights():
    """The scene's lights (:mod:`klampt.vis._lighting`), lighting both sides
    of surfaces; call after :func:`set_camera`, whose modelview places the
    world-fixed ones."""
    GL = gl()
    GL.glLightModelfv(GL.GL_LIGHT_MODEL_AMBIENT, [AMBIENT, AMBIENT, AMBIENT, 1.0])
    GL.glLightModeli(GL.GL_LIGHT_MODEL_TWO_SIDE, GL.GL_TRUE)
    for i, light in enumerate(LIGHTS):
        index = GL.GL_LIGHT0 + i
        position = list(light.direction) + [0.0]
        if light.frame == 'camera':
            GL.glPushMatrix()
            GL.glLoadIdentity()
            GL.glLightfv(index, GL.GL_POSITION, position)
            GL.glPopMatrix()
        else:
            GL.glLightfv(index, GL.GL_POSITION, position)
        GL.glLightfv(index, GL.GL_AMBIENT, [0.0, 0.0, 0.0, 1.0])
        GL.glLightfv(index, GL.GL_DIFFUSE, [light.diffuse] * 3 + [1.0])
        GL.glLightfv(index, GL.GL_SPECULAR, [light.specular] * 3 + [1.0])
        GL.glEnable(index)


def set_screen_projection(w, h):
    """Pixel coordinates for overlays: origin top left, y down."""
    GL = gl()
    GL.glMatrixMode(GL.GL_PROJECTION)
    GL.glLoadIdentity()
    GL.glOrtho(0, w, h, 0, -1, 1)
    GL.glMatrixMode(GL.GL_MODELVIEW)
    GL.glLoadIdentity()
