"""Geometry utilities: plane fitting and point-set alignment, point cloud
normals, colors and simplification, triangle and vertex normals, merging
geometries and sampling surfaces.

:func:`box` and :func:`sphere` are :mod:`klampt.model.create.primitives`'s.
"""
import math
from typing import Sequence, Tuple, Union

import numpy as np

from klampt.robotsim import Geometry3D, PointCloud, TriangleMesh
from klampt.math import so3, se3
from .create import primitives

box = primitives.box
"""Alias of :func:`klampt.model.create.primitives.box`."""

sphere = primitives.sphere
"""Alias of :func:`klampt.model.create.primitives.sphere`."""

Vector3 = Sequence[float]


class PlaneFitter:
    """Least-squares plane through a growing set of 3D points.

    Attributes:
        normal (ndarray): unit normal of the best-fit plane.
        centroid (ndarray): mean of the points.
        count (int): number of points.
        sse (float): sum of squared distances of the points to the plane.
        cov (3x3 ndarray): covariance of the points (normalised by count).
    """

    def __init__(self, points=None):
        if points is None or len(points) == 0:
            self.count = 0
            self.centroid = np.zeros(3)
            self.cov = np.zeros((3, 3))
            self.normal = np.array([0.0, 0.0, 1.0])
            self.sse = 0.0
            return
        pts = np.asarray(points, dtype=float)
        self.count = len(pts)
        self.centroid = pts.mean(axis=0)
        rel = pts - self.centroid
        self.cov = rel.T @ rel / self.count
        self._update_plane()

    def plane_equation(self):
        """Returns (a, b, c, d) with a x + b y + c z + d = 0 the plane."""
        n = self.normal
        return (n[0], n[1], n[2], -float(np.dot(self.centroid, n)))

    def goodness_of_fit(self):
        """Root mean squared distance to the plane corrected for the three
        fitted parameters (inf with 3 points or fewer)."""
        if self.count <= 3:
            return float('inf')
        return math.sqrt(self.sse * self.count / (self.count - 3))

    def _second_moment(self):
        return (self.cov + np.outer(self.centroid, self.centroid)) * self.count

    def add_point(self, pt):
        """Adds one point and updates the plane."""
        pt = np.asarray(pt, dtype=float)
        moment = self._second_moment() + np.outer(pt, pt)
        self.count += 1
        self.centroid = self.centroid + (pt - self.centroid) / self.count
        self.cov = moment / self.count - np.outer(self.centroid, self.centroid)
        self._update_plane()

    def merge(self, fitter, inplace=False):
        """Combines the points of this fitter and ``fitter``; returns a new
        fitter, or updates this one if ``inplace``."""
        res = self if inplace else PlaneFitter()
        count = self.count + fitter.count
        centroid = (self.centroid * self.count + fitter.centroid * fitter.count) / count
        moment = self._second_moment() + fitter._second_moment()
        res.count = count
        res.centroid = centroid
        res.cov = moment / count - np.outer(centroid, centroid)
        res._update_plane()
        return res

    def distance(self, pt):
        """Signed distance of ``pt`` to the plane."""
        return float(np.dot(self.normal, np.asarray(pt, dtype=float) - self.centroid))

    def _update_plane(self):
        eigenvalues, eigenvectors = np.linalg.eigh(self.cov)
        self.normal = eigenvectors[:, 0]
        self.sse = self.count * float(self.normal @ self.cov @ self.normal)


def _as_point_cloud(pc, caller):
    if isinstance(pc, Geometry3D):
        if pc.type() != 'PointCloud':
            raise ValueError(caller + " needs a PointCloud geometry, got " + repr(pc.type()))
        return pc.getPointCloud()
    if not isinstance(pc, PointCloud):
        raise TypeError(caller + " needs a PointCloud or Geometry3D")
    return pc


def _as_triangle_mesh(mesh, caller):
    if isinstance(mesh, Geometry3D):
        if mesh.type() != 'TriangleMesh':
            raise ValueError(caller + " needs a TriangleMesh geometry, got " + repr(mesh.type()))
        return mesh.getTriangleMesh()
    if not isinstance(mesh, TriangleMesh):
        raise TypeError(caller + " needs a TriangleMesh or Geometry3D")
    return mesh


