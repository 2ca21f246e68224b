#include "klampt/plan/planners/prm.h"

#include <stdexcept>

namespace klampt {
namespace plan {

PRMPlanner::PRMPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& s)
    : MotionPlanner(std::move(space), seed),
      near_(*space_),
      knn_(s.knn),
      connectionThreshold_(s.connectionThreshold),
      ignoreConnectedComponents_(s.ignoreConnectedComponents) {}

int PRMPlanner::addMilestone(const Config& q) {
  if (!space_->isFeasible(q)) return -1;
  const int n = graph_.addNode(q);
  connect(n);
  near_.add(n, q);
  return n;
}

Config PRMPlanner::milestone(int i) const {
  if (i < 0 || i >= graph_.numNodes()) throw std::out_of_range("milestone index out of range");
  return graph_.node(i);
}

void PRMPlanner::connect(int n) {
  const Config q = graph_.node(n);
  std::vector<int> candidates = knn_ > 0 ? near_.kNearest(q, knn_) : near_.within(q, connectionThreshold_);
  for (int m : candidates) {
    if (!ignoreConnectedComponents_ && graph_.connected(n, m)) continue;
    const Config& p = graph_.node(m);
    if (space_->isVisible(q, p)) graph_.addEdge(n, m, objective_.edge(*space_, q, p));
  }
}

void PRMPlanner::iterate() {
  ++iterations_;
  Config q;
  space_->sample(rng_, q);
  if (!space_->isFeasible(q)) return;
  const int n = graph_.addNode(q);
  connect(n);
  near_.add(n, q);
}

bool PRMPlanner::isConnected(int a, int b) const {
  if (a < 0 || b < 0 || a >= graph_.numNodes() || b >= graph_.numNodes()) return false;
  return graph_.connected(a, b);
}

std::function<double(int, int, double)> PRMPlanner::edgeCostFn() {
  if (!objective_.edgeCost) return {};
  return [this](int i, int j, double) { return objective_.edge(*space_, graph_.node(i), graph_.node(j)); };
}

bool PRMPlanner::getPath(int a, int b, Path& out) {
  if (!isConnected(a, b)) return false;
  out = nodesToPath(graph_, graph_.shortestPath(a, {b}, edgeCostFn()));
  return !out.empty();
}

bool PRMPlanner::getPathToAny(int a, const std::vector<int>& goals, Path& out) {
  std::function<double(int)> terminal;
  if (objective_.terminalCost) terminal = [this](int g) { return objective_.terminal(graph_.node(g)); };
  out = nodesToPath(graph_, graph_.shortestPath(a, goals, edgeCostFn(), terminal));
  return !out.empty();
}

void PRMPlanner::getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const {
  vertices.clear();
  for (int i = 0; i < graph_.numNodes(); ++i) vertices.push_back(graph_.node(i));
  graph_.edges(edges);
}

}  // namespace plan
}  // namespace klampt
