"""The JSON GUI widgets and the actions of a window as a panel in its top
right corner, for the GL windows: the layout (one row per control, in
window pixels), what a click, a drag or a key does to the widgets' states
(firing their callbacks), and nothing of OpenGL (the panel is drawn by
:mod:`klampt.vis._render.panel`).

Controls: a header that folds the panel; buttons (actions show their
key); checkboxes; sliders (click or drag on the track); selections (a
click shows the next option, the '<' end the previous; multiple
selections have a checkbox per option); text and number inputs (a click
edits, Enter commits, Escape cancels)."""
from dataclasses import dataclass, field

from ._scene import global_lock

PANEL_WIDTH = 230
ROW_HEIGHT = 24
MARGIN = 10
ARROW_WIDTH = 22


@dataclass
class Row:
    """One control of the panel: its rectangle (x, y, w, h) in window
    pixels, y down, and what it stands for."""
    kind: str  # 'header', 'action', 'button', 'checkbox', 'slider', 'select', 'option', 'input', 'label'
    rect: tuple
    text: str
    id: object = None  # widget id, or the action's index
    option: object = None  # the option of an 'option' row
    value: object = None  # checked, slider fraction, current text
    extra: dict = field(default_factory=dict)

    def contains(self, x, y):
        """Whether window pixel (x, y) is in the row."""
        rx, ry, rw, rh = self.rect
        return rx <= x < rx + rw and ry <= y < ry + rh


