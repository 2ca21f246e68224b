"""Robot controllers over a socket with the Klamp't simple serial protocol:
messages are JSON objects, each preceded by its length as 4 little-endian
bytes.

- :class:`JsonSerialController` is a RobotControllerBlock that serves one
  client: each advance() sends the inputs and returns the client's reply.
- :class:`ControllerClient` connects to such a server (or to the Klamp't
  C++ SerialController) and answers each message with a
  RobotControllerBlock's output; run it with :meth:`JsonClient.loop`.

The reference builds on asyncore, removed in Python 3.12; this module uses
selectors.
"""
import json
import logging
import selectors
import socket
import struct

from ..blocks import robotcontroller

headerlen = 4


def packStrlen(s):
    """The 4-byte length header of a message."""
    if len(s) > 0xffffffff:
        raise ValueError("Message too long")
    return struct.pack('<I', len(s))


def unpackStrlen(s):
    """The length encoded in a 4-byte header."""
    if len(s) != headerlen:
        raise ValueError("A length header has %d bytes" % headerlen)
    return struct.unpack('<I', s)[0]


def writeSocket(sock, msg):
    """Sends all of msg (bytes)."""
    sock.sendall(msg)


def readSocket(sock, length):
    """Receives exactly length bytes (IOError if the connection closes)."""
    chunks = []
    while length > 0:
        chunk = sock.recv(length)
        if not chunk:
            raise IOError("socket connection broken")
        chunks.append(chunk)
        length -= len(chunk)
    return b''.join(chunks)


def _frame(obj):
    data = json.dumps(obj).encode('utf-8')
    return packStrlen(data) + data


def _read_message(sock):
    return json.loads(readSocket(sock, unpackStrlen(readSocket(sock, headerlen))).decode('utf-8'))


class JsonClient(object):
    """A socket client exchanging framed JSON messages.  Subclasses
    override :meth:`onMessage` and reply with :meth:`sendMessage`.

    Args:
        addr: a (host, port) pair, or a connected socket.
    """

    def __init__(self, addr):
        if isinstance(addr, socket.socket):
            self.socket = addr
        else:
            self.socket = socket.create_connection(addr)
        self.handle_connect()

    def handle_connect(self):
        """Called once connected; may be overridden."""

    def handle_close(self):
        """Called when the connection closes; may be overridden."""
        self.close()

    def close(self):
        """Closes the socket."""
        if self.socket is not None:
            self.socket.close()
            self.socket = None

    def onMessage(self, msg):
        """Override this to handle an incoming message."""

    def sendMessage(self, msg):
        """Sends a JSON-serializable object."""
        writeSocket(self.socket, _frame(msg))

    def loop(self, timeout=None, count=None):
        """Handles incoming messages until the connection closes (or count
        messages, or timeout seconds without one)."""
        sel = selectors.DefaultSelector()
        sel.register(self.socket, selectors.EVENT_READ)
        handled = 0
        try:
            while self.socket is not None and (count is None or handled < count):
                if not sel.select(timeout):
                    return
                try:
                    msg = _read_message(self.socket)
                except (IOError, OSError):
                    self.handle_close()
                    return
                except ValueError as e:
                    logging.getLogger(__name__).warning("JsonClient: unreadable message: %s", e)
                    continue
                self.onMessage(msg)
                handled += 1
        finally:
            sel.close()


class ControllerClient(JsonClient):
    """Answers each message (a RobotControllerBlock's inputs) with the
    controller's outputs.

    Args:
        addr: a (host, port) pair or a connected socket.
        controller (RobotControllerBlock): the controller.
    """

    def __init__(self, addr, controller):
        self.controller = controller
        JsonClient.__init__(self, addr)

    def handle_connect(self):
        self.controller.signal('enter')

    def onMessage(self, msg):
        try:
            res = self.controller.advance(**msg)
        except Exception as e:
            logging.getLogger(__name__).warning("ControllerClient: the controller failed: %s", e)
            res = {}
        self.sendMessage(res if res is not None else {})


class JsonSerialController(robotcontroller.RobotControllerBlock):
    """A controller that relays its inputs to one client over a socket and
    returns the client's reply (None while no client is connected).

    Args:
        addr: the (host, port) to listen on; port 0 picks a free one (see
            ``self.address``).
        accept_timeout (float): seconds each advance() waits for a client.
    """

    def __init__(self, addr=('localhost', 3456), accept_timeout=0.0):
        robotcontroller.RobotControllerBlock.__init__(self)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(addr)
        self.sock.listen(1)
        self.address = self.sock.getsockname()
        self.accept_timeout = accept_timeout
        self.clientsock = None

    def accept(self):
        """Accepts a client if none is connected."""
        if self.clientsock is not None:
            return
        self.sock.settimeout(self.accept_timeout if self.accept_timeout > 0 else 0.0)
        try:
            sock, addr = self.sock.accept()
        except (BlockingIOError, socket.timeout):
            return
        sock.settimeout(None)
        logging.getLogger(__name__).info("JsonSerialController: connection from %s", addr)
        self.clientsock = sock

    def advance(self, **inputs):
        self.accept()
        if self.clientsock is None:
            return None
        try:
            writeSocket(self.clientsock, _frame(inputs))
            return _read_message(self.clientsock)
        except (IOError, OSError, ValueError) as e:
            logging.getLogger(__name__).warning("JsonSerialController: lost the client: %s", e)
            self.clientsock.close()
            self.clientsock = None
            return None

    def close(self):
        """Closes the sockets."""
        if self.clientsock is not None:
            self.clientsock.close()
            self.clientsock = None
        self.sock.close()


def make(robot):
    """A JsonSerialController on localhost:3456."""
    return JsonSerialController()
