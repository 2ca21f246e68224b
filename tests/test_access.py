"""klampt.model.access on the arm_table world: attribute reads and writes,
entry-wise writes, item paths, dicts and vectorizing."""

import pytest

from klampt.math import so3
from klampt.model import access

from conftest import assert_close


def test_map_reads_and_writes(arm_table):
    m = access.map(arm_table)
    robot = arm_table.robot(0)
    assert len(m.robots) == 1 and m.robots[0].name == 'arm6' and m.robots['arm6'].id == robot.getID()
    assert m.robots[0].config == robot.getConfig()
    m.robots[0].config[4] = 0.5
    assert robot.getConfig()[4] == 0.5
    q = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    m.robots[0].config = q
    assert robot.getConfig() == q
    link = m.robots[0].links['flange']
    assert_close(link.transform[1], robot.link('flange').getTransform()[1])
    assert link.robot.name == 'arm6'
    block = m['block']
    T = (so3.rotation([0, 0, 1], 0.3), [0.7, 0.2, 0.8])
    block.transform = T
    assert_close(arm_table.rigidObject('block').getTransform()[1], T[1])
    block.transform[1][2] = 1.5
    assert arm_table.rigidObject('block').getTransform()[1][2] == 1.5
    m.robots[0].jointLimits[1][1] = 2.0
    assert robot.getJointLimits()[1][1] == 2.0
    assert len(m.rigidObjects) == arm_table.numRigidObjects() and m.terrains['table'].name == 'table'
    assert m.elements[block.id].getName() == 'block'
    with pytest.raises(AttributeError):
        m.robots[0].name = 'other'
    with pytest.raises(AttributeError):
        _ = m.robots[0].nosuchthing
    with pytest.raises(KeyError):
        m['nosuchobject']


def test_item_paths_and_vectorizer(arm_table):
    assert access.get_item(arm_table, 'robots[0].links[1].name') == 'shoulder'
    assert access.get_item(arm_table, "rigidObjects['block'].name") == 'block'
    access.set_item(arm_table, 'robots[0].config', [0.0] * 7)
    access.set_item(arm_table, 'robots[0].config[2]', 0.25)
    assert arm_table.robot(0).getConfig()[2] == 0.25
    d = access.get_dict(arm_table, ['robots[0].config', 'rigidObjects[0].transform'])
    assert d['robots[0].config'][2] == 0.25
    access.set_dict(arm_table, {'robots[0].config': [0.1] * 7})
    assert arm_table.robot(0).getConfig() == [0.1] * 7
    assert access.flatten(([1, 2], [3, [4, 5]])) == [1, 2, 3, 4, 5]
    v = access.Vectorizer(arm_table, ['robots[0].config', 'rigidObjects[0].transform'])
    x = v.getVector()
    assert len(x) == 7 + 12
    x[0] = 0.7
    x[-1] = 2.0
    v.setVector(x)
    assert arm_table.robot(0).getConfig()[0] == 0.7 and arm_table.rigidObject(0).getTransform()[1][2] == 2.0
    with pytest.raises(ValueError):
        v.setVector([0.0])
    with pytest.raises(ValueError):
        access.get_item(arm_table, 'robots[0]..config')
