"""Draws a Geometry3D with an Appearance into the current OpenGL context, from
the core's render data (``Geometry3D._render_mesh`` / ``_render_points``,
a :class:`klampt._render_state.RenderState`) through client-side vertex arrays, so nothing
is left behind in the context and any context (ours or the user's) works.
"""
import dataclasses
import math

import numpy as np

from klampt._heightmap_colors import heightmap_vertex_colors
from klampt._render_state import Texture

from .gl import arrays, column_major, gl, pointer, set_surface_color

# Derived per-corner color arrays, keyed by (mesh serial, colors digest).
_corner_colors = {}
_CORNER_CACHE_SIZE = 64


def _tinted(color, state):
    s = float(state.tint_strength)
    if s <= 0:
        return list(color)
    tint = state.tint_color
    return [(1 - s) * c + s * t for c, t in zip(color[:3], tint[:3])] + [color[3]]


def _tinted_array(colors, state):
    s = float(state.tint_strength)
    if s <= 0:
        return colors
    out = np.array(colors, dtype=np.float32)
    out[:, :3] = (1 - s) * out[:, :3] + s * np.asarray(state.tint_color[:3], dtype=np.float32)
    return out


def _corner_color_array(mesh, state):
    """Per-corner RGBA of a mesh with per-face or per-vertex colors, or None."""
    faces, verts = state.face_colors, state.vertex_colors
    if faces is None and verts is None:
        return None
    ncorners = len(mesh['positions'])
    source = faces if faces is not None else verts
    key = (mesh['serial'], faces is not None, hash(source.tobytes()), float(state.tint_strength),
           tuple(state.tint_color))
    cached = _corner_colors.get(key)
    if cached is not None:
        return cached
    if faces is not None:
        if len(faces) * 3 != ncorners:
            return None  # colors for another mesh: the reference ignores them too
        corners = np.repeat(faces, 3, axis=0)
    else:
        idx = mesh['source_vertex']
        if len(idx) and idx.max() >= len(verts):
            return None
        corners = verts[idx]
    corners = np.ascontiguousarray(_tinted_array(corners, state), dtype=np.float32)
    if len(_corner_colors) >= _CORNER_CACHE_SIZE:
        _corner_colors.clear()
    _corner_colors[key] = corners
    return corners


def _set_material(GL, state, color):
    """The appearance's material, and ``color`` as the current color, with
    GL_COLOR_MATERIAL left off (see :func:`~.gl.set_surface_color`)."""
    set_surface_color(color)
    if state.shininess > 0:
        GL.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_SPECULAR, state.specular)
        GL.glMaterialf(GL.GL_FRONT_AND_BACK, GL.GL_SHININESS, min(128.0, float(state.shininess)))
    else:
        GL.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_SPECULAR, [0.0, 0.0, 0.0, 1.0])
    GL.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_EMISSION, state.emissive)


def _begin_blend(GL, alpha):
    if alpha < 1.0:
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        return True
    return False


def _texture_coordinates(texture, mesh):
    """Per-corner texture coordinates (float32 n x 2) from the appearance's
    per-vertex texcoords, or None (texgen, or none given)."""
    tc = texture.texcoords
    if tc is None:
        return None
    idx = mesh['source_vertex']
    if len(idx) and idx.max() >= len(tc):
        return None
    out = np.zeros((len(idx), 2), dtype=np.float32)
    out[:, :tc.shape[1]] = tc[idx, :2]
    return out


_TEX_FORMATS = {'l8': 'GL_LUMINANCE', 'rgb8': 'GL_RGB', 'bgr8': 'GL_BGR', 'rgba8': 'GL_RGBA', 'bgra8': 'GL_BGRA'}


