"""Choosing the camera a person would: which items are the subject of a
scene, from which side and height to look at them, and how far away to stand
so that they fill the view.

The world is z up. The subject is the robots, the rigid objects and the other
items; terrains, and objects shaped like a floor much larger than the rest,
are the surroundings: they never widen the view, but the eye stays above them
and is not put where they hide the robots. Terrains are the subject only when
nothing else is there.

The camera controllers of ``vis.followCamera`` (an item, a trajectory or a
camera sensor the view follows) are here too.
"""
import copy
import math

from klampt.math import se3, so3, vectorops
from klampt.model.trajectory import Trajectory
from klampt.model import sensing

# Elevations tried, in order, for the eye above the target (degrees): slightly
# above first, as a person standing by the scene would look.
ELEVATIONS = (25.0, 40.0, 55.0, 70.0)
# Offsets from the preferred side (degrees), tried in order: a three-quarter
# view of the subject's plane first, then the other side, then side-on.
AZIMUTH_OFFSETS = (-35.0, 35.0, 145.0, -145.0, 90.0, -90.0, 0.0, 180.0)
# Share of the view the subject may fill (the rest is margin).
FILL = 0.85
# A floor-like item is this much wider than the subject, and flat.
FLOOR_SIZE_RATIO = 3.0
FLOOR_FLATNESS = 0.2
# Floating subjects are shown with the ground under them up to this many sizes below.
GROUND_GAP = 3.0


def _names(item):
    return {c.__name__ for c in type(item).__mro__}


class Parts:
    """What a scene holds, sorted for framing.

    Attributes:
        subject (list of 3-vectors): corner points of the boxes to keep in
            view.
        moving (list of 3-vectors): points that move with the subject (link
            origins, object positions), to fit the subject's plane.
        robot_points (list of 3-vectors): centres of the robots' links, which
            the eye must see.
        surroundings (list of Geometry3D): terrains and floor-like items, for
            the floor and occlusion tests.
        blockers (list of Geometry3D): every geometry that may hide a robot
            (surroundings and the rigid objects).
        terrain_boxes (list of boxes): the terrains' bounding boxes.
        items (list of (box, Geometry3D or None, moving points)): the items
            other than robots and terrains, before :func:`gather` sorts
            them into subject and surroundings.
    """

    def __init__(self):
        self.subject = []
        self.moving = []
        self.robot_points = []
        self.surroundings = []
        self.blockers = []
        self.terrain_boxes = []
        self.items = []


def _box_corners(bb):
    (x0, y0, z0), (x1, y1, z1) = bb
    return [[x, y, z] for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]


def _finite(bb):
    return bb is not None and all(math.isfinite(v) and abs(v) < 1e8 for v in list(bb[0]) + list(bb[1])) \
        and all(bb[0][i] <= bb[1][i] for i in range(3))


def _geometry_of(item):
    try:
        g = item.geometry()
        return g if g is not None and not g.empty() else None
    except Exception:
        return None


def _collect(app, parts):
    """Walks a VisAppearance tree into ``parts``."""
    item = app.item
    names = _names(item)
    if app.attributes.get('hidden'):
        return
    if 'TerrainModel' in names:
        g = _geometry_of(item)
        bb = app.getBounds()
        if g is not None:
            parts.surroundings.append(g)
            parts.blockers.append(g)
        if _finite(bb):
            parts.terrain_boxes.append(bb)
        return
    if 'RobotModel' in names and not app.subAppearances:
        for i in range(item.numLinks()):
            _add_link(item.link(i), parts)
        return
    if 'RobotModelLink' in names:
        _add_link(item, parts)
        return
    if app.subAppearances:
        for sub in app.subAppearances.values():
            _collect(sub, parts)
        return
    bb = app.getBounds()
    if not _finite(bb):
        return
    geometry = None
    moving = []
    if 'RigidObjectModel' in names:
        geometry = _geometry_of(item)
        moving = [item.getTransform()[1]]
    elif 'Geometry3D' in names:
        moving = [item.getCurrentTransform()[1]]
    else:
        moving = [vectorops.mul(vectorops.add(bb[0], bb[1]), 0.5)]
    parts.items.append((bb, geometry, moving))


def _add_link(link, parts):
    origin = link.getTransform()[1]
    parts.moving.append(origin)
    g = _geometry_of(link)
    bb = g.getBB() if g is not None else None
    if _finite(bb):
        parts.subject += _box_corners(bb)
        parts.robot_points.append(vectorops.mul(vectorops.add(bb[0], bb[1]), 0.5))
    else:
        parts.subject.append(list(origin))
        parts.robot_points.append(list(origin))


def _extent(bb):
    return [bb[1][i] - bb[0][i] for i in range(3)]


