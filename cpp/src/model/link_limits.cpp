#include "klampt/model/link_limits.h"

namespace klampt {

namespace {

void refreshDriverLimits(Robot& r) {
  for (int d = 0; d < (int)r.drivers.size(); ++d)
    if (r.drivers[d].type != DriverType::Affine) r.setDriverLimitsFromLinks(d);
}

}  // namespace

void setJointLimits(Robot& robot, const VectorX& qmin, const VectorX& qmax) {
  robot.qMin = qmin;
  robot.qMax = qmax;
  refreshDriverLimits(robot);
}

void setVelocityLimits(Robot& robot, const VectorX& vmax) {
  robot.velMax = vmax;
  robot.velMin = -vmax;
  refreshDriverLimits(robot);
}

void setAccelerationLimits(Robot& robot, const VectorX& amax) {
  robot.accMax = amax;
  refreshDriverLimits(robot);
}

void setTorqueLimits(Robot& robot, const VectorX& tmax) {
  robot.torqueMax = tmax;
  refreshDriverLimits(robot);
}

}  // namespace klampt
