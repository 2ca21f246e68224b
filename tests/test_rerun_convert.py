"""klampt.io.rerun_convert: every geometry type, robots, worlds, transforms,
trajectories and cameras are logged to an .rrd recording, read back with
Rerun's reader and checked against what the test computes on its own: the
OFF files' vertices and faces, the primitives' shapes, rotations built by
hand, colours packed as Rerun stores them."""
import glob
import math
import os

import numpy as np
import pytest
from scipy.spatial import cKDTree

from conftest import SHARED_DATA, load_shared_world, require_shared_data
from rerun_readback import packed, record, require_rerun, world_points

rr = require_rerun()

import klampt  # noqa: E402
from klampt import Appearance, Geometry3D, GeometricPrimitive, PointCloud  # noqa: E402
from klampt.io import rerun_convert as rc  # noqa: E402
from klampt.math import so3  # noqa: E402
from klampt.model.trajectory import SE3Trajectory, Trajectory  # noqa: E402


def read_off(path):
    """(vertices, triangles) of an OFF file, polygons fanned from their
    first vertex."""
    with open(path) as f:
        words = [w for line in f for w in line.split('#')[0].split()]
    assert words[0] == 'OFF'
    nv, nf = int(words[1]), int(words[2])
    pos = 4
    vertices = np.array(words[pos:pos + 3 * nv], dtype=float).reshape(nv, 3)
    pos += 3 * nv
    triangles = []
    for _ in range(nf):
        n = int(words[pos])
        face = [int(w) for w in words[pos + 1:pos + 1 + n]]
        pos += 1 + n
        triangles += [[face[0], face[k], face[k + 1]] for k in range(1, n - 1)]
    return vertices, np.array(triangles, dtype=np.int64)


def off_files():
    if not os.path.isdir(SHARED_DATA):
        return []
    return sorted(glob.glob(os.path.join(SHARED_DATA, 'objects', '*.off')) +
                  glob.glob(os.path.join(SHARED_DATA, 'terrains', '*.off')))


def load_geometry(path):
    require_shared_data()
    g = Geometry3D()
    assert g.loadFile(path), path
    return g


ROT_Z90 = so3.from_axis_angle(([0, 0, 1], math.pi / 2))


@pytest.mark.parametrize('path', off_files(), ids=os.path.basename)
def test_mesh_files_vertices_triangles_and_transform(tmp_path, path):
    vertices, triangles = read_off(path)
    g = load_geometry(path)
    g.setCurrentTransform(ROT_Z90, [1.0, -2.0, 0.5])
    rec = record(tmp_path, lambda r: rc.log_rr_geometry(g, 'obj', recording=r))
    v, f = rec.mesh('/obj')
    assert v.shape == vertices.shape and f.shape == triangles.shape
    np.testing.assert_allclose(v, vertices, atol=1e-5)
    np.testing.assert_array_equal(f, triangles)
    # a quarter turn about z takes (x, y, z) to (-y, x, z)
    expected = np.column_stack([-vertices[:, 1], vertices[:, 0], vertices[:, 2]]) + [1.0, -2.0, 0.5]
    np.testing.assert_allclose(world_points(rec, '/obj'), expected, atol=1e-5)
    normals = np.asarray(rec.static['/obj']['Mesh3D:vertex_normals']).reshape(-1, 3)
    used = np.unique(triangles)
    np.testing.assert_allclose(np.linalg.norm(normals[used], axis=1), 1.0, atol=1e-5)


def test_vertex_normals_point_outward_on_the_sphere(tmp_path):
    g = load_geometry(os.path.join(SHARED_DATA, 'objects', 'sphere.off'))
    rec = record(tmp_path, lambda r: rc.log_rr_geometry(g, 's', recording=r))
    v, _ = rec.mesh('/s')
    centre = v.mean(axis=0)
    normals = np.asarray(rec.static['/s']['Mesh3D:vertex_normals']).reshape(-1, 3)
    radial = (v - centre) / np.linalg.norm(v - centre, axis=1, keepdims=True)
    assert np.min(np.sum(normals * radial, axis=1)) > 0.95