def _span(points):
    if not points:
        return 0.0
    lo = [min(p[i] for p in points) for i in range(3)]
    hi = [max(p[i] for p in points) for i in range(3)]
    return vectorops.distance(lo, hi)


def gather(objects):
    """The :class:`Parts` of a list of VisAppearances."""
    parts = Parts()
    for app in objects:
        _collect(app, parts)
    # A flat item several times wider than the robots and the other items is a floor.
    rest = parts.subject + sum([_box_corners(bb) for bb, _, _ in parts.items if not _is_flat(bb)], [])
    size = _span(rest)
    for bb, geometry, moving in parts.items:
        if size > 0 and _is_flat(bb) and max(_extent(bb)[:2]) > FLOOR_SIZE_RATIO * size:
            if geometry is not None:
                parts.surroundings.append(geometry)
                parts.blockers.append(geometry)
            continue
        parts.subject += _box_corners(bb)
        parts.moving += moving
        if geometry is not None:
            parts.blockers.append(geometry)
    if not parts.subject:
        # nothing but surroundings: they are the subject
        for bb in parts.terrain_boxes:
            parts.subject += _box_corners(bb)
        for bb, geometry, moving in parts.items:
            parts.subject += _box_corners(bb)
            parts.moving += moving
        parts.surroundings = []
    return parts


def _is_flat(bb):
    """Thin along z compared with its narrower horizontal side."""
    ex = _extent(bb)
    wide = min(ex[0], ex[1])
    return wide > 0 and ex[2] <= FLOOR_FLATNESS * wide


def camera_frame(azimuth, elevation):
    """The camera's (right, up, back) axes for an eye in the direction
    (azimuth, elevation) from the target, radians, z up."""
    ce = math.cos(elevation)
    back = [ce * math.cos(azimuth), ce * math.sin(azimuth), math.sin(elevation)]
    right = vectorops.unit(vectorops.cross([0.0, 0.0, 1.0], back))
    up = vectorops.cross(back, right)
    return right, up, back


def fit_distance(points, target, frame, tan_x, tan_y):
    """The smallest distance from ``target`` along ``back`` at which every
    point projects inside FILL of the view (half-angle tangents tan_x, tan_y),
    and the target recentred on the points' projection."""
    right, up, back = frame
    dist = 0.0
    for _ in range(3):
        rel = [vectorops.sub(p, target) for p in points]
        xs = [vectorops.dot(q, right) for q in rel]
        ys = [vectorops.dot(q, up) for q in rel]
        zs = [vectorops.dot(q, back) for q in rel]
        dist = max([z + abs(x) / (FILL * tan_x) for x, z in zip(xs, zs)] +
                   [z + abs(y) / (FILL * tan_y) for y, z in zip(ys, zs)] + [1e-3])
        # shift the target so that the projected extremes are symmetric
        us = [x / (dist - z) for x, z in zip(xs, zs)]
        vs = [y / (dist - z) for y, z in zip(ys, zs)]
        du = 0.5 * (max(us) + min(us))
        dv = 0.5 * (max(vs) + min(vs))
        if abs(du) < 1e-4 and abs(dv) < 1e-4:
            break
        target = vectorops.madd(vectorops.madd(target, right, du * dist), up, dv * dist)
    return dist, target


def preferred_azimuth(moving, subject):
    """The side to look from: along the normal of the plane the moving points
    span when it stands up (a planar arm seen side-on), else from -y, as the
    default camera does. Radians; the eye is in that direction."""
    from klampt.model.geometry import fit_plane_centroid  # lazy: it loads klampt.model.create, which import klampt.vis does not need
    for candidate in (moving, subject):
        try:
            normal = fit_plane_centroid(candidate)[1]
        except (ValueError, ZeroDivisionError):
            continue
        if math.hypot(normal[0], normal[1]) > 0.5:
            # of the two sides, the one toward -y (then -x)
            if normal[1] > 1e-6 or (abs(normal[1]) <= 1e-6 and normal[0] > 0):
                normal = vectorops.mul(normal, -1)
            return math.atan2(normal[1], normal[0])
        break
    return -math.pi / 2


def _hits_before(geometries, s, d, length):
    for g in geometries:
        try:
            hit, pt = g.rayCast(s, d)
        except Exception:
            continue
        if hit and vectorops.distance(pt, s) < length:
            return True
    return False


