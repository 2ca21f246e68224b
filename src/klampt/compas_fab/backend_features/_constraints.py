"""MoveIt-style constraints on the klampt robot: a goal test and the IK objectives that aim at them.

- ``JointConstraint``: the joint's value lies in ``[value - tolerance_below, value + tolerance_above]``.
- ``PositionConstraint``: the origin of the link lies in the bounding volume (a box or a sphere,
  world frame, meters).
- ``OrientationConstraint``: the rotation from the constraint's orientation (world frame) to the
  link's, as a rotation vector in the constraint's axes (MoveIt's ``ROTATION_VECTOR``
  parameterization), is within ``tolerances`` on each axis.
"""

import math
from typing import List

from compas.geometry import Quaternion, Rotation
from compas_fab.backends import BackendFeatureNotSupportedError
from compas_fab.robots import BoundingVolume, JointConstraint, OrientationConstraint, PositionConstraint

from ...io import compas_fab as convert
from ...math import so3
from ...robotsim import IKObjective

__all__ = ["ConstraintSet"]


def _quaternion_to_so3(q):
    return convert.transformation_to_se3(Rotation.from_quaternion(Quaternion(*q)))[0]


class ConstraintSet:
    """Compiled constraints on ``client``'s robot (link and joint names resolved, volumes checked).

    Raises:
        ValueError: a link or joint the robot does not have, or a non-positive tolerance count.
        BackendFeatureNotSupportedError: a mesh bounding volume or another constraint type.
    """

    def __init__(self, client, constraints):
        self.client = client
        self.joints = []       # (dof, lo, hi, name)
        self.positions = []    # (link index, kind, data)
        self.orientations = []  # (link index, R, tolerances)
        for c in constraints or []:
            if isinstance(c, JointConstraint):
                if c.joint_name not in client.joint_dof:
                    raise ValueError("JointConstraint: '{}' is not a movable joint of the robot".format(c.joint_name))
                self.joints.append((client.joint_dof[c.joint_name], c.value - c.tolerance_below,
                                    c.value + c.tolerance_above, c.joint_name))
            elif isinstance(c, PositionConstraint):
                link = self._link(c)
                bv = c.bounding_volume
                if bv.type == BoundingVolume.BOX:
                    box = bv.volume
                    T = convert.frame_to_se3(box.frame)
                    self.positions.append((link, "box", (T, (box.xsize / 2, box.ysize / 2, box.zsize / 2))))
                elif bv.type == BoundingVolume.SPHERE:
                    sphere = bv.volume
                    self.positions.append((link, "sphere", (list(sphere.frame.point), float(sphere.radius))))
                else:
                    raise BackendFeatureNotSupportedError(
                        "PositionConstraint on '{}': only box and sphere bounding volumes are supported".format(c.link_name))
            elif isinstance(c, OrientationConstraint):
                tol = list(c.tolerances)
                if len(tol) != 3 or any(t < 0 for t in tol):
                    raise ValueError("OrientationConstraint on '{}': tolerances must be 3 values >= 0".format(c.link_name))
                self.orientations.append((self._link(c), _quaternion_to_so3(c.quaternion), tol))
            else:
                raise BackendFeatureNotSupportedError("{} is not supported by the klampt backend".format(type(c).__name__))

    def _link(self, c) -> int:
        if c.link_name not in self.client.link_index:
            raise ValueError("{}: '{}' is not a link of the robot".format(type(c).__name__, c.link_name))
        return self.client.link_index[c.link_name]

    def __bool__(self) -> bool:
        return bool(self.joints or self.positions or self.orientations)

    @property
    def links(self) -> List[int]:
        """The links the position and orientation constraints name."""
        return sorted({p[0] for p in self.positions} | {o[0] for o in self.orientations})

    def violations(self, q=None) -> List[str]:
        """One line per violated constraint with the robot at ``q`` (its current configuration if ``None``)."""
        robot = self.client.robot
        if q is not None:
            robot.setConfig(q)
        q = robot.getConfig()
        out = []
        for dof, lo, hi, name in self.joints:
            if not lo - 1e-12 <= q[dof] <= hi + 1e-12:
                out.append("joint '{}' at {:.6g} outside [{:.6g}, {:.6g}]".format(name, q[dof], lo, hi))
        for link, kind, data in self.positions:
            p = robot.link(link).getTransform()[1]
            if kind == "sphere":
                centre, radius = data
                if math.dist(p, centre) > radius:
                    out.append("link {} origin {:.4g} m from the sphere's centre (radius {:.4g})".format(
                        robot.link(link).getName(), math.dist(p, centre), radius))
            else:
                (R, t), half = data
                local = so3.apply(so3.inv(R), [a - b for a, b in zip(p, t)])
                if any(abs(x) > h for x, h in zip(local, half)):
                    out.append("link {} origin outside the box".format(robot.link(link).getName()))
        for link, R_goal, tol in self.orientations:
            R = robot.link(link).getTransform()[0]
            w = so3.moment(so3.mul(so3.inv(R_goal), R))
            if any(abs(x) > t for x, t in zip(w, tol)):
                out.append("link {} rotation vector {} exceeds {}".format(
                    robot.link(link).getName(), [round(x, 6) for x in w], tol))
        return out

    def satisfied(self, q=None) -> bool:
        """Whether the robot at ``q`` (or as it is) meets every constraint."""
        return not self.violations(q)

    def objectives(self) -> List[IKObjective]:
        """IK objectives at the centre of each constrained region: one per constrained link.

        A sphere or box pins the link origin at its centre; an orientation pins
        the rotation, or only the one axis whose rotation is left free (a
        tolerance of pi or more about it).
        """
        result = []
        for link in self.links:
            obj = IKObjective()
            pos = [d for l_, k, d in self.positions if l_ == link]
            ori = [(R, tol) for l_, R, tol in self.orientations if l_ == link]
            centre = None
            if pos:
                kind = [k for l_, k, d in self.positions if l_ == link][0]
                centre = pos[0][0] if kind == "sphere" else pos[0][0][1]
            if ori:
                R, tol = ori[0]
                free = [i for i in range(3) if tol[i] >= math.pi]
                if centre is not None and len(free) == 0:
                    obj.setFixedTransform(link, R, centre)
                elif len(free) == 0:
                    obj.setFixedRotConstraint(link, R)
                elif len(free) == 1:
                    axis = [0.0, 0.0, 0.0]
                    axis[free[0]] = 1.0
                    if centre is not None:
                        obj.setFixedPoint(link, [0, 0, 0], centre)
                    else:
                        obj.setFixedRotConstraint(link, R)
                    obj.setAxialRotConstraint(axis, so3.apply(R, axis))
                elif centre is not None:
                    obj.setFixedPoint(link, [0, 0, 0], centre)
                else:
                    continue
            else:
                obj.setFixedPoint(link, [0, 0, 0], centre)
            result.append(obj)
        return result
