"""Camera models of ``klampt.vis``: ``orbit`` (target, distance and Euler
angles), and ``free`` and ``target`` cameras."""

from klampt.math import so3, vectorops
from klampt.model._glviewport import orbit, orientation_matrix  # noqa: F401
from klampt.model._glviewport import _BASIS as basis_vectors  # noqa: F401  (the axis names orientation_matrix takes)


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


__all__ = ['orbit', 'free', 'target', 'lookat']
