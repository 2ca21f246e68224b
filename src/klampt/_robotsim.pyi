"""
Core classes of klampt: world, robot and geometry models.
"""
from __future__ import annotations
import collections.abc
import klampt._viewport
import numpy
import numpy.typing
import typing
import typing_extensions
from klampt.plan import motionplanning as motionplanning
__all__: list[str] = ['Appearance', 'ContactParameters', 'ContactQueryResult', 'ConvexHull', 'DistanceQueryResult', 'DistanceQuerySettings', 'GeneralizedIKObjective', 'GeneralizedIKSolver', 'GeometricPrimitive', 'Geometry3D', 'Heightmap', 'IKObjective', 'IKSolver', 'ImplicitSurface', 'Mass', 'OccupancyGrid', 'PointCloud', 'RigidObjectModel', 'RobotModel', 'RobotModelDriver', 'RobotModelLink', 'SensorModel', 'SimBody', 'SimJoint', 'SimRobotController', 'SimRobotSensor', 'Simulator', 'TerrainModel', 'TriangleMesh', 'VolumeGrid', 'WorldModel', 'collision_structures_built', 'motionplanning', 'native_library_versions', 'set_random_seed']
class DistanceQuerySettings:
    """
    Configures the _ext distance queries of Geometry3D: the result satisfies Dcalc <= D(1+relErr) + absErr unless D >= upperBound.
    """
    def __init__(self) -> None:
        ...
    @property
    def absErr(self) -> float:
        """
        Absolute error allowed in the distance, in m (default 0).
        """
    @absErr.setter
    def absErr(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def relErr(self) -> float:
        """
        Relative error allowed in the distance: the result is within D*(1+relErr)+absErr of the true D (default 0).
        """
    @relErr.setter
    def relErr(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True; kept for scripts written for the reference's SWIG objects (setting it does nothing).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def upperBound(self) -> float:
        """
        Distance in m beyond which the query may stop early and return upperBound (default infinity).
        """
    @upperBound.setter
    def upperBound(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
class DistanceQueryResult:
    """
    The result of a distance query of Geometry3D: distance d (negative when penetrating, for the pairs that allow it), closest points cp1/cp2 and gradients grad1/grad2 in world coordinates, element indices elem1/elem2.
    """
    def __init__(self) -> None:
        ...
    @property
    def cp1(self) -> list[float]:
        """
        The closest point [x, y, z] on the first geometry, in world coordinates (m); [] if not computed.
        """
    @cp1.setter
    def cp1(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def cp2(self) -> list[float]:
        """
        The closest point [x, y, z] on the second geometry, in world coordinates (m); [] if not computed.
        """
    @cp2.setter
    def cp2(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def d(self) -> float:
        """
        The distance in m; negative when the geometries penetrate (the penetration depth), upperBound if the search stopped there.
        """
    @d.setter
    def d(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def elem1(self) -> int:
        """
        Index of the element (triangle, point, cell) of the first geometry nearest to the second, or -1.
        """
    @elem1.setter
    def elem1(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def elem2(self) -> int:
        """
        Index of the element (triangle, point, cell) of the second geometry nearest to the first, or -1.
        """
    @elem2.setter
    def elem2(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def grad1(self) -> list[float]:
        """
        Gradient of the distance with respect to the first geometry's position (world frame); [] if not computed.
        """
    @grad1.setter
    def grad1(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def grad2(self) -> list[float]:
        """
        Gradient of the distance with respect to the second geometry's position (world frame); [] if not computed.
        """
    @grad2.setter
    def grad2(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def hasClosestPoints(self) -> bool:
        """
        Whether cp1 and cp2 hold the closest points.
        """
    @hasClosestPoints.setter
    def hasClosestPoints(self, arg0: bool) -> None:
        ...
    @property
    def hasGradients(self) -> bool:
        """
        Whether grad1 and grad2 hold the distance gradients.
        """
    @hasGradients.setter
    def hasGradients(self, arg0: bool) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True; kept for scripts written for the reference's SWIG objects (setting it does nothing).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class ContactQueryResult:
    """
    The contacts between two geometries: depths (>= 0, from the padded surfaces), points1/points2 on the padded surfaces, normals from self to other, elems1/elems2.
    """
    def __init__(self) -> None:
        ...
    @property
    def depths(self) -> list[float]:
        """
        Penetration depth of each contact, in m (>= 0, measured between the padded surfaces).
        """
    @depths.setter
    def depths(self, arg0: collections.abc.Sequence[typing.SupportsFloat | typing.SupportsIndex]) -> None:
        ...
    @property
    def elems1(self) -> list[int]:
        """
        Element (triangle, point) of the first geometry at each contact, or -1.
        """
    @elems1.setter
    def elems1(self, arg0: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> None:
        ...
    @property
    def elems2(self) -> list[int]:
        """
        Element (triangle, point) of the second geometry at each contact, or -1.
        """
    @elems2.setter
    def elems2(self, arg0: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> None:
        ...
    @property
    def normals(self) -> list:
        """
        Unit contact normals pointing from the first geometry to the second, in world coordinates, one per contact.
        """
    @normals.setter
    def normals(self, arg1: collections.abc.Sequence[collections.abc.Sequence[float]]) -> None:
        ...
    @property
    def points1(self) -> list:
        """
        Contact points on the first geometry's padded surface, in world coordinates (m), one [x, y, z] per contact.
        """
    @points1.setter
    def points1(self, arg1: collections.abc.Sequence[collections.abc.Sequence[float]]) -> None:
        ...
    @property
    def points2(self) -> list:
        """
        Contact points on the second geometry's padded surface, in world coordinates (m), one [x, y, z] per contact.
        """
    @points2.setter
    def points2(self, arg1: collections.abc.Sequence[collections.abc.Sequence[float]]) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True; kept for scripts written for the reference's SWIG objects (setting it does nothing).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class TriangleMesh:
    """
    A 3D indexed triangle mesh class.
    """
    def __init__(self) -> None:
        ...
    def addTriangleIndices(self, t: collections.abc.Sequence[int] | numpy.ndarray) -> None:
        """
        Adds a new triangle given by the indices [a, b, c] of its vertices.
        """
    def addVertex(self, p: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Adds a new vertex [x, y, z].
        """
    def copy(self) -> TriangleMesh:
        """
        Creates a standalone object that is a copy of this (editing either leaves the other unchanged).
        """
    def getIndices(self) -> numpy.ndarray:
        """
        An m x 3 int32 numpy view of the triangles: writing to it changes the mesh.
        """
    def getVertices(self) -> numpy.ndarray:
        """
        An n x 3 numpy view of the vertices: writing to it changes the mesh.
        """
    def set(self, arg2: TriangleMesh) -> None:
        """
        Copies the data of the argument into this.
        """
    def setIndices(self, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets the triangles from an m x 3 array of ints, each row the indices of a triangle's three vertices (counterclockwise seen from outside).
        """
    def setVertices(self, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets the vertices from an n x 3 array of floats (local coordinates, metres).
        """
    def transform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Transforms all the vertices by the rigid transform (R,t): R a column-major 9-list rotation matrix, t a 3-list in metres.
        """
    def translate(self, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Translates all the vertices by t (3-list, metres).
        """
    def triangle(self, i: typing.SupportsInt | typing.SupportsIndex) -> tuple:
        """
        Returns the i'th triangle (negative i counts from the end) as a tuple of its 3 vertices (arrays).
        """
    def triangleNoormals(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The same as triangleNormals (the name Klamp't 0.10.1 gives it).
        """
    def triangleNormals(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes outward triangle normals: an N x 3 array of unit normals (b - a) x (c - a) of the N triangles (zero for a degenerate triangle).
        """
    def vertexNormals(self, area_weighted: bool = True) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes outward vertex normals: an N x 3 array with, for each of the N vertices, the normalized sum of the normals of its triangles, area-weighted or a simple average.
        """
    @property
    def dataPtr(self) -> int:
        """
        Address of the native data (an opaque integer; it changes when the data is resized while numpy views of it exist).
        """
    @property
    def indices(self) -> numpy.ndarray:
        """
        Flat int32 view [a1, b1, c1, a2, ...] of the triangles (assigning a sequence replaces them).
        """
    @indices.setter
    def indices(self, arg1: collections.abc.Sequence[int] | numpy.ndarray) -> None:
        ...
    @property
    def isStandalone(self) -> bool:
        """
        True: a data object owns its data here (Geometry3D's getters return copies).
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def vertices(self) -> numpy.ndarray:
        """
        Flat view [x1, y1, z1, x2, ...] of the vertices (assigning a sequence replaces them).
        """
    @vertices.setter
    def vertices(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
class PointCloud:
    """
    A 3D point cloud class with named per-point properties.
    """
    def __init__(self) -> None:
        ...
    def addPoint(self, p: collections.abc.Sequence[float] | numpy.ndarray) -> int:
        """
        Appends the point p (3-list, metres) with all its properties 0; returns its index.
        """
    @typing.overload
    def addProperty(self, pname: str) -> None:
        """
        Adds a property named pname, 0 for every point.
        """
    @typing.overload
    def addProperty(self, pname: str, np_array: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Adds a property named pname with the per-point values np_array (length numPoints()).
        """
    def copy(self) -> PointCloud:
        """
        Creates a standalone object that is a copy of this (editing either leaves the other unchanged).
        """
    def getAllProperties(self) -> numpy.ndarray:
        """
        An n x k numpy view of the properties: writing to it changes the cloud.
        """
    def getColors(self, format: str | tuple[str, ...] = 'rgb') -> numpy.ndarray | tuple[numpy.ndarray, ...] | None:
        """
        Returns the colors of the points in the given format, or None if the cloud has no color properties (see klampt.model.geometry.point_cloud_colors for the formats: 'rgb', 'bgr', 'rgba', ..., ('r','g','b'), 'channels', 'opacity').
        """
    def getPoint(self, index: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Returns the position of the point with the given index as a 3-list.
        """
    def getPoints(self) -> numpy.ndarray:
        """
        An n x 3 numpy view of the points: writing to it changes the cloud.
        """
    @typing.overload
    def getProperties(self, pindex: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
        """
        A copy of one property of every point.
        """
    @typing.overload
    def getProperties(self, pname: str) -> numpy.typing.NDArray[numpy.float64]:
        ...
    @typing.overload
    def getProperties(self) -> numpy.ndarray:
        """
        With no argument: an n x k numpy view of all the properties (as getAllProperties()).
        """
    @typing.overload
    def getProperty(self, index: typing.SupportsInt | typing.SupportsIndex, pindex: typing.SupportsInt | typing.SupportsIndex) -> float:
        """
        Returns the property with index pindex of the point with the given index.
        """
    @typing.overload
    def getProperty(self, index: typing.SupportsInt | typing.SupportsIndex, pname: str) -> float:
        """
        Returns the property named pname of the point with the given index.
        """
    def getPropertyName(self, pindex: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        Returns the name of a given property.
        """
    def getPropertyNames(self) -> list[str]:
        """
        Returns the names of the properties (a list copy).
        """
    def getSetting(self, key: str) -> str:
        """
        Returns the value of the setting key; KeyError if it is not set.
        """
    def join(self, pc: PointCloud) -> None:
        """
        Appends the points of the point cloud pc to this one; both must have the same property names.
        """
    def numPoints(self) -> int:
        """
        Returns the number of points.
        """
    def numProperties(self) -> int:
        """
        Returns the number of per-point properties.
        """
    def propertyIndex(self, pname: str) -> int:
        """
        Returns the index of a named property or -1 if it does not exist.
        """
    def set(self, arg2: PointCloud) -> None:
        """
        Copies the data of the argument into this.
        """
    def setColors(self, colors: numpy.typing.ArrayLike, color_format: str | tuple[str, ...] = 'rgb', pc_property: str = 'auto') -> None:
        """
        Sets the colors of the points (see klampt.model.geometry.point_cloud_set_colors for the formats and the properties written).
        """
    def setDepthImage(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, depth: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        Structured cloud from an h x w depth image and intrinsics [fx, fy, cx, cy].
        """
    def setDepthImage_d(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, np_array2: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Makes this a structured cloud from an h x w depth image np_array2 and the camera intrinsics [fx, fy, cx, cy] (pixels): pixel (u,v) of depth d*depth_scale (metres) becomes the point ((u-cx)d/fx, (v-cy)d/fy, d) in the camera frame (x right, y down, z forward); pixels without depth become (0,0,0).
        """
    def setDepthImage_f(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, np_array2: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Makes this a structured cloud from an h x w depth image np_array2 and the camera intrinsics [fx, fy, cx, cy] (pixels): pixel (u,v) of depth d*depth_scale (metres) becomes the point ((u-cx)d/fx, (v-cy)d/fy, d) in the camera frame (x right, y down, z forward); pixels without depth become (0,0,0).
        """
    def setDepthImage_s(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, np_array2: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Makes this a structured cloud from an h x w depth image np_array2 and the camera intrinsics [fx, fy, cx, cy] (pixels): pixel (u,v) of depth d*depth_scale (metres) becomes the point ((u-cx)d/fx, (v-cy)d/fy, d) in the camera frame (x right, y down, z forward); pixels without depth become (0,0,0).
        """
    def setPoint(self, index: typing.SupportsInt | typing.SupportsIndex, p: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the position of the point with the given index to p (3-list, metres).
        """
    def setPoints(self, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets the points from an n x 3 array of floats (local coordinates, metres); the properties of the remaining points are kept, those of added points are 0.
        """
    def setPointsAndProperties(self, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets the points and properties from an n x (3 + numProperties()) array: the x, y, z columns followed by one column per property.
        """
    @typing.overload
    def setProperties(self, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets all the properties from an n x numProperties() array, one row per point.
        """
    @typing.overload
    def setProperties(self, pindex: typing.SupportsInt | typing.SupportsIndex, np_array: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the property with index pindex of every point from np_array (length numPoints()).
        """
    @typing.overload
    def setProperty(self, index: typing.SupportsInt | typing.SupportsIndex, pindex: typing.SupportsInt | typing.SupportsIndex, value: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the property with index pindex of the point with the given index to value.
        """
    @typing.overload
    def setProperty(self, index: typing.SupportsInt | typing.SupportsIndex, pname: str, value: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the property named pname of the point with the given index to value.
        """
    def setPropertyName(self, pindex: typing.SupportsInt | typing.SupportsIndex, pname: str) -> None:
        """
        Sets the name of a given property.
        """
    def setRGBDImages(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, color: numpy.typing.ArrayLike, depth: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        Structured cloud with an rgb property from a color and a depth image.
        """
    def setRGBDImages_b_d(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, np_array3: numpy.typing.ArrayLike, np_depth2: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Like setDepthImage for the depth image np_depth2, plus an 'rgb' property from the color image of the same size: h x w packed 0xrrggbb ints, or an h x w x 3 array of bytes (0-255) or floats (0-1).
        """
    def setRGBDImages_b_f(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, np_array3: numpy.typing.ArrayLike, np_depth2: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Like setDepthImage for the depth image np_depth2, plus an 'rgb' property from the color image of the same size: h x w packed 0xrrggbb ints, or an h x w x 3 array of bytes (0-255) or floats (0-1).
        """
    def setRGBDImages_b_s(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, np_array3: numpy.typing.ArrayLike, np_depth2: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Like setDepthImage for the depth image np_depth2, plus an 'rgb' property from the color image of the same size: h x w packed 0xrrggbb ints, or an h x w x 3 array of bytes (0-255) or floats (0-1).
        """
    def setRGBDImages_i_d(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, np_array2: numpy.typing.ArrayLike, np_depth2: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Like setDepthImage for the depth image np_depth2, plus an 'rgb' property from the color image of the same size: h x w packed 0xrrggbb ints, or an h x w x 3 array of bytes (0-255) or floats (0-1).
        """
    def setRGBDImages_i_f(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, np_array2: numpy.typing.ArrayLike, np_depth2: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Like setDepthImage for the depth image np_depth2, plus an 'rgb' property from the color image of the same size: h x w packed 0xrrggbb ints, or an h x w x 3 array of bytes (0-255) or floats (0-1).
        """
    def setRGBDImages_i_s(self, intrinsics: collections.abc.Sequence[float] | numpy.ndarray, np_array2: numpy.typing.ArrayLike, np_depth2: numpy.typing.ArrayLike, depth_scale: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Like setDepthImage for the depth image np_depth2, plus an 'rgb' property from the color image of the same size: h x w packed 0xrrggbb ints, or an h x w x 3 array of bytes (0-255) or floats (0-1).
        """
    def setSetting(self, key: str, value: str) -> None:
        """
        Sets the setting key (a string such as 'width', 'height' or 'viewpoint') to value.
        """
    def transform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Moves the points and rotates the normal_x/y/z properties.
        """
    def translate(self, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Translates all the points by t (3-list, metres).
        """
    @property
    def dataPtr(self) -> int:
        """
        Address of the native data (an opaque integer; it changes when the data is resized while numpy views of it exist).
        """
    @property
    def isStandalone(self) -> bool:
        """
        True: a data object owns its data here (Geometry3D's getters return copies).
        """
    @property
    def points(self) -> numpy.ndarray:
        """
        An n x 3 numpy view of the points (as getPoints(); assigning sets them, as setPoints()).
        """
    @points.setter
    def points(self, arg1: numpy.typing.ArrayLike) -> None:
        ...
    @property
    def properties(self) -> numpy.ndarray:
        """
        Flat view [p11, ..., pk1, p12, ...] of the properties, point by point (as in Klamp't 0.9; getProperties() is the n x k view). Assign a flat sequence, or an n x k array as setProperties does.
        """
    @properties.setter
    def properties(self, arg1: numpy.typing.ArrayLike) -> None:
        ...
    @property
    def propertyNames(self) -> list[str]:
        """
        The property names (a copy; assigning adds zero columns or drops trailing ones).
        """
    @propertyNames.setter
    def propertyNames(self, arg1: collections.abc.Sequence[str]) -> None:
        ...
    @property
    def settings(self) -> dict[str, str]:
        """
        The settings (a copy of the string map; assign to replace it).
        """
    @settings.setter
    def settings(self, arg1: collections.abc.Mapping[str, str]) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def vertices(self) -> numpy.ndarray:
        """
        Flat view [x1, y1, z1, ...] of the points.
        """
    @vertices.setter
    def vertices(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
class GeometricPrimitive:
    """
    A geometric primitive: Point, Sphere, Segment, Triangle, Polygon, AABB or Box.
    """
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def copy(self) -> GeometricPrimitive:
        """
        Creates a standalone object that is a copy of this (editing either leaves the other unchanged).
        """
    def getProperties(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The parameters as a numpy array (a copy).
        """
    def getType(self) -> str:
        """
        The type in Klamp't 0.10's lower-case spelling: 'point', 'sphere', 'segment', 'triangle', 'polygon', 'aabb', 'box', or 'empty' (the type property keeps 0.9's 'Sphere', ...).
        """
    def isValid(self) -> bool:
        """
        True if the type is known and the parameters fit it.
        """
    def loadString(self, str: str) -> bool:
        """
        Sets the primitive from the text saveString writes ('<Type> p1 p2 ...'); returns True on success, False (with an error logged) on bad text.
        """
    def saveString(self) -> str:
        """
        Returns the primitive as text: its type followed by its parameters, e.g. 'Sphere 0 0 0 1'.
        """
    def set(self, arg2: GeometricPrimitive) -> None:
        """
        Copies the data of the argument into this.
        """
    def setAABB(self, bmin: collections.abc.Sequence[float] | numpy.ndarray, bmax: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Makes this an axis-aligned box (AABB) primitive with lower corner bmin and upper corner bmax (3-lists, metres).
        """
    def setBox(self, ori: collections.abc.Sequence[float] | numpy.ndarray, R: collections.abc.Sequence[float] | numpy.ndarray, dims: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        The box ori + R [0, dims].
        """
    def setPoint(self, pt: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Makes this a Point primitive at pt (3-list, metres).
        """
    def setPolygon(self, verts: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Makes this a Polygon primitive from the flat list verts = [x1,y1,z1,x2,y2,z2,...] of at least 3 points (metres).
        """
    def setProperties(self, np_array: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the parameters; ValueError if their number does not fit the type.
        """
    def setSegment(self, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Makes this a Segment primitive from point a to point b (3-lists, metres).
        """
    def setSphere(self, c: collections.abc.Sequence[float] | numpy.ndarray, r: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Makes this a Sphere primitive with center c (3-list, metres) and radius r (metres).
        """
    def setTriangle(self, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray, c: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Makes this a Triangle primitive with vertices a, b and c (3-lists, metres).
        """
    @property
    def dataPtr(self) -> int:
        """
        Address of the native data (an opaque integer; it changes when the data is resized while numpy views of it exist).
        """
    @property
    def isStandalone(self) -> bool:
        """
        True: a data object owns its data here (Geometry3D's getters return copies).
        """
    @property
    def properties(self) -> list[float]:
        """
        The parameters (a list copy; assign to replace them).
        """
    @properties.setter
    def properties(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def type(self) -> str:
        """
        The primitive's type name: 'Point', 'Sphere', 'Segment', 'Triangle', 'Polygon', 'AABB', 'Box' or ''.
        """
    @type.setter
    def type(self, arg1: str) -> None:
        ...
class ConvexHull:
    """
    A set of points whose convex hull is the geometry.
    """
    def __init__(self) -> None:
        ...
    def addPoint(self, pt: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Appends the point pt (3-list, metres).
        """
    def copy(self) -> ConvexHull:
        """
        Creates a standalone object that is a copy of this (editing either leaves the other unchanged).
        """
    def getPoint(self, index: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Returns the point with the given index as a 3-list.
        """
    def getPoints(self) -> numpy.ndarray:
        """
        An n x 3 numpy view of the points: writing to it changes the hull.
        """
    def numPoints(self) -> int:
        """
        Returns the number of points.
        """
    def set(self, arg2: ConvexHull) -> None:
        """
        Copies the data of the argument into this.
        """
    def setPoints(self, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets the points from an n x 3 array of floats (local coordinates, metres).
        """
    def transform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Transforms all the points by the rigid transform (R,t): R a column-major 9-list rotation matrix, t a 3-list in metres.
        """
    def translate(self, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Translates all the points by t (3-list, metres).
        """
    @property
    def dataPtr(self) -> int:
        """
        Address of the native data (an opaque integer; it changes when the data is resized while numpy views of it exist).
        """
    @property
    def isStandalone(self) -> bool:
        """
        True: a data object owns its data here (Geometry3D's getters return copies).
        """
    @property
    def points(self) -> numpy.ndarray:
        """
        Flat view [x1, y1, z1, ...] of the points.
        """
    @points.setter
    def points(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class VolumeGrid:
    """
    An axis-aligned grid of cell values, typically a signed distance (> 0 outside).
    """
    def __init__(self) -> None:
        ...
    def copy(self) -> VolumeGrid:
        """
        Creates a standalone object that is a copy of this (editing either leaves the other unchanged).
        """
    def get(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex, k: typing.SupportsInt | typing.SupportsIndex) -> float:
        """
        Returns the value of the cell with indices (i,j,k).
        """
    def getBmax(self) -> list[float]:
        """
        The upper corner [x, y, z].
        """
    def getBmin(self) -> list[float]:
        """
        The lower corner [x, y, z].
        """
    def getBounds(self) -> list[float]:
        """
        [xmin, ymin, zmin, xmax, ymax, zmax] (as bbox).
        """
    def getTruncationDistance(self) -> float:
        """
        The truncation distance: inf for a signed distance field, else that of a truncated one (TSDF), from which cells count as far; it travels with the grid (copies, Geometry3D).
        """
    def getValues(self) -> numpy.ndarray:
        """
        A dims[0] x dims[1] x dims[2] numpy view of the values.
        """
    def resize(self, sx: typing.SupportsInt | typing.SupportsIndex, sy: typing.SupportsInt | typing.SupportsIndex, sz: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Sets the dimensions; values become 0.
        """
    def scale(self, cv: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Multiplies every value by cv.
        """
    @typing.overload
    def set(self, value: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @typing.overload
    def set(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex, k: typing.SupportsInt | typing.SupportsIndex, value: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @typing.overload
    def set(self, arg2: VolumeGrid) -> None:
        """
        Copies the data of the argument into this.
        """
    def setBmax(self, bmax: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the upper corner (ValueError below the lower corner).
        """
    def setBmin(self, bmin: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the lower corner (ValueError above the upper corner).
        """
    @typing.overload
    def setBounds(self, bmin: collections.abc.Sequence[float] | numpy.ndarray, bmax: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @typing.overload
    def setBounds(self, bounds: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Klamp't 0.10's form: sets [xmin, ymin, zmin, xmax, ymax, zmax].
        """
    def setTruncationDistance(self, d: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the truncation distance (>= 0; inf for a plain signed distance field).
        """
    def setValues(self, np_array3: numpy.typing.ArrayLike) -> None:
        """
        Sets the values and the dimensions from a 3D array.
        """
    def shift(self, dv: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Adds dv to the value of every cell.
        """
    @property
    def bbox(self) -> list[float]:
        """
        [xmin, ymin, zmin, xmax, ymax, zmax] (a copy; assign to replace).
        """
    @bbox.setter
    def bbox(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def bmax(self) -> list[float]:
        """
        The upper corner [x, y, z] (a copy; assign to change it).
        """
    @bmax.setter
    def bmax(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def bmin(self) -> list[float]:
        """
        The lower corner [x, y, z] (a copy; assign to change it).
        """
    @bmin.setter
    def bmin(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def bounds(self) -> list[float]:
        """
        [xmin, ymin, zmin, xmax, ymax, zmax] (as bbox).
        """
    @bounds.setter
    def bounds(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def dataPtr(self) -> int:
        """
        Address of the native data (an opaque integer; it changes when the data is resized while numpy views of it exist).
        """
    @property
    def dims(self) -> list[int]:
        """
        Cells along x, y, z (a copy; assigning resizes and zeroes the values).
        """
    @dims.setter
    def dims(self, arg1: collections.abc.Sequence[int] | numpy.ndarray) -> None:
        ...
    @property
    def isStandalone(self) -> bool:
        """
        True: a data object owns its data here (Geometry3D's getters return copies).
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def values(self) -> numpy.ndarray:
        """
        A 3D numpy view of the values (assigning a 3D array sets values and dimensions, as setValues).
        """
    @values.setter
    def values(self, arg1: numpy.typing.ArrayLike) -> None:
        ...
class Heightmap:
    """
    A height (elevation) map or a depth map: values at the vertices of a w x h grid. In elevation-map form (viewport.perspective False) vertex (i, j) is ((i+0.5-cx)/fx, (h-1-j+0.5-cy)/fy, heights[i, j]) (y flipped so that images read top-down); in depth-map form it is (d(i+0.5-cx)/fx, d(j+0.5-cy)/fy, d) with d = heights[i, j], both placed by viewport's pose. NaN (and 0 for depth maps) marks a missing sample. Space below an elevation map, or behind a depth map, is solid for contains_point; the other queries see the surface.
    """
    @typing.overload
    def __init__(self) -> None:
        """
        An empty heightmap (1 x 1 viewport, no samples).
        """
    @typing.overload
    def __init__(self, rhs: Heightmap) -> None:
        """
        A copy of another heightmap.
        """
    def addProperty(self, pname: str, np_array2: numpy.typing.ArrayLike | None = None) -> int:
        """
        Adds a property channel (zeros, or a (w, h) array); returns its index.
        """
    def clearColors(self) -> None:
        """
        Removes the colours.
        """
    def copy(self) -> Heightmap:
        """
        A standalone copy.
        """
    def get(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex) -> float:
        """
        The height of vertex (i, j) (x then y index, reversed from image order).
        """
    def getColor(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex) -> typing.Annotated[list[float], "FixedSize(4)"]:
        """
        RGBA in [0, 1] of vertex (i, j) (white without colours).
        """
    def getColorImage(self) -> numpy.ndarray:
        """
        (h, w, channels) uint8 numpy view of the colours, rows top to bottom.
        """
    def getColorImage_d(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The colours as an (h, w, channels) float image in [0, 1].
        """
    def getColorImage_i(self) -> numpy.typing.NDArray[numpy.uint32]:
        """
        The colours as an (h, w) uint32 image packed 0xAARRGGBB (alpha 0 without an alpha channel).
        """
    def getHeightImage(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        The heights as an (h, w) float32 image, rows top to bottom.
        """
    def getHeightImage_b(self) -> tuple:
        """
        (image, scale): the heights as an (h, w) uint8 image (height / scale * 255, truncated) and the scale.
        """
    def getHeightImage_s(self) -> tuple:
        """
        (image, scale): the heights as an (h, w) uint16 image (height / scale * 65535, truncated) and the scale.
        """
    def getHeights(self) -> numpy.ndarray:
        """
        A (w, h) float32 numpy view of the heights (writes change the heightmap).
        """
    def getProperties(self, pindex: typing.SupportsInt | typing.SupportsIndex) -> numpy.ndarray:
        """
        A (w, h) float32 numpy view of property channel pindex.
        """
    def getProperty(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
        """
        The property values of vertex (i, j), one per channel.
        """
    def getViewport(self) -> klampt._viewport.Viewport:
        """
        A klampt.Viewport copy of the size, projection, intrinsics and pose.
        """
    def hasColors(self) -> bool:
        """
        True if colours are present.
        """
    def isOrthographic(self) -> bool:
        """
        True in orthographic (elevation map) mode.
        """
    def isPerspective(self) -> bool:
        """
        True in perspective (depth map) mode.
        """
    def numProperties(self) -> int:
        """
        The number of property channels.
        """
    def propertyIndex(self, pname: str) -> int:
        """
        Index of the named property channel, -1 if there is none.
        """
    def resize(self, w: typing.SupportsInt | typing.SupportsIndex, h: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Resizes to w x h samples, keeping the heights that remain; the intrinsics scale with the size.
        """
    def scale(self, c: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Multiplies every height by c.
        """
    @typing.overload
    def set(self, arg2: Heightmap) -> None:
        """
        Copies another heightmap into this one.
        """
    @typing.overload
    def set(self, value: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets every height to value.
        """
    @typing.overload
    def set(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex, value: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the height of vertex (i, j) (x then y index; NaN marks a missing sample).
        """
    @typing.overload
    def setColor(self, intensity: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Colours every vertex grey with the intensity in [0, 1] (an RGB image).
        """
    @typing.overload
    def setColor(self, rgba: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Colours every vertex with rgba in [0, 1] (an RGBA image).
        """
    @typing.overload
    def setColor(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex, intensity: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Colours vertex (i, j) grey.
        """
    @typing.overload
    def setColor(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex, rgba: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Colours vertex (i, j) with rgba in [0, 1] (adds a white RGBA image if there are no colours).
        """
    def setColorImage(self, img: numpy.typing.ArrayLike) -> None:
        """
        Sets the colours from an (h, w), (h, w, 1/3/4) uint8 or float ([0, 1]) image, or (h, w) uint32 0xAARRGGBB.
        """
    def setColorImage_b(self, np_array3: numpy.typing.ArrayLike) -> None:
        """
        Sets the colours from an (h, w, 1/3/4) uint8 image, rows top to bottom.
        """
    def setColorImage_i(self, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets the colours from an (h, w) uint32 image packed 0xAARRGGBB.
        """
    def setFOV(self, fovx: typing.SupportsFloat | typing.SupportsIndex, fovy: typing.SupportsFloat | typing.SupportsIndex = -1.0) -> None:
        """
        Perspective (depth map) projection with fields of view in radians, centred (fovy <= 0: square pixels).
        """
    def setHeightImage(self, img: numpy.typing.ArrayLike, height_scale: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        Sets the heights from an (h, w) image, rows top to bottom, times height_scale; an image of another size resizes the map to w x h first.
        """
    def setHeights(self, arr: numpy.typing.ArrayLike) -> None:
        """
        Copies a (w, h) array (x then y index) into the heights.
        """
    def setHeights_f(self, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Copies a (w, h) float array into the heights.
        """
    def setIntrinsics(self, fx: typing.SupportsFloat | typing.SupportsIndex, fy: typing.SupportsFloat | typing.SupportsIndex, cx: typing.SupportsFloat | typing.SupportsIndex = -1.0, cy: typing.SupportsFloat | typing.SupportsIndex = -1.0) -> None:
        """
        Perspective (depth map) projection with intrinsics fx, fy, cx, cy (cx, cy < 0: the image centre).
        """
    def setProperties(self, pindex: typing.SupportsInt | typing.SupportsIndex, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Copies a (w, h) array into property channel pindex.
        """
    def setProperty(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex, np_array: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the property values of vertex (i, j), one per channel.
        """
    def setPropertyImage(self, pindex: typing.SupportsInt | typing.SupportsIndex, img: numpy.typing.ArrayLike) -> None:
        """
        Sets property channel pindex from an (h, w) image, rows top to bottom.
        """
    def setSize(self, width: typing.SupportsFloat | typing.SupportsIndex, height: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Orthographic (elevation map) projection spanning width x height, centred (height <= 0: square cells).
        """
    def setViewport(self, viewport: klampt._viewport.Viewport) -> None:
        """
        Sets size, projection, intrinsics and pose from a klampt.Viewport (a new size resizes the arrays).
        """
    def shift(self, dh: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Adds dh to every height.
        """
    @property
    def colorImage(self) -> numpy.ndarray:
        """
        (h, w, channels) uint8 numpy view of the colours, rows top to bottom; assigning sets them.
        """
    @colorImage.setter
    def colorImage(self, arg1: numpy.typing.ArrayLike) -> None:
        ...
    @property
    def dataPtr(self) -> int:
        """
        Address of the heightmap data (an integer identifying it).
        """
    @property
    def heights(self) -> numpy.ndarray:
        """
        (w, h) float32 numpy view of the heights; assigning a (w, h) array copies it in.
        """
    @heights.setter
    def heights(self, arg1: numpy.typing.ArrayLike) -> None:
        ...
    @property
    def isStandalone(self) -> bool:
        """
        Always True: a Heightmap owns its data (Geometry3D.getHeightmap returns a copy).
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def viewport(self) -> klampt._viewport.Viewport:
        """
        The viewport (a copy: change it, then assign it back).
        """
    @viewport.setter
    def viewport(self, arg1: klampt._viewport.Viewport) -> None:
        ...
class OccupancyGrid:
    """
    An occupancy (or density) grid: cell (i, j, k) holds a value and spans [bmin + (i, j, k) * size, bmin + (i+1, j+1, k+1) * size) with size = (bmax - bmin) / dims. The queries treat the cells whose value exceeds occupancyThreshold (0.5 by default) as solid boxes.
    """
    @typing.overload
    def __init__(self) -> None:
        """
        An empty grid (no cells).
        """
    @typing.overload
    def __init__(self, rhs: OccupancyGrid) -> None:
        """
        A copy of another grid.
        """
    def copy(self) -> OccupancyGrid:
        """
        A standalone copy.
        """
    def get(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex, k: typing.SupportsInt | typing.SupportsIndex) -> float:
        """
        The value of cell (i, j, k).
        """
    def getBmax(self) -> list[float]:
        """
        The upper corner [x, y, z].
        """
    def getBmin(self) -> list[float]:
        """
        The lower corner [x, y, z].
        """
    def getBounds(self) -> tuple[list[float], list[float]]:
        """
        (bmin, bmax) (deprecated, kept for older code).
        """
    def getOccupancyThreshold(self) -> float:
        """
        The value above which a cell is occupied for the queries.
        """
    def getValues(self) -> numpy.ndarray:
        """
        A dims[0] x dims[1] x dims[2] numpy view of the values.
        """
    def resize(self, sx: typing.SupportsInt | typing.SupportsIndex, sy: typing.SupportsInt | typing.SupportsIndex, sz: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Sets the dimensions; values become 0.
        """
    def scale(self, cv: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Multiplies every value by cv.
        """
    @typing.overload
    def set(self, arg2: OccupancyGrid) -> None:
        """
        Copies another grid into this one.
        """
    @typing.overload
    def set(self, value: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets every cell to value.
        """
    @typing.overload
    def set(self, i: typing.SupportsInt | typing.SupportsIndex, j: typing.SupportsInt | typing.SupportsIndex, k: typing.SupportsInt | typing.SupportsIndex, value: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets cell (i, j, k).
        """
    def setBmax(self, bmax: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the upper corner (bmin <= bmax is checked when the grid is used).
        """
    def setBmin(self, bmin: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the lower corner (bmin <= bmax is checked when the grid is used).
        """
    def setBounds(self, bounds: tuple) -> None:
        """
        Sets (bmin, bmax) (deprecated, kept for older code).
        """
    def setOccupancyThreshold(self, threshold: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the value above which a cell is occupied for the queries.
        """
    def setValues(self, np_array3: numpy.typing.ArrayLike) -> None:
        """
        Sets the values and the dimensions from a 3D array.
        """
    def shift(self, dv: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Adds dv to every value.
        """
    @property
    def bmax(self) -> list[float]:
        """
        The upper corner [x, y, z] (a copy; assign to change).
        """
    @bmax.setter
    def bmax(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def bmin(self) -> list[float]:
        """
        The lower corner [x, y, z] (a copy; assign to change).
        """
    @bmin.setter
    def bmin(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def bounds(self) -> tuple[list[float], list[float]]:
        """
        (bmin, bmax) (deprecated, kept for older code).
        """
    @bounds.setter
    def bounds(self, arg1: tuple) -> None:
        ...
    @property
    def dataPtr(self) -> int:
        """
        Address of the grid data (an integer identifying it).
        """
    @property
    def isStandalone(self) -> bool:
        """
        Always True: an OccupancyGrid owns its data (Geometry3D.getOccupancyGrid returns a copy).
        """
    @property
    def occupancyThreshold(self) -> float:
        """
        The value above which a cell is occupied for the queries (0.5 by default).
        """
    @occupancyThreshold.setter
    def occupancyThreshold(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def values(self) -> numpy.ndarray:
        """
        A 3D numpy view of the values (writes change the grid).
        """
class Geometry3D:
    """
    The three-D geometry container used throughout Klampt.
    """
    @typing.overload
    def __init__(self) -> None:
        ...
    @typing.overload
    def __init__(self, arg2: Geometry3D) -> None:
        ...
    @typing.overload
    def __init__(self, arg2: TriangleMesh) -> None:
        ...
    @typing.overload
    def __init__(self, arg2: PointCloud) -> None:
        ...
    @typing.overload
    def __init__(self, arg2: GeometricPrimitive) -> None:
        ...
    @typing.overload
    def __init__(self, arg2: ConvexHull) -> None:
        ...
    @typing.overload
    def __init__(self, arg2: VolumeGrid) -> None:
        ...
    @typing.overload
    def __init__(self, arg2: Heightmap) -> None:
        ...
    @typing.overload
    def __init__(self, arg2: OccupancyGrid) -> None:
        ...
    def __reduce__(self) -> tuple:
        """
        Pickles the shape, transform and margin; it unpickles as a standalone geometry.
        """
    def _render_mesh(self, creaseAngle: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> dict:
        """
        Triangles to draw, built once per shape version: a dict of read-only arrays 'positions' and 'normals' (float32, 3 rows per triangle, local frame), 'source_vertex' (uint32, the mesh vertex of each row), 'edges' (uint32 row pairs, each mesh edge once) and 'serial' (changes with the shape). Normals are smoothed across edges flatter than creaseAngle (radians).
        """
    def _render_points(self) -> dict:
        """
        Points of a point cloud to draw: read-only 'positions' (float32 n x 3, local frame), 'colors' (float32 n x 4 RGBA from the rgb / rgba / r, g, b properties, or None) and 'serial'.
        """
    def clone(self) -> Geometry3D:
        """
        A standalone copy (same as copy()).
        """
    def collides(self, other: Geometry3D) -> bool:
        """
        True if this geometry (grown by its margin) touches the other (grown by its margin).
        """
    def collides_ext(self, other: Geometry3D, maxContacts: typing.SupportsInt | typing.SupportsIndex = 0) -> tuple:
        """
        (elem1, elem2): the pairs of elements of this geometry and the other that collide (margins included, as collides), sorted by elem1 then elem2, each pair once; empty lists when they do not collide. Elements are mesh triangles, point cloud points and top-level group members as getElement numbers them, 0 for other shapes. maxContacts > 0 returns only the first that many pairs (Klamp't 0.10.1 honours only 1); 0 returns all.
        """
    def contacts(self, other: Geometry3D, padding1: typing.SupportsFloat | typing.SupportsIndex, padding2: typing.SupportsFloat | typing.SupportsIndex, maxContacts: typing.SupportsInt | typing.SupportsIndex = 0) -> ContactQueryResult:
        """
        Contacts within padding1 + padding2 + both margins. maxContacts > 0 keeps at most that many: the contacts are clustered by k-means on their positions and normals (deterministic seeds: the deepest, then the farthest) and the deepest contact of each cluster is kept; Klamp't 0.9.2 returns every contact. Unlike Klamp't 0.9.2 every pair is answered (no abort for a point inside a sphere or box).
        """
    def contains_point(self, pt: collections.abc.Sequence[float] | numpy.ndarray) -> bool:
        """
        True if the world point pt lies in this geometry's solid (the collision margin is not counted): inside or on a sphere, box or convex hull; a volume grid value <= 0; inside a closed triangle mesh (generalized winding number, exact for closed meshes, unlike Klamp't 0.10's approximation); a point of a point cloud or within its radius property; below a heightmap's surface; in an occupied cell of an occupancy grid; in any member of a group.
        """
    def convert(self, type: str, param: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> Geometry3D:
        """
        A standalone geometry of another type (see the reference for param).
        """
    def copy(self) -> Geometry3D:
        """
        A standalone copy: shape, current transform and margin.
        """
    def distance(self, other: Geometry3D) -> DistanceQueryResult:
        """
        Distance and closest points, minus both collision margins. Signed (negative = penetration depth) when either side is a sphere or a volume grid, or both are convex hulls; other penetrating pairs give 0 (meshes count as surfaces). Unlike Klamp't 0.9.2, every pair of primitives, meshes, hulls and point clouds is answered with the Euclidean distance (Segment, Triangle, AABB, Box against anything), and the sphere-point distance is signed in both orders.
        """
    def distance_ext(self, other: Geometry3D, settings: DistanceQuerySettings) -> DistanceQueryResult:
        """
        Like distance(other), with the settings (DistanceQuerySettings: error tolerances, upper bound) controlling the computation; returns a DistanceQueryResult.
        """
    def distance_point(self, pt: collections.abc.Sequence[float] | numpy.ndarray) -> DistanceQueryResult:
        """
        Distance from a world point, cp1 on this geometry and cp2 = pt. Signed for spheres, convex hulls, volume grids and point clouds with radii (Klamp't 0.9.2 returns 0 inside a sphere). Segments give the Euclidean distance (the reference's is wrong).
        """
    def distance_point_ext(self, pt: collections.abc.Sequence[float] | numpy.ndarray, settings: DistanceQuerySettings) -> DistanceQueryResult:
        """
        Like distance_point(pt) for the world point pt, with the settings (DistanceQuerySettings: error tolerances, upper bound) controlling the computation; returns a DistanceQueryResult.
        """
    def distance_simple(self, other: Geometry3D, relErr: typing.SupportsFloat | typing.SupportsIndex = 0.0, absErr: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> float:
        """
        The distance d of distance(other).
        """
    def empty(self) -> bool:
        """
        Returns True if the geometry has no data (type '').
        """
    def free(self) -> None:
        """
        Releases the data; the handle becomes an empty standalone geometry.
        """
    def getBB(self) -> tuple[list[float], list[float]]:
        """
        Axis-aligned bounding box ([xmin,ymin,zmin],[xmax,ymax,zmax]) in world coordinates, grown by the collision margin. O(1) after the first call; contains getBBTight() but is looser when rotated.
        """
    def getBBTight(self) -> tuple[list[float], list[float]]:
        """
        The tightest axis-aligned bounding box in world coordinates, grown by the collision margin. O(n).
        """
    def getCollisionMargin(self) -> float:
        """
        Returns the collision margin in metres (see setCollisionMargin).
        """
    def getConvexHull(self) -> ConvexHull:
        """
        Returns a copy of the convex hull (edit it, then setConvexHull to apply); ValueError if the geometry is not a ConvexHull.
        """
    def getCurrentTransform(self) -> tuple[list[float], list[float]]:
        """
        Returns the current transform (R,t) of the geometry in world coordinates: R a column-major 9-list rotation matrix, t a 3-list in metres.
        """
    def getElement(self, element: typing.SupportsInt | typing.SupportsIndex) -> Geometry3D:
        """
        A standalone copy of a group member, mesh triangle or cloud point (local coordinates).
        """
    def getGeometricPrimitive(self) -> GeometricPrimitive:
        """
        Returns a copy of the primitive (edit it, then setGeometricPrimitive to apply); ValueError if the geometry is not a GeometricPrimitive.
        """
    def getHeightmap(self) -> Heightmap:
        """
        A copy of the heightmap (edit it, then setHeightmap to apply).
        """
    def getImplicitSurface(self) -> VolumeGrid:
        """
        Klamp't 0.10's name of getVolumeGrid: a copy of the grid (ImplicitSurface is VolumeGrid).
        """
    def getOccupancyGrid(self) -> OccupancyGrid:
        """
        A copy of the occupancy grid (edit it, then setOccupancyGrid to apply).
        """
    def getPointCloud(self) -> PointCloud:
        """
        Returns a copy of the point cloud (edit it, then setPointCloud to apply); ValueError if the geometry is not a PointCloud.
        """
    def getTriangleMesh(self) -> TriangleMesh:
        """
        A copy of the mesh (edit it, then setTriangleMesh to apply).
        """
    def getVolumeGrid(self) -> VolumeGrid:
        """
        Returns a copy of the volume grid (edit it, then setVolumeGrid to apply); ValueError if the geometry is not a VolumeGrid.
        """
    def isStandalone(self) -> bool:
        """
        Returns True if this geometry is standalone, False if it belongs to an element of a world.
        """
    def loadFile(self, fn: str) -> bool:
        """
        Loads the geometry from the file fn (mesh, point cloud, primitive or other supported format); returns True on success, False (with an error logged) on failure.
        """
    def merge(self, other: Geometry3D) -> None:
        """
        Merges other (at its current transform) into this geometry, in place, in this geometry's frame; the type, pose and margin stay. TriangleMesh + TriangleMesh appends the triangles; PointCloud + PointCloud appends the points, keeping the properties both clouds name (Klamp't 0.10 refuses clouds whose names differ); ConvexHull + ConvexHull gives the hull of both; a VolumeGrid (ImplicitSurface) takes at each cell the smaller of its value and the signed distance to other, over its own domain (other may be any shape with a point distance; meshes are signed by their inside); an OccupancyGrid marks the cells other overlaps or contains; a Heightmap keeps its samples: an elevation map rises to other's top surface seen from above, a depth map takes other's depth where it is nearer to the camera. Raises ValueError for other combinations.
        """
    def numElements(self) -> int:
        """
        Returns the number of sub-elements: group members, mesh triangles, cloud points or grid cells; 1 for a primitive or a convex hull.
        """
    def rayCast(self, s: collections.abc.Sequence[float] | numpy.ndarray, d: collections.abc.Sequence[float] | numpy.ndarray) -> tuple[bool, list[float]]:
        """
        (hit, pt): whether the ray from s along d hits the geometry, and the first hit point. Points and segments are never hit; point clouds need radii or a margin.
        """
    def rayCast_ext(self, s: collections.abc.Sequence[float] | numpy.ndarray, d: collections.abc.Sequence[float] | numpy.ndarray) -> tuple[int, list[float]]:
        """
        (element, pt): the element hit (triangle, point, group element; 0 for primitives) or -1.
        """
    def roi(self, query: str, bmin: collections.abc.Sequence[float] | numpy.ndarray, bmax: collections.abc.Sequence[float] | numpy.ndarray) -> Geometry3D:
        """
        Returns the part of this geometry, in its local frame, inside the world-coordinates box [bmin,bmax] (3-lists, metres): points, or whole triangles of a mesh. query is 'intersect', 'touching' or 'within', optionally prefixed by '~' to invert the selection.
        """
    def rotate(self, R: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Rotates the geometry's local data about the local origin by R (a column-major 9-list rotation matrix).
        """
    def saveFile(self, fn: str) -> bool:
        """
        Saves the geometry's local data to the file fn, in the format given by its extension; returns True on success, False (with an error logged) on failure.
        """
    @typing.overload
    def scale(self, s: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Scales the geometry's local data uniformly by the factor s about the local origin.
        """
    @typing.overload
    def scale(self, sx: typing.SupportsFloat | typing.SupportsIndex, sy: typing.SupportsFloat | typing.SupportsIndex, sz: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Scales the geometry's local data about the local origin by sx, sy and sz along the local x, y and z axes.
        """
    def set(self, arg2: Geometry3D) -> None:
        """
        Copies the other geometry's shape and margin (and, if this is standalone, its current transform).
        """
    def setCollisionMargin(self, margin: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the collision margin (metres, >= 0): the geometry is grown by this much in collision and proximity queries.
        """
    def setConvexHull(self, arg2: ConvexHull) -> None:
        """
        Replaces the geometry's data with the convex hull of the points of arg2 (in local coordinates); the current transform is kept.
        """
    def setConvexHullGroup(self, g1: Geometry3D, g2: Geometry3D) -> None:
        """
        Makes this geometry the convex hull of the points of geometries g1 and g2 at their current relative pose, expressed in g1's local frame; the geometry takes g1's current transform.
        """
    def setCurrentTransform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the current transform of the geometry in world coordinates: R a column-major 9-list rotation matrix, t a 3-list translation in metres. The local data is not changed.
        """
    def setElement(self, element: typing.SupportsInt | typing.SupportsIndex, data: Geometry3D) -> None:
        """
        Sets sub-element number element to the geometry data: replaces a group member (element == numElements() appends one), placed in the group's frame by data's current transform; moves a mesh triangle's vertices to a Triangle primitive's, or a cloud point to a Point's.
        """
    def setGeometricPrimitive(self, arg2: GeometricPrimitive) -> None:
        """
        Replaces the geometry's data with a copy of the primitive arg2 (in local coordinates); the current transform is kept.
        """
    def setGroup(self) -> None:
        """
        Makes this geometry an empty Group; add members with setElement.
        """
    def setHeightmap(self, hm: Heightmap) -> None:
        """
        Sets this geometry to a copy of the heightmap.
        """
    def setImplicitSurface(self, grid: VolumeGrid) -> None:
        """
        Klamp't 0.10's name of setVolumeGrid.
        """
    def setOccupancyGrid(self, grid: OccupancyGrid) -> None:
        """
        Sets this geometry to a copy of the occupancy grid.
        """
    def setPointCloud(self, arg2: PointCloud) -> None:
        """
        Replaces the geometry's data with a copy of the point cloud arg2 (in local coordinates); the current transform is kept.
        """
    def setTriangleMesh(self, arg2: TriangleMesh) -> None:
        """
        Replaces the geometry's data with a copy of the triangle mesh arg2 (in local coordinates); the current transform is kept.
        """
    def setVolumeGrid(self, arg2: VolumeGrid) -> None:
        """
        Replaces the geometry's data with a copy of the volume grid arg2 (in local coordinates); the current transform is kept.
        """
    def slice(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray, tol: typing.SupportsFloat | typing.SupportsIndex) -> Geometry3D:
        """
        Returns the slice of this geometry (at its current transform) by the x-y plane of the frame (R,t) in world coordinates, expressed in that frame: the points of a point cloud within distance tol of the plane, or a mesh's cross-section as a Group of Segment primitives.
        """
    def support(self, dir: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        The point of this geometry furthest along dir, in world coordinates.
        """
    def transform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Transforms the geometry's local data by the rigid transform (R,t): R a column-major 9-list rotation matrix, t a 3-list in metres. The current transform is not changed.
        """
    def translate(self, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Translates the geometry's local data by t (3-list, metres, local frame).
        """
    def type(self) -> str:
        """
        Returns the type of the geometry: '' (empty), 'GeometricPrimitive', 'TriangleMesh', 'PointCloud', 'VolumeGrid', 'ConvexHull', 'Group', 'Heightmap' or 'OccupancyGrid'.
        """
    def withinDistance(self, other: Geometry3D, tol: typing.SupportsFloat | typing.SupportsIndex) -> bool:
        """
        Returns True if this geometry and the other are within distance tol (metres) of each other, collision margins included.
        """
    def withinDistance_ext(self, other: Geometry3D, tol: typing.SupportsFloat | typing.SupportsIndex, maxContacts: typing.SupportsInt | typing.SupportsIndex = 0) -> tuple:
        """
        (elem1, elem2): the pairs of elements within distance tol of each other (margins included, as withinDistance), numbered and ordered as in collides_ext; maxContacts > 0 keeps the first that many.
        """
    @property
    def geomPtr(self) -> int:
        """
        Address of the native geometry data (an opaque integer, for the reference's C++ interoperability).
        """
    @property
    def id(self) -> int:
        """
        Index of the element within its world (world.getName(id) names it), or -1 for a standalone geometry.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def world(self) -> int:
        """
        Index of the world whose element this geometry belongs to, or -1 for a standalone geometry.
        """
class Appearance:
    """
    Geometry appearance information (colors, textures, draw flags).
    """
    ALL: typing.ClassVar[int] = 0
    EDGES: typing.ClassVar[int] = 2
    EMISSIVE: typing.ClassVar[int] = 4
    FACES: typing.ClassVar[int] = 3
    SPECULAR: typing.ClassVar[int] = 5
    VERTICES: typing.ClassVar[int] = 1
    @typing.overload
    def __init__(self) -> None:
        ...
    @typing.overload
    def __init__(self, app: Appearance) -> None:
        ...
    def __reduce__(self) -> tuple:
        """
        Pickles the appearance; it unpickles as a standalone appearance.
        """
    def _render_state(self) -> dict:
        """
        Everything a renderer reads from the appearance, as a dict (colors as RGBA lists, per-element colors as float32 n x 4 copies or None, texture texels and coordinates or None).
        """
    def clone(self) -> Appearance:
        """
        Returns a standalone deep copy of this appearance, not tied to any world element.
        """
    def drawGL(self, geom = None):
        """
        Draws a geometry in its local frame with this appearance, in the
            current OpenGL context. (The reference also accepts no argument for an
            element's appearance; here the geometry is always passed.)
        """
    def drawWorldGL(self, geom):
        """
        Draws a geometry at its current transform with this appearance, in
            the current OpenGL context.
        """
    def free(self) -> None:
        """
        Releases the data; the handle becomes a default standalone appearance.
        """
    @typing.overload
    def getColor(self) -> list:
        """
        Returns the main color as a list [r,g,b,a] of floats in [0,1].
        """
    @typing.overload
    def getColor(self, feature: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        Returns the color of the given feature as a list [r,g,b,a] of floats in [0,1].
        """
    def getColors(self, feature: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float32]:
        """
        The per-element colors of VERTICES or FACES as an m x 4 float32 array, or the feature's color as a 1 x 4 array if it has none; ValueError for another feature.
        """
    @typing.overload
    def getDraw(self) -> bool:
        """
        Returns whether the appearance is drawn at all.
        """
    @typing.overload
    def getDraw(self, feature: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Returns whether the given feature (VERTICES, EDGES, FACES, ...) is drawn.
        """
    def getElementColor(self, feature: typing.SupportsInt | typing.SupportsIndex, element: typing.SupportsInt | typing.SupportsIndex) -> list:
        """
        The element's color, or the feature's color if no per-element color was set for it.
        """
    def getShininess(self) -> float:
        """
        Returns the specular shininess exponent.
        """
    def getTexcoords1D(self) -> numpy.ndarray:
        """
        A copy of the per-vertex 1D texture coordinates (length n). RuntimeError if none are set.
        """
    def getTexcoords2D(self) -> numpy.ndarray:
        """
        A copy of the per-vertex 2D texture coordinates (n x 2). RuntimeError if none are set.
        """
    def getTexgenMatrix(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The texture generation planes as an m x 4 array (m in 0..4; empty when off).
        """
    def getTexture1D_channels(self) -> numpy.ndarray:
        """
        A copy of the 1D texture: an n x channels uint8 array. RuntimeError if no 1D texture is set.
        """
    def getTexture1D_format(self) -> str:
        """
        The 1D texture's format, '' if none is set (a one-row 2D texture counts as 1D too).
        """
    def getTexture2D_channels(self) -> numpy.ndarray:
        """
        A copy of the 2D texture: an h x w x channels uint8 array, top row first. RuntimeError if no texture is set.
        """
    def getTexture2D_format(self) -> str:
        """
        The 2D texture's format, '' if none is set.
        """
    def getTintColor(self) -> list:
        """
        Returns the tint color as a list [r,g,b,a] of floats in [0,1].
        """
    def getTintStrength(self) -> float:
        """
        Returns the strength (blending weight) of the tint color; 0 means no tint.
        """
    def isStandalone(self) -> bool:
        """
        Returns True if this appearance is standalone, False if it belongs to an element of a world.
        """
    def isTexgenWorld(self) -> bool:
        """
        Whether texture generation is performed in world coordinates (else in local ones).
        """
    def refresh(self, deep: bool = True) -> None:
        """
        Kept for compatibility: there are no OpenGL buffers to rebuild here.
        """
    def set(self, arg2: Appearance) -> None:
        """
        Copies all of the data of the appearance arg2 into this one (the element this handle refers to keeps it).
        """
    @typing.overload
    def setColor(self, r: typing.SupportsFloat | typing.SupportsIndex, g: typing.SupportsFloat | typing.SupportsIndex, b: typing.SupportsFloat | typing.SupportsIndex, a: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        Sets the main color of the appearance (r, g, b, a each in [0,1]).
        """
    @typing.overload
    def setColor(self, feature: typing.SupportsInt | typing.SupportsIndex, r: typing.SupportsFloat | typing.SupportsIndex, g: typing.SupportsFloat | typing.SupportsIndex, b: typing.SupportsFloat | typing.SupportsIndex, a: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the color of one feature (VERTICES, EDGES, FACES, EMISSIVE, SPECULAR; ALL for all of them); r, g, b, a each in [0,1].
        """
    def setColors(self, feature: typing.SupportsInt | typing.SupportsIndex, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets per-element colors of the given feature (VERTICES or FACES) from an m x 3 (rgb) or m x 4 (rgba) array of floats in [0,1], one row per vertex or face.
        """
    def setCreaseAngle(self, creaseAngleRads: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        For meshes, sets the crease angle in radians above which normals are not smoothed across an edge; 0 disables smoothing.
        """
    @typing.overload
    def setDraw(self, draw: bool) -> None:
        """
        Turns drawing of the whole appearance on (draw=True) or off.
        """
    @typing.overload
    def setDraw(self, feature: typing.SupportsInt | typing.SupportsIndex, draw: bool) -> None:
        """
        Turns drawing of one feature (VERTICES, EDGES, FACES; ALL for all of them) on or off.
        """
    def setElementColor(self, feature: typing.SupportsInt | typing.SupportsIndex, element: typing.SupportsInt | typing.SupportsIndex, r: typing.SupportsFloat | typing.SupportsIndex, g: typing.SupportsFloat | typing.SupportsIndex, b: typing.SupportsFloat | typing.SupportsIndex, a: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        Sets the color of one element (vertex or face index) of the given feature (VERTICES or FACES); r, g, b, a each in [0,1].
        """
    def setPointSize(self, size: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        For point clouds and vertices, sets the drawn point size in pixels (>= 0).
        """
    def setShininess(self, shininess: typing.SupportsFloat | typing.SupportsIndex, strength: typing.SupportsFloat | typing.SupportsIndex = -1.0) -> None:
        """
        Sets the specular shininess exponent (>= 0, 0 turns specular highlights off); if strength >= 0 the specular color also becomes (strength, strength, strength).
        """
    def setSilhouette(self, radius: typing.SupportsFloat | typing.SupportsIndex, r: typing.SupportsFloat | typing.SupportsIndex = 0.0, g: typing.SupportsFloat | typing.SupportsIndex = 0.0, b: typing.SupportsFloat | typing.SupportsIndex = 0.0, a: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        For meshes, sets the silhouette radius and color (r, g, b, a in [0,1]); a radius of 0 disables silhouette drawing.
        """
    def setTexWrap(self, wrap: bool) -> None:
        """
        Sets whether textures wrap (repeat) outside [0,1] texture coordinates (default True).
        """
    def setTexcoords(self, array: numpy.typing.ArrayLike) -> None:
        """
        Sets per-vertex texture coordinates: a length-n array for a 1D texture or an n x 2 array of (u, v) for a 2D one; an empty array turns texture mapping off.
        """
    def setTexcoords1D(self, np_array: numpy.typing.ArrayLike) -> None:
        """
        Sets per-vertex texture coordinates for a 1D texture (one float per vertex); an empty array turns texture mapping off.
        """
    def setTexcoords2D(self, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets per-vertex texture coordinates for a 2D texture as an n x 2 array of (u, v); an empty array turns texture mapping off.
        """
    def setTexgen(self, np_array2: numpy.typing.ArrayLike, worldcoordinates: bool = False) -> None:
        """
        Sets texture coordinate generation planes as an m x 4 array, m in 0..4 (0 turns it off); worldcoordinates=True generates them from world coordinates rather than the object's local ones.
        """
    def setTexture1D(self, format: str, array: numpy.typing.ArrayLike) -> None:
        """
        A 1D texture: w (uint8 or packed uint32) or w x c uint8 array.
        """
    def setTexture1D_b(self, format: str, np_array: numpy.typing.ArrayLike) -> None:
        """
        Sets a 1D texture from a 1D array of unsigned bytes; format is 'l8' (luminance); an empty format removes the texture.
        """
    def setTexture1D_channels(self, format: str, np_array2: numpy.typing.ArrayLike) -> None:
        """
        Sets a 1D texture from an n x channels array of unsigned bytes; format is 'rgb8', 'bgr8', 'rgba8', 'bgra8' or 'l8' to match the channel count; an empty format removes the texture.
        """
    def setTexture1D_i(self, format: str, np_array: numpy.typing.ArrayLike, m: typing.SupportsInt | typing.SupportsIndex = -1) -> None:
        """
        Sets a 1D texture from a 1D array of unsigned ints, each a packed color; format is 'rgba8' or 'bgra8'; an empty format removes the texture. m is ignored.
        """
    def setTexture2D(self, format: str, array: numpy.typing.ArrayLike) -> None:
        """
        A 2D texture, top row first: h x w or h x w x c array.
        """
    def setTexture2D_b(self, format: str, np_array2: numpy.typing.ArrayLike, topdown: bool = True) -> None:
        """
        Sets a 2D texture from an h x w array of unsigned bytes ('l8' format); the rows go top to bottom if topdown is True, else bottom to top.
        """
    def setTexture2D_channels(self, format: str, np_array3: numpy.typing.ArrayLike, topdown: bool = True) -> None:
        """
        Sets a 2D texture from an h x w x channels array of unsigned bytes (format as in setTexture1D_channels); the rows go top to bottom if topdown is True, else bottom to top.
        """
    def setTexture2D_i(self, format: str, np_array2: numpy.typing.ArrayLike, topdown: bool = True) -> None:
        """
        Sets a 2D texture from an h x w array of unsigned ints, each a packed color ('rgba8' or 'bgra8' format); the rows go top to bottom if topdown is True, else bottom to top.
        """
    def setTintColor(self, color: collections.abc.Sequence[float] | numpy.ndarray, strength: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets a tint color (a list [r,g,b,a] of floats in [0,1]) blended into all colors with weight strength (0 means no tint, 1 means the tint color only).
        """
    @property
    def appearancePtr(self) -> int:
        """
        Address of the native appearance data (an opaque integer, for the reference's C++ interoperability).
        """
    @property
    def id(self) -> int:
        """
        Index of the element within its world, or -1 for a standalone appearance.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def world(self) -> int:
        """
        Index of the world whose element this appearance belongs to, or -1 for a standalone appearance.
        """
class Mass:
    """
    Stores mass information for a rigid body or robot link.
    """
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def estimate(self, g: Geometry3D, mass: typing.SupportsFloat | typing.SupportsIndex, surfaceFraction: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> None:
        """
        Sets mass, com and inertia of a body of the given mass shaped like g (in g's local frame).
        """
    def getCom(self) -> list[float]:
        """
        Returns the center of mass (3-list, metres, in the body's local frame).
        """
    def getInertia(self) -> list[float]:
        """
        Returns the inertia matrix about the center of mass as set: 3 diagonal numbers or a column-major 9-list (kg*m^2).
        """
    def getMass(self) -> float:
        """
        Returns the mass (kg).
        """
    def setCom(self, _com: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the center of mass (3-list, metres, in the body's local frame).
        """
    def setInertia(self, _inertia: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the inertia matrix about the center of mass (kg*m^2, local frame axes): 3 numbers for a diagonal matrix or 9 for a full one (column-major).
        """
    def setMass(self, _mass: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the mass (kg).
        """
    @property
    def com(self) -> list[float]:
        """
        The center of mass [x, y, z] in the body's local frame, in m.
        """
    @com.setter
    def com(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def inertia(self) -> list[float]:
        """
        The inertia matrix about the center of mass in the local frame, kg m^2, as 9 numbers (row-major); assigning 3 numbers sets a diagonal.
        """
    @inertia.setter
    def inertia(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def mass(self) -> float:
        """
        The mass, in kg.
        """
    @mass.setter
    def mass(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class ContactParameters:
    """
    Stores contact parameters for an entity.
    """
    def __init__(self) -> None:
        ...
    @property
    def kDamping(self) -> float:
        """
        Contact damping, N s/m.
        """
    @kDamping.setter
    def kDamping(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def kFriction(self) -> float:
        """
        Coulomb friction coefficient (dimensionless).
        """
    @kFriction.setter
    def kFriction(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def kRestitution(self) -> float:
        """
        Coefficient of restitution in [0, 1].
        """
    @kRestitution.setter
    def kRestitution(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def kStiffness(self) -> float:
        """
        Contact stiffness, N/m.
        """
    @kStiffness.setter
    def kStiffness(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class RobotModelLink:
    """
    A reference to a link of a RobotModel.
    """
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def appearance(self) -> Appearance:
        """
        Returns a reference to the link's appearance.
        """
    def drawLocalGL(self, keepAppearance = True):
        """
        Draws the link's geometry in its local frame (keepAppearance=False:
            the current GL color, no material changes).
        """
    def drawWorldGL(self, keepAppearance = True):
        """
        Draws the link's geometry at the link's current transform.
        """
    def geometry(self) -> Geometry3D:
        """
        Returns a reference to the link's collision geometry (in the link's local frame).
        """
    def getAcceleration(self, ddq: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Computes the acceleration of the link origin (world coordinates, list of 3 floats) given the robot's current configuration and velocity and the joint accelerations ddq: J*ddq + dJ/dt*dq. ddq may be empty, meaning zero.
        """
    def getAngularAcceleration(self, ddq: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Computes the angular acceleration of the link in world coordinates (list of 3 floats), given the current configuration and velocity and the joint accelerations ddq (may be empty, meaning zero).
        """
    def getAngularVelocity(self) -> list[float]:
        """
        Returns the angular velocity of the link in world coordinates (3-list, rad/s), from the robot's current configuration and velocity.
        """
    def getAxis(self) -> list[float]:
        """
        Returns the joint axis (a unit 3-list in the link's local frame): the rotation axis of a revolute link, the translation direction of a prismatic one.
        """
    def getID(self) -> int:
        """
        Returns the ID of the link in its world, or -1 if the robot is not in a world.
        """
    def getIndex(self) -> int:
        """
        Returns the index of the link in its robot.
        """
    def getJacobian(self, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]:
        """
        6 x n Jacobian of a point on the link: angular rows first (ndarray).
        """
    def getJacobianCols(self, plocal: collections.abc.Sequence[float] | numpy.ndarray, links: collections.abc.Sequence[int] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]:
        """
        Returns the 6 x len(links) Jacobian of the point plocal (link's local frame) with respect to the given DOFs (link indices): rows 0-2 angular velocity, rows 3-5 linear velocity, in world coordinates.
        """
    def getLocalDirection(self, vworld: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Converts the direction vworld (3-list in world coordinates) to the link's local frame (rotation only).
        """
    def getLocalPosition(self, pworld: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Converts the point pworld (3-list in world coordinates, metres) to the link's local frame.
        """
    def getMass(self) -> Mass:
        """
        Returns a copy of the link's mass properties (Mass: mass in kg, center of mass and inertia in the link's local frame); edit it and call setMass to apply.
        """
    def getName(self) -> str:
        """
        Returns the name of the link.
        """
    def getOrientationHessian(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes the derivatives of the orientation Jacobian Jo (angular velocity w = Jo*dq) w.r.t. the configuration: a 3xnxn ndarray H with H[k,i,j] = d Jo[k,i] / dq_j (k over wx, wy, wz), as the reference. Angular velocity is not the derivative of a function of q, so H is not symmetric.
        """
    def getOrientationJacobian(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        3 x n Jacobian of the link's angular velocity (ndarray).
        """
    def getOrientationJacobianCols(self, links: collections.abc.Sequence[int] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]:
        """
        Returns the 3 x len(links) Jacobian of the link's angular velocity (world coordinates) with respect to the given DOFs (link indices).
        """
    def getParent(self) -> int:
        """
        Returns the index of the parent link, or -1 for a root link.
        """
    def getParentIndex(self) -> int:
        """
        Returns the index of the link's parent (on its robot); -1 indicates no parent.
        """
    def getParentLink(self) -> RobotModelLink:
        """
        Returns the link's parent, or a null link (index -1, whose other methods raise) if it has none.
        """
    def getParentTransform(self) -> tuple[list[float], list[float]]:
        """
        Returns the transform (R,t) of the link's frame relative to its parent's frame at a zero joint position: R a column-major 9-list rotation matrix, t a 3-list in metres.
        """
    def getPointAcceleration(self, plocal: collections.abc.Sequence[float] | numpy.ndarray, ddq: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Computes the acceleration of the point plocal (link coordinates) in world coordinates (list of 3 floats), given the current configuration and velocity and the joint accelerations ddq (may be empty, meaning zero).
        """
    def getPointVelocity(self, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Returns the world-coordinates velocity (3-list, m/s) of the point plocal (in the link's local frame), from the robot's current configuration and velocity.
        """
    def getPositionHessian(self, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes the Hessians of the world position p of the point plocal w.r.t. the configuration: a 3xnxn ndarray H with H[k,i,j] = d^2 p_k / dq_i dq_j (k over x, y, z).
        """
    def getPositionJacobian(self, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]:
        """
        3 x n Jacobian of the world position of the point plocal (ndarray).
        """
    def getPositionJacobianCols(self, plocal: collections.abc.Sequence[float] | numpy.ndarray, links: collections.abc.Sequence[int] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]:
        """
        Returns the 3 x len(links) Jacobian of the world position of the point plocal (link's local frame) with respect to the given DOFs (link indices).
        """
    def getTransform(self) -> tuple[list[float], list[float]]:
        """
        The link's world transform (R, t).
        """
    def getVelocity(self) -> list[float]:
        """
        Returns the velocity of the link's origin in world coordinates (3-list, m/s), from the robot's current configuration and velocity.
        """
    def getWorldDirection(self, vlocal: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Converts the direction vlocal (3-list in the link's local frame) to world coordinates (rotation only).
        """
    def getWorldPosition(self, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Converts the point plocal (3-list in the link's local frame, metres) to world coordinates at the current configuration.
        """
    def isPrismatic(self) -> bool:
        """
        Returns True if the link's joint is prismatic (translates along the axis).
        """
    def isRevolute(self) -> bool:
        """
        Returns True if the link's joint is revolute (rotates about the axis).
        """
    def robot(self) -> RobotModel:
        """
        Returns the RobotModel this link belongs to.
        """
    def setAxis(self, axis: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the joint axis (a 3-list in the link's local frame, normalized); the frames are updated.
        """
    def setMass(self, mass: Mass) -> None:
        """
        Sets the link's mass properties from the Mass object mass (mass in kg, center of mass and inertia in the link's local frame).
        """
    def setName(self, name: str) -> None:
        """
        Sets the name of the link.
        """
    def setParent(self, p: RobotModelLink | typing.SupportsIndex) -> None:
        """
        Sets the parent link, given as a RobotModelLink of the same robot or an index (-1 for none); the parent index must be lower than this link's. The frames are updated.
        """
    def setParentIndex(self, p: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Sets the index of the link's parent (-1 for none); the parent must come before the link. The robot's link frames are updated.
        """
    def setParentLink(self, l: RobotModelLink) -> None:
        """
        Sets the link's parent (a link of the same robot; a null link for none).
        """
    def setParentTransform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the transform (R,t) of the link's frame relative to its parent's frame at a zero joint position: R a column-major 9-list rotation matrix, t a 3-list in metres. The frames are updated.
        """
    def setPrismatic(self, prismatic: bool) -> None:
        """
        Makes the link's joint prismatic (True) or revolute (False); the frames are updated.
        """
    def setTransform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Overwrites the link's world transform (no IK; setConfig recomputes it).
        """
    @property
    def axis(self) -> list[float]:
        """
        The joint axis [x, y, z] in the link's frame: rotation axis of a revolute joint, direction of a prismatic one.
        """
    @property
    def index(self) -> int:
        """
        Index of the link within its robot.
        """
    @property
    def mass(self) -> Mass:
        """
        The link's Mass (kg, center of mass in the link frame, inertia); assigning a Mass sets it.
        """
    @mass.setter
    def mass(self, arg1: Mass) -> None:
        ...
    @property
    def name(self) -> str:
        """
        The link's name.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def parent(self) -> int:
        """
        Index of the parent link, or -1 for a root link.
        """
    @property
    def parentTransform(self) -> tuple[list[float], list[float]]:
        """
        The link's frame relative to its parent's at zero joint value, as (R, t) (R column-major, t in m).
        """
    @property
    def prismatic(self) -> bool:
        """
        True if the joint is prismatic (translates along axis), False if revolute.
        """
    @property
    def robotIndex(self) -> int:
        """
        Index of the link's robot within its world.
        """
    @property
    def robotPtr(self) -> int:
        """
        Opaque address of the underlying C++ robot.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def transform(self) -> tuple[list[float], list[float]]:
        """
        The link's current world transform (R, t) (R column-major, t in m), as getTransform().
        """
    @property
    def world(self) -> int:
        """
        Index of the robot's world, or -1.
        """
class RobotModelDriver:
    """
    A reference to a driver of a RobotModel.
    """
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def getAccelerationLimits(self) -> tuple[float, float]:
        """
        Returns the driver's acceleration limits (amin, amax).
        """
    def getAffectedLink(self) -> int:
        """
        Returns the index of the (first) link the driver moves.
        """
    def getAffectedLinks(self) -> list[int]:
        """
        Returns the indices of the links the driver moves.
        """
    def getAffineCoeffs(self) -> tuple[list[float], list[float]]:
        """
        (scale, offset) lists of an affine driver; empty lists for other drivers.
        """
    def getLimits(self) -> tuple[float, float]:
        """
        Returns the driver's value limits (qmin, qmax) (radians or metres).
        """
    def getName(self) -> str:
        """
        Returns the name of the driver.
        """
    def getTorqueLimits(self) -> tuple[float, float]:
        """
        Returns the driver's torque (or force) limits (tmin, tmax).
        """
    def getType(self) -> str:
        """
        One of 'normal', 'affine', 'translation', 'rotation'.
        """
    def getValue(self) -> float:
        """
        The driver's value at the robot's current configuration.
        """
    def getVelocity(self) -> float:
        """
        Returns the driver's velocity, computed from the robot's current velocity.
        """
    def getVelocityLimits(self) -> tuple[float, float]:
        """
        Returns the driver's velocity limits (vmin, vmax).
        """
    def robot(self) -> RobotModel:
        """
        Returns the RobotModel this driver belongs to.
        """
    def setName(self, name: str) -> None:
        """
        Sets the name of the driver.
        """
    def setValue(self, val: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the affected links of the robot's current configuration and updates its frames.
        """
    def setVelocity(self, val: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the driver's velocity to val, changing the robot's current velocity of the links it moves.
        """
    @property
    def affectedLink(self) -> int:
        """
        Index of the (first) link the driver moves.
        """
    @property
    def affectedLinks(self) -> list[int]:
        """
        Indices of the links the driver moves.
        """
    @property
    def index(self) -> int:
        """
        Index of the driver within its robot.
        """
    @property
    def name(self) -> str:
        """
        The driver's name.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def robotIndex(self) -> int:
        """
        Index of the driver's robot within its world.
        """
    @property
    def robotPtr(self) -> int:
        """
        Opaque address of the underlying C++ robot.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def type(self) -> str:
        """
        The driver's type: 'normal', 'affine', 'translation' or 'rotation'.
        """
    @property
    def value(self) -> float:
        """
        The driver's value at the robot's current configuration (rad or m); assigning sets the configuration.
        """
    @value.setter
    def value(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def velocity(self) -> float:
        """
        The driver's velocity at the robot's current velocity (rad/s or m/s); assigning sets the velocity.
        """
    @velocity.setter
    def velocity(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def world(self) -> int:
        """
        Index of the robot's world, or -1.
        """
class RobotModel:
    """
    A model of a dynamic and kinematic robot.
    """
    def __init__(self) -> None:
        ...
    def __reduce__(self) -> tuple:
        """
        Pickles the robot; it unpickles as a standalone robot.
        """
    def __repr__(self) -> str:
        ...
    def accelFromTorques(self, t: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Computes the forward dynamics: the ddq that solves B(q)*ddq + C(q,dq) = t at the current configuration and velocity (list of n floats), from the tree-structured factorization of B in O(n*depth^2). Gravity is not included: subtract getGravityForces(g) from t.
        
        If B is singular (links carrying no mass or inertia) the result is the minimum-norm least-squares solution B^+ (t - C): a DOF whose subtree moves no mass gets zero acceleration and the torque on it is ignored (the reference returns meaningless values there). See getMassMatrixInv. Raises ValueError if t has the wrong size or contains NaN/inf.
        """
    def addSensor(self, name: str, type: str) -> SimRobotSensor:
        """
        Adds a new sensor with a given name and type.
        """
    def configFromDrivers(self, driverValues: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Returns the robot's current configuration with every driver set to the values driverValues (one per driver); links no driver moves keep their current values.
        """
    def configToDrivers(self, config: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Returns the driver values (one per driver) that correspond to the configuration config (one entry per link).
        """
    def distance(self, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray) -> float:
        """
        Returns the distance between configurations a and b: the Euclidean distance over the joints, floating joints adding their translation distance and rotation angle.
        """
    def drawGL(self, keepAppearance = True):
        """
        Draws every link at its current transform (keepAppearance=False: in
            the current GL color).
        """
    def driver(self, index: typing.SupportsIndex | str) -> RobotModelDriver:
        """
        Returns a reference to the driver by index or name.
        """
    def enableSelfCollision(self, link1: typing.SupportsInt | typing.SupportsIndex, link2: typing.SupportsInt | typing.SupportsIndex, value: bool) -> None:
        """
        Enables (value=True) or disables checking self-collisions between the links with indices link1 and link2.
        """
    def getAccelerationLimits(self) -> list[float]:
        """
        Returns the acceleration limits amax (one entry per link, rad/s^2 or m/s^2): accelerations are bounded to [-amax, amax].
        """
    def getAngularMomentum(self) -> list[float]:
        """
        Computes the 3D angular momentum vector as the reference (Klamp't 0.9.2) does: sum_i R_i I_i R_i^T w_i, the links' angular momenta about their own centers of mass (R_i: link rotation, I_i: the link's inertia matrix about its center of mass in link coordinates, as given, w_i: angular velocity), in world coordinates.
        
        This omits the orbital term sum_i m_i c_i x v_i, so it is not the physical angular momentum about the origin (nor, with c_i - com, about the center of mass) unless the links' centers of mass are at rest; add that term (getLinearMomentum gives sum_i m_i v_i) for the physical value.
        """
    def getCom(self) -> list[float]:
        """
        The center of mass in world coordinates.
        """
    def getComJacobian(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        3 x n Jacobian of the center of mass (ndarray).
        """
    def getComJacobianCols(self, links: collections.abc.Sequence[int] | numpy.ndarray) -> numpy.typing.NDArray[numpy.float64]:
        """
        Returns the 3 x len(links) Jacobian of the robot's center of mass (world coordinates) with respect to the given DOFs (link indices), at the current configuration.
        """
    def getComVelocity(self) -> list[float]:
        """
        Returns the 3D velocity of the center of mass at the current config / velocity.
        """
    def getConfig(self) -> list[float]:
        """
        The configuration (list of n floats).
        """
    def getCoriolisForceMatrix(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes the Coriolis force matrix C(q,dq) at the current configuration and velocity (ndarray): C[i,j] = sum_k G_ijk dq_k with the Christoffel symbols G_ijk = 1/2 (dB_ij/dq_k + dB_ik/dq_j - dB_jk/dq_i), as the reference. C*dq equals getCoriolisForces() and C + C^T equals getMassMatrixTimeDeriv(). O(n*depth).
        """
    def getCoriolisForces(self) -> list[float]:
        """
        Computes the Coriolis forces C(q,dq)*dq at the current configuration and velocity (list of n floats), by recursive Newton-Euler with zero acceleration and no gravity, in O(n).
        """
    def getDOFPosition(self, i: typing.SupportsIndex | str) -> float:
        """
        Returns the position of the single DOF i (a link index or name) in the current configuration.
        """
    def getDrivers(self) -> tuple[RobotModelDriver, ...]:
        """
        A tuple of all the robot's drivers (index order).
        """
    def getDriversDict(self) -> typing.Mapping[str, RobotModelDriver]:
        """
        A read-only mapping (types.MappingProxyType) from the robot's drivers names to the robot's drivers (a repeated name maps to its last element).
        """
    def getGravityForces(self, g: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Computes the generalized gravity vector G(q) for the workspace gravity vector g (usually (0,0,-9.8)): the joint torques that hold the robot still against gravity (list of n floats). The full equation of motion is B(q)*ddq + C(q,dq) + G(q) = t.
        """
    def getID(self) -> int:
        """
        Returns the ID of the robot in its world.
        """
    def getJointLimits(self) -> tuple[list[float], list[float]]:
        """
        Returns the joint limits (qmin, qmax): two lists with one entry per link (radians for revolute links, metres for prismatic ones; may be infinite).
        """
    def getJointType(self, index: typing.SupportsIndex | str) -> str:
        """
        Returns the type of the joint of the link given by index or name: 'weld', 'normal', 'spin', 'floating', 'floatingplanar' or 'ballandsocket'; 'normal' for a link that belongs to no joint.
        """
    def getKineticEnergy(self) -> float:
        """
        Computes the kinetic energy 1/2 dq^T B(q) dq at the current config / velocity.
        """
    def getLinearMomentum(self) -> list[float]:
        """
        Computes the 3D linear momentum vector sum_i m_i v_i (v_i: velocity of link i's center of mass).
        """
    def getLinks(self) -> tuple[RobotModelLink, ...]:
        """
        A tuple of all the robot's links (index order).
        """
    def getLinksDict(self) -> typing.Mapping[str, RobotModelLink]:
        """
        A read-only mapping (types.MappingProxyType) from the robot's links names to the robot's links (a repeated name maps to its last element).
        """
    def getMassMatrix(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes the nxn mass matrix B(q) at the current configuration (ndarray), by the composite rigid body algorithm in O(n*depth).
        
        The equations of motion use the symmetric part of each link's inertia matrix, so B is exactly symmetric even for files with slightly asymmetric inertias (atlas.rob), where the reference's B is not.
        """
    def getMassMatrixDeriv(self, i: typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes the derivative dB/dq_i of the nxn mass matrix with respect to q_i (ndarray), in O(n + size of the subtree of i * depth). Raises IndexError if i is not a DOF index (the reference returns zeros).
        """
    def getMassMatrixInv(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes the inverse of the mass matrix B(q)^-1 (ndarray) from its tree-structured factorization B = L^T D L, in O(n^2*depth).
        
        If B is singular (links carrying no mass or inertia), returns the Moore-Penrose pseudo-inverse B^+: rows and columns of DOFs whose subtree is massless are zero; any other singularity (a pivot below 1e-12 of its diagonal entry, e.g. a floating base at gimbal lock) is handled by a dense complete orthogonal decomposition with relative rank threshold 1e-12. getMassMatrixInv() * (t - getCoriolisForces()) always equals accelFromTorques(t).
        """
    def getMassMatrixTimeDeriv(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes dB/dt = sum_k dB/dq_k dq_k at the current configuration and velocity (ndarray), in O(n*depth).
        """
    def getName(self) -> str:
        """
        Returns the name of the robot.
        """
    def getSensors(self) -> tuple[SimRobotSensor, ...]:
        """
        A tuple of all sensors of the robot (index order).
        """
    def getSensorsDict(self) -> typing.Mapping[str, SimRobotSensor]:
        """
        A read-only mapping (types.MappingProxyType) from sensor names to sensors (a repeated name maps to its last sensor).
        """
    def getTorqueLimits(self) -> list[float]:
        """
        Returns the torque limits tmax (one entry per link, N*m or N): torques are bounded to [-tmax, tmax].
        """
    def getTotalInertia(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Computes the 3x3 inertia matrix of the whole robot, rigidly held at the current configuration, about its center of mass (ndarray), from the link inertia matrices as given.
        """
    def getVelocity(self) -> list[float]:
        """
        The joint velocities (list of n floats).
        """
    def getVelocityLimits(self) -> list[float]:
        """
        Returns the velocity limits vmax (one entry per link, rad/s or m/s): velocities are bounded to [-vmax, vmax].
        """
    def interpolate(self, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray, u: typing.SupportsFloat | typing.SupportsIndex) -> list[float]:
        """
        Returns the configuration a fraction u in [0,1] of the way from configuration a to configuration b, interpolating each joint according to its type (e.g. rotations of floating and spin joints).
        """
    def interpolateDeriv(self, a: collections.abc.Sequence[float] | numpy.ndarray, b: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Returns the derivative of interpolate(a,b,u) with respect to u at u=0: the direction of motion from a toward b.
        """
    def link(self, index: typing.SupportsIndex | str) -> RobotModelLink:
        """
        Returns a reference to the link by index or name.
        """
    def loadFile(self, fn: str) -> bool:
        """
        Loads the robot from the file fn (.rob or .urdf). Returns False on failure.
        """
    def mount(self, link: typing.SupportsInt | typing.SupportsIndex, subRobot: RobotModel, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Mounts a copy of subRobot onto link at (R,t); its links are renamed subRobot.getName():name.
        """
    def numDrivers(self) -> int:
        """
        Returns the number of drivers (actuators).
        """
    def numLinks(self) -> int:
        """
        Returns the number of links, which is the number of degrees of freedom (entries of a configuration).
        """
    def numSensors(self) -> int:
        """
        Returns the number of sensors of the robot.
        """
    def randomizeConfig(self, unboundedScale: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        Sets the robot to a random configuration: uniform within finite joint limits, Laplacian with scale unboundedScale around 0 for infinite limits, uniform rotations for floating joints; the frames are updated.
        """
    def reduce(self, robot: RobotModel) -> list[int]:
        """
        Sets self to `robot` without its fixed DOFs; returns the map from old DOF indices to new ones (-1: removed).
        """
    def saveFile(self, fn: str, geometryPrefix: str | None = None) -> bool:
        """
        Saves the robot to a .rob file.
        """
    def selfCollides(self) -> bool:
        """
        True if any enabled pair of link geometries collides at the current configuration.
        """
    def selfCollisionEnabled(self, link1: typing.SupportsInt | typing.SupportsIndex, link2: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Returns True if self-collisions between the links with indices link1 and link2 are checked.
        """
    @typing.overload
    def sensor(self, index: typing.SupportsInt | typing.SupportsIndex) -> SimRobotSensor:
        """
        Returns a sensor by index or by name. If out of bounds or unavailable, a null sensor is returned (its name() and type() are empty).
        """
    @typing.overload
    def sensor(self, name: str) -> SimRobotSensor:
        ...
    def setAccelerationLimits(self, amax: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the acceleration limits amax (one entry per link, rad/s^2 or m/s^2): accelerations are bounded to [-amax, amax].
        """
    def setConfig(self, q: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the configuration and updates the link transforms. Raises ValueError if q has the wrong size or contains NaN or infinity (the configuration is then unchanged).
        """
    def setDOFPosition(self, i: typing.SupportsIndex | str, qi: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the position of the single DOF i (a link index or name) to qi (radians or metres) and updates the frames of the links it moves.
        """
    def setJointLimits(self, qmin: collections.abc.Sequence[float] | numpy.ndarray, qmax: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the joint limits: qmin and qmax are lists with one entry per link (radians for revolute links, metres for prismatic ones).
        """
    def setName(self, name: str) -> None:
        """
        Sets the name of the robot.
        """
    def setTorqueLimits(self, tmax: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the torque limits tmax (one entry per link, N*m or N): torques are bounded to [-tmax, tmax].
        """
    def setVelocity(self, dq: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the joint velocities. Raises ValueError if dq has the wrong size or contains NaN or infinity (the velocity is then unchanged).
        """
    def setVelocityLimits(self, vmax: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the velocity limits vmax (one entry per link, rad/s or m/s): velocities are bounded to [-vmax, vmax].
        """
    def structureStamp(self) -> int:
        """
        A number that changes whenever the robot's links, joints or drivers change (loadFile, reduce, mount, setParent), never to a value it had before: whatever derived data from the robot's structure (IK solvers, sensors) compares it to tell that its data are stale.
        """
    def torquesFromAccel(self, ddq: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Computes the inverse dynamics t = B(q)*ddq + C(q,dq) at the current configuration and velocity by recursive Newton-Euler in O(n) (list of n floats). Gravity is not included: add getGravityForces(g). Raises ValueError if ddq has the wrong size or contains NaN/inf.
        """
    def velocityFromDrivers(self, driverVelocities: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Returns the robot's current velocity with every driver's velocity set to driverVelocities (one per driver).
        """
    def velocityToDrivers(self, velocities: collections.abc.Sequence[float] | numpy.ndarray) -> list[float]:
        """
        Returns the driver velocities (one per driver) that correspond to the link velocities (one entry per link).
        """
    @property
    def config(self) -> list[float]:
        """
        The current configuration (one value per link, rad or m), as getConfig(); assigning calls setConfig().
        """
    @config.setter
    def config(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def dirty_dynamics(self) -> bool:
        """
        The reference's flag marking its cached dynamics terms stale (True after setConfig and setVelocity, through any handle to the robot). Nothing is cached here: every dynamics method computes from the current state, so the flag is accepted and kept but changes no result.
        """
    @dirty_dynamics.setter
    def dirty_dynamics(self, arg1: bool) -> None:
        ...
    @property
    def drivers(self) -> tuple[RobotModelDriver, ...]:
        """
        A tuple of all the robot's drivers (index order).
        """
    @property
    def driversDict(self) -> typing.Mapping[str, RobotModelDriver]:
        """
        A read-only mapping (types.MappingProxyType) from the robot's drivers names to the robot's drivers (a repeated name maps to its last element).
        """
    @property
    def id(self) -> int:
        """
        The robot's element id in its world (world.getName(id) names it).
        """
    @property
    def index(self) -> int:
        """
        Index of the robot within its world.
        """
    @property
    def links(self) -> tuple[RobotModelLink, ...]:
        """
        A tuple of all the robot's links (index order).
        """
    @property
    def linksDict(self) -> typing.Mapping[str, RobotModelLink]:
        """
        A read-only mapping (types.MappingProxyType) from the robot's links names to the robot's links (a repeated name maps to its last element).
        """
    @property
    def name(self) -> str:
        """
        The robot's name.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def robot(self) -> int:
        """
        Opaque address of the underlying C++ robot.
        """
    @property
    def sensors(self) -> tuple[SimRobotSensor, ...]:
        """
        A tuple of all sensors of the robot (index order).
        """
    @property
    def sensorsDict(self) -> typing.Mapping[str, SimRobotSensor]:
        """
        A read-only mapping (types.MappingProxyType) from sensor names to sensors (a repeated name maps to its last sensor).
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def velocity(self) -> list[float]:
        """
        The current velocity (rad/s or m/s per link), as getVelocity(); assigning calls setVelocity().
        """
    @velocity.setter
    def velocity(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def world(self) -> int:
        """
        Index of the robot's world, or -1 for a standalone robot.
        """
class RigidObjectModel:
    """
    A rigid movable object.
    """
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def appearance(self) -> Appearance:
        """
        Returns a reference to the object's appearance.
        """
    def drawGL(self, keepAppearance = True):
        """
        Draws the rigid object at its current transform.
        """
    def geometry(self) -> Geometry3D:
        """
        Returns a reference to the object's collision geometry (in the object's local frame).
        """
    def getContactParameters(self) -> ContactParameters:
        """
        Returns a copy of the object's contact parameters (friction, restitution, stiffness, damping); edit it and call setContactParameters to apply.
        """
    def getID(self) -> int:
        """
        Returns the ID of the object in its world, or -1 if it is not in a world.
        """
    def getMass(self) -> Mass:
        """
        Returns a copy of the object's mass properties (Mass: mass in kg, center of mass and inertia in the object's local frame); edit it and call setMass to apply.
        """
    def getName(self) -> str:
        """
        Returns the name of the object.
        """
    def getTransform(self) -> tuple[list[float], list[float]]:
        """
        Returns the object's transform (R,t) in world coordinates: R a column-major 9-list rotation matrix, t a 3-list in metres.
        """
    def getVelocity(self) -> tuple[list[float], list[float]]:
        """
        Returns the object's velocity (w,v) in world coordinates: angular velocity w (rad/s) and linear velocity v of its origin (m/s), each a 3-list.
        """
    def loadFile(self, fn: str) -> bool:
        """
        Loads the object from the file fn (a .obj object file or any geometry file), replacing this object's data; returns True on success, False (with an error logged) on failure.
        """
    def saveFile(self, fn: str, geometryName: str | None = None) -> bool:
        """
        Saves the object to the object file fn; if geometryName is given, the geometry is also saved to that file and referenced from fn. Returns True on success, False (with an error logged) on failure.
        """
    def setContactParameters(self, params: ContactParameters) -> None:
        """
        Sets the object's contact parameters from the ContactParameters object params.
        """
    def setMass(self, mass: Mass) -> None:
        """
        Sets the object's mass properties from the Mass object mass (mass in kg, center of mass and inertia in the object's local frame).
        """
    def setName(self, name: str) -> None:
        """
        Sets the name of the object.
        """
    def setTransform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the object's transform in world coordinates: R a column-major 9-list rotation matrix, t a 3-list translation in metres.
        """
    def setVelocity(self, angularVelocity: collections.abc.Sequence[float] | numpy.ndarray, velocity: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the object's velocity in world coordinates: angularVelocity (3-list, rad/s) and velocity of its origin (3-list, m/s).
        """
    @property
    def id(self) -> int:
        """
        The object's ID in its world (as getID()), -1 if standalone.
        """
    @property
    def index(self) -> int:
        """
        Index of the element among its world's elements of its kind.
        """
    @property
    def mass(self) -> Mass:
        """
        A copy of the object's Mass (as getMass(); assign a Mass to change it, as setMass()).
        """
    @mass.setter
    def mass(self, arg1: Mass) -> None:
        ...
    @property
    def name(self) -> str:
        """
        The object's name (as getName() / setName()).
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def object(self) -> int:
        """
        Opaque address of the underlying C++ object.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def transform(self) -> tuple[list[float], list[float]]:
        """
        The object's transform (R, t) (as getTransform(); use setTransform to move it).
        """
    @property
    def world(self) -> int:
        """
        Index of the element's world, or -1 for a standalone element.
        """
class TerrainModel:
    """
    Static environment geometry.
    """
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def appearance(self) -> Appearance:
        """
        Returns a reference to the terrain's appearance.
        """
    def drawGL(self, keepAppearance = True):
        """
        Draws the terrain.
        """
    def geometry(self) -> Geometry3D:
        """
        Returns a reference to the terrain's collision geometry.
        """
    def getID(self) -> int:
        """
        Returns the ID of the terrain in its world, or -1 if it is not in a world.
        """
    def getName(self) -> str:
        """
        Returns the name of the terrain.
        """
    def loadFile(self, fn: str) -> bool:
        """
        Loads the terrain from the file fn (an .env terrain file or any geometry file), replacing this terrain's data; returns True on success, False (with an error logged) on failure.
        """
    def saveFile(self, fn: str, geometryName: str | None = None) -> bool:
        """
        Saves the terrain to the terrain file fn; if geometryName is given, the geometry is also saved to that file and referenced from fn. Returns True on success, False (with an error logged) on failure.
        """
    def setFriction(self, friction: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the terrain's Coulomb friction coefficient (>= 0).
        """
    def setName(self, name: str) -> None:
        """
        Sets the name of the terrain.
        """
    @property
    def id(self) -> int:
        """
        The terrain's ID in its world (as getID()), -1 if standalone.
        """
    @property
    def index(self) -> int:
        """
        Index of the element among its world's elements of its kind.
        """
    @property
    def name(self) -> str:
        """
        The terrain's name (as getName() / setName()).
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def terrain(self) -> int:
        """
        Opaque address of the underlying C++ terrain.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def world(self) -> int:
        """
        Index of the element's world, or -1 for a standalone element.
        """
class WorldModel:
    """
    The main world class, containing robots, rigid objects, and static environment geometry.
    """
    @typing.overload
    def __init__(self) -> None:
        ...
    @typing.overload
    def __init__(self, w: WorldModel) -> None:
        """
        A reference to the same world (use copy() for a copy).
        """
    @typing.overload
    def __init__(self, fn: str) -> None:
        """
        Loads a world file; raises IOError on failure.
        """
    def __reduce__(self) -> tuple:
        """
        Pickles every element of the world (a new world, with copies of them, is unpickled).
        """
    def __repr__(self) -> str:
        ...
    @typing.overload
    def add(self, name: str, robot: RobotModel) -> RobotModel:
        """
        Adds a copy of the robot (from any world) under the given name and returns the copy.
        """
    @typing.overload
    def add(self, name: str, obj: RigidObjectModel) -> RigidObjectModel:
        """
        Adds a copy of the rigid object obj (from any world) under the given name and returns the copy.
        """
    @typing.overload
    def add(self, name: str, terrain: TerrainModel) -> TerrainModel:
        """
        Adds a copy of the terrain (from any world) under the given name and returns the copy.
        """
    def appearance(self, id: typing.SupportsInt | typing.SupportsIndex) -> Appearance:
        """
        Returns a reference to the appearance of the element with the given world ID (a robot link, rigid object or terrain); ValueError for a robot.
        """
    def copy(self) -> WorldModel:
        """
        A copy of the world; geometries and appearances are shared, so this is quick.
        """
    def drawGL(self):
        """
        Draws robots, terrains and rigid objects: the opaque ones first, then
            the transparent ones.
        """
    def enableGeometryLoading(self, enabled: bool) -> None:
        """
        Turns loading of geometries on or off for later file loads: when off, elements are loaded without their geometries.
        """
    def enableInitCollisions(self, enabled: bool) -> None:
        """
        Accepted for compatibility: collision structures are always built lazily on first use.
        """
    def geometry(self, id: typing.SupportsInt | typing.SupportsIndex) -> Geometry3D:
        """
        Returns a reference to the geometry of the element with the given world ID (a robot link, rigid object or terrain); ValueError for a robot.
        """
    def getName(self, id: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        Returns the name of the element with the given world ID.
        """
    def getRigidObjects(self) -> tuple[RigidObjectModel, ...]:
        """
        A tuple of all the world's rigid objects (index order).
        """
    def getRigidObjectsDict(self) -> typing.Mapping[str, RigidObjectModel]:
        """
        A read-only mapping (types.MappingProxyType) from the world's rigid objects names to the world's rigid objects (a repeated name maps to its last element).
        """
    def getRobots(self) -> tuple[RobotModel, ...]:
        """
        A tuple of all the world's robots (index order).
        """
    def getRobotsDict(self) -> typing.Mapping[str, RobotModel]:
        """
        A read-only mapping (types.MappingProxyType) from the world's robots names to the world's robots (a repeated name maps to its last element).
        """
    def getTerrains(self) -> tuple[TerrainModel, ...]:
        """
        A tuple of all the world's terrains (index order).
        """
    def getTerrainsDict(self) -> typing.Mapping[str, TerrainModel]:
        """
        A read-only mapping (types.MappingProxyType) from the world's terrains names to the world's terrains (a repeated name maps to its last element).
        """
    def loadElement(self, fn: str) -> int:
        """
        Loads a robot, rigid object or terrain file (meshes become terrains); returns its ID or -1.
        """
    def loadFile(self, fn: str) -> bool:
        """
        Same as readFile: adds the elements of a world XML file or a single element file to this world; returns True on success, False (with an error logged) on failure.
        """
    def loadRigidObject(self, fn: str) -> RigidObjectModel:
        """
        Loads a rigid object from the file fn (a .obj object file or any geometry file) into the world and returns it; returns an invalid RigidObjectModel (with an error logged) on failure.
        """
    def loadRobot(self, fn: str) -> RobotModel:
        """
        Loads a .rob or .urdf robot; an empty RobotModel is returned on failure.
        """
    def loadTerrain(self, fn: str) -> TerrainModel:
        """
        Loads a terrain from the file fn (an .env terrain file or any geometry file) into the world and returns it; returns an invalid TerrainModel (with an error logged) on failure.
        """
    def makeRigidObject(self, name: str) -> RigidObjectModel:
        """
        Adds a new empty rigid object with the given name to the world and returns it.
        """
    def makeRobot(self, name: str) -> RobotModel:
        """
        Adds a new empty robot with the given name to the world and returns it.
        """
    def makeTerrain(self, name: str) -> TerrainModel:
        """
        Adds a new empty terrain with the given name to the world and returns it.
        """
    def numIDs(self) -> int:
        """
        Returns the number of IDs in the world: robots, robot links, rigid objects and terrains each have one.
        """
    def numRigidObjects(self) -> int:
        """
        Returns the number of rigid objects.
        """
    def numRobotLinks(self, robot: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        Returns the number of links of the robot with index robot.
        """
    def numRobots(self) -> int:
        """
        Returns the number of robots.
        """
    def numTerrains(self) -> int:
        """
        Returns the number of terrains.
        """
    def readFile(self, fn: str) -> bool:
        """
        Reads a world XML file, or a single robot, rigid object or terrain file, adding its elements to this world; returns True on success, False (with an error logged) on failure.
        """
    @typing.overload
    def remove(self, robot: RobotModel) -> None:
        """
        Removes the robot from this world (ValueError if it is not in it).
        """
    @typing.overload
    def remove(self, object: RigidObjectModel) -> None:
        """
        Removes the rigid object from this world (ValueError if it is not in it).
        """
    @typing.overload
    def remove(self, terrain: TerrainModel) -> None:
        """
        Removes the terrain from this world (ValueError if it is not in it).
        """
    def rigidObject(self, index: typing.SupportsIndex | str) -> RigidObjectModel:
        """
        Returns a reference to the rigid object given by index or name; IndexError or KeyError if there is none.
        """
    def robot(self, index: typing.SupportsIndex | str) -> RobotModel:
        """
        Returns a reference to the robot given by index or name; IndexError or KeyError if there is none.
        """
    def robotLink(self, robot: typing.SupportsIndex | str, index: typing.SupportsIndex | str) -> RobotModelLink:
        """
        Returns a reference to a link of a robot, each given by index or name; IndexError or KeyError if there is none.
        """
    def saveFile(self, fn: str, elementDir: str | None = None) -> bool:
        """
        Saves the world to the XML file fn, saving the robots, objects and terrains into the folder elementDir (default: fn without its .xml extension); returns True on success, False (with an error logged) on failure.
        """
    def structureStamp(self) -> int:
        """
        A number that changes whenever an element is added, removed or reloaded, or a robot's links change, never to a value it had before: whatever derived data from the world's structure (simulators, klampt.model.collide.WorldCollider) compares it to tell that its data are stale.
        """
    def terrain(self, index: typing.SupportsIndex | str) -> TerrainModel:
        """
        Returns a reference to the terrain given by index or name; IndexError or KeyError if there is none.
        """
    @property
    def index(self) -> int:
        """
        The world's number, which element handles report as their world.
        """
    @property
    def rigidObjects(self) -> tuple[RigidObjectModel, ...]:
        """
        A tuple of all the world's rigid objects (index order).
        """
    @property
    def rigidObjectsDict(self) -> typing.Mapping[str, RigidObjectModel]:
        """
        A read-only mapping (types.MappingProxyType) from the world's rigid objects names to the world's rigid objects (a repeated name maps to its last element).
        """
    @property
    def robots(self) -> tuple[RobotModel, ...]:
        """
        A tuple of all the world's robots (index order).
        """
    @property
    def robotsDict(self) -> typing.Mapping[str, RobotModel]:
        """
        A read-only mapping (types.MappingProxyType) from the world's robots names to the world's robots (a repeated name maps to its last element).
        """
    @property
    def terrains(self) -> tuple[TerrainModel, ...]:
        """
        A tuple of all the world's terrains (index order).
        """
    @property
    def terrainsDict(self) -> typing.Mapping[str, TerrainModel]:
        """
        A read-only mapping (types.MappingProxyType) from the world's terrains names to the world's terrains (a repeated name maps to its last element).
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class IKObjective:
    """
    A target for a robot link: a position constraint (free, planar, linear, fixed) and a
    rotation constraint (free, axial, fixed), in the world frame or relative to another link.
    positionScale and rotationScale weight the solver's residual (both 1 by default).
    """
    @typing.overload
    def __init__(self) -> None:
        ...
    @typing.overload
    def __init__(self, arg2: IKObjective) -> None:
        ...
    def __reduce__(self) -> tuple:
        """
        Pickles the objective (and attributes set on it).
        """
    def __repr__(self) -> str:
        ...
    def closestMatch(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> tuple[list[float], list[float]]:
        """
        The transform nearest to (R,t) that satisfies the constraints.
        """
    def copy(self) -> IKObjective:
        """
        Returns a copy (with any Python attributes such as `robot`).
        """
    def destLink(self) -> int:
        """
        The index of the destination link, or -1 if fixed to the world.
        """
    def getPosition(self) -> tuple[list[float], list[float]]:
        """
        Returns the local and global position of the position constraint.
        """
    def getPositionDirection(self) -> list[float]:
        """
        For linear and planar constraints, returns the direction.
        """
    def getRotation(self) -> list[float]:
        """
        For fixed rotation constraints, returns the orientation.
        """
    def getRotationAxis(self) -> tuple[list[float], list[float]]:
        """
        For axis rotation constraints, returns the local and global axes.
        """
    def getTransform(self) -> tuple[list[float], list[float]]:
        """
        For fixed-transform constraints, returns the transform (R,t).
        """
    def link(self) -> int:
        """
        The index of the robot link that is constrained.
        """
    def loadString(self, str: str) -> bool:
        """
        Loads the objective from Klamp't's text format; False (unchanged) if it does not parse.
        """
    def matchDestination(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the destination coordinates so that the link at (R,t) has zero error, keeping the
        constraint types.
        """
    def numPosDims(self) -> int:
        """
        The number of position dimensions constrained (0-3).
        """
    def numRotDims(self) -> int:
        """
        The number of rotation dimensions constrained (0-3).
        """
    def sampleTransform(self) -> tuple[list[float], list[float]]:
        """
        A random transform (R,t) of link relative to link2 satisfying the objective.
        """
    def saveString(self) -> str:
        """
        Saves the objective in Klamp't's text format.
        """
    def setAxialRotConstraint(self, alocal: collections.abc.Sequence[float] | numpy.ndarray, aworld: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Manual: Sets an axial rotation constraint: the link's alocal points along aworld.
        """
    def setFixedPoint(self, link: typing.SupportsInt | typing.SupportsIndex, plocal: collections.abc.Sequence[float] | numpy.ndarray, pworld: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets a fixed-point constraint.
        """
    def setFixedPoints(self, link: typing.SupportsInt | typing.SupportsIndex, plocals: collections.abc.Sequence[collections.abc.Sequence[float]], pworlds: collections.abc.Sequence[collections.abc.Sequence[float]]) -> None:
        """
        Sets a multiple fixed-point constraint: 2 points also fix an axis, 3 or more non-collinear
        points the rotation (least-squares fit).
        """
    def setFixedPosConstraint(self, tlocal: collections.abc.Sequence[float] | numpy.ndarray, tworld: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Manual: Sets a fixed position constraint.
        """
    def setFixedRotConstraint(self, R: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Manual: Sets a fixed rotation constraint.
        """
    def setFixedTransform(self, link: typing.SupportsInt | typing.SupportsIndex, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets a fixed-transform constraint (R,t).
        """
    def setFreePosConstraint(self) -> None:
        """
        Manual: Sets a free position constraint.
        """
    def setFreePosition(self) -> None:
        """
        Deprecated: use setFreePosConstraint.
        """
    def setFreeRotConstraint(self) -> None:
        """
        Manual: Sets a free rotation constraint.
        """
    def setLinearPosConstraint(self, tlocal: collections.abc.Sequence[float] | numpy.ndarray, sworld: collections.abc.Sequence[float] | numpy.ndarray, dworld: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Manual: Sets a linear position constraint T(link)*tlocal = sworld + u*dworld for some u.
        """
    def setLinks(self, link: typing.SupportsInt | typing.SupportsIndex, link2: typing.SupportsInt | typing.SupportsIndex = -1) -> None:
        """
        Manual construction: sets the constrained and destination links.
        """
    def setPlanarPosConstraint(self, tlocal: collections.abc.Sequence[float] | numpy.ndarray, nworld: collections.abc.Sequence[float] | numpy.ndarray, oworld: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Manual: Sets a planar position constraint nworld . (T(link)*tlocal) = oworld.
        This is what the reference computes (its docstring writes '+ oworld = 0', which its
        residual and klampt.io do not follow); getPosition()[1] is the plane point nearest 0.
        """
    def setRelativePoint(self, link1: typing.SupportsInt | typing.SupportsIndex, link2: typing.SupportsInt | typing.SupportsIndex, p1: collections.abc.Sequence[float] | numpy.ndarray, p2: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets a fixed-point constraint relative to link2.
        """
    def setRelativePoints(self, link1: typing.SupportsInt | typing.SupportsIndex, link2: typing.SupportsInt | typing.SupportsIndex, p1s: collections.abc.Sequence[collections.abc.Sequence[float]], p2s: collections.abc.Sequence[collections.abc.Sequence[float]]) -> None:
        """
        Sets a multiple fixed-point constraint relative to link2.
        """
    def setRelativeTransform(self, link: typing.SupportsInt | typing.SupportsIndex, linkTgt: typing.SupportsInt | typing.SupportsIndex, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets a fixed-transform constraint (R,t) relative to linkTgt.
        """
    def transform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Transforms the target position/rotation of this IK constraint by (R,t).
        """
    def transformLocal(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Transforms the local position/rotation by (R,t): the constraint then applies to the frame
        link*(R,t) with unchanged targets (the reference composes the rotation target in the
        other order, which is inconsistent with its axis and point updates).
        """
    @property
    def goal(self) -> IKObjective:
        """
        The underlying goal (this object: it holds the goal itself).
        """
    @property
    def positionScale(self) -> float:
        """
        Weight of the position error relative to the rotation error in the solver's residual (default 1).
        """
    @positionScale.setter
    def positionScale(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def rotationScale(self) -> float:
        """
        Weight of the rotation error relative to the position error in the solver's residual (default 1).
        """
    @rotationScale.setter
    def rotationScale(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class IKSolver:
    """
    An inverse kinematics solver based on the Newton-Raphson technique, with damped
    least squares, joint limits, a line search and an optional bias configuration.
    Affine drivers (e.g. coupled gripper fingers) move together and weld joints stay
    fixed, so solutions respect them.
    """
    @typing.overload
    def __init__(self, robot: RobotModel) -> None:
        ...
    @typing.overload
    def __init__(self, solver: IKSolver) -> None:
        ...
    def _solveGlobal(self, numRestarts: typing.SupportsInt | typing.SupportsIndex, startRandom: bool = False) -> bool:
        """
        solve() with random restarts, run without the GIL (used by klampt.model.ik.solve_global).
        """
    def add(self, objective: IKObjective) -> None:
        """
        Adds a new simultaneous objective.
        """
    def addSecondary(self, objective: IKObjective) -> None:
        """
        Adds a new objective to the secondary objectives list.
        """
    def clear(self) -> None:
        """
        Clears the objectives, secondary objectives and explicit active DOFs.
        """
    def copy(self) -> IKSolver:
        """
        Copy constructor.
        """
    def getActiveDofs(self) -> list[int]:
        """
        Returns the active degrees of freedom (by default the ancestors of the objectives' links).
        """
    def getBiasConfig(self) -> list[float]:
        """
        Returns the bias configuration (one entry per link) that solve() moves toward in the null space of the objectives' Jacobian, or an empty list if none is set.
        """
    def getJacobian(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        The derivative of getResidual() with respect to the active DOFs (columns in
        getActiveDofs() order), as an ndarray.
        """
    def getJointLimits(self) -> tuple[list[float], list[float]]:
        """
        Returns the limits on the robot's configuration (by default the robot's joint limits).
        """
    def getMaxIters(self) -> int:
        """
        Returns the maximum number of Newton-Raphson iterations a solve() may take.
        """
    def getResidual(self) -> list[float]:
        """
        Returns the vector describing the error of the objectives at the current configuration.
        """
    def getSecondaryResidual(self) -> list[float]:
        """
        Returns the error of the secondary objectives at the current configuration.
        """
    def getTolerance(self) -> float:
        """
        Returns the convergence tolerance: solve() succeeds when the largest objective error is at most this (metres for positions, radians for rotations).
        """
    def isSolved(self) -> bool:
        """
        Returns True if the current configuration residual is less than tol.
        """
    def lastSolveIters(self) -> int:
        """
        Returns the number of iterations the last solve() or minimize() took.
        """
    def minimize(self, *args) -> bool:
        """
        minimize() or minimize(secondary_objective, secondary_objective_grad): minimizes the
        residual (bounded Levenberg-Marquardt), then the secondary objectives (or f(q), whose
        gradient grad(q) has one entry per robot DOF) on the solution set. Returns True if the
        primary objectives are solved.
        """
    def sampleInitial(self) -> None:
        """
        Samples a random configuration of the active DOFs within the solver's limits.
        """
    def set(self, i: typing.SupportsInt | typing.SupportsIndex, objective: IKObjective) -> None:
        """
        Assigns an existing objective added by add.
        """
    def setActiveDofs(self, active: collections.abc.Sequence[int] | numpy.ndarray) -> None:
        """
        Sets the active degrees of freedom (an empty list restores the default).
        """
    def setBiasConfig(self, biasConfig: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Biases the solver to approach a given configuration. An empty vector clears the bias.
        """
    def setJointLimits(self, qmin: collections.abc.Sequence[float] | numpy.ndarray, qmax: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets limits on the robot's configuration. If empty, this turns off joint limits.
        """
    def setMaxIters(self, iters: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Sets the max # of iterations (default 100).
        """
    def setSecondary(self, i: typing.SupportsInt | typing.SupportsIndex, objective: IKObjective) -> None:
        """
        Assigns an existing objective added by addSecondary.
        """
    def setTolerance(self, res: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the constraint solve tolerance (default 1e-3).
        """
    def solve(self) -> bool:
        """
        Tries to find a configuration satisfying all primary and secondary objectives up to the
        tolerance, starting from the robot's configuration (clamped into the limits). Returns True
        if it converged; the robot is left at the final configuration.
        """
    @property
    def activeDofs(self) -> list[int]:
        """
        Indices of the links the solver may move (all links that affect the objectives by default).
        """
    @activeDofs.setter
    def activeDofs(self, arg1: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> None:
        ...
    @property
    def biasConfig(self) -> list[float]:
        """
        Configuration that the null-space motion is drawn toward; empty means none.
        """
    @biasConfig.setter
    def biasConfig(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def lastIters(self) -> int:
        """
        Number of iterations of the last solve().
        """
    @lastIters.setter
    def lastIters(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def maxIters(self) -> int:
        """
        Maximum number of Newton-Raphson iterations of solve().
        """
    @maxIters.setter
    def maxIters(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def objectives(self) -> list:
        """
        The IKObjectives to satisfy (a copy; assigning a list replaces them).
        """
    @objectives.setter
    def objectives(self, arg1: collections.abc.Sequence[IKObjective]) -> None:
        ...
    @property
    def qmax(self) -> list[float]:
        """
        Upper joint limits the solver uses (rad or m per link); empty means the robot's.
        """
    @qmax.setter
    def qmax(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def qmin(self) -> list[float]:
        """
        Lower joint limits the solver uses (rad or m per link); empty means the robot's.
        """
    @qmin.setter
    def qmin(self, arg1: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        ...
    @property
    def robot(self) -> RobotModel:
        """
        The robot the solver moves.
        """
    @property
    def secondary_objectives(self) -> list:
        """
        IKObjectives minimized in the least-squares sense without disturbing the primary ones.
        """
    @secondary_objectives.setter
    def secondary_objectives(self, arg1: collections.abc.Sequence[IKObjective]) -> None:
        ...
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def tol(self) -> float:
        """
        Residual tolerance of solve(): the objectives are met when the residual's norm is below it.
        """
    @tol.setter
    def tol(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def useJointLimits(self) -> bool:
        """
        Whether the solution is kept inside the joint limits (default True).
        """
    @useJointLimits.setter
    def useJointLimits(self, arg1: bool) -> None:
        ...
class GeneralizedIKObjective:
    """
    An IK target matching points or frames between links of any robots and rigid
    objects: GeneralizedIKObjective(a) constrains a in the world frame,
    GeneralizedIKObjective(a, b) relative to b. Then call setPoint, setPoints or
    setTransform.
    """
    @typing.overload
    def __init__(self, obj: GeneralizedIKObjective) -> None:
        ...
    @typing.overload
    def __init__(self, link: RobotModelLink | RigidObjectModel) -> None:
        ...
    @typing.overload
    def __init__(self, link: RobotModelLink | RigidObjectModel, link2: RobotModelLink | RigidObjectModel | None) -> None:
        ...
    def sampleTransform(self) -> tuple[list[float], list[float]]:
        """
        A random transform (R,t) of the first body relative to the second satisfying the objective.
        """
    def setPoint(self, p1: collections.abc.Sequence[float] | numpy.ndarray, p2: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Matches point p1 on the first body to p2 on the second (or the world).
        """
    def setPoints(self, p1s: collections.abc.Sequence[collections.abc.Sequence[float]], p2s: collections.abc.Sequence[collections.abc.Sequence[float]]) -> None:
        """
        Matches several points (2 also fix an axis, 3 or more the rotation).
        """
    def setTransform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Fixes the transform of the first body relative to the second to (R,t).
        """
    @property
    def goal(self) -> IKObjective:
        """
        The constraint as an IKObjective (its link indices are not used).
        """
    @goal.setter
    def goal(self, arg1: IKObjective) -> None:
        ...
    @property
    def isObj1(self) -> bool:
        """
        True if the first body is a rigid object.
        """
    @property
    def isObj2(self) -> bool:
        """
        True if the second body is a rigid object.
        """
    @property
    def link1(self) -> RobotModelLink | None:
        """
        The first body's robot link, or None.
        """
    @property
    def link2(self) -> RobotModelLink | None:
        """
        The second body's robot link, or None (with obj2 None: the world).
        """
    @property
    def obj1(self) -> RigidObjectModel | None:
        """
        The first body's rigid object, or None.
        """
    @property
    def obj2(self) -> RigidObjectModel | None:
        """
        The second body's rigid object, or None.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class GeneralizedIKSolver:
    """
    An inverse kinematics solver between multiple robots and/or rigid objects. Robot
    DOFs (respecting joint limits, affine drivers and welds) and object poses move.
    """
    def __init__(self, world: WorldModel | int) -> None:
        ...
    def add(self, objective: GeneralizedIKObjective) -> None:
        """
        Adds a new simultaneous objective.
        """
    def getJacobian(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Derivative of the residual: columns are each robot's active DOFs, then 6 per rigid object
        (translation, rotation).
        """
    def getResidual(self) -> list[float]:
        """
        Returns a vector describing the error of the objectives.
        """
    def sampleInitial(self) -> None:
        """
        Samples random configurations for the robots involved (objects keep their poses).
        """
    def setMaxIters(self, iters: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Sets the maximum number of Newton-Raphson iterations a solve() may take (iters >= 1).
        """
    def setTolerance(self, res: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the convergence tolerance res: solve() succeeds when the largest objective error is at most this (metres for positions, radians for rotations).
        """
    def solve(self) -> tuple[bool, int]:
        """
        Tries to satisfy all objectives; returns (res, iters).
        """
    @property
    def maxIters(self) -> int:
        """
        Maximum number of Newton-Raphson iterations.
        """
    @maxIters.setter
    def maxIters(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def objectives(self) -> list[GeneralizedIKObjective]:
        """
        The GeneralizedIKObjectives of the solver.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def tol(self) -> float:
        """
        Residual tolerance: the objectives are met when the residual's norm is below it.
        """
    @tol.setter
    def tol(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def useJointLimits(self) -> bool:
        """
        Whether robots are kept inside their joint limits (default True).
        """
    @useJointLimits.setter
    def useJointLimits(self, arg1: bool) -> None:
        ...
    @property
    def world(self) -> WorldModel | int:
        """
        The world whose robots and objects the solver moves.
        """
class SimRobotSensor:
    """
    A sensor on a simulated robot. Retrieve one from the controller using
    SimRobotController.sensor(), or create one with SimRobotController.addSensor().
    Kinematically simulated sensors come from RobotModel.sensor() and
    RobotModel.addSensor().
    
    Settings use the attribute names of the Klamp't sensor XML format (rate,
    enabled, link, Tsensor ...). In kinematic mode (kinematicReset, then
    kinematicSimulate), laser and camera sensors ray cast the world, excluding the
    link they are mounted on; contact sensors read zeros and force/torque sensors
    read the wrench holding the link's subtree against gravity. Camera colors are
    the flat appearance color of the element hit (no lighting or textures).
    """
    def drawGL(self, np_array = None):
        """
        Draws a sensor indicator: a camera's frustum, a laser's sweep, other
            sensors' mount frames; with measurements, also what they measured as if
            they were the latest (a camera's colored depth points, a laser's hits).
        """
    def getEnabled(self) -> bool:
        """
        Return whether the sensor is enabled during simulation.
        """
    def getLink(self) -> RobotModelLink | None:
        """
        Returns the link on which the sensor is mounted, None if it is fixed in the world (link -1).
        """
    def getMeasurements(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        Returns an array of measurements from the previous simulation (or kinematicSimulate) timestep.
        """
    def getName(self) -> str:
        """
        Returns the name of the sensor (empty for a null sensor).
        """
    def getSetting(self, name: str) -> str:
        """
        Returns the value of the named setting (you will need to manually parse this).
        """
    def getTransform(self) -> tuple[list[float], list[float]]:
        """
        Returns the local transform of the sensor on the robot's link.
        """
    def getTransformWorld(self) -> tuple[list[float], list[float]]:
        """
        Returns the world transform of the sensor given the robot's current configuration.
        """
    def getType(self) -> str:
        """
        Returns the type of the sensor (empty for a null sensor).
        """
    def kinematicReset(self) -> None:
        """
        Resets a kinematic simulation so that a new initial condition can be set.
        """
    @typing.overload
    def kinematicSimulate(self, world: WorldModel, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Takes a reading from the robot's current configuration and velocity, ray casting `world`, then advances the sensor's clock by dt.
        """
    @typing.overload
    def kinematicSimulate(self, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        The same, ray casting the robot's own world.
        """
    def measurementNames(self) -> tuple:
        """
        Returns a list of names for the measurements (one per measurement).
        """
    def name(self) -> str:
        """
        Returns the name of the sensor (empty for a null sensor). A method, as in Klamp't 0.9; getName() is the 0.10 spelling.
        """
    def robot(self) -> RobotModel:
        """
        Returns the model of the robot to which this belongs.
        """
    def setEnabled(self, enabled: bool) -> None:
        """
        Sets whether the sensor is enabled.
        """
    @typing.overload
    def setLink(self, link: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Sets the link on which the sensor is mounted (-1 for the world).
        """
    @typing.overload
    def setLink(self, link: RobotModelLink) -> None:
        ...
    @typing.overload
    def setLink(self, link: None) -> None:
        ...
    def setName(self, name: str) -> None:
        """
        Sets the name of the sensor.
        """
    def setSetting(self, name: str, val: str) -> None:
        """
        Sets the value of the named setting (you will need to manually cast an int/float/etc to a str).
        """
    def setTransform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the local transform of the sensor on the robot's link.
        """
    def settings(self) -> tuple:
        """
        Returns all setting names.
        """
    def type(self) -> str:
        """
        Returns the type of the sensor (empty for a null sensor). A method, as in Klamp't 0.9; getType() is the 0.10 spelling.
        """
    @property
    def enabled(self) -> bool:
        """
        Whether the sensor is enabled during simulation (as getEnabled() / setEnabled()).
        """
    @enabled.setter
    def enabled(self, arg1: bool) -> None:
        ...
    @property
    def link(self) -> RobotModelLink | None:
        """
        The link on which the sensor is mounted, None if fixed in the world; assign a link, a link index, or None / -1.
        """
    @link.setter
    def link(self, arg1: RobotModelLink | typing.SupportsIndex | None) -> None:
        ...
    @property
    def robotModel(self) -> RobotModel:
        """
        The model of the robot the sensor belongs to (as robot()).
        """
    @property
    def sensor(self) -> typing_extensions.CapsuleType | None:
        """
        An opaque capsule of the native sensor, or None (for the reference's C++ interoperability).
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class Simulator:
    """
    A dynamics simulator for a WorldModel.
    """
    STATUS_ADAPTIVE_TIME_STEPPING: typing.ClassVar[int] = 1
    STATUS_CONTACT_UNRELIABLE: typing.ClassVar[int] = 2
    STATUS_ERROR: typing.ClassVar[int] = 4
    STATUS_NORMAL: typing.ClassVar[int] = 0
    STATUS_UNSTABLE: typing.ClassVar[int] = 3
    def __init__(self, model: WorldModel) -> None:
        """
        Builds the simulation of the world; a <simulation> section of its XML file configures it. Raises RuntimeError for a malformed <simulation> section or robot sensor description.
        """
    def __reduce__(self) -> tuple:
        """
        Pickles the world, settings and full state; the unpickled simulator (of a new world) continues exactly as this one would.
        """
    @typing.overload
    def body(self, link: RobotModelLink) -> SimBody:
        """
        Returns the SimBody simulating the robot link.
        """
    @typing.overload
    def body(self, object: RigidObjectModel) -> SimBody:
        """
        Returns the SimBody simulating the rigid object.
        """
    @typing.overload
    def body(self, terrain: TerrainModel) -> SimBody:
        """
        Returns the SimBody of the terrain.
        """
    def checkObjectOverlap(self) -> tuple[list[int], list[int]]:
        """
        A pair of lists of the world IDs of overlapping bodies.
        """
    def contactForce(self, aid: typing.SupportsInt | typing.SupportsIndex, bid: typing.SupportsInt | typing.SupportsIndex) -> list[float]:
        """
        Returns the total contact force (3-list, N, world frame) on aid from bid (-1: anything) at the last step; contact feedback must be enabled for the pair.
        """
    def contactTorque(self, aid: typing.SupportsInt | typing.SupportsIndex, bid: typing.SupportsInt | typing.SupportsIndex) -> list[float]:
        """
        Returns the total torque (3-list, N*m, world frame) of the contact forces on aid from bid (-1: anything) at the last step, about aid's origin; contact feedback must be enabled for the pair.
        """
    @typing.overload
    def controller(self, robot: typing.SupportsInt | typing.SupportsIndex) -> SimRobotController:
        """
        Returns the controller of the robot with the given index.
        """
    @typing.overload
    def controller(self, robot: RobotModel) -> SimRobotController:
        """
        Returns the controller of the given robot of the simulated world.
        """
    def enableContactFeedback(self, obj1: typing.SupportsInt | typing.SupportsIndex, obj2: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Turns on contact feedback between the elements with world IDs obj1 and obj2, so the contact queries report their contacts.
        """
    def enableContactFeedbackAll(self) -> None:
        """
        Turns on contact feedback between all pairs of elements.
        """
    def fakeSimulate(self, t: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Advances by t with every robot following its commanded motion kinematically (without the GIL, as simulate).
        """
    def getActualConfig(self, robot: typing.SupportsInt | typing.SupportsIndex) -> list[float]:
        """
        Returns the actual simulated configuration of the robot with the given index (one entry per link).
        """
    def getActualTorque(self, robot: typing.SupportsInt | typing.SupportsIndex) -> list[float]:
        """
        Returns the torques each driver of the robot with the given index applied during the last step (one entry per driver).
        """
    def getActualTorques(self, robot: typing.SupportsInt | typing.SupportsIndex) -> list[float]:
        """
        Deprecated: getActualTorque.
        """
    def getActualVelocity(self, robot: typing.SupportsInt | typing.SupportsIndex) -> list[float]:
        """
        Returns the actual simulated velocity of the robot with the given index (one entry per link).
        """
    def getContactForces(self, aid: typing.SupportsInt | typing.SupportsIndex, bid: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
        """
        Returns the forces on aid at the contacts of the last step between world IDs aid and bid (-1: anything) as an n x 3 array (N, world frame); contact feedback must be enabled.
        """
    def getContacts(self, aid: typing.SupportsInt | typing.SupportsIndex, bid: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
        """
        n x 7 array of (point, normal into a, kFriction).
        """
    def getJointForces(self, link: RobotModelLink) -> list[float]:
        """
        (fx, fy, fz, mx, my, mz) in the link frame, moment about the link origin.
        """
    def getSetting(self, name: str) -> str:
        """
        Returns the value of the named simulation setting as a string; ValueError for an unknown name.
        """
    def getState(self) -> str:
        """
        The full state as a base64 string.
        """
    def getStatus(self) -> int:
        """
        The worst status over the last simulate() call.
        """
    def getStatusString(self, s: typing.SupportsInt | typing.SupportsIndex = -1) -> str:
        """
        Returns the name of the status code s ('normal', 'adaptive time stepping', 'contact unreliable', 'unstable', 'error'); s=-1 means the current status.
        """
    def getTime(self) -> float:
        """
        Returns the simulated time in seconds.
        """
    def hadContact(self, aid: typing.SupportsInt | typing.SupportsIndex, bid: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Returns True if aid and bid (-1: anything) were in contact at any step of the last simulate() call; contact feedback must be enabled for the pair.
        """
    def hadPenetration(self, aid: typing.SupportsInt | typing.SupportsIndex, bid: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Returns True if aid and bid (-1: anything) penetrated at some step of the last simulate() call; contact feedback must be enabled for the pair.
        """
    def hadSeparation(self, aid: typing.SupportsInt | typing.SupportsIndex, bid: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Returns True if aid and bid (-1: anything) were apart at some step of the last simulate() call; contact feedback must be enabled for the pair.
        """
    def inContact(self, aid: typing.SupportsInt | typing.SupportsIndex, bid: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Returns True if the elements with world IDs aid and bid (-1: anything) touched at the last step (contact feedback must be enabled for the pair).
        """
    def meanContactForce(self, aid: typing.SupportsInt | typing.SupportsIndex, bid: typing.SupportsInt | typing.SupportsIndex) -> list[float]:
        """
        Returns the mean contact force (3-list, N, world frame) on aid from bid (-1: anything) over the last simulate() call; contact feedback must be enabled for the pair.
        """
    def reset(self) -> None:
        """
        Returns to the initial state.
        """
    def setGravity(self, g: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the gravity vector g (3-list, m/s^2, world frame), by default (0,0,-9.8).
        """
    def setSetting(self, name: str, value: str) -> None:
        """
        Sets the named simulation setting from the string value; ValueError for an unknown name or a malformed value.
        """
    def setSimStep(self, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the internal simulation substep dt (seconds, > 0); a simulate(t) call takes as many substeps as needed.
        """
    def setState(self, str: str) -> None:
        """
        Restores a state returned by getState; ValueError if the string is malformed.
        """
    def settings(self) -> list[str]:
        """
        Returns the names of the simulation settings (see getSetting / setSetting).
        """
    def simulate(self, t: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Advances by t seconds and updates the world model. Runs without the GIL, holding the world and its robots: calls of other threads on them wait until it returns. Raises RuntimeError if the world changed structure since the Simulator was built.
        """
    def updateWorld(self) -> None:
        """
        Copies the simulation's state into the world: robot configurations and velocities, rigid object transforms and velocities.
        """
    @property
    def index(self) -> int:
        """
        The number of the simulated world.
        """
    @property
    def initialState(self) -> str:
        """
        The serialized state reset() returns to (as getState()); assigning sets it.
        """
    @initialState.setter
    def initialState(self, arg1: str) -> None:
        ...
    @property
    def sim(self) -> Simulator:
        """
        The simulator itself (the reference exposes its C++ object here).
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def world(self) -> WorldModel:
        """
        The simulated world.
        """
class SimBody:
    """
    A rigid body inside a Simulator (a rigid object, a terrain or a robot link). Its transform is centred at the center of mass.
    """
    def applyForceAtCOMLocalPoint(self, f: collections.abc.Sequence[float] | numpy.ndarray, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Applies force f (world frame) at a point given in the body's COM-centred frame, over the next simulate() call (the same as applyForceAtLocalPoint).
        """
    def applyForceAtLocalPoint(self, f: collections.abc.Sequence[float] | numpy.ndarray, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Applies the force f (3-list, N, world frame) at the point plocal (metres, in the body's frame centred at its center of mass) during the next simulate() call.
        """
    def applyForceAtObjectLocalPoint(self, f: collections.abc.Sequence[float] | numpy.ndarray, plocal: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Applies force f (world frame) at a point given in the object's own frame (that of getObjectTransform), over the next simulate() call.
        """
    def applyForceAtPoint(self, f: collections.abc.Sequence[float] | numpy.ndarray, pworld: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Applies the force f (3-list, N, world frame) at the point pworld (world coordinates, metres) during the next simulate() call.
        """
    def applyWrench(self, f: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Force and torque about the COM over the next simulate() call.
        """
    def enable(self, enabled: bool = True) -> None:
        """
        Enables (True) or disables the body in the simulation; a disabled body takes no part in collisions or dynamics.
        """
    def enableDynamics(self, enabled: bool = True) -> None:
        """
        Turns the body's dynamics on (True) or off; with dynamics off the body moves only where it is set (kinematically).
        """
    def getCollisionPadding(self) -> float:
        """
        Returns the collision padding in metres (see setCollisionPadding).
        """
    def getID(self) -> int:
        """
        Returns the world ID of the element (robot link, rigid object or terrain) this body simulates.
        """
    def getObjectTransform(self) -> tuple[list[float], list[float]]:
        """
        Returns the pose (R,t) of the element's own frame (the object or link frame, not the center-of-mass frame) in world coordinates: R a column-major 9-list rotation matrix, t a 3-list (metres).
        """
    def getObjectVelocity(self) -> tuple[list[float], list[float]]:
        """
        (angular velocity, velocity of the object's origin) in world coordinates.
        """
    def getSurface(self) -> ContactParameters:
        """
        Returns a copy of the body's contact surface parameters (ContactParameters); edit it and call setSurface to apply.
        """
    def getTransform(self) -> tuple[list[float], list[float]]:
        """
        Returns the pose (R,t) of the body's center-of-mass frame in world coordinates: R a column-major 9-list rotation matrix, t a 3-list (metres).
        """
    def getVelocity(self) -> tuple[list[float], list[float]]:
        """
        (angular velocity, COM velocity).
        """
    def isDynamicsEnabled(self) -> bool:
        """
        Returns True if the body's motion follows the dynamics (False for terrains, bodies with dynamics disabled and links welded to the world).
        """
    def isEnabled(self) -> bool:
        """
        Returns True if the body is enabled in the simulation.
        """
    def setCollisionPadding(self, padding: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the body's collision padding (metres, >= 0): the boundary layer around its shape within which contacts are generated.
        """
    def setCollisionPreshrink(self, shrinkVisualization: bool = False) -> None:
        """
        Contacts use the geometry shrunk by the collision padding, so that the padded geometry matches the original surface. With shrinkVisualization the world element's geometry is shrunk too.
        """
    def setObjectTransform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the pose of the element's own frame (the object or link frame, not the center-of-mass frame) in world coordinates: R a column-major 9-list rotation matrix, t a 3-list (metres).
        """
    def setObjectVelocity(self, w: collections.abc.Sequence[float] | numpy.ndarray, v: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the angular velocity and the velocity of the object's origin (world coordinates).
        """
    def setSurface(self, params: ContactParameters) -> None:
        """
        Sets the body's contact surface parameters (friction, restitution, stiffness, damping) from the ContactParameters params.
        """
    def setTransform(self, R: collections.abc.Sequence[float] | numpy.ndarray, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the pose of the body's center-of-mass frame in world coordinates: R a column-major 9-list rotation matrix, t a 3-list (metres).
        """
    def setVelocity(self, w: collections.abc.Sequence[float] | numpy.ndarray, v: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the body's angular velocity w (rad/s) and the linear velocity v (m/s) of its center of mass, 3-lists in the world frame.
        """
    @property
    def body(self) -> int:
        """
        Opaque address of the ODE body (0 for terrains).
        """
    @property
    def geometry(self) -> int:
        """
        Opaque address of the simulated geometry.
        """
    @property
    def objectID(self) -> int:
        """
        The world element id of the body (world.getName(objectID) names it).
        """
    @property
    def sim(self) -> Simulator:
        """
        The simulator the body belongs to.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
class SimJoint:
    """
    A hinge, slider or fixed joint between simulated bodies.
    """
    def __init__(self) -> None:
        ...
    def addForce(self, force: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Torque (hinge) or force (slider) applied over the next simulate() call.
        """
    def destroy(self) -> None:
        """
        Removes the joint from the simulation; the SimJoint can be made again.
        """
    def makeFixed(self, a: SimBody, b: SimBody) -> None:
        """
        Makes this a fixed joint welding bodies a and b at their current relative pose; replaces any joint made before.
        """
    @typing.overload
    def makeHinge(self, a: SimBody, pt: collections.abc.Sequence[float] | numpy.ndarray, axis: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Makes this a hinge joint attaching body a to the world, rotating about the axis through the point pt (3-lists in world coordinates, metres); replaces any joint made before.
        """
    @typing.overload
    def makeHinge(self, a: SimBody, b: SimBody, pt: collections.abc.Sequence[float] | numpy.ndarray, axis: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Makes this a hinge joint between bodies a and b, rotating about the axis through the point pt (3-lists in world coordinates, metres); replaces any joint made before.
        """
    @typing.overload
    def makeSlider(self, a: SimBody, axis: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Makes this a slider joint attaching body a to the world, translating along axis (3-list in world coordinates); replaces any joint made before.
        """
    @typing.overload
    def makeSlider(self, a: SimBody, b: SimBody, axis: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Makes this a slider joint between bodies a and b, translating along axis (3-list in world coordinates); replaces any joint made before.
        """
    def setFriction(self, friction: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the joint's dry friction: the maximum torque (hinge, N*m) or force (slider, N) resisting its motion.
        """
    def setLimits(self, min: typing.SupportsFloat | typing.SupportsIndex, max: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the joint's limits [min, max] (radians for a hinge, metres for a slider); no effect on a fixed joint.
        """
    def setVelocity(self, vel: typing.SupportsFloat | typing.SupportsIndex, fmax: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Drives the joint toward the velocity vel (rad/s for a hinge, m/s for a slider) with a motor of at most fmax torque (N*m) or force (N).
        """
    @property
    def a(self) -> SimBody | None:
        """
        The first body the joint connects (a SimBody).
        """
    @property
    def b(self) -> SimBody | None:
        """
        The second body the joint connects (a SimBody), or None when fixed to the world.
        """
    @property
    def joint(self) -> int:
        """
        Opaque address of the ODE joint.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
    @property
    def type(self) -> int:
        """
        0: none, 1: hinge, 2: slider, 3: fixed.
        """
class SimRobotController:
    """
    A controller for a simulated robot.
    """
    def addCubic(self, q: collections.abc.Sequence[float] | numpy.ndarray, v: collections.abc.Sequence[float] | numpy.ndarray, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Appends to the motion queue a cubic move ending at configuration q with velocity v (one entry per link) after dt seconds (>= 0).
        """
    def addLinear(self, q: collections.abc.Sequence[float] | numpy.ndarray, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        As setLinear, appended to the motion queue.
        """
    @typing.overload
    def addMilestone(self, q: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        As setMilestone(q), but appended to the motion queue: the move starts from the queued end state.
        """
    @typing.overload
    def addMilestone(self, q: collections.abc.Sequence[float] | numpy.ndarray, dq: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        As addMilestone(q), arriving with velocity dq.
        """
    def addMilestoneLinear(self, q: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Appends a rest-to-rest move to q along the straight joint-space line from the queued end state, as fast as the limits allow.
        """
    def addSensor(self, name: str, type: str) -> SimRobotSensor:
        """
        Adds a new sensor with a given name and type.
        """
    def commands(self) -> list[str]:
        """
        Returns the names of the commands sendCommand accepts.
        """
    def getCommandedConfig(self) -> list[float]:
        """
        Returns the configuration the controller currently commands (one entry per link).
        """
    def getCommandedTorque(self) -> list[float]:
        """
        Returns the torques the controller currently commands (one entry per driver).
        """
    def getCommandedVelocity(self) -> list[float]:
        """
        Returns the velocity the controller currently commands (one entry per link).
        """
    def getControlType(self) -> str:
        """
        Returns the current control type: 'torque' or 'PID'.
        """
    def getPIDGains(self) -> tuple[list[float], list[float], list[float]]:
        """
        Returns the PID gains (kP, kI, kD), each a list with one entry per driver.
        """
    def getRate(self) -> float:
        """
        Returns the control period in seconds (see setRate).
        """
    def getSensedConfig(self) -> list[float]:
        """
        Returns the configuration read by the robot's joint position sensor, or the actual simulated configuration if it has none (one entry per link).
        """
    def getSensedTorque(self) -> list[float]:
        """
        Returns the torques read by the robot's driver torque sensor (one entry per driver); RuntimeError if the robot has no torque sensor.
        """
    def getSensedVelocity(self) -> list[float]:
        """
        Returns the velocity read by the robot's joint velocity sensor, or the actual simulated velocity if it has none (one entry per link).
        """
    def getSensors(self) -> tuple[SimRobotSensor, ...]:
        """
        A tuple of all sensors of the robot (index order).
        """
    def getSensorsDict(self) -> typing.Mapping[str, SimRobotSensor]:
        """
        A read-only mapping (types.MappingProxyType) from sensor names to sensors (a repeated name maps to its last sensor).
        """
    def getSetting(self, name: str) -> str:
        """
        Returns the value of the named setting as a string ('' for an unknown name).
        """
    def model(self) -> RobotModel:
        """
        Returns the RobotModel this controller drives.
        """
    def numSensors(self) -> int:
        """
        Returns the number of sensors of the simulated robot.
        """
    def remainingTime(self) -> float:
        """
        Time left in the motion queue (0 when it is done or in PID/torque mode). The queue runs one control period ahead of the simulation: the command is where the motion should be at the end of the current period.
        """
    def sendCommand(self, name: str, args: str) -> bool:
        """
        Sends the named command (see commands()) with its arguments as a string of numbers; returns True if it was accepted, False otherwise.
        """
    @typing.overload
    def sensor(self, index: typing.SupportsInt | typing.SupportsIndex) -> SimRobotSensor:
        """
        Returns a sensor by index or by name. If out of bounds or unavailable, a null sensor is returned (its name() and type() are empty).
        """
    @typing.overload
    def sensor(self, name: str) -> SimRobotSensor:
        ...
    def setCubic(self, q: collections.abc.Sequence[float] | numpy.ndarray, v: collections.abc.Sequence[float] | numpy.ndarray, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Replaces the motion queue by a cubic move ending at configuration q with velocity v (one entry per link) after dt seconds (>= 0).
        """
    def setLinear(self, q: collections.abc.Sequence[float] | numpy.ndarray, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Moves linearly from the current commanded configuration to q in dt seconds (the limits are not checked).
        """
    def setManualMode(self, enabled: bool) -> None:
        """
        Turns manual (direct PID) mode on or off; turning it off returns to the motion queue, starting from the last commanded configuration.
        """
    @typing.overload
    def setMilestone(self, q: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Moves to configuration q along the time-optimal ramp within the robot's velocity and acceleration limits, from the current commanded state, ending at rest. Targets outside the joint limits stop just inside them.
        """
    @typing.overload
    def setMilestone(self, q: collections.abc.Sequence[float] | numpy.ndarray, dq: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        As setMilestone(q), arriving with velocity dq.
        """
    @typing.overload
    def setPIDCommand(self, qdes: collections.abc.Sequence[float] | numpy.ndarray, dqdes: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        PID control toward qdes, dqdes: both with numDrivers() entries (driver values, as the reference's control interfaces send them) or both with numLinks() entries (a configuration, read through the drivers; when the two sizes are equal, driver values). Raises ValueError, changing nothing, for other sizes or non-finite values.
        """
    @typing.overload
    def setPIDCommand(self, qdes: collections.abc.Sequence[float] | numpy.ndarray, dqdes: collections.abc.Sequence[float] | numpy.ndarray, tfeedforward: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        As setPIDCommand(qdes, dqdes), plus a feedforward torque per driver (or per link: that of each driver's first link).
        """
    def setPIDGains(self, kP: collections.abc.Sequence[float] | numpy.ndarray, kI: collections.abc.Sequence[float] | numpy.ndarray, kD: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Sets the PID gains kP, kI and kD (one entry per driver each).
        """
    def setRate(self, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Sets the control period dt (seconds, > 0): the controller updates its commands every dt of simulated time.
        """
    def setSetting(self, name: str, val: str) -> bool:
        """
        Sets the named setting to the string val; returns True if it was accepted, False otherwise.
        """
    def setTorque(self, t: collections.abc.Sequence[float] | numpy.ndarray) -> None:
        """
        Torque control; t has numDrivers() or numLinks() entries. Non-finite torques are not applied and the simulator status becomes STATUS_ERROR.
        """
    def setVelocity(self, dq: collections.abc.Sequence[float] | numpy.ndarray, dt: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Replaces the motion queue by a move at velocity dq (one entry per link, rad/s or m/s) for dt seconds (> 0), after which the robot stops.
        """
    def settings(self) -> list[str]:
        """
        Returns the names of the controller's settings (see getSetting / setSetting).
        """
    @property
    def controller(self) -> SimRobotController:
        """
        The controller itself (the reference exposes its C++ object here).
        """
    @property
    def index(self) -> int:
        """
        Index of the controlled robot in the simulated world.
        """
    @property
    def rate(self) -> float:
        """
        The controller's update period in seconds (as getRate() / setRate(); Klamp't 0.10 calls it a rate).
        """
    @rate.setter
    def rate(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def sensors(self) -> tuple[SimRobotSensor, ...]:
        """
        A tuple of all sensors of the robot (index order).
        """
    @property
    def sensorsDict(self) -> typing.Mapping[str, SimRobotSensor]:
        """
        A read-only mapping (types.MappingProxyType) from sensor names to sensors (a repeated name maps to its last sensor).
        """
    @property
    def sim(self) -> Simulator:
        """
        The simulator the controller belongs to.
        """
    @property
    def thisown(self) -> bool:
        """
        Always True: objects are reference counted (kept for compatibility with SWIG code).
        """
    @thisown.setter
    def thisown(self, arg1: bool) -> None:
        ...
def _appearance_from_archive(data: bytes) -> Appearance:
    """
    The standalone Appearance of a pickled appearance's bytes.
    """
def _available_cores() -> int:
    """
    The cores this process may run on.
    """
def _batch_ik(robot: RobotModel, objectives: collections.abc.Sequence[IKObjective | collections.abc.Sequence[IKObjective]], initial: numpy.typing.ArrayLike, tol: typing.SupportsFloat | typing.SupportsIndex, max_iters: typing.SupportsInt | typing.SupportsIndex, restarts: typing.SupportsInt | typing.SupportsIndex, start_random: bool, seed: typing.SupportsInt | typing.SupportsIndex, num_threads: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.bool]]:
    """
    (solutions, solved) of IK for each target (klampt.batch.solve_ik).
    """
def _batch_link_jacobians(robot: RobotModel, configs: numpy.typing.ArrayLike, link: typing.SupportsInt | typing.SupportsIndex, local_point: collections.abc.Sequence[float] | numpy.ndarray, num_threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
    """
    (N, 6, n) Jacobians of a link point at each configuration (klampt.batch.jacobians).
    """
def _batch_link_transforms(robot: RobotModel, configs: numpy.typing.ArrayLike, links: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], num_threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
    """
    (N, len(links), 4, 4) link transforms at each configuration (klampt.batch.forward_kinematics).
    """
def _batch_self_collision(robot: RobotModel, configs: numpy.typing.ArrayLike, pairs: bool, num_threads: typing.SupportsInt | typing.SupportsIndex) -> tuple:
    """
    (collides,) or (collides, first pairs) of self-collision at each configuration (klampt.batch.self_collides).
    """
def _batch_simulate(world: WorldModel, robot: typing.SupportsInt | typing.SupportsIndex, dt: typing.SupportsFloat | typing.SupportsIndex, steps: typing.SupportsInt | typing.SupportsIndex, runs: typing.SupportsInt | typing.SupportsIndex, initial_configs: numpy.typing.ArrayLike | None, initial_velocities: numpy.typing.ArrayLike | None, controls: numpy.typing.ArrayLike | None, control_type: str, num_threads: typing.SupportsInt | typing.SupportsIndex) -> dict:
    """
    Trajectories of independent simulations of the world (klampt.batch.simulate).
    """
def _batch_threads(requested: typing.SupportsInt | typing.SupportsIndex, n: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    The thread count a batch of n items uses (requested <= 0: every core).
    """
def _batch_world_collision(world: WorldModel, robot: typing.SupportsInt | typing.SupportsIndex, configs: numpy.typing.ArrayLike, pairs: bool, num_threads: typing.SupportsInt | typing.SupportsIndex) -> tuple:
    """
    (collides,) or (collides, first pairs) of a robot against the rest of its world (klampt.batch.world_collides).
    """
def _geometry_from_archive(data: bytes) -> Geometry3D:
    """
    The standalone Geometry3D of a pickled geometry's bytes.
    """
def _ikobjective_from_archive(data: bytes) -> IKObjective:
    """
    The IKObjective of a pickled objective's bytes.
    """
def _robot_from_archive(data: bytes) -> RobotModel:
    """
    The standalone RobotModel of a pickled robot's bytes.
    """
def _set_camera_renderer(renderer: collections.abc.Callable[..., tuple | None] | None) -> None:
    """
    Installs fn(world, T, xres, yres, xfov, zmin, zmax, robotIndex, link) -> (colors, depths, far) or None, through which camera sensors render (None: ray casting).
    """
def _shared_shape_count() -> int:
    """
    How many shapes loaded from files are shared among the models holding them.
    """
def _simulator_from_archive(data: bytes) -> Simulator:
    """
    The Simulator (of a new world) of a pickled simulator's bytes.
    """
def _world_from_archive(data: bytes) -> WorldModel:
    """
    The WorldModel of a pickled world's bytes.
    """
def collision_structures_built() -> int:
    """
    How many shapes' collision structures (trees, hulls) this process has built; world files
    build theirs as they load, so later queries do not.
    """
def native_library_versions() -> dict[str, str]:
    """
    Versions of the native libraries linked into the extension.
    """
def set_random_seed(seed: typing.SupportsInt | typing.SupportsIndex) -> None:
    """
    Seeds the random generator used by sampling routines (randomizeConfig, ...).
    """
ImplicitSurface = VolumeGrid
SensorModel = SimRobotSensor
