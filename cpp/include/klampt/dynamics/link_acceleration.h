// Accelerations of a link from joint velocities and accelerations: the
// forward pass of Newton-Euler along the link's chain of ancestors only.
#pragma once
#include "klampt/dynamics/workspace.h"
#include "klampt/model/robot.h"

namespace klampt {

/// Angular acceleration of `link` and linear acceleration of its point `plocal`
/// (world coordinates) for joint velocities dq and accelerations ddq (null:
/// zero), i.e. J ddq + dJ/dt dq. O(depth).
void linkAcceleration(const Robot& robot, int link, const Vector3& plocal, const double* dq, const double* ddq,
                      DynamicsWorkspace& ws, Vector3& angular, Vector3& linear);

}  // namespace klampt
