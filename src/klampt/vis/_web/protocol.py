"""The web viewer's protocol: the JSON that :mod:`.serialize` builds and
``klampt/vis/web/viewer.js`` reads, as typed dicts. The same messages go
into the HTML export (:mod:`.page`: a :class:`Scene` and a list of
:class:`Frame`), the Jupyter widget (traits ``scene``: :class:`Scene`,
``transforms``: :data:`Transforms`, ``camera``: :class:`Camera`) and the
viser backend (which reads a :class:`Scene` too).

The scene is a three.js Object JSON scene (``metadata``, ``geometries``,
``materials``, ``object``; the subset :func:`klampt.threejs_get_scene`
emits) plus the viewer's own fields. Coordinates: the three.js nodes are
y-up under the root node's matrix (z-up turned y-up); extras, camera and
world-frame lights are in klampt's z-up world frame. Matrices are 16 floats,
column-major. Colors are RGBA lists of floats in [0, 1], except three.js
materials' ``0xRRGGBB`` integers.

A few fields are three.js's and not read by viewer.js; they keep the scene
loadable by three.js's ObjectLoader and are listed in
:data:`NOT_READ_BY_VIEWER` (tests/test_web_protocol.py holds viewer.js,
this module and the serializer's output to each other)."""
from typing import Dict, List, Optional, TypedDict

Matrix = List[float]
"""A 4 x 4 transform, 16 floats, column-major."""
RGBA = List[float]
"""A color, four floats in [0, 1]."""
Vector3 = List[float]
"""A point or direction, three floats."""


class BufferAttribute(TypedDict):
    """A flat array of a geometry: ``type`` 'Float32Array' (positions,
    colors) or 'Uint16Array' / 'Uint32Array' (triangle indices);
    ``itemSize`` numbers per vertex (3, or 1 for indices)."""
    type: str
    itemSize: int
    array: List[float]


class _Attributes(TypedDict):
    position: BufferAttribute


class Attributes(_Attributes, total=False):
    """Per-vertex arrays: ``position`` (x, y, z), optional ``color``
    (r, g, b: a heightmap's own colors)."""
    color: BufferAttribute


class GeometryData(TypedDict, total=False):
    """A BufferGeometry's data: a mesh has ``attributes`` and ``index``
    (three vertex indices per triangle); a point cloud has no index, and its
    positions also as ``position`` (three.js's older spelling)."""
    attributes: Attributes
    index: BufferAttribute
    position: BufferAttribute


class Geometry(TypedDict):
    """An entry of the scene's ``geometries``, referred to by nodes'
    ``geometry`` uuid; ``type`` is 'BufferGeometry'."""
    uuid: str
    type: str
    data: GeometryData


class _Material(TypedDict):
    uuid: str
    type: str
    color: int


class Material(_Material, total=False):
    """An entry of ``materials`` ('MeshPhongMaterial' or 'PointsMaterial'):
    ``color``, ``specular`` and ``emissive`` as 0xRRGGBB; ``opacity`` with
    ``transparent`` True for translucent bodies; ``shininess`` the specular
    exponent; ``size`` a PointsMaterial's point size; ``flatShading`` 1;
    ``vertexColors`` True (and ``color`` white) for a mesh drawn with its
    vertices' ``color`` attribute."""
    specular: int
    emissive: int
    shininess: float
    opacity: float
    transparent: bool
    flatShading: int
    size: float
    vertexColors: bool


class LightTarget(TypedDict):
    """Where a three.js DirectionalLight points."""
    position: Vector3


class _Node(TypedDict):
    uuid: str
    type: str


class Node(_Node, total=False):
    """A node of the three.js tree: 'Scene' (the root), 'Group', 'Mesh',
    'Points', or the 'DirectionalLight' three.js shows the scene with.
    ``name`` is unique in the scene (the key of :data:`Transforms`);
    ``matrix`` the transform relative to the parent; a 'Mesh' or 'Points'
    node draws ``geometry`` with ``material`` (uuids); ``visible`` False
    hides the node and its children. A light has ``position``, ``color``,
    ``target`` and ``intensity``."""
    name: str
    matrix: Matrix
    children: List['Node']
    geometry: str
    material: str
    visible: bool
    position: Vector3
    color: int
    target: LightTarget
    intensity: float


