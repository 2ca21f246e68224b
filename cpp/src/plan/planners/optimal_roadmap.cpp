#include "klampt/plan/planners/optimal_roadmap.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace klampt {
namespace plan {

OptimalRoadmapPlanner::OptimalRoadmapPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed,
                                             const PlannerSettings& s, bool rrg, bool lazy)
    : MotionPlanner(std::move(space), seed),
      near_(*space_),
      rrg_(rrg),
      lazy_(lazy),
      bidirectional_(s.bidirectional),
      suboptimality_(std::max(0.0, s.suboptimalityFactor)),
      threshold_(s.connectionThreshold > 0 ? s.connectionThreshold : INFINITY) {}

double OptimalRoadmapPlanner::steerRadius() const {
  const double n = iterations_ + 1.0;
  const int d = dimension();
  return std::min(threshold_, std::pow(std::log(n) / n, 1.0 / d));
}

double OptimalRoadmapPlanner::joinRadius() const {
  // RRT*'s neighbourhood is at most the steering distance (Karaman and
  // Frazzoli's min(gamma (log n / n)^(1/d), eta)): long edges would cost
  // whole edge checks each for little gain. Lazy edges cost nothing until
  // they lie on a candidate path, so the lazy planners keep every k-nearest.
  return rrg_ && !lazy_ ? steerRadius() : threshold_;
}

Config OptimalRoadmapPlanner::milestone(int i) const {
  if (i < 0 || i >= graph_.numNodes()) throw std::out_of_range("milestone index out of range");
  return graph_.node(i);
}

double OptimalRoadmapPlanner::edgeCost(int i, int j) { return objective_.edge(*space_, graph_.node(i), graph_.node(j)); }

int OptimalRoadmapPlanner::dimension() const {
  if (space_->dim() > 0) return space_->dim();
  return graph_.numNodes() > 0 ? std::max(1, (int)graph_.node(0).size()) : 1;
}

int OptimalRoadmapPlanner::neighborCount() const {
  const int n = graph_.numNodes();
  const int d = dimension();
  return std::max(1, (int)std::ceil(M_E * (1.0 + 1.0 / d) * std::log((double)n + 1.0)));
}

void OptimalRoadmapPlanner::connectNeighbors(int n, int skip) {
  const Config q = graph_.node(n);
  const double radius = joinRadius();
  for (int m : near_.kNearest(q, neighborCount() + 2)) {
    if (m == n || m == skip || graph_.hasEdge(n, m)) continue;
    if (space_->distance(q, graph_.node(m)) > radius) break;  // nearest first
    if (lazy_) {
      graph_.addEdge(n, m, edgeCost(n, m));
      dirty_ = true;
      continue;
    }
    ++edgeChecks_;
    if (space_->isVisible(q, graph_.node(m))) graph_.addEdge(n, m, edgeCost(n, m));
  }
}

int OptimalRoadmapPlanner::addNode(const Config& q, int from) {
  const int n = graph_.addNode(q);
  if (from >= 0) {
    graph_.addEdge(from, n, edgeCost(from, n));
    if (lazy_) dirty_ = true;
  }
  connectNeighbors(n, from);
  near_.add(n, q);
  return n;
}

