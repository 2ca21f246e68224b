"""Robot interfaces over a network: a server steps an interface at its
control rate and executes the commands its clients send; a client is an
asynchronous interface whose queries return the server's latest state.

:class:`XMLRPCRobotInterfaceServer` / :class:`XMLRPCRobotInterfaceClient`
implement it with XML-RPC::

    # on the robot's computer
    XMLRPCRobotInterfaceServer(interface, '127.0.0.1', 7881).serve()
    # anywhere
    client = XMLRPCRobotInterfaceClient('127.0.0.1:7881')
    client.initialize()
    client.moveToPosition(q)
    client.wait()

Subclass :class:`ServerRobotInterfaceBase` and
:class:`ClientRobotInterfaceBase` for other transports.
"""
import builtins
import logging
import threading
import warnings
import xmlrpc.client
from xmlrpc.server import SimpleXMLRPCServer

from . import _checks
from ._remote import ROOT_KEY, _RemoteRoot, _Runner
from .robotinterface import RobotInterfaceBase
from .utils import TimedLooper


def _encode_results(results):
    """Command results with exceptions as [class name, message]."""
    out = []
    for seq, ok, value in results:
        if not ok:
            value = [value.__class__.__name__, str(value)]
        out.append([seq, ok, _checks.to_plain(value)])
    return out


def _decode_results(results):
    out = []
    for seq, ok, value in results:
        if not ok:
            cls = getattr(builtins, value[0], None)
            if not (isinstance(cls, type) and issubclass(cls, Exception)):
                cls = RuntimeError
            value = cls(value[1])
        out.append((seq, ok, value))
    return out


class ServerRobotInterfaceBase(object):
    """Serves an interface: :meth:`startController` runs a thread stepping
    it at its control rate, executing the commands delivered by
    :meth:`updateSettingsAndCommands_impl`.  Subclasses add a transport
    calling :meth:`getInitialData_impl` and
    :meth:`updateSettingsAndCommands_impl` for their clients.

    Args:
        interface (RobotInterfaceBase): the interface served.
    """

    def __init__(self, interface: RobotInterfaceBase):
        if not isinstance(interface, RobotInterfaceBase):
            raise ValueError("ServerRobotInterfaceBase needs a RobotInterfaceBase")
        self.interface = interface
        self._runner = _Runner(interface)
        self._lock = threading.Lock()
        self._structure = None
        self._state = None
        self._commands = []
        self._results = []
        self._thread = None
        self._stop = threading.Event()
        self._initialized = False
        self._closed = False

    def initialize(self):
        """Initializes the interface; False (with a warning) on failure."""
        if self._initialized:
            raise RuntimeError("%s.initialize() can only be called once" % self.__class__.__name__)
        try:
            self._structure, self._state = self._runner.start()
        except Exception as e:
            warnings.warn("Could not initialize %s: %s" % (self.interface, e), RuntimeWarning)
            return False
        self._initialized = True
        return True

    def startController(self):
        """Starts the thread stepping the interface."""
        if not self._initialized:
            raise RuntimeError("initialize() the server first")
        if self._thread is not None:
            raise RuntimeError("The controller thread is already running")
        self._thread = threading.Thread(target=self._advance, name='RIL server', daemon=True)
        self._thread.start()

    def _advance(self):
        looper = TimedLooper(1.0 / self._structure['controlRate'], warning_printer=self.log, name='RIL server')
        while looper and not self._stop.is_set():
            with self._lock:
                cmds, self._commands = self._commands, []
            try:
                results, state = self._runner.step(cmds)
            except Exception as e:
                self.log("RIL server: the interface failed: %s" % e)
                with self._lock:
                    self._state[ROOT_KEY]['status'] = 'server error'
                return
            with self._lock:
                self._results += results
                self._state = state

    def getInitialData_impl(self):
        """(properties, structure, settings, state) for a new client."""
        if not self._initialized:
            raise RuntimeError("The server is not initialized")
        with self._lock:
            return (self._structure['properties'], self._structure, {}, self._state)

    def updateSettingsAndCommands_impl(self, delta_settings, commands):
        """Queues a client's commands ([seq, part, method, args, kwargs],
        part '__' for the robot) and setting changes; returns the latest
        state and the results of the commands executed since the last
        call."""
        with self._lock:
            for name, value in (delta_settings or {}).items():
                self._commands.append((None, None, 'setSetting', [name, value], {}))
            for seq, part, method, args, kwargs in commands:
                self._commands.append((seq, None if part == ROOT_KEY else part, method, list(args), dict(kwargs)))
            results = [r for r in self._results if r[0] is not None]
            self._results = []
            return {'state': self._state, 'results': results}

    def stop(self):
        """Soft-stops the robot (e.g. when the clients are gone)."""
        with self._lock:
            self._commands.append((None, None, 'softStop', [], {}))

    def close(self):
        """Stops the controller thread and closes the interface."""
        if self._closed:
            raise RuntimeError("%s.close() called twice" % self.__class__.__name__)
        self._closed = True
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._initialized:
            self._runner.close()
        return True

    def log(self, err):
        """Reports an error (to the logging module); override to redirect."""
        logging.getLogger(__name__).warning("%s", err)


