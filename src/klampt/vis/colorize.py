"""False-color objects (heatmaps): ``colorize(object, value, colormap,
feature, vrange, lighting)`` sets per-vertex or per-face colors of an
element's appearance (or an Appearance returned for a Geometry3D), or the
colors of a point cloud."""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
import numpy as np
from klampt import Appearance, Geometry3D, Heightmap, PointCloud

# Samples of Matplotlib's colormaps (value 0, 0.25, 0.5, 0.75, 1), linearly interpolated.
_COLORMAPS = {
    'viridis': [(0.267, 0.005, 0.329), (0.229, 0.322, 0.546), (0.128, 0.567, 0.551), (0.369, 0.789, 0.383),
                (0.993, 0.906, 0.144)],
    'plasma': [(0.050, 0.030, 0.528), (0.494, 0.012, 0.658), (0.798, 0.280, 0.470), (0.973, 0.585, 0.252),
               (0.940, 0.975, 0.131)],
    'jet': [(0.0, 0.0, 0.5), (0.0, 0.5, 1.0), (0.5, 1.0, 0.5), (1.0, 0.5, 0.0), (0.5, 0.0, 0.0)],
    'gray': [(0.0, 0.0, 0.0), (0.25, 0.25, 0.25), (0.5, 0.5, 0.5), (0.75, 0.75, 0.75), (1.0, 1.0, 1.0)],
    'hot': [(0.04, 0.0, 0.0), (0.7, 0.0, 0.0), (1.0, 0.4, 0.0), (1.0, 1.0, 0.1), (1.0, 1.0, 1.0)],
}


def _colormap_table(name):
    """Colors sampled along a colormap: one of the tables here, else any
    Matplotlib colormap when Matplotlib is installed."""
    if name in _COLORMAPS:
        return np.asarray(_COLORMAPS[name])
    try:
        import matplotlib
        cmap = matplotlib.colormaps[name]
    except (ImportError, KeyError):
        raise ValueError("unknown colormap %r (known without Matplotlib: %s)" % (name, ', '.join(sorted(_COLORMAPS))))
    return np.asarray(cmap(np.linspace(0.0, 1.0, 33)))[:, :3]


def _colorize_heightmap(hm, value, colormap, vrange):
    """Colors a Heightmap's samples by 'height', one of its properties or a
    (w, h) array of values."""
    heights = np.asarray(hm.heights, dtype=float)
    if isinstance(value, str):
        if value == 'height':
            values = heights
        elif hm.propertyIndex(value) >= 0:
            values = np.asarray(hm.getProperties(hm.propertyIndex(value)), dtype=float)
        else:
            raise ValueError("unknown heightmap colorize value %r: 'height' or a property name" % (value,))
    else:
        values = np.asarray(value, dtype=float)
        if values.shape != heights.shape:
            raise ValueError("values must have the heightmap's (w, h) shape %s, got %s" % (heights.shape, values.shape))
    colors = _apply_colormap(values.ravel(), colormap, vrange).reshape(heights.shape + (4,))
    colors[~np.isfinite(values)] = (0.5, 0.5, 0.5, 1.0)
    hm.setColorImage(np.ascontiguousarray(colors[:, :, :3].transpose(1, 0, 2)))


def _apply_colormap(values, colormap, vrange):
    values = np.asarray(values, dtype=float)
    if colormap == 'random':
        rng = np.random.default_rng(0)
        keys, inverse = np.unique(values, return_inverse=True)
        table = rng.random((len(keys), 3))
        return np.hstack([table[inverse], np.ones((len(values), 1))])
    table = _colormap_table(colormap or 'viridis')
    finite = values[np.isfinite(values)]
    lo, hi = ((finite.min(), finite.max()) if len(finite) else (0.0, 1.0)) if vrange is None else vrange
    u = np.clip((values - lo) / (hi - lo if hi > lo else 1.0), 0, 1) * (len(table) - 1)
    k = np.minimum(u.astype(int), len(table) - 2)
    f = (u - k)[:, None]
    return np.hstack([table[k] * (1 - f) + table[k + 1] * f, np.ones((len(values), 1))])


def _feature_values(value, points, normals, n):
    if not isinstance(value, str):
        return np.asarray(value, dtype=float), None
    named = {'x': points[:, 0], 'y': points[:, 1], 'z': points[:, 2]}
    if value in named:
        return named[value], None
    if value == 'index':
        return np.arange(n, dtype=float), None
    if value in ('nx', 'ny', 'nz'):
        return normals[:, 'xyz'.index(value[1])], (-1.0, 1.0)
    if value in ('p', 'position'):
        # one scale for all axes (the largest extent), as Klamp't does
        lo = points.min(axis=0)
        extent = (points.max(axis=0) - lo).max()
        return (points - lo) / (extent if extent > 0 else 1.0), 'rgb'
    if value in ('n', 'normal'):
        return (normals + 1) * 0.5, 'rgb'
    raise ValueError("unknown colorize value %r" % (value,))


