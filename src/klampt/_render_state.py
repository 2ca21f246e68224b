"""What a renderer reads from an :class:`~klampt.Appearance`: its
:class:`RenderState` (and :class:`Texture`), a typed copy of the core's
appearance taken by :func:`render_state`. The OpenGL renderer
(``klampt.vis._render``), the web serializer and the Rerun converter read
these fields; none of them reads the Appearance itself.

Colors are RGBA lists of four floats in [0, 1]; per-element colors are
float32 ``n x 4`` numpy arrays (copies: the appearance may change while they
are drawn) or None."""
from dataclasses import dataclass, field, fields
from typing import Any, List, Optional

Color = List[float]
"""An RGBA color, four floats in [0, 1]."""


@dataclass
class Texture:
    """An appearance's texture.

    Attributes:
        format (str): texel bytes: 'l8', 'rgb8', 'bgr8', 'rgba8' or 'bgra8'.
        texels (numpy.ndarray): uint8 ``h x w x channels``, rows top first
            (h is 1 for a 1D texture).
        wrap (bool): coordinates outside [0, 1] repeat the texture (else
            they clamp to its edge).
        texcoords (numpy.ndarray or None): per-vertex coordinates, ``n x 1``
            or ``n x 2`` floats, or None when ``texgen`` generates them.
        texgen (list): the planes (four coefficients each, one per texture
            coordinate) whose dot products with a point give its
            coordinates; empty when none.
        texgen_world (bool): the texgen planes are in world coordinates (else
            in the geometry's local frame).
    """
    format: str
    texels: Any
    wrap: bool = True
    texcoords: Optional[Any] = None
    texgen: List[List[float]] = field(default_factory=list)
    texgen_world: bool = False


@dataclass
class RenderState:
    """Everything a renderer reads from an appearance.

    Attributes:
        drawn (bool): the geometry is drawn at all.
        draw_vertices, draw_edges, draw_faces (bool): which features are drawn.
        color (Color): the faces' color (and the points' of a point cloud).
        vertex_color, edge_color (Color): the colors of drawn vertices and edges.
        emissive, specular (Color): material emission and specular colors.
        shininess (float): specular exponent; 0 turns specular highlights off.
        tint_color (Color): the color every drawn color is blended toward...
        tint_strength (float): ...by this fraction (0: no tint).
        vertex_colors, face_colors (numpy.ndarray or None): per-vertex or
            per-triangle colors (float32 n x 4), which replace ``color``.
        point_size (float): drawn points' size, in pixels.
        crease_angle (float): normals are smoothed across edges flatter than
            this (radians; 0: flat shading).
        silhouette_radius (float): width of the drawn silhouette outline (0: none).
        silhouette_color (Color): its color.
        texture (Texture or None): the texture, if any.
    """
    drawn: bool
    draw_vertices: bool
    draw_edges: bool
    draw_faces: bool
    color: Color
    vertex_color: Color
    edge_color: Color
    emissive: Color
    specular: Color
    shininess: float
    tint_color: Color
    tint_strength: float
    vertex_colors: Optional[Any]
    face_colors: Optional[Any]
    point_size: float
    crease_angle: float
    silhouette_radius: float
    silhouette_color: Color
    texture: Optional[Texture]

    @classmethod
    def from_dict(cls, data):
        """The state from the dict ``Appearance._render_state()`` gives (the
        binding's form, its keys the fields' names)."""
        values = {f.name: data[f.name] for f in fields(cls)}
        if values['texture'] is not None:
            values['texture'] = Texture(**values['texture'])
        return cls(**values)


def render_state(appearance):
    """The :class:`RenderState` of an :class:`~klampt.Appearance` now (a
    copy: changing it changes nothing in the appearance)."""
    return RenderState.from_dict(appearance._render_state())
