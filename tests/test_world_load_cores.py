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


def _robot_file(tmp_path, geometry):
    """tx90l.rob in tmp_path with its geometry line replaced by `geometry`
    (file names relative to the shared robots folder)."""
    robots = os.path.join(SHARED_DATA, "robots")
    with open(os.path.join(robots, "tx90l.rob")) as f:
        lines = f.read().splitlines()
    names = " ".join('"%s"' % os.path.join(robots, g) for g in geometry)
    text = "\n".join("geometry " + names if line.startswith("geometry") else line for line in lines)
    path = tmp_path / "arm.rob"
    path.write_text(text + "\n")
    return str(path)


def test_a_robot_file_s_meshes_load_on_every_core_as_on_one(tmp_path):
    # The links' files load in parallel: links naming one file share its
    # shape (built once), and a failure names the first link whose file fails.
    require_shared_data()
    shared = ["tx90l/part6.off", "tx90l/part5.off", "tx90l/part6.off", "tx90l/part3.off", "tx90l/part5.off",
              "tx90l/part1.off", "../objects/sphere.off"]
    code = """
import json, sys, klampt, warnings
warnings.simplefilter('ignore')
w = klampt.WorldModel()
before = klampt.collision_structures_built()
r = w.loadRobot(sys.argv[1])
assert r.index >= 0
verts = [r.link(i).geometry().getTriangleMesh().getVertices().tolist() for i in range(r.numLinks())]
r.selfCollides()
print(json.dumps({'built': klampt.collision_structures_built() - before, 'verts': verts}))
"""
    path = _robot_file(tmp_path, shared)
    runs = []
    for cores in ("one", "every"):
        pin = "import os; os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})\n" if cores == "one" else ""
        r = run_python(["-c", pin + code, path], timeout=300)
        assert r.returncode == 0, r.stderr[-2000:]
        runs.append(json.loads(r.stdout.strip().splitlines()[-1]))
    assert runs[0] == runs[1]
    verts = runs[0]["verts"]
    assert verts[0] == verts[2] and verts[1] == verts[4] and verts[0] != verts[1]
    assert runs[0]["built"] == 5  # five distinct files, one tree each

    bad = _robot_file(tmp_path, ["tx90l/part6.off", "missing_a.off", "tx90l/part4.off", "missing_b.off",
                                 "tx90l/part2.off", "tx90l/part1.off", "../objects/sphere.off"])
    r = run_python(["-c", "import klampt, sys; w = klampt.WorldModel(); w.loadRobot(sys.argv[1])", bad], timeout=300)
    assert "link 1 geometry" in r.stderr and "missing_a.off" in r.stderr, r.stderr[-2000:]
    assert "missing_b.off" not in r.stderr
