"""The OpenGL methods of the core classes (``WorldModel.drawGL``,
``RobotModel.drawGL``, ``RobotModelLink.drawWorldGL``, ``Appearance.drawGL``,
``SimRobotSensor.drawGL``, ...), attached to the extension's classes by
:mod:`klampt.robotsim`. They draw into whatever OpenGL context is current
(klampt.vis's or the user's), with the current modelview, through
:mod:`klampt.vis._render`; the C++ extension links no OpenGL. With no
current context they raise RuntimeError."""
import math

from ._render_state import render_state
from .math import se3, so3


def _render():
    from klampt.vis._render import geometry, gl  # OpenGL: loaded by the first draw
    return gl, geometry


def _check(what):
    gl, geometry = _render()
    gl.require_context(what)
    return geometry


def appearance_drawGL(self, geom=None):
    """Draws a geometry in its local frame with this appearance, in the
    current OpenGL context. (The reference also accepts no argument for an
    element's appearance; here the geometry is always passed.)"""
    geometry = _check("Appearance.drawGL")
    if geom is None:
        raise ValueError("Appearance.drawGL needs the geometry to draw: drawGL(geom), or use the element's "
                         "drawGL()")
    geometry.draw_local(geom, render_state(self))


def appearance_drawWorldGL(self, geom):
    """Draws a geometry at its current transform with this appearance, in
    the current OpenGL context."""
    geometry = _check("Appearance.drawWorldGL")
    geometry.draw_world(geom, render_state(self))


def _element_parts(element):
    state = render_state(element.appearance())
    if type(element).__name__ == 'TerrainModel':
        from klampt.vis._render.geometry import with_terrain_checker  # OpenGL: loaded by the first draw
        state = with_terrain_checker(state)
    return element.geometry(), state


def _opaque(state):
    return state.color[3] >= 1.0


def link_drawLocalGL(self, keepAppearance=True):
    """Draws the link's geometry in its local frame (keepAppearance=False:
    the current GL color, no material changes)."""
    geometry = _check("RobotModelLink.drawLocalGL")
    geom, state = _element_parts(self)
    geometry.draw_local(geom, state, keepAppearance)


def link_drawWorldGL(self, keepAppearance=True):
    """Draws the link's geometry at the link's current transform."""
    geometry = _check("RobotModelLink.drawWorldGL")
    geom, state = _element_parts(self)
    geometry.draw_world(geom, state, keepAppearance)


def _draw_elements(geometry, elements, keepAppearance):
    """Opaque elements first, then the transparent ones (blending needs the
    opaque depth)."""
    parts = [_element_parts(e) for e in elements]
    for geom, state in parts:
        if _opaque(state) or not keepAppearance:
            geometry.draw_world(geom, state, keepAppearance)
    if keepAppearance:
        for geom, state in parts:
            if not _opaque(state):
                geometry.draw_world(geom, state, keepAppearance)


def robot_drawGL(self, keepAppearance=True):
    """Draws every link at its current transform (keepAppearance=False: in
    the current GL color)."""
    geometry = _check("RobotModel.drawGL")
    _draw_elements(geometry, [self.link(i) for i in range(self.numLinks())], keepAppearance)


def object_drawGL(self, keepAppearance=True):
    """Draws the rigid object at its current transform."""
    geometry = _check("RigidObjectModel.drawGL")
    _draw_elements(geometry, [self], keepAppearance)


def terrain_drawGL(self, keepAppearance=True):
    """Draws the terrain."""
    geometry = _check("TerrainModel.drawGL")
    _draw_elements(geometry, [self], keepAppearance)


def world_drawGL(self):
    """Draws robots, terrains and rigid objects: the opaque ones first, then
    the transparent ones."""
    geometry = _check("WorldModel.drawGL")
    elements = []
    for r in range(self.numRobots()):
        robot = self.robot(r)
        elements += [robot.link(i) for i in range(robot.numLinks())]
    elements += [self.terrain(i) for i in range(self.numTerrains())]
    elements += [self.rigidObject(i) for i in range(self.numRigidObjects())]
    _draw_elements(geometry, elements, True)


def _sensor_world_transform(sensor):
    try:
        return sensor.getTransformWorld()
    except Exception:
        return se3.identity()


def sensor_drawGL(self, np_array=None):
    """Draws a sensor indicator: a camera's frustum, a laser's sweep, other
    sensors' mount frames; with measurements, also what they measured as if
    they were the latest (a camera's colored depth points, a laser's hits)."""
    _check("SimRobotSensor.drawGL")
    from klampt.vis._render import gl, primitives  # OpenGL: loaded by the first draw
    GL = gl.gl()
    measurements = [] if np_array is None else [float(v) for v in np_array]
    T = _sensor_world_transform(self)
    kind = self.type()
    GL.glPushAttrib(GL.GL_ENABLE_BIT | GL.GL_CURRENT_BIT | GL.GL_POINT_BIT | GL.GL_LINE_BIT)
    GL.glDisable(GL.GL_LIGHTING)
    GL.glPushMatrix()
    GL.glMultMatrixd(gl.column_major(T))
    try:
        if kind == 'CameraSensor':
            _draw_camera(self, measurements, primitives, GL)
        elif kind == 'LaserRangeSensor':
            _draw_laser(self, measurements, primitives)
        else:
            primitives.xform_widget(se3.identity(), 0.05, 0.005)
    finally:
        GL.glPopMatrix()
        GL.glPopAttrib()


def _setting(sensor, name, default):
    try:
        return float(sensor.getSetting(name))
    except Exception:
        return default


