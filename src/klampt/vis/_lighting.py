"""The lights every renderer of the scene uses: the OpenGL renderer of
``klampt.vis`` and the web viewer, which receives them in the scene JSON.

A key light rides with the camera (above and left of the eye, so that what
the camera sees is lit from the front whatever the view), a fill light comes
from the sky, and an ambient term keeps faces turned away from both readable.
Both sides of a surface are lit (a mesh seen from inside is not black).
"""
from dataclasses import asdict, dataclass
from typing import Tuple


@dataclass(frozen=True)
class Light:
    """A directional light.

    Attributes:
        direction: toward the light (need not be unit length).
        frame: 'camera' (x right, y up, z toward the viewer) or 'world' (z up).
        diffuse: diffuse intensity (white).
        specular: specular intensity (white).
    """
    direction: Tuple[float, float, float]
    frame: str
    diffuse: float
    specular: float


LIGHTS = (
    Light(direction=(-0.3, 0.5, 1.0), frame='camera', diffuse=0.65, specular=0.3),
    Light(direction=(0.0, 0.0, 1.0), frame='world', diffuse=0.25, specular=0.0),
)
AMBIENT = 0.2  # global ambient intensity (white)


def as_json():
    """The lights as the web viewer reads them: ``{'ambient': a, 'lights':
    [{'direction', 'frame', 'diffuse', 'specular'}, ...]}``."""
    return {'ambient': AMBIENT, 'lights': [dict(asdict(l), direction=list(l.direction)) for l in LIGHTS]}
