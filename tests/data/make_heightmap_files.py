# Run with the reference python (Klamp't 0.10.1) from tests/data/heightmap_files:
#   python ../make_heightmap_files.py
# Saves two heightmaps as Klamp't 0.10 writes them: a JSON description with
# 8-bit text PGM heights (named .ppm) and a PPM colour image. (0.10.1 cannot
# read these files back: its reader wants binary RGB images.)
import numpy as np
import klampt

hm = klampt.Heightmap()
hm.resize(5, 4)
hm.setSize(2.0, 1.5)
i, j = np.meshgrid(np.arange(5), np.arange(4), indexing='ij')
hm.heights[:] = 0.1 * i + 0.05 * j * j + 0.2
img = np.zeros((4, 5, 3), dtype=np.uint8)
img[0, 0] = [255, 0, 0]
img[3, 4] = [0, 0, 255]
img[1, 2] = [10, 200, 30]
hm.setColorImage_b(img)
vp = hm.viewport
vp.setPose([1, 0, 0, 0, 1, 0, 0, 0, 1], [0.5, -0.25, 0.1])
hm.viewport = vp
assert klampt.Geometry3D(hm).saveFile('ref_ortho.json')

persp = klampt.Heightmap()
persp.resize(4, 3)
persp.setFOV(1.0, 0.8)
persp.heights[:] = 1.0 + 0.25 * np.arange(4)[:, None] + 0.5 * np.arange(3)[None, :]
assert klampt.Geometry3D(persp).saveFile('ref_persp.json')
