"""The main demo: load a world from the project's data, show what it holds,
move the arm through a few configurations, printing its end-effector pose and
what it collides with, solve inverse kinematics for one of those poses,
simulate the arm pushing a block, and draw the end of the push to demo.png
(klampt.vis renders offscreen on a machine without a display).

Run:  python examples/demo.py [world.xml]
"""
import math
import os
import sys

import klampt
import numpy as np
from klampt.math import so2, so3
from klampt.model import ik
from klampt.model.collide import WorldCollider

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_WORLD = os.path.join(HERE, "..", "data", "worlds", "arm_table.xml")


def describe(world):
    print("World: %d robot(s), %d rigid object(s), %d terrain(s), %d IDs"
          % (world.numRobots(), world.numRigidObjects(), world.numTerrains(), world.numIDs()))
    for i in range(world.numTerrains()):
        t = world.terrain(i)
        lo, hi = t.geometry().getBBTight()
        print("  terrain %-10s id %2d  %-14s bbox z [%.3f, %.3f]" % (t.getName(), t.getID(), t.geometry().type(), lo[2], hi[2]))
    for i in range(world.numRigidObjects()):
        o = world.rigidObject(i)
        R, t = o.getTransform()
        print("  object  %-10s id %2d  mass %.3f kg at (%.3f, %.3f, %.3f)" % (o.getName(), o.getID(), o.getMass().mass, *t))
    for i in range(world.numRobots()):
        r = world.robot(i)
        print("  robot   %-10s id %2d  %d links, %d drivers" % (r.getName(), r.getID(), r.numLinks(), r.numDrivers()))
        for j in range(r.numLinks()):
            link = r.link(j)
            print("    link %d %-12s parent %2d  joint %-7s mass %.2f kg" % (
                j, link.getName(), link.getParent(), r.getJointType(j), link.getMass().mass))


def pose_string(T):
    R, t = T
    # so3.rpy reports roll and yaw in [0, 2pi); show them in (-180, 180].
    roll, pitch, yaw = (math.degrees(so2.normalize(a + math.pi) - math.pi) + 0.0 for a in so3.rpy(R))
    return "position (%.4f, %.4f, %.4f)  rpy (%.1f, %.1f, %.1f) deg" % (t[0], t[1], t[2], roll, pitch, yaw)


def main(path):
    world = klampt.WorldModel()
    if not world.readFile(path):
        sys.exit("could not load " + path)
    describe(world)

    robot = world.robot(0)
    ee = robot.link(robot.numLinks() - 1)
    qmin, qmax = robot.getJointLimits()
    print("\nMoving %s; end effector is link '%s'" % (robot.getName(), ee.getName()))
    home = robot.getConfig()
    waypoints = [home, [0.0] * robot.numLinks()]
    # Halfway to each joint's upper limit, then the same pose mirrored.
    mid = [0.5 * hi if math.isfinite(hi) else 0.0 for hi in qmax]
    waypoints += [mid, [0.5 * lo if math.isfinite(lo) else 0.0 for lo in qmin]]
    # Reaching low over the table: the forearm hits the table's edge.
    waypoints.append([0.0, 0.28, 0.72, 0.39, 0.0, 2.03, 0.0])
    collider = WorldCollider(world)
    for k, q in enumerate(waypoints):
        robot.setConfig(q)
        print("  config %d: q = [%s]" % (k, ", ".join("%.2f" % v for v in q)))
        print("           end effector %s" % pose_string(ee.getTransform()))
        hits = ["%s-%s" % (a.getName(), b.getName()) for a, b in collider.robotTerrainCollisions(robot)]
        hits += ["%s-%s" % (a.getName(), b.getName()) for a, b in collider.robotObjectCollisions(robot)]
        print("           collisions with the environment: %s" % (", ".join(hits) if hits else "none"))
    # A smooth path between two of them, with the configuration-space distance.
    a, b = waypoints[2], waypoints[3]
    print("\nInterpolating over %.3f rad of joint motion:" % robot.distance(a, b))
    for u in (0.0, 0.25, 0.5, 0.75, 1.0):
        robot.setConfig(robot.interpolate(a, b, u))
        p = ee.getWorldPosition([0, 0, 0])
        print("  u = %.2f  end effector at (%.4f, %.4f, %.4f)" % (u, *p))
    J = ee.getJacobian([0, 0, 0])
    print("\nJacobian of the end effector at the last pose: %d x %d, rank %d"
          % (J.shape[0], J.shape[1], np.linalg.matrix_rank(J)))
    print("Center of mass: (%.4f, %.4f, %.4f)" % tuple(robot.getCom()))

    # Inverse kinematics: bring the end effector back to the pose it had at
    # config 2 (reachable by construction), from the current configuration.
    robot.setConfig(waypoints[2])
    R, t = ee.getTransform()
    robot.setConfig(waypoints[3])
    goal = ik.objective(ee, R=R, t=t)
    klampt.set_random_seed(0)
    solved = ik.solve_global(goal, tol=1e-6, numRestarts=20)
    residual = max(abs(e) for e in ik.residual(goal))
    print("\nIK to the config-2 pose: %s, max residual %.2e" % ("solved" if solved else "failed", residual))
    print("  q = [%s]" % ", ".join("%.2f" % v for v in robot.getConfig()))

    world = push_block(path)
    if world is not None:
        save_picture(world, "demo.png")


def push_block(path):
    """Physics simulation on a fresh copy of the world: the arm moves its
    flange beside the block on the table, then sweeps through it, pushing it
    along y. Returns the world as the simulation left it (None if it has no
    robot or no block)."""
    world = klampt.WorldModel()
    if not world.readFile(path) or world.numRobots() == 0:
        return None
    robot = world.robot(0)
    ee = robot.link(robot.numLinks() - 1)
    block = world.rigidObject("block")
    if block.index < 0:
        return None
    sim = klampt.Simulator(world)
    controller = sim.controller(robot)
    sim.simulate(0.3)  # let the objects settle on the table
    start = block.getTransform()[1]
    print("\nSimulating: pushing the block from (%.3f, %.3f, %.3f)" % tuple(start))

    def reach(point):
        robot.setConfig(sim.getActualConfig(robot.index))
        klampt.set_random_seed(0)
        ik.solve_global(ik.objective(ee, local=[0, 0, 0], world=point), tol=1e-4, numRestarts=20)
        return robot.getConfig()

    x, y, z = start
    for point in ([x, y - 0.08, z + 0.03], [x, y + 0.12, z + 0.03]):
        controller.setMilestone(reach(point))
        sim.simulate(controller.remainingTime() + 0.5)
    R, t = block.getTransform()
    print("  after %.2f s (status: %s) the block is at %s, moved %.3f m"
          % (sim.getTime(), sim.getStatusString(), pose_string((R, t)), math.dist(start, t)))
    sim.updateWorld()
    return world


def save_picture(world, out):
    """Draws the world with klampt.vis, framed by autoFitCamera, to the PNG
    file ``out`` (a note instead when PyOpenGL or OpenGL is missing)."""
    try:
        from klampt import vis
        vis.add("world", world)
        vis.autoFitCamera()
        vis.screenshot("Image").save(out)
        vis.kill()
    except (ImportError, RuntimeError) as e:
        print("\nNo picture (pip install klampt[vis] draws one): %s" % e)
        return
    print("\nThe end of the push, drawn by klampt.vis: %s" % os.path.abspath(out))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_WORLD)
