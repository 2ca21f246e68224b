"""``klampt.Viewport``: the plain description of a camera view that the
widget classes use."""
import json

_FIELDS = ('xform', 'f', 'n', 'perspective', 'scale', 'h', 'w', 'x', 'y')


class Viewport:
    """A camera view.

    Attributes:
        perspective (bool): perspective (True) or orthographic projection.
        scale (float): pixels per unit of the image plane at unit distance,
            divided by the view width (1 / (2 tan(xfov / 2)) for perspective).
        x, y, w, h (int): the view's rectangle on the screen, in pixels.
        n, f (float): near and far clipping distances.
        xform (list of 16 floats): the camera's world transform as a
            column-major 4x4 homogeneous matrix (OpenGL camera axes: x right,
            y up, z backward). Empty until set.
    """

    def __init__(self):
        self.perspective = False
        self.scale = 0.0
        self.x = self.y = self.w = self.h = 0
        self.n = self.f = 0.0
        self.xform = []

    def __repr__(self):
        return "<klampt.Viewport %dx%d at (%d, %d)>" % (self.w, self.h, self.x, self.y)

    def setModelviewMatrix(self, M) -> None:
        """Sets ``xform`` to the 16 column-major entries of M (as the
        reference does, the matrix is stored as given)."""
        values = [float(v) for v in M]
        if len(values) != 16:
            raise ValueError("setModelviewMatrix needs 16 values, got %d" % len(values))
        self.xform = values

    def setRigidTransform(self, R, t) -> None:
        """Sets the camera's world transform (R, t)."""
        R = [float(v) for v in R]
        t = [float(v) for v in t]
        if len(R) != 9 or len(t) != 3:
            raise ValueError("setRigidTransform needs a 9-element rotation and a 3-element translation")
        self.xform = R[0:3] + [0.0] + R[3:6] + [0.0] + R[6:9] + [0.0] + t + [1.0]

    def getRigidTransform(self):
        """The camera's world transform (R, t); the identity if ``xform`` was
        never set (the reference crashes)."""
        if len(self.xform) != 16:
            return ([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0])
        m = [float(v) for v in self.xform]
        return (m[0:3] + m[4:7] + m[8:11], m[12:15])

    def toJson(self) -> str:
        """The view as a JSON object string with the attributes as keys."""
        return json.dumps({'xform': list(self.xform), 'f': self.f, 'n': self.n, 'perspective': bool(self.perspective),
                           'scale': self.scale, 'h': self.h, 'w': self.w, 'x': self.x, 'y': self.y})

    def fromJson(self, str: str) -> bool:
        """Reads a view written by :meth:`toJson`; returns False (and leaves
        the view unchanged) if the text is not such an object."""
        try:
            data = json.loads(str)
            if not isinstance(data, dict) or any(k not in data for k in _FIELDS):
                return False
            xform = [float(v) for v in data['xform']]
            values = dict(perspective=bool(data['perspective']), scale=float(data['scale']), x=int(data['x']),
                          y=int(data['y']), w=int(data['w']), h=int(data['h']), n=float(data['n']), f=float(data['f']))
        except (ValueError, TypeError):
            return False
        if len(xform) not in (0, 16):
            return False
        self.xform = xform
        for k, v in values.items():
            setattr(self, k, v)
        return True
