"""Shapes read from files are shared by the models that load the same file
unchanged: a world loaded again while another holds its meshes parses no file
and builds no collision structure, an edit never reaches another model, a
file rewritten on disk is read again, and a shape goes when the last world
holding it is freed."""
import gc
import os
import threading

import numpy as np
import pytest

import klampt
from klampt import WorldModel, _robotsim
from conftest import SHARED_DATA, load_world, require_shared_data

# A unit tetrahedron in OFF; "{s}" is one digit, so rewrites keep the file's size.
TETRA_OFF = "OFF\n4 4 0\n0 0 0\n{s} 0 0\n0 {s} 0\n0 0 {s}\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n"


def _tetra_world(folder, scale="1"):
    """A world in `folder` with a terrain and a rigid object reading one tetrahedron file."""
    with open(os.path.join(folder, "tetra.off"), "w") as f:
        f.write(TETRA_OFF.format(s=scale))
    with open(os.path.join(folder, "thing.obj"), "w") as f:
        f.write("mesh tetra.off\nmass 1\n")
    path = os.path.join(folder, "world.xml")
    with open(path, "w") as f:
        f.write('<world>\n  <terrain file="tetra.off"/>\n  <rigidObject file="thing.obj"/>\n</world>\n')
    return path


def _load(path):
    w = WorldModel()
    assert w.readFile(path)
    return w


def _top(geometry):
    return geometry.getBBTight()[1][2]


def _link_vertices(world):
    return [np.array(world.robot(0).link(i).geometry().getTriangleMesh().vertices)
            for i in range(world.robot(0).numLinks()) if not world.robot(0).link(i).geometry().empty()]


def test_a_world_loaded_again_shares_its_shapes_and_builds_nothing():
    require_shared_data()
    path = os.path.join(SHARED_DATA, "tx90blocks.xml")
    first = load_world(path, quiet=True)
    built = klampt.collision_structures_built()
    second = load_world(path, quiet=True)
    assert klampt.collision_structures_built() == built
    assert second.numIDs() == first.numIDs()
    for a, b in zip(_link_vertices(first), _link_vertices(second)):
        np.testing.assert_array_equal(a, b)


def test_shapes_go_with_the_last_world_holding_them(tmp_path):
    gc.collect()
    baseline = _robotsim._shared_shape_count()
    path = _tetra_world(str(tmp_path))
    a = _load(path)
    assert _robotsim._shared_shape_count() == baseline + 1  # one file, read once for terrain and object
    b = _load(path)
    assert _robotsim._shared_shape_count() == baseline + 1
    del a
    gc.collect()
    assert _robotsim._shared_shape_count() == baseline + 1  # b still holds it
    del b
    gc.collect()
    assert _robotsim._shared_shape_count() == baseline


def test_an_edit_reaches_no_other_model(tmp_path):
    path = _tetra_world(str(tmp_path))
    a = _load(path)
    b = _load(path)
    b.terrain(0).geometry().scale(3.0)
    b.rigidObject(0).geometry().transform([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 5])
    assert _top(b.terrain(0).geometry()) == pytest.approx(3.0)
    assert _top(a.terrain(0).geometry()) == pytest.approx(1.0)
    assert _top(a.rigidObject(0).geometry()) == pytest.approx(1.0)
    assert _top(_load(path).rigidObject(0).geometry()) == pytest.approx(1.0)
    # The only holder of a shape edits it too without touching what a new load reads.
    del a, b
    gc.collect()
    c = _load(path)
    c.terrain(0).geometry().scale(2.0)
    assert _top(_load(path).terrain(0).geometry()) == pytest.approx(1.0)


def test_a_file_rewritten_on_disk_is_read_again(tmp_path):
    path = _tetra_world(str(tmp_path))
    a = _load(path)
    _tetra_world(str(tmp_path), scale="2")  # same size, new contents, within the same clock tick
    b = _load(path)
    assert _top(a.terrain(0).geometry()) == pytest.approx(1.0)
    assert _top(b.terrain(0).geometry()) == pytest.approx(2.0)


ROBOT = """links "base" "arm"
parents -1 0
jointtype r r
axis 0 0 1 0 1 0
Tparent 1 0 0 0 1 0 0 0 1 0 0 0  1 0 0 0 1 0 0 0 1 0 0 1
qmin -3 -3
qmax 3 3
q 0 0
geometry "tetra.off" "tetra.off"
{scale}mass 1 1
automass
"""


def test_robot_files_share_link_meshes_and_keep_their_own_scale(tmp_path):
    _tetra_world(str(tmp_path))
    for name, scale in (("plain.rob", ""), ("big.rob", "geomscale 2 2\n")):
        with open(os.path.join(str(tmp_path), name), "w") as f:
            f.write(ROBOT.format(scale=scale))
    gc.collect()
    baseline = _robotsim._shared_shape_count()
    plain = load_world(os.path.join(str(tmp_path), "plain.rob"))
    assert _robotsim._shared_shape_count() == baseline + 1
    again = load_world(os.path.join(str(tmp_path), "plain.rob"))
    scaled = load_world(os.path.join(str(tmp_path), "big.rob"))
    scaled_too = load_world(os.path.join(str(tmp_path), "big.rob"))
    assert _robotsim._shared_shape_count() == baseline + 2  # the file's shape and its scaled copy
    for a, b, c in zip(_link_vertices(plain), _link_vertices(again), _link_vertices(scaled)):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(c, 2 * a, atol=1e-12)
    assert len(_link_vertices(plain)) == 2
    for c, d in zip(_link_vertices(scaled), _link_vertices(scaled_too)):
        np.testing.assert_array_equal(c, d)


def test_threads_loading_one_file_get_one_shape(tmp_path):
    path = _tetra_world(str(tmp_path))
    worlds, errors = [], []
    start = threading.Barrier(6)

    def load():
        try:
            start.wait()
            worlds.append(_load(path))
        except Exception as e:  # reported below
            errors.append(e)
    threads = [threading.Thread(target=load) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(worlds) == 6
    assert all(_top(w.terrain(0).geometry()) == pytest.approx(1.0) for w in worlds)
