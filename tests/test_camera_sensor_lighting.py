"""Camera sensors see the scene lit by the lights of every klampt.vis view
(:mod:`klampt.vis._lighting`), not the flat appearance colour: a coloured
sphere in front of a simulated camera has, pixel by pixel, the brightness
the lighting model gives its surface normal (an independent ray-sphere
computation), so it shows its shape and keeps its hue; with any vis
backend, as every one can render offscreen."""
import colorsys
import math

import numpy as np
import pytest

import klampt
from conftest import require_offscreen, sphere_geometry

W, H, XFOV = 64, 48, 0.8
COLOR = (0.9, 0.4, 0.1)
CENTRE, RADIUS = (0.0, 0.0, 1.0), 0.5
# the camera 2 m in front of the ball along +y, level: x right, y down (-z), z forward (+y)
CAMERA_R = [1, 0, 0, 0, 0, -1, 0, 1, 0]
CAMERA_T = [0.0, -2.0, 1.0]


def _world():
    world = klampt.WorldModel()
    robot = world.makeRobot('camera_mount')
    ball = world.makeRigidObject('ball')
    ball.geometry().set(sphere_geometry(CENTRE, RADIUS))
    ball.appearance().setColor(*COLOR)
    ball.appearance().setShininess(0)  # diffuse only: the expectation below has no highlight
    cam = robot.addSensor('cam', 'CameraSensor')
    for key, value in [('link', '-1'), ('xres', str(W)), ('yres', str(H)), ('xfov', str(XFOV)), ('zmax', '10'),
                       ('zresolution', '0'), ('zvarianceLinear', '0'), ('zvarianceConstant', '0')]:
        cam.setSetting(key, value)
    cam.setTransform(CAMERA_R, CAMERA_T)
    return world, cam


def _expected():
    """(H x W x 3 expected colour 0..255, H x W mask of the pixels whose
    whole footprint is on the ball): each pixel's ray through its centre
    meets the sphere at a normal n; OpenGL's lighting of the diffuse
    colour c is c (ambient + sum of diffuse_i max(n . l_i, 0))."""
    from klampt.vis import _lighting
    f = 0.5 * W / math.tan(0.5 * XFOV)
    R = np.array(CAMERA_R, dtype=float).reshape(3, 3)  # klampt.so3 is column-major: rows = the sensor axes
    centre = R @ (np.array(CENTRE) - np.array(CAMERA_T))

    def eye(v_sensor):  # the sensor frame (y down, z forward) to OpenGL's eye frame (y up, z back)
        return v_sensor * np.array([1.0, -1.0, -1.0])
    lights = []
    for light in _lighting.LIGHTS:
        d = np.array(light.direction, dtype=float)
        d = d if light.frame == 'camera' else eye(R @ d)
        lights.append((d / np.linalg.norm(d), light.diffuse))
    out = np.zeros((H, W, 3))
    inside = np.zeros((H, W), dtype=bool)
    for j in range(H):
        for i in range(W):
            d = np.array([(i + 0.5 - 0.5 * W) / f, (j + 0.5 - 0.5 * H) / f, 1.0])
            b = d @ centre
            disc = b * b - (d @ d) * (centre @ centre - RADIUS ** 2)
            if disc <= 0:
                continue
            t = (b - math.sqrt(disc)) / (d @ d)
            n = eye((t * d - centre) / RADIUS)
            # a pixel's neighbours' rays within the ball too: away from the silhouette
            inside[j, i] = n[2] > 0.6
            shade = _lighting.AMBIENT + sum(diffuse * max(n @ l, 0.0) for l, diffuse in lights)
            out[j, i] = np.minimum(np.array(COLOR) * shade, 1.0) * 255
    return out, inside


@pytest.fixture(params=['offscreen', 'HTML'])
def backend(request):
    """klampt.vis started on a backend (the camera renders offscreen with
    each)."""
    require_offscreen()
    from klampt import vis
    vis.kill()
    vis.init(request.param)
    yield request.param
    vis.kill()


def _image(cam, world):
    from klampt.model.sensing import camera_to_images
    cam.kinematicSimulate(world, 0.01)
    rgb, depth = camera_to_images(cam)
    return np.asarray(rgb).astype(float), np.asarray(depth)


def test_camera_sees_the_ball_lit_by_the_scene_lights(backend):
    world, cam = _world()
    img, depth = _image(cam, world)
    expected, inside = _expected()
    assert img.shape == (H, W, 3) and inside.sum() > 300
    error = np.abs(img - expected).max(axis=-1)[inside]
    # the render's sphere is a tessellation with flat facets: a few levels off, up to half a facet's turn
    assert np.median(error) <= 6 and np.percentile(error, 95) <= 16, (np.median(error), error.max())
    # its shape: lit from the key light above left of the camera, darker toward the lower right
    brightness = img.max(axis=-1)
    assert brightness[inside].max() - brightness[inside].min() > 60
    hue = colorsys.rgb_to_hsv(*COLOR)[0]
    hues = np.array([colorsys.rgb_to_hsv(*(p / 255.0))[0] for p in img[inside]])
    assert np.abs(hues - hue).max() < 0.02  # the ball's colour throughout, only brighter or darker
    # and the depth is the ball's
    assert np.abs(depth[inside] - (2.0 - RADIUS)).max() < RADIUS


def test_without_vis_the_ray_caster_gives_the_flat_appearance_color():
    """Without klampt.vis the camera ray casts, as the reference's does
    without a GL context: every pixel on the ball is its unlit colour."""
    from klampt import vis
    vis.kill()
    from klampt.vis import _sensor_render
    _sensor_render.uninstall()
    world, cam = _world()
    img, _ = _image(cam, world)
    _, inside = _expected()
    flat = [int(c * 255) for c in COLOR]
    assert (img[inside] == flat).all()

