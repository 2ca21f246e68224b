"""The scene model every backend draws or serializes
(:class:`VisualizationScene`): named items (:class:`VisAppearance`, in
:mod:`klampt.vis._item`) with animations, the scene clock, labels, plots,
camera controllers and editors as data, and the lock held while it changes.
No OpenGL here."""
import threading
import time
import warnings

from klampt.math import vectorops

from ._item import VisAppearance, is_transform, is_world
from ._types import default_attributes
from klampt._viewport import GLViewport
from . import _framing
from klampt.model.multipath import MultiPath
from klampt.model.trajectory import Trajectory
from klampt.model import config
from ._plot import VisPlotItem
from ._framing import autoFitViewport
from ._render.background import BackgroundImage
from ._pick import ray_cast_item

#: The lock the renderer holds per frame and users hold (``vis.lock()``) while
#: they change what is shown.
global_lock = threading.RLock()


class VisualizationScene:
    """All the items of one window, with the labels collected while
    drawing, the scene clock and the camera.

    Attributes:
        items (dict): name -> VisAppearance (top-level items in add order).
        labels (list): (text, point, color) collected during a frame.
        t (float): the scene time of the last ``updateTime``.
        timeCallback: ``time() -> float`` used by ``updateTime`` (time.time
            by default).
        startTime: the first time ``updateTime`` saw.
        animating (bool): whether ``updateTime`` advances animations.
        currentAnimationTime (float): the animation clock.
        doRefresh (bool): set when something changed since the last frame.
        cameraController: updates the camera each frame (``followCamera``).
        view (GLViewport): the camera.
        backgroundColor (list): the clear color (r, g, b, a).
    """

    def __init__(self):
        self.items = {}
        self.labels = []
        self.t = 0
        self.timeCallback = None
        self.startTime = None
        self.animating = True
        self.currentAnimationTime = 0
        self.doRefresh = False
        self.cameraController = None
        self.view = GLViewport()
        # False until the camera is set (setViewport, autoFitCamera,
        # followCamera) or framed on the first item that can be framed
        self.cameraChosen = False
        self.backgroundColor = [0.8, 0.8, 0.9, 0.0]
        self.backgroundImage = None  # a _render.background.BackgroundImage
        self.version = 0
        self.picker = None

    def _changed(self):
        self.doRefresh = True
        self.version += 1

    def getItem(self, item_name):
        """The VisAppearance of a name or path (ValueError if unknown)."""
        if isinstance(item_name, (list, tuple)):
            if len(item_name) == 1:
                return self.getItem(item_name[0])
            if item_name[0] not in self.items:
                raise ValueError("Invalid top-level item specified: " + str(item_name))
            return self.items[item_name[0]].getSubItem(item_name[1:])
        if item_name in self.items:
            return self.items[item_name]
        raise ValueError("Item %r is not in the scene" % (item_name,))

    def dirty(self, item_name='all'):
        """Marks an item (or everything) changed, forcing caches to refresh."""
        with global_lock:
            targets = self.items.values() if item_name == 'all' else [self.getItem(item_name)]
            for itemvis in targets:
                itemvis.markChanged()
            self._changed()

    def clear(self):
        """Removes every item."""
        with global_lock:
            for itemvis in self.items.values():
                itemvis.destroy()
            self.items = {}
            self.currentAnimationTime = 0
            self._changed()

    def clearText(self):
        """Removes every text item."""
        with global_lock:
            for name in [n for n, v in self.items.items() if isinstance(v.item, str)]:
                self.items[name].destroy()
                del self.items[name]
            self._changed()

    def listItems(self, root=None, indent=0):
        """Prints the item tree."""
        if root is None:
            for value in list(self.items.values()):
                self.listItems(value, indent)
            return
        if isinstance(root, (str, tuple, list)):
            root = self.getItem(root)
        print(" " * indent + str(root.name))
        for v in root.subAppearances.values():
            self.listItems(v, indent + 2)

    def getItemName(self, object):
        """The name or path of an object in the scene, or None."""
        name = None
        if hasattr(object, 'getName'):
            name = object.getName()
        elif hasattr(object, 'name'):
            name = object.name() if callable(object.name) else object.name
        if name is not None and name in self.items and self.items[name].item is object:
            return name
        if type(object).__name__ == 'RobotModelLink':
            robpath = self.getItemName(object.robot())
            if robpath:
                return (robpath if isinstance(robpath, tuple) else (robpath,)) + (name,)
            return None

        def same(a, b):
            if a is b:
                return True
            try:
                return type(a) is type(b) and hasattr(a, 'getID') and a.getID() == b.getID() and \
                    a.world == b.world
            except Exception:
                return False

        def path_of(app):
            if same(app.item, object):
                return ()
            for sub in app.subAppearances.values():
                p = path_of(sub)
                if p is not None:
                    return (sub.name,) + p
            return None
        for top, app in self.items.items():
            p = path_of(app)
            if p is not None:
                return top if not p else (top,) + p
        return None

    def add(self, name, item, keepAppearance=False, **kwargs):
        """Adds or replaces an item (see ``vis.add``)."""
        with global_lock:
            if isinstance(name, (list, tuple)):
                raise ValueError("add() needs a top-level name, not a path: use setItem on sub-items")
            if keepAppearance and name in self.items:
                self.items[name].setItem(item)
            else:
                app = VisAppearance(item, name, kwargs.get('type'))
                self.items[name] = app
            app = self.items[name]
            for attr, value in kwargs.items():
                self._setAttribute(app, attr, value)
            if not self.cameraChosen:
                self._frameFirstItems()
            self._changed()

    def _frameFirstItems(self):
        """Frames the items with the camera, quietly, as long as the user
        has not chosen a camera: a first ``add`` shows what was added."""
        try:
            self.cameraChosen = _framing.fit(self.view, list(self.items.values()))
        except Exception as e:  # framing is a convenience: never lose the add
            import warnings
            warnings.warn("klampt.vis: could not frame the camera on the items: %s" % e)

    def addText(self, name, text, **kwargs):
        """Adds a text item."""
        self.add(name, text, True, **kwargs)

    def animate(self, name, animation, speed=1.0, endBehavior='loop'):
        """Animates an item with a Trajectory (or milestones at unit times)."""
        with global_lock:
            if isinstance(animation, MultiPath):
                world = self.items.get('world')
                world = world.item if world is not None else None
                if world is not None and world.numRobots() > 0:
                    animation = animation.getTrajectory(world.robot(0), 0.1)
                else:
                    animation = animation.getTrajectory()
            elif animation is not None and not isinstance(animation, Trajectory) and hasattr(animation, '__iter__'):
                animation = list(animation)
                print("visualization.animate(): Making a Trajectory with unit durations between",
                      len(animation), "milestones")
                animation = Trajectory(list(range(len(animation))), animation)
            if animation is not None and not isinstance(animation, Trajectory):
                raise ValueError("animate() needs a Trajectory, a MultiPath or a list of milestones")
            item = self.getItem(name)
            item.animation = animation
            item.animationStartTime = self.currentAnimationTime
            item.animationSpeed = speed
            item.animationEndBehavior = endBehavior
            item.updateAnimation(self.currentAnimationTime)
            self._changed()

    def pauseAnimation(self, paused=True):
        """Pauses or resumes the animation clock."""
        with global_lock:
            self.animating = not paused

    def stepAnimation(self, amount):
        """Advances the animation clock by ``amount`` seconds."""
        with global_lock:
            self.animationTime(self.currentAnimationTime + amount)

    def animationTime(self, newtime=None):
        """The animation time (no argument), or sets it."""
        if newtime is None:
            return self.currentAnimationTime
        with global_lock:
            self.currentAnimationTime = newtime
            for v in self.items.values():
                v.updateAnimation(self.currentAnimationTime)
            self._changed()

    def remove(self, name):
        """Removes a top-level item."""
        with global_lock:
            if name not in self.items:
                raise ValueError("Can only remove top level objects from visualization, try hide() instead")
            self.items[name].destroy()
            del self.items[name]
            self._changed()

    def getItemConfig(self, name):
        """The item's configuration (``klampt.model.config``)."""
        with global_lock:
            app = self.getItem(name)
            app.update_editor(False)
            return config.getConfig(app.item)

    def setItemConfig(self, name, value):
        """Sets the item's configuration (list items are replaced)."""
        with global_lock:
            item = self.getItem(name)
            if isinstance(item.item, (list, tuple, str)):
                if is_transform(item.item) and len(value) == 12 and not isinstance(value[0], (list, tuple)):
                    # a transform's configuration: 12 numbers, R then t
                    value = (list(value[:9]), list(value[9:]))
                item.item = value
            else:
                config.setConfig(item.item, value)
            item.markChanged(config=True, appearance=False)
            self._changed()

    def addLabel(self, text, point, color):
        """Queues a label for the current frame."""
        self.labels.append((text, point, color))

    def hideLabel(self, name, hidden=True):
        """Hides or shows an item's label."""
        with global_lock:
            item = self.getItem(name)
            item.attributes['hide_label'] = hidden
            item.markChanged(config=False, appearance=True)
            self._changed()

    def hide(self, name, hidden=True):
        """Hides (or, with hidden=False, shows) an item."""
        with global_lock:
            item = self.getItem(name)
            item.attributes['hidden'] = hidden
            item.markChanged(config=False, appearance=True)
            self._changed()

    def addPlotItem(self, plotname, itemname):
        """Plots an item's configuration in a plot."""
        with global_lock:
            plot = self.getItem(plotname)
            plot.item.items.append(VisPlotItem(str(itemname), self.getItem(itemname)))
            self._changed()

    def logPlot(self, plotname, itemname, value):
        """Logs a value (or list of values) of a named trace at the current time."""
        with global_lock:
            plot = self.getItem(plotname)
            values = list(value) if hasattr(value, '__iter__') else [value]
            target = None
            for entry in plot.item.items:
                if entry.name == itemname:
                    target = entry
            if target is None:
                target = VisPlotItem(itemname)
                plot.item.items.append(target)
            for i, v in enumerate(values):
                target.customUpdate(i, self.t, float(v))
            self._changed()

    def logPlotEvent(self, plotname, eventname, color):
        """Marks an event on a plot at the current time."""
        with global_lock:
            self.getItem(plotname).item.addEvent(eventname, self.t, color)
            self._changed()

    def hidePlotItem(self, plotname, itemname, hidden=True):
        """Hides a plot trace: an item name, or (item name, channel index)."""
        with global_lock:
            plot = self.getItem(plotname)
            index = None
            if isinstance(itemname, (tuple, list)):
                itemname, index = itemname
            for entry in plot.item.items:
                if entry.name == itemname:
                    if index is None:
                        entry.hidden = [hidden] * len(entry.hidden)
                    else:
                        entry.hidden[index] = hidden
            self._changed()

    def savePlot(self, plotname, fn):
        """Saves a plot's traces to .csv or .traj."""
        with global_lock:
            self.getItem(plotname).item.dump(fn)

    def setAppearance(self, name, appearance):
        """Draws an item with a given Appearance."""
        with global_lock:
            item = self.getItem(name)
            item.useDefaultAppearance = False
            item.customAppearance = appearance
            item.markChanged(config=False, appearance=True)
            self._changed()

    def _setAttribute(self, item, attr, value):
        if value is None:
            if attr in item.attributes.overrides:
                del item.attributes[attr]
        else:
            item.attributes[attr] = value
        if attr == 'color':
            item.useDefaultAppearance = value is None
        if attr == 'appearance':
            item.useDefaultAppearance = value is None
            item.customAppearance = value
        if item.subAppearances and attr not in ('label', 'hidden'):
            for app in item.subAppearances.values():
                self._setAttribute(app, attr, value)
        if attr == 'type':
            item.attributes.setParent(default_attributes(item.item, type=value) or {})
        item.markChanged(config=False, appearance=True)

    def setAttribute(self, name, attr, value):
        """Sets an attribute (cascading to sub-items except 'label' and
        'hidden'); None deletes it."""
        with global_lock:
            self._setAttribute(self.getItem(name), attr, value)
            self._changed()

    def getAttribute(self, name, attr):
        """An attribute's value (KeyError if unset)."""
        with global_lock:
            return self.getItem(name).attributes[attr]

    def getAttributes(self, name):
        """All attributes of an item."""
        with global_lock:
            return self.getItem(name).getAttributes()

    def revertAppearance(self, name):
        """Draws the item with its own appearance again."""
        with global_lock:
            item = self.getItem(name)
            item.useDefaultAppearance = True
            item.customAppearance = None
            item.markChanged(config=False, appearance=True)
            self._changed()

    def setColor(self, name, r, g, b, a=1.0):
        """Sets an item's color (every link of a world or robot)."""
        with global_lock:
            self._setAttribute(self.getItem(name), 'color', [r, g, b, a])
            self._changed()

    def setDrawFunc(self, name, func):
        """Replaces an item's drawing with ``func(item)``."""
        with global_lock:
            self.getItem(name).customDrawFunc = func
            self._changed()

    def autoFitCamera(self, zoom=True, rotate=True, scale=1.0):
        """Aims the camera at the items (see ``vis.autoFitCamera``)."""
        with global_lock:
            vp = self.getViewport()
            autoFitViewport(vp, list(self.items.values()), zoom=zoom, rotate=rotate)
            vp.camera.dist /= scale
            self.setViewport(vp)
            self.cameraChosen = True

    def followCamera(self, target, translate=True, rotate=False, center=False):
        """Makes the camera follow an item, a Trajectory or a camera sensor."""
        with global_lock:
            if target is None:
                self.cameraController = None
                return
            if isinstance(target, (str, tuple, list)):
                app = self.getItem(target)
                self.cameraController = _framing.follow_item(self.view, app, translate, rotate, center)
            else:
                self.cameraController = _framing.follow_object(self.view, target)

    def setTimeCallback(self, cb):
        """Sets the clock ``updateTime`` reads (None: time.time)."""
        self.timeCallback = cb

    def updateTime(self, t=None):
        """Advances the scene clock to t (default: the time callback), and
        the animations with it while animating."""
        with global_lock:
            if t is None:
                t = time.time() if self.timeCallback is None else self.timeCallback()
            if self.startTime is None:
                self.startTime = t
            oldt = self.t
            self.t = t - self.startTime
            if self.animating and self.t - oldt > 0:
                self.stepAnimation(self.t - oldt)
            for v in self.items.values():
                v.updateTime(self.t)

    def updateCamera(self):
        """Lets the camera controller move the camera (once per frame)."""
        if self.cameraController is not None:
            vp = self.cameraController(self.currentAnimationTime)
            if vp is not None:
                self.setViewport(vp)

    def getViewport(self):
        """A copy of the camera (GLViewport)."""
        import copy
        with global_lock:
            return copy.deepcopy(self.view)

    def setViewport(self, viewport):
        """Sets the camera (a copy of the given GLViewport is kept)."""
        import copy
        with global_lock:
            self.view = copy.deepcopy(viewport)
            self.cameraChosen = True
            self._changed()

    def setBackgroundColor(self, r, g, b, a=1):
        """Sets the clear color."""
        with global_lock:
            self.backgroundColor = [r, g, b, a]
            self._changed()

    def setBackgroundImage(self, img, format='auto', rows='auto', mode='stretch', depth=None):
        """Draws an image behind the scene in the GL windows and screenshots
        (None removes it). ``img``: an (h, w, 3) or (h, w, 4) array (uint8,
        or floats in [0, 1]), an (h, w) array of 0x00rrggbb integers
        (0x00bbggrr with format='bgr'), or bytes with ``rows`` rows and
        ``format`` 'rgb' / 'auto', 'bgr', 'rgba' or 'bgra'. ``mode``:
        'stretch' to the view, 'scale' uniformly to fit it, 'fixed' at its
        size in the top left, 'center' at its size, 'tile'. ``depth``: an
        (h, w) metric depth image placed like the image; geometry farther
        than it is hidden (0 or not finite: nothing there)."""
        image = None if img is None else BackgroundImage(img, format, rows, mode, depth)
        with global_lock:
            self.backgroundImage = image
            self._changed()

    def world(self):
        """The item named 'world' if it is a WorldModel (used to draw
        configurations and trajectories), else the first world item."""
        w = self.items.get('world')
        if w is not None and is_world(w.item):
            return w.item
        for v in self.items.values():
            if is_world(v.item):
                return v.item
        return None

    def saveJsonConfig(self, fn=None):
        """The attributes of every item as a JSON-able dict (written to fn
        if given)."""
        def dump(v):
            if v.subAppearances:
                return [{'name': list(k) if isinstance(k, tuple) else k, 'appearance': dump(app)}
                        for k, app in v.subAppearances.items() if dump(app)]
            return {k: val for k, val in v.attributes.flatten().items() if _jsonable(val)}
        out = {k: dump(v) for k, v in self.items.items()}
        if fn is not None:
            import json
            with open(fn, 'w') as f:
                json.dump(out, f)
        return out

    def loadJsonConfig(self, jsonobj_or_file):
        """Sets attributes from :meth:`saveJsonConfig` output (or its file)."""
        if isinstance(jsonobj_or_file, str):
            import json
            with open(jsonobj_or_file) as f:
                jsonobj = json.load(f)
        else:
            jsonobj = jsonobj_or_file

        def parse(js, app):
            if isinstance(js, dict):
                for attr, value in js.items():
                    app.attributes[attr] = value
                    if attr == 'color':
                        app.useDefaultAppearance = False
                app.markChanged()
            elif isinstance(js, list):
                for val in js:
                    if not isinstance(val, dict) or 'name' not in val or 'appearance' not in val:
                        warnings.warn("JSON object {} does not contain a valid subappearance".format(val))
                        continue
                    key = tuple(val['name']) if isinstance(val['name'], list) else val['name']
                    if key in app.subAppearances:
                        parse(val['appearance'], app.subAppearances[key])
                    else:
                        warnings.warn("JSON subappearance {} not in visualization".format(key))
        with global_lock:
            for k, v in self.items.items():
                if k in jsonobj:
                    parse(jsonobj[k], v)
                else:
                    warnings.warn("Visualization object {} not in JSON object".format(k))
            for k in jsonobj:
                if k not in self.items:
                    warnings.warn("JSON object {} not in visualization".format(k))
            self._changed()

    def rayCast(self, x, y, filter=None, tolerance=0.01):
        """The first item under pixel (x, y): (VisAppearance, point), or
        (None, None)."""
        s, d = self.view.click_ray(x, y)
        best = [(None, None), float('inf')]

        def visit(name, app):
            if filter is not None and not filter(name, app.item):
                return
            if app.attributes.get('hidden', False):
                return
            if app.subAppearances:
                for sub in app.subAppearances.values():
                    visit(sub.name, sub)
                return
            pt = ray_cast_item(app, s, d, tolerance)
            if pt is not None:
                dist = vectorops.dot(vectorops.sub(pt, s), d)
                if dist < best[1]:
                    best[0], best[1] = (app, pt), dist
        with global_lock:
            for name, app in self.items.items():
                visit(name, app)
        return best[0]


def _jsonable(value):
    import json
    try:
        json.dumps(value)
        return True
    except (TypeError, ValueError):
        return False