class GuiPanel:
    """The panel of one Window: layout and input handling.

    Attributes:
        window (Window): whose ``widgets`` and ``actions`` are shown.
        folded (bool or None): folded by the user; None until the first
            layout (then folded when there are only actions).
        focus: the id of the input being edited, or None.
        edit_text (str): the text being typed into it.
        dragging: the id of the slider being dragged, or None.
    """

    def __init__(self, window):
        self.window = window
        self.folded = None
        self.focus = None
        self.edit_text = ''
        self.dragging = None

    def visible(self):
        """Whether there is anything to show."""
        return bool(self.window.widgets or self.window.actions)

    def rows(self, width):
        """The rows for a window ``width`` pixels wide (none when empty)."""
        window = self.window
        if not self.visible():
            return []
        if self.folded is None:
            self.folded = not window.widgets
        x = width - PANEL_WIDTH - MARGIN
        y = MARGIN
        w = PANEL_WIDTH
        out = [Row('header', (x, y, w, ROW_HEIGHT), 'Controls', value=self.folded)]
        y += ROW_HEIGHT
        if self.folded:
            return out

        def add(row):
            nonlocal y
            out.append(row)
            y += ROW_HEIGHT
        for i, (hook, short, key, desc) in enumerate(list(window.actions)):
            add(Row('action', (x, y, w, ROW_HEIGHT), short if key is None else '%s  [%s]' % (short, key), id=i))
        for wid, widget in list(window.widgets.items()):
            kind = widget.get('type')
            text = str(widget.get('text', wid))
            state = widget.get('state')
            if kind == 'button':
                add(Row('button', (x, y, w, ROW_HEIGHT), text, id=wid))
            elif kind == 'checkbox':
                add(Row('checkbox', (x, y, w, ROW_HEIGHT), text, id=wid, value=bool(state)))
            elif kind == 'slider':
                lo, hi = float(widget.get('min', 0.0)), float(widget.get('max', 1.0))
                v = float(state if state is not None else lo)
                fraction = 0.0 if hi <= lo else min(1.0, max(0.0, (v - lo) / (hi - lo)))
                add(Row('slider', (x, y, w, ROW_HEIGHT), '%s  %.3g' % (text, v), id=wid, value=fraction))
            elif kind == 'select' and widget.get('multiple'):
                add(Row('label', (x, y, w, ROW_HEIGHT), text, id=wid))
                for option in widget.get('options', []):
                    add(Row('option', (x, y, w, ROW_HEIGHT), str(option), id=wid, option=option,
                            value=option in (state or [])))
            elif kind == 'select':
                add(Row('select', (x, y, w, ROW_HEIGHT), '%s: %s' % (text, state), id=wid))
            else:  # 'text' and 'number' inputs
                editing = self.focus == wid
                shown = self.edit_text if editing else str('' if state is None else state)
                add(Row('input', (x, y, w, ROW_HEIGHT), text, id=wid, value=shown, extra={'editing': editing}))
        return out

    def contains(self, x, y, width):
        """Whether window pixel (x, y) is on the panel."""
        return any(r.contains(x, y) for r in self.rows(width))

    # -- input
    def press(self, x, y, width):
        """A left-button press at (x, y); True if the panel took it."""
        hit = next((r for r in self.rows(width) if r.contains(x, y)), None)
        if self.focus is not None and (hit is None or hit.id != self.focus):
            self.commit()
        if hit is None:
            return False
        if hit.kind == 'header':
            self.folded = not self.folded
        elif hit.kind == 'action':
            hook = self.window.actions[hit.id][0]
            with global_lock:
                hook()
        elif hit.kind == 'button':
            self.window.set_widget_state(hit.id, None)
        elif hit.kind == 'checkbox':
            self.window.set_widget_state(hit.id, not hit.value)
        elif hit.kind == 'slider':
            self.dragging = hit.id
            self.drag(x, y, width)
        elif hit.kind == 'select':
            options = list(self.window.widgets[hit.id].get('options', []))
            if options:
                state = self.window.widgets[hit.id].get('state')
                i = options.index(state) if state in options else -1
                step = -1 if x < hit.rect[0] + ARROW_WIDTH else 1
                self.window.set_widget_state(hit.id, options[(i + step) % len(options)])
        elif hit.kind == 'option':
            widget = self.window.widgets[hit.id]
            chosen = set(widget.get('state') or [])
            chosen.symmetric_difference_update([hit.option])
            self.window.set_widget_state(hit.id, [o for o in widget.get('options', []) if o in chosen])
        elif hit.kind == 'input' and self.focus != hit.id:
            self.focus = hit.id
            state = self.window.widgets[hit.id].get('state')
            self.edit_text = '' if state is None else str(state)
        self.window.refresh()
        return True

    def release(self):
        """The left button was released; True if the panel had the drag."""
        if self.dragging is None:
            return False
        self.dragging = None
        return True

    def drag(self, x, y, width):
        """Motion while a slider is dragged: sets its value from x."""
        if self.dragging is None or self.dragging not in self.window.widgets:
            self.dragging = None
            return False
        widget = self.window.widgets[self.dragging]
        row = next(r for r in self.rows(width) if r.id == self.dragging)
        tx, tw = slider_track(row)
        fraction = min(1.0, max(0.0, (x - tx) / float(tw)))
        lo, hi = float(widget.get('min', 0.0)), float(widget.get('max', 1.0))
        value = lo + fraction * (hi - lo)
        if value != widget.get('state'):
            self.window.set_widget_state(self.dragging, value)
        self.window.refresh()
        return True

    def key(self, name):
        """A key while an input is edited ('enter', 'escape', '\\b' or a
        character); True if the panel took it."""
        if self.focus is None:
            return False
        if name == 'enter':
            self.commit()
        elif name == 'escape':
            self.focus = None
        elif name == '\b':
            self.edit_text = self.edit_text[:-1]
        elif len(name) == 1 and name.isprintable():
            self.edit_text += name
        self.window.refresh()
        return True

    def commit(self):
        """Ends editing: the typed text becomes the input's state (a number
        input keeps its old state when the text is not a number)."""
        wid, self.focus = self.focus, None
        if wid is None or wid not in self.window.widgets:
            return
        widget = self.window.widgets[wid]
        value = self.edit_text
        if widget.get('type') == 'number':
            try:
                value = int(value) if isinstance(widget.get('state'), int) else float(value)
            except ValueError:
                return
        if value != widget.get('state'):
            self.window.set_widget_state(wid, value)


def slider_track(row):
    """(x, width) of a slider row's track: its right half."""
    x, y, w, h = row.rect
    return x + w // 2, w // 2 - 8
