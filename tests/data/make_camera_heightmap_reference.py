# Run with the reference python (Klamp't 0.10.1) from this folder:
#   KLAMPT_DATA_DIR=... python make_camera_heightmap_reference.py camera_heightmap_reference.json
# Records a camera sensor's 0.10 intrinsics settings and the Heightmap that
# sensing.camera_to_points(camera, 'Heightmap') builds from its depth image:
# sensortest.xml's camera moved to look down on the robot from 3 m, without
# depth noise, its vertical field of view matching the horizontal one (square
# pixels).
import json
import math
import os
import sys

import numpy as np
import klampt
from klampt.model import sensing

DATA = os.environ.get("KLAMPT_DATA_DIR", os.path.join("..", "..", "..", "shared", "klampt-data"))
XRES, YRES, XFOV = 64, 48, 1.05
POSE = "1 0 0 0 -1 0 0 0 -1  0.3 0 3.0"


def camera(sim):
    cam = sim.controller(0).sensor("rgbd_camera")
    for key, value in [("link", "-1"), ("Tsensor", POSE), ("xres", str(XRES)), ("yres", str(YRES)),
                       ("xfov", str(XFOV)), ("yfov", repr(2 * math.atan(math.tan(0.5 * XFOV) * YRES / XRES))),
                       ("zresolution", "0"), ("zvarianceLinear", "0"), ("zvarianceConstant", "0")]:
        cam.setSetting(key, value)
    return cam


world = klampt.WorldModel()
os.chdir(os.path.join(DATA, "simulation_test_worlds"))
world.readFile("sensortest.xml")
sim = klampt.Simulator(world)
cam = camera(sim)
sim.simulate(0.01)
hm = sensing.camera_to_points(cam, "Heightmap")
vp = hm.viewport
bb = klampt.Geometry3D(hm).getBB()
out = {
    "settings": {k: float(cam.getSetting(k)) for k in ("fx", "fy", "cx", "cy", "xfov", "yfov", "zmax")},
    "pose": POSE, "xres": XRES, "yres": YRES, "xfov": XFOV,
    "viewport": {"w": vp.w, "h": vp.h, "perspective": bool(vp.perspective),
                 "fx": vp.fx, "fy": vp.fy, "cx": vp.cx, "cy": vp.cy},
    "height_image": np.asarray(hm.getHeightImage(), dtype=float).round(5).tolist(),
    "has_colors": bool(hm.hasColors()),
    "bb": [list(bb[0]), list(bb[1])],
}
json.dump(out, open(sys.argv[1], "w"), indent=0)
