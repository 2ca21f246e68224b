"""A camera view: the orbit camera and the GLViewport class of Klamp't's
visualization (``klampt.vis.glviewport``), a :class:`klampt.Viewport` whose
pose is the orbit camera's, with their projection math, viewport file format
and conversion to a plain :class:`klampt.Viewport`. Only ``set_current_GL``
and ``drawGL`` use OpenGL (imported when called); with no current context
they raise RuntimeError.
"""
import math
import warnings

from klampt._viewport import Viewport
from klampt.math import se3, so3, vectorops

_BASIS = {'x': [1.0, 0.0, 0.0], '-x': [-1.0, 0.0, 0.0], 'y': [0.0, 1.0, 0.0], '-y': [0.0, -1.0, 0.0],
          'z': [0.0, 0.0, 1.0], '-z': [0.0, 0.0, -1.0]}

_FLIP_YZ = [1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0]


def orientation_matrix(axis1, axis2, axis3):
    """The rotation whose rows are the given world axes (names such as 'x',
    '-z' or 3-vectors): it maps the camera's (right, down, forward) axes to
    world axes 1, 2, 3."""
    rows = [_BASIS[a] if isinstance(a, str) else list(a) for a in (axis1, axis2, axis3)]
    return so3.from_matrix(rows)


class orbit:
    """A camera looking at a target point from a distance, oriented by
    Euler angles.

    Attributes:
        rot (list of 3 floats): angles about y, x and z (R = Rz Rx Ry ori).
        tgt (list of 3 floats): the target point.
        dist (float): the distance from the camera to the target.
        ori (list of 3 axes): see :func:`orientation_matrix`.
    """

    def __init__(self):
        self.rot = [0.0, 0.0, 0.0]
        self.tgt = [0.0, 0.0, 0.0]
        self.dist = 1.0
        self.ori = ['x', '-z', 'y']

    def matrix(self):
        """The camera transform: maps OpenGL camera coordinates (x right, y up,
        -z forward) to world coordinates."""
        Rz = so3.rotation([0.0, 0.0, 1.0], self.rot[2])
        Rx = so3.rotation([1.0, 0.0, 0.0], self.rot[1])
        Ry = so3.rotation([0.0, 1.0, 0.0], self.rot[0])
        R = so3.mul(so3.mul(Rz, so3.mul(Rx, Ry)), orientation_matrix(*self.ori))
        return (R, vectorops.add(self.tgt, so3.apply(R, [0.0, 0.0, self.dist])))

    def set_orientation(self, R, ori=None):
        """Sets the Euler angles so that the camera has orientation R; with
        ``ori`` (e.g. ['x', 'y', 'z']), R's columns are read as the camera's
        right, down and forward axes in that convention."""
        if ori is not None:
            R = so3.mul(R, so3.mul(so3.inv(orientation_matrix(*ori)), orientation_matrix(*self.ori)))
        m = so3.matrix(R)
        # R = Rz Rx Ry: m[2][1] = sin(rx), m[0][1] = -sin(rz) cos(rx), m[1][1] = cos(rz) cos(rx)
        cx = math.hypot(m[0][1], m[1][1])
        self.rot[1] = math.atan2(m[2][1], cx)
        if cx > 1e-5:
            self.rot[2] = math.atan2(-m[0][1], m[1][1])
            self.rot[0] = math.atan2(-m[2][0], m[2][2])
        else:
            self.rot[0] = 0.0
            self.rot[2] = math.atan2(m[1][0], m[0][0])

    def set_matrix(self, T):
        """Sets the camera from a transform as returned by :meth:`matrix`,
        keeping the distance."""
        R, t = T
        self.set_orientation(so3.mul(R, so3.inv(orientation_matrix(*self.ori))), None)
        self.tgt = vectorops.sub(t, so3.apply(R, [0.0, 0.0, self.dist]))


