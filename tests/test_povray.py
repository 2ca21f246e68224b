"""klampt.io.povray and povray_animation: real POV-Ray renders of the demo
world seen from the vis camera, compared with vis's own OpenGL render of
the same view, and the scene files they are made from."""
import json
import math
import os
import re
import shutil

import numpy as np
import pytest

from klampt.math import se3, vectorops

from conftest import arm_table_world, sphere_geometry

W, H = 200, 150
BLUE = (0, 0, 1)


def _require_povray():
    message = None
    try:
        import vapory  # noqa: F401
    except ImportError:
        message = "vapory is not installed (pip install vapory)"
    if message is None and shutil.which('povray') is None:
        message = "POV-Ray is not installed (apt-get install povray)"
    if message is not None:
        if os.environ.get('CI'):
            pytest.fail(message)
        pytest.skip(message)
    from klampt.io import povray, povray_animation
    return povray, povray_animation


@pytest.fixture
def povray():
    return _require_povray()[0]


@pytest.fixture
def scene(vis):
    """vis showing arm_table.xml at W x H from the auto-fitted camera, the
    robot painted pure blue."""
    world = arm_table_world()
    vis.resizeWindow(W, H)
    vis.add('world', world)
    vis.autoFitCamera()
    vis.setColor(('world', world.robot(0).getName()), *BLUE)
    return vis, world


def _read_png(path):
    from PIL import Image
    return np.asarray(Image.open(path))


def _blue_mask(rgb):
    """Pixels of the pure blue robot, lit or in shadow."""
    rgb = rgb[:, :, :3].astype(int)
    return (rgb[:, :, 2] >= 30) & (rgb[:, :, 2] > 2 * (rgb[:, :, 0] + rgb[:, :, 1]))


def _render(povray, vis, world, path, **settings):
    properties = {'antialiasing': None, 'quality': 5, 'output_alpha': False}
    properties.update(settings)
    povray.render_to_file(properties, str(path))
    assert povray.to_povray(vis, world, properties) is None
    return properties


def _scene_text(povray, vis, world, folder, **settings):
    """The POV-Ray scene of the current frame, written, not rendered."""
    properties = dict(settings)
    povray.render_to_animation(properties, str(folder))
    cmd = povray.to_povray(vis, world, properties)
    with open(cmd[1]) as f:
        return f.read(), cmd, properties


def _has_triangles(geometry):
    return geometry.type() == 'TriangleMesh' and len(geometry.getTriangleMesh().indices) > 0


def _vectors(text, keyword):
    return [[float(v) for v in m.split(',')] for m in re.findall(keyword + r'\s*<([^>]*)>', text)]


def test_arm_table_render_shows_the_robot_where_opengl_does(povray, scene, tmp_path):
    vis, world = scene
    png = tmp_path / 'arm_table.png'
    _render(povray, vis, world, png)
    img = _read_png(png)
    assert img.shape[:2] == (H, W)
    robot = _blue_mask(img)
    assert robot.mean() >= 0.015
    colors, counts = np.unique(img[:, :, :3].reshape(-1, 3), axis=0, return_counts=True)
    assert counts.max() < 0.5 * W * H and len(colors) > 50
    # the same camera in vis's OpenGL renderer puts the robot on the same pixels
    gl = _blue_mask(vis.screenshot())
    assert (robot & gl).sum() / (robot | gl).sum() >= 0.6


