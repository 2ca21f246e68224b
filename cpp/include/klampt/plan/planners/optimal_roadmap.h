// The asymptotically optimal roadmap planners: "prm*" (each sample joins its
// k(n) = e (1 + 1/d) log n nearest milestones, edges checked), "rrt*" (an RRG:
// each new node steers at most r(n) = (log n / n)^(1/d) from its nearest node,
// n counting iterations, and at most connectionThreshold, as the reference's
// planner does (perturbationRadius does not apply), then joins its k(n)
// nearest within that radius), and their lazy versions "lazyprm*" and
// "lazyrrg*", which check an edge only when it lies on a path that would
// beat the best one found by the suboptimalityFactor. With bidirectional,
// RRG grows from the goal as well. The solution is the cheapest path by the
// objective (length by default) through checked edges.
#pragma once
#include <set>
#include "klampt/plan/nearest.h"
#include "klampt/plan/roadmap.h"
#include "klampt/plan/settings.h"

namespace klampt {
namespace plan {

class OptimalRoadmapPlanner : public MotionPlanner {
 public:
  OptimalRoadmapPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& settings, bool rrg,
                        bool lazy);

  int addMilestone(const Config& q) override;
  int numMilestones() const override { return graph_.numNodes(); }
  Config milestone(int i) const override;
  void iterate() override;
  int numComponents() const override { return graph_.numComponents(); }
  bool isConnected(int a, int b) const override;
  bool getPath(int a, int b, Path& out) override;
  bool getPathToAny(int a, const std::vector<int>& goals, Path& out) override;
  bool isSolved() override;
  bool getSolution(Path& out) override;
  bool canUseObjective() const override { return true; }
  void setObjective(const Objective& objective) override;
  void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const override;
  void getStats(std::map<std::string, std::string>& out) const override;

 private:
  /// The space's dimension, else the milestones' size (at least 1).
  int dimension() const;
  int neighborCount() const;
  /// Adds a feasible node and its edges (checked unless lazy).
  int addNode(const Config& q, int from);
  void connectNeighbors(int n, int skip);
  /// RRT* until solved: a straight connection from node n to the nearest
  /// node of the start or goal tree it is not in (as bidirectional RRT
  /// does), since neighbours only join within the steering distance.
  void connectOtherTree(int n);
  /// The cheapest path from `a` to one of `goals` through checked edges
  /// only, or through any edge when `lazyEdges`.
  std::vector<int> cheapest(int a, const std::vector<int>& goals, bool lazyEdges);
  /// Lazy planners: checks the edges of the cheapest candidate paths until
  /// one is free or none beats the best by the suboptimality factor.
  void improveLazily();
  double edgeCost(int i, int j);

  Roadmap graph_;       // every edge (unchecked ones too, when lazy)
  NearestNeighbors near_;
  std::set<std::pair<int, int>> checked_;  // lazy: edges found free (lower, higher)
  bool rrg_, lazy_, bidirectional_;
  double suboptimality_;
  double threshold_;  // connectionThreshold: no edge is longer
  /// How far a new RRG node may be from the node it grows from.
  double steerRadius() const;
  /// Neighbours farther than this are not joined.
  double joinRadius() const;
  std::vector<int> best_;  // lazy: the best verified path's nodes
  double bestCost_ = INFINITY;
  bool dirty_ = false;     // lazy: edges changed since the last check
  int edgeChecks_ = 0;
};

}  // namespace plan
}  // namespace klampt
