"""Camera helpers of the scene: fitting the camera to the items
(``autoFitCamera``), camera controllers (``followCamera``) and ray casting of
items for picking."""
import warnings

from klampt.math import se3, so3, vectorops


def _names(item):
    # by class name, VisAppearance too: _scene imports this module, not the reverse
    return {c.__name__ for c in type(item).__mro__}


def autoFitViewport(viewport, objects, zoom=True, rotate=True):
    """Aims a GLViewport at the objects (VisAppearances) as a person would:
    from above the floor, z up, slightly above the robots and objects, which
    fill the view; terrains count only when nothing else is there (see
    :mod:`klampt.vis._framing`). ``zoom=False`` keeps the default distance,
    ``rotate=False`` the default direction (along +y)."""
    from . import _framing
    if _framing.fit(viewport, objects, zoom=zoom, rotate=rotate):
        print("auto-fitting camera")


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
    """A controller following a camera SimRobotSensor or a Trajectory (looped):
    of camera transforms (an SE3Trajectory or 12-vectors, as
    ``get_transform``, 'standard' convention), of camera orientations (an
    SO3Trajectory or 9-vectors, the camera staying in place) or of target
    points (3-vectors)."""
    import copy
    from klampt.model.trajectory import Trajectory
    if isinstance(target, Trajectory):
        def controller(t):
            vp = copy.deepcopy(view)
            v = target.eval(t, 'loop')
            if len(v) == 2 and hasattr(v[0], '__len__'):
                v = list(v[0]) + list(v[1])
            if len(v) == 12:
                vp.set_transform((v[:9], v[9:]))
            elif len(v) == 9:
                vp.set_transform((list(v), vp.get_transform()[1]))
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
