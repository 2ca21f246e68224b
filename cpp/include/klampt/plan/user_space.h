// The C-space behind motionplanning.CSpaceInterface: either a space of user
// callbacks (TestedSpace) or a native robot space (RobotCSpace) to which
// named user tests may be added. Which operations each kind supports, and
// what a copy shares, is decided here.
#pragma once
#include <memory>
#include <string>
#include "klampt/plan/robot_cspace.h"
#include "klampt/plan/tested_space.h"

namespace klampt {
namespace plan {

class UserSpace {
 public:
  /// An empty space of callbacks.
  UserSpace();
  /// A native robot space.
  explicit UserSpace(std::shared_ptr<RobotCSpace> robot);

  /// A callback space's copy (its callbacks, tests and settings), or the
  /// same native space: a robot space copies its world's state once, when
  /// it is made, so two handles of it agree.
  UserSpace copy() const;

  /// The space the planners and queries use; null once released.
  const std::shared_ptr<CSpace>& space() const { return space_; }
  /// The native robot space, or null for a callback space.
  const std::shared_ptr<RobotCSpace>& robot() const { return robot_; }
  /// Drops the space (the planners that hold it keep it).
  void release();

  /// Adds a named feasibility test (replacing one of that name); on a
  /// native space it runs after the native checks.
  void addFeasibilityTest(const std::string& name, TestedSpace::Test test);
  /// A callback space's tests become this one test named "feasible"; a
  /// native space keeps its checks and adds it after them.
  void setFeasibility(TestedSpace::Test test);

  /// The callback space; std::runtime_error naming `what` on a native one.
  TestedSpace& callbacks(const char* what) const;
  /// The native robot space; std::runtime_error naming `what` on a
  /// callback one.
  const std::shared_ptr<RobotCSpace>& native(const char* what) const;
  /// A native space's collision margin; 0 for a callback space, which has none.
  double collisionMargin() const { return robot_ ? robot_->collisionMargin() : 0.0; }

 private:
  std::shared_ptr<CSpace> space_;
  std::shared_ptr<TestedSpace> tested_;
  std::shared_ptr<RobotCSpace> robot_;
};

}  // namespace plan
}  // namespace klampt
