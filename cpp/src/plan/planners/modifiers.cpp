#include "klampt/plan/planners/modifiers.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace klampt {
namespace plan {

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The point at arc length s along the path: segment index and configuration.
int pointAt(CSpace& space, const Path& path, const std::vector<double>& cumulative, double s, Config& out) {
  int i = (int)(std::upper_bound(cumulative.begin(), cumulative.end(), s) - cumulative.begin()) - 1;
  i = std::max(0, std::min(i, (int)path.size() - 2));
  const double len = cumulative[i + 1] - cumulative[i];
  const double u = len > 0 ? std::min(1.0, std::max(0.0, (s - cumulative[i]) / len)) : 0.0;
  space.interpolate(path[i], path[i + 1], u, out);
  return i;
}

}  // namespace

bool tryShortcut(CSpace& space, const Objective& objective, Rng& rng, Path& path) {
  if (path.size() < 3) return false;
  std::vector<double> cumulative{0};
  for (size_t i = 0; i + 1 < path.size(); ++i) cumulative.push_back(cumulative.back() + space.distance(path[i], path[i + 1]));
  const double total = cumulative.back();
  if (!(total > 0)) return false;
  std::uniform_real_distribution<double> u(0, total);
  double s1 = u(rng), s2 = u(rng);
  if (s1 > s2) std::swap(s1, s2);
  Config a, b;
  const int i1 = pointAt(space, path, cumulative, s1, a);
  const int i2 = pointAt(space, path, cumulative, s2, b);
  if (i1 == i2) return false;
  Path shorter(path.begin(), path.begin() + i1 + 1);
  shorter.push_back(a);
  shorter.push_back(b);
  shorter.insert(shorter.end(), path.begin() + i2 + 1, path.end());
  if (objective.pathCost(space, shorter) >= objective.pathCost(space, path)) return false;
  if (!space.isVisible(a, b)) return false;
  path = std::move(shorter);
  return true;
}

WrappedPlanner::WrappedPlanner(std::unique_ptr<MotionPlanner> base, std::uint64_t seed)
    : MotionPlanner(base->spacePtr(), seed), base_(std::move(base)) {}

bool WrappedPlanner::isConnected(int a, int b) const {
  if (!best_.empty() && std::min(a, b) == 0 && std::max(a, b) == 1) return true;
  return base_->isConnected(a, b);
}

bool WrappedPlanner::getPath(int a, int b, Path& out) {
  if (!best_.empty() && std::min(a, b) == 0 && std::max(a, b) == 1) {
    out = best_;
    if (a == 1) std::reverse(out.begin(), out.end());
    return true;
  }
  return base_->getPath(a, b, out);
}

bool WrappedPlanner::getSolution(Path& out) {
  if (!best_.empty()) {
    out = best_;
    return true;
  }
  return base_->getSolution(out);
}

void WrappedPlanner::setObjective(const Objective& objective) {
  objective_ = objective;
  if (base_->canUseObjective()) base_->setObjective(objective);
}

void ShortcutPlanner::iterate() {
  ++iterations_;
  if (best_.empty()) {
    if (!base_->isSolved()) base_->iterate();
    if (base_->isSolved()) base_->getSolution(best_);
    return;
  }
  if (tryShortcut(*space_, objective_, rng_, best_)) ++shortcuts_;
}

void ShortcutPlanner::getStats(std::map<std::string, std::string>& out) const {
  base_->getStats(out);
  out["numIters"] = formatNumber(numIterations());
  out["numShortcuts"] = formatNumber(shortcuts_);
}

RestartPlanner::RestartPlanner(PlannerMaker make, const HaltingCondition& round, bool shortcut, std::uint64_t seed)
    : WrappedPlanner(make(seed), seed), make_(std::move(make)), round_(round), shortcut_(shortcut), roundStart_(now()) {}

int RestartPlanner::addMilestone(const Config& q) {
  const int i = base_->addMilestone(q);
  if (i >= 0) milestones_.push_back(q);
  return i;
}

void RestartPlanner::newRound() {
  base_ = make_(rng_());
  if (base_->canUseObjective() && !objective_.empty()) base_->setObjective(objective_);
  for (const Config& q : milestones_) base_->addMilestone(q);
  roundIters_ = 0;
  ++rounds_;
  roundStart_ = now();
}

void RestartPlanner::iterate() {
  ++iterations_;
  if (shortcut_ && !best_.empty() && iterations_ % 2 == 0) {
    tryShortcut(*space_, objective_, rng_, best_);
    return;
  }
  ++roundIters_;
  base_->iterate();
  const bool solved = base_->isSolved();
  double cost = INFINITY;
  if (solved) {
    Path p;
    base_->getSolution(p);
    cost = objective_.pathCost(*space_, p);
    if (best_.empty() || cost < objective_.pathCost(*space_, best_)) best_ = std::move(p);
  }
  const bool over = (round_.foundSolution && solved) || roundIters_ >= round_.maxIters ||
                    now() - roundStart_ > round_.timeLimit || (solved && cost <= round_.costThreshold);
  if (over) newRound();
}

void RestartPlanner::getStats(std::map<std::string, std::string>& out) const {
  base_->getStats(out);
  out["numIters"] = formatNumber(numIterations());
  out["numRestarts"] = formatNumber(rounds_ - 1);
}

}  // namespace plan
}  // namespace klampt
