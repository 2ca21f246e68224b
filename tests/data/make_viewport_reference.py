# Run with the reference python (Klamp't 0.10.1): records klampt.Viewport's
# projections, click rays, view rectangles, fields of view and text round
# trips for a set of viewports.
# Usage: python make_viewport_reference.py viewport_reference.json
import json
import math
import sys

import klampt
from viewport_cases import make

# Each case: fields set on a new Viewport, then an optional pose and setFOV.
CASES = [
    {'name': 'default'},
    {'name': 'opencv_rotated', 'pose': [[0.3, 0.2, 0.1], [1, 2, 3]]},
    {'name': 'opengl_rotated', 'fields': {'ori': 'opengl'}, 'pose': [[-0.4, 0.1, 0.7], [0.5, -1, 2]]},
    {'name': 'offcentre_fov', 'fields': {'w': 320, 'h': 200, 'cx': 150.0, 'cy': 90.0, 'n': 0.5, 'f': 20.0},
     'fov': [1.2, 0.9], 'pose': [[0.1, -0.2, 0.3], [0, 0, 1]]},
    {'name': 'ortho_opencv', 'fields': {'perspective': False, 'w': 200, 'h': 100}, 'fov': [4.0],
     'pose': [[0.0, 0.5, 0.0], [0, 0, 5]]},
    {'name': 'ortho_opengl', 'fields': {'perspective': False, 'ori': 'opengl', 'w': 100, 'h': 100, 'fx': 20.0,
                                        'fy': 25.0}, 'pose': [[0.2, 0.0, -0.3], [1, 1, 1]]},
    {'name': 'offset_square', 'fields': {'x': 7, 'y': 7}, 'fov': [math.radians(70)]},
]
POINTS = [[0.1, 0.2, 1.0], [0.5, -0.3, 4.0], [-1.0, 0.7, -2.0], [2.0, 1.5, 3.0], [0.0, 0.0, 10.0]]
PIXELS = [[0, 0], [100, 50], [319.5, 239.5], [17, 93]]
DEPTHS = [0.0, 1.0, 2.5]


def record(vp):
    return {'fields': {k: getattr(vp, k) for k in ('x', 'y', 'w', 'h', 'n', 'f', 'fx', 'fy', 'cx', 'cy',
                                                    'perspective', 'ori')},
            'xform': list(vp.xform),
            'pose': [list(v) for v in vp.getPose()],
            'fov': vp.getFOV(), 'vfov': vp.getVFOV(),
            'project': [list(vp.project(p)) for p in POINTS],
            'clickSource': [list(vp.clickSource(*p)) for p in PIXELS],
            'clickDirection': [list(vp.clickDirection(*p)) for p in PIXELS],
            'viewRectangle': [list(vp.viewRectangle(d)) for d in DEPTHS],
            'text': vp.toText()}


out = []
for case in CASES:
    vp = make(case)
    entry = dict(case, result=record(vp))
    back = klampt.Viewport()
    entry['fromText'] = back.fromText(vp.toText())
    entry['fromTextOri'] = back.ori
    entry['fromTextProject'] = [list(back.project(p)) for p in POINTS]
    vp.resize(vp.w * 2, vp.h // 2)
    entry['resized'] = {k: getattr(vp, k) for k in ('w', 'h', 'fx', 'fy', 'cx', 'cy')}
    out.append(entry)
with open(sys.argv[1], 'w') as f:
    json.dump({'version': klampt.__version__, 'points': POINTS, 'pixels': PIXELS, 'depths': DEPTHS, 'cases': out},
              f, indent=1)
