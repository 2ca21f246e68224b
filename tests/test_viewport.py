"""klampt.Viewport: Klamp't 0.10.1's pinhole camera (intrinsics, conventions,
projection, click rays, view rectangles, text) against values recorded from
the reference (tests/data/make_viewport_reference.py), their identities, and
Klamp't 0.9.2's fields on the same object."""
import json
import math
import os
import warnings

import numpy as np
import pytest

import klampt
from klampt.math import so3, vectorops
from klampt._viewport import GLViewport

from conftest import assert_close
from viewport_cases import make

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, 'data', 'viewport_reference.json')) as _f:
    REFERENCE = json.load(_f)
CASES = {c['name']: c for c in REFERENCE['cases']}
FIELDS = ('x', 'y', 'w', 'h', 'n', 'f', 'fx', 'fy', 'cx', 'cy', 'perspective', 'ori')


def close(a, b):
    # the reference computes in single precision
    assert_close(a, b, rtol=2e-5, atol=2e-4)


def text_numbers(text):
    out = []
    for token in text.split():
        try:
            out.append(float(token))
        except ValueError:
            pass
    return out


@pytest.mark.parametrize('name', sorted(CASES))
def test_matches_reference(name):
    case = CASES[name]
    ref = case['result']
    vp = make(case)
    for k in FIELDS:
        if isinstance(ref['fields'][k], float):
            assert getattr(vp, k) == pytest.approx(ref['fields'][k], rel=1e-6), k
        else:
            assert getattr(vp, k) == ref['fields'][k], k
    close(vp.xform, ref['xform'])
    close(vp.getPose()[0], ref['pose'][0])
    assert vp.getFOV() == pytest.approx(ref['fov'], rel=1e-6)
    assert vp.fov == pytest.approx(ref['fov'], rel=1e-6)
    assert vp.getVFOV() == pytest.approx(ref['vfov'], rel=1e-6)
    for p, expected in zip(REFERENCE['points'], ref['project']):
        close(vp.project(p), expected)
    for (px, py), src, d in zip(REFERENCE['pixels'], ref['clickSource'], ref['clickDirection']):
        close(vp.clickSource(px, py), src)
        close(vp.clickDirection(px, py), d)
    for depth, rect in zip(REFERENCE['depths'], ref['viewRectangle']):
        close(vp.viewRectangle(depth), rect)
    # the reference's text reads back here as the reference reads it
    back = klampt.Viewport()
    assert back.fromText(ref['text']) == case['fromText'] is True
    assert back.ori == case['fromTextOri']
    for p, expected in zip(REFERENCE['points'], case['fromTextProject']):
        close(back.project(p), expected)
    vp.resize(vp.w * 2, vp.h // 2)
    for k, v in case['resized'].items():
        assert getattr(vp, k) == pytest.approx(v, rel=1e-6), k


@pytest.mark.parametrize('name', sorted(CASES))
def test_text_is_the_reference_text(name):
    case = CASES[name]
    vp = make(case)
    text, ref = vp.toText(), case['result']['text']
    if vp.ori == 'opengl':
        # the reference reads any pose back as OpenCV (an upside-down camera);
        # the convention is kept in a last line, which the reference skips
        assert text.splitlines()[-1] == 'ORIENTATION opengl'
        text = text[:text.rindex('ORIENTATION')]
    assert [t for t in text.split() if not t[0].isdigit() and t[0] != '-'] == \
        [t for t in ref.split() if not t[0].isdigit() and t[0] != '-']
    assert text_numbers(text) == pytest.approx(text_numbers(ref), rel=1e-5, abs=1e-5)


@pytest.mark.parametrize('name', sorted(CASES))
def test_text_and_json_round_trips_keep_the_camera(name):
    vp = make(CASES[name])
    for write, read in (('toText', 'fromText'), ('toJson', 'fromJson')):
        back = klampt.Viewport()
        back.w = 3
        assert getattr(back, read)(getattr(vp, write)())
        for k in ('x', 'y', 'w', 'h', 'n', 'f', 'fx', 'fy', 'cx', 'cy', 'perspective'):
            assert getattr(back, k) == pytest.approx(getattr(vp, k), rel=1e-15), (write, k)
        for p in REFERENCE['points']:
            assert_close(back.project(p), vp.project(p), atol=1e-9)
        for px, py in REFERENCE['pixels']:
            assert_close(back.clickDirection(px, py), vp.clickDirection(px, py), atol=1e-12)
    assert json.loads(vp.toJson())['ori'] == vp.ori


@pytest.mark.parametrize('name', sorted(CASES))
def test_click_ray_projects_back_to_its_pixel(name):
    vp = make(CASES[name])
    for px, py in REFERENCE['pixels'] + [[3, 400], [600, 10]]:
        s, d = vp.clickSource(px, py), vp.clickDirection(px, py)
        assert vectorops.norm(d) == pytest.approx(1.0)
        for t in (0.5, 3.0):
            u, v, depth = vp.project(vectorops.madd(s, d, t))
            # click coordinates are the screen's, projections the view's; rays go through pixel centres
            assert (u, v) == pytest.approx((px + 0.5 - vp.x, py + 0.5 - vp.y), abs=1e-7)
            if vp.perspective:
                assert depth == pytest.approx(t * vectorops.dot(d, vp.clickDirection(vp.cx - 0.5 + vp.x,
                                                                                    vp.cy - 0.5 + vp.y)))
            else:
                assert depth - vp.project(s)[2] == pytest.approx(t)


def test_view_rectangle_bounds_the_projected_corners():
    vp = make(CASES['offcentre_fov'])
    xmin, ymin, xmax, ymax = vp.viewRectangle(2.0)
    R, t = vp.getPose()
    from klampt.math import se3
    corners = [vp.project(se3.apply((R, t), [x, y, 2.0])) for x in (xmin, xmax) for y in (ymin, ymax)]
    assert sorted({round(c[0], 6) for c in corners}) == pytest.approx([0, vp.w])
    assert sorted({round(c[1], 6) for c in corners}) == pytest.approx([0, vp.h])
    assert vp.viewRectangle(0) == pytest.approx(vp.viewRectangle(vp.n))


def test_fov_setters_and_deprecated_clipping_planes():
    vp = klampt.Viewport()
    vp.fov = math.radians(90)
    assert (vp.fx, vp.fy) == pytest.approx((320, 320))
    vp.setFOV(math.radians(90), math.radians(60))
    assert vp.getVFOV() == pytest.approx(math.radians(60))
    assert vp.fy == pytest.approx(240 / math.tan(math.radians(30)))
    with pytest.warns(DeprecationWarning):
        vp.clippingPlanes = (0.5, 50)
    assert (vp.n, vp.f) == (0.5, 50)
    with pytest.warns(DeprecationWarning):
        assert vp.getClippingPlanes() == (0.5, 50)


def test_bad_input_raises_clear_errors():
    vp = klampt.Viewport()
    with pytest.raises(ValueError, match='ori'):
        vp.ori = 'weird'
    with pytest.raises(ValueError, match='16'):
        vp.xform = [1, 2]
    with pytest.raises(ValueError, match='xfov'):
        vp.setFOV(0)
    with pytest.raises(ValueError, match='xfov'):
        vp.setFOV(math.pi)
    with pytest.raises(ValueError, match='resize'):
        vp.resize(0, 10)
    with pytest.raises(ValueError, match='rotation'):
        vp.setPose([1, 0, 0], [0, 0, 0])
    with pytest.raises(ValueError):
        vp.project([1, 2])
    assert not vp.fromText('VIEWPORT\nFRAME 0 0 10')
    assert not vp.fromJson('{"x": 3}') and not vp.fromJson('garbage')
    assert (vp.w, vp.fx, vp.ori) == (640, 640, 'opencv')
    # a point in the camera plane projects to infinity, as in the reference
    assert math.isinf(vp.project([1, 0, 0])[0])


def test_092_fields_on_the_same_object():
    # as Klamp't 0.9.2 code fills a Viewport: scale (fx / w) and an OpenGL pose
    vp = klampt.Viewport()
    vp.scale = 1.2
    vp.w, vp.h, vp.n, vp.f, vp.perspective = 400, 300, 0.1, 100, True
    assert (vp.fx, vp.fy, vp.cx, vp.cy) == pytest.approx((480, 480, 200, 150))
    assert vp.ori == 'opengl'
    R = so3.rotation([0, 0, 1], 0.5)
    vp.setRigidTransform(R, [1, 2, 3])
    assert_close(vp.xform, R[0:3] + [0] + R[3:6] + [0] + R[6:9] + [0, 1, 2, 3, 1])
    assert_close(vp.getRigidTransform()[0], R)
    # OpenGL camera: the point 2 m in front (along -z) is at the view's centre
    ahead = vectorops.add([1, 2, 3], so3.apply(R, [0, 0, -2]))
    assert vp.project(ahead) == pytest.approx([200, 150, 2])
    # 0.9.2 JSON (no intrinsics) and this package's JSON (both) read back
    data = json.loads(vp.toJson())
    assert {'xform', 'f', 'n', 'perspective', 'scale', 'h', 'w', 'x', 'y'} <= set(data)
    old = {k: data[k] for k in ('xform', 'f', 'n', 'perspective', 'scale', 'h', 'w', 'x', 'y')}
    other = klampt.Viewport()
    assert other.fromJson(json.dumps(old))
    assert (other.w, other.h, other.scale, other.perspective, other.ori) == (400, 300, 1.2, True, 'opengl')
    assert other.project(ahead) == pytest.approx([200, 150, 2])
    # explicit intrinsics end the centred mode; getRigidTransform stays OpenGL for an OpenCV pose
    other.cx = 10
    other.w = 800
    assert (other.fx, other.cx, other.cy) == pytest.approx((480, 10, 150))
    cv = klampt.Viewport()
    cv.setPose(R, [0, 0, 0])
    assert_close(cv.getRigidTransform()[0], so3.mul(R, [1, 0, 0, 0, -1, 0, 0, 0, -1]))
    vp.setModelviewMatrix([float(i) for i in range(16)])
    assert vp.getRigidTransform() == ([0, 1, 2, 4, 5, 6, 8, 9, 10], [12, 13, 14])
    # 0.9.2 code assigning xform directly (after scale, in either order) keeps OpenGL axes
    for order in ('scale first', 'xform first'):
        old = klampt.Viewport()
        if order == 'xform first':
            old.xform = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1]
        old.scale, old.w, old.h = 1.0, 200, 100
        old.xform = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1]
        # the camera at z = 5 looks down -z: the origin is 5 ahead, at the centre
        assert old.project([0, 0, 0]) == pytest.approx([100, 50, 5]), order
    # 0.10 code assigning xform: OpenCV axes by default, the camera looks along +z
    new = klampt.Viewport()
    new.xform = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -5, 1]
    assert new.project([0, 0, 0]) == pytest.approx([320, 240, 5])


