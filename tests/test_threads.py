"""No crash from Python, also with threads and edits (docs/threading.md).

Every scenario runs in its own interpreter: a crash (a signal, an abort in
malloc, an ODE assertion) fails the test through the exit status instead of
killing the test run. Each scenario prints CLEAN EXIT as its last line; an
exception in any of its threads exits non-zero.

The scenarios cover, for simulators, rigid objects, terrains, robot links,
sensors, IK solvers and WorldCollider:
- structural edits of a world or robot after something derived arrays from it
  (a clear RuntimeError, never stale indices);
- simulators stepping in several threads at once;
- geometry, robot and world edits in one thread while another thread runs a
  query, a solve or a simulation on the same data without the GIL;
- argument conversions (__float__, __index__) that call back into the library.
"""
import os
import subprocess
import sys
import textwrap


from conftest import SHARED_DATA, require_shared_data

PRELUDE = r'''
import faulthandler, os, sys, threading, time, traceback, warnings
faulthandler.enable()
warnings.simplefilter("ignore")
sys.setswitchinterval(1e-5)  # switch threads often: races show up quickly
import klampt
from klampt import Geometry3D, IKSolver, Simulator, WorldModel
from klampt.model import ik
from klampt.model.collide import WorldCollider
D = os.environ["KLAMPT_DATA_DIR"]


def loaded(name):
    """A Geometry3D loaded from the shared data's file `name`."""
    g = Geometry3D()
    assert g.loadFile(os.path.join(D, name))
    return g


def world(name="tx90blocks.xml"):
    w = WorldModel()
    if not w.readFile(os.path.join(D, name)):
        raise SystemExit("cannot load " + name)
    return w


def raises_runtime(f, *args):
    """f(*args) must raise RuntimeError (and nothing else)."""
    try:
        f(*args)
    except RuntimeError:
        return
    raise AssertionError("%s did not raise RuntimeError" % getattr(f, "__name__", f))


def in_threads(*targets):
    """Runs the callables in parallel threads; any exception fails the run."""
    errors = []

    def guarded(f):
        def run():
            try:
                f()
            except BaseException:
                errors.append(traceback.format_exc())
                failed.set()
        return run

    threads = [threading.Thread(target=guarded(f)) for f in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    failed.clear()
    if errors:
        raise SystemExit("a thread failed:\n" + "\n".join(errors))


failed = threading.Event()


def race(readers, edit, reader_rounds=15, edits=40, seconds=60):
    """Loops each reader in its own thread while another thread calls edit(i)
    for i = 0, 1, ... until every reader has run reader_rounds times alongside
    the edits and edit has run at least `edits` times (or `seconds` passed)."""
    counts = [0] * len(readers)
    stop = threading.Event()

    def loop(k, f):
        def run():
            while not stop.is_set():
                f()
                counts[k] += 1
        return run

    def editor():
        start = time.time()
        i = 0
        try:
            while (i < edits or min(counts) < reader_rounds) and not failed.is_set():
                if time.time() - start > seconds:
                    raise AssertionError("readers made no progress: %s rounds" % counts)
                edit(i)
                i += 1
        finally:
            stop.set()

    in_threads(*[loop(k, f) for k, f in enumerate(readers)], editor)
'''