def _simplified_cloud(cloud: PointCloud, radius: float) -> PointCloud:
    points = np.array(cloud.getPoints(), dtype=float)
    result = PointCloud()
    if len(points) == 0:
        return result
    props = np.array(cloud.getAllProperties(), dtype=float).reshape(len(points), -1)
    cells = np.floor(points / radius).astype(np.int64)
    _, cell_of_point, counts = np.unique(cells, axis=0, return_inverse=True, return_counts=True)
    cell_of_point = cell_of_point.ravel()

    def cell_means(values):
        sums = np.zeros((len(counts), values.shape[1]))
        np.add.at(sums, cell_of_point, values)
        return sums / counts[:, None]

    result.setPoints(cell_means(points))
    means = cell_means(props)
    for k, name in enumerate(cloud.propertyNames):
        result.addProperty(name, means[:, k])
    return result


def point_cloud_simplify(pc: Union[Geometry3D, PointCloud], radius: float) -> Union[Geometry3D, PointCloud]:
    """Simplifies a point cloud by replacing the points of each cell of a grid
    of cell size ``radius`` by their average (properties are averaged too);
    returns the same kind of object it is given (a Geometry3D keeps its
    current transform)."""
    if radius <= 0:
        raise ValueError("radius must be > 0")
    simplified = _simplified_cloud(_as_point_cloud(pc, "point_cloud_simplify"), radius)
    if isinstance(pc, Geometry3D):
        geom = Geometry3D(simplified)
        geom.setCurrentTransform(*pc.getCurrentTransform())
        return geom
    return simplified


_NORMAL_PROPERTIES = ('normal_x', 'normal_y', 'normal_z')


def _plane_normal_or_zero(points):
    try:
        return fit_plane_centroid(points)[1]
    except ValueError:
        return [0.0, 0.0, 0.0]


def point_cloud_normals(pc: Union[Geometry3D, PointCloud], estimation_radius=None, estimation_knn=None,
                        estimation_viewpoint=None, add=True) -> np.ndarray:
    """Returns the N x 3 normals of a point cloud: its ``normal_x``,
    ``normal_y``, ``normal_z`` properties if present, otherwise normals of
    planes fitted to neighbourhoods of each point.

    Args:
        estimation_radius (float, optional): neighbours within this distance
            are used. When neither it nor ``estimation_knn`` is given, it is
            3 * (largest extent of the cloud) / sqrt(N).
        estimation_knn (int, optional): with no radius, the k nearest
            neighbours are used; with a radius, the minimum number of
            neighbours (at least 4). Points without enough neighbours, or
            whose neighbours are collinear, get a zero normal.
        estimation_viewpoint (3-vector, optional): normals are oriented to
            point toward this point (e.g. the sensor that saw the cloud);
            without it they point away from the cloud's centroid.
        add (bool): store the estimated normals as the three normal properties.
    """
    from scipy.spatial import cKDTree

    geom = pc if isinstance(pc, Geometry3D) else None
    cloud = _as_point_cloud(pc, "point_cloud_normals")
    names = list(cloud.propertyNames)
    present = [n in names for n in _NORMAL_PROPERTIES]
    if all(present):
        return np.column_stack([cloud.getProperties(names.index(n)) for n in _NORMAL_PROPERTIES])
    if any(present):
        raise ValueError("Point cloud has some normal components but not all of them")
    positions = np.array(cloud.getPoints(), dtype=float)
    n = len(positions)
    if n == 0:
        return np.zeros((0, 3))
    if estimation_radius is None and estimation_knn is None:
        extent = float(np.max(positions.max(axis=0) - positions.min(axis=0)))
        estimation_radius = 3.0 * extent / math.sqrt(n)
    min_neighbours = max(4, estimation_knn or 4)
    tree = cKDTree(positions)
    normals = np.zeros((n, 3))
    if estimation_radius is not None:
        for i, neighbours in enumerate(tree.query_ball_point(positions, estimation_radius)):
            if len(neighbours) >= min_neighbours:
                normals[i] = _plane_normal_or_zero(positions[neighbours])
    else:
        k = min(min_neighbours, n)
        _, neighbours = tree.query(positions, k)
        for i, idx in enumerate(np.atleast_2d(neighbours)):
            normals[i] = _plane_normal_or_zero(positions[idx])
    if estimation_viewpoint is not None:
        flip = np.einsum('ij,ij->i', normals, np.asarray(estimation_viewpoint, dtype=float) - positions) < 0
    else:
        flip = np.einsum('ij,ij->i', normals, positions - positions.mean(axis=0)) < 0
    normals[flip] *= -1
    if add:
        for k, name in enumerate(_NORMAL_PROPERTIES):
            cloud.addProperty(name, normals[:, k])
        if geom is not None:
            geom.setPointCloud(cloud)
    return normals