def test_092_text_and_glviewport_files(tmp_path):
    gl = GLViewport()
    gl.w, gl.h, gl.fov = 320, 240, 50.0
    gl.set_transform((so3.from_rpy([0.2, -0.1, 0.4]), [0.5, -3, 1]))
    gl.save_file(str(tmp_path / 'v.txt'))
    vp = klampt.Viewport()
    assert vp.fromText((tmp_path / 'v.txt').read_text())
    expected = gl.to_viewport()
    for p in ([0, 0, 0], [0.3, 0.2, -0.5], [1, 1, 1]):
        assert_close(vp.project(p), expected.project(p), atol=1e-9)
        # the GLViewport's screen y grows downward, the OpenGL image's upward
        u, v, _ = gl.project(p, clip=False)
        assert_close(vp.project(p)[:2], [u, gl.h - v], atol=1e-9)
    # 0.9.2's text: SCALE (fx / w) and an OpenGL pose of 12 numbers
    old = "VIEWPORT\nFRAME 0 0 100 50\nPERSPECTIVE 1\nSCALE 1\nNEARPLANE 0.1\nFARPLANE 10\nCAMTRANSFORM\n" \
          "1 0 0\n0 1 0\n0 0 1\n0 0 0\n"
    assert vp.fromText(old)
    assert (vp.fx, vp.cx, vp.cy, vp.ori) == (100, 50, 25, 'opengl')
    assert vp.project([0, 0, -1]) == pytest.approx([50, 25, 1])


