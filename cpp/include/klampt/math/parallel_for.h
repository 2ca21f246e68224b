// Work split over the cores for one call (a batch, a world's loading): a pool
// of threads, made for the call and joined before it returns, that hand out
// the items in small blocks. Threads are not kept between calls, so a process
// that forks (a worker process of multiprocessing or Dask) never inherits a
// pool whose threads are gone.
#pragma once
#include <functional>

namespace klampt {

/// The cores this process may run on (its CPU affinity), at least 1.
int availableCores();

/// Calls body(worker, i) for every i in [0, n) on `threads` threads (the
/// calling thread is worker 0; worker ranges over [0, threads)). Each item is
/// computed once, by one worker, so results written to slot i do not depend on
/// the thread count. The first exception thrown by body stops the others from
/// taking new items and is rethrown here once every thread has finished.
/// Called from inside a body (a query parallel on its own, run by a batch
/// that already uses every core), it runs on the calling thread alone.
void parallelFor(int n, int threads, const std::function<void(int worker, int i)>& body);

}  // namespace klampt