def _bind_texture(GL, texture, mesh):
    """Uploads and enables the appearance's texture; returns a cleanup
    function, or None when the texture cannot apply."""
    texels = texture.texels
    h, w = texels.shape[0], texels.shape[1]
    fmt = getattr(GL, _TEX_FORMATS[texture.format])
    target = GL.GL_TEXTURE_1D if h == 1 else GL.GL_TEXTURE_2D
    coords = _texture_coordinates(texture, mesh)
    planes = texture.texgen
    if coords is None and not planes:
        return None
    tex = GL.glGenTextures(1)
    GL.glBindTexture(target, tex)
    GL.glPixelStorei(GL.GL_UNPACK_ALIGNMENT, 1)
    # Klamp't's texture rows are top first; OpenGL's t coordinate grows from the first row.
    data = np.ascontiguousarray(texels)
    if target == GL.GL_TEXTURE_1D:
        GL.glTexImage1D(target, 0, GL.GL_RGBA, w, 0, fmt, GL.GL_UNSIGNED_BYTE, data)
    else:
        GL.glTexImage2D(target, 0, GL.GL_RGBA, w, h, 0, fmt, GL.GL_UNSIGNED_BYTE, data)
    wrap = GL.GL_REPEAT if texture.wrap else GL.GL_CLAMP_TO_EDGE
    GL.glTexParameteri(target, GL.GL_TEXTURE_WRAP_S, wrap)
    GL.glTexParameteri(target, GL.GL_TEXTURE_WRAP_T, wrap)
    GL.glTexParameteri(target, GL.GL_TEXTURE_MIN_FILTER, GL.GL_NEAREST)
    GL.glTexParameteri(target, GL.GL_TEXTURE_MAG_FILTER, GL.GL_NEAREST)
    GL.glTexEnvi(GL.GL_TEXTURE_ENV, GL.GL_TEXTURE_ENV_MODE, GL.GL_MODULATE)
    GL.glEnable(target)
    gens = []
    if coords is not None:
        GL.glEnableClientState(GL.GL_TEXTURE_COORD_ARRAY)
        arrays().glTexCoordPointer(2, GL.GL_FLOAT, 0, pointer(coords))
    else:
        mode = GL.GL_OBJECT_LINEAR
        for coord, gen, plane in zip((GL.GL_S, GL.GL_T, GL.GL_R, GL.GL_Q),
                                     (GL.GL_TEXTURE_GEN_S, GL.GL_TEXTURE_GEN_T, GL.GL_TEXTURE_GEN_R,
                                      GL.GL_TEXTURE_GEN_Q), planes):
            GL.glTexGeni(coord, GL.GL_TEXTURE_GEN_MODE, mode)
            GL.glTexGendv(coord, GL.GL_OBJECT_PLANE, [float(v) for v in plane])
            GL.glEnable(gen)
            gens.append(gen)

    def cleanup():
        for gen in gens:
            GL.glDisable(gen)
        if coords is not None:
            GL.glDisableClientState(GL.GL_TEXTURE_COORD_ARRAY)
        GL.glDisable(target)
        GL.glDeleteTextures([tex])
    cleanup.coords = coords  # keeps the array alive until the draw call
    return cleanup


_CHECKER = None
# The terrains' checkerboard: squares of TERRAIN_CHECKER_SIZE metres whose x
# and y cells have the same parity are TERRAIN_CHECKER_LEVELS[0] / 255 of
# the colour, the others TERRAIN_CHECKER_LEVELS[1] / 255 (the web viewer
# draws the same).
TERRAIN_CHECKER_SIZE = 0.5
TERRAIN_CHECKER_LEVELS = (160, 128)


def with_terrain_checker(state):
    """A terrain's state with the reference's default look when it has no
    texture of its own: its color modulated by a checkerboard of 0.5 m
    squares in the x-y plane."""
    global _CHECKER
    if state.texture is not None:
        return state
    if _CHECKER is None:
        a, b = TERRAIN_CHECKER_LEVELS
        _CHECKER = np.array([[a, b], [b, a]], dtype=np.uint8).reshape(2, 2, 1)
    k = 0.5 / TERRAIN_CHECKER_SIZE  # the 2 x 2 texture repeats every 2 squares
    return dataclasses.replace(state, texture=Texture('l8', _CHECKER, wrap=True,
                                                      texgen=[[k, 0.0, 0.0, 0.0], [0.0, k, 0.0, 0.0]]))