def _colorize_cloud(pc, value, colormap, vrange):
    """Colors a PointCloud's points (packed 'rgb' property, or the color
    properties it has) by a feature, one of its properties ('nx' is
    'normal_x') or per-point values / colors."""
    from klampt.model.geometry import point_cloud_normals, point_cloud_set_colors  # lazy: it loads klampt.model.create, which import klampt.vis does not need
    pts = np.asarray(pc.getPoints(), dtype=float).reshape(-1, 3)
    names = list(pc.propertyNames)
    prop = {'nx': 'normal_x', 'ny': 'normal_y', 'nz': 'normal_z'}.get(value, value) if isinstance(value, str) else None
    if prop in names and value not in ('x', 'y', 'z'):
        values, rng = np.asarray(pc.getProperties(prop), dtype=float), None
    else:
        needs_normals = value in ('n', 'normal')
        normals = point_cloud_normals(pc, add=False) if needs_normals else np.zeros_like(pts)
        values, rng = _feature_values(value, pts, np.asarray(normals, dtype=float), len(pts))
    values = np.asarray(values, dtype=float)
    colors = values if (rng == 'rgb' or values.ndim == 2) else _apply_colormap(values, colormap, vrange or rng)
    if len(colors) != len(pts):
        raise ValueError("got %d values for %d points" % (len(colors), len(pts)))
    rgb = np.rint(np.clip(np.asarray(colors, dtype=float)[:, :3], 0, 1) * 255).astype(np.uint32)
    point_cloud_set_colors(pc, (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2], 'rgb')


def colorize(object, value, colormap=None, feature=None, vrange=None, lighting=None):
    """Colors an object by a named feature ('x', 'y', 'z', 'nx', 'ny', 'nz',
    'position', 'normal', 'index') or per-element values / RGB(A) colors,
    through a colormap ('viridis' default, 'plasma', 'jet', 'gray', 'hot',
    'random', or any Matplotlib colormap when it is installed). A Heightmap
    (or a Heightmap geometry) gets its own colours, by 'height', a property
    name or a (w, h) array. ``feature`` is 'vertices' or 'faces' (default: faces for
    normals and per-face lists, vertices otherwise); ``lighting`` a light
    direction shading each face. Returns the Appearance (or the cloud)."""
    if isinstance(object, PointCloud):
        _colorize_cloud(object, value, colormap, vrange)
        return object
    if isinstance(object, Heightmap):
        _colorize_heightmap(object, value, colormap, vrange)
        return object
    if isinstance(object, Geometry3D) and object.type() == 'Heightmap':
        hm = object.getHeightmap()
        _colorize_heightmap(hm, value, colormap, vrange)
        T = object.getCurrentTransform()
        object.setHeightmap(hm)
        object.setCurrentTransform(*T)
        return Appearance()
    if isinstance(object, Geometry3D):
        geom, app = object, Appearance()
    elif hasattr(object, 'appearance') and hasattr(object, 'geometry'):
        geom, app = object.geometry(), object.appearance()
    else:
        raise ValueError("colorize needs an object with geometry() and appearance(), a Geometry3D or a PointCloud")
    if geom.type() == 'PointCloud':
        pc = geom.getPointCloud()
        _colorize_cloud(pc, value, colormap, vrange)
        T = geom.getCurrentTransform()
        geom.setPointCloud(pc)
        geom.setCurrentTransform(*T)
        return app
    mesh = geom.getTriangleMesh() if geom.type() == 'TriangleMesh' else geom.convert('TriangleMesh').getTriangleMesh()
    verts = np.asarray(mesh.getVertices(), dtype=float)
    tris = np.asarray(mesh.getIndices(), dtype=int)
    normals = np.cross(verts[tris[:, 1]] - verts[tris[:, 0]], verts[tris[:, 2]] - verts[tris[:, 0]])
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-12)
    if feature is None:
        if isinstance(value, str):
            feature = 'faces' if value in ('n', 'normal', 'nx', 'ny', 'nz') else 'vertices'
        else:
            feature = 'faces' if len(value) == len(tris) and len(value) != len(verts) else 'vertices'
    if feature == 'faces':
        pts = verts[tris].mean(axis=1)
        values, rng = _feature_values(value, pts, normals, len(tris))
    else:
        vnormals = np.zeros_like(verts)
        for k in range(3):
            np.add.at(vnormals, tris[:, k], normals)
        vnormals /= np.maximum(np.linalg.norm(vnormals, axis=1, keepdims=True), 1e-12)
        values, rng = _feature_values(value, verts, vnormals, len(verts))
    values = np.asarray(values, dtype=float)
    if rng == 'rgb' or values.ndim == 2:
        colors = np.hstack([values[:, :3], values[:, 3:4] if values.shape[1] > 3 else np.ones((len(values), 1))])
    else:
        colors = _apply_colormap(values, colormap, vrange or rng)
    if lighting is not None and feature == 'faces':
        light = -np.asarray(lighting, dtype=float) / np.linalg.norm(lighting)
        shade = np.clip(normals @ light, 0.2, 1.0)[:, None]
        colors[:, :3] *= shade
    app.setColors(Appearance.FACES if feature == 'faces' else Appearance.VERTICES, colors.astype(np.float32))
    return app
