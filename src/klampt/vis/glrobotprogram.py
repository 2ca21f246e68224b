"""Compatibility module: Klamp't's ``klampt.vis.glrobotprogram``,
GLWorldPlugin (draws a world, ray casts clicks) and GLSimulationPlugin
(steps a simulation in ``idle``, with key bindings). Importing it loads
no OpenGL."""
from ..robotsim import RobotPoser, WidgetSet  # noqa: F401  (Klamp't's module has them)
from klampt.math import vectorops
from klampt.model import collide
from klampt.sim.simulation import SimpleSimulator

from .glinterface import GLPluginInterface
from ._render.gl import gl
from .backends.offscreen import render_offscreen


class GLWorldPlugin(GLPluginInterface):
    """A plugin that draws a WorldModel.

    Attributes:
        world (WorldModel): the world.
        collider (WorldCollider): used by :meth:`click_world`.
    """

    def __init__(self, world):
        super().__init__()
        self.world = world
        self.collider = collide.WorldCollider(world)

    def display(self):
        self.world.drawGL()

    def click_world(self, x, y, want_points=False):
        """The world objects under pixel (x, y), nearest first (with the hit
        points if ``want_points``)."""
        s, d = self.view.click_ray(x, y)
        hits = []
        for g in self.collider.geomList:
            hit, pt = g[1].rayCast(s, d)
            if hit:
                hits.append((vectorops.dot(vectorops.sub(pt, s), d), id(g[0]), g[0], pt))
        hits.sort(key=lambda h: (h[0], h[1]))
        return [(h[2], h[3]) for h in hits] if want_points else [h[2] for h in hits]


class GLSimulationPlugin(GLWorldPlugin):
    """A plugin that simulates a world: 's' toggles simulation, ' ' steps
    0.01 s, 'l' toggles logging, 'c' draws contacts, 'v' draws sensors.
    Override :meth:`control_loop` to control ``self.sim.controller(i)``.

    Attributes:
        sim (SimpleSimulator), simulate (bool), dt (float), drawContacts,
        drawSensors, saveScreenshots, verbose.
    """

    def __init__(self, world):
        super().__init__(world)
        self.sim = SimpleSimulator(world)
        self.simulate = False
        self.dt = 0.02
        self.drawContacts = False
        self.drawSensors = False
        self.saveScreenshots = False
        self.nextScreenshotTime = 0
        self.screenshotCount = 0
        self.verbose = 0
        self.htmlSharePath = None

        def toggle_simulate():
            self.simulate = not self.simulate
            print("Simulating:", self.simulate)

        def toggle_draw_contacts():
            self.drawContacts = not self.drawContacts
            if self.drawContacts:
                self.sim.enableContactFeedbackAll()

        def toggle_draw_sensors():
            self.drawSensors = {False: True, True: 'full'}.get(self.drawSensors, False)

        def single_step():
            print("Advancing by 0.01s")
            self.sim_step(0.01)
        self.add_action(toggle_simulate, 'Toggle simulation', 's')
        self.add_action(single_step, 'Step simulation', ' ')
        self.add_action(self.sim.toggleLogging, 'Toggle simulation logging', 'l')
        self.add_action(toggle_draw_contacts, 'Toggle draw contacts', 'c')
        self.add_action(toggle_draw_sensors, 'Toggle draw sensors', 'v')

    def display(self):
        self.sim.drawGL()
        GL = gl()
        if self.drawContacts:
            GL.glDisable(GL.GL_LIGHTING)
            GL.glDisable(GL.GL_DEPTH_TEST)
            GL.glColor3f(1, 1, 0)
            GL.glPointSize(5.0)
            n = self.world.numIDs()
            for i in range(n):
                for j in range(i + 1, n):
                    points = self.sim.getContacts(i, j)
                    if len(points) == 0:
                        continue
                    forces = self.sim.getContactForces(i, j)
                    GL.glBegin(GL.GL_POINTS)
                    for p in points:
                        GL.glVertex3f(*p[0:3])
                    GL.glEnd()
                    GL.glBegin(GL.GL_LINES)
                    for p, f in zip(points, forces):
                        GL.glVertex3f(*p[0:3])
                        GL.glVertex3f(*vectorops.madd(p[0:3], f, 0.1))
                    GL.glEnd()
            GL.glEnable(GL.GL_DEPTH_TEST)
        if self.drawSensors:
            for i in range(self.world.numRobots()):
                c = self.sim.controller(i)
                j = 0
                while True:
                    s = c.sensor(j)
                    if s.name() == '':
                        break
                    s.drawGL(s.getMeasurements() if self.drawSensors == 'full' else None)
                    j += 1
        return True

    def control_loop(self):
        """Called before each simulation step (override)."""

    def sim_step(self, dt=None):
        """Runs the control loop and advances the simulation by dt."""
        if dt is None:
            dt = self.dt
        if self.sim.getTime() == 0:
            self.sim.simulate(0)
        if self.saveScreenshots and self.window is not None:
            if self.sim.getTime() >= self.nextScreenshotTime:
                from PIL import Image
                rgb, _ = render_offscreen(self.window)
                Image.fromarray(rgb).save("image%04d.png" % (self.screenshotCount,))
                self.screenshotCount += 1
            self.nextScreenshotTime += 1.0 / 30.0
        if self.htmlSharePath:
            self.htmlSharePath.animate()
        self.control_loop()
        self.sim.simulate(dt)
        self.refresh()

    def idle(self):
        if self.simulate:
            self.sim_step()
        return True
