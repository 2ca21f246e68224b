"""The viser backend, against a real server on the loopback interface and a
websocket client speaking viser's protocol as the browser does
(tests/viser_wire.py): the world's nodes arrive with the poses of the
links and objects, a configuration change moves the link nodes without
re-sending meshes, points and labels arrive, the JSON GUI and actions show
as controls whose use runs the callbacks and sets ``getWidgetState``, and
the Close button, ``kill()`` and a second ``show()`` behave as a window's."""
import contextlib
import io
import re
import time

import numpy as np
import pytest

from conftest import arm_table_world

pytest.importorskip('viser')

from klampt.vis import visualization  # noqa: E402
from viser_wire import ViserClient  # noqa: E402


@pytest.fixture
def vis(monkeypatch):
    """klampt.vis on the viser backend, on a port the OS picks."""
    monkeypatch.setenv('KLAMPT_VIS_PORT', '0')
    monkeypatch.delenv('KLAMPT_VIS_HEADLESS_TIMEOUT', raising=False)
    from klampt import vis as v
    v.kill()
    assert v.init('viser') == 'viser'
    v.createWindow('viser test')
    yield v
    v.kill()


def _show(vis):
    """show() and the port from the printed URL."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        vis.show()
    found = re.search(r'klampt\.vis: viser serving the scene on http://127\.0\.0\.1:(\d+)', out.getvalue())
    assert found, out.getvalue()
    port = int(found.group(1))
    assert port == vis.nativeWindow().get_port()
    return port


def _assert_pose(pose, T, tol=1e-5):
    from klampt.math import so3
    wxyz, position = pose
    R = so3.from_quaternion(wxyz)
    assert max(abs(a - b) for a, b in zip(R, T[0])) < tol, (R, T[0])
    assert max(abs(a - b) for a, b in zip(position, T[1])) < tol, (position, T[1])


def _relative(robot, i):
    from klampt.math import se3
    link = robot.link(i)
    p = link.getParent()
    return link.getTransform() if p < 0 else se3.mul(se3.inv(robot.link(p).getTransform()), link.getTransform())


def _link_paths(robot):
    """Each link's expected viser path: the robot group, then the parent chain."""
    paths = []
    for i in range(robot.numLinks()):
        chain = []
        j = i
        while j >= 0:
            chain.append(robot.link(j).getName())
            j = robot.link(j).getParent()
        paths.append('/' + robot.getName() + '/' + '/'.join(reversed(chain)))
    return paths


