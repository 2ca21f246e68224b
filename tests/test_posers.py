"""The shape widgets AABBPoser, BoxPoser and SpherePoser: their values as the
reference reports them, drags on pixel coordinates that move faces, corners,
centres and radii by what the camera geometry predicts, and their drawing
in an offscreen render."""
import math

import pytest

import klampt
from klampt.math import so3, vectorops
from klampt.vis.glviewport import GLViewport

from conftest import require_offscreen
from vis_helpers import background_mask, focal_pixels


def _view():
    """The default vis camera: at (0, -6, 0) looking along +y, image right
    is +x and image up is +z; 640 x 480, 30 degree horizontal field of view."""
    view = GLViewport()
    return view, view.to_viewport()



def test_values_and_errors():
    a = klampt.AABBPoser()
    assert a.get() == ([0, 0, 0], [1, 1, 1])
    a.set([-1, -2, -3], [1, 2, 3])
    a.setFrame(so3.rotation([0, 0, 1], 0.5), [1, 0, 0])
    assert a.get() == ([-1, -2, -3], [1, 2, 3])
    with pytest.raises(ValueError):
        a.set([1, 0, 0], [0, 1, 1])
    with pytest.raises(ValueError):
        a.set([0, 0], [1, 1, 1])
    b = klampt.BoxPoser()
    assert b.getTransform() == (so3.identity(), [0, 0, 0]) and b.getDims() == [1, 1, 1]
    R = so3.rotation([1, 0, 0], 0.3)
    b.set(R, [1, 2, 3], [0.5, 0.6, 0.7])
    assert b.getTransform() == (R, [1, 2, 3]) and b.getDims() == [0.5, 0.6, 0.7]
    b.setDims([1, 1, 2])
    assert b.getTransform()[1] == [1, 2, 3] and b.getDims() == [1, 1, 2]
    with pytest.raises(ValueError):
        b.setDims([1, -1, 1])
    s = klampt.SpherePoser()
    assert s.get() == [0, 0, 0, 1]
    s.set([1, 2, 3, 0.5])
    assert s.get() == [1, 2, 3, 0.5]
    with pytest.raises(ValueError):
        s.set([0, 0, 0, -1])
    for w in (a, b, s):
        assert isinstance(w, klampt.Widget)
    assert klampt.robotsim.SpherePoser is klampt.SpherePoser


def test_aabb_top_face_follows_the_cursor():
    view, vp = _view()
    f = focal_pixels(view.w, view.fov)
    box = klampt.AABBPoser()
    box.set([-0.5, -0.5, -1.2], [0.5, 0.5, -0.7])   # below the eye: its top face is in view
    p = [0.3, 0.2, -0.7]                             # on the top face, clear of the centre's arrows
    x, y, depth = view.project(p)
    assert box.hover(x, y, vp) and box._highlight == ('face', 2, 1)
    assert not box.hover(x + 300, y, vp)
    assert box.beginDrag(x, y, vp)
    for _ in range(4):
        box.drag(0, -5, vp)                          # 20 pixels up
    box.endDrag()
    bmin, bmax = box.get()
    # a vertical line is vertical in this camera's image: the face rises by 20 pixels at the point's depth
    expected = -0.7 + 20 * depth / f
    assert bmax[2] == pytest.approx(expected, abs=2e-3 * abs(expected))
    assert bmax[2] > -0.7 + 0.05
    assert bmin == [-0.5, -0.5, -1.2] and bmax[:2] == [0.5, 0.5]
    # pushed down past the bottom face, the top face stops there
    assert box.beginDrag(*view.project([0.3, 0.2, bmax[2]])[:2], vp)
    box.drag(0, 400, vp)
    assert box.get()[1][2] == pytest.approx(-1.2)


def test_aabb_corner_moves_in_the_view_plane_and_the_opposite_stays():
    view, vp = _view()
    f = focal_pixels(view.w, view.fov)
    box = klampt.AABBPoser()
    box.set([-0.4, -0.4, -0.9], [0.4, 0.4, -0.1])
    corner = [0.4, -0.4, -0.1]                       # right, front, top
    x, y, depth = view.project(corner)
    assert box.hover(x, y, vp) and box._highlight == ('corner', (1, 0, 1))
    assert box.beginDrag(x, y, vp)
    box.drag(12, -8, vp)
    box.endDrag()
    bmin, bmax = box.get()
    assert bmax[0] == pytest.approx(0.4 + 12 * depth / f, rel=1e-6)
    assert bmax[2] == pytest.approx(-0.1 + 8 * depth / f, rel=1e-6)
    assert bmin == pytest.approx([-0.4, -0.4, -0.9]) and bmax[1] == pytest.approx(0.4)
    # dragged across the opposite corner, the box turns inside out the right way
    assert box.beginDrag(*view.project([bmax[0], -0.4, bmax[2]])[:2], vp)
    box.drag(-1000, 0, vp)
    bmin, bmax = box.get()
    assert bmax[0] == pytest.approx(-0.4) and bmin[0] < -0.4 - 0.5


def test_aabb_centre_arrow_moves_the_box_in_its_frame():
    view, vp = _view()
    f = focal_pixels(view.w, view.fov)
    box = klampt.AABBPoser()
    box.set([-0.2, -0.2, -0.2], [0.2, 0.2, 0.2])
    box.setFrame(so3.identity(), [0.0, 2.0, 0.0])   # the box 8 units from the camera
    x, y, _ = view.project([0, 2, 0])
    assert box.beginDrag(x + 30, y, vp)              # on the x arrow
    box.drag(25, 9, vp)
    bmin, bmax = box.get()
    assert bmin[0] == pytest.approx(-0.2 + 25 * 8 / f, rel=1e-6)
    assert bmin[1:] == pytest.approx([-0.2, -0.2]) and bmax[1:] == pytest.approx([0.2, 0.2])


