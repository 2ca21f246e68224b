// Batch IK (klampt/batch/batch_ik.h).
#include "klampt/batch/batch_ik.h"

#include <random>
#include <stdexcept>
#include <string>
#include "klampt/batch/batch_robot.h"
#include "klampt/batch/thread_pool.h"
#include "klampt/ik/ik_solver.h"

namespace klampt {

void batchIK(const Robot& robot, const std::vector<std::vector<IKGoal>>& goals, const double* initial,
             int initialRows, const BatchIKSettings& settings, double* solutions, bool* solved, int threads) {
  const int N = (int)goals.size(), n = robot.numLinks();
  if (initialRows != 1 && initialRows != N)
    throw std::invalid_argument("give one initial configuration, or one per target");
  checkConfigs(initial, initialRows, n);
  for (int i = 0; i < N; ++i) {
    if (goals[i].empty()) throw std::invalid_argument("target " + std::to_string(i) + " has no objectives");
    checkGoals(robot, goals[i]);
  }
  if (settings.numRestarts < 0) throw std::invalid_argument("numRestarts must be >= 0");
  threads = batchThreadCount(threads, N);
  RobotCopies copies(robot, threads);
  parallelFor(N, threads, [&](int w, int i) {
    Robot& r = copies.at(w, initial + (initialRows == 1 ? 0 : (size_t)i * n));
    IKSolver solver;
    solver.robot = &r;
    solver.goals = goals[i];
    solver.tol = settings.tol;
    solver.maxIters = settings.maxIters;
    bool ok;
    if (settings.numRestarts == 0 && !settings.startRandom) {
      ok = solver.solve();
    } else {
      std::mt19937_64 seeding(settings.seed + (std::uint64_t)i);
      std::mt19937_64 rng(seeding());
      ok = solver.solveGlobal(settings.numRestarts, settings.startRandom, rng);
    }
    solved[i] = ok;
    std::copy(r.q.data(), r.q.data() + n, solutions + (size_t)i * n);
  });
}

}  // namespace klampt