def fit_plane3(point1: Vector3, point2: Vector3, point3: Vector3) -> Tuple[float, float, float, float]:
    """Returns the plane (a, b, c, d), a x + b y + c z + d = 0 with a unit
    normal along (p2 - p1) x (p3 - p1), through three points.

    Raises:
        ValueError: if the points are (nearly) collinear.
    """
    p1, p2, p3 = (np.asarray(p, dtype=float) for p in (point1, point2, point3))
    normal = np.cross(p2 - p1, p3 - p1)
    length = np.linalg.norm(normal)
    if length < 1e-4:
        raise ValueError("Points are degenerate")
    normal /= length
    return (float(normal[0]), float(normal[1]), float(normal[2]), -float(np.dot(normal, p1)))


def fit_plane_centroid(points: Sequence[Vector3]) -> Tuple[list, list]:
    """Least-squares plane through three or more points as a pair
    (centroid, unit normal).

    Raises:
        ValueError: with fewer than 3 points or (nearly) collinear points.
    """
    if len(points) < 3:
        raise ValueError("Need to have at least 3 points to fit a plane")
    pts = np.asarray(points, dtype=float)
    centroid = pts.mean(axis=0)
    _, singular_values, vt = np.linalg.svd(pts - centroid, full_matrices=False)
    if len(singular_values) < 3 or np.sum(singular_values < 1e-6) > 1:
        raise ValueError("Point set is degenerate")
    return centroid.tolist(), vt[2].tolist()


def fit_plane(points: Sequence[Vector3]) -> Tuple[float, float, float, float]:
    """Least-squares plane (a, b, c, d), a x + b y + c z + d = 0 with a unit
    normal, through three or more points."""
    centroid, normal = fit_plane_centroid(points)
    return (normal[0], normal[1], normal[2], -float(np.dot(centroid, normal)))


def _points_array(pts):
    if isinstance(pts, PointCloud):
        return np.array(pts.getPoints(), dtype=float)
    return np.asarray(pts, dtype=float)


def align_points_rotation(apts, bpts) -> list:
    """The rotation R (klampt.so3) minimising sum ||R a_i - b_i||^2 over two
    equally long point lists (lists, n x 3 arrays or PointClouds)."""
    a, b = _points_array(apts), _points_array(bpts)
    if a.shape != b.shape:
        raise ValueError("align_points_rotation needs point sets of equal size")
    # Kabsch: with H = sum b_i a_i^T = U S V^T, R = U diag(1, 1, det(U V^T)) V^T
    u, _, vt = np.linalg.svd(b.T @ a)
    d = np.sign(np.linalg.det(u @ vt)) or 1.0
    R = u @ np.diag([1.0, 1.0, d]) @ vt
    return so3.from_ndarray(R)


def align_points(apts, bpts) -> tuple:
    """The rigid transform T (klampt.se3) minimising sum ||T a_i - b_i||^2
    over two equally long point lists (lists, n x 3 arrays or PointClouds)."""
    a, b = _points_array(apts), _points_array(bpts)
    if a.shape != b.shape:
        raise ValueError("align_points needs point sets of equal size")
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    R = align_points_rotation(a - ca, b - cb)
    t = cb - np.asarray(so3.apply(R, ca.tolist()))
    return (R, t.tolist())


# --- point cloud colors -----------------------------------------------------------

