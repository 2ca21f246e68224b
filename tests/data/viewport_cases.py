"""The viewports of the viewport reference (make_viewport_reference.py) and
of test_viewport.py: each case's fields, field of view and pose applied to a
new klampt.Viewport."""
import klampt
from klampt.math import so3


def make(case):
    """A new Viewport with the case's fields, then its setFOV and setPose."""
    vp = klampt.Viewport()
    for k, v in case.get('fields', {}).items():
        setattr(vp, k, v)
    if 'fov' in case:
        vp.setFOV(*case['fov'])
    if 'pose' in case:
        rpy, t = case['pose']
        vp.setPose(so3.from_rpy(rpy), t)
    return vp
