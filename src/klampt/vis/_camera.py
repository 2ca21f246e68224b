"""Camera helpers of the scene: fitting the camera to the items
(``autoFitCamera``), camera controllers (``followCamera``) and ray casting of
items for picking."""
import math
import warnings

from klampt.math import se3, so3, vectorops


def _names(item):
    # by class name, VisAppearance too: _scene imports this module, not the reverse
    return {c.__name__ for c in type(item).__mro__}


def _offsets(obj):
    """Points that move with the object (link origins relative to the zero
    configuration, object positions), as the reference collects them."""
    names = _names(obj)
    if 'WorldModel' in names:
        res = []
        for i in range(obj.numRobots()):
            res += _offsets(obj.robot(i))
        for i in range(obj.numRigidObjects()):
            res += _offsets(obj.rigidObject(i))
        return res
    if 'RobotModel' in names:
        return [obj.link(i).getTransform()[1] for i in range(obj.numLinks())]
    if names & {'RobotModelLink', 'RigidObjectModel'}:
        return [obj.getTransform()[1]]
    if 'Geometry3D' in names:
        return [obj.getCurrentTransform()[1]]
    if 'VisAppearance' in names:
        if 'TerrainModel' in _names(obj.item):
            return []
        res = _offsets(obj.item)
        if res:
            return res
        if not obj.subAppearances:
            bb = obj.getBounds()
            return [vectorops.mul(vectorops.add(bb[0], bb[1]), 0.5)] if bb is not None else []
        res = []
        for a in obj.subAppearances.values():
            res += _offsets(a)
        return res
    return []


def _bounds(obj, terrains=False):
    """Corner points of the items' boxes (terrains only when asked)."""
    if 'VisAppearance' in _names(obj):
        if obj.subAppearances:
            res = []
            for a in obj.subAppearances.values():
                res += _bounds(a, terrains)
            return res
        if 'TerrainModel' in _names(obj.item) and not terrains:
            return []
        bb = obj.getBounds()
        return list(bb) if bb is not None else []
    return []


def autoFitViewport(viewport, objects, zoom=True, rotate=True):
    """Aims a GLViewport at the objects (VisAppearances): centres on their
    bounding boxes and, with ``rotate``, looks along the normal of a plane
    fitted to their moving points. Terrains count only when nothing else is
    there; the near plane never puts the camera inside the items."""
    from klampt.model.geometry import fit_plane_centroid
    ofs = sum([_offsets(o) for o in objects], [])
    pts = sum([_bounds(o) for o in objects], [])
    if not pts and not ofs:
        pts = sum([_bounds(o, terrains=True) for o in objects], [])
    viewport.camera.rot = [0., 0., 0.]
    viewport.camera.tgt = [0., 0., 0.]
    viewport.camera.dist = 6.0
    viewport.clippingplanes = (0.2, 20)
    if not ofs and not pts:
        return
    print("auto-fitting camera")
    pts = pts + ofs
    bmin = [min(p[i] for p in pts) for i in range(3)]
    bmax = [max(p[i] for p in pts) for i in range(3)]
    center = vectorops.mul(vectorops.add(bmin, bmax), 0.5)
    viewport.camera.tgt = center
    if zoom:
        radius = max(vectorops.distance(bmin, center), 0.25)
        viewport.camera.dist = 1.2 * radius / math.tan(math.radians(viewport.fov * 0.5))
    if rotate:
        viewport.camera.rot = [0, math.radians(30), math.radians(45)]
        normal = None
        for candidate in (ofs, pts):
            try:
                normal = fit_plane_centroid(candidate)[1]
                break
            except (ValueError, ZeroDivisionError):
                continue
        if normal is None:
            normal = [0.0, 1.0, 0.0]
        if normal[2] > 0:
            normal = vectorops.mul(normal, -1)
        z, x, y = so3.matrix(so3.inv(so3.canonical(normal)))
        yaw = math.atan2(normal[0], normal[1])
        pitch = math.atan2(-normal[2], vectorops.norm(normal[0:2]))
        viewport.camera.rot = [0, pitch, yaw]
    else:
        x, y, z = [1, 0, 0], [0, 0, 1], [0, 1, 0]
    if zoom:
        aspect = float(viewport.w) / viewport.h
        radius = max([abs(vectorops.dot(x, vectorops.sub(center, p))) for p in pts] +
                     [abs(vectorops.dot(y, vectorops.sub(center, p))) * aspect for p in pts] + [0.25])
        zs = [vectorops.dot(z, vectorops.sub(center, p)) for p in pts]
        viewport.camera.tgt = center
        viewport.camera.dist = 1.2 * radius / math.tan(math.radians(viewport.fov * 0.5))
        near, far = viewport.clippingplanes
        if viewport.camera.dist + min(zs) < near:
            near = max((viewport.camera.dist + min(zs)) * 0.5, radius * 0.1)
        if viewport.camera.dist + max(zs) > far:
            far = max((viewport.camera.dist + max(zs)) * 1.5, radius * 3)
        viewport.clippingplanes = (max(1e-3, near), far)


