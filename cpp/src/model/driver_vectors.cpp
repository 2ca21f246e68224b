#include "klampt/model/driver_vectors.h"

namespace klampt {

VectorX configToDrivers(const Robot& robot, const VectorX& q) {
  VectorX out((Eigen::Index)robot.drivers.size());
  for (int d = 0; d < out.size(); ++d) out[d] = robot.driverValue(d, q);
  return out;
}

VectorX velocityToDrivers(const Robot& robot, const VectorX& dq) {
  VectorX out((Eigen::Index)robot.drivers.size());
  for (int d = 0; d < out.size(); ++d) out[d] = robot.driverVelocity(d, dq);
  return out;
}

VectorX configFromDrivers(const Robot& robot, const VectorX& values) {
  VectorX q = robot.q;
  for (int d = 0; d < values.size(); ++d) robot.setDriverValue(d, values[d], q);
  return q;
}

VectorX velocityFromDrivers(const Robot& robot, const VectorX& values) {
  VectorX dq = robot.dq;
  for (int d = 0; d < values.size(); ++d) robot.setDriverVelocity(d, values[d], dq);
  return dq;
}

}  // namespace klampt