_PACKED_LAYOUTS = {
    'rgb': ('r', 'g', 'b'), 'bgr': ('b', 'g', 'r'),
    'rgba': ('r', 'g', 'b', 'a'), 'bgra': ('b', 'g', 'r', 'a'),
    'argb': ('a', 'r', 'g', 'b'), 'abgr': ('a', 'b', 'g', 'r'),
}


def _pack(layout, channels):
    """Packs 0..255 channels (dict name -> array) into uint32 words, the first
    name of ``layout`` in the highest byte used."""
    word = np.zeros(len(channels['r']), dtype=np.uint32)
    for name in layout:
        word = (word << np.uint32(8)) | np.asarray(channels[name]).astype(np.uint32)
    return word


def _unpack(layout, words):
    words = np.asarray(words).astype(np.uint64).astype(np.uint32)
    channels = {}
    for k, name in enumerate(reversed(layout)):
        channels[name] = (words >> np.uint32(8 * k)) & np.uint32(0xff)
    return channels


def _channels_to_format(format, channels, has_alpha):
    """Converts 0..255 channels (float arrays) to the requested format."""
    n = len(channels['r'])
    if isinstance(format, str) and format in _PACKED_LAYOUTS:
        layout = _PACKED_LAYOUTS[format]
        full = dict(channels)
        if 'a' not in full:
            full['a'] = np.full(n, 255.0)
        return _pack(layout, {k: np.rint(v) for k, v in full.items()})
    unit = {k: np.asarray(v, dtype=float) / 255.0 for k, v in channels.items()}
    if format == 'channels':
        return (unit['r'], unit['g'], unit['b'], unit['a']) if has_alpha else (unit['r'], unit['g'], unit['b'])
    if format == 'opacity':
        return unit['a'] if has_alpha else np.ones(n)
    if isinstance(format, (list, tuple)) and tuple(format) == ('r', 'g', 'b'):
        return np.column_stack((unit['r'], unit['g'], unit['b']))
    if isinstance(format, (list, tuple)) and tuple(format) == ('r', 'g', 'b', 'a'):
        alpha = unit['a'] if has_alpha else np.ones(n)
        return np.column_stack((unit['r'], unit['g'], unit['b'], alpha))
    raise ValueError("Invalid color format " + repr(format))


def _format_to_channels(format, colors):
    """Converts colors in ``format`` to (0..255 channels dict, has_alpha)."""
    if isinstance(format, str) and format in _PACKED_LAYOUTS:
        layout = _PACKED_LAYOUTS[format]
        channels = {k: v.astype(float) for k, v in _unpack(layout, colors).items()}
        return channels, 'a' in layout
    if format == 'channels':
        if len(colors) not in (3, 4):
            raise ValueError("'channels' colors must be 3 or 4 channels")
        channels = {name: np.asarray(c, dtype=float) * 255.0 for name, c in zip('rgba', colors)}
        return channels, len(colors) == 4
    if format == 'opacity':
        alpha = np.asarray(colors, dtype=float) * 255.0
        full = np.full(len(alpha), 255.0)
        return {'r': full, 'g': full, 'b': full, 'a': alpha}, True
    if isinstance(format, (list, tuple)) and tuple(format) in (('r', 'g', 'b'), ('r', 'g', 'b', 'a')):
        arr = np.asarray(colors, dtype=float).reshape(-1, len(format)) * 255.0
        return {name: arr[:, k] for k, name in enumerate(format)}, len(format) == 4
    raise ValueError("Invalid color format " + repr(format))


def _cloud_color_properties(pc):
    """The names of the color properties of a cloud: ('rgb'|'rgba', None),
    ('channels', alpha name or None), (None, alpha name) or (None, None)."""
    names = list(pc.propertyNames)
    alpha = next((a for a in ('a', 'opacity', 'c') if a in names), None)
    if 'rgba' in names:
        return 'rgba', None
    if 'rgb' in names:
        return 'rgb', alpha
    if all(c in names for c in 'rgb'):
        return 'channels', alpha
    if any(c in names for c in 'rgb'):
        raise ValueError("Point cloud has some of the r, g, b channels but not all of them")
    return None, alpha


