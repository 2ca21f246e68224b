"""A camera view: the orbit camera and the GLViewport class of Klamp't's
visualization (``klampt.vis.glviewport``), with their projection math,
viewport file format and conversion to :class:`klampt.Viewport`. Only
``set_current_GL`` and ``drawGL`` use OpenGL (imported when called); with no
current context they raise RuntimeError.
"""
import math
import warnings

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


class GLViewport:
    """A perspective camera view.

    Attributes:
        x, y (int): upper left corner of the view in the canvas, in pixels.
        w, h (int): size of the view, in pixels.
        screenDeviceScale (float): screen to OpenGL pixel ratio.
        orthogonal (bool): orthogonal projection (not supported).
        camera (orbit): the camera.
        fov (float): horizontal field of view, in degrees.
        clippingplanes (pair of floats): near and far clipping distances.
    """

    def __init__(self):
        self.orthogonal = False
        self.x, self.y = 0, 0
        self.w, self.h = 640, 480
        self.screenDeviceScale = 1
        self.camera = orbit()
        self.camera.dist = 6.0
        self.fov = 30.0
        self.clippingplanes = (0.2, 100)

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
        """The equivalent :class:`klampt.Viewport`."""
        from klampt._viewport import Viewport
        vp = Viewport()
        vp.x, vp.y, vp.w, vp.h = self.x, self.y, self.w, self.h
        vp.n, vp.f = self.clippingplanes
        vp.perspective = True
        vp.scale = 1.0 / self._image_scale()
        vp.setRigidTransform(*self.camera.matrix())
        return vp

    def click_ray(self, x: float, y: float):
        """The world ray (source, unit direction) through the pixel (x, y)."""
        R, t = self.camera.matrix()
        u = float(x - (self.x + self.w / 2)) / self.w
        v = float((self.y + self.h / 2) - y) / self.w
        scale = self._image_scale()
        d = vectorops.unit([u * scale, v * scale, -1.0])
        return (list(t), so3.apply(R, d))

    def project(self, pt, clip=True):
        """The pixel coordinates and depth (x, y, z) of a world point.

        With ``clip``, None is returned for points outside the view frustum.
        A point in the camera's focal plane projects to the view's centre.
        """
        local = se3.apply(se3.inv(self.camera.matrix()), pt)
        depth = -local[2]
        if clip and (depth <= self.clippingplanes[0] or depth >= self.clippingplanes[1]):
            return None
        if abs(local[2]) < 1e-8:
            return (self.x + self.w / 2, self.y + self.h / 2, depth)
        scale = self._image_scale()
        u = -local[0] / (local[2] * scale)
        v = -local[1] / (local[2] * scale)
        if clip and (abs(u) > 0.5 or abs(v) > 0.5):
            return None
        return (u * self.w + (self.x + self.w / 2), (self.y + self.h / 2) - v * self.w, depth)

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
