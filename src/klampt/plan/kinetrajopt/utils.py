"""Cost and constraint interfaces of :class:`~klampt.plan.kinetrajopt.KineTrajOpt`,
the container that places constraints on a trajectory's points, and the
masked views of a robot (only some joints optimised) and of a world (only
some terrains are obstacles)."""
import numpy as np

__all__ = ["CostInterface", "ConstrInterface", "ConstrContainer", "JointLimitsConstr", "MaskedRobot",
           "MaskedTerrain"]


class CostInterface(object):
    """Abstract base class of a cost f(x) of the flattened trajectory.
    A subclass implements :meth:`compute`."""

    def compute(self, x, grad_level=0):
        """Evaluates the cost and, depending on grad_level, its derivatives.

        Args:
            x (ndarray): the evaluation point.
            grad_level (int, optional): 0 for the cost only, 1 for the
                gradient too, 2 for the gradient and the Hessian.

        Returns:
            tuple: ``(cost,)``, ``(cost, gradient)`` or
            ``(cost, gradient, hessian)`` according to grad_level.
        """
        raise NotImplementedError("Sub-class has to implement function compute")


class ConstrInterface(object):
    """Abstract base class of a vector constraint function g(x) of one
    configuration.  A subclass implements :meth:`compute`.  Whether g is an
    equality (g(x) = 0) or an inequality (g(x) <= 0) is decided by how it is
    added to a :class:`ConstrContainer`."""

    def compute(self, x, grad_level=0):
        """Evaluates the constraint and, for grad_level 1, its Jacobian.

        Args:
            x (ndarray): the configuration (of the optimised joints).
            grad_level (int, optional): 0 for the value only, 1 for the
                Jacobian too.

        Returns:
            tuple: ``(g(x),)`` as a 1-D array, or ``(g(x), dg/dx)`` with a
            2-D Jacobian (one row per entry of g) when grad_level is 1.
        """
        raise NotImplementedError("Sub-class has to implement function compute.")


class ConstrContainer(object):
    """The constraints of a trajectory, each attached to one of its points.

    Args:
        eqs (list, optional): (index, constraint) pairs that must be zero.
        ineqs (list, optional): (index, constraint) pairs that must be <= 0.

    An index is a point of the trajectory (negative counts from the end) or
    None for every point.
    """

    def __init__(self, eqs=None, ineqs=None):
        self.eqs = list(eqs) if eqs is not None else []
        self.ineqs = list(ineqs) if ineqs is not None else []

    @staticmethod
    def _check(index, constr):
        if not isinstance(constr, ConstrInterface):
            raise TypeError("constraint has to be a subclass of ConstrInterface, got %r" % (constr,))
        if index is not None and not isinstance(index, (int, np.integer)):
            raise TypeError("index has to be an int or None, got %r" % (index,))

    def add_eq(self, index, constr):
        """Adds the equality constraint constr(q) = 0 at point index of the
        trajectory (negative from the end; None for every point)."""
        self._check(index, constr)
        self.eqs.append((index, constr))

    def add_ineq(self, index, constr):
        """Adds the inequality constraint constr(q) <= 0 at point index of
        the trajectory (negative from the end; None for every point)."""
        self._check(index, constr)
        self.ineqs.append((index, constr))

    def merge(self, container):
        """Adds every constraint of another ConstrContainer to this one."""
        if not isinstance(container, ConstrContainer):
            raise TypeError("can only merge a ConstrContainer, got %r" % (container,))
        self.eqs += container.eqs
        self.ineqs += container.ineqs


class JointLimitsConstr(ConstrInterface):
    """The joint limits qmin <= q <= qmax as the inequality
    ``[qmin - q, q - qmax] <= 0``."""

    def __init__(self, qmin, qmax):
        self.qmin = np.asarray(qmin, dtype=float)
        self.qmax = np.asarray(qmax, dtype=float)
        if self.qmin.shape != self.qmax.shape:
            raise ValueError("qmin and qmax have different sizes")

    def compute(self, x, grad_level=0):
        """Returns ``([qmin - x, x - qmax],)``, with the Jacobian
        ``[-I; I]`` when grad_level is 1."""
        x = np.asarray(x, dtype=float)
        val = np.concatenate((self.qmin - x, x - self.qmax))
        if grad_level >= 1:
            eye = np.eye(len(self.qmin))
            return (val, np.vstack((-eye, eye)))
        return (val,)


class MaskedRobot(object):
    """A robot of which only the joints in `index` are set; the others keep
    the configuration the robot had when the mask was made.

    Args:
        robot (RobotModel): the robot.
        index (array-like): the indices of the active joints (links).
    """

    def __init__(self, robot, index):
        self.robot = robot
        self.index = np.asarray(index, dtype=int)
        self._config = np.array(robot.getConfig(), dtype=float)

    def __len__(self):
        return len(self.index)

    def setConfig(self, config):
        """Sets the active joints to config (the others as masked)."""
        self._config[self.index] = config
        self.robot.setConfig(self._config.tolist())

    def positionJacobian(self, linkid, config=None, lcl_pos=[0, 0, 0]):
        """The 3 x len(self) Jacobian of the world position of the local
        point lcl_pos of robot link linkid with respect to the active joints,
        at config (or at the robot's current configuration when None)."""
        if config is not None:
            self.setConfig(config)
        jac = np.array(self.robot.link(int(linkid)).getPositionJacobian(list(lcl_pos)))
        return jac[:, self.index]

    def orientationJacobian(self, linkid, config=None):
        """The 3 x len(self) Jacobian of the angular velocity of robot link
        linkid with respect to the active joints, at config (or at the
        robot's current configuration when None)."""
        if config is not None:
            self.setConfig(config)
        jac = np.array(self.robot.link(int(linkid)).getOrientationJacobian())
        return jac[:, self.index]

    def numLink(self):
        """The number of active joints."""
        return len(self.index)

    def link_masked(self, num):
        """The robot link of the num'th active joint."""
        return self.robot.link(int(self.index[num]))

    def link(self, num):
        """The robot link of index num (unmasked)."""
        return self.robot.link(int(num))


class MaskedTerrain(object):
    """The terrains of a world that are obstacles.

    Args:
        world (WorldModel): the world.
        index (array-like): the indices of the terrains considered.
    """

    def __init__(self, world, index):
        self.world = world
        self.index = np.asarray(index, dtype=int)

    def __len__(self):
        return len(self.index)

    def terrain(self, num):
        """The num'th considered terrain."""
        return self.world.terrain(int(self.index[num]))

    def terrain_unmasked(self, num):
        """The world's terrain of index num."""
        return self.world.terrain(int(num))
