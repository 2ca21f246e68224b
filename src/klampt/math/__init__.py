"""Pure-Python math utilities for vectors, 2D/3D rotations and rigid
transforms (:mod:`vectorops`, :mod:`so2`, :mod:`so3`, :mod:`se3`)."""

from . import vectorops, so2, so3, se3

__all__ = ['vectorops', 'so2', 'so3', 'se3']
