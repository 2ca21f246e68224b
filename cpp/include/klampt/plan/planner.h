// The interface every planner implements (the reference's
// MotionPlannerInterface): milestones, iterations, connectivity, paths,
// roadmap, statistics and optional path costs.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include "klampt/plan/cspace.h"

namespace klampt {
namespace plan {

using Path = std::vector<Config>;
using Edge = std::pair<int, int>;

/// Path costs: the sum of edgeCost over consecutive milestones (the space's
/// distance when unset) plus terminalCost of the last.
struct Objective {
  std::function<double(const Config&, const Config&)> edgeCost;
  std::function<double(const Config&)> terminalCost;
  bool empty() const { return !edgeCost && !terminalCost; }
  double edge(CSpace& space, const Config& a, const Config& b) const;
  double terminal(const Config& q) const { return terminalCost ? terminalCost(q) : 0.0; }
  double pathCost(CSpace& space, const Path& path) const;
};

/// A goal region: a membership test and optionally a sampler of candidates
/// (a candidate is a goal only if it passes the test and is feasible).
struct GoalSet {
  std::function<bool(const Config&)> test;
  std::function<void(Config&)> sampler;
};

class MotionPlanner {
 public:
  MotionPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed) : space_(std::move(space)), rng_(seed) {}
  virtual ~MotionPlanner() = default;

  CSpace& space() const { return *space_; }
  const std::shared_ptr<CSpace>& spacePtr() const { return space_; }

  /// Whether milestones can be added (multi-query planners, or a
  /// point-to-point planner before both endpoints are given).
  virtual bool canAddMilestone() const { return true; }
  /// Adds a feasible configuration as a milestone; its index, or -1 if q is
  /// infeasible (or cannot be added).
  virtual int addMilestone(const Config& q) = 0;
  virtual int numMilestones() const = 0;
  virtual Config milestone(int i) const = 0;
  /// The milestone nearest to q (by the space's distance), -1 if none.
  virtual int closestMilestone(const Config& q);

  /// Point-to-point planners need milestones 0 (start) and 1 (goal) first.
  virtual bool isPointToPoint() const { return false; }
  /// One iteration: one extension / sample plus its checks.
  virtual void iterate() = 0;
  void planMore(int iterations) {
    for (int i = 0; i < iterations; ++i) iterate();
  }
  int numIterations() const { return iterations_; }
  virtual int numComponents() const = 0;
  virtual bool isConnected(int a, int b) const = 0;
  /// The path from milestone a to b along the roadmap (the best one by the
  /// objective); false if they are not connected.
  virtual bool getPath(int a, int b, Path& out) = 0;
  /// The best path from a to any of `goals`.
  virtual bool getPathToAny(int a, const std::vector<int>& goals, Path& out);

  /// The answer to the problem: the start-goal path (or start-to-goal-set).
  virtual bool isSolved() { return numMilestones() >= 2 && isConnected(0, 1); }
  virtual bool getSolution(Path& out) { return isSolved() && getPath(0, 1, out); }

  virtual bool canUseObjective() const { return false; }
  virtual void setObjective(const Objective& objective) { objective_ = objective; }
  const Objective& objective() const { return objective_; }

  /// Vertices and (i, j) edges of what the planner has built.
  virtual void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const = 0;
  /// numIters, numMilestones, numComponents and planner-specific counters.
  virtual void getStats(std::map<std::string, std::string>& out) const;

 protected:
  std::shared_ptr<CSpace> space_;
  Rng rng_;
  int iterations_ = 0;
  Objective objective_;
};

}  // namespace plan
}  // namespace klampt
