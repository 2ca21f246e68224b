"""klampt.model.config, klampt.model.types and klampt.model.subrobot."""
import os

import numpy as np
import pytest

import klampt
from klampt.math import so3, se3
from klampt.model import config, types
from klampt.model.subrobot import SubRobotModel, SubRobotModelLink
from klampt.model.trajectory import Trajectory, RobotTrajectory, SE3Trajectory

from conftest import PROJECT_DATA, arm6_world, assert_close


@pytest.fixture
def world():
    return arm6_world()


def test_object_types():
    # answers of Klamp't 0.9.2
    assert types.object_to_types([1, 2, 3]) == ['Config', 'IntArray', 'Vector3']
    assert types.object_to_types([1.5, 2, 3]) == ['Config', 'Vector3']
    assert types.object_to_types(so3.identity()) == ['Config', 'Matrix3', 'Rotation']
    assert types.object_to_types(0.5) == 'Value'
    assert types.object_to_types(se3.identity()) == 'RigidTransform'
    assert types.object_to_types([[1, 2], [3, 4]]) == 'Configs'
    assert types.object_to_types(['a', 'b']) == 'StringArray'
    assert types.object_to_types(SE3Trajectory()) == ['SE3Trajectory', 'Trajectory']
    assert types.object_to_types(Trajectory()) == 'Trajectory'
    assert types.object_to_types(klampt.WorldModel()) == 'WorldModel'
    assert types.object_to_type([1, 2, 3], ['Vector3', 'Config']) == 'Config'
    assert types.object_to_type(SE3Trajectory(), ['Vector3', 'Config']) is None
    with pytest.raises(ValueError):
        types.object_to_types([[1, 2], [3]])
    assert 'RigidTransform' in types.known_types() and types.knownTypes() == types.known_types()
    assert types.make('Vector3') == [0.0, 0.0, 0.0]
    assert types.make('RigidTransform') == se3.identity()
    with pytest.raises(ValueError):
        types.make('RobotModel')
    assert types.info([[1, 2], [3, 4]]) == {'type': 'Configs', 'items': 2, 'dofs': 2}
    inf = types.info(Trajectory([0, 1], [[1], [2]]))
    assert inf['duration'] == 1 and inf['length'] == 1.0 and inf['dofs'] == 1
    assert types.convert([[1, 2], [3, 4]], 'Trajectory').times == [0, 1]
    assert types.convert(Trajectory([0, 2], [[1], [2]]), 'Configs') == [[1], [2]]


def test_make_and_info_robot(world):
    r = world.robot(0)
    assert types.make('Config', r) == [0.0] * r.numLinks()
    inf = types.info(world)
    assert inf['#robots'] == 1 and inf['robots'][0]['#links'] == r.numLinks()


def test_transfer(world):
    r = world.robot(0)
    w2 = klampt.WorldModel()
    assert w2.readFile(os.path.join(PROJECT_DATA, "robots", "arm6.urdf"))
    r2 = w2.robot(0)
    names2 = [r2.link(i).getName() for i in range(r2.numLinks())]
    q = [0.1 * i for i in range(r.numLinks())]
    q2 = types.transfer(q, r, r2)
    for i in range(r.numLinks()):
        name = r.link(i).getName()
        if name in names2:
            assert q2[names2.index(name)] == q[i]
    # an explicit map: the source's flange drives the target's forearm
    mapped = types.transfer(q, r, r2, {'flange': 'forearm'})
    assert mapped[names2.index('forearm')] == q[6] and sum(abs(v) for v in mapped) == q[6]
    assert types.transfer(6, r, r2) == names2.index('flange')
    assert types.transfer(r.link('flange'), r, r2).getName() == 'flange'
    traj = types.transfer(RobotTrajectory(r, [0], [q]), r, r2)
    assert isinstance(traj, RobotTrajectory) and traj.robot.numLinks() == r2.numLinks()


