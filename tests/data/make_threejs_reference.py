"""Records a summary of Klamp't 0.9.2's three.js export of some worlds
(run with the reference installation; writes threejs_reference.json)."""
import json
import sys

import klampt


def summarize_scene(text):
    """The scene graph of a three.js export with each geometry reduced to
    counts, sums and first entries (uuids, which are random, left out)."""
    scene = json.loads(text)
    geometries = {g['uuid']: g for g in scene['geometries']}
    materials = {m['uuid']: m for m in scene['materials']}
    assert len(geometries) == len(scene['geometries']) and len(materials) == len(scene['materials'])

    def node(o):
        out = {'name': o.get('name'), 'type': o['type']}
        if 'matrix' in o:
            out['matrix'] = o['matrix']
        if 'geometry' in o:
            data = geometries[o['geometry']]['data']
            pos = data['attributes']['position']['array']
            out['positions'] = [len(pos), sum(pos), pos[:12]]
            if 'index' in data:
                idx = data['index']['array']
                out['index'] = [data['index']['type'], len(idx), sum(idx), idx[:12]]
        if 'material' in o:
            m = dict(materials[o['material']])
            m.pop('uuid')
            out['material'] = m
        if o['type'] == 'DirectionalLight':
            out['light'] = {k: v for k, v in o.items() if k != 'uuid'}
        out['children'] = [node(c) for c in o.get('children', [])]
        return out

    return {'metadata': scene['metadata'], 'object': node(scene['object'])}


def main(data_dir, project_dir, out):
    result = {}
    for name, path in [('arm_table.xml', project_dir + '/worlds/arm_table.xml'),
                       ('tx90scenario0.xml', data_dir + '/tx90scenario0.xml')]:
        w = klampt.WorldModel()
        assert w.readFile(path)
        if w.numRobots():
            r = w.robot(0)
            q = r.getConfig()
            r.setConfig([v + 0.1 * (i % 3) for i, v in enumerate(q)])
        result[name] = {'scene': summarize_scene(klampt.threejs_get_scene(w)),
                        'transforms': json.loads(klampt.threejs_get_transforms(w)),
                        'config': w.robot(0).getConfig() if w.numRobots() else None}
    with open(out, 'w') as f:
        json.dump(result, f)


if __name__ == '__main__':
    main(*sys.argv[1:4])
