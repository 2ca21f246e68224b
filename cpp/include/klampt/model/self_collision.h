// Robot self-collision, a model-level query on the geometry queries,
// through a table built once per robot: each link's prepared shape and the
// enabled pairs of links with geometry, in index order. The single query (RobotModel.selfCollides) builds it per call; a
// batch builds it once and tests many configurations with it.
#pragma once
#include <utility>
#include <vector>
#include "klampt/geometry/queries/prepared_shape.h"

namespace klampt {

struct Robot;

class SelfCollisionTable {
 public:
  SelfCollisionTable() = default;
  explicit SelfCollisionTable(const Robot& robot) { reset(robot); }
  /// Rebuilds the table for robot (reusing its storage). It stays valid for
  /// the robot and its copies while their shapes and self-collision settings
  /// are unchanged.
  void reset(const Robot& robot);

  /// The first enabled pair, in the order (0,1), (0,2), ..., (1,2), ..., whose
  /// link geometries collide at the robot's current link transforms, or
  /// (-1, -1). tryFirst, if it is an enabled pair of the table, is tested
  /// before the others and returned if it collides.
  std::pair<int, int> firstColliding(const Robot& robot, std::pair<int, int> tryFirst = {-1, -1}) const;
  /// Every enabled colliding pair, in that order.
  std::vector<std::pair<int, int>> allColliding(const Robot& robot) const;
  /// The links the test reads (those of some pair), ascending.
  const std::vector<int>& links() const { return links_; }

 private:
  /// Places the bounds of the table's links at the robot's transforms.
  const std::vector<PlacedBounds>& place(const Robot& robot) const;
  bool pairCollides(const Robot& robot, const std::vector<PlacedBounds>& placed, int i, int j) const;

  std::vector<PreparedShape> shapes_;  // per link
  std::vector<std::pair<int, int>> pairs_;
  std::vector<int> links_;
};

/// Enabled self-collision pairs (i < j) of the robot at its current
/// configuration whose link geometries collide; stops at the first if asked.
std::vector<std::pair<int, int>> selfCollidingPairs(const Robot& robot, bool stopAtFirst);

}  // namespace klampt