class XMLRPCRobotInterfaceServer(ServerRobotInterfaceBase):
    """An XML-RPC server of a robot interface.

    Args:
        interface (RobotInterfaceBase): the interface served.
        ip (str): the address to listen on, e.g. '127.0.0.1'.
        port (int): the port (0: chosen by the system, see ``self.port``).
    """

    def __init__(self, interface: RobotInterfaceBase, ip: str, port=7881):
        ServerRobotInterfaceBase.__init__(self, interface)
        self.ip = ip
        self.server = SimpleXMLRPCServer((ip, port), logRequests=False, allow_none=True)
        self.port = self.server.server_address[1]
        self.server.register_function(self._wrap(self.getInitialData), 'getInitialData')
        self.server.register_function(self._wrap(self.updateSettingsAndCommands), 'updateSettingsAndCommands')
        self._serving = False
        self._closing = False
        self._closeDone = threading.Event()

    def _wrap(self, func):
        def wrapper(*args):
            try:
                return func(*args)
            except Exception as e:
                self.log("RIL server: %s failed: %s" % (func.__name__, e))
                raise
        wrapper.__name__ = func.__name__
        return wrapper

    def serve(self):
        """Initializes the interface if needed, starts the controller and
        serves clients until :meth:`close` (or Ctrl-C); then closes."""
        if not self._initialized and not self.initialize():
            raise RuntimeError("The served interface %s could not be initialized" % self.interface)
        self.startController()
        self._serving = True
        try:
            self.server.serve_forever(poll_interval=0.05)
        finally:
            self._serving = False
            if not self._closing:
                self.close()
            # closed from another thread: return once it is done
            self._closeDone.wait()

    def close(self):
        """Stops serving and closes the interface (from any thread); a
        second close raises RuntimeError.

        Returns True (the reference's disconnect returns None, so close()
        returned False) and works from another thread."""
        if self._closing:
            raise RuntimeError("%s.close() called twice" % self.__class__.__name__)
        self._closing = True
        try:
            if self._serving:
                self.server.shutdown()
            res = ServerRobotInterfaceBase.close(self)
            self.server.server_close()
        finally:
            self._closeDone.set()
        return res

    def getInitialData(self):
        """XML-RPC method: [properties, structure, settings, state] for a new client."""
        props, structure, settings, state = self.getInitialData_impl()
        return [props, structure, settings, state]

    def updateSettingsAndCommands(self, delta_settings, commands):
        """XML-RPC method: queues a client's commands and setting changes; returns
        {'state': latest state, 'results': encoded results of executed commands}."""
        res = self.updateSettingsAndCommands_impl(delta_settings, commands)
        return {'state': res['state'], 'results': _encode_results(res['results'])}


