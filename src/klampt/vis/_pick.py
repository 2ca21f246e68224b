"""``vis.pick``: one click on an item, found by ray casting the scene."""


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
