"""Loading a robot described by generated .rob text: the text and the mesh
files it names are written to a temporary directory that is removed after
loading (or kept, under the caller's chosen name, for debugging)."""
import os
import shutil
import tempfile

UNIT_CUBE_OFF = """OFF
8 12 0
0 0 0
0 0 1
0 1 0
0 1 1
1 0 0
1 0 1
1 1 0
1 1 1
3 0 1 3
3 0 3 2
3 4 6 7
3 4 7 5
3 0 4 5
3 0 5 1
3 2 3 7
3 2 7 6
3 0 2 6
3 0 6 4
3 1 5 7
3 1 7 3
"""


def load_generated_robot(world, rob_text, meshes, tempname, debug):
    """Loads ``rob_text`` (whose geometry entries name the files in ``meshes``,
    a dict file name -> contents) into ``world`` and returns the new robot.
    With ``debug`` the robot is saved to ``tempname`` afterwards."""
    folder = tempfile.mkdtemp(prefix='klampt_robot_')
    try:
        for filename, contents in meshes.items():
            with open(os.path.join(folder, filename), 'w') as f:
                f.write(contents)
        path = os.path.join(folder, os.path.basename(tempname) or 'temp.rob')
        with open(path, 'w') as f:
            f.write(rob_text)
        if world.loadElement(path) < 0:
            raise IOError("could not load the generated robot file")
        robot = world.robot(world.numRobots() - 1)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if debug:
        robot.saveFile(tempname)
    return robot
