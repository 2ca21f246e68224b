"""A headless OpenGL context through Mesa's OSMesa (Debian ``libosmesa6``),
the legacy fallback when EGL is unavailable. PyOpenGL must run on its
``osmesa`` platform (``PYOPENGL_PLATFORM=osmesa`` before ``import OpenGL``).
"""
import os

import numpy as np


class OSMesaContext:
    """An OSMesa context rendering into a small private buffer (drawing goes
    into the renderer's FBO). Raises RuntimeError when OSMesa is missing."""

    def __init__(self):
        if os.environ.get('PYOPENGL_PLATFORM') != 'osmesa':
            raise RuntimeError('OSMesa needs PYOPENGL_PLATFORM=osmesa before OpenGL is imported')
        try:
            from OpenGL import GL, osmesa
            self._context = osmesa.OSMesaCreateContextExt(osmesa.OSMESA_RGBA, 24, 0, 0, None)
        except Exception as e:  # ImportError, NullFunctionError when libOSMesa is missing
            raise RuntimeError('OSMesa is not available: %s' % e) from e
        if not self._context:
            raise RuntimeError('OSMesaCreateContextExt failed')
        self._osmesa = osmesa
        self._type = GL.GL_UNSIGNED_BYTE
        self._buffer = np.zeros((4, 4, 4), dtype=np.uint8)
        self.description = 'OSMesa'
        self.make_current()

    def make_current(self):
        """Makes the context current in the calling thread."""
        if not self._osmesa.OSMesaMakeCurrent(self._context, self._buffer, self._type, 4, 4):
            raise RuntimeError('OSMesaMakeCurrent failed')

    def release(self):
        """Nothing to do: OSMesa contexts are replaced by the next make_current."""

    def destroy(self):
        """Destroys the context."""
        if self._context:
            self._osmesa.OSMesaDestroyContext(self._context)
            self._context = None
