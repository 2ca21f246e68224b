"""Cameras and camera views, all in one place: ``klampt.Viewport`` (an
ideal pinhole or orthographic camera view, with Klamp't 0.10's intrinsics and
camera conventions and Klamp't 0.9.2's fields, ``scale`` and
``setRigidTransform``, on the same object); the camera models of
``klampt.vis.camera`` (``orbit``, ``free``, ``target``); and ``GLViewport``
of ``klampt.vis.glviewport``, a Viewport whose pose is an orbit camera's,
with its viewport file format. Only ``GLViewport.set_current_GL`` and
``drawGL`` use OpenGL (imported when called)."""
import json
import math
import warnings

from klampt.math import se3, so3, vectorops

_ORIENTATIONS = ('opencv', 'ros', 'opengl', '')
_FLIP_YZ = [1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0]
_BASIS = {'x': [1.0, 0.0, 0.0], '-x': [-1.0, 0.0, 0.0], 'y': [0.0, 1.0, 0.0], '-y': [0.0, -1.0, 0.0],
          'z': [0.0, 0.0, 1.0], '-z': [0.0, 0.0, -1.0]}
_IDENTITY = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]


def _floats(values, count, what):
    values = [float(v) for v in values]
    if len(values) != count:
        raise ValueError("%s needs %d values, got %d" % (what, count, len(values)))
    return values


def _homogeneous(R, t):
    R = _floats(R, 9, "a rotation")
    t = _floats(t, 3, "a translation")
    return R[0:3] + [0.0] + R[3:6] + [0.0] + R[6:9] + [0.0] + t + [1.0]


def _text(v):
    """The shortest text of a float that reads back exactly ('640', '0.1')."""
    v = float(v)
    return '%d' % v if v.is_integer() and abs(v) < 1e15 else repr(v)


def _ratio(a, b):
    """a / b, with IEEE infinities for b == 0 (a point in the camera's plane)."""
    if b == 0.0:
        return math.copysign(math.inf, a) if a != 0.0 else math.nan
    return a / b