def run_scenario(body, timeout=240):
    """Runs PRELUDE + body in a fresh interpreter and requires a clean exit."""
    require_shared_data()
    code = PRELUDE + textwrap.dedent(body) + "\nprint('CLEAN EXIT')\n"
    env = dict(os.environ, KLAMPT_DATA_DIR=SHARED_DATA, PYTHONFAULTHANDLER="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env)
    status = "signal %d" % -proc.returncode if proc.returncode < 0 else "exit status %d" % proc.returncode
    assert proc.returncode == 0, "%s\n--- stdout\n%s\n--- stderr\n%s" % (status, proc.stdout[-4000:], proc.stderr[-8000:])
    assert proc.stdout.rstrip().endswith("CLEAN EXIT"), proc.stdout[-4000:]
    return proc.stdout


# --- Structural edits after a holder of derived arrays exists ---------------------------------------


def test_removing_elements_after_simulator_raises():
    run_scenario('''
    for kind in ("object", "robot", "terrain"):
        w = world()
        sim = Simulator(w)
        sim.simulate(0.01)
        body = sim.body(w.rigidObject(1))
        controller = sim.controller(0)
        if kind == "object":
            w.remove(w.rigidObject(0))
        elif kind == "robot":
            w.remove(w.robot(0))
        else:
            w.remove(w.terrain(0))
        for _ in range(3):
            raises_runtime(sim.simulate, 0.01)
        raises_runtime(sim.getActualConfig, 0)
        raises_runtime(sim.updateWorld)
        raises_runtime(controller.getSensedConfig)
        raises_runtime(controller.setPIDCommand, [0.0] * 7, [0.0] * 7)
        raises_runtime(body.getTransform)
        raises_runtime(sim.getState)
        # a new simulator of the edited world works, unless the world file's
        # <simulation> section names the element removed
        try:
            Simulator(w).simulate(0.01)
        except RuntimeError as e:
            assert "<simulation>" in str(e) and kind != "robot", e
    # adding elements is a structural edit too
    w = world()
    sim = Simulator(w)
    w.makeRigidObject("extra")
    raises_runtime(sim.simulate, 0.01)
    w = world()
    sim = Simulator(w)
    w.loadElement(os.path.join(D, "objects/sphere.geom"))
    raises_runtime(sim.simulate, 0.01)
    ''')


def test_robot_structure_edits_after_simulator_raise_and_keep_sizes():
    run_scenario('''
    edits = {
        "loadFile": lambda r: r.loadFile(os.path.join(D, "robots/planar3R.rob")),
        "setParent": lambda r: r.link(3).setParent(1),
        "mount": lambda r: r.mount(6, planar, [1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0.1]),
        "reduce": lambda r: r.reduce(planar),
    }
    planar = world("robots/planar3R.rob").robot(0)
    for name, edit in edits.items():
        w = world()
        r = w.robot(0)
        sim = Simulator(w)
        sim.simulate(0.02)
        controller = sim.controller(0)
        sensor = controller.addSensor("enc", "JointPositionSensor")
        edit(r)
        n = r.numLinks()
        assert len(r.getConfig()) == n, (name, len(r.getConfig()), n)
        raises_runtime(sim.simulate, 0.01)
        raises_runtime(sim.controller, 0)
        raises_runtime(controller.getCommandedConfig)
        raises_runtime(sensor.getMeasurements)
        assert len(r.getConfig()) == n and len(r.getVelocity()) == n, name
        r.setConfig(r.getConfig())
        assert len(r.getJointLimits()[0]) == n
        sim2 = Simulator(w)
        sim2.simulate(0.01)
        assert len(sim2.getActualConfig(0)) == n
    ''')


def test_robot_sensors_ik_solvers_and_colliders_notice_structure_edits():
    run_scenario('''
    w = world("simulation_test_worlds/sensortest.xml")
    r = w.robot(0)
    lidar = r.sensor("lidar")
    lidar.kinematicSimulate(w, 0.01)
    s = IKSolver(r)
    s.add(ik.objective(r.link(r.numLinks() - 1), local=[0, 0, 0], world=[0.5, 0, 0.5]))
    s.solve()
    collider = WorldCollider(w)
    list(collider.collisions())
    r.loadFile(os.path.join(D, "robots/planar3R.rob"))
    raises_runtime(lidar.kinematicSimulate, w, 0.01)
    raises_runtime(lidar.getMeasurements)
    raises_runtime(s.solve)
    raises_runtime(s.getResidual)
    raises_runtime(lambda: list(collider.collisions()))
    raises_runtime(lambda: list(collider.robotSelfCollisions()))
    raises_runtime(collider.rayCast, [0, 0, 5], [0, 0, -1])
    # rebuilt holders work on the new structure
    IKSolver(r).add(ik.objective(r.link(2), local=[0, 0, 0], world=[0.5, 0, 0.5]))
    list(WorldCollider(w).collisions())
    r.sensor(0).kinematicSimulate(w, 0.01)

    # world edits: the collider notices removed and added elements
    w = world()
    collider = WorldCollider(w)
    w.remove(w.rigidObject(2))
    raises_runtime(lambda: list(collider.collisions()))
    collider = WorldCollider(w)
    w.makeTerrain("t")
    raises_runtime(lambda: list(collider.collisions()))
    ''')


# --- Simulators in threads ---------------------------------------------------------------------------


def test_simulators_step_in_parallel_threads():
    run_scenario('''
    def stepper(sim, steps):
        def run():
            for _ in range(steps):
                sim.simulate(0.01)
        return run

    for _ in range(4):
        # built in this thread, stepped in others
        sims = [Simulator(world()) for _ in range(2)]
        in_threads(*[stepper(s, 60) for s in sims])

    def own():
        s = Simulator(world("tx90roll.xml"))
        for _ in range(60):
            s.simulate(0.01)
    for _ in range(3):
        in_threads(own, own, own)
    ''')


# --- Edits in one thread while another runs without the GIL ------------------------------------------


def test_geometry_edits_during_queries():
    run_scenario('''
    mug = loaded("objects/srimugsmooth.off")
    ball = loaded("objects/sphere.off")
    cube = loaded("objects/cube.off")
    cloud = ball.convert("PointCloud", 0.05)
    w = world()
    targets = {
        "standalone": Geometry3D(mug),
        "object": w.rigidObject(0).geometry(),
        "terrain": w.terrain(0).geometry(),
        "link": w.robot(0).link(5).geometry(),
    }
    I = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    for name, g in targets.items():
        g.set(mug)

        def query():
            for other in (ball, cube, cloud):
                g.collides(other)
                g.withinDistance(other, 0.01)
                g.distance(other)
                g.contacts(other, 0.001, 0.001)
            g.rayCast([0, 0, 2], [0, 0, -1])
            g.distance_point([0.1, 0.2, 0.3])
            g.getBB()

        def edit(i):
            g.translate([0.001, 0, 0])
            g.setCurrentTransform(I, [0.01 * (i % 3), 0, 0])
            g.set(ball if i % 2 else mug)
            g.scale(1.0001)
            g.setCollisionMargin(0.001 * (i % 2))
            if i % 10 == 0:
                g.loadFile(os.path.join(D, "objects/srimugsmooth.off"))
                g.setTriangleMesh(cube.getTriangleMesh())

        race([query, query], edit, reader_rounds=3)  # long queries: many edits land inside each
    ''')


def test_threads_first_querying_a_shape_together_build_its_structures_once():
    # Every query structure of a shape (collision tree, point-query tree,
    # local box, render arrays) is built on first use; threads that all start
    # on a fresh shape at the same moment must share one build of each and
    # read what a single thread reads.
    run_scenario('''
    from klampt.model.geometry import TriangleMesh
    mug = loaded("objects/srimugsmooth.off")
    ball = loaded("objects/sphere.off")
    ball.translate([0.03, 0.0, 0.05])
    ball.collides(mug)
    mesh = mug.getTriangleMesh()

    def queries(g):
        return (g.collides(ball), g.distance(ball).d, g.distance_point([0.1, 0.2, 0.3]).d,
                g.getBBTight(), g.getBB(), g.rayCast([0, 0, 2], [0, 0, -1]))

    alone = Geometry3D()
    alone.setTriangleMesh(mesh)
    expected = queries(alone)
    for rounds in range(20):
        g = Geometry3D()
        g.setTriangleMesh(mesh)
        before = klampt.collision_structures_built()
        start = threading.Barrier(8)
        results = []

        def worker():
            start.wait()
            results.append(queries(g))
        in_threads(*[worker] * 8)
        assert klampt.collision_structures_built() - before == 1, klampt.collision_structures_built() - before
        assert results == [expected] * 8, (results, expected)
    ''')


def test_groups_sharing_members_build_once_on_many_threads():
    # Shapes build under one of several locks; a group builds its members
    # before taking its own, so two groups that hold the same members in
    # opposite orders, first queried by threads at the same moment, neither
    # wait on each other forever nor build a member twice.
    run_scenario('''
    mug = loaded("objects/srimugsmooth.off")
    ball = loaded("objects/sphere.off")
    from klampt import GeometricPrimitive
    sphere = GeometricPrimitive()
    sphere.setSphere([0.1, 0.5, 0.2], 0.05)
    probe = Geometry3D()
    probe.setGeometricPrimitive(sphere)
    probe.collides(probe)
    mesh_a, mesh_b = mug.getTriangleMesh(), ball.getTriangleMesh()

    def fresh_groups():
        a, b = Geometry3D(), Geometry3D()
        a.setTriangleMesh(mesh_a)
        b.setTriangleMesh(mesh_b)
        b.translate([0.3, 0.0, 0.0])
        groups = []
        for members in ((a, b), (b, a)):
            g = Geometry3D()
            g.setGroup()
            for k, m in enumerate(members):
                g.setElement(k, m)
            groups.append(g)
        return groups

    # What one thread builds and answers is the expectation.
    before = klampt.collision_structures_built()
    expected = [g.distance(probe).d for g in fresh_groups()]
    built_alone = klampt.collision_structures_built() - before
    assert built_alone >= 4 and expected[0] == expected[1], (built_alone, expected)
    for rounds in range(10):
        groups = fresh_groups()
        before = klampt.collision_structures_built()
        start = threading.Barrier(8)
        results = []

        def worker(g):
            start.wait()
            results.append(g.distance(probe).d)
        in_threads(*[lambda g=groups[k % 2]: worker(g) for k in range(8)])
        assert klampt.collision_structures_built() - before == built_alone, klampt.collision_structures_built() - before
        assert results == [expected[0]] * 8, (results, expected)
    ''')


def test_world_edits_during_simulation_sensors_and_self_collision():
    run_scenario('''
    w = world("simulation_test_worlds/sensortest.xml")
    r = w.robot(0)
    cam = r.sensor("rgbd_camera")
    cam.setSetting("xres", "24")
    cam.setSetting("yres", "16")
    lidar = r.sensor("lidar")
    I = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    ball = loaded("objects/sphere.off")

    def sense():
        cam.kinematicSimulate(w, 0.01)
        lidar.kinematicSimulate(0.01)
        assert len(cam.getMeasurements()) == 24 * 16 * 2
        r.selfCollides()

    def simulate():
        try:
            sim = Simulator(w)
            for _ in range(5):
                sim.simulate(0.01)
                sim.controller(0).sensor("rgbd_camera").getMeasurements()
        except RuntimeError:
            pass  # the world changed structure while it ran: a new simulator follows

    def edit(i):
        w.rigidObject(0).setTransform(I, [2, 0.01 * i, 1])
        w.terrain(0).geometry().translate([0, 0, 1e-4])
        w.terrain(0).appearance().setColor(0.1 * (i % 10), 0.5, 0.5, 1)
        r.link(6).geometry().set(ball if i % 2 else r.link(5).geometry())
        q = r.getConfig()
        q[1] = 0.01 * (i % 50)
        r.setConfig(q)
        if i % 10 == 5:
            extra = w.makeRigidObject("extra%d" % i)
            extra.geometry().set(ball)
        elif i % 10 == 9:
            w.remove(w.rigidObject(w.numRigidObjects() - 1))

    race([sense, simulate], edit)
    ''')


def test_robot_edits_during_ik_solves():
    run_scenario('''
    w = world()
    r = w.robot(0)
    n0 = r.numLinks()

    def make_solver():
        s = IKSolver(r)
        s.add(ik.objective(r.link(r.numLinks() - 1), local=[0, 0, 0], world=[0.6, 0.1, 0.6]))
        return s

    solvers = {}

    def solve():
        me = threading.get_ident()
        try:
            s = solvers.get(me) or make_solver()
            solvers[me] = s
            s.solve()
            ik.solve_global(ik.objective(r.link(r.numLinks() - 1), local=[0, 0, 0], world=[0.5, 0, 0.7]),
                            iters=20, numRestarts=3)
            r.selfCollides()
        except (RuntimeError, IndexError):
            # the robot changed structure, before the solve (an objective names a
            # link it no longer has) or since the solver was made: a new solver follows
            solvers.pop(me, None)

    def edit(i):
        q = r.getConfig()
        q[-1] = 0.01 * (i % 50)
        r.setConfig(q)
        r.setJointLimits(*r.getJointLimits())
        r.link(r.numLinks() - 1).geometry().translate([0, 0, 1e-4])
        if i % 15 == 7:
            r.loadFile(os.path.join(D, "robots/planar3R.rob" if r.numLinks() == n0 else "robots/tx90pr2.rob"))
        assert len(r.getConfig()) == r.numLinks()

    race([solve, solve], edit)
    ''')


def test_a_thread_that_waits_for_a_robot_gets_its_turn_between_long_calls():
    # Two threads call selfCollides back to back (each call holds the robot's
    # use lock without the GIL); the main thread reads and writes the robot.
    # Each of its accesses waits for the running call to end, and must then
    # get in before the next call takes the lock: 300 accesses finish while
    # the loops go on. Unfair waiting let a loop take the lock back before
    # the woken thread had the GIL, again and again (an editor racing two IK
    # loops made fewer than 40 edits in a minute).
    run_scenario('''
    w = world()
    r = w.robot(0)
    stop = threading.Event()
    calls = [0, 0]

    def collide(k):
        while not stop.is_set():
            r.selfCollides()
            calls[k] += 1

    threads = [threading.Thread(target=collide, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    while min(calls) == 0:
        time.sleep(0.001)
    q = r.getConfig()
    start, deadline = list(calls), time.time() + 60
    for i in range(300):
        q[1] = 0.001 * i
        r.setConfig(q)
        assert r.getConfig()[1] == q[1]
        assert time.time() < deadline, "%d accesses in 60 s while %s more calls ran" % (
            i, [c - s for c, s in zip(calls, start)])
    stop.set()
    for t in threads:
        t.join()
    ''')


def test_collider_queries_during_world_edits():
    run_scenario('''
    w = world()
    r = w.robot(0)
    I = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    shapes = [w.rigidObject(0).geometry().clone(), w.robot(0).link(5).geometry().clone()]
    colliders = {}

    def query():
        me = threading.get_ident()
        try:
            c = colliders.get(me) or WorldCollider(w)
            colliders[me] = c
            list(c.collisions())
            list(c.robotSelfCollisions())
            c.rayCast([0, 0, 3], [0, 0, -1])
            for (_, g1), (_, g2) in c.collisionTests(bb_reject=False):
                g1.distance(g2)
        except (RuntimeError, IndexError):
            # the world changed structure since the collider was made, or while
            # it was being made (an element it listed is gone): a new one follows
            colliders.pop(me, None)

    def edit(i):
        w.rigidObject(i % w.numRigidObjects()).setTransform(I, [0.5, 0.01 * (i % 50), 0.4])
        q = r.getConfig()
        q[1] = 0.02 * (i % 50)
        r.setConfig(q)
        g = w.rigidObject(0).geometry()
        g.translate([1e-4, 0, 0])
        g.set(shapes[i % 2])
        w.robot(0).link(5).geometry().set(shapes[(i + 1) % 2])
        if i % 20 == 10:
            w.remove(w.rigidObject(w.numRigidObjects() - 1))
            w.loadRigidObject(os.path.join(D, "objects/sphere.geom"))

    race([query, query], edit, reader_rounds=10, edits=100)
    ''')


# --- Argument conversions that call back into the library -------------------------------------------


def test_conversions_that_call_back_into_the_library():
    run_scenario('''
    w = world("robots/atlas.rob")
    r = w.robot(0)
    n = r.numLinks()
    other = world("robots/planar3R.rob").robot(0)
    ddq = [0.01 * i for i in range(n)]
    expected_tau = r.torquesFromAccel(ddq)

    class Reentrant:
        """A number whose conversion runs the library on another robot."""
        def __init__(self, v):
            self.v = v
        def __float__(self):
            other.torquesFromAccel([0.0] * other.numLinks())
            other.accelFromTorques([0.0] * other.numLinks())
            other.setConfig([0.1] * other.numLinks())
            r.getGravityForces([0, 0, -9.8])  # the same robot, read only
            return self.v
        def __index__(self):
            other.getMassMatrix()
            r.getMassMatrixDeriv(0)
            return int(self.v)

    for _ in range(50):
        assert r.torquesFromAccel([Reentrant(v) for v in ddq]) == expected_tau
        assert r.accelFromTorques([Reentrant(v) for v in expected_tau]) == r.accelFromTorques(expected_tau)
        r.setConfig([Reentrant(0.0)] * n)
        assert r.getConfig() == [0.0] * n
        r.setVelocity([Reentrant(0.0)] * n)
        r.link(Reentrant(3)).getTransform()
        r.getMassMatrixDeriv(Reentrant(2))
        r.link(2).getJacobian([Reentrant(0.1), 0, 0])
        r.link(2).getPointAcceleration([Reentrant(0.1), 0, 0], [Reentrant(0.0)] * n)
        r.setDOFPosition(Reentrant(1), 0.0)

    # A conversion that edits the structure of the robot it is converted for:
    # a clear error or a consistent result, never sizes that disagree.
    class Restructuring:
        def __init__(self, v, path):
            self.v, self.path = v, path
        def __float__(self):
            r.loadFile(self.path)
            return self.v

    for path in ("robots/planar3R.rob", "robots/atlas.rob", "robots/tx90pr2.rob"):
        m = r.numLinks()
        for f in (r.setConfig, r.setVelocity, r.torquesFromAccel, r.accelFromTorques):
            try:
                f([Restructuring(0.0, os.path.join(D, path))] * m)
            except ValueError:
                pass
            assert len(r.getConfig()) == r.numLinks() == len(r.getVelocity())
        try:
            r.setJointLimits([Restructuring(-1.0, os.path.join(D, path))] * m, [1.0] * m)
        except ValueError:
            pass
        assert len(r.getJointLimits()[0]) == r.numLinks()
        try:
            r.link(0).getPointAcceleration([Restructuring(0.0, os.path.join(D, path)), 0, 0], [0.0] * m)
        except (ValueError, RuntimeError):
            pass

    # The same under threads: conversions in two threads at once.
    def convert_loop():
        for _ in range(100):
            assert r2.torquesFromAccel([Reentrant(v) for v in ddq2]) == tau2
    r2 = world("robots/atlas.rob").robot(0)
    r = r2
    ddq2 = [0.02 * i for i in range(r2.numLinks())]
    tau2 = r2.torquesFromAccel(ddq2)
    in_threads(convert_loop, convert_loop)
    ''')


# --- Determinism under threads ------------------------------------------------------------------------


def test_four_simulators_in_four_threads_match_their_runs_alone():
    out = run_scenario('''
    CALLS, DT = 300, 0.01  # 3000 steps of 1 ms each

    def trajectory(k):
        """A tx90 arm pushing through the blocks of tx90blocks.xml, with a target
        and a block layout that depend on k; the full simulator state after
        each call."""
        w = world("tx90blocks.xml")
        for i in range(w.numRigidObjects()):
            R, t = w.rigidObject(i).getTransform()
            w.rigidObject(i).setTransform(R, [t[0] + 0.01 * k, t[1] - 0.005 * k * i, t[2] + 0.02])
        sim = Simulator(w)
        c = sim.controller(0)
        q = c.getCommandedConfig()
        for j in range(1, 6):
            q[j] += 0.3 * ((k + j) % 3 - 1)
        c.setMilestone(q)
        states = []
        for _ in range(CALLS):
            sim.simulate(DT)
            states.append(sim.getState())
        return states

    alone = [trajectory(k) for k in range(4)]
    assert len(set(s[-1] for s in alone)) == 4, "the four scenes must differ"
    threaded = [None] * 4

    def runner(k):
        def run():
            threaded[k] = trajectory(k)
        return run

    for attempt in range(2):
        in_threads(*[runner(k) for k in range(4)])
        for k in range(4):
            first = next((i for i, (a, b) in enumerate(zip(alone[k], threaded[k])) if a != b), None)
            assert first is None, "simulator %d differs from its run alone at call %d" % (k, first)
    print("compared", 4 * CALLS * 2, "states")
    ''')
    assert "compared 2400 states" in out