def test_glviewport_to_viewport_agrees_with_its_projection():
    gl = GLViewport()
    gl.set_transform((so3.from_rpy([0.1, 0.3, -0.2]), [0, -4, 1]))
    vp = gl.to_viewport()
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        for p in ([0, 0, 0], [0.4, 0.1, 0.2]):
            u, v, depth = gl.project(p, clip=False)
            assert_close(vp.project(p), [u, gl.h - v, depth], atol=1e-9)
        s, d = gl.click_ray(100, 80)
        assert_close(vp.clickDirection(100 - 0.5, gl.h - 80 - 0.5), d, atol=1e-12)
        assert_close(vp.clickSource(100, 80), s)


def test_glviewport_is_a_010_viewport_with_092_fields():
    gl = GLViewport()
    assert isinstance(gl, klampt.Viewport) and gl.controller is gl.camera and gl.ori == 'opengl'
    # Klampt-examples' camera recipe, written for 0.10
    gl.resize(1024, 768)
    gl.setFOV(math.radians(90))
    gl.controller.tgt = [0, 0, 0.5]
    gl.controller.dist = 2.0
    gl.controller.rot = [0, -math.pi / 4, math.radians(10)]
    assert gl.fov == pytest.approx(90) and gl.getFOV() == pytest.approx(math.pi / 2)
    assert (gl.fx, gl.fy, gl.cx, gl.cy) == pytest.approx((512, 512, 512, 384))
    # the orbit target is 2 m ahead, at the centre: screen (y down) and image (y up) coordinates
    assert gl.project([0, 0, 0.5]) == pytest.approx((512, 384, 2.0))
    assert klampt.Viewport.project(gl, [0, 0, 0.5]) == pytest.approx([512, 384, 2.0])
    R, t = gl.getPose()
    assert_close(t, gl.camera.matrix()[1])
    assert_close(vectorops.madd(t, gl.clickDirection(511.5, 383.5), 2.0), [0, 0, 0.5], atol=1e-9)
    # 0.9.2's fields: fov in degrees stays as the size changes; clippingplanes is (n, f)
    gl.w = 512
    assert gl.fov == pytest.approx(90) and gl.fx == pytest.approx(256)
    gl.clippingplanes = (0.5, 50)
    assert (gl.n, gl.f) == (0.5, 50)
    gl.setPose(so3.rotation([0, 0, 1], 0.3), [1, 2, 3])
    assert_close(gl.camera.matrix()[1], [1, 2, 3])
    assert_close(gl.get_transform('openGL')[0], so3.rotation([0, 0, 1], 0.3))
    with pytest.raises(ValueError, match='opengl'):
        gl.ori = 'opencv'
    # a plain copy keeps explicit intrinsics
    gl.fx, gl.cx = 300.0, 200.0
    plain = gl.to_viewport()
    assert type(plain) is klampt.Viewport and (plain.fx, plain.fy, plain.cx, plain.cy) == (300, gl.fy, 200, gl.cy)
    assert plain.project([1, 2, 1]) == pytest.approx(klampt.Viewport.project(gl, [1, 2, 1]))
    # an OpenCV viewport's text sets the equivalent orbit camera
    cv = make(CASES['opencv_rotated'])
    gl.w, gl.h = cv.w, cv.h
    assert gl.fromText(cv.toText()) and gl.ori == 'opengl'
    for p in REFERENCE['points']:
        u, v, depth = cv.project(p)
        if depth > 0:
            assert_close(gl.project(p, clip=False), (u, v, depth), atol=1e-7)


