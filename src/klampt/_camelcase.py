"""The camel-case module functions of Klamp't 0.9.2's ``robotsim``, which
0.10 removed: each warns (DeprecationWarning) and calls its snake-case name."""
import warnings

from . import equilibrium, streams
from . import _threejs
from ._deprecation import deprecated_alias
from ._robotsim import set_random_seed


def _deprecated(old_name, new, new_name):
    return deprecated_alias(old_name, new, new_name, "klampt.robotsim")


comEquilibrium = _deprecated("comEquilibrium", equilibrium.com_equilibrium, "com_equilibrium")
comEquilibrium2D = _deprecated("comEquilibrium2D", equilibrium.com_equilibrium_2d, "com_equilibrium_2d")
equilibriumTorques = _deprecated("equilibriumTorques", equilibrium.equilibrium_torques, "equilibrium_torques")
forceClosure = _deprecated("forceClosure", equilibrium.force_closure, "force_closure")
forceClosure2D = _deprecated("forceClosure2D", equilibrium.force_closure_2d, "force_closure_2d")
supportPolygon = _deprecated("supportPolygon", equilibrium.support_polygon, "support_polygon")
supportPolygon2D = _deprecated("supportPolygon2D", equilibrium.support_polygon_2d, "support_polygon_2d")
setFrictionConeApproximationEdges = _deprecated("setFrictionConeApproximationEdges",
                                                equilibrium.set_friction_cone_approximation_edges,
                                                "set_friction_cone_approximation_edges")
setRandomSeed = _deprecated("setRandomSeed", set_random_seed, "set_random_seed")
SubscribeToStream = _deprecated("SubscribeToStream", streams.subscribe_to_stream, "subscribe_to_stream")
DetachFromStream = _deprecated("DetachFromStream", streams.detach_from_stream, "detach_from_stream")
ProcessStreams = _deprecated("ProcessStreams", streams.process_streams, "process_streams")
WaitForStream = _deprecated("WaitForStream", streams.wait_for_stream, "wait_for_stream")
ThreeJSGetScene = _deprecated("ThreeJSGetScene", _threejs.threejs_get_scene, "threejs_get_scene")
ThreeJSGetTransforms = _deprecated("ThreeJSGetTransforms", _threejs.threejs_get_transforms, "threejs_get_transforms")


def SampleTransform(obj):
    """Deprecated: use ``obj.sampleTransform()``. A transform of obj's link
    relative to its destination that satisfies the objective obj (an
    IKObjective or GeneralizedIKObjective), sampled at random."""
    warnings.warn("SampleTransform is deprecated: use obj.sampleTransform()", DeprecationWarning, stacklevel=2)
    if not hasattr(obj, "sampleTransform"):
        raise TypeError("SampleTransform needs an IKObjective or GeneralizedIKObjective, got %r" % (obj,))
    return obj.sampleTransform()
