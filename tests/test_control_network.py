"""klampt.control.networkrobotinterface: an XML-RPC server serving the
simulated tx90l in another process, and a client here that moves the
robot and reads its state (acceptance criterion 11, T13)."""
import os
import subprocess
import sys
import warnings

import pytest

from conftest import SHARED_DATA, require_shared_data
from control_helpers import MOVE_TIME, TARGET, TOL

from klampt.control.networkrobotinterface import XMLRPCRobotInterfaceClient

SERVER = r"""
import sys, threading, warnings
warnings.simplefilter('ignore')
import klampt
from klampt.control.networkrobotinterface import XMLRPCRobotInterfaceServer
from klampt.control.robotinterfaceutils import RobotInterfaceCompleter
from klampt.control.simrobotinterface import SimPositionControlInterface
w = klampt.WorldModel()
assert w.readFile(sys.argv[1])
sim = klampt.Simulator(w)
server = XMLRPCRobotInterfaceServer(RobotInterfaceCompleter(SimPositionControlInterface(sim.controller(0), sim)),
                                    '127.0.0.1', 0)
print(server.port, flush=True)
# the test closes stdin to stop the server
threading.Thread(target=lambda: (sys.stdin.read(), server.close()), daemon=True).start()
server.serve()
print('closed', flush=True)
"""


@pytest.fixture
def server():
    require_shared_data()
    proc = subprocess.Popen([sys.executable, '-c', SERVER, os.path.join(SHARED_DATA, 'robots', 'tx90l.rob')],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.stdin.close()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_xmlrpc_client_moves_the_robot_served_by_another_process(server):
    port, proc = server
    client = XMLRPCRobotInterfaceClient('127.0.0.1:%d' % port)
    with warnings.catch_warnings():
        # the served robot has no model file the client could load
        warnings.simplefilter('ignore')
        assert client.initialize()
    assert client.properties['asynchronous']
    assert client.numJoints() == 6 and client.controlRate() == 100.0
    assert client.status() == 'ok'
    assert client.sensedPosition() == pytest.approx([0.0] * 6, abs=0.02)
    t0 = client.clock()
    promise = client.moveToPosition(TARGET)
    waited = client.wait(timeout=20)
    # the server steps at its control rate on real time: at least the move
    assert waited >= MOVE_TIME - 0.05
    assert promise.available() and promise.value() is None
    assert client.clock() - t0 >= MOVE_TIME
    assert not client.isMoving()
    assert client.commandedPosition() == pytest.approx(TARGET, abs=1e-9)
    # sensed catches up after the move
    p = client.setPosition(TARGET)
    p.wait(timeout=5)
    client.wait(timeout=5, condition=lambda: client.clock() - t0 > MOVE_TIME + 1.0)
    sensed = client.sensedPosition()
    assert all(abs(a - b) <= tol for a, b, tol in zip(sensed, TARGET, TOL))
    with pytest.raises(ValueError, match="6 entries"):
        client.setPosition([0.0] * 5)
    with pytest.raises(KeyError):
        client.partInterface('no such part')
    assert client.close()
    with pytest.raises(RuntimeError, match="twice"):
        client.close()
    proc.stdin.close()
    assert proc.wait(timeout=20) == 0
    assert proc.stdout.read().strip() == 'closed'


def test_client_without_server_fails_to_initialize():
    client = XMLRPCRobotInterfaceClient('127.0.0.1:9', timeout=1.0)
    with pytest.warns(RuntimeWarning, match="could not connect"):
        assert not client.initialize()
    assert client.close()
