"""HTMLSharePath: saves a world or a simulation as it moves into one
self-contained HTML file that plays it back (klampt.vis's web viewer, no
network access). The viewer's serializer and page are klampt.vis's, reached
through :func:`klampt._providers.provider` (io imports nothing from vis)."""
from ..robotsim import *  # noqa: F401,F403  (Klamp't's module star-imports klampt)
import importlib.resources

from .. import _providers


def make_fixed_precision(obj, digits):
    """Rounds the floats of obj (nested lists, tuples and dicts) to digits
    decimals: lists and dicts in place, tuples become lists. Returns the
    rounded object."""
    if isinstance(obj, float):
        return round(obj, digits)
    if isinstance(obj, list):
        obj[:] = [make_fixed_precision(v, digits) for v in obj]
    elif isinstance(obj, tuple):
        return [make_fixed_precision(v, digits) for v in obj]
    elif isinstance(obj, dict):
        for k, v in obj.items():
            obj[k] = make_fixed_precision(v, digits)
    return obj


def read_resource_contents(package, filename):
    """The text of a data file of an installed package (such as the viewer's
    files of ``klampt``)."""
    return (importlib.resources.files(package) / filename).read_text()


class HTMLSharePath:
    """Records a world (or a Simulator's world) frame by frame and writes a
    shareable HTML page.

    Examples::

        sharer = HTMLSharePath("mypath.html", name="My spiffy path")
        sharer.start(sim)        # a Simulator or a WorldModel
        while running:
            sim.simulate(0.01)
            sharer.animate()     # a WorldModel needs animate(time)
        sharer.end()             # writes the file (returns the page without a filename)

    Attributes:
        dt (float): the time between frames (the first step's, unless set).
    """

    def __init__(self, filename=None, name="Klamp't Three.js app", boilerplate='auto', libraries='static'):
        if libraries not in ('static', 'dynamic'):
            raise ValueError("The libraries argument must either be 'static' or 'dynamic'")
        self.fn = filename
        self.name = name
        self.dt = 0
        self.last_t = 0
        self.sim = None
        self.world = None
        self.frames = []
        self._serializer = None
        self._scene = None

    def start(self, world):
        """Begins recording a WorldModel or a Simulator."""
        if hasattr(world, 'getTime') and hasattr(world, 'world'):
            self.sim = world
            self.world = world.world
            self.last_t = world.getTime()
        else:
            self.sim = None
            self.world = world
        self._serializer = _providers.provider('html.world_serializer')(self.world)
        self._scene = self._serializer.build()
        self.frames = [{'transforms': self._serializer.transforms()}]

    def animate(self, time=None, rpc=None):
        """Records the world at ``time`` (the simulation time by default),
        repeating the frame when more than dt passed."""
        if self._serializer is None:
            raise RuntimeError("HTMLSharePath.animate called before start()")
        if self.sim is not None and time is None:
            time = self.sim.getTime()
            self.sim.updateWorld()
        if time is None:
            raise ValueError("Time needs to be provided")
        dt = time - self.last_t
        if self.dt == 0:
            self.dt = dt
        if self.dt <= 0:
            return
        if abs(dt - self.dt) <= 1e-6:
            dt = self.dt
        frame = {'transforms': self._serializer.transforms()}
        while dt >= self.dt - 1e-12:
            self.frames.append(frame)
            dt -= self.dt
            self.last_t += self.dt

    def end(self, rpc=None):
        """Writes the page to the filename (and returns None), or returns it."""
        if self._scene is None:
            raise RuntimeError("HTMLSharePath.end called before start()")
        page = _providers.provider('html.page')
        text = page(self._scene, self.frames, self.dt if self.dt > 0 else 1.0 / 30.0, title=self.name)
        if self.fn is None:
            return text
        with open(self.fn, 'w', encoding='utf-8') as f:
            f.write(text)
        print("Path with", len(self.frames), "frames saved to", self.fn)
        return None
