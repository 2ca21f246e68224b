"""Compatibility module: Klamp't's ``klampt.vis.glcommon``, the plugin
helpers of ``klampt.vis``: GLWidgetPlugin hosts klampt widgets
(``PointPoser``, ``TransformPoser``, ``RobotPoser``, ...),
GLMultiViewportProgram shows several programs, CachedGLObject draws through
a cache. Importing it loads no OpenGL."""
from .glinterface import GLPluginInterface
from .glprogram import GLProgram, GLPluginProgram
from klampt import WidgetSet
from ._render.gl import column_major, gl


class GLWidgetPlugin(GLPluginInterface):
    """A plugin whose widgets (``addWidget``) are drawn and dragged.

    Attributes:
        klamptwidgetmaster (WidgetSet): the widgets.
        klamptwidgetbutton (int): the mouse button that drags them.
        klamptwidgetdragging (bool): whether one is being dragged.
    """

    def __init__(self):
        super().__init__()
        self.klamptwidgetbutton = 2
        self.klamptwidgetmaster = WidgetSet()
        self.klamptwidgetdragging = False

    def addWidget(self, widget):
        """Adds a widget."""
        self.klamptwidgetmaster.add(widget)

    def widgetchangefunc(self, event):
        """Called when a widget changed (override)."""

    def widgethoverfunc(self):
        """Called when the hovered widget changed (override)."""

    def display(self):
        self.klamptwidgetmaster.drawGL(self.viewport())
        return False

    def keyboardfunc(self, c, x, y):
        self.klamptwidgetmaster.keypress(c)
        return False

    def mousefunc(self, button, state, x, y):
        if state == 0:
            if self.klamptwidgetmaster.beginDrag(x, y, self.viewport()):
                self.widgetchangefunc("begin")
                self.klamptwidgetdragging = True
        elif self.klamptwidgetdragging:
            self.widgetchangefunc("end")
            self.klamptwidgetmaster.endDrag()
            self.klamptwidgetdragging = False
        if self.klamptwidgetmaster.wantsRedraw():
            self.refresh()
        return self.klamptwidgetdragging

    def motionfunc(self, x, y, dx, dy):
        if self.klamptwidgetdragging:
            self.klamptwidgetmaster.drag(dx, dy, self.viewport())
            self.widgetchangefunc("drag")
        else:
            self.klamptwidgetmaster.hover(x, y, self.viewport())
            self.widgethoverfunc()
        if self.klamptwidgetmaster.wantsRedraw():
            self.refresh()
        return self.klamptwidgetdragging

    def idle(self):
        self.klamptwidgetmaster.idle()
        return True


class GLMultiViewportProgram(GLProgram):
    """Several programs tiled side by side in one window.

    Attributes:
        views (list of GLProgram), activeView (int or None).
    """

    def __init__(self):
        super().__init__()
        self.views = []
        self.activeView = None
        self.broadcast = False

    def addView(self, view):
        """Adds a program as a tile."""
        if isinstance(view, GLPluginInterface) and not isinstance(view, GLProgram):
            program = GLPluginProgram()
            program.window = self.window
            program.set_plugin(view)
            view = program
        self.views.append(view)
        view.window = self.window
        self.fit()

    def removeView(self, view):
        """Removes a tile."""
        self.views.remove(view)
        self.fit()

    def fit(self):
        """Tiles the views in a grid covering the window."""
        import math
        n = len(self.views)
        if n == 0:
            return
        cols = int(math.ceil(math.sqrt(n)))
        rows = int(math.ceil(n / float(cols)))
        w, h = self.view.w // cols, self.view.h // rows
        for i, v in enumerate(self.views):
            v.view.x, v.view.y = (i % cols) * w, (i // cols) * h
            v.view.w, v.view.h = w, h

    def reshapefunc(self, w, h):
        self.view.w, self.view.h = w, h
        self.fit()
        return True

    def displayfunc(self):
        for v in self.views:
            v.window = self.window
            v.displayfunc()
        return True

    def _at(self, x, y):
        for i, v in enumerate(self.views):
            if v.view.contains(x, y):
                return i
        return None

    def mousefunc(self, button, state, x, y):
        if state == 0:
            self.activeView = self._at(x, y)
        if self.activeView is not None:
            v = self.views[self.activeView]
            return bool(v.mousefunc(button, state, x - v.view.x, y - v.view.y))
        return False

    def motionfunc(self, x, y, dx, dy):
        if self.activeView is not None:
            v = self.views[self.activeView]
            return bool(v.motionfunc(x - v.view.x, y - v.view.y, dx, dy))
        return False

    def keyboardfunc(self, c, x, y):
        if self.activeView is not None:
            return bool(self.views[self.activeView].keyboardfunc(c, x, y))
        return False

    def idlefunc(self):
        for v in self.views:
            v.idlefunc()


class CachedGLObject:
    """Draws through ``draw(fn, transform=None, parameters=None)``; the
    drawing is redone every frame (the arrays behind it are cached by the
    renderer), so ``mark_changed`` only notes a change."""

    def __init__(self):
        self.name = ""
        self.changed = True
        self.transform = None
        self.parameters = None

    def mark_changed(self):
        """Notes that the drawing changed."""
        self.changed = True

    def destroy(self):
        """Nothing to free."""

    def draw(self, renderFunction, transform=None, parameters=None):
        """Calls renderFunction() in the frame ``transform`` (an se3 element)."""
        self.transform, self.parameters, self.changed = transform, parameters, False
        if transform is None:
            renderFunction()
            return
        GL = gl()
        GL.glPushMatrix()
        GL.glMultMatrixd(column_major(transform))
        try:
            renderFunction()
        finally:
            GL.glPopMatrix()
