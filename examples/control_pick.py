"""Drive the demo arm through a pick motion with the Robot Interface Layer:
a RobotInterfaceCompleter over a position-controlled simulated arm emulates
smooth joint moves, straight-line Cartesian moves and Cartesian velocity
from plain position commands.  Each phase prints how closely the simulated
arm tracked the commands.

Phases: go to a pre-grasp pose above the block, descend 8 cm in a straight
line, close (wait), lift at 5 cm/s, return home.

Run:  python examples/control_pick.py [world.xml]
"""
import os
import sys

from klampt import Simulator, WorldModel
from klampt.control.robotinterfaceutils import RobotInterfaceCompleter, StepContext
from klampt.control.simrobotinterface import SimPositionControlInterface
from klampt.math import vectorops

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_WORLD = os.path.join(HERE, "..", "data", "worlds", "arm_table.xml")
#: A taught configuration (link space) with the flange tilted over the block.
TAUGHT_PREGRASP = [0, 0.26, 0.46, 0.71, -0.07, 1.26, -1.0]


class Tracker:
    """Tracking errors of one phase: joints (sensed vs commanded, rad) and
    the tool point (sensed vs commanded, m)."""

    def __init__(self, name):
        self.name = name
        self.joint = 0.0
        self.tool = 0.0
        self.steps = 0

    def update(self, controller):
        qs, qc = controller.sensedPosition(), controller.commandedPosition()
        self.joint = max(self.joint, max(abs(a - b) for a, b in zip(qs, qc)))
        ts = controller.sensedCartesianPosition()[1]
        tc = controller.commandedCartesianPosition()[1]
        self.tool = max(self.tool, vectorops.distance(ts, tc))
        self.steps += 1


def run_phase(controller, name, command, extra_time=0.0, duration=None):
    """Issues command() in one step, then steps until the motion ends (or
    for duration seconds) plus extra_time; returns the phase's Tracker."""
    tracker = Tracker(name)
    with StepContext(controller):
        command()
        t0 = controller.clock()
    end = None
    while True:
        with StepContext(controller):
            t = controller.clock()
            tracker.update(controller)
            if end is None and (duration is None and not controller.isMoving()
                                or duration is not None and t - t0 >= duration):
                end = t
            if end is not None and t - end >= extra_time:
                break
            if t - t0 > 20:
                raise RuntimeError("phase %s did not finish" % name)
    tool = controller.commandedCartesianPosition()[1]
    print("%-10s %5.2f s  max joint error %.4f rad  max tool error %.1f mm  tool at (%.3f, %.3f, %.3f)"
          % (name, t - t0, tracker.joint, tracker.tool * 1000, *tool))
    return tracker


def main(path):
    world = WorldModel()
    if not world.readFile(path):
        sys.exit("could not load " + path)
    robot = world.robot(0)
    sim = Simulator(world)
    controller = RobotInterfaceCompleter(SimPositionControlInterface(sim.controller(0), sim))
    if not controller.initialize():
        sys.exit("could not initialize the controller")
    controller.setToolCoordinates([0, 0, 0])
    home = controller.configFromKlampt(robot.getConfig())

    # the pre-grasp pose: where the taught configuration puts the flange
    model = controller.klamptModel()
    pregrasp = controller.cartesianPosition(controller.configFromKlampt(TAUGHT_PREGRASP))
    grasp = (pregrasp[0], vectorops.add(pregrasp[1], [0, 0, -0.08]))
    print("Pick with %s (%d joints at %g Hz) on %s" % (model.getName(), controller.numJoints(),
                                                       controller.controlRate(), type(controller._base).__name__))
    trackers = [
        run_phase(controller, 'pre-grasp', lambda: controller.moveToCartesianPosition(pregrasp), extra_time=0.3),
        run_phase(controller, 'descend', lambda: controller.moveToCartesianPositionLinear(grasp, speed=0.5),
                  extra_time=0.3),
        run_phase(controller, 'close', lambda: None, duration=0.5),
        run_phase(controller, 'lift', lambda: controller.setCartesianVelocity(([0, 0, 0], [0, 0, 0.05]), 1.6),
                  extra_time=0.3),
        run_phase(controller, 'home', lambda: controller.moveToPosition(home), extra_time=0.5),
    ]
    with StepContext(controller):
        final = controller.sensedPosition()
        status = controller.status()
    print("Overall: max joint tracking error %.4f rad, max tool tracking error %.1f mm"
          % (max(t.joint for t in trackers), max(t.tool for t in trackers) * 1000))
    print("Final distance from home %.4f rad, status %s" % (max(abs(a - b) for a, b in zip(final, home)), status))
    controller.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_WORLD)