def test_config_interface(world):
    r = world.robot(0)
    q = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    config.set_config(r, q)
    assert config.get_config(r) == q
    assert config.get_config_names(r) == [r.link(i).getName() for i in range(r.numLinks())]
    assert config.num_config_params(world) == r.numLinks()
    assert config.is_compound(world) and not config.is_compound(r)
    assert config.component_names(world) == [r.getName()]
    T = (so3.rotation([0, 0, 1], 0.5), [1, 2, 3])
    assert config.get_config(T) == list(T[0]) + [1, 2, 3]
    assert config.num_config_params(T) == 12
    a = so3.identity() + [0, 0, 0]
    b = list(T[0]) + [1, 2, 3]
    assert config.distance(T, a, b) == pytest.approx(se3.distance(se3.identity(), T))
    mid = config.interpolate(T, a, b, 0.5)
    assert_close(mid[:9], so3.rotation([0, 0, 1], 0.25), atol=1e-12)
    items = [[1.0, 2.0], r]
    assert config.is_compound(items)
    assert config.get_config(items) == [1.0, 2.0] + q
    config.set_config(items, [5.0, 6.0] + [0.0] * 7)
    assert items[0] == [5.0, 6.0] and config.getConfig(r) == [0.0] * 7
    assert config.get_config_names(items)[:3] == ['[0].[0]', '[0].[1]', '[1].' + r.link(0).getName()]
    assert config.distance(items, [0, 0] + q, [3, 4] + q) == pytest.approx(5.0)
    with pytest.raises(ValueError):
        config.set_config(r, [0, 1])


def test_subrobot(world):
    r = world.robot(0)
    sub = SubRobotModel(r, [1, 'forearm', 5])
    idx_forearm = r.link('forearm').index
    assert sub.numLinks() == 3
    r.setConfig([0.0] * 7)
    sub.setConfig([0.1, 0.2, 0.3])
    q = r.getConfig()
    assert q[1] == 0.1 and q[idx_forearm] == 0.2 and q[5] == 0.3 and q[2] == 0.0
    assert sub.getConfig() == [0.1, 0.2, 0.3]
    assert idx_forearm == 3
    assert sub.tofull([1, 2, 3], 0.0) == [0, 1, 0, 2, 0, 3, 0]
    assert sub.fromfull(list(range(7))) == [1, idx_forearm, 5]
    assert sub.fromfull(2) is None and sub.fromfull(5) == 2 and sub.tofull(2) == 5
    arr = sub.tofull(np.array([1.0, 2.0, 3.0]), 0.0)
    assert isinstance(arr, np.ndarray) and arr[5] == 3.0 and arr.sum() == 6.0
    assert sub.fromfull(np.arange(14.0).reshape(2, 7)).shape == (2, 3)
    qmin, qmax = sub.getJointLimits()
    fmin, fmax = r.getJointLimits()
    assert qmin == [fmin[1], fmin[idx_forearm], fmin[5]]
    # Jacobian columns and link re-indexing
    link = sub.link(2)
    assert isinstance(link, SubRobotModelLink) and link.getIndex() == 2
    J = link.getJacobian([0, 0, 0.1])
    Jfull = r.link(5).getJacobian([0, 0, 0.1])
    assert_close(J, np.asarray(Jfull)[:, [1, idx_forearm, 5]])
    assert sub.link('forearm').getParent() == -1  # upper_arm is not in the sub-robot
    assert SubRobotModel(r, [2, 3]).link(1).getParent() == 0
    assert sub.link(0).getName() == r.link(1).getName()
    # drivers fully inside the sub-robot
    assert sub.numDrivers() == 3
    assert sub.driver(1).getAffectedLinks() == [1]
    assert sub.configToDrivers([0.1, 0.2, 0.3]) == pytest.approx([0.1, 0.2, 0.3])
    # interpolation and trajectories
    assert_close(sub.interpolate([0, 0, 0], [1, 1, 1], 0.25), [0.25] * 3)
    assert sub.distance([0, 0, 0], [3, 4, 0]) == pytest.approx(r.distance(sub.tofull([0, 0, 0]), sub.tofull([3, 4, 0])))
    traj = RobotTrajectory(r, [0, 1], [[0.0] * 7, [0.7] * 7])
    part = traj.extractDofs([1, 'forearm'])
    assert part.milestones[1] == [0.7, 0.7] and isinstance(part.robot, SubRobotModel)
    full = sub.tofull(Trajectory([0, 1], [[1, 2, 3], [4, 5, 6]]), 0.0)
    assert full.milestones[1][5] == 6
    # sub-robot of a sub-robot refers to the original links
    subsub = SubRobotModel(sub, [2])
    assert subsub._links == [5]
    with pytest.raises(IndexError):
        sub.link(3)
