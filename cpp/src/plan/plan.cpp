#include "klampt/plan/plan.h"

#include <cmath>
#include <stdexcept>
#include "klampt/plan/factory.h"
#include "klampt/plan/random.h"

namespace klampt {
namespace plan {

std::string failureList(const std::vector<std::string>& names) {
  std::string s = "fails [";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", '" : "'") + names[i] + "'";
  return s + "]";
}

Plan::Plan(std::shared_ptr<CSpace> space, const PlannerSettings& settings)
    : space_(std::move(space)), settings_(settings) {
  settings_.type = canonicalPlannerType(settings_.type);
  planner_ = createPlanner(space_, settings_, drawSeed());
  dim_ = space_->dim();
}

void Plan::checkSize(const Config& q, const char* what) const {
  if (dim_ >= 0 && q.size() != dim_)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(q.size()) +
                                " elements, the space has dimension " + std::to_string(dim_));
  for (Eigen::Index i = 0; i < q.size(); ++i)
    if (std::isnan(q[i])) throw std::invalid_argument(std::string(what) + " contains NaN");
}

void Plan::checkIndex(int i) const {
  if (i < 0 || i >= planner_->numMilestones()) throw std::out_of_range("Invalid milestone index " + std::to_string(i));
}

void Plan::setEndpoints(const Config& start, const Config& goal) {
  if (endpointsSet_) throw std::runtime_error("Plan already initialized?");
  checkSize(start, "start");
  if (dim_ < 0) dim_ = (int)start.size();
  checkSize(goal, "goal");
  if (!space_->isFeasible(start)) {
    const auto failed = space_->feasibilityFailures(start);
    throw std::runtime_error("Start configuration is infeasible" + (failed.empty() ? "" : ": " + failureList(failed)));
  }
  if (!space_->isFeasible(goal)) {
    const auto failed = space_->feasibilityFailures(goal);
    throw std::runtime_error("Goal configuration is infeasible" + (failed.empty() ? "" : ": " + failureList(failed)));
  }
  if (planner_->numMilestones() != 0 || !planner_->canAddMilestone())
    throw std::runtime_error("Plan already initialized?");
  endpointsSet_ = true;
  pendingEndpoints_ = {start, goal};
  addPendingEndpoints();
}

void Plan::addPendingEndpoints() {
  while (!pendingEndpoints_.empty()) {
    const int expected = planner_->numMilestones();
    // If a callback raises here, the endpoint stays pending.
    const int i = planner_->addMilestone(pendingEndpoints_.front());
    if (i < 0) {
      pendingEndpoints_.clear();
      throw std::runtime_error(expected == 0 ? "Start configuration is infeasible" : "Goal configuration is infeasible");
    }
    if (i != expected || i > 1) {
      pendingEndpoints_.clear();
      throw std::runtime_error("Plan already initialized?");
    }
    pendingEndpoints_.erase(pendingEndpoints_.begin());
  }
}

std::string Plan::setEndpointSet(const Config& start, const GoalSet& goal) {
  if (!goal.test) throw std::runtime_error("Goal test is not callable");
  checkSize(start, "start");
  if (dim_ < 0) dim_ = (int)start.size();
  if (!space_->isFeasible(start)) {
    const auto failed = space_->feasibilityFailures(start);
    throw std::runtime_error("Start configuration is infeasible" + (failed.empty() ? "" : ": " + failureList(failed)));
  }
  std::string note;
  auto p = createPointToSetPlanner(space_, settings_, drawSeed(), start, goal, &note);
  planner_ = std::move(p);
  pendingEndpoints_.clear();
  endpointsSet_ = goalSet_ = true;
  return note;
}

int Plan::addMilestone(const Config& q) {
  checkSize(q, "milestone");
  if (dim_ < 0) dim_ = (int)q.size();
  if (!planner_->canAddMilestone()) throw std::runtime_error("The planner cannot accept any more milestones");
  return planner_->addMilestone(q);
}

int Plan::closestMilestone(const Config& q) {
  checkSize(q, "config");
  return planner_->closestMilestone(q);
}

Config Plan::milestone(int i) const {
  checkIndex(i);
  return planner_->milestone(i);
}

void Plan::planMore(int iterations) {
  if (planner_->isPointToPoint() && !endpointsSet_ && planner_->numMilestones() < 2)
    throw std::runtime_error("No start or goal set for point-to-point planner, cannot start");
  addPendingEndpoints();
  if (iterations <= 0) return;
  space_->beginPlanning();
  planner_->planMore(iterations);
}

bool Plan::isSolved() { return planner_->isSolved(); }

bool Plan::solutionPath(Path& out) {
  if (!endpointsSet_ && planner_->numMilestones() < 2) return false;
  return planner_->isSolved() && planner_->getSolution(out);
}

bool Plan::path(int a, int b, Path& out) {
  checkIndex(a);
  checkIndex(b);
  return planner_->isConnected(a, b) && planner_->getPath(a, b, out);
}

bool Plan::pathToAny(int a, const std::vector<int>& goals, Path& out) {
  checkIndex(a);
  for (int g : goals) checkIndex(g);
  return planner_->getPathToAny(a, goals, out);
}

void Plan::setObjective(const Objective& objective) {
  if (!planner_->canUseObjective()) throw std::runtime_error("That motion planner cannot accept objective functions");
  planner_->setObjective(objective);
}

double Plan::data(const std::string& name) const {
  if (name == "iterations") return planner_->numIterations();
  if (name == "milestones") return planner_->numMilestones();
  if (name == "components") return planner_->numComponents();
  throw std::runtime_error("Invalid plan option");
}

std::map<std::string, std::string> Plan::stats() const {
  std::map<std::string, std::string> out;
  planner_->getStats(out);
  return out;
}

void Plan::roadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const {
  planner_->getRoadmap(vertices, edges);
}

}  // namespace plan
}  // namespace klampt
