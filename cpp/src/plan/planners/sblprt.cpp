#include "klampt/plan/planners/sblprt.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace klampt {
namespace plan {

SBLPRTPlanner::SBLPRTPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& s)
    : MotionPlanner(std::move(space), seed),
      forest_(*space_, rng_, true, s.gridResolution),
      maxExtendDistance_(s.perturbationRadius),
      maxExtendIters_(std::max(1, s.perturbationIters)),
      randomizeFrequency_(s.randomizeFrequency) {}

int SBLPRTPlanner::addMilestone(const Config& q) {
  if (!space_->isFeasible(q)) return -1;
  const int t = forest_.addTree(q);
  forest_.randomizeGrid(t);  // each seed's tree draws its own grid coordinates
  seeds_.addNode(q);
  return t;
}

Config SBLPRTPlanner::milestone(int i) const {
  if (i < 0 || i >= forest_.numTrees()) throw std::out_of_range("milestone index out of range");
  return forest_.config(forest_.root(i));
}

void SBLPRTPlanner::iterate() {
  ++iterations_;
  const int n = forest_.numTrees();
  if (n < 2) return;
  if (randomizeFrequency_ > 0 && iterations_ % randomizeFrequency_ == 0) forest_.randomizeGrid();
  const int t = std::uniform_int_distribution<int>(0, n - 1)(rng_);
  std::vector<int> open;  // seeds not yet in t's component
  for (int g = 0; g < n; ++g)
    if (!seeds_.connected(t, g)) open.push_back(g);
  if (open.empty()) return;
  const int node = forest_.extend(t, maxExtendDistance_, maxExtendIters_);
  if (node < 0) return;
  int target = open[std::uniform_int_distribution<size_t>(0, open.size() - 1)(rng_)];
  if (std::uniform_real_distribution<double>(0, 1)(rng_) < 0.2) {
    double best = INFINITY;
    for (int g : open) {
      const double d = space_->distance(forest_.config(node), forest_.config(forest_.root(g)));
      if (d < best) {
        best = d;
        target = g;
      }
    }
  }
  const int other = forest_.pickExpand(target);
  Path path;
  if (!forest_.checkPath(node, other, path)) return;
  // The path runs from the root of node's tree to the root of other's; the
  // trees may have traded subtrees, so read their seeds back.
  const int a = forest_.treeOf(node), b = forest_.treeOf(other);
  if (a == b) return;
  if (a < b)
    paths_[{a, b}] = path;
  else
    paths_[{b, a}] = Path(path.rbegin(), path.rend());
  seeds_.addEdge(a, b, objective_.pathCost(*space_, path) - objective_.terminal(path.back()));
}

bool SBLPRTPlanner::isConnected(int a, int b) const {
  if (a < 0 || b < 0 || a >= seeds_.numNodes() || b >= seeds_.numNodes()) return false;
  return seeds_.connected(a, b);
}

bool SBLPRTPlanner::getPath(int a, int b, Path& out) {
  if (!isConnected(a, b)) return false;
  const std::vector<int> seeds = seeds_.shortestPath(a, {b});
  if (seeds.empty()) return false;
  out = {forest_.config(forest_.root(seeds[0]))};
  for (size_t k = 0; k + 1 < seeds.size(); ++k) {
    const int s = seeds[k], t = seeds[k + 1];
    Path p = paths_.at({std::min(s, t), std::max(s, t)});
    if (s > t) std::reverse(p.begin(), p.end());
    out.insert(out.end(), p.begin() + 1, p.end());
  }
  return true;
}

void SBLPRTPlanner::getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const {
  forest_.getRoadmap(vertices, edges);
}

void SBLPRTPlanner::getStats(std::map<std::string, std::string>& out) const {
  MotionPlanner::getStats(out);
  out["numNodes"] = formatNumber(forest_.numNodes());
}

}  // namespace plan
}  // namespace klampt
