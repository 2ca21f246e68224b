"""Frictional point contacts (:class:`ContactPoint`), holds of robot links
(:class:`Hold`), contact maps between pairs of objects, wrench matrices,
and the equilibrium tests of :mod:`klampt.equilibrium` applied to lists of
contacts or holds.

Contacts between geometries, worlds and simulations
(:func:`geometry_contacts`, :func:`world_contact_map`,
:func:`sim_contact_map`) and the IK constraints of holds
(:meth:`Hold.setFixed`, :func:`contact_map_holds`,
:func:`contact_map_ik_objectives`) need Geometry3D contact queries, the
simulator and IK; they raise RuntimeError naming what is missing while those
are not installed.
"""
from ..robotsim import (RigidObjectModel, RobotModel, RobotModelLink, TerrainModel)  # noqa: F401  (Klamp't's module has them)
import importlib

import numpy as np

from ..math import se3, so3, vectorops
from .. import equilibrium


def _need(module, what):
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise RuntimeError("%s needs %s, which is not available in this installation (%s)" % (what, module, e))


def id_to_object(world, ID):
    """The world element (terrain, rigid object, robot or robot link) with
    the given world ID."""
    if ID < 0 or ID >= world.numIDs():
        raise IndexError("ID %d out of range [0, %d)" % (ID, world.numIDs()))
    for i in range(world.numTerrains()):
        if world.terrain(i).getID() == ID:
            return world.terrain(i)
    for i in range(world.numRigidObjects()):
        if world.rigidObject(i).getID() == ID:
            return world.rigidObject(i)
    for i in range(world.numRobots()):
        robot = world.robot(i)
        if robot.getID() == ID:
            return robot
        for j in range(robot.numLinks()):
            if robot.link(j).getID() == ID:
                return robot.link(j)
    raise IndexError("No world element has ID %d" % ID)


class ContactPoint(object):
    """A point contact between object1 and object2.

    Attributes:
        x (list of 3 floats): the contact point in world coordinates.
        n (list of 3 floats): the unit normal, from object1 into object2.
        kFriction (float): the friction coefficient.
        object1, object2: the objects in contact (None for the fixed
            environment).
    """

    def __init__(self, x=None, n=None, kFriction=0.0):
        self.x = list(x) if x is not None else [0.0, 0.0, 0.0]
        self.n = list(n) if n is not None else [0.0, 0.0, 1.0]
        self.kFriction = kFriction
        self.object1 = None
        self.object2 = None

    def reflect(self):
        """The same contact seen from object2: negated normal, objects
        swapped."""
        c = ContactPoint(self.x, vectorops.mul(self.n, -1.0), self.kFriction)
        c.object1, c.object2 = self.object2, self.object1
        return c

    def transform(self, xform):
        """Moves the contact by the rigid transform xform (in place)."""
        self.x = list(se3.apply(xform, self.x))
        self.n = list(so3.apply(xform[0], self.n))

    def tolist(self):
        """[x, y, z, nx, ny, nz, kFriction], the form of the equilibrium
        functions."""
        return list(self.x) + list(self.n) + [self.kFriction]

    def fromlist(self, v):
        """Sets the contact from a 7-list."""
        if len(v) != 7:
            raise ValueError("A contact point list has 7 entries")
        self.x = list(v[0:3])
        self.n = list(v[3:6])
        self.kFriction = v[6]


class Hold(object):
    """Contacts of a robot link with the environment and the IK constraint
    that keeps the link there.

    Attributes:
        link (int): the link index.
        ikConstraint (IKObjective): the constraint (None until set).
        contacts (list of ContactPoint): the contacts, in world coordinates.
    """

    def __init__(self):
        self.link = None
        self.ikConstraint = None
        self.contacts = []

    def setFixed(self, link, contacts):
        """Makes the hold fix link (a RobotModelLink) at its current pose,
        touching the given world-space contacts."""
        ik = _need('klampt.model.ik', 'Hold.setFixed')
        self.link = link.index
        Tinv = se3.inv(link.getTransform())
        self.ikConstraint = ik.objective(link, local=[list(se3.apply(Tinv, c.x)) for c in contacts],
                                         world=[list(c.x) for c in contacts])
        self.contacts = list(contacts)

    def transform(self, xform):
        """Moves the contacts and the IK constraint's target by xform (in
        place)."""
        for c in self.contacts:
            c.transform(xform)
        if self.ikConstraint is not None:
            self.ikConstraint.transform(*xform)


def _contact_rows(contactOrHoldList):
    rows = []
    for item in contactOrHoldList:
        if isinstance(item, ContactPoint):
            rows.append(item.tolist())
        elif isinstance(item, Hold):
            rows += [c.tolist() for c in item.contacts]
        else:
            raise ValueError("Expected ContactPoints or Holds, got %s" % type(item).__name__)
    return np.array(rows, dtype=float).reshape(-1, 7)


def force_closure(contactOrHoldList):
    """True if the contacts (or the contacts of the holds) can produce
    every wrench."""
    return equilibrium.force_closure(_contact_rows(contactOrHoldList))


