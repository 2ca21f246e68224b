// Edits of a robot's per-link limits (one entry per link). The drivers that
// move a single link, all but affine ones, take the new limits of that link.
#pragma once
#include "klampt/model/robot.h"

namespace klampt {

void setJointLimits(Robot& robot, const VectorX& qmin, const VectorX& qmax);
/// Symmetric limits: velocities in [-vmax, vmax].
void setVelocityLimits(Robot& robot, const VectorX& vmax);
void setAccelerationLimits(Robot& robot, const VectorX& amax);
void setTorqueLimits(Robot& robot, const VectorX& tmax);

}  // namespace klampt
