"""A process whose robot interface drives a Simulator survives a C exit()
called from another thread while the main thread simulates (T18; in the
reference, freeglut's exit(1) on a vis thread crashed in the simulators'
static destructors)."""
import os
import signal
import subprocess
import sys

from conftest import SHARED_DATA, require_shared_data

SCRIPT = r"""
import ctypes, os, sys, threading, warnings
warnings.simplefilter('ignore')
import klampt
from klampt.control.robotinterfaceutils import RobotInterfaceCompleter
from klampt.control.simrobotinterface import SimPositionControlInterface
w = klampt.WorldModel()
assert w.readFile(sys.argv[1])
sim = klampt.Simulator(w)
c = RobotInterfaceCompleter(SimPositionControlInterface(sim.controller(0), sim))
assert c.initialize()
c.beginStep()
c.moveToPosition([0.3, -0.5, 1.0, 0.2, 0.6, -0.4])
c.endStep()
exit_now = ctypes.CDLL(None).exit if sys.argv[2] == 'exit' else os._exit
threading.Timer(0.2, exit_now, args=(1,)).start()
while True:
    c.beginStep()
    c.endStep()
"""


def run(how):
    return subprocess.run([sys.executable, '-c', SCRIPT, os.path.join(SHARED_DATA, 'tx90scenario0.xml'), how],
                          capture_output=True, text=True, timeout=60).returncode


def test_exit_from_another_thread_is_clean():
    require_shared_data()
    assert run('_exit') == 1
    for _ in range(2):
        rc = run('exit')
        assert rc != -signal.SIGSEGV and rc == 1