def test_scene_text_camera_and_meshes(povray, scene, tmp_path):
    vis, world = scene
    text, cmd, _ = _scene_text(povray, vis, world, tmp_path)
    view = vis.getViewport()
    R, eye = view.camera.matrix()
    camera = re.search(r'camera \{(.*?)\}', text, re.S).group(1)
    assert _vectors(camera, 'location')[0] == pytest.approx(eye, abs=1e-9)
    assert _vectors(camera, 'direction')[0] == pytest.approx(vectorops.mul(R[6:9], -1), abs=1e-9)
    right, up = _vectors(camera, 'right')[0], _vectors(camera, 'up')[0]
    assert vectorops.norm(right) / vectorops.norm(up) == pytest.approx(W / H)
    assert vectorops.dot(right, up) == pytest.approx(0, abs=1e-9)
    assert float(re.search(r'angle\s*([-0-9.e]+)', camera).group(1)) == pytest.approx(view.fov)
    assert '+W%d' % W in cmd and '+H%d' % H in cmd

    # one mesh2 per non-empty element, with all its vertices and triangles
    meshes = []
    for r in range(world.numRobots()):
        meshes += [world.robot(r).link(i).geometry() for i in range(world.robot(r).numLinks())]
    meshes += [world.rigidObject(i).geometry() for i in range(world.numRigidObjects())]
    meshes += [world.terrain(i).geometry() for i in range(world.numTerrains())]
    meshes = [g.getTriangleMesh() for g in meshes if _has_triangles(g)]
    assert text.count('mesh2 {') == len(meshes)
    counts = [int(n) for n in re.findall(r'vertex_vectors \{\s*(\d+),', text)]
    assert sorted(counts) == sorted(np.size(m.vertices) // 3 for m in meshes)
    faces = [int(n) for n in re.findall(r'face_indices \{\s*(\d+),', text)]
    assert sorted(faces) == sorted(np.size(m.indices) // 3 for m in meshes)
    # the robot's links in the vis color, the block in its own
    robot = world.robot(0)
    nlinks = sum(1 for i in range(robot.numLinks()) if _has_triangles(robot.link(i).geometry()))
    assert len(re.findall(r'color\s*<0\.0,0\.0,1\.0>', text)) == nlinks
    block = world.rigidObject('block').appearance().getColor()
    assert len(re.findall(r'color\s*<%s>' % ','.join(re.escape(repr(float(c))) for c in block[:3]), text)) == 1


def test_mesh_placement_matches_the_objects_transform(povray, scene, tmp_path):
    vis, world = scene
    text, _, _ = _scene_text(povray, vis, world, tmp_path)
    block = world.rigidObject('block')
    vertices = np.asarray(block.geometry().getTriangleMesh().vertices).reshape(-1, 3)
    # find the block's mesh2 by its color and read its matrix
    color = ','.join(repr(float(c)) for c in block.appearance().getColor()[:3])
    body = [b for b in text.split('mesh2 {')[1:] if '<%s>' % color in b]
    assert len(body) == 1
    m = [float(v) for v in re.search(r'matrix\s*<([^>]*)>', body[0]).group(1).split(',')]
    local = vertices[0]
    placed = [sum(local[j] * m[3 * j + i] for j in range(3)) + m[9 + i] for i in range(3)]
    assert placed == pytest.approx(se3.apply(block.getTransform(), list(local)), abs=1e-6)


def test_hidden_items_and_geometry_items(povray, scene, tmp_path):
    vis, world = scene
    full, _, _ = _scene_text(povray, vis, world, tmp_path / 'a')
    vis.hide(('world', 'block'))
    vis.add('marker', sphere_geometry((0.75, 0, 1.0), 0.05), color=(1, 0, 1, 0.5))
    text, _, _ = _scene_text(povray, vis, world, tmp_path / 'b')
    assert text.count('mesh2 {') == full.count('mesh2 {') - 1
    sphere = re.search(r'sphere \{\s*<([^>]*)>,?\s*([0-9.]+)(.*?)matrix', text, re.S)
    assert [float(v) for v in sphere.group(1).split(',')] == pytest.approx([0.75, 0, 1.0])
    assert float(sphere.group(2)) == pytest.approx(0.05)
    assert re.search(r'color\s*<1\.0,0\.0,1\.0>\s*transmit\s*0\.5', sphere.group(3))
    # a world that is not in vis is drawn from its own appearances
    text, _, _ = _scene_text(povray, vis, arm_table_world(), tmp_path / 'c')
    assert text.count('mesh2 {') == 2 * full.count('mesh2 {') - 1


def test_geometry_item_lands_on_the_opengl_pixels(povray, vis, tmp_path):
    vis.resizeWindow(120, 90)
    vis.add('s', sphere_geometry((1.0, 0, 0.5), 0.4), color=(1, 0, 0, 1))
    _render(povray, vis, None, tmp_path / 's.png')
    pov = _read_png(tmp_path / 's.png')[:, :, :3].astype(int)
    gl = vis.screenshot().astype(int)

    def red(img):
        return (img[:, :, 0] > 40) & (img[:, :, 0] > 2 * (img[:, :, 1] + img[:, :, 2]))
    a, b = red(pov), red(gl)
    assert a.sum() > 200 and (a & b).sum() / (a | b).sum() > 0.9
    ys, xs = np.nonzero(a)
    assert xs.mean() > 60 + 10 and ys.mean() < 45 - 5  # right of and above the centre, as in vis
    # the background is vis's (output_alpha off) or transparent (the default)
    assert np.abs(pov[0, 0] - [204, 204, 229]).max() <= 1
    properties = {'antialiasing': None}
    povray.render_to_file(properties, str(tmp_path / 'alpha.png'))
    povray.to_povray(vis, None, properties)
    rgba = _read_png(tmp_path / 'alpha.png')
    assert rgba.shape == (90, 120, 4) and rgba[0, 0, 3] == 0
    assert rgba[int(ys.mean()), int(xs.mean()), 3] == 255


def test_static_objects_are_written_once_and_render_the_same(povray, scene, tmp_path):
    vis, world = scene
    _render(povray, vis, world, tmp_path / 'plain.png')
    properties = _render(povray, vis, world, tmp_path / 'cached.png', cache_folder=str(tmp_path / 'cache'))
    assert not (tmp_path / 'cache').exists()  # made when an object is cached
    povray.mark_terrain_transient(properties, world)
    povray.mark_robot_transient(properties, world.robot(0))
    povray.render_to_file(properties, str(tmp_path / 'cached.png'))
    povray.to_povray(vis, world, properties)
    cached = sorted(os.listdir(tmp_path / 'cache'))
    robot = world.robot(0)
    assert len(cached) == world.numTerrains() + sum(
        1 for i in range(robot.numLinks()) if _has_triangles(robot.link(i).geometry()))
    assert np.array_equal(_read_png(tmp_path / 'plain.png'), _read_png(tmp_path / 'cached.png'))
    # the cached links still follow the robot
    q = robot.getConfig()
    q[1] += 1.0
    robot.setConfig(q)
    povray.render_to_file(properties, str(tmp_path / 'moved.png'))
    povray.to_povray(vis, world, properties)
    assert sorted(os.listdir(tmp_path / 'cache')) == cached
    moved = _blue_mask(_read_png(tmp_path / 'moved.png'))
    gl = _blue_mask(vis.screenshot())
    assert (moved & gl).sum() / (moved | gl).sum() >= 0.6
    assert not np.array_equal(moved, _blue_mask(_read_png(tmp_path / 'plain.png')))


def test_animation_frames_and_video(scene, tmp_path):
    povray, povray_animation = _require_povray()
    vis, world = scene
    robot = world.robot(0)
    folder = tmp_path / 'anim'
    properties = {'antialiasing': None, 'quality': 4}
    for k in range(2):
        q = robot.getConfig()
        q[1] = 0.8 * k
        robot.setConfig(q)
        povray.render_to_animation(properties, str(folder))
        assert properties['tempfile'] == str(folder / ('%d.pov' % k))
        povray.to_povray(vis, world, properties)
    with open(folder / 'cmd.dat') as f:
        assert [json.loads(line)[1] for line in f] == [str(folder / '0.pov'), str(folder / '1.pov')]
    povray_animation.render_animation(str(folder), dur=0.5, parallel=True)
    frames = [_read_png(folder / ('%d.png' % k)) for k in range(2)]
    assert all(f.shape[:2] == (H, W) for f in frames)
    masks = [_blue_mask(f) for f in frames]
    assert all(m.mean() >= 0.01 for m in masks) and not np.array_equal(*masks)
    import cv2
    video = cv2.VideoCapture(str(folder / 'vid.AVI'))
    read = []
    ok, frame = video.read()
    while ok:
        read.append(frame)
        ok, frame = video.read()
    assert len(read) == 2 and read[0].shape == (H, W, 3)
    assert video.get(cv2.CAP_PROP_FPS) == pytest.approx(2.0)
    with pytest.raises(FileNotFoundError):
        povray_animation.render_animation(str(tmp_path / 'missing'))


def test_lights(povray, arm_table):
    robot = arm_table.robot(0)
    properties = {}
    povray.add_multiple_lights(properties, robot, dist=2.0, numLight=4)
    lights = [str(light) for light in properties['lights']]
    assert len(lights) == 4
    bb = povray.compute_bb(robot)
    ctr = vectorops.mul(vectorops.add(bb[0], bb[1]), 0.5)
    for light in lights:
        pos = [float(v) for v in re.search(r'light_source \{\s*<([^>]*)>', light).group(1).split(',')]
        assert pos[2] == pytest.approx(bb[1][2])
        assert math.hypot(pos[0] - ctr[0], pos[1] - ctr[1]) == pytest.approx(2.0)
    properties = {}
    povray.add_light(properties, [[0, 0, 3], [1, 0, 3]], [0, 0, 0], spotlight=True, area=0.5, sample=3)
    assert len(properties['lights']) == 2
    text = str(properties['lights'][1])
    assert 'spotlight' in text and 'point_at\n<0,0,0>' in text
    a, b = _vectors(text.split('area_light')[1], '')[:2]
    d = vectorops.unit([-1, 0, -3])
    assert vectorops.norm(a) == pytest.approx(0.5) and vectorops.norm(b) == pytest.approx(0.5)
    assert vectorops.dot(a, d) == pytest.approx(0, abs=1e-12) and vectorops.dot(b, d) == pytest.approx(0, abs=1e-12)
    with pytest.raises(ValueError):
        povray.add_light({}, [0, 0, 1], spotlight=True)
    pos, tgt = povray.create_env_light_for_bb(([0, 0, 0], [2, 2, 1]), distRatio=1.0, nLight=2)
    assert tgt == [1, 1, 0] and pos[0] == pytest.approx([1 + 2 * math.sqrt(2), 1, 2])


def test_properties_lookup_and_materials(povray, arm_table):
    import vapory
    block = arm_table.rigidObject('block')
    properties = {'phong': 0.5, 'block': {'phong': 0.1}}
    assert povray.get_property(properties, [block], 'phong') == 0.1
    assert povray.get_property(properties, [arm_table.rigidObject('ball')], 'phong') == 0.5
    assert povray.get_property(properties, [], 'missing', 7) == 7
    assert povray.get_property_yes({'hide': True}, None, 'hide') and not povray.get_property_yes({'hide': 0}, None, 'hide')
    povray.set_material(properties, block, vapory.Finish('reflection', 0.3), vapory.Normal('bumps', 0.2))
    povray.mark_transient(properties, block, False)
    assert properties['block']['transient'] is False and properties['block']['phong'] == 0.1
    elems = povray.geometry_to_povray(block.appearance(), block.geometry(), block, None, properties)
    text = str(elems[0])
    assert 'reflection' in text and 'bumps' in text
    properties['block']['hide'] = True
    assert povray.geometry_to_povray(block.appearance(), block.geometry(), block, None, properties) == []


def test_errors(povray, scene, tmp_path, monkeypatch):
    vis, world = scene
    with pytest.raises(TypeError):
        povray.to_povray(object(), world, {})
    with pytest.raises(ValueError):
        povray.render_povstring('', str(tmp_path / 'x.png'), width=0, height=10)
    with pytest.raises(IOError, match='POVRay rendering failed'):
        povray.render_povstring('sphere { <0,0,0> }', str(tmp_path / 'x.png'), width=10, height=10)
    monkeypatch.setattr(povray, '_POVRAY', 'povray-not-installed')
    with pytest.raises(IOError, match='not installed'):
        _render(povray, vis, world, tmp_path / 'y.png')


def test_primitives_point_clouds_and_groups(povray, vis, tmp_path):
    from klampt import GeometricPrimitive, Geometry3D, PointCloud
    from klampt.math import so3
    vis.resizeWindow(160, 120)
    cube = GeometricPrimitive()
    cube.setAABB([-0.2, -0.2, -0.2], [0.2, 0.2, 0.2])
    box = Geometry3D(cube)
    box.setCurrentTransform(so3.rotation([0, 0, 1], 0.7), [0, 0, 0])
    cloud = PointCloud()
    cloud.setPoints(np.random.RandomState(0).rand(50, 3) * 0.3 + [0.5, 0, 0])
    segment, point = GeometricPrimitive(), GeometricPrimitive()
    segment.setSegment([-1, 0, 0], [-0.5, 0, 0.5])
    point.setPoint([0, 0, 0.8])
    hull = Geometry3D(cube).convert('ConvexHull')
    hull.setCurrentTransform(so3.identity(), [0, 0, -0.6])
    group = Geometry3D()
    group.setGroup()
    for i, g in enumerate([box, Geometry3D(cloud), Geometry3D(segment), Geometry3D(point), hull]):
        group.setElement(i, g)
    vis.add('group', group, color=(0, 1, 0, 1))
    text, _, _ = _scene_text(povray, vis, None, tmp_path / 'scene', radius=0.03)
    assert text.count('box {') == 1 and text.count('cylinder {') == 1 and text.count('mesh2 {') == 1
    assert text.count('sphere {') == 51 and text.count('union {') == 1
    _render(povray, vis, None, tmp_path / 'g.png', radius=0.03)

    def green(img):
        img = img[:, :, :3].astype(int)
        return (img[:, :, 1] > 40) & (img[:, :, 1] > 2 * (img[:, :, 0] + img[:, :, 2]))
    pov, gl = green(_read_png(tmp_path / 'g.png')), green(vis.screenshot())
    assert (pov & gl).sum() / (pov | gl).sum() > 0.5