void OptimalRoadmapPlanner::connectOtherTree(int n) {
  const double radius = joinRadius();
  if (graph_.numNodes() < 3 || !std::isfinite(radius) || graph_.connected(0, 1)) return;
  const int target = graph_.connected(n, 0) ? 1 : graph_.connected(n, 1) ? 0 : -1;
  if (target < 0) return;
  const Config& q = graph_.node(n);
  int best = -1;
  double bestD = INFINITY;
  for (int i = 0; i < graph_.numNodes(); ++i) {
    if (!graph_.connected(i, target)) continue;
    const double d = space_->distance(q, graph_.node(i));
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  if (best < 0 || bestD <= radius) return;  // within the radius connectNeighbors tried it
  ++edgeChecks_;
  if (space_->isVisible(q, graph_.node(best))) graph_.addEdge(n, best, edgeCost(n, best));
}

int OptimalRoadmapPlanner::addMilestone(const Config& q) {
  if (!space_->isFeasible(q)) return -1;
  const int n = addNode(q, -1);
  if (lazy_) improveLazily();
  return n;
}

void OptimalRoadmapPlanner::iterate() {
  ++iterations_;
  Config x;
  space_->sample(rng_, x);
  if (rrg_) {
    // Steer from the nearest node; the start tree only, unless bidirectional.
    double d;
    int from = near_.nearest(x, &d);
    if (!bidirectional_ && graph_.numNodes() > 0 && !graph_.connected(from, 0)) {
      from = -1;
      d = INFINITY;
      for (int i = 0; i < graph_.numNodes(); ++i)
        if (graph_.connected(i, 0)) {
          const double di = space_->distance(x, graph_.node(i));
          if (di < d) {
            d = di;
            from = i;
          }
        }
    }
    if (from < 0) return;
    const Config q = graph_.node(from);
    const double reach = steerRadius();
    if (d > reach) {
      Config step;
      space_->interpolate(q, x, reach / d, step);
      x = step;
    }
    if (!space_->isFeasible(x)) return;
    if (!lazy_) {
      ++edgeChecks_;
      if (!space_->isVisible(q, x)) return;
    }
    const int n = addNode(x, from);
    if (!lazy_) connectOtherTree(n);
  } else {
    if (!space_->isFeasible(x)) return;
    addNode(x, -1);
  }
  if (lazy_) improveLazily();
}

std::vector<int> OptimalRoadmapPlanner::cheapest(int a, const std::vector<int>& goals, bool lazyEdges) {
  std::function<double(int, int, double)> cost = [this, lazyEdges](int i, int j, double stored) {
    if (lazy_ && !lazyEdges && !checked_.count({std::min(i, j), std::max(i, j)})) return (double)INFINITY;
    return objective_.edgeCost ? edgeCost(i, j) : stored;
  };
  std::function<double(int)> terminal;
  if (objective_.terminalCost) terminal = [this](int g) { return objective_.terminal(graph_.node(g)); };
  std::vector<int> path = graph_.shortestPath(a, goals, cost, terminal);
  // Infinite-cost (unchecked) edges do not make a path.
  for (size_t k = 0; k + 1 < path.size(); ++k)
    if (!std::isfinite(cost(path[k], path[k + 1], 0.0))) return {};
  return path;
}

void OptimalRoadmapPlanner::improveLazily() {
  if (!dirty_ || graph_.numNodes() < 2) return;
  dirty_ = false;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    if (!graph_.connected(0, 1)) return;
    const std::vector<int> path = cheapest(0, {1}, true);
    if (path.empty()) {
      graph_.recomputeComponents();
      return;
    }
    const double cost = objective_.pathCost(*space_, nodesToPath(graph_, path));
    if (!(cost * (1.0 + suboptimality_) < bestCost_)) return;
    bool free = true;
    for (size_t k = 0; k + 1 < path.size() && free; ++k) {
      const std::pair<int, int> e{std::min(path[k], path[k + 1]), std::max(path[k], path[k + 1])};
      if (checked_.count(e)) continue;
      ++edgeChecks_;
      if (space_->isVisible(graph_.node(e.first), graph_.node(e.second))) {
        checked_.insert(e);
      } else {
        graph_.removeEdge(e.first, e.second);
        free = false;
      }
    }
    if (free) {
      best_ = path;
      bestCost_ = cost;
      return;
    }
  }
}

bool OptimalRoadmapPlanner::isConnected(int a, int b) const {
  if (a < 0 || b < 0 || a >= graph_.numNodes() || b >= graph_.numNodes()) return false;
  if (!lazy_) return graph_.connected(a, b);
  if (a == b) return true;
  return !const_cast<OptimalRoadmapPlanner*>(this)->cheapest(a, {b}, false).empty();
}

bool OptimalRoadmapPlanner::getPath(int a, int b, Path& out) {
  if (lazy_ && std::min(a, b) == 0 && std::max(a, b) == 1 && !best_.empty()) {
    out = nodesToPath(graph_, best_);
    if (a == 1) std::reverse(out.begin(), out.end());
    return true;
  }
  if (!isConnected(a, b)) return false;
  out = nodesToPath(graph_, cheapest(a, {b}, false));
  return !out.empty();
}

bool OptimalRoadmapPlanner::getPathToAny(int a, const std::vector<int>& goals, Path& out) {
  out = nodesToPath(graph_, cheapest(a, goals, false));
  return !out.empty();
}

bool OptimalRoadmapPlanner::isSolved() {
  if (graph_.numNodes() < 2) return false;
  return lazy_ ? !best_.empty() : graph_.connected(0, 1);
}

bool OptimalRoadmapPlanner::getSolution(Path& out) { return isSolved() && getPath(0, 1, out); }

void OptimalRoadmapPlanner::setObjective(const Objective& objective) {
  objective_ = objective;
  // Costs changed: the best lazy path must be found again.
  best_.clear();
  bestCost_ = INFINITY;
  dirty_ = true;
  if (lazy_) improveLazily();
}

void OptimalRoadmapPlanner::getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const {
  vertices.clear();
  for (int i = 0; i < graph_.numNodes(); ++i) vertices.push_back(graph_.node(i));
  graph_.edges(edges);
}

void OptimalRoadmapPlanner::getStats(std::map<std::string, std::string>& out) const {
  MotionPlanner::getStats(out);
  out["numEdgeChecks"] = formatNumber(edgeChecks_);
  if (lazy_) out["bestCost"] = formatNumber(bestCost_);
}

}  // namespace plan
}  // namespace klampt
