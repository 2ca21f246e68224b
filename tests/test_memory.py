"""Memory comes back when worlds are freed: loading a world builds collision
trees and the planners' broad-phase hulls for its shapes, and all of it must
go with the world. Each run is a fresh interpreter, so its resident size
measures this loop alone."""
import os

from conftest import SHARED_DATA, require_shared_data
from vis_helpers import run_python

CYCLES, WARM_UP, WINDOW = 200, 20, 50
# The resident size swings by one world's structures (about 20 MiB) as the
# allocator keeps or returns freed memory, so the peaks of the first and last
# WINDOW cycles after warm-up are compared. Measured on the fixed code: equal
# within 0.2 MiB (the peaks rose by 130 MiB before); the bound leaves room for
# noise, well below one world's structures.
MAX_GROWTH_MIB = 8.0

LOOP = """
import gc, sys, warnings
from klampt import WorldModel
warnings.simplefilter('ignore')

def rss_mib():
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmRSS'):
                return int(line.split()[1]) / 1024.0

path, cycles, warm_up, window = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rss = []
for i in range(cycles):
    w = WorldModel()
    assert w.loadFile(path) and w.numRobots() == 1
    del w
    gc.collect()
    rss.append(rss_mib())
print('growth', max(rss[-window:]) - max(rss[warm_up:warm_up + window]))
"""


def test_world_load_and_free_keeps_memory_flat():
    require_shared_data()
    path = os.path.join(SHARED_DATA, "tx90blocks.xml")
    r = run_python(["-c", LOOP, path, str(CYCLES), str(WARM_UP), str(WINDOW)], timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    growth = float(r.stdout.split("growth")[1])
    assert growth < MAX_GROWTH_MIB, "RSS grew by %.1f MiB over %d load/free cycles" % (growth, CYCLES - WARM_UP)