def com_equilibrium(contactOrHoldList, fext=(0, 0, -1), com=None):
    """Equilibrium forces (a list of 3-lists) for a COM under fext, or None;
    with com=None, whether any COM can be in equilibrium."""
    return equilibrium.com_equilibrium(_contact_rows(contactOrHoldList), list(fext), com)


def support_polygon(contactOrHoldList):
    """The support polygon as planes [ax, ay, b], ax*x + ay*y <= b inside;
    [] (no constraint) for contacts in force closure, [[0, 0, -1]] if no COM
    is in equilibrium (see :func:`klampt.support_polygon`)."""
    return equilibrium.support_polygon(_contact_rows(contactOrHoldList))


def equilibrium_torques(robot, holdList, fext=(0, 0, -9.8), internalTorques=None, norm=0):
    """Torques and contact forces (t, f) with the smallest norm of t that
    hold the robot against fext with the holds' contacts, or None; see
    :func:`klampt.equilibrium_torques`."""
    contacts = []
    links = []
    for h in holdList:
        for c in h.contacts:
            contacts.append(c.tolist())
            links.append(h.link)
    return equilibrium.equilibrium_torques(robot, np.array(contacts, dtype=float).reshape(-1, 7), links, list(fext),
                                           internalTorques, norm)


def _id(obj):
    return obj.getID() if obj is not None and hasattr(obj, 'getID') else -1


def contact_map(contacts, fixed=None):
    """Groups contacts by pair of objects: a dict (o1, o2) -> list of
    ContactPoints with normals from o1 into o2.  Objects for which
    fixed(obj) is true become None; pairs are ordered so that None (the
    fixed environment) comes second and otherwise o1 has the smaller ID.
    Contacts of an object with itself raise ValueError."""
    res = {}
    for c in contacts:
        o1 = None if (fixed is not None and fixed(c.object1)) else c.object1
        o2 = None if (fixed is not None and fixed(c.object2)) else c.object2
        if o1 is None and o2 is None:
            continue
        if o1 is not None and o2 is not None and _id(o1) == _id(o2):
            raise ValueError("Contact between an object and itself")
        swap = o1 is None or (o2 is not None and _id(o2) < _id(o1))
        if swap:
            r = c.reflect()
            r.object1, r.object2 = o2, o1
            res.setdefault((o2, o1), []).append(r)
        else:
            res.setdefault((o1, o2), []).append(c)
    return res


def _ik_for_pair(ik, o1, o2, clist):
    local1 = [list(o1.getLocalPosition(c.x)) for c in clist]
    if o2 is not None and hasattr(o2, 'getLocalPosition'):
        local2 = [list(o2.getLocalPosition(c.x)) for c in clist]
        return ik.objective(o1, o2, local=local1, world=local2)
    return ik.objective(o1, local=local1, world=[list(c.x) for c in clist])


def contact_map_ik_objectives(contactmap):
    """IK objectives keeping each pair of a contact map in contact (the
    first object of each pair must be a robot link)."""
    ik = _need('klampt.model.ik', 'contact_map_ik_objectives')
    res = []
    for (o1, o2), clist in contactmap.items():
        if not hasattr(o1, 'getLocalPosition') or not hasattr(o1, 'robot'):
            raise ValueError("IK objectives need contact pairs whose first object is a robot link")
        res.append(_ik_for_pair(ik, o1, o2, clist))
    return res


def contact_map_holds(contactmap):
    """A Hold per pair of a contact map whose first object is a robot link
    (ValueError otherwise)."""
    ik = _need('klampt.model.ik', 'contact_map_holds')
    holds = []
    for (o1, o2), clist in contactmap.items():
        if not hasattr(o1, 'getLocalPosition') or not hasattr(o1, 'robot'):
            raise ValueError("Holds need contact pairs whose first object is a robot link")
        h = Hold()
        h.link = o1.index
        h.contacts = list(clist)
        h.ikConstraint = _ik_for_pair(ik, o1, o2, clist)
        holds.append(h)
    return holds


def geometry_contacts(geom1, geom2, padding1, padding2=0, maxcontacts=0, kFriction=1):
    """The contacts of two geometries (Geometry3D.contacts) as
    ContactPoints placed midway between the closest points, with friction
    kFriction.  Normals may be (0, 0, 0) where they can't be computed (e.g.
    intersecting meshes)."""
    if not hasattr(geom1, 'contacts'):
        raise RuntimeError("geometry_contacts needs Geometry3D.contacts, which is not available in this installation")
    res = geom1.contacts(geom2, padding1, padding2, maxcontacts)
    cps = []
    for p1, p2, n in zip(res.points1, res.points2, res.normals):
        c = ContactPoint(vectorops.interpolate(list(p1), list(p2), 0.5), list(n), kFriction)
        c.object1, c.object2 = geom1, geom2
        cps.append(c)
    return cps


