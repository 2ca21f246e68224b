"""``set_robot_cell``: builds the klampt world of a COMPAS FAB robot cell."""

from typing import Optional

from compas_fab.backends.interfaces import SetRobotCell
from compas_fab.robots import RobotCell

from ._options import check_options

__all__ = ["KlamptSetRobotCell"]


class KlamptSetRobotCell(SetRobotCell):
    """Mixin: ``set_robot_cell`` for the klampt backend."""

    def set_robot_cell(self, robot_cell: RobotCell, robot_cell_state=None, options: Optional[dict] = None):
        """Loads the robot, tools and rigid bodies of ``robot_cell`` into a fresh klampt world.

        The cell is kept by reference (``client.robot_cell is robot_cell``).
        Links, tools and bodies without loaded collision geometry take part
        in forward and inverse kinematics but never collide. Every mesh's
        collision hierarchy is built here, so that the first collision query
        is as fast as the others. With ``robot_cell_state``, also calls
        :meth:`set_robot_cell_state`. ``options`` takes none (as PyBullet's).

        Raises:
            TypeError: ``robot_cell`` is not a ``RobotCell``.
            ValueError: an option.
        """
        check_options(options, (), "set_robot_cell")
        if not isinstance(robot_cell, RobotCell):
            raise TypeError("robot_cell should be an instance of RobotCell instead of: {}".format(type(robot_cell).__name__))
        client = self.client
        client._build(robot_cell)
        client._robot_cell = robot_cell
        client._robot_cell_state = None
        if robot_cell_state is not None:
            self.set_robot_cell_state(robot_cell_state)
