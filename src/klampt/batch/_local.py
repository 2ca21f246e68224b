"""The computation of each batch function on one machine, by name: what
:mod:`klampt.batch.queries` runs here and the workers of
:mod:`klampt.batch.distributed` run on their chunks, by name, with the models
they received once (a module of its own so that neither of those two imports
the other)."""
from .. import _robotsim


def _fk_local(robot, configs, *, links, num_threads):
    return _robotsim._batch_link_transforms(robot, configs, links, num_threads)


def _jacobians_local(robot, configs, *, link, local_point, num_threads):
    return _robotsim._batch_link_jacobians(robot, configs, link, local_point, num_threads)


def _self_collides_local(robot, configs, *, return_pairs, num_threads):
    res = _robotsim._batch_self_collision(robot, configs, return_pairs, num_threads)
    return res if return_pairs else res[0]


def _world_collides_local(world, configs, *, robot, return_pairs, num_threads):
    res = _robotsim._batch_world_collision(world, robot, configs, return_pairs, num_threads)
    return res if return_pairs else res[0]


def _ik_local(robot, objectives, initial, seeds, *, tol, max_iters, restarts, start_random, num_threads):
    # Targets keep their own seeds (seed + global index) when split in chunks.
    first_seed = int(seeds[0]) if len(seeds) else 0
    return _robotsim._batch_ik(robot, objectives, initial, tol, max_iters, restarts, start_random, first_seed,
                               num_threads)


def _simulate_local(world, initial_configs, initial_velocities, controls, runs, *, robot, dt, steps, control_type,
                    num_threads):
    return _robotsim._batch_simulate(world, robot, dt, steps, len(runs), initial_configs, initial_velocities,
                                     controls, control_type, num_threads)


#: The computation of each batch function on one machine, by name (what executors' workers run).
LOCAL = {'fk': _fk_local, 'jacobians': _jacobians_local, 'self_collides': _self_collides_local,
         'world_collides': _world_collides_local, 'ik': _ik_local, 'simulate': _simulate_local}
