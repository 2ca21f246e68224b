"""Renders the demo world (data/worlds/arm_table.xml) with POV-Ray from the
camera klampt.vis fits to it, lit by three soft area lights around the
robot plus vis's default directional light: the picture in docs/povray.md.

    python scripts/render_povray_demo.py [output.png] [--size W H]

Needs vapory (pip install vapory) and POV-Ray (apt-get install povray).
"""
import argparse
import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('output', nargs='?', default=os.path.join(REPO, 'docs', 'images', 'povray_arm_table.png'))
    parser.add_argument('--size', nargs=2, type=int, default=(480, 360), metavar=('W', 'H'))
    args = parser.parse_args()

    import klampt
    from klampt import vis
    from klampt.io import povray

    world = klampt.WorldModel()
    if not world.readFile(os.path.join(REPO, 'data', 'worlds', 'arm_table.xml')):
        raise IOError("could not load data/worlds/arm_table.xml")
    vis.resizeWindow(*args.size)
    vis.add('world', world)
    vis.autoFitCamera()

    properties = {}
    povray.add_multiple_lights(properties, world.robot(0), dist=3.0, numLight=3, color=[0.45] * 3, area=0.3,
                               sample=4)
    povray.add_light(properties, [0.5, -4.0, 8.0], color=[0.6] * 3)
    povray.render_to_file(properties, args.output)
    povray.to_povray(vis, world, properties)
    print("wrote", args.output)


if __name__ == '__main__':
    main()
