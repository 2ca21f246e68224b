"""Motion planning for the demo arm: plan a collision-free path from the arm's
resting pose above the table to a pose reaching down beside it (the straight
motion would sweep through the table), time the path within the arm's
velocity and acceleration limits, and run it in the simulator through the
controller's motion queue, checking that the arm follows the timed path
without touching the table or the objects on it.

Run:  python examples/plan_arm.py
"""
import os
import time

import klampt
from klampt.model.trajectory import HermiteTrajectory
from klampt.plan import motionplanning, robotplanning

HERE = os.path.dirname(os.path.abspath(__file__))
WORLD = os.path.join(HERE, "..", "data", "worlds", "arm_table.xml")
GOAL = [0, -0.6, 1.2, 0.2, 0, 0.8, 0]


def plan_path(world, robot, goal):
    """Plans from the robot's configuration to goal; the path and planning time."""
    motionplanning.set_random_seed(1)
    # The simulator pads bodies by a few millimetres: plan 1 cm clear of them.
    # Getting under the table top is a narrow passage, where bidirectional
    # RRT (shortcutting its path) does better than the default SBL.
    plan = robotplanning.plan_to_config(world, robot, goal, edgeCheckResolution=0.01, collisionMargin=0.01,
                                        type='rrt', perturbationRadius=0.5, bidirectional=1, shortcut=1)
    if plan is None:
        raise RuntimeError("start or goal is infeasible")
    straight = plan.space.isVisible(plan.space.project(robot.getConfig()), plan.space.project(goal))
    t0 = time.perf_counter()
    path = None
    while path is None and time.perf_counter() - t0 < 30:
        plan.planMore(10)
        path = plan.getPath()
    elapsed = time.perf_counter() - t0
    if path is None:
        raise RuntimeError("no path found")
    # More iterations shorten the path (the options shortcut it).
    plan.planMore(200)
    return plan.getPath(), elapsed, straight


def main():
    world = klampt.WorldModel()
    if not world.readFile(WORLD):
        raise IOError("cannot load " + WORLD)
    robot = world.robot(0)
    start = robot.getConfig()
    path, elapsed, straight = plan_path(world, robot, GOAL)
    print("straight motion collision-free: %s" % straight)
    print("planned %d milestones, length %.3f rad, in %.1f ms" % (
        len(path), sum(robot.distance(a, b) for a, b in zip(path[:-1], path[1:])), 1000 * elapsed))
    print("robot configuration unchanged by planning: %s" % (robot.getConfig() == start))

    # Time the path: straight legs, stopping at each milestone, within the
    # arm's velocity and acceleration limits.
    traj = HermiteTrajectory()
    traj.makeMinTimeSpline(path, vmax=robot.getVelocityLimits(), amax=robot.getAccelerationLimits())
    print("timed path: %.2f s" % traj.endTime())

    # Run it: the controller's motion queue makes the same straight moves.
    sim = klampt.Simulator(world)
    controller = sim.controller(robot)
    table = world.terrain("table").getID()
    others = [table] + [world.rigidObject(i).getID() for i in range(world.numRigidObjects())]
    links = [robot.link(i).getID() for i in range(robot.numLinks())]
    for link in links:
        for other in others:
            sim.enableContactFeedback(link, other)
    for q in path[1:]:
        controller.addMilestoneLinear(q)
    print("controller's queued motion: %.2f s" % controller.remainingTime())
    worst, touched, dt = 0.0, False, 0.01
    while controller.remainingTime() > 0 or sim.getTime() < traj.endTime() + 0.5:
        sim.simulate(dt)
        actual = sim.getActualConfig(robot.index)
        wanted = traj.eval(min(sim.getTime(), traj.endTime()))
        worst = max(worst, max(abs(a - b) for a, b in zip(actual, wanted)))
        touched = touched or any(sim.hadContact(link, other) for link in links for other in others)
    final = sim.getActualConfig(robot.index)
    print("simulated %.2f s: max deviation from the timed path %.3f rad, final error %.4f rad" % (
        sim.getTime(), worst, max(abs(a - b) for a, b in zip(final, GOAL))))
    print("arm touched the table or an object: %s" % touched)


if __name__ == "__main__":
    main()