def draw_mesh(mesh, state, keep_appearance=True, lighting=True):
    """Draws a render mesh with an appearance state (faces, edges,
    vertices as its flags say)."""
    GL = gl()
    n = len(mesh['positions'])
    if n == 0:
        return
    GL.glEnableClientState(GL.GL_VERTEX_ARRAY)
    arrays().glVertexPointer(3, GL.GL_FLOAT, 0, pointer(mesh['positions']))
    if state.draw_faces:
        color = _tinted(state.color, state) if keep_appearance else None
        corner_colors = _corner_color_array(mesh, state) if keep_appearance else None
        blended = False
        tracking = keep_appearance and bool(GL.glIsEnabled(GL.GL_COLOR_MATERIAL))
        if keep_appearance:
            alpha = color[3] if corner_colors is None else float(np.min(corner_colors[:, 3]))
            blended = _begin_blend(GL, alpha)
            _set_material(GL, state, color)
        if lighting:
            GL.glEnable(GL.GL_LIGHTING)
            GL.glEnableClientState(GL.GL_NORMAL_ARRAY)
            arrays().glNormalPointer(GL.GL_FLOAT, 0, pointer(mesh['normals']))
        if state.crease_angle > 0:
            GL.glShadeModel(GL.GL_SMOOTH)
        if corner_colors is not None:
            mode = GL.glGetIntegerv(GL.GL_COLOR_MATERIAL_FACE), GL.glGetIntegerv(GL.GL_COLOR_MATERIAL_PARAMETER)
            GL.glColorMaterial(GL.GL_FRONT_AND_BACK, GL.GL_AMBIENT_AND_DIFFUSE)
            GL.glEnable(GL.GL_COLOR_MATERIAL)
            GL.glEnableClientState(GL.GL_COLOR_ARRAY)
            arrays().glColorPointer(4, GL.GL_FLOAT, 0, pointer(corner_colors))
        cleanup = None
        if keep_appearance and state.texture is not None:
            cleanup = _bind_texture(GL, state.texture, mesh)
        GL.glDrawArrays(GL.GL_TRIANGLES, 0, n)
        if cleanup is not None:
            cleanup()
        if corner_colors is not None:
            GL.glDisableClientState(GL.GL_COLOR_ARRAY)
            GL.glColorMaterial(int(mode[0]), int(mode[1]))
            # the per-vertex colors overwrote the material and the current color
            _set_material(GL, state, color)
        if lighting:
            GL.glDisableClientState(GL.GL_NORMAL_ARRAY)
        GL.glShadeModel(GL.GL_FLAT)
        if blended:
            GL.glDisable(GL.GL_BLEND)
        if tracking:
            GL.glEnable(GL.GL_COLOR_MATERIAL)
    if state.draw_edges and len(mesh['edges']):
        GL.glDisable(GL.GL_LIGHTING)
        if keep_appearance:
            GL.glColor4f(*state.edge_color)
        arrays().glDrawElements(GL.GL_LINES, mesh['edges'].size, GL.GL_UNSIGNED_INT, pointer(mesh['edges']))
        GL.glEnable(GL.GL_LIGHTING)
    if state.draw_vertices:
        GL.glDisable(GL.GL_LIGHTING)
        if keep_appearance:
            GL.glColor4f(*state.vertex_color)
        GL.glPointSize(float(state.point_size))
        GL.glDrawArrays(GL.GL_POINTS, 0, n)
        GL.glEnable(GL.GL_LIGHTING)
    GL.glDisableClientState(GL.GL_VERTEX_ARRAY)


