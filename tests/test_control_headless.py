"""klampt.control on a headless machine (T14, acceptance criterion 13): in a
fresh interpreter with klampt.vis, OpenGL and Qt made unimportable and
input() forbidden, every module imports, nothing loads OpenGL, the vis
bridge fails with a clear error, and failing initializations warn instead of
prompting."""
import os
import subprocess
import sys

from conftest import SHARED_DATA, require_shared_data

SCRIPT = r"""
import builtins, importlib, importlib.abc, os, pkgutil, sys, warnings

import importlib.machinery

class BlockedLoader(importlib.abc.Loader):
    def create_module(self, spec):
        raise ImportError("blocked: " + spec.name)

    def exec_module(self, module):
        pass

class Block(importlib.abc.MetaPathFinder):
    # the modules can be found (klampt lists its subpackages) but not loaded
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('OpenGL', 'PyQt5', 'PyQt6', 'PySide2', 'PySide6') or name.startswith('klampt.vis'):
            return importlib.machinery.ModuleSpec(name, BlockedLoader())
        return None
sys.meta_path.insert(0, Block())

def no_input(*args):
    raise AssertionError("input() called")
builtins.input = no_input

import klampt.control
names = [m.name for m in pkgutil.walk_packages(klampt.control.__path__, 'klampt.control.')]
for name in names:
    importlib.import_module(name)
print('modules', len(names))
assert not [m for m in sys.modules if m.startswith(('OpenGL', 'PyQt', 'klampt.vis'))]

import klampt
from klampt.control.interop import RobotInterfacetoVis
from klampt.control.robotinterfaceutils import RobotInterfaceCompleter, ThreadedRobotInterface
from klampt.control.simrobotinterface import KinematicSimControlInterface
from klampt.control.networkrobotinterface import XMLRPCRobotInterfaceClient
w = klampt.WorldModel()
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    assert w.readFile(sys.argv[1])
c = RobotInterfaceCompleter(KinematicSimControlInterface(w.robot(0)))
assert c.initialize()
try:
    c.beginStep()
    RobotInterfacetoVis(c).update()
except RuntimeError as e:
    assert 'klampt.vis' in str(e), e
    print('vis error ok')
finally:
    c.endStep()

class Broken(KinematicSimControlInterface):
    def initialize(self):
        return False
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    t = ThreadedRobotInterface(RobotInterfaceCompleter(Broken(w.robot(0))))
    assert not t.initialize()
    t.close()
    client = XMLRPCRobotInterfaceClient('127.0.0.1:9', timeout=1.0)
    assert not client.initialize()
assert len([x for x in caught if issubclass(x.category, RuntimeWarning)]) >= 2
print('no prompts')
"""


def test_control_is_headless():
    require_shared_data()
    env = dict(os.environ)
    env.pop('DISPLAY', None)
    env.pop('WAYLAND_DISPLAY', None)
    r = subprocess.run([sys.executable, '-c', SCRIPT, os.path.join(SHARED_DATA, 'robots', 'tx90l.rob')],
                       env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.split('\n')
    # the package, its blocks and io back ends
    assert int(lines[0].split()[1]) >= 25
    assert 'vis error ok' in lines and 'no prompts' in lines
