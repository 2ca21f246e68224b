// "sblprt": a probabilistic roadmap of SBL trees. Every milestone seeds a
// tree; seeds are joined by SBL's lazily checked paths between their trees.
// Each iteration grows a random seed's tree (one not yet connected to all
// the others) and proposes a path to a random node of another seed's tree
// (the closest unconnected seed with probability 0.2, else a random one).
// Unlike the reference, seeds added later are candidates for each other, so
// point-to-point queries connect.
#pragma once
#include "klampt/plan/planners/sbl_forest.h"
#include "klampt/plan/roadmap.h"
#include "klampt/plan/settings.h"

namespace klampt {
namespace plan {

class SBLPRTPlanner : public MotionPlanner {
 public:
  SBLPRTPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& settings);

  int addMilestone(const Config& q) override;
  int numMilestones() const override { return forest_.numTrees(); }
  Config milestone(int i) const override;
  void iterate() override;
  int numComponents() const override { return seeds_.numComponents(); }
  bool isConnected(int a, int b) const override;
  bool getPath(int a, int b, Path& out) override;
  void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const override;
  void getStats(std::map<std::string, std::string>& out) const override;

 private:
  SBLForest forest_;
  Roadmap seeds_;                               // seed graph: an edge per connected pair
  std::map<std::pair<int, int>, Path> paths_;   // (lower, higher seed) -> path from lower to higher
  double maxExtendDistance_;
  int maxExtendIters_, randomizeFrequency_;
};

}  // namespace plan
}  // namespace klampt
