"""``vis.pick``: one click on an item, found by ray casting the scene's
items (:func:`ray_cast_item`)."""
import warnings

from klampt.math import vectorops

from ._framing import _names


class Picker:
    """Calls ``click_callback(name, item, point)`` for the first click on
    an item (then disables itself) and ``hover_callback`` on hover."""

    def __init__(self, scene, click_callback, hover_callback, highlight_color, filter, tolerance):
        self.scene = scene
        self.click_callback = click_callback
        self.hover_callback = hover_callback
        self.highlight_color = highlight_color
        self.filter = filter
        self.tolerance = tolerance

    def _hit(self, x, y):
        app, point = self.scene.rayCast(x, y, self.filter, self.tolerance)
        return (None, None) if app is None else (app, point)

    def click(self, x, y):
        """A click at pixel (x, y)."""
        app, point = self._hit(x, y)
        if app is None:
            return False
        self.scene.picker = None
        self.click_callback(app.name, app.item, point)
        return True

    def hover(self, x, y):
        """The mouse is at pixel (x, y)."""
        if self.hover_callback is None:
            return False
        app, point = self._hit(x, y)
        if app is not None:
            self.hover_callback(app.name, app.item, point)
        return app is not None


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