def test_world_nodes_poses_and_motion(vis):
    world = arm_table_world()
    robot = world.robot(0)
    q = robot.getConfig()
    q[1] = 0.3
    robot.setConfig(q)
    vis.add('world', world)
    port = _show(vis)
    client = ViserClient(port)
    try:
        paths = _link_paths(robot)
        objects = ['/' + world.rigidObject(i).getName() for i in range(world.numRigidObjects())]
        terrains = ['/' + world.terrain(i).getName() for i in range(world.numTerrains())]
        wanted = set(paths + objects)
        # terrains come as glTF, textured with the checkerboard
        client.wait_for(lambda ms: wanted <= {m['name'] for m in ms if m['type'] == 'MeshMessage'}
                        and set(terrains) <= {m['name'] for m in ms if m['type'] == 'GlbMessage'})
        client.receive(0.3)
        poses = client.poses()
        for i, path in enumerate(paths):
            _assert_pose(poses[path], _relative(robot, i))
        for i, path in enumerate(objects):
            _assert_pose(poses[path], world.rigidObject(i).getTransform())
        # a link's colour is the robot's appearance colour
        mesh = next(m for m in client.of_type('MeshMessage') if m['name'] == paths[2])
        expected = [int(255 * c) for c in robot.link(2).appearance().getColor()[:3]]
        assert max(abs(a - b) for a, b in zip(mesh['props']['color'], expected)) <= 1
        meshes_before = len(client.of_type('MeshMessage')) + len(client.of_type('GlbMessage'))

        # a configuration change moves the link's node (relative pose), nothing else is re-sent
        q[1] = -0.8
        q[3] = 1.1
        vis.lock()
        robot.setConfig(q)
        vis.unlock()
        vis.update()
        client.wait_for(lambda ms: any(m['type'] == 'SetOrientationMessage' and m['name'] == paths[1]
                                       for m in ms[-200:]) and _pose_matches(client, paths[1], _relative(robot, 1)))
        client.receive(0.3)
        poses = client.poses()
        for i in (1, 3):
            _assert_pose(poses[paths[i]], _relative(robot, i))
        assert len(client.of_type('MeshMessage')) + len(client.of_type('GlbMessage')) == meshes_before

        # a point, a labelled world point and screen text
        vis.add('pt', [0.5, 0.25, 1.0], color=(1, 0, 0, 1), size=10)
        vis.addText('note', 'where it is', position=(0.1, 0.2, 0.3))
        vis.addText('console', 'hello from the console')
        client.wait_for(lambda ms: any(m['type'] == 'PointCloudMessage' and m['name'] == '/pt' for m in ms)
                        and any(m['type'] == 'LabelMessage' and m['name'] == '/note' for m in ms)
                        and any(m['type'] == 'GuiUpdateMessage' and 'hello from the console'
                                in str(m['updates'].get('_markdown', '')) for m in ms))
        label = next(m for m in client.of_type('LabelMessage') if m['name'] == '/note')
        assert label['props']['text'] == 'where it is'
        client.receive(0.2)
        assert client.poses()['/note'][1] == pytest.approx([0.1, 0.2, 0.3])
        assert _point_at(client.messages, '/pt', [0.5, 0.25, 1.0])
        cloud = next(m for m in client.of_type('PointCloudMessage') if m['name'] == '/pt')
        assert np.asarray(cloud['props']['colors']).tolist() == [255, 0, 0]
        # meshes carry the geometry: the table's vertices are those of the terrain's mesh, in its frame
        table = next(m for m in client.of_type('GlbMessage') if m['name'] == '/table')
        expected = np.asarray(world.terrain('table').geometry().getTriangleMesh().getVertices(), dtype=np.float32)
        import trimesh
        glb = trimesh.load(io.BytesIO(bytes(table['props']['glb_data'])), file_type='glb', process=False)
        got = next(iter(glb.geometry.values()))
        assert got.vertices.shape == expected.shape and np.allclose(got.vertices, expected, atol=1e-5)
        # its texture: the two levels of the terrains' checkerboard, squares of 0.5 m in x and y
        from klampt.vis._render.geometry import TERRAIN_CHECKER_LEVELS, TERRAIN_CHECKER_SIZE
        texels = np.asarray(got.visual.material.baseColorTexture.convert('L'))
        assert sorted(np.unique(texels)) == sorted(TERRAIN_CHECKER_LEVELS)
        assert np.allclose(got.visual.uv * 2 * TERRAIN_CHECKER_SIZE, expected[:, :2], atol=1e-5)
        assert len(client.of_type('MeshMessage')) + len(client.of_type('GlbMessage')) == meshes_before

        # a point cloud geometry, at its transform
        import klampt
        from klampt.math import so3
        pc = klampt.PointCloud()
        pc.setPoints(np.array([[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0, 0.2, 0.3]]))
        cloud_geom = klampt.Geometry3D(pc)
        cloud_geom.setCurrentTransform(so3.rotation([0, 0, 1], 0.5), [1.0, 2.0, 0.5])
        vis.add('cloud', cloud_geom, color=(0, 0, 1, 1))
        client.wait_for(lambda ms: any(m['type'] == 'PointCloudMessage' and m['name'] == '/cloud' for m in ms))
        client.receive(0.2)
        cloud = [m for m in client.of_type('PointCloudMessage') if m['name'] == '/cloud'][-1]
        assert np.allclose(np.asarray(cloud['props']['points']).reshape(-1, 3), pc.getPoints(), atol=1e-6)
        assert np.asarray(cloud['props']['colors']).tolist() == [0, 0, 255]
        _assert_pose(client.poses()['/cloud'], cloud_geom.getCurrentTransform())

        # removing an item removes its node
        vis.remove('pt')
        client.wait_for(lambda ms: any(m['type'] == 'RemoveSceneNodeMessage' and m['name'] == '/pt' for m in ms))

        # a colour change re-sends the robot's meshes (children of a re-made node with it), at their poses
        vis.setColor(('world', robot.getName()), 0, 1, 0)
        client.wait_for(lambda ms: all(_last_mesh(ms, p) is not None and _last_mesh(ms, p)['props']['color'] ==
                                       [0, 255, 0] for p in paths))
        client.receive(0.3)
        for i, path in enumerate(paths):
            _assert_pose(client.poses()[path], _relative(robot, i))
        assert [m['name'] for m in client.of_type('GlbMessage')].count('/table') == 1  # the table is not re-sent
        vis.remove('world')
        client.wait_for(lambda ms: any(m['type'] == 'RemoveSceneNodeMessage' and m['name'] == '/' + robot.getName()
                                       for m in ms))
        mirror = visualization._manager.backend.mirror
        client.receive(0.3)
        assert not [p for p in mirror.nodes if p.startswith('/' + robot.getName())]
    finally:
        client.close()