class GLViewport(Viewport):
    """A perspective camera view whose pose is an orbit camera's.

    Klamp't 0.9.2's fields and Klamp't 0.10's (inherited from
    :class:`klampt.Viewport`, with ``ori`` always 'opengl') are both served:

    Attributes:
        x, y (int): upper left corner of the view in the canvas, in pixels.
        w, h (int): size of the view, in pixels.
        screenDeviceScale (float): screen to OpenGL pixel ratio.
        orthogonal (bool): orthogonal projection (not supported).
        camera (orbit): the camera; ``controller`` (0.10) is the same object.
        fov (float): horizontal field of view, in degrees (0.9.2's meaning;
            :meth:`getFOV` / :meth:`setFOV` are 0.10's, in radians). Pixels
            are square and the principal point centred, so the field of view
            stays as w and h change, until fx, fy, cx or cy are set.
        clippingplanes (pair of floats): near and far clipping distances,
            the same as ``(n, f)``.
    """

    def __init__(self):
        Viewport.__init__(self)
        self._ori = 'opengl'
        self.camera = orbit()
        self.camera.dist = 6.0
        self.orthogonal = False
        self.screenDeviceScale = 1
        self.fov = 30.0
        self.n, self.f = 0.2, 100.0

    @property
    def controller(self):
        """Klamp't 0.10's name of the orbit camera (``camera``)."""
        return self.camera

    @controller.setter
    def controller(self, value):
        self.camera = value

    @property
    def _xform(self):
        # the pose is the orbit camera's (column-major 4x4)
        R, t = self.camera.matrix()
        return list(R[0:3]) + [0.0] + list(R[3:6]) + [0.0] + list(R[6:9]) + [0.0] + list(t) + [1.0]

    @_xform.setter
    def _xform(self, values):
        if 'camera' in self.__dict__:
            m = [float(v) for v in values]
            self.camera.set_matrix((m[0:3] + m[4:7] + m[8:11], m[12:15]))

    @property
    def ori(self) -> str:
        """Always 'opengl': the orbit camera's convention."""
        return 'opengl'

    @ori.setter
    def ori(self, value):
        if value not in ('opengl', ''):
            raise ValueError("a GLViewport's pose is its orbit camera's, in the 'opengl' convention; got ori=%r "
                             "(set the pose with set_transform(T, 'standard') for OpenCV axes)" % (value,))

    def _assign(self, xform, ori, **fields):
        if ori in ('opencv', 'ros'):
            R = so3.mul(xform[0:3] + xform[4:7] + xform[8:11], _FLIP_YZ)
            xform = R[0:3] + [0.0] + R[3:6] + [0.0] + R[6:9] + [0.0] + list(xform[12:15]) + [1.0]
        Viewport._assign(self, xform, 'opengl', **fields)
        self._ori = 'opengl'

    @property
    def fov(self) -> float:
        """Horizontal field of view in degrees (Klamp't 0.9.2's GLViewport)."""
        given = self.__dict__.get('_fov_given')
        if given is not None and self._scale == given[1]:
            return given[0]  # as set, without a round trip through the focal length
        return math.degrees(self.getFOV())

    @fov.setter
    def fov(self, degrees):
        degrees = float(degrees)
        if not 0 < degrees < 180:
            raise ValueError("GLViewport.fov is in degrees, in (0, 180); got %r" % degrees)
        self.scale = 0.5 / math.tan(math.radians(degrees) * 0.5)
        self._fov_given = (degrees, self._scale)

    def setFOV(self, xfov: float, yfov: float = -1) -> None:
        """Klamp't 0.10: sets the horizontal field of view in radians (and,
        if yfov >= 0, the vertical one, ending square pixels)."""
        if float(yfov) < 0 and self._scale is not None:
            if not 0 < float(xfov) < math.pi:
                raise ValueError("xfov must be in (0, pi) radians, got %r" % (xfov,))
            self.fov = math.degrees(float(xfov))
        else:
            Viewport.setFOV(self, xfov, yfov)

    @property
    def clippingplanes(self):
        """(near, far) clipping distances: ``(n, f)``."""
        return (self.n, self.f)

    @clippingplanes.setter
    def clippingplanes(self, value):
        n, f = value
        self.n, self.f = float(n), float(f)

    def update_viewport(self):
        """Klamp't 0.10: brings the pose up to date with the orbit camera
        (here always current); returns self."""
        return self

    def contains(self, x: float, y: float) -> bool:
        """True if the pixel (x, y) is inside the view."""
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h

    def set_transform(self, T, convention='standard') -> None:
        """Places the camera at world transform T: with 'standard', T's z axis
        looks forward and its y axis down; with 'openGL', z looks backward and
        y up (x is to the right in both)."""
        if convention == 'openGL':
            self.camera.set_matrix(T)
        else:
            self.camera.set_matrix((so3.mul(T[0], _FLIP_YZ), T[1]))

    def get_transform(self, convention='standard'):
        """The camera's world transform in the given convention (see
        :meth:`set_transform`)."""
        T = self.camera.matrix()
        if convention == 'openGL':
            return T
        return (so3.mul(T[0], _FLIP_YZ), T[1])

    def fit(self, center, radius: float) -> None:
        """Aims the camera at a sphere so that it fills the view."""
        self.camera.tgt = list(center)
        self.camera.dist = radius * 2
        near, far = self.clippingplanes
        if radius < near:
            near = radius * 0.5
        if radius * 3 > far:
            far = radius * 3.5
        self.clippingplanes = (near, far)

    def _image_scale(self):
        """Width of the image plane at unit distance, 2 tan(fov / 2); pixels
        are square. (The reference uses 2 aspect tan(fov / (2 aspect)), which
        disagrees with its own OpenGL projection and with camera sensors by a
        few percent.)"""
        return 2.0 * math.tan(math.radians(self.fov) * 0.5)

    def to_viewport(self):
        """The equivalent plain :class:`klampt.Viewport` (OpenGL pose)."""
        vp = Viewport()
        vp.x, vp.y, vp.w, vp.h = self.x, self.y, self.w, self.h
        vp.n, vp.f = self.clippingplanes
        vp.perspective = True
        vp.setRigidTransform(*self.camera.matrix())
        if self._scale is not None:
            vp.scale = self._scale
        else:
            vp.fx, vp.fy, vp.cx, vp.cy = self.fx, self.fy, self.cx, self.cy
        return vp

    def click_ray(self, x: float, y: float):
        """The world ray (source, unit direction) through the screen point
        (x, y) (y growing downward)."""
        R, t = self.camera.matrix()
        a = (float(x) - self.x - self.cx) / self.fx
        b = (self.y + self.h - float(y) - self.cy) / self.fy
        return (list(t), so3.apply(R, vectorops.unit([a, b, -1.0])))

    def project(self, pt, clip=True):
        """The screen coordinates (y growing downward) and depth (x, y, z) of
        a world point (Klamp't 0.9.2's GLViewport.project; 0.10's gives the
        OpenGL image's upward y, as :meth:`klampt.Viewport.project` does).

        With ``clip``, None is returned for points outside the view frustum.
        A point in the camera's focal plane projects to the view's centre.
        """
        u, v, depth = Viewport.project(self, pt)
        if clip and (depth <= self.n or depth >= self.f):
            return None
        if abs(depth) < 1e-8:
            return (self.x + self.w / 2, self.y + self.h / 2, depth)
        sx, sy = self.x + u, self.y + self.h - v
        eps = 1e-6  # pixels: points on the view's edges stay in despite rounding
        if clip and not (self.x - eps <= sx <= self.x + self.w + eps and self.y - eps <= sy <= self.y + self.h + eps):
            return None
        return (sx, sy, depth)

    def set_current_GL(self) -> None:
        """Loads the view's projection and modelview into the current OpenGL
        context."""
        from klampt._gl_methods import viewport_set_current_GL
        viewport_set_current_GL(self)

    def drawGL(self, draw_frustum=True, draw_coords=True) -> None:
        """Draws the view's frustum and camera axes in the current OpenGL
        context."""
        from klampt._gl_methods import viewport_drawGL
        viewport_drawGL(self, draw_frustum, draw_coords)

    def save_file(self, fn: str) -> None:
        """Writes the view as a Klamp't viewport text file (as used by the
        RobotTest, RobotPose and SimTest apps)."""
        mat = se3.homogeneous(self.camera.matrix())
        with open(str(fn), 'w') as f:
            f.write("VIEWPORT\n")
            f.write("FRAME %d %d %d %d\n" % (self.x, self.y, self.w, self.h))
            f.write("PERSPECTIVE 1\n")
            f.write("SCALE %r\n" % (1.0 / self._image_scale(),))
            f.write("NEARPLANE %r\n" % (float(self.clippingplanes[0]),))
            f.write("FARPLANE %r\n" % (float(self.clippingplanes[1]),))
            f.write("CAMTRANSFORM " + ' '.join(repr(float(v)) for row in mat for v in row) + "\n")
            f.write("ORBITDIST %r\n" % (float(self.camera.dist),))

    def load_file(self, fn: str) -> None:
        """Reads a Klamp't viewport text file (see :meth:`save_file`)."""
        mat = None
        with open(str(fn), 'r') as f:
            lines = [line.split() for line in f if line.split()]
        if not lines or lines[0][0] != 'VIEWPORT':
            warnings.warn("File does not appear to be a valid viewport file, must start with VIEWPORT")
            return
        for keyword, *args in lines[1:]:
            if keyword == 'FRAME':
                self.x, self.y, self.w, self.h = [int(v) for v in args]
            elif keyword == 'PERSPECTIVE':
                if args[0] != '1':
                    warnings.warn("orthographic viewports are not supported")
            elif keyword == 'SCALE':
                self.fov = math.degrees(2.0 * math.atan(0.5 / float(args[0])))
            elif keyword == 'NEARPLANE':
                self.clippingplanes = (float(args[0]), self.clippingplanes[1])
            elif keyword == 'FARPLANE':
                self.clippingplanes = (self.clippingplanes[0], float(args[0]))
            elif keyword == 'CAMTRANSFORM':
                values = [float(v) for v in args]
                mat = [values[0:4], values[4:8], values[8:12], values[12:16]]
            elif keyword == 'ORBITDIST':
                self.camera.dist = float(args[0])
            else:
                raise RuntimeError("Invalid viewport keyword " + keyword)
        if mat is not None:
            self.camera.set_matrix(se3.from_homogeneous(mat))