class _Extra(TypedDict):
    type: str
    name: str
    color: RGBA


class Extra(_Extra, total=False):
    """Drawing that is not a three.js node, in world (z-up) coordinates:
    ``type`` 'points' (``points``, ``size`` in pixels), 'lines'
    (``points``, ``width``, ``strip`` True for a polyline, else segment
    pairs) or 'text' (``text`` at ``position``: a world point, a pixel
    position (negative from the right / bottom) or None for the next console
    line; ``size`` in pixels)."""
    points: List[Vector3]
    size: float
    width: float
    strip: bool
    text: str
    position: Optional[List[float]]


class Camera(TypedDict):
    """The viewport's camera: eye ``position``, ``target`` and ``up`` in the
    z-up world; ``fov`` the horizontal field of view in degrees; ``near``
    and ``far`` clip distances."""
    position: Vector3
    target: Vector3
    up: Vector3
    fov: float
    near: float
    far: float


class Light(TypedDict):
    """A directional light: ``direction`` toward the light, in the camera
    frame (``frame`` 'camera': x right, y up, z toward the viewer) or the
    z-up world ('world'); ``diffuse`` and ``specular`` intensities."""
    direction: Vector3
    frame: str
    diffuse: float
    specular: float


class Lights(TypedDict):
    """The lighting (:func:`klampt.vis._lighting.as_json`): ``ambient``
    intensity and the lights; the viewer shades as OpenGL's fixed pipeline
    does with them, both sides of surfaces lit."""
    ambient: float
    lights: List[Light]


class Checker(TypedDict):
    """The terrains' checkerboard: ``nodes`` (names) drawn with it, their
    color times ``levels[0]`` on the ``size`` metre squares whose x and y
    cells (in the node's frame) have the same parity, else ``levels[1]``."""
    nodes: List[str]
    size: float
    levels: List[float]


class Metadata(TypedDict):
    """three.js's Object format header: ``fullscene`` True for a whole scene."""
    type: str
    version: float
    generator: str
    fullscene: bool


class Scene(TypedDict):
    """A whole scene, as :meth:`.serialize.SceneSerializer.build` returns
    and viewer.js's ``setScene`` reads. ``object`` is the root node (type
    'Scene', y-up)."""
    metadata: Metadata
    geometries: List[Geometry]
    materials: List[Material]
    object: Node
    extras: List[Extra]
    camera: Camera
    background: RGBA
    lights: Lights
    checker: Checker


Transforms = Dict[str, Matrix]
"""A per-frame update: node name -> its new ``matrix``
(:meth:`.serialize.SceneSerializer.transforms`, viewer.js's ``setTransforms``)."""


class Frame(TypedDict):
    """A recorded frame of an HTML export, played by viewer.js's ``play``."""
    transforms: Transforms


NOT_READ_BY_VIEWER = {
    ('Scene', 'metadata'): "three.js's Object format header",
    ('Geometry', 'type'): "three.js's geometry class; the viewer tells meshes from clouds by the index",
    ('BufferAttribute', 'type'): "three.js's array class; the viewer makes its own Float32Arrays",
    ('BufferAttribute', 'itemSize'): "three.js's; the viewer's arrays are all of 3-vectors or indices",
    ('Material', 'type'): "three.js's material class",
    ('Material', 'flatShading'): "three.js's; the viewer always shades flat",
    ('Material', 'vertexColors'): "three.js's; the viewer uses the geometry's color attribute when it has one",
    ('Material', 'size'): "three.js's point size; the viewer draws points 3 pixels wide",
    ('Node', 'uuid'): "three.js's; the viewer finds nodes by name",
    ('Node', 'position'): "a three.js DirectionalLight's; the viewer lights with the scene's lights",
    ('Node', 'color'): "a three.js DirectionalLight's",
    ('Node', 'target'): "a three.js DirectionalLight's",
    ('Node', 'intensity'): "a three.js DirectionalLight's",
    ('Extra', 'name'): "the item's name, for the Python side",
    ('Extra', 'width'): "the line width: WebGL draws lines 1 pixel wide",
}
"""(type, field) -> why viewer.js does not read it."""