def _last_mesh(messages, path):
    meshes = [m for m in messages if m['type'] == 'MeshMessage' and m['name'] == path]
    return meshes[-1] if meshes else None


def _pose_matches(client, path, T):
    try:
        _assert_pose(client.poses()[path], T)
        return True
    except (AssertionError, KeyError, TypeError):
        return False


def test_gui_controls_fire_callbacks(vis):
    calls = []
    vis.addButton('Press me', lambda: calls.append('button'))
    vis.addCheckbox('Enable', lambda s: calls.append(('checkbox', s)), value=False)
    vis.addSlider('Gain', 0.5, 0.0, 2.0, lambda s: calls.append(('slider', s)))
    vis.addSelect('Mode', ['fast', 'slow'], lambda s: calls.append(('select', s)))
    vis.addSelect('Parts', ['a', 'b', 'c'], lambda s: calls.append(('parts', s)), multiple=True)
    vis.addInput('Name', 'robot', lambda s: calls.append(('name', s)))
    vis.addInput('Count', 3, lambda s: calls.append(('count', s)))
    vis.addAction(lambda: calls.append('action'), 'Do it', 'd', 'does it')
    port = _show(vis)
    client = ViserClient(port)
    try:
        labels = ['Close', 'Press me', 'Enable', 'Gain', 'Mode', 'Parts', 'Name', 'Count', 'Do it (d)', 'a', 'b']
        client.wait_for(lambda ms: all(client.gui_uuid(label) for label in labels))
        assert calls == []

        def run(label, value, expected):
            client.set_gui(label, value)
            deadline = time.time() + 5
            while expected not in calls and time.time() < deadline:
                time.sleep(0.02)
            assert expected in calls, (label, calls)
        run('Press me', True, 'button')
        run('Enable', True, ('checkbox', True))
        assert vis.getWidgetState('Enable') is True
        run('Gain', 1.25, ('slider', 1.25))
        assert vis.getWidgetState('Gain') == 1.25
        run('Mode', 'slow', ('select', 'slow'))
        assert vis.getWidgetState('Mode') == 'slow'
        run('b', True, ('parts', ['b']))
        run('a', True, ('parts', ['a', 'b']))
        assert vis.getWidgetState('Parts') == ['a', 'b']
        run('Name', 'arm', ('name', 'arm'))
        run('Count', 7, ('count', 7))
        assert vis.getWidgetState('Count') == 7
        run('Do it (d)', True, 'action')

        # a widget added while shown appears; Close ends shown()
        vis.addButton('Later', lambda: calls.append('later'))
        client.wait_for(lambda ms: client.gui_uuid('Later'))
        run('Later', True, 'later')
        assert vis.shown()
        client.set_gui('Close', True)
        deadline = time.time() + 5
        while vis.shown() and time.time() < deadline:
            time.sleep(0.02)
        assert not vis.shown()
    finally:
        client.close()


