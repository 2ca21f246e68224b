"""C-spaces of a robot in contact: a stance, where holds are kept as IK
constraints and the center of mass stays over the support polygon
(:class:`StanceCSpace`), and the transition between two stances
(:class:`TransitionCSpace`).
"""
from .. import TerrainModel, RobotModel  # noqa: F401 (names the reference's module also exposes)
from ..math import vectorops
from ..model import collide, contact
from ..model.contact import ContactPoint, Hold  # noqa: F401 (names the reference's module also exposes)
from .cspaceutils import CompositeCSpace
from .rigidobjectcspace import RigidObjectCSpace  # noqa: F401 (names the reference's module also exposes)
from .robotcspace import ClosedLoopRobotCSpace


class StanceCSpace(ClosedLoopRobotCSpace):
    """Motion keeping holds (IK constraints) with the center of mass inside
    their support polygon (shrunk by ``equilibriumMargin``).

    Args:
        robot (RobotModel): the robot.
        holds (list of Hold): the holds kept.
        collider (WorldCollider, optional): the collider; made from ``world``
            (ignoring the holding links) if not given.
        world (WorldModel, optional): the world, to make the collider.
        checkTorqueLimits (bool): not supported (NotImplementedError).

    Attributes:
        holds, sp (support polygon planes), gravity, equilibriumMargin.
    """

    def __init__(self, robot: RobotModel, holds, collider=None, world=None, checkTorqueLimits=False):
        if collider is None and world is not None:
            collider = collide.WorldCollider(world, ignore=[robot.link(h.link) for h in holds])
        ClosedLoopRobotCSpace.__init__(self, robot, [h.ikConstraint for h in holds], collider)
        self.holds = holds
        self.gravity = (0, 0, -9.8)
        self.sp = contact.support_polygon(holds)
        self.equilibriumMargin = 0.0
        self.addFeasibilityTest(self.testSupportPolygon, "suppPoly")
        if checkTorqueLimits:
            raise NotImplementedError("Torque limit testing")

    def testSupportPolygon(self, q) -> bool:
        """Whether the center of mass at q is inside the support polygon."""
        self.robot.setConfig(q)
        x = self.robot.getCom()
        return all(vectorops.dot(plane[:2], (x[0], x[1])) <= plane[2] - self.equilibriumMargin for plane in self.sp)


class TransitionCSpace(ClosedLoopRobotCSpace):
    """The transition between two stances whose holds differ by one: moving
    with the larger set of holds while balanced on the smaller one."""

    def __init__(self, space1, space2):
        assert isinstance(space1, StanceCSpace)
        assert isinstance(space2, StanceCSpace)
        if len(space1.holds) > len(space2.holds):
            space1, space2 = space2, space1
        self.space1, self.space2 = space1, space2
        ClosedLoopRobotCSpace.__init__(self, space1.robot, [h.ikConstraint for h in space2.holds], space2.collider)
        self.addFeasibilityTest(space1.testSupportPolygon, "suppPoly")


class MultiContactCSpace(CompositeCSpace):
    """A robot and objects in contact, kept stable. Not implemented (as in
    the reference): creating one raises NotImplementedError."""

    def __init__(self, robot, contacts, stabilityTestObjects=None, collider=None):
        raise NotImplementedError("MultiContactCSpace is not implemented (it is not in the reference either)")