def _alpha_255(pc, alpha_name):
    values = np.asarray(pc.getProperties(list(pc.propertyNames).index(alpha_name)), dtype=float)
    return values if alpha_name == 'c' else values * 255.0


def point_cloud_colors(pc: PointCloud, format='rgb'):
    """Returns the colors of a point cloud in ``format``, or None if it has
    no color or opacity property (white if it has only an opacity).

    The cloud's colors may be stored as a packed ``rgb`` (0xrrggbb) or
    ``rgba`` (0xaarrggbb, Klamp't's convention) property, or as ``r``, ``g``,
    ``b`` channels in [0, 1] with an optional ``a``/``opacity`` channel in
    [0, 1] or ``c`` in [0, 255].

    Args:
        format: 'rgb', 'bgr', 'rgba', 'bgra', 'argb', 'abgr' (packed 32-bit
            integers, first letter in the highest byte used); ('r','g','b') or
            ('r','g','b','a') (n x 3 or n x 4 arrays in [0, 1]); 'channels'
            (a tuple of 3 or 4 arrays in [0, 1]); 'opacity' (an array in [0, 1]).
    """
    pc = _as_point_cloud(pc, "point_cloud_colors")
    storage, alpha_name = _cloud_color_properties(pc)
    names = list(pc.propertyNames)
    n = pc.numPoints()
    if storage is None and alpha_name is None:
        return None
    if storage in ('rgb', 'rgba'):
        words = pc.getProperties(names.index(storage))
        if (storage, format) in (('rgb', 'rgb'), ('rgba', 'argb')):
            return np.asarray(words)
        channels = {k: v.astype(float) for k, v in _unpack(('a', 'r', 'g', 'b'), words).items()}
        if storage == 'rgb':
            del channels['a']
    elif storage == 'channels':
        channels = {c: np.asarray(pc.getProperties(names.index(c)), dtype=float) * 255.0 for c in 'rgb'}
    else:
        channels = {c: np.full(n, 255.0) for c in 'rgb'}
    if storage != 'rgba' and alpha_name is not None:
        channels['a'] = _alpha_255(pc, alpha_name)
    return _channels_to_format(format, channels, 'a' in channels)


def _set_or_add(pc, name, values):
    names = list(pc.propertyNames)
    if name in names:
        pc.setProperties(names.index(name), np.asarray(values, dtype=float))
    else:
        pc.addProperty(name, np.asarray(values, dtype=float))


def point_cloud_set_colors(pc: PointCloud, colors, color_format='rgb', pc_property='auto') -> None:
    """Sets the colors of a point cloud.

    Args:
        colors: the colors, in ``color_format`` (see :func:`point_cloud_colors`).
        color_format: the format of ``colors``.
        pc_property (str): where to store them: 'rgb' (packed 0xrrggbb),
            'rgba' (packed 0xaarrggbb), 'channels' (``r``, ``g``, ``b`` and,
            with alpha, ``a`` in [0, 1]), or 'auto': the cloud's existing color
            properties, else 'channels' for channel/tuple formats, 'rgba' for
            packed formats with alpha and 'rgb' otherwise.
    """
    pc = _as_point_cloud(pc, "point_cloud_set_colors")
    channels, has_alpha = _format_to_channels(color_format, colors)
    if len(channels['r']) != pc.numPoints():
        raise ValueError("got %d colors for %d points" % (len(channels['r']), pc.numPoints()))
    if pc_property == 'auto':
        storage, _ = _cloud_color_properties(pc)
        if storage is not None:
            pc_property = storage
        elif color_format == 'channels' or isinstance(color_format, (list, tuple)):
            pc_property = 'channels'
        else:
            pc_property = 'rgba' if has_alpha else 'rgb'
    if pc_property == 'rgb':
        _set_or_add(pc, 'rgb', _pack(('r', 'g', 'b'), {k: np.rint(v) for k, v in channels.items()}))
    elif pc_property == 'rgba':
        full = dict(channels)
        full.setdefault('a', np.full(pc.numPoints(), 255.0))
        _set_or_add(pc, 'rgba', _pack(('a', 'r', 'g', 'b'), {k: np.rint(v) for k, v in full.items()}))
    elif pc_property == 'channels':
        for c in 'rgb':
            _set_or_add(pc, c, channels[c] / 255.0)
        if has_alpha:
            _set_or_add(pc, 'a', channels['a'] / 255.0)
    else:
        raise ValueError("Invalid point cloud color property " + repr(pc_property))


