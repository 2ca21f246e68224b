"""Settling an object into contact: push it along a direction in a simulation
where everything else is frozen until it stops moving."""
from ..robotsim import *  # noqa: F401,F403  (the module re-exports the core classes, as in Klamp't)
import math
import random

from ..math import se3, so3, vectorops
from ..model.contact import ContactPoint
from ..robotsim import RigidObjectModel, RobotModel, RobotModelLink, Simulator, WorldModel


def _bb_overlap(bb, element):
    """Whether the box bb = (bmin, bmax) overlaps the element's bounding box."""
    if isinstance(element, RobotModel):
        return any(_bb_overlap(bb, element.link(i)) for i in range(element.numLinks()))
    geom = element.geometry()
    if geom.empty():
        return False
    bmin, bmax = geom.getBB()
    return all(a <= d and c <= b for a, b, c, d in zip(bb[0], bb[1], bmin, bmax))


def _link_as_object(world, link):
    """A copy of `world` without the link's robot, the link added as a rigid
    object named "obj"."""
    copy = WorldModel()
    for i in range(world.numRobots()):
        if i != link.robotIndex:
            copy.add(world.robot(i).getName(), world.robot(i))
    for i in range(world.numRigidObjects()):
        copy.add(world.rigidObject(i).getName(), world.rigidObject(i))
    for i in range(world.numTerrains()):
        copy.add(world.terrain(i).getName(), world.terrain(i))
    obj = copy.makeRigidObject("obj")
    obj.geometry().set(link.geometry())
    obj.setMass(link.getMass())
    obj.setTransform(*link.getTransform())
    return copy, obj


def _swept_world(world, obj, forcept, forcedir):
    """The elements of `world` that the object can touch while moving by
    forcedir, in a new world: robot links become frozen rigid objects. Returns
    (new world, the object in it, {ID in the new world: ID in `world`})."""
    center = se3.apply(obj.getTransform(), forcept)
    bmin, bmax = obj.geometry().getBB()
    radius = math.sqrt(sum(max(c - lo, hi - c) ** 2 for c, lo, hi in zip(center, bmin, bmax)))
    lo = [c - radius + min(d, 0.0) for c, d in zip(center, forcedir)]
    hi = [c + radius + max(d, 0.0) for c, d in zip(center, forcedir)]
    box = (lo, hi)
    swept = WorldModel()
    moving = None
    original_ids = {}
    for i in range(world.numRobots()):
        robot = world.robot(i)
        for j in range(robot.numLinks()):
            link = robot.link(j)
            if not _bb_overlap(box, link):
                continue
            frozen = swept.makeRigidObject(robot.getName() + ":" + link.getName())
            frozen.geometry().set(link.geometry())
            frozen.setMass(link.getMass())
            frozen.setTransform(*link.getTransform())
            original_ids[frozen.getID()] = link.getID()
    for i in range(world.numRigidObjects()):
        if i == obj.index or _bb_overlap(box, world.rigidObject(i)):
            added = swept.add(world.rigidObject(i).getName(), world.rigidObject(i))
            original_ids[added.getID()] = world.rigidObject(i).getID()
            if i == obj.index:
                moving = added
    for i in range(world.numTerrains()):
        if _bb_overlap(box, world.terrain(i)):
            added = swept.add(world.terrain(i).getName(), world.terrain(i))
            original_ids[added.getID()] = world.terrain(i).getID()
    return swept, moving, original_ids


def _contacts_of(sim, obj, others, original_ids):
    touched = {}
    for other in others:
        if sim.inContact(obj.getID(), other):
            touched[original_ids[other]] = [ContactPoint(c[0:3], c[3:6], c[6]) for c in sim.getContacts(obj.getID(), other)]
    return touched


