// "prm": the probabilistic roadmap. Each iteration samples a configuration;
// a feasible one becomes a milestone connected (edges checked) to its knn
// nearest milestones (at any distance, as the reference), or to all within
// connectionThreshold when knn is 0,
// skipping milestones already in its component unless
// ignoreConnectedComponents. Multi-query: milestones can be added any time.
#pragma once
#include "klampt/plan/nearest.h"
#include "klampt/plan/roadmap.h"
#include "klampt/plan/settings.h"

namespace klampt {
namespace plan {

class PRMPlanner : public MotionPlanner {
 public:
  PRMPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& settings);

  /// Adds a feasible milestone and connects it like a sample.
  int addMilestone(const Config& q) override;
  int numMilestones() const override { return graph_.numNodes(); }
  Config milestone(int i) const override;
  void iterate() override;
  int numComponents() const override { return graph_.numComponents(); }
  bool isConnected(int a, int b) const override;
  bool getPath(int a, int b, Path& out) override;
  bool getPathToAny(int a, const std::vector<int>& goals, Path& out) override;
  bool canUseObjective() const override { return true; }
  void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const override;

 private:
  void connect(int n);
  std::function<double(int, int, double)> edgeCostFn();

  Roadmap graph_;
  NearestNeighbors near_;
  int knn_;
  double connectionThreshold_;
  bool ignoreConnectedComponents_;
};

}  // namespace plan
}  // namespace klampt
