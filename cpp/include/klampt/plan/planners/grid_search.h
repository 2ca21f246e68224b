// "fmm" and "fmm*": resolution-complete planning on a grid over the space's
// box (properties "minimum" and "maximum"). The start and goal join their
// nearest grid points; a shortest grid path (diagonal moves included up to
// 3-D, axis moves beyond) is searched with the grid points' feasibility
// tested as the search reaches them, its edges are then checked (blocked
// ones are removed and the search repeated), and the path is straightened
// where straight edges are free. gridResolution <= 0 means 1/8 of each side.
// "fmm*" is anytime: each iteration refines the resolution by sqrt(2) (up to a
// million grid points) and keeps the shortest path found.
#pragma once
#include <set>
#include <vector>
#include "klampt/plan/planner.h"
#include "klampt/plan/settings.h"

namespace klampt {
namespace plan {

class GridSearchPlanner : public MotionPlanner {
 public:
  /// std::invalid_argument if the space has no finite minimum / maximum.
  GridSearchPlanner(std::shared_ptr<CSpace> space, std::uint64_t seed, const PlannerSettings& settings, bool anytime);

  bool canAddMilestone() const override { return endpoints_.size() < 2; }
  int addMilestone(const Config& q) override;
  int numMilestones() const override { return (int)endpoints_.size(); }
  Config milestone(int i) const override;
  bool isPointToPoint() const override { return true; }
  void iterate() override;
  int numComponents() const override { return solution_.empty() ? 2 : 1; }
  bool isConnected(int a, int b) const override;
  bool getPath(int a, int b, Path& out) override;
  void getRoadmap(std::vector<Config>& vertices, std::vector<Edge>& edges) const override;
  void getStats(std::map<std::string, std::string>& out) const override;

 private:
  /// One search at the current resolution; the path found (empty if none).
  Path search();
  void straighten(Path& path);

  std::vector<double> lo_, hi_, h_;
  bool anytime_;
  bool searched_ = false;  // the search at the current resolution is done
  bool refined_ = false;   // fmm*: the resolution changed since
  std::vector<Config> endpoints_;
  Path solution_;
  double solutionCost_ = INFINITY;
  long gridPoints_ = 0;
};

}  // namespace plan
}  // namespace klampt
