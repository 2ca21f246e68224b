"""The web viewer's protocol (klampt.vis._web.protocol) holds both sides to
each other: every field viewer.js reads is declared there, every declared
field is read by viewer.js or says why not (NOT_READ_BY_VIEWER), and what
the Python serializer sends for a real scene (every kind of item, a
recorded HTML frame, the camera) has exactly the declared fields and types,
each declared field sent at least once."""
import os
import re
import typing

import numpy as np
import pytest

import klampt
from conftest import arm_table_world, sphere_geometry
from klampt.io.html import HTMLSharePath
from klampt.model.trajectory import Trajectory
from klampt.vis._scene import VisualizationScene
from klampt.vis._web import protocol
from klampt.vis._web.serialize import SceneSerializer, camera_json

VIEWER = os.path.join(os.path.dirname(klampt.__file__), 'vis', 'web', 'viewer.js')

# viewer.js's names for the protocol's messages and their parts.
JS_ROOTS = {'scene': protocol.Scene, 'g': protocol.Geometry, 'data': protocol.GeometryData,
            'attrs': protocol.Attributes, 'mat': protocol.Material, 'node': protocol.Node, 'e': protocol.Extra,
            'cam': protocol.Camera, 'checker': protocol.Checker, 'this.lights': protocol.Lights,
            'L[i]': protocol.Light, 'frames[k]': protocol.Frame}
JS_BUILTINS = {'length', 'slice', 'push', 'concat', 'indexOf'}
ACCESS = re.compile(r"(?<![\w.])(%s)((?:\.\w+|\[[^\]]+\])+)" % "|".join(re.escape(k) for k in JS_ROOTS))


def hints(t):
    return typing.get_type_hints(t)


