"""klampt.io.loader, klampt.io.numpy_convert and klampt.io.resource: text
formats against Klamp't 0.9.2's output (tests/data/loader_reference.json,
written by the reference's loader.write / to_json), round trips through
text, files and JSON."""
import json
import os

import numpy as np
import pytest

import klampt
from klampt.io import loader, numpy_convert, resource
from klampt.math import so3, se3
from klampt.model.trajectory import Trajectory, SE3Trajectory, SO3Trajectory, HermiteTrajectory, RobotTrajectory

from conftest import PROJECT_DATA, assert_close

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "loader_reference.json")) as f:
    REFERENCE = json.load(f)

R = so3.rotation([0, 0, 1], 0.3)


@pytest.mark.parametrize("case", REFERENCE["write"], ids=lambda c: c["type"])
def test_write_matches_reference_and_round_trips(case):
    t = case["type"]
    value = tuple(case["input"]) if t == "RigidTransform" else case["input"]
    assert loader.write(value, t) == case["text"]
    back = loader.read(t, case["text"])
    if t == "RigidTransform":
        assert_close(back[0], value[0], atol=1e-15)
        assert_close(back[1], value[1])
    elif t in ("StringArray", "IntArray"):
        assert back == value
    else:
        assert_close(back, value, atol=1e-15)


def test_to_json_matches_reference():
    objs = [Trajectory([0, 1], [[1], [2]]), SE3Trajectory([0, 1], [so3.identity() + [0, 0, 0]] * 2),
            HermiteTrajectory([0, 1], [[1], [2]], [[0], [0]])]
    for obj, expected in zip(objs, REFERENCE["to_json"]):
        assert loader.to_json(obj) == expected
        back = loader.from_json(json.loads(json.dumps(expected)))
        assert type(back) is type(obj) and back.times == obj.times and back.milestones == obj.milestones


def test_json_simple_types():
    assert loader.to_json([1, 2, 3]) == [1, 2, 3]
    assert loader.to_json(3.5) == 3.5
    assert loader.to_json((so3.identity(), [1, 2, 3])) == [so3.identity(), [1, 2, 3]]
    back = loader.from_json(json.loads(json.dumps(loader.to_json((R, [1, 2, 3])))), 'RigidTransform')
    assert back == (R, [1, 2, 3])
    assert loader.fromJson([1, 2]) == [1, 2] and loader.toJson is loader.to_json
    with pytest.raises(TypeError):
        loader.to_json(klampt.WorldModel())
    assert isinstance(loader.from_json(loader.to_json(RobotTrajectory(None, [0], [[1.0]]))), Trajectory)
    text = loader.write([[1, 2], [3, 4]], 'json')
    assert loader.read('json', text) == [[1, 2], [3, 4]]


def test_text_errors():
    with pytest.raises(ValueError):
        loader.read('Config', '3 1 2')
    with pytest.raises(ValueError):
        loader.read('RigidTransform', '1 2 3')
    with pytest.raises(ValueError):
        loader.read('Config', 'abc')
    with pytest.raises(ValueError):
        loader.write(['a b'], 'StringArray')
    with pytest.raises(ValueError):
        loader.write(3.5, 'Value')
    assert loader.parse_lines("a \\\n b\n\n c\n") == ["a   b", "c"]


def test_filename_types():
    assert loader.filename_to_types('a.path') == ['Trajectory', 'LinearPath', 'SE3Trajectory', 'SO3Trajectory']
    assert loader.filename_to_type('a.xml') == 'xml'
    assert loader.filename_to_type('x.rob') == 'RobotModel'
    assert loader.filenameToType('x.CONFIG') == 'Config'
    assert '.xform' in loader.TYPE_TO_EXTENSIONS['RigidTransform']
    with pytest.raises(RuntimeError):
        loader.filename_to_type('x.foo')


def test_file_round_trips(tmp_path):
    d = str(tmp_path)
    q = [0.5, -1.25, 3.0]
    for name, obj in [('a.config', q), ('b.configs', [q, q]), ('c.xform', (R, [1.0, 2.0, 3.0])),
                      ('d.vector3', [1.0, 2.0, 3.0]), ('e.json', {'times': [0, 1], 'milestones': [[0], [1]]})]:
        fn = os.path.join(d, name)
        assert loader.save(obj, 'auto' if not name.endswith('.json') else 'json', fn)
        back = loader.load('auto' if not name.endswith('.json') else 'json', fn)
        if name.endswith('.xform'):
            assert_close(back[0], R, atol=1e-15)
            assert_close(back[1], [1, 2, 3])
        elif name.endswith('.json'):
            assert isinstance(back, Trajectory) and back.milestones == [[0], [1]]
        else:
            assert back == obj
    traj = Trajectory([0, 0.5, 2], [[1, 2], [3, 4], [5, 6]])
    fn = os.path.join(d, 't.path')
    loader.save(traj, 'auto', fn)
    back = loader.load('auto', fn)
    assert back.times == traj.times and back.milestones == traj.milestones
    # a .path written by Klamp't 0.9.2's Trajectory.save
    with open(fn, 'w') as f:
        f.write("0.000000\t2 0 0\n1.000000\t2 1 2\n3.000000\t2 3 3\n")
    back = loader.load('Trajectory', fn)
    assert back.times == [0, 1, 3] and back.milestones == [[0, 0], [1, 2], [3, 3]]
    so3traj = SO3Trajectory([0, 1], [so3.identity(), R])
    fn = os.path.join(d, 'r.path')
    loader.save(so3traj, 'auto', fn)
    back = loader.load('SO3Trajectory', fn)
    assert isinstance(back, SO3Trajectory) and back.milestones[1] == R


