"""Signal filters as blocks: :class:`FIRFilter`.

The filter is defined in :mod:`.core`, whose :func:`~.core.self_test` demo
wires one, so that core needs no import of this module.
"""
from .core import FIRFilter  # noqa: F401 (the reference's path of the filter)
