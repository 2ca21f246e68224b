"""threejs_get_scene / threejs_get_transforms against a summary of
Klamp't 0.9.2's export of the same worlds (tests/data/threejs_reference.json,
made by tests/data/make_threejs_reference.py with the reference): scene
graph, node types and names, matrices, materials, and per-geometry vertex and
index counts, sums and first entries. uuids are random in both."""
import importlib.util
import json
import os

import numpy as np
import pytest

import klampt

from conftest import PROJECT_DATA, SHARED_DATA, require_shared_data

HERE = os.path.dirname(os.path.abspath(__file__))


def _load_summarizer():
    # The summary is computed by the script that recorded the reference's.
    spec = importlib.util.spec_from_file_location("make_threejs_reference",
                                                  os.path.join(HERE, 'data', 'make_threejs_reference.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.summarize_scene


summarize_scene = _load_summarizer()


def load_reference():
    with open(os.path.join(HERE, 'data', 'threejs_reference.json')) as f:
        return json.load(f)


def world_path(name):
    if name == 'arm_table.xml':
        return os.path.join(PROJECT_DATA, 'worlds', name)
    require_shared_data()
    return os.path.join(SHARED_DATA, name)


def _color_int(rgba):
    c = [min(255, max(0, int(v * 255))) for v in rgba[:3]]
    return (c[0] << 16) | (c[1] << 8) | c[2]


def _bodies_with_materials(scene_root, world):
    """(reference node, body of our world) pairs of every node with a material."""
    pairs = []
    robots = {world.robot(i).getName(): world.robot(i) for i in range(world.numRobots())}
    for child in scene_root['children']:
        if child['name'] in robots and child['type'] == 'Group':
            robot = robots[child['name']]
            stack = list(child['children'])
            while stack:
                node = stack.pop()
                stack.extend(node['children'])
                if 'material' in node:
                    pairs.append((node, robot.link(node['name'])))
        elif 'material' in child:
            body = world.rigidObject(child['name']) if any(
                world.rigidObject(i).getName() == child['name'] for i in range(world.numRigidObjects())) \
                else world.terrain(child['name'])
            pairs.append((child, body))
    return pairs


def compare_nodes(ours, ref, path=''):
    where = path + '/' + str(ref['name'])
    assert ours['name'] == ref['name'] and ours['type'] == ref['type'], where
    if 'matrix' in ref:
        np.testing.assert_allclose(ours['matrix'], ref['matrix'], atol=2e-5, err_msg=where)
    assert ('positions' in ours) == ('positions' in ref), where
    if 'positions' in ref:
        assert ours['positions'][0] == ref['positions'][0], where
        assert ours['positions'][1] == pytest.approx(ref['positions'][1], abs=1e-3), where
        np.testing.assert_allclose(ours['positions'][2], ref['positions'][2], atol=2e-5, err_msg=where)
    if 'index' in ref:
        assert ours['index'] == ref['index'], where
    if 'material' in ref:
        assert set(ours['material']) == set(ref['material']), where
        for k, v in ref['material'].items():
            if isinstance(v, float):
                assert ours['material'][k] == pytest.approx(v, abs=1e-5), where + ':' + k
            else:
                assert ours['material'][k] == v, where + ':' + k
    if 'light' in ref:
        assert ours['light'] == ref['light']
    assert len(ours['children']) == len(ref['children']), where
    for a, b in zip(ours['children'], ref['children']):
        compare_nodes(a, b, where)


@pytest.mark.parametrize("name", sorted(load_reference()))
def test_scene_matches_reference(name):
    ref = load_reference()[name]
    world = klampt.WorldModel()
    assert world.readFile(world_path(name))
    if ref['config'] is not None:
        world.robot(0).setConfig(ref['config'])
    # The bodies' appearance defaults differ between the implementations
    # (robot links get shininess 20 and a 0.2 grey specular color in the
    # reference; .obj objects keep their material color here): material colors
    # and robot-link Phong terms are checked against each body's appearance in
    # this world; everything else against the reference.
    for node, body in _bodies_with_materials(ref['scene']['object'], world):
        app = body.appearance()
        node['material']['color'] = _color_int(app.getColor())
        if isinstance(body, klampt.RobotModelLink):
            shininess = app.getShininess()
            node['material']['shininess'] = shininess
            node['material']['specular'] = _color_int(app.getColor(app.SPECULAR)) if shininess > 0 else 0
    ours = summarize_scene(klampt.threejs_get_scene(world))
    assert ours['metadata'] == ref['scene']['metadata']
    compare_nodes(ours['object'], ref['scene']['object'])

    transforms = json.loads(klampt.threejs_get_transforms(world))
    assert transforms['metadata'] == ref['transforms']['metadata']
    assert [o['name'] for o in transforms['object']] == [o['name'] for o in ref['transforms']['object']]
    for a, b in zip(transforms['object'], ref['transforms']['object']):
        np.testing.assert_allclose(a['matrix'], b['matrix'], atol=2e-5, err_msg=b['name'])


def test_point_clouds_primitives_and_empty_bodies():
    world = klampt.WorldModel()
    obj = world.makeRigidObject('cloud')
    pc = klampt.PointCloud()
    pc.setPoints(np.array([[0, 0, 0], [1, 2, 3.0]]))
    obj.geometry().setPointCloud(pc)
    box = world.makeRigidObject('box')
    prim = klampt.GeometricPrimitive()
    prim.setAABB([0, 0, 0], [1, 1, 1])
    box.geometry().setGeometricPrimitive(prim)
    box.appearance().setColor(0.1, 0.2, 0.3, 0.5)
    world.makeRigidObject('empty')
    scene = json.loads(klampt.threejs_get_scene(world))
    nodes = {o['name']: o for o in scene['object']['children']}
    assert nodes['cloud']['type'] == 'Points' and nodes['empty']['type'] == 'Group'
    assert 'geometry' not in nodes['empty']
    mats = {m['uuid']: m for m in scene['materials']}
    cloud_mat = mats[nodes['cloud']['material']]
    assert cloud_mat['type'] == 'PointsMaterial'
    box_mat = mats[nodes['box']['material']]
    # channels truncated to 0..255 as the reference does: (25, 51, 76)
    assert box_mat['color'] == (25 << 16) | (51 << 8) | 76
    assert box_mat['transparent'] is True and box_mat['opacity'] == 0.5
    geoms = {g['uuid']: g for g in scene['geometries']}
    cloud = geoms[nodes['cloud']['geometry']]['data']['attributes']['position']['array']
    assert cloud == [0, 0, 0, 1, 2, 3]
    box_geom = geoms[nodes['box']['geometry']]['data']
    assert len(box_geom['index']['array']) == 36
