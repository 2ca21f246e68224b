// How many of the per-call worker threads (klampt/math/parallel_for.h) a
// batch uses.
#pragma once
#include "klampt/math/parallel_for.h"

namespace klampt {

/// The thread count a batch of n items uses for a request of `requested`
/// threads (<= 0: availableCores()): never more than n, at least 1. Every
/// batch function takes its `threads` argument through it.
int batchThreadCount(int requested, int n);

}  // namespace klampt
