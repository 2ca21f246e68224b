"""A browser's side of a viser server, for the viser backend's tests: a
websocket client speaking viser's wire protocol (frames of zstd-compressed
msgpack followed by raw binary buffers, as `viser.infra` documents them),
which records the messages the server sends and can send GUI updates as
the web client does when a control is used."""
import time

import msgspec
import numpy as np
import zstandard


def decode_frame(frame):
    """The messages of one server frame, numpy arrays in place of the
    placeholders of the binary buffers that follow the msgpack payload
    (each aligned to 8 bytes)."""
    size = int.from_bytes(frame[0:8], 'little')
    compressed = int.from_bytes(frame[8:16], 'little')
    inner = zstandard.ZstdDecompressor().decompress(frame[16:16 + compressed], max_output_size=size)
    payload = msgspec.msgpack.decode(inner)
    buffers = []
    offset = 16 + compressed
    for length in payload['binaryBufferLengths']:
        offset += (8 - offset % 8) % 8
        buffers.append(frame[offset:offset + length])
        offset += length

    def resolve(value):
        if isinstance(value, dict):
            if '__binary_index' in value and 'dtype' in value:
                return np.frombuffer(buffers[value['__binary_index']], dtype=np.dtype(value['dtype']))
            return {k: resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v) for v in value]
        return value
    return [resolve(m) for m in payload['messages']]


class ViserClient:
    """A connected client; ``messages`` grows as frames arrive."""

    def __init__(self, port):
        import viser
        import websockets.sync.client
        self.ws = websockets.sync.client.connect('ws://127.0.0.1:%d' % port,
                                                 subprotocols=['viser-v' + viser.__version__], max_size=None)
        self.messages = []
        # the web client reports its camera first; the server registers the
        # client (and runs GUI callbacks for it) from then on
        self.ws.send(msgspec.msgpack.encode({
            'type': 'ViewerCameraMessage', 'wxyz': [1.0, 0.0, 0.0, 0.0], 'position': [0.0, -6.0, 0.0], 'fov': 0.8,
            'near': 0.01, 'far': 100.0, 'image_height': 480, 'image_width': 640, 'look_at': [0.0, 0.0, 0.0],
            'up_direction': [0.0, 0.0, 1.0]}))

    def close(self):
        """Disconnects."""
        self.ws.close()

    def receive(self, seconds):
        """Records what arrives during ``seconds``."""
        end = time.time() + seconds
        while time.time() < end:
            try:
                frame = self.ws.recv(timeout=max(0.01, min(0.2, end - time.time())))
            except TimeoutError:
                continue
            self.messages += decode_frame(frame)

    def wait_for(self, predicate, timeout=10.0):
        """Receives until ``predicate(messages)`` is true; returns its value."""
        end = time.time() + timeout
        while time.time() < end:
            value = predicate(self.messages)
            if value:
                return value
            self.receive(0.1)
        raise AssertionError("the viser server did not send what was expected within %g s" % timeout)

    def of_type(self, kind):
        """The received messages of a type ('MeshMessage', ...)."""
        return [m for m in self.messages if m['type'] == kind]

    def poses(self):
        """{node path: (wxyz, position)} as last set (a node starts at the
        identity, which viser does not send)."""
        out = {}
        for m in self.messages:
            if 'props' in m and 'name' in m:
                out[m['name']] = [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
            elif m['type'] == 'SetOrientationMessage':
                out.setdefault(m['name'], [None, None])[0] = m['wxyz']
            elif m['type'] == 'SetPositionMessage':
                out.setdefault(m['name'], [None, None])[1] = m['position']
        return out

    def gui_uuid(self, label):
        """The uuid of the GUI control labelled ``label`` (the newest, when
        the panel was re-made)."""
        found = None
        for m in self.messages:
            if m['type'].startswith('Gui') and m.get('props', {}).get('label') == label:
                found = m['uuid']
        return found

    def set_gui(self, label, value):
        """Sets a control's value as the web client does (a button press is
        ``value=True``)."""
        uuid = self.gui_uuid(label)
        assert uuid is not None, "no GUI control %r" % label
        self.ws.send(msgspec.msgpack.encode({'type': 'GuiUpdateMessage', 'uuid': uuid, 'updates': {'value': value}}))