def test_box_faces_resize_and_the_rings_turn_about_the_centre():
    view, vp = _view()
    f = focal_pixels(view.w, view.fov)
    box = klampt.BoxPoser()
    box.set(so3.identity(), [-0.5, -0.5, -1.0], [1.0, 1.0, 0.4])
    x, y, depth = view.project([0.3, 0.1, -0.6])     # the top face
    assert box.beginDrag(x, y, vp)
    box.drag(0, -15, vp)
    R, t = box.getTransform()
    dims = box.getDims()
    assert dims[2] == pytest.approx(0.4 + 15 * depth / f, rel=2e-3)
    assert t == pytest.approx([-0.5, -0.5, -1.0]) and dims[:2] == pytest.approx([1.0, 1.0])
    # the front face is the lower one along y: dragging it changes the corner, the back face stays
    box.set(so3.identity(), [-0.5, -0.5, -0.5], [1.0, 1.0, 1.0])
    x, y, _ = view.project([0.35, -0.5, 0.3])
    assert box.hover(x, y, vp) and box._highlight == ('face', 1, 0)
    # rotating: the centre stays where it was and the axes turn
    box.set(so3.identity(), [-0.5, -0.5, -0.5], [1.0, 1.0, 1.0])
    centre = [0.0, 0.0, 0.0]
    # the ring about y lies in the image plane: a circle of 48 pixels (0.8 of the 60-pixel arrows)
    cx, cy, _ = view.project(centre)
    ring = (cx + 48 * math.cos(0.8), cy - 48 * math.sin(0.8))
    assert box.hover(*ring, vp) and box._highlight == ('move', ('ring', 1))
    assert box.beginDrag(*ring, vp)
    box.drag(20, 0, vp)
    R, t = box.getTransform()
    assert so3.distance(R, so3.identity()) == pytest.approx(0.2, rel=1e-6)
    assert so3.apply(R, [0, 1, 0]) == pytest.approx([0, 1, 0], abs=1e-9)   # about the y axis
    assert vectorops.add(t, so3.apply(R, [0.5, 0.5, 0.5])) == pytest.approx(centre, abs=1e-9)
    assert box.getDims() == pytest.approx([1, 1, 1])


def test_sphere_ring_sets_the_radius_and_the_centre_moves():
    view, vp = _view()
    f = focal_pixels(view.w, view.fov)
    s = klampt.SpherePoser()
    s.set([0, 0, 0, 0.5])
    x, y, depth = view.project([0.5, 0, 0])          # on the silhouette, right of the centre
    assert s.hover(x, y, vp) and s._highlight == ('ring',)
    assert not s.hover(x - 30, y + 30, vp)           # inside the disc: nothing
    assert s.beginDrag(x, y, vp)
    for _ in range(3):
        s.drag(10, 0, vp)
    s.endDrag()
    r = s.get()[3]
    # 30 pixels outward at depth 6 (within the ray's slant, well under 1 %)
    assert r == pytest.approx(0.5 + 30 * 6 / f, rel=1e-2)
    assert s.get()[:3] == [0, 0, 0]
    assert s.beginDrag(*view.project([r, 0, 0])[:2], vp)
    s.drag(-100, 0, vp)                              # inward: the sphere shrinks
    assert s.get()[3] == pytest.approx(r - 100 * 6 / f, rel=1e-2)
    # the centre handle moves the sphere in the image plane
    s.set([0, 0, 0, 0.5])
    cx, cy, _ = view.project([0, 0, 0])
    assert s.beginDrag(cx, cy, vp) and s._highlight == ('move', 'center')
    s.drag(10, -20, vp)
    assert s.get() == pytest.approx([10 * 6 / f, 0, 20 * 6 / f, 0.5], abs=1e-9)


def test_shape_posers_draw_where_they_are(vis):
    from klampt.vis.glinterface import GLPluginInterface
    require_offscreen()
    box = klampt.AABBPoser()
    box.set([-1.0, -0.5, -0.5], [-0.3, 0.5, 0.5])
    sphere = klampt.SpherePoser()
    sphere.set([0.8, 0, 0, 0.4])

    class Draw(GLPluginInterface):
        def display(self):
            vp = self.view.to_viewport()
            box.drawGL(vp)
            sphere.drawGL(vp)
    vis.pushPlugin(Draw())
    img = vis.screenshot().astype(int)
    view = vis.getViewport()
    bg = background_mask(img)

    def at(p):
        x, y, _ = view.project(p)
        return img[int(y), int(x)], bg[int(y), int(x)]
    for p in ([-0.8, -0.5, 0.3], [0.8, 0, -0.2]):   # in the box's face, inside the sphere's disc
        colour, is_bg = at(p)
        # translucent red over the light background: red stays, green and blue drop
        assert not is_bg and colour[0] > colour[1] + 40 and colour[0] > colour[2] + 40, colour
    for p in ([0.1, 0, 0.8], [-1.5, 0, 0], [1.5, 0, 0.6]):   # between them, beyond them
        assert at(p)[1], at(p)
    assert (~bg).mean() > 0.08
