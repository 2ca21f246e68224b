"""klampt.model.contact: contact points, contact maps, wrench matrices and
the equilibrium tests on ContactPoints and Holds; loader formats of
ContactPoint and Hold."""
import json

import numpy as np
import pytest

import klampt
from klampt.io import loader
from klampt.math import so3, se3
from klampt.model import contact
from klampt.model.contact import ContactPoint, Hold

from conftest import assert_close


def box_contacts(mu=0.5):
    return [ContactPoint([x, y, 0], [0, 0, 1], mu) for x in (-0.5, 0.5) for y in (-0.5, 0.5)]


def test_contact_point_basics():
    c = ContactPoint([1, 2, 3], [0, 0, 1], 0.4)
    assert c.tolist() == [1, 2, 3, 0, 0, 1, 0.4]
    r = c.reflect()
    assert r.n == [0, 0, -1] and c.n == [0, 0, 1]
    T = (so3.rotation([1, 0, 0], np.pi / 2), [0, 0, 1])
    c.transform(T)
    assert_close(c.x, se3.apply(T, [1, 2, 3]), atol=1e-12)
    assert_close(c.n, [0, -1, 0], atol=1e-12)
    c.fromlist([0, 0, 0, 1, 0, 0, 0.1])
    assert c.x == [0, 0, 0] and c.kFriction == 0.1
    with pytest.raises(ValueError):
        c.fromlist([1, 2])


def test_equilibrium_on_contacts_and_holds():
    cps = box_contacts()
    assert_close(contact.support_polygon(cps), klampt.support_polygon([c.tolist() for c in cps]))
    forces = contact.com_equilibrium(cps, [0, 0, -1], [0.2, 0.1, 0.5])
    assert_close(np.sum(forces, axis=0), [0, 0, 1], atol=1e-9)
    assert contact.com_equilibrium(cps, [0, 0, -1], [0.7, 0.1, 0.5]) is None
    assert contact.force_closure(cps) is False
    h = Hold()
    h.link = 0
    h.contacts = cps
    assert contact.comEquilibrium([h], [0, 0, -1], None) is True
    # a downward force can't be held by contacts that only push down
    assert contact.support_polygon([ContactPoint([0, 0, 0], [0, 0, -1], 0.5)]) == [[0.0, 0.0, -1.0]]
    with pytest.raises(ValueError):
        contact.force_closure([[0, 0, 0, 0, 0, 1, 0.5]])


def test_contact_map_and_wrenches(arm_table):
    robot = arm_table.robot(0)
    link = robot.link(6)
    block = arm_table.rigidObject('block')
    table = arm_table.terrain('table')
    c1 = ContactPoint([0.7, 0.2, 0.7], [0, 0, 1], 0.5)
    c1.object1, c1.object2 = table, block
    c2 = ContactPoint([0.7, 0.2, 0.76], [0, 0, -1], 0.5)
    c2.object1, c2.object2 = link, block
    cmap = contact.contact_map([c1, c2], fixed=lambda o: o is None or type(o).__name__ == 'TerrainModel')
    assert set(cmap) == {(block, None), (block, link) if block.getID() < link.getID() else (link, block)}
    # the table contact is seen from the block: the normal points into the table
    assert cmap[(block, None)][0].n == [0, 0, -1]
    assert contact.id_to_object(arm_table, block.getID()).getName() == 'block'
    assert contact.id_to_object(arm_table, link.getID()).getName() == link.getName()
    with pytest.raises(IndexError):
        contact.id_to_object(arm_table, arm_table.numIDs())
    # wrench of forces f on the other object, about the block's origin
    W1, W2 = contact.wrench_matrices({(block, None): cmap[(block, None)]})[(block, None)]
    f = np.array([0.3, -0.2, 1.0])
    arm = np.array(cmap[(block, None)][0].x) - np.array(block.getTransform()[1])
    assert_close(W1 @ f, np.concatenate([np.cross(arm, -f), -f]), atol=1e-12)
    assert_close(W2, -W1)
    assert_close(contact.skew([1, 2, 3]) @ np.array([4, 5, 6.0]), np.cross([1, 2, 3], [4, 5, 6.0]))


def test_inv_mass_matrix(arm_table):
    block = arm_table.rigidObject('block')
    Hinv = contact.inv_mass_matrix(block)
    m = block.getMass()
    assert_close(Hinv[3:, 3:], np.eye(3) / m.getMass(), atol=1e-12)
    # inverse of the inertia about the origin (parallel-axis theorem)
    c = np.array(m.getCom())
    H = np.array(m.getInertia()).reshape(3, 3) + m.getMass() * (c @ c * np.eye(3) - np.outer(c, c))
    assert_close(np.linalg.inv(Hinv[:3, :3]), H, atol=1e-9)
    assert not contact.inv_mass_matrix(None).any()


def test_loader_contact_formats():
    c = ContactPoint([1, 2, 3.5], [0, 0, 1], 0.25)
    text = loader.write(c, 'ContactPoint')
    assert text == '1 2 3.5 0 0 1 0.25'
    back = loader.read('ContactPoint', text)
    assert back.tolist() == [1, 2, 3.5, 0, 0, 1, 0.25]
    js = loader.to_json(c)
    assert js == {'x': [1, 2, 3.5], 'n': [0, 0, 1], 'kFriction': 0.25}
    assert loader.from_json(json.loads(json.dumps(js))).tolist() == c.tolist()
    h = Hold()
    h.link = 3
    h.contacts = box_contacts()
    text = loader.write(h, 'Hold')
    back = loader.read('Hold', text)
    assert back.link == 3 and [x.tolist() for x in back.contacts] == [x.tolist() for x in h.contacts]
    back = loader.from_json(json.loads(json.dumps(loader.to_json(h))))
    assert back.link == 3 and len(back.contacts) == 4
    with pytest.raises(ValueError):
        loader.read('Hold', 'begin hold\nlink = 1\nfoo = 2\nend')


def test_hold_set_fixed(arm_table):
    h = Hold()
    link = arm_table.robot(0).link(6)
    if not hasattr(klampt, 'IKObjective'):
        with pytest.raises(RuntimeError, match='not available'):
            h.setFixed(link, box_contacts())
        return
    h.setFixed(link, box_contacts())
    assert h.link == 6 and h.ikConstraint.link() == 6 and len(h.contacts) == 4