class ClientRobotInterfaceBase(_RemoteRoot):
    """An asynchronous interface to a server.  Subclasses implement
    :meth:`connect`, :meth:`disconnect`, :meth:`getInitialData` and
    :meth:`updateSettingsAndCommands`; a thread exchanges the queued
    commands for the server's state at the control rate.  A failed
    exchange makes the status 'disconnected'; :meth:`reset` reconnects."""

    def __init__(self):
        _RemoteRoot.__init__(self, {})
        self.properties['asynchronous'] = True
        self._thread = None
        self._stopEvent = threading.Event()
        self._disconnected = False

    def connect(self) -> bool:
        """Opens the connection to the server; True on success."""
        raise NotImplementedError("connect() is implemented by the subclasses")

    def disconnect(self) -> bool:
        """Closes the connection to the server; True on success."""
        raise NotImplementedError("disconnect() is implemented by the subclasses")

    def getInitialData(self):
        """(properties, structure, settings, state) from the server."""
        raise NotImplementedError("getInitialData() is implemented by the subclasses")

    def updateSettingsAndCommands(self, delta_settings, commands):
        """Sends commands; returns {'state': ..., 'results': ...}."""
        raise NotImplementedError("updateSettingsAndCommands() is implemented by the subclasses")

    def initialize(self):
        """Connects and reads the robot's structure; False (with a
        warning) if the server cannot be reached.

        The reference calls input() when it cannot load the model, hanging
        unattended runs."""
        if self._closed:
            raise RuntimeError("%s was closed" % self)
        if self._thread is not None:
            raise RuntimeError("%s.initialize() can only be called once" % self)
        if not self._connectAndRead():
            return False
        if self.klamptModel() is None:
            warnings.warn("%s: the robot's Klamp't model %s could not be loaded; Cartesian queries are unavailable"
                          % (self, self.properties.get('klamptModelFile')), RuntimeWarning)
        self._thread = threading.Thread(target=self._exchangeLoop, name=str(self), daemon=True)
        self._thread.start()
        return True

    def _connectAndRead(self):
        try:
            if not self.connect():
                warnings.warn("%s: could not connect" % self, RuntimeWarning)
                return False
            properties, structure, settings, state = self.getInitialData()
        except Exception as e:
            warnings.warn("%s: could not connect: %s" % (self, e), RuntimeWarning)
            return False
        self.properties.update(properties)
        self.properties['asynchronous'] = True
        self._setStructure(structure, state)
        self._disconnected = False
        return True

    def _exchangeLoop(self):
        looper = TimedLooper(1.0 / self._structure['controlRate'], warning_printer=lambda msg: None)
        while looper and not self._stopEvent.is_set():
            if self._disconnected:
                continue
            cmds = self._takeCommands()
            try:
                res = self.updateSettingsAndCommands({}, [[seq, ROOT_KEY if part is None else part, method, args,
                                                           kwargs] for seq, part, method, args, kwargs in cmds])
            except Exception as e:
                logging.getLogger(__name__).warning("%s: exchange failed: %s", self, e)
                self._disconnected = True
                self._fail(RuntimeError("disconnected: %s" % e))
                continue
            self._deliver(_decode_results(res['results']), res['state'])

    def status(self, joint_idx=None):
        if self._disconnected:
            return 'disconnected'
        return _RemoteRoot.status(self, joint_idx)

    def reset(self):
        """Reconnects after a disconnection (True on success), else asks
        the server's interface to reset (a Promise).

        The reference cannot reconnect."""
        if self._disconnected:
            self._failure = None
            return self._connectAndRead()
        return _RemoteRoot.reset(self)

    def close(self):
        """Stops exchanging and disconnects; does nothing before
        initialize(); a second close raises RuntimeError."""
        if self._closed:
            raise RuntimeError("%s.close() called twice" % self)
        self._closed = True
        if self._thread is None:
            return True
        self._stopEvent.set()
        self._thread.join()
        self._structure = None
        return self.disconnect() is not False


class _TimeoutTransport(xmlrpc.client.Transport):
    """An XML-RPC transport whose connections time out."""

    def __init__(self, timeout):
        xmlrpc.client.Transport.__init__(self)
        self.timeout = timeout

    def make_connection(self, host):
        conn = xmlrpc.client.Transport.make_connection(self, host)
        conn.timeout = self.timeout
        return conn


class XMLRPCRobotInterfaceClient(ClientRobotInterfaceBase):
    """An XML-RPC client of an :class:`XMLRPCRobotInterfaceServer`.

    Args:
        addr (str): 'host:port' or 'http://host:port' (use 127.0.0.1
            rather than localhost on Windows).
        timeout (float): seconds before a call to the server fails.
    """

    def __init__(self, addr='http://127.0.0.1:7881', timeout=5.0):
        ClientRobotInterfaceBase.__init__(self)
        if not addr.startswith('http'):
            addr = 'http://' + addr
        self.addr = addr
        self.timeout = timeout
        self.s = None

    def __str__(self):
        return "XMLRPCRobotInterfaceClient(%s)" % self.addr

    def connect(self) -> bool:
        self.s = xmlrpc.client.ServerProxy(self.addr, transport=_TimeoutTransport(self.timeout), allow_none=True)
        return True

    def disconnect(self) -> bool:
        if self.s is not None:
            self.s('close')()
            self.s = None
        return True

    def getInitialData(self):
        props, structure, settings, state = self.s.getInitialData()
        return props, structure, settings, state

    def updateSettingsAndCommands(self, delta_settings, commands):
        return self.s.updateSettingsAndCommands(delta_settings, commands)
