"""Renders the demo world to a PNG, with or without a display: klampt.vis
picks the offscreen renderer (EGL) on a headless machine.

Run:  python examples/vis_screenshot.py [world.xml] [out.png]
"""
import os
import sys

import klampt
from klampt import vis

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_WORLD = os.path.join(HERE, "..", "data", "worlds", "arm_table.xml")


def main(world_file=DEFAULT_WORLD, out="vis_demo.png"):
    world = klampt.WorldModel()
    if not world.readFile(world_file):
        raise IOError("could not read " + world_file)
    vis.add("world", world)
    robot = world.robot(0)
    ee = robot.link(robot.numLinks() - 1)
    vis.add("end effector", ee.getTransform(), length=0.15)
    vis.addText("title", "%s: %d links" % (robot.getName(), robot.numLinks()), position=(10, 10))
    vis.autoFitCamera()
    image = vis.screenshot("Image")
    image.save(out)
    print("wrote %s (%dx%d)" % (out, image.size[0], image.size[1]))
    vis.kill()


if __name__ == "__main__":
    main(*sys.argv[1:3])
