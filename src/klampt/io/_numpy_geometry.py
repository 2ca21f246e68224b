"""numpy conversions of the geometry types, used by :mod:`numpy_convert`."""
import numpy as np

from ..math import se3
from ..robotsim import ConvexHull, GeometricPrimitive, Geometry3D, PointCloud, TriangleMesh, VolumeGrid

GEOMETRY_TYPES = ('TriangleMesh', 'PointCloud', 'VolumeGrid', 'ConvexHull', 'GeometricPrimitive', 'Geometry3D',
                  'Group')

_DATA_GETTERS = {'TriangleMesh': 'getTriangleMesh', 'PointCloud': 'getPointCloud', 'VolumeGrid': 'getVolumeGrid',
                 'ConvexHull': 'getConvexHull', 'GeometricPrimitive': 'getGeometricPrimitive'}


def _transform_points(T, pts):
    R = np.array(T[0], dtype=float).reshape(3, 3).T  # column-major 9-vector
    return np.asarray(pts, dtype=float) @ R.T + np.asarray(T[1], dtype=float)


_DATA_CLASSES = {'TriangleMesh': TriangleMesh, 'PointCloud': PointCloud, 'VolumeGrid': VolumeGrid,
                 'ConvexHull': ConvexHull, 'GeometricPrimitive': GeometricPrimitive}


def _data_to_numpy(obj, type):
    if type not in _DATA_CLASSES:
        raise ValueError("Type %s is not supported by to_numpy" % type)
    if not isinstance(obj, _DATA_CLASSES[type]):
        raise ValueError("expected a %s, got a %s" % (type, obj.__class__.__name__))
    if type == 'TriangleMesh':
        return (np.array(obj.getVertices(), dtype=float), np.array(obj.getIndices(), dtype=np.int32))
    if type == 'PointCloud':
        points = np.array(obj.getPoints(), dtype=float)
        if obj.numProperties() == 0:
            return points
        return np.hstack((points, np.array(obj.getAllProperties(), dtype=float).reshape(len(points), -1)))
    if type == 'VolumeGrid':
        bbox = list(obj.bbox)
        values = np.array(obj.getValues(), dtype=float)
        return (np.array(bbox[:3], dtype=float), np.array(bbox[3:], dtype=float), values)
    if type == 'ConvexHull':
        return np.array(obj.getPoints(), dtype=float)
    return (obj.type, np.array(list(obj.properties), dtype=float))


def to_numpy(obj, type):
    """Arrays of a geometry object (see :mod:`numpy_convert` for the layout).
    A Geometry3D passed with its data type gives world-coordinate data."""
    if type in ('Geometry3D', 'Group'):
        if not isinstance(obj, Geometry3D):
            raise ValueError("expected a Geometry3D")
        T = np.array(se3.homogeneous(obj.getCurrentTransform()), dtype=float)
        gtype = obj.type()
        if gtype == 'Group':
            return T, [to_numpy(obj.getElement(i), 'Geometry3D') for i in range(obj.numElements())]
        if gtype == '':
            return T, None
        return T, _data_to_numpy(getattr(obj, _DATA_GETTERS[gtype])(), gtype)
    if isinstance(obj, Geometry3D):
        if obj.type() != type:
            raise ValueError("the geometry holds a %s, not a %s" % (obj.type(), type))
        data = _data_to_numpy(getattr(obj, _DATA_GETTERS[type])(), type)
        T = obj.getCurrentTransform()
        if type == 'TriangleMesh':
            return (_transform_points(T, data[0]), data[1])
        if type in ('PointCloud', 'ConvexHull'):
            data = np.array(data)
            data[:, :3] = _transform_points(T, data[:, :3])
            return data
        return data
    return _data_to_numpy(obj, type)


def _is_array_list(obj, n):
    return isinstance(obj, (tuple, list)) and len(obj) == n and all(isinstance(v, np.ndarray) for v in obj)


