// Whole-robot conversions between link space (one entry per link) and driver
// space (one per driver), built on Robot's per-driver functions.
#pragma once
#include "klampt/model/robot.h"

namespace klampt {

/// Each driver's value at configuration `q` (numLinks() entries).
VectorX configToDrivers(const Robot& robot, const VectorX& q);
/// Each driver's velocity at link velocities `dq` (numLinks() entries).
VectorX velocityToDrivers(const Robot& robot, const VectorX& dq);
/// The robot's current configuration with every driver set to `values`
/// (one per driver); links no driver moves keep their values.
VectorX configFromDrivers(const Robot& robot, const VectorX& values);
/// The robot's current velocity with every driver's set to `values`.
VectorX velocityFromDrivers(const Robot& robot, const VectorX& values);

}  // namespace klampt
