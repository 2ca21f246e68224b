"""Conversions between Klamp't geometry and the `Open3D
<http://www.open3d.org>`_ library (an optional dependency: ``pip install
open3d``)."""
import numpy as np

try:
    import open3d
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("klampt.io.open3d_convert needs the optional package 'open3d' "
                      "(install it with: pip install open3d)") from exc

from ..robotsim import Geometry3D, PointCloud, TriangleMesh, VolumeGrid
from ..model import geometry


def to_open3d(obj):
    """Converts a PointCloud (points and colors), TriangleMesh or VolumeGrid to
    the corresponding Open3D geometry; a Geometry3D is converted with its
    current transform applied.

    A VolumeGrid with values in [0, 1] is read as an occupancy grid (cells
    above 0.5 are occupied), otherwise as a signed distance field (cells <= 0
    are occupied); the result is a VoxelGrid of the occupied cells.
    """
    if isinstance(obj, PointCloud):
        pc = open3d.geometry.PointCloud()
        pc.points = open3d.utility.Vector3dVector(np.array(obj.getPoints(), dtype=float))
        colors = geometry.point_cloud_colors(obj, ('r', 'g', 'b'))
        if colors is not None:
            pc.colors = open3d.utility.Vector3dVector(np.asarray(colors, dtype=float))
        return pc
    if isinstance(obj, TriangleMesh):
        m = open3d.geometry.TriangleMesh()
        m.vertices = open3d.utility.Vector3dVector(np.array(obj.getVertices(), dtype=float))
        m.triangles = open3d.utility.Vector3iVector(np.array(obj.getIndices(), dtype=np.int32))
        return m
    if isinstance(obj, VolumeGrid):
        bbox = np.array(list(obj.bbox), dtype=float)
        dims = np.array(list(obj.dims))
        cell = (bbox[3:] - bbox[:3]) / dims
        values = np.asarray(obj.getValues())
        occupied = (values > 0.5) if values.min() >= 0 and values.max() <= 1 else (values <= 0)
        centers = (np.argwhere(occupied) + 0.5) * cell + bbox[:3]
        pc = open3d.geometry.PointCloud()
        pc.points = open3d.utility.Vector3dVector(centers)
        return open3d.geometry.VoxelGrid.create_from_point_cloud(pc, float(np.cbrt(np.prod(cell))))
    if isinstance(obj, Geometry3D):
        if obj.type() == 'PointCloud':
            pc = obj.getPointCloud()
            pc.transform(*obj.getCurrentTransform())
            return to_open3d(pc)
        if obj.type() == 'TriangleMesh':
            m = obj.getTriangleMesh()
            m.transform(*obj.getCurrentTransform())
            return to_open3d(m)
        if obj.type() == 'VolumeGrid':
            return to_open3d(obj.getVolumeGrid())
    raise TypeError("Invalid type " + type(obj).__name__)


def from_open3d(obj):
    """Converts an Open3D PointCloud (points and colors, stored as a packed
    ``rgb`` property), TriangleMesh or VoxelGrid (an occupancy VolumeGrid with
    an empty border of one cell) to Klamp't."""
    if isinstance(obj, open3d.geometry.PointCloud):
        pc = PointCloud()
        pc.setPoints(np.asarray(obj.points, dtype=float))
        if obj.has_colors():
            geometry.point_cloud_set_colors(pc, np.asarray(obj.colors), ('r', 'g', 'b'), 'rgb')
        return pc
    if isinstance(obj, open3d.geometry.TriangleMesh):
        m = TriangleMesh()
        m.setVertices(np.asarray(obj.vertices, dtype=float))
        m.setIndices(np.asarray(obj.triangles, dtype=np.int32))
        return m
    if isinstance(obj, open3d.geometry.VoxelGrid):
        occupied = np.array([v.grid_index for v in obj.get_voxels()], dtype=np.int64).reshape(-1, 3)
        imin, imax = occupied.min(axis=0), occupied.max(axis=0)
        values = np.zeros(tuple(imax - imin + 3))
        values[tuple((occupied - imin + 1).T)] = 1.0
        grid = VolumeGrid()
        origin = np.asarray(obj.origin, dtype=float)
        grid.setBounds((origin + (imin - 1) * obj.voxel_size).tolist(), (origin + (imax + 2) * obj.voxel_size).tolist())
        grid.setValues(values)
        return grid
    raise TypeError("Invalid type " + type(obj).__name__)
