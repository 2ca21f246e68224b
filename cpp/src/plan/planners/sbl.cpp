#include "klampt/plan/planners/sbl.h"

#include <algorithm>
#include <stdexcept>

namespace klampt {
namespace plan {

SBLPlanner::SBLPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& s)
    : MotionPlanner(std::move(space), seed),
      forest_(*space_, rng_, s.useGrid, s.gridResolution),
      maxExtendDistance_(s.perturbationRadius),
      connectionThreshold_(s.connectionThreshold),
      maxExtendIters_(std::max(1, s.perturbationIters)),
      randomizeFrequency_(s.randomizeFrequency),
      useGrid_(s.useGrid) {}

int SBLPlanner::addMilestone(const Config& q) {
  if (endpoints_ >= 2 || !space_->isFeasible(q)) return -1;
  forest_.addTree(q);
  if (++endpoints_ == 2) {
    // The straight line first: a free one solves the problem at once.
    if (connectionThreshold_ >= space_->distance(forest_.config(0), forest_.config(1)) &&
        forest_.checkPath(forest_.root(0), forest_.root(1), solution_))
      solved_ = true;
  }
  return endpoints_ - 1;
}

int SBLPlanner::numMilestones() const { return forest_.numNodes(); }

Config SBLPlanner::milestone(int i) const {
  if (i < 0 || i >= forest_.numNodes()) throw std::out_of_range("milestone index out of range");
  return forest_.config(i);
}

void SBLPlanner::iterate() {
  if (endpoints_ < 2) throw std::runtime_error("No start or goal set for point-to-point planner, cannot start");
  ++iterations_;
  if (solved_) return;
  if (useGrid_ && randomizeFrequency_ > 0 && iterations_ % randomizeFrequency_ == 0) forest_.randomizeGrid();
  const int grown = std::uniform_int_distribution<int>(0, 1)(rng_);
  const int n = forest_.extend(grown, maxExtendDistance_, maxExtendIters_);
  if (n < 0) return;
  // The path to propose goes through a node of the other tree in the new
  // node's grid cell (the reference's choice), and if that fails, through
  // the other tree's nearest node: more of the other tree is reached per
  // iteration at the cost of one more lazy path check.
  const int other = 1 - grown;
  const int candidates[2] = {forest_.findNearby(other, forest_.config(n)), forest_.nearest(other, forest_.config(n))};
  for (int k = 0; k < 2; ++k) {
    const int m = candidates[k];
    // A failed check may have moved n (or m) to the other tree.
    if (k == 1 && (m == candidates[0] || forest_.treeOf(n) != grown || forest_.treeOf(m) != other)) return;
    if (space_->distance(forest_.config(n), forest_.config(m)) > connectionThreshold_) continue;
    if (grown == 0 ? forest_.checkPath(n, m, solution_) : forest_.checkPath(m, n, solution_)) {
      solved_ = true;
      return;
    }
  }
}

bool SBLPlanner::isConnected(int a, int b) const {
  if (a == b) return true;
  return solved_ && std::min(a, b) == 0 && std::max(a, b) == 1;
}

bool SBLPlanner::getPath(int a, int b, Path& out) {
  if (!isConnected(a, b) || a == b) {
    if (a == b && a >= 0 && a < numMilestones()) {
      out = {milestone(a)};
      return true;
    }
    return false;
  }
  out = solution_;
  if (a == 1) std::reverse(out.begin(), out.end());
  return true;
}

void SBLPlanner::getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const {
  forest_.getRoadmap(vertices, edges);
}

}  // namespace plan
}  // namespace klampt
