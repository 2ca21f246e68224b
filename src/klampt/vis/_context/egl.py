"""A headless OpenGL context through EGL (Mesa llvmpipe, or a GPU's EGL
device), made with ctypes on ``libEGL.so.1`` so that it works whichever
platform PyOpenGL was imported with: glvnd dispatches the GL calls to the
current EGL context.

Displays tried in order: the first EGL device (``EGL_EXT_platform_device``),
then Mesa's surfaceless platform. The context is a compatibility-profile
desktop OpenGL context current with no surface; rendering goes into an FBO.
"""
import ctypes
import ctypes.util

EGL_PLATFORM_DEVICE_EXT = 0x313F
EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
EGL_OPENGL_API = 0x30A2
EGL_NONE = 0x3038
EGL_SURFACE_TYPE, EGL_PBUFFER_BIT = 0x3033, 0x1
EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT = 0x3040, 0x8
EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE, EGL_DEPTH_SIZE = 0x3024, 0x3023, 0x3022, 0x3025

EGLint = ctypes.c_int32
_void_p = ctypes.c_void_p


def _load():
    for name in ('libEGL.so.1', ctypes.util.find_library('EGL')):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        lib.eglGetProcAddress.restype = _void_p
        lib.eglGetProcAddress.argtypes = [ctypes.c_char_p]
        lib.eglInitialize.argtypes = [_void_p, ctypes.POINTER(EGLint), ctypes.POINTER(EGLint)]
        lib.eglChooseConfig.argtypes = [_void_p, ctypes.POINTER(EGLint), ctypes.POINTER(_void_p), EGLint,
                                        ctypes.POINTER(EGLint)]
        lib.eglBindAPI.argtypes = [ctypes.c_uint]
        lib.eglCreateContext.restype = _void_p
        lib.eglCreateContext.argtypes = [_void_p, _void_p, _void_p, _void_p]
        lib.eglMakeCurrent.argtypes = [_void_p, _void_p, _void_p, _void_p]
        lib.eglDestroyContext.argtypes = [_void_p, _void_p]
        lib.eglTerminate.argtypes = [_void_p]
        lib.eglGetError.restype = EGLint
        lib.eglGetCurrentContext.restype = _void_p
        return lib
    raise RuntimeError("libEGL.so.1 not found")


def _extension(lib, name, restype, *argtypes):
    address = lib.eglGetProcAddress(name.encode())
    if not address:
        return None
    return ctypes.CFUNCTYPE(restype, *argtypes)(address)


def _displays(lib):
    """Candidate (description, EGLDisplay) pairs, best first."""
    get_display = _extension(lib, 'eglGetPlatformDisplayEXT', _void_p, ctypes.c_uint, _void_p,
                             ctypes.POINTER(EGLint))
    if get_display is None:
        return
    query_devices = _extension(lib, 'eglQueryDevicesEXT', ctypes.c_uint, EGLint, ctypes.POINTER(_void_p),
                               ctypes.POINTER(EGLint))
    if query_devices is not None:
        devices = (_void_p * 8)()
        count = EGLint(0)
        if query_devices(8, devices, ctypes.byref(count)) and count.value > 0:
            yield 'EGL device', get_display(EGL_PLATFORM_DEVICE_EXT, devices[0], None)
    yield 'EGL surfaceless', get_display(EGL_PLATFORM_SURFACELESS_MESA, None, None)


class EGLContext:
    """An EGL OpenGL context with no surface. Raises RuntimeError when no
    display can be initialized."""

    def __init__(self):
        self._lib = _load()
        errors = []
        for description, display in _displays(self._lib):
            if not display:
                errors.append(description + ': no display')
                continue
            try:
                self._context = self._create(display)
            except RuntimeError as e:
                errors.append('%s: %s' % (description, e))
                continue
            self._display = display
            self.description = description
            return
        raise RuntimeError('; '.join(errors) or 'eglGetPlatformDisplayEXT is not available')

    def _create(self, display):
        lib = self._lib
        major, minor = EGLint(), EGLint()
        if not lib.eglInitialize(display, ctypes.byref(major), ctypes.byref(minor)):
            raise RuntimeError('eglInitialize failed (0x%x)' % lib.eglGetError())
        attributes = (EGLint * 13)(EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                   EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_DEPTH_SIZE, 24,
                                   EGL_NONE)
        config, count = _void_p(), EGLint()
        if not lib.eglChooseConfig(display, attributes, ctypes.byref(config), 1, ctypes.byref(count)) \
                or count.value < 1:
            raise RuntimeError('no OpenGL-capable EGL config')
        if not lib.eglBindAPI(EGL_OPENGL_API):
            raise RuntimeError('eglBindAPI(EGL_OPENGL_API) failed')
        context = lib.eglCreateContext(display, config, None, None)
        if not context:
            raise RuntimeError('eglCreateContext failed (0x%x)' % lib.eglGetError())
        if not lib.eglMakeCurrent(display, None, None, context):
            lib.eglDestroyContext(display, context)
            raise RuntimeError('eglMakeCurrent with no surface failed (0x%x)' % lib.eglGetError())
        return context

    def make_current(self):
        """Makes the context current in the calling thread."""
        if self._lib.eglGetCurrentContext() != self._context:
            if not self._lib.eglMakeCurrent(self._display, None, None, self._context):
                raise RuntimeError('eglMakeCurrent failed (0x%x)' % self._lib.eglGetError())

    def release(self):
        """Makes no context current in the calling thread."""
        self._lib.eglMakeCurrent(self._display, None, None, None)

    def destroy(self):
        """Releases and destroys the context."""
        if self._context:
            self.release()
            self._lib.eglDestroyContext(self._display, self._context)
            self._context = None
