"""Blocks: composable streaming computations (filters, estimators, robot
controllers, state machines).  See :mod:`.core`."""
__all__ = ['Block', 'SuperBlock', 'Source', 'Sink', 'utils']
from .core import Block, SuperBlock, Source, Sink
from . import utils