def draw_points(points, state, keep_appearance=True):
    """Draws a render point cloud: unlit points of the appearance's point
    size, colored by the cloud's colors or the appearance's color."""
    GL = gl()
    n = len(points['positions'])
    if n == 0:
        return
    GL.glDisable(GL.GL_LIGHTING)
    GL.glPointSize(float(state.point_size))
    GL.glEnableClientState(GL.GL_VERTEX_ARRAY)
    arrays().glVertexPointer(3, GL.GL_FLOAT, 0, pointer(points['positions']))
    colors = points['colors'] if keep_appearance else None
    blended = False
    if colors is not None:
        colors = np.ascontiguousarray(_tinted_array(colors, state), dtype=np.float32)
        blended = _begin_blend(GL, float(np.min(colors[:, 3])))
        GL.glEnableClientState(GL.GL_COLOR_ARRAY)
        arrays().glColorPointer(4, GL.GL_FLOAT, 0, pointer(colors))
    elif keep_appearance:
        color = _tinted(state.color, state)
        blended = _begin_blend(GL, color[3])
        GL.glColor4f(*color)
    GL.glDrawArrays(GL.GL_POINTS, 0, n)
    if colors is not None:
        GL.glDisableClientState(GL.GL_COLOR_ARRAY)
    if blended:
        GL.glDisable(GL.GL_BLEND)
    GL.glDisableClientState(GL.GL_VERTEX_ARRAY)
    GL.glEnable(GL.GL_LIGHTING)


def _draw_point_primitive(prim, state, keep_appearance):
    GL = gl()
    p = prim.properties
    GL.glDisable(GL.GL_LIGHTING)
    if keep_appearance:
        GL.glColor4f(*_tinted(state.color, state))
    if prim.type == 'Point':
        GL.glPointSize(float(state.point_size))
        GL.glBegin(GL.GL_POINTS)
        GL.glVertex3d(p[0], p[1], p[2])
    else:
        GL.glBegin(GL.GL_LINES)
        GL.glVertex3d(p[0], p[1], p[2])
        GL.glVertex3d(p[3], p[4], p[5])
    GL.glEnd()
    GL.glEnable(GL.GL_LIGHTING)


def draw_local(geom, state, keep_appearance=True):
    """Draws a Geometry3D in its local frame."""
    if not state.drawn:
        return
    gtype = geom.type()
    if gtype == '':
        return
    if gtype == 'PointCloud':
        draw_points(geom._render_points(), state, keep_appearance)
        return
    if gtype == 'GeometricPrimitive':
        prim = geom.getGeometricPrimitive()
        if prim.type in ('Point', 'Segment'):
            _draw_point_primitive(prim, state, keep_appearance)
            return
    if gtype == 'Group':
        # members that are points or segments are drawn by their own kind, the rest as one mesh
        for i in range(geom.numElements()):
            element = geom.getElement(i)
            etype = element.type()
            if etype == 'PointCloud' or (etype == 'GeometricPrimitive' and
                                         element.getGeometricPrimitive().type in ('Point', 'Segment')):
                draw_local(element, state, keep_appearance)
    crease = float(state.crease_angle)
    mesh = geom._render_mesh(crease if math.isfinite(crease) and crease > 0 else 0.0)
    if gtype == 'Heightmap' and state.face_colors is None and state.vertex_colors is None:
        state = _with_heightmap_colors(geom, mesh['serial'], state)
    draw_mesh(mesh, state, keep_appearance)


_heightmap_colors = {}


def _with_heightmap_colors(geom, key, state):
    """The state with a coloured heightmap's own colours as vertex colours
    (replacing a terrain's checkerboard), cached per render mesh (key)."""
    if key not in _heightmap_colors:
        if len(_heightmap_colors) >= _CORNER_CACHE_SIZE:
            _heightmap_colors.clear()
        _heightmap_colors[key] = heightmap_vertex_colors(geom)
    colors = _heightmap_colors[key]
    if colors is None:
        return state
    return dataclasses.replace(state, vertex_colors=colors, texture=None)


def draw_world(geom, state, keep_appearance=True):
    """Draws a Geometry3D at its current transform."""
    GL = gl()
    GL.glPushMatrix()
    GL.glMultMatrixd(column_major(geom.getCurrentTransform()))
    try:
        draw_local(geom, state, keep_appearance)
    finally:
        GL.glPopMatrix()