def test_render_follows_off_centre_intrinsics():
    from klampt import Geometry3D, GeometricPrimitive, vis
    ball = GeometricPrimitive()
    ball.setSphere([0.3, 2.0, 0.2], 0.05)
    view = GLViewport()
    view.w, view.h = 320, 240
    view.set_transform((so3.from_matrix([[1, 0, 0], [0, 0, 1], [0, -1, 0]]), [0, 0, 0]))  # forward +y, z up
    view.fx, view.fy, view.cx, view.cy = 260.0, 240.0, 120.0, 150.0
    vis.init('offscreen')
    vis.createWindow('viewport')  # a fresh scene: windows outlive vis.kill()
    try:
        vis.add('ball', Geometry3D(ball))
        vis.setColor('ball', 1, 0, 0)
        vis.setViewport(view)
        img = vis.screenshot()
        shown = vis.getViewport()
    finally:
        vis.kill()
    assert (shown.fx, shown.cx, shown.cy) == (260.0, 120.0, 150.0)
    red = (img[:, :, 0] > 120) & (img[:, :, 1] < 80) & (img[:, :, 2] < 80)
    assert red.sum() > 20
    rows, cols = np.nonzero(red)
    u, v, _ = view.project([0.3, 2.0, 0.2])
    # the ball is drawn where the intrinsics put it (a centred camera would be ~40 px away)
    assert (cols.mean() + 0.5, rows.mean() + 0.5) == pytest.approx((u, v), abs=1.5)
    assert abs(u - (160 + 0.3 / 2.0 * 260)) > 30
