"""A world file's collision trees and hulls are built at load on every core the
process may use: the result must be what one core builds, shape for shape."""
import json
import os

import pytest

from conftest import SHARED_DATA, require_shared_data
from vis_helpers import run_python

LOAD = """
import json, os, sys, warnings
warnings.simplefilter('ignore')
if sys.argv[2] == 'one':
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
import klampt
before = klampt.collision_structures_built()
w = klampt.WorldModel()
assert w.readFile(sys.argv[1])
built = klampt.collision_structures_built() - before
r = w.robot(0)
geoms = [r.link(i).geometry() for i in range(r.numLinks())]
geoms += [w.rigidObject(i).geometry() for i in range(w.numRigidObjects())]
geoms += [w.terrain(i).geometry() for i in range(w.numTerrains())]
geoms = [g for g in geoms if not g.empty()]
distances = [[a.distance(b).d for b in geoms] for a in geoms]
after_queries = klampt.collision_structures_built() - before
print(json.dumps({'cores': len(os.sched_getaffinity(0)), 'built': built, 'after_queries': after_queries,
                  'self': r.selfCollides(), 'distances': distances}))
"""


def _load(path, cores):
    r = run_python(["-c", LOAD, path, cores], timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", ["tx90blocks.xml", "baxterserial.xml"])
def test_loading_on_every_core_builds_what_one_core_builds(name):
    require_shared_data()
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs two cores to compare with one")
    path = os.path.join(SHARED_DATA, name)
    one, every = _load(path, "one"), _load(path, "every")
    assert one["cores"] == 1 and every["cores"] >= 2
    # Each shape's tree (and each link's hull) built once, and none left for the queries.
    assert every["built"] == one["built"] > 0
    assert every["after_queries"] == every["built"] and one["after_queries"] == one["built"]
    assert every["self"] == one["self"]
    assert every["distances"] == one["distances"]