def test_colours_uniform_per_vertex_per_face_and_override(tmp_path):
    g = load_geometry(os.path.join(SHARED_DATA, 'objects', 'cube.off'))
    vertices, triangles = read_off(os.path.join(SHARED_DATA, 'objects', 'cube.off'))
    uniform = Appearance()
    uniform.setColor(0.2, 0.4, 0.6, 0.8)
    per_vertex = Appearance()
    vcolors = np.column_stack([np.linspace(0, 1, 8), np.zeros(8), np.ones(8), np.ones(8)])
    per_vertex.setColors(Appearance.VERTICES, vcolors)
    per_face = Appearance()
    fcolors = np.column_stack([np.zeros(12), np.linspace(0, 1, 12), np.zeros(12), np.ones(12)])
    per_face.setColors(Appearance.FACES, fcolors)

    tinted = Appearance()
    tinted.setColor(0.0, 0.5, 1.0, 1)
    tinted.setTintColor([1, 0, 0, 1], 0.2)

    def log(r):
        rc.log_rr_geometry(g, 'tinted', tinted, recording=r)
        rc.log_rr_geometry(g, 'uniform', uniform, recording=r)
        rc.log_rr_geometry(g, 'vertex', per_vertex, recording=r)
        rc.log_rr_geometry(g, 'face', per_face, recording=r)
        rc.log_rr_geometry(g, 'override', per_vertex, color=(1, 0, 0), recording=r)
    rec = record(tmp_path, log)
    assert rec.static['/uniform']['Mesh3D:albedo_factor'] == [packed((0.2, 0.4, 0.6, 0.8))]
    assert rec.static['/tinted']['Mesh3D:albedo_factor'] == [packed((0.2, 0.4, 0.8, 1))]  # a fifth of the way to red
    assert rec.static['/vertex']['Mesh3D:vertex_colors'] == [packed(c) for c in vcolors]
    # per-face colours: each triangle gets its own three vertices
    v, f = rec.mesh('/face')
    assert len(v) == 3 * len(triangles)
    np.testing.assert_allclose(v, vertices[triangles.ravel()], atol=1e-6)
    np.testing.assert_array_equal(f.ravel(), np.arange(len(v)))
    assert rec.static['/face']['Mesh3D:vertex_colors'] == [packed(c) for c in np.repeat(fcolors, 3, axis=0)]
    assert rec.static['/override']['Mesh3D:albedo_factor'] == [packed((1, 0, 0, 1))]
    assert 'Mesh3D:vertex_colors' not in rec.static['/override']


def test_texture_and_texture_coordinates(tmp_path):
    g = load_geometry(os.path.join(SHARED_DATA, 'objects', 'cube.off'))
    texels = np.zeros((4, 2, 3), dtype=np.uint8)
    texels[0, 0] = (255, 0, 0)
    texels[3, 1] = (0, 0, 255)
    a = Appearance()
    a.setTexture2D_channels('rgb8', texels)
    uv = np.column_stack([np.linspace(0, 1, 8), np.linspace(1, 0, 8)])
    a.setTexcoords2D(uv)
    rec = record(tmp_path, lambda r: rc.log_rr_geometry(g, 'tex', a, recording=r))
    s = rec.static['/tex']
    np.testing.assert_allclose(np.asarray(s['Mesh3D:vertex_texcoords']).reshape(-1, 2), uv, atol=1e-6)
    fmt = s['Mesh3D:albedo_texture_format']
    assert fmt is not None
    image = np.frombuffer(bytes(s['Mesh3D:albedo_texture_buffer'][0]), dtype=np.uint8)
    np.testing.assert_array_equal(image.reshape(4, 2, 3), texels)


def test_point_cloud_positions_and_colours(tmp_path):
    rng = np.random.default_rng(3)
    pts = rng.uniform(-1, 1, (50, 3))
    rgb = rng.integers(0, 256, (50, 3))
    pc = PointCloud()
    pc.setPoints(pts)
    pc.addProperty('r', rgb[:, 0] / 255.0)
    pc.addProperty('g', rgb[:, 1] / 255.0)
    pc.addProperty('b', rgb[:, 2] / 255.0)
    g = Geometry3D(pc)
    g.setCurrentTransform(so3.identity(), [0, 0, 2])
    plain = PointCloud()
    plain.setPoints(pts[:5])
    a = Appearance()
    a.setColor(0, 1, 0, 1)
    a.setPointSize(6)

    def log(r):
        rc.log_rr_geometry(g, 'pc', recording=r)
        rc.log_rr_geometry(Geometry3D(plain), 'plain', a, recording=r)
    rec = record(tmp_path, log)
    s = rec.static['/pc']
    np.testing.assert_allclose(np.asarray(s['Points3D:positions']), pts, atol=1e-6)
    assert s['Points3D:colors'] == [packed(list(c / 255.0) + [1]) for c in rgb]
    assert s['Points3D:labels'] == ['pc']
    assert rec.transform('/pc') == (so3.identity(), [0, 0, 2])
    p = rec.static['/plain']
    assert p['Points3D:colors'] == [packed((0, 1, 0, 1))]
    assert p['Points3D:radii'] == [-3.0]  # negative radii are UI points: half the 6 pixel size


