"""Self-contained HTML pages of the web viewer: the viewer's JavaScript and
the scene inlined, no network access (no CDN), optional recorded frames
played back in a loop."""
import html
import json
import os

_VIEWER = None


def viewer_js():
    """The source of ``klampt/vis/web/viewer.js``."""
    global _VIEWER
    if _VIEWER is None:
        path = os.path.join(os.path.dirname(os.path.dirname(__file__)), 'web', 'viewer.js')
        with open(path, encoding='utf-8') as f:
            _VIEWER = f.read()
    return _VIEWER


def _inline_json(value):
    """JSON safe inside a <script> element."""
    return json.dumps(value, separators=(',', ':')).replace('</', '<\\/')


def page(scene_json, frames=None, dt=1.0 / 30.0, width=640, height=480, title="Klamp't visualization"):
    """One HTML document showing the scene (and playing the frames)."""
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>%s</title></head>\n'
            '<body style="margin:0;overflow:hidden;background:#fff">\n<div id="klampt-view"></div>\n'
            '<script>\n%s\n</script>\n<script>\n(function () {\n'
            '  var data = %s;\n  var frames = %s;\n'
            '  var viewer = new KlamptViewer(document.getElementById("klampt-view"), data, '
            '{width: %d, height: %d});\n'
            '  if (frames.length) viewer.play(frames, %r);\n'
            '  window.klamptViewer = viewer;\n})();\n</script>\n</body></html>\n'
            % (html.escape(title), viewer_js(), _inline_json(scene_json), _inline_json(frames or []),
               int(width), int(height), float(dt)))


def iframe(document, width=660, height=500):
    """An <iframe srcdoc> embedding a page (for notebooks)."""
    return '<iframe srcdoc="%s" width="%d" height="%d" style="border:none"></iframe>' % (
        html.escape(document, quote=True), int(width), int(height))
