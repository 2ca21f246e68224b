"""The colours of a Heightmap geometry as per-vertex colours of its mesh, for
renderers that draw heightmaps through their triangle mesh."""
import numpy as np


def heightmap_vertex_colors(geom):
    """RGBA in [0, 1] (an N x 4 float32 array) of the vertices of
    ``geom.convert('TriangleMesh')`` for a Heightmap geometry with colours
    (its valid samples in (i, j) order), or None."""
    if geom.type() != 'Heightmap':
        return None
    hm = geom.getHeightmap()
    if not hm.hasColors():
        return None
    heights = np.asarray(hm.heights)
    valid = np.isfinite(heights)
    if hm.viewport.perspective:
        valid &= heights != 0
    image = np.asarray(hm.getColorImage(), dtype=np.float32) / 255.0  # (h, w, channels)
    if image.shape[2] == 1:
        image = np.repeat(image, 3, axis=2)
    if image.shape[2] == 3:
        image = np.concatenate([image, np.ones(image.shape[:2] + (1,), dtype=np.float32)], axis=2)
    return np.ascontiguousarray(image.transpose(1, 0, 2)[valid])
