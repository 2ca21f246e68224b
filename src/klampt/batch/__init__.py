"""Batches of queries that use every core, and clusters through Dask.

Each function takes N configurations (an (N, n) array), targets or runs and
computes, on a pool of native threads with the GIL released, what a loop of
single calls computes, in the same order and to the same bits:

- :func:`forward_kinematics`: link transforms, (N, L, 4, 4)
- :func:`jacobians`: link Jacobians, (N, 6, n)
- :func:`self_collides`: self-collision flags, optionally the first pair
- :func:`world_collides`: collision with the rest of the world
- :func:`solve_ik`: IK for N targets with random restarts
- :func:`simulate`: N independent simulations, returning their trajectories

``num_threads`` defaults to the cores available to the process. With
``executor=`` (a :class:`concurrent.futures.Executor` or a
``dask.distributed.Client``) the batch is split into chunks that run on the
executor's workers; the robot or world is sent to each worker once and the
results come back in order (see docs/dask.md).
"""
from .queries import forward_kinematics, jacobians, self_collides, world_collides, solve_ik, simulate  # noqa: F401
from .distributed import available_cores  # noqa: F401

__all__ = ['forward_kinematics', 'jacobians', 'self_collides', 'world_collides', 'solve_ik', 'simulate',
           'available_cores']