def detect_type(obj):
    """The geometry type of numpy data, or 'auto' if it is not geometry."""
    if _is_array_list(obj, 2) and obj[0].ndim == 2 and obj[1].ndim == 2 and obj[0].shape[1] == 3 \
            and obj[1].shape[1] == 3:
        return 'TriangleMesh'
    if _is_array_list(obj, 3) and obj[0].shape == (3,) and obj[1].shape == (3,) and obj[2].ndim == 3:
        return 'VolumeGrid'
    if isinstance(obj, (tuple, list)) and len(obj) == 2 and isinstance(obj[0], str):
        return 'GeometricPrimitive'
    if isinstance(obj, (tuple, list)) and len(obj) == 2 and isinstance(obj[0], np.ndarray) \
            and obj[0].shape == (4, 4):
        return 'Geometry3D'
    return 'auto'


def _detect_data_type(data):
    if data is None:
        return ''
    if isinstance(data, np.ndarray):
        return 'PointCloud'
    if isinstance(data, list) and all(isinstance(v, (tuple, list)) and len(v) == 2 for v in data) and \
            all(np.shape(v[0]) == (4, 4) for v in data):
        return 'Group'
    detected = detect_type(data)
    if detected in ('TriangleMesh', 'VolumeGrid', 'GeometricPrimitive'):
        return detected
    raise ValueError("Can't detect the geometry type of the data of a Geometry3D")


def from_numpy(obj, type, template=None):
    """Builds a geometry object from arrays (see :mod:`numpy_convert`)."""
    if type == 'TriangleMesh':
        verts, tris = obj
        mesh = TriangleMesh()
        mesh.setVertices(np.asarray(verts, dtype=float).reshape(-1, 3))
        mesh.setIndices(np.asarray(tris).astype(np.int32).reshape(-1, 3))
        return mesh
    if type == 'PointCloud':
        arr = np.asarray(obj, dtype=float)
        if arr.ndim != 2 or arr.shape[1] < 3:
            raise ValueError("A PointCloud array must be n x (3 + k)")
        pc = PointCloud()
        k = arr.shape[1] - 3
        if isinstance(template, Geometry3D):
            template = template.getPointCloud()
        if template is not None:
            names = list(template.propertyNames)
            if len(names) != k:
                raise ValueError("Template object doesn't have the same properties as the numpy object")
        else:
            names = ['Property %d' % i for i in range(k)]
        pc.propertyNames = names
        pc.setPointsAndProperties(arr)
        return pc
    if type == 'VolumeGrid':
        bmin, bmax, values = obj
        values = np.asarray(values, dtype=float)
        if values.ndim != 3:
            raise ValueError("VolumeGrid values must be a 3D array")
        grid = VolumeGrid()
        grid.setBounds([float(v) for v in bmin], [float(v) for v in bmax])
        grid.setValues(values)
        return grid
    if type == 'ConvexHull':
        hull = ConvexHull()
        hull.setPoints(np.asarray(obj, dtype=float).reshape(-1, 3))
        return hull
    if type == 'GeometricPrimitive':
        name, props = obj
        prim = GeometricPrimitive()
        text = name + ' ' + ' '.join(repr(float(v)) for v in np.asarray(props).ravel())
        if not prim.loadString(text):
            raise ValueError("invalid GeometricPrimitive data: " + text)
        return prim
    if type == 'Group':
        geom = Geometry3D()
        geom.setGroup()
        for i, element in enumerate(obj):
            geom.setElement(i, from_numpy(element, 'Geometry3D'))
        return geom
    if type == 'Geometry3D':
        if not isinstance(obj, (tuple, list)) or len(obj) != 2:
            raise ValueError("Geometry3D must be a (transform, geometry data) pair")
        T = se3.from_homogeneous(np.asarray(obj[0], dtype=float))
        data = obj[1]
        if isinstance(template, Geometry3D):
            subtype = template.type()
            sub_template = template.getPointCloud() if subtype == 'PointCloud' else None
        else:
            subtype, sub_template = _detect_data_type(data), None
        if subtype == '':
            geom = Geometry3D()
        elif subtype == 'Group':
            geom = from_numpy(data, 'Group')
        else:
            geom = Geometry3D(from_numpy(data, subtype, sub_template))
        geom.setCurrentTransform(*T)
        return geom
    raise ValueError("Type %s is not supported by from_numpy" % type)
