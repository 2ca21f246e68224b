#include "klampt/plan/planners/point_to_set.h"

#include <cmath>
#include <stdexcept>

namespace klampt {
namespace plan {

PointToSetPlanner::PointToSetPlanner(std::shared_ptr<CSpace> space, PlannerMaker make, bool multiQuery,
                                     const Config& start, GoalSet goal, std::uint64_t seed)
    : MotionPlanner(std::move(space), seed),
      make_(std::move(make)),
      multiQuery_(multiQuery),
      start_(start),
      goal_(std::move(goal)) {
  if (multiQuery_) {
    roadmap_ = make_(rng_());
    if (roadmap_->addMilestone(start_) != 0) throw std::runtime_error("Start configuration is infeasible");
  }
}

Config PointToSetPlanner::milestone(int i) const {
  if (i < 0 || i > (int)goals_.size()) throw std::out_of_range("milestone index out of range");
  return i == 0 ? start_ : goals_[i - 1];
}

bool PointToSetPlanner::sampleGoal() {
  Config q;
  if (goal_.sampler)
    goal_.sampler(q);
  else
    space_->sample(rng_, q);
  if (q.size() != start_.size() || !goal_.test(q) || !space_->isFeasible(q)) return false;
  goals_.push_back(q);
  if (multiQuery_) {
    goalIds_.push_back(roadmap_->addMilestone(q));
  } else {
    auto p = make_(rng_());
    if (p->canUseObjective() && !objective_.empty()) p->setObjective(objective_);
    p->addMilestone(start_);
    p->addMilestone(q);
    searches_.push_back(std::move(p));
  }
  sinceGoal_ = 0;
  return true;
}

void PointToSetPlanner::iterate() {
  ++iterations_;
  ++sinceGoal_;
  bool anyWorking = multiQuery_;
  for (const auto& s : searches_) anyWorking = anyWorking || !s->isSolved();
  // A goal-sampling iteration does nothing else.
  if (goals_.empty() || !anyWorking || sinceGoal_ >= 50 * (int)goals_.size()) {
    sinceGoal_ = 0;
    sampleGoal();
    return;
  }
  if (multiQuery_) {
    roadmap_->iterate();
    return;
  }
  for (auto& s : searches_)
    if (!s->isSolved()) s->iterate();
}

int PointToSetPlanner::numComponents() const {
  if (multiQuery_) return roadmap_->numComponents();
  int n = 1;
  for (const auto& s : searches_) n += s->isSolved() ? 0 : 1;
  return n;
}

bool PointToSetPlanner::isConnected(int a, int b) const {
  if (a == b) return true;
  if (a > b) std::swap(a, b);
  if (a != 0 || b < 1 || b > (int)goals_.size()) return false;
  return multiQuery_ ? roadmap_->isConnected(0, goalIds_[b - 1]) : searches_[b - 1]->isSolved();
}

bool PointToSetPlanner::getPath(int a, int b, Path& out) {
  if (!isConnected(a, b)) return false;
  if (a == b) {
    out = {milestone(a)};
    return true;
  }
  const int g = std::max(a, b) - 1;
  const bool ok = multiQuery_ ? roadmap_->getPath(0, goalIds_[g], out) : searches_[g]->getSolution(out);
  if (ok && a > b) std::reverse(out.begin(), out.end());
  return ok;
}

bool PointToSetPlanner::isSolved() {
  for (int k = 1; k <= (int)goals_.size(); ++k)
    if (isConnected(0, k)) return true;
  return false;
}

bool PointToSetPlanner::getSolution(Path& out) {
  if (multiQuery_) return !goalIds_.empty() && roadmap_->getPathToAny(0, goalIds_, out);
  double best = INFINITY;
  bool found = false;
  for (auto& s : searches_) {
    Path p;
    if (!s->isSolved() || !s->getSolution(p)) continue;
    const double c = objective_.pathCost(*space_, p);
    if (!found || c < best) {
      best = c;
      out = std::move(p);
      found = true;
    }
  }
  return found;
}

void PointToSetPlanner::setObjective(const Objective& objective) {
  objective_ = objective;
  if (multiQuery_ && roadmap_->canUseObjective()) roadmap_->setObjective(objective);
  for (auto& s : searches_)
    if (s->canUseObjective()) s->setObjective(objective);
}

void PointToSetPlanner::getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const {
  if (multiQuery_) {
    roadmap_->getRoadmap(vertices, edges);
    return;
  }
  vertices.clear();
  edges.clear();
  for (const auto& s : searches_) {
    std::vector<Config> v;
    std::vector<Edge> e;
    s->getRoadmap(v, e);
    const int offset = (int)vertices.size();
    vertices.insert(vertices.end(), v.begin(), v.end());
    for (const Edge& x : e) edges.emplace_back(x.first + offset, x.second + offset);
  }
}

void PointToSetPlanner::getStats(std::map<std::string, std::string>& out) const {
  MotionPlanner::getStats(out);
  out["numGoals"] = formatNumber((double)goals_.size());
}

}  // namespace plan
}  // namespace klampt