def test_load_world_and_robot(tmp_path):
    w = loader.load('auto', os.path.join(PROJECT_DATA, 'worlds', 'arm_table.xml'))
    assert isinstance(w, klampt.WorldModel) and w.numRobots() == 1
    r = loader.load('auto', os.path.join(PROJECT_DATA, 'robots', 'arm6.rob'))
    assert r.numLinks() == 7
    fn = str(tmp_path / 'copy.rob')
    assert loader.save(r, 'RobotModel', fn)
    assert loader.load('RobotModel', fn).numLinks() == 7
    with pytest.raises(IOError):
        loader.load('WorldModel', str(tmp_path / 'missing.xml'))


def test_numpy_convert_round_trips():
    T = (R, [1.0, 2.0, 3.0])
    H = numpy_convert.to_numpy(T)
    assert H.shape == (4, 4)
    assert_close(H, se3.homogeneous(T))
    back = numpy_convert.from_numpy(H, 'RigidTransform')
    assert_close(back[0], R, atol=1e-15)
    assert_close(back[1], T[1])
    M = numpy_convert.to_numpy(R, 'Rotation')
    assert_close(M @ np.array([1.0, 0, 0]), so3.apply(R, [1, 0, 0]), atol=1e-15)
    assert_close(numpy_convert.from_numpy(M, 'Rotation'), R, atol=1e-15)
    assert numpy_convert.to_numpy(R).shape == (9,)
    rows = so3.matrix(R)
    assert_close(numpy_convert.to_numpy(rows, 'Matrix3'), rows)
    assert numpy_convert.from_numpy(np.eye(3), 'Matrix3') == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert numpy_convert.from_numpy(np.array([1.0, 2.0])) == [1.0, 2.0]
    assert numpy_convert.from_numpy(np.ones((2, 5))) == [[1.0] * 5] * 2
    traj = Trajectory([0, 1], [[1, 2], [3, 4]])
    times, ms = numpy_convert.to_numpy(traj)
    assert times.tolist() == [0, 1] and ms.shape == (2, 2)
    back = numpy_convert.from_numpy((times, ms))
    assert back.times == [0, 1] and back.milestones == [[1, 2], [3, 4]]
    se3traj = numpy_convert.from_numpy(numpy_convert.to_numpy(SE3Trajectory([0], [T])), template=SE3Trajectory())
    assert isinstance(se3traj, SE3Trajectory)
    with pytest.raises(ValueError):
        numpy_convert.from_numpy(np.ones((2, 2)), 'RigidTransform')


def test_resource_get_set(tmp_path, monkeypatch):
    d = str(tmp_path / 'res')
    assert resource.set('start.config', [0.1, 0.2], directory=d)
    assert os.path.exists(os.path.join(d, 'start.config'))
    assert resource.get('start.config', directory=d) == [0.1, 0.2]
    resource.set('group/goal.xform', (R, [0.0, 0.0, 1.0]), directory=d)
    g = resource.get('group/goal.xform', directory=d)
    assert_close(g[0], R, atol=1e-15)
    old = resource.get_directory()
    try:
        resource.set_directory(d)
        assert resource.getDirectory() == d
        assert resource.get('start.config') == [0.1, 0.2]
    finally:
        resource.set_directory(old)
    with pytest.raises(RuntimeError):
        resource.get('missing.config', directory=d, doedit=False)
    # console editing reads the new value and saves it
    monkeypatch.setattr('builtins.input', lambda prompt='': '2\t5 6')
    assert resource.get('typed.config', directory=d, default=[1.0, 2.0], editor='console') == [5.0, 6.0]
    assert resource.get('typed.config', directory=d) == [5.0, 6.0]
    # no display: the visual editor (Qt) cannot open its dialog, get() gives the default, the file dialogs raise
    monkeypatch.delenv('DISPLAY', raising=False)
    monkeypatch.delenv('WAYLAND_DISPLAY', raising=False)
    assert resource.get('missing.config', directory=d, default=[1.0]) == [1.0]
    assert not os.path.exists(os.path.join(d, 'missing.config'))
    with pytest.raises(RuntimeError, match='klampt.vis GUI'):
        resource.edit('x', [1.0, 2.0, 3.0], 'Point', editor='visual')
    with pytest.raises(RuntimeError, match='A file dialog needs'):
        resource.load('Config')
    with pytest.raises(RuntimeError, match='A file dialog needs'):
        resource.save([1.0, 2.0], 'Config', directory=d)


def test_json_nested_too_deeply_is_refused(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100000 + "]" * 100000)
    with pytest.raises(ValueError, match="deep.json is nested too deeply"):
        loader.load('json', str(path))
    with pytest.raises(ValueError, match="nested too deeply"):
        loader.read('json', "[" * 100000 + "]" * 100000)
    # A nested document Python can parse still loads.
    assert loader.read('json', "[" * 50 + "]" * 50) == eval("[" * 50 + "]" * 50)
