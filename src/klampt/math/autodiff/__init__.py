"""Automatic differentiation of Klamp't math, kinematics, dynamics, geometry
and trajectory functions.  See :mod:`klampt.math.autodiff.ad` for the
expression framework; :mod:`math_ad`, :mod:`so3_ad`, :mod:`se3_ad`,
:mod:`kinematics_ad`, :mod:`dynamics_ad`, :mod:`geometry_ad` and
:mod:`trajectory_ad` provide the differentiable functions."""
