"""Compatibility module: Klamp't's ``klampt.vis.camera`` (the ``orbit``,
``free`` and ``target`` camera models), re-exported from
:mod:`klampt._viewport`, where cameras and views live."""
from klampt._viewport import _BASIS as basis_vectors  # noqa: F401  (the axis names orientation_matrix takes)
from klampt._viewport import free, lookat, orbit, orientation_matrix, target  # noqa: F401
from klampt.math import so3, vectorops  # noqa: F401  (the reference module's names)

__all__ = ['orbit', 'free', 'target', 'lookat']
