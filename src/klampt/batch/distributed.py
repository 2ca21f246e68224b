"""Running batches on an executor: a concurrent.futures.Executor or a
dask.distributed.Client.

The models a batch needs (a robot or a world) are pickled once (through the
archive format, see :meth:`WorldModel.__reduce__`). A Dask client scatters
the bytes to every worker once; a concurrent.futures executor gets one chunk
per worker by default, each carrying them. Workers unpickle the models once
per thread and keep them for the chunks that follow. The batch is split into
chunks of consecutive items whose results are put back together in order;
Dask re-runs the chunk of a worker that dies, and each chunk's result is
kept exactly once, in its place.
"""
import concurrent.futures
import hashlib
import os
import pickle
import threading

import numpy as np

from .. import _robotsim
from ._local import LOCAL


def available_cores():
    """The cores this process may run on (its CPU affinity)."""
    return _robotsim._available_cores()


def _is_dask_client(executor):
    cls = type(executor)
    return cls.__name__ == 'Client' and cls.__module__.startswith('distributed')


_models = threading.local()
_KEPT = 4  # model sets a worker thread keeps (the most recently used)


def _load(token, payload):
    """The models of a batch, unpickled once per worker thread."""
    cache = getattr(_models, 'cache', None)
    if cache is None:
        cache = _models.cache = {}
    if token not in cache:
        if len(cache) >= _KEPT:
            cache.pop(next(iter(cache)))
        cache[token] = pickle.loads(payload)
    return cache[token]


def _function(name):
    """A batch function of klampt.batch.queries by name, or a module-level function."""
    if callable(name):
        return name
    return LOCAL[name]


def run_chunk(name, token, payload, split, fixed, num_threads):
    """Runs a batch function on one chunk (on a worker)."""
    models = _load(token, payload)
    return _function(name)(*models, *split, num_threads=num_threads, **fixed)


def _slice(a, begin, end):
    return None if a is None else a[begin:end]


def _combine(parts):
    first = parts[0]
    if isinstance(first, tuple):
        return tuple(_combine([p[k] for p in parts]) for k in range(len(first)))
    if isinstance(first, dict):
        return {k: (first[k] if k == 'times' else _combine([p[k] for p in parts])) for k in first}
    if isinstance(first, list):
        return [x for p in parts for x in p]
    return np.concatenate(parts, axis=0)


def _worker_threads(executor):
    """How many chunks the executor runs at once."""
    if _is_dask_client(executor):
        workers = executor.scheduler_info().get('workers', {})
        return max(1, sum(w.get('nthreads', 1) for w in workers.values()))
    return max(1, getattr(executor, '_max_workers', None) or os.cpu_count() or 1)


def chunk_bounds(n, chunks):
    """[begin, end) of `chunks` nearly equal runs of consecutive items of n."""
    chunks = max(1, min(chunks, n))
    edges = [(n * k) // chunks for k in range(chunks + 1)]
    return [(edges[k], edges[k + 1]) for k in range(chunks)]


def map_chunks(executor, name, models, split, fixed, n, num_threads=None, chunk_size=None):
    """Runs batch function `name` over n items on the executor and returns
    the combined result, in item order.

    Args:
        executor: a concurrent.futures.Executor or a dask.distributed.Client.
        name (str or callable): a key of klampt.batch.queries.LOCAL, or a
            module-level function ``f(*models, *split, num_threads, **fixed)``
            returning an array, a tuple of arrays, a dict of them or a list.
        models (tuple): the robot or world, sent once per worker.
        split (list): per-item arrays or lists (first axis n), or None.
        fixed (dict): the keyword arguments every chunk gets.
        num_threads (int, optional): native threads per chunk (default 1:
            the executor's workers give the parallelism).
        chunk_size (int, optional): items per chunk; default: four chunks
            per Dask worker thread, one per concurrent.futures worker.
    """
    threads = 1 if num_threads is None else int(num_threads)
    if threads < 1:
        raise ValueError("num_threads must be >= 1 (or None)")
    if n == 0:
        return queries_empty(name, models, split, fixed)
    dask = _is_dask_client(executor)
    if not dask and not isinstance(executor, concurrent.futures.Executor):
        raise TypeError("executor must be a concurrent.futures.Executor or a dask.distributed.Client")
    if chunk_size is not None:
        if int(chunk_size) < 1:
            raise ValueError("chunk_size must be >= 1")
        chunks = -(-n // int(chunk_size))
    else:
        chunks = _worker_threads(executor) * (4 if dask else 1)
    bounds = chunk_bounds(n, chunks)
    payload = pickle.dumps(tuple(models), protocol=pickle.HIGHEST_PROTOCOL)
    token = hashlib.sha1(payload).hexdigest()
    pieces = [[_slice(a, b, e) for a in split] for b, e in bounds]
    if dask:
        shared = executor.scatter(payload, broadcast=True, hash=False)
        futures = [executor.submit(run_chunk, name, token, shared, piece, fixed, threads, pure=False)
                   for piece in pieces]
        parts = executor.gather(futures)
    else:
        futures = [executor.submit(run_chunk, name, token, payload, piece, fixed, threads) for piece in pieces]
        parts = [f.result() for f in futures]
    return _combine(parts)


def queries_empty(name, models, split, fixed):
    """An empty batch computed here (it has the result's shapes)."""
    return _function(name)(*models, *split, num_threads=1, **fixed)
