"""Boxes and spheres as geometries or as world bodies (rigid objects when a
finite mass is given, terrains otherwise)."""
from klampt.robotsim import GeometricPrimitive, Geometry3D, Mass
from klampt.math import vectorops


def _finish(geom, center, inertia_diagonal, R, t, world, name, mass):
    """Returns the geometry (placed at (R, t) if given) or, with a world, a new
    rigid object of the given mass or a terrain (infinite mass) holding it."""
    if world is None:
        if R is not None and t is not None:
            geom.setCurrentTransform(R, t)
        return geom
    if mass != float('inf'):
        body_mass = Mass()
        body_mass.setMass(mass)
        body_mass.setCom(center)
        body_mass.setInertia(inertia_diagonal)
        body = world.makeRigidObject(name)
        body.geometry().set(geom)
        body.setMass(body_mass)
        if R is not None and t is not None:
            body.setTransform(R, t)
        return body
    terrain = world.makeTerrain(name)
    if R is not None and t is not None:
        geom.transform(R, t)
    terrain.geometry().set(geom)
    return terrain


def _convert(prim, type, resolution=0.0):
    geom = Geometry3D(prim)
    return geom if type == 'GeometricPrimitive' else geom.convert(type, resolution)


def box(width, depth, height, center=None, R=None, t=None, world=None, name=None, mass=float('inf'),
        type='TriangleMesh'):
    """Makes a box of dimensions width x depth x height (x, y, z).

    Args:
        width, depth, height (float): the box's x, y and z dimensions.
        center (list of 3 floats, optional): centre of the box geometry in its
            local frame (default the origin).
        R, t (rigid transform, optional): placement of the box in the world.
        world (WorldModel, optional): if given, a body is created in it.
        name (str, optional): the body's name (default 'box').
        mass (float, optional): finite: a RigidObjectModel of this mass and the
            box's uniform-density inertia; inf (default): a TerrainModel.
        type (str, optional): geometry type, 'TriangleMesh' (default),
            'GeometricPrimitive' or any type the primitive converts to.

    Returns:
        Geometry3D, RigidObjectModel or TerrainModel: the geometry when no
        world is given, otherwise the new body.
    """
    if center is None:
        center = [0.0, 0.0, 0.0]
    half = [0.5 * width, 0.5 * depth, 0.5 * height]
    prim = GeometricPrimitive()
    prim.setAABB(vectorops.sub(center, half), vectorops.add(center, half))
    inertia = [mass * (depth ** 2 + height ** 2) / 12.0, mass * (width ** 2 + height ** 2) / 12.0,
               mass * (width ** 2 + depth ** 2) / 12.0]
    return _finish(_convert(prim, type), center, inertia, R, t, world, name or 'box', mass)


def sphere(radius, center=None, R=None, t=None, world=None, name=None, mass=float('inf'), resolution=0.0,
           type='TriangleMesh'):
    """Makes a sphere of the given radius; the arguments are those of
    :func:`box` (default name 'sphere', solid-sphere inertia), and
    ``resolution`` (Klamp't 0.10): if non-zero, the conversion's resolution
    (mesh edge length, cloud spacing, grid cell). A string in its place is
    Klamp't 0.9.2's positional ``type``."""
    if isinstance(resolution, str):
        resolution, type = 0.0, resolution
    if center is None:
        center = [0.0, 0.0, 0.0]
    prim = GeometricPrimitive()
    prim.setSphere(center, radius)
    inertia = [0.4 * mass * radius ** 2] * 3
    return _finish(_convert(prim, type, float(resolution)), center, inertia, R, t, world, name or 'sphere', mass)


def bbox(bmin, bmax, R=None, t=None, world=None, name=None, mass=float('inf'), type='TriangleMesh'):
    """Makes the box with corners bmin and bmax; the other arguments are those
    of :func:`box`."""
    width, depth, height = vectorops.sub(bmax, bmin)
    return box(width, depth, height, vectorops.interpolate(bmin, bmax, 0.5), R, t, world, name, mass, type)