def _draw_camera(sensor, measurements, primitives, GL):
    xres, yres = int(_setting(sensor, 'xres', 640)), int(_setting(sensor, 'yres', 480))
    xfov = _setting(sensor, 'xfov', math.radians(56))
    yfov = _setting(sensor, 'yfov', math.radians(43))
    zmin, zmax = _setting(sensor, 'zmin', 0.4), _setting(sensor, 'zmax', 4.0)
    sx, sy = math.tan(xfov * 0.5), math.tan(yfov * 0.5)
    GL.glColor4f(1, 1, 0, 1)
    corners = [(-sx, -sy), (sx, -sy), (sx, sy), (-sx, sy)]
    for z in (zmin, zmax):
        primitives.polyline([(x * z, y * z, z) for x, y in corners], closed=True)
    GL.glBegin(GL.GL_LINES)
    for x, y in corners:
        GL.glVertex3d(0, 0, 0)
        GL.glVertex3d(x * zmax, y * zmax, zmax)
    GL.glEnd()
    rgb = _setting(sensor, 'rgb', 1) != 0
    depth = _setting(sensor, 'depth', 1) != 0
    n = xres * yres
    if not depth or len(measurements) < n * (2 if rgb else 1):
        return
    import numpy as np
    from klampt.vis._render.gl import arrays, pointer  # OpenGL: loaded by the first draw
    d = np.asarray(measurements[n if rgb else 0:(2 if rgb else 1) * n]).reshape(yres, xres)
    step = max(1, int(math.sqrt(n / 20000.0)))
    d = d[::step, ::step]
    v, u = np.mgrid[0:yres:step, 0:xres:step]
    x = (u + 0.5 - xres * 0.5) / (xres * 0.5) * sx * d
    y = (v + 0.5 - yres * 0.5) / (yres * 0.5) * sy * d
    valid = (d > 0) & (d < zmax)
    pts = np.stack([x[valid], y[valid], d[valid]], axis=1).astype(np.float32)
    if rgb:
        c = np.asarray(measurements[:n]).reshape(yres, xres)[::step, ::step][valid].astype(np.int64)
        colors = np.stack([(c >> 16) & 255, (c >> 8) & 255, c & 255], axis=1).astype(np.float32) / 255.0
        colors = np.hstack([colors, np.ones((len(colors), 1), np.float32)])
    else:
        colors = np.tile(np.float32([0.2, 0.2, 1.0, 1.0]), (len(pts), 1))
    GL.glPointSize(2.0)
    GL.glEnableClientState(GL.GL_VERTEX_ARRAY)
    GL.glEnableClientState(GL.GL_COLOR_ARRAY)
    colors = np.ascontiguousarray(colors, dtype=np.float32)
    arrays().glVertexPointer(3, GL.GL_FLOAT, 0, pointer(pts))
    arrays().glColorPointer(4, GL.GL_FLOAT, 0, pointer(colors))
    GL.glDrawArrays(GL.GL_POINTS, 0, len(pts))
    GL.glDisableClientState(GL.GL_COLOR_ARRAY)
    GL.glDisableClientState(GL.GL_VERTEX_ARRAY)


def _draw_laser(sensor, measurements, primitives):
    n = len(measurements)
    if n == 0:
        return
    sweep = _setting(sensor, 'xSweepMagnitude', math.pi / 2)
    pts = []
    for i, d in enumerate(measurements):
        a = -sweep + 2 * sweep * i / max(1, n - 1)
        if math.isfinite(d):
            pts.append((d * math.sin(a), 0.0, d * math.cos(a)))
    primitives.points(pts, 3.0, (1, 0, 0, 1))


def viewport_set_current_GL(self):
    """Loads this GLViewport's projection and modelview into the current
    OpenGL context (as the reference, neither glViewport nor lights)."""
    gl, _ = _render()
    gl.require_context("GLViewport.set_current_GL")
    gl.set_camera(self)


def viewport_drawGL(self, draw_frustum=True, draw_coords=True):
    """Draws the camera's frustum (yellow) and its axes, in the current
    OpenGL context."""
    gl, _ = _render()
    gl.require_context("GLViewport.drawGL")
    from klampt.vis._render import primitives  # OpenGL: loaded by the first draw
    GL = gl.gl()
    R, t = self.camera.matrix()
    GL.glPushAttrib(GL.GL_ENABLE_BIT | GL.GL_CURRENT_BIT)
    GL.glDisable(GL.GL_LIGHTING)
    if draw_coords:
        primitives.xform_widget((R, t), 0.1, 0.01)
    if draw_frustum:
        n, f = gl.clip_planes(self)
        left, bottom, right, top = self.viewRectangle(1.0)
        GL.glColor4f(1, 1, 0, 1)
        for z in (n, min(f, 3 * self.camera.dist)):
            corners = [so3.apply(R, [x * z, y * z, -z])
                       for x, y in ((left, bottom), (right, bottom), (right, top), (left, top))]
            primitives.polyline([[c[i] + t[i] for i in range(3)] for c in corners], closed=True)
    GL.glPopAttrib()


def attach(classes):
    """Installs the methods on the extension's classes (a dict of name ->
    class)."""
    table = {
        'Appearance': {'drawGL': appearance_drawGL, 'drawWorldGL': appearance_drawWorldGL},
        'RobotModelLink': {'drawLocalGL': link_drawLocalGL, 'drawWorldGL': link_drawWorldGL},
        'RobotModel': {'drawGL': robot_drawGL},
        'RigidObjectModel': {'drawGL': object_drawGL},
        'TerrainModel': {'drawGL': terrain_drawGL},
        'WorldModel': {'drawGL': world_drawGL},
        'SimRobotSensor': {'drawGL': sensor_drawGL},
    }
    for cls_name, methods in table.items():
        cls = classes[cls_name]
        for name, fn in methods.items():
            setattr(cls, name, fn)
