"""Free-floating moving bases: a fixed-base robot is mounted on a virtual
chain of three prismatic (x, y, z) and three revolute (yaw about z, pitch about
y, roll about x) joints, so that its base can be commanded like any joint."""
from ...robotsim import RobotModel, SimRobotController, WorldModel  # noqa: F401  (Klamp't's module has them)
import os

from klampt.math import so3

from ._robfile import UNIT_CUBE_OFF, load_generated_robot

_IDENTITY = "1 0 0  0 1 0  0 0 1  0 0 0"

_TEMPLATE = """### virtual floating base (tx, ty, tz, rz, ry, rx) carrying a mounted robot
TParent {tparent}
parents -1 0 1 2 3 4
axis 1 0 0  0 1 0  0 0 1  0 0 1  0 1 0  1 0 0
jointtype p p p r r r
qMin -1 -1 -1 -inf -inf -inf
qMax 1 1 1 inf inf inf
q 0 0 0 0 0 0
links "tx" "ty" "tz" "rz" "ry" "rx"
geometry "" "" "" "" "" "base_cube.off"
geomscale 1 1 1 1 1 0.01
mass 0.1 0.1 0.1 0.1 0.1 0.1
com {com}
inertia {inertia}
torqueMax 500 500 500 50 50 50
accMax 4 4 4 4 4 4
velMax 2 2 2 3 3 3
joint normal 0
joint normal 1
joint normal 2
joint spin 3
joint spin 4
joint spin 5
driver normal 0
driver normal 1
driver normal 2
driver normal 3
driver normal 4
driver normal 5
servoP 5000 5000 5000 500 500 500
servoI 10 10 10 .5 .5 .5
servoD 100 100 100 10 10 10
viscousFriction 50 50 50 50 50 50
dryFriction 1 1 1 1 1 1
property sensors <sensors><ForceTorqueSensor name="base_force" link="5" hasForce="1 1 1" hasTorque="1 1 1" /></sensors>
mount 5 "{robotfile}" {identity} as "{robotname}"
"""


def make(robotfile: str, world, tempname: str = "temp.rob", debug=False):
    """Loads the fixed-base robot file ``robotfile`` into ``world`` mounted on a
    6-DOF virtual base and returns the new RobotModel, named
    ``moving-base[<file name>]``.

    The base joints' torque limits are scaled to the robot's weight (5 g m for
    the translations, 5 g times the summed link inertias for the rotations).
    With ``debug`` the resulting robot is saved to ``tempname``.
    """
    robotname = os.path.splitext(os.path.basename(robotfile))[0]
    text = _TEMPLATE.format(tparent=" \\\n".join([_IDENTITY] * 6), com=" ".join(["0 0 0"] * 6),
                            inertia=" ".join(["0.001 0 0 0 0.001 0 0 0 0.001"] * 6),
                            robotfile=os.path.abspath(robotfile), identity=_IDENTITY, robotname=robotname)
    robot = load_generated_robot(world, text, {'base_cube.off': UNIT_CUBE_OFF}, tempname, False)
    masses = [robot.link(i).getMass() for i in range(robot.numLinks())]
    total_mass = sum(m.mass for m in masses)
    inertia = sum(m.mass * sum(c * c for c in m.com) + max(m.inertia) for m in masses)
    tmax = list(robot.getTorqueLimits())
    for i in range(6):
        tmax[i] = 9.8 * 5 * (total_mass if i < 3 else inertia)
    robot.setTorqueLimits(tmax)
    robot.setName("moving-base[" + robotname + "]")
    if debug:
        robot.saveFile(tempname)
    return robot


def _base_config(q, R, t):
    roll, pitch, yaw = so3.rpy(R)
    q = list(q)
    q[0:6] = [t[0], t[1], t[2], yaw, pitch, roll]
    return q


def get_xform(robot):
    """The current base transform (R, t) of a moving-base robot."""
    return robot.link(5).getTransform()


def set_xform(robot, R, t) -> None:
    """Sets the base of a moving-base robot to rotation R and translation t
    (in simulation, command the controller instead)."""
    robot.setConfig(_base_config(robot.getConfig(), R, t))


def send_xform_linear(controller, R, t, dt: float) -> None:
    """Commands a simulated moving-base robot to move its base to (R, t) by
    linear interpolation over ``dt`` seconds."""
    controller.setLinear(_base_config(controller.getCommandedConfig(), R, t), dt)


def send_xform_PID(controller, R, t) -> None:
    """Sets the PID setpoint of a simulated moving-base robot's base to (R, t),
    keeping the commanded velocity."""
    controller.setPIDCommand(_base_config(controller.getCommandedConfig(), R, t),
                             controller.getCommandedVelocity())
