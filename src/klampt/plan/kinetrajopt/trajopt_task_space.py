"""Task-space constraints (link position, orientation, pose, direction) for
:class:`~klampt.plan.kinetrajopt.KineTrajOpt`, with the derivative of a
rotation vector they linearise with."""
import numpy as np

from klampt import WorldModel  # noqa: F401  (re-exported, as in Klamp't)
import klampt.math.so3 as so3

from .utils import CostInterface, ConstrInterface, MaskedRobot  # noqa: F401  (CostInterface re-exported)

__all__ = ["PoseConstraint", "PositionConstraint", "OrientationConstraint", "DirectionConstraint",
           "MomentDerivative", "Sinc", "Sinc_Dx", "uncross"]


def _check_masked(robot):
    if not isinstance(robot, MaskedRobot):
        raise TypeError("the robot has to be a MaskedRobot, got %r" % (robot,))


def uncross(R):
    """The vector ``[R21 - R12, R02 - R20, R10 - R01]`` of a 3x3 array: twice
    the axial vector of R's antisymmetric part."""
    R = np.asarray(R, dtype=float)
    return [R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]]


def Sinc(x):
    """sin(x)/x, with its limit 1 at 0 (series near 0)."""
    if abs(x) < 1e-4:
        x2 = x * x
        return 1.0 - x2 / 6.0 + x2 * x2 / 120.0
    return np.sin(x) / x


def Sinc_Dx(x):
    """The derivative of :func:`Sinc`, cos(x)/x - sin(x)/x^2 (series near 0)."""
    if abs(x) < 1e-3:
        x2 = x * x
        return x * (-1.0 / 3.0 + x2 / 30.0 - x2 * x2 / 840.0)
    return np.cos(x) / x - np.sin(x) / (x * x)


def MomentDerivative(m, R, z):
    """The rate of change of the rotation vector m of a rotation R that turns
    with angular velocity z (in world coordinates: dR/dt = [z] R).

    This is the inverse left Jacobian of SO(3) at m applied to z,
    ``z - [m]z/2 + (1/t^2 - cot(t/2)/(2t)) [m]^2 z`` with t = |m|, which stays
    finite up to t = pi.

    Args:
        m (array-like): the rotation vector (so3.moment(R)).
        R (array-like): the rotation, a column-major 9-list or a 3x3 array
            (its angle is read from m, which it must match).
        z (array-like): the angular velocity.

    Returns:
        ndarray: dm/dt, 3 entries.
    """
    m = np.asarray(m, dtype=float)
    z = np.asarray(z, dtype=float)
    if np.size(R) != 9:
        raise ValueError("R has to be a rotation (9 entries)")
    t = np.linalg.norm(m)
    mz = np.cross(m, z)
    if t < 1e-6:
        return z - 0.5 * mz
    coef = 1.0 / (t * t) - 0.5 / (t * np.tan(0.5 * t)) if t < np.pi - 1e-9 else 1.0 / (t * t)
    return z - 0.5 * mz + coef * np.cross(m, mz)


def _moment_jacobian(moment, angular_jacobian):
    """d moment / dq from the angular velocity Jacobian."""
    Jinv = np.column_stack([MomentDerivative(moment, so3.identity(), e) for e in np.eye(3)])
    return Jinv.dot(angular_jacobian)


class PoseConstraint(ConstrInterface):
    """Constrains the pose of a robot link's frame: the residual is the
    position error and the rotation vector of R * target_R^T (6 entries).

    Args:
        wrobot (MaskedRobot): the robot.
        linkid (int): the index of the robot link.
        target_pose (se3 element): the target (R, t).
    """

    def __init__(self, wrobot, linkid, target_pose):
        _check_masked(wrobot)
        R, t = target_pose
        self.p0 = np.asarray(t, dtype=float)
        self.target_R = list(R)
        self.robot = wrobot
        self.linkid = int(linkid)
        self.link = wrobot.robot.link(self.linkid)

    def compute(self, x, grad_level=0):
        """The 6 residuals (position, then rotation vector) at configuration x,
        and their Jacobian when grad_level is 1."""
        self.robot.setConfig(x)
        R, p = self.link.getTransform()
        moment = so3.error(R, self.target_R)
        val = np.concatenate((np.asarray(p) - self.p0, moment))
        if grad_level >= 1:
            Jp = self.robot.positionJacobian(self.linkid, lcl_pos=[0, 0, 0])
            Jw = self.robot.orientationJacobian(self.linkid)
            return (val, np.vstack((Jp, _moment_jacobian(moment, Jw))))
        return (val,)


