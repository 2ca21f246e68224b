#include "klampt/plan/planner.h"

#include <cmath>

namespace klampt {
namespace plan {

double Objective::edge(CSpace& space, const Config& a, const Config& b) const {
  return edgeCost ? edgeCost(a, b) : space.distance(a, b);
}

double Objective::pathCost(CSpace& space, const Path& path) const {
  if (path.empty()) return INFINITY;
  double c = terminal(path.back());
  for (size_t i = 0; i + 1 < path.size(); ++i) c += edge(space, path[i], path[i + 1]);
  return c;
}

int MotionPlanner::closestMilestone(const Config& q) {
  int best = -1;
  double bestD = INFINITY;
  for (int i = 0; i < numMilestones(); ++i) {
    const double d = space_->distance(q, milestone(i));
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

bool MotionPlanner::getPathToAny(int a, const std::vector<int>& goals, Path& out) {
  double best = INFINITY;
  bool found = false;
  for (int g : goals) {
    Path p;
    if (!isConnected(a, g) || !getPath(a, g, p)) continue;
    const double c = objective_.pathCost(*space_, p);
    if (!found || c < best) {
      best = c;
      out = std::move(p);
      found = true;
    }
  }
  return found;
}

void MotionPlanner::getStats(std::map<std::string, std::string>& out) const {
  out["numIters"] = formatNumber(numIterations());
  out["numMilestones"] = formatNumber(numMilestones());
  out["numComponents"] = formatNumber(numComponents());
}

}  // namespace plan
}  // namespace klampt
