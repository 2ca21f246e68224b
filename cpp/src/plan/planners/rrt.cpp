#include "klampt/plan/planners/rrt.h"

#include <stdexcept>

namespace klampt {
namespace plan {

RRTPlanner::RRTPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& s)
    : MotionPlanner(std::move(space), seed),
      bidirectional_(s.bidirectional),
      delta_(s.perturbationRadius),
      connectionThreshold_(s.connectionThreshold) {}

int RRTPlanner::addMilestone(const Config& q) {
  if (!space_->isFeasible(q)) return -1;
  const int n = graph_.addNode(q);
  treeOf_.push_back((int)trees_.size());
  trees_.emplace_back(*space_);
  trees_.back().add(n, q);
  return n;
}

Config RRTPlanner::milestone(int i) const {
  if (i < 0 || i >= graph_.numNodes()) throw std::out_of_range("milestone index out of range");
  return graph_.node(i);
}

bool RRTPlanner::isConnected(int a, int b) const {
  if (a < 0 || b < 0 || a >= graph_.numNodes() || b >= graph_.numNodes()) return false;
  return graph_.connected(a, b);
}

int RRTPlanner::extend(int tree, int other) {
  Config x, step;
  space_->sample(rng_, x);
  double d;
  int near = trees_[tree].nearest(x, &d);
  if (other >= 0) {
    double dOther;
    const int nearOther = trees_[other].nearest(x, &dOther);
    if (nearOther >= 0 && (near < 0 || dOther < d)) {
      near = nearOther;
      d = dOther;
      tree = other;
    }
  }
  if (near < 0) return -1;
  const Config from = graph_.node(near);  // a copy: adding a node moves the others
  if (d > delta_) {
    space_->interpolate(from, x, delta_ / d, step);
    x = step;
    d = space_->distance(from, x);
  }
  if (!space_->isFeasible(x) || !space_->isVisible(from, x)) return -1;
  const int n = graph_.addNode(x);
  treeOf_.push_back(tree);
  trees_[tree].add(n, x);
  graph_.addEdge(near, n, objective_.edge(*space_, from, x));
  return n;
}

bool RRTPlanner::tryConnect(int n, int target) {
  const Config &a = graph_.node(n), &b = graph_.node(target);
  if (space_->distance(a, b) > connectionThreshold_ || !space_->isVisible(a, b)) return false;
  graph_.addEdge(n, target, objective_.edge(*space_, a, b));
  return true;
}

void RRTPlanner::iterate() {
  if (graph_.numNodes() < 2) throw std::runtime_error("No start or goal set for point-to-point planner, cannot start");
  ++iterations_;
  if (graph_.connected(0, 1)) return;
  if (bidirectional_) {
    const int n = extend(0, 1);
    if (n < 0) return;
    const int grown = treeOf_[n];
    const int target = trees_[1 - grown].nearest(graph_.node(n));
    if (target >= 0) tryConnect(n, target);
  } else {
    const int n = extend(0, -1);
    if (n >= 0) tryConnect(n, 1);
  }
}

bool RRTPlanner::getPath(int a, int b, Path& out) {
  if (!isConnected(a, b)) return false;
  std::function<double(int, int, double)> cost;
  if (objective_.edgeCost)
    cost = [this](int i, int j, double) { return objective_.edge(*space_, graph_.node(i), graph_.node(j)); };
  out = nodesToPath(graph_, graph_.shortestPath(a, {b}, cost));
  return !out.empty();
}

void RRTPlanner::getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const {
  vertices.clear();
  for (int i = 0; i < graph_.numNodes(); ++i) vertices.push_back(graph_.node(i));
  graph_.edges(edges);
}

}  // namespace plan
}  // namespace klampt