# --- meshes ---------------------------------------------------------------------------

def _triangle_cross_products(mesh):
    verts = np.asarray(mesh.getVertices(), dtype=float)
    tris = np.asarray(mesh.getIndices(), dtype=np.int64)
    cross = np.cross(verts[tris[:, 1]] - verts[tris[:, 0]], verts[tris[:, 2]] - verts[tris[:, 0]])
    return verts, tris, cross


def _normalize_rows(v):
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return np.divide(v, norms, out=np.zeros_like(v), where=norms != 0)


def triangle_normals(trimesh: Union[TriangleMesh, Geometry3D]) -> np.ndarray:
    """The T x 3 unit normals of a mesh's triangles (counter-clockwise
    vertices face outward; degenerate triangles get zero)."""
    _, _, cross = _triangle_cross_products(_as_triangle_mesh(trimesh, "triangle_normals"))
    return _normalize_rows(cross)


def vertex_normals(trimesh: Union[TriangleMesh, Geometry3D], area_weighted=True) -> np.ndarray:
    """The V x 3 unit vertex normals of a mesh: the average of the normals
    of the triangles around each vertex, weighted by their areas if
    ``area_weighted`` (vertices in no triangle get zero)."""
    verts, tris, cross = _triangle_cross_products(_as_triangle_mesh(trimesh, "vertex_normals"))
    contributions = cross if area_weighted else _normalize_rows(cross)
    sums = np.zeros((len(verts), 3))
    for corner in range(3):
        np.add.at(sums, tris[:, corner], contributions)
    return _normalize_rows(sums)


def _transform_points(T, pts):
    R = np.array(so3.ndarray(T[0]))
    return np.asarray(pts, dtype=float) @ R.T + np.asarray(T[1], dtype=float)


def merge(*items) -> Geometry3D:
    """Merges geometries into one, in world coordinates.

    Args:
        items: Geometry3D, TriangleMesh, PointCloud, or bodies with a
            ``geometry()`` (RobotModelLink, RigidObjectModel, TerrainModel).

    Returns:
        Geometry3D: a single item's geometry unchanged; otherwise a point
        cloud if every item is a point cloud (their properties must match),
        else a triangle mesh (other types are converted to meshes).
    """
    meshes, clouds = [], []
    for item in items:
        geom = item.geometry() if hasattr(item, 'geometry') and callable(item.geometry) else item
        if len(items) == 1 and isinstance(geom, Geometry3D):
            return geom
        if isinstance(geom, TriangleMesh):
            meshes.append((se3.identity(), geom))
        elif isinstance(geom, PointCloud):
            clouds.append((se3.identity(), geom))
        elif isinstance(geom, Geometry3D):
            T = geom.getCurrentTransform()
            if geom.type() == 'PointCloud':
                clouds.append((T, geom.getPointCloud()))
            elif geom.type() == 'TriangleMesh':
                meshes.append((T, geom.getTriangleMesh()))
            elif not geom.empty():
                meshes.append((T, geom.convert('TriangleMesh').getTriangleMesh()))
        else:
            raise ValueError("Can't merge item of type " + type(item).__name__)
    if clouds and meshes:
        raise ValueError("Can't merge PointCloud and TriangleMesh items together")
    if clouds:
        names = list(clouds[0][1].propertyNames)
        if any(list(pc.propertyNames) != names for _, pc in clouds):
            raise ValueError("Mismatch in PointCloud properties, can't merge")
        points = np.vstack([_transform_points(T, pc.getPoints()) for T, pc in clouds])
        merged = PointCloud()
        merged.setPoints(points)
        for k, name in enumerate(names):
            merged.addProperty(name, np.concatenate([np.asarray(pc.getProperties(k)) for _, pc in clouds]))
        return Geometry3D(merged)
    if meshes:
        verts, tris, offset = [], [], 0
        for T, mesh in meshes:
            v = np.asarray(mesh.getVertices(), dtype=float)
            verts.append(_transform_points(T, v))
            tris.append(np.asarray(mesh.getIndices(), dtype=np.int32) + offset)
            offset += len(v)
        merged = TriangleMesh()
        merged.setVertices(np.vstack(verts))
        merged.setIndices(np.vstack(tris).astype(np.int32))
        return Geometry3D(merged)
    return Geometry3D()


