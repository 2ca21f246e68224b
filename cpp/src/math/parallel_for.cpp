// Per-call worker threads (klampt/math/parallel_for.h).
#include "klampt/math/parallel_for.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace klampt {

int availableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

namespace {
/// Whether this thread is running a parallelFor body.
thread_local bool insideBody = false;
}  // namespace

void parallelFor(int n, int threads, const std::function<void(int worker, int i)>& body) {
  if (n <= 0) return;
  threads = insideBody ? 1 : std::max(1, std::min(threads, n));
  // Blocks of a few items keep the counter cheap and the load balanced.
  const int block = std::max(1, std::min(16, n / (threads * 8)));
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex errorMutex;
  auto work = [&](int worker) {
    const bool wasInside = insideBody;
    insideBody = true;
    try {
      while (!failed.load(std::memory_order_relaxed)) {
        const int begin = next.fetch_add(block, std::memory_order_relaxed);
        if (begin >= n) break;
        const int end = std::min(n, begin + block);
        for (int i = begin; i < end && !failed.load(std::memory_order_relaxed); ++i) body(worker, i);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(errorMutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
    insideBody = wasInside;
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (int w = 1; w < threads; ++w) {
    try {
      pool.emplace_back(work, w);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones running take every item
    }
  }
  work(0);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace klampt