def follow_item(view, app, translate, rotate, center):
    """A controller ``f(t) -> GLViewport or None`` keeping the camera on an
    item: moving with its centre (translate) and / or turning with its
    orientation (rotate)."""
    import copy
    if center:
        c = app.getCenter()
        if translate:
            view.camera.tgt = list(c)
        else:
            view.camera.set_matrix(view.camera.matrix())
            view.camera.tgt = list(c)
    if not translate and not rotate:
        return None
    state = {'last': _pose_of(app)}

    def controller(t):
        pose = _pose_of(app)
        last = state['last']
        state['last'] = pose
        if pose is None or last is None:
            return None
        vp = copy.deepcopy(view)
        delta = se3.mul(pose, se3.inv(last))
        if translate:
            vp.camera.tgt = vectorops.add(vp.camera.tgt, vectorops.sub(pose[1], last[1]))
        if rotate:
            T = vp.camera.matrix()
            vp.camera.set_matrix((so3.mul(delta[0], T[0]), T[1]))
        view.camera = vp.camera
        return vp
    return controller


def _pose_of(app):
    item = app.item
    names = _names(item)
    if names & {'RigidObjectModel', 'RobotModelLink'}:
        return item.getTransform()
    if 'RobotModel' in names:
        return item.link(0).getTransform() if item.numLinks() else None
    c = app.getCenter()
    return (so3.identity(), c)


def follow_object(view, target):
    """A controller following a Trajectory of camera transforms (as
    ``get_transform``, 'standard' convention) or a camera SimRobotSensor."""
    import copy
    from klampt.model.trajectory import Trajectory
    if isinstance(target, Trajectory):
        def controller(t):
            vp = copy.deepcopy(view)
            v = target.eval(t, 'loop')
            if len(v) == 12:
                vp.set_transform((v[:9], v[9:]))
            elif len(v) == 3:
                vp.camera.tgt = list(v)
            return vp
        return controller
    if 'SimRobotSensor' in _names(target):
        from klampt.model import sensing

        def controller(t):
            vp = sensing.camera_to_viewport(target, target.robot())
            vp.w, vp.h = view.w, view.h
            return vp
        return controller
    raise ValueError("Invalid value for target, must either be str or a Trajectory")


def ray_cast_item(app, s, d, tolerance=0.01):
    """The point where the ray (s, d) first hits an item, or None."""
    item = app.item
    names = _names(item)
    try:
        if names & {'RobotModelLink', 'RigidObjectModel', 'TerrainModel'}:
            hit, pt = item.geometry().rayCast(s, d)
            return pt if hit else None
        if 'Geometry3D' in names:
            hit, pt = item.rayCast(s, d)
            return pt if hit else None
        bb = app.getBounds()
        if bb is None:
            return None
        c = vectorops.mul(vectorops.add(bb[0], bb[1]), 0.5)
        r = max(tolerance, 0.5 * vectorops.distance(bb[0], bb[1]))
        t = vectorops.dot(vectorops.sub(c, s), d)
        if t < 0:
            return None
        closest = vectorops.madd(s, d, t)
        return closest if vectorops.distance(closest, c) <= r else None
    except Exception as e:
        warnings.warn("klampt.vis: ray cast of %s failed: %s" % (app.name, e))
        return None