def test_primitives(tmp_path):
    box, sphere, point, segment, aabb = (GeometricPrimitive() for _ in range(5))
    R = so3.from_axis_angle(([1, 1, 0], 0.7))
    box.setBox([0.5, 0, 0], R, [1, 2, 3])
    sphere.setSphere([0, 1, 0], 0.5)
    point.setPoint([1, 2, 3])
    segment.setSegment([0, 0, 0], [1, -1, 2])
    aabb.setAABB([-1, -2, -3], [1, 0, 3])

    def log(r):
        for name, p in (('box', box), ('sphere', sphere), ('point', point), ('segment', segment),
                        ('aabb', aabb)):
            rc.log_rr_geometry(Geometry3D(p), name, recording=r)
    rec = record(tmp_path, log)
    v, f = rec.mesh('/box')
    assert len(f) == 12
    # the box's corner is [0.5,0,0]; in its own axes its vertices span [0, dims]
    local = (v - [0.5, 0, 0]) @ np.array(R).reshape(3, 3).T
    np.testing.assert_allclose(local.min(axis=0), [0, 0, 0], atol=1e-6)
    np.testing.assert_allclose(local.max(axis=0), [1, 2, 3], atol=1e-6)
    v, _ = rec.mesh('/sphere')
    np.testing.assert_allclose(np.linalg.norm(v - [0, 1, 0], axis=1), 0.5, atol=1e-5)
    assert len(v) > 50
    v, _ = rec.mesh('/aabb')
    np.testing.assert_allclose(v.min(axis=0), [-1, -2, -3])
    np.testing.assert_allclose(v.max(axis=0), [1, 0, 3])
    assert rec.static['/point']['Points3D:positions'] == [[1, 2, 3]]
    assert rec.static['/segment']['LineStrips3D:strips'] == [[[0, 0, 0], [1, -1, 2]]]


def test_convex_hull_holds_the_points(tmp_path):
    path = os.path.join(SHARED_DATA, 'objects', 'srimugsmooth.off')
    vertices, _ = read_off(path)
    hull = load_geometry(path).convert('ConvexHull')
    assert hull.type() == 'ConvexHull'
    rec = record(tmp_path, lambda r: rc.log_rr_geometry(hull, 'hull', recording=r))
    v, f = rec.mesh('/hull')
    # hull vertices are points of the mesh, fewer than all of them
    extent = np.ptp(vertices, axis=0).max()
    nearest, _ = cKDTree(vertices).query(v)
    assert np.max(nearest) < 1e-5 * extent
    assert 10 < len(v) < len(vertices)
    # every mesh point is inside every outward face plane
    a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    centre = vertices.mean(axis=0)
    n *= np.sign(np.sum(n * (a - centre), axis=1))[:, None]
    sample = vertices[::4]
    assert np.max(sample @ n.T - np.sum(n * a, axis=1)) < 1e-3 * extent


def test_volume_grid_isosurface_is_the_sphere(tmp_path):
    path = os.path.join(SHARED_DATA, 'objects', 'sphere.off')
    vertices, _ = read_off(path)
    centre = vertices.mean(axis=0)
    radius = np.linalg.norm(vertices - centre, axis=1).mean()
    cell = 0.05 * radius * 2
    grid = load_geometry(path).convert('VolumeGrid', cell)
    assert grid.type() == 'VolumeGrid'
    grid.setCurrentTransform(so3.identity(), [0, 0, 1])
    rec = record(tmp_path, lambda r: rc.log_rr_geometry(grid, 'grid', recording=r))
    v = world_points(rec, '/grid')
    assert len(v) > 100
    np.testing.assert_allclose(np.linalg.norm(v - centre - [0, 0, 1], axis=1), radius, atol=cell)


def test_group_elements_are_child_entities(tmp_path):
    cube = load_geometry(os.path.join(SHARED_DATA, 'objects', 'cube.off'))
    vertices, _ = read_off(os.path.join(SHARED_DATA, 'objects', 'cube.off'))
    p = GeometricPrimitive()
    p.setSphere([0, 0, 0], 0.25)
    group = Geometry3D()
    group.setGroup()
    group.setElement(0, cube)
    group.setElement(1, Geometry3D(p))
    group.setCurrentTransform(so3.identity(), [0, 0, 3])
    rec = record(tmp_path, lambda r: rc.log_rr_geometry(group, 'g', recording=r))
    np.testing.assert_allclose(rec.mesh('/g/0')[0], vertices, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(rec.mesh('/g/1')[0], axis=1), 0.25, atol=1e-5)
    assert rec.transform('/g') == (so3.identity(), [0, 0, 3])
    merged = rc.geom_to_rr(group)
    assert isinstance(merged, rr.Mesh3D)
    n = len(merged.vertex_positions.as_arrow_array())
    assert n == len(vertices) + len(rec.mesh('/g/1')[0])


