// "sbl": the single-query bidirectional lazy planner. Each iteration grows
// the start or the goal tree (at random) by one perturbation and proposes a
// lazily checked path through a node of the other tree in the new node's
// grid cell, then through the other tree's nearest node (SBLForest).
#pragma once
#include "klampt/plan/planners/sbl_forest.h"
#include "klampt/plan/settings.h"

namespace klampt {
namespace plan {

class SBLPlanner : public MotionPlanner {
 public:
  SBLPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& settings);

  bool canAddMilestone() const override { return endpoints_ < 2; }
  /// The first milestone is the start, the second the goal.
  int addMilestone(const Config& q) override;
  int numMilestones() const override;
  Config milestone(int i) const override;
  bool isPointToPoint() const override { return true; }
  void iterate() override;
  int numComponents() const override { return solved_ ? 1 : 2; }
  bool isConnected(int a, int b) const override;
  bool getPath(int a, int b, Path& out) override;
  void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const override;

 private:
  SBLForest forest_;
  Config start_, goal_;
  int endpoints_ = 0;
  bool solved_ = false;
  Path solution_;
  double maxExtendDistance_, connectionThreshold_;
  int maxExtendIters_, randomizeFrequency_;
  bool useGrid_;
};

}  // namespace plan
}  // namespace klampt
