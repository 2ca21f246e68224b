// Planners wrapped around another planner, as the reference's "shortcut"
// and "restart" settings make them: ShortcutPlanner keeps improving the
// first solution by random shortcuts; RestartPlanner re-plans from scratch
// in rounds that end on restartTermCond, keeping the best path (and
// shortcutting it as well when both are asked for).
#pragma once
#include <functional>
#include <memory>
#include "klampt/plan/planner.h"
#include "klampt/plan/settings.h"

namespace klampt {
namespace plan {

/// Makes a fresh base planner with the given seed.
using PlannerMaker = std::function<std::unique_ptr<MotionPlanner>(std::uint64_t seed)>;

/// One random shortcut attempt on `path`: two random points along it joined
/// straight if that edge is free and the path gets cheaper. True if improved.
bool tryShortcut(CSpace& space, const Objective& objective, Rng& rng, Path& path);

/// A planner that forwards to another (the base).
class WrappedPlanner : public MotionPlanner {
 public:
  WrappedPlanner(std::unique_ptr<MotionPlanner> base, std::uint64_t seed);
  bool canAddMilestone() const override { return base_->canAddMilestone(); }
  int addMilestone(const Config& q) override { return base_->addMilestone(q); }
  int numMilestones() const override { return base_->numMilestones(); }
  Config milestone(int i) const override { return base_->milestone(i); }
  int closestMilestone(const Config& q) override { return base_->closestMilestone(q); }
  bool isPointToPoint() const override { return base_->isPointToPoint(); }
  int numComponents() const override { return base_->numComponents(); }
  /// Start and goal stay connected once a solution was kept.
  bool isConnected(int a, int b) const override;
  bool getPath(int a, int b, Path& out) override;
  bool canUseObjective() const override { return true; }
  void setObjective(const Objective& objective) override;
  void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const override {
    base_->getRoadmap(vertices, edges);
  }
  bool isSolved() override { return !best_.empty() || base_->isSolved(); }
  bool getSolution(Path& out) override;

 protected:
  std::unique_ptr<MotionPlanner> base_;
  Path best_;  // the improved solution, once there is one
};

class ShortcutPlanner : public WrappedPlanner {
 public:
  using WrappedPlanner::WrappedPlanner;
  void iterate() override;
  void getStats(std::map<std::string, std::string>& out) const override;

 private:
  int shortcuts_ = 0;
};

class RestartPlanner : public WrappedPlanner {
 public:
  RestartPlanner(PlannerMaker make, const HaltingCondition& round, bool shortcut, std::uint64_t seed);
  int addMilestone(const Config& q) override;
  void iterate() override;
  void getStats(std::map<std::string, std::string>& out) const override;

 private:
  void newRound();
  PlannerMaker make_;
  HaltingCondition round_;
  bool shortcut_;
  std::vector<Config> milestones_;  // re-added to each round's planner
  int roundIters_ = 0, rounds_ = 1;
  double roundStart_ = 0;
};

}  // namespace plan
}  // namespace klampt
