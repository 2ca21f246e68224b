"""Renders the pictures of the documentation with klampt.vis (offscreen):

- docs/images/gallery/<world>.png and docs/gallery.md: every bundled world
  after ``vis.add`` and ``autoFitCamera()``, with the eye's height and the
  share of the picture the robots cover (measured on a second render with
  the robots painted blue);
- docs/images/vis_vs_reference_tx90blocks.png: the reference's picture of
  tx90blocks.xml (../shared/golden/vis) beside the project's of the same
  scene;
- docs/images/arm_table.png: the README's picture of the demo world;
- tests/data/vis_tx90blocks_golden.png (with --test-golden): the reviewed
  render test_vis_render.py compares against, 4x downsampled.

Run:  KLAMPT_DATA_DIR=../shared/klampt-data python scripts/render_gallery.py [--test-golden]
"""
import glob
import os
import sys
import warnings

import numpy as np
from PIL import Image

import klampt
from klampt import vis

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.abspath(os.environ.get('KLAMPT_DATA_DIR', os.path.join(REPO, '..', 'shared', 'klampt-data')))
GOLDEN_VIS = os.path.join(os.path.dirname(DATA), 'golden', 'vis')
IMAGES = os.path.join(REPO, 'docs', 'images')


def load(fn):
    world = klampt.WorldModel()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        if not world.readFile(fn):
            raise IOError('could not read ' + fn)
    return world


def blue_share(img):
    img = img.astype(int)
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    return float(((b > 50) & (r < 0.4 * b) & (g < 0.4 * b)).mean())


def render_world(fn, size):
    """(picture, eye height, robot share) of a world framed by autoFitCamera."""
    world = load(fn)
    vis.resizeWindow(*size)
    vis.add('world', world)
    vis.autoFitCamera()
    eye = vis.getViewport().camera.matrix()[1]
    picture = vis.screenshot()
    for i in range(world.numRobots()):
        vis.setColor(('world', world.robot(i).getName()), 0, 0, 1)
    share = blue_share(vis.screenshot()) if world.numRobots() else None
    vis.clear()
    return picture, eye[2], share


def gallery():
    os.makedirs(os.path.join(IMAGES, 'gallery'), exist_ok=True)
    files = sorted(glob.glob(os.path.join(REPO, 'data', 'worlds', '*.xml'))) + sorted(glob.glob(os.path.join(DATA, '*.xml')))
    rows = []
    for fn in files:
        name = os.path.splitext(os.path.basename(fn))[0]
        picture, eye_z, share = render_world(fn, (320, 240))
        Image.fromarray(picture).save(os.path.join(IMAGES, 'gallery', name + '.png'), optimize=True)
        where = 'data/worlds' if fn.startswith(os.path.join(REPO, 'data')) else 'shared data'
        rows.append((name, where, eye_z, share))
        print('%-20s eye z %.2f m, robots %s' % (name, eye_z, '-' if share is None else '%.1f %%' % (100 * share)))
    lines = ['# Gallery of the bundled worlds', '',
             'Each world as `vis.add("world", world); vis.autoFitCamera(); vis.screenshot()` renders it offscreen',
             '(320x240), made by `scripts/render_gallery.py`. "Robots" is the share of the picture the robots cover',
             '(measured with them painted blue), "eye" the camera\'s height; every floor is at z = 0.', '',
             '![The reference beside the project](images/vis_vs_reference_tx90blocks.png)', '',
             'Above: `tx90blocks.xml` with a red point "pt", `autoFitCamera()`, as the reference Klamp\'t 0.9.2',
             'draws it (left, Qt window) and as this project does (right). Both look from slightly above at the',
             'robot, grey, with the yellow blocks and the checkered floor; the project frames the robot and',
             'objects more tightly and lights them from the camera\'s side.', '',
             '| world | from | eye | robots | picture |', '|---|---|---|---|---|']
    for name, where, eye_z, share in rows:
        lines.append('| `%s.xml` | %s | %.2f m | %s | ![%s](images/gallery/%s.png) |'
                     % (name, where, eye_z, '-' if share is None else '%.1f %%' % (100 * share), name, name))
    with open(os.path.join(REPO, 'docs', 'gallery.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')


def tx90blocks_scene(size):
    """The scene of the reference's picture: tx90blocks.xml, a red 20-px
    point labelled 'pt', autoFitCamera."""
    world = load(os.path.join(DATA, 'tx90blocks.xml'))
    vis.resizeWindow(*size)
    vis.add('world', world)
    vis.add('pt', [0.5, 0, 1.0], color=(1, 0, 0, 1), size=20)
    vis.autoFitCamera()
    img = vis.screenshot()
    vis.clear()
    return img


def side_by_side():
    ours = tx90blocks_scene((640, 480))
    reference = np.asarray(Image.open(os.path.join(GOLDEN_VIS, 'upstream_vis_tx90blocks.png')).convert('RGB'))
    both = np.concatenate([reference, np.full((480, 8, 3), 255, np.uint8), ours], axis=1)
    Image.fromarray(both).resize((both.shape[1] // 2, 240), Image.LANCZOS).save(
        os.path.join(IMAGES, 'vis_vs_reference_tx90blocks.png'), optimize=True)


def readme_picture():
    world = load(os.path.join(REPO, 'data', 'worlds', 'arm_table.xml'))
    vis.resizeWindow(640, 480)
    vis.add('world', world)
    vis.autoFitCamera()
    Image.fromarray(vis.screenshot()).save(os.path.join(IMAGES, 'arm_table.png'), optimize=True)
    vis.clear()


def test_golden():
    img = tx90blocks_scene((640, 480))
    Image.fromarray(img).resize((160, 120), Image.BOX).save(
        os.path.join(REPO, 'tests', 'data', 'vis_tx90blocks_golden.png'))


def main(argv):
    vis.init('offscreen')
    vis.createWindow('gallery')
    gallery()
    side_by_side()
    readme_picture()
    if '--test-golden' in argv:
        test_golden()
    vis.kill()


if __name__ == '__main__':
    main(sys.argv[1:])
