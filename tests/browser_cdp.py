"""Headless Chromium driven over the DevTools protocol, for pages that fill
in after they load (a viser client receives its scene over a websocket):
:func:`screenshot_when` loads a URL and takes screenshots until one
satisfies a condition, in real time (``--virtual-time-budget`` does not
wait for websocket messages)."""
import base64
import io
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request

import numpy as np


def _devtools_port(profile, process, timeout):
    path = os.path.join(profile, 'DevToolsActivePort')
    end = time.time() + timeout
    while time.time() < end:
        if process.poll() is not None:
            raise RuntimeError('Chromium exited with %s' % process.returncode)
        if os.path.exists(path):
            with open(path) as f:
                lines = f.read().split()
            if lines:
                return int(lines[0])
        time.sleep(0.1)
    raise TimeoutError('Chromium opened no DevTools port')


class _Page:
    def __init__(self, url):
        from websockets.sync.client import connect
        self.ws = connect(url, max_size=None)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({'id': self.next_id, 'method': method, 'params': params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get('id') == self.next_id:
                if 'error' in message:
                    raise RuntimeError('%s: %s' % (method, message['error']))
                return message['result']


def screenshot_when(chromium, url, size, condition, timeout=60.0, period=0.5):
    """The first screenshot (H x W x 3 uint8) of ``url`` in a ``size`` =
    (width, height) window for which ``condition(img)`` holds; the last one
    taken if none does within ``timeout`` seconds."""
    from PIL import Image
    profile = tempfile.mkdtemp(prefix='klampt-chromium-')
    process = subprocess.Popen([chromium, '--no-sandbox', '--headless', '--use-angle=swiftshader',
                                '--enable-unsafe-swiftshader', '--hide-scrollbars',
                                '--window-size=%d,%d' % tuple(size), '--remote-debugging-port=0',
                                '--user-data-dir=' + profile, url],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        port = _devtools_port(profile, process, 30.0)
        with urllib.request.urlopen('http://127.0.0.1:%d/json/list' % port, timeout=10) as r:
            targets = json.load(r)
        page = _Page(next(t for t in targets if t['type'] == 'page')['webSocketDebuggerUrl'])
        end = time.time() + timeout
        img = None
        while True:
            try:
                data = base64.b64decode(page.call('Page.captureScreenshot', format='png')['data'])
            except RuntimeError:  # the page is not ready yet
                if time.time() > end:
                    raise
            else:
                img = np.asarray(Image.open(io.BytesIO(data)).convert('RGB'))
                if condition(img) or time.time() > end:
                    return img
            time.sleep(period)
    finally:
        # the browser's own processes too: `chromium` is often a shell script that starts them
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        shutil.rmtree(profile, ignore_errors=True)
