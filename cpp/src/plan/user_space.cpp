// The space behind CSpaceInterface (klampt/plan/user_space.h).
#include "klampt/plan/user_space.h"

#include <stdexcept>
#include <utility>

namespace klampt {
namespace plan {

UserSpace::UserSpace() : tested_(std::make_shared<TestedSpace>()) { space_ = tested_; }

UserSpace::UserSpace(std::shared_ptr<RobotCSpace> robot) : robot_(std::move(robot)) { space_ = robot_; }

UserSpace UserSpace::copy() const {
  if (robot_) return *this;
  UserSpace out;
  out.tested_->copyFrom(*tested_);
  return out;
}

void UserSpace::release() {
  space_.reset();
  tested_.reset();
  robot_.reset();
}

void UserSpace::addFeasibilityTest(const std::string& name, TestedSpace::Test test) {
  if (robot_)
    robot_->addExtraTest(name, std::move(test));
  else
    tested_->addFeasibilityTest(name, std::move(test));
}

void UserSpace::setFeasibility(TestedSpace::Test test) {
  if (robot_)
    addFeasibilityTest("feasible", std::move(test));
  else
    tested_->setFeasibility(std::move(test));
}

TestedSpace& UserSpace::callbacks(const char* what) const {
  if (!tested_) throw std::runtime_error(std::string(what) + " is not available on a native robot space");
  return *tested_;
}

const std::shared_ptr<RobotCSpace>& UserSpace::native(const char* what) const {
  if (!robot_) throw std::runtime_error(std::string(what) + " needs a native robot space");
  return robot_;
}

}  // namespace plan
}  // namespace klampt