def world_contact_map(world, padding, kFriction=1, collider=None):
    """The contact map of all pairs of world elements closer than their
    paddings (a number or a function of the object); kFriction is a number
    or a function f(object1, object2).  With a WorldCollider, only its
    enabled pairs are checked."""
    def pad(o):
        return padding(o) if callable(padding) else padding

    def mu(a, b):
        return kFriction(a, b) if callable(kFriction) else kFriction
    objects = [world.terrain(i) for i in range(world.numTerrains())]
    objects += [world.rigidObject(i) for i in range(world.numRigidObjects())]
    for i in range(world.numRobots()):
        robot = world.robot(i)
        objects += [robot.link(j) for j in range(robot.numLinks())]
    if collider is not None:
        # WorldCollider.collisionTests yields ((object, geometry), (object, geometry)) pairs
        pairs = [(a[0], b[0]) for a, b in collider.collisionTests(bb_reject=False)]
    else:
        pairs = [(objects[i], objects[j]) for i in range(len(objects)) for j in range(i)]
    cmap = {}
    for a, b in pairs:
        if _same_robot_adjacent(a, b):
            continue
        ga, gb = a.geometry(), b.geometry()
        if ga.empty() or gb.empty():
            continue
        cps = geometry_contacts(ga, gb, pad(a), pad(b), 0, mu(a, b))
        for c in cps:
            c.object1, c.object2 = a, b
        if cps:
            cmap.update(contact_map(cps))
    return cmap


def _same_robot_adjacent(a, b):
    """Self-collision pairs the robot disables are not contacts."""
    if hasattr(a, 'robot') and hasattr(b, 'robot') and hasattr(a, 'getParent'):
        ra, rb = a.robot(), b.robot()
        if ra.index == rb.index:
            return not ra.selfCollisionEnabled(a.index, b.index)
    return False


def sim_contact_map(sim):
    """The contact map of the simulator's current contacts
    (Simulator.getContacts between every pair of world IDs)."""
    w = sim.world
    cmap = {}
    for a in range(w.numIDs()):
        for b in range(a):
            rows = sim.getContacts(a, b)
            if len(rows) == 0:
                continue
            oa, ob = id_to_object(w, a), id_to_object(w, b)
            clist = []
            for row in rows:
                c = ContactPoint(list(row[0:3]), list(row[3:6]), row[6])
                c.object1, c.object2 = oa, ob
                clist.append(c)
            cmap[(oa, ob)] = clist
    return cmap


def skew(x):
    """The cross-product matrix [x] (3x3 array) with [x] y = x cross y."""
    return np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]])


def inv_mass_matrix(obj):
    """The inverse generalized mass matrix of obj: the robot's inverse mass
    matrix for a RobotModel, zero for None or a terrain (infinite inertia),
    else the 6x6 inverse of [[H, 0], [0, m I]] with H the inertia about the
    origin of the body frame (torque rows first)."""
    if obj is None or type(obj).__name__ == 'TerrainModel':
        return np.zeros((6, 6))
    if type(obj).__name__ == 'RobotModel':
        return np.asarray(obj.getMassMatrixInv())
    m = obj.getMass()
    mass = m.getMass()
    if mass <= 0:
        raise ValueError("inv_mass_matrix needs a positive mass")
    I = np.array(m.getInertia(), dtype=float).reshape(3, 3)
    c = skew(m.getCom())
    # parallel-axis theorem: inertia about the origin
    H = I - mass * c @ c
    Hinv = np.zeros((6, 6))
    Hinv[:3, :3] = np.linalg.inv(H)
    Hinv[3:, 3:] = np.eye(3) / mass
    return Hinv


def wrench_matrices(contactMap):
    """A dict (o1, o2) -> (W1, W2) of 6 x 3n matrices: W1 maps the n contact
    forces applied on o2 to the torque (rows 0-2, about o1's origin) and
    force (rows 3-5) they exert on o1, i.e. the reaction -f at each contact;
    W2 = -W1 gives the wrench of the same forces on o2 about o1's origin."""
    res = {}
    for (o1, o2), clist in contactMap.items():
        W1 = np.zeros((6, 3 * len(clist)))
        origin = np.array(o1.getTransform()[1]) if o1 is not None and hasattr(o1, 'getTransform') else np.zeros(3)
        for i, c in enumerate(clist):
            arm = np.array(c.x, dtype=float) - origin
            W1[0:3, 3 * i:3 * i + 3] = -skew(arm)
            W1[3:6, 3 * i:3 * i + 3] = -np.eye(3)
        res[(o1, o2)] = (W1, -W1)
    return res


idToObject = id_to_object
forceClosure = force_closure
comEquilibrium = com_equilibrium
supportPolygon = support_polygon
equilibriumTorques = equilibrium_torques
contactMap = contact_map
geometryContacts = geometry_contacts
worldContactMap = world_contact_map
simContactMap = sim_contact_map
contactMapIKObjectives = contact_map_ik_objectives
contactMapHolds = contact_map_holds
invMassMatrix = inv_mass_matrix
wrenchMatrices = wrench_matrices
