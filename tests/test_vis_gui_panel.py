"""The GL windows' GUI panel without a display (klampt.vis._panel_layout): the
rows follow the widgets and actions in order at the documented geometry,
clicks set states and fire callbacks as the JSON GUI defines them, typing
edits inputs (Escape cancels, a number input ignores text that is not a
number), multiple selections toggle per option, the header folds."""
import pytest

from klampt import vis
from klampt.vis import _panel_layout as layout
from klampt.vis import visualization


@pytest.fixture
def window():
    vis.kill()
    vis.init('null')
    vis.createWindow('panel')
    yield visualization._manager.window
    vis.kill()


def _centre(row):
    x, y, w, h = row.rect
    return x + w // 2, y + h // 2


def _row(panel, wid, width=640):
    return next(r for r in panel.rows(width) if r.id == wid)


def test_rows_and_clicks(window):
    calls = []
    panel = layout.GuiPanel(window)
    assert panel.rows(640) == [] and not panel.contains(600, 20, 640)
    vis.addAction(lambda: calls.append('action'), 'Go', 'g')
    assert [r.kind for r in panel.rows(640)] == ['header']  # only actions: folded at first
    panel.press(*_centre(panel.rows(640)[0]), 640)
    assert [r.kind for r in panel.rows(640)] == ['header', 'action']
    vis.addButton('B', lambda: calls.append('button'))
    vis.addCheckbox('C', lambda s: calls.append(('C', s)), value=True)
    vis.addSlider('S', 1.0, -1.0, 3.0, lambda s: calls.append(('S', s)))
    vis.addSelect('M', ['x', 'y', 'z'], lambda s: calls.append(('M', s)), value='z')
    vis.addSelect('P', ['p', 'q'], lambda s: calls.append(('P', s)), multiple=True)
    vis.addInput('T', 'abc', lambda s: calls.append(('T', s)))
    vis.addInput('N', 2.5, lambda s: calls.append(('N', s)))
    rows = panel.rows(800)
    assert [r.kind for r in rows] == ['header', 'action', 'button', 'checkbox', 'slider', 'select', 'label', 'option',
                                      'option', 'input', 'input']
    for i, r in enumerate(rows):
        assert r.rect == (800 - layout.MARGIN - layout.PANEL_WIDTH, layout.MARGIN + i * layout.ROW_HEIGHT,
                          layout.PANEL_WIDTH, layout.ROW_HEIGHT)
    assert _row(panel, 'S').value == pytest.approx(0.5)  # 1.0 is half way from -1 to 3
    assert not panel.press(10, 300, 640)  # off the panel: not taken

    panel.press(*_centre(_row(panel, 0)), 640)
    panel.press(*_centre(_row(panel, 'B')), 640)
    panel.press(*_centre(_row(panel, 'C')), 640)
    assert vis.getWidgetState('C') is False
    tx, tw = layout.slider_track(_row(panel, 'S'))
    y = _centre(_row(panel, 'S'))[1]
    panel.press(tx + tw // 4, y, 640)  # a press on the track sets the value, a drag follows
    assert vis.getWidgetState('S') == pytest.approx(-1.0 + 4.0 * (tw // 4) / tw, abs=1e-9)
    panel.drag(tx + tw * 2, y, 640)  # past the end: clamped
    assert vis.getWidgetState('S') == 3.0
    assert panel.release() and not panel.release()
    assert not panel.drag(tx, y, 640)  # no drag after the release
    panel.press(*_centre(_row(panel, 'M')), 640)  # next option wraps around
    assert vis.getWidgetState('M') == 'x'
    panel.press(_row(panel, 'M').rect[0] + 5, _centre(_row(panel, 'M'))[1], 640)  # the '<' end
    assert vis.getWidgetState('M') == 'z'
    options = [r for r in panel.rows(640) if r.kind == 'option']
    panel.press(*_centre(options[1]), 640)
    panel.press(*_centre(options[0]), 640)
    assert vis.getWidgetState('P') == ['p', 'q']
    panel.press(*_centre(options[1]), 640)
    assert vis.getWidgetState('P') == ['p']
    assert calls[:5] == ['action', 'button', ('C', False), ('S', calls[3][1]), ('S', 3.0)]
    assert [c for c in calls if c[0] == 'M'] == [('M', 'x'), ('M', 'z')]
    assert [c for c in calls if c[0] == 'P'] == [('P', ['q']), ('P', ['p', 'q']), ('P', ['p'])]


def test_inputs_edit_commit_and_cancel(window):
    calls = []
    vis.addInput('T', 'abc', lambda s: calls.append(('T', s)))
    vis.addInput('N', 2.5, lambda s: calls.append(('N', s)))
    vis.addInput('I', 4, lambda s: calls.append(('I', s)))
    panel = layout.GuiPanel(window)
    assert not panel.key('x')  # nothing edited: keys go to the window
    panel.press(*_centre(_row(panel, 'T')), 640)
    assert _row(panel, 'T').extra['editing'] and _row(panel, 'T').value == 'abc'
    for k in ('\b', 'Z', '!'):
        assert panel.key(k)
    assert vis.getWidgetState('T') == 'abc'  # not before Enter
    panel.key('enter')
    assert vis.getWidgetState('T') == 'abZ!' and calls == [('T', 'abZ!')]
    panel.press(*_centre(_row(panel, 'T')), 640)
    panel.key('q')
    panel.key('escape')
    assert vis.getWidgetState('T') == 'abZ!' and len(calls) == 1
    panel.press(*_centre(_row(panel, 'N')), 640)
    for k in '\b\b\b' + 'x1':
        panel.key(k)
    panel.key('enter')
    assert vis.getWidgetState('N') == 2.5 and len(calls) == 1  # 'x1' is not a number
    panel.press(*_centre(_row(panel, 'N')), 640)
    for k in '\b\b\b' + '-0.75':
        panel.key(k)
    panel.press(*_centre(_row(panel, 'I')), 640)  # clicking another control commits
    assert vis.getWidgetState('N') == -0.75 and calls[-1] == ('N', -0.75)
    for k in '\b12':
        panel.key(k)
    panel.key('enter')
    assert vis.getWidgetState('I') == 12 and isinstance(vis.getWidgetState('I'), int)