def eye_is_clear(eye, parts):
    """False if the eye is under or inside a surrounding (some surface above
    it, straight up), or if the surroundings and objects hide more than a
    quarter of the robots' links from it."""
    if _hits_before(parts.surroundings, eye, [0.0, 0.0, 1.0], 1e4):
        return False
    points = parts.robot_points
    if not points:
        return True
    if len(points) > 24:
        points = points[::int(math.ceil(len(points) / 24.0))]
    hidden = 0
    for p in points:
        d = vectorops.sub(p, eye)
        length = vectorops.norm(d)
        if length < 1e-9:
            continue
        # stop a little short of the point: the link's own surface may be there
        if _hits_before(parts.blockers, eye, vectorops.div(d, length), length * 0.97):
            hidden += 1
    return hidden <= 0.25 * len(points)


def ground_below(points, parts):
    """Corners of the subject's box lowered onto the surroundings under it,
    when the subject floats above them by at most GROUND_GAP times its size
    and by more than a tenth of it (objects about to drop are seen with
    where they will land); else []."""
    lo = [min(p[i] for p in points) for i in range(3)]
    hi = [max(p[i] for p in points) for i in range(3)]
    size = vectorops.distance(lo, hi)
    top = None
    for x in (lo[0], 0.5 * (lo[0] + hi[0]), hi[0]):
        for y in (lo[1], 0.5 * (lo[1] + hi[1]), hi[1]):
            for g in parts.surroundings:
                try:
                    hit, pt = g.rayCast([x, y, hi[2] + 1e-3], [0.0, 0.0, -1.0])
                except Exception:
                    continue
                if hit and pt[2] < lo[2] and (top is None or pt[2] > top):
                    top = pt[2]
    gap = lo[2] - top if top is not None else None
    if gap is None or gap > GROUND_GAP * size or gap < 0.1 * size:
        return []
    return [[x, y, top] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])]


def fit(view, objects, zoom=True, rotate=True):
    """Aims the orbit camera of a GLViewport at the VisAppearances
    ``objects``; returns False if there is nothing to frame (the view is
    then the default one)."""
    view.camera.rot = [0.0, 0.0, 0.0]
    view.camera.tgt = [0.0, 0.0, 0.0]
    view.camera.dist = 6.0
    view.clippingplanes = (0.2, 100.0)
    parts = gather(objects)
    points = parts.subject
    if not points:
        return False
    points = points + ground_below(points, parts)
    lo = [min(p[i] for p in points) for i in range(3)]
    hi = [max(p[i] for p in points) for i in range(3)]
    centre = vectorops.mul(vectorops.add(lo, hi), 0.5)
    radius = max(0.5 * vectorops.distance(lo, hi), 0.05)
    tan_x = math.tan(math.radians(view.fov) * 0.5)
    tan_y = tan_x * float(view.h) / float(view.w)
    if rotate:
        base = preferred_azimuth(parts.moving, points)
        choices = [(math.radians(e), base + math.radians(a)) for e in ELEVATIONS for a in AZIMUTH_OFFSETS]
    else:
        choices = [(0.0, -math.pi / 2)]  # the default camera's direction, along +y
    best = None
    for elevation, azimuth in choices:
        frame = camera_frame(azimuth, elevation)
        if zoom:
            dist, target = fit_distance(points, centre, frame, tan_x, tan_y)
        else:
            dist, target = 6.0, centre
        eye = vectorops.madd(target, frame[2], dist)
        if best is None:
            best = (frame, dist, target)
        if not rotate or eye_is_clear(eye, parts):
            best = (frame, dist, target)
            break
    frame, dist, target = best
    right, up, back = frame
    view.camera.dist = dist
    view.camera.set_matrix((list(right) + list(up) + list(back), vectorops.madd(target, back, dist)))
    view.camera.tgt = list(target)
    depths = [dist - vectorops.dot(vectorops.sub(p, target), back) for p in points]
    near = min(0.2, max(1e-3, 0.5 * min(depths)))
    far = max(100.0, 2.0 * max(depths), dist + 20.0 * radius)
    view.clippingplanes = (near, far)
    return True


def autoFitViewport(viewport, objects, zoom=True, rotate=True):
    """Aims a GLViewport at the objects (VisAppearances) as a person would:
    from above the floor, z up, slightly above the robots and objects, which
    fill the view; terrains count only when nothing else is there (see
    :mod:`klampt.vis._framing`). ``zoom=False`` keeps the default distance,
    ``rotate=False`` the default direction (along +y)."""
    if fit(viewport, objects, zoom=zoom, rotate=rotate):
        print("auto-fitting camera")


def follow_item(view, app, translate, rotate, center):
    """A controller ``f(t) -> GLViewport or None`` keeping the camera on an
    item: moving with its centre (translate) and / or turning with its
    orientation (rotate)."""
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

        def controller(t):
            vp = sensing.camera_to_viewport(target, target.robot())
            vp.w, vp.h = view.w, view.h
            return vp
        return controller
    raise ValueError("Invalid value for target, must either be str or a Trajectory")
