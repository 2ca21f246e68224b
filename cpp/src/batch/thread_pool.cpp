// The thread count of a batch (klampt/batch/thread_pool.h).
#include "klampt/batch/thread_pool.h"

#include <algorithm>

namespace klampt {

int batchThreadCount(int requested, int n) {
  const int t = requested > 0 ? requested : availableCores();
  return std::max(1, std::min(t, n));
}

}  // namespace klampt