class Viewport:
    """A camera view: an ideal pinhole camera (or an orthographic one) with
    an image rectangle, clipping planes, intrinsics and a pose.

    A perspective camera maps the point (x, y, z) in camera coordinates to the
    image point ``(fx x / |z| + cx, fy y / |z| + cy)``; an orthographic one to
    ``(fx x + cx, fy y + cy)``.

    Its fields: ``perspective`` (bool) chooses perspective or orthographic
    projection; ``x``, ``y``, ``w``, ``h`` (ints) are the view's rectangle on
    the screen in pixels; ``n`` and ``f`` the near and far clipping distances;
    ``fx``, ``fy`` the focal lengths in pixels (pixels per world unit for an
    orthographic view) and ``cx``, ``cy`` the principal point in pixels,
    relative to (x, y); ``xform`` the pose, a column-major 4x4 homogeneous
    matrix whose camera axes follow ``ori``: 'opencv' or 'ros' (x right, y
    down, z forward, image y growing downward) or 'opengl' (x right, y up, z
    backward, image y growing upward). ``scale`` is Klamp't 0.9.2's intrinsics,
    the focal length divided by the width (fx / w): setting it centres the
    principal point and gives square pixels, following later changes of w and
    h, and marks the pose as 'opengl' (0.9.2's only convention), until fx, fy,
    cx or cy are set. ``fov`` is the horizontal field of view in radians (see
    :meth:`getFOV`).

    A new viewport is 640x480, fx = fy = 640, centred, clipping planes 0.1
    and 1000, identity pose, 'opencv' convention.
    """

    perspective = True
    x = y = 0
    w, h = 640, 480
    n, f = 0.1, 1000.0

    def __init__(self):
        self._intrinsics = [640.0, 640.0, 320.0, 240.0]
        self._scale = None
        self._xform = list(_IDENTITY)
        self._ori = 'opencv'

    def __repr__(self):
        return "<klampt.%s %dx%d at (%d, %d)>" % (type(self).__name__, self.w, self.h, self.x, self.y)

    # intrinsics: explicit, or derived from 0.9.2's scale and the view's size
    def _intrinsic(self, i):
        if self._scale is None:
            return self._intrinsics[i]
        return (self._scale * self.w, self._scale * self.w, self.w * 0.5, self.h * 0.5)[i]

    def _set_intrinsic(self, i, value):
        self._intrinsics = [self._intrinsic(k) for k in range(4)]
        self._scale = None
        self._intrinsics[i] = float(value)

    fx = property(lambda self: self._intrinsic(0), lambda self, v: self._set_intrinsic(0, v),
                  doc="Horizontal focal length, pixels.")
    fy = property(lambda self: self._intrinsic(1), lambda self, v: self._set_intrinsic(1, v),
                  doc="Vertical focal length, pixels.")
    cx = property(lambda self: self._intrinsic(2), lambda self, v: self._set_intrinsic(2, v),
                  doc="Principal point's x, pixels from the view's left edge.")
    cy = property(lambda self: self._intrinsic(3), lambda self, v: self._set_intrinsic(3, v),
                  doc="Principal point's y, pixels from the view's corner.")

    @property
    def scale(self) -> float:
        """Klamp't 0.9.2's intrinsics: fx / w (see the class docstring)."""
        if self._scale is not None:
            return self._scale
        return self.fx / self.w if self.w else 0.0

    @scale.setter
    def scale(self, value):
        self._scale = float(value)
        self._ori = 'opengl'

    @property
    def ori(self) -> str:
        """The camera convention of ``xform``: 'opencv', 'ros' (the same) or
        'opengl' ('' also reads as 'opengl')."""
        return self._ori

    @ori.setter
    def ori(self, value):
        if value not in _ORIENTATIONS:
            raise ValueError("Viewport.ori must be one of %s, got %r" % (', '.join(map(repr, _ORIENTATIONS)), value))
        self._ori = value

    @property
    def xform(self):
        """The pose as 16 column-major floats, axes following ``ori``."""
        return self._xform

    @xform.setter
    def xform(self, value):
        values = [float(v) for v in value]
        if len(values) not in (0, 16):
            raise ValueError("Viewport.xform needs 16 values (a column-major 4x4 matrix), got %d" % len(values))
        self._xform = values if values else list(_IDENTITY)

    def _opencv(self):
        return self._ori in ('opencv', 'ros')

    # pose
    def setPose(self, R, t) -> None:
        """Sets the camera pose (R, t); its axes follow ``ori``."""
        self._xform = _homogeneous(R, t)

    def getPose(self):
        """The camera pose (R, t) as stored in ``xform`` (axes following
        ``ori``)."""
        m = self._xform
        return (m[0:3] + m[4:7] + m[8:11], m[12:15])

    def _pose_in(self, opencv):
        R, t = self.getPose()
        if opencv != self._opencv():
            R = so3.mul(R, _FLIP_YZ)
        return (R, t)

    def setRigidTransform(self, R, t) -> None:
        """Klamp't 0.9.2: sets the camera pose (R, t) with OpenGL camera axes
        (x right, y up, z backward); ``ori`` becomes 'opengl'."""
        self._xform = _homogeneous(R, t)
        self._ori = 'opengl'

    def getRigidTransform(self):
        """Klamp't 0.9.2: the camera pose (R, t) with OpenGL camera axes,
        whatever ``ori`` is."""
        return self._pose_in(False)

    def setModelviewMatrix(self, M) -> None:
        """Klamp't 0.9.2: sets ``xform`` to the 16 column-major entries of M,
        stored as given, and ``ori`` to 'opengl'."""
        self._xform = _floats(M, 16, "setModelviewMatrix")
        self._ori = 'opengl'

    # field of view
    def setFOV(self, xfov: float, yfov: float = -1) -> None:
        """Sets the horizontal field of view and, if ``yfov`` >= 0, the
        vertical one (else pixels are square). Radians for a perspective view,
        world units for an orthographic one."""
        xfov, yfov = float(xfov), float(yfov)
        for name, value, size in (('xfov', xfov, self.w), ('yfov', yfov, self.h)):
            if name == 'yfov' and value < 0:
                continue
            if not value > 0 or (self.perspective and not value < math.pi):
                raise ValueError("%s must be in (0, pi) radians for a perspective view or > 0 for an orthographic "
                                 "one, got %r" % (name, value))
            if size <= 0:
                raise ValueError("setFOV needs a view of positive size, got %dx%d" % (self.w, self.h))
        if self.perspective:
            fx = self.w * 0.5 / math.tan(xfov * 0.5)
            fy = fx if yfov < 0 else self.h * 0.5 / math.tan(yfov * 0.5)
        else:
            fx = self.w / xfov
            fy = fx if yfov < 0 else self.h / yfov
        self.fx = fx
        self.fy = fy

    def getFOV(self) -> float:
        """The horizontal field of view: radians for a perspective view, world
        units for an orthographic one."""
        if self.perspective:
            return 2.0 * math.atan(_ratio(self.w * 0.5, self.fx))
        return _ratio(self.w, self.fx)

    def getVFOV(self) -> float:
        """The vertical field of view (see :meth:`getFOV`)."""
        if self.perspective:
            return 2.0 * math.atan(_ratio(self.h * 0.5, self.fy))
        return _ratio(self.h, self.fy)

    fov = property(getFOV, setFOV, doc="The horizontal field of view (:meth:`getFOV`, :meth:`setFOV`).")

    def resize(self, w: int, h: int) -> None:
        """Resizes the view keeping its field of view and the principal
        point's relative position (pixels keep their aspect ratio)."""
        w, h = int(w), int(h)
        if w <= 0 or h <= 0 or self.w <= 0 or self.h <= 0:
            raise ValueError("resize needs positive sizes, from %dx%d to %dx%d" % (self.w, self.h, w, h))
        xratio, yratio = w / self.w, h / self.h
        fx, fy, cx, cy = self.fx, self.fy, self.cx, self.cy
        self.w, self.h = w, h
        if self._scale is None:
            self._intrinsics = [fx * xratio, fy * xratio, cx * xratio, cy * yratio]

    # clipping planes (Klamp't 0.10's deprecated pair accessors)
    def setClippingPlanes(self, cp) -> None:
        """Deprecated: sets (n, f)."""
        warnings.warn("Viewport.clippingPlanes is deprecated in favor of the n, f attributes", DeprecationWarning,
                      stacklevel=2)
        n, f = cp
        self.n, self.f = float(n), float(f)

    def getClippingPlanes(self):
        """Deprecated: the pair (n, f)."""
        warnings.warn("Viewport.clippingPlanes is deprecated in favor of the n, f attributes", DeprecationWarning,
                      stacklevel=2)
        return (self.n, self.f)

    clippingPlanes = property(getClippingPlanes, setClippingPlanes, doc="Deprecated: the pair (n, f).")

    # projection
    def viewRectangle(self, depth: float):
        """The view's rectangle (xmin, ymin, xmax, ymax) in camera x, y
        coordinates at the given depth (the near plane if depth <= 0; any
        depth for an orthographic view)."""
        fx, fy, cx, cy = self.fx, self.fy, self.cx, self.cy
        rect = [_ratio(-cx, fx), _ratio(-cy, fy), _ratio(self.w - cx, fx), _ratio(self.h - cy, fy)]
        if self.perspective:
            depth = float(depth)
            if depth <= 0:
                depth = self.n
            rect = [v * depth for v in rect]
        return tuple(rect)

    def project(self, pt):
        """The image coordinates (u, v, depth) of a world point: u, v in
        pixels relative to the view's corner (x, y), depth along the viewing
        direction. Points outside the view are not clipped."""
        R, t = self.getPose()
        lx, ly, lz = so3.apply(so3.inv(R), vectorops.sub(_floats(pt, 3, "project"), t))
        depth = lz if self._opencv() else -lz
        if self.perspective:
            lx, ly = _ratio(lx, depth), _ratio(ly, depth)
        return [lx * self.fx + self.cx, ly * self.fy + self.cy, depth]

    def _image_offset(self, x, y):
        """Camera-plane coordinates of the centre of the screen pixel (x, y)."""
        return (_ratio(float(x) + 0.5 - self.x - self.cx, self.fx), _ratio(float(y) + 0.5 - self.y - self.cy, self.fy))

    def clickSource(self, x: float, y: float):
        """The world source of the ray through the centre of the screen pixel
        (x, y): the camera's position for a perspective view, a point of the
        image plane for an orthographic one."""
        R, t = self.getPose()
        if self.perspective:
            return list(t)
        u, v = self._image_offset(x, y)
        return list(vectorops.add(t, so3.apply(R, [u, v, 0.0])))

    def clickDirection(self, x: float, y: float):
        """The world unit direction of the ray through the centre of the
        screen pixel (x, y) (the viewing direction for an orthographic
        view)."""
        R, _ = self.getPose()
        forward = [0.0, 0.0, 1.0] if self._opencv() else [0.0, 0.0, -1.0]
        if self.perspective:
            u, v = self._image_offset(x, y)
            forward = vectorops.unit([u, v, forward[2]])
        return list(so3.apply(R, forward))

    # text and JSON
    def toText(self) -> str:
        """The view in Klamp't 0.10's viewport text format (INTRINSICS, pose
        as rotation rows and translation), followed for a non-OpenCV
        convention by an ORIENTATION line (which Klamp't 0.10 skips, reading
        every pose as OpenCV)."""
        R, t = self.getPose()
        lines = ["VIEWPORT", "FRAME %d %d %d %d" % (self.x, self.y, self.w, self.h),
                 "PERSPECTIVE %d" % bool(self.perspective),
                 "INTRINSICS " + ' '.join(_text(v) for v in (self.fx, self.fy, self.cx, self.cy)),
                 "NEARPLANE " + _text(self.n), "FARPLANE " + _text(self.f), "CAMTRANSFORM "]
        lines += [' '.join(_text(v) for v in row) for row in list(so3.matrix(R)) + [t]]
        if not self._opencv():
            lines.append("ORIENTATION " + (self._ori or 'opengl'))
        return "\n".join(lines) + "\n"

    def fromText(self, str: str) -> bool:
        """Reads the viewport text format: 0.10's (INTRINSICS, a pose of 12
        numbers, 'opencv' unless an ORIENTATION line follows), 0.9.2's
        (SCALE = fx / w, OpenGL pose) or a GLViewport file (SCALE, a row-major
        4x4 OpenGL pose). Returns False, leaving the view unchanged, if the
        text is not such a viewport."""
        tokens = str.split()
        try:
            values = self._parse_text(tokens)
        except (ValueError, IndexError):
            return False
        self._assign(**values)
        return True

    @staticmethod
    def _parse_text(tokens):
        def expect(i, word):
            if tokens[i] != word:
                raise ValueError(word)
            return i + 1
        i = expect(0, 'VIEWPORT')
        i = expect(i, 'FRAME')
        x, y, w, h = [int(v) for v in tokens[i:i + 4]]
        i = expect(i + 4, 'PERSPECTIVE')
        values = dict(x=x, y=y, w=w, h=h, perspective=bool(int(tokens[i])))
        i += 1
        if tokens[i] == 'INTRINSICS':
            values['intrinsics'] = [float(v) for v in tokens[i + 1:i + 5]]
            values['ori'] = 'opencv'
            i += 5
        else:
            i = expect(i, 'SCALE')
            values['scale'] = float(tokens[i])
            values['ori'] = 'opengl'
            i += 1
        i = expect(i, 'NEARPLANE')
        values['n'] = float(tokens[i])
        i = expect(i + 1, 'FARPLANE')
        values['f'] = float(tokens[i])
        i = expect(i + 1, 'CAMTRANSFORM')
        numbers = []
        for token in tokens[i:i + 16]:
            try:
                numbers.append(float(token))
            except ValueError:
                break
        if len(numbers) == 16:
            rows = [numbers[0:3], numbers[4:7], numbers[8:11]]
            t = [numbers[3], numbers[7], numbers[11]]
        elif len(numbers) >= 12:
            rows, t = [numbers[0:3], numbers[3:6], numbers[6:9]], numbers[9:12]
            numbers = numbers[:12]
        else:
            raise ValueError('CAMTRANSFORM')
        values['xform'] = _homogeneous(so3.from_matrix(rows), t)
        rest = tokens[i + len(numbers):]
        if len(rest) >= 2 and rest[0] == 'ORIENTATION':
            if rest[1] not in _ORIENTATIONS:
                raise ValueError('ORIENTATION')
            values['ori'] = rest[1]
        return values

    def _assign(self, xform, ori, intrinsics=None, scale=None, **fields):
        for k, v in fields.items():
            setattr(self, k, v)
        if intrinsics is not None:
            self._intrinsics, self._scale = list(intrinsics), None
        else:
            self._scale = scale
        self._xform = xform
        self._ori = ori

    def toJson(self) -> str:
        """The view as a JSON object: 0.10's keys (fx, fy, cx, cy, ori) and
        0.9.2's (scale) with x, y, w, h, n, f, perspective and xform."""
        return json.dumps({'perspective': bool(self.perspective), 'fx': self.fx, 'fy': self.fy, 'cx': self.cx,
                           'cy': self.cy, 'x': self.x, 'y': self.y, 'w': self.w, 'h': self.h, 'n': self.n,
                           'f': self.f, 'xform': list(self._xform), 'ori': self._ori, 'scale': self.scale})

    def fromJson(self, str: str) -> bool:
        """Reads a view written by :meth:`toJson` of this package or of
        Klamp't 0.10 (fx, fy, cx, cy; a missing ori is 'opengl') or 0.9.2
        (scale, OpenGL pose). Returns False, leaving the view unchanged, if
        the text is not such an object."""
        try:
            data = json.loads(str)
            if not isinstance(data, dict):
                return False
            values = dict(perspective=bool(data['perspective']), x=int(data['x']), y=int(data['y']),
                          w=int(data['w']), h=int(data['h']), n=float(data['n']), f=float(data['f']))
            xform = [float(v) for v in data['xform']]
            if 'fx' in data:
                values['intrinsics'] = [float(data[k]) for k in ('fx', 'fy', 'cx', 'cy')]
                ori = data.get('ori', '')
            else:
                values['scale'] = float(data['scale'])
                ori = 'opengl'
        except (ValueError, TypeError, KeyError):
            return False
        if len(xform) not in (0, 16) or ori not in _ORIENTATIONS:
            return False
        self._assign(xform=xform if xform else list(_IDENTITY), ori=ori, **values)
        return True


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
        from klampt._gl_methods import viewport_set_current_GL  # OpenGL: loaded by the first draw
        viewport_set_current_GL(self)

    def drawGL(self, draw_frustum=True, draw_coords=True) -> None:
        """Draws the view's frustum and camera axes in the current OpenGL
        context."""
        from klampt._gl_methods import viewport_drawGL  # OpenGL: loaded by the first draw
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