def test_show_kill_show_again_and_spin(vis):
    world = arm_table_world()
    vis.add('world', world)
    for _ in range(2):
        port = _show(vis)
        assert vis.shown()
        client = ViserClient(port)
        try:
            client.wait_for(lambda ms: any(m['type'] == 'GlbMessage' and m['name'] == '/table' for m in ms))
        finally:
            client.close()
        vis.kill()
        assert not vis.shown()
        with pytest.raises(OSError):
            ViserClient(port)  # the server is gone
        vis.init('viser')
    # screenshots are rendered in this process, also while the browser view is served
    from conftest import require_offscreen
    require_offscreen()
    with contextlib.redirect_stdout(io.StringIO()):
        vis.show()
    vis.resizeWindow(320, 240)
    vis.autoFitCamera()
    img = vis.screenshot()
    assert img.shape == (240, 320, 3) and (np.abs(img.astype(int) - [204, 204, 229]).max(axis=2) > 3).mean() > 0.05
    vis.show(False)
    start = time.time()
    with contextlib.redirect_stdout(io.StringIO()):
        vis.spin(0.5)
    assert 0.4 < time.time() - start < 5
    assert not vis.shown()
    # loop(setup=vis.show, callback=cb) runs the callback until it hides the window
    ticks = []

    def cb():
        ticks.append(1)
        if len(ticks) >= 3:
            vis.show(False)
    with contextlib.redirect_stdout(io.StringIO()):
        vis.loop(setup=vis.show, callback=cb)
    assert len(ticks) == 3


def test_default_port_is_8080_or_the_next_free(monkeypatch):
    import socket
    monkeypatch.delenv('KLAMPT_VIS_PORT', raising=False)
    from klampt import vis
    vis.kill()
    vis.init('viser')
    try:
        port = _show(vis)
        assert port >= 8080
        if port > 8080:  # 8080 was taken: nothing may answer as us there, but something listens
            with socket.create_connection(('127.0.0.1', 8080), timeout=2):
                pass
    finally:
        vis.kill()


def test_edit_with_gizmos_and_joint_sliders(vis):
    import msgspec
    from klampt.math import so3
    world = arm_table_world()
    robot = world.robot(0)
    vis.add('world', world)
    vis.add('p', [0.2, 0.3, 1.0], color=(1, 0, 0, 1))
    vis.add('T', (so3.identity(), [0.0, 0.5, 0.5]))
    vis.edit('p')
    vis.edit('T')
    vis.edit(('world', robot.getName()))
    port = _show(vis)
    client = ViserClient(port)
    try:
        gizmos = client.wait_for(lambda ms: [m for m in ms if m['type'] == 'TransformControlsMessage']
                                 if sum(m['type'] == 'TransformControlsMessage' for m in ms) >= 2 else None)
        poses = client.poses()
        by_position = {tuple(round(v, 6) for v in poses[g['name']][1]): g for g in gizmos}
        point_gizmo = by_position[(0.2, 0.3, 1.0)]
        frame_gizmo = by_position[(0.0, 0.5, 0.5)]
        assert point_gizmo['props']['disable_rotations'] and not frame_gizmo['props']['disable_rotations']

        def drag(gizmo, wxyz, position):
            client.ws.send(msgspec.msgpack.encode({'type': 'TransformControlsUpdateMessage', 'name': gizmo['name'],
                                                   'wxyz': wxyz, 'position': position, 'owner': ''}))
        drag(point_gizmo, [1.0, 0.0, 0.0, 0.0], [0.4, -0.1, 1.2])
        quarter = [0.7071067811865476, 0.0, 0.0, 0.7071067811865476]  # 90 degrees about z
        drag(frame_gizmo, quarter, [0.1, 0.2, 0.3])
        deadline = time.time() + 5
        while time.time() < deadline and vis.getItemConfig('p') != pytest.approx([0.4, -0.1, 1.2]):
            time.sleep(0.05)
        assert vis.getItemConfig('p') == pytest.approx([0.4, -0.1, 1.2])
        while time.time() < deadline and vis.getItemConfig('T')[9:] != pytest.approx([0.1, 0.2, 0.3]):
            time.sleep(0.05)
        T = vis.getItemConfig('T')
        assert T[9:] == pytest.approx([0.1, 0.2, 0.3])
        assert T[:9] == pytest.approx(so3.rotation([0, 0, 1], 1.5707963267948966), abs=1e-9)
        # the point's node follows the edit
        client.wait_for(lambda ms: _point_at(ms, '/p', [0.4, -0.1, 1.2]))

        # a joint slider configures the robot, and the link's node moves in the browser
        link = robot.link(2).getName()
        client.wait_for(lambda ms: client.gui_uuid(link))
        qmin, qmax = robot.getJointLimits()
        target = 0.5 * (qmin[2] + qmax[2]) + 0.25 * (qmax[2] - qmin[2])
        client.set_gui(link, target)
        while time.time() < deadline + 5 and abs(robot.getConfig()[2] - target) > 1e-6:
            time.sleep(0.05)
        assert abs(robot.getConfig()[2] - target) < 1e-6
        assert abs(vis.getItemConfig(('world', robot.getName()))[2] - target) < 1e-6
        path = _link_paths(robot)[2]
        client.wait_for(lambda ms: _pose_matches(client, path, _relative(robot, 2)))

        vis.edit('p', False)
        client.wait_for(lambda ms: any(m['type'] == 'RemoveSceneNodeMessage' and m['name'] == point_gizmo['name']
                                       for m in ms))
    finally:
        client.close()