def sample_surface(geom: Geometry3D, num_samples=None, local=True, want_elements=False,
                   want_normals=False) -> np.ndarray:
    """Samples points on the surface of a geometry, uniformly by area.

    Args:
        num_samples (int, optional): number of samples; None returns every
            vertex (mesh) or point (cloud). Required for spheres.
        local (bool): points in the geometry's local frame; otherwise its
            current transform is applied.
        want_elements (bool): add a column with the triangle (or point) index
            of each sample (-1 for primitives).
        want_normals (bool): add three columns with the surface normal.

    Returns:
        ndarray: N x 3 points, followed by the element column and the normal
        columns when requested. VolumeGrid, ConvexHull and non-sphere
        primitives are sampled through their triangle mesh conversion.
    """
    gtype = geom.type()
    elements = normals = None
    if gtype == 'TriangleMesh':
        mesh = geom.getTriangleMesh()
        verts, tris, cross = _triangle_cross_products(mesh)
        if num_samples is None:
            points = verts
            if want_elements:
                elements = np.full(len(verts), -1)
                elements[tris.ravel()] = np.repeat(np.arange(len(tris)), 3)
            if want_normals:
                normals = vertex_normals(mesh)
        else:
            areas = np.linalg.norm(cross, axis=1)
            if areas.sum() <= 0:
                raise ValueError("Cannot sample a mesh with zero area")
            elements = np.random.choice(len(tris), num_samples, p=areas / areas.sum())
            u, v = np.random.rand(2, num_samples)
            outside = u + v > 1
            u[outside], v[outside] = 1 - u[outside], 1 - v[outside]
            a, b, c = (verts[tris[elements, k]] for k in range(3))
            points = a + (b - a) * u[:, None] + (c - a) * v[:, None]
            normals = _normalize_rows(cross[elements])
    elif gtype == 'PointCloud':
        all_points = np.array(geom.getPointCloud().getPoints(), dtype=float)
        elements = np.arange(len(all_points)) if num_samples is None \
            else np.random.choice(len(all_points), num_samples)
        points = all_points[elements]
        if want_normals:
            normals = point_cloud_normals(geom, add=False)[elements]
    elif gtype == 'GeometricPrimitive' and geom.getGeometricPrimitive().type == 'Sphere':
        props = list(geom.getGeometricPrimitive().properties)
        if num_samples is None:
            raise ValueError("Cannot sample a sphere without providing a number of samples")
        directions = _normalize_rows(np.random.normal(size=(num_samples, 3)))
        points = directions * props[3] + np.asarray(props[:3])
        normals = directions
        elements = np.full(num_samples, -1)
    elif gtype in ('VolumeGrid', 'ConvexHull', 'GeometricPrimitive'):
        mesh_geom = geom.convert('TriangleMesh')
        mesh_geom.setCurrentTransform(*geom.getCurrentTransform())
        return sample_surface(mesh_geom, num_samples, local, want_elements, want_normals)
    else:
        raise ValueError("Unable to sample surface of geometry type " + repr(gtype))
    points = np.asarray(points, dtype=float)
    if not local:
        T = geom.getCurrentTransform()
        points = _transform_points(T, points)
        if want_normals:
            normals = np.asarray(normals) @ np.array(so3.ndarray(T[0])).T
    columns = [points]
    if want_elements:
        columns.append(np.asarray(elements, dtype=float)[:, None])
    if want_normals:
        columns.append(np.asarray(normals, dtype=float))
    return columns[0] if len(columns) == 1 else np.hstack(columns)