class free:
    """A camera at a position with Euler angles (rot about y, x, z)."""

    def __init__(self):
        self.pos = [0.0, 0.0, 0.0]
        self.rot = [0.0, 0.0, 0.0]
        self.ori = ['x', '-z', 'y']

    def matrix(self):
        """The camera transform (OpenGL camera axes)."""
        Rz = so3.rotation([0.0, 0.0, 1.0], self.rot[2])
        Rx = so3.rotation([1.0, 0.0, 0.0], self.rot[1])
        Ry = so3.rotation([0.0, 1.0, 0.0], self.rot[0])
        return (so3.mul(so3.mul(Rz, so3.mul(Rx, Ry)), orientation_matrix(*self.ori)), list(self.pos))


class target:
    """A camera at ``pos`` looking at ``tgt`` with ``up`` up."""

    def __init__(self):
        self.pos = [3.0, 0.0, 0.0]
        self.tgt = [0.0, 0.0, 0.0]
        self.up = [0.0, 0.0, 1.0]

    def matrix(self):
        """The camera transform (OpenGL camera axes: x right, y up, -z forward)."""
        back = vectorops.unit(vectorops.sub(self.pos, self.tgt))
        right = vectorops.cross(self.up, back)
        if vectorops.norm(right) < 1e-9:
            right = [1.0, 0.0, 0.0] if abs(back[0]) < 0.9 else [0.0, 1.0, 0.0]
        right = vectorops.unit(right)
        up = vectorops.cross(back, right)
        return (right + up + back, list(self.pos))


def lookat(tgt, pos, up=(0, 0, 1)):
    """A ``target`` camera (convenience)."""
    cam = target()
    cam.tgt, cam.pos, cam.up = list(tgt), list(pos), list(up)
    return cam