def test_transform_matrix_is_the_rotation(tmp_path):
    rec = record(tmp_path, lambda r: rc.update_rr_transform((ROT_Z90, [1, 2, 3]), 'T', recording=r))
    R, t = rec.transform('/T')
    # column-major storage: the first column is the image of x, which a quarter turn about z sends to y
    np.testing.assert_allclose(R[0:3], [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(R[3:6], [-1, 0, 0], atol=1e-12)
    assert t == [1, 2, 3]


def test_robots_links_and_transforms(tmp_path):
    world = load_shared_world('tx90blocks.xml', quiet=True)
    robot = world.robot(0)
    rng = np.random.default_rng(0)
    qmin, qmax = robot.getJointLimits()
    q = [rng.uniform(a, b) if math.isfinite(a) and math.isfinite(b) else 0.0 for a, b in zip(qmin, qmax)]
    robot.setConfig(q)
    rec = record(tmp_path, lambda r: rc.log_rr_world(world, 'world', recording=r))
    name = robot.getName()
    for i in range(robot.numLinks()):
        link = robot.link(i)
        entity = '/world/%s/%s' % (name, rr.escape_entity_path_part(link.getName()))
        R, t = rec.transform(entity)
        eR, et = link.getTransform()
        np.testing.assert_allclose(R, eR, atol=1e-6)
        np.testing.assert_allclose(t, et, atol=1e-6)
        if link.geometry().type() == 'TriangleMesh':
            mesh = link.geometry().getTriangleMesh()
            v, f = rec.mesh(entity)
            assert len(v) == len(mesh.getVertices()) and len(f) == len(mesh.getIndices())
            color = link.appearance().getColor()
            assert rec.static[entity]['Mesh3D:albedo_factor'] == [packed(color)]
    # repeated names (tx90blocks has two 'srimug' and three 'srimug2') are numbered
    seen = {}
    for i in range(world.numRigidObjects()):
        obj = world.rigidObject(i)
        seen[obj.getName()] = seen.get(obj.getName(), 0) + 1
        name = obj.getName() if seen[obj.getName()] == 1 else '%s#%d' % (obj.getName(), seen[obj.getName()])
        R, t = rec.transform('/world/' + rr.escape_entity_path_part(name))
        np.testing.assert_allclose(R, obj.getTransform()[0], atol=1e-6)
        np.testing.assert_allclose(t, obj.getTransform()[1], atol=1e-6)
    assert seen == {'srimug': 2, 'srimug2': 3}
    for i in range(world.numTerrains()):
        assert '/world/' + world.terrain(i).getName() in rec.static


def test_update_robot_at_later_frames(tmp_path):
    world = load_shared_world('tx90blocks.xml', quiet=True)
    robot = world.robot(0)
    q0 = robot.getConfig()
    q1 = list(q0)
    q1[1] += 0.5
    q1[2] -= 0.3

    def log(r):
        r.set_time('frame', sequence=0)
        rc.log_rr_robot(robot, recording=r)
        robot.setConfig(q1)
        r.set_time('frame', sequence=1)
        rc.update_rr_robot(robot, recording=r)
    rec = record(tmp_path, log)
    last = robot.link(robot.numLinks() - 1)
    entity = '/%s/%s' % (robot.getName(), rr.escape_entity_path_part(last.getName()))
    T1 = last.getTransform()
    robot.setConfig(q0)
    T0 = last.getTransform()
    assert np.linalg.norm(np.subtract(T0[1], T1[1])) > 0.05
    np.testing.assert_allclose(rec.transform(entity, frame=0)[1], T0[1], atol=1e-6)
    np.testing.assert_allclose(rec.transform(entity, frame=1)[1], T1[1], atol=1e-6)


@pytest.mark.parametrize('robot_file', ['ur5.rob', 'baxter.rob', 'kinova_gen3_7dof.urdf', 'robotiq_85.rob'])
def test_shared_robots_log_every_link(tmp_path, robot_file):
    world = load_shared_world(os.path.join('robots', robot_file), quiet=True)
    robot = world.robot(0)
    rec = record(tmp_path, lambda r: rc.log_rr_robot(robot, 'r', recording=r))
    for i in range(robot.numLinks()):
        link = robot.link(i)
        entity = '/r/%s/%s' % (rr.escape_entity_path_part(robot.getName()),
                               rr.escape_entity_path_part(link.getName()))
        np.testing.assert_allclose(rec.transform(entity)[1], link.getTransform()[1], atol=1e-6)
        if not link.geometry().empty():
            assert entity in rec.static


def test_trajectories(tmp_path):
    t3 = Trajectory([0, 1, 2], [[0, 0, 0], [1, 0, 0], [1, 1, 0]])
    t2 = Trajectory([0, 1], [[0, 0], [2, 3]])
    se3traj = SE3Trajectory([0, 1], [ROT_Z90 + [0, 0, 0], so3.identity() + [1, 2, 3]])

    def log(r):
        rc.log_rr_trajectory(t3, 'path', color=(0, 0, 1), recording=r)
        r.log('flat', rc.traj_to_rr(t2), static=True)
        rc.log_rr_trajectory(se3traj, 'se3', recording=r)
    rec = record(tmp_path, log)
    assert rec.static['/path']['LineStrips3D:strips'] == [[[0, 0, 0], [1, 0, 0], [1, 1, 0]]]
    assert rec.static['/path']['LineStrips3D:colors'] == [packed((0, 0, 1, 1))]
    assert rec.static['/flat']['LineStrips2D:strips'] == [[[0, 0], [2, 3]]]
    assert rec.static['/se3']['LineStrips3D:strips'] == [[[0, 0, 0], [1, 2, 3]]]
    np.testing.assert_allclose(rec.transform('/se3/T0')[0], ROT_Z90, atol=1e-12)
    assert rec.transform('/se3/T1')[1] == [1, 2, 3]
    with pytest.raises(ValueError, match='2D or 3D'):
        rc.traj_to_rr(Trajectory([0], [[0, 0, 0, 0]]))
    assert rc.traj_to_rr(Trajectory()) is None


def test_points_frames_and_camera(tmp_path):
    world = load_shared_world('tx90blocks.xml', quiet=True)
    robot = world.robot(0)
    cam = robot.addSensor('cam', 'CameraSensor')
    cam.setSetting('xres', '320')
    cam.setSetting('yres', '240')
    cam.setSetting('xfov', '1.0')
    cam.setSetting('yfov', '0.8')

    def log(r):
        r.log('p', rc.point_to_rr([1, 2, 3], radius=0.05, color=(1, 0, 0)), static=True)
        rc.log_rr_transform((ROT_Z90, [0, 0, 1]), 'frame', length=0.3, recording=r)
        r.log('cam', rc.camera_to_rr(cam), static=True)
    rec = record(tmp_path, log)
    assert rec.static['/p']['Points3D:positions'] == [[1, 2, 3]]
    assert rec.static['/p']['Points3D:colors'] == [packed((1, 0, 0, 1))]
    np.testing.assert_allclose(rec.static['/p']['Points3D:radii'], [0.05])
    np.testing.assert_allclose(rec.static['/frame']['Arrows3D:vectors'], [[0.3, 0, 0], [0, 0.3, 0], [0, 0, 0.3]])
    assert rec.transform('/frame')[1] == [0, 0, 1]
    K = np.asarray(rec.static['/cam']['Pinhole:image_from_camera']).reshape(3, 3).T
    np.testing.assert_allclose(K, [[160 / math.tan(0.5), 0, 160], [0, 120 / math.tan(0.4), 120], [0, 0, 1]],
                               rtol=1e-6)
    assert rec.static['/cam']['Pinhole:resolution'] == [[320, 240]]


def test_bad_input_raises_clear_errors():
    with pytest.raises(TypeError, match='Geometry3D'):
        rc.geom_to_rr('not a geometry')
    with pytest.raises(ValueError, match='3D point'):
        rc.point_to_rr([1, 2])
    with pytest.raises(ValueError, match=r'\[0, 1\]'):
        rc.point_to_rr([1, 2, 3], color=(2, 0, 0))
    with pytest.raises(ValueError, match='se3'):
        rc.transform_to_rr(([1, 0, 0], [0, 0, 0]))
    assert rc.geom_to_rr(Geometry3D()) is None
    world = klampt.WorldModel()
    robot = world.makeRobot('r')
    with pytest.raises(ValueError, match='CameraSensor'):
        rc.camera_to_rr(robot.addSensor('j', 'JointPositionSensor'))
