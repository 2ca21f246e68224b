// Work split over the cores for one call (a batch, a world's loading): a pool
// of threads, made for the call and joined before it returns, that hand out
// the items in small blocks. Threads are not kept between calls, so a process
// that forks (a worker process of multiprocessing or Dask) never inherits a
// pool whose threads are gone.
#pragma once
#include <functional>
#include <vector>

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

/// Appends to `out` what body(i, list) appends to `list` for every i in
/// [0, n), in order of i: on every core when n > 1, each i into a list of its
/// own (kept by the calling thread for its next call), the lists then joined;
/// otherwise straight into `out`. The answer does not depend on the core
/// count.
template <class T, class Body>
void parallelAppend(int n, std::vector<T>& out, Body&& body) {
  const int cores = n < 2 ? 1 : availableCores();
  if (cores < 2) {
    for (int i = 0; i < n; ++i) body(i, out);
    return;
  }
  // Named by reference: in a worker, `kept` would be the worker's own.
  thread_local std::vector<std::vector<T>> kept;
  auto& lists = kept;
  lists.resize(n);
  parallelFor(n, cores, [&](int, int i) {
    lists[i].clear();
    body(i, lists[i]);
  });
  // Grown list by list rather than reserved to the total at once: freeing
  // its smaller buffers raises glibc's threshold for mapping big blocks
  // afresh, which a caller's result lists would otherwise be, page faults
  // and all, at every call (3 of 19 ms on two overlapping tx90l links'
  // 94,811 contacts).
  for (const auto& list : lists) out.insert(out.end(), list.begin(), list.end());
}

}  // namespace klampt
