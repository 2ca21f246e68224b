"""The small heightmaps the heightmap tests and their reference recorder
(data/make_heightmap_reference.py) share."""
import numpy as np

import klampt


def ortho_map():
    """A 5 x 4 elevation map over 2 x 1.5 m with heights 0.1 i + 0.05 j^2 + 0.2."""
    hm = klampt.Heightmap()
    hm.resize(5, 4)
    hm.setSize(2.0, 1.5)
    i, j = np.meshgrid(np.arange(5), np.arange(4), indexing="ij")
    hm.heights[:] = 0.1 * i + 0.05 * j * j + 0.2
    return hm


def perspective_map():
    """A 4 x 3 depth map with fields of view 1.0 x 0.8 and depths 1 + 0.25 i + 0.5 j."""
    hm = klampt.Heightmap()
    hm.resize(4, 3)
    hm.setFOV(1.0, 0.8)
    i, j = np.meshgrid(np.arange(4), np.arange(3), indexing="ij")
    hm.heights[:] = 1.0 + 0.25 * i + 0.5 * j
    return hm
