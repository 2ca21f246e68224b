"""Input/output of Klamp't objects: native text formats and JSON
(:mod:`loader`), conversion to numpy arrays (:mod:`numpy_convert`) and named
resources in a directory (:mod:`resource`)."""
from .loader import load, save, read, write, to_json, from_json  # noqa: F401,E402
from ..robotsim import (subscribe_to_stream, detach_from_stream, process_streams, wait_for_stream,  # noqa: F401,E402
                        threejs_get_scene, threejs_get_transforms)
