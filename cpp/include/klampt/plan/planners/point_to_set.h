// Planning from a start to a goal set (setEndpointSet). Goals are drawn from
// the set's sampler (or from the space's sampler, kept when they pass the
// set's test) and must be feasible: a first one at once, then one every
// 50 x (number of goals) iterations, or whenever every goal's search is done.
// A multi-query planner (prm, sblprt, the * family) gets each goal as a
// milestone of its one roadmap; a point-to-point planner (sbl, rrt) runs one
// search per goal, each unsolved one advancing every iteration. The solution
// is the cheapest path found to any goal.
#pragma once
#include "klampt/plan/planners/modifiers.h"

namespace klampt {
namespace plan {

class PointToSetPlanner : public MotionPlanner {
 public:
  /// `make` builds the base planner(s); `multiQuery` says whether one base
  /// takes every goal as a milestone.
  PointToSetPlanner(std::shared_ptr<CSpace> space, PlannerMaker make, bool multiQuery, const Config& start,
                    GoalSet goal, std::uint64_t seed);

  /// Milestone 0 is the start; other milestones are the goals found (in order).
  bool canAddMilestone() const override { return false; }
  int addMilestone(const Config&) override { return -1; }
  int numMilestones() const override { return 1 + (int)goals_.size(); }
  Config milestone(int i) const override;
  void iterate() override;
  int numComponents() const override;
  bool isConnected(int a, int b) const override;
  bool getPath(int a, int b, Path& out) override;
  bool isSolved() override;
  bool getSolution(Path& out) override;
  bool canUseObjective() const override { return true; }
  void setObjective(const Objective& objective) override;
  void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const override;
  void getStats(std::map<std::string, std::string>& out) const override;

 private:
  /// Draws one candidate; adds it as a goal if it is one.
  bool sampleGoal();

  PlannerMaker make_;
  bool multiQuery_;
  Config start_;
  GoalSet goal_;
  std::vector<Config> goals_;
  std::vector<int> goalIds_;                             // multi-query: base milestone of each goal
  std::unique_ptr<MotionPlanner> roadmap_;               // multi-query base
  std::vector<std::unique_ptr<MotionPlanner>> searches_; // point-to-point: one per goal
  int sinceGoal_ = 0;
};

}  // namespace plan
}  // namespace klampt
