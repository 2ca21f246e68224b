// What a motionplanning.PlannerInterface does: a planner built from the
// factory settings of its creation, its endpoints (a goal configuration or a
// goal set), iterations, paths, costs and statistics, with the reference's
// checks and messages.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include "klampt/plan/planner.h"
#include "klampt/plan/settings.h"

namespace klampt {
namespace plan {

class Plan {
 public:
  /// Validates the type (std::invalid_argument) and builds the planner.
  Plan(std::shared_ptr<CSpace> space, const PlannerSettings& settings);

  /// Point-to-point endpoints (milestones 0 and 1). std::runtime_error:
  /// "Start configuration is infeasible[: fails [...]]", "Goal ...", "Plan
  /// already initialized?"; std::invalid_argument for mismatched sizes.
  void setEndpoints(const Config& start, const Config& goal);
  /// Rebuilds the planner for a goal set; returns the factory's warning ("" if none).
  std::string setEndpointSet(const Config& start, const GoalSet& goal);
  /// std::runtime_error("The planner cannot accept any more milestones").
  int addMilestone(const Config& q);
  int closestMilestone(const Config& q);
  /// std::out_of_range for a bad index.
  Config milestone(int i) const;
  /// Throws before endpoints for point-to-point planners.
  void planMore(int iterations);

  bool solutionPath(Path& out);
  bool path(int a, int b, Path& out);
  bool pathToAny(int a, const std::vector<int>& goals, Path& out);
  /// std::runtime_error("That motion planner cannot accept objective functions").
  void setObjective(const Objective& objective);
  /// "iterations", "milestones", "components"; std::runtime_error otherwise.
  double data(const std::string& name) const;
  std::map<std::string, std::string> stats() const;
  void roadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const;
  bool isSolved();

  const std::shared_ptr<CSpace>& space() const { return space_; }
  const PlannerSettings& settings() const { return settings_; }

  /// Held while a call runs, so that planMore from two threads on one plan
  /// takes turns instead of corrupting it.
  std::mutex& mutex() const { return mutex_; }

 private:
  void checkSize(const Config& q, const char* what) const;
  void checkIndex(int i) const;

  std::shared_ptr<CSpace> space_;
  PlannerSettings settings_;
  std::unique_ptr<MotionPlanner> planner_;
  /// Adds the endpoints not yet in the planner (a callback raised while
  /// they were added): planMore retries them first.
  void addPendingEndpoints();
  std::vector<Config> pendingEndpoints_;
  bool endpointsSet_ = false, goalSet_ = false;
  int dim_ = -1;
  mutable std::mutex mutex_;
};

/// "fails ['a', 'b']": the failing tests as the reference's messages list them.
std::string failureList(const std::vector<std::string>& names);

}  // namespace plan
}  // namespace klampt