class DirectionConstraint(ConstrInterface):
    """Aligns a direction fixed to a robot link with a world direction: the
    residual is R * lcl_dir - world_dir, both normalised (3 entries).

    Args:
        wrobot (MaskedRobot): the robot.
        linkid (int): the index of the robot link.
        lcl_dir (array-like): the direction in the link's frame.
        world_dir (array-like): the direction it must point to in the world.
    """

    def __init__(self, wrobot, linkid, lcl_dir=[0, 0, 1], world_dir=[0, 0, 1]):
        _check_masked(wrobot)
        self.linkid = int(linkid)
        self.robot = wrobot
        self.link = wrobot.link(self.linkid)
        self.lcl_dir = self._unit(lcl_dir)
        self.world_dir = self._unit(world_dir)

    @staticmethod
    def _unit(v):
        v = np.asarray(v, dtype=float)
        n = np.linalg.norm(v)
        if v.shape != (3,) or n == 0:
            raise ValueError("a direction has to be a nonzero 3-vector, got %r" % (v,))
        return v / n

    def compute(self, x, grad_level=0):
        """The residual R * lcl_dir - world_dir at configuration x, and its
        Jacobian -[R lcl_dir] J_w when grad_level is 1."""
        self.robot.setConfig(x)
        d = np.asarray(so3.apply(self.link.getTransform()[0], self.lcl_dir.tolist()))
        val = d - self.world_dir
        if grad_level >= 1:
            Jw = self.robot.orientationJacobian(self.linkid)
            # d/dt (R l) = w x (R l) = -(R l) x w
            return (val, -np.cross(d[:, None], Jw, axis=0))
        return (val,)


class OrientationConstraint(ConstrInterface):
    """Constrains the orientation of a robot link: the residual is the
    rotation vector of R * R_target^T (3 entries).

    Args:
        robot (MaskedRobot): the robot.
        linkid (int): the index of the robot link.
        R (so3 element): the target rotation.
    """

    def __init__(self, robot, linkid, R):
        _check_masked(robot)
        self.robot = robot
        self.linkid = int(linkid)
        self.link = robot.link(self.linkid)
        self.target_R = list(R)

    def compute(self, x, grad_level=0):
        """The rotation vector error at configuration x, and its Jacobian
        when grad_level is 1."""
        self.robot.setConfig(x)
        moment = so3.error(self.link.getTransform()[0], self.target_R)
        val = np.asarray(moment, dtype=float)
        if grad_level >= 1:
            return (val, _moment_jacobian(moment, self.robot.orientationJacobian(self.linkid)))
        return (val,)


class PositionConstraint(ConstrInterface):
    """Constrains the world position of a point fixed to a robot link: the
    residual is its world position minus world_pos (3 entries).

    Args:
        wrobot (MaskedRobot): the robot.
        linkid (int): the index of the robot link.
        lcl_pos (array-like): the point in the link's frame.
        world_pos (array-like): its target in the world.
    """

    def __init__(self, wrobot, linkid, lcl_pos, world_pos):
        _check_masked(wrobot)
        self.robot = wrobot
        self.linkid = int(linkid)
        self.lcl_pos = [float(v) for v in lcl_pos]
        self.world_pos = [float(v) for v in world_pos]
        if len(self.lcl_pos) != 3 or len(self.world_pos) != 3:
            raise ValueError("lcl_pos and world_pos have to be 3-vectors")
        self.link = wrobot.link(self.linkid)

    def compute(self, x, grad_level=0):
        """The position residual at configuration x, and its Jacobian when
        grad_level is 1."""
        self.robot.setConfig(x)
        val = np.subtract(self.link.getWorldPosition(self.lcl_pos), self.world_pos)
        if grad_level >= 1:
            return (val, self.robot.positionJacobian(self.linkid, lcl_pos=self.lcl_pos))
        return (val,)
