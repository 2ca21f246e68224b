// "rrt": rapidly-exploring random trees. Bidirectional (the default): each
// iteration extends whichever of the start and goal trees has the node
// nearest a random sample (as the reference does: the tree whose Voronoi
// region the sample falls in) by at most `delta` toward it, then tries the
// straight edge from the new node to the nearest node of the other tree when
// it is within connectionThreshold. Unidirectional: only the start tree grows, and the
// goal is tried from each new node the same way. Edges are checked when made.
#pragma once
#include "klampt/plan/nearest.h"
#include "klampt/plan/roadmap.h"
#include "klampt/plan/settings.h"

namespace klampt {
namespace plan {

class RRTPlanner : public MotionPlanner {
 public:
  RRTPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& settings);

  /// Milestone 0 roots the start tree, 1 the goal tree; later ones are
  /// extra roots that other trees may reach.
  int addMilestone(const Config& q) override;
  int numMilestones() const override { return graph_.numNodes(); }
  Config milestone(int i) const override;
  bool isPointToPoint() const override { return true; }
  void iterate() override;
  int numComponents() const override { return graph_.numComponents(); }
  bool isConnected(int a, int b) const override;
  bool getPath(int a, int b, Path& out) override;
  bool canUseObjective() const override { return true; }
  void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const override;

 private:
  /// Grows `tree`, or `other` (if >= 0) when its nearest node to the sample
  /// is nearer, toward a sample; the new node or -1.
  int extend(int tree, int other);
  /// Joins node n to `target` (a node of another component) if in reach.
  bool tryConnect(int n, int target);

  Roadmap graph_;
  std::vector<int> treeOf_;                // node -> tree (0 start, 1 goal, 2+ extra roots)
  std::vector<NearestNeighbors> trees_;
  bool bidirectional_;
  double delta_, connectionThreshold_;
};

}  // namespace plan
}  // namespace klampt
