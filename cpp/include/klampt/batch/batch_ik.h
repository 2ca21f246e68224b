// IK for many targets on worker threads: each target's goals are solved on a
// per-thread copy of the robot, from its own initial configuration, with
// random restarts drawn from a generator seeded for that target, so that the
// answers do not depend on the thread count or on the order of work.
#pragma once
#include <cstdint>
#include <vector>
#include "klampt/ik/ik_objective.h"
#include "klampt/model/robot.h"

namespace klampt {

struct BatchIKSettings {
  double tol = 1e-3;
  int maxIters = 100;
  /// Random restarts after the first attempt (IKSolver::solveGlobal).
  int numRestarts = 0;
  bool startRandom = false;
  /// Target i draws from std::mt19937_64 seeded with the first output of a
  /// std::mt19937_64 seeded with seed + i: what klampt.set_random_seed(seed + i)
  /// followed by IKSolver._solveGlobal draws.
  std::uint64_t seed = 0;
};

/// Solves goals[i] from initial configuration i (initial: N x n row-major, or
/// a single row used for every target when initialRows == 1). Writes each
/// solution (the best attempt on failure) to solutions (N x n) and whether it
/// succeeded to solved. Throws std::invalid_argument / std::out_of_range for
/// bad goals or configurations before any solve starts.
void batchIK(const Robot& robot, const std::vector<std::vector<IKGoal>>& goals, const double* initial,
             int initialRows, const BatchIKSettings& settings, double* solutions, bool* solved, int threads);

}  // namespace klampt
