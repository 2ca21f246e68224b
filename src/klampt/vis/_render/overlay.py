"""Screen-space drawing: labels of world points (clustered as the reference
clusters them), the text console, positioned text and live plots."""
import math

from .gl import gl, set_screen_projection
from .text import draw_text_window, text_size
from .._plot import VisPlot

LABEL_SIZE = 12


def _window_height(view):
    return int(getattr(view, '_window_height', view.y + view.h))


def draw_labels(scene, view):
    """Draws the labels collected during the frame: labels closer than
    3 % of the camera distance are joined with ','."""
    tolerance = view.camera.dist * 0.03
    if tolerance <= 0 or not scene.labels:
        return
    clusters = {}
    for text, point, color in scene.labels:
        key = tuple(int(math.floor(x / tolerance)) for x in point)
        clusters.setdefault(key, [point, []])[1].append((text, color))
    H = _window_height(view)
    for point, entries in clusters.values():
        projected = view.project(point, clip=False)
        if projected is None or projected[2] <= view.clippingplanes[0]:
            continue
        x, y = projected[0], projected[1]
        for i, (text, color) in enumerate(entries):
            label = text + ',' if i + 1 < len(entries) else text
            draw_text_window(x + 2, y + 2, label, LABEL_SIZE, list(color)[:3] + [1.0], H)
            x += text_size(label, LABEL_SIZE)[0] + 3


def draw_text_at(view, point, text, size=12, color=None):
    """Text at a screen point (x, y) (top-left, y down; negative values
    anchor right / bottom) or at a world point (x, y, z)."""
    color = [0.0, 0.0, 0.0, 1.0] if color is None else list(color) + [1.0] * (4 - len(color))
    H = _window_height(view)
    if len(point) == 3:
        projected = view.project(point, clip=False)
        if projected is None or projected[2] <= view.clippingplanes[0]:
            return
        draw_text_window(projected[0], projected[1], text, size, color, H)
        return
    x, y = float(point[0]), float(point[1])
    if x < 0:
        x += view.w
    if y < 0:
        y += view.h
    draw_text_window(view.x + x, view.y + y, text, size, color, H)


def _draw_plot(plot, attributes, x, y, w, h, H):
    GL = gl()
    duration = attributes['duration']
    vmin, vmax = attributes['range']
    lo, hi = plot.value_range(vmin, vmax)
    GL.glEnable(GL.GL_BLEND)
    GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
    GL.glColor4f(1, 1, 1, 0.5)
    GL.glBegin(GL.GL_QUADS)
    for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)):
        GL.glVertex2f(px, py)
    GL.glEnd()
    GL.glDisable(GL.GL_BLEND)
    GL.glColor4f(0, 0, 0, 1)
    GL.glBegin(GL.GL_LINE_LOOP)
    for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)):
        GL.glVertex2f(px, py)
    GL.glEnd()
    t1 = plot.tlast
    t0 = t1 - duration

    def to_screen(t, v):
        return x + (t - t0) / duration * w, y + h - (v - lo) / (hi - lo) * h

    for name, times in plot.events.items():
        c = plot.eventColors.get(name, (0, 0, 0))
        GL.glColor3f(*c[:3])
        GL.glBegin(GL.GL_LINES)
        for t in times:
            sx = to_screen(t, lo)[0]
            GL.glVertex2f(sx, y)
            GL.glVertex2f(sx, y + h)
        GL.glEnd()
    for label, color, trace in plot.channels():
        GL.glColor3f(*color)
        GL.glBegin(GL.GL_LINE_STRIP)
        for t, v in trace:
            if t >= t0 and math.isfinite(v):
                GL.glVertex2f(*to_screen(t, min(max(v, lo), hi)))
        GL.glEnd()
    draw_text_window(x + 2, y + 2, '%.3g' % hi, 10, (0, 0, 0, 1), H)
    draw_text_window(x + 2, y + h - 14, '%.3g' % lo, 10, (0, 0, 0, 1), H)
    ty = y + 2
    for label, color, _ in plot.channels():
        draw_text_window(x + w + 4, ty, label, 10, list(color) + [1.0], H)
        ty += 13


def draw_screen(scene, view):
    """Plots (stacked under the console position), then text: the console
    from (20, 20) with 1.5 x size line spacing, or at 2D positions."""
    GL = gl()
    H = _window_height(view)
    set_screen_projection(view.w, view.h)
    GL.glDisable(GL.GL_LIGHTING)
    GL.glDisable(GL.GL_DEPTH_TEST)
    cx, cy = 20, 20
    for app in list(scene.items.values()):
        if isinstance(app.item, VisPlot) and not app.attributes['hidden']:
            w, h = app.attributes['size']
            pos = app.attributes['position']
            if pos is None:
                _draw_plot(app.item, app.attributes, cx, cy, w, h, H)
                cy += h + 18
            else:
                px, py = pos[0] + (view.w if pos[0] < 0 else 0), pos[1] + (view.h if pos[1] < 0 else 0)
                _draw_plot(app.item, app.attributes, px, py, w, h, H)
    for app in list(scene.items.values()):
        if isinstance(app.item, str) and not app.attributes['hidden']:
            pos = app.attributes['position']
            color = app.attributes['color']
            size = app.attributes['size']
            if pos is None:
                draw_text_at(view, (cx, cy), app.item, size, color)
                cy += size * 1.5
            elif len(pos) == 2:
                draw_text_at(view, pos, app.item, size, color)
    GL.glEnable(GL.GL_DEPTH_TEST)