def unwrap_optional(t):
    if typing.get_origin(t) is typing.Union:
        args = [a for a in typing.get_args(t) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return t


def viewer_reads(source):
    """({(TypedDict name, field)} the JavaScript source reads, [the reads
    of fields the protocol does not declare])."""
    read, undeclared = set(), []
    for root, chain in ACCESS.findall(source):
        t = JS_ROOTS[root]
        for step in re.findall(r"\.\w+|\[[^\]]+\]", chain):
            t = unwrap_optional(t)
            origin = typing.get_origin(t)
            if step.startswith('['):
                if origin in (list, dict):
                    t = typing.get_args(t)[-1]
                    continue
                break
            name = step[1:]
            if typing.is_typeddict(t):
                if name not in hints(t):
                    undeclared.append('%s%s: %s has no field %s' % (root, chain, t.__name__, name))
                    break
                read.add((t.__name__, name))
                t = hints(t)[name]
            elif name in JS_BUILTINS:
                break
            else:
                undeclared.append('%s%s: %s is read as an object' % (root, chain, t))
                break
    return read, undeclared


def declared_fields(t=protocol.Scene, read=None, out=None):
    """(TypedDict name, field) of every field reachable from t, not going
    into fields the viewer does not read when ``read`` is given."""
    out = set() if out is None else out
    t = unwrap_optional(t)
    if typing.get_origin(t) in (list, dict):
        return declared_fields(typing.get_args(t)[-1], read, out)
    if not typing.is_typeddict(t):
        return out
    for name, ft in hints(t).items():
        key = (t.__name__, name)
        if key in out:
            continue
        out.add(key)
        if read is None or key in read:
            declared_fields(ft, read, out)
    return out


def conforms(value, t, path, sent, problems):
    """Checks value against type t, adding the (TypedDict, field) pairs it
    holds to ``sent`` and what does not fit to ``problems``."""
    t = unwrap_optional(t) if value is not None else t
    origin = typing.get_origin(t)
    if typing.is_typeddict(t):
        if not isinstance(value, dict):
            problems.append('%s: %r is not a %s' % (path, type(value), t.__name__))
            return
        declared = hints(t)
        missing = t.__required_keys__ - set(value)
        if missing:
            problems.append('%s: %s misses %s' % (path, t.__name__, sorted(missing)))
        for k, v in value.items():
            if k not in declared:
                problems.append('%s: %s has no field %s' % (path, t.__name__, k))
                continue
            sent.add((t.__name__, k))
            conforms(v, declared[k], '%s.%s' % (path, k), sent, problems)
    elif origin is list:
        if not isinstance(value, list):
            problems.append('%s: %r is not a list' % (path, value))
            return
        for i, v in enumerate(value):
            conforms(v, typing.get_args(t)[0], '%s[%d]' % (path, i), sent, problems)
    elif origin is dict:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            problems.append('%s: %r is not a dict of names' % (path, value))
            return
        for k, v in value.items():
            conforms(v, typing.get_args(t)[1], '%s[%r]' % (path, k), sent, problems)
    elif origin is typing.Union:
        if value is not None or type(None) not in typing.get_args(t):
            problems.append('%s: %r does not fit %s' % (path, value, t))
    elif t is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.append('%s: %r is not a number' % (path, value))
    elif t is int or t is bool or t is str:
        if not isinstance(value, t) or (t is int and isinstance(value, bool)):
            problems.append('%s: %r is not a %s' % (path, value, t.__name__))
    else:
        problems.append('%s: no check for %s' % (path, t))


def colored_heightmap():
    hm = klampt.Heightmap()
    hm.resize(6, 5)
    hm.setSize(1.0, 1.0)
    hm.heights[:] = 0.1
    hm.setColorImage_b(np.full((5, 6, 3), 200, dtype=np.uint8))
    return klampt.Geometry3D(hm)


def full_scene():
    """A scene with every kind of item the web viewer shows."""
    world = arm_table_world()
    scene = VisualizationScene()
    scene.add('world', world)
    cloud = klampt.PointCloud()
    cloud.setPoints(np.array([[0.0, 0.0, 1.0], [0.1, 0.0, 1.0]]))
    scene.add('cloud', klampt.Geometry3D(cloud))
    scene.add('heights', colored_heightmap())
    scene.add('ball', sphere_geometry((0.0, 0.0, 1.0), 0.1))
    scene.setColor('ball', 1.0, 0.0, 0.0, 0.5)
    scene.add('point', [0.0, 0.0, 1.0], label='a point')
    scene.add('frame', ([1, 0, 0, 0, 1, 0, 0, 0, 1], [0.0, 0.0, 0.5]))
    scene.add('path', Trajectory([0, 1], [[0, 0, 0], [1, 1, 1]]))
    scene.add('title', 'in a corner', position=(10, 10))
    scene.add('console', 'on the console')
    scene.add('hidden robot', world.robot(0))
    scene.hide('hidden robot')
    scene.add('hidden world', world)
    scene.hide('hidden world')
    scene.autoFitCamera()
    return scene


@pytest.fixture(scope='module')
def messages():
    scene = full_scene()
    serializer = SceneSerializer(scene)
    sharer = HTMLSharePath(None)
    sharer.start(arm_table_world())
    sharer.animate(0.1)
    return [(serializer.build(), protocol.Scene, 'scene'),
            (serializer.transforms(), protocol.Transforms, 'transforms'),
            (camera_json(scene.view), protocol.Camera, 'camera')] + \
           [(f, protocol.Frame, 'frame') for f in sharer.frames]


def test_viewer_reads_only_declared_fields_and_every_declared_one_or_says_why():
    with open(VIEWER, encoding='utf-8') as f:
        read, undeclared = viewer_reads(f.read())
    assert not undeclared, undeclared
    reachable = declared_fields(read=read)
    unexplained = sorted(reachable - read - set(protocol.NOT_READ_BY_VIEWER))
    assert not unexplained, "declared, not read by viewer.js, not in NOT_READ_BY_VIEWER: %s" % unexplained
    stale = sorted(set(protocol.NOT_READ_BY_VIEWER) & read)
    assert not stale, "NOT_READ_BY_VIEWER names fields viewer.js reads: %s" % stale
    unknown = sorted(set(protocol.NOT_READ_BY_VIEWER) - declared_fields())
    assert not unknown, unknown


def test_serializer_sends_the_declared_fields_with_their_types(messages):
    sent, problems = set(), []
    for value, t, path in messages:
        conforms(value, t, path, sent, problems)
    assert not problems, "\n".join(problems[:20])
    never_sent = sorted(declared_fields() - sent)
    assert not never_sent, "declared fields the serializer never sent: %s" % never_sent


def test_the_checks_catch_a_mismatch():
    read, undeclared = viewer_reads("var a = scene.camera.fov, b = e.points[k][0], c = this.checker.zoom;\n"
                                    "if (node.opacity) L[i].colour.slice();")
    assert read == {('Scene', 'camera'), ('Camera', 'fov'), ('Extra', 'points')}
    assert len(undeclared) == 2 and 'opacity' in undeclared[0] and 'colour' in undeclared[1]
    # a message with an undeclared field and a wrong type
    sent, problems = set(), []
    conforms({'position': [0, 0, 1], 'target': [0, 0, 0], 'up': [0, 0, 1], 'fov': '30', 'near': 0.1, 'far': 10,
              'zoom': 2}, protocol.Camera, 'camera', sent, problems)
    assert any('fov' in p for p in problems) and any('zoom' in p for p in problems)
    problems = []
    conforms({'transforms': {'link': 'not a matrix'}}, protocol.Frame, 'frame', sent, problems)
    assert problems