def settle(world, obj, forcedir=(0, 0, -1), forcept=(0, 0, 0), settletol=1e-4,
           orientationDamping=0.0, perturb=0, margin=None, debug=False):
    """Pushes `obj` along `forcedir` (everything else frozen) until it comes to
    rest in contact.

    Args:
        world (WorldModel): the world holding the object and what it may touch.
        obj: a RigidObjectModel (or its index or name) or a RobotModelLink
            (settled as a free rigid copy).
        forcedir (3 floats): direction of the push; its length is the
            farthest the object may travel.
        forcept (3 floats): point of the object (local coordinates) where the
            push is applied.
        settletol (float): the object has settled when two successive poses
            differ by less than this.
        orientationDamping (float): stiffness of a torsional spring keeping the
            initial orientation.
        perturb (float): standard deviation of a random sideways perturbation
            of the unit push direction at each step (0: none).
        margin (float, optional): collision padding of the object (the others
            get none); at least settletol. Default: the simulator's paddings.
        debug (bool): show the process; needs klampt.vis.

    Returns:
        (transform, touched): the object's final transform (None if it touched
        nothing) and a dict from the IDs of the touched elements to lists of
        :class:`~klampt.model.contact.ContactPoint`.
    """
    if debug:
        raise RuntimeError("settle(debug=True) needs klampt.vis, which is not available")
    if not isinstance(world, WorldModel):
        raise ValueError("settle: world must be a WorldModel")
    if isinstance(obj, (str, int)):
        obj = world.rigidObject(obj)
    if isinstance(obj, RobotModel):
        raise NotImplementedError("settle: free-floating robots are not supported; settle a link or an object")
    if isinstance(obj, RobotModelLink):
        if obj.world != world.index:
            raise ValueError("settle: the link is not in the given world")
        copy, rigid = _link_as_object(world, obj)
        return settle(copy, rigid, forcedir, forcept, settletol, orientationDamping, perturb, margin, debug)
    if not isinstance(obj, RigidObjectModel):
        raise ValueError("settle: expected a RigidObjectModel, RobotModelLink, index or name")
    if obj.world != world.index:
        raise ValueError("settle: the object is not in the given world")

    distance = vectorops.norm(forcedir)
    if distance < settletol:
        return (obj.getTransform(), {})
    world, obj, original_ids = _swept_world(world, obj, forcept, forcedir)
    direction = vectorops.div(forcedir, distance)

    sim = Simulator(world)
    body = sim.body(obj)
    others = [world.rigidObject(i).getID() for i in range(world.numRigidObjects())
              if world.rigidObject(i).getID() != obj.getID()]
    others += [world.terrain(i).getID() for i in range(world.numTerrains())]
    if not others:
        return (None, {})
    other_bodies = [sim.body(world.rigidObject(i)) for i in range(world.numRigidObjects())
                    if world.rigidObject(i).getID() != obj.getID()]
    other_bodies += [sim.body(world.terrain(i)) for i in range(world.numTerrains())]
    if margin is not None:
        if margin < settletol:
            raise ValueError("settle: the margin must be at least settletol")
        for b in other_bodies:
            b.setCollisionPadding(0)
        body.setCollisionPadding(margin)
    else:
        margin = body.getCollisionPadding() + min(b.getCollisionPadding() for b in other_bodies)

    dt = max(settletol, margin * 0.5)
    push = obj.getMass().mass / (dt * 0.5)
    sim.setGravity((0, 0, 0))
    sim.setSimStep(dt)
    for other in others:
        sim.enableContactFeedback(obj.getID(), other)
    for b in [body] + other_bodies:
        s = b.getSurface()
        s.kRestitution = 0
        b.setSurface(s)
    for b in other_bodies:
        b.setVelocity([0.0] * 3, [0.0] * 3)
        b.enableDynamics(False)
    body.setVelocity([0.0] * 3, vectorops.mul(direction, distance))

    sim.simulate(0)
    if sim.getStatus() == Simulator.STATUS_CONTACT_UNRELIABLE:
        # already penetrating: back off by the margin and retry once
        R, t = body.getTransform()
        body.setTransform(R, vectorops.madd(t, direction, -margin))
        sim.simulate(0)
        if sim.getStatus() == Simulator.STATUS_CONTACT_UNRELIABLE:
            return (None, {})

    anchor = se3.apply(obj.getTransform(), forcept)
    R0 = obj.getTransform()[0]
    settled_steps = 0
    T_prev = body.getTransform()
    t = 0.0
    while t < 1.0:
        f = direction
        if perturb:
            noise = [random.gauss(0, perturb) for _ in range(3)]
            noise = vectorops.madd(noise, direction, -vectorops.dot(direction, noise))
            f = vectorops.add(direction, noise)
        T_obj = body.getObjectTransform()
        # a spring pulls the push point towards an anchor moving along the push
        f = vectorops.madd(vectorops.mul(f, push), vectorops.sub(anchor, se3.apply(T_obj, forcept)), push)
        body.applyForceAtLocalPoint(f, forcept)
        if orientationDamping > 0:
            correction = so3.moment(so3.mul(R0, so3.inv(T_obj[0])))
            body.applyWrench([0.0] * 3, vectorops.mul(correction, orientationDamping))
        sim.simulate(dt)
        sim.updateWorld()
        w, v = body.getVelocity()
        T = body.getTransform()
        settled_steps = settled_steps + 1 if vectorops.norm(se3.error(T, T_prev)) < settletol else 0
        if settled_steps >= 2:
            break
        body.setVelocity(vectorops.mul(w, 0.8), vectorops.mul(v, 0.8))
        T_prev = T
        anchor = vectorops.madd(anchor, direction, dt * distance)
        t += dt
    touched = _contacts_of(sim, obj, others, original_ids)
    if not touched:
        return (None, {})
    return (body.getObjectTransform(), touched)
