"""Pickling round trips: worlds, robots, every geometry type, appearances, IK
objectives, trajectories and simulators come back exactly (every number to
the bit), and behave as the originals do (queries, Jacobians, simulations)."""
import os
import pickle

import numpy as np
import pytest

import klampt
from klampt import (Appearance, ConvexHull, GeometricPrimitive, Geometry3D, IKObjective, PointCloud, RobotModel,
                    Simulator, TriangleMesh, VolumeGrid, WorldModel)
from klampt.math import so3
from klampt.model import ik, trajectory

from conftest import PROJECT_DATA, load_world

ARM_TABLE = os.path.join(PROJECT_DATA, "worlds", "arm_table.xml")
GRIPPERS = os.path.join(PROJECT_DATA, "worlds", "grippers.xml")


def roundtrip(x):
    return pickle.loads(pickle.dumps(x, protocol=pickle.HIGHEST_PROTOCOL))


def same(a, b):
    """Exact equality of numbers, lists and arrays (NaN never occurs here)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and np.array_equal(a, b)


def geometry_signature(g):
    """Everything observable of a geometry, as plain values."""
    sig = {"type": g.type(), "T": g.getCurrentTransform(), "margin": g.getCollisionMargin()}
    t = g.type()
    if t == "TriangleMesh":
        m = g.getTriangleMesh()
        sig["data"] = (m.getVertices().tolist(), m.getIndices().tolist())
    elif t == "PointCloud":
        pc = g.getPointCloud()
        sig["data"] = (pc.getPoints().tolist(), [pc.getProperties(i).tolist() for i in range(pc.numProperties())],
                       list(pc.propertyNames), dict(pc.settings))
    elif t == "GeometricPrimitive":
        p = g.getGeometricPrimitive()
        sig["data"] = (p.type, list(p.properties))
    elif t == "VolumeGrid":
        vg = g.getVolumeGrid()
        sig["data"] = (vg.bbox, vg.dims, vg.getValues().tolist())
    elif t == "ConvexHull":
        sig["data"] = g.getConvexHull().getPoints().tolist()
    elif t == "Group":
        sig["data"] = [geometry_signature(g.getElement(i)) for i in range(g.numElements())]
    return sig


def appearance_signature(a):
    return (a.getColor(), a.getColor(Appearance.VERTICES), a.getColor(Appearance.EDGES),
            a.getColor(Appearance.EMISSIVE), a.getColor(Appearance.SPECULAR), a.getShininess(), a.getTintColor(),
            a.getTintStrength(), a.getDraw(), a.getDraw(Appearance.FACES), a.getDraw(Appearance.EDGES),
            a.getDraw(Appearance.VERTICES))


def robot_signature(r):
    n = r.numLinks()
    sig = {"name": r.getName(), "q": r.getConfig(), "dq": r.getVelocity(), "limits": r.getJointLimits(),
           "vel": r.getVelocityLimits(), "acc": r.getAccelerationLimits(), "torque": r.getTorqueLimits(),
           "drivers": [(r.driver(d).getName(), r.driver(d).getType(), r.driver(d).getAffectedLinks(),
                        r.driver(d).getAffineCoeffs(), r.driver(d).getLimits(), r.driver(d).getVelocityLimits(),
                        r.driver(d).getTorqueLimits(), r.driver(d).getAccelerationLimits())
                       for d in range(r.numDrivers())],
           "joints": [r.getJointType(i) for i in range(n)],
           "self": [[r.selfCollisionEnabled(i, j) for j in range(n)] for i in range(n)]}
    for i in range(n):
        l = r.link(i)
        m = l.getMass()
        sig["link%d" % i] = (l.getName(), l.getParent(), l.getAxis(), l.isPrismatic(), l.getParentTransform(),
                             l.getTransform(), m.getMass(), m.getCom(), m.getInertia(),
                             geometry_signature(l.geometry()), appearance_signature(l.appearance()))
    return sig


def world_signature(w):
    sig = {"robots": [robot_signature(w.robot(i)) for i in range(w.numRobots())]}
    sig["objects"] = [(o.getName(), o.getTransform(), o.getVelocity(), o.getMass().getMass(), o.getMass().getCom(),
                       o.getMass().getInertia(), o.getContactParameters().kFriction,
                       o.getContactParameters().kRestitution, geometry_signature(o.geometry()),
                       appearance_signature(o.appearance()))
                      for o in (w.rigidObject(i) for i in range(w.numRigidObjects()))]
    sig["terrains"] = [(t.getName(), geometry_signature(t.geometry()), appearance_signature(t.appearance()))
                       for t in (w.terrain(i) for i in range(w.numTerrains()))]
    return sig


def test_world_roundtrip_is_exact():
    w = load_world(ARM_TABLE)
    r = w.robot(0)
    r.setConfig([0, 0.1234567890123, -0.3, 0.45, 1e-17, 0.7, -2.2])
    r.setVelocity([0, 0.1, 0.2, -0.3, 0, 0.5, 1 / 3.0])
    w.rigidObject(1).setVelocity([0.1, 0, 0.2], [0, 1 / 7.0, 0])
    w.rigidObject(0).appearance().setColor(0.1, 0.2, 0.3, 0.4)
    w.terrain(0).appearance().setSilhouette(0.01, 1, 0, 0, 1)
    r.link(3).geometry().setCollisionMargin(0.005)
    w2 = roundtrip(w)
    assert isinstance(w2, WorldModel) and w2.index != w.index
    assert world_signature(w2) == world_signature(w)
    # The archive holds everything it reads: a second round trip gives the same bytes.
    assert pickle.dumps(w2) == pickle.dumps(w)


def test_world_of_many_robots_roundtrip():
    w = load_world(GRIPPERS)
    w2 = roundtrip(w)
    assert [w2.robot(i).getName() for i in range(w2.numRobots())] == [w.robot(i).getName()
                                                                     for i in range(w.numRobots())]
    assert world_signature(w2) == world_signature(w)


def test_unpickled_world_simulates_identically():
    w = load_world(ARM_TABLE)
    w2 = roundtrip(w)
    trajs = []
    for world in (w, w2):
        sim = Simulator(world)
        sim.controller(0).setPIDCommand([0, 0.3, 0.2, 0.5, 0, 1.0, 0], [0] * 7)
        states = []
        for _ in range(20):
            sim.simulate(0.01)
            states.append(sim.getActualConfig(0) + [x for i in range(world.numRigidObjects())
                                                     for x in sum(sim.body(world.rigidObject(i)).getTransform(),
                                                                  [])])
        trajs.append(states)
    assert same(trajs[0], trajs[1])


def test_robot_roundtrip_standalone_and_from_world():
    r = RobotModel()
    assert r.loadFile(os.path.join(PROJECT_DATA, "robots", "arm6.rob"))
    r.setConfig([0, 0.3, -0.2, 0.5, 0.1, 0.6, -0.4])
    r.enableSelfCollision(1, 3, False)
    for robot in (r, load_world(GRIPPERS).robot(4)):
        r2 = roundtrip(robot)
        assert isinstance(r2, RobotModel) and r2.index == -1  # standalone
        assert robot_signature(r2) == robot_signature(robot)
        rng = np.random.RandomState(3)
        for _ in range(3):
            q = robot.getConfig()
            q = [x + 0.1 * rng.randn() for x in q]
            robot.setConfig(q)
            r2.setConfig(q)
            for i in range(robot.numLinks()):
                assert same(robot.link(i).getJacobian([0.1, 0, 0]), r2.link(i).getJacobian([0.1, 0, 0]))
            assert robot.selfCollides() == r2.selfCollides()


def every_geometry():
    """One Geometry3D of each type, placed and with margins."""
    mesh = TriangleMesh()
    mesh.setVertices(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0 / 3.0]]))
    mesh.setIndices(np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]], dtype=np.int32))
    pc = PointCloud()
    pc.setPoints(np.random.RandomState(0).rand(20, 3))
    pc.addProperty("rgb", np.arange(20.0))
    pc.addProperty("normal_x", np.linspace(-1, 1, 20))
    pc.setSetting("viewpoint", "0 0 0 1 0 0 0")
    hull = ConvexHull()
    hull.setPoints(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]]) * 0.7)
    vg = VolumeGrid()
    vg.setBounds([0, 0, 0], [1, 2, 3])
    vg.resize(3, 4, 5)
    vg.setValues(np.random.RandomState(1).randn(3, 4, 5))
    geoms = {"mesh": Geometry3D(mesh), "cloud": Geometry3D(pc), "hull": Geometry3D(hull), "grid": Geometry3D(vg),
             "empty": Geometry3D()}
    for kind, setter, args in (("sphere", "setSphere", ([0.1, 0.2, 0.3], 0.5)),
                               ("aabb", "setAABB", ([0, 0, 0], [1, 2, 3])),
                               ("box", "setBox", ([0, 0, 0], so3.rotation([1, 1, 0], 0.3), [1, 2, 0.5])),
                               ("segment", "setSegment", ([0, 0, 0], [1, 1, 1])),
                               ("point", "setPoint", ([1, 2, 3],)),
                               ("triangle", "setTriangle", ([0, 0, 0], [1, 0, 0], [0, 1, 0]))):
        p = GeometricPrimitive()
        getattr(p, setter)(*args)
        geoms[kind] = Geometry3D(p)
    group = Geometry3D()
    group.setGroup()
    group.setElement(0, geoms["sphere"])
    group.setElement(1, geoms["mesh"])
    inner = Geometry3D()
    inner.setGroup()
    inner.setElement(0, geoms["box"])
    group.setElement(2, inner)
    geoms["group"] = group
    for k, (name, g) in enumerate(sorted(geoms.items())):
        if name != "empty":
            g.setCurrentTransform(so3.rotation([0.2, 1, 0.3], 0.1 * k + 0.05), [0.1 * k, -0.3, 1 / 3.0])
            g.setCollisionMargin(0.001 * k)
    return geoms


@pytest.mark.parametrize("name", sorted(every_geometry()))
def test_geometry_roundtrip_every_type(name):
    g = every_geometry()[name]
    g2 = roundtrip(g)
    assert isinstance(g2, Geometry3D)
    assert geometry_signature(g2) == geometry_signature(g)
    if name != "empty":
        for p in ([0.3, 0.2, 0.1], [2, 1, -1]):
            assert g2.distance_point(p).d == g.distance_point(p).d
        assert g2.getBBTight() == g.getBBTight()


def test_element_geometry_pickles_as_standalone():
    w = load_world(ARM_TABLE)
    g = w.robot(0).link(2).geometry()
    g2 = roundtrip(g)
    assert geometry_signature(g2) == geometry_signature(g)
    g2.translate([1, 0, 0])  # the copy is standalone: the world keeps its shape
    assert geometry_signature(w.robot(0).link(2).geometry()) == geometry_signature(g)


def test_appearance_roundtrip():
    a = Appearance()
    a.setColor(0.25, 0.5, 0.75, 0.9)
    a.setColor(Appearance.EDGES, 0.1, 0.2, 0.3, 1.0)
    a.setDraw(Appearance.EDGES, True)
    a.setShininess(30.0)
    a.setTintColor([0.3, 0.1, 0.2, 1.0], 0.4)
    a.setTexture1D_channels("rgb8", np.arange(12, dtype=np.uint8).reshape(4, 3))
    a.setTexcoords1D([0.0, 0.5, 1.0])
    a.setPointSize(7.0)
    a.setSilhouette(0.02, 0.1, 0.2, 0.3, 1.0)
    a2 = roundtrip(a)
    assert isinstance(a2, Appearance)
    assert appearance_signature(a2) == appearance_signature(a)
    # Texture, texture coordinates, point size and silhouette have no getters
    # in the API: their bytes in the archive come back unchanged.
    assert pickle.dumps(a2) == pickle.dumps(a)
    assert pickle.dumps(a2) != pickle.dumps(Appearance())


def every_objective(robot):
    objs = [ik.objective(robot.link(6), local=[0, 0, 0.1], world=[0.5, 0.1, 0.9]),
            ik.objective(robot.link(6), R=so3.rotation([0, 1, 0], 0.3), t=[0.4, 0.2, 0.8]),
            ik.objective(robot.link(6), ref=robot.link(2), local=[[0, 0, 0], [0, 0, 0.1]],
                         world=[[0.3, 0, 0.2], [0.3, 0, 0.3]])]
    planar = IKObjective()
    planar.setLinks(5, -1)
    planar.setPlanarPosConstraint([0, 0, 0.05], [0, 0, 1], 0.7)
    planar.setAxialRotConstraint([1, 0, 0], [0, 1, 0])
    objs.append(planar)
    return objs


def answer(f):
    """What f() returns, or the type of what it raises."""
    try:
        return f()
    except Exception as e:
        return type(e)


def test_ikobjective_roundtrip():
    w = load_world(ARM_TABLE)
    robot = w.robot(0)
    for k, obj in enumerate(every_objective(robot)):
        obj.positionScale = 1.0 + k / 3.0
        obj.tag = "kept"
        o2 = roundtrip(obj)
        assert isinstance(o2, IKObjective) and o2.tag == "kept"
        for getter in ("link", "destLink", "numPosDims", "numRotDims", "getPosition", "getPositionDirection",
                       "getRotation", "getRotationAxis", "getTransform", "saveString"):
            assert answer(getattr(o2, getter)) == answer(getattr(obj, getter)), getter
        assert (o2.positionScale, o2.rotationScale) == (obj.positionScale, obj.rotationScale)
        robot.setConfig([0, 0.2, 0.3, 0.4, 0.1, 0.5, 0.2])
        s1, s2 = klampt.IKSolver(robot), klampt.IKSolver(robot)
        s1.add(obj)
        s2.add(o2)
        assert same(s1.getResidual(), s2.getResidual())


def test_trajectories_roundtrip():
    w = load_world(ARM_TABLE)
    robot = w.robot(0)
    ms = [[0, 0.1 * k, 0.2, -0.1 * k, 0, 0.3, 0.05 * k] for k in range(4)]
    trajs = [trajectory.Trajectory([0, 1, 2.5, 3], ms),
             trajectory.RobotTrajectory(robot, [0, 1, 2.5, 3], ms),
             trajectory.HermiteTrajectory([0, 1], [[0, 0, 1, 1], [1, 2, 0, 1]]),
             trajectory.SO3Trajectory([0, 1], [so3.identity(), so3.rotation([0, 0, 1], 1.0)]),
             trajectory.SE3Trajectory([0, 1], [so3.identity() + [0, 0, 0],
                                               so3.rotation([1, 0, 0], 0.5) + [1, 2, 3]])]
    for t in trajs:
        t2 = roundtrip(t)
        assert type(t2) is type(t)
        assert t2.times == t.times and t2.milestones == t.milestones
        for s in (0.3, 1.7, 2.9):
            assert t2.eval(s) == t.eval(s)
    rt = roundtrip(trajs[1])
    assert isinstance(rt.robot, RobotModel) and rt.robot.numLinks() == robot.numLinks()


def test_simulator_roundtrip_continues_exactly():
    w = load_world(ARM_TABLE)
    sim = Simulator(w)
    sim.setSetting("maxContacts", "12")
    sim.controller(0).setPIDCommand([0, 0.3, 0.2, 0.5, 0, 1.0, 0], [0] * 7)
    sim.simulate(0.1)
    sim2 = roundtrip(sim)
    assert isinstance(sim2, Simulator)
    assert sim2.getState() == sim.getState()
    assert sim2.getTime() == sim.getTime() and sim2.getSetting("maxContacts") == "12"
    a, b = [], []
    for s, out in ((sim, a), (sim2, b)):
        s.controller(0).setPIDCommand([0, -0.3, 0.4, 0.2, 0, 0.5, 0.3], [0] * 7)
        for _ in range(15):
            s.simulate(0.01)
            out.append(s.getActualConfig(0) + s.getActualVelocity(0))
        out.append(s.getState())
    assert a == b


def test_malformed_archives_raise_valueerror():
    data = pickle.dumps(load_world(ARM_TABLE))
    func, (blob,) = load_world(ARM_TABLE).__reduce__()
    for bad in (b"", b"garbage", blob[: len(blob) // 2], blob + b"x", blob[:-1]):
        with pytest.raises(ValueError):
            func(bad)
    assert isinstance(pickle.loads(data), WorldModel)
    with pytest.raises(ValueError):
        klampt._robotsim._robot_from_archive(blob)  # a world's bytes are not a robot's


def test_corrupted_archives_load_or_raise_valueerror():
    """Random byte changes give a ValueError or a world that works; never a crash."""
    import random
    w = load_world(GRIPPERS)
    func, (blob,) = w.__reduce__()
    sim_func, (sim_blob,) = Simulator(load_world(ARM_TABLE)).__reduce__()
    rng = random.Random(5)
    loaded = 0
    for k in range(150):
        f, data = (func, blob) if k % 3 else (sim_func, sim_blob)
        b = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        try:
            x = f(bytes(b))
        except ValueError:
            continue
        loaded += 1
        world = x if isinstance(x, WorldModel) else None
        if world is not None:
            for r in range(world.numRobots()):
                robot = world.robot(r)
                robot.setConfig(robot.getConfig())
                robot.selfCollides()
        pickle.dumps(x)
    assert 0 < loaded < 150
