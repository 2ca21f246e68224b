"""A script in the style of Klamp't 0.9.2 examples: load a world, solve IK for
a collision-free pre-grasp pose above an object, turn a path into a timed
trajectory, and run it on the simulated robot with SimpleSimulator.

Run:  python examples/pick_and_place_style.py [world.xml]
"""
import os
import sys

from klampt import WorldModel
from klampt.model import ik
from klampt.model.collide import WorldCollider
from klampt.model.trajectory import RobotTrajectory, path_to_trajectory
from klampt.sim.simulation import SimpleSimulator

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_WORLD = os.path.join(HERE, "..", "data", "worlds", "arm_table.xml")
TAUGHT_PREGRASP = [0, 0.26, 0.46, 0.71, -0.07, 1.26, -1.0]


def main(path, duration=3.0):
    world = WorldModel()
    if not world.readFile(path):
        sys.exit("could not load " + path)
    robot = world.robot(0)
    ee = robot.link(robot.numLinks() - 1)
    block = world.rigidObject("block")

    # Pre-grasp: the end effector tilted over the block, at a pose recorded
    # from a taught configuration; IK finds a collision-free way to reach it.
    q_start = robot.getConfig()
    robot.setConfig(TAUGHT_PREGRASP)
    goal = ik.objective(ee, R=ee.getTransform()[0], t=ee.getTransform()[1])
    robot.setConfig(q_start)
    print("Pre-grasp target: end effector at (%.3f, %.3f, %.3f), block at (%.3f, %.3f, %.3f)"
          % tuple(list(goal.getPosition()[1]) + list(block.getTransform()[1])))
    collider = WorldCollider(world)

    def collision_free():
        return not any(collider.robotSelfCollisions(robot)) and \
            not any(collider.robotTerrainCollisions(robot)) and not any(collider.robotObjectCollisions(robot))

    if not ik.solve_global(goal, iters=200, tol=1e-4, numRestarts=50, feasibilityCheck=collision_free):
        sys.exit("no collision-free IK solution for the pre-grasp pose")
    q_goal = robot.getConfig()
    print("IK: pre-grasp configuration [%s], residual %.1e"
          % (", ".join("%.2f" % v for v in q_goal), max(abs(e) for e in ik.residual(goal))))
    robot.setConfig(q_start)

    # A timed path respecting the robot's velocity and acceleration limits.
    traj = path_to_trajectory(RobotTrajectory(robot, [0, 1], [q_start, q_goal]),
                              vmax=robot.getVelocityLimits(), amax=robot.getAccelerationLimits(),
                              timing='limited', smoothing='linear')
    traj = RobotTrajectory(robot, traj.times, traj.milestones)
    print("Trajectory: %d milestones over %.2f s" % (len(traj.milestones), traj.duration()))

    sim = SimpleSimulator(world)
    controller = sim.controller(0)
    dt = 0.01
    t = 0.0
    while t < max(duration, traj.duration() + 0.5):
        q = traj.eval(min(t, traj.duration()))
        dq = traj.deriv(min(t, traj.duration())) if t < traj.duration() else [0.0] * len(q)
        controller.setPIDCommand(q, dq)
        sim.simulate(dt)
        t += dt
    sim.updateWorld()
    q_final = sim.getActualConfig(0)
    err = max(abs(a - b) for a, b in zip(q_final, q_goal))
    print("Simulated %.2f s: status '%s', final joint error %.4f rad" % (sim.getTime(), sim.getStatusString(), err))
    print("End effector at (%.3f, %.3f, %.3f), target (%.3f, %.3f, %.3f)"
          % tuple(list(ee.getWorldPosition([0, 0, 0])) + list(goal.getPosition()[1])))
    return err


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_WORLD)