def _point_at(messages, name, position):
    """Whether the last point cloud named ``name`` is one point at ``position``."""
    clouds = [m for m in messages if m['type'] == 'PointCloudMessage' and m['name'] == name]
    if not clouds:
        return False
    points = np.asarray(clouds[-1]['props']['points'], dtype=float).reshape(-1, 3)
    return points.shape == (1, 3) and np.allclose(points[0], position, atol=1e-6)


def test_browser_starts_at_the_scene_camera_lit_by_the_scene_lights(vis):
    """A browser's first camera is the scene's (z up, viser's vertical fov
    from the horizontal one and the view's aspect); viser's environment map
    and default lights are off, the scene's ambient and sky lights are
    shared and its key light is made for each browser, at the direction
    the camera frame gives it, and turned with the browser's camera."""
    import math
    from klampt.vis import _lighting
    from klampt.vis._web.serialize import camera_json
    world = arm_table_world()
    vis.resizeWindow(800, 450)
    vis.add('world', world)
    vis.autoFitCamera()
    cam = camera_json(vis.getViewport())
    port = _show(vis)
    client = ViserClient(port)  # reports a camera 6 m along -y looking at the origin, z up
    try:
        names = {'/klampt_lights/ambient', '/klampt_lights/world1', '/klampt_lights/camera0'}
        client.wait_for(lambda ms: names <= {m.get('name') for m in ms} and
                        any(m['type'] == 'SetCameraFovMessage' for m in ms))
        client.receive(0.3)
        initial = {m['type']: m for m in client.messages if m.get('initial')}
        assert initial['SetCameraPositionMessage']['position'] == pytest.approx(cam['position'])
        assert initial['SetCameraLookAtMessage']['look_at'] == pytest.approx(cam['target'])
        assert initial['SetCameraUpDirectionMessage']['position'] == pytest.approx([0, 0, 1])
        vertical = 2 * math.atan(math.tan(math.radians(cam['fov']) / 2) * 450 / 800)
        assert initial['SetCameraFovMessage']['fov'] == pytest.approx(vertical)
        assert client.of_type('EnableLightsMessage')[-1]['enabled'] is False
        assert client.of_type('EnvironmentMapMessage')[-1]['hdri_data'] is None
        ambient = next(m for m in client.of_type('AmbientLightMessage') if m['name'] == '/klampt_lights/ambient')
        assert ambient['props']['intensity'] == pytest.approx(_lighting.AMBIENT * math.pi)
        poses = client.poses()
        assert poses['/klampt_lights/world1'][1] == pytest.approx([0, 0, 1])
        # the key light (-0.3, 0.5, 1) of the camera frame: x = +x, y = +z, z (toward the viewer) = -y
        key = np.array([-0.3, -1.0, 0.5]) / np.linalg.norm([-0.3, -1.0, 0.5])

        def key_light_placed(messages):
            # The light follows the camera the client reported; on a loaded machine that
            # update may come after the first poses (until then it is at the scene camera's).
            pose = client.poses().get('/klampt_lights/camera0')
            return pose is not None and pose[1] is not None and np.allclose(pose[1], key, atol=1e-6)

        client.wait_for(key_light_placed)
        assert client.poses()['/klampt_lights/camera0'][1] == pytest.approx(key.tolist(), abs=1e-6)
        light = next(m for m in client.of_type('DirectionalLightMessage') if m['name'] == '/klampt_lights/camera0')
        assert light['props']['intensity'] == pytest.approx(_lighting.LIGHTS[0].diffuse * math.pi)
    finally:
        client.close()
