"""klampt.model.coordinates: frames, points and directions against direct
se3 computations, groups built from a world, and klampt.model.config on
coordinates objects."""
import os

import pytest

import klampt
from klampt.math import so3, se3
from klampt.model import coordinates, config
from klampt.model.coordinates import Group, Manager

from conftest import PROJECT_DATA, assert_close, assert_transform

T1 = (so3.rotation([0, 0, 1], 0.7), [1.0, 2.0, 0.5])
T2 = (so3.rotation([1, 0, 0], -0.4), [0.0, 0.3, 0.0])


def test_frames_points_directions():
    g = Group()
    a = g.addFrame('a', worldCoordinates=T1)
    b = g.addFrame('b', parent='a', relativeCoordinates=T2)
    assert_transform(b.worldCoordinates(), se3.mul(T1, T2))
    assert_transform(b.relativeCoordinates(), T2)
    assert b.parent() is a and a.parent() is g.rootFrame()
    p = g.addPoint('p', [0.1, 0.2, 0.3], 'b')
    assert_close(p.worldCoordinates(), se3.apply(se3.mul(T1, T2), [0.1, 0.2, 0.3]), atol=1e-12)
    pa = g.to(p, 'a')
    assert_close(pa.localCoordinates(), se3.apply(T2, [0.1, 0.2, 0.3]), atol=1e-12)
    assert_close(pa.worldCoordinates(), p.worldCoordinates(), atol=1e-12)
    d = g.addDirection('d', [1, 0, 0], 'b')
    assert_close(d.worldCoordinates(), so3.apply(so3.mul(T1[0], T2[0]), [1, 0, 0]), atol=1e-12)
    assert_close(g.toWorld(d).localCoordinates(), d.worldCoordinates())
    d.scale(2.0)
    assert_close(d.localCoordinates(), [2, 0, 0])
    p.worldOffset([0, 0, 1])
    assert_close(p.worldCoordinates(), vec_add(se3.apply(se3.mul(T1, T2), [0.1, 0.2, 0.3]), [0, 0, 1]), atol=1e-12)
    # moving a frame moves everything below it
    g.setFrameCoordinates('a', T2, 'world')
    assert_transform(b.worldCoordinates(), se3.mul(T2, T2))
    tr = g.transform('b', 'a')
    assert_transform(tr.coordinates(), T2)
    assert_transform(tr.toWorld().coordinates(), b.worldCoordinates())
    assert_close(g.pointFromWorld(b.worldOrigin(), 'b').localCoordinates(), [0, 0, 0], atol=1e-12)
    # deleting a frame keeps world coordinates of what referred to it
    world_p = p.worldCoordinates()
    world_b = b.worldCoordinates()
    g.deleteFrame('a')
    assert b.parent() is g.rootFrame()
    assert_transform(b.worldCoordinates(), world_b)
    g.deleteFrame('b')
    assert_close(p.worldCoordinates(), world_p, atol=1e-12)
    assert p.frame() is g.rootFrame()
    with pytest.raises(ValueError):
        g.frame('b')
    with pytest.raises(ValueError):
        g.addFrame('c')


def vec_add(a, b):
    return [x + y for x, y in zip(a, b)]


def test_groups_and_world():
    w = klampt.WorldModel()
    assert w.readFile(os.path.join(PROJECT_DATA, 'worlds', 'arm_table.xml'))
    robot = w.robot(0)
    m = Manager()
    m.setWorldModel(w)
    flange = m.frame('arm6:flange')
    assert_transform(flange.worldCoordinates(), robot.link('flange').getTransform())
    assert flange.data().getName() == 'flange'
    block = m.frame('block')
    assert_transform(block.worldCoordinates(), w.rigidObject('block').getTransform())
    # follow the robot
    q = robot.getConfig()
    q[2] += 0.3
    robot.setConfig(q)
    m.updateFromWorld()
    assert_transform(flange.worldCoordinates(), robot.link('flange').getTransform())
    tool = m.addPoint('tool', [0, 0, 0.1], 'arm6:flange')
    assert_close(tool.worldCoordinates(), robot.link('flange').getWorldPosition([0, 0, 0.1]), atol=1e-12)
    # push a frame pose back to the world
    m.setFrameCoordinates('block', T1, 'world')
    m.updateToWorld()
    assert_transform(w.rigidObject('block').getTransform(), T1)
    # sub-groups attached to a frame follow it
    sub = m.addGroup('tool_group', parentFrame='arm6:flange')
    f = sub.addFrame('tcp', relativeCoordinates=(so3.identity(), [0, 0, 0.2]))
    assert_transform(f.worldCoordinates(), se3.mul(flange.worldCoordinates(), (so3.identity(), [0, 0, 0.2])))
    assert m.frame('tool_group:tcp') is f
    assert m.worldFrame() is m.frame('root')
    with pytest.raises(ValueError):
        m.deleteFrame('world')


def test_default_manager_and_config():
    old = coordinates.manager()
    try:
        coordinates.setManager(Manager())
        f = coordinates.addFrame('f', worldCoordinates=T1)
        p = coordinates.addPoint('p', [1, 0, 0], 'f')
        assert coordinates.getPoint('p') is p and coordinates.frame('f') is f
        assert_close(coordinates.toWorld(p).localCoordinates(), se3.apply(T1, [1, 0, 0]), atol=1e-12)
        assert config.get_config(p) == [1, 0, 0]
        config.set_config(p, [0.0, 1.0, 0.0])
        assert_close(p.worldCoordinates(), se3.apply(T1, [0, 1, 0]), atol=1e-12)
        assert config.get_config_names(p) == ['x', 'y', 'z']
        assert config.num_config_params(f) == 12
        config.set_config(f, list(T2[0]) + list(T2[1]))
        assert_transform(f.worldCoordinates(), T2)
        assert config.get_config_names(f)[-1] == 'tz'
        with pytest.raises(ValueError):
            coordinates.setManager(Group())
    finally:
        coordinates.setManager(old)


def test_ik_objectives_need_a_link():
    g = Group()
    g.addFrame('free', worldCoordinates=T1)
    p = g.addPoint('p', [0, 0, 0], 'free')
    if hasattr(klampt, 'IKObjective'):
        assert coordinates.ik_fixed_objective(p) is None
    else:
        with pytest.raises(RuntimeError, match='not available'):
            coordinates.ik_fixed_objective(p)
